/* test_vecenv_checks.c -- C-level tests of what csrc/include/ofc_vecenv.h refuses: a
 * configuration (ofc_vecenv_config_init(), ofc_vecenv_config_check(), reset and step
 * with an unchecked one), an illegal decision (nothing changes, the decisions given
 * before it are taken back), a damaged slot (ofc_vecenv_slot_check()), the rows
 * ofc_vecenv_write_rows() writes, and output or decision arrays laid over the slots or
 * the configuration.  The play itself: tests/c/test_vecenv.c.
 *
 * Built by tests/c/run.sh with -std=c99 -Wall -Wextra -Werror -pedantic, plain and under
 * AddressSanitizer + UndefinedBehaviorSanitizer. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "vecenv_env.h"

static ofc_game_rules pineapple, ofc_r;

static void test_illegal_changes_nothing(void)
{
    static env e;
    static ofc_vecenv_slot before[N];
    uint8_t place[N][OFC_GAME_MAX_DEALT];
    uint32_t bad = 99, i;
    env_init(&e, &pineapple, 2, 1);
    CHECK_EQ(ofc_vecenv_reset(&e.c, e.slots, 0, N, 1, &e.out), OFC_OK);
    memcpy(before, e.slots, sizeof before);
    for (i = 0; i < N; i++)
        e.actions[i] = e.legal[i][0];
    e.actions[5] = 0; /* five cards to the front */
    CHECK_EQ(ofc_vecenv_step(&e.c, e.slots, 0, N, e.actions, NULL, NULL, &e.out, &bad),
             OFC_E_ACTION);
    CHECK_EQ(bad, 5);
    e.actions[5] = 243;
    CHECK_EQ(ofc_vecenv_step(&e.c, e.slots, 0, N, e.actions, NULL, NULL, &e.out, &bad),
             OFC_E_ACTION);
    e.actions[5] = OFC_VE_NO_ACTION;
    CHECK_EQ(ofc_vecenv_step(&e.c, e.slots, 0, N, e.actions, NULL, NULL, &e.out, &bad),
             OFC_E_COUNT);
    memset(place, 0, sizeof place); /* five cards to the front */
    CHECK_EQ(ofc_vecenv_step(&e.c, e.slots, 0, N, e.actions, &place[0][0], NULL, &e.out,
                             &bad), OFC_E_ROW_FULL);
    place[5][0] = 7;
    CHECK_EQ(ofc_vecenv_step(&e.c, e.slots, 0, N, e.actions, &place[0][0], NULL, &e.out,
                             &bad), OFC_E_DESTINATION);
    CHECK(memcmp(before, e.slots, sizeof before) == 0);
    CHECK_EQ(ofc_vecenv_step(&e.c, e.slots, 0, N + 1, e.actions, NULL, NULL, &e.out, &bad),
             OFC_E_COUNT);
    CHECK_EQ(ofc_vecenv_step(&e.c, e.slots, 0, N, NULL, NULL, NULL, &e.out, &bad),
             OFC_E_COUNT);
    CHECK(memcmp(before, e.slots, sizeof before) == 0);
    /* a placement that is legal plays (the opening: 2 front, 3 middle) */
    place[5][0] = place[5][1] = 0;
    place[5][2] = place[5][3] = place[5][4] = 1;
    CHECK_EQ(ofc_vecenv_step(&e.c, e.slots, 5, 1, e.actions, &place[0][0], NULL, &e.out,
                             &bad), OFC_OK);
    CHECK(memcmp(&before[4], &e.slots[4], sizeof before[4]) == 0);
    CHECK(memcmp(&before[5], &e.slots[5], sizeof before[5]) != 0);
}

/* A refused decision after the others were given theirs: they are taken back byte for
 * byte (discards and face-down cards included: every round face down), through whole
 * deals and the next ones, and the same decisions then play. */
