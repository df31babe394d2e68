/* ofc_exact.c -- exact expectimax of a decision (ofc_search.h): every draw of the
 * searcher's and the opponents' cards, weighed, and what it costs. */
#include "ofc_search_internal.h"

/* ------------------------------------------------------------ exact */

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
    const uint64_t cap = (uint64_t)1 << 62;
    if (a == 0 || b == 0) {
        return 0;
    }
    return a > cap / b ? cap : a * b;
}

/* Completions of one seat's rounds (every discard choice, at most nkept! fills). */
uint64_t ofc_sx_seat_leaves(const ofc_search_seat *s)
{
    uint64_t n = 1;
    int i, kept = 0;
    for (i = 0; i < s->rounds; i++) {
        n = sat_mul(n, ofc_choose(s->round_n[i], s->round_k[i]));
        kept += s->round_n[i] - s->round_k[i];
    }
    return sat_mul(n, ofc_factorial(kept > 20 ? 20 : kept));
}

uint64_t ofc_search_exact_cost(const ofc_search_pos *given, uint32_t n_actions)
{
    ofc_search_pos local;
    const ofc_search_pos *pos = ofc_sx_pos_copy(given, &local);
    const ofc_search_seat *own;
    uint64_t draws = 1, opp = 0, per;
    int pool, p, i;
    if (ofc_search_pos_check(pos) != OFC_OK || pos->seats[pos->seat].rounds > 1 ||
        ofc_sx_seat_leaves(&pos->seats[pos->seat]) > MAX_COMPLETIONS) {
        return 0;
    }
    own = &pos->seats[pos->seat];
    pool = pos->n_unseen;
    for (i = 0; i < own->rounds; i++) {
        draws = sat_mul(draws, ofc_choose(pool, own->round_n[i]));
        pool -= own->round_n[i];
    }
    for (p = 0; p < pos->players; p++) {
        const ofc_search_seat *s = &pos->seats[p];
        if (p == pos->seat) {
            continue;
        }
        for (i = 0; i < s->rounds; i++) {
            draws = sat_mul(draws, ofc_choose(pool, s->round_n[i]));
            pool -= s->round_n[i];
        }
        opp += ofc_sx_seat_leaves(s);
    }
    per = ofc_sx_seat_leaves(own) + opp + 1;
    return sat_mul(sat_mul(draws, per), n_actions ? n_actions : 1);
}

/* The searcher's completions for one own draw, finished and evaluated. */
struct own_set {
    done d[MAX_COMPLETIONS];
    double acc[MAX_COMPLETIONS];
    int n;
};
typedef struct own_set own_set;

/* ofc_sx_cx_leaf() with `all`: keep the board (finished) for exact search. */
void ofc_sx_own_record(cx *c)
{
    struct own_set *out = c->all;
    if (out->n < MAX_COMPLETIONS) {
        ofc_sx_finish(c->e, c->cur, c->in_fl, &out->d[out->n]);
        out->acc[out->n++] = 0;
    }
}

/* Records every completion of the searcher's board (all discards, all fills). */
static void own_completions(const env *e, const ofc_search_seat *own,
                            const uint8_t board[13], const uint8_t *cards, own_set *out)
{
    cx c;
    ofc_sx_cx_init(&c, e, board, own->in_fl);
    c.all = out;
    out->n = 0;
    ofc_sx_cx_discards(&c, cards, own->rounds, own->round_n, own->round_k);
}

/* Enumeration state of the other seats' draws. */
typedef struct xs {
    const env *e;
    const ofc_search_pos *pos;
    own_set *own;
    uint8_t deck[52];  /* the other seats' cards, seat after seat, round after round */
    uint8_t ev_n[OFC_SEARCH_MAX_SEATS * OFC_SEARCH_MAX_ROUNDS]; /* cards per event */
    int n_events;
    uint64_t count;    /* draws visited */
    const int32_t *stop; /* the caller's stop word (NULL: none), read every
                          * OFC_SX_STOP_EVERY leaves */
    uint32_t tick;     /* leaves since the stop word was last read */
    int stopped;       /* it was nonzero: every loop ends */
} xs;

