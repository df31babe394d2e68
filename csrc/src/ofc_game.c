/*
 * ofc_game.c -- game flow for one deal (see ofc_game.h): the schedule, action ids,
 * placements, observations, the result through ofc_settle(), random playouts (drawn
 * from the library's one generator, ofc_rng.c).
 */
#include "ofc_game.h"

#include <string.h>

#include "ofc_internal.h"
#include "ofc_rng.h"

static const uint8_t ROW_START[3] = {0, 3, 8};
static const uint16_t POW3[6] = {1, 3, 9, 27, 81, 243};

/* ------------------------------------------------------------------ rules */

int32_t ofc_game_rules_check(const ofc_game_rules *r)
{
    if (r == NULL || r->kind > OFC_KIND_PINEAPPLE || r->max_players < 2
        || r->max_players > OFC_GAME_MAX_SEATS || r->face_down_final > 8
        || r->reserved != 0 || r->table.max_players < r->max_players)
        return OFC_E_RULES;
    if (ofc_rules_check(&r->scoring) != OFC_OK || ofc_fl_rules_check(&r->fl) != OFC_OK
        || ofc_table_rules_check(&r->table) != OFC_OK)
        return OFC_E_RULES;
    if (r->kind == OFC_KIND_CLASSIC && r->fl.enabled)
        return OFC_E_RULES;
    return OFC_OK;
}

int32_t ofc_game_rules_init_pineapple(ofc_game_rules *r)
{
    if (r == NULL)
        return OFC_E_RULES;
    memset(r, 0, sizeof *r);
    ofc_rules_init_ofc(&r->scoring);
    ofc_table_rules_init(&r->table);
    ofc_fl_rules_init_standard(&r->fl, 14);
    r->kind = OFC_KIND_PINEAPPLE;
    r->max_players = 3;
    return OFC_OK;
}

/* --------------------------------------------------------------- schedule */

/* The schedule of a seat outside Fantasyland (R-FLOW-*): an opening of OPENING_CARDS
 * cards (classic: all 13 at once), then rounds_of() rounds of per_round() cards. */
#define OPENING_CARDS 5u
#define CLASSIC_CARDS 13u

static uint32_t rounds_of(uint32_t kind)
{
    return kind == OFC_KIND_PINEAPPLE ? 4u : 8u;
}

static uint32_t per_round(uint32_t kind)
{
    return kind == OFC_KIND_PINEAPPLE ? 3u : 1u;
}

static uint32_t cards_per_seat(uint32_t kind, uint32_t fl)
{
    if (fl)
        return fl;
    if (kind == OFC_KIND_CLASSIC)
        return CLASSIC_CARDS;
    return OPENING_CARDS + rounds_of(kind) * per_round(kind);
}

int32_t ofc_cards_per_seat(uint32_t kind, uint32_t fantasyland)
{
    if (kind > OFC_KIND_PINEAPPLE)
        return OFC_E_RULES;
    if (fantasyland && (fantasyland < 13u || fantasyland > 17u || kind == OFC_KIND_CLASSIC))
        return OFC_E_SEATS;
    return (int32_t)cards_per_seat(kind, fantasyland);
}

static void add_step(ofc_game *g, uint32_t seat, uint32_t *pos, uint32_t n, uint32_t k,
                     uint32_t full, uint32_t face_down, uint32_t street)
{
    ofc_game_step *st = &g->steps[g->nsteps++];
    st->seat = (uint8_t)seat;
    st->start = (uint8_t)*pos;
    st->n = (uint8_t)n;
    st->k = (uint8_t)k;
    st->full = (uint8_t)full;
    st->face_down = (uint8_t)face_down;
    st->street = (uint8_t)street;
    st->reserved = 0;
    *pos += n;
}

