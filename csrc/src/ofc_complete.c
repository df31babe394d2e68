/* ofc_complete.c -- the best completion of a board (ofc_search.h): the completion
 * search over the kept cards' rows and discards, and the checks of the search inputs
 * (models, boards, rounds, positions) that the rollouts and exact search share. */
#include <math.h>
#include <string.h>

#include "ofc_internal_solve.h"
#include "ofc_search_internal.h"
#include "ofc_value.h"

/* A row's additive value at strength s on a legal board. */
static double row_value(const env *e, int row, uint16_t s)
{
    double v = e->r->royalty[row][s];
    if (e->ev != NULL) {
        v += e->m->row_weight * e->ev->units[row][s];
    }
    return v;
}

/* Fantasyland cards a legal board with these strengths earns (0 when fouled). */
int ofc_sx_next_fl(const env *e, int in_fl, const uint16_t s[3], int foul)
{
    return foul ? 0 : ofc_fl_next_k(e->fl, e->lowball, in_fl, s);
}

/* 1 when a middle of strength sm can never sit under a back of strength sb. */
static int middle_fouls(const ofc_rules *r, uint16_t sm, uint16_t sb)
{
    if (r->middle_lowball) {
        return 0;
    }
    return (int)ofc_order_fouls(r->order_rule, 0, sm, sb); /* no front: 0 fouls nothing */
}

void ofc_sx_cx_leaf(cx *c, const uint16_t s[3])
{
    const env *e = c->e;
    uint8_t foul = ofc_foul_k(e->r, s);
    double v;
    c->leaves++;
    if (c->stop != NULL && ++c->tick >= OFC_SX_STOP_EVERY) {
        c->tick = 0;
        c->stopped = ofc_sx_read_stop(c->stop) != 0;
    }
    if (c->all != NULL) {
        ofc_sx_own_record(c);
        return;
    }
    if (foul) {
        if (!c->have) {
            memcpy(c->best, c->cur, 13);
            c->best_value = OFC_SEARCH_FOUL_VALUE;
            c->have = 1;
        }
        return;
    }
    v = row_value(e, 0, s[0]) + row_value(e, 1, s[1]) + row_value(e, 2, s[2]) +
        e->m->fl_value[ofc_sx_next_fl(e, c->in_fl, s, 0)];
    if (!c->legal || v > c->best_value) {
        memcpy(c->best, c->cur, 13);
        c->best_value = v;
        c->have = c->legal = 1;
    }
}

/* Next k-subset bit mask after x (Gosper's hack); x != 0. */
uint32_t ofc_sx_next_subset(uint32_t x)
{
    uint32_t u = x & (0u - x), v = x + u;
    return v | (((v ^ x) / u) >> 2);
}

/* Puts row r's known cards then the kept cards of `mask` (over idx[]) into cur. */
static void cx_fill_row(cx *c, int r, const uint8_t *idx, int n, uint32_t mask)
{
    int i, j = 0, at = ROW_START(r);
    for (i = 0; i < c->known[r]; i++) {
        c->cur[at + j++] = c->row[r][i];
    }
    for (i = 0; i < n; i++) {
        if (mask >> i & 1u) {
            c->cur[at + j++] = c->kept[idx[i]];
        }
    }
}

static uint16_t cx_rank(const cx *c, int r)
{
    const uint8_t *p = c->cur + ROW_START(r);
    return r == 0 ? ofc_rank3_k(p[0], p[1], p[2]) : ofc_rank5_k(p[0], p[1], p[2], p[3], p[4]);
}

/* Every middle and front for one back (the kept cards not in the back: rest[]). */
static void cx_middles(cx *c, const uint8_t *rest, int nrest, uint16_t sb)
{
    int f1 = c->free_[1];
    uint32_t full = (nrest >= 32) ? 0xFFFFFFFFu : ((1u << nrest) - 1u);
    uint32_t mm = f1 ? (1u << f1) - 1u : 0u;
    uint16_t s[3];
    s[2] = sb;
    for (;;) {
        cx_fill_row(c, 1, rest, nrest, mm);
        s[1] = cx_rank(c, 1);
        if (c->all != NULL || !middle_fouls(c->e->r, s[1], sb) || !c->have) {
            cx_fill_row(c, 0, rest, nrest, full & ~mm);
            s[0] = cx_rank(c, 0);
            ofc_sx_cx_leaf(c, s);
        }
        if (c->stopped || mm == 0 || (mm = ofc_sx_next_subset(mm)) > full) {
            break;
        }
    }
}

