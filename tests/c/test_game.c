/* test_game.c -- C-level tests of csrc/include/ofc_game.h: the generator against SplitMix64's
 * published outputs, decks, the schedule of every game kind, action ids, validation
 * (every illegal input leaves the state byte-identical), observations (never a card
 * the seat may not know), results (zero-sum, complete boards) and random playouts
 * (ofc_game_state_check(): tests/c/test_game_state.c).
 *
 * Built by tests/c/run.sh with -std=c99 -Wall -Wextra -Werror -pedantic, plain, under
 * AddressSanitizer + UndefinedBehaviorSanitizer, and under ThreadSanitizer. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ofc_fast.h"

#include "check.h"
#include "game_rules.h"

#ifndef OFC_TEST_VECTORS /* CMakeLists.txt passes the absolute path */
#define OFC_TEST_VECTORS "tests/vectors"
#endif

/* Reads up to max unsigned 64-bit decimals, one a line, from OFC_TEST_VECTORS/name
 * (lines starting with '#' and blank lines skipped); returns how many, -1 when the file
 * cannot be opened or a line is not a number. */
static int read_u64_vector(const char *name, uint64_t *out, int max)
{
    char path[1024], line[256];
    int n = 0;
    FILE *f;
    if (snprintf(path, sizeof path, "%s/%s", OFC_TEST_VECTORS, name) >= (int)sizeof path)
        return -1;
    f = fopen(path, "r");
    if (f == NULL) {
        fprintf(stderr, "cannot open %s\n", path);
        return -1;
    }
    while (n < max && fgets(line, sizeof line, f) != NULL) {
        char *end;
        if (line[0] == '#' || line[0] == '\n')
            continue;
        out[n] = (uint64_t)strtoull(line, &end, 10);
        if (end == line || (*end != '\n' && *end != '\0')) {
            fclose(f);
            return -1;
        }
        n++;
    }
    fclose(f);
    return n;
}

static ofc_game_rules pineapple, ofc_r, classic, progressive;

/* SplitMix64 seeded with 1234567: the outputs of the reference implementation, read
 * from tests/vectors/splitmix64_1234567.txt (the Python tests read it too). */
static void test_random(void)
{
    uint64_t want[5];
    ofc_rng rng = {1, 0};
    uint32_t counts[7] = {0}, i;
    CHECK_EQ(read_u64_vector("splitmix64_1234567.txt", want, 5), 5);
    for (i = 0; i < 5; i++)
        CHECK(ofc_random64(1234567, i) == want[i]);
    for (i = 0; i < 70000; i++)
        counts[ofc_rng_below(&rng, 7)]++;
    for (i = 0; i < 7; i++)
        CHECK(counts[i] > 9500 && counts[i] < 10500);
    CHECK_EQ(ofc_rng_below(&rng, 1), 0);
    CHECK(ofc_deal_seed(5, 0) != ofc_deal_seed(5, 1));
    CHECK(ofc_deal_seed(5, 3) == ofc_random64(5 ^ UINT64_C(0x6F66632D66617374), 3));
}

static void test_decks(void)
{
    uint8_t deck[52], again[52];
    uint32_t first[52] = {0}, s, i;
    for (s = 0; s < 5200; s++) {
        uint64_t seen = 0;
        ofc_deck_from_seed(s, deck);
        for (i = 0; i < 52; i++)
            seen |= UINT64_C(1) << deck[i];
        CHECK(seen == (UINT64_C(1) << 52) - 1);
        first[deck[0]]++;
    }
    for (i = 0; i < 52; i++) /* each card first about 100 times in 5,200 decks */
        CHECK(first[i] > 50 && first[i] < 160);
    ofc_deck_from_seed(UINT64_MAX, deck);
    ofc_deck_from_seed(UINT64_MAX, again);
    CHECK(memcmp(deck, again, 52) == 0);
}

