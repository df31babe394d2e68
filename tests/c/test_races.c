/* test_races.c -- a caller's thread writing an input while a call reads it.
 *
 * ofc_fast.h ("Threads"): a validating function reads each input byte once, validates
 * that copy and uses only it, so such a writer can make a call fail validation or be
 * answered as some snapshot of its input, never make it read out of bounds.  Here a
 * second thread flips one input byte between a valid and an invalid value while the
 * main thread calls the function again and again: every answer must be the valid
 * input's or the invalid one's refusal.  tests/c/run.sh runs this program under
 * AddressSanitizer + UndefinedBehaviorSanitizer too, which report a read past an array
 * at once; ThreadSanitizer reports the race this test makes on purpose, so there it
 * only says so and passes.  (The batch kernels of ofc_fast.h are raced from Python:
 * tests/test_bad_input.py.) */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "model_file.h"
#include "ofc_fast.h"
#include "ofc_features.h"
#include "ofc_game.h"
#include "ofc_heuristic.h"
#include "ofc_model.h"
#include "ofc_settle.h"
#include "ofc_search.h"
#include "ofc_solver.h"
#include "ofc_value.h"
#include "ofc_vecenv.h"

#if defined(__SANITIZE_THREAD__)
#define OFC_TEST_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define OFC_TEST_TSAN 1
#endif
#endif

#define CALLS 20000
#define N_BOARDS 8

/* The byte the writer flips, and its two values. */
typedef struct flip {
    volatile uint8_t *byte;
    uint8_t valid, invalid;
    volatile int stop;
} flip;

static void *writer(void *arg)
{
    flip *f = (flip *)arg;
    while (!f->stop) {
        *f->byte = f->invalid;
        *f->byte = f->valid;
    }
    return NULL;
}

/* Starts flipping `byte` (valid -> invalid -> valid ...) in a second thread. */
static void start(flip *f, pthread_t *thread, uint8_t *byte, uint8_t invalid)
{
    f->byte = byte;
    f->valid = *byte;
    f->invalid = invalid;
    f->stop = 0;
    CHECK_EQ(pthread_create(thread, NULL, writer, f), 0);
}

static void finish(flip *f, pthread_t thread)
{
    f->stop = 1;
    CHECK_EQ(pthread_join(thread, NULL), 0);
    *f->byte = f->valid;
}

/* ofc_settle() while the deal's player count flips between 3 and 200 (more than the
 * table allows): it read the count again after checking it, and went through seats
 * past the deal's four. */
static void settle_while_written(const ofc_rules *rules)
{
    static ofc_settle_input in;
    static ofc_settlement s, expected;
    ofc_table_rules table;
    pthread_t thread;
    flip f;
    int seat, i, settled = 0, refused = 0, other = 0;
    CHECK_EQ(ofc_table_rules_init(&table), OFC_OK);
    CHECK_EQ(ofc_settle_input_init(&in, 3, 0), OFC_OK);
    for (seat = 0; seat < 3; seat++) {
        for (i = 0; i < 13; i++) {
            in.cards[seat][i] = (uint8_t)(51 - 13 * seat - i);
        }
    }
    CHECK_EQ(ofc_settle(rules, &table, &in, 0, &expected), OFC_OK);
    start(&f, &thread, &in.players, 200);
    for (i = 0; i < CALLS; i++) {
        int32_t rc = ofc_settle(rules, &table, &in, 0, &s);
        if (rc == OFC_OK) {
            settled++;
            other += memcmp(s.net, expected.net, sizeof s.net) != 0;
        } else {
            refused++;
            other += rc != OFC_E_MAX_PLAYERS;
        }
    }
    finish(&f, thread);
    CHECK_EQ(other, 0);
    CHECK_EQ(settled + refused, CALLS);
}

/* ofc_heur_values() while a card of its last board flips between a card and 200: it
 * valued the boards from the caller's bytes after checking them there. */