/* Every assignment of the kept cards to the free slots (backs, then middles). */
static void cx_rows(cx *c)
{
    uint8_t all[13], rest[13];
    int f2 = c->free_[2], i, nrest;
    uint32_t full = (1u << c->nkept) - 1u;
    uint32_t bm = f2 ? (1u << f2) - 1u : 0u;
    for (i = 0; i < c->nkept; i++) {
        all[i] = (uint8_t)i;
    }
    for (;;) {
        cx_fill_row(c, 2, all, c->nkept, bm);
        nrest = 0;
        for (i = 0; i < c->nkept; i++) {
            if (!(bm >> i & 1u)) {
                rest[nrest++] = (uint8_t)i;
            }
        }
        cx_middles(c, rest, nrest, cx_rank(c, 2));
        if (c->stopped || bm == 0 || (bm = ofc_sx_next_subset(bm)) > full) {
            break;
        }
    }
}

/* Greedy key: cards of a rank held several times first (pairs stay together), then
 * the higher rank. */
static int greedy_key(const cx *c, uint8_t card)
{
    int i, same = 0;
    for (i = 0; i < c->nkept; i++) {
        same += c->kept[i] / 4 == card / 4;
    }
    return same * 64 + card;
}

/* Greedy fill: the kept cards by greedy_key, highest first, to the back, the middle,
 * then the front. */
static void cx_greedy(cx *c)
{
    uint8_t sorted[13], idx[13];
    int key[13], i, j, at = 0, r;
    uint16_t s[3];
    for (i = 0; i < c->nkept; i++) { /* insertion sort, descending by key */
        int kx = greedy_key(c, c->kept[i]);
        for (j = i; j > 0 && key[j - 1] < kx; j--) {
            sorted[j] = sorted[j - 1];
            key[j] = key[j - 1];
        }
        sorted[j] = c->kept[i];
        key[j] = kx;
    }
    memcpy(c->kept, sorted, (size_t)c->nkept);
    for (i = 0; i < 13; i++) {
        idx[i] = (uint8_t)i;
    }
    for (r = 2; r >= 0; r--) {
        uint32_t mask = ((1u << c->free_[r]) - 1u) << at;
        cx_fill_row(c, r, idx, c->nkept, mask);
        at += c->free_[r];
    }
    for (r = 0; r < 3; r++) {
        s[r] = cx_rank(c, r);
    }
    ofc_sx_cx_leaf(c, s);
}

/* Row fills of the kept cards: nkept! / (f0! f1! f2!). */
static uint64_t cx_fills(const cx *c)
{
    return ofc_factorial(c->nkept) /
           (ofc_factorial(c->free_[0]) * ofc_factorial(c->free_[1]) * ofc_factorial(c->free_[2]));
}

/* Rows of the kept cards: exact search, or greedy when too many for the fast policy. */
static void cx_place(cx *c, uint32_t policy)
{
    if (policy == OFC_COMPLETE_FAST && cx_fills(c) > OFC_SEARCH_FAST_LEAVES) {
        cx_greedy(c);
    } else {
        cx_rows(c);
    }
}

/* The best policy: every discard choice of round i.. (kept so far: c->nkept). */
void ofc_sx_cx_discards(cx *c, const uint8_t *cards, int rounds, const uint8_t *rn,
                        const uint8_t *rk)
{
    int n, k, base = c->nkept, i;
    uint32_t dm, full;
    if (rounds == 0) {
        cx_rows(c);
        return;
    }
    n = rn[0];
    k = rk[0];
    full = (1u << n) - 1u;
    dm = k ? (1u << k) - 1u : 0u;
    for (;;) {
        c->nkept = base;
        for (i = 0; i < n; i++) {
            if (!(dm >> i & 1u)) {
                c->kept[c->nkept++] = cards[i];
            }
        }
        ofc_sx_cx_discards(c, cards + n, rounds - 1, rn + 1, rk + 1);
        if (c->stopped || dm == 0 || (dm = ofc_sx_next_subset(dm)) > full) {
            break;
        }
    }
    c->nkept = base;
}

