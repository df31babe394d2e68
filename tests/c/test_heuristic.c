/* test_heuristic.c -- the heuristic bot's kernels (ofc_heuristic.h) and the shared
 * Fantasyland rule: values of known boards, scores against values board by board,
 * the sampler's output and determinism, and every error code. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "ofc_heuristic.h"

static ofc_rules rules;
static ofc_fl_rules fl;
static ofc_heur_model model;

static void board(const char *text, uint8_t out[13]) { CHECK_EQ(test_cards(text, out), 13); }

/* One candidate move: front template 0, middle and back five-card templates 0 and 1. */
static ofc_heur_rows one_move(const uint8_t *fronts, const uint8_t *fives, const uint16_t *moves)
{
    ofc_heur_rows rows;
    rows.fronts = fronts;
    rows.n_fronts = 1;
    rows.fives = fives;
    rows.n_fives = 2;
    rows.moves = moves;
    rows.n_moves = 1;
    return rows;
}

/* The templates of a complete board's rows: every byte a card (no slot). */
static void card_templates(const uint8_t cards[13], uint8_t fronts[3], uint8_t fives[10])
{
    size_t i;
    for (i = 0; i < 13; i++) {
        uint8_t t = (uint8_t)(OFC_HEUR_CARD + cards[i]);
        if (i < 3) {
            fronts[i] = t;
        } else {
            fives[i - 3] = t;
        }
    }
}

static void test_values(void)
{
    uint8_t b[3 * 13];
    double v[3];
    size_t bad = 99;
    board("Qh Qd 2c / 9s 9h 9d 5c 4d / As Ks Qs Js 8s", b);      /* QQ front: enters */
    board("Ah Ad Ac / 9s 9h 2d 5c 3d / Kc Kd Qc Jc Tc", b + 13); /* fouled */
    board("2h 3d 5c / 9s 9h 2d 5d 3c / Kc Kd Qc Jc Tc", b + 26); /* legal, no entry */
    CHECK_EQ(ofc_heur_values(&rules, &fl, &model, b, 3, 0, v, &bad), OFC_OK);
    CHECK(v[0] == 10.0 + 1.5 * 3); /* fl_value[14] plus three rows of 1.5 */
    CHECK(v[1] == -9.0);
    CHECK(v[2] == 1.5 * 3);
    /* a Fantasyland hand: QQ, middle trips and a back flush do not stay */
    CHECK_EQ(ofc_heur_values(&rules, &fl, &model, b, 1, 14, v, NULL), OFC_OK);
    CHECK(v[0] == 4.5);
    CHECK_EQ(ofc_heur_values(&rules, NULL, &model, b, 1, 0, v, NULL), OFC_OK);
    CHECK(v[0] == 4.5);
    CHECK_EQ(ofc_heur_values(&rules, &fl, &model, b, 1, 12, v, NULL), OFC_E_COUNT);
    b[13 + 5] = b[13 + 6];
    CHECK_EQ(ofc_heur_values(&rules, &fl, &model, b, 3, 0, v, &bad), OFC_E_DUPLICATE);
    CHECK_EQ(bad, 1);
    CHECK_EQ(ofc_heur_values(&rules, &fl, &model, NULL, 1, 0, v, NULL), OFC_E_VALUE);
    CHECK_EQ(ofc_heur_values(&rules, &fl, &model, NULL, 0, 0, NULL, NULL), OFC_OK);
    CHECK_EQ(ofc_heur_values(NULL, &fl, &model, b, 1, 0, v, NULL), OFC_E_RULES);
}

