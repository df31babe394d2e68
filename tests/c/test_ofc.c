/* test_ofc.c -- C-level tests of the public API in csrc/include/ofc_fast.h.
 *
 * Built by tests/c/run.sh with -std=c99 -Wall -Wextra -Werror -pedantic, once plain
 * and once under AddressSanitizer + UndefinedBehaviorSanitizer.  Exhaustive where the
 * space is small (every 5-card and 3-card hand); the ordering proof against an
 * independent reference lives in the Python tests (tests/support/reference.py). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ofc_fast.h"

#include "check.h"

static uint16_t r5(const char *t)
{
    uint8_t c[5];
    CHECK_EQ(test_cards(t, c), 5);
    return ofc_rank5_unchecked(c[0], c[1], c[2], c[3], c[4]);
}

static uint16_t r3(const char *t)
{
    uint8_t c[3];
    CHECK_EQ(test_cards(t, c), 3);
    return ofc_rank3_unchecked(c[0], c[1], c[2]);
}

static void test_version(void)
{
    CHECK_EQ(ofc_version_number(), OFC_VERSION_NUMBER);
    CHECK(strcmp(ofc_version_string(), OFC_VERSION_STRING) == 0);
}

/* Every 5-card hand: 7,462 classes, standard category counts, Kev numbers 1..7462. */
static void test_all_five_card_hands(void)
{
    static unsigned char seen[OFC_STRENGTH_TABLE_SIZE];
    long long per_category[10] = {0};
    static const long long expected[10] = {1302540, 1098240, 123552, 54912, 10200,
                                           5108,    3744,    624,    36,    4};
    int a, b, c, d, e, classes = 0, s;
    memset(seen, 0, sizeof seen);
    for (a = 0; a < 52; a++)
        for (b = a + 1; b < 52; b++)
            for (c = b + 1; c < 52; c++)
                for (d = c + 1; d < 52; d++)
                    for (e = d + 1; e < 52; e++) {
                        uint16_t st = ofc_rank5_unchecked((uint8_t)a, (uint8_t)b, (uint8_t)c,
                                                          (uint8_t)d, (uint8_t)e);
                        per_category[ofc_category_of(st)]++;
                        seen[st] = 1;
                    }
    for (s = 1; s <= OFC_STRENGTH_MAX; s++) {
        if (seen[s]) {
            classes++;
            CHECK_EQ(ofc_strength_cards((uint16_t)s), 5);
            CHECK_EQ(ofc_strength_from_kev(ofc_kev_rank((uint16_t)s)), s);
        }
    }
    CHECK_EQ(classes, 7462);
    for (s = 0; s < 10; s++) {
        CHECK_EQ(per_category[s], expected[s]);
    }
}

/* Every 3-card hand: 455 classes, disjoint from the 5-card strengths. */
static void test_all_three_card_hands(void)
{
    static unsigned char seen[OFC_STRENGTH_TABLE_SIZE];
    int a, b, c, s, classes = 0, trips = 0, pairs = 0, high = 0;
    memset(seen, 0, sizeof seen);
    for (a = 0; a < 52; a++)
        for (b = a + 1; b < 52; b++)
            for (c = b + 1; c < 52; c++) {
                uint16_t st = ofc_rank3_unchecked((uint8_t)a, (uint8_t)b, (uint8_t)c);
                CHECK(st == ofc_rank3_unchecked((uint8_t)c, (uint8_t)a, (uint8_t)b));
                seen[st] = 1;
                switch (ofc_category_of(st)) {
                case OFC_TRIPS: trips++; break;
                case OFC_ONE_PAIR: pairs++; break;
                case OFC_HIGH_CARD: high++; break;
                default: CHECK(0);
                }
            }
    for (s = 1; s <= OFC_STRENGTH_MAX; s++) {
        if (seen[s]) {
            classes++;
            CHECK_EQ(ofc_strength_cards((uint16_t)s), 3);
            CHECK_EQ(ofc_kev_rank((uint16_t)s), 0);
        }
    }
    CHECK_EQ(classes, 455);
    CHECK_EQ(trips, 52);
    CHECK_EQ(pairs, 3744);
    CHECK_EQ(high, 18304);
}