static void build_schedule(const ofc_game_rules *r, ofc_game *g)
{
    uint32_t order[OFC_GAME_MAX_SEATS], i, pos = 0, rnd;
    uint32_t rounds = rounds_of(r->kind);
    uint32_t per = per_round(r->kind);
    uint32_t disc = r->kind == OFC_KIND_PINEAPPLE ? 1u : 0u;
    uint32_t hidden_from = r->face_down_final < rounds ? rounds - r->face_down_final : 0u;
    for (i = 0; i < g->players; i++)
        order[i] = (g->button + 1 + i) % g->players;
    if (g->kind == OFC_KIND_CLASSIC) {
        for (i = 0; i < g->players; i++)
            add_step(g, order[i], &pos, CLASSIC_CARDS, 0, 1, 1, 0);
        return;
    }
    for (i = 0; i < g->players; i++)
        if (g->fl[order[i]])
            add_step(g, order[i], &pos, g->fl[order[i]], g->fl[order[i]] - 13u, 1, 1, 0);
    for (i = 0; i < g->players; i++)
        if (!g->fl[order[i]])
            add_step(g, order[i], &pos, OPENING_CARDS, 0, 0, 0, 0);
    for (rnd = 1; rnd <= rounds; rnd++)
        for (i = 0; i < g->players; i++)
            if (!g->fl[order[i]])
                add_step(g, order[i], &pos, per, disc, 0, rnd > hidden_from, rnd);
}

static int32_t check_deck(const uint8_t *deck)
{
    uint64_t seen = 0;
    uint32_t i;
    for (i = 0; i < 52; i++) {
        if (deck[i] >= 52)
            return OFC_E_CARD;
        if (seen >> deck[i] & 1u)
            return OFC_E_DUPLICATE;
        seen |= UINT64_C(1) << deck[i];
    }
    return OFC_OK;
}

static int32_t check_seats(const ofc_game_rules *r, uint32_t players, uint32_t button,
                           const uint8_t *fl)
{
    uint32_t s, need = 0;
    if (players < 2 || players > r->max_players || button >= players)
        return OFC_E_SEATS;
    for (s = 0; s < players; s++) {
        uint32_t n = fl ? fl[s] : 0u;
        if (n && (n < 13 || n > 17 || r->kind == OFC_KIND_CLASSIC || !r->fl.enabled))
            return OFC_E_SEATS;
        need += cards_per_seat(r->kind, n);
    }
    return need > 52 ? OFC_E_DECK : OFC_OK;
}

int32_t ofc_game_init(const ofc_game_rules *r, ofc_game *g, uint32_t players,
                      uint32_t button, const uint8_t *fl, uint64_t seed,
                      const uint8_t *deck)
{
    ofc_game tmp;
    uint32_t s;
    int32_t rc;
    if (g == NULL)
        return OFC_E_COUNT;
    if (r == NULL || r->kind > OFC_KIND_PINEAPPLE || r->max_players < 2
        || r->max_players > OFC_GAME_MAX_SEATS)
        return OFC_E_RULES;
    rc = check_seats(r, players, button, fl);
    if (rc == OFC_OK && deck != NULL)
        rc = check_deck(deck);
    if (rc != OFC_OK)
        return rc;
    memset(&tmp, 0, sizeof tmp);
    memset(tmp.board, OFC_NO_CARD, sizeof tmp.board);
    memset(tmp.discards, OFC_NO_CARD, sizeof tmp.discards);
    memset(tmp.declared, -1, sizeof tmp.declared);
    tmp.players = (uint8_t)players;
    tmp.button = (uint8_t)button;
    tmp.kind = r->kind;
    for (s = 0; s < players; s++)
        tmp.fl[s] = fl ? fl[s] : 0u;
    if (deck != NULL) {
        memcpy(tmp.deck, deck, 52);
    } else {
        tmp.seed = seed;
        ofc_deck_from_seed(seed, tmp.deck);
    }
    build_schedule(r, &tmp);
    *g = tmp;
    return OFC_OK;
}

/* ------------------------------------------------------------- decisions */

static const ofc_game_step *pending(const ofc_game *g)
{
    return g->step < g->nsteps ? &g->steps[g->step] : NULL;
}

int32_t ofc_game_to_act(const ofc_game *g)
{
    const ofc_game_step *st = pending(g);
    return st ? (int32_t)st->seat : -1;
}

int32_t ofc_game_is_over(const ofc_game *g)
{
    return g->step >= g->nsteps;
}

static void free_slots(const ofc_game *g, uint32_t seat, uint8_t free_[3])
{
    ofc_row_room(g->count[seat], free_);
}