static void heuristic_values_while_written(const ofc_rules *rules)
{
    static ofc_heur_model model;
    uint8_t boards[13 * N_BOARDS];
    double values[N_BOARDS], expected[N_BOARDS];
    pthread_t thread;
    flip f;
    size_t bad;
    int i, k, other = 0;
    memset(&model, 0, sizeof model);
    for (k = 0; k < 3; k++) {
        for (i = 0; i < OFC_STRENGTH_TABLE_SIZE; i++) {
            model.row[k][i].value = (float)(i % 97);
        }
    }
    CHECK_EQ(ofc_heur_model_check(&model), OFC_OK);
    for (k = 0; k < N_BOARDS; k++) {
        for (i = 0; i < 13; i++) {
            boards[13 * k + i] = (uint8_t)((5 * k + 4 * i) % OFC_CARDS);
        }
    }
    CHECK_EQ(ofc_heur_values(rules, NULL, &model, boards, N_BOARDS, 0, expected, NULL),
             OFC_OK);
    start(&f, &thread, &boards[13 * N_BOARDS - 1], 200);
    for (i = 0; i < CALLS; i++) {
        int32_t rc = ofc_heur_values(rules, NULL, &model, boards, N_BOARDS, 0, values, &bad);
        if (rc == OFC_OK) {
            other += memcmp(values, expected, sizeof values) != 0;
        } else {
            other += rc != OFC_E_CARD || bad != N_BOARDS - 1;
        }
    }
    finish(&f, thread);
    CHECK_EQ(other, 0);
}

/* Heads-up Pineapple, the last round: the searcher (seat 0) places 2 of 3 dealt cards,
 * seat 1 has that round to come; each board holds 11 cards (front and back 1 free). */
static void last_round(ofc_search_pos *pos)
{
    static const uint8_t dealt[3] = {0, 1, 2};
    int s, i, c = 3;
    memset(pos, 0, sizeof *pos);
    memcpy(pos->dealt, dealt, sizeof dealt);
    pos->n_dealt = 3;
    pos->k = 1;
    pos->players = 2;
    for (s = 0; s < 2; s++) {
        for (i = 0; i < 13; i++) {
            pos->seats[s].board[i] = i == 2 || i == 12 ? OFC_NO_CARD : (uint8_t)c++;
        }
    }
    pos->seats[1].rounds = 1;
    pos->seats[1].round_n[0] = 3;
    pos->seats[1].round_k[0] = 1;
    while (c < OFC_CARDS) {
        pos->unseen[pos->n_unseen++] = (uint8_t)c++;
    }
}

/* The search while the position's count of unseen cards flips between its 27 and
 * 255: ofc_search_pos_check() read it again after checking it (and went through 255
 * cards), the rollouts each sample (and copied 255 cards into a deck of 52). */
static void search_while_written(const ofc_rules *rules)
{
    static ofc_search_pos pos;
    ofc_search_model model;
    const uint8_t room[3] = {1, 0, 1};
    uint8_t action[OFC_ACTION_SPACE];
    double sum, expected = 0;
    pthread_t thread;
    flip f;
    int i, other = 0;
    memset(&model, 0, sizeof model);
    last_round(&pos);
    CHECK_EQ(ofc_search_pos_check(&pos), OFC_OK);
    CHECK(ofc_actions_legal(3, 1, room, action, NULL) > 0);
    CHECK_EQ(ofc_search_rollouts(rules, NULL, NULL, &model, &pos, action, 1,
                                 OFC_COMPLETE_FAST, 7, 0, 1, &expected, NULL),
             OFC_OK);
    start(&f, &thread, &pos.n_unseen, 255);
    for (i = 0; i < CALLS; i++) {
        int32_t rc = ofc_search_pos_check(&pos);
        other += rc != OFC_OK && rc != OFC_E_COUNT;
        if (i % 10 == 0) {
            sum = 0;
            rc = ofc_search_rollouts(rules, NULL, NULL, &model, &pos, action, 1,
                                     OFC_COMPLETE_FAST, 7, 0, 1, &sum, NULL);
            other += rc == OFC_OK ? sum != expected : rc != OFC_E_COUNT;
        }
    }
    finish(&f, thread);
    CHECK_EQ(other, 0);
}

/* ofc_best_completion() while a card of the board flips between a card and 200: it
 * completed the board from the caller's bytes after checking them there. */