static void test_pinned_orders(void)
{
    CHECK_EQ(r5("As Ks Qs Js Ts"), OFC_STRENGTH_MAX);
    CHECK_EQ(ofc_category_of(r5("As Ks Qs Js Ts")), OFC_ROYAL_FLUSH);
    CHECK_EQ(ofc_category_of(r5("Ks Qs Js Ts 9s")), OFC_STRAIGHT_FLUSH);
    CHECK_EQ(ofc_kev_rank(r5("7c 5d 4h 3s 2c")), 7462);
    CHECK_EQ(ofc_kev_rank(r5("Ad Kd Qd Jd Td")), 1);
    CHECK(r5("5h 4d 3c 2s Ah") < r5("6h 5d 4c 3s 2h"));   /* wheel is the lowest straight */
    CHECK(r5("5h 4d 3c 2s Ah") > r5("Ah Ad Ac Kd Qs"));   /* straight beats trips */
    CHECK(r3("Qh Qd 5c") > r5("Qs Qc 4d 3h 2s"));         /* R-ORDER-2 */
    CHECK(r3("Qh Qd 5c") < r5("Qs Qc 5d 3h 2s"));
    CHECK(r3("Qh Qd 7c") > r5("Qs Qc 6d 5h 4s"));         /* front over middle: foul */
    CHECK(r3("Kh Ks 3c") > r3("Kd Kc 2c"));               /* R-RANK-8, EX-4 */
    CHECK(r3("Qh Qd Ac") > r5("Qs Qc Kd 3h 2s"));         /* EX-17 */
    CHECK(r3("Ah Ad Ac") > r5("2c 2d 2h 4c 3d"));         /* front AAA beats 2-2-2-4-3 */
    CHECK(r3("2h 2d 2c") < r5("2s 3d 2h 2c 4d"));         /* 2-2-2 below 2-2-2-4-3 */
    CHECK(r3("Ah Ad Ac") < r5("5h 4d 3c 2s Ah"));         /* any straight beats trips */
    CHECK(ofc_low27(r5("7c 5d 4h 3s 2c")) == 7462);
    CHECK(ofc_low27(r5("Ac 2d 3h 4s 5c")) < ofc_low27(r5("Kc 2d 3h 4s 5c")));
    CHECK(ofc_low27(r5("6c 5d 4h 3s 2c")) < ofc_low27(r5("8c 5d 4h 3s 2c")));
    CHECK_EQ(ofc_low27(r3("Ah Ad Ac")), 0);
}