int32_t ofc_game_decision(const ofc_game *g, ofc_decision *out)
{
    const ofc_game_step *st = pending(g);
    uint32_t i;
    memset(out, 0, sizeof *out);
    memset(out->dealt, OFC_NO_CARD, sizeof out->dealt);
    if (st == NULL) {
        out->seat = OFC_NO_SEAT;
        out->street = (uint8_t)(g->nsteps ? g->steps[g->nsteps - 1].street + 1 : 0);
        return OFC_E_GAME_OVER;
    }
    out->seat = st->seat;
    out->n = st->n;
    out->k = st->k;
    out->full = st->full;
    out->face_down = st->face_down;
    out->street = st->street;
    free_slots(g, st->seat, out->free);
    for (i = g->step + 1u; i < g->nsteps; i++) {
        if (g->steps[i].seat == st->seat) {
            out->future_cards = (uint8_t)(out->future_cards + g->steps[i].n);
            out->future_discards = (uint8_t)(out->future_discards + g->steps[i].k);
        }
    }
    memcpy(out->dealt, g->deck + st->start, st->n);
    return OFC_OK;
}

/* ------------------------------------------------------------ action ids */

/* The ci-th k-subset of 0..n-1 in lexicographic order, as a bit mask (0 when ci is
 * out of range and k > 0). */
static uint32_t subset_at(uint32_t n, uint32_t k, uint32_t ci)
{
    uint32_t idx[5], i, count = 0;
    if (k == 0)
        return ci == 0 ? 0u : UINT32_MAX;
    for (i = 0; i < k; i++)
        idx[i] = i;
    for (;;) {
        if (count++ == ci) {
            uint32_t mask = 0;
            for (i = 0; i < k; i++)
                mask |= 1u << idx[i];
            return mask;
        }
        i = k;
        while (i > 0 && idx[i - 1] == n - k + i - 1)
            i--;
        if (i == 0)
            return UINT32_MAX;
        idx[i - 1]++;
        for (; i < k; i++)
            idx[i] = idx[i - 1] + 1;
    }
}

static uint32_t subset_count(uint32_t n, uint32_t k)
{
    uint32_t c = 1, i;
    for (i = 0; i < k; i++)
        c = c * (n - i) / (i + 1);
    return c;
}

/* 1 when (n, k) is a decision shape whose ids all fit OFC_ACTION_SPACE (not 5 cards
 * with 1 or 2 discards: 405 and 270 ids). */
static int shape_ok(uint32_t n, uint32_t k)
{
    return n >= 1 && n <= 5 && k < n && subset_count(n, k) * POW3[n - k] <= OFC_ACTION_SPACE;
}

int32_t ofc_action_decode(uint32_t n, uint32_t k, uint32_t action, uint8_t dest[5])
{
    uint32_t kept, ci, code, disc, i;
    if (!shape_ok(n, k) || action >= OFC_ACTION_SPACE || dest == NULL)
        return OFC_E_ACTION;
    kept = n - k;
    ci = action / POW3[kept];
    code = action % POW3[kept];
    if (ci >= subset_count(n, k))
        return OFC_E_ACTION;
    disc = subset_at(n, k, ci);
    for (i = 0; i < n; i++) {
        if (disc >> i & 1u) {
            dest[i] = OFC_DISCARD;
        } else {
            dest[i] = (uint8_t)(code % 3);
            code /= 3;
        }
    }
    return OFC_OK;
}

int32_t ofc_action_encode(uint32_t n, uint32_t k, const uint8_t dest[5])
{
    uint32_t disc = 0, nd = 0, code = 0, place = 1, ci, i, total;
    if (n < 1 || n > 5 || k >= n || dest == NULL)
        return OFC_E_DISCARDS;
    if (!shape_ok(n, k))
        return OFC_E_ACTION;
    for (i = 0; i < n; i++) {
        if (dest[i] > OFC_DISCARD)
            return OFC_E_DESTINATION;
        if (dest[i] == OFC_DISCARD) {
            disc |= 1u << i;
            nd++;
        } else {
            code += dest[i] * place;
            place *= 3;
        }
    }
    if (nd != k)
        return OFC_E_DISCARDS;
    total = subset_count(n, k);
    for (ci = 0; ci < total && subset_at(n, k, ci) != disc; ci++)
        ;
    return (int32_t)(ci * POW3[n - k] + code);
}