static void test_refused_takes_back(void)
{
    static env e;
    static ofc_game_rules hidden;
    static ofc_vecenv_slot before[N];
    uint32_t bad = 99, i, t;
    hidden = pineapple;
    hidden.face_down_final = 4;
    env_init(&e, &hidden, 2, 3);
    CHECK_EQ(ofc_vecenv_reset(&e.c, e.slots, 0, N, 1, &e.out), OFC_OK);
    for (t = 0; t < 24; t++) {
        memcpy(before, e.slots, sizeof before);
        for (i = 0; i < N; i++)
            e.actions[i] = e.legal[i][ofc_rng_below(&e.rng, (uint64_t)e.legal_count[i])];
        e.actions[N - 1] = OFC_ACTION_SPACE;
        CHECK_EQ(ofc_vecenv_step(&e.c, e.slots, 0, N, e.actions, NULL, NULL, &e.out, &bad),
                 OFC_E_ACTION);
        CHECK_EQ(bad, N - 1);
        CHECK(memcmp(before, e.slots, sizeof before) == 0);
        e.actions[N - 1] = e.legal[N - 1][0];
        CHECK_EQ(ofc_vecenv_step(&e.c, e.slots, 0, N, e.actions, NULL, NULL, &e.out, &bad),
                 OFC_OK);
        for (i = 0; i < N; i++)
            CHECK_EQ(ofc_vecenv_slot_check(&e.c, &e.slots[i], NULL), OFC_OK);
    }
}

/* A table that can need more than 52 cards in a deal is refused up front
 * (OFC_E_DECK): 4 OFC seats take 52 cards, so one seat's 14-card Fantasyland would
 * need 53, and a step would fail halfway (the deal booked, the next one not dealt). */
static void test_config_deck(void)
{
    ofc_vecenv_config c;
    ofc_game_rules r = ofc_r; /* OFC, 4 seats, Fantasyland of 14 cards */
    CHECK_EQ(ofc_vecenv_config_init(&c, &r, 4, 4, 0), OFC_E_DECK);
    CHECK_EQ(ofc_vecenv_config_init(&c, &r, 4, 3, 0), OFC_OK); /* 3 x 14 = 42 */
    r.fl.stay_cards = 17;                                      /* 3 x 17 = 51 */
    CHECK_EQ(ofc_vecenv_config_init(&c, &r, 4, 3, 0), OFC_OK);
    r.fl.enabled = 0;                                          /* 4 x 13 = 52 */
    CHECK_EQ(ofc_vecenv_config_init(&c, &r, 4, 4, 0), OFC_OK);
    r = pineapple;                                             /* 3 x 17 = 51 */
    r.fl.lowball_both = 17;
    CHECK_EQ(ofc_vecenv_config_init(&c, &r, 4, 3, 0), OFC_OK);
    r.max_players = 4;
    r.table.max_players = 4;
    r.fl.enabled = 0;                                          /* 4 x 17 = 68 */
    CHECK_EQ(ofc_vecenv_config_init(&c, &r, 4, 4, 0), OFC_E_DECK);
}

/* The encoding's 2-7 byte (780 + 42) is the rules' 2-7 middle: ofc_vecenv_config_init
 * takes it from them (it wrote 0 for 2-7 rules, so every observation and feature
 * vector said "not 2-7"), and ofc_vecenv_config_check refuses a flag that disagrees
 * with them. */
static void test_config_lowball(void)
{
    static env e;
    ofc_game_rules low = pineapple;
    ofc_vecenv_config c;
    uint32_t i;
    low.scoring.middle_lowball = 1;
    low.scoring.lowball_limit = 1000;
    CHECK_EQ(ofc_game_rules_check(&low), OFC_OK);
    env_init(&e, &low, 2, 5);
    CHECK_EQ(e.c.lowball, 1);
    CHECK_EQ(ofc_vecenv_reset(&e.c, e.slots, 0, N, 1, &e.out), OFC_OK);
    for (i = 0; i < N; i++)
        CHECK_EQ(e.obs[i][OFC_ENC_PLANES * 52 + 42], 1);
    e.c.lowball = 0;
    CHECK_EQ(ofc_vecenv_config_check(&e.c), OFC_E_VALUE);
    CHECK_EQ(ofc_vecenv_config_init(&c, &pineapple, 4, 2, 0), OFC_OK);
    CHECK_EQ(c.lowball, 0);
    c.lowball = 1;
    CHECK_EQ(ofc_vecenv_config_check(&c), OFC_E_VALUE);
}

/* ofc_vecenv_reset and ofc_vecenv_step refuse a configuration that fails
 * ofc_vecenv_config_check, with its error, and change nothing: a learner that is no
 * seat played 1000 deals per environment and said OFC_E_NO_DECISION, an unknown
 * opponents or fantasyland mode or an infinite shaping weight played on. */
