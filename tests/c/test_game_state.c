/* test_game_state.c -- C-level tests of ofc_game_state_check() (csrc/include/ofc_game.h):
 * a state from outside (a restored game) is refused, with the invariant it breaks, for
 * every kind of damage, and checked in the documented order.  The play itself:
 * tests/c/test_game.c.
 *
 * Built by tests/c/run.sh with -std=c99 -Wall -Wextra -Werror -pedantic, plain, under
 * AddressSanitizer + UndefinedBehaviorSanitizer, and under ThreadSanitizer. */
#include <stdio.h>
#include <string.h>

#include "ofc_fast.h"

#include "check.h"
#include "game_rules.h"

static ofc_game_rules pineapple, ofc_r, classic, progressive;

/* A state mutated by `how` is refused with OFC_E_STATE and a reason. */
static void refused(const ofc_game_rules *r, const ofc_game *g, const char *label)
{
    const char *why = NULL;
    int32_t rc = ofc_game_state_check(r, g, &why);
    if (rc != OFC_E_STATE || why == NULL)
        fprintf(stderr, "state check: %s passed (%d)\n", label, (int)rc);
    CHECK_EQ(rc, OFC_E_STATE);
    CHECK(why != NULL);
}

/* Every state the engine makes passes ofc_game_state_check(); each damaged byte of a
 * real mid-deal state is refused (the C fuzz audit's case first: step 250 of 255
 * steps, read past the 40 steps before the check). */
