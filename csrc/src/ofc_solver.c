/* ofc_solver.c -- exact Fantasyland solver and 13-card arranger (see ofc_solver.h).
 *
 * One search serves every objective.  A board (front F, middle M, back B) is worth
 *     key = v_f(F) + v_m(M) + v_b(B) + coupling(F, M, B)
 * in int64 fixed point, so every comparison and every bound is exact:
 *   royalty objectives: one point = 2^40; a stay value has 2^-16 point resolution
 *     (2^24 key units); the low 24 bits hold the tie-break (three rows of at most
 *     2^22 - 1 each: the row's expected (wins - losses + 1) / 2 against the typical
 *     opponent, so equal-royalty boards prefer stronger rows);
 *   expected points: one point = 2^32.
 * Each hand also gets an optimistic value o >= v + the largest coupling that hand can
 * contribute to (stay bonus when the row alone can keep Fantasyland; an additive upper
 * bound of the sweep/majority terms), so  key <= o_f + o_m + o_b  for every board.
 *
 * Search: rank every 5-card and 3-card hand of the input once (colex order, so a
 * subset's index is a sum of binomials); prefix maxima of o_m and o_f over strength
 * (per block of 8 strengths) give, for a back, the best middle and front it can
 * legally hold.  Backs go on a max-heap keyed by o_b + best middle + best front (for
 * expected points also by a second bound, back_bound_ev(), whichever is lower) and are
 * popped while that bound can still beat the best key found; for each popped back the
 * best front avoiding its cards is looked up, the middles of the remaining cards are
 * enumerated, a middle is kept only if o_b + o_m + (best legal front) can beat the
 * best, and then the fronts of the cards left are enumerated exactly.  Nothing is
 * skipped unless its upper bound cannot beat the best key already found (royalty
 * objectives: bound <= best; expected points: bound < best, since equal keys are then
 * decided by the sum of the row strengths): the result is the optimum.
 *
 * Alternatives (best staying / best non-staying board) are two more searches in which
 * a stay is worth +2^13 points more (or -2^13 points): a board that stays (does not)
 * wins whenever one exists, and among those the usual key decides. */
#include <stdlib.h>
#include <string.h>

#include "ofc_internal.h"
#include "ofc_internal_solve.h"
#include "ofc_solver.h"

/* The shipped opponent distribution (ofc_solve_wintab.c, tools/gen_win_tables.py). */
extern const uint32_t ofc_wintab_deals;
extern const uint32_t ofc_wintab_counts[OFC_ROWS * OFC_STRENGTH_TABLE_SIZE];

#define KP ((int64_t)1 << 40)           /* one point, royalty objectives */
#define K_SV_SHIFT 24                   /* stay value units: 2^-16 point */
#define K_TB_MAX 4194303.0              /* 2^22 - 1: tie-break range of one row */
#define K_BIG ((int64_t)8192 * KP)      /* alternatives: more than any royalty gap */
#define K_NEG (INT64_MIN / 4)           /* "impossible" (sums of three do not wrap) */
#define EV_SCALE 4294967296.0           /* one point, expected-points objective */
/* Prefix maxima are kept per block of 8 strengths: pm[s >> 3] covers every hand up to
 * (s | 7), a superset of the legal ones, so it stays an upper bound (exact checks are
 * made at each middle and front). */
#define PM_SHIFT 3
#define PM_SIZE ((OFC_STRENGTH_TABLE_SIZE >> PM_SHIFT) + 1)

enum { MODE_ANY = 0, MODE_STAY = 1, MODE_NOSTAY = 2 };


/* ------------------------------------------------------------ small helpers */

static int64_t q_round(double x) { return (int64_t)(x >= 0 ? x + 0.5 : x - 0.5); }

static int64_t q_floor(double x)
{
    int64_t t = (int64_t)x;
    return ((double)t > x) ? t - 1 : t;
}

static int64_t q_ceil(double x)
{
    int64_t t = (int64_t)x;
    return ((double)t < x) ? t + 1 : t;
}

static double pos(double x) { return x > 0 ? x : 0; }
static double neg(double x) { return x < 0 ? -x : 0; }



