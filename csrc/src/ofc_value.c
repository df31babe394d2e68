/* ofc_value.c -- features and values of after-states, the value policy and the labels
 * of backward induction (ofc_value.h). */
#include "ofc_value.h"

#include <math.h>
#include <string.h>

#include "ofc_game.h"
#include "ofc_internal.h"
#include "ofc_internal_solve.h"
#include "ofc_rng.h"

#define ROW_START(r) ((r) == 0 ? 0 : (r) == 1 ? 3 : 8)
#define ROW_FEATS 18
#define ALL_CARDS ((uint64_t)0xFFFFFFFFFFFFFULL) /* bits 0..51 */

/* ------------------------------------------------------------ checks */

int32_t ofc_value_ctx_check(const ofc_value_ctx *c)
{
    int i;
    if (c == NULL) {
        return OFC_E_VALUE;
    }
    if (!ofc_rules_scalars_ok(c->rules) || c->ev == NULL ||
        (c->fl != NULL && ofc_fl_rules_check(c->fl) != OFC_OK)) {
        return OFC_E_RULES;
    }
    if (c->model != NULL &&
        (c->model->feature_set != OFC_VF_SET || c->model->inputs != OFC_VF_N)) {
        return OFC_E_MODEL_SHAPE;
    }
    if (c->players < 2 || c->players > 4 ||
        !(c->in_fl == 0 || (c->in_fl >= 13 && c->in_fl <= 17)) ||
        (c->model != NULL && c->model->players != 0 && c->model->players != c->players)) {
        return OFC_E_COUNT;
    }
    for (i = 0; i < OFC_VF_FL_VALUES; i++) {
        if (!isfinite(c->fl_value[i]) || fabs(c->fl_value[i]) > 1e6) {
            return OFC_E_VALUE;
        }
    }
    return OFC_OK;
}

int32_t ofc_value_ev_tables(const ofc_rules *rules, const ofc_vmodel *model,
                            ofc_ev_tables *out)
{
    if (model != NULL && model->opponent) {
        return ofc_ev_tables_init_counts(rules, model->opp, out);
    }
    return ofc_ev_tables_init(rules, out);
}

/* Board cards into *mask (each row's cards first, then gaps); *placed = how many. */
static int32_t board_cards(const uint8_t board[13], uint64_t *mask, int *placed)
{
    int r, i;
    *mask = 0;
    *placed = 0;
    for (r = 0; r < 3; r++) {
        int size = (int)ofc_row_size((uint32_t)r), gap = 0;
        for (i = 0; i < size; i++) {
            uint8_t card = board[ROW_START(r) + i];
            if (card == OFC_NO_CARD) {
                gap = 1;
                continue;
            }
            if (gap || card >= OFC_CARDS) {
                return OFC_E_CARD;
            }
            if (*mask >> card & 1u) {
                return OFC_E_DUPLICATE;
            }
            *mask |= (uint64_t)1 << card;
            ++*placed;
        }
    }
    return OFC_OK;
}

/* Checks a context, a board, its dead cards and an output pointer (`out`, NULL is
 * refused); *mask and *placed: the board's cards. */
/* 1 when the n bytes at out share a byte with a checked context or what it points to
 * (the rules, Fantasyland rules, tables, model): a call writing out while it still
 * reads them refuses (OFC_E_VALUE, nothing written). */
static int ctx_over(const ofc_value_ctx *c, const void *out, size_t n)
{
    const ofc_span in[5] = {{c, sizeof *c},
                            {c->rules, sizeof *c->rules},
                            {c->fl, sizeof *c->fl},
                            {c->ev, sizeof *c->ev},
                            {c->model, sizeof *c->model}};
    return ofc_over_any(out, n, in, 5);
}

/* The checks of a board call: board and out (out_bytes of output) not NULL, the
 * context (ofc_value_ctx_check()), out not over it, the board's cards and dead. */
static int32_t check_board(const ofc_value_ctx *c, const uint8_t *board, uint64_t dead,
                           const void *out, size_t out_bytes, uint64_t *mask, int *placed)
{
    int32_t st;
    if (board == NULL || out == NULL) {
        return OFC_E_VALUE;
    }
    if ((st = ofc_value_ctx_check(c)) != OFC_OK) {
        return st == OFC_E_RULES ? OFC_E_VALUE : st;
    }
    if (ctx_over(c, out, out_bytes)) {
        return OFC_E_VALUE;
    }
    if ((st = board_cards(board, mask, placed)) != OFC_OK) {
        return st;
    }
    if (dead >> OFC_CARDS) {
        return OFC_E_CARD;
    }
    return (*mask & dead) ? OFC_E_DUPLICATE : OFC_OK;
}

