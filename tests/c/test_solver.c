/* test_solver.c -- C-level tests of csrc/include/ofc_solver.h against an independent brute
 * force written here: every subset of 13 cards and every split of it into 3/5/5,
 * scored only through the public ofc_fast.h board evaluator and ofc_fl_next_cards().
 *
 * Built by tests/c/run.sh with -std=c99 -Wall -Wextra -Werror -pedantic, once plain
 * and once under AddressSanitizer + UndefinedBehaviorSanitizer.  Hand counts are kept
 * small so that the sanitizer build stays within seconds; the Python tests
 * (tests/test_solver.py) check many more hands. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ofc_fast.h"
#include "ofc_solver.h"

#include "check.h"

#define CHECK_NEAR(a, b)                                                          \
    do {                                                                          \
        double va_ = (double)(a), vb_ = (double)(b);                              \
        checks++;                                                                 \
        if (!(va_ - vb_ < 1e-6 && vb_ - va_ < 1e-6)) {                            \
            failures++;                                                           \
            fprintf(stderr, "%s:%d: %s == %.9f, expected %s == %.9f\n", __FILE__,  \
                    __LINE__, #a, va_, #b, vb_);                                  \
        }                                                                         \
    } while (0)

static uint64_t rng_state = 20240611u;

static uint64_t rng(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void deal(uint8_t *out, int n)
{
    uint8_t deck[52];
    int i;
    for (i = 0; i < 52; i++) {
        deck[i] = (uint8_t)i;
    }
    for (i = 0; i < n; i++) {
        int j = i + (int)(rng() % (uint64_t)(52 - i));
        uint8_t t = deck[i];
        deck[i] = deck[j];
        deck[j] = t;
        out[i] = deck[i];
    }
}

/* ------------------------------------------------------------ brute force */

typedef struct brute {
    int legal;          /* a legal board exists */
    double best;        /* best value over legal boards */
    int any_stay, any_nostay;
    double best_stay, best_nostay;
} brute;

/* Value of every legal board made of the 13 cards in k[]: 3 front, 5 middle, 5 back. */
static void brute13(const ofc_rules *r, const ofc_fl_rules *fl, const ofc_ev_tables *ev,
                    int ev_mode, const uint8_t k[13], int n_hand, const double *sv,
                    brute *out)
{
    int a[5], b[5], i, j;
    uint8_t board[13];
    /* Back: every 5-subset of the 13; middle: every 5-subset of the other 8. */
    for (a[0] = 0; a[0] < 13; a[0]++)
    for (a[1] = a[0] + 1; a[1] < 13; a[1]++)
    for (a[2] = a[1] + 1; a[2] < 13; a[2]++)
    for (a[3] = a[2] + 1; a[3] < 13; a[3]++)
    for (a[4] = a[3] + 1; a[4] < 13; a[4]++) {
        int rest[8], nr = 0;
        for (i = 0; i < 13; i++) {
            if (i != a[0] && i != a[1] && i != a[2] && i != a[3] && i != a[4]) {
                rest[nr++] = i;
            }
        }
        for (b[0] = 0; b[0] < 8; b[0]++)
        for (b[1] = b[0] + 1; b[1] < 8; b[1]++)
        for (b[2] = b[1] + 1; b[2] < 8; b[2]++)
        for (b[3] = b[2] + 1; b[3] < 8; b[3]++)
        for (b[4] = b[3] + 1; b[4] < 8; b[4]++) {
            ofc_board_eval e;
            int nf = 0, next;
            double v;
            for (j = 0; j < 8; j++) {
                if (j != b[0] && j != b[1] && j != b[2] && j != b[3] && j != b[4]) {
                    board[nf++] = k[rest[j]];
                }
            }
            for (j = 0; j < 5; j++) {
                board[3 + j] = k[rest[b[j]]];
                board[8 + j] = k[a[j]];
            }
            ofc_eval_board(r, board, &e);
            if (e.foul) {
                continue;
            }
            if (ev_mode) {
                ofc_ev_board(r, ev, board, &v);
                next = 0;
            } else {
                next = ofc_fl_next_cards(r, fl, board, (uint32_t)n_hand);
                v = e.royalty[0] + e.royalty[1] + e.royalty[2];
                if (next > 0 && sv) {
                    v += sv[next - 13];
                }
            }
            if (!out->legal || v > out->best) {
                out->best = v;
            }
            out->legal = 1;
            if (next > 0) {
                if (!out->any_stay || v > out->best_stay) {
                    out->best_stay = v;
                }
                out->any_stay = 1;
            } else {
                if (!out->any_nostay || v > out->best_nostay) {
                    out->best_nostay = v;
                }
                out->any_nostay = 1;
            }
        }
    }
}

