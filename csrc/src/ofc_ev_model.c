/* ofc_ev_model.c -- the expected-points model (see ofc_solver.h and ofc_ev_model.h):
 * per row and strength, the chances of beating, and the expected row units against,
 * the typical opponent's row, built from the shipped opponent row counts; the value
 * of a board under that model. */
#include <string.h>

#include "ofc_ev_model.h"
#include "ofc_opponent_rows.h" /* generated: the shipped opponent row counts */

int32_t ofc_ev_tables_init_counts(const ofc_rules *rules, const uint32_t *counts,
                                  ofc_ev_tables *out)
{
    int row;
    const ofc_span in[2] = {
        {rules, sizeof *rules},
        {counts, (size_t)OFC_ROWS * OFC_STRENGTH_TABLE_SIZE * sizeof *counts}};
    if (!rules || ofc_rules_check(rules) != OFC_OK) {
        return OFC_E_RULES;
    }
    if (!counts || !out || ofc_over_any(out, sizeof *out, in, 2)) {
        return OFC_E_VALUE; /* out untouched: its writes would change what is read */
    }
    memset(out, 0, sizeof *out);
    for (row = 0; row < OFC_ROWS; row++) {
        uint32_t c[OFC_STRENGTH_TABLE_SIZE]; /* the row's counts, read once (ofc_fast.h) */
        uint32_t want = ofc_row_size((uint32_t)row);
        double total = 0, above = 0, above_units = 0;
        int s;
        if (row == OFC_MIDDLE && rules->middle_lowball) {
            /* No opponent data for a 2-7 middle: share of low-hand classes. */
            for (s = 1; s <= OFC_STRENGTH_MAX; s++) {
                double low, w, l, wv;
                if (ofc_info_cards((uint16_t)s) != 5u) {
                    continue;
                }
                low = ofc_tab_low27[s];
                w = (low - 1.0) / 7461.0;
                l = (7462.0 - low) / 7461.0;
                wv = rules->win_value[row][s];
                out->win[row][s] = (float)w;
                out->lose[row][s] = (float)l;
                out->lose_units[row][s] = (float)l;
                out->units[row][s] = (float)(w * wv - l);
            }
            out->lose[row][0] = 1.0f;
            out->lose_units[row][0] = 1.0f;
            out->units[row][0] = -1.0f;
            continue;
        }
        ofc_copy_cards((uint8_t *)c,
                       (const uint8_t *)(counts + (size_t)row * OFC_STRENGTH_TABLE_SIZE),
                       sizeof c);
        for (s = 1; s <= OFC_STRENGTH_MAX; s++) {
            if (ofc_info_cards((uint16_t)s) == want) {
                total += c[s];
            }
        }
        if (total <= 0) {
            return OFC_E_VALUE;
        }
        for (s = OFC_STRENGTH_MAX; s >= 1; s--) {
            double p, wv, below;
            if (ofc_info_cards((uint16_t)s) != want) {
                continue;
            }
            p = c[s] / total;
            wv = rules->win_value[row][s];
            below = 1.0 - above - p;
            below = below < 0 ? 0 : below;
            out->win[row][s] = (float)below;
            out->lose[row][s] = (float)above;
            out->lose_units[row][s] = (float)above_units;
            out->units[row][s] = (float)(below * wv - above_units);
            above += p;
            above_units += p * wv;
        }
        /* Strength 0 = no hand (a fouled row): loses to everything. */
        out->lose[row][0] = 1.0f;
        out->lose_units[row][0] = (float)above_units;
        out->units[row][0] = (float)-above_units;
    }
    return OFC_OK;
}

int ofc_ev_counts_ok(const uint32_t *counts)
{
    int row, s;
    for (row = 0; row < OFC_ROWS; row++) {
        const uint32_t *c = counts + (size_t)row * OFC_STRENGTH_TABLE_SIZE;
        uint32_t want = ofc_row_size((uint32_t)row);
        uint64_t total = 0;
        if (c[0] != 0) {
            return 0;
        }
        for (s = 1; s <= OFC_STRENGTH_MAX; s++) {
            if (c[s] != 0 && ofc_info_cards((uint16_t)s) != want) {
                return 0;
            }
            total += c[s];
        }
        if (total == 0) {
            return 0;
        }
    }
    return 1;
}

int32_t ofc_ev_tables_init(const ofc_rules *rules, ofc_ev_tables *out)
{
    return ofc_ev_tables_init_counts(rules, ofc_opponent_row_counts, out);
}

const uint32_t *ofc_ev_opponent_counts(uint32_t *deals)
{
    if (deals) {
        *deals = ofc_opponent_row_deals;
    }
    return ofc_opponent_row_counts;
}