static void test_unchecked_config_refused(void)
{
    static env e, before;
    env_init(&e, &pineapple, 2, 21);
    CHECK_EQ(ofc_vecenv_reset(&e.c, e.slots, 0, N, 1, &e.out), OFC_OK);
    e.c.opponents = OFC_VE_RANDOM;
    e.c.learner = 9;
    before = e;
    CHECK_EQ(ofc_vecenv_reset(&e.c, e.slots, 0, N, 1, &e.out), OFC_E_SEATS);
    CHECK_EQ(env_step(&e), OFC_E_SEATS);
    CHECK(memcmp(e.slots, before.slots, sizeof e.slots) == 0);
    CHECK(memcmp(e.obs, before.obs, sizeof e.obs) == 0);
    e.c.learner = 1;
    e.c.opponents = 9;
    CHECK_EQ(ofc_vecenv_reset(&e.c, e.slots, 0, N, 1, &e.out), OFC_E_VALUE);
    e.c.opponents = OFC_VE_SELF;
    e.c.fantasyland = 7;
    CHECK_EQ(env_step(&e), OFC_E_VALUE);
    e.c.fantasyland = OFC_VE_FL_SOLVER;
    e.c.shaping = (float)HUGE_VAL;
    CHECK_EQ(env_step(&e), OFC_E_VALUE);
    e.c.shaping = 0.0f;
    e.c.rules = NULL;
    CHECK_EQ(ofc_vecenv_reset(&e.c, e.slots, 0, N, 1, &e.out), OFC_E_RULES);
    CHECK(memcmp(e.slots, before.slots, sizeof e.slots) == 0);
    e.c.rules = &pineapple;
    CHECK_EQ(env_step(&e), OFC_OK);
}

static void test_config(void)
{
    ofc_vecenv_config c;
    ofc_game_rules classic = pineapple;
    CHECK_EQ(ofc_vecenv_config_init(&c, &pineapple, 4, 3, 0), OFC_OK);
    CHECK_EQ(ofc_vecenv_config_init(&c, &pineapple, 4, 4, 0), OFC_E_SEATS);
    CHECK_EQ(ofc_vecenv_config_init(&c, &pineapple, 0, 2, 0), OFC_E_COUNT);
    CHECK_EQ(ofc_vecenv_config_init(&c, NULL, 4, 2, 0), OFC_E_RULES);
    classic.kind = OFC_KIND_CLASSIC;
    CHECK_EQ(ofc_vecenv_config_init(&c, &classic, 4, 2, 0), OFC_E_RULES);
    CHECK_EQ(ofc_vecenv_config_init(&c, &pineapple, 4, 2, 0), OFC_OK);
    c.opponents = 3;
    CHECK_EQ(ofc_vecenv_config_check(&c), OFC_E_VALUE);
    c.opponents = OFC_VE_RANDOM;
    c.learner = 2;
    CHECK_EQ(ofc_vecenv_config_check(&c), OFC_E_SEATS);
    c.learner = 1;
    c.stay_value[2] = 1e9;
    CHECK_EQ(ofc_vecenv_config_check(&c), OFC_E_VALUE);
    c.stay_value[2] = 0;
    CHECK_EQ(ofc_vecenv_config_check(&c), OFC_OK);
    test_config_deck();
    test_config_lowball();
    test_unchecked_config_refused();
    CHECK(ofc_encoding_scale(0) == 1.0f);
    CHECK(ofc_encoding_scale(780 + 12) == 1.0f / 17.0f);
    CHECK(ofc_encoding_scale(OFC_ENC_SIZE) == 0.0f);
}

/* A slot from outside (a restored VectorEnv): a damaged one is refused before a step
 * reads it (the C fuzz audit's case: step 250 of 255 steps, a read of steps[250] past
 * the 40 steps); the others step as before. */