static void test_init_errors(void)
{
    ofc_game g, before;
    uint8_t fl[4] = {17, 17, 17, 0}, deck[52];
    uint32_t i;
    memset(&g, 0xAB, sizeof g);
    before = g;
    CHECK_EQ(ofc_game_init(&pineapple, &g, 1, 0, NULL, 1, NULL), OFC_E_SEATS);
    CHECK_EQ(ofc_game_init(&pineapple, &g, 4, 0, NULL, 1, NULL), OFC_E_SEATS);
    CHECK_EQ(ofc_game_init(&pineapple, &g, 2, 2, NULL, 1, NULL), OFC_E_SEATS);
    CHECK_EQ(ofc_game_init(&ofc_r, &g, 4, 0, fl, 1, NULL), OFC_E_DECK); /* 3*17 + 13 */
    fl[0] = 12;
    CHECK_EQ(ofc_game_init(&pineapple, &g, 2, 0, fl, 1, NULL), OFC_E_SEATS);
    fl[0] = 13;
    CHECK_EQ(ofc_game_init(&classic, &g, 2, 0, fl, 1, NULL), OFC_E_SEATS);
    for (i = 0; i < 52; i++)
        deck[i] = (uint8_t)i;
    deck[7] = 3;
    CHECK_EQ(ofc_game_init(&pineapple, &g, 2, 0, NULL, 1, deck), OFC_E_DUPLICATE);
    deck[7] = 52;
    CHECK_EQ(ofc_game_init(&pineapple, &g, 2, 0, NULL, 1, deck), OFC_E_CARD);
    CHECK(memcmp(&g, &before, sizeof g) == 0);
    CHECK_EQ(ofc_game_init(&pineapple, NULL, 2, 0, NULL, 1, NULL), OFC_E_COUNT);
}

/* The schedule: who acts in which order with which cards. */
static void test_schedule(void)
{
    ofc_game g;
    ofc_decision d;
    uint8_t fl[4] = {0, 15, 0, 0};
    uint32_t i;
    CHECK_EQ(ofc_game_init(&pineapple, &g, 3, 1, fl, 9, NULL), OFC_OK);
    CHECK_EQ(g.nsteps, 1 + 2 * 5);
    CHECK_EQ(ofc_game_decision(&g, &d), OFC_OK); /* the Fantasyland seat first */
    CHECK_EQ(d.seat, 1);
    CHECK_EQ(d.n, 15);
    CHECK_EQ(d.k, 2);
    CHECK_EQ(d.full, 1);
    CHECK(memcmp(d.dealt, g.deck, 15) == 0);
    CHECK_EQ(g.steps[1].seat, 2); /* then left of the button: seat 2, then 0 */
    CHECK_EQ(g.steps[2].seat, 0);
    CHECK_EQ(g.steps[1].start, 15);
    CHECK_EQ(g.steps[3].n, 3);
    CHECK_EQ(g.steps[3].k, 1);
    CHECK_EQ(g.steps[10].street, 4);
    CHECK_EQ(ofc_game_init(&ofc_r, &g, 4, 3, NULL, 9, NULL), OFC_OK);
    CHECK_EQ(g.nsteps, 4 * 9);
    for (i = 4; i < g.nsteps; i++) {
        CHECK_EQ(g.steps[i].n, 1);
        CHECK_EQ(g.steps[i].face_down, g.steps[i].street > 5);
    }
    CHECK_EQ(g.steps[0].seat, 0);
    CHECK_EQ(g.steps[35].start, 51);
    CHECK_EQ(ofc_game_init(&classic, &g, 4, 0, NULL, 9, NULL), OFC_OK);
    CHECK_EQ(g.nsteps, 4);
    CHECK_EQ(g.steps[3].seat, 0);
    CHECK_EQ(g.steps[3].face_down, 1);
}

/* ofc_cards_per_seat() is what the schedule deals each seat, for every kind and
 * Fantasyland count; out-of-range input is refused. */
static void test_cards_per_seat(void)
{
    const ofc_game_rules *kinds[3] = {&classic, &ofc_r, &pineapple};
    uint32_t k, n, i;
    for (k = 0; k < 3; k++) {
        for (n = 0; n <= 17; n = n ? n + 1 : 13) {
            uint8_t fl[4] = {(uint8_t)n, 0, 0, 0};
            uint32_t dealt = 0;
            ofc_game g;
            if (k == OFC_KIND_CLASSIC && n) {
                CHECK_EQ(ofc_cards_per_seat(k, n), OFC_E_SEATS);
                continue;
            }
            CHECK_EQ(ofc_game_init(kinds[k], &g, 2, 1, fl, 5, NULL), OFC_OK);
            for (i = 0; i < g.nsteps; i++)
                dealt += g.steps[i].seat == 0 ? g.steps[i].n : 0u;
            CHECK_EQ(ofc_cards_per_seat(k, n), (int32_t)dealt);
        }
    }
    CHECK_EQ(ofc_cards_per_seat(OFC_KIND_PINEAPPLE, 0), 17);
    CHECK_EQ(ofc_cards_per_seat(OFC_KIND_OFC, 0), 13);
    CHECK_EQ(ofc_cards_per_seat(3, 0), OFC_E_RULES);
    CHECK_EQ(ofc_cards_per_seat(OFC_KIND_OFC, 12), OFC_E_SEATS);
    CHECK_EQ(ofc_cards_per_seat(OFC_KIND_OFC, 18), OFC_E_SEATS);
}

