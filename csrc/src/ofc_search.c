/* ofc_search.c -- best completion, rollouts and exact expectimax (ofc_search.h). */
#include "ofc_search.h"

#include <math.h>
#include <string.h>

#include "ofc_internal.h"
#include "ofc_internal_solve.h"
#include "ofc_rng.h"
#include "ofc_value.h"

#define ROW_START(r) ((r) == 0 ? 0 : (r) == 1 ? 3 : 8)
#define ROW_SIZE(r) ((int)ofc_row_size((uint32_t)(r)))
#define MAX_COMPLETIONS 1024 /* completions of the searcher's last round kept at once */
#define OFC_SEARCH_FAKE_KEY 0x7365717565636eULL /* stream of the sequential policy */
#define OFC_SEARCH_OPP_KEY 0x6f70706f6e656e74ULL /* stream of the random opponents */

/* ------------------------------------------------------------ the context */

/* Read-only inputs shared by every completion of a call. */
typedef struct env {
    const ofc_rules *r;
    const ofc_fl_rules *fl;
    const ofc_ev_tables *ev;
    const ofc_search_model *m;
    int lowball;
} env;

struct own_set;

/* One completion search: the board's known cards, the kept cards, the best so far
 * (or, with `all`, every board: the completions exact search weighs). */
typedef struct cx {
    const env *e;
    int in_fl;
    uint8_t row[3][5]; /* known cards of each row */
    int known[3];      /* how many */
    int free_[3];      /* free slots of each row */
    uint8_t kept[13];  /* kept future cards */
    int nkept;
    uint8_t cur[13];   /* the board being examined */
    uint8_t best[13];
    double best_value;
    int have;          /* a board (maybe fouled) is recorded */
    int legal;         /* a legal board is recorded */
    uint64_t leaves;
    struct own_set *all; /* NULL, or where every board goes (no pruning) */
} cx;

static void own_record(cx *c);

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
static int next_fl(const env *e, int in_fl, const uint16_t s[3], int foul)
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