static void completion_while_written(const ofc_rules *rules)
{
    static ofc_search_pos pos; /* its searcher's board and dealt cards */
    ofc_search_model model;
    ofc_completion_result done, expected;
    const uint8_t round_n[1] = {3}, round_k[1] = {1};
    pthread_t thread;
    flip f;
    int i, other = 0;
    memset(&model, 0, sizeof model);
    last_round(&pos);
    CHECK_EQ(ofc_best_completion(rules, NULL, NULL, &model, pos.seats[0].board, pos.dealt,
                                 1, round_n, round_k, 0, OFC_COMPLETE_BEST, &expected),
             OFC_OK);
    start(&f, &thread, &pos.seats[0].board[0], 200);
    for (i = 0; i < 10 * CALLS; i++) { /* a narrow window: more calls */
        int32_t rc = ofc_best_completion(rules, NULL, NULL, &model, pos.seats[0].board,
                                         pos.dealt, 1, round_n, round_k, 0,
                                         OFC_COMPLETE_BEST, &done);
        other += rc == OFC_OK ? memcmp(done.board, expected.board, 13) != 0
                              : rc != OFC_E_CARD;
    }
    finish(&f, thread);
    CHECK_EQ(other, 0);
}

/* ofc_value_features() while a card of a full board flips between a card and 200: it
 * computed the features from the caller's bytes after checking them there. */
static void value_features_while_written(const ofc_rules *rules)
{
    static ofc_ev_tables ev;
    ofc_value_ctx ctx;
    uint8_t board[13];
    float x[OFC_VF_N], expected[OFC_VF_N];
    pthread_t thread;
    flip f;
    int i, other = 0;
    CHECK_EQ(ofc_ev_tables_init(rules, &ev), OFC_OK);
    memset(&ctx, 0, sizeof ctx);
    ctx.rules = rules;
    ctx.ev = &ev;
    ctx.players = 2;
    for (i = 0; i < 13; i++) {
        board[i] = (uint8_t)(4 * i + 1);
    }
    CHECK_EQ(ofc_value_features(&ctx, board, 0, expected), OFC_OK);
    start(&f, &thread, &board[4], 200);
    for (i = 0; i < CALLS; i++) {
        int32_t rc = ofc_value_features(&ctx, board, 0, x);
        other += rc == OFC_OK ? memcmp(x, expected, sizeof x) != 0 : rc != OFC_E_CARD;
    }
    finish(&f, thread);
    CHECK_EQ(other, 0);
}

/* ofc_heur_sample() while an unseen card flips between a card and 200: it drew the
 * futures from the caller's bytes after checking them there (a future card 200). */
static void heuristic_sample_while_written(void)
{
    uint8_t unseen[OFC_CARDS], futures[4 * 5];
    pthread_t thread;
    flip f;
    int i, j, other = 0;
    for (i = 0; i < OFC_CARDS; i++) {
        unseen[i] = (uint8_t)i;
    }
    start(&f, &thread, &unseen[0], 200);
    for (i = 0; i < 10 * CALLS; i++) { /* a narrow window: more calls */
        int32_t rc = ofc_heur_sample(unseen, OFC_CARDS, 5, 0, 0, 4, 0, (uint64_t)i,
                                     futures, NULL);
        other += rc != OFC_OK && rc != OFC_E_CARD;
        for (j = 0; rc == OFC_OK && j < 4 * 5; j++) {
            other += futures[j] >= OFC_CARDS;
        }
    }
    finish(&f, thread);
    CHECK_EQ(other, 0);
}

/* ofc_heur_score_moves() while a byte of its input flips to a value out of range: a
 * fill's card (200), a template's card (255: no card, no slot) and a move's back row
 * (59,905 of 2 templates).  It checked the templates and moves, and each fill, in the
 * caller's memory and read them again to rank and value the rows. */
