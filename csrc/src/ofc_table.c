/* ofc_table.c -- the table around a settlement (see ofc_settle.h): its rules, the
 * settlement order of the pairs, table stakes and what a natural pays. */
#include <string.h>

#include "ofc_settle_internal.h"

/* ------------------------------------------------------------ table rules */

int32_t ofc_table_rules_init(ofc_table_rules *t)
{
    int n;
    if (t == NULL) {
        return OFC_E_VALUE;
    }
    memset(t, 0, sizeof *t);
    t->max_players = SEATS;
    t->surrender_cost = -1;
    for (n = 0; n < OFC_NAT_COUNT; n++) {
        t->natural_rank[n] = -1;
    }
    return OFC_OK;
}

/* 1 when the played naturals have units in range and distinct ranks 0..played-1. */
static int naturals_valid(const ofc_table_rules *t)
{
    uint32_t ranks = 0, played = 0;
    int n;
    if (t->natural_mask >> OFC_NAT_COUNT || t->naturals_rule > OFC_NATRULE_DIFFERENCE) {
        return 0;
    }
    for (n = 0; n < OFC_NAT_COUNT; n++) {
        int32_t rank = t->natural_rank[n];
        if (!(t->natural_mask & OFC_NAT_BIT(n))) {
            if (rank != -1) {
                return 0;
            }
            continue;
        }
        if (!in_range(t->natural_units[n], 0, 1000) || !in_range(rank, 0, OFC_NAT_COUNT - 1) ||
            ranks & BIT(rank)) {
            return 0;
        }
        ranks |= BIT(rank);
        played++;
    }
    return ranks == (BIT(played) - 1u);
}

int32_t ofc_table_rules_check(const ofc_table_rules *t)
{
    int k;
    if (t == NULL || !in_range(t->max_players, 2, SEATS) || t->house > 1 || t->start > 1 ||
        t->stakes > 1 || t->aces_bet > 1 || !in_range(t->pool_ante, 0, 1000) ||
        !in_range(t->pool_sweep_extra, 0, t->pool_ante ? 1000 : 0) ||
        !in_range(t->single_winner, 0, 1000) || t->surrender_cost > 1000 ||
        !ofc_reserved_zero(t->reserved, sizeof t->reserved) ||
        !ofc_reserved_zero(t->reserved2, sizeof t->reserved2)) {
        return OFC_E_RULES;
    }
    for (k = 0; k < 5; k++) {
        if (!in_range(t->aces_value[k], 0, 1000)) {
            return OFC_E_RULES;
        }
    }
    if ((t->pool_ante && (t->house || t->single_winner)) || (t->house && t->single_winner) ||
        !naturals_valid(t)) {
        return OFC_E_RULES;
    }
    return OFC_OK;
}

int32_t ofc_settle_input_init(ofc_settle_input *in, uint8_t players, uint8_t button)
{
    int s;
    if (in == NULL) {
        return OFC_E_VALUE;
    }
    memset(in, 0, sizeof *in);
    memset(in->cards, OFC_NO_CARD, sizeof in->cards);
    in->players = players;
    in->button = button;
    for (s = 0; s < SEATS; s++) {
        in->declared[s] = OFC_DECLARE_NONE;
    }
    return OFC_OK;
}

/* ---------------------------------------------------------- order, stakes */

/* Pairs in settlement order (players and button valid); returns their count. */
int ofc_st_order_pairs(uint32_t players, uint32_t button, uint32_t start, uint8_t pairs[][2])
{
    uint32_t first = start == OFC_START_BUTTON ? button : button + 1, i, j;
    int k = 0;
    for (i = 0; i < players; i++) {
        for (j = i + 1; j < players; j++) {
            pairs[k][0] = (uint8_t)((first + i) % players);
            pairs[k][1] = (uint8_t)((first + j) % players);
            k++;
        }
    }
    return k;
}

int32_t ofc_settlement_order(uint32_t players, uint32_t button, uint32_t start,
                             uint8_t pairs[][2])
{
    if (pairs == NULL || start > OFC_START_BUTTON) {
        return OFC_E_VALUE;
    }
    if (players < 2 || players > SEATS || button >= players) {
        return OFC_E_SEAT;
    }
    return ofc_st_order_pairs(players, button, start, pairs);
}

/* One capped transfer (R-STAKES-*): amount > 0 means seat j pays seat i. */
int32_t ofc_st_stakes_step(uint32_t model, stakes_seat *st, uint32_t i, uint32_t j,
                           int32_t amount)
{
    stakes_seat *w = amount > 0 ? &st[i] : &st[j], *l = amount > 0 ? &st[j] : &st[i];
    int64_t want = amount > 0 ? amount : -(int64_t)amount, paid;
    if (model == OFC_STAKES_CHIPS) {
        paid = want < w->capacity ? want : w->capacity;
        paid = paid < l->capacity ? paid : l->capacity;
        w->capacity -= paid;
        l->capacity -= paid;
    } else if (w->done || l->done) {
        paid = 0;
    } else {
        int64_t room = 2 * w->start - w->chips; /* win at most the starting stack */
        paid = want < l->chips ? want : l->chips;
        paid = paid < room ? paid : room;
        paid = paid > 0 ? paid : 0;
    }
    w->chips += paid;
    l->chips -= paid;
    if (model == OFC_STAKES_WIN_CAP && w->chips - w->start >= w->start) {
        w->done = 1;
    }
    return (int32_t)(amount > 0 ? paid : -paid);
}

