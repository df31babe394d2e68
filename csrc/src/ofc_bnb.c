/* ofc_bnb.c -- the branch and bound of the exact Fantasyland solver and the 13-card
 * arranger (see ofc_solver.h for the entries, ofc_bnb.h for the interface).
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
 * decided by the sum of the row strengths): the result is the optimum. */
#include <stdlib.h>
#include <string.h>

#include "ofc_bnb.h"

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

void *ofc_bnb_alloc(sv_ws *w, int n)
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
void ofc_bnb_rank(sv_ws *w, const uint8_t *cards)
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
    return ofc_q_round(((double)c->ev->units[row][s] + c->r->royalty[row][s]) * EV_SCALE);
}

static int64_t ev_row_aug(const sv_ctx *c, int row, uint16_t s)
{
    return q_ceil(ofc_ev_aug(c->r, c->ev, row, s) * EV_SCALE) + 2;
}

/* 1 when middle a (a strength, 0: none) wins more and loses less against the
 * opponent's middle than middle b: the stronger one, under 2-7 the better low hand
 * (the ev tables' middle chances follow ofc_low27() there, ofc_solver.h). */
static int mid_better(const sv_ctx *c, uint16_t a, uint16_t b)
{
    if (b == 0 || !c->lowball) {
        return a > b;
    }
    return a != 0 && ofc_tab_low27[a] > ofc_tab_low27[b];
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
        /* ... and the legal middle / front with the best win chances up to each
         * block: the strongest (under 2-7 the middle with the best low value). */
        memset(w->sx_m, 0, PM_SIZE * sizeof *w->sx_m);
        memset(w->sx_f, 0, PM_SIZE * sizeof *w->sx_f);
        for (j = 0; j < w->n5; j++) {
            uint16_t *p = &w->sx_m[w->s5[j] >> PM_SHIFT];
            *p = (w->vm[j] != K_NEG && mid_better(c, w->s5[j], *p)) ? w->s5[j] : *p;
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
            if (mid_better(c, w->sx_m[j - 1], w->sx_m[j])) {
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
        return q_floor(ofc_ev_coupling(c->r, c->ev, sf, sm, sb) * EV_SCALE);
    }
    if (!c->fl) {
        return 0;
    }
    next = ofc_bnb_fl_next(c->fl, c->lowball, c->n, sf, sm, sb);
    return next ? c->stay_q[next - 13] : 0;
}

/* Expected points: a second bound of everything under back b.  The middle and front
 * values are bounded by their prefix maxima (pv), and the coupling by its value with
 * the strongest middle and front the back allows (sx; under 2-7 the middle with the
 * best low value): every coupling term grows with the win chances of the rows and
 * shrinks with their lose chances, and a stronger row (a better 2-7 middle) has higher
 * win and lower lose chances (so sweep and majority bonuses must be >= 0,
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
    x = ofc_ev_coupling(r, e, sf, sm, s);
    if (mult1 != 0) {
        /* ofc_ev_coupling() used the actual win values of sf and sm: replace its
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
                            ofc_pos_part(sweep_maj)) + ofc_neg_part(sweep_maj) * lb);
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

void ofc_bnb_search(const sv_ctx *c, sv_ws *w, sv_best *best)
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