static void test_actions(void)
{
    uint8_t dest[5], back[5], room[3] = {3, 5, 5}, out[OFC_ACTION_SPACE];
    uint32_t n, k, a;
    CHECK_EQ(ofc_actions_legal(5, 0, room, out, NULL), 232);
    CHECK_EQ(ofc_actions_legal(3, 1, room, out, NULL), 27);
    room[0] = 0;
    room[1] = 1;
    room[2] = 1;
    CHECK_EQ(ofc_actions_legal(3, 1, room, out, NULL), 6); /* 3 discards x 2 orders */
    CHECK_EQ(ofc_actions_legal(6, 1, room, out, NULL), OFC_E_ACTION);
    /* rows that cannot hold the kept cards: no decision (it returned 0 ids) */
    room[2] = 0;
    CHECK_EQ(ofc_actions_legal(3, 1, room, out, NULL), OFC_E_ACTION);
    room[1] = 0;
    CHECK_EQ(ofc_actions_legal(1, 0, room, out, NULL), OFC_E_ACTION);
    /* fuzz finding: 5 cards with 1 or 2 discards have 405 / 270 ids, more than the
     * space (out[] overflowed); every function refuses the shape */
    room[0] = 3;
    room[1] = room[2] = 5;
    memset(dest, 0, sizeof dest);
    dest[0] = OFC_DISCARD;
    for (k = 1; k <= 2; k++) {
        dest[1] = k == 2 ? OFC_DISCARD : 0;
        CHECK_EQ(ofc_actions_legal(5, k, room, out, NULL), OFC_E_ACTION);
        CHECK_EQ(ofc_action_decode(5, k, 0, dest), OFC_E_ACTION);
        CHECK_EQ(ofc_action_encode(5, k, dest), OFC_E_ACTION);
    }
    CHECK_EQ(ofc_actions_legal(5, 3, room, out, NULL), 90); /* 10 discard pairs x 9 */
    for (n = 1; n <= 5; n++)
        for (k = 0; k < n; k++)
            for (a = 0; a < OFC_ACTION_SPACE; a++) {
                if (ofc_action_decode(n, k, a, dest) != OFC_OK)
                    continue;
                CHECK_EQ(ofc_action_encode(n, k, dest), (int32_t)a);
                memcpy(back, dest, 5);
            }
    CHECK_EQ(test_cards("As Kd", back), 2); /* the shared card parser, as a sanity check */
    CHECK_EQ(back[0], 51);
    /* a shape without ids (n outside 1..5, k >= n) or no dest is OFC_E_ACTION from
     * both directions (encode said OFC_E_DISCARDS, "discards the wrong number") */
    memset(dest, 0, sizeof dest);
    CHECK_EQ(ofc_action_encode(0, 0, dest), OFC_E_ACTION);
    CHECK_EQ(ofc_action_encode(6, 0, dest), OFC_E_ACTION);
    CHECK_EQ(ofc_action_decode(6, 0, 0, dest), OFC_E_ACTION);
    CHECK_EQ(ofc_action_encode(3, 3, dest), OFC_E_ACTION);
    CHECK_EQ(ofc_action_decode(3, 3, 0, dest), OFC_E_ACTION);
    CHECK_EQ(ofc_action_encode(3, 1, NULL), OFC_E_ACTION);
    CHECK_EQ(ofc_action_decode(3, 1, 0, NULL), OFC_E_ACTION);
    CHECK_EQ(ofc_action_encode(3, 1, dest), OFC_E_DISCARDS); /* a shape, no discard */
    CHECK_EQ(ofc_action_decode(3, 1, 27, dest), OFC_E_ACTION);
    CHECK_EQ(ofc_action_decode(3, 1, 19, dest), OFC_OK); /* ci 2: discard card 2 */
    CHECK_EQ(dest[2], OFC_DISCARD);
    CHECK_EQ(dest[0], 1);
    CHECK_EQ(dest[1], 0);
}