/* The fast policy's kept cards: each round without its k lowest-ranked cards. */
static void cx_fast_kept(cx *c, const uint8_t *cards, int rounds, const uint8_t *rn,
                         const uint8_t *rk)
{
    int i, j, d;
    c->nkept = 0;
    for (i = 0; i < rounds; i++) {
        uint32_t drop = 0;
        for (d = 0; d < rk[i]; d++) { /* the lowest card not yet dropped */
            int low = -1;
            for (j = 0; j < rn[i]; j++) {
                if (!(drop >> j & 1u) && (low < 0 || cards[j] / 4 < cards[low] / 4)) {
                    low = j;
                }
            }
            drop |= 1u << low;
        }
        for (j = 0; j < rn[i]; j++) {
            if (!(drop >> j & 1u)) {
                c->kept[c->nkept++] = cards[j];
            }
        }
        cards += rn[i];
    }
}

/* Loads a board's known cards into a fresh context. */
void ofc_sx_cx_init(cx *c, const env *e, const uint8_t board[13], int in_fl)
{
    int r, i;
    c->e = e;
    c->in_fl = in_fl;
    c->nkept = 0;
    c->have = c->legal = 0;
    c->leaves = 0;
    c->best_value = OFC_SEARCH_FOUL_VALUE;
    c->all = NULL;
    c->stop = NULL;
    c->tick = 0;
    c->stopped = 0;
    for (r = 0; r < 3; r++) {
        const uint8_t *p = board + ROW_START(r);
        for (i = 0; i < ROW_SIZE(r) && p[i] != OFC_NO_CARD; i++) {
            c->row[r][i] = p[i];
        }
        c->known[r] = i;
        c->free_[r] = ROW_SIZE(r) - i;
    }
}

/* The completion of a context loaded by ofc_sx_cx_init(): the best board into c->best
 * (c->stopped: its stop word ended it first). */
static void cx_complete(cx *c, const uint8_t *cards, int rounds, const uint8_t *rn,
                        const uint8_t *rk, uint32_t policy)
{
    if (policy == OFC_COMPLETE_BEST) {
        ofc_sx_cx_discards(c, cards, rounds, rn, rk);
    } else {
        cx_fast_kept(c, cards, rounds, rn, rk);
        cx_place(c, policy);
    }
}

/* A completion without checks: the best board into c->best. */
void ofc_sx_complete(cx *c, const env *e, const uint8_t board[13], const uint8_t *cards,
                     int rounds, const uint8_t *rn, const uint8_t *rk, int in_fl,
                     uint32_t policy)
{
    ofc_sx_cx_init(c, e, board, in_fl);
    cx_complete(c, cards, rounds, rn, rk, policy);
}

/* ------------------------------------------------------------ validation */

int32_t ofc_search_model_check(const ofc_search_model *m)
{
    int i;
    if (m == NULL || !isfinite(m->row_weight) || m->row_weight < 0 || m->row_weight > 1e6 ||
        !isfinite(m->opp_random) || m->opp_random < 0 || m->opp_random > 1 || m->opp_self > 1) {
        return OFC_E_VALUE;
    }
    if (m->value != NULL && /* features this library computes (ofc_value_ctx_check) */
        (m->value->feature_set != OFC_VF_SET || m->value->inputs != OFC_VF_N)) {
        return OFC_E_VALUE;
    }
    for (i = 0; i < OFC_SEARCH_FL_VALUES; i++) {
        if (!isfinite(m->fl_value[i]) || fabs(m->fl_value[i]) > 1e6) {
            return OFC_E_VALUE;
        }
    }
    return OFC_OK;
}