/* Every 13-card subset of n cards. */
static void brute_n(const ofc_rules *r, const ofc_fl_rules *fl, const ofc_ev_tables *ev,
                    int ev_mode, const uint8_t *cards, int n, const double *sv, brute *out)
{
    uint32_t mask;
    memset(out, 0, sizeof *out);
    for (mask = 0; mask < (1u << n); mask++) {
        uint8_t k[13];
        int i, m = 0;
        uint32_t x = mask;
        int bits = 0;
        while (x) {
            bits += (int)(x & 1u);
            x >>= 1;
        }
        if (bits != 13) {
            continue;
        }
        for (i = 0; i < n; i++) {
            if (mask >> i & 1u) {
                k[m++] = cards[i];
            }
        }
        brute13(r, fl, ev, ev_mode, k, n, sv, out);
    }
}

/* The setting is what it claims: 13 of the cards, the rest discarded, its royalties,
 * legality, stay flag and value recomputed through the public evaluator. */
static void check_setting(const ofc_rules *r, const ofc_fl_rules *fl,
                          const ofc_ev_tables *ev, int ev_mode, const uint8_t *cards,
                          int n, const double *sv, const ofc_setting *s)
{
    uint64_t in = 0, used = 0;
    ofc_board_eval e;
    int i, next;
    double v;
    for (i = 0; i < n; i++) {
        in |= 1ull << cards[i];
    }
    for (i = 0; i < 13; i++) {
        used |= 1ull << s->board[i];
    }
    for (i = 0; i < s->n_discards; i++) {
        CHECK(!(used >> s->discards[i] & 1u));
        used |= 1ull << s->discards[i];
    }
    CHECK_EQ(s->n_discards, n - 13);
    CHECK(used == in);
    CHECK_EQ(ofc_eval_board(r, s->board, &e), OFC_OK);
    CHECK_EQ(e.foul, s->foul);
    for (i = 0; i < 3; i++) {
        CHECK_EQ(e.strength[i], s->strength[i]);
        CHECK_EQ(e.royalty[i], s->royalty[i]);
    }
    CHECK_EQ(s->royalties, e.royalty[0] + e.royalty[1] + e.royalty[2]);
    if (ev_mode) {
        ofc_ev_board(r, ev, s->board, &v);
        CHECK_NEAR(s->value, v);
        return;
    }
    next = ofc_fl_next_cards(r, fl, s->board, (uint32_t)n);
    CHECK_EQ(s->next_cards, next);
    CHECK_EQ(s->stays, next > 0);
    v = s->royalties + ((next > 0 && sv) ? sv[next - 13] : 0.0);
    CHECK_NEAR(s->value, v);
}

static void check_fl_hand(const ofc_rules *r, const ofc_fl_rules *fl,
                          const ofc_ev_tables *ev, const uint8_t *cards, int n,
                          const double *sv)
{
    ofc_fl_solution sol, alt;
    brute bf;
    CHECK_EQ(ofc_solve_fantasyland(r, fl, ev, cards, (size_t)n, sv, 0, &sol), OFC_OK);
    CHECK_EQ(ofc_solve_fantasyland(r, fl, ev, cards, (size_t)n, sv, OFC_SOLVE_ALTERNATIVES,
                                   &alt), OFC_OK);
    brute_n(r, fl, ev, 0, cards, n, sv, &bf);
    check_setting(r, fl, ev, 0, cards, n, sv, &sol.best);
    check_setting(r, fl, ev, 0, cards, n, sv, &alt.best);
    CHECK_EQ(sol.best.foul, !bf.legal);
    CHECK_EQ(alt.best.foul, !bf.legal);
    if (bf.legal) {
        CHECK_NEAR(sol.best.value, bf.best);
        CHECK_NEAR(alt.best.value, bf.best);
    }
    CHECK_EQ(alt.best_stay.found, bf.any_stay);
    CHECK_EQ(alt.best_no_stay.found, bf.any_nostay);
    if (bf.any_stay) {
        check_setting(r, fl, ev, 0, cards, n, sv, &alt.best_stay);
        CHECK(alt.best_stay.stays);
        CHECK_NEAR(alt.best_stay.value, bf.best_stay);
    }
    if (bf.any_nostay) {
        check_setting(r, fl, ev, 0, cards, n, sv, &alt.best_no_stay);
        CHECK(!alt.best_no_stay.stays);
        CHECK_NEAR(alt.best_no_stay.value, bf.best_nostay);
    }
}

