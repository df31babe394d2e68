/* test_vecenv.c -- C-level tests of csrc/include/ofc_vecenv.h: self-play against a replay of
 * the same deals through the game engine alone (deal seeds, button, Fantasyland by the
 * solver, results), masks and encodings, validation (an illegal action changes
 * nothing: tests/c/test_vecenv_checks.c, with the configuration, slot and overlap
 * checks), random opponents, no hidden card in any encoding, the bound on deals
 * without an agent decision (OFC_E_NO_DECISION), and two threads stepping two vector
 * environments at once (the same bytes as one after the other).
 *
 * Built by tests/c/run.sh with -std=c99 -Wall -Wextra -Werror -pedantic, plain and under
 * AddressSanitizer + UndefinedBehaviorSanitizer. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vecenv_env.h"

static ofc_game_rules pineapple, ofc_r, ofc_r4;

/* ------------------------------------------------------- the reference match */

typedef struct ref_match {
    ofc_game g;
    uint64_t seed, deal;
    uint8_t button, fl[4];
} ref_match;

static void ref_fantasyland(const ofc_game_rules *r, ofc_game *g)
{
    ofc_decision d;
    while (ofc_game_decision(g, &d) == OFC_OK && d.full) {
        ofc_fl_solution sol;
        uint8_t dest[OFC_GAME_MAX_DEALT];
        double stay[5] = {0, 0, 0, 0, 0};
        uint32_t i, j;
        CHECK_EQ(ofc_solve_fantasyland(&r->scoring, &r->fl, NULL, d.dealt, d.n, stay, 0,
                                       &sol), OFC_OK);
        for (i = 0; i < d.n; i++) {
            dest[i] = OFC_DISCARD;
            for (j = 0; j < 13; j++)
                if (sol.best.board[j] == d.dealt[i])
                    dest[i] = (uint8_t)(j < 3 ? 0 : j < 8 ? 1 : 2);
        }
        CHECK_EQ(ofc_game_apply_placement(g, dest, d.n), OFC_OK);
    }
}

static void ref_deal(const ofc_game_rules *r, ref_match *m, uint32_t players)
{
    CHECK_EQ(ofc_game_init(r, &m->g, players, m->button, m->fl,
                           ofc_deal_seed(m->seed, m->deal++), NULL), OFC_OK);
    ref_fantasyland(r, &m->g);
}

/* Books a finished deal; checks the env's final rewards. */
static void ref_finish(const ofc_game_rules *r, ref_match *m, uint32_t players,
                       const float *final_)
{
    ofc_game_result res;
    uint32_t s, any = 0;
    CHECK_EQ(ofc_game_result_get(r, &m->g, NULL, 0, &res), OFC_OK);
    for (s = 0; s < players; s++) {
        CHECK_EQ((int32_t)final_[s], res.net[s]);
        m->fl[s] = res.fl_next[s];
        any |= res.fl_next[s];
    }
    if (!any) /* PINEAPPLE freezes the button for a Fantasyland deal */
        m->button = (uint8_t)((m->button + 1u) % players);
    ref_deal(r, m, players);
}

/* Cards `seat` may know in g: its board, discards and pending cards, the others'
 * face-up cards (every board once over). */
static void knowable(const ofc_game *g, uint32_t seat, uint8_t known[52])
{
    uint32_t s, slot, i, over = (uint32_t)ofc_game_is_over(g);
    ofc_decision d;
    memset(known, 0, 52);
    for (s = 0; s < g->players; s++)
        for (slot = 0; slot < 13; slot++)
            if (g->board[s][slot] < 52
                && (s == seat || over || !(g->face_down[s] >> slot & 1u)))
                known[g->board[s][slot]] = 1;
    for (i = 0; i < g->ndiscards[seat]; i++)
        known[g->discards[seat][i]] = 1;
    if (ofc_game_decision(g, &d) == OFC_OK && d.seat == seat)
        for (i = 0; i < d.n; i++)
            known[d.dealt[i]] = 1;
}

