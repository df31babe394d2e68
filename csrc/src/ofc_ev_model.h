/* ofc_ev_model.h -- the expected-points model of a board against the typical opponent
 * (private; the public tables and ofc_ev_board() are in ofc_solver.h): the kernels
 * the branch and bound (ofc_bnb.c) and the solver entries (ofc_solver.c) value boards
 * with.  Defined in ofc_ev_model.c. */
#ifndef OFC_EV_MODEL_H
#define OFC_EV_MODEL_H

#include "ofc_internal.h"
#include "ofc_solver.h"

static inline double ofc_pos_part(double x) { return x > 0 ? x : 0; }
static inline double ofc_neg_part(double x) { return x < 0 ? -x : 0; }

/* The non-additive part of the expected points: sweep, majority, sweep multiplier. */
double ofc_ev_coupling(const ofc_rules *r, const ofc_ev_tables *e, uint16_t sf,
                       uint16_t sm, uint16_t sb);

/* Additive upper bound of one row's share of ofc_ev_coupling() (see ofc_solver.h). */
double ofc_ev_aug(const ofc_rules *r, const ofc_ev_tables *e, int row, uint16_t s);

/* Expected points of a fouled board against a clean opponent. */
double ofc_ev_foul(const ofc_rules *r, const ofc_ev_tables *e);

/* Expected points of a legal board with these row strengths. */
double ofc_ev_value(const ofc_rules *r, const ofc_ev_tables *e, uint16_t sf, uint16_t sm,
                    uint16_t sb);

/* 1 when counts (OFC_ROWS x OFC_STRENGTH_TABLE_SIZE, as ofc_ev_tables_init_counts()
 * reads them) hold counts only at the strengths each row can have (front 3-card,
 * middle and back 5-card; never strength 0) and every row has some: the opponent
 * rows a model file may carry (ofc_model.h). */
int ofc_ev_counts_ok(const uint32_t *counts);

#endif /* OFC_EV_MODEL_H */