/* ------------------------------------------------------------------ rules */

static ofc_rules rules_ofc, rules_strict, rules_27;
static ofc_fl_rules fl14, fl_prog, fl_27;
static ofc_ev_tables ev_ofc, ev_27, ev_classic;
static ofc_rules rules_classic;

static void setup(void)
{
    int s;
    ofc_rules_init_ofc(&rules_ofc);
    rules_strict = rules_ofc;
    rules_strict.order_rule = OFC_ORDER_STRICT;
    /* 2-7: lowball middle, ten-high limit, middle royalties by low value. */
    rules_27 = rules_ofc;
    rules_27.middle_lowball = 1;
    rules_27.lowball_limit = (uint16_t)ofc_low27(ofc_rank5_unchecked(test_card("Tc"), test_card("9d"),
                                                                     test_card("8h"), test_card("7s"),
                                                                     test_card("5c")));
    for (s = 0; s < OFC_STRENGTH_TABLE_SIZE; s++) {
        int32_t low = ofc_low27((uint16_t)s);
        rules_27.royalty[1][s] = (int16_t)(low == 7462 ? 8 : (low > 7400 ? 4 : 0));
    }
    ofc_fl_rules_init_standard(&fl14, 14);
    /* Progressive: QQ 14, KK 15, AA 16, trips 17; stay on trips front or quads back
     * with the entry table (stay_cards = entry). */
    fl_prog = fl14;
    fl_prog.stay_middle = 0;
    fl_prog.stay_cards = OFC_FL_STAY_ENTRY;
    fl_prog.n_entry = 4;
    fl_prog.entry_front[1] = ofc_rank3_unchecked(test_card("Kc"), test_card("Kd"), test_card("2h"));
    fl_prog.entry_front[2] = ofc_rank3_unchecked(test_card("Ac"), test_card("Ad"), test_card("2h"));
    fl_prog.entry_front[3] = ofc_rank3_unchecked(test_card("2c"), test_card("2d"), test_card("2h"));
    fl_prog.entry_cards[1] = 15;
    fl_prog.entry_cards[2] = 16;
    fl_prog.entry_cards[3] = 17;
    fl_27 = fl14;
    fl_27.stay_middle = 0;
    fl_27.entry_front[0] = fl_prog.entry_front[1];
    fl_27.lowball_entry = 14;
    fl_27.lowball_both = 15;
    ofc_rules_init_classic(&rules_classic, 0);
    CHECK_EQ(ofc_ev_tables_init(&rules_ofc, &ev_ofc), OFC_OK);
    CHECK_EQ(ofc_ev_tables_init(&rules_27, &ev_27), OFC_OK);
    CHECK_EQ(ofc_ev_tables_init(&rules_classic, &ev_classic), OFC_OK);
}

/* ------------------------------------------------------------------ tests */