/* Whether the kept rows of `code` (kept digits) fit the free slots. */
static int code_fits(uint32_t code, uint32_t kept, const uint8_t free_[3])
{
    uint8_t need[3] = {0, 0, 0};
    uint32_t i;
    for (i = 0; i < kept; i++) {
        need[code % 3]++;
        code /= 3;
    }
    return need[0] <= free_[0] && need[1] <= free_[1] && need[2] <= free_[2];
}

/* The row codes of `kept` cards that fit the free slots, increasing (an odometer over
 * the base-3 digits that keeps the cards per row as it counts: no division). */
static uint32_t legal_codes(uint32_t kept, const uint8_t room[3], uint8_t *codes)
{
    uint8_t digit[5] = {0, 0, 0, 0, 0};
    uint32_t need[3], code, n = 0, i;
    need[0] = kept;
    need[1] = need[2] = 0;
    for (code = 0; code < POW3[kept]; code++) {
        if (need[0] <= room[0] && need[1] <= room[1] && need[2] <= room[2])
            codes[n++] = (uint8_t)code;
        for (i = 0; i < kept; i++) {
            need[digit[i]]--;
            if (digit[i] < 2) {
                need[++digit[i]]++;
                break;
            }
            digit[i] = 0;
            need[0]++;
        }
    }
    return n;
}

int32_t ofc_actions_legal(uint32_t n, uint32_t k, const uint8_t room[3], uint8_t *out,
                          uint8_t *mask)
{
    uint8_t codes[OFC_ACTION_SPACE];
    uint32_t kept, combos, ci, j, ncodes, count = 0;
    if (!shape_ok(n, k) || room == NULL || room[0] > 3 || room[1] > 5 || room[2] > 5)
        return OFC_E_ACTION;
    kept = n - k;
    combos = subset_count(n, k);
    ncodes = legal_codes(kept, room, codes);
    for (ci = 0; ci < combos; ci++) {
        for (j = 0; j < ncodes; j++) {
            uint32_t a = ci * POW3[kept] + codes[j];
            if (out)
                out[count] = (uint8_t)a;
            if (mask)
                mask[a] = 1;
            count++;
        }
    }
    return (int32_t)count;
}

static int32_t list_actions(const ofc_game *g, const ofc_game_step *st, uint8_t *out,
                            uint8_t *mask)
{
    uint8_t free_[3];
    free_slots(g, st->seat, free_);
    return ofc_actions_legal(st->n, st->k, free_, out, mask);
}

int32_t ofc_game_legal_actions(const ofc_game *g, uint8_t *out)
{
    const ofc_game_step *st = pending(g);
    if (st == NULL)
        return OFC_E_GAME_OVER;
    if (st->full)
        return OFC_E_FULL_SET;
    return list_actions(g, st, out, NULL);
}

int32_t ofc_game_action_mask(const ofc_game *g, uint8_t mask[OFC_ACTION_SPACE])
{
    const ofc_game_step *st = pending(g);
    memset(mask, 0, OFC_ACTION_SPACE);
    if (st == NULL)
        return OFC_E_GAME_OVER;
    if (st->full)
        return OFC_E_FULL_SET;
    return list_actions(g, st, NULL, mask);
}

/* ------------------------------------------------------------- placements */

/* Validate destinations of the pending step; returns OFC_OK or the first error. */
static int32_t check_placement(const ofc_game *g, const ofc_game_step *st,
                               const uint8_t *dest, uint32_t n)
{
    uint32_t need[4] = {0, 0, 0, 0}, i, row;
    if (n != st->n)
        return OFC_E_COUNT;
    for (i = 0; i < n; i++) {
        if (dest[i] > OFC_DISCARD)
            return OFC_E_DESTINATION;
        need[dest[i]]++;
    }
    if (need[OFC_DISCARD] != st->k)
        return OFC_E_DISCARDS;
    for (row = 0; row < 3; row++)
        if (need[row] + g->count[st->seat][row] > ofc_row_size(row))
            return OFC_E_ROW_FULL;
    return OFC_OK;
}