/* Known cards of a board (each row's prefix) into *seen; free slots into *free_. */
static int32_t board_check(const uint8_t board[13], uint64_t *seen, int *free_)
{
    int r, i;
    int32_t st;
    *free_ = 0;
    for (r = 0; r < 3; r++) {
        const uint8_t *p = board + ROW_START(r);
        for (i = 0; i < ROW_SIZE(r) && p[i] != OFC_NO_CARD; i++) {
            if ((st = ofc_check_cards(p + i, 1, seen)) != OFC_OK) {
                return st;
            }
        }
        *free_ += ROW_SIZE(r) - i;
        for (; i < ROW_SIZE(r); i++) {
            if (p[i] != OFC_NO_CARD) {
                return OFC_E_CARD;
            }
        }
    }
    return OFC_OK;
}

/* Rounds: counts in range; *cards = cards dealt, *kept = cards kept. */
static int32_t rounds_check(uint32_t rounds, const uint8_t *rn, const uint8_t *rk,
                            int *cards, int *kept)
{
    uint32_t i;
    *cards = *kept = 0;
    if (rounds > OFC_SEARCH_MAX_ROUNDS) {
        return OFC_E_COUNT;
    }
    for (i = 0; i < rounds; i++) {
        if (rn[i] < 1 || rn[i] > OFC_SEARCH_MAX_ROUND_CARDS || rk[i] >= rn[i]) {
            return OFC_E_COUNT;
        }
        *cards += rn[i];
        *kept += rn[i] - rk[i];
    }
    return OFC_OK;
}

static int in_fl_ok(uint32_t in_fl) { return in_fl == 0 || (in_fl >= 13 && in_fl <= 17); }

int32_t ofc_sx_env_init(env *e, const ofc_rules *rules, const ofc_fl_rules *fl,
                        const ofc_ev_tables *ev, const ofc_search_model *m)
{
    if (!ofc_rules_scalars_ok(rules) || (fl != NULL && ofc_fl_rules_check(fl) != OFC_OK)) {
        return OFC_E_RULES;
    }
    if (m == NULL || ofc_search_model_check(m) != OFC_OK) {
        return OFC_E_VALUE;
    }
    e->r = rules;
    e->fl = fl;
    e->ev = ev;
    e->m = m;
    e->lowball = rules->middle_lowball;
    return OFC_OK;
}

int ofc_sx_out_over(const env *e, const int32_t *stop, const void *out, size_t n)
{
    const ofc_span in[6] = {{e->r, sizeof *e->r},   {e->fl, sizeof *e->fl},
                            {e->ev, sizeof *e->ev}, {e->m, sizeof *e->m},
                            {e->m->value, sizeof *e->m->value}, {stop, sizeof *stop}};
    return ofc_over_any(out, n, in, 6);
}

int32_t ofc_best_completion(const ofc_rules *rules, const ofc_fl_rules *fl,
                            const ofc_ev_tables *ev, const ofc_search_model *m,
                            const uint8_t board[13], const uint8_t *cards, uint32_t rounds,
                            const uint8_t *round_n, const uint8_t *round_k, uint32_t in_fl,
                            uint32_t policy, ofc_completion_result *out)
{
    return ofc_best_completion_stop(rules, fl, ev, m, board, cards, rounds, round_n, round_k,
                                    in_fl, policy, out, NULL);
}