static void test_scores(void)
{
    /* One move: front Qh Qd + slot 0, middle 9s 9h 9d + slots 1, 2, back full. */
    uint8_t fronts[3], fives[10], fills[2 * 3 * 3], b[13];
    uint16_t moves[3] = {0, 0, 1};
    ofc_heur_rows rows;
    double score, v, best, sum, want = 0;
    size_t k, p, i;
    uint8_t cards[13];
    board("Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts", cards);
    fronts[0] = (uint8_t)(OFC_HEUR_CARD + cards[0]);
    fronts[1] = (uint8_t)(OFC_HEUR_CARD + cards[1]);
    fronts[2] = 0;
    for (i = 0; i < 3; i++) {
        fives[i] = (uint8_t)(OFC_HEUR_CARD + cards[3 + i]);
    }
    fives[3] = 1;
    fives[4] = 2;
    for (i = 0; i < 5; i++) {
        fives[5 + i] = (uint8_t)(OFC_HEUR_CARD + cards[8 + i]);
    }
    rows = one_move(fronts, fives, moves);
    test_cards("2c 5c 5d Ac 4h 5h 2d 3s 4s 7c 7d 7h 8c 8d 6s 2h 3h 4d", fills);
    CHECK_EQ(ofc_heur_score_moves(&rules, &fl, &model, &rows, fills, 2, 3, 3, 0, 0.5,
                                  &score), OFC_OK);
    for (k = 0; k < 2; k++) {
        best = -HUGE_VAL;
        sum = 0;
        for (p = 0; p < 3; p++) {
            const uint8_t *f = fills + 9 * k + 3 * p;
            memcpy(b, cards, 13);
            b[2] = f[0];
            b[6] = f[1];
            b[7] = f[2];
            CHECK_EQ(ofc_heur_values(&rules, &fl, &model, b, 1, 0, &v, NULL), OFC_OK);
            best = v > best ? v : best;
            sum += v;
        }
        want += 0.5 * best + 0.5 * sum / 3;
    }
    CHECK(fabs(score - want / 2) < 1e-12);
    CHECK_EQ(ofc_heur_score_moves(&rules, &fl, &model, &rows, fills, 2, 3, 3, 0, 1.5,
                                  &score), OFC_E_VALUE);
    CHECK_EQ(ofc_heur_score_moves(&rules, &fl, &model, &rows, fills, 2, 3, 2, 0, 1.0,
                                  &score), OFC_E_VALUE); /* slot 2 beyond the fill */
    CHECK_EQ(ofc_heur_score_moves(&rules, &fl, &model, &rows, fills, 0, 3, 3, 0, 1.0,
                                  &score), OFC_E_COUNT);
    fills[1] = cards[5]; /* a fill card already on the board */
    CHECK_EQ(ofc_heur_score_moves(&rules, &fl, &model, &rows, fills, 2, 3, 3, 0, 1.0,
                                  &score), OFC_E_DUPLICATE);
    moves[2] = 2;
    CHECK_EQ(ofc_heur_score_moves(&rules, &fl, &model, &rows, fills, 2, 3, 3, 0, 1.0,
                                  &score), OFC_E_VALUE);
    CHECK_EQ(ofc_heur_score_moves(&rules, &fl, &model, NULL, fills, 2, 3, 3, 0, 1.0,
                                  &score), OFC_E_VALUE);
}

/* Complete boards (no slot): fills may be NULL (the header), and every fill is the
 * board itself, valued as ofc_heur_values() values it.  The kernel formed NULL + 0
 * for each fill, undefined behaviour (Clang's UBSan: "applying zero offset to null
 * pointer"; found by tests/fuzz/c/fuzz_capi.c, target heur). */
static void test_scores_without_slots(void)
{
    uint8_t fronts[3], fives[10], cards[13];
    uint16_t moves[3] = {0, 0, 1};
    ofc_heur_rows rows;
    double score = 0, v = 1;
    board("Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts", cards);
    card_templates(cards, fronts, fives);
    rows = one_move(fronts, fives, moves);
    CHECK_EQ(ofc_heur_score_moves(&rules, &fl, &model, &rows, NULL, 2, 3, 0, 0, 0.5, &score),
             OFC_OK);
    CHECK_EQ(ofc_heur_values(&rules, &fl, &model, cards, 1, 0, &v, NULL), OFC_OK);
    CHECK(score == v);
}