/* Cards seat `me` may know: its own cards and dealt cards, others' face-up cards. */
static uint64_t knowable(const ofc_game *g, uint32_t me)
{
    uint64_t ok = 0;
    uint32_t s, i, over = ofc_game_is_over(g);
    for (s = 0; s < g->players; s++)
        for (i = 0; i < 13; i++) {
            uint8_t c = g->board[s][i];
            int surrendered = g->surrendered >> s & 1u;
            if (c == OFC_NO_CARD)
                continue;
            if (s == me || (over && !surrendered) || !(g->face_down[s] >> i & 1u))
                ok |= UINT64_C(1) << c;
        }
    for (i = 0; i < g->ndiscards[me]; i++)
        ok |= UINT64_C(1) << g->discards[me][i];
    if (!over && g->steps[g->step].seat == me)
        for (i = 0; i < g->steps[g->step].n; i++)
            ok |= UINT64_C(1) << g->deck[g->steps[g->step].start + i];
    return ok;
}

/* The rounds still to come that ofc_game_observe() wrote: every seat's rounds place
 * exactly the cards the observer cannot see on its board (all but its visible ones,
 * and for the observer also all but the pending decision's), none once the deal is
 * over; and ofc_observation_complete() gives the same record from the boards and
 * counts alone, as a caller without the game has them (a finished deal's too: over,
 * nobody to act, the street after the last, no rounds to come). */
static void check_rounds(const ofc_game_rules *r, const ofc_game *g, uint32_t me,
                         const ofc_observation *o)
{
    ofc_observation c = *o;
    uint32_t s, i;
    for (s = 0; o->is_over && s < g->players; s++)
        CHECK_EQ(o->rounds[s], 0);
    for (s = 0; !o->is_over && s < g->players; s++) {
        uint32_t to_place = 0, visible = o->count[s][0] + o->count[s][1] + o->count[s][2];
        for (i = 0; i < o->rounds[s]; i++)
            to_place += (uint32_t)(o->round_n[s][i] - o->round_k[s][i]);
        if (s == me)
            CHECK_EQ(to_place + visible + (uint32_t)(o->n - o->k), 13);
        else
            CHECK_EQ(to_place + visible, 13);
    }
    c.kind = 0;
    c.is_over = 0;
    c.k = c.full = c.face_down = c.future_cards = c.future_discards = 0;
    if (o->is_over) { /* what a caller typing in the finished boards may give */
        c.to_act = 0;
        c.street = 0;
    }
    memset(c.rounds, 0, sizeof c.rounds);
    memset(c.round_n, 0, sizeof c.round_n);
    memset(c.round_k, 0, sizeof c.round_k);
    CHECK_EQ(ofc_observation_complete(r, &c), OFC_OK);
    CHECK(memcmp(&c, o, sizeof c) == 0);
    if (o->n) { /* a wrong number of dealt cards fits no decision */
        c.n = (uint8_t)(o->n + 1);
        CHECK_EQ(ofc_observation_complete(r, &c), OFC_E_COUNT);
    }
}

static void check_observations(const ofc_game_rules *r, const ofc_game *g)
{
    ofc_observation o;
    uint32_t me, s, i;
    for (me = 0; me < g->players; me++) {
        uint64_t ok = knowable(g, me), shown = 0;
        CHECK_EQ(ofc_game_observe(g, me, &o), OFC_OK);
        check_rounds(r, g, me, &o);
        for (s = 0; s < g->players; s++)
            for (i = 0; i < 13; i++)
                if (o.board[s][i] != OFC_NO_CARD)
                    shown |= UINT64_C(1) << o.board[s][i];
        for (i = 0; i < o.n; i++)
            shown |= UINT64_C(1) << o.dealt[i];
        for (i = 0; i < 4; i++)
            if (o.discards[i] != OFC_NO_CARD)
                shown |= UINT64_C(1) << o.discards[i];
        CHECK((shown & ~ok) == 0);
        for (s = 0; s < g->players; s++)
            CHECK_EQ(o.count[s][0] + o.count[s][1] + o.count[s][2]
                         + o.face_down_count[s][0] + o.face_down_count[s][1]
                         + o.face_down_count[s][2],
                     g->count[s][0] + g->count[s][1] + g->count[s][2]);
    }
    CHECK_EQ(ofc_game_observe(g, g->players, &o), OFC_E_SEAT);
}

/* Every action id and some random placements at the pending decision: legal ones
 * apply to a copy, illegal ones leave the state byte-identical. */