static void cx_leaf(cx *c, const uint16_t s[3])
{
    const env *e = c->e;
    uint8_t foul = ofc_foul_k(e->r, s);
    double v;
    c->leaves++;
    if (c->all != NULL) {
        own_record(c);
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
        e->m->fl_value[next_fl(e, c->in_fl, s, 0)];
    if (!c->legal || v > c->best_value) {
        memcpy(c->best, c->cur, 13);
        c->best_value = v;
        c->have = c->legal = 1;
    }
}

/* Next k-subset bit mask after x (Gosper's hack); x != 0. */
static uint32_t next_subset(uint32_t x)
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
            cx_leaf(c, s);
        }
        if (mm == 0 || (mm = next_subset(mm)) > full) {
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
        if (bm == 0 || (bm = next_subset(bm)) > full) {
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
    cx_leaf(c, s);
}

static uint64_t factorial(int n)
{
    uint64_t f = 1;
    while (n > 1) {
        f *= (uint64_t)n--;
    }
    return f;
}

/* Row fills of the kept cards: nkept! / (f0! f1! f2!). */
static uint64_t cx_fills(const cx *c)
{
    return factorial(c->nkept) /
           (factorial(c->free_[0]) * factorial(c->free_[1]) * factorial(c->free_[2]));
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
static void cx_discards(cx *c, const uint8_t *cards, int rounds, const uint8_t *rn,
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
        cx_discards(c, cards + n, rounds - 1, rn + 1, rk + 1);
        if (dm == 0 || (dm = next_subset(dm)) > full) {
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
static void cx_init(cx *c, const env *e, const uint8_t board[13], int in_fl)
{
    int r, i;
    c->e = e;
    c->in_fl = in_fl;
    c->nkept = 0;
    c->have = c->legal = 0;
    c->leaves = 0;
    c->best_value = OFC_SEARCH_FOUL_VALUE;
    c->all = NULL;
    for (r = 0; r < 3; r++) {
        const uint8_t *p = board + ROW_START(r);
        for (i = 0; i < ROW_SIZE(r) && p[i] != OFC_NO_CARD; i++) {
            c->row[r][i] = p[i];
        }
        c->known[r] = i;
        c->free_[r] = ROW_SIZE(r) - i;
    }
}

/* A completion without checks: the best board into c->best. */
static void complete(cx *c, const env *e, const uint8_t board[13], const uint8_t *cards,
                     int rounds, const uint8_t *rn, const uint8_t *rk, int in_fl,
                     uint32_t policy)
{
    cx_init(c, e, board, in_fl);
    if (policy == OFC_COMPLETE_BEST) {
        cx_discards(c, cards, rounds, rn, rk);
    } else {
        cx_fast_kept(c, cards, rounds, rn, rk);
        cx_place(c, policy);
    }
}

/* ------------------------------------------------------------ validation */

int32_t ofc_search_model_check(const ofc_search_model *m)
{
    int i;
    if (m == NULL || !isfinite(m->row_weight) || m->row_weight < 0 || m->row_weight > 1e6 ||
        !isfinite(m->opp_random) || m->opp_random < 0 || m->opp_random > 1) {
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

static int32_t env_init(env *e, const ofc_rules *rules, const ofc_fl_rules *fl,
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

int32_t ofc_best_completion(const ofc_rules *rules, const ofc_fl_rules *fl,
                            const ofc_ev_tables *ev, const ofc_search_model *m,
                            const uint8_t board[13], const uint8_t *cards, uint32_t rounds,
                            const uint8_t *round_n, const uint8_t *round_k, uint32_t in_fl,
                            uint32_t policy, ofc_completion_result *out)
{
    env e;
    cx c;
    uint64_t seen = 0;
    int free_, n, kept;
    int32_t st = env_init(&e, rules, fl, ev, m);
    uint16_t s[3];
    ofc_board_eval ev_out;
    if (st != OFC_OK) {
        return st;
    }
    if (board == NULL || out == NULL || policy > OFC_COMPLETE_BEST ||
        (rounds > 0 && (cards == NULL || round_n == NULL || round_k == NULL))) {
        return OFC_E_VALUE;
    }
    if ((st = rounds_check(rounds, round_n, round_k, &n, &kept)) != OFC_OK ||
        (st = board_check(board, &seen, &free_)) != OFC_OK ||
        (st = ofc_check_cards(cards, (size_t)n, &seen)) != OFC_OK) {
        return st;
    }
    if (kept != free_ || !in_fl_ok(in_fl)) {
        return OFC_E_COUNT;
    }
    complete(&c, &e, board, cards, (int)rounds, round_n, round_k, (int)in_fl, policy);
    ofc_eval_board_k(rules, c.best, &ev_out);
    memcpy(s, ev_out.strength, sizeof s);
    memcpy(out->board, c.best, 13);
    out->foul = ev_out.foul;
    out->next_fl = (uint8_t)next_fl(&e, (int)in_fl, s, ev_out.foul);
    out->reserved[0] = out->reserved[1] = 0;
    out->value = c.best_value;
    out->leaves = c.leaves;
    return OFC_OK;
}

/* Cards a seat still receives. */
static int seat_cards(const ofc_search_seat *s)
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

int32_t ofc_search_pos_check(const ofc_search_pos *pos)
{
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
        need += seat_cards(s);
    }
    if ((st = ofc_check_cards(pos->dealt, pos->n_dealt, &seen)) != OFC_OK ||
        (st = ofc_check_cards(pos->unseen, pos->n_unseen, &seen)) != OFC_OK) {
        return st;
    }
    return need <= pos->n_unseen ? OFC_OK : OFC_E_COUNT;
}

/* ------------------------------------------------------------ rollouts */

/* A finished board, evaluated, with the Fantasyland cards it earns. */
typedef struct done {
    ofc_board_eval ev;
    int next;
} done;

static void finish(const env *e, const uint8_t board[13], int in_fl, done *d)
{
    ofc_eval_board_k(e->r, board, &d->ev);
    d->next = next_fl(e, in_fl, d->ev.strength, d->ev.foul);
}

/* The searcher's value of its finished board against the finished others. */
static double deal_value(const env *e, const ofc_search_pos *pos, const done *me,
                         const done *others)
{
    double v = e->m->fl_value[me->next];
    int p;
    for (p = 0; p < pos->players; p++) {
        if (p != pos->seat) {
            v += ofc_score_evals_k(e->r, &me->ev, &others[p].ev, &ofc_no_context, NULL, 0);
            v -= e->m->fl_value[others[p].next] / (pos->players - 1);
        }
    }
    return v;
}

/* The boards after each candidate (OFC_E_ACTION when one does not fit). */
static int32_t candidate_boards(const ofc_search_pos *pos, const uint8_t *actions,
                                uint32_t n, uint8_t (*boards)[13])
{
    const ofc_search_seat *me = &pos->seats[pos->seat];
    uint32_t a;
    int i;
    for (a = 0; a < n; a++) {
        uint8_t dest[5];
        memcpy(boards[a], me->board, 13);
        if (ofc_action_decode(pos->n_dealt, pos->k, actions[a], dest) != OFC_OK) {
            return OFC_E_ACTION;
        }
        for (i = 0; i < pos->n_dealt; i++) {
            int r = dest[i], j;
            if (r == OFC_DISCARD) {
                continue;
            }
            for (j = ROW_START(r); j < ROW_START(r) + ROW_SIZE(r) &&
                                   boards[a][j] != OFC_NO_CARD; j++) {
            }
            if (j == ROW_START(r) + ROW_SIZE(r)) {
                return OFC_E_ACTION;
            }
            boards[a][j] = pos->dealt[i];
        }
    }
    return OFC_OK;
}

static int32_t search_args(env *e, const ofc_rules *rules, const ofc_fl_rules *fl,
                           const ofc_ev_tables *ev, const ofc_search_model *m,
                           const ofc_search_pos *pos, const uint8_t *actions,
                           uint32_t n_actions, uint8_t (*boards)[13])
{
    int32_t st = env_init(e, rules, fl, ev, m);
    if (st != OFC_OK) {
        return st;
    }
    if (pos == NULL || (n_actions > 0 && actions == NULL) || n_actions > OFC_ACTION_SPACE) {
        return OFC_E_VALUE;
    }
    if ((st = ofc_search_pos_check(pos)) != OFC_OK) {
        return st;
    }
    return candidate_boards(pos, actions, n_actions, boards);
}

/* Deals `need` cards of sample `index` to the front of deck. */
static void sample_deck(const ofc_search_pos *pos, uint64_t seed, uint64_t index,
                        int need, uint8_t deck[52])
{
    ofc_rng rng = ofc_rng_make(ofc_random64(seed, index));
    memcpy(deck, pos->unseen, (size_t)pos->n_unseen);
    ofc_rng_shuffle_front(deck, (size_t)pos->n_unseen, need > 0 ? (size_t)need : 0u, &rng);
}

static uint64_t seat_leaves(const ofc_search_seat *s);

/* ------------------------------------------------------------ random play */

/* A seat completed by a random player (see Opponents in the header): whatever its
 * rule, a player that does not look at the cards ends with its free slots filled by
 * a uniformly random arrangement of a uniformly random subset of its cards (every
 * round's cards are a uniformly random draw): its cards shuffled, the first ones
 * into the free slots in slot order. */
static void complete_random(const env *e, const ofc_search_seat *s, const uint8_t *cards,
                            ofc_rng *rng, done *out)
{
    uint8_t b[13], deck[52];
    int i, j = 0, n = seat_cards(s);
    memcpy(deck, cards, (size_t)n);
    ofc_rng_shuffle_front(deck, (size_t)n, n > 0 ? (size_t)(n - 1) : 0u, rng);
    memcpy(b, s->board, 13);
    for (i = 0; i < 13; i++) {
        if (b[i] == OFC_NO_CARD) {
            b[i] = deck[j++];
        }
    }
    finish(e, b, s->in_fl, out);
}

/* 1 when this sample's seat plays at random (a coin of weight m->opp_random). */
static int plays_random(const env *e, ofc_rng *rng)
{
    double w = e->m->opp_random;
    if (rng == NULL || w <= 0) {
        return 0;
    }
    return w >= 1 || (double)ofc_rng_draw(rng, (uint64_t)1 << 30) < w * 1073741824.0;
}

/* Completes every other seat from deck (after the searcher's own cards); with `cap`,
 * a seat with more than OFC_SEARCH_BEST_LEAVES completions uses the fast policy;
 * with `rng`, a seat may play at random instead (plays_random()). */
static void complete_others(const env *e, const ofc_search_pos *pos, const uint8_t *deck,
                            uint32_t policy, int cap, ofc_rng *rng, done *others)
{
    int p;
    cx c;
    for (p = 0; p < pos->players; p++) {
        const ofc_search_seat *s = &pos->seats[p];
        uint32_t pol = policy;
        if (p == pos->seat) {
            continue;
        }
        if (plays_random(e, rng)) {
            complete_random(e, s, deck, rng, &others[p]);
            deck += seat_cards(s);
            continue;
        }
        if (pol == OFC_COMPLETE_SEQUENTIAL) {
            pol = s->rounds <= 2 ? OFC_COMPLETE_BEST : OFC_COMPLETE_FAST;
        }
        if (cap && seat_leaves(s) > OFC_SEARCH_BEST_LEAVES) {
            pol = OFC_COMPLETE_FAST;
        }
        complete(&c, e, s->board, deck, s->rounds, s->round_n, s->round_k, s->in_fl,
                 pol);
        finish(e, c.best, s->in_fl, &others[p]);
        deck += seat_cards(s);
    }
}

/* ------------------------------------------------------------ sequential */

/* The learned value of a board of the searcher (m->value set; see Learned value in
 * the header): every card but the board and the `live` ones is out of the deck. */
static double seq_learned(const env *e, const uint8_t b[13], uint64_t live, int players,
                          int in_fl)
{
    ofc_value_ctx vc;
    uint64_t mask = 0;
    double v;
    int i;
    for (i = 0; i < 13; i++) {
        mask |= b[i] == OFC_NO_CARD ? 0 : (uint64_t)1 << b[i];
    }
    vc.rules = e->r;
    vc.fl = e->fl;
    vc.ev = e->ev;
    vc.model = e->m->value;
    memcpy(vc.fl_value, e->m->fl_value, sizeof vc.fl_value);
    vc.players = (uint32_t)players;
    vc.in_fl = (uint32_t)in_fl;
    if (ofc_value_board(&vc, b, ((uint64_t)1 << OFC_CARDS) - 1 - (live | mask), &v) != OFC_OK) {
        return OFC_SEARCH_FOUL_VALUE;
    }
    return v;
}

/* The best option for one round of cards (every discard, every row per kept card),
 * each valued by the fast completion over `fake` cards for the rounds after it (or by
 * the learned value, seq_learned(), with m->value: `live`, `players`); the board gets
 * the winner. */
static void seq_round(const env *e, uint8_t board[13], const uint8_t *cards, int n, int k,
                      const uint8_t *fake, int left, const uint8_t *rn, const uint8_t *rk,
                      int in_fl, uint64_t live, int players)
{
    uint8_t best[13], kept[5], b[13];
    uint32_t dm = k ? (1u << k) - 1u : 0u, full = (1u << n) - 1u;
    int have = 0, i;
    double best_v = 0;
    cx c;
    cx_init(&c, e, board, in_fl);
    for (;;) {
        int nk = 0, code, codes = 1;
        for (i = 0; i < n; i++) {
            if (!(dm >> i & 1u)) {
                kept[nk++] = cards[i];
            }
        }
        for (i = 0; i < nk; i++) {
            codes *= 3;
        }
        for (code = 0; code < codes; code++) {
            int room[3], x = code, ok = 1;
            memcpy(b, board, 13);
            for (i = 0; i < 3; i++) {
                room[i] = c.free_[i];
            }
            for (i = 0; i < nk && ok; i++, x /= 3) {
                int r = x % 3;
                ok = room[r] > 0;
                if (ok) {
                    b[ROW_START(r) + ROW_SIZE(r) - room[r]--] = kept[i];
                }
            }
            if (ok) {
                cx t;
                double v;
                if (e->m->value != NULL && e->ev != NULL) {
                    v = seq_learned(e, b, live, players, in_fl);
                } else {
                    complete(&t, e, b, fake, left, rn, rk, in_fl, OFC_COMPLETE_FAST);
                    v = t.best_value;
                }
                if (!have || v > best_v) {
                    memcpy(best, b, 13);
                    best_v = v;
                    have = 1;
                }
            }
        }
        if (dm == 0 || (dm = next_subset(dm)) > full) {
            break;
        }
    }
    memcpy(board, best, 13);
}

/* Draws `need` cards from the unseen cards less the first `seen` of own[] into fake. */
static void seq_fake(const ofc_search_pos *pos, const uint8_t *own, int seen, int need,
                     ofc_rng *rng, uint8_t *fake)
{
    uint8_t avail[52];
    uint64_t known = 0;
    int i, n = 0;
    for (i = 0; i < seen; i++) {
        known |= (uint64_t)1 << own[i];
    }
    for (i = 0; i < pos->n_unseen; i++) {
        if (!(known >> pos->unseen[i] & 1u)) {
            avail[n++] = pos->unseen[i];
        }
    }
    need = need < 0 ? 0 : need > n ? n : need;
    ofc_rng_shuffle_front(avail, (size_t)n, (size_t)need, rng);
    memcpy(fake, avail, (size_t)need);
}

/* The searcher's sequential completion: each round but the last placed by seq_round()
 * over fake cards for the rounds after it, the last by the best completion. */
static void complete_seq(cx *c, const env *e, const ofc_search_pos *pos,
                         const uint8_t board[13], const uint8_t *cards, ofc_rng rng)
{
    const ofc_search_seat *own = &pos->seats[pos->seat];
    uint8_t b[13], fake[52];
    uint64_t live = 0;
    int i, off = 0, rounds = own->rounds;
    memcpy(b, board, 13);
    for (i = 0; i < pos->n_unseen; i++) {
        live |= (uint64_t)1 << pos->unseen[i];
    }
    for (i = 0; i + 1 < rounds; i++) {
        int need = 0, j;
        for (j = i + 1; j < rounds; j++) {
            need += own->round_n[j];
        }
        for (j = 0; j < own->round_n[i]; j++) {
            live &= ~((uint64_t)1 << cards[off + j]);
        }
        seq_fake(pos, cards, off + own->round_n[i], need, &rng, fake);
        seq_round(e, b, cards + off, own->round_n[i], own->round_k[i], fake, rounds - 1 - i,
                  own->round_n + i + 1, own->round_k + i + 1, own->in_fl, live, pos->players);
        off += own->round_n[i];
    }
    complete(c, e, b, cards + off, rounds ? 1 : 0, own->round_n + (rounds ? rounds - 1 : 0),
             own->round_k + (rounds ? rounds - 1 : 0), own->in_fl, OFC_COMPLETE_BEST);
}

/* Adds what one finished board of the searcher does to *s (NULL: nothing). */
static void stats_add(ofc_search_stats *s, const done *d, double weight)
{
    if (s != NULL) {
        s->foul += weight * d->ev.foul;
        s->fantasyland += weight * (d->next > 0);
        s->royalties +=
            weight * (double)(d->ev.royalty[0] + d->ev.royalty[1] + d->ev.royalty[2]);
    }
}

int32_t ofc_search_rollouts(const ofc_rules *rules, const ofc_fl_rules *fl,
                            const ofc_ev_tables *ev, const ofc_search_model *m,
                            const ofc_search_pos *pos, const uint8_t *actions,
                            uint32_t n_actions, uint32_t policy, uint64_t seed,
                            uint64_t first, uint64_t samples, double *sum, double *sum_sq)
{
    return ofc_search_rollouts_stats(rules, fl, ev, m, pos, actions, n_actions, policy,
                                     seed, first, samples, sum, sum_sq, NULL);
}

int32_t ofc_search_rollouts_stats(const ofc_rules *rules, const ofc_fl_rules *fl,
                                  const ofc_ev_tables *ev, const ofc_search_model *m,
                                  const ofc_search_pos *pos, const uint8_t *actions,
                                  uint32_t n_actions, uint32_t policy, uint64_t seed,
                                  uint64_t first, uint64_t samples, double *sum,
                                  double *sum_sq, ofc_search_stats *stats)
{
    env e;
    uint8_t boards[OFC_ACTION_SPACE][13], deck[52];
    done others[OFC_SEARCH_MAX_SEATS], me;
    cx c;
    const ofc_search_seat *own;
    int need = 0, p, mine;
    uint64_t i;
    uint32_t a;
    int32_t st = search_args(&e, rules, fl, ev, m, pos, actions, n_actions, boards);
    if (st != OFC_OK) {
        return st;
    }
    if (policy > OFC_COMPLETE_SEQUENTIAL || (n_actions > 0 && sum == NULL)) {
        return OFC_E_VALUE;
    }
    own = &pos->seats[pos->seat];
    mine = seat_cards(own);
    for (p = 0; p < pos->players; p++) {
        need += seat_cards(&pos->seats[p]);
    }
    for (i = 0; i < samples; i++) {
        ofc_rng fake_rng = ofc_rng_make(ofc_random64(seed ^ OFC_SEARCH_FAKE_KEY, first + i));
        ofc_rng opp_rng = ofc_rng_make(ofc_random64(seed ^ OFC_SEARCH_OPP_KEY, first + i));
        sample_deck(pos, seed, first + i, need, deck);
        complete_others(&e, pos, deck + mine, policy, 1, &opp_rng, others);
        for (a = 0; a < n_actions; a++) {
            double v;
            if (policy == OFC_COMPLETE_SEQUENTIAL) {
                complete_seq(&c, &e, pos, boards[a], deck, fake_rng);
            } else {
                complete(&c, &e, boards[a], deck, own->rounds, own->round_n, own->round_k,
                         own->in_fl, policy);
            }
            finish(&e, c.best, own->in_fl, &me);
            v = deal_value(&e, pos, &me, others);
            sum[a] += v;
            if (sum_sq != NULL) {
                sum_sq[a] += v * v;
            }
            stats_add(stats != NULL ? &stats[a] : NULL, &me, 1.0);
        }
    }
    return OFC_OK;
}

/* ------------------------------------------------------------ exact */

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
    const uint64_t cap = (uint64_t)1 << 62;
    if (a == 0 || b == 0) {
        return 0;
    }
    return a > cap / b ? cap : a * b;
}

static uint64_t choose(int n, int k)
{
    uint64_t r = 1;
    int i;
    if (k < 0 || k > n) {
        return 0;
    }
    for (i = 1; i <= k; i++) {
        r = r * (uint64_t)(n - k + i) / (uint64_t)i;
    }
    return r;
}

/* Completions of one seat's rounds (every discard choice, at most nkept! fills). */
static uint64_t seat_leaves(const ofc_search_seat *s)
{
    uint64_t n = 1;
    int i, kept = 0;
    for (i = 0; i < s->rounds; i++) {
        n = sat_mul(n, choose(s->round_n[i], s->round_k[i]));
        kept += s->round_n[i] - s->round_k[i];
    }
    return sat_mul(n, factorial(kept > 20 ? 20 : kept));
}

uint64_t ofc_search_exact_cost(const ofc_search_pos *pos, uint32_t n_actions)
{
    const ofc_search_seat *own;
    uint64_t draws = 1, opp = 0, per;
    int pool, p, i;
    if (ofc_search_pos_check(pos) != OFC_OK || pos->seats[pos->seat].rounds > 1 ||
        seat_leaves(&pos->seats[pos->seat]) > MAX_COMPLETIONS) {
        return 0;
    }
    own = &pos->seats[pos->seat];
    pool = pos->n_unseen;
    for (i = 0; i < own->rounds; i++) {
        draws = sat_mul(draws, choose(pool, own->round_n[i]));
        pool -= own->round_n[i];
    }
    for (p = 0; p < pos->players; p++) {
        const ofc_search_seat *s = &pos->seats[p];
        if (p == pos->seat) {
            continue;
        }
        for (i = 0; i < s->rounds; i++) {
            draws = sat_mul(draws, choose(pool, s->round_n[i]));
            pool -= s->round_n[i];
        }
        opp += seat_leaves(s);
    }
    per = seat_leaves(own) + opp + 1;
    return sat_mul(sat_mul(draws, per), n_actions ? n_actions : 1);
}

/* The searcher's completions for one own draw, finished and evaluated. */
struct own_set {
    done d[MAX_COMPLETIONS];
    double acc[MAX_COMPLETIONS];
    int n;
};
typedef struct own_set own_set;

/* cx_leaf() with `all`: keep the board (finished) for exact search. */
static void own_record(cx *c)
{
    struct own_set *out = c->all;
    if (out->n < MAX_COMPLETIONS) {
        finish(c->e, c->cur, c->in_fl, &out->d[out->n]);
        out->acc[out->n++] = 0;
    }
}

/* Records every completion of the searcher's board (all discards, all fills). */
static void own_completions(const env *e, const ofc_search_seat *own,
                            const uint8_t board[13], const uint8_t *cards, own_set *out)
{
    cx c;
    cx_init(&c, e, board, own->in_fl);
    c.all = out;
    out->n = 0;
    cx_discards(&c, cards, own->rounds, own->round_n, own->round_k);
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
} xs;

/* One complete draw of the others: add each own completion's value. */
static void xs_leaf(xs *x)
{
    done others[OFC_SEARCH_MAX_SEATS];
    int i;
    complete_others(x->e, x->pos, x->deck, OFC_COMPLETE_BEST, 0, NULL, others);
    for (i = 0; i < x->own->n; i++) {
        x->own->acc[i] += deal_value(x->e, x->pos, &x->own->d[i], others);
    }
    x->count++;
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
    for (combo_init(&c, avail, x->ev_n[ev_i]); c.live; combo_next(&c)) {
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
        stats_add(stats, &x->own->d[pick], 1.0);
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
        for (combo_init(&c, avail, own->round_n[0]); c.live; combo_next(&c)) {
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
    env e;
    uint8_t boards[OFC_ACTION_SPACE][13];
    own_set own;
    xs x;
    uint64_t avail = 0, cost;
    int p, i;
    uint32_t a;
    int32_t st = search_args(&e, rules, fl, ev, m, pos, actions, n_actions, boards);
    if (st != OFC_OK) {
        return st;
    }
    if (n_actions > 0 && values == NULL) {
        return OFC_E_VALUE;
    }
    cost = ofc_search_exact_cost(pos, n_actions);
    if (cost == 0 || cost > max_nodes || m->opp_random > 0) {
        return OFC_E_BUDGET;
    }
    for (i = 0; i < pos->n_unseen; i++) {
        avail |= (uint64_t)1 << pos->unseen[i];
    }
    x.e = &e;
    x.pos = pos;
    x.own = &own;
    x.n_events = 0;
    for (p = 0; p < pos->players; p++) {
        for (i = 0; p != pos->seat && i < pos->seats[p].rounds; i++) {
            x.ev_n[x.n_events++] = pos->seats[p].round_n[i];
        }
    }
    for (a = 0; a < n_actions; a++) {
        values[a] = exact_move(&x, boards[a], avail, stats != NULL ? &stats[a] : NULL);
    }
    return OFC_OK;
}