static void test_validation(void)
{
    int32_t ok5[5] = {51, 47, 43, 39, 35}, dup[5] = {0, 1, 2, 3, 3};
    int32_t bad[5] = {0, 1, 2, 3, 52}, neg[3] = {0, -1, 2};
    uint8_t hands[15] = {51, 47, 43, 39, 35, 0, 1, 2, 3, 4, 9, 9, 10, 11, 12};
    int32_t out[3] = {0, 0, 0};
    size_t badi = 99;
    CHECK_EQ(ofc_rank(ok5, 5, 5), OFC_STRENGTH_MAX);
    CHECK_EQ(ofc_rank(ok5, 5, 3), OFC_E_COUNT);
    CHECK_EQ(ofc_rank(ok5, 4, 0), OFC_E_COUNT);
    CHECK_EQ(ofc_rank(NULL, 0, 0), OFC_E_COUNT);
    CHECK_EQ(ofc_rank(dup, 5, 0), OFC_E_DUPLICATE);
    CHECK_EQ(ofc_rank(bad, 5, 0), OFC_E_CARD);
    CHECK_EQ(ofc_rank(neg, 3, 3), OFC_E_CARD);
    CHECK_EQ(ofc_rank5_batch(hands, 3, out, &badi), OFC_E_DUPLICATE);
    CHECK_EQ(badi, 2);
    CHECK_EQ(out[0], 0); /* a bad hand leaves out untouched */
    hands[12] = 200;
    hands[11] = 200;
    CHECK_EQ(ofc_rank5_batch(hands + 5, 2, out, &badi), OFC_E_CARD);
    CHECK_EQ(badi, 1);
    CHECK_EQ(ofc_rank5_batch(hands, 0, out, NULL), OFC_OK);
    CHECK_EQ(ofc_rank3_batch(hands, 2, out, &badi), OFC_OK);
    CHECK_EQ(ofc_category_of(0), OFC_E_STRENGTH);
    CHECK_EQ(ofc_category_of(OFC_STRENGTH_MAX + 1), OFC_E_STRENGTH);
    CHECK_EQ(ofc_strength_info(0), 0);
    CHECK_EQ(ofc_kev_rank(65535), 0);
    CHECK_EQ(ofc_strength_from_kev(0), 0);
    CHECK_EQ(ofc_strength_from_kev(7463), 0);
    CHECK_EQ(ofc_low27(65535), 0);
}

/* Evaluates a board given as "front / middle / back" text. */
static int32_t eval_text(const ofc_rules *r, const char *text, ofc_board_eval *out)
{
    uint8_t c[13];
    CHECK_EQ(test_cards(text, c), 13);
    return ofc_eval_board(r, c, out);
}

static void test_boards(const ofc_rules *ofc)
{
    ofc_board_eval e;
    uint16_t st[3];
    uint8_t c[13];
    CHECK_EQ(eval_text(ofc, "Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts", &e), OFC_OK);
    CHECK_EQ(e.foul, 0);
    CHECK_EQ(e.royalty[0], 7);
    CHECK_EQ(e.royalty[1], 12);
    CHECK_EQ(e.royalty[2], 25);
    /* QQ5 over QQ432 fouls; QQ5 over QQ532 does not; QQ7 over QQ654 fouls. */
    CHECK_EQ(eval_text(ofc, "Qh Qd 5c / Qs Qc 4d 3h 2s / Ah Ad Ac Kd Ks", &e), OFC_OK);
    CHECK_EQ(e.foul, 1);
    CHECK_EQ(e.royalty[0] + e.royalty[1] + e.royalty[2], 0);
    CHECK_EQ(eval_text(ofc, "Qh Qd 5c / Qs Qc 5d 3h 2s / Ah Ad Ac Kd Ks", &e), OFC_OK);
    CHECK_EQ(e.foul, 0);
    CHECK_EQ(eval_text(ofc, "Qh Qd 7c / Qs Qc 6d 5h 4s / Ah Ad Ac Kd Ks", &e), OFC_OK);
    CHECK_EQ(e.foul, 1);
    /* Equal middle and back (same straight in other suits) is legal by default. */
    CHECK_EQ(eval_text(ofc, "2c 3d 4h / 9c Td Jh Qs Kc / 9d Th Js Qc Kd", &e), OFC_OK);
    CHECK_EQ(e.strength[1], e.strength[2]);
    CHECK_EQ(e.foul, 0);
    st[0] = e.strength[0];
    st[1] = e.strength[1];
    st[2] = e.strength[2];
    CHECK_EQ(ofc_is_foul(ofc, st), 0);
    st[0] = e.strength[1]; /* a 5-card strength in front */
    CHECK_EQ(ofc_is_foul(ofc, st), OFC_E_STRENGTH);
    /* Bad boards. */
    test_cards("Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts", c);
    c[12] = c[0];
    CHECK_EQ(ofc_eval_board(ofc, c, &e), OFC_E_DUPLICATE);
    c[12] = 52;
    CHECK_EQ(ofc_eval_board(ofc, c, &e), OFC_E_CARD);
}