static void check_encoding(const uint8_t *x, const ofc_game *g, uint32_t seat)
{
    uint8_t known[52], want[OFC_ENC_SIZE];
    uint32_t p, c;
    knowable(g, seat, known);
    for (p = 0; p < 14; p++)
        for (c = 0; c < 52; c++)
            if (x[p * 52 + c])
                CHECK(known[c]);
    for (c = 0; c < 52; c++)
        CHECK_EQ(x[14 * 52 + c], !known[c]);
    CHECK_EQ(ofc_encode_game(g, seat, 0, want), OFC_OK);
    CHECK(memcmp(x, want, OFC_ENC_SIZE) == 0);
}

static void test_self_play(const ofc_game_rules *r, uint32_t players, uint64_t seed)
{
    static env e;
    ref_match m[N];
    uint32_t i, t, s, deals = 0;
    env_init(&e, r, players, seed);
    e.c.button_frozen = 1;
    CHECK_EQ(ofc_vecenv_reset(&e.c, e.slots, 0, N, 1, &e.out), OFC_OK);
    for (i = 0; i < N; i++) {
        memset(&m[i], 0, sizeof m[i]);
        m[i].seed = ofc_deal_seed(seed, i);
        ref_deal(r, &m[i], players);
    }
    for (t = 0; t < 400; t++) {
        for (i = 0; i < N; i++) {
            uint8_t mask[OFC_ACTION_SPACE];
            CHECK_EQ(e.seat[i], ofc_game_to_act(&m[i].g));
            CHECK_EQ(ofc_game_action_mask(&m[i].g, mask), e.legal_count[i]);
            CHECK(memcmp(mask, e.mask[i], OFC_ACTION_SPACE) == 0);
            check_encoding(e.obs[i], &m[i].g, (uint32_t)e.seat[i]);
            for (s = 0; s < players && t % 16 == 0; s++) {
                uint8_t x[OFC_ENC_SIZE];
                CHECK_EQ(ofc_encode_game(&m[i].g, s, 0, x), OFC_OK);
                check_encoding(x, &m[i].g, s);
            }
        }
        CHECK_EQ(env_step(&e), OFC_OK);
        for (i = 0; i < N; i++) {
            CHECK_EQ(ofc_vecenv_slot_check(&e.c, &e.slots[i], NULL), OFC_OK);
            CHECK_EQ(ofc_game_apply_action(&m[i].g, (uint32_t)e.actions[i]), OFC_OK);
            ref_fantasyland(r, &m[i].g);
            CHECK_EQ(e.terminations[i], ofc_game_is_over(&m[i].g));
            CHECK_EQ(e.truncations[i], 0);
            if (e.terminations[i]) {
                ref_finish(r, &m[i], players, e.final_rewards[i]);
                deals++;
            }
        }
    }
    CHECK(deals >= 400u * N / (players * 13u));
}

static void test_random_opponents(void)
{
    static env e;
    uint32_t t, i, ended = 0;
    env_init(&e, &pineapple, 3, 9);
    e.c.opponents = OFC_VE_RANDOM;
    e.c.learner = 2;
    CHECK_EQ(ofc_vecenv_reset(&e.c, e.slots, 0, N, 1, &e.out), OFC_OK);
    for (t = 0; t < 200; t++) {
        for (i = 0; i < N; i++) {
            CHECK_EQ(e.seat[i], 2);
            check_encoding(e.obs[i], &e.slots[i].game, 2);
        }
        CHECK_EQ(env_step(&e), OFC_OK);
        for (i = 0; i < N; i++) {
            float sum = e.final_rewards[i][0] + e.final_rewards[i][1] + e.final_rewards[i][2];
            CHECK(sum == 0.0f);
            if (e.terminations[i]) {
                CHECK(e.rewards[i] == e.final_rewards[i][2]);
                ended++;
            } else {
                CHECK(e.rewards[i] == 0.0f);
            }
        }
    }
    CHECK(ended > 100);
}