/* One ofc_sx_complete draw of the others: add each own completion's value. */
static void xs_leaf(xs *x)
{
    done others[OFC_SEARCH_MAX_SEATS];
    int i;
    ofc_sx_complete_others(x->e, x->pos, x->deck, OFC_COMPLETE_BEST, 0, NULL, others);
    for (i = 0; i < x->own->n; i++) {
        x->own->acc[i] += ofc_sx_deal_value(x->e, x->pos, &x->own->d[i], others);
    }
    x->count++;
    if (x->stop != NULL && ++x->tick >= OFC_SX_STOP_EVERY) {
        x->tick = 0;
        x->stopped = ofc_sx_read_stop(x->stop) != 0;
    }
}

/* The k-subsets of the cards of a bit mask, in lexicographic order. */
typedef struct combo {
    uint8_t cards[52];
    uint8_t idx[OFC_SEARCH_MAX_ROUND_CARDS];
    int n, k, live;
} combo;

static void combo_init(combo *c, uint64_t avail, int k)
{
    int i;
    c->n = 0;
    for (i = 0; i < 52; i++) {
        if (avail >> i & 1u) {
            c->cards[c->n++] = (uint8_t)i;
        }
    }
    c->k = k;
    for (i = 0; i < k; i++) {
        c->idx[i] = (uint8_t)i;
    }
    c->live = k <= c->n;
}

/* The current subset into out; returns its bit mask. */
static uint64_t combo_take(const combo *c, uint8_t *out)
{
    uint64_t used = 0;
    int i;
    for (i = 0; i < c->k; i++) {
        out[i] = c->cards[c->idx[i]];
        used |= (uint64_t)1 << out[i];
    }
    return used;
}

static void combo_next(combo *c)
{
    int i, j;
    for (i = c->k - 1; i >= 0 && c->idx[i] == c->n - c->k + i; i--) {
    }
    if (i < 0) {
        c->live = 0;
        return;
    }
    c->idx[i]++;
    for (j = i + 1; j < c->k; j++) {
        c->idx[j] = (uint8_t)(c->idx[j - 1] + 1);
    }
}

/* Event ev_i onward: every combination of the available cards (bit mask `avail`). */
static void xs_draw(xs *x, int ev_i, int off, uint64_t avail)
{
    combo c;
    if (ev_i == x->n_events) {
        xs_leaf(x);
        return;
    }
    for (combo_init(&c, avail, x->ev_n[ev_i]); c.live && !x->stopped; combo_next(&c)) {
        uint64_t used = combo_take(&c, x->deck + off);
        xs_draw(x, ev_i + 1, off + c.k, avail & ~used);
    }
}

/* max_c E_O[value] for one own draw (the cards after the move: own_cards); the
 * picked completion's foul, Fantasyland and royalties are added to *stats. */
static double exact_own_draw(xs *x, const uint8_t board[13], const uint8_t *own_cards,
                             uint64_t avail, ofc_search_stats *stats)
{
    double best = 0;
    int i, pick = 0;
    own_completions(x->e, &x->pos->seats[x->pos->seat], board, own_cards, x->own);
    x->count = 0;
    xs_draw(x, 0, 0, avail);
    for (i = 0; i < x->own->n; i++) {
        if (i == 0 || x->own->acc[i] > best) {
            best = x->own->acc[i];
            pick = i;
        }
    }
    if (x->own->n > 0) {
        ofc_sx_stats_add(stats, &x->own->d[pick], 1.0);
    }
    return x->count ? best / (double)x->count : best;
}

