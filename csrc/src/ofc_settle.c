/* ofc_settle.c -- settling a table of 2-4 seats (see ofc_settle.h for the rules): the
 * checks of the input, the ledger of the pairs, the row modes (pairs, pool, single
 * winner), naturals, surrender, the aces side bet and stakes, in that order.  The
 * table's rules, order, stakes and natural payments: ofc_table.c. */
#include <string.h>

#include "ofc_settle_internal.h"

/* ------------------------------------------------------------- validation */

static int32_t fail(ofc_settlement *out, int32_t status, int seat, uint32_t card)
{
    out->bad_seat = (int8_t)seat;
    out->bad_card = (uint8_t)card;
    return status;
}

/* Seats, surrender and declarations of a deal (before its cards). */
static int32_t check_seats(const ofc_table_rules *t, const ofc_settle_input *in,
                           ofc_settlement *out)
{
    uint32_t n = in->players, s;
    if (n > t->max_players) {
        return OFC_E_MAX_PLAYERS;
    }
    if (n < 2 || n > SEATS || in->button >= n) {
        return OFC_E_SEAT;
    }
    for (s = 0; s < SEATS; s++) {
        if (s >= n && ((in->surrendered & BIT(s)) || in->declared[s] != OFC_DECLARE_NONE)) {
            return fail(out, OFC_E_SEAT, (int)s, 0xFF);
        }
    }
    if (in->surrendered >> SEATS) {
        return fail(out, OFC_E_SEAT, SEATS, 0xFF);
    }
    if (in->surrendered && t->surrender_cost < 0) {
        s = 0; /* the seat at fault: the first that surrendered (a seat of the table) */
        while (!(in->surrendered & BIT(s))) {
            s++;
        }
        return fail(out, OFC_E_SURRENDER, (int)s, 0xFF);
    }
    for (s = 0; s < n; s++) {
        if ((in->surrendered & BIT(s)) && in->declared[s] != OFC_DECLARE_NONE) {
            return fail(out, OFC_E_CONFLICT, (int)s, 0xFF);
        }
    }
    return OFC_OK;
}

/* The error of a seat's 13 cards given the cards of the seats before (slow path). */
static int32_t card_error(const uint8_t cards[13], uint64_t seen, ofc_settlement *out, int s)
{
    int k, empty = 0;
    for (k = 0; k < OFC_BOARD_CARDS; k++) {
        empty += cards[k] == OFC_NO_CARD;
    }
    if (empty) {
        return fail(out, OFC_E_COUNT, s, 0xFF);
    }
    for (k = 0; k < OFC_BOARD_CARDS; k++) {
        uint64_t bit;
        if (cards[k] >= OFC_CARDS) {
            return fail(out, OFC_E_CARD, s, cards[k]);
        }
        bit = (uint64_t)1 << cards[k];
        if (seen & bit) {
            return fail(out, OFC_E_DUPLICATE, s, cards[k]);
        }
        seen |= bit;
    }
    return OFC_E_CARD; /* not reached */
}

/* Every seat's cards: valid, distinct across the table; *hidden gets the seats that
 * show none (surrendered seats; declaring seats, refused by check_rest()). */
static int32_t check_cards(const ofc_settle_input *in, ofc_settlement *out, uint32_t *hidden)
{
    uint64_t seen = 0;
    uint32_t s;
    *hidden = 0;
    for (s = 0; s < in->players; s++) {
        const uint8_t *c = in->cards[s];
        uint64_t taken;
        if (c[0] == OFC_NO_CARD &&
            ((in->surrendered & BIT(s)) || in->declared[s] != OFC_DECLARE_NONE)) {
            int k = 1;
            while (k < OFC_BOARD_CARDS && c[k] == OFC_NO_CARD) {
                k++;
            }
            if (k == OFC_BOARD_CARDS) {
                *hidden |= BIT(s);
                continue;
            }
            return fail(out, OFC_E_COUNT, (int)s, 0xFF);
        }
        if (OFC_UNLIKELY(ofc_cards_mask(c, OFC_BOARD_CARDS, seen, &taken))) {
            return card_error(c, seen, out, (int)s);
        }
        seen = taken;
    }
    return OFC_OK;
}