static void test_strict_orders(void)
{
    ofc_rules r;
    ofc_board_eval e;
    CHECK_EQ(ofc_rules_init_ofc(&r), OFC_OK);
    r.order_rule = OFC_ORDER_STRICT;
    CHECK_EQ(eval_text(&r, "2c 3d 4h / 9c Td Jh Qs Kc / 9d Th Js Qc Kd", &e), OFC_OK);
    CHECK_EQ(e.foul, 1);
    r.order_rule = OFC_ORDER_NONSTRICT;
    CHECK_EQ(eval_text(&r, "2c 3d 4h / 9c Td Jh Qs Kc / 9d Th Js Qc Kd", &e), OFC_OK);
    CHECK_EQ(e.foul, 0);
    r.order_rule = 2; /* the removed "mixed" value */
    CHECK_EQ(ofc_rules_check(&r), OFC_E_RULES);
    r.order_rule = 7;
    CHECK_EQ(ofc_rules_check(&r), OFC_E_RULES);
    CHECK_EQ(ofc_row_value(&r, OFC_MIDDLE, OFC_STRENGTH_MAX), OFC_E_RULES);
    r.order_rule = OFC_ORDER_NONSTRICT;
    CHECK_EQ(ofc_row_value(&r, OFC_BACK, OFC_STRENGTH_MAX), OFC_STRENGTH_MAX);
    CHECK_EQ(ofc_row_value(&r, OFC_FRONT, OFC_STRENGTH_MAX), OFC_E_STRENGTH);
    CHECK_EQ(ofc_row_value(&r, 3, OFC_STRENGTH_MAX), OFC_E_VALUE);
    CHECK_EQ(ofc_row_value(NULL, OFC_BACK, OFC_STRENGTH_MAX), OFC_E_RULES);
    r.middle_lowball = 1;
    CHECK_EQ(ofc_row_value(&r, OFC_MIDDLE, ofc_rank5_unchecked(20, 13, 10, 7, 1)), 7462);
    CHECK_EQ(ofc_row_value(&r, OFC_BACK, OFC_STRENGTH_MAX), OFC_STRENGTH_MAX);
    CHECK_EQ(ofc_rules_check(NULL), OFC_E_RULES);
    CHECK_EQ(ofc_rules_init_ofc(NULL), OFC_E_RULES);
}

static int32_t score_text(const ofc_rules *r, const char *a, const char *b,
                          ofc_pair_score *out)
{
    uint8_t ca[13], cb[13], both[26];
    ofc_pair_detail d;
    ofc_board_eval ea, eb;
    int32_t status;
    CHECK_EQ(test_cards(a, ca), 13);
    CHECK_EQ(test_cards(b, cb), 13);
    status = ofc_score_boards(r, ca, cb, out);
    /* ofc_score_boards_detail() on the same cards: the same status and score, and
     * the evaluations ofc_eval_board() gives. */
    memcpy(both, ca, 13);
    memcpy(both + 13, cb, 13);
    CHECK_EQ(ofc_score_boards_detail(r, both, &d), status);
    if (status == OFC_OK) {
        CHECK(memcmp(&d.score, out, sizeof d.score) == 0);
        CHECK_EQ(ofc_eval_board(r, ca, &ea), OFC_OK);
        CHECK_EQ(ofc_eval_board(r, cb, &eb), OFC_OK);
        CHECK(memcmp(&d.a, &ea, sizeof ea) == 0);
        CHECK(memcmp(&d.b, &eb, sizeof eb) == 0);
    }
    return status;
}

