/* ofc_solver.c -- the entries of the exact Fantasyland solver and the 13-card arranger
 * (see ofc_solver.h): check the input, set up the search context (objective, stay
 * values, alternatives), run the branch and bound (ofc_bnb.c) and write the settings.
 * Alternatives (best staying / best non-staying board) are two more searches in which
 * a stay is worth 2^19 points more (or is worth -2^19 points: K_BIG, ofc_bnb.h, more
 * than any royalty gap plus any stay value): a board that stays (does not) wins
 * whenever one exists, and among those the usual key decides. */
#include <stdlib.h>
#include <string.h>

#include "ofc_bnb.h"

/* ------------------------------------------------------------------ results */

static void sort_desc(uint8_t *a, int n)
{
    int i, j;
    for (i = 1; i < n; i++) {
        uint8_t x = a[i];
        for (j = i; j > 0 && a[j - 1] < x; j--) {
            a[j] = a[j - 1];
        }
        a[j] = x;
    }
}

static void put_row(const sv_ws *w, uint32_t mask, uint8_t *out, int size)
{
    int i, k = 0;
    for (i = 0; i < w->n && k < size; i++) {
        if (mask >> i & 1u) {
            out[k++] = w->cards[i];
        }
    }
    sort_desc(out, size);
}

/* Fills a setting from masks; foul = 1 makes it the fouled stand-in. */
static void fill_setting(const sv_ctx *c, const sv_ws *w, uint32_t mf, uint32_t mm,
                         uint32_t mb, int foul, const double *stay_value,
                         ofc_setting *out)
{
    const ofc_rules *r = c->r;
    uint32_t used = mf | mm | mb;
    int i, row;
    memset(out, 0, sizeof *out);
    put_row(w, mf, out->board, 3);
    put_row(w, mm, out->board + 3, 5);
    put_row(w, mb, out->board + 8, 5);
    for (i = 0; i < w->n; i++) {
        if (!(used >> i & 1u)) {
            out->discards[out->n_discards++] = w->cards[i];
        }
    }
    out->found = 1;
    out->foul = (uint8_t)foul;
    out->strength[0] = ofc_rank3_k(out->board[0], out->board[1], out->board[2]);
    out->strength[1] = ofc_rank5_k(out->board[3], out->board[4], out->board[5],
                                   out->board[6], out->board[7]);
    out->strength[2] = ofc_rank5_k(out->board[8], out->board[9], out->board[10],
                                   out->board[11], out->board[12]);
    if (foul) {
        out->value = c->ev_mode ? ofc_ev_foul(r, c->ev) : 0.0;
        return;
    }
    for (row = 0; row < OFC_ROWS; row++) {
        out->royalty[row] = r->royalty[row][out->strength[row]];
        out->royalties += out->royalty[row];
    }
    if (c->ev_mode) {
        out->value = ofc_ev_value(r, c->ev, out->strength[0], out->strength[1],
                              out->strength[2]);
        return;
    }
    out->next_cards = (uint8_t)ofc_bnb_fl_next(c->fl, c->lowball, c->n, out->strength[0],
                                       out->strength[1], out->strength[2]);
    out->stays = out->next_cards != 0;
    out->value = out->royalties;
    if (out->stays && stay_value) {
        out->value += stay_value[out->next_cards - 13];
    }
}

static void fill_best(const sv_ctx *c, const sv_ws *w, const sv_best *b,
                      const double *stay_value, ofc_setting *out)
{
    fill_setting(c, w, w->m3[b->f], w->m5[b->m], w->m5[b->b], 0, stay_value, out);
}