/* Declarations, hidden hands under the aces bet, stacks. */
static int32_t check_rest(const ofc_table_rules *t, const ofc_settle_input *in,
                          uint32_t hidden, ofc_settlement *out)
{
    uint32_t s;
    for (s = 0; s < in->players; s++) {
        int32_t st;
        if (in->declared[s] == OFC_DECLARE_NONE) {
            continue;
        }
        if (t->natural_mask == 0) {
            return fail(out, OFC_E_NO_NATURALS, (int)s, 0xFF);
        }
        if (hidden & BIT(s)) {
            return fail(out, OFC_E_COUNT, (int)s, 0xFF);
        }
        st = ofc_st_resolve_natural(t, in->cards[s], in->declared[s], out, (int)s);
        if (st != OFC_OK) {
            return fail(out, st, (int)s, 0xFF);
        }
    }
    if (t->aces_bet && hidden) {
        for (s = 0; !(hidden & BIT(s)); s++) {
        }
        return fail(out, OFC_E_HIDDEN, (int)s, 0xFF);
    }
    for (s = 0; in->has_stacks && s < in->players; s++) {
        if (!in_range(in->stacks[s], 0, OFC_STACK_MAX)) {
            return fail(out, OFC_E_STACKS, (int)s, 0xFF);
        }
    }
    return OFC_OK;
}

/* --------------------------------------------------------------- the ledger */

/* Nominal transfers per pair (index into the settlement order), itemised on demand. */
typedef struct ledger {
    uint8_t pair[OFC_SETTLE_MAX_PAIRS][2];
    int32_t total[OFC_SETTLE_MAX_PAIRS]; /* > 0: pair[k][1] pays pair[k][0] */
    uint32_t touched;   /* bit k: pair k got a transfer */
    uint32_t natural;   /* bit k: pair k got a natural transfer */
    uint32_t active;    /* bit k: pair k settles rows, naturals, surrenders */
    int npairs;
    int items;          /* 1: write out->items */
    ofc_settlement *out;
} ledger;

static void ledger_add(ledger *L, int k, ofc_item_kind kind, int32_t amount)
{
    if (amount == 0) {
        return;
    }
    L->total[k] += amount;
    L->touched |= BIT(k);
    if (L->items && L->out->n_items < OFC_SETTLE_MAX_ITEMS) { /* at most 30 are used */
        ofc_settle_item *it = &L->out->items[L->out->n_items++];
        it->a = L->pair[k][0];
        it->b = L->pair[k][1];
        it->kind = (uint8_t)kind;
        it->payer = amount > 0 ? it->b : it->a;
        it->payee = amount > 0 ? it->a : it->b;
        it->reserved[0] = it->reserved[1] = it->reserved[2] = 0;
        it->amount = amount > 0 ? amount : -amount;
    }
}

/* Seat set of pair k. */
static uint32_t pair_seats(const ledger *L, int k)
{
    return BIT(L->pair[k][0]) | BIT(L->pair[k][1]);
}

/* ------------------------------------------------------------- row modes */

/* Scores pair k into out->pairs[idx] with the house / sweep-all context. */
static void score_pair_k(const ofc_rules *rules, const ledger *L, int k, int32_t house,
                         uint32_t swept_all, int plain, ofc_settle_pair *p)
{
    uint32_t i = L->pair[k][0], j = L->pair[k][1];
    const ofc_board_eval *e = L->out->eval;
    p->a = (uint8_t)i;
    p->b = (uint8_t)j;
    p->reserved[0] = p->reserved[1] = 0;
    if (plain) {
        ofc_score_evals_k(rules, &e[i], &e[j], &ofc_no_context, &p->score, 1);
    } else {
        ofc_pair_context ctx;
        ctx.ties = (int8_t)(house < 0 ? 0 : (int32_t)i == house ? 1 : (int32_t)j == house ? -1 : 0);
        ctx.a_sweeps_all = (uint8_t)((swept_all >> i) & 1u);
        ctx.b_sweeps_all = (uint8_t)((swept_all >> j) & 1u);
        ctx.reserved = 0;
        ofc_score_evals_k(rules, &e[i], &e[j], &ctx, &p->score, 0);
    }
}