static void check_validation(const ofc_game *g, ofc_rng *rng)
{
    uint8_t mask[OFC_ACTION_SPACE];
    uint32_t a, t, i;
    int32_t legal = ofc_game_action_mask(g, mask);
    ofc_decision d;
    ofc_game_decision(g, &d);
    for (a = 0; a < OFC_ACTION_SPACE + 3; a++) {
        ofc_game copy = *g;
        int32_t rc = ofc_game_apply_action(&copy, a);
        if (legal > 0 && a < OFC_ACTION_SPACE && mask[a]) {
            CHECK_EQ(rc, OFC_OK);
            CHECK_EQ(copy.step, g->step + 1);
        } else {
            CHECK(rc < 0);
            CHECK(memcmp(&copy, g, sizeof copy) == 0);
        }
    }
    for (t = 0; t < 20; t++) {
        ofc_game copy = *g;
        uint8_t dest[OFC_GAME_MAX_DEALT];
        uint32_t n = d.n + (t == 0) - (t == 1 && d.n > 0);
        int32_t rc;
        for (i = 0; i < OFC_GAME_MAX_DEALT; i++)
            dest[i] = (uint8_t)ofc_rng_below(rng, t < 10 ? 4 : 6);
        rc = ofc_game_apply_placement(&copy, dest, n);
        if (rc != OFC_OK)
            CHECK(memcmp(&copy, g, sizeof copy) == 0);
    }
    { /* no placement at all: refused as a count (the header says so) */
        ofc_game copy = *g;
        CHECK_EQ(ofc_game_apply_placement(&copy, NULL, d.n), OFC_E_COUNT);
        CHECK(memcmp(&copy, g, sizeof copy) == 0);
    }
}

static void play_random(const ofc_game_rules *r, uint32_t players, const uint8_t *fl,
                        uint64_t seed, int validate)
{
    ofc_game g;
    ofc_rng rng = {seed, 0};
    ofc_game_result res;
    uint32_t s, steps = 0;
    int32_t sum = 0;
    CHECK_EQ(ofc_game_init(r, &g, players, (uint32_t)(seed % players), fl, seed, NULL),
             OFC_OK);
    while (!ofc_game_is_over(&g)) {
        ofc_game next = g;
        uint32_t one = 0;
        if (validate) {
            check_observations(r, &g);
            check_validation(&g, &rng);
        }
        CHECK_EQ(ofc_game_result_get(r, &g, NULL, 0, &res), OFC_E_NOT_OVER);
        /* one random decision through the playout's own policy */
        ofc_game_playout(&next, &rng, &one);
        (void)one;
        {
            ofc_decision d;
            ofc_game_decision(&g, &d);
            if (d.full) {
                uint8_t dest[OFC_GAME_MAX_DEALT];
                uint32_t i;
                for (i = 0; i < d.n; i++)
                    dest[i] = (uint8_t)(i < d.k ? OFC_DISCARD : i - d.k < 3 ? 0
                                        : i - d.k < 8 ? 1 : 2);
                CHECK_EQ(ofc_game_apply_placement(&g, dest, d.n), OFC_OK);
            } else {
                uint8_t acts[OFC_ACTION_SPACE];
                int32_t n = ofc_game_legal_actions(&g, acts);
                CHECK(n > 0);
                CHECK_EQ(ofc_game_apply_action(&g, acts[ofc_rng_below(&rng, (uint32_t)n)]),
                         OFC_OK);
            }
        }
        steps++;
    }
    CHECK_EQ(steps, g.nsteps);
    if (validate)
        check_observations(r, &g);
    CHECK_EQ(ofc_game_result_get(r, &g, NULL, OFC_SETTLE_ITEMS, &res), OFC_OK);
    for (s = 0; s < players; s++) {
        CHECK_EQ(g.count[s][0] + g.count[s][1] + g.count[s][2], 13);
        sum += res.net[s];
        if (res.foul[s])
            CHECK_EQ(res.fl_next[s], 0);
    }
    CHECK_EQ(sum, 0);
}

static void test_observation_complete_errors(void)
{
    ofc_observation o, before;
    memset(&o, 0, sizeof o);
    memset(o.board, OFC_NO_CARD, sizeof o.board);
    o.players = 2;
    o.n = 5;
    CHECK_EQ(ofc_observation_complete(&pineapple, &o), OFC_OK);
    CHECK_EQ(o.future_cards, 12);
    CHECK_EQ(o.future_discards, 4);
    CHECK_EQ(o.rounds[1], 5);
    CHECK_EQ(ofc_observation_complete(NULL, &o), OFC_E_RULES);
    CHECK_EQ(ofc_observation_complete(&pineapple, NULL), OFC_E_VALUE);
    o.count[0][0] = 4; /* more than a front holds: refused, o left as it is */
    before = o;
    CHECK_EQ(ofc_observation_complete(&pineapple, &o), OFC_E_COUNT);
    CHECK(memcmp(&before, &o, sizeof o) == 0);
    o.count[0][0] = 3; /* 3 cards placed: no Pineapple decision ends there */
    CHECK_EQ(ofc_observation_complete(&pineapple, &o), OFC_E_COUNT);
    o.count[0][0] = 0;
    o.players = 4; /* more seats than the rules allow */
    CHECK_EQ(ofc_observation_complete(&pineapple, &o), OFC_E_SEATS);
    o.players = 2;
    o.seat = 2;
    CHECK_EQ(ofc_observation_complete(&pineapple, &o), OFC_E_SEATS);
    o.seat = 0;
    o.fl[1] = 12;
    CHECK_EQ(ofc_observation_complete(&pineapple, &o), OFC_E_SEATS);
}