void ofc_st_stakes_init(stakes_seat *st, const int32_t *stacks, size_t seats)
{
    size_t s;
    for (s = 0; s < seats; s++) {
        st[s].start = st[s].chips = st[s].capacity = stacks[s];
        st[s].done = 0;
    }
}

/* Copies the transfers from `start` on (at most OFC_COPY_BLOCK) to p and a, reading
 * each caller byte once, and checks the copies: OFC_OK, OFC_E_SEAT or OFC_E_VALUE.
 * *m receives how many were copied. */
static int32_t stakes_block(const uint8_t pairs[][2], const int32_t *amount, size_t seats,
                            size_t start, size_t n, uint8_t p[][2], int32_t *a, size_t *m)
{
    size_t k;
    *m = n - start < OFC_COPY_BLOCK ? n - start : OFC_COPY_BLOCK;
    ofc_copy_cards(&p[0][0], &pairs[start][0], 2 * *m);
    ofc_copy_cards((uint8_t *)a, (const uint8_t *)(amount + start), *m * sizeof *a);
    for (k = 0; k < *m; k++) {
        if (p[k][0] >= seats || p[k][1] >= seats || p[k][0] == p[k][1]) {
            return OFC_E_SEAT; /* a seat paying itself would use its capacity twice */
        }
        if (a[k] == INT32_MIN) {
            return OFC_E_VALUE;
        }
    }
    return OFC_OK;
}

/* Room for n transfers at scratch, sharing no byte with the other buffers (the
 * transfers' arrays `rows`: pairs, amount, actual). */
static int scratch_ok(const ofc_stakes_transfer *scratch, size_t room, const int32_t *given,
                      size_t seats, const ofc_span rows[3], size_t n)
{
    const ofc_span in[4] = {{given, seats * sizeof *given}, rows[0], rows[1], rows[2]};
    return room >= n && !ofc_rows_over_any(scratch, n, sizeof *scratch, in, 4);
}

int32_t ofc_apply_stakes_scratch(uint32_t model, const int32_t *given, size_t seats,
                                 const uint8_t pairs[][2], const int32_t *amount, size_t n,
                                 int32_t *actual, ofc_stakes_transfer *scratch,
                                 size_t scratch_len)
{
    stakes_seat st[256];
    int32_t stacks[256], a[OFC_COPY_BLOCK];
    uint8_t p[OFC_COPY_BLOCK][2];
    size_t k, m = 0, start;
    int pass;
    /* the transfers' arrays, their sizes saturated (ofc_rows()): a count n whose bytes
     * overflow size_t describes no array, where a wrapped size let an array laid
     * over another pass as apart from it */
    const ofc_span rows[3] = {ofc_rows(pairs, n, 2), ofc_rows(amount, n, sizeof *amount),
                              ofc_rows(actual, n, sizeof *actual)};
    if (model > OFC_STAKES_CHIPS || given == NULL || seats == 0 || seats > 256 ||
        (n > 0 && (pairs == NULL || amount == NULL || actual == NULL ||
                   ofc_rows_over_any(actual, n, sizeof *actual, rows, 1) ||
                   (actual != amount && /* capped in place: each block read first */
                    ofc_rows_over_any(actual, n, sizeof *actual, rows + 1, 1)))) ||
        (scratch == NULL ? scratch_len != 0
                         : !scratch_ok(scratch, scratch_len, given, seats, rows, n))) {
        return OFC_E_VALUE;
    }
    /* the stacks read once, then the transfers a block at a time, checked (all of them
     * first: a bad one leaves actual as it is) and used only as copied; up to one
     * block, pass 0's copy is the one paid, beyond it the copy kept in scratch, or
     * without scratch a second copy, checked again (ofc_fast.h, Threads) */
    ofc_copy_cards((uint8_t *)stacks, (const uint8_t *)given, seats * sizeof *stacks);
    for (k = 0; k < seats; k++) {
        if (!in_range(stacks[k], 0, OFC_STACK_MAX)) {
            return OFC_E_STACKS;
        }
    }
    ofc_st_stakes_init(st, stacks, seats);
    for (pass = 0; pass < 2; pass++) {
        for (start = 0; start < n; start += m) {
            if (pass == 1 && scratch != NULL && n > OFC_COPY_BLOCK) {
                m = n - start < OFC_COPY_BLOCK ? n - start : OFC_COPY_BLOCK;
                for (k = 0; k < m; k++) {
                    memcpy(p[k], scratch[start + k].pair, 2);
                    a[k] = scratch[start + k].amount;
                }
            } else if (pass == 0 || n > OFC_COPY_BLOCK) {
                int32_t rc = stakes_block(pairs, amount, seats, start, n, p, a, &m);
                if (rc != OFC_OK) {
                    return rc;
                }
            }
            for (k = 0; pass == 0 && scratch != NULL && k < m; k++) {
                memcpy(scratch[start + k].pair, p[k], 2);
                scratch[start + k].amount = a[k];
            }
            for (k = 0; pass == 1 && k < m; k++) {
                actual[start + k] = ofc_st_stakes_step(model, st, p[k][0], p[k][1], a[k]);
            }
        }
    }
    return OFC_OK;
}