static void test_errors(void)
{
    ofc_fl_solution sol;
    ofc_setting set;
    uint8_t c[17];
    double bad[5] = {0, 1e9, 0, 0, 0};
    deal(c, 17);
    CHECK_EQ(ofc_solve_fantasyland(&rules_ofc, &fl14, NULL, c, 12, NULL, 0, &sol), OFC_E_COUNT);
    CHECK_EQ(ofc_solve_fantasyland(&rules_ofc, &fl14, NULL, c, 18, NULL, 0, &sol), OFC_E_COUNT);
    CHECK_EQ(ofc_solve_fantasyland(&rules_ofc, &fl14, NULL, c, 14, bad, 0, &sol), OFC_E_VALUE);
    CHECK_EQ(ofc_solve_fantasyland(NULL, &fl14, NULL, c, 14, NULL, 0, &sol), OFC_E_RULES);
    CHECK_EQ(ofc_solve_fantasyland(&rules_ofc, &fl14, NULL, c, 14, NULL, 0, NULL), OFC_E_VALUE);
    /* a flag the solver does not know is refused, as ofc_settle() refuses one */
    CHECK_EQ(ofc_solve_fantasyland(&rules_ofc, &fl14, NULL, c, 14, NULL, 2u, &sol),
             OFC_E_VALUE);
    CHECK_EQ(ofc_solve_fantasyland(&rules_ofc, &fl14, NULL, c, 14, NULL,
                                   OFC_SOLVE_ALTERNATIVES | 0x80000000u, &sol), OFC_E_VALUE);
    c[3] = c[5];
    CHECK_EQ(ofc_solve_fantasyland(&rules_ofc, &fl14, NULL, c, 14, NULL, 0, &sol),
             OFC_E_DUPLICATE);
    c[3] = 52;
    CHECK_EQ(ofc_solve_fantasyland(&rules_ofc, &fl14, NULL, c, 14, NULL, 0, &sol), OFC_E_CARD);
    deal(c, 13);
    CHECK_EQ(ofc_best_setting(&rules_classic, NULL, c, OFC_OBJECTIVE_EV, &set), OFC_E_VALUE);
    CHECK_EQ(ofc_best_setting(&rules_classic, &ev_classic, c, 7, &set), OFC_E_VALUE);
    CHECK_EQ(ofc_best_setting(&rules_classic, NULL, c, OFC_OBJECTIVE_ROYALTIES, &set), OFC_OK);
    CHECK_EQ(ofc_best_setting(&rules_classic, NULL, NULL, OFC_OBJECTIVE_ROYALTIES, &set),
             OFC_E_COUNT); /* cards NULL, as ofc_best_settings() */
    {
        ofc_fl_rules f = fl14;
        f.stay_cards = 5;
        CHECK_EQ(ofc_fl_rules_check(&f), OFC_E_RULES);
        CHECK_EQ(ofc_solve_fantasyland(&rules_ofc, &f, NULL, c, 13, NULL, 0, &sol), OFC_E_RULES);
    }
    CHECK_EQ(ofc_fl_rules_init_standard(NULL, 14), OFC_E_VALUE);
    CHECK_EQ(ofc_fl_rules_init_standard(&fl_prog, 12) == OFC_E_VALUE, 1);
}

static void test_next_cards(void)
{
    uint8_t b[13];
    test_cards("Qh Qd 2c / 9s 9h 9d 5c 5d / Ad Ac Ah 8s 8h", b);
    CHECK_EQ(ofc_fl_next_cards(&rules_ofc, &fl14, b, 0), 14);
    CHECK_EQ(ofc_fl_next_cards(&rules_ofc, &fl14, b, 14), 14); /* full house middle */
    CHECK_EQ(ofc_fl_next_cards(&rules_ofc, &fl_prog, b, 14), 0);
    CHECK_EQ(ofc_fl_next_cards(&rules_ofc, &fl14, b, 12), OFC_E_COUNT);
    test_cards("Kh Kd Kc / 9s 9h 9d 5c 5d / Ad Ac Ah 8s 8h", b);
    CHECK_EQ(ofc_fl_next_cards(&rules_ofc, &fl_prog, b, 0), 17);
    CHECK_EQ(ofc_fl_next_cards(&rules_ofc, &fl_prog, b, 15), 17); /* stays: entry table */
    test_cards("Kh Kd Kc / Qs Qh 9d 5c 5d / Ad Ac Ah 8s 8h", b); /* fouled */
    CHECK_EQ(ofc_fl_next_cards(&rules_ofc, &fl_prog, b, 15), 0);
}