int32_t ofc_best_completion_stop(const ofc_rules *rules, const ofc_fl_rules *fl,
                                 const ofc_ev_tables *ev, const ofc_search_model *m,
                                 const uint8_t board[13], const uint8_t *cards,
                                 uint32_t rounds, const uint8_t *round_n,
                                 const uint8_t *round_k, uint32_t in_fl, uint32_t policy,
                                 ofc_completion_result *out, const int32_t *stop)
{
    /* The caller's board, cards and rounds, each byte read once: only these copies
     * are checked and used (ofc_fast.h, Threads). */
    uint8_t b[OFC_BOARD_CARDS], rn[OFC_SEARCH_MAX_ROUNDS], rk[OFC_SEARCH_MAX_ROUNDS];
    uint8_t future[OFC_SEARCH_MAX_ROUNDS * OFC_SEARCH_MAX_ROUND_CARDS];
    env e;
    cx c;
    uint64_t seen = 0;
    int free_, n, kept;
    int32_t st = ofc_sx_env_init(&e, rules, fl, ev, m);
    uint16_t s[3];
    ofc_board_eval ev_out;
    if (st != OFC_OK) {
        return st;
    }
    if (board == NULL || out == NULL || policy > OFC_COMPLETE_BEST ||
        (rounds > 0 && (cards == NULL || round_n == NULL || round_k == NULL)) ||
        ofc_sx_out_over(&e, stop, out, sizeof *out)) {
        return OFC_E_VALUE;
    }
    if (rounds > 0 && rounds <= OFC_SEARCH_MAX_ROUNDS) { /* more: rounds_check() */
        ofc_copy_cards(rn, round_n, rounds);
        ofc_copy_cards(rk, round_k, rounds);
    }
    ofc_copy_cards(b, board, OFC_BOARD_CARDS);
    if ((st = rounds_check(rounds, rn, rk, &n, &kept)) != OFC_OK) {
        return st;
    }
    if (n > 0) {
        ofc_copy_cards(future, cards, (size_t)n);
    }
    if ((st = board_check(b, &seen, &free_)) != OFC_OK ||
        (st = ofc_check_cards(future, (size_t)n, &seen)) != OFC_OK) {
        return st;
    }
    if (kept != free_ || !in_fl_ok(in_fl)) {
        return OFC_E_COUNT;
    }
    ofc_sx_cx_init(&c, &e, b, (int)in_fl);
    c.stop = stop;
    cx_complete(&c, future, (int)rounds, rn, rk, policy);
    if (c.stopped) {
        return OFC_E_STOPPED;
    }
    ofc_eval_board_k(rules, c.best, &ev_out);
    memcpy(s, ev_out.strength, sizeof s);
    memcpy(out->board, c.best, 13);
    out->foul = ev_out.foul;
    out->next_fl = (uint8_t)ofc_sx_next_fl(&e, (int)in_fl, s, ev_out.foul);
    out->reserved[0] = out->reserved[1] = 0;
    out->value = c.best_value;
    out->leaves = c.leaves;
    return OFC_OK;
}

/* Cards a seat still receives. */
int ofc_sx_seat_cards(const ofc_search_seat *s)
{
    int i, n = 0;
    for (i = 0; i < s->rounds; i++) {
        n += s->round_n[i];
    }
    return n;
}

static int32_t seat_check(const ofc_search_seat *s, uint64_t *seen, int *free_, int *kept)
{
    int cards;
    int32_t st = board_check(s->board, seen, free_);
    if (st != OFC_OK) {
        return st;
    }
    if (!in_fl_ok(s->in_fl)) {
        return OFC_E_COUNT;
    }
    return rounds_check(s->rounds, s->round_n, s->round_k, &cards, kept);
}

int32_t ofc_search_pos_check(const ofc_search_pos *given)
{
    ofc_search_pos local;
    const ofc_search_pos *pos = ofc_sx_pos_copy(given, &local);
    uint64_t seen = 0;
    int p, free_, kept, need = 0;
    int32_t st;
    if (pos == NULL || pos->players < 2 || pos->players > OFC_SEARCH_MAX_SEATS ||
        pos->seat >= pos->players || pos->n_dealt < 1 || pos->n_dealt > 5 ||
        pos->k >= pos->n_dealt || pos->n_unseen > 52) {
        return OFC_E_COUNT;
    }
    for (p = 0; p < pos->players; p++) {
        const ofc_search_seat *s = &pos->seats[p];
        if ((st = seat_check(s, &seen, &free_, &kept)) != OFC_OK) {
            return st;
        }
        if (p == pos->seat) {
            kept += pos->n_dealt - pos->k;
        }
        if (kept != free_) {
            return OFC_E_COUNT;
        }
        need += ofc_sx_seat_cards(s);
    }
    if ((st = ofc_check_cards(pos->dealt, pos->n_dealt, &seen)) != OFC_OK ||
        (st = ofc_check_cards(pos->unseen, pos->n_unseen, &seen)) != OFC_OK) {
        return st;
    }
    return need <= pos->n_unseen ? OFC_OK : OFC_E_COUNT;
}