/* Discard counts the deal cannot have made are refused (OFC_E_DISCARDS), o left as it
 * is.  Reference, from the rule text: a Pineapple opening (5 cards) discards none and
 * each 3-card round one, so a seat with 5 + 2r cards placed has made r discards; OFC
 * discards none; a 14-card Fantasyland set discards 1 once it is made. */
static void test_observation_complete_discards(void)
{
    static const uint8_t rows5[3] = {1, 2, 2}, rows7[3] = {1, 3, 3}, rows13[3] = {3, 5, 5};
    uint8_t fl14[4] = {14, 0, 0, 0};
    ofc_observation o, before;
    memset(&o, 0, sizeof o);
    memset(o.board, OFC_NO_CARD, sizeof o.board);
    o.players = 2; /* button 0: seat 1 acts first; seat 0 to play its first round */
    memcpy(o.count[0], rows5, 3);
    memcpy(o.count[1], rows7, 3);
    o.n = 3;
    o.discard_count[1] = 1;
    CHECK_EQ(ofc_observation_complete(&pineapple, &o), OFC_OK);
    CHECK_EQ(o.k, 1);
    o.discard_count[1] = 2; /* seat 1 has played one round: one discard */
    before = o;
    CHECK_EQ(ofc_observation_complete(&pineapple, &o), OFC_E_DISCARDS);
    CHECK(memcmp(&before, &o, sizeof o) == 0);
    o.discard_count[1] = 1;
    o.discard_count[0] = 1; /* the observer has played its opening only */
    o.discards[0] = 40;
    CHECK_EQ(ofc_observation_complete(&pineapple, &o), OFC_E_DISCARDS);
    o.discard_count[0] = 0;
    o.discard_count[1] = 0; /* fewer than made: counts a caller does not know */
    CHECK_EQ(ofc_observation_complete(&pineapple, &o), OFC_OK);
    memset(&o, 0, sizeof o); /* OFC, seat 0 on its second single card: no discards */
    memset(o.board, OFC_NO_CARD, sizeof o.board);
    o.players = 2; /* 6 cards placed each: an opening and one round */
    o.count[0][0] = 1;
    o.count[0][2] = 5;
    memcpy(o.count[1], rows5, 3);
    o.count[1][0] = 2;
    o.n = 1;
    CHECK_EQ(ofc_observation_complete(&ofc_r, &o), OFC_OK);
    o.discard_count[1] = 1;
    CHECK_EQ(ofc_observation_complete(&ofc_r, &o), OFC_E_DISCARDS);
    memset(&o, 0, sizeof o); /* seat 0 has set its 14-card Fantasyland hand: 1 discard */
    memset(o.board, OFC_NO_CARD, sizeof o.board);
    o.players = 2;
    memcpy(o.fl, fl14, 4);
    o.seat = 1;
    memcpy(o.face_down_count[0], rows13, 3);
    o.n = 5;
    o.discard_count[0] = 1;
    CHECK_EQ(ofc_observation_complete(&pineapple, &o), OFC_OK);
    o.discard_count[0] = 2;
    CHECK_EQ(ofc_observation_complete(&pineapple, &o), OFC_E_DISCARDS);
    o.discard_count[0] = 255;
    CHECK_EQ(ofc_observation_complete(&pineapple, &o), OFC_E_DISCARDS);
}

static void test_random_deals(void)
{
    uint8_t fl14[4] = {0, 14, 0, 0}, fl17[4] = {17, 0, 0, 0};
    uint64_t seed;
    for (seed = 1; seed <= 40; seed++) {
        play_random(&pineapple, 2 + (uint32_t)(seed % 2), NULL, seed, seed <= 6);
        play_random(&ofc_r, 2 + (uint32_t)(seed % 3), NULL, seed, seed <= 4);
        play_random(&classic, 2 + (uint32_t)(seed % 3), NULL, seed, seed <= 4);
        play_random(&pineapple, 2, fl14, seed, seed <= 3);
        play_random(&progressive, 2, fl17, seed, seed <= 3);
    }
}