/* A fouled stand-in: the strongest back, then middle, then front. */
static void fill_foul(const sv_ctx *c, const sv_ws *w, ofc_setting *out)
{
    int j, jb = 0, jm = -1, jf = -1;
    for (j = 1; j < w->n5; j++) {
        if (w->s5[j] > w->s5[jb]) {
            jb = j;
        }
    }
    for (j = 0; j < w->n5; j++) {
        if (!(w->m5[j] & w->m5[jb]) && (jm < 0 || w->s5[j] > w->s5[jm])) {
            jm = j;
        }
    }
    for (j = 0; j < w->n3; j++) {
        if (!(w->m3[j] & (w->m5[jb] | w->m5[jm])) && (jf < 0 || w->s3[j] > w->s3[jf])) {
            jf = j;
        }
    }
    fill_setting(c, w, w->m3[jf], w->m5[jm], w->m5[jb], 1, NULL, out);
}

/* ----------------------------------------------------------------- entries */

static int32_t check_cards(const uint8_t *cards, size_t n)
{
    uint64_t seen = 0;
    if (!cards) {
        return OFC_E_COUNT;
    }
    return ofc_check_cards(cards, n, &seen);
}

/* Stay couplings for a mode; returns the reachable maximum (>= 0). */
static void set_stay(sv_ctx *c, const double *stay_value, int mode)
{
    int k, reach[5] = {0, 0, 0, 0, 0};
    const ofc_fl_rules *fl = c->fl;
    c->sv_max = 0;
    for (k = 0; k < 5; k++) {
        int64_t q = 0;
        if (stay_value) {
            q = ofc_q_round(stay_value[k] * 65536.0);
            if (q == 0 && stay_value[k] != 0.0) { /* below the resolution: its sign */
                q = stay_value[k] > 0.0 ? 1 : -1;
            }
            q *= (int64_t)1 << K_SV_SHIFT;
        }
        if (mode == MODE_STAY) {
            q += K_BIG;
        } else if (mode == MODE_NOSTAY) {
            q = -K_BIG;
        }
        c->stay_q[k] = q;
    }
    if (!fl) {
        return;
    }
    if (fl->stay_cards == OFC_FL_STAY_SAME) {
        reach[c->n - 13] = 1;
    } else if (fl->stay_cards == OFC_FL_STAY_ENTRY) {
        for (k = 0; k < fl->n_entry; k++) {
            reach[fl->entry_cards[k] - 13] = 1;
        }
        if (fl->lowball_entry) {
            reach[fl->lowball_entry - 13] = 1;
        }
        if (fl->lowball_both) {
            reach[fl->lowball_both - 13] = 1;
        }
        reach[ofc_fl_min_entry_k(fl) - 13] = 1;
    } else {
        reach[fl->stay_cards - 13] = 1;
    }
    for (k = 0; k < 5; k++) {
        if (reach[k] && c->stay_q[k] > c->sv_max) {
            c->sv_max = c->stay_q[k];
        }
    }
}

/* Copies the caller's cards, Fantasyland rules and stay values to locals (each input
 * read once: see ofc_copy_cards()). */
static void solver_inputs(uint8_t cards[OFC_SOLVER_MAX_CARDS], const uint8_t *cards_in,
                          size_t n, ofc_fl_rules *fl, const ofc_fl_rules *fl_in,
                          double stay[5], const double *stay_in)
{
    ofc_copy_cards(cards, cards_in, n);
    if (fl_in) {
        ofc_copy_cards((uint8_t *)fl, (const uint8_t *)fl_in, sizeof *fl);
    }
    if (stay_in) {
        ofc_copy_cards((uint8_t *)stay, (const uint8_t *)stay_in, 5 * sizeof *stay);
    }
}