/* final_obs: at a deal's end under autoreset, the learner's encoding of that end, as
 * a twin without autoreset shows it (its row at the end), played with the same
 * actions; the twin then deals on (a restart-free reset) as autoreset did. */
static void test_final_obs(void)
{
    static env a, b;
    uint32_t t, i, bad = 99, ended = 0;
    env_init(&a, &pineapple, 2, 4);
    env_init(&b, &pineapple, 2, 4);
    a.c.opponents = b.c.opponents = OFC_VE_RANDOM;
    b.c.autoreset = 0;
    CHECK_EQ(ofc_vecenv_reset(&a.c, a.slots, 0, N, 1, &a.out), OFC_OK);
    CHECK_EQ(ofc_vecenv_reset(&b.c, b.slots, 0, N, 1, &b.out), OFC_OK);
    for (t = 0; t < 60; t++) {
        CHECK_EQ(env_step(&a), OFC_OK);
        CHECK_EQ(ofc_vecenv_step(&b.c, b.slots, 0, N, a.actions, NULL, NULL, &b.out, &bad),
                 OFC_OK);
        for (i = 0; i < N; i++) {
            CHECK_EQ(a.terminations[i], b.terminations[i]);
            if (!a.terminations[i])
                continue;
            ended++;
            CHECK_EQ(b.seat[i], -1);
            CHECK(memcmp(a.final_obs[i], b.obs[i], OFC_ENC_SIZE) == 0);
            CHECK(memcmp(b.final_obs[i], b.obs[i], OFC_ENC_SIZE) == 0);
            while (b.seat[i] < 0) /* deals the learner sits out, as autoreset */
                CHECK_EQ(ofc_vecenv_reset(&b.c, b.slots, i, 1, 0, &b.out), OFC_OK);
            CHECK(memcmp(a.obs[i], b.obs[i], OFC_ENC_SIZE) == 0);
        }
    }
    CHECK(ended > 50);
}

/* Rules under which a seat stays in Fantasyland with certainty: any clean front of a
 * high card or better enters (strength 1: one above the weakest front) and any clean
 * back stays (strength 1).  The solver's set is always clean, so once the learner
 * enters, no deal has a decision of its own again. */
static void stay_forever_rules(ofc_game_rules *r)
{
    *r = pineapple;
    r->fl.n_entry = 1;
    r->fl.entry_front[0] = 1;
    r->fl.entry_cards[0] = 14;
    r->fl.stay_front = 0;
    r->fl.stay_middle = 0;
    r->fl.stay_back = 1;
    CHECK_EQ(ofc_game_rules_check(r), OFC_OK);
}

/* A step (then a reset) that would play deals without an agent decision forever
 * returns OFC_E_NO_DECISION after OFC_VE_MAX_SKIPPED_DEALS of them (before: it never
 * returned), steps the other environments, and leaves the stuck one at the end of a
 * deal (seat -1, no decision pending) from which a restart plays again.  Environments
 * 0 and 1 of N are stepped (the others are not touched). */