static void test_scoring(const ofc_rules *ofc)
{
    ofc_rules classic, c24;
    ofc_pair_score s;
    const char *royal = "Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts";
    const char *plain = "2h 3d 4c / 6s 6h 7d 7c 8d / Ah Ad Kh Kd 8c";
    const char *fouled = "Ah Ad 4c / Kh Kd 3h 3d 8c / 6s 6h 7d 7c 8d";
    uint8_t a[26], b[26];
    int32_t net[2];
    size_t badi = 9;
    CHECK_EQ(score_text(ofc, royal, plain, &s), OFC_OK);
    CHECK_EQ(s.net, 3 + 3 + 44); /* sweep 6, royalties 7 + 12 + 25 */
    CHECK_EQ(s.sweep, 1);
    CHECK_EQ(s.rows[0] + s.rows[1] + s.rows[2], 3);
    CHECK_EQ(score_text(ofc, plain, royal, &s), OFC_OK);
    CHECK_EQ(s.net, -50);
    /* EX-7: a fouled board pays 6 plus the opponent's royalties; two fouls: 0. */
    CHECK_EQ(score_text(ofc, fouled, royal, &s), OFC_OK);
    CHECK_EQ(s.net, -(6 + 44));
    CHECK_EQ(score_text(ofc, fouled, "Qh Qd Ac / Qs Qc Kc 3s 2s / As Ts Jc Js 9s", &s),
             OFC_OK);
    CHECK_EQ(s.net, 0);
    /* Classic: EX-2, A pays B 3. */
    CHECK_EQ(ofc_rules_init_classic(&classic, 0), OFC_OK);
    CHECK_EQ(score_text(&classic, "6c 6d 6h / 4c 4d 4h 9c 9d / Kc Kd Kh 8c 8d",
                        "Qc Qd 7c / Jc Jd Jh 2c 2d / 5c 5d 5h 5s Ac", &s), OFC_OK);
    CHECK_EQ(s.net, -3);
    CHECK_EQ(ofc_rules_init_classic(&c24, 1), OFC_OK);
    CHECK_EQ(score_text(&c24, royal, plain, &s), OFC_OK);
    CHECK_EQ(s.net, 1 + 2 + 5 + 1); /* rows at win-only values + majority */
    /* Batch and its errors. */
    test_cards(royal, a);
    test_cards(plain, b);
    test_cards(plain, a + 13);
    test_cards(royal, b + 13);
    CHECK_EQ(ofc_score_pairs(ofc, a, b, 2, net, &badi), OFC_OK);
    CHECK_EQ(net[0], 50);
    CHECK_EQ(net[1], -50);
    b[20] = a[13]; /* a card on both boards of pair 1 */
    net[0] = 7;
    CHECK_EQ(ofc_score_pairs(ofc, a, b, 2, net, &badi), OFC_E_DUPLICATE);
    CHECK_EQ(badi, 1);
    CHECK_EQ(net[0], 7); /* a bad pair leaves net untouched */
    CHECK_EQ(ofc_score_boards(ofc, a + 13, b + 13, &s), OFC_E_DUPLICATE);
    {
        uint8_t both[26];
        ofc_pair_detail d;
        memcpy(both, a + 13, 13);
        memcpy(both + 13, b + 13, 13);
        CHECK_EQ(ofc_score_boards_detail(ofc, both, &d), OFC_E_DUPLICATE);
        CHECK_EQ(ofc_score_boards_detail(ofc, NULL, &d), OFC_E_VALUE);
        CHECK_EQ(ofc_score_boards_detail(ofc, both, NULL), OFC_E_VALUE);
        CHECK_EQ(ofc_score_boards_detail(NULL, both, &d), OFC_E_RULES);
    }
    b[20] = 200; /* a byte that is no card, the other 25 cards distinct */
    CHECK_EQ(ofc_score_pairs(ofc, a, b, 2, net, &badi), OFC_E_CARD);
    CHECK_EQ(badi, 1);
    a[13] = 255;
    CHECK_EQ(ofc_score_pairs(ofc, a, b, 2, net, &badi), OFC_E_CARD);
    test_cards(plain, a + 13);
    test_cards(royal, b + 13);
    b[0] = b[1]; /* a repeat inside board b of pair 0 */
    CHECK_EQ(ofc_score_pairs(ofc, a, b, 2, net, &badi), OFC_E_DUPLICATE);
    CHECK_EQ(badi, 0);
}