static void test_sample(void)
{
    uint8_t unseen[20], fut[50 * 6], fills[50 * 4 * 4], fut2[50 * 6], fills2[50 * 4 * 4];
    size_t i, k;
    for (i = 0; i < 20; i++) {
        unseen[i] = (uint8_t)(2 * i + 1);
    }
    CHECK_EQ(ofc_heur_sample(unseen, 20, 6, 2, 4, 50, 4, 77, fut, fills), OFC_OK);
    CHECK_EQ(ofc_heur_sample(unseen, 20, 6, 2, 4, 50, 4, 77, fut2, fills2), OFC_OK);
    CHECK(memcmp(fut, fut2, sizeof fut) == 0 && memcmp(fills, fills2, sizeof fills) == 0);
    for (k = 0; k < 50; k++) {
        uint64_t seen = 0;
        for (i = 0; i < 6; i++) {
            CHECK(fut[6 * k + i] & 1);          /* drawn from the unseen (odd) ids */
            CHECK(!(seen >> fut[6 * k + i] & 1)); /* distinct */
            seen |= (uint64_t)1 << fut[6 * k + i];
        }
        for (i = 0; i < 16; i++) {
            CHECK(seen >> fills[16 * k + i] & 1); /* fills come from the future */
        }
    }
    CHECK_EQ(ofc_heur_sample(unseen, 20, 21, 0, 2, 1, 1, 1, fut, fills), OFC_E_COUNT);
    CHECK_EQ(ofc_heur_sample(unseen, 20, 5, 2, 4, 1, 1, 1, fut, fills), OFC_E_COUNT);
    CHECK_EQ(ofc_heur_sample(unseen, 20, 6, 0, 7, 1, 1, 1, fut, fills), OFC_E_COUNT);
    CHECK_EQ(ofc_heur_sample(unseen, 20, 6, 0, 4, 1, 1, 1, NULL, fills), OFC_E_VALUE);
    unseen[3] = unseen[4];
    CHECK_EQ(ofc_heur_sample(unseen, 20, 6, 0, 4, 1, 1, 1, fut, fills), OFC_E_DUPLICATE);
    CHECK_EQ(ofc_heur_sample(NULL, 0, 0, 0, 0, 3, 0, 1, NULL, NULL), OFC_OK);
    /* a needed pointer NULL is OFC_E_VALUE (the header), the unseen cards included */
    CHECK_EQ(ofc_heur_sample(NULL, 20, 6, 0, 4, 1, 1, 1, fut, fills), OFC_E_VALUE);
}

/* A rounds count whose 3 x rounds wraps in 32 bits to n_future (0x55555556 x 3 =
 * 2 mod 2^32) is no count of 2 future cards: refused, not played for 1.4e9 rounds
 * past the 39-card buffers. */
static void test_sample_rounds_overflow(void)
{
    uint8_t unseen[10], fut[3], fills[2 * 1];
    size_t i;
    for (i = 0; i < 10; i++) {
        unseen[i] = (uint8_t)i;
    }
    CHECK_EQ(ofc_heur_sample(unseen, 10, 2, 0x55555556u, 1, 1, 2, 7, fut, fills),
             OFC_E_COUNT);
    CHECK_EQ(ofc_heur_sample(unseen, 10, 3, 0x55555556u, 1, 1, 2, 7, fut, fills),
             OFC_E_COUNT);
    CHECK_EQ(ofc_heur_sample(unseen, 10, 3, 1u, 1, 1, 2, 7, fut, fills), OFC_OK);
}

/* Regression: counts whose product overflows size_t (n_samples x n_future for the
 * futures, n_samples x n_fills x n_slots for the fills) describe no array, yet the
 * sampler wrote futures and fills past the caller's buffers until it crashed, and the
 * scoring read fills past them; now both refuse them with OFC_E_COUNT, writing
 * nothing. */