static void heuristic_moves_while_written(const ofc_rules *rules)
{
    static ofc_heur_model model;
    uint8_t fronts[3] = {OFC_HEUR_CARD + 0, OFC_HEUR_CARD + 1, 0};
    uint8_t fives[10] = {OFC_HEUR_CARD + 2, OFC_HEUR_CARD + 3, OFC_HEUR_CARD + 4,
                         OFC_HEUR_CARD + 5, 1, OFC_HEUR_CARD + 6, OFC_HEUR_CARD + 7,
                         OFC_HEUR_CARD + 8, OFC_HEUR_CARD + 9, 2};
    uint16_t moves[3] = {0, 0, 1};
    uint8_t fills[4 * 3], *targets[3];
    const uint8_t invalid[3] = {200, 255, 0xEA};
    ofc_heur_rows rows = {fronts, 1, fives, 2, moves, 1}; /* front 0, fives 0 and 1 */
    double score, expected;
    pthread_t thread;
    flip f;
    int t, i, other = 0;
    memset(&model, 0, sizeof model);
    for (i = 0; i < OFC_STRENGTH_TABLE_SIZE; i++) {
        model.row[0][i].value = model.row[1][i].value = model.row[2][i].value =
            (float)(i % 89);
    }
    for (i = 0; i < 4 * 3; i++) {
        fills[i] = (uint8_t)(20 + i);
    }
    CHECK_EQ(ofc_heur_score_moves(rules, NULL, &model, &rows, fills, 2, 2, 3, 0, 0.5,
                                  &expected),
             OFC_OK);
    targets[0] = &fills[0];
    targets[1] = &fronts[0];
    targets[2] = (uint8_t *)&moves[2]; /* the byte of its high bits, in either order */
    targets[2] += *targets[2] != 0;
    for (t = 0; t < 3; t++) {
        start(&f, &thread, targets[t], invalid[t]);
        for (i = 0; i < CALLS; i++) {
            int32_t rc = ofc_heur_score_moves(rules, NULL, &model, &rows, fills, 2, 2, 3, 0,
                                              0.5, &score);
            other += rc == OFC_OK ? score != expected
                                  : rc != OFC_E_CARD && rc != OFC_E_VALUE;
        }
        finish(&f, thread);
    }
    CHECK_EQ(other, 0);
}

/* ofc_features() while a byte of its encoding flips between two values (an unseen card
 * seen and unseen) and while a dealt card flips between a card and 200: it read the
 * encoding several times (the unseen plane counted twice: a total of one snapshot,
 * per-rank counts of the other) and each dealt card again after checking it. */
static void features_while_written(void)
{
    static ofc_game_rules r;
    static ofc_game g;
    static ofc_observation o;
    static float x[OFC_FEAT_SIZE], seen[OFC_FEAT_SIZE], unseen[OFC_FEAT_SIZE];
    uint8_t enc[OFC_ENC_SIZE], dealt[OFC_GAME_MAX_DEALT];
    uint8_t *byte = &enc[14 * 52]; /* plane 14: cards this seat has not seen */
    pthread_t thread;
    flip f;
    int i, other = 0;
    CHECK_EQ(ofc_game_rules_init_pineapple(&r), OFC_OK);
    CHECK_EQ(ofc_game_init(&r, &g, 2, 0, NULL, 7, NULL), OFC_OK);
    CHECK_EQ(ofc_game_observe(&g, g.steps[0].seat, &o), OFC_OK);
    ofc_encode(&o, 0, enc);
    memcpy(dealt, o.dealt, o.n);
    while (*byte == 0) {
        byte++; /* an unseen card */
    }
    CHECK_EQ(ofc_features(enc, dealt, o.n, unseen), OFC_OK);
    *byte = 0;
    CHECK_EQ(ofc_features(enc, dealt, o.n, seen), OFC_OK);
    *byte = 1;
    start(&f, &thread, byte, 0);
    for (i = 0; i < CALLS; i++) {
        CHECK_EQ(ofc_features(enc, dealt, o.n, x), OFC_OK);
        other += memcmp(x, unseen, sizeof x) != 0 && memcmp(x, seen, sizeof x) != 0;
    }
    finish(&f, thread);
    CHECK_EQ(other, 0);
    start(&f, &thread, &dealt[0], 200);
    for (i = 0; i < CALLS; i++) {
        int32_t rc = ofc_features(enc, dealt, o.n, x);
        other += rc == OFC_OK ? memcmp(x, unseen, sizeof x) != 0 : rc != OFC_E_CARD;
    }
    finish(&f, thread);
    CHECK_EQ(other, 0);
}

/* ofc_apply_stakes() for 200 seats and 200 transfers, while the first stack's high byte
 * flips between 0 and 0x80 (a negative stack) and while the first pair's seat flips
 * between 1 and 250 (no such seat): it checked the stacks and pairs, then read them
 * again to pay (a negative stack, the stakes of seat 250, never set). */