/* ------------------------------------------------------------ features */

/* What the features read of one row. */
typedef struct row_info {
    int n, size, cnt[13], suits[4], maxc, group, hi, hi2, pairs, trips, quads;
    uint16_t strength; /* when full */
    double score;      /* made-hand score, about 0..1 */
} row_info;

/* Live cards of rank r. */
static int live_rank(uint64_t live, int r)
{
    return (int)ofc_popcount64(live >> (4 * r) & 0xFu);
}

/* Live cards of suit s (bit 4r + s of every rank r). */
static int live_suit(uint64_t live, int s)
{
    return (int)ofc_popcount64(live >> s & UINT64_C(0x1111111111111));
}

static void row_scan(const uint8_t *p, int size, row_info *ri)
{
    int i, r;
    memset(ri, 0, sizeof *ri);
    ri->size = size;
    ri->hi = ri->hi2 = ri->group = -1;
    for (i = 0; i < size && p[i] != OFC_NO_CARD; i++) {
        ri->cnt[p[i] / 4]++;
        ri->suits[p[i] % 4]++;
    }
    ri->n = i;
    for (r = 12; r >= 0; r--) {
        int k = ri->cnt[r];
        if (k == 0) {
            continue;
        }
        if (ri->hi < 0) {
            ri->hi = r;
        } else if (ri->hi2 < 0) {
            ri->hi2 = r;
        }
        ri->pairs += k == 2;
        ri->trips += k == 3;
        ri->quads += k == 4;
        if (k > ri->maxc) {
            ri->maxc = k;
            ri->group = r;
        }
    }
}

/* Made-hand class from the counts: 0 high card .. 7 quads (a full row: its category). */
static double row_class(const row_info *ri)
{
    if (ri->n == ri->size && ri->strength) {
        return (double)ofc_category_of(ri->strength);
    }
    if (ri->quads) {
        return 7;
    }
    if (ri->trips) {
        return ri->pairs ? 6 : 3;
    }
    return ri->pairs >= 2 ? 2 : ri->pairs;
}

/* Straight draw of a 5-card row: 1 when its distinct ranks fit five in a row (the ace
 * also low); *outs = live cards of the missing ranks of every such five. */
static int straight_draw(const row_info *ri, uint64_t live, int *outs)
{
    uint32_t ranks = 0, need = 0;
    int r, s, any = 0;
    *outs = 0;
    if (ri->size != 5 || ri->n == 0 || ri->maxc > 1) {
        return 0;
    }
    for (r = 0; r < 13; r++) {
        ranks |= (uint32_t)(ri->cnt[r] != 0) << r;
    }
    for (s = 0; s <= 9; s++) { /* positions s..s+4: 0 the ace low, 1..13 the 2..ace */
        uint32_t window = s == 0 ? 0x100Fu : 0x1Fu << (s - 1);
        if ((ranks & ~window) == 0) {
            any = 1;
            need |= window & ~ranks;
        }
    }
    for (r = 0; r < 13; r++) {
        if (need >> r & 1u) {
            *outs += live_rank(live, r);
        }
    }
    return any;
}