int32_t ofc_apply_stakes(uint32_t model, const int32_t *stacks, size_t seats,
                         const uint8_t pairs[][2], const int32_t *amount, size_t n,
                         int32_t *actual)
{
    return ofc_apply_stakes_scratch(model, stacks, seats, pairs, amount, n, actual, NULL, 0);
}

/* ---------------------------------------------------------------- naturals */

/* ofc_natural_payment() for two valid ids (-1 = ordinary hand). */
int32_t ofc_st_natural_pay(const ofc_table_rules *t, int32_t a, uint32_t ka, int32_t b,
                           uint32_t kb)
{
    int32_t ua, ub;
    if (a < 0) {
        return b < 0 ? 0 : -t->natural_units[b];
    }
    if (b < 0) {
        return t->natural_units[a];
    }
    ua = t->natural_units[a];
    ub = t->natural_units[b];
    if (t->naturals_rule == OFC_NATRULE_DIFFERENCE) {
        return ua - ub;
    }
    if (t->naturals_rule == OFC_NATRULE_EQUAL_CANCEL && ua == ub &&
        (a == OFC_NAT_DRAGON) == (b == OFC_NAT_DRAGON)) {
        return 0;
    }
    if (t->natural_rank[a] != t->natural_rank[b]) {
        return t->natural_rank[a] > t->natural_rank[b] ? ua : -ub;
    }
    return ka > kb ? ua : ka < kb ? -ub : 0;
}

static int natural_played(const ofc_table_rules *t, int32_t id)
{
    return id == -1 || (in_range(id, 0, OFC_NAT_COUNT - 1) &&
                        (t->natural_mask & OFC_NAT_BIT(id)));
}

int32_t ofc_natural_payment(const ofc_table_rules *table, int32_t a, uint32_t key_a,
                            int32_t b, uint32_t key_b, int32_t *status)
{
    int32_t st = OFC_OK;
    if (table == NULL || ofc_table_rules_check(table) != OFC_OK) {
        st = OFC_E_RULES;
    } else if (!natural_played(table, a) || !natural_played(table, b)) {
        st = OFC_E_NATURAL;
    }
    if (status) {
        *status = st;
    }
    return st == OFC_OK ? ofc_st_natural_pay(table, a, key_a, b, key_b) : 0;
}

/* The natural seat s declares, resolved against its cards: fills out->natural[s],
 * natural_key[s] and natural_board[s]; OFC_OK or OFC_E_NATURAL. */
int32_t ofc_st_resolve_natural(const ofc_table_rules *t, const uint8_t cards[13],
                               int32_t declared, ofc_settlement *out, int s)
{
    ofc_naturals_result r;
    uint32_t made;
    int32_t id = -1, n;
    const uint8_t *board = NULL;
    if (declared != OFC_DECLARE_BEST && !in_range(declared, 0, OFC_NAT_COUNT - 1)) {
        return OFC_E_NATURAL;
    }
    if (ofc_naturals(cards, &r) != OFC_OK) {
        return OFC_E_NATURAL; /* not reached: the cards were validated */
    }
    made = r.mask & t->natural_mask;
    for (n = 0; n < OFC_NAT_COUNT; n++) { /* the best: highest rank */
        if ((made & OFC_NAT_BIT(n)) && (id < 0 || t->natural_rank[n] > t->natural_rank[id])) {
            id = n;
        }
    }
    if (declared != OFC_DECLARE_BEST) {
        id = (made & OFC_NAT_BIT(declared)) ? declared : -1;
    }
    if (id < 0) {
        return OFC_E_NATURAL;
    }
    board = id == OFC_NAT_THREE_STRAIGHTS ? r.straights
            : id == OFC_NAT_THREE_FLUSHES ? r.flushes
            : id == OFC_NAT_THREE_STRAIGHT_FLUSHES ? r.straight_flushes : NULL;
    out->natural[s] = (int8_t)id;
    out->natural_key[s] = r.key[id];
    if (board) {
        memcpy(out->natural_board[s], board, OFC_BOARD_CARDS);
    } else {
        memset(out->natural_board[s], OFC_NO_CARD, OFC_BOARD_CARDS);
    }
    return OFC_OK;
}