/* Apply validated destinations and move to the next decision. */
static void place(ofc_game *g, const ofc_game_step *st, const uint8_t *dest)
{
    uint32_t s = st->seat, i;
    const uint8_t *cards = g->deck + st->start;
    for (i = 0; i < st->n; i++) {
        uint32_t row = dest[i];
        if (row == OFC_DISCARD) {
            g->discards[s][g->ndiscards[s]++] = cards[i];
        } else {
            uint32_t slot = ROW_START[row] + g->count[s][row]++;
            g->board[s][slot] = cards[i];
            if (st->face_down)
                g->face_down[s] = (uint16_t)(g->face_down[s] | 1u << slot);
        }
    }
    g->step++;
}

int32_t ofc_game_apply_placement(ofc_game *g, const uint8_t *dest, uint32_t n)
{
    const ofc_game_step *st = pending(g);
    uint8_t local[OFC_GAME_MAX_DEALT];
    int32_t rc;
    if (st == NULL)
        return OFC_E_GAME_OVER;
    if (dest == NULL || n != st->n)
        return OFC_E_COUNT;
    memcpy(local, dest, n); /* read the caller's bytes once */
    rc = check_placement(g, st, local, n);
    if (rc == OFC_OK)
        place(g, st, local);
    return rc;
}

int32_t ofc_game_apply_action(ofc_game *g, uint32_t action)
{
    const ofc_game_step *st = pending(g);
    uint8_t dest[5];
    uint8_t free_[3];
    if (st == NULL)
        return OFC_E_GAME_OVER;
    if (st->full)
        return OFC_E_FULL_SET;
    if (ofc_action_decode(st->n, st->k, action, dest) != OFC_OK)
        return OFC_E_ACTION;
    free_slots(g, st->seat, free_);
    if (!code_fits(action % POW3[st->n - st->k], (uint32_t)st->n - st->k, free_))
        return OFC_E_ACTION;
    place(g, st, dest);
    return OFC_OK;
}

/* ------------------------------------------------------- classic specials */

static const ofc_game_step *classic_set(const ofc_game *g, int32_t *rc)
{
    const ofc_game_step *st = pending(g);
    *rc = OFC_OK;
    if (st == NULL)
        *rc = OFC_E_GAME_OVER;
    else if (g->kind != OFC_KIND_CLASSIC || !st->full)
        *rc = OFC_E_NOT_CLASSIC;
    return *rc == OFC_OK ? st : NULL;
}

/* Lay 13 cards out as an unset hand: highest cards in the back, then the middle,
 * then the front (each row highest first). */
static void default_layout(const uint8_t cards[13], uint8_t board[13])
{
    uint8_t sorted[13];
    uint32_t i, j;
    memcpy(sorted, cards, 13);
    for (i = 1; i < 13; i++) /* insertion sort, descending */
        for (j = i; j > 0 && sorted[j] > sorted[j - 1]; j--) {
            uint8_t t = sorted[j];
            sorted[j] = sorted[j - 1];
            sorted[j - 1] = t;
        }
    memcpy(board + 8, sorted, 5);
    memcpy(board + 3, sorted + 5, 5);
    memcpy(board, sorted + 10, 3);
}

static const uint8_t *natural_board(const ofc_naturals_result *nat, uint32_t natural)
{
    if (natural == OFC_NAT_THREE_STRAIGHTS)
        return nat->straights;
    if (natural == OFC_NAT_THREE_FLUSHES)
        return nat->flushes;
    if (natural == OFC_NAT_THREE_STRAIGHT_FLUSHES)
        return nat->straight_flushes;
    return NULL;
}

/* Set a classic seat's 13 cards as `board` (face down) and move on. */
static void set_board(ofc_game *g, const ofc_game_step *st, const uint8_t board[13])
{
    uint32_t s = st->seat;
    memcpy(g->board[s], board, 13);
    g->count[s][0] = 3;
    g->count[s][1] = 5;
    g->count[s][2] = 5;
    g->face_down[s] = 0x1FFF;
    g->step++;
}

uint32_t ofc_game_declarable(const ofc_game_rules *r, const ofc_game *g)
{
    ofc_naturals_result nat;
    int32_t rc;
    const ofc_game_step *st = classic_set(g, &rc);
    if (st == NULL || ofc_naturals(g->deck + st->start, &nat) != OFC_OK)
        return 0;
    return nat.mask & r->table.natural_mask;
}