static void test_slot_check(void)
{
    static env e;
    ofc_vecenv_slot good, *x = &e.slots[1];
    const char *why = NULL;
    uint32_t i;
    env_init(&e, &pineapple, 3, 17);
    CHECK_EQ(ofc_vecenv_reset(&e.c, e.slots, 0, N, 1, &e.out), OFC_OK);
    CHECK_EQ(env_step(&e), OFC_OK);
    for (i = 0; i < N; i++)
        CHECK_EQ(ofc_vecenv_slot_check(&e.c, &e.slots[i], &why), OFC_OK);
    CHECK(why == NULL);
    good = *x;
    x->game.step = 250;
    x->game.nsteps = 255;
    CHECK_EQ(ofc_vecenv_slot_check(&e.c, x, &why), OFC_E_STATE);
    CHECK(why != NULL && strstr(why, "schedule") != NULL);
    *x = good, x->deal = 0;
    CHECK_EQ(ofc_vecenv_slot_check(&e.c, x, &why), OFC_E_STATE);
    *x = good, x->button = 3;
    CHECK_EQ(ofc_vecenv_slot_check(&e.c, x, &why), OFC_E_STATE);
    *x = good, x->fl[0] = 12;
    CHECK_EQ(ofc_vecenv_slot_check(&e.c, x, &why), OFC_E_STATE);
    *x = good, x->fl[3] = 14;
    CHECK_EQ(ofc_vecenv_slot_check(&e.c, x, &why), OFC_E_STATE);
    *x = good, x->potential[0] = NAN;
    CHECK_EQ(ofc_vecenv_slot_check(&e.c, x, &why), OFC_E_STATE);
    *x = good, x->potential[3] = 1.0f;
    CHECK_EQ(ofc_vecenv_slot_check(&e.c, x, &why), OFC_E_STATE);
    *x = good, x->potential[0] = -6.2e-41f; /* the C fuzz's case: no shaping, so 0 */
    CHECK_EQ(ofc_vecenv_slot_check(&e.c, x, &why), OFC_E_STATE);
    *x = good, x->reserved[2] = 1;
    CHECK_EQ(ofc_vecenv_slot_check(&e.c, x, &why), OFC_E_STATE);
    /* mid-deal, the next deal's button and counts are the deal's (its end moves them
     * on): another button would make the next deal's button two seats on */
    *x = good, x->button = (uint8_t)((good.game.button + 1u) % 3u);
    CHECK_EQ(ofc_vecenv_slot_check(&e.c, x, &why), OFC_E_STATE);
    CHECK(why != NULL && strstr(why, "button") != NULL);
    *x = good;
    e.c.players = 2; /* a slot of a 3-seat environment in a 2-seat one */
    CHECK_EQ(ofc_vecenv_slot_check(&e.c, x, &why), OFC_E_STATE);
    e.c.players = 3;
    CHECK_EQ(ofc_vecenv_slot_check(&e.c, NULL, &why), OFC_E_COUNT);
    CHECK_EQ(ofc_vecenv_slot_check(NULL, x, &why), OFC_E_RULES);
    CHECK_EQ(ofc_vecenv_slot_check(&e.c, x, NULL), OFC_OK);
    CHECK_EQ(env_step(&e), OFC_OK);
    /* at a deal's end (no autoreset): the button and counts its end leaves */
    e.c.autoreset = 0;
    while (e.seat[1] >= 0)
        CHECK_EQ(env_step_some(&e, 1), OFC_OK);
    CHECK_EQ(ofc_vecenv_slot_check(&e.c, x, &why), OFC_OK);
    good = *x;
    x->button = (uint8_t)((good.button + 1u) % 3u);
    CHECK_EQ(ofc_vecenv_slot_check(&e.c, x, &why), OFC_E_STATE);
    *x = good, x->fl[2] = (uint8_t)(good.fl[2] ? 0 : 14);
    CHECK_EQ(ofc_vecenv_slot_check(&e.c, x, &why), OFC_E_STATE);
}

/* c->shaping x the royalties of seat s's complete rows (the rules' tables). */
static float board_value(const ofc_vecenv_config *c, const ofc_game *g, uint32_t s)
{
    const uint8_t *b = g->board[s];
    const ofc_rules *r = &c->rules->scoring;
    int32_t total = 0;
    if (g->count[s][0] == 3)
        total += r->royalty[0][ofc_rank3_unchecked(b[0], b[1], b[2])];
    if (g->count[s][1] == 5)
        total += r->royalty[1][ofc_rank5_unchecked(b[3], b[4], b[5], b[6], b[7])];
    if (g->count[s][2] == 5)
        total += r->royalty[2][ofc_rank5_unchecked(b[8], b[9], b[10], b[11], b[12])];
    return c->shaping * (float)total;
}

