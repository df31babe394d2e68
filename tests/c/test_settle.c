/* test_settle.c -- C-level tests of csrc/include/ofc_settle.h (table settlement, R-SETTLE-*,
 * R-STAKES-*, R-VAR-*, R-NAT-*).
 *
 * Built by tests/c/run.sh with -std=c99 -Wall -Wextra -Werror -pedantic, once plain
 * and once under AddressSanitizer + UndefinedBehaviorSanitizer.  The worked examples
 * of docs/rules.md that involve settlement (EX-3, EX-10, EX-11, EX-12, EX-13, EX-14), the
 * house, naturals, every refusal, and random deals checked for zero sum, items adding
 * up and the fast path (no items) agreeing with the itemised one.  The comparison with
 * an independent reference over random tables of every mode is in the Python tests
 * (tests/test_settle_differential.py, tests/support/reference_settle.py). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ofc_fast.h"
#include "ofc_settle.h"

#include "check.h"

/* EX-3 boards (tests/test_worked_examples.py): A sweeps B, C sweeps A and B, D beats
 * A's back only; no row bonus hand anywhere. */
static const char *const EX3[4] = {
    "8h 8d 3c / Th Td 4c 4d 2h / Ks Kc Kd 6c 7d", /* A: 88 / TT44 / KKK */
    "7h 7s 2d / 9h 9d 3h 3s 2s / Qs Qc Qh 5c 6d", /* B: 77 / 9933 / QQQ */
    "Js Jh 5d / Ah Ad 5h 5s 9c / 9s Ts Jd Qd Kh", /* C: JJ / AA55 / K straight */
    "As 8s 3d / 6h 6s 4h 4s 2c / Ac Jc Tc 8c 7c", /* D: A-high / 6644 / flush */
};
/* EX-11: seat 0 wins every row outright. */
static const char *const POOL[4] = {
    "Ac Ad 2c / 9h 9s 9d 9c 3d / 2h 3h 4h 5h 6h",
    "Kc Kd 3c / Th Tc Td 4c 4d / Jh Jc Jd Js 5c",
    "7c 8d 2d / Qh Qs 5d 6d 7d / Kh Ks 8h 8s 7h",
    "2s 3s 8c / 6c 6s 4s 5s 7s / Qc Qd Ah As Ts",
};
/* EX-1 table W N E S (all 52 cards; W holds three aces, E one). */
static const char *const EX1[4] = {
    "Qh Js 3d / 6c 6d Ts Jh Qs / Ac Ad Ah Kc Kd",
    "8c 8d 2d / 9c 9d 4d 5s 7s / 6h 7c 8h 9h Th",
    "As 4h 2s / 3h 3s 4s 6s 9s / Jc Jd 7d 7h 2h",
    "Qc Qd 2c / Kh Ks 3c 4c 5d / Tc Td 5c 5h 8s",
};
static const char *const DRAGON = "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac";
static const char *const NOT_DRAGON = "2d 3h 4s / 5c 6d 7h 8s 9c / Td Jh Qs Kc Ad";

static void deal(ofc_settle_input *in, const char *const *boards, int players, int button)
{
    int s;
    ofc_settle_input_init(in, (uint8_t)players, (uint8_t)button);
    for (s = 0; s < players; s++) {
        CHECK_EQ(test_cards(boards[s], in->cards[s]), 13);
    }
}

/* Per-seat sum of the items (payee +, payer -). */
static void items_net(const ofc_settlement *s, int32_t net[4])
{
    int k;
    memset(net, 0, 4 * sizeof net[0]);
    for (k = 0; k < s->n_items; k++) {
        net[s->items[k].payee] += s->items[k].amount;
        net[s->items[k].payer] -= s->items[k].amount;
    }
}

static void check_net(const ofc_settlement *s, int32_t a, int32_t b, int32_t c, int32_t d)
{
    CHECK_EQ(s->net[0], a);
    CHECK_EQ(s->net[1], b);
    CHECK_EQ(s->net[2], c);
    CHECK_EQ(s->net[3], d);
}

/* Hawaiian Gardens for boards without bonus hands: 1-6, sweep of all +3 (R-VAR-HG-2),
 * from the dealer (R-SETTLE-3), chip rule (R-STAKES-3). */
static void hawaiian_gardens(ofc_rules *r, ofc_table_rules *t)
{
    ofc_rules_init_classic(r, 0);
    r->sweep_all_bonus = 3;
    ofc_table_rules_init(t);
    t->start = OFC_START_BUTTON;
    t->stakes = OFC_STAKES_CHIPS;
    t->surrender_cost = 3;
}