/* The scalar fields of a rule set: ofc_rules_scalars_ok() (ofc_internal.h). */
#define rules_ok ofc_rules_scalars_ok

/* ------------------------------------------------------- Fantasyland rules */

/* The entry / stay rule itself: ofc_internal_solve.h (shared with ofc_heuristic.c). */
static int fl_next(const ofc_fl_rules *fl, int lowball, int n_this, uint16_t sf,
                   uint16_t sm, uint16_t sb)
{
    uint16_t s[3];
    s[0] = sf;
    s[1] = sm;
    s[2] = sb;
    return ofc_fl_next_k(fl, lowball, n_this, s);
}

int32_t ofc_fl_rules_init_standard(ofc_fl_rules *fl, int32_t cards)
{
    if (!fl || cards < 13 || cards > 17) {
        return OFC_E_VALUE;
    }
    memset(fl, 0, sizeof *fl);
    fl->enabled = 1;
    fl->stay_cards = (uint8_t)cards;
    fl->n_entry = 1;
    fl->entry_front[0] = ofc_rank3_k(40, 41, 2);          /* Qc Qd 2h */
    fl->entry_cards[0] = (uint8_t)cards;
    fl->stay_front = ofc_rank3_k(0, 1, 2);                /* 2c 2d 2h */
    fl->stay_middle = ofc_rank5_k(0, 1, 2, 4, 5);         /* 2 2 2 3 3 */
    fl->stay_back = ofc_rank5_k(0, 1, 2, 3, 4);           /* 2 2 2 2 3 */
    return OFC_OK;
}

int32_t ofc_fl_rules_check(const ofc_fl_rules *fl)
{
    int i;
    if (!fl || fl->enabled > 1 || fl->n_entry > OFC_FL_MAX_ENTRY ||
        fl->stay_front > OFC_STRENGTH_MAX || fl->stay_middle > OFC_STRENGTH_MAX ||
        fl->stay_back > OFC_STRENGTH_MAX) {
        return OFC_E_RULES;
    }
    if (!(fl->stay_cards <= OFC_FL_STAY_ENTRY ||
          (fl->stay_cards >= 13 && fl->stay_cards <= 17))) {
        return OFC_E_RULES;
    }
    if ((fl->lowball_entry && (fl->lowball_entry < 13 || fl->lowball_entry > 17)) ||
        (fl->lowball_both && (fl->lowball_both < 13 || fl->lowball_both > 17))) {
        return OFC_E_RULES;
    }
    for (i = 0; i < fl->n_entry; i++) {
        if (fl->entry_cards[i] < 13 || fl->entry_cards[i] > 17 ||
            fl->entry_front[i] > OFC_STRENGTH_MAX) {
            return OFC_E_RULES;
        }
    }
    return OFC_OK;
}

int32_t ofc_fl_next_cards(const ofc_rules *rules, const ofc_fl_rules *fl_in,
                          const uint8_t board[13], uint32_t in_fl_cards)
{
    ofc_fl_rules fl_copy;
    const ofc_fl_rules *fl = fl_in ? &fl_copy : NULL;
    ofc_board_eval e;
    int32_t status;
    int lowball;
    if (fl_in) { /* read once, then checked and used */
        ofc_copy_cards((uint8_t *)&fl_copy, (const uint8_t *)fl_in, sizeof fl_copy);
    }
    if (!rules_ok(rules) || (fl && ofc_fl_rules_check(fl) != OFC_OK)) {
        return OFC_E_RULES;
    }
    if (in_fl_cards != 0 && (in_fl_cards < 13 || in_fl_cards > 17)) {
        return OFC_E_COUNT;
    }
    if (!board) {
        return OFC_E_COUNT;
    }
    status = ofc_eval_board(rules, board, &e);
    if (status != OFC_OK) {
        return status;
    }
    if (e.foul) {
        return 0;
    }
    lowball = rules->middle_lowball != 0;
    return ofc_fl_next_k(fl, lowball, (int)in_fl_cards, e.strength);
}

/* ------------------------------------------------------ expected-points tables */