/* A saved slot's shaping potential is the one the steps leave: the learner's board's
 * after its decision (0 there is refused: the deal's final reward would not take it
 * back), 0 for a random opponent, whose rewards are not shaped (its board's is
 * refused); before, both passed as "0 or its board's". */
static void test_slot_potentials(void)
{
    static env e;
    ofc_vecenv_slot x;
    const char *why = NULL;
    uint32_t t, i, s, found[2] = {0, 0};
    env_init(&e, &pineapple, 3, 21);
    e.c.shaping = 0.5f;
    e.c.opponents = OFC_VE_RANDOM;
    CHECK_EQ(ofc_vecenv_reset(&e.c, e.slots, 0, N, 1, &e.out), OFC_OK);
    for (t = 0; t < 4000 && !(found[0] && found[1]); t++) {
        CHECK_EQ(env_step(&e), OFC_OK);
        for (i = 0; i < N; i++) {
            const ofc_game *g = &e.slots[i].game;
            CHECK_EQ(ofc_vecenv_slot_check(&e.c, &e.slots[i], NULL), OFC_OK);
            x = e.slots[i];
            if (x.potential[0] != 0.0f) {
                x.potential[0] = 0.0f;
                CHECK_EQ(ofc_vecenv_slot_check(&e.c, &x, &why), OFC_E_STATE);
                found[0] = 1;
            }
            for (s = 1; s < 3; s++) {
                x = e.slots[i];
                CHECK(x.potential[s] == 0.0f);
                if (board_value(&e.c, g, s) != 0.0f) {
                    x.potential[s] = board_value(&e.c, g, s);
                    CHECK_EQ(ofc_vecenv_slot_check(&e.c, &x, &why), OFC_E_STATE);
                    CHECK(why != NULL && strstr(why, "potential") != NULL);
                    found[1] = 1;
                }
            }
        }
    }
    CHECK(found[0] && found[1]);
}

/* The rows a step writes are the rows ofc_vecenv_write_rows() writes from the slots
 * alone (a restored VectorEnv's), across deal ends; its range is checked. */
static void test_write_rows(void)
{
    static env e, w;
    uint32_t i, k;
    env_init(&e, &pineapple, 3, 23);
    CHECK_EQ(ofc_vecenv_reset(&e.c, e.slots, 0, N, 1, &e.out), OFC_OK);
    for (k = 0; k < 40; k++) {
        env_init(&w, &pineapple, 3, 23);
        memset(w.obs, 0xAB, sizeof w.obs);
        memset(w.mask, 0xAB, sizeof w.mask);
        memset(w.seat, 0x55, sizeof w.seat);
        memset(w.full, 0xAB, sizeof w.full);
        CHECK_EQ(ofc_vecenv_write_rows(&e.c, e.slots, 0, N, &w.out), OFC_OK);
        for (i = 0; i < N; i++) {
            CHECK_EQ(w.seat[i], e.seat[i]);
            CHECK_EQ(w.full[i], e.full[i]);
            CHECK_EQ(w.legal_count[i], e.legal_count[i]);
            CHECK(memcmp(w.legal[i], e.legal[i], (size_t)e.legal_count[i]) == 0);
            CHECK(memcmp(w.mask[i], e.mask[i], OFC_ACTION_SPACE) == 0);
            CHECK(memcmp(w.obs[i], e.obs[i], OFC_ENC_SIZE) == 0);
        }
        CHECK_EQ(env_step(&e), OFC_OK);
    }
    CHECK_EQ(ofc_vecenv_write_rows(&e.c, e.slots, 1, N, &w.out), OFC_E_COUNT);
    CHECK_EQ(ofc_vecenv_write_rows(&e.c, NULL, 0, N, &w.out), OFC_E_COUNT);
}

/* Regression: a C caller whose output array (or actions, placements, active flags) was
 * laid over the slots got its environments' state overwritten: a reset, a step or
 * ofc_vecenv_write_rows() writes environment i's rows while the slots after it are
 * still to be read, and a step gives each block of decisions to the slots before it
 * reads the next block.  Now such a call is refused with OFC_E_VALUE before anything
 * is written.  The outputs may share bytes with the decisions: every decision is read
 * before any output is written (the same steps as with separate arrays). */