static void row_features(const ofc_value_ctx *c, int row, const uint8_t *p, uint64_t live,
                         row_info *ri, float *f)
{
    int r, outs = 0, flush_suit = -1, i;
    double pair_outs = 0;
    row_scan(p, ri->size, ri);
    if (ri->n == ri->size) {
        ri->strength = row == 0 ? ofc_rank3_k(p[0], p[1], p[2])
                                : ofc_rank5_k(p[0], p[1], p[2], p[3], p[4]);
    }
    for (i = 0; i < 4 && ri->size == 5 && ri->n > 0; i++) {
        if (ri->suits[i] == ri->n) {
            flush_suit = i;
        }
    }
    for (r = 0; r < 13; r++) {
        if (ri->cnt[r]) {
            pair_outs += live_rank(live, r);
        }
    }
    f[0] = (float)ri->n / (float)ri->size;
    f[1] = (float)(ri->n == ri->size);
    f[2] = (float)ri->pairs / 2.0f;
    f[3] = (float)(ri->trips > 0);
    f[4] = (float)(ri->quads > 0);
    f[5] = ri->maxc >= 2 ? (float)(ri->group + 1) / 13.0f : 0.0f;
    f[6] = (float)(ri->hi + 1) / 13.0f;
    f[7] = (float)(ri->hi2 + 1) / 13.0f;
    f[8] = (float)(flush_suit >= 0);
    f[9] = flush_suit >= 0 ? (float)live_suit(live, flush_suit) / 13.0f : 0.0f;
    f[10] = (float)straight_draw(ri, live, &outs);
    f[11] = (float)outs / 16.0f;
    f[12] = (float)(pair_outs / 12.0);
    f[13] = ri->maxc >= 2 ? (float)live_rank(live, ri->group) / 2.0f : 0.0f;
    ri->score = (row_class(ri) + (ri->group + 1) / 13.0) / 10.0;
    f[14] = ri->strength ? (float)ofc_category_of(ri->strength) / 9.0f : 0.0f;
    f[15] = ri->strength ? (float)c->rules->royalty[row][ri->strength] / 25.0f : 0.0f;
    f[16] = ri->strength ? c->ev->units[row][ri->strength] : 0.0f;
    f[17] = (float)ri->score;
}

/* Full rows that already foul (high-hand order; 0 under a 2-7 middle). */
static int fouls_now(const ofc_value_ctx *c, const row_info *ri)
{
    uint32_t o = c->rules->order_rule;
    if (c->rules->middle_lowball) {
        return 0;
    }
    if (ri[1].strength && ri[2].strength &&
        ofc_order_fouls(o, 0, ri[1].strength, ri[2].strength)) {
        return 1;
    }
    return ri[0].strength && ri[1].strength &&
           ofc_order_fouls(o, ri[0].strength, ri[1].strength, 0xFFFFu);
}

/* The features without checks. */
static void features(const ofc_value_ctx *c, const uint8_t board[13], uint64_t dead,
                     uint64_t mask, int placed, float *out)
{
    row_info ri[3];
    uint64_t live = ALL_CARDS & ~mask & ~dead;
    int r;
    double roy = 0;
    for (r = 0; r < 3; r++) {
        ri[r].size = (int)ofc_row_size((uint32_t)r);
        row_features(c, r, board + ROW_START(r), live, &ri[r], out + ROW_FEATS * r);
        if (ri[r].strength) {
            roy += c->rules->royalty[r][ri[r].strength];
        }
    }
    out[54] = (float)placed / 13.0f;
    out[55] = (float)ofc_popcount64(live) / 52.0f;
    out[56] = (float)c->players / 4.0f;
    out[57] = (float)(ri[0].score - ri[1].score);
    out[58] = (float)(ri[1].score - ri[2].score);
    out[59] = (float)fouls_now(c, ri);
    out[60] = (float)(ri[0].maxc >= 2 && ri[0].group >= 10);
    out[61] = (float)(live_rank(live, 10) + live_rank(live, 11) + live_rank(live, 12)) / 12.0f;
    out[62] = (float)(roy / 25.0);
    out[63] = 1.0f;
}

int32_t ofc_value_features(const ofc_value_ctx *c, const uint8_t given[13], uint64_t dead,
                           float out[OFC_VF_N])
{
    uint8_t local[OFC_BOARD_CARDS];
    const uint8_t *board = ofc_read_once(given, OFC_BOARD_CARDS, local);
    uint64_t mask;
    int placed;
    int32_t st = check_board(c, board, dead, out, OFC_VF_N * sizeof *out, &mask, &placed);
    if (st == OFC_OK) {
        features(c, board, dead, mask, placed, out);
    }
    return st;
}

/* ------------------------------------------------------------ values */