static void test_no_decision_is_bounded(void)
{
    static env e;
    static ofc_game_rules r;
    uint32_t t, i, bad = 99, stuck = 0;
    uint64_t deals[2];
    int32_t rc = OFC_OK;
    stay_forever_rules(&r);
    env_init(&e, &r, 2, 5);
    e.c.opponents = OFC_VE_RANDOM;
    e.c.button_frozen = 1;
    CHECK_EQ(ofc_vecenv_reset(&e.c, e.slots, 0, 2, 1, &e.out), OFC_OK);
    for (t = 0; t < 400 && rc == OFC_OK; t++) {
        for (i = 0; i < 2; i++) {
            deals[i] = e.slots[i].deal;
            e.actions[i] = e.legal[i][ofc_rng_below(&e.rng, (uint64_t)e.legal_count[i])];
        }
        rc = ofc_vecenv_step(&e.c, e.slots, 0, 2, e.actions, NULL, NULL, &e.out, &bad);
    }
    CHECK_EQ(rc, OFC_E_NO_DECISION);
    CHECK(bad < 2);
    if (bad >= 2)
        return;
    stuck = bad;
    CHECK_EQ(e.seat[stuck], -1);
    CHECK_EQ(e.terminations[stuck], 1);
    CHECK_EQ(e.legal_count[stuck], 0);
    CHECK(e.slots[stuck].game.step >= e.slots[stuck].game.nsteps); /* a deal's end */
    CHECK(e.slots[stuck].fl[0] >= 14);                 /* the learner stays again */
    CHECK_EQ(e.slots[stuck].deal - deals[stuck], OFC_VE_MAX_SKIPPED_DEALS);
    for (i = 0; i < 2; i++) /* the other one was stepped too (or is stuck as well) */
        CHECK(e.slots[i].deal > deals[i] || e.slots[i].game.step > 0);
    CHECK(e.seat[1 - stuck] == 0 || e.seat[1 - stuck] == -1);
    /* no decision is pending there: a step is refused whole */
    CHECK_EQ(ofc_vecenv_step(&e.c, e.slots, stuck, 1, e.actions, NULL, NULL, &e.out, &bad),
             OFC_E_GAME_OVER);
    /* the next deal carries the same Fantasyland: a reset is bounded the same way */
    deals[0] = e.slots[stuck].deal;
    CHECK_EQ(ofc_vecenv_reset(&e.c, e.slots, stuck, 1, 0, &e.out), OFC_E_NO_DECISION);
    CHECK_EQ(e.slots[stuck].deal - deals[0], OFC_VE_MAX_SKIPPED_DEALS);
    CHECK_EQ(e.seat[stuck], -1);
    /* a restart deals from deal 0 without Fantasyland: the learner decides */
    CHECK_EQ(ofc_vecenv_reset(&e.c, e.slots, stuck, 1, 1, &e.out), OFC_OK);
    CHECK_EQ(e.seat[stuck], 0);
    CHECK(e.legal_count[stuck] > 0);
    CHECK_EQ(e.slots[stuck].deal, 1);
}

#ifdef OFC_TEST_WRAP_ALLOC
/* Linked with -Wl,--wrap=ofc_bnb_alloc (CMakeLists.txt, Linux): the Fantasyland
 * solver's work block is not allocated (OFC_E_MEMORY) while fail_alloc is set. */
struct sv_ws;
void *__real_ofc_bnb_alloc(struct sv_ws *w, int n);
void *__wrap_ofc_bnb_alloc(struct sv_ws *w, int n);
static int fail_alloc;

void *__wrap_ofc_bnb_alloc(struct sv_ws *w, int n)
{
    return fail_alloc ? NULL : __real_ofc_bnb_alloc(w, n);
}

/* The solver's OFC_E_MEMORY in the middle of a step: the environments before the
 * failing one are stepped (as a step of them alone steps them), the ones after it are
 * untouched, and it is refused (OFC_E_GAME_OVER) until a reset (before: it was left in
 * the middle of a deal, its Fantasyland set pending, and stepped on from there). */