/* Seats that swept every opponent (every pair of the table row-scored). */
static uint32_t swept_all_seats(const ofc_settlement *out, uint32_t players)
{
    uint32_t s, swept = 0;
    int k;
    for (s = 0; s < players; s++) {
        int all = 1;
        for (k = 0; k < out->n_pairs && all; k++) {
            const ofc_settle_pair *p = &out->pairs[k];
            if (p->a == s || p->b == s) {
                all = p->score.sweep == (p->a == s ? 1 : -1);
            }
        }
        swept |= (uint32_t)all << s;
    }
    return swept;
}

/* Pairwise rows (R-SCORE-*) for the pairs in `rows`, with the sweep-all pass. */
static void settle_rows(const ofc_rules *rules, ledger *L,
                        uint32_t rows, uint32_t players, int32_t house)
{
    ofc_settlement *out = L->out;
    int plain = house < 0 && ofc_rules_plain(rules), k, m;
    for (k = 0; k < L->npairs; k++) {
        if (rows & BIT(k)) {
            score_pair_k(rules, L, k, house, 0, plain, &out->pairs[out->n_pairs++]);
        }
    }
    if (players >= 3 && out->n_pairs == L->npairs &&
        (rules->sweep_all_multiplier != rules->sweep_multiplier || rules->sweep_all_bonus)) {
        uint32_t swept = swept_all_seats(out, players);
        for (k = 0; k < L->npairs && swept; k++) {
            if (pair_seats(L, k) & swept) {
                score_pair_k(rules, L, k, house, swept, 0, &out->pairs[k]);
            }
        }
    }
    for (k = 0, m = 0; k < L->npairs; k++) {
        const ofc_pair_score *s;
        if (!(rows & BIT(k))) {
            continue;
        }
        s = &out->pairs[m++].score;
        if (L->items) {
            ledger_add(L, k, OFC_ITEM_ROWS, s->row_points);
            ledger_add(L, k, OFC_ITEM_BONUS, s->bonus);
            ledger_add(L, k, OFC_ITEM_ROYALTIES, s->net - s->row_points - s->bonus);
        } else {
            ledger_add(L, k, OFC_ITEM_ROWS, s->net);
        }
    }
}

/* Per-seat zero-sum gains as pair transfers: losers pay winners, pair by pair. */
static void gains_to_pairs(ledger *L, const int32_t gain[SEATS], ofc_item_kind kind)
{
    int32_t due[SEATS], owed[SEATS];
    int s, k, side;
    for (s = 0; s < SEATS; s++) {
        due[s] = gain[s] > 0 ? gain[s] : 0;
        owed[s] = gain[s] < 0 ? -gain[s] : 0;
    }
    for (k = 0; k < L->npairs; k++) {
        for (side = 0; side < 2; side++) {
            int w = L->pair[k][side], l = L->pair[k][1 - side];
            int32_t amount = due[w] < owed[l] ? due[w] : owed[l];
            if (amount > 0) {
                due[w] -= amount;
                owed[l] -= amount;
                ledger_add(L, k, kind, side == 0 ? amount : -amount);
            }
        }
    }
}

/* The seats holding the best `row` among the ordinary seats' legal boards (a fouled
 * board wins nothing); 0 when every board fouled. */
static uint32_t pool_row_winners(const ofc_rules *rules, const ofc_board_eval *e,
                                 uint32_t ordinary, uint32_t players, int row)
{
    uint32_t best = 0, winners = 0, s;
    for (s = 0; s < players; s++) {
        if ((ordinary & BIT(s)) && !e[s].foul) {
            uint32_t key = ofc_row_key(rules, row, e[s].strength[row]);
            winners = key > best ? BIT(s) : key == best ? winners | BIT(s) : winners;
            best = key > best ? key : best;
        }
    }
    return winners;
}

/* One row's pot: every ordinary seat antes, the winners split the pot, the odd units
 * to the first winners in settlement order (from seat `first`). */