int32_t ofc_game_declare(const ofc_game_rules *r, ofc_game *g, uint32_t natural)
{
    ofc_naturals_result nat;
    uint8_t board[13];
    const uint8_t *shown;
    int32_t rc;
    const ofc_game_step *st = classic_set(g, &rc);
    if (st == NULL)
        return rc;
    if (natural >= OFC_NAT_COUNT
        || !(ofc_game_declarable(r, g) & OFC_NAT_BIT(natural)))
        return OFC_E_NATURAL;
    ofc_naturals(g->deck + st->start, &nat);
    shown = natural_board(&nat, natural);
    if (shown != NULL && shown[0] != OFC_NO_CARD)
        memcpy(board, shown, 13);
    else
        default_layout(g->deck + st->start, board);
    g->declared[st->seat] = (int8_t)natural;
    set_board(g, st, board);
    return OFC_OK;
}

int32_t ofc_game_surrender(const ofc_game_rules *r, ofc_game *g)
{
    uint8_t board[13];
    int32_t rc;
    const ofc_game_step *st = classic_set(g, &rc);
    if (st == NULL)
        return rc;
    if (r->table.surrender_cost < 0)
        return OFC_E_SURRENDER;
    default_layout(g->deck + st->start, board);
    g->surrendered = (uint8_t)(g->surrendered | 1u << st->seat);
    set_board(g, st, board);
    return OFC_OK;
}

/* ------------------------------------------------------------- observation */

/* Copy seat o's rows into the observation: every card, or only the face-up ones. */
static void observe_board(const ofc_game *g, uint32_t o, int show_all, int show_none,
                          ofc_observation *out)
{
    uint32_t row, i;
    for (row = 0; row < 3; row++) {
        uint32_t shown = 0, hidden = 0;
        for (i = 0; i < g->count[o][row]; i++) {
            uint32_t slot = ROW_START[row] + i;
            int down = g->face_down[o] >> slot & 1u;
            if (show_none || (down && !show_all))
                hidden++;
            else
                out->board[o][ROW_START[row] + shown++] = g->board[o][slot];
        }
        out->count[o][row] = (uint8_t)shown;
        out->face_down_count[o][row] = (uint8_t)hidden;
    }
}

/* Append step st to seat s's rounds still to come (a seat outside the table or a
 * round past OFC_GAME_MAX_ROUNDS, which no schedule makes, is left out: nothing is
 * written outside the record, whatever the state holds). */
static void add_round(ofc_observation *out, uint32_t s, const ofc_game_step *st)
{
    uint32_t i;
    if (s >= out->players || out->rounds[s] >= OFC_GAME_MAX_ROUNDS)
        return;
    i = out->rounds[s]++;
    out->round_n[s][i] = st->n;
    out->round_k[s][i] = st->k;
}

/* Fill out->rounds from a schedule whose first `done` decisions are made: the
 * observer's decisions after the pending one, and every other seat's decisions not
 * made yet or made face down (hidden from the observer until the deal is over). */
static void observe_rounds(const ofc_game_step *steps, uint32_t nsteps, uint32_t done,
                           uint32_t seat, ofc_observation *out)
{
    uint32_t i;
    for (i = 0; i < nsteps && i < OFC_GAME_MAX_STEPS; i++) {
        const ofc_game_step *st = &steps[i];
        if (st->seat == seat ? i > done : (i >= done || st->face_down))
            add_round(out, st->seat, st);
    }
}

int32_t ofc_game_observe(const ofc_game *g, uint32_t seat, ofc_observation *out)
{
    const ofc_game_step *st = pending(g);
    uint32_t o, over = st == NULL;
    ofc_decision d;
    if (seat >= g->players)
        return OFC_E_SEAT;
    memset(out, 0, sizeof *out);
    memset(out->board, OFC_NO_CARD, sizeof out->board);
    memset(out->discards, OFC_NO_CARD, sizeof out->discards);
    memset(out->dealt, OFC_NO_CARD, sizeof out->dealt);
    memset(out->declared, -1, sizeof out->declared);
    out->seat = (uint8_t)seat;
    out->players = g->players;
    out->button = g->button;
    out->kind = g->kind;
    out->is_over = (uint8_t)over;
    out->surrendered = g->surrendered;
    memcpy(out->fl, g->fl, sizeof out->fl);
    ofc_game_decision(g, &d);
    out->to_act = d.seat;
    out->street = d.street;
    for (o = 0; o < g->players; o++) {
        int own = o == seat;
        int surrendered = g->surrendered >> o & 1u;
        observe_board(g, o, own || over, over && surrendered && !own, out);
        out->discard_count[o] = g->ndiscards[o];
        if (own || over)
            out->declared[o] = g->declared[o];
    }
    memcpy(out->discards, g->discards[seat], g->ndiscards[seat]);
    if (!over && d.seat == seat) {
        out->n = d.n;
        out->k = d.k;
        out->full = d.full;
        out->face_down = d.face_down;
        out->future_cards = d.future_cards;
        out->future_discards = d.future_discards;
        memcpy(out->dealt, d.dealt, d.n);
    }
    if (!over)
        observe_rounds(g->steps, g->nsteps, g->step, seat, out);
    return OFC_OK;
}