/* E_S over the searcher's own next round (or none); *stats gets the expectations. */
static double exact_move(xs *x, const uint8_t board[13], uint64_t avail,
                         ofc_search_stats *stats)
{
    const ofc_search_seat *own = &x->pos->seats[x->pos->seat];
    uint8_t mine[OFC_SEARCH_MAX_ROUND_CARDS];
    ofc_search_stats sum = {0, 0, 0};
    double total = 0;
    uint64_t draws = 0;
    combo c;
    if (own->rounds == 0) {
        draws = 1;
        total = exact_own_draw(x, board, NULL, avail, &sum);
    } else {
        for (combo_init(&c, avail, own->round_n[0]); c.live && !x->stopped; combo_next(&c)) {
            uint64_t used = combo_take(&c, mine);
            total += exact_own_draw(x, board, mine, avail & ~used, &sum);
            draws++;
        }
    }
    if (stats != NULL && draws > 0) {
        stats->foul = sum.foul / (double)draws;
        stats->fantasyland = sum.fantasyland / (double)draws;
        stats->royalties = sum.royalties / (double)draws;
    }
    return draws ? total / (double)draws : 0;
}

int32_t ofc_search_exact(const ofc_rules *rules, const ofc_fl_rules *fl,
                         const ofc_ev_tables *ev, const ofc_search_model *m,
                         const ofc_search_pos *pos, const uint8_t *actions,
                         uint32_t n_actions, uint64_t max_nodes, double *values)
{
    return ofc_search_exact_stats(rules, fl, ev, m, pos, actions, n_actions, max_nodes,
                                  values, NULL);
}

int32_t ofc_search_exact_stats(const ofc_rules *rules, const ofc_fl_rules *fl,
                               const ofc_ev_tables *ev, const ofc_search_model *m,
                               const ofc_search_pos *pos, const uint8_t *actions,
                               uint32_t n_actions, uint64_t max_nodes, double *values,
                               ofc_search_stats *stats)
{
    return ofc_search_exact_stop(rules, fl, ev, m, pos, actions, n_actions, max_nodes,
                                 values, stats, NULL);
}

int32_t ofc_search_exact_stop(const ofc_rules *rules, const ofc_fl_rules *fl,
                              const ofc_ev_tables *ev, const ofc_search_model *m,
                              const ofc_search_pos *given, const uint8_t *actions,
                              uint32_t n_actions, uint64_t max_nodes, double *values,
                              ofc_search_stats *stats, const int32_t *stop)
{
    ofc_search_pos local;
    const ofc_search_pos *pos = ofc_sx_pos_copy(given, &local);
    env e;
    uint8_t boards[OFC_ACTION_SPACE][13];
    own_set own;
    xs x;
    uint64_t avail = 0, cost;
    int p, i;
    uint32_t a;
    int32_t st = ofc_sx_search_args(&e, rules, fl, ev, m, pos, actions, n_actions, boards);
    if (st != OFC_OK) {
        return st;
    }
    if ((n_actions > 0 && values == NULL) ||
        ofc_sx_out_over(&e, stop, values, n_actions * sizeof *values) ||
        ofc_sx_out_over(&e, stop, stats, n_actions * sizeof *stats)) {
        return OFC_E_VALUE;
    }
    cost = ofc_search_exact_cost(pos, n_actions);
    if (cost == 0 || cost > max_nodes || m->opp_random > 0 || m->opp_self) {
        return OFC_E_BUDGET;
    }
    for (i = 0; i < pos->n_unseen; i++) {
        avail |= (uint64_t)1 << pos->unseen[i];
    }
    x.e = &e;
    x.pos = pos;
    x.own = &own;
    x.n_events = 0;
    x.stop = stop;
    x.tick = 0;
    x.stopped = 0;
    for (p = 0; p < pos->players; p++) {
        for (i = 0; p != pos->seat && i < pos->seats[p].rounds; i++) {
            x.ev_n[x.n_events++] = pos->seats[p].round_n[i];
        }
    }
    for (a = 0; a < n_actions && !x.stopped; a++) {
        values[a] = exact_move(&x, boards[a], avail, stats != NULL ? &stats[a] : NULL);
    }
    return x.stopped ? OFC_E_STOPPED : OFC_OK;
}