static void test_playout(void)
{
    ofc_game g;
    ofc_rng rng = {77, 0};
    ofc_game_result res;
    uint32_t decisions = 0, i;
    for (i = 0; i < 200; i++) {
        CHECK_EQ(ofc_game_init(&pineapple, &g, 3, i % 3, NULL, i, NULL), OFC_OK);
        CHECK_EQ(ofc_game_playout(&g, &rng, &decisions), OFC_OK);
        CHECK_EQ(decisions, 15);
        CHECK_EQ(ofc_game_result_get(&pineapple, &g, NULL, 0, &res), OFC_OK);
        CHECK_EQ(res.net[0] + res.net[1] + res.net[2], 0);
        CHECK_EQ(ofc_game_apply_action(&g, 0), OFC_E_GAME_OVER);
    }
    CHECK_EQ(ofc_game_playout(NULL, &rng, NULL), OFC_E_COUNT);
}

/* Seat s's placed cards and discards: what one move of it changes. */
static int same_hand(const ofc_game *a, const ofc_game *b, uint32_t s)
{
    return memcmp(a->board[s], b->board[s], 13) == 0
           && memcmp(a->discards[s], b->discards[s], 4) == 0 && a->step == b->step;
}

/* ofc_game_random_move() on the pending normal decision of g: every draw is one of
 * the legal actions (found by trying all 243 ids on a copy, not by the move's own
 * code), each within 5 standard deviations of an equal share over `draws` streams. */
static void check_uniform_move(const ofc_game *g, uint32_t draws)
{
    static ofc_game after[OFC_ACTION_SPACE];
    static uint32_t count[OFC_ACTION_SPACE];
    ofc_game t;
    uint32_t seat = (uint32_t)ofc_game_to_act(g), a, i, n = 0;
    for (a = 0; a < OFC_ACTION_SPACE; a++) {
        memcpy(&t, g, sizeof t);
        if (ofc_game_apply_action(&t, a) == OFC_OK)
            memcpy(&after[n++], &t, sizeof t);
    }
    CHECK(n > 1);
    memset(count, 0, sizeof count);
    for (i = 0; i < draws; i++) {
        ofc_rng r;
        r.key = ofc_random64(99, i);
        r.ctr = 0;
        memcpy(&t, g, sizeof t);
        CHECK_EQ(ofc_game_random_move(&t, &r), OFC_OK);
        for (a = 0; a < n && !same_hand(&t, &after[a], seat); a++)
            ;
        CHECK(a < n);
        count[a < n ? a : 0]++;
    }
    for (a = 0; a < n; a++) {
        double p = 1.0 / n, mean = draws * p, sd = sqrt(draws * p * (1.0 - p));
        CHECK(fabs((double)count[a] - mean) < 5.0 * sd);
    }
}

/* ofc_game_random_move(): uniform over the legal actions of an opening and of a
 * Pineapple street, a uniformly random setting of a Fantasyland set (each of 14
 * cards the discard equally often, rows filled 3 / 5 / 5), deterministic in its
 * stream, OFC_E_GAME_OVER (state unchanged) at the end, OFC_E_COUNT on NULL. */