static void pool_pay_row(const ofc_table_rules *t, uint32_t ordinary, uint32_t winners,
                         uint32_t players, uint32_t first, int32_t gain[SEATS])
{
    uint32_t s, count = 0, nwin = 0;
    int32_t pot, share, odd, k = 0;
    for (s = 0; s < players; s++) {
        gain[s] -= (ordinary & BIT(s)) ? t->pool_ante : 0;
        count += (ordinary >> s) & 1u;
        nwin += (winners >> s) & 1u;
    }
    pot = t->pool_ante * (int32_t)count;
    share = pot / (int32_t)nwin;
    odd = pot % (int32_t)nwin;
    for (s = 0; s < players; s++) {
        uint32_t seat = (first + s) % players;
        if (winners & BIT(seat)) {
            gain[seat] += share + (k++ < odd);
        }
    }
}

/* R-VAR-POOL-1 among the ordinary seats (a row nobody contests takes no antes), then
 * the gains as pair transfers. */
static void settle_pool(const ofc_rules *rules, const ofc_table_rules *t, ledger *L,
                        uint32_t ordinary, uint32_t players)
{
    int32_t gain[SEATS] = {0, 0, 0, 0};
    uint32_t won[SEATS] = {0, 0, 0, 0}, s, i;
    int row;
    for (row = 0; row < OFC_ROWS; row++) {
        uint32_t winners = pool_row_winners(rules, L->out->eval, ordinary, players, row);
        if (winners) {
            pool_pay_row(t, ordinary, winners, players, L->pair[0][0], gain);
        }
        for (s = 0; s < players; s++) {
            won[s] += winners == BIT(s); /* won the row alone */
        }
    }
    for (s = 0; s < players && t->pool_sweep_extra; s++) {
        for (i = 0; i < players && won[s] == OFC_ROWS; i++) {
            if (i != s && (ordinary & BIT(i))) {
                gain[s] += t->pool_sweep_extra;
                gain[i] -= t->pool_sweep_extra;
            }
        }
    }
    gains_to_pairs(L, gain, OFC_ITEM_POOL);
}

/* R-VAR-SINGLE-1: returns the winner or -1.  The winner collects from the seats it
 * shares a pair of `rows` with: not from a seat that declared a natural, nor from one
 * that surrendered, whose surrender cost is all it pays (R-VAR-SUR-1/3, Q-13). */
static int32_t settle_single(const ofc_rules *rules, const ofc_table_rules *t, ledger *L,
                             uint32_t ordinary, uint32_t rows, uint32_t players)
{
    const ofc_board_eval *e = L->out->eval;
    uint32_t s, o;
    int k;
    for (s = 0; s < players; s++) {
        int beats_all = (ordinary >> s) & 1u;
        for (o = 0; o < players && beats_all; o++) {
            ofc_pair_score d;
            if (o == s || !(ordinary & BIT(o))) {
                continue;
            }
            ofc_score_evals_k(rules, &e[s], &e[o], &ofc_no_context, &d, 0);
            beats_all = (d.rows[0] > 0) + (d.rows[1] > 0) + (d.rows[2] > 0) >= 2;
        }
        if (!beats_all) {
            continue;
        }
        for (k = 0; k < L->npairs; k++) {
            uint32_t seats = pair_seats(L, k);
            if ((seats & BIT(s)) && (rows & BIT(k))) {
                ledger_add(L, k, OFC_ITEM_SINGLE_WINNER,
                           L->pair[k][0] == s ? t->single_winner : -t->single_winner);
            }
        }
        return (int32_t)s;
    }
    return -1;
}

/* ------------------------------------------------------------- the phases */

/* Naturals, then surrenders, pair by pair; returns the pairs left to score rows.  A
 * seat that surrendered (before the reveal, its fixed loss: R-VAR-SUR-1/3) pays a
 * natural shown at the reveal its surrender cost, not the natural. */
