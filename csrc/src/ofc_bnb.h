/* ofc_bnb.h -- the branch and bound behind the exact Fantasyland solver and the
 * 13-card arranger (private): the search context, its workspace and result, and the
 * search itself (ofc_bnb.c, where the method is described).  The solver entries of
 * ofc_solver.c set a context up, run the search and read the result. */
#ifndef OFC_BNB_H
#define OFC_BNB_H

#include <stdint.h>

#include "ofc_ev_model.h"
#include "ofc_internal.h"
#include "ofc_internal_solve.h"
#include "ofc_solver.h"

#define KP ((int64_t)1 << 40)           /* one point, royalty objectives */
#define K_SV_SHIFT 24                   /* stay value units: 2^-16 point */
#define K_TB_MAX 4194303.0              /* 2^22 - 1: tie-break range of one row */
/* Alternatives: a stay's bonus (or malus), more than any royalty gap (3 rows of int16_t
 * each way: < 2^18 points) plus any stay value (|v| <= OFC_STAY_VALUE_LIMIT < 2^17), so
 * a board that stays beats one that does not whatever the stay value; keys stay below
 * 2^62 (three sv_max and the royalties). */
#define K_BIG (((int64_t)1 << 19) * KP)
#define K_NEG (INT64_MIN / 4)           /* "impossible" (sums of three do not wrap) */
#define EV_SCALE 4294967296.0           /* one point, expected-points objective */
/* Prefix maxima are kept per block of 8 strengths: pm[s >> 3] covers every hand up to
 * (s | 7), a superset of the legal ones, so it stays an upper bound (exact checks are
 * made at each middle and front). */
#define PM_SHIFT 3
#define PM_SIZE ((OFC_STRENGTH_TABLE_SIZE >> PM_SHIFT) + 1)

enum { MODE_ANY = 0, MODE_STAY = 1, MODE_NOSTAY = 2 };

static inline int64_t ofc_q_round(double x) { return (int64_t)(x >= 0 ? x + 0.5 : x - 0.5); }

/* Cards of the next Fantasyland after a legal board with these row strengths (the
 * rule itself: ofc_internal_solve.h, shared with ofc_heuristic.c). */
static inline int ofc_bnb_fl_next(const ofc_fl_rules *fl, int lowball, int n_this, uint16_t sf,
                                  uint16_t sm, uint16_t sb)
{
    uint16_t s[3];
    s[0] = sf;
    s[1] = sm;
    s[2] = sb;
    return ofc_fl_next_k(fl, lowball, n_this, s);
}

typedef struct sv_ctx {
    const ofc_rules *r;
    const ofc_fl_rules *fl; /* NULL when nothing can stay */
    const ofc_ev_tables *ev;
    int ev_mode;            /* 1: expected points */
    int lowball;
    int n;
    int64_t stay_q[5];      /* coupling of a stay with 13..17 next cards */
    int64_t sv_max;         /* max(0, stay_q over reachable counts) */
    double wv_max[3];       /* expected points: the largest win value of each row */
    int tie;                /* 1 (expected points): keys are compared, then the sum of
                             * the row strengths, so subtrees whose bound equals the
                             * best key are searched too (the result does not depend on
                             * the search order); 0: the key's low bits hold the
                             * tie-break already */
    int64_t slack;          /* a subtree is skipped when bound < best key + slack:
                             * 0 with the tie-break above, else 1 */
} sv_ctx;

typedef struct sv_item {
    int64_t key;
    int32_t idx;
} sv_item;

typedef struct sv_ws {
    int n, n5, n3;
    uint8_t cards[OFC_SOLVER_MAX_CARDS];
    int64_t *vb, *vm, *ob, *om, *vf, *of, *pm_m, *pm_f, *pv_m, *pv_f, *hkey;
    uint32_t *m5, *m3;
    uint16_t *s5, *s3, *ord3, *hidx, *sx_m, *sx_f;
    sv_item *items; /* 2 * n3: sorting buffer */
    uint64_t nodes;
} sv_ws;

typedef struct sv_best {
    int64_t key;
    int tie; /* expected points: sum of the row strengths, the tie-break */
    int b, m, f;
} sv_best;


/* Allocates the workspace of a search over n cards (one block, returned: free() it
 * when done; NULL when out of memory) and points w's arrays into it. */
void *ofc_bnb_alloc(sv_ws *w, int n);

/* Ranks every 5-card and 3-card subset of cards (w->n of them), in colex order. */
void ofc_bnb_rank(sv_ws *w, const uint8_t *cards);

/* The best board of the ranked cards of w under context c, into best. */
void ofc_bnb_search(const sv_ctx *c, sv_ws *w, sv_best *best);

#endif /* OFC_BNB_H */