/* The index of seat s's first decision not made when it has `placed` cards on its
 * board, or -1 when no prefix of its decisions places exactly that many. */
static int32_t first_open_step(const ofc_game *g, uint32_t s, uint32_t placed)
{
    uint32_t i, acc = 0;
    for (i = 0; i < g->nsteps; i++) {
        const ofc_game_step *st = &g->steps[i];
        if (st->seat != s)
            continue;
        if (acc == placed)
            return (int32_t)i;
        acc += (uint32_t)(st->n - st->k);
        if (acc > placed)
            return -1;
    }
    return acc == placed ? (int32_t)g->nsteps : -1;
}

int32_t ofc_observation_complete(const ofc_game_rules *r, ofc_observation *o)
{
    ofc_game tmp;
    uint32_t s, row, i;
    int32_t own = -1;
    if (r == NULL || o == NULL)
        return r == NULL ? OFC_E_RULES : OFC_E_VALUE;
    if (ofc_game_rules_check(r) != OFC_OK)
        return OFC_E_RULES;
    /* the deal's schedule: a game of these seats (its deck is not read) */
    if (o->seat >= o->players
        || ofc_game_init(r, &tmp, o->players, o->button, o->fl, 0, NULL) != OFC_OK)
        return OFC_E_SEATS;
    if (o->n > OFC_GAME_MAX_DEALT)
        return OFC_E_COUNT;
    o->kind = r->kind;
    o->is_over = 0;
    o->k = o->full = o->face_down = o->future_cards = o->future_discards = 0;
    memset(o->rounds, 0, sizeof o->rounds);
    memset(o->round_n, 0, sizeof o->round_n);
    memset(o->round_k, 0, sizeof o->round_k);
    for (s = 0; s < o->players; s++) {
        uint32_t placed = 0;
        int32_t open;
        for (row = 0; row < 3; row++) {
            uint32_t cards = (uint32_t)o->count[s][row] + o->face_down_count[s][row];
            if (cards > (uint32_t)(row == 0 ? 3 : 5))
                return OFC_E_COUNT;
            placed += cards;
        }
        open = first_open_step(&tmp, s, placed);
        if (open < 0)
            return OFC_E_COUNT;
        /* every decision of s before `open` is made, none after */
        for (i = 0; i < tmp.nsteps; i++) {
            const ofc_game_step *st = &tmp.steps[i];
            if (st->seat != s)
                continue;
            if (s == o->seat) {
                if ((int32_t)i == open && o->n)
                    own = (int32_t)i;
                else if ((int32_t)i > open || ((int32_t)i == open && !o->n))
                    add_round(o, s, st);
            } else if ((int32_t)i >= open || st->face_down) {
                add_round(o, s, st);
            }
        }
    }
    if (o->n) {
        const ofc_game_step *st;
        if (own < 0 || tmp.steps[own].n != o->n)
            return OFC_E_COUNT;
        st = &tmp.steps[own];
        o->to_act = o->seat;
        o->k = st->k;
        o->full = st->full;
        o->face_down = st->face_down;
        o->street = st->street;
        for (i = 0; i < o->rounds[o->seat]; i++) {
            o->future_cards = (uint8_t)(o->future_cards + o->round_n[o->seat][i]);
            o->future_discards = (uint8_t)(o->future_discards + o->round_k[o->seat][i]);
        }
    }
    return OFC_OK;
}

/* ------------------------------------------------------------------ result */