/* Hand-made hard cases. */
static void test_hard_cases(void)
{
    uint8_t c[17];
    ofc_fl_solution sol;
    double sv[5] = {0, 10, 0, 0, 0};
    double sv_far[5] = {0, -OFC_STAY_VALUE_LIMIT, 0, 0, 0};
    double sv_tiny[2][5] = {{0, 1e-9, 0, 0, 0}, {0, -1e-9, 0, 0, 0}};
    size_t n;
    int k;
    /* The royalty-maximising rows foul: AA front (9) wants a middle above it. */
    n = test_cards("Ah Ad 2c 3d 4h 6s 8c 9d Jh Qs 5c 7d Kh Tc", c);
    check_fl_hand(&rules_ofc, &fl14, &ev_ofc, c, (int)n, sv);
    /* Staying (trips front) costs royalties: quads could go to the back instead. */
    n = test_cards("Kh Kd Kc Ks 2c 2d 3h 4h 5h 6h 8h 9c Jd Qs", c);
    check_fl_hand(&rules_ofc, &fl14, &ev_ofc, c, (int)n, sv);
    CHECK_EQ(ofc_solve_fantasyland(&rules_ofc, &fl14, &ev_ofc, c, n, sv, 0, &sol), OFC_OK);
    CHECK(sol.best.stays);
    /* The stay values' ends: the best staying setting is still found (it was lost
     * below about -8192: the alternatives' stay bonus was smaller than the range). */
    check_fl_hand(&rules_ofc, &fl14, &ev_ofc, c, (int)n, sv_far);
    sv_far[1] = OFC_STAY_VALUE_LIMIT;
    check_fl_hand(&rules_ofc, &fl14, &ev_ofc, c, (int)n, sv_far);
    /* A stay value under the search's 2^-16 still decides a tie of royalties. */
    n = test_cards("Ad 3s 6c 2d 5s 5c Ah 3d 6s 5h 8d 5d Ac 2c", c);
    for (k = 0; k < 2; k++) {
        CHECK_EQ(ofc_solve_fantasyland(&rules_ofc, &fl14, &ev_ofc, c, n, sv_tiny[k], 0, &sol),
                 OFC_OK);
        CHECK_EQ(sol.best.stays, k == 0);
        CHECK_EQ(sol.best.royalties, 23);
    }
    /* 2-7 with no legal middle: every setting fouls. */
    n = test_cards("Ah Ad Ac Kh Kd Kc Qh Qd Qc Jh Jd Jc 2s", c);
    CHECK_EQ(ofc_solve_fantasyland(&rules_27, &fl_27, &ev_27, c, n, sv, OFC_SOLVE_ALTERNATIVES,
                                   &sol), OFC_OK);
    CHECK_EQ(sol.best.foul, 1);
    CHECK_EQ(sol.best.royalties, 0);
    CHECK_EQ(sol.best.stays, 0);
    CHECK_EQ(sol.best_stay.found, 0);
    CHECK_EQ(sol.best_no_stay.found, 0);
    check_fl_hand(&rules_27, &fl_27, &ev_27, c, (int)n, sv);
}

static void test_random_fl(void)
{
    double sv[5] = {3.5, 10.25, 12, 14, 16};
    double sv_neg[5] = {-20, -20, -20, -20, -20};
    int i;
    for (i = 0; i < 14; i++) {
        uint8_t c[15];
        deal(c, 13);
        check_fl_hand(&rules_ofc, &fl14, &ev_ofc, c, 13, sv);
        check_fl_hand(&rules_27, &fl_27, &ev_27, c, 13, sv);
        check_fl_hand(&rules_strict, &fl_prog, NULL, c, 13, sv_neg);
    }
    for (i = 0; i < 4; i++) {
        uint8_t c[15];
        deal(c, 14);
        check_fl_hand(&rules_ofc, &fl14, &ev_ofc, c, 14, sv);
        check_fl_hand(&rules_ofc, &fl_prog, &ev_ofc, c, 14, sv);
        check_fl_hand(&rules_27, &fl_27, &ev_27, c, 14, sv);
    }
    {
        uint8_t c[15];
        deal(c, 15);
        check_fl_hand(&rules_ofc, &fl_prog, &ev_ofc, c, 15, sv);
    }
}