static void test_ex13_settlement_order(void)
{
    uint8_t p[6][2];
    static const uint8_t wnes[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
    static const uint8_t hg2[6][2] = {{2, 3}, {2, 0}, {2, 1}, {3, 0}, {3, 1}, {0, 1}};
    CHECK_EQ(ofc_settlement_order(4, 3, OFC_START_LEFT_OF_BUTTON, p), 6); /* S deals */
    CHECK(memcmp(p, wnes, sizeof p) == 0);
    CHECK_EQ(ofc_settlement_order(4, 0, OFC_START_BUTTON, p), 6); /* HG, A deals */
    CHECK(memcmp(p, wnes, sizeof p) == 0);
    CHECK_EQ(ofc_settlement_order(4, 2, OFC_START_BUTTON, p), 6);
    CHECK(memcmp(p, hg2, sizeof p) == 0);
    /* three-handed, D = 0, SB = 1, BB = 2: BB-SB, then SB-D, then BB-D */
    CHECK_EQ(ofc_settlement_order(3, 0, OFC_START_LEFT_OF_BUTTON, p), 3);
    CHECK(p[0][0] == 1 && p[0][1] == 2 && p[1][0] == 1 && p[1][1] == 0 && p[2][0] == 2);
    CHECK_EQ(ofc_settlement_order(1, 0, 0, p), OFC_E_SEAT);
    CHECK_EQ(ofc_settlement_order(5, 0, 0, p), OFC_E_SEAT);
    CHECK_EQ(ofc_settlement_order(3, 3, 0, p), OFC_E_SEAT);
    CHECK_EQ(ofc_settlement_order(3, 0, 2, p), OFC_E_VALUE);
    CHECK_EQ(ofc_settlement_order(3, 0, 0, NULL), OFC_E_VALUE);
}

static void test_ex3_apply_stakes(void)
{
    static const uint8_t pairs[3][2] = {{0, 1}, {0, 2}, {0, 3}};
    static const int32_t amount[3] = {6, -6, 0}, stacks[4] = {8, 20, 20, 20};
    static const int32_t negative[4] = {8, -1, 20, 20};
    static const uint8_t far[1][2] = {{0, 4}};
    int32_t actual[3];
    CHECK_EQ(ofc_apply_stakes(OFC_STAKES_CHIPS, stacks, 4, pairs, amount, 3, actual), OFC_OK);
    CHECK(actual[0] == 6 && actual[1] == -2 && actual[2] == 0); /* A ends with 12 */
    CHECK_EQ(ofc_apply_stakes(OFC_STAKES_WIN_CAP, stacks, 4, pairs, amount, 3, actual),
             OFC_OK);
    CHECK(actual[0] == 6 && actual[1] == -6 && actual[2] == 0); /* A has 8 before A-D */
    CHECK_EQ(ofc_apply_stakes(OFC_STAKES_CHIPS, negative, 4, pairs, amount, 3, actual),
             OFC_E_STACKS);
    CHECK_EQ(ofc_apply_stakes(OFC_STAKES_CHIPS, stacks, 4, far, amount, 1, actual),
             OFC_E_SEAT);
    {   /* a seat paying itself: refused (it used its capacity twice, and the next
         * transfer of that seat came out reversed and over its nominal amount) */
        static const uint8_t self[2][2] = {{0, 0}, {0, 1}};
        static const int32_t ten[2] = {10, 10}, owed[2] = {8, 5};
        CHECK_EQ(ofc_apply_stakes(OFC_STAKES_CHIPS, ten, 2, self, owed, 2, actual),
                 OFC_E_SEAT);
        CHECK_EQ(ofc_apply_stakes(OFC_STAKES_WIN_CAP, ten, 2, self, owed, 2, actual),
                 OFC_E_SEAT);
    }
    CHECK_EQ(ofc_apply_stakes(7, stacks, 4, pairs, amount, 3, actual), OFC_E_VALUE);
    CHECK_EQ(ofc_apply_stakes(0, stacks, 4, NULL, amount, 3, actual), OFC_E_VALUE);
    CHECK_EQ(ofc_apply_stakes(0, stacks, 4, NULL, NULL, 0, NULL), OFC_OK);
    /* stacks holds `seats` (>= 1) stacks whatever n is: never NULL, n == 0 too */
    CHECK_EQ(ofc_apply_stakes(0, NULL, 4, NULL, NULL, 0, NULL), OFC_E_VALUE);
}

static void test_ex3_table_stakes(ofc_rules *r)
{
    ofc_table_rules t;
    ofc_settle_input in;
    ofc_settlement s;
    int32_t sum[4];
    hawaiian_gardens(r, &t);
    deal(&in, EX3, 4, 0);
    CHECK_EQ(ofc_settle(r, &t, &in, OFC_SETTLE_ITEMS, &s), OFC_OK);
    check_net(&s, 1, -11, 13, -3); /* nominal: nobody sweeps the whole table */
    in.has_stacks = 1;
    in.stacks[0] = 8;
    in.stacks[1] = in.stacks[2] = in.stacks[3] = 20;
    CHECK_EQ(ofc_settle(r, &t, &in, OFC_SETTLE_ITEMS, &s), OFC_OK);
    check_net(&s, 4, -11, 9, -2); /* EX-3: A = 8 + 6 - 2 = 12 */
    CHECK(s.stacks_after[0] == 12 && s.stacks_after[1] == 9 && s.stacks_after[2] == 29 &&
          s.stacks_after[3] == 18);
    items_net(&s, sum);
    CHECK(memcmp(sum, s.net, sizeof sum) == 0);
    CHECK_EQ(s.items[s.n_items - 2].kind, OFC_ITEM_STAKES); /* A-C cut 4, A-D cut 1 */
    CHECK(s.items[s.n_items - 2].a == 0 && s.items[s.n_items - 2].b == 2 &&
          s.items[s.n_items - 2].amount == 4 && s.items[s.n_items - 2].payer == 2);
    t.stakes = OFC_STAKES_WIN_CAP; /* [DERIVED]: no cap bites */
    CHECK_EQ(ofc_settle(r, &t, &in, 0, &s), OFC_OK);
    check_net(&s, 1, -11, 13, -3);
    CHECK(s.stacks_after[0] == 9 && s.stacks_after[2] == 33);
}

static void test_ex12_sweep_of_all(ofc_rules *r)
{
    ofc_table_rules t;
    ofc_settle_input in;
    ofc_settlement s, fast;
    hawaiian_gardens(r, &t);
    deal(&in, EX3, 3, 0);
    CHECK_EQ(ofc_settle(r, &t, &in, OFC_SETTLE_ITEMS, &s), OFC_OK);
    check_net(&s, -3, -15, 18, 0); /* C sweeps both: 9 from each; A sweeps B: 6 */
    CHECK_EQ(s.n_pairs, 3);
    CHECK_EQ(s.pairs[1].score.net, -9); /* A-C, second in order */
    CHECK_EQ(ofc_settle(r, &t, &in, 0, &fast), OFC_OK);
    CHECK(memcmp(fast.net, s.net, sizeof s.net) == 0 && fast.n_items == 0);
}

static void test_ex11_pool(ofc_rules *r)
{
    ofc_table_rules t;
    ofc_settle_input in;
    ofc_settlement s;
    int k;
    ofc_rules_init_classic(r, 0);
    ofc_table_rules_init(&t);
    t.pool_ante = 1;
    deal(&in, POOL, 4, 0);
    CHECK_EQ(ofc_settle(r, &t, &in, OFC_SETTLE_ITEMS, &s), OFC_OK);
    check_net(&s, 9, -3, -3, -3);
    t.pool_sweep_extra = 3;
    CHECK_EQ(ofc_settle(r, &t, &in, OFC_SETTLE_ITEMS, &s), OFC_OK);
    check_net(&s, 18, -6, -6, -6);
    for (k = 0; k < s.n_items; k++) {
        CHECK_EQ(s.items[k].kind, OFC_ITEM_POOL);
    }
    CHECK_EQ(s.n_pairs, 0);
    /* table stakes cap pool transfers like any pair transfer */
    in.has_stacks = 1;
    in.stacks[0] = 10;
    in.stacks[1] = in.stacks[2] = in.stacks[3] = 5;
    CHECK_EQ(ofc_settle(r, &t, &in, 0, &s), OFC_OK);
    check_net(&s, 10, -5, -5, 0); /* WIN_CAP: seat 0 wins at most its 10 */
    CHECK_EQ(s.stacks_after[0], 20);
}

static void test_ex10_surrender(ofc_rules *r)
{
    ofc_table_rules t;
    ofc_settle_input in;
    ofc_settlement s;
    hawaiian_gardens(r, &t);
    deal(&in, EX3, 3, 0);
    in.surrendered = 1u << 1;
    memset(in.cards[1], OFC_NO_CARD, 13); /* a surrendered hand is never shown */
    CHECK_EQ(ofc_settle(r, &t, &in, OFC_SETTLE_ITEMS, &s), OFC_OK);
    check_net(&s, 3 - 6, -6, 3 + 6, 0); /* 3 each to A and C; C sweeps A: 6 */
    CHECK_EQ(s.evaluated, 5);
    CHECK_EQ(s.items[0].kind, OFC_ITEM_SURRENDER);
    t.surrender_cost = -1;
    CHECK_EQ(ofc_settle(r, &t, &in, 0, &s), OFC_E_SURRENDER);
    t.surrender_cost = 3;
    t.aces_bet = 1; /* the aces bet needs the hidden cards */
    CHECK_EQ(ofc_settle(r, &t, &in, 0, &s), OFC_E_HIDDEN);
    CHECK_EQ(s.bad_seat, 1);
}

/* Regression: a surrender the table refuses (OFC_E_SURRENDER) said no seat (bad_seat -1,
 * as for an error that concerns none), where a declaration it refuses
 * (OFC_E_NO_NATURALS) names its seat; it names the first seat that surrendered. */
static void test_refused_surrender_names_its_seat(ofc_rules *r)
{
    ofc_table_rules t;
    ofc_settle_input in;
    ofc_settlement s;
    hawaiian_gardens(r, &t);
    t.surrender_cost = -1;
    deal(&in, EX3, 3, 0);
    in.surrendered = (1u << 2) | (1u << 1);
    memset(in.cards[1], OFC_NO_CARD, 13);
    CHECK_EQ(ofc_settle(r, &t, &in, 0, &s), OFC_E_SURRENDER);
    CHECK(s.bad_seat == 1 && s.bad_card == 0xFF);
    in.surrendered = 1u << 2;
    CHECK_EQ(ofc_settle(r, &t, &in, 0, &s), OFC_E_SURRENDER);
    CHECK(s.bad_seat == 2 && s.bad_card == 0xFF);
}

static void test_ex14_aces(ofc_rules *r)
{
    ofc_table_rules t;
    ofc_settle_input in;
    ofc_settlement plain, s;
    static const int32_t values[5] = {0, 1, 2, 6, 8};
    int k, found = 0;
    ofc_rules_init_classic(r, 0);
    ofc_table_rules_init(&t);
    deal(&in, EX1, 4, 3);
    CHECK_EQ(ofc_settle(r, &t, &in, 0, &plain), OFC_OK);
    t.aces_bet = 1;
    memcpy(t.aces_value, values, sizeof values);
    CHECK_EQ(ofc_settle(r, &t, &in, OFC_SETTLE_ITEMS, &s), OFC_OK);
    check_net(&s, plain.net[0] + 17, plain.net[1] - 7, plain.net[2] - 3, plain.net[3] - 7);
    for (k = 0; k < s.n_items; k++) {
        if (s.items[k].kind == OFC_ITEM_ACES && s.items[k].payee == 0 &&
            s.items[k].payer == 2) {
            found++;
            CHECK_EQ(s.items[k].amount, 5); /* 3 aces vs 1: 6 - 1 */
        }
    }
    CHECK_EQ(found, 1);
}

static void test_house(ofc_rules *r)
{
    ofc_table_rules t;
    ofc_settle_input in;
    ofc_settlement s;
    int k;
    ofc_rules_init_ofc(r);
    ofc_table_rules_init(&t);
    t.house = 1;
    deal(&in, EX1, 4, 2);
    CHECK_EQ(ofc_settle(r, &t, &in, OFC_SETTLE_ITEMS, &s), OFC_OK);
    CHECK_EQ(s.n_pairs, 3);
    for (k = 0; k < s.n_pairs; k++) {
        CHECK(s.pairs[k].a == 2 || s.pairs[k].b == 2);
    }
    CHECK_EQ(s.net[0] + s.net[1] + s.net[3], -s.net[2]);
    /* all rows tie: the house wins them (R-VAR-HOUSE-1): 3 + 3 sweep */
    test_cards("Ac Kd 7h / 8c 8d 4c 4d 2c / Tc Jc Qc Kc 9d", in.cards[0]);
    test_cards("As Kh 7d / 8h 8s 4h 4s 2d / Th Js Qd Ks 9c", in.cards[1]);
    in.players = 2;
    in.button = 1;
    CHECK_EQ(ofc_settle(r, &t, &in, 0, &s), OFC_OK);
    check_net(&s, -6, 6, 0, 0);
}

/* Every field ofc_settlement documents as written on OFC_OK is, whatever the struct
 * held before: the reserved bytes 0 (documented 0), the pairs' and items' too. */
static void test_settlement_fields_written(ofc_rules *r)
{
    ofc_table_rules t;
    ofc_settle_input in;
    static ofc_settlement s;
    int k, pass;
    ofc_rules_init_ofc(r);
    ofc_table_rules_init(&t);
    deal(&in, EX3, 4, 0);
    for (pass = 0; pass < 2; pass++) { /* without items, then with */
        memset(&s, 0xA5, sizeof s);
        CHECK_EQ(ofc_settle(r, &t, &in, pass ? OFC_SETTLE_ITEMS : 0u, &s), OFC_OK);
        CHECK(s.reserved[0] == 0 && s.reserved[1] == 0);
        CHECK(s.bad_seat == -1 && s.bad_card == 0xFF && s.winner == -1);
        CHECK_EQ(s.n_pairs, 6);
        CHECK(pass ? s.n_items > 0 : s.n_items == 0);
        for (k = 0; k < 4; k++) {
            CHECK(s.natural[k] == -1 && s.stacks_after[k] == 0);
        }
        for (k = 0; k < s.n_pairs; k++) {
            CHECK(s.pairs[k].reserved[0] == 0 && s.pairs[k].reserved[1] == 0);
        }
        for (k = 0; k < s.n_items; k++) {
            CHECK(s.items[k].reserved[0] == 0 && s.items[k].reserved[1] == 0 &&
                  s.items[k].reserved[2] == 0);
        }
    }
}

static void test_naturals(ofc_rules *r)
{
    ofc_table_rules t;
    ofc_settle_input in;
    ofc_settlement s;
    int32_t st;
    ofc_rules_init_classic(r, 0);
    ofc_table_rules_init(&t);
    test_cards(DRAGON, in.cards[0]);
    ofc_settle_input_init(&in, 2, 0);
    test_cards(DRAGON, in.cards[0]);
    test_cards(NOT_DRAGON, in.cards[1]);
    in.declared[0] = OFC_DECLARE_BEST;
    CHECK_EQ(ofc_settle(r, &t, &in, 0, &s), OFC_E_NO_NATURALS);
    t.natural_mask = OFC_NAT_BIT(OFC_NAT_SIX_PAIRS) | OFC_NAT_BIT(OFC_NAT_DRAGON);
    t.natural_rank[OFC_NAT_SIX_PAIRS] = 0;
    t.natural_rank[OFC_NAT_DRAGON] = 1;
    t.natural_units[OFC_NAT_SIX_PAIRS] = 3;
    t.natural_units[OFC_NAT_DRAGON] = 13;
    CHECK_EQ(ofc_table_rules_check(&t), OFC_OK);
    CHECK_EQ(ofc_settle(r, &t, &in, OFC_SETTLE_ITEMS, &s), OFC_OK);
    check_net(&s, 13, -13, 0, 0);
    CHECK(s.natural[0] == OFC_NAT_DRAGON && s.natural[1] == -1 && s.n_pairs == 0);
    CHECK(s.n_items == 1 && s.items[0].kind == OFC_ITEM_NATURAL);
    CHECK_EQ(s.evaluated, 2);
    in.declared[0] = OFC_NAT_SIX_PAIRS; /* a natural the cards do not make */
    CHECK_EQ(ofc_settle(r, &t, &in, 0, &s), OFC_E_NATURAL);
    CHECK_EQ(s.bad_seat, 0);
    in.declared[0] = 40;
    CHECK_EQ(ofc_settle(r, &t, &in, 0, &s), OFC_E_NATURAL);
    in.declared[0] = OFC_NAT_DRAGON;
    in.surrendered = 1;
    t.surrender_cost = 1;
    CHECK_EQ(ofc_settle(r, &t, &in, 0, &s), OFC_E_CONFLICT);
    /* natural against natural (R-NAT-6) */
    CHECK_EQ(ofc_natural_payment(&t, OFC_NAT_DRAGON, 0, OFC_NAT_SIX_PAIRS, 5, &st), 13);
    CHECK_EQ(st, OFC_OK);
    CHECK_EQ(ofc_natural_payment(&t, OFC_NAT_SIX_PAIRS, 5, OFC_NAT_SIX_PAIRS, 7, &st), -3);
    CHECK_EQ(ofc_natural_payment(&t, -1, 0, OFC_NAT_SIX_PAIRS, 7, &st), -3);
    t.naturals_rule = OFC_NATRULE_DIFFERENCE;
    CHECK_EQ(ofc_natural_payment(&t, OFC_NAT_SIX_PAIRS, 5, OFC_NAT_DRAGON, 0, &st), -10);
    CHECK_EQ(ofc_natural_payment(&t, OFC_NAT_ONE_SUIT, 5, OFC_NAT_DRAGON, 0, &st), 0);
    CHECK_EQ(st, OFC_E_NATURAL);
    CHECK_EQ(ofc_natural_payment(NULL, -1, 0, -1, 0, &st), 0);
    CHECK_EQ(st, OFC_E_RULES);
}

static void test_refusals(ofc_rules *r)
{
    ofc_table_rules t;
    ofc_settle_input in;
    ofc_settlement s;
    ofc_rules_init_ofc(r);
    ofc_table_rules_init(&t);
    deal(&in, EX1, 3, 0);
    CHECK_EQ(ofc_settle(NULL, &t, &in, 0, &s), OFC_E_VALUE);
    CHECK_EQ(ofc_settle(r, &t, &in, 0, NULL), OFC_E_VALUE);
    CHECK_EQ(ofc_settle(r, &t, &in, 2, &s), OFC_E_VALUE);
    r->sweep_multiplier = OFC_MULTIPLIER_MAX + 1; /* the rules' scalar fields are checked */
    CHECK_EQ(ofc_settle(r, &t, &in, 0, &s), OFC_E_RULES);
    r->sweep_multiplier = 1;
    r->order_rule = 2;
    CHECK_EQ(ofc_settle(r, &t, &in, 0, &s), OFC_E_RULES);
    r->order_rule = OFC_ORDER_NONSTRICT;
    CHECK_EQ(ofc_settle(r, &t, &in, 0, &s), OFC_OK);
    in.players = 1;
    CHECK_EQ(ofc_settle(r, &t, &in, 0, &s), OFC_E_SEAT);
    in.players = 3;
    t.max_players = 2;
    CHECK_EQ(ofc_settle(r, &t, &in, 0, &s), OFC_E_MAX_PLAYERS);
    t.max_players = 4;
    in.button = 3;
    CHECK_EQ(ofc_settle(r, &t, &in, 0, &s), OFC_E_SEAT);
    in.button = 0;
    in.declared[3] = OFC_NAT_DRAGON; /* a seat not at the table */
    CHECK_EQ(ofc_settle(r, &t, &in, 0, &s), OFC_E_SEAT);
    CHECK_EQ(s.bad_seat, 3);
    in.declared[3] = OFC_DECLARE_NONE;
    in.cards[2][4] = in.cards[0][0]; /* the same card on two boards */
    CHECK_EQ(ofc_settle(r, &t, &in, 0, &s), OFC_E_DUPLICATE);
    CHECK(s.bad_seat == 2 && s.bad_card == in.cards[0][0]);
    /* An error that concerns no seat or card says so (-1, 0xFF), whatever a call
     * before left there: a bad rule set and a missing table were left the seat and
     * card of the duplicate above. */
    r->sweep_multiplier = 0;
    CHECK_EQ(ofc_settle(r, &t, &in, 0, &s), OFC_E_RULES);
    CHECK(s.bad_seat == -1 && s.bad_card == 0xFF);
    r->sweep_multiplier = 1;
    CHECK_EQ(ofc_settle(r, &t, &in, 0, &s), OFC_E_DUPLICATE);
    CHECK_EQ(ofc_settle(r, NULL, &in, 0, &s), OFC_E_VALUE);
    CHECK(s.bad_seat == -1 && s.bad_card == 0xFF);
    in.has_stacks = 2; /* neither 0 nor 1: refused before the cards are looked at */
    CHECK_EQ(ofc_settle(r, &t, &in, 0, &s), OFC_E_VALUE);
    CHECK(s.bad_seat == -1 && s.bad_card == 0xFF);
    in.has_stacks = 0;
    in.cards[2][4] = 52;
    CHECK_EQ(ofc_settle(r, &t, &in, 0, &s), OFC_E_CARD);
    in.cards[2][4] = OFC_NO_CARD;
    CHECK_EQ(ofc_settle(r, &t, &in, 0, &s), OFC_E_COUNT);
    memset(in.cards[2], OFC_NO_CARD, 13); /* no cards but not surrendered */
    CHECK_EQ(ofc_settle(r, &t, &in, 0, &s), OFC_E_COUNT);
    CHECK_EQ(s.bad_seat, 2);
    deal(&in, EX1, 3, 0);
    in.has_stacks = 1;
    in.stacks[1] = -1;
    CHECK_EQ(ofc_settle(r, &t, &in, 0, &s), OFC_E_STACKS);
    in.stacks[1] = OFC_STACK_MAX + 1;
    CHECK_EQ(ofc_settle(r, &t, &in, 0, &s), OFC_E_STACKS);
    in.stacks[1] = 0;
    CHECK_EQ(ofc_settle(r, &t, &in, 0, &s), OFC_OK);
    t.house = 1;
    t.pool_ante = 1; /* pool excludes the house */
    CHECK_EQ(ofc_table_rules_check(&t), OFC_E_RULES);
    CHECK_EQ(ofc_settle(r, &t, &in, 0, &s), OFC_E_RULES);
    ofc_table_rules_init(&t);
    t.natural_rank[0] = 0; /* a rank for a natural not played */
    CHECK_EQ(ofc_table_rules_check(&t), OFC_E_RULES);
    CHECK_EQ(ofc_table_rules_check(NULL), OFC_E_RULES);
    CHECK_EQ(ofc_table_rules_init(NULL), OFC_E_VALUE);
    CHECK_EQ(ofc_settle_input_init(NULL, 2, 0), OFC_E_VALUE);
}

/* Random deals of 2-4 seats: zero sum, items add up, fast path = itemised path. */
static void test_random_deals(ofc_rules *r)
{
    ofc_table_rules t;
    ofc_settle_input in;
    ofc_settlement s, fast;
    uint32_t x = 12345u;
    int deal_no;
    ofc_rules_init_ofc(r);
    ofc_table_rules_init(&t);
    for (deal_no = 0; deal_no < 3000; deal_no++) {
        uint8_t deck[52];
        int32_t sum[4];
        int i, players = 2 + deal_no % 3;
        for (i = 0; i < 52; i++) {
            deck[i] = (uint8_t)i;
        }
        for (i = 51; i > 0; i--) {
            int j;
            uint8_t c;
            x = x * 1664525u + 1013904223u;
            j = (int)((x >> 8) % (uint32_t)(i + 1));
            c = deck[i];
            deck[i] = deck[j];
            deck[j] = c;
        }
        ofc_settle_input_init(&in, (uint8_t)players, (uint8_t)(deal_no % players));
        memcpy(in.cards, deck, 13u * (unsigned)players);
        t.stakes = (uint8_t)(deal_no & 1);
        in.has_stacks = (uint8_t)(deal_no % 4 == 3);
        for (i = 0; i < 4; i++) {
            in.stacks[i] = (int32_t)((x >> (4 * i)) % 40);
        }
        CHECK_EQ(ofc_settle(r, &t, &in, OFC_SETTLE_ITEMS, &s), OFC_OK);
        CHECK_EQ(ofc_settle(r, &t, &in, 0, &fast), OFC_OK);
        CHECK_EQ(s.net[0] + s.net[1] + s.net[2] + s.net[3], 0);
        CHECK(memcmp(fast.net, s.net, sizeof s.net) == 0);
        CHECK(memcmp(fast.stacks_after, s.stacks_after, sizeof s.net) == 0);
        items_net(&s, sum);
        CHECK(memcmp(sum, s.net, sizeof sum) == 0);
        CHECK_EQ(s.n_pairs, players * (players - 1) / 2);
        for (i = 0; in.has_stacks && i < players; i++) {
            CHECK(s.stacks_after[i] >= 0);
        }
    }
}

/* A refusal leaves `actual` as it is (ofc_settle.h), beyond a block of 256 transfers
 * too: a bad seat, then a bad amount, in the third block of 600 (the first two pay). */
static void test_stakes_refusal_leaves_actual(void)
{
    enum { N = 600, BAD = 555 };
    static const int32_t stacks[2] = {50, 50};
    static uint8_t pairs[N][2];
    static int32_t amount[N], actual[N];
    int i, k, untouched = 0;
    for (i = 0; i < N; i++) {
        pairs[i][0] = (uint8_t)(i % 2);
        pairs[i][1] = (uint8_t)(1 - i % 2);
        amount[i] = 3;
    }
    for (k = 0; k < 2; k++) {
        if (k == 0) {
            pairs[BAD][1] = 2;
        } else {
            pairs[BAD][1] = pairs[BAD - 2][1];
            amount[BAD] = INT32_MIN;
        }
        for (i = 0; i < N; i++) {
            actual[i] = -7 - i;
        }
        CHECK_EQ(ofc_apply_stakes((uint32_t)k, stacks, 2, (const uint8_t(*)[2])pairs, amount,
                                  N, actual),
                 k == 0 ? OFC_E_SEAT : OFC_E_VALUE);
        for (i = 0; i < N; i++) {
            untouched += actual[i] == -7 - i;
        }
    }
    CHECK_EQ(untouched, 2 * N);
}

/* Table stakes re-read from docs/rules.md for the tests (not the library's code):
 * R-STAKES-1/2 (the loser pays at most the chips he has; the winner's net win stays
 * within his starting stack, and a seat whose net win has reached it is complete:
 * nothing more moves to or from it) and R-STAKES-3 (each seat's chips count once:
 * a transfer is at most what is left of either seat's starting stack). */
static void reference_stakes(int chip_rule, const int32_t *stacks, int seats,
                             const uint8_t (*pairs)[2], const int32_t *amount, int n,
                             int32_t *out)
{
    int64_t have[8], left[8];
    int complete[8] = {0}, k, s;
    for (s = 0; s < seats; s++) {
        have[s] = left[s] = stacks[s];
    }
    for (k = 0; k < n; k++) {
        int up = amount[k] > 0, win = pairs[k][up ? 0 : 1], lose = pairs[k][up ? 1 : 0];
        int64_t owed = up ? amount[k] : -(int64_t)amount[k], pay = owed;
        if (chip_rule) {
            pay = pay < left[win] ? pay : left[win];
            pay = pay < left[lose] ? pay : left[lose];
            left[win] -= pay;
            left[lose] -= pay;
        } else if (complete[win] || complete[lose]) {
            pay = 0;
        } else {
            int64_t may_win = stacks[win] - (have[win] - stacks[win]);
            pay = pay < have[lose] ? pay : have[lose];
            pay = pay < may_win ? pay : may_win;
            pay = pay > 0 ? pay : 0;
        }
        have[win] += pay;
        have[lose] -= pay;
        if (!chip_rule && have[win] - stacks[win] >= stacks[win]) {
            complete[win] = 1;
        }
        out[k] = (int32_t)(amount[k] > 0 ? pay : -pay);
    }
}

/* ofc_apply_stakes() and ofc_apply_stakes_scratch() beyond a block of 256 transfers
 * (700 among 5 seats, pseudo-random amounts, some huge) against the reference; with
 * scratch, a refusal beyond the first block leaves `actual` as it is, and the scratch
 * arguments are checked (too small, NULL with a length, sharing bytes with a buffer). */
static void test_stakes_scratch_beyond_a_block(void)
{
    enum { N = 700, SEATS = 5 };
    static const int32_t stacks[SEATS] = {400, 0, 1000, 2500, 90};
    static uint8_t pairs[N][2];
    static int32_t amount[N], actual[N], expected[N];
    static ofc_stakes_transfer scratch[N + 1];
    static int32_t shared[4]; /* room for two transfers, seen as amounts too */
    const uint8_t(*seats)[2] = (const uint8_t(*)[2])pairs;
    uint32_t x = 12345u, model;
    int i, untouched = 0;
    for (i = 0; i < N; i++) {
        x = x * 1103515245u + 12345u;
        pairs[i][0] = (uint8_t)((x >> 8) % SEATS);
        pairs[i][1] = (uint8_t)((pairs[i][0] + 1 + (x >> 16) % (SEATS - 1)) % SEATS);
        amount[i] = (int32_t)((x >> 4) % 61) - 30;
        amount[i] = i % 97 == 5 ? INT32_MAX : i % 89 == 7 ? -INT32_MAX : amount[i];
    }
    for (model = OFC_STAKES_WIN_CAP; model <= OFC_STAKES_CHIPS; model++) {
        reference_stakes(model == OFC_STAKES_CHIPS, stacks, SEATS, seats, amount, N,
                         expected);
        memset(actual, 0x55, sizeof actual);
        CHECK_EQ(ofc_apply_stakes(model, stacks, SEATS, seats, amount, N, actual), OFC_OK);
        CHECK(memcmp(actual, expected, sizeof actual) == 0);
        memset(actual, 0x55, sizeof actual);
        CHECK_EQ(ofc_apply_stakes_scratch(model, stacks, SEATS, seats, amount, N, actual,
                                          scratch, N),
                 OFC_OK);
        CHECK(memcmp(actual, expected, sizeof actual) == 0);
        /* the first transfers alone, scratch larger than needed */
        CHECK_EQ(ofc_apply_stakes_scratch(model, stacks, SEATS, seats, amount, 300, actual,
                                          scratch, N + 1),
                 OFC_OK);
        CHECK(memcmp(actual, expected, 300 * sizeof *actual) == 0);
    }
    pairs[650][1] = pairs[650][0];
    for (i = 0; i < N; i++) {
        actual[i] = -7 - i;
    }
    CHECK_EQ(ofc_apply_stakes_scratch(0, stacks, SEATS, seats, amount, N, actual, scratch, N),
             OFC_E_SEAT);
    pairs[650][1] = (uint8_t)((pairs[650][0] + 1) % SEATS);
    CHECK_EQ(ofc_apply_stakes_scratch(0, stacks, SEATS, seats, amount, N, actual, scratch,
                                      N - 1),
             OFC_E_VALUE);
    CHECK_EQ(ofc_apply_stakes_scratch(0, stacks, SEATS, seats, amount, N, actual, NULL, N),
             OFC_E_VALUE);
    CHECK_EQ(ofc_apply_stakes_scratch(0, stacks, SEATS, seats, amount, N, actual,
                                      (ofc_stakes_transfer *)(void *)(actual + N - 1), N),
             OFC_E_VALUE);
    CHECK_EQ(ofc_apply_stakes_scratch(0, stacks, SEATS, seats, &shared[1], 1, actual,
                                      (ofc_stakes_transfer *)(void *)shared, 1),
             OFC_E_VALUE); /* the scratch's last bytes are amount's first */
    CHECK_EQ(ofc_apply_stakes_scratch(0, stacks, SEATS,
                                      (const uint8_t(*)[2])(void *)&scratch[0].pair, amount,
                                      1, actual, scratch, N),
             OFC_E_VALUE); /* pairs inside the scratch */
    for (i = 0; i < N; i++) {
        untouched += actual[i] == -7 - i;
    }
    CHECK_EQ(untouched, N);
    CHECK_EQ(ofc_apply_stakes_scratch(0, stacks, SEATS, NULL, NULL, 0, NULL, scratch, 0),
             OFC_OK);
    CHECK_EQ(ofc_apply_stakes_scratch(0, stacks, SEATS, NULL, NULL, 0, NULL, NULL, 0), OFC_OK);
}

int main(void)
{
    ofc_rules *r = malloc(sizeof *r);
    if (r == NULL) {
        return 1;
    }
    test_ex13_settlement_order();
    test_ex3_apply_stakes();
    test_stakes_refusal_leaves_actual();
    test_stakes_scratch_beyond_a_block();
    test_ex3_table_stakes(r);
    test_ex12_sweep_of_all(r);
    test_ex11_pool(r);
    test_ex10_surrender(r);
    test_refused_surrender_names_its_seat(r);
    test_ex14_aces(r);
    test_house(r);
    test_settlement_fields_written(r);
    test_naturals(r);
    test_refusals(r);
    test_random_deals(r);
    free(r);
    if (failures) {
        fprintf(stderr, "test_settle: %d of %d checks FAILED\n", failures, checks);
        return 1;
    }
    printf("test_settle: all %d checks passed\n", checks);
    return 0;
}