/* Net of a pair by the validating ofc_score_evals(), checked against the unchecked
 * twin; `detail` may be NULL. */
static int32_t score_net(const ofc_rules *r, const ofc_board_eval *a,
                         const ofc_board_eval *b, const ofc_pair_context *ctx,
                         ofc_pair_score *detail)
{
    ofc_pair_score s;
    CHECK_EQ(ofc_score_evals(r, a, b, ctx, &s), OFC_OK);
    CHECK_EQ(ofc_score_evals_unchecked(r, a, b, ctx, NULL), s.net);
    if (detail) {
        *detail = s;
    }
    return s.net;
}

/* ofc_score_evals() on hand-built input (the fuzz audit crashed it under ASan). */
static void test_score_evals_checks(void)
{
    ofc_rules r;
    ofc_board_eval ea, eb;
    ofc_pair_context bad_ties = {2, 0, 0, 0}, bad_all = {0, 2, 0, 0};
    ofc_pair_score s;
    static const uint8_t cards[13] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    CHECK_EQ(ofc_rules_init_ofc(&r), OFC_OK);
    CHECK_EQ(eval_text(&r, "2c 3d 5h / 6c 6d 7h 7s 9c / Kc Kd Ah As 8c", &ea), OFC_OK);
    CHECK_EQ(eval_text(&r, "2d 3h 5s / 6h 6s 7c 7d 9d / Kh Ks Ac Ad 8d", &eb), OFC_OK);
    CHECK_EQ(ofc_score_evals(&r, &ea, &eb, NULL, NULL), OFC_E_VALUE);
    CHECK_EQ(ofc_score_evals(&r, NULL, &eb, NULL, &s), OFC_E_VALUE);
    CHECK_EQ(ofc_score_evals(NULL, &ea, &eb, NULL, &s), OFC_E_RULES);
    CHECK_EQ(ofc_score_evals(&r, &ea, &eb, &bad_ties, &s), OFC_E_VALUE);
    CHECK_EQ(ofc_score_evals(&r, &ea, &eb, &bad_all, &s), OFC_E_VALUE);
    ea.strength[0] = 65535; /* the crashing input: no strength at all */
    CHECK_EQ(ofc_score_evals(&r, &ea, &eb, NULL, &s), OFC_E_STRENGTH);
    ea.strength[0] = eb.strength[1]; /* a 5-card strength in the front */
    CHECK_EQ(ofc_score_evals(&r, &ea, &eb, NULL, &s), OFC_E_STRENGTH);
    ea.strength[0] = eb.strength[0];
    ea.foul = 2;
    CHECK_EQ(ofc_score_evals(&r, &ea, &eb, NULL, &s), OFC_E_VALUE);
    ea.foul = 0;
    r.sweep_bonus = OFC_BONUS_LIMIT + 1;
    CHECK_EQ(ofc_score_evals(&r, &ea, &eb, NULL, &s), OFC_E_RULES);
    CHECK_EQ(ofc_rules_check(&r), OFC_E_RULES);
    r.sweep_bonus = 3;
    r.sweep_multiplier = OFC_MULTIPLIER_MAX + 1;
    CHECK_EQ(ofc_eval_board(&r, cards, &ea), OFC_E_RULES);
    CHECK_EQ(ofc_rules_check(&r), OFC_E_RULES);
}