static void test_solver_memory_error(void)
{
    static env e;
    static ofc_vecenv_slot before[N], failed[N];
    static ofc_game_rules r;
    uint32_t t, i, bad = 99, other = 99;
    int32_t rc = OFC_OK;
    stay_forever_rules(&r); /* the solver sets the learner's Fantasyland hands */
    env_init(&e, &r, 2, 11);
    e.c.opponents = OFC_VE_RANDOM;
    CHECK_EQ(ofc_vecenv_reset(&e.c, e.slots, 0, N, 1, &e.out), OFC_OK);
    fail_alloc = 1;
    for (t = 0; t < 400 && rc == OFC_OK; t++) {
        memcpy(before, e.slots, sizeof before);
        for (i = 0; i < N; i++)
            e.actions[i] = e.legal[i][ofc_rng_below(&e.rng, (uint64_t)e.legal_count[i])];
        rc = ofc_vecenv_step(&e.c, e.slots, 0, N, e.actions, NULL, NULL, &e.out, &bad);
    }
    fail_alloc = 0;
    CHECK_EQ(rc, OFC_E_MEMORY);
    CHECK(bad < N);
    if (rc != OFC_E_MEMORY || bad >= N)
        return;
    memcpy(failed, e.slots, sizeof failed);
    CHECK(memcmp(failed + bad + 1, before + bad + 1, (N - bad - 1) * sizeof *failed) == 0);
    memcpy(e.slots, before, sizeof before);
    CHECK_EQ(ofc_vecenv_step(&e.c, e.slots, 0, bad, e.actions, NULL, NULL, &e.out, &other),
             OFC_OK);
    CHECK(memcmp(e.slots, failed, bad * sizeof *failed) == 0);
    memcpy(e.slots, failed, sizeof failed);
    CHECK(e.slots[bad].game.step >= e.slots[bad].game.nsteps);
    CHECK_EQ(ofc_vecenv_step(&e.c, e.slots, bad, 1, e.actions, NULL, NULL, &e.out, &other),
             OFC_E_GAME_OVER);
    CHECK_EQ(ofc_vecenv_reset(&e.c, e.slots, bad, 1, 1, &e.out), OFC_OK);
    CHECK_EQ(e.seat[bad], 0);
    CHECK(e.legal_count[bad] > 0);
}
#endif

/* A hand-made view: seat 1 of 3 sees seat 2's front (relative seat 1) and its own
 * dealt cards; everything else is unseen. */
/* ofc_encode() asks only for non-NULL pointers (its @pre): row counts past a row's
 * size read that row's slots and no byte beyond them, as the counts it already
 * bounded (players, dealt cards, discards).  The last seat's back holds 5 cards; a
 * count of 255 there encodes as a count of 5 (before: a read of 250 bytes past the
 * struct). */
static void test_encode_counts(void)
{
    static ofc_observation o[2];
    uint8_t x[OFC_ENC_SIZE], y[OFC_ENC_SIZE], back[5];
    uint32_t i;
    memset(o, 0, sizeof o);
    for (i = 0; i < 2; i++) {
        memset(o[i].board, OFC_NO_CARD, sizeof o[i].board);
        o[i].players = 4;
        o[i].kind = OFC_KIND_OFC;
        CHECK_EQ(test_cards("As Ks Qs Js Ts", back), 5);
        memcpy(o[i].board[3] + 8, back, 5);
    }
    o[0].count[3][2] = 5;
    o[1].count[3][2] = 255;
    o[1].count[2][0] = 9; /* a front of 9: its 3 slots */
    ofc_encode(&o[0], 0, x);
    ofc_encode(&o[1], 0, y);
    CHECK(memcmp(x, y, OFC_ENC_SIZE) == 0);
    CHECK_EQ(x[11 * 52 + test_card("Ts")], 1); /* relative seat 3, back */
}