/* The non-additive part of the expected points: sweep, majority, sweep multiplier. */
double ofc_ev_coupling(const ofc_rules *r, const ofc_ev_tables *e, uint16_t sf,
                       uint16_t sm, uint16_t sb)
{
    double w[3], l[3], pw3, pl3, v, pmw, pml;
    double sweep = r->sweep_bonus, maj = r->majority_bonus;
    double mult1 = (double)r->sweep_multiplier - 1.0;
    uint16_t s[3];
    int i;
    s[0] = sf;
    s[1] = sm;
    s[2] = sb;
    for (i = 0; i < 3; i++) {
        w[i] = e->win[i][s[i]];
        l[i] = e->lose[i][s[i]];
    }
    pw3 = w[0] * w[1] * w[2];
    pl3 = l[0] * l[1] * l[2];
    v = sweep * (pw3 - pl3);
    if (maj != 0) {
        if (r->majority_rule == OFC_MAJORITY_MORE_ROWS) {
            double d[7] = {0, 0, 0, 1, 0, 0, 0}, nd[7];
            int k;
            for (i = 0; i < 3; i++) {
                double t = 1.0 - w[i] - l[i];
                for (k = 0; k < 7; k++) {
                    nd[k] = d[k] * t + (k > 0 ? d[k - 1] * w[i] : 0) +
                            (k < 6 ? d[k + 1] * l[i] : 0);
                }
                memcpy(d, nd, sizeof d);
            }
            pmw = d[4] + d[5] + d[6];
            pml = d[0] + d[1] + d[2];
        } else {
            pmw = w[0] * w[1] + w[0] * w[2] + w[1] * w[2] - 2 * pw3;
            pml = l[0] * l[1] + l[0] * l[2] + l[1] * l[2] - 2 * pl3;
        }
        v += maj * (pmw - pml);
    }
    if (mult1 != 0) {
        double wv = (double)r->win_value[0][sf] + r->win_value[1][sm] +
                    r->win_value[2][sb];
        double opp = e->lose_units[0][sf] * l[1] * l[2] +
                     l[0] * e->lose_units[1][sm] * l[2] +
                     l[0] * l[1] * e->lose_units[2][sb];
        v += mult1 * (pw3 * (wv + sweep + maj) - opp - pl3 * (sweep + maj));
    }
    return v;
}

/* Additive upper bound of one row's share of ofc_ev_coupling() (see the header). */
double ofc_ev_aug(const ofc_rules *r, const ofc_ev_tables *e, int row, uint16_t s)
{
    double w = e->win[row][s], l = e->lose[row][s];
    double sweep = r->sweep_bonus, maj = r->majority_bonus, sm = sweep + maj;
    double mult1 = (double)r->sweep_multiplier - 1.0;
    double kappa = r->majority_rule == OFC_MAJORITY_MORE_ROWS ? 1.0 : 0.5;
    double a = (ofc_pos_part(sweep) * w + ofc_neg_part(sweep) * l) / 3.0 +
               kappa * (ofc_pos_part(maj) * w + ofc_neg_part(maj) * l);
    if (mult1 != 0) {
        a += mult1 * (w * r->win_value[row][s] +
                      (ofc_pos_part(sm) * w + ofc_neg_part(sm) * l) / 3.0);
    }
    return a;
}

/* Expected points of a fouled board against a clean opponent. */
double ofc_ev_foul(const ofc_rules *r, const ofc_ev_tables *e)
{
    double units =
        (double)e->lose_units[0][0] + e->lose_units[1][0] + e->lose_units[2][0];
    if (!r->foul_pays_sweep) {
        return -units;
    }
    return -(double)r->sweep_multiplier * (units + r->sweep_bonus + r->majority_bonus);
}

double ofc_ev_value(const ofc_rules *r, const ofc_ev_tables *e, uint16_t sf, uint16_t sm,
                    uint16_t sb)
{
    double v = (double)e->units[0][sf] + e->units[1][sm] + e->units[2][sb];
    v += (double)r->royalty[0][sf] + r->royalty[1][sm] + r->royalty[2][sb];
    return v + ofc_ev_coupling(r, e, sf, sm, sb);
}

int32_t ofc_ev_board(const ofc_rules *rules, const ofc_ev_tables *ev,
                     const uint8_t board[13], double *value)
{
    ofc_board_eval e;
    int32_t status;
    if (!ofc_rules_scalars_ok(rules)) {
        return OFC_E_RULES;
    }
    if (!ev || !value) {
        return OFC_E_VALUE;
    }
    if (!board) {
        return OFC_E_COUNT;
    }
    status = ofc_eval_board(rules, board, &e);
    if (status != OFC_OK) {
        return status;
    }
    *value = e.foul ? ofc_ev_foul(rules, ev)
                    : ofc_ev_value(rules, ev, e.strength[0], e.strength[1], e.strength[2]);
    return OFC_OK;
}