static void stakes_while_written(void)
{
    enum { SEATS = 200, N = 200 };
    static int32_t stacks[SEATS], amount[N], actual[N], expected[N];
    static uint8_t pairs[N][2];
    const uint8_t(*seats)[2] = (const uint8_t(*)[2])pairs;
    int32_t probe = 1;
    uint8_t *targets[2], invalid[2] = {0x80, 250};
    uint32_t model;
    pthread_t thread;
    flip f;
    int t, i, other = 0;
    for (i = 0; i < SEATS; i++) {
        stacks[i] = 100;
    }
    for (i = 0; i < N; i++) {
        pairs[i][0] = (uint8_t)(i % 2);
        pairs[i][1] = (uint8_t)(1 - i % 2);
        amount[i] = 10 + 7 * i;
    }
    targets[0] = (uint8_t *)&stacks[0] + (*(uint8_t *)&probe == 1 ? 3 : 0);
    targets[1] = &pairs[0][1];
    for (model = OFC_STAKES_WIN_CAP; model <= OFC_STAKES_CHIPS; model++) {
        CHECK_EQ(ofc_apply_stakes(model, stacks, SEATS, seats, amount, N, expected), OFC_OK);
        for (t = 0; t < 2; t++) {
            start(&f, &thread, targets[t], invalid[t]);
            for (i = 0; i < CALLS; i++) {
                int32_t rc = ofc_apply_stakes(model, stacks, SEATS, seats, amount, N, actual);
                other += rc == OFC_OK ? memcmp(actual, expected, sizeof actual) != 0
                                      : rc != (t == 0 ? OFC_E_STACKS : OFC_E_SEAT);
            }
            finish(&f, thread);
        }
    }
    CHECK_EQ(other, 0);
}

/* ofc_apply_stakes() for 600 transfers (beyond one block of 256, where it reads them
 * twice: ofc_fast.h, Threads), while the 301st transfer's second seat flips between 1
 * and 2 (both seats; seat 2 has no chips, so the answers differ) and between 1 and 250
 * (no such seat): every answer must be one snapshot's, never a mix of the two reads,
 * and a refusal OFC_E_SEAT (with `actual` partly written: the documented exception).
 * With scratch (ofc_apply_stakes_scratch(), reading them once) a refusal leaves
 * `actual` as it is: it paid the first blocks of a second read before refusing. */
static void stakes_beyond_a_block_while_written(int with_scratch)
{
    enum { SEATS = 3, N = 600, AT = 300 };
    static int32_t stacks[SEATS] = {1000000, 1000000, 0}, amount[N], actual[N], before[N];
    static int32_t expected[2][N];
    static uint8_t pairs[N][2];
    static ofc_stakes_transfer scratch[N];
    const uint8_t(*seats)[2] = (const uint8_t(*)[2])pairs;
    uint8_t other_seat[2] = {2, 250};
    uint32_t model;
    pthread_t thread;
    flip f;
    int t, i, other = 0;
    for (i = 0; i < N; i++) {
        pairs[i][0] = (uint8_t)(i % 2);
        pairs[i][1] = (uint8_t)(1 - i % 2);
        amount[i] = (i % 3 == 0 ? -1 : 1) * (10 + 7 * (i % 50));
        before[i] = -7 - i;
    }
    for (model = OFC_STAKES_WIN_CAP; model <= OFC_STAKES_CHIPS; model++) {
        for (t = 0; t < 2; t++) {
            pairs[AT][1] = (uint8_t)(t == 0 ? 1 : 2);
            CHECK_EQ(ofc_apply_stakes(model, stacks, SEATS, seats, amount, N, expected[t]),
                     OFC_OK);
        }
        pairs[AT][1] = 1;
        CHECK(memcmp(expected[0], expected[1], sizeof expected[0]) != 0);
        for (t = 0; t < 2; t++) {
            start(&f, &thread, &pairs[AT][1], other_seat[t]);
            for (i = 0; i < CALLS; i++) {
                int32_t rc;
                memcpy(actual, before, sizeof actual);
                rc = with_scratch ? ofc_apply_stakes_scratch(model, stacks, SEATS, seats,
                                                             amount, N, actual, scratch, N)
                                  : ofc_apply_stakes(model, stacks, SEATS, seats, amount, N,
                                                     actual);
                other += rc == OFC_OK ? memcmp(actual, expected[0], sizeof actual) != 0 &&
                                            (t == 1 || memcmp(actual, expected[1],
                                                              sizeof actual) != 0)
                                      : t == 0 || rc != OFC_E_SEAT ||
                                            (with_scratch &&
                                             memcmp(actual, before, sizeof actual) != 0);
            }
            finish(&f, thread);
        }
    }
    CHECK_EQ(other, 0);
}

/* ofc_game_init() while a card of the given deck and a seat's Fantasyland count flip
 * to 200 (no card; no count): it checked the deck and counts, then copied them again
 * into the game, which then held card 200 or a 200-card Fantasyland. */