int32_t ofc_solve_fantasyland(const ofc_rules *rules, const ofc_fl_rules *fl_in,
                              const ofc_ev_tables *ev, const uint8_t *cards_in, size_t n,
                              const double *stay_in, uint32_t flags,
                              ofc_fl_solution *out)
{
    uint8_t cards[OFC_SOLVER_MAX_CARDS];
    ofc_fl_rules fl_copy;
    double stay_copy[5];
    const ofc_fl_rules *fl = fl_in ? &fl_copy : NULL;
    const double *stay_value = stay_in ? stay_copy : NULL;
    sv_ctx c;
    sv_ws w;
    sv_best best, bs, bn;
    void *block;
    int32_t status;
    int k;
    const ofc_span in[5] = {{rules, sizeof *rules},
                            {fl_in, sizeof *fl_in},
                            {ev, sizeof *ev},
                            {cards_in, n},
                            {stay_in, sizeof stay_copy}};
    if (!out || ofc_over_any(out, sizeof *out, in, 5)) {
        return OFC_E_VALUE; /* out untouched: its writes would change what is read */
    }
    memset(out, 0, sizeof *out);
    if (!ofc_rules_scalars_ok(rules)) {
        return OFC_E_RULES;
    }
    if (n < OFC_SOLVER_MIN_CARDS || n > OFC_SOLVER_MAX_CARDS || !cards_in) {
        return OFC_E_COUNT;
    }
    solver_inputs(cards, cards_in, n, &fl_copy, fl_in, stay_copy, stay_in);
    if (fl && ofc_fl_rules_check(fl) != OFC_OK) {
        return OFC_E_RULES;
    }
    status = check_cards(cards, n);
    if (status != OFC_OK) {
        return status;
    }
    if (stay_value) {
        for (k = 0; k < 5; k++) {
            double v = stay_value[k];
            if (!(v >= -OFC_STAY_VALUE_LIMIT && v <= OFC_STAY_VALUE_LIMIT)) {
                return OFC_E_VALUE; /* NaN fails both comparisons */
            }
        }
    }
    if (flags & ~OFC_SOLVE_ALTERNATIVES) {
        return OFC_E_VALUE; /* a flag this library does not know */
    }
    memset(&c, 0, sizeof c);
    c.r = rules;
    c.fl = ofc_fl_on(fl) ? fl : NULL;
    c.ev = ev;
    c.lowball = rules->middle_lowball != 0;
    c.n = (int)n;
    c.slack = 1;
    block = ofc_bnb_alloc(&w, (int)n);
    if (!block) {
        return OFC_E_MEMORY;
    }
    ofc_bnb_rank(&w, cards);
    if (!(flags & OFC_SOLVE_ALTERNATIVES)) {
        set_stay(&c, stay_value, MODE_ANY);
        ofc_bnb_search(&c, &w, &best);
        if (best.b >= 0) {
            fill_best(&c, &w, &best, stay_value, &out->best);
        } else {
            fill_foul(&c, &w, &out->best);
        }
    } else {
        bs.b = -1;
        if (c.fl) {
            set_stay(&c, stay_value, MODE_STAY);
            ofc_bnb_search(&c, &w, &bs);
            if (bs.b >= 0) {
                fill_best(&c, &w, &bs, stay_value, &out->best_stay);
                if (!out->best_stay.stays) {
                    memset(&out->best_stay, 0, sizeof out->best_stay);
                    bs.b = -1;
                } else {
                    bs.key -= K_BIG;
                }
            }
        }
        set_stay(&c, stay_value, MODE_NOSTAY);
        ofc_bnb_search(&c, &w, &bn);
        if (bn.b >= 0) {
            fill_best(&c, &w, &bn, stay_value, &out->best_no_stay);
            if (out->best_no_stay.stays) {
                memset(&out->best_no_stay, 0, sizeof out->best_no_stay);
                bn.b = -1;
            }
        }
        if (bs.b >= 0 && (bn.b < 0 || bs.key >= bn.key)) {
            out->best = out->best_stay;
        } else if (bn.b >= 0) {
            out->best = out->best_no_stay;
        } else {
            fill_foul(&c, &w, &out->best);
        }
    }
    out->nodes = w.nodes;
    free(block);
    return OFC_OK;
}

static int32_t best_setting_ws(const sv_ctx *c, sv_ws *w, const uint8_t cards_in[13],
                               ofc_setting *out)
{
    sv_best best;
    uint8_t cards[OFC_BOARD_CARDS];
    int32_t status;
    if (!cards_in) {
        return OFC_E_COUNT;
    }
    ofc_copy_cards(cards, cards_in, OFC_BOARD_CARDS);
    status = check_cards(cards, 13);
    if (status != OFC_OK) {
        return status;
    }
    ofc_bnb_rank(w, cards);
    ofc_bnb_search(c, w, &best);
    if (best.b >= 0) {
        fill_best(c, w, &best, NULL, out);
    } else {
        fill_foul(c, w, out);
    }
    return OFC_OK;
}