static void test_counts_overflow(void)
{
    const size_t half = (size_t)-1 / 2 + 1; /* 2 x half wraps to 0 */
    uint8_t unseen[10], fut[8], fills[8], fronts[3], fives[10], cards[13];
    uint16_t moves[3] = {0, 0, 1};
    ofc_heur_rows rows;
    double score = 7;
    size_t i;
    for (i = 0; i < 10; i++) {
        unseen[i] = (uint8_t)i;
    }
    memset(fut, 0xEE, sizeof fut);
    memset(fills, 0xEE, sizeof fills);
    CHECK_EQ(ofc_heur_sample(unseen, 10, 2, 0, 1, half, 0, 7, fut, NULL), OFC_E_COUNT);
    CHECK_EQ(ofc_heur_sample(unseen, 10, 2, 0, 2, 1, half, 7, fut, fills), OFC_E_COUNT);
    CHECK_EQ(ofc_heur_sample(unseen, 10, 2, 0, 2, half, 2, 7, fut, fills), OFC_E_COUNT);
    CHECK(fut[0] == 0xEE && fills[0] == 0xEE); /* nothing written */
    CHECK_EQ(ofc_heur_sample(unseen, 10, 0, 0, 0, (size_t)-1, 0, 7, NULL, NULL), OFC_OK);
    CHECK_EQ(ofc_heur_sample(unseen, 10, 2, 0, 2, 2, 2, 7, fut, fills), OFC_OK);
    board("Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts", cards);
    card_templates(cards, fronts, fives);
    fronts[2] = 0; /* slot 0 */
    rows = one_move(fronts, fives, moves);
    CHECK_EQ(ofc_heur_score_moves(&rules, &fl, &model, &rows, fills, 2, half, 1, 0, 0.5,
                                  &score), OFC_E_COUNT);
    CHECK_EQ(ofc_heur_score_moves(&rules, &fl, &model, &rows, fills, half, 2, 1, 0, 0.5,
                                  &score), OFC_E_COUNT);
    CHECK(score == 7);
    rows.n_moves = (size_t)-1 / 3 + 1; /* 3 row indices each: no array */
    CHECK_EQ(ofc_heur_score_moves(&rules, &fl, &model, &rows, fills, 2, 2, 1, 0, 0.5,
                                  &score), OFC_E_COUNT);
    CHECK(score == 7);
}

static void test_model_check(void)
{
    CHECK_EQ(ofc_heur_model_check(&model), OFC_OK);
    model.row[1][100].win = (float)NAN;
    CHECK_EQ(ofc_heur_model_check(&model), OFC_E_VALUE);
    model.row[1][100].win = 0.5f;
    model.fl_value[3] = HUGE_VAL;
    CHECK_EQ(ofc_heur_model_check(&model), OFC_E_VALUE);
    model.fl_value[3] = 0;
    CHECK_EQ(ofc_heur_model_check(NULL), OFC_E_VALUE);
}

/* ofc_heur_row.reserved must be 0 (bitwise: +0.0f), like every reserved field: NaN,
 * -0.0f, a denormal and 1.0f are refused, wherever the row is. */
static void test_model_check_reserved(void)
{
    const float bad[4] = {(float)NAN, -0.0f, 1e-45f, 1.0f};
    const size_t where[3][2] = {{0, 1}, {2, OFC_STRENGTH_TABLE_SIZE - 1}, {1, 0}};
    size_t i, j;
    for (i = 0; i < 4; i++) {
        for (j = 0; j < 3; j++) {
            model.row[where[j][0]][where[j][1]].reserved = bad[i];
            CHECK_EQ(ofc_heur_model_check(&model), OFC_E_VALUE);
            model.row[where[j][0]][where[j][1]].reserved = 0.0f;
            CHECK_EQ(ofc_heur_model_check(&model), OFC_OK);
        }
    }
}

static void test_fl_best_threshold(void)
{
    /* Entries QQ -> 17 and KK -> 14: a KK front takes the best threshold met (14). */
    ofc_fl_rules t = fl;
    uint8_t b[13];
    t.n_entry = 2;
    t.entry_cards[0] = 17;
    t.entry_front[1] = ofc_rank3_unchecked(44, 45, 2); /* Kc Kd 2h */
    t.entry_cards[1] = 14;
    board("Kh Ks 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts", b);
    b[1] = test_card("Kd");
    CHECK_EQ(ofc_fl_next_cards(&rules, &t, b, 0), 14);
    board("Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts", b);
    CHECK_EQ(ofc_fl_next_cards(&rules, &t, b, 0), 17);
}

int main(void)
{
    size_t row, s;
    ofc_rules_init_ofc(&rules);
    ofc_fl_rules_init_standard(&fl, 14);
    for (row = 0; row < OFC_ROWS; row++) {
        for (s = 0; s < OFC_STRENGTH_TABLE_SIZE; s++) {
            model.row[row][s].value = 1.5f;
            model.row[row][s].win = 0.5f;
            model.row[row][s].lose = 0.5f;
        }
    }
    model.foul_value = -9.0;
    model.fl_value[14] = 10.0;
    test_values();
    test_scores();
    test_scores_without_slots();
    test_sample();
    test_sample_rounds_overflow();
    test_counts_overflow();
    test_model_check();
    test_model_check_reserved();
    test_fl_best_threshold();
    printf("test_heuristic: %d checks, %d failures\n", checks, failures);
    return failures != 0;
}