static void test_encode_layout(void)
{
    ofc_observation o;
    uint8_t x[OFC_ENC_SIZE], front[3], dealt[3];
    uint32_t c, ones = 0;
    memset(&o, 0, sizeof o);
    memset(o.board, OFC_NO_CARD, sizeof o.board);
    o.seat = 1;
    o.players = 3;
    o.button = 0;
    o.to_act = 1;
    o.kind = OFC_KIND_PINEAPPLE;
    CHECK_EQ(test_cards("As Kd 2c", front), 3);
    memcpy(o.board[2], front, 3);
    o.count[2][0] = 3;
    o.face_down_count[0][2] = 4;
    CHECK_EQ(test_cards("7h 8h 9h", dealt), 3);
    memcpy(o.dealt, dealt, 3);
    o.n = 3;
    o.k = 1;
    o.street = 2;
    ofc_encode(&o, 1, x);
    CHECK_EQ(x[3 * 52 + test_card("As")], 1); /* relative seat 1, front */
    CHECK_EQ(x[3 * 52 + test_card("2c")], 1);
    CHECK_EQ(x[12 * 52 + test_card("8h")], 1);
    CHECK_EQ(x[14 * 52 + test_card("8h")], 0);
    CHECK_EQ(x[14 * 52 + test_card("Qs")], 1);
    for (c = 0; c < 14 * 52; c++)
        ones += x[c];
    CHECK_EQ(ones, 6);
    CHECK_EQ(x[780 + 2], 1);          /* the button: seat 0 = relative seat 2 */
    CHECK_EQ(x[780 + 8], 1);          /* to act: itself */
    CHECK_EQ(x[780 + 16 + 3 * 2 + 2], 4); /* seat 0's face-down back */
    CHECK_EQ(x[780 + 32], 2);
    CHECK_EQ(x[780 + 33], 1);
    CHECK_EQ(x[780 + 41], 1);
    CHECK_EQ(x[780 + 42], 1);
    test_encode_counts();
}

/* --------------------------------------------------------------- two threads */

typedef struct job {
    env *e;
    uint64_t digest;
    int32_t status; /* the first error (CHECK is not thread-safe: checked after join) */
} job;

static void *run_job(void *arg)
{
    job *j = (job *)arg;
    uint32_t t, i, k;
    j->digest = 1469598103934665603u;
    j->status = ofc_vecenv_reset(&j->e->c, j->e->slots, 0, N, 1, &j->e->out);
    for (t = 0; t < 2000 && j->status == OFC_OK; t++) {
        j->status = env_step(j->e);
        for (i = 0; i < N; i++)
            for (k = 0; k < OFC_ENC_SIZE; k += 7)
                j->digest = (j->digest ^ j->e->obs[i][k]) * 1099511628211u;
        for (i = 0; i < N; i++)
            j->digest = (j->digest ^ (uint64_t)(int64_t)j->e->rewards[i]) * 1099511628211u;
    }
    return NULL;
}

static void test_threads(void)
{
    static env a, b;
    job ja = {&a, 0, 0}, jb = {&b, 0, 0};
    uint64_t want_a, want_b;
    pthread_t ta, tb;
    env_init(&a, &pineapple, 2, 11);
    env_init(&b, &ofc_r, 3, 12);
    run_job(&ja);
    run_job(&jb);
    want_a = ja.digest;
    want_b = jb.digest;
    env_init(&a, &pineapple, 2, 11);
    env_init(&b, &ofc_r, 3, 12);
    CHECK_EQ(pthread_create(&ta, NULL, run_job, &ja), 0);
    CHECK_EQ(pthread_create(&tb, NULL, run_job, &jb), 0);
    CHECK_EQ(pthread_join(ta, NULL), 0);
    CHECK_EQ(pthread_join(tb, NULL), 0);
    CHECK_EQ(ja.status, OFC_OK);
    CHECK_EQ(jb.status, OFC_OK);
    CHECK(ja.digest == want_a);
    CHECK(jb.digest == want_b);
    CHECK(want_a != want_b);
}

int main(void)
{
    env_rules(&pineapple, &ofc_r);
    test_encode_layout();
    test_self_play(&pineapple, 2, 1);
    test_self_play(&pineapple, 3, 2);
    test_self_play(&ofc_r, 3, 3);
    ofc_r4 = ofc_r; /* four OFC seats deal all 52 cards: no room for a Fantasyland */
    ofc_r4.fl.enabled = 0;
    test_self_play(&ofc_r4, 4, 3);
    test_random_opponents();
    test_final_obs();
    alarm(120); /* a regression hangs here: SIGALRM fails the test instead */
    test_no_decision_is_bounded();
    alarm(0);
#ifdef OFC_TEST_WRAP_ALLOC
    test_solver_memory_error();
#endif
    test_threads();
    printf("test_vecenv: %d checks, %d failures\n", checks, failures);
    return failures != 0;
}