static int32_t arranger_ctx(sv_ctx *c, const ofc_rules *rules, const ofc_ev_tables *ev,
                            uint32_t objective)
{
    if (!ofc_rules_scalars_ok(rules)) {
        return OFC_E_RULES;
    }
    if (objective > OFC_OBJECTIVE_EV || (objective == OFC_OBJECTIVE_EV && !ev)) {
        return OFC_E_VALUE;
    }
    memset(c, 0, sizeof *c);
    c->r = rules;
    c->ev = ev;
    c->ev_mode = objective == OFC_OBJECTIVE_EV;
    c->tie = c->ev_mode;
    c->slack = c->tie ? 0 : 1;
    c->lowball = rules->middle_lowball != 0;
    c->n = 13;
    if (c->ev_mode && rules->sweep_multiplier > 1) {
        int row, s;
        for (row = 0; row < OFC_ROWS; row++) {
            for (s = 1; s <= OFC_STRENGTH_MAX; s++) {
                if (rules->win_value[row][s] > c->wv_max[row]) {
                    c->wv_max[row] = rules->win_value[row][s];
                }
            }
        }
    }
    return OFC_OK;
}

int32_t ofc_best_setting(const ofc_rules *rules, const ofc_ev_tables *ev,
                         const uint8_t cards[13], uint32_t objective, ofc_setting *out)
{
    sv_ctx c;
    sv_ws w;
    void *block;
    int32_t status;
    if (!out) {
        return OFC_E_VALUE;
    }
    memset(out, 0, sizeof *out);
    status = arranger_ctx(&c, rules, ev, objective);
    if (status != OFC_OK) {
        return status;
    }
    block = ofc_bnb_alloc(&w, 13);
    if (!block) {
        return OFC_E_MEMORY;
    }
    status = best_setting_ws(&c, &w, cards, out);
    free(block);
    return status;
}

int32_t ofc_best_settings(const ofc_rules *rules, const ofc_ev_tables *ev,
                          const uint8_t *cards, size_t n, uint32_t objective,
                          uint8_t *boards, double *values, size_t *bad)
{
    sv_ctx c;
    sv_ws w;
    void *block;
    size_t i;
    const ofc_span tables[2] = {{rules, sizeof *rules}, {ev, sizeof *ev}};
    ofc_span hands;
    int32_t status = arranger_ctx(&c, rules, ev, objective);
    if (status != OFC_OK) {
        return status;
    }
    if (n == 0) {
        return OFC_OK;
    }
    if (!cards) {
        return OFC_E_COUNT;
    }
    hands = ofc_rows(cards, n, 13);
    if ((boards != cards && ofc_rows_over_any(boards, n, 13, &hands, 1)) ||
        ofc_rows_over_any(values, n, sizeof *values, &hands, 1)) {
        return OFC_E_VALUE; /* would overwrite hands not yet read (in place: each first) */
    }
    if (ofc_rows_over_any(boards, n, 13, tables, 2) ||
        ofc_rows_over_any(values, n, sizeof *values, tables, 2)) {
        return OFC_E_VALUE; /* would change the rules or tables the next hands read */
    }
    block = ofc_bnb_alloc(&w, 13);
    if (!block) {
        return OFC_E_MEMORY;
    }
    for (i = 0; i < n; i++) {
        ofc_setting s;
        memset(&s, 0, sizeof s);
        status = best_setting_ws(&c, &w, cards + 13 * i, &s);
        if (status != OFC_OK) {
            if (bad) {
                *bad = i;
            }
            break;
        }
        if (boards) {
            memcpy(boards + 13 * i, s.board, 13);
        }
        if (values) {
            values[i] = s.value;
        }
    }
    free(block);
    return status;
}