static void game_init_while_written(void)
{
    static ofc_game_rules r;
    static ofc_game g;
    uint8_t deck[OFC_CARDS], fl[2] = {0, 0}, *targets[2];
    pthread_t thread;
    flip f;
    int t, i, other = 0;
    CHECK_EQ(ofc_game_rules_init_pineapple(&r), OFC_OK);
    for (i = 0; i < OFC_CARDS; i++) {
        deck[i] = (uint8_t)(OFC_CARDS - 1 - i);
    }
    targets[0] = &deck[0];
    targets[1] = &fl[0];
    for (t = 0; t < 2; t++) {
        start(&f, &thread, targets[t], 200);
        for (i = 0; i < CALLS; i++) {
            int32_t rc = ofc_game_init(&r, &g, 2, 0, fl, 0, deck);
            if (rc == OFC_OK) {
                other += g.deck[0] != OFC_CARDS - 1 || g.fl[0] != 0 ||
                         ofc_game_state_check(&r, &g, NULL) != OFC_OK;
            } else {
                other += rc != (t == 0 ? OFC_E_CARD : OFC_E_SEATS);
            }
        }
        finish(&f, thread);
    }
    CHECK_EQ(other, 0);
}

/* ofc_actions_legal() while the front's room flips between 1 and 200 (out of range),
 * and ofc_action_encode() while a destination flips between the back and 200: they
 * checked the room and the destinations, then read them again to list and encode (a
 * list for a front of 200 free slots, an id past the action space). */
static void actions_while_written(void)
{
    uint8_t room[3] = {1, 5, 5}, dest[5] = {0, 1, 1, 2, 2};
    uint8_t ids[OFC_ACTION_SPACE], expected_ids[OFC_ACTION_SPACE];
    int32_t expected = ofc_actions_legal(5, 0, room, expected_ids, NULL);
    int32_t id = ofc_action_encode(5, 0, dest);
    pthread_t thread;
    flip f;
    int i, other = 0;
    CHECK(expected > 0 && expected < OFC_ACTION_SPACE);
    CHECK(id >= 0 && id < OFC_ACTION_SPACE);
    start(&f, &thread, &room[0], 200);
    for (i = 0; i < CALLS; i++) {
        int32_t rc = ofc_actions_legal(5, 0, room, ids, NULL);
        other += rc == expected ? memcmp(ids, expected_ids, (size_t)expected) != 0
                                : rc != OFC_E_ACTION;
    }
    finish(&f, thread);
    start(&f, &thread, &dest[4], 200);
    for (i = 0; i < 10 * CALLS; i++) { /* a narrow window: more calls */
        int32_t rc = ofc_action_encode(5, 0, dest);
        other += rc != id && rc != OFC_E_DESTINATION;
    }
    finish(&f, thread);
    CHECK_EQ(other, 0);
}

/* ofc_vm_parse() while the high byte of a model's first weight flips between 1.0f's
 * and +inf's (which the file's checksum refuses): it checksummed the payload, checked
 * the weights and stored them in three reads, so a model whose checksum it had
 * accepted came back with a weight of +inf, or refused as OFC_E_MODEL_VALUE. */
static void model_parse_while_written(void)
{
    enum { WIDTH = 256 };
    static uint8_t file[64 + 20 + 4 * ((OFC_VF_N + 1) * WIDTH + WIDTH + 1)];
    static ofc_vmodel m, expected;
    size_t at = put_header(file, 1, 1), i, n;
    pthread_t thread;
    flip f;
    int k, other = 0;
    at += put32(file + at, 7); /* 7 cards, 2 layers: OFC_VF_N -> WIDTH -> 1 */
    at += put32(file + at, 2);
    at += put32(file + at, OFC_VF_N);
    at += put32(file + at, WIDTH);
    at += put32(file + at, 1);
    for (i = 0; i < (OFC_VF_N + 1) * WIDTH + WIDTH + 1; i++) {
        at += putf(file + at, 1.0f);
    }
    n = seal(file, at);
    CHECK_EQ(n, sizeof file);
    CHECK_EQ(ofc_vm_parse(file, n, &expected), OFC_OK);
    start(&f, &thread, &file[64 + 20 + 3], 0x7F); /* 1.0f = 0x3F800000 */
    for (k = 0; k < CALLS / 10; k++) {
        int32_t rc = ofc_vm_parse(file, n, &m);
        other += rc == OFC_OK ? memcmp(m.w, expected.w, sizeof m.w) != 0
                              : rc != OFC_E_MODEL_CHECKSUM;
    }
    finish(&f, thread);
    CHECK_EQ(other, 0);
}