static uint32_t settle_declared(const ofc_table_rules *t, const ofc_settle_input *in,
                                ledger *L, uint32_t naturals)
{
    const ofc_settlement *out = L->out;
    uint32_t rows = 0;
    int k;
    for (k = 0; k < L->npairs && naturals; k++) {
        int i = L->pair[k][0], j = L->pair[k][1];
        uint32_t seats = pair_seats(L, k);
        if ((L->active & BIT(k)) && (seats & naturals) && !(seats & in->surrendered)) {
            int32_t pay = ofc_st_natural_pay(t, out->natural[i], out->natural_key[i],
                                      out->natural[j], out->natural_key[j]);
            ledger_add(L, k, OFC_ITEM_NATURAL, pay);
            L->natural |= pay ? BIT(k) : 0; /* stakes take paid naturals first */
        }
    }
    for (k = 0; k < L->npairs; k++) {
        uint32_t seats = pair_seats(L, k), sur = seats & in->surrendered;
        if (!(L->active & BIT(k)) || ((seats & naturals) && !sur)) {
            continue;
        }
        if (!sur) {
            rows |= BIT(k);
        } else if (sur != seats) {
            int32_t cost = t->surrender_cost;
            ledger_add(L, k, OFC_ITEM_SURRENDER, (sur & BIT(L->pair[k][0])) ? -cost : cost);
        }
    }
    return rows;
}

/* R-VAR-ACES-1 between every two seats. */
static void settle_aces(const ofc_table_rules *t, const ofc_settle_input *in, ledger *L)
{
    int32_t value[SEATS] = {0, 0, 0, 0};
    uint32_t s;
    int k, c;
    for (s = 0; s < in->players; s++) {
        int aces = 0;
        for (c = 0; c < OFC_BOARD_CARDS; c++) {
            aces += in->cards[s][c] >> 2 == 12;
        }
        value[s] = t->aces_value[aces];
    }
    for (k = 0; k < L->npairs; k++) {
        ledger_add(L, k, OFC_ITEM_ACES, value[L->pair[k][0]] - value[L->pair[k][1]]);
    }
}

/* Table stakes over the pairs that settled, naturals first; itemises the cuts and
 * replaces the totals by the actual transfers. */
static void settle_stakes(const ofc_table_rules *t, const ofc_settle_input *in, ledger *L,
                          uint32_t settled)
{
    stakes_seat st[SEATS];
    int32_t actual[OFC_SETTLE_MAX_PAIRS];
    int pass, k;
    ofc_st_stakes_init(st, in->stacks, in->players);
    for (pass = 0; pass < 2; pass++) { /* pairs with a natural first, each in order */
        for (k = 0; k < L->npairs; k++) {
            if ((settled & BIT(k)) && ((L->natural >> k) & 1u) == (uint32_t)(pass == 0)) {
                actual[k] = ofc_st_stakes_step(t->stakes, st, L->pair[k][0], L->pair[k][1],
                                        L->total[k]);
            }
        }
    }
    for (k = 0; k < L->npairs; k++) {
        if (settled & BIT(k)) {
            int32_t cut = L->total[k] - actual[k];
            if (cut && L->items && L->out->n_items < OFC_SETTLE_MAX_ITEMS) {
                ofc_settle_item *it = &L->out->items[L->out->n_items++];
                it->a = L->pair[k][0];
                it->b = L->pair[k][1];
                it->kind = OFC_ITEM_STAKES;
                it->payer = cut > 0 ? it->a : it->b;
                it->payee = cut > 0 ? it->b : it->a;
                it->reserved[0] = it->reserved[1] = it->reserved[2] = 0;
                it->amount = cut > 0 ? cut : -cut;
            }
            L->total[k] = actual[k];
        }
    }
}

/* Everything but the result: seats, cards, declarations, stacks. */
static int32_t settle_check(const ofc_table_rules *table, const ofc_settle_input *in,
                            uint32_t flags, ofc_settlement *out, uint32_t *hidden)
{
    int32_t st;
    int s;
    if (ofc_table_rules_check(table) != OFC_OK) {
        return OFC_E_RULES;
    }
    if ((flags & ~OFC_SETTLE_ITEMS) || in->has_stacks > 1) {
        return OFC_E_VALUE;
    }
    for (s = 0; s < SEATS; s++) {
        out->natural[s] = -1;
        out->natural_key[s] = 0;
    }
    st = check_seats(table, in, out);
    st = st == OFC_OK ? check_cards(in, out, hidden) : st;
    return st == OFC_OK ? check_rest(table, in, *hidden, out) : st;
}