int32_t ofc_game_result_get(const ofc_game_rules *r, const ofc_game *g,
                            const int32_t *stacks, uint32_t flags, ofc_game_result *out)
{
    ofc_settle_input in;
    uint32_t s;
    int32_t rc;
    if (!ofc_game_is_over(g))
        return OFC_E_NOT_OVER;
    memset(&in, 0, sizeof in);
    in.players = g->players;
    in.button = g->button;
    in.surrendered = g->surrendered;
    memcpy(in.declared, g->declared, sizeof in.declared);
    memcpy(in.cards, g->board, sizeof in.cards);
    if (stacks != NULL) {
        in.has_stacks = 1;
        memcpy(in.stacks, stacks, g->players * sizeof *stacks);
    }
    memset(out, 0, sizeof *out);
    rc = ofc_settle(&r->scoring, &r->table, &in, flags, &out->settlement);
    if (rc != OFC_OK)
        return rc;
    for (s = 0; s < g->players; s++) {
        int unset = (g->surrendered >> s & 1u) || g->declared[s] >= 0;
        const ofc_board_eval *e = &out->settlement.eval[s];
        out->net[s] = out->settlement.net[s];
        if (unset)
            continue;
        out->foul[s] = e->foul;
        memcpy(out->royalty[s], e->royalty, sizeof out->royalty[s]);
        if (r->fl.enabled) {
            rc = ofc_fl_next_cards(&r->scoring, &r->fl, g->board[s], g->fl[s]);
            out->fl_next[s] = (uint8_t)(rc > 0 ? rc : 0);
        }
    }
    return OFC_OK;
}

/* ----------------------------------------------------------------- playout */

/* A uniformly random setting of a full set: shuffle, discard the first n - 13. */
static void random_setting(const ofc_game_step *st, ofc_rng *rng, uint8_t *dest)
{
    uint8_t order[OFC_GAME_MAX_DEALT];
    uint32_t i;
    for (i = 0; i < st->n; i++)
        order[i] = (uint8_t)i;
    ofc_rng_shuffle(order, st->n, rng);
    for (i = 0; i < st->n; i++) {
        uint32_t p = i < st->k ? 99u : i - st->k; /* position among the kept */
        dest[order[i]] = (uint8_t)(p == 99u ? OFC_DISCARD : p < 3 ? 0 : p < 8 ? 1 : 2);
    }
}

/* A uniformly random legal decision, as destinations: every discard choice has the
 * same legal row codes, so a uniform discard choice and a uniform legal code (by
 * rejection: at least 1 code in 9 fits in any reachable state) make a uniformly
 * random legal action. */
static void random_dest(const ofc_game *g, const ofc_game_step *st, ofc_rng *rng,
                        uint8_t dest[5])
{
    uint8_t free_[3];
    uint32_t kept = (uint32_t)st->n - st->k, code, disc = 0, i;
    if (st->k)
        disc = subset_at(st->n, st->k, ofc_rng_draw(rng, subset_count(st->n, st->k)));
    free_slots(g, st->seat, free_);
    do
        code = ofc_rng_draw(rng, POW3[kept]);
    while (!code_fits(code, kept, free_));
    for (i = 0; i < st->n; i++) {
        if (disc >> i & 1u) {
            dest[i] = OFC_DISCARD;
        } else {
            dest[i] = (uint8_t)(code % 3);
            code /= 3;
        }
    }
}

int32_t ofc_game_random_move(ofc_game *g, ofc_rng *rng)
{
    const ofc_game_step *st;
    uint8_t dest[OFC_GAME_MAX_DEALT];
    if (g == NULL || rng == NULL)
        return OFC_E_COUNT;
    st = pending(g);
    if (st == NULL)
        return OFC_E_GAME_OVER;
    if (st->full)
        random_setting(st, rng, dest);
    else
        random_dest(g, st, rng, dest);
    place(g, st, dest);
    return OFC_OK;
}

int32_t ofc_game_playout(ofc_game *g, ofc_rng *rng, uint32_t *decisions)
{
    uint32_t played = 0;
    if (g == NULL || rng == NULL)
        return OFC_E_COUNT;
    while (ofc_game_random_move(g, rng) == OFC_OK)
        played++;
    if (decisions)
        *decisions = played;
    return OFC_OK;
}