static void test_slots_overlap_refused(void)
{
    static env e, a, b;
    static ofc_vecenv_slot saved[N];
    static int64_t shared[N * OFC_GAME_MAX_SEATS / 2]; /* b's final rewards, b's actions */
    uint8_t *slot_bytes = (uint8_t *)e.slots, *last_byte = slot_bytes + sizeof e.slots - 1;
    ofc_vecenv_out o;
    uint32_t i, k, bad = 99;
    uint8_t active[N];
    env_init(&e, &pineapple, 2, 31);
    CHECK_EQ(ofc_vecenv_reset(&e.c, e.slots, 0, N, 1, &e.out), OFC_OK);
    for (i = 0; i < N; i++)
        e.actions[i] = e.legal[i][0];
    memcpy(saved, e.slots, sizeof saved);
    o = e.out;
    o.rewards = (float *)(void *)&e.slots[N - 1]; /* the last slot */
    CHECK_EQ(ofc_vecenv_reset(&e.c, e.slots, 0, N, 1, &o), OFC_E_VALUE);
    CHECK_EQ(ofc_vecenv_write_rows(&e.c, e.slots, 0, N, &o), OFC_E_VALUE);
    CHECK_EQ(ofc_vecenv_step(&e.c, e.slots, 0, N, e.actions, NULL, NULL, &o, &bad),
             OFC_E_VALUE);
    o = e.out;
    o.final_obs = last_byte; /* the slots' last byte */
    CHECK_EQ(ofc_vecenv_step(&e.c, e.slots, 0, N, e.actions, NULL, NULL, &o, &bad),
             OFC_E_VALUE);
    CHECK_EQ(ofc_vecenv_step(&e.c, e.slots, 0, N, (const int64_t *)(void *)&e.slots[2],
                             NULL, NULL, &e.out, &bad),
             OFC_E_VALUE);
    CHECK_EQ(ofc_vecenv_step(&e.c, e.slots, 0, N, e.actions, last_byte, NULL, &e.out, &bad),
             OFC_E_VALUE);
    CHECK_EQ(ofc_vecenv_step(&e.c, e.slots, 0, N, e.actions, NULL, slot_bytes, &e.out, &bad),
             OFC_E_VALUE);
    CHECK(memcmp(saved, e.slots, sizeof saved) == 0 && bad == 99); /* nothing changed */
    memset(active, 1, sizeof active);
    CHECK_EQ(ofc_vecenv_step(&e.c, e.slots, 0, N, e.actions, NULL, active, &e.out, &bad),
             OFC_OK); /* the output arrays next to the slots: not over them */
    /* outputs over the decisions: the same steps as with separate arrays */
    env_init(&a, &pineapple, 2, 37);
    env_init(&b, &pineapple, 2, 37);
    b.out.final_rewards = (float *)(void *)shared;
    CHECK_EQ(ofc_vecenv_reset(&a.c, a.slots, 0, N, 1, &a.out), OFC_OK);
    CHECK_EQ(ofc_vecenv_reset(&b.c, b.slots, 0, N, 1, &b.out), OFC_OK);
    for (k = 0; k < 30; k++) {
        CHECK_EQ(env_step(&a), OFC_OK);
        memcpy(shared, a.actions, sizeof a.actions);
        CHECK_EQ(ofc_vecenv_step(&b.c, b.slots, 0, N, shared, NULL, NULL, &b.out, &bad),
                 OFC_OK);
        CHECK(memcmp(a.slots, b.slots, sizeof a.slots) == 0);
        CHECK(memcmp(a.obs, b.obs, sizeof a.obs) == 0);
        CHECK(memcmp(a.rewards, b.rewards, sizeof a.rewards) == 0);
        CHECK(memcmp(a.final_rewards, shared, sizeof a.final_rewards) == 0);
    }
}

/* Regression: a C caller whose output array was laid over the configuration, its rules
 * or its tie-break tables (or whose slots held the configuration) had them overwritten
 * in the middle of the call: a reset zeroed rewards[0] over c->rules and the next
 * environment read the rules through a broken pointer (a crash), an output over the
 * rules changed the deals played, and ofc_vecenv_config_init() laid over its rules
 * zeroed them before reading them.  Now each call is refused with OFC_E_VALUE before
 * anything is written. */