/* ofc_ev_tables_init_counts() while the high byte of a front count flips between 0
 * and 0x40 (the count 2^30 larger): it summed a row's counts, then read each count
 * again to share it out, so a count of one snapshot was divided by the total of the
 * other (tables of neither distribution: chances above 1). */
static void ev_counts_while_written(const ofc_rules *rules)
{
    static uint32_t counts[OFC_ROWS * OFC_STRENGTH_TABLE_SIZE];
    static ofc_ev_tables ev, small, large;
    int32_t probe = 1;
    uint8_t *byte;
    pthread_t thread;
    flip f;
    int s = 1, i, other = 0;
    memcpy(counts, ofc_ev_opponent_counts(NULL), sizeof counts);
    while (counts[s] == 0) {
        s++; /* a front strength the opponent made */
    }
    byte = (uint8_t *)&counts[s] + (*(uint8_t *)&probe == 1 ? 3 : 0);
    CHECK_EQ(*byte, 0);
    CHECK_EQ(ofc_ev_tables_init_counts(rules, counts, &small), OFC_OK);
    *byte = 0x40;
    CHECK_EQ(ofc_ev_tables_init_counts(rules, counts, &large), OFC_OK);
    *byte = 0;
    start(&f, &thread, byte, 0x40);
    for (i = 0; i < CALLS / 10; i++) {
        CHECK_EQ(ofc_ev_tables_init_counts(rules, counts, &ev), OFC_OK);
        other += memcmp(&ev, &small, sizeof ev) != 0 && memcmp(&ev, &large, sizeof ev) != 0;
    }
    finish(&f, thread);
    CHECK_EQ(other, 0);
}

/* Pineapple self-play environments (2, or beyond a block of 256 rows) at their first
 * decision, and their output rows. */
#define ENVS 300
typedef struct some_envs {
    uint32_t n;
    ofc_vecenv_config c;
    ofc_vecenv_slot slots[ENVS], start[ENVS];
    uint8_t obs[ENVS][OFC_ENC_SIZE], mask[ENVS][OFC_ACTION_SPACE];
    int16_t legal_count[ENVS];
    int8_t seat[ENVS];
    uint8_t full[ENVS], terminations[ENVS], truncations[ENVS];
    float rewards[ENVS], final_rewards[ENVS][OFC_GAME_MAX_SEATS];
    ofc_vecenv_out out;
} some_envs;

static void some_envs_init(some_envs *e, const ofc_game_rules *r, uint32_t n)
{
    memset(e, 0, sizeof *e);
    e->n = n;
    CHECK_EQ(ofc_vecenv_config_init(&e->c, r, n, 2, 5), OFC_OK);
    e->out = (ofc_vecenv_out){&e->obs[0][0], &e->mask[0][0], NULL, e->legal_count, e->seat,
                              e->full, e->rewards, &e->final_rewards[0][0],
                              e->terminations, e->truncations, NULL};
    CHECK_EQ(ofc_vecenv_reset(&e->c, e->slots, 0, n, 1, &e->out), OFC_OK);
    memcpy(e->start, e->slots, n * sizeof *e->slots);
}

/* ofc_vecenv_step() on the environments from their start, `calls` times, while a
 * writer flips a byte of the last one's decision: how many answers were neither
 * `stepped` (the slots after OFC_OK) nor OFC_E_ACTION for it with nothing changed. */
static int step_while_written(some_envs *e, int calls, const int64_t *actions,
                              const uint8_t *active, uint8_t *byte, uint8_t invalid,
                              const ofc_vecenv_slot *stepped)
{
    pthread_t thread;
    flip f;
    int i, other = 0;
    size_t size = e->n * sizeof *e->slots;
    start(&f, &thread, byte, invalid);
    for (i = 0; i < calls; i++) {
        uint32_t bad = 99999;
        int32_t rc;
        memcpy(e->slots, e->start, size);
        rc = ofc_vecenv_step(&e->c, e->slots, 0, e->n, actions, NULL, active, &e->out, &bad);
        other += rc == OFC_OK ? memcmp(e->slots, stepped, size) != 0
                              : rc != OFC_E_ACTION || bad != e->n - 1 ||
                                    memcmp(e->slots, e->start, size) != 0;
    }
    finish(&f, thread);
    return other;
}