/* The value of a checked board. */
static int32_t value_of(const ofc_value_ctx *c, const uint8_t board[13], uint64_t dead,
                        double *out)
{
    uint64_t mask;
    int placed;
    float x[OFC_VF_N];
    board_cards(board, &mask, &placed);
    if (placed == 13) {
        ofc_board_eval e;
        double v;
        int32_t st = ofc_ev_board(c->rules, c->ev, board, &v);
        if (st != OFC_OK) {
            return st;
        }
        ofc_eval_board_k(c->rules, board, &e);
        if (!e.foul) {
            v += c->fl_value[ofc_fl_next_k(c->fl, c->rules->middle_lowball, (int)c->in_fl,
                                           e.strength)];
        }
        *out = v;
        return OFC_OK;
    }
    if (c->model == NULL) {
        return OFC_E_MODEL_NO_NET;
    }
    features(c, board, dead, mask, placed, x);
    return ofc_vm_eval(c->model, (uint32_t)placed, x, out);
}

int32_t ofc_value_board(const ofc_value_ctx *c, const uint8_t given[13], uint64_t dead,
                        double *out)
{
    uint8_t local[OFC_BOARD_CARDS];
    const uint8_t *board = ofc_read_once(given, OFC_BOARD_CARDS, local);
    uint64_t mask;
    int placed;
    int32_t st = check_board(c, board, dead, out, sizeof *out, &mask, &placed);
    return st == OFC_OK ? value_of(c, board, dead, out) : st;
}

/* The board after action `a` (the discards into *dead); OFC_E_ACTION if it does not fit. */
static int32_t after_action(const uint8_t board[13], const uint8_t *dealt, uint32_t n,
                            uint32_t k, uint32_t a, uint8_t out[13], uint64_t *dead)
{
    uint8_t dest[5];
    uint32_t i;
    memcpy(out, board, 13);
    if (ofc_action_decode(n, k, a, dest) != OFC_OK) {
        return OFC_E_ACTION;
    }
    for (i = 0; i < n; i++) {
        int r = dest[i], j, end;
        if (r == OFC_DISCARD) {
            *dead |= (uint64_t)1 << dealt[i];
            continue;
        }
        end = ROW_START(r) + (int)ofc_row_size((uint32_t)r);
        for (j = ROW_START(r); j < end && out[j] != OFC_NO_CARD; j++) {
        }
        if (j == end) {
            return OFC_E_ACTION;
        }
        out[j] = dealt[i];
    }
    return OFC_OK;
}

/* A decision as a public function is given it: its board and dealt cards, each
 * read once into the locals here (ofc_fast.h, Threads), and the pointers the checked
 * decision is read through. */
typedef struct decision {
    uint8_t local[OFC_BOARD_CARDS], local_dealt[5];
    const uint8_t *board, *dealt;
} decision;

/* Reads a decision into *d and checks it: board, dealt cards and dead cards together. */
static int32_t read_decision(const ofc_value_ctx *c, const uint8_t given[13],
                             const uint8_t *given_dealt, uint32_t n, uint32_t k,
                             uint64_t dead, decision *d)
{
    uint64_t mask, seen;
    int placed;
    int32_t st;
    d->board = ofc_read_once(given, OFC_BOARD_CARDS, d->local);
    d->dealt = ofc_read_once(given_dealt, n <= 5 ? n : 0, d->local_dealt);
    st = check_board(c, d->board, dead, d->dealt, 0, &mask, &placed); /* dealt: an input */
    if (st != OFC_OK) {
        return st;
    }
    if (n < 1 || n > 5 || k >= n) {
        return OFC_E_COUNT;
    }
    seen = mask | dead;
    return ofc_check_cards(d->dealt, n, &seen);
}

/* The values of n_actions actions of a checked decision. */
static int32_t values_of(const ofc_value_ctx *c, const uint8_t board[13],
                         const uint8_t *dealt, uint32_t n, uint32_t k, uint64_t dead,
                         const uint8_t *actions, uint32_t n_actions, double *values)
{
    uint32_t i;
    for (i = 0; i < n_actions; i++) {
        uint8_t after[13];
        uint64_t d = dead;
        int32_t st = after_action(board, dealt, n, k, actions[i], after, &d);
        if (st == OFC_OK) {
            st = value_of(c, after, d, &values[i]);
        }
        if (st != OFC_OK) {
            return st;
        }
    }
    return OFC_OK;
}