static void test_state_check(void)
{
    static const ofc_game_rules *kinds[4] = {&pineapple, &ofc_r, &classic, &progressive};
    static const uint8_t fl_prog[3] = {0, 15, 0};
    static ofc_game_rules no_fl;
    ofc_game g, t, mid;
    ofc_rng rng = {11, 0};
    const char *why = "unset";
    uint32_t k, seed, s, slot = 0;
    for (k = 0; k < 4; k++) {
        for (seed = 1; seed <= 20; seed++) {
            uint32_t players = 2 + seed % (kinds[k]->max_players - 1u);
            const uint8_t *fl = k == 3 && players == 3 ? fl_prog : NULL;
            CHECK_EQ(ofc_game_init(kinds[k], &g, players, seed % players, fl, seed, NULL),
                     OFC_OK);
            for (;;) {
                CHECK_EQ(ofc_game_state_check(kinds[k], &g, &why), OFC_OK);
                CHECK(why == NULL);
                if (ofc_game_is_over(&g))
                    break;
                CHECK_EQ(ofc_game_random_move(&g, &rng), OFC_OK);
            }
        }
    }
    CHECK_EQ(ofc_game_state_check(&pineapple, NULL, &why), OFC_E_COUNT);
    CHECK_EQ(ofc_game_state_check(NULL, &g, NULL), OFC_E_RULES);
    /* a classic table with a declared natural and a surrender (test_classic_specials's
     * rules pay the dragon) */
    CHECK_EQ(ofc_game_init(&classic, &g, 3, 0, NULL, 5, NULL), OFC_OK);
    CHECK_EQ(ofc_game_surrender(&classic, &g), OFC_OK);
    CHECK_EQ(ofc_game_state_check(&classic, &g, NULL), OFC_OK);
    t = g;
    t.surrendered = 0x05; /* seat 1 surrendered; seat 2 has not set its hand yet */
    refused(&classic, &t, "a surrender before the seat's set");
    t = g;
    t.surrendered = (uint8_t)(g.surrendered | 0x80); /* the C fuzz's case: the deal's
                                                         settlement refused it (OFC_E_SEAT) */
    refused(&classic, &t, "a surrender bit beyond the four seats");
    t = g;
    t.declared[1] = OFC_NAT_DRAGON;
    refused(&classic, &t, "a natural declared with a surrender");
    t = g;
    t.declared[2] = OFC_NAT_DRAGON;
    refused(&classic, &t, "a natural declared before the seat's set");
    classic.table.surrender_cost = -1;
    refused(&classic, &g, "a surrender the rules do not allow");
    classic.table.surrender_cost = 1;
    /* a Pineapple deal of 3 seats (seat 1 in Fantasyland), 6 decisions in */
    CHECK_EQ(ofc_game_init(&progressive, &mid, 3, 0, fl_prog, 9, NULL), OFC_OK);
    for (k = 0; k < 6; k++)
        CHECK_EQ(ofc_game_random_move(&mid, &rng), OFC_OK);
    CHECK_EQ(ofc_game_state_check(&progressive, &mid, NULL), OFC_OK);
    s = mid.steps[5].seat; /* a seat with a discard and cards in some rows */
    t = mid, t.step = 250, t.nsteps = 255;
    refused(&progressive, &t, "step 250 of 255");
    t = mid, t.step = (uint8_t)(t.nsteps + 1);
    refused(&progressive, &t, "step past nsteps");
    t = mid, t.step = 5;
    refused(&progressive, &t, "a step the boards are ahead of");
    t = mid, t.nsteps--;
    refused(&progressive, &t, "nsteps");
    t = mid, t.steps[3].reserved = 1;
    refused(&progressive, &t, "a step's reserved byte");
    t = mid, t.steps[7].start = 60;
    refused(&progressive, &t, "a step's deck position");
    t = mid, t.steps[t.nsteps].n = 3;
    refused(&progressive, &t, "a step past nsteps");
    t = mid, t.players = 5;
    refused(&progressive, &t, "players");
    t = mid, t.button = 3;
    refused(&progressive, &t, "button");
    t = mid, t.kind = OFC_KIND_OFC;
    refused(&progressive, &t, "kind");
    t = mid, t.fl[1] = 18;
    refused(&progressive, &t, "a Fantasyland count");
    t = mid, t.deck[0] = t.deck[1];
    refused(&progressive, &t, "a repeated deck card");
    t = mid, t.deck[51] = 52;
    refused(&progressive, &t, "a deck card id");
    t = mid, t.deck[50] = mid.deck[51], t.deck[51] = mid.deck[50];
    refused(&progressive, &t, "a deck not its seed's");
    t = mid, t.count[s][2] = 6;
    refused(&progressive, &t, "a row count over its size");
    t = mid, t.count[s][0]++, t.count[s][2]--;
    refused(&progressive, &t, "a count moved to another row");
    while (mid.count[s][slot == 0 ? 0 : slot < 8 ? 1 : 2] == 0)
        slot = slot == 0 ? 3 : 8;
    t = mid, t.board[s][slot] = (uint8_t)((mid.board[s][slot] + 1) % 52);
    refused(&progressive, &t, "a board card not dealt to the seat");
    t = mid, t.board[s][slot] = 200;
    refused(&progressive, &t, "a board card id");
    t = mid, t.board[s][12] = mid.deck[51];
    refused(&progressive, &t, "a card past the row's count");
    t = mid, t.discards[s][0] = t.board[s][slot];
    refused(&progressive, &t, "a card both placed and discarded");
    t = mid, t.ndiscards[s] = 200;
    refused(&progressive, &t, "a discard count");
    t = mid, t.discards[s][3] = 0;
    refused(&progressive, &t, "a discard past the count");
    t = mid, t.face_down[s] = (uint16_t)(1u << slot);
    refused(&progressive, &t, "a face-down mark on a face-up card");
    t = mid, t.face_down[1] = 0;
    refused(&progressive, &t, "a Fantasyland set's marks cleared");
    t = mid, t.face_down[s] = 0x8000;
    refused(&progressive, &t, "a face-down mark past the board");
    t = mid, t.declared[0] = OFC_NAT_DRAGON;
    refused(&progressive, &t, "a natural outside classic");
    t = mid, t.surrendered = 1;
    refused(&progressive, &t, "a surrender outside classic");
    t = mid, t.board[3][0] = 7;
    refused(&progressive, &t, "a card of a seat beyond the table");
    t = mid, t.declared[3] = 0;
    refused(&progressive, &t, "a declaration of a seat beyond the table");
    t = mid;
    no_fl = progressive;
    no_fl.fl.enabled = 0;
    refused(&no_fl, &t, "rules without Fantasyland");
}