/* A legal action of each environment (its first). */
static void first_legal(const some_envs *e, int64_t *actions)
{
    uint32_t i;
    for (i = 0; i < e->n; i++) {
        int a = 0;
        while (!e->mask[i][a]) {
            a++;
        }
        actions[i] = a;
    }
}

/* ofc_vecenv_step() on two environments while bits 24..31 of the second one's action
 * flip between a legal id's 0 and 0x80 (an id past 2^31), and while its active flag
 * flips between 0 and 1 with an illegal action: it checked every action, then read
 * the actions and flags again to play them, so a refused action came after the first
 * environment was stepped (a validation error that changed an environment). */
static void vecenv_step_while_written(void)
{
    static ofc_game_rules r;
    static some_envs e;
    static ofc_vecenv_slot stepped[ENVS], first_stepped[ENVS];
    static int64_t actions[ENVS];
    uint8_t active[2] = {1, 0};
    int32_t probe = 1;
    uint32_t high = *(uint8_t *)&probe == 1 ? 3 : 4;
    CHECK_EQ(ofc_game_rules_init_pineapple(&r), OFC_OK);
    some_envs_init(&e, &r, 2);
    first_legal(&e, actions);
    CHECK_EQ(ofc_vecenv_step(&e.c, e.slots, 0, 2, actions, NULL, active, &e.out, NULL),
             OFC_OK);
    memcpy(first_stepped, e.slots, 2 * sizeof *e.slots);
    memcpy(e.slots, e.start, 2 * sizeof *e.slots);
    CHECK_EQ(ofc_vecenv_step(&e.c, e.slots, 0, 2, actions, NULL, NULL, &e.out, NULL),
             OFC_OK);
    memcpy(stepped, e.slots, 2 * sizeof *e.slots);
    CHECK_EQ(step_while_written(&e, CALLS, actions, NULL, (uint8_t *)&actions[1] + high,
                                0x80, stepped),
             0);
    actions[1] = OFC_ACTION_SPACE; /* no such action */
    CHECK_EQ(step_while_written(&e, CALLS, actions, active, &active[1], 1, first_stepped),
             0);
}

/* The same beyond a block of 256 environments: the last one's action flips as above
 * (it read the actions of the environments past the first block twice, to check them,
 * then to play them, so a refused action came after 299 environments were stepped). */
static void vecenv_step_beyond_a_block_while_written(void)
{
    static ofc_game_rules r;
    static some_envs e;
    static ofc_vecenv_slot stepped[ENVS];
    static int64_t actions[ENVS];
    int32_t probe = 1;
    uint32_t high = *(uint8_t *)&probe == 1 ? 3 : 4;
    CHECK_EQ(ofc_game_rules_init_pineapple(&r), OFC_OK);
    some_envs_init(&e, &r, ENVS);
    first_legal(&e, actions);
    CHECK_EQ(ofc_vecenv_step(&e.c, e.slots, 0, ENVS, actions, NULL, NULL, &e.out, NULL),
             OFC_OK);
    memcpy(stepped, e.slots, sizeof stepped);
    CHECK_EQ(step_while_written(&e, CALLS / 20, actions, NULL,
                                (uint8_t *)&actions[ENVS - 1] + high, 0x80, stepped),
             0);
}

int main(void)
{
    ofc_rules *rules;
#ifdef OFC_TEST_TSAN
    printf("test_races: skipped under ThreadSanitizer (it races on purpose)\n");
    return 0;
#endif
    rules = malloc(sizeof *rules);
    if (rules == NULL || ofc_rules_init_ofc(rules) != OFC_OK) {
        return 1;
    }
    settle_while_written(rules);
    heuristic_values_while_written(rules);
    heuristic_sample_while_written();
    heuristic_moves_while_written(rules);
    search_while_written(rules);
    completion_while_written(rules);
    value_features_while_written(rules);
    features_while_written();
    stakes_while_written();
    stakes_beyond_a_block_while_written(0);
    stakes_beyond_a_block_while_written(1);
    game_init_while_written();
    actions_while_written();
    model_parse_while_written();
    ev_counts_while_written(rules);
    vecenv_step_while_written();
    vecenv_step_beyond_a_block_while_written();
    free(rules);
    printf("test_races: %d checks, %d failures\n", checks, failures);
    return failures != 0;
}