int32_t ofc_value_actions(const ofc_value_ctx *c, const uint8_t given[13],
                          const uint8_t *given_dealt, uint32_t n, uint32_t k, uint64_t dead,
                          const uint8_t *actions, uint32_t n_actions, double *values)
{
    decision d;
    int32_t st = read_decision(c, given, given_dealt, n, k, dead, &d);
    if (st != OFC_OK) {
        return st;
    }
    if (n_actions > OFC_ACTION_SPACE ||
        (n_actions > 0 && (actions == NULL || values == NULL)) ||
        ctx_over(c, values, n_actions * sizeof *values)) {
        return OFC_E_VALUE;
    }
    return values_of(c, d.board, d.dealt, n, k, dead, actions, n_actions, values);
}

/* The best action of a checked decision. */
static int32_t best_of(const ofc_value_ctx *c, const uint8_t board[13], const uint8_t *dealt,
                       uint32_t n, uint32_t k, uint64_t dead, uint8_t *action,
                       uint8_t after[13], double *value)
{
    uint8_t ids[OFC_ACTION_SPACE], room[3];
    double v[OFC_ACTION_SPACE];
    int r, i, count, best = 0;
    int32_t st;
    for (r = 0; r < 3; r++) {
        int j, size = (int)ofc_row_size((uint32_t)r);
        for (j = 0; j < size && board[ROW_START(r) + j] != OFC_NO_CARD; j++) {
        }
        room[r] = (uint8_t)(size - j);
    }
    count = ofc_actions_legal(n, k, room, ids, NULL);
    if (count <= 0) {
        return OFC_E_ACTION;
    }
    if ((st = values_of(c, board, dealt, n, k, dead, ids, (uint32_t)count, v)) != OFC_OK) {
        return st;
    }
    for (i = 1; i < count; i++) {
        if (v[i] > v[best]) {
            best = i;
        }
    }
    if (action != NULL) {
        *action = ids[best];
    }
    if (after != NULL) {
        uint64_t d = dead;
        after_action(board, dealt, n, k, ids[best], after, &d);
    }
    if (value != NULL) {
        *value = v[best];
    }
    return OFC_OK;
}

int32_t ofc_value_best(const ofc_value_ctx *c, const uint8_t given[13],
                       const uint8_t *given_dealt, uint32_t n, uint32_t k, uint64_t dead,
                       uint8_t *action, uint8_t after[13], double *value)
{
    decision d;
    int32_t st = read_decision(c, given, given_dealt, n, k, dead, &d);
    return st == OFC_OK ? best_of(c, d.board, d.dealt, n, k, dead, action, after, value)
                        : st;
}

/* ------------------------------------------------------------ labels */

int32_t ofc_value_expect(const ofc_value_ctx *c, const uint8_t given[13], uint64_t dead,
                         uint32_t n, uint32_t k, uint32_t reveal, uint64_t seed,
                         uint32_t samples, double *mean, double *var)
{
    uint8_t local[OFC_BOARD_CARDS];
    const uint8_t *board = ofc_read_once(given, OFC_BOARD_CARDS, local);
    uint8_t live[52], draw[52];
    uint64_t mask;
    int placed, n_live = 0, i;
    double sum = 0, sq = 0;
    uint32_t s;
    int32_t st = check_board(c, board, dead, mean, sizeof *mean, &mask, &placed);
    if (st != OFC_OK) {
        return st;
    }
    for (i = 0; i < OFC_CARDS; i++) {
        if (!((mask | dead) >> i & 1u)) {
            live[n_live++] = (uint8_t)i;
        }
    }
    if (n < 1 || n > 5 || k >= n || reveal > 20 || samples < 1 || samples > 1000000 ||
        (int)(n + reveal) > n_live) {
        return OFC_E_COUNT;
    }
    for (s = 0; s < samples; s++) {
        ofc_rng rng = ofc_rng_make(ofc_random64(seed, s));
        uint64_t d = dead;
        double v;
        uint32_t j;
        memcpy(draw, live, (size_t)n_live);
        ofc_rng_shuffle_front(draw, (size_t)n_live, (size_t)(n + reveal), &rng);
        for (j = n; j < n + reveal; j++) {
            d |= (uint64_t)1 << draw[j];
        }
        if ((st = best_of(c, board, draw, n, k, d, NULL, NULL, &v)) != OFC_OK) {
            return st;
        }
        sum += v;
        sq += v * v;
    }
    *mean = sum / samples;
    if (var != NULL) {
        double v = sq / samples - *mean * *mean;
        *var = v > 0 ? v : 0.0;
    }
    return OFC_OK;
}