/* The first row of seat s (front 0, middle 1, back 2) with two cards or more, or 3. */
static uint32_t row_with_two(const ofc_game *g, uint32_t s)
{
    uint32_t row = 0;
    while (row < 3 && g->count[s][row] < 2)
        row++;
    return row;
}

/* The engine puts the cards of a row and the discards in deal order, and lays a
 * declared or surrendered classic hand out itself: a state with the same cards in
 * another order (which another seat's view, the face-down cards included, shows) or
 * a decision the engine refuses (two discards in one Pineapple round, none in
 * another; a natural the hand does not hold) is refused. */
static void test_state_check_order(void)
{
    ofc_game g, t;
    ofc_rng rng = {23, 0};
    uint32_t k, s, row, i, seat_a;
    uint8_t c;
    CHECK_EQ(ofc_game_init(&pineapple, &g, 2, 0, NULL, 31, NULL), OFC_OK);
    for (k = 0; k < 6; k++) /* both seats: an opening and two rounds */
        CHECK_EQ(ofc_game_random_move(&g, &rng), OFC_OK);
    CHECK_EQ(ofc_game_state_check(&pineapple, &g, NULL), OFC_OK);
    for (s = 0; s < 2; s++) {
        CHECK_EQ(g.ndiscards[s], 2);
        t = g, t.discards[s][0] = g.discards[s][1], t.discards[s][1] = g.discards[s][0];
        refused(&pineapple, &t, "two discards swapped");
        row = row_with_two(&g, s);
        CHECK(row < 3);
        i = row == 0 ? 0u : 5u * row - 2u; /* the row's first slot */
        t = g, t.board[s][i] = g.board[s][i + 1], t.board[s][i + 1] = g.board[s][i];
        refused(&pineapple, &t, "two cards of a row swapped");
    }
    /* seat 1 acts first: its round-1 discard (discards[1][0]) kept and its round-2
     * discard's place taken by a round-1 card, so round 1 discards 2 and round 2 none */
    s = g.steps[0].seat;
    t = g;
    for (i = 0; i < 13; i++) /* a card of its round 1 (deck start..start+2) on the board */
        for (k = 0; k < 3; k++)
            if (t.board[s][i] == g.deck[g.steps[2].start + k]) {
                c = t.board[s][i];
                t.board[s][i] = g.discards[s][1];
                t.discards[s][1] = c;
                i = 13;
                break;
            }
    CHECK(t.discards[s][1] != g.discards[s][1]);
    refused(&pineapple, &t, "two discards in one round, none in another");
    /* a surrendered classic hand rearranged; a natural its cards do not make */
    CHECK_EQ(ofc_game_init(&classic, &g, 2, 0, NULL, 5, NULL), OFC_OK);
    seat_a = g.steps[0].seat;
    CHECK_EQ(ofc_game_surrender(&classic, &g), OFC_OK);
    CHECK_EQ(ofc_game_state_check(&classic, &g, NULL), OFC_OK);
    t = g, t.board[seat_a][8] = g.board[seat_a][9], t.board[seat_a][9] = g.board[seat_a][8];
    refused(&classic, &t, "a surrendered hand rearranged");
    t = g, t.surrendered = 0, t.declared[seat_a] = OFC_NAT_DRAGON; /* the rules pay it */
    refused(&classic, &t, "a natural the hand does not make");
}

int main(void)
{
    game_rules_setup(&pineapple, &ofc_r, &classic, &progressive);
    test_state_check();
    test_state_check_order();
    printf("test_game_state: %d checks, %d failures\n", checks, failures);
    return failures != 0;
}