static void test_config_overlap_refused(void)
{
    static env e;
    static ofc_vecenv_slot saved[N];
    static struct {
        ofc_game_rules r;
        uint8_t tail[N * OFC_ENC_SIZE];
    } big;
    static struct {
        ofc_ev_tables t;
        uint8_t tail[N * OFC_ENC_SIZE];
    } ev;
    static union {
        ofc_game_rules r;
        ofc_vecenv_config c;
    } both;
    static ofc_game_rules rules_before;
    uint8_t *rules_last = (uint8_t *)&big + sizeof big.r - 1;
    ofc_vecenv_config c_before, *in_slot = (ofc_vecenv_config *)(void *)&e.slots[N - 1];
    ofc_vecenv_out o;
    uint32_t i, bad = 99;
    big.r = pineapple;
    CHECK_EQ(ofc_ev_tables_init(&pineapple.scoring, &ev.t), OFC_OK);
    env_init(&e, &big.r, 2, 41);
    e.c.ev = &ev.t;
    CHECK_EQ(ofc_vecenv_reset(&e.c, e.slots, 0, N, 1, &e.out), OFC_OK);
    for (i = 0; i < N; i++)
        e.actions[i] = e.legal[i][0];
    memcpy(saved, e.slots, sizeof saved);
    c_before = e.c;
    o = e.out;
    o.rewards = (float *)(void *)&e.c; /* over the configuration */
    CHECK_EQ(ofc_vecenv_reset(&e.c, e.slots, 0, N, 1, &o), OFC_E_VALUE);
    CHECK_EQ(ofc_vecenv_step(&e.c, e.slots, 0, N, e.actions, NULL, NULL, &o, &bad),
             OFC_E_VALUE);
    CHECK_EQ(ofc_vecenv_write_rows(&e.c, e.slots, 0, N, &o), OFC_E_VALUE);
    CHECK(memcmp(&c_before, &e.c, sizeof c_before) == 0);
    o = e.out;
    o.mask = rules_last; /* the rules' last byte */
    CHECK_EQ(ofc_vecenv_reset(&e.c, e.slots, 0, N, 1, &o), OFC_E_VALUE);
    CHECK_EQ(ofc_vecenv_write_rows(&e.c, e.slots, 0, N, &o), OFC_E_VALUE);
    o = e.out;
    o.final_obs = (uint8_t *)&ev + sizeof ev.t - 1; /* the tables' */
    CHECK_EQ(ofc_vecenv_step(&e.c, e.slots, 0, N, e.actions, NULL, NULL, &o, &bad),
             OFC_E_VALUE);
    CHECK(memcmp(&big.r, &pineapple, sizeof pineapple) == 0);
    /* the configuration inside the slots a reset writes */
    memcpy(in_slot, &e.c, sizeof e.c);
    CHECK_EQ(ofc_vecenv_reset(in_slot, e.slots, 0, N, 1, &e.out), OFC_E_VALUE);
    CHECK_EQ(ofc_vecenv_step(in_slot, e.slots, 0, N, e.actions, NULL, NULL, &e.out, &bad),
             OFC_E_VALUE);
    CHECK(memcmp(in_slot, &e.c, sizeof e.c) == 0 && bad == 99);
    e.slots[N - 1] = saved[N - 1];
    CHECK(memcmp(saved, e.slots, sizeof saved) == 0); /* nothing changed */
    /* a configuration filled over its own rules */
    both.r = pineapple;
    rules_before = both.r;
    CHECK_EQ(ofc_vecenv_config_init(&both.c, &both.r, N, 2, 0), OFC_E_VALUE);
    CHECK(memcmp(&both.r, &rules_before, sizeof rules_before) == 0);
    /* next to them, not over them: the call plays */
    CHECK_EQ(ofc_vecenv_step(&e.c, e.slots, 0, N, e.actions, NULL, NULL, &e.out, &bad),
             OFC_OK);
}

int main(void)
{
    env_rules(&pineapple, &ofc_r);
    test_config();
    test_illegal_changes_nothing();
    test_refused_takes_back();
    test_slot_check();
    test_slot_potentials();
    test_write_rows();
    test_slots_overlap_refused();
    test_config_overlap_refused();
    printf("test_vecenv_checks: %d checks, %d failures\n", checks, failures);
    return failures != 0;
}