static void test_best_setting(void)
{
    int i;
    for (i = 0; i < 10; i++) {
        uint8_t c[13];
        ofc_setting s;
        brute bf;
        deal(c, 13);
        CHECK_EQ(ofc_best_setting(&rules_classic, &ev_classic, c, OFC_OBJECTIVE_EV, &s), OFC_OK);
        memset(&bf, 0, sizeof bf);
        brute13(&rules_classic, NULL, &ev_classic, 1, c, 13, NULL, &bf);
        check_setting(&rules_classic, NULL, &ev_classic, 1, c, 13, NULL, &s);
        CHECK_NEAR(s.value, bf.best);
        CHECK_EQ(ofc_best_setting(&rules_ofc, &ev_ofc, c, OFC_OBJECTIVE_ROYALTIES, &s), OFC_OK);
        memset(&bf, 0, sizeof bf);
        brute13(&rules_ofc, NULL, NULL, 0, c, 13, NULL, &bf);
        check_setting(&rules_ofc, NULL, NULL, 0, c, 13, NULL, &s);
        CHECK_NEAR(s.value, bf.best);
    }
    {
        uint8_t c[26], boards[26];
        double values[2];
        ofc_setting s;
        size_t bad = 99;
        deal(c, 26);
        CHECK_EQ(ofc_best_settings(&rules_classic, &ev_classic, c, 2, OFC_OBJECTIVE_EV, boards,
                                   values, &bad), OFC_OK);
        CHECK_EQ(ofc_best_setting(&rules_classic, &ev_classic, c + 13, OFC_OBJECTIVE_EV, &s),
                 OFC_OK);
        CHECK(memcmp(s.board, boards + 13, 13) == 0);
        CHECK_NEAR(s.value, values[1]);
        c[20] = c[14];
        CHECK_EQ(ofc_best_settings(&rules_classic, &ev_classic, c, 2, OFC_OBJECTIVE_EV, boards,
                                   values, &bad), OFC_E_DUPLICATE);
        CHECK_EQ(bad, 1);
    }
}

/* ofc_best_setting(OFC_OBJECTIVE_EV) under a 2-7 middle is the optimum of every
 * setting (its bound valued the back with the strongest middle, the best one by
 * strength, which under 2-7 is the worst low hand: this hand's best setting, Q-J-9-7-5
 * in the middle, was cut off for K-Q-9-7-5), as under the rules' 2-7 royalties. */
static void test_best_setting_ev_27(void)
{
    static ofc_rules r;
    static ofc_ev_tables ev;
    uint8_t c[13];
    ofc_setting s;
    brute bf;
    int i;
    r = rules_ofc;
    r.middle_lowball = 1;
    r.lowball_limit = 2650;
    CHECK_EQ(ofc_ev_tables_init(&r, &ev), OFC_OK);
    CHECK_EQ(test_cards("Qh As 3d 5c Th Td Kd 7h 3c Js 6h 6c 9c", c), 13);
    CHECK_EQ(ofc_best_setting(&r, &ev, c, OFC_OBJECTIVE_EV, &s), OFC_OK);
    memset(&bf, 0, sizeof bf);
    brute13(&r, NULL, &ev, 1, c, 13, NULL, &bf);
    check_setting(&r, NULL, &ev, 1, c, 13, NULL, &s);
    CHECK_NEAR(s.value, bf.best);
    for (i = 0; i < 8; i++) {
        deal(c, 13);
        CHECK_EQ(ofc_best_setting(&rules_27, &ev_27, c, OFC_OBJECTIVE_EV, &s), OFC_OK);
        memset(&bf, 0, sizeof bf);
        brute13(&rules_27, NULL, &ev_27, 1, c, 13, NULL, &bf);
        check_setting(&rules_27, NULL, &ev_27, 1, c, 13, NULL, &s);
        CHECK_EQ(s.foul, !bf.legal);
        if (bf.legal)
            CHECK_NEAR(s.value, bf.best);
    }
}

static void test_ev_tables(void)
{
    uint32_t deals = 0;
    const uint32_t *counts = ofc_ev_opponent_counts(&deals);
    static ofc_ev_tables t;
    static uint32_t zero[3 * OFC_STRENGTH_TABLE_SIZE];
    int s;
    CHECK(counts != NULL);
    CHECK_EQ(ofc_ev_tables_init_counts(&rules_classic, zero, &t), OFC_E_VALUE);
    CHECK_EQ(ofc_ev_tables_init_counts(&rules_classic, counts, &t), OFC_OK);
    for (s = 1; s <= OFC_STRENGTH_MAX; s++) {
        int row;
        for (row = 0; row < 3; row++) {
            double w = t.win[row][s], l = t.lose[row][s];
            CHECK(w >= 0 && l >= 0 && w + l <= 1.000001);
        }
    }
    CHECK(t.win[2][OFC_STRENGTH_MAX] > 0.99);
}

int main(void)
{
    setup();
    test_errors();
    test_next_cards();
    test_ev_tables();
    test_hard_cases();
    test_best_setting();
    test_best_setting_ev_27();
    test_random_fl();
    printf("test_solver: %d checks, %d failures\n", checks, failures);
    return failures ? 1 : 0;
}