static void test_random_move(void)
{
    enum { FL_DRAWS = 14000 };
    ofc_game g, t, u;
    ofc_rng rng = {5, 0}, r1, r2;
    uint8_t fl14[4] = {14, 0, 0, 0};
    uint32_t discarded[52], i, c;
    CHECK_EQ(ofc_game_init(&pineapple, &g, 2, 0, NULL, 11, NULL), OFC_OK);
    check_uniform_move(&g, 20000); /* seat 1's opening: 5 cards to the rows */
    CHECK_EQ(ofc_game_random_move(&g, &rng), OFC_OK);
    CHECK_EQ(ofc_game_random_move(&g, &rng), OFC_OK);
    check_uniform_move(&g, 20000); /* its first street: 3 cards, 1 discarded */
    r1 = rng;
    r2 = rng;
    memcpy(&t, &g, sizeof t);
    memcpy(&u, &g, sizeof u);
    CHECK_EQ(ofc_game_random_move(&t, &r1), OFC_OK);
    CHECK_EQ(ofc_game_random_move(&u, &r2), OFC_OK);
    CHECK(memcmp(&t, &u, sizeof t) == 0 && r1.ctr == r2.ctr && r1.ctr > rng.ctr);
    CHECK_EQ(ofc_game_init(&pineapple, &g, 2, 0, fl14, 3, NULL), OFC_OK);
    memset(discarded, 0, sizeof discarded);
    for (i = 0; i < FL_DRAWS; i++) {
        ofc_rng r;
        r.key = ofc_random64(7, i);
        r.ctr = 0;
        memcpy(&t, &g, sizeof t);
        CHECK_EQ(ofc_game_random_move(&t, &r), OFC_OK);
        CHECK(t.count[0][0] == 3 && t.count[0][1] == 5 && t.count[0][2] == 5);
        CHECK_EQ(t.ndiscards[0], 1);
        discarded[t.discards[0][0] % 52]++;
    }
    for (i = 0; i < 14; i++) {
        double p = 1.0 / 14, mean = FL_DRAWS * p, sd = sqrt(FL_DRAWS * p * (1.0 - p));
        c = g.deck[g.steps[0].start + i];
        CHECK(fabs((double)discarded[c] - mean) < 5.0 * sd);
    }
    CHECK_EQ(ofc_game_playout(&g, &rng, NULL), OFC_OK);
    memcpy(&t, &g, sizeof t);
    r1 = rng;
    CHECK_EQ(ofc_game_random_move(&g, &rng), OFC_E_GAME_OVER);
    CHECK(memcmp(&t, &g, sizeof t) == 0 && r1.ctr == rng.ctr);
    CHECK_EQ(ofc_game_random_move(NULL, &rng), OFC_E_COUNT);
    CHECK_EQ(ofc_game_random_move(&g, NULL), OFC_E_COUNT);
}

static void test_classic_specials(void)
{
    ofc_game g, before;
    uint8_t deck[52];
    uint32_t i;
    CHECK_EQ(ofc_game_init(&pineapple, &g, 2, 0, NULL, 3, NULL), OFC_OK);
    before = g;
    CHECK_EQ(ofc_game_surrender(&pineapple, &g), OFC_E_NOT_CLASSIC);
    CHECK_EQ(ofc_game_declare(&pineapple, &g, OFC_NAT_DRAGON), OFC_E_NOT_CLASSIC);
    CHECK(memcmp(&g, &before, sizeof g) == 0);
    for (i = 0; i < 52; i++) /* seat 1 acts first and gets 13 of one suit: a dragon */
        deck[i] = (uint8_t)(i < 13 ? 4 * i + 3 : i < 26 ? 4 * (i - 13) : i < 39
                            ? 4 * (i - 26) + 1 : 4 * (i - 39) + 2);
    CHECK_EQ(ofc_game_init(&classic, &g, 2, 0, NULL, 0, deck), OFC_OK);
    CHECK_EQ(ofc_game_declarable(&classic, &g), 0); /* the rules pay no natural */
    CHECK_EQ(ofc_game_declare(&classic, &g, OFC_NAT_DRAGON), OFC_E_NATURAL);
    classic.table.natural_mask = OFC_NAT_BIT(OFC_NAT_DRAGON);
    classic.table.natural_units[OFC_NAT_DRAGON] = 13;
    classic.table.natural_rank[OFC_NAT_DRAGON] = 0;
    CHECK(ofc_game_declarable(&classic, &g) & OFC_NAT_BIT(OFC_NAT_DRAGON));
    CHECK_EQ(ofc_game_declare(&classic, &g, OFC_NAT_COUNT), OFC_E_NATURAL);
    CHECK_EQ(ofc_game_declare(&classic, &g, OFC_NAT_DRAGON), OFC_OK);
    CHECK_EQ(g.declared[1], OFC_NAT_DRAGON);
    CHECK_EQ(ofc_game_surrender(&classic, &g), OFC_OK);
    CHECK_EQ(g.surrendered, 1);
    {
        ofc_game_result res;
        CHECK_EQ(ofc_game_result_get(&classic, &g, NULL, OFC_SETTLE_ITEMS, &res), OFC_OK);
        /* seat 0 surrendered before the reveal, where seat 1 shows its dragon (13):
         * the surrender is its fixed loss, surrender_cost 1 (R-VAR-SUR-3, Q-13) */
        CHECK_EQ(res.net[1], 1);
        CHECK_EQ(res.net[0], -1);
    }
}

int main(void)
{
    game_rules_setup(&pineapple, &ofc_r, &classic, &progressive);
    test_random();
    test_decks();
    test_init_errors();
    test_schedule();
    test_cards_per_seat();
    test_actions();
    test_observation_complete_errors();
    test_observation_complete_discards();
    test_random_deals();
    test_playout();
    test_random_move();
    test_classic_specials();
    printf("test_game: %d checks, %d failures\n", checks, failures);
    return failures != 0;
}