/* The ledger of a deal: pairs in settlement order, the active ones (under house, those
 * holding the house), nothing booked yet. */
static void ledger_init(ledger *L, const ofc_table_rules *t, const ofc_settle_input *in,
                        uint32_t flags, ofc_settlement *out, int32_t house)
{
    int k;
    L->npairs = ofc_st_order_pairs(in->players, in->button, t->start, L->pair);
    L->touched = L->natural = L->active = 0;
    L->items = (flags & OFC_SETTLE_ITEMS) != 0;
    L->out = out;
    for (k = 0; k < L->npairs; k++) {
        L->total[k] = 0;
        L->active |= (house < 0 || (pair_seats(L, k) & BIT(house))) ? BIT(k) : 0;
    }
    out->n_pairs = out->n_items = 0;
    out->winner = -1;
}

/* Nets from the pair totals, and the stacks after. */
static void settle_nets(const ledger *L, const ofc_settle_input *in, ofc_settlement *out)
{
    uint32_t s;
    int k;
    for (s = 0; s < SEATS; s++) {
        out->net[s] = 0;
    }
    for (k = 0; k < L->npairs; k++) {
        out->net[L->pair[k][0]] += L->total[k];
        out->net[L->pair[k][1]] -= L->total[k];
    }
    for (s = 0; s < SEATS; s++) {
        out->stacks_after[s] =
            in->has_stacks && s < in->players ? in->stacks[s] + out->net[s] : 0;
    }
}

int32_t ofc_settle(const ofc_rules *rules, const ofc_table_rules *table,
                   const ofc_settle_input *given, uint32_t flags, ofc_settlement *out)
{
    ofc_settle_input deal; /* the caller's deal, read once: only this copy is used */
    const ofc_settle_input *in = &deal;
    ledger L;
    uint32_t hidden, naturals = 0, ordinary, rows, s, players;
    int32_t house, st;
    const ofc_span inputs[3] = {
        {rules, sizeof *rules}, {table, sizeof *table}, {given, sizeof *given}};
    if (out == NULL || ofc_over_any(out, sizeof *out, inputs, 3)) {
        return OFC_E_VALUE; /* out untouched: its writes would change what is read */
    }
    out->bad_seat = -1; /* until an error names a seat or a card */
    out->bad_card = 0xFF;
    out->reserved[0] = out->reserved[1] = 0;
    if (rules == NULL || table == NULL || given == NULL) {
        return OFC_E_VALUE;
    }
    ofc_copy_cards((uint8_t *)&deal, (const uint8_t *)given, sizeof deal);
    if (!ofc_rules_scalars_ok(rules)) {
        return OFC_E_RULES;
    }
    st = settle_check(table, in, flags, out, &hidden);
    if (st != OFC_OK) {
        return st;
    }
    players = in->players;
    house = table->house ? in->button : -1;
    ledger_init(&L, table, in, flags, out, house);
    for (s = 0; s < players; s++) {
        naturals |= out->natural[s] >= 0 ? BIT(s) : 0;
    }
    ordinary = (BIT(players) - 1u) & ~naturals & ~(uint32_t)in->surrendered;
    for (s = 0; s < players; s++) {
        if (ordinary & BIT(s)) { /* each board evaluated once */
            ofc_eval_board_k(rules, in->cards[s], &out->eval[s]);
        }
    }
    out->evaluated = (uint8_t)ordinary;
    rows = settle_declared(table, in, &L, naturals);
    if (table->pool_ante) {
        settle_pool(rules, table, &L, ordinary, players);
    } else if (table->single_winner) {
        out->winner = (int8_t)settle_single(rules, table, &L, ordinary, rows, players);
    } else {
        settle_rows(rules, &L, rows, players, house);
    }
    if (table->aces_bet) {
        settle_aces(table, in, &L);
    }
    if (in->has_stacks) {
        settle_stakes(table, in, &L, L.active | L.touched);
    }
    settle_nets(&L, in, out);
    return OFC_OK;
}