/* House ties, sweep multipliers, sweep-all bonus, foul without sweep. */
static void test_pair_context(void)
{
    ofc_rules r;
    ofc_board_eval ea, eb, ef;
    ofc_pair_context house = {1, 0, 0, 0}, all = {0, 1, 0, 0};
    ofc_pair_score s;
    /* Same ranks in every row: three ties. */
    CHECK_EQ(ofc_rules_init_ofc(&r), OFC_OK);
    CHECK_EQ(eval_text(&r, "2c 3d 5h / 6c 6d 7h 7s 9c / Kc Kd Ah As 8c", &ea), OFC_OK);
    CHECK_EQ(eval_text(&r, "2d 3h 5s / 6h 6s 7c 7d 9d / Kh Ks Ac Ad 8d", &eb), OFC_OK);
    CHECK_EQ(score_net(&r, &ea, &eb, NULL, &s), 0);
    CHECK_EQ(score_net(&r, &ea, &eb, &house, &s), 6); /* house takes 3 + sweep */
    CHECK_EQ(s.rows[0] + s.rows[1] + s.rows[2], 3);
    r.sweep_multiplier = 2;
    r.sweep_all_multiplier = 3;
    r.sweep_all_bonus = 1;
    CHECK_EQ(score_net(&r, &ea, &eb, &house, NULL), 12);
    house.a_sweeps_all = 1;
    CHECK_EQ(score_net(&r, &ea, &eb, &house, NULL), 19);
    CHECK_EQ(score_net(&r, &ea, &eb, &all, NULL), 0); /* no sweep: ties split */
    CHECK_EQ(eval_text(&r, "Ah Ad 4c / Kh Kd 3h 3d 8c / 6s 6h 7d 7c 8d", &ef), OFC_OK);
    CHECK_EQ(ef.foul, 1);
    r.sweep_multiplier = 1;
    r.foul_pays_sweep = 0;
    CHECK_EQ(score_net(&r, &ea, &ef, NULL, NULL), 3);
    r.sweep_multiplier = 0;
    CHECK_EQ(ofc_rules_check(&r), OFC_E_RULES);
}

static void test_eval_batch(const ofc_rules *ofc)
{
    uint8_t boards[26];
    int32_t strength[6], royalty[6];
    uint8_t foul[2];
    size_t badi = 0;
    test_cards("Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts", boards);
    test_cards("Qh Qd 5c / Qs Qc 4d 3h 2s / Ah Ad Ac Kd Ks", boards + 13);
    CHECK_EQ(ofc_eval_boards(ofc, boards, 2, strength, royalty, foul, &badi), OFC_OK);
    CHECK_EQ(foul[0], 0);
    CHECK_EQ(foul[1], 1);
    CHECK_EQ(royalty[2], 25);
    CHECK_EQ(royalty[3] + royalty[4] + royalty[5], 0);
    CHECK_EQ(strength[2], OFC_STRENGTH_MAX);
    CHECK_EQ(ofc_eval_boards(ofc, boards, 2, NULL, NULL, NULL, NULL), OFC_OK);
    boards[20] = 77;
    strength[0] = royalty[0] = -1;
    foul[0] = 9;
    CHECK_EQ(ofc_eval_boards(ofc, boards, 2, strength, royalty, foul, &badi), OFC_E_CARD);
    CHECK_EQ(badi, 1);
    CHECK_EQ(strength[0], -1); /* a bad board leaves the outputs untouched */
    CHECK_EQ(royalty[0], -1);
    CHECK_EQ(foul[0], 9);
}

int main(void)
{
    ofc_rules *ofc = (ofc_rules *)malloc(sizeof(ofc_rules));
    if (!ofc || ofc_rules_init_ofc(ofc) != OFC_OK || ofc_rules_check(ofc) != OFC_OK) {
        fprintf(stderr, "rules init failed\n");
        return 2;
    }
    test_version();
    test_all_five_card_hands();
    test_all_three_card_hands();
    test_pinned_orders();
    test_validation();
    test_boards(ofc);
    test_strict_orders();
    test_scoring(ofc);
    test_eval_batch(ofc);
    test_pair_context();
    test_score_evals_checks();
    free(ofc);
    printf("%d checks, %d failures\n", checks, failures);
    return failures ? 1 : 0;
}