int32_t ofc_ev_tables_init_counts(const ofc_rules *rules, const uint32_t *counts,
                                  ofc_ev_tables *out)
{
    int row;
    if (!rules || ofc_rules_check(rules) != OFC_OK) {
        return OFC_E_RULES;
    }
    if (!counts || !out) {
        return OFC_E_VALUE;
    }
    memset(out, 0, sizeof *out);
    for (row = 0; row < OFC_ROWS; row++) {
        const uint32_t *c = counts + (size_t)row * OFC_STRENGTH_TABLE_SIZE;
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

int32_t ofc_ev_tables_init(const ofc_rules *rules, ofc_ev_tables *out)
{
    return ofc_ev_tables_init_counts(rules, ofc_wintab_counts, out);
}

const uint32_t *ofc_ev_opponent_counts(uint32_t *deals)
{
    if (deals) {
        *deals = ofc_wintab_deals;
    }
    return ofc_wintab_counts;
}

/* The non-additive part of the expected points: sweep, majority, sweep multiplier. */
static double ev_coupling(const ofc_rules *r, const ofc_ev_tables *e, uint16_t sf,
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

/* Additive upper bound of one row's share of ev_coupling() (see the header). */
static double ev_aug(const ofc_rules *r, const ofc_ev_tables *e, int row, uint16_t s)
{
    double w = e->win[row][s], l = e->lose[row][s];
    double sweep = r->sweep_bonus, maj = r->majority_bonus, sm = sweep + maj;
    double mult1 = (double)r->sweep_multiplier - 1.0;
    double kappa = r->majority_rule == OFC_MAJORITY_MORE_ROWS ? 1.0 : 0.5;
    double a = (pos(sweep) * w + neg(sweep) * l) / 3.0 +
               kappa * (pos(maj) * w + neg(maj) * l);
    if (mult1 != 0) {
        a += mult1 * (w * r->win_value[row][s] + (pos(sm) * w + neg(sm) * l) / 3.0);
    }
    return a;
}

/* Expected points of a fouled board against a clean opponent. */
static double ev_foul(const ofc_rules *r, const ofc_ev_tables *e)
{
    double units =
        (double)e->lose_units[0][0] + e->lose_units[1][0] + e->lose_units[2][0];
    if (!r->foul_pays_sweep) {
        return -units;
    }
    return -(double)r->sweep_multiplier * (units + r->sweep_bonus + r->majority_bonus);
}

static double ev_value(const ofc_rules *r, const ofc_ev_tables *e, uint16_t sf,
                       uint16_t sm, uint16_t sb)
{
    double v = (double)e->units[0][sf] + e->units[1][sm] + e->units[2][sb];
    v += (double)r->royalty[0][sf] + r->royalty[1][sm] + r->royalty[2][sb];
    return v + ev_coupling(r, e, sf, sm, sb);
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
    *value = e.foul ? ev_foul(rules, ev)
                    : ev_value(rules, ev, e.strength[0], e.strength[1], e.strength[2]);
    return OFC_OK;
}

/* ------------------------------------------------------------------ search */

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

static void *ws_alloc(sv_ws *w, int n)
{
    int n5 = (int)ofc_binom((uint32_t)n, 5), n3 = (int)ofc_binom((uint32_t)n, 3);
    size_t t = PM_SIZE;
    /* vb vm ob om hkey; vf of; pm_m pm_f pv_m pv_f */
    size_t i64 = (size_t)n5 * 5 + (size_t)n3 * 2 + 4 * t;
    size_t u32 = (size_t)n5 + (size_t)n3;
    size_t u16 = (size_t)n5 * 2 + (size_t)n3 * 2 + 2 * t;
    size_t items = 2 * (size_t)n3 * sizeof(sv_item);
    char *p = (char *)malloc(items + i64 * 8 + u32 * 4 + u16 * 2);
    int64_t *q;
    uint32_t *q32;
    uint16_t *q16;
    if (!p) {
        return NULL;
    }
    w->n = n;
    w->n5 = n5;
    w->n3 = n3;
    w->items = (sv_item *)(void *)p;
    q = (int64_t *)(void *)(p + items);
    w->vb = q;
    w->vm = q += n5;
    w->ob = q += n5;
    w->om = q += n5;
    w->hkey = q += n5;
    w->vf = q += n5;
    w->of = q += n3;
    w->pm_m = q += n3;
    w->pm_f = q += t;
    w->pv_m = q += t;
    w->pv_f = q += t;
    q += t;
    q32 = (uint32_t *)(void *)q;
    w->m5 = q32;
    w->m3 = q32 += n5;
    q32 += n3;
    q16 = (uint16_t *)(void *)q32;
    w->s5 = q16;
    w->hidx = q16 += n5;
    w->s3 = q16 += n5;
    w->ord3 = q16 += n3;
    w->sx_m = q16 += n3;
    w->sx_f = q16 += t;
    w->nodes = 0;
    return p;
}

/* Ranks every 5-card and 3-card subset, in colex order. */
static void ws_rank(sv_ws *w, const uint8_t *cards)
{
    int n = w->n, a, b, c, d, e, j = 0;
    const uint8_t *k = w->cards;
    memcpy(w->cards, cards, (size_t)n);
    for (e = 4; e < n; e++) {
        for (d = 3; d < e; d++) {
            for (c = 2; c < d; c++) {
                for (b = 1; b < c; b++) {
                    for (a = 0; a < b; a++) {
                        w->m5[j] =
                            (1u << a) | (1u << b) | (1u << c) | (1u << d) | (1u << e);
                        w->s5[j] = ofc_rank5_k(k[a], k[b], k[c], k[d], k[e]);
                        j++;
                    }
                }
            }
        }
    }
    j = 0;
    for (c = 2; c < n; c++) {
        for (b = 1; b < c; b++) {
            for (a = 0; a < b; a++) {
                w->m3[j] = (1u << a) | (1u << b) | (1u << c);
                w->s3[j] = ofc_rank3_k(k[a], k[b], k[c]);
                j++;
            }
        }
    }
}

static uint16_t cap_mb(const sv_ctx *c, uint16_t sb)
{
    if (c->lowball) {
        return OFC_STRENGTH_MAX;
    }
    return c->r->order_rule == OFC_ORDER_STRICT ? (uint16_t)(sb - 1) : sb;
}

static uint16_t cap_fm(const sv_ctx *c, uint16_t sm)
{
    if (c->lowball) {
        return OFC_STRENGTH_MAX;
    }
    return c->r->order_rule == OFC_ORDER_NONSTRICT ? sm : (uint16_t)(sm - 1);
}

static uint16_t cap_fb(const sv_ctx *c, uint16_t sb)
{
    if (c->lowball) {
        return sb; /* the front stays below the back; they are never equal */
    }
    return cap_fm(c, cap_mb(c, sb));
}

static int64_t tie_break(const sv_ctx *c, int row, uint16_t s)
{
    double x;
    if (!c->ev) {
        return 0;
    }
    x = ((double)c->ev->win[row][s] - c->ev->lose[row][s] + 1.0) * 0.5;
    x = x < 0 ? 0 : (x > 1 ? 1 : x);
    return (int64_t)(x * K_TB_MAX);
}

/* Expected points: a row's value (units + royalty) and its share of the coupling
 * bound, in key units. */
static int64_t ev_row(const sv_ctx *c, int row, uint16_t s)
{
    return q_round(((double)c->ev->units[row][s] + c->r->royalty[row][s]) * EV_SCALE);
}

static int64_t ev_row_aug(const sv_ctx *c, int row, uint16_t s)
{
    return q_ceil(ev_aug(c->r, c->ev, row, s) * EV_SCALE) + 2;
}

/* Row values (v) and optimistic values (o) of every hand, prefix maxima of the
 * optimistic middle and front values over strength, fronts by optimistic value. */
static void ws_values(const sv_ctx *c, sv_ws *w)
{
    const ofc_rules *r = c->r;
    const ofc_fl_rules *fl = c->fl;
    int j, k;
    for (j = 0; j < w->n5; j++) {
        uint16_t s = w->s5[j];
        int legal_mid = !c->lowball || ofc_tab_low27[s] >= r->lowball_limit;
        if (c->ev_mode) {
            w->vb[j] = ev_row(c, 2, s);
            w->ob[j] = w->vb[j] + ev_row_aug(c, 2, s);
            w->vm[j] = ev_row(c, 1, s);
            w->om[j] = w->vm[j] + ev_row_aug(c, 1, s);
        } else {
            w->vb[j] = r->royalty[2][s] * KP + tie_break(c, 2, s);
            w->ob[j] = w->vb[j] +
                       ((fl && fl->stay_back && s >= fl->stay_back) ? c->sv_max : 0);
            w->vm[j] = r->royalty[1][s] * KP + tie_break(c, 1, s);
            w->om[j] = w->vm[j] + ((fl && !c->lowball && fl->stay_middle &&
                                    s >= fl->stay_middle) ? c->sv_max : 0);
        }
        if (!legal_mid) {
            w->vm[j] = w->om[j] = K_NEG;
        }
    }
    for (j = 0; j < w->n3; j++) {
        uint16_t s = w->s3[j];
        if (c->ev_mode) {
            w->vf[j] = ev_row(c, 0, s);
            w->of[j] = w->vf[j] + ev_row_aug(c, 0, s);
        } else {
            w->vf[j] = r->royalty[0][s] * KP + tie_break(c, 0, s);
            w->of[j] = w->vf[j] +
                       ((fl && fl->stay_front && s >= fl->stay_front) ? c->sv_max : 0);
        }
    }
    for (j = 0; j < PM_SIZE; j++) {
        w->pm_m[j] = K_NEG;
        w->pm_f[j] = K_NEG;
    }
    for (j = 0; j < w->n5; j++) {
        int64_t *p = &w->pm_m[w->s5[j] >> PM_SHIFT];
        *p = w->om[j] > *p ? w->om[j] : *p;
    }
    for (j = 0; j < w->n3; j++) {
        int64_t *p = &w->pm_f[w->s3[j] >> PM_SHIFT];
        *p = w->of[j] > *p ? w->of[j] : *p;
    }
    for (j = 1; j < PM_SIZE; j++) {
        if (w->pm_m[j - 1] > w->pm_m[j]) {
            w->pm_m[j] = w->pm_m[j - 1];
        }
        if (w->pm_f[j - 1] > w->pm_f[j]) {
            w->pm_f[j] = w->pm_f[j - 1];
        }
    }
    if (c->ev_mode) {
        /* The same over the plain values, for back_bound_ev(). */
        for (j = 0; j < PM_SIZE; j++) {
            w->pv_m[j] = K_NEG;
            w->pv_f[j] = K_NEG;
        }
        for (j = 0; j < w->n5; j++) {
            int64_t *p = &w->pv_m[w->s5[j] >> PM_SHIFT];
            *p = w->vm[j] > *p ? w->vm[j] : *p;
        }
        for (j = 0; j < w->n3; j++) {
            int64_t *p = &w->pv_f[w->s3[j] >> PM_SHIFT];
            *p = w->vf[j] > *p ? w->vf[j] : *p;
        }
        /* ... and the strongest legal middle / front up to each block. */
        memset(w->sx_m, 0, PM_SIZE * sizeof *w->sx_m);
        memset(w->sx_f, 0, PM_SIZE * sizeof *w->sx_f);
        for (j = 0; j < w->n5; j++) {
            uint16_t *p = &w->sx_m[w->s5[j] >> PM_SHIFT];
            *p = (w->vm[j] != K_NEG && w->s5[j] > *p) ? w->s5[j] : *p;
        }
        for (j = 0; j < w->n3; j++) {
            uint16_t *p = &w->sx_f[w->s3[j] >> PM_SHIFT];
            *p = w->s3[j] > *p ? w->s3[j] : *p;
        }
        for (j = 1; j < PM_SIZE; j++) {
            if (w->pv_m[j - 1] > w->pv_m[j]) {
                w->pv_m[j] = w->pv_m[j - 1];
            }
            if (w->pv_f[j - 1] > w->pv_f[j]) {
                w->pv_f[j] = w->pv_f[j - 1];
            }
            if (w->sx_m[j - 1] > w->sx_m[j]) {
                w->sx_m[j] = w->sx_m[j - 1];
            }
            if (w->sx_f[j - 1] > w->sx_f[j]) {
                w->sx_f[j] = w->sx_f[j - 1];
            }
        }
    }
    /* Fronts by optimistic value, best first: bottom-up merge sort of (key, index). */
    {
        sv_item *a = w->items, *b = w->items + w->n3, *t;
        int n3 = w->n3, width;
        for (j = 0; j < n3; j++) {
            a[j].key = w->of[j];
            a[j].idx = j;
        }
        for (width = 1; width < n3; width *= 2) {
            for (j = 0; j < n3; j += 2 * width) {
                int lo = j, mid = j + width < n3 ? j + width : n3;
                int hi = j + 2 * width < n3 ? j + 2 * width : n3, x = lo, y = mid;
                for (k = lo; k < hi; k++) {
                    if (x < mid && (y >= hi || a[x].key >= a[y].key)) {
                        b[k] = a[x++];
                    } else {
                        b[k] = a[y++];
                    }
                }
            }
            t = a;
            a = b;
            b = t;
        }
        for (j = 0; j < n3; j++) {
            w->ord3[j] = (uint16_t)a[j].idx;
        }
    }
}

static int64_t leaf_coupling(const sv_ctx *c, uint16_t sf, uint16_t sm, uint16_t sb)
{
    int next;
    if (c->ev_mode) {
        return q_floor(ev_coupling(c->r, c->ev, sf, sm, sb) * EV_SCALE);
    }
    if (!c->fl) {
        return 0;
    }
    next = fl_next(c->fl, c->lowball, c->n, sf, sm, sb);
    return next ? c->stay_q[next - 13] : 0;
}

/* Expected points: a second bound of everything under back b.  The middle and front
 * values are bounded by their prefix maxima (pv), and the coupling by its value with
 * the strongest middle and front the back allows (sx): every coupling term grows with
 * the win chances of the rows and shrinks with their lose chances, and a stronger row
 * has higher win and lower lose chances (so sweep and majority bonuses must be >= 0,
 * else no bound: INT64_MAX).  The sweep-multiplier term is bounded loosely (its
 * opponent part dropped). */
static int64_t back_bound_ev(const sv_ctx *c, const sv_ws *w, int b)
{
    const ofc_rules *r = c->r;
    const ofc_ev_tables *e = c->ev;
    uint16_t s = w->s5[b];
    uint16_t capm = cap_mb(c, s) >> PM_SHIFT, capf = cap_fb(c, s) >> PM_SHIFT;
    uint16_t sm = w->sx_m[capm], sf = w->sx_f[capf];
    double mult1 = (double)r->sweep_multiplier - 1.0, x, sweep_maj;
    if (r->sweep_bonus < 0 || r->majority_bonus < 0) {
        return INT64_MAX; /* the monotonicity argument needs bonuses >= 0 */
    }
    if (w->pv_m[capm] == K_NEG || w->pv_f[capf] == K_NEG || !sm || !sf) {
        return K_NEG;
    }
    x = ev_coupling(r, e, sf, sm, s);
    if (mult1 != 0) {
        /* ev_coupling() used the actual win values of sf and sm: replace its
         * multiplier term by a bound over every middle and front. */
        double wb = e->win[2][s], lb = e->lose[2][s], l3, w3;
        w3 = wb * e->win[1][sm] * e->win[0][sf];
        l3 = lb * e->lose[1][sm] * e->lose[0][sf];
        sweep_maj = (double)r->sweep_bonus + r->majority_bonus;
        x -= mult1 * (w3 * ((double)r->win_value[0][sf] + r->win_value[1][sm] +
                            r->win_value[2][s] + sweep_maj) -
                      (e->lose_units[0][sf] * e->lose[1][sm] * lb +
                       e->lose[0][sf] * e->lose_units[1][sm] * lb +
                       e->lose[0][sf] * e->lose[1][sm] * e->lose_units[2][s]) -
                      l3 * sweep_maj);
        x += mult1 * (w3 * (r->win_value[2][s] + c->wv_max[1] + c->wv_max[0] +
                            pos(sweep_maj)) + neg(sweep_maj) * lb);
    }
    return w->vb[b] + w->pv_m[capm] + w->pv_f[capf] + q_ceil(x * EV_SCALE) + 2;
}

static void heap_down(int64_t *key, uint16_t *idx, int n, int i)
{
    int64_t k = key[i];
    uint16_t x = idx[i];
    for (;;) {
        int ch = 2 * i + 1;
        if (ch >= n) {
            break;
        }
        if (ch + 1 < n && key[ch + 1] > key[ch]) {
            ch++;
        }
        if (key[ch] <= k) {
            break;
        }
        key[i] = key[ch];
        idx[i] = idx[ch];
        i = ch;
    }
    key[i] = k;
    idx[i] = x;
}

/* Every front of the cards outside `used`, below capF, for back b and middle m. */
static void search_fronts(const sv_ctx *c, sv_ws *w, sv_best *best, int b, int m,
                          uint32_t used, uint16_t capF)
{
    int rpos[OFC_SOLVER_MAX_CARDS], nr = 0, i, i0, i1, i2;
    int64_t base = w->ob[b] + w->om[m], vbm = w->vb[b] + w->vm[m];
    uint16_t sm = w->s5[m], sb = w->s5[b];
    for (i = 0; i < w->n; i++) {
        if (!(used >> i & 1u)) {
            rpos[nr++] = i;
        }
    }
    for (i2 = 2; i2 < nr; i2++) {
        int x2 = (int)ofc_binom(rpos[i2], 3);
        for (i1 = 1; i1 < i2; i1++) {
            int x1 = x2 + (int)ofc_binom(rpos[i1], 2);
            for (i0 = 0; i0 < i1; i0++) {
                int f = x1 + rpos[i0];
                int64_t key;
                w->nodes++;
                if (w->s3[f] > capF || base + w->of[f] < best->key + c->slack) {
                    continue;
                }
                key = vbm + w->vf[f] + leaf_coupling(c, w->s3[f], sm, sb);
                if (key > best->key ||
                    (key == best->key && c->tie &&
                     w->s3[f] + sm + sb > best->tie)) {
                    best->key = key;
                    best->tie = w->s3[f] + sm + sb;
                    best->b = b;
                    best->m = m;
                    best->f = f;
                }
            }
        }
    }
}

static void search_back(const sv_ctx *c, sv_ws *w, sv_best *best, int b)
{
    uint32_t bm = w->m5[b];
    uint16_t sb = w->s5[b], capM = cap_mb(c, sb), capFb = cap_fb(c, sb);
    int64_t base = w->ob[b], pm = w->pm_m[capM >> PM_SHIFT], fmax = K_NEG;
    int p[OFC_SOLVER_MAX_CARDS], np = 0, i, i0, i1, i2, i3, i4;
    /* The best front that avoids the back's cards. */
    for (i = 0; i < w->n3; i++) {
        int f = w->ord3[i];
        if (base + pm + w->of[f] < best->key + c->slack) {
            return;
        }
        if ((w->m3[f] & bm) || w->s3[f] > capFb) {
            continue;
        }
        fmax = w->of[f];
        break;
    }
    if (fmax == K_NEG) {
        return;
    }
    for (i = 0; i < w->n; i++) {
        if (!(bm >> i & 1u)) {
            p[np++] = i;
        }
    }
    for (i4 = 4; i4 < np; i4++) {
        int x4 = (int)ofc_binom(p[i4], 5);
        for (i3 = 3; i3 < i4; i3++) {
            int x3 = x4 + (int)ofc_binom(p[i3], 4);
            for (i2 = 2; i2 < i3; i2++) {
                int x2 = x3 + (int)ofc_binom(p[i2], 3);
                for (i1 = 1; i1 < i2; i1++) {
                    int x1 = x2 + (int)ofc_binom(p[i1], 2);
                    for (i0 = 0; i0 < i1; i0++) {
                        int m = x1 + p[i0];
                        uint16_t sm = w->s5[m], capF;
                        int64_t om = w->om[m], pf;
                        w->nodes++;
                        if (sm > capM || om == K_NEG) {
                            continue;
                        }
                        capF = cap_fm(c, sm);
                        capF = capF < capFb ? capF : capFb;
                        pf = w->pm_f[capF >> PM_SHIFT];
                        pf = pf < fmax ? pf : fmax;
                        if (pf == K_NEG || base + om + pf < best->key + c->slack) {
                            continue;
                        }
                        search_fronts(c, w, best, b, m, bm | w->m5[m], capF);
                    }
                }
            }
        }
    }
}

static void sv_search(const sv_ctx *c, sv_ws *w, sv_best *best)
{
    int j, hn = 0;
    best->key = K_NEG;
    best->tie = 0;
    best->b = best->m = best->f = -1;
    ws_values(c, w);
    for (j = 0; j < w->n5; j++) {
        uint16_t sb = w->s5[j];
        int64_t pm = w->pm_m[cap_mb(c, sb) >> PM_SHIFT];
        int64_t pf = w->pm_f[cap_fb(c, sb) >> PM_SHIFT];
        if (pm == K_NEG || pf == K_NEG) {
            continue;
        }
        w->hkey[hn] = w->ob[j] + pm + pf;
        if (c->ev_mode) {
            int64_t b2 = back_bound_ev(c, w, j);
            w->hkey[hn] = b2 < w->hkey[hn] ? b2 : w->hkey[hn];
        }
        w->hidx[hn] = (uint16_t)j;
        hn++;
    }
    /* The most promising back first: its board makes a good incumbent, and only the
     * backs whose bound beats it go on the heap. */
    if (hn > 0) {
        int top = 0, k = 0;
        for (j = 1; j < hn; j++) {
            if (w->hkey[j] > w->hkey[top]) {
                top = j;
            }
        }
        search_back(c, w, best, w->hidx[top]);
        w->hkey[top] = K_NEG;
        for (j = 0; j < hn; j++) {
            if (w->hkey[j] >= best->key + c->slack) {
                w->hkey[k] = w->hkey[j];
                w->hidx[k] = w->hidx[j];
                k++;
            }
        }
        hn = k;
    }
    for (j = hn / 2 - 1; j >= 0; j--) {
        heap_down(w->hkey, w->hidx, hn, j);
    }
    while (hn > 0 && w->hkey[0] >= best->key + c->slack) {
        int b = w->hidx[0];
        hn--;
        w->hkey[0] = w->hkey[hn];
        w->hidx[0] = w->hidx[hn];
        heap_down(w->hkey, w->hidx, hn, 0);
        search_back(c, w, best, b);
    }
}

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
        out->value = c->ev_mode ? ev_foul(r, c->ev) : 0.0;
        return;
    }
    for (row = 0; row < OFC_ROWS; row++) {
        out->royalty[row] = r->royalty[row][out->strength[row]];
        out->royalties += out->royalty[row];
    }
    if (c->ev_mode) {
        out->value = ev_value(r, c->ev, out->strength[0], out->strength[1],
                              out->strength[2]);
        return;
    }
    out->next_cards = (uint8_t)fl_next(c->fl, c->lowball, c->n, out->strength[0],
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
            q = q_round(stay_value[k] * 65536.0) * ((int64_t)1 << K_SV_SHIFT);
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
    if (!out) {
        return OFC_E_VALUE;
    }
    memset(out, 0, sizeof *out);
    if (!rules_ok(rules)) {
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
    memset(&c, 0, sizeof c);
    c.r = rules;
    c.fl = ofc_fl_on(fl) ? fl : NULL;
    c.ev = ev;
    c.lowball = rules->middle_lowball != 0;
    c.n = (int)n;
    c.slack = 1;
    block = ws_alloc(&w, (int)n);
    if (!block) {
        return OFC_E_MEMORY;
    }
    ws_rank(&w, cards);
    if (!(flags & OFC_SOLVE_ALTERNATIVES)) {
        set_stay(&c, stay_value, MODE_ANY);
        sv_search(&c, &w, &best);
        if (best.b >= 0) {
            fill_best(&c, &w, &best, stay_value, &out->best);
        } else {
            fill_foul(&c, &w, &out->best);
        }
    } else {
        bs.b = -1;
        if (c.fl) {
            set_stay(&c, stay_value, MODE_STAY);
            sv_search(&c, &w, &bs);
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
        sv_search(&c, &w, &bn);
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
    ws_rank(w, cards);
    sv_search(c, w, &best);
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
    block = ws_alloc(&w, 13);
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
    block = ws_alloc(&w, 13);
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
