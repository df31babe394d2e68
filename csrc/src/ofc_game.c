/*
 * ofc_game.c -- the flow of one deal (see ofc_game.h): rules, the schedule, the
 * pending decision, placements, the classic specials (naturals, surrender) and the
 * result through ofc_settle().  Action ids: ofc_actions.c; observations:
 * ofc_observe.c; random playouts: ofc_playout.c.
 */
#include <string.h>

#include "ofc_game_internal.h"

/* ------------------------------------------------------------------ rules */

/* A rule set no game can be set up under: no rules, an unknown game, a table size
 * out of range (the checks every entry taking game rules starts with). */
static int rules_unusable(const ofc_game_rules *r)
{
    return r == NULL || r->kind > OFC_KIND_PINEAPPLE || r->max_players < 2
           || r->max_players > OFC_GAME_MAX_SEATS;
}

int32_t ofc_game_rules_check(const ofc_game_rules *r)
{
    if (rules_unusable(r) || r->face_down_final > 8
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
                      uint32_t button, const uint8_t *given_fl, uint64_t seed,
                      const uint8_t *given_deck)
{
    ofc_game tmp;
    const uint8_t *fl, *deck;
    int32_t rc;
    if (g == NULL)
        return OFC_E_COUNT;
    if (rules_unusable(r))
        return OFC_E_RULES;
    memset(&tmp, 0, sizeof tmp);
    /* the caller's counts and deck read once, into the new state (ofc_fast.h, Threads) */
    fl = ofc_read_once(given_fl, players <= OFC_GAME_MAX_SEATS ? players : 0, tmp.fl);
    deck = ofc_read_once(given_deck, OFC_CARDS, tmp.deck);
    rc = check_seats(r, players, button, fl);
    if (rc == OFC_OK && deck != NULL)
        rc = check_deck(deck);
    if (rc != OFC_OK)
        return rc;
    memset(tmp.board, OFC_NO_CARD, sizeof tmp.board);
    memset(tmp.discards, OFC_NO_CARD, sizeof tmp.discards);
    memset(tmp.declared, -1, sizeof tmp.declared);
    tmp.players = (uint8_t)players;
    tmp.button = (uint8_t)button;
    tmp.kind = r->kind;
    if (deck == NULL) {
        tmp.seed = seed;
        ofc_deck_from_seed(seed, tmp.deck);
    }
    build_schedule(r, &tmp);
    *g = tmp;
    return OFC_OK;
}

/* ------------------------------------------------------------ state check */

/* What seat s has been dealt and has done in the decisions made so far. */
typedef struct seat_done {
    uint64_t dealt;     /* bit per card dealt to it */
    uint32_t kept;      /* cards placed on its board */
    uint32_t discarded; /* cards discarded */
    uint32_t hidden;    /* cards placed face down */
    uint32_t set;       /* 1: its classic 13-card set is made */
} seat_done;

static seat_done seat_progress(const ofc_game *g, uint32_t s)
{
    seat_done d = {0, 0, 0, 0, 0};
    uint32_t i, j;
    for (i = 0; i < g->step; i++) {
        const ofc_game_step *st = &g->steps[i];
        if (st->seat != s)
            continue;
        for (j = 0; j < st->n; j++)
            d.dealt |= UINT64_C(1) << g->deck[st->start + j];
        d.kept += (uint32_t)st->n - st->k;
        d.discarded += st->k;
        d.hidden += st->face_down ? (uint32_t)st->n - st->k : 0u;
        d.set |= st->full && g->kind == OFC_KIND_CLASSIC;
    }
    return d;
}

/* The cards of a seat's rows and discards: each slot up to its count a card dealt to
 * the seat (none twice), OFC_NO_CARD after it; the face-down marks on the last `hidden`
 * cards placed (a suffix of each row). */
static const char *check_seat_cards(const ofc_game *g, uint32_t s, const seat_done *d)
{
    uint64_t seen = 0;
    uint32_t row, i, marked = 0;
    for (row = 0; row < 3; row++) {
        uint32_t start = ofc_row_start(row), n = g->count[s][row];
        int down = 0;
        for (i = 0; i < ofc_row_size(row); i++) {
            uint8_t card = g->board[s][start + i];
            uint32_t mark = g->face_down[s] >> (start + i) & 1u;
            if (i >= n) {
                if (card != OFC_NO_CARD || mark)
                    return "a board slot past its row's count is not empty";
                continue;
            }
            if (card >= OFC_CARDS || !(d->dealt >> card & 1u) || (seen >> card & 1u))
                return "a board card not dealt to its seat, or twice";
            seen |= UINT64_C(1) << card;
            if (down && !mark)
                return "a face-up card after a face-down one in a row";
            down = (int)mark;
            marked += mark;
        }
    }
    if (g->face_down[s] >> 13 || marked != d->hidden)
        return "the face-down marks do not match the cards placed face down";
    for (i = 0; i < 4; i++) {
        uint8_t card = g->discards[s][i];
        if (i >= g->ndiscards[s]) {
            if (card != OFC_NO_CARD)
                return "a discard slot past the discard count is not empty";
        } else if (card >= OFC_CARDS || !(d->dealt >> card & 1u) || (seen >> card & 1u)) {
            return "a discard not dealt to its seat, or twice";
        } else {
            seen |= UINT64_C(1) << card;
        }
    }
    return NULL;
}

/* One seat of the table: counts and cards as its decisions so far make them, its
 * classic declaration or surrender. */
static const char *check_seat_state(const ofc_game_rules *r, const ofc_game *g, uint32_t s)
{
    seat_done d = seat_progress(g, s);
    uint32_t row, placed = 0, surrendered = g->surrendered >> s & 1u;
    for (row = 0; row < 3; row++) {
        if (g->count[s][row] > ofc_row_size(row))
            return "a row count over the row's size";
        placed += g->count[s][row];
    }
    if (placed != d.kept)
        return "the row counts do not match the decisions made";
    if (g->ndiscards[s] != d.discarded)
        return "the discard count does not match the decisions made";
    if (g->declared[s] != -1
        && (!d.set || g->declared[s] < 0 || g->declared[s] >= OFC_NAT_COUNT
            || !(r->table.natural_mask >> g->declared[s] & 1u) || surrendered))
        return "a declared natural the seat cannot have declared";
    if (surrendered && (!d.set || r->table.surrender_cost < 0))
        return "a surrender the seat cannot have made";
    return check_seat_cards(g, s, &d);
}

/* A seat beyond the table: all empty. */
static int seat_empty(const ofc_game *g, uint32_t s)
{
    uint32_t i;
    if (g->fl[s] || g->declared[s] != -1 || g->face_down[s] || g->ndiscards[s]
        || (g->surrendered >> s & 1u))
        return 0;
    for (i = 0; i < 3; i++)
        if (g->count[s][i])
            return 0;
    for (i = 0; i < 13; i++)
        if (g->board[s][i] != OFC_NO_CARD)
            return 0;
    for (i = 0; i < 4; i++)
        if (g->discards[s][i] != OFC_NO_CARD)
            return 0;
    return 1;
}

/* The table, deck and schedule: what ofc_game_init() made; fresh: that deal afresh. */
static const char *check_deal(const ofc_game_rules *r, const ofc_game *g, ofc_game *fresh)
{
    uint8_t deck[52];
    if (g->kind != r->kind || check_seats(r, g->players, g->button, g->fl) != OFC_OK)
        return "the table (players, button, kind or Fantasyland counts)";
    if (check_deck(g->deck) != OFC_OK)
        return "the deck is not 52 distinct cards";
    if (g->seed != 0) {
        ofc_deck_from_seed(g->seed, deck);
        if (memcmp(deck, g->deck, 52) != 0)
            return "the deck is not its seed's";
    }
    if (ofc_game_init(r, fresh, g->players, g->button, g->fl, 0, g->deck) != OFC_OK)
        return "the table (players, button, kind or Fantasyland counts)";
    if (fresh->nsteps != g->nsteps
        || memcmp(fresh->steps, g->steps, sizeof fresh->steps) != 0)
        return "the schedule of decisions is not the table's";
    if (g->step > g->nsteps)
        return "the step is past the schedule's end";
    return NULL;
}

/* The decisions made so far replayed by the engine on the deal afresh (fresh), each
 * card sent where g holds it (the seat's checked cards are on its board or discarded;
 * a classic set declared or surrendered: as g says): every decision one the engine
 * takes (a Pineapple round's one discard, a natural the hand makes), and the rows,
 * discards and face-down marks the replay's byte for byte (the engine places a row's
 * cards and the discards in deal order and lays an unset classic hand out itself;
 * another order would show other cards, face-down ones included). */
static const char *check_replay(const ofc_game_rules *r, const ofc_game *g,
                                const ofc_game *fresh)
{
    ofc_game re = *fresh;
    uint8_t dest[OFC_GAME_MAX_DEALT];
    uint32_t i, j;
    for (i = 0; i < g->step; i++) {
        const ofc_game_step *st = &re.steps[i];
        uint32_t s = st->seat;
        int32_t rc;
        if (g->kind == OFC_KIND_CLASSIC && (g->surrendered >> s & 1u))
            rc = ofc_game_surrender(r, &re);
        else if (g->kind == OFC_KIND_CLASSIC && g->declared[s] >= 0)
            rc = ofc_game_declare(r, &re, (uint32_t)g->declared[s]);
        else {
            for (j = 0; j < st->n; j++)
                dest[j] = ofc_board_row_of(g->board[s], g->deck[st->start + j]);
            rc = ofc_game_apply_placement(&re, dest, st->n);
        }
        if (rc != OFC_OK)
            return "a decision the engine refuses (a round's discards, a natural the "
                   "hand does not make)";
    }
    if (memcmp(re.count, g->count, sizeof re.count) != 0
        || memcmp(re.board, g->board, sizeof re.board) != 0
        || memcmp(re.face_down, g->face_down, sizeof re.face_down) != 0
        || memcmp(re.ndiscards, g->ndiscards, sizeof re.ndiscards) != 0
        || memcmp(re.discards, g->discards, sizeof re.discards) != 0)
        return "the cards of a row or the discards not in the order the engine places "
               "them (deal order)";
    return NULL;
}

int32_t ofc_game_state_check(const ofc_game_rules *r, const ofc_game *g, const char **why)
{
    const char *problem = NULL;
    ofc_game fresh;
    uint32_t s;
    if (why != NULL)
        *why = NULL;
    if (g == NULL)
        return OFC_E_COUNT;
    if (rules_unusable(r))
        return OFC_E_RULES;
    problem = check_deal(r, g, &fresh);
    if (problem == NULL && g->surrendered >> OFC_GAME_MAX_SEATS)
        problem = "a surrender of a seat beyond the four";
    for (s = 0; problem == NULL && s < OFC_GAME_MAX_SEATS; s++) {
        if (s >= g->players)
            problem = seat_empty(g, s) ? NULL : "a seat beyond the table is not empty";
        else
            problem = check_seat_state(r, g, s);
    }
    if (problem == NULL)
        problem = check_replay(r, g, &fresh);
    if (why != NULL)
        *why = problem;
    return problem == NULL ? OFC_OK : OFC_E_STATE;
}

/* ------------------------------------------------------------- decisions */

const ofc_game_step *ofc_gm_pending(const ofc_game *g)
{
    return g->step < g->nsteps ? &g->steps[g->step] : NULL;
}

int32_t ofc_game_to_act(const ofc_game *g)
{
    const ofc_game_step *st;
    if (g == NULL)
        return OFC_E_COUNT;
    st = ofc_gm_pending(g);
    return st ? (int32_t)st->seat : -1;
}

int32_t ofc_game_is_over(const ofc_game *g)
{
    if (g == NULL)
        return OFC_E_COUNT;
    return g->step >= g->nsteps;
}

void ofc_gm_free_slots(const ofc_game *g, uint32_t seat, uint8_t free_[3])
{
    ofc_row_room(g->count[seat], free_);
}

int32_t ofc_game_decision(const ofc_game *g, ofc_decision *out)
{
    const ofc_game_step *st;
    uint32_t i;
    if (g == NULL || out == NULL)
        return OFC_E_COUNT;
    if (ofc_bytes_overlap(out, sizeof *out, g, sizeof *g))
        return OFC_E_VALUE; /* out untouched: its writes would change the state read */
    st = ofc_gm_pending(g);
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
    ofc_gm_free_slots(g, st->seat, out->free);
    for (i = g->step + 1u; i < g->nsteps; i++) {
        if (g->steps[i].seat == st->seat) {
            out->future_cards = (uint8_t)(out->future_cards + g->steps[i].n);
            out->future_discards = (uint8_t)(out->future_discards + g->steps[i].k);
        }
    }
    memcpy(out->dealt, g->deck + st->start, st->n);
    return OFC_OK;
}

/* ------------------------------------------------------------- placements */

/* Validate destinations of the ofc_gm_pending step; returns OFC_OK or the first error. */
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
void ofc_gm_place(ofc_game *g, const ofc_game_step *st, const uint8_t *dest)
{
    uint32_t s = st->seat, i;
    const uint8_t *cards = g->deck + st->start;
    for (i = 0; i < st->n; i++) {
        uint32_t row = dest[i];
        if (row == OFC_DISCARD) {
            g->discards[s][g->ndiscards[s]++] = cards[i];
        } else {
            uint32_t slot = ofc_row_start(row) + g->count[s][row]++;
            g->board[s][slot] = cards[i];
            if (st->face_down)
                g->face_down[s] = (uint16_t)(g->face_down[s] | 1u << slot);
        }
    }
    g->step++;
}

void ofc_gm_unplace(ofc_game *g)
{
    const ofc_game_step *st = &g->steps[--g->step];
    uint32_t s = st->seat, j, row;
    for (j = st->n; j-- > 0;) { /* each card the last of its row or of the discards */
        uint8_t card = g->deck[st->start + j];
        if (g->ndiscards[s] && g->discards[s][g->ndiscards[s] - 1u] == card) {
            g->discards[s][--g->ndiscards[s]] = OFC_NO_CARD;
            continue;
        }
        for (row = 0; row < 3; row++) {
            uint32_t slot = ofc_row_start(row) + g->count[s][row];
            if (g->count[s][row] && g->board[s][--slot] == card) {
                g->board[s][slot] = OFC_NO_CARD;
                g->face_down[s] = (uint16_t)(g->face_down[s] & ~(1u << slot));
                g->count[s][row]--;
                break;
            }
        }
    }
}

int32_t ofc_game_apply_placement(ofc_game *g, const uint8_t *dest, uint32_t n)
{
    const ofc_game_step *st;
    uint8_t local[OFC_GAME_MAX_DEALT];
    int32_t rc;
    if (g == NULL)
        return OFC_E_COUNT;
    st = ofc_gm_pending(g);
    if (st == NULL)
        return OFC_E_GAME_OVER;
    if (dest == NULL || n != st->n)
        return OFC_E_COUNT;
    memcpy(local, dest, n); /* read the caller's bytes once */
    rc = check_placement(g, st, local, n);
    if (rc == OFC_OK)
        ofc_gm_place(g, st, local);
    return rc;
}

int32_t ofc_game_apply_action(ofc_game *g, uint32_t action)
{
    const ofc_game_step *st;
    uint8_t dest[5];
    uint8_t free_[3];
    if (g == NULL)
        return OFC_E_COUNT;
    st = ofc_gm_pending(g);
    if (st == NULL)
        return OFC_E_GAME_OVER;
    if (st->full)
        return OFC_E_FULL_SET;
    if (ofc_action_decode(st->n, st->k, action, dest) != OFC_OK)
        return OFC_E_ACTION;
    ofc_gm_free_slots(g, st->seat, free_);
    if (!ofc_gm_code_fits(action % ofc_pow3(st->n - st->k), (uint32_t)st->n - st->k, free_))
        return OFC_E_ACTION;
    ofc_gm_place(g, st, dest);
    return OFC_OK;
}

/* ------------------------------------------------------- classic specials */

/* The pending classic set of g under the rules r, or NULL with *rc the refusal (NULL
 * rules or state included). */
static const ofc_game_step *classic_set(const ofc_game_rules *r, const ofc_game *g,
                                        int32_t *rc)
{
    const ofc_game_step *st = NULL;
    *rc = OFC_OK;
    if (r == NULL)
        *rc = OFC_E_RULES;
    else if (g == NULL)
        *rc = OFC_E_COUNT;
    else if ((st = ofc_gm_pending(g)) == NULL)
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
    const ofc_game_step *st = classic_set(r, g, &rc);
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
    const ofc_game_step *st = classic_set(r, g, &rc);
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
    const ofc_game_step *st = classic_set(r, g, &rc);
    if (st == NULL)
        return rc;
    if (r->table.surrender_cost < 0)
        return OFC_E_SURRENDER;
    default_layout(g->deck + st->start, board);
    g->surrendered = (uint8_t)(g->surrendered | 1u << st->seat);
    set_board(g, st, board);
    return OFC_OK;
}

/* ------------------------------------------------------------------ result */

int32_t ofc_game_result_get(const ofc_game_rules *r, const ofc_game *g,
                            const int32_t *stacks, uint32_t flags, ofc_game_result *out)
{
    ofc_settle_input in;
    uint32_t s;
    int32_t rc;
    const ofc_span inputs[2] = {{r, sizeof *r}, {g, sizeof *g}};
    if (r == NULL)
        return OFC_E_RULES;
    if (g == NULL || out == NULL)
        return OFC_E_COUNT;
    if (ofc_over_any(out, sizeof *out, inputs, 2))
        return OFC_E_VALUE; /* out untouched: its writes would change r or g */
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

