/* test_naturals.c -- C-level tests of csrc/include/ofc_naturals.h (naturals, R-NAT-*).
 *
 * Built by tests/c/run.sh with -std=c99 -Wall -Wextra -Werror -pedantic, once plain
 * and once under AddressSanitizer + UndefinedBehaviorSanitizer.  Crafted hands for
 * every natural and near misses, tie-break keys, the boards shown, invalid input.
 * The comparison with an independent brute-force reference over all 72,072 splits is
 * in the Python tests (tests/test_naturals.py, tests/support/reference_naturals.py). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ofc_fast.h"
#include "ofc_naturals.h"

#include "check.h"

#define B(n) OFC_NAT_BIT(OFC_NAT_##n)

/* Text of 13 cards as a board "f f f / m m m m m / b b b b b". */
static void board_text(const uint8_t b[13], char *out)
{
    static const char ranks[] = "23456789TJQKA", suits[] = "cdhs";
    int i;
    for (i = 0; i < 13; i++) {
        *out++ = ranks[b[i] >> 2];
        *out++ = suits[b[i] & 3];
        if (i == 2 || i == 7) {
            *out++ = ' ';
            *out++ = '/';
        }
        *out++ = i == 12 ? '\0' : ' ';
    }
}

/* Detects the naturals of a 13-card text; checks the call succeeds. */
static ofc_naturals_result detect(const char *text)
{
    uint8_t c[13];
    ofc_naturals_result r;
    CHECK_EQ(test_cards(text, c), 13);
    CHECK_EQ(ofc_naturals(c, &r), OFC_OK);
    return r;
}

/* The exact set of naturals of a hand. */
static void expect_mask(const char *text, uint32_t mask)
{
    ofc_naturals_result r = detect(text);
    if (r.mask != mask) {
        fprintf(stderr, "  hand %s: mask 0x%05lx, expected 0x%05lx\n", text,
                (unsigned long)r.mask, (unsigned long)mask);
    }
    CHECK_EQ(r.mask, mask);
}

static void expect_board(const uint8_t b[13], const char *want)
{
    char got[64];
    board_text(b, got);
    if (strcmp(got, want) != 0) {
        fprintf(stderr, "  board '%s', expected '%s'\n", got, want);
    }
    CHECK(strcmp(got, want) == 0);
}

static void test_names(void)
{
    static const char *const names[OFC_NAT_COUNT] = {
        "six_pairs", "three_straights", "three_flushes", "five_pairs_trips",
        "four_trips", "twelve_one_colour", "one_colour", "small_2_8", "small_2_9",
        "small_2_10", "big_8_a", "three_quads", "three_straight_flushes",
        "twelve_pictures", "dragon", "one_suit", "no_pictures"};
    int i;
    for (i = 0; i < OFC_NAT_COUNT; i++) {
        CHECK(ofc_natural_name(i) != NULL && strcmp(ofc_natural_name(i), names[i]) == 0);
    }
    CHECK(ofc_natural_name(-1) == NULL);
    CHECK(ofc_natural_name(OFC_NAT_COUNT) == NULL);
}

/* One crafted hand per natural (R-NAT-4, R-NAT-7, R-VAR-NOPIC-1), with every other
 * natural it makes, and near misses. */
static void test_each_natural(void)
{
    /* six pairs + odd card; five pairs + trips is also six pairs */
    expect_mask("2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 7c 7d 9s",
                B(SIX_PAIRS) | B(SMALL_2_9) | B(SMALL_2_10) | B(NO_PICTURES));
    expect_mask("2c 2d 2h 3c 3d 4c 4d 5c 5d 6c 6d 7c 7d",
                B(SIX_PAIRS) | B(FIVE_PAIRS_TRIPS) | B(SMALL_2_8) | B(SMALL_2_9) |
                    B(SMALL_2_10) | B(NO_PICTURES));
    /* a four of a kind is two pairs */
    expect_mask("Ac Ad Ah As Kc Kd Qc Qd Jc Jd Tc Td 2c", B(SIX_PAIRS));
    /* near misses: 5 pairs + 3 odd cards; trips + 4 pairs + 2 odd cards */
    expect_mask("2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 8h 9s Jh", 0);
    expect_mask("2c 2d 2h 3c 3d 4c 4d 5c 5d 6c 6d 8h 9s",
                B(SMALL_2_9) | B(SMALL_2_10) | B(NO_PICTURES));
    /* ... which with 8h 9h Th would be three straight flushes (2-6 twice, 8-9-T) */
    expect_mask("2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 8h 9h Th",
                B(THREE_STRAIGHTS) | B(THREE_FLUSHES) | B(THREE_STRAIGHT_FLUSHES) |
                    B(SMALL_2_10) | B(NO_PICTURES));
    /* five pairs + trips with a four of a kind as two pairs */
    expect_mask("Kc Kd Kh Ac Ad Ah As Qc Qd Jc Jd 9c 9d",
                B(SIX_PAIRS) | B(FIVE_PAIRS_TRIPS) | B(BIG_8_A));
    /* four trips; a four of a kind counts as trips */
    expect_mask("2c 2d 2h 3c 3d 3h 4c 4d 4h 9c 9d 9h As", B(FOUR_TRIPS) | B(NO_PICTURES));
    expect_mask("2c 2d 2h 2s 3c 3d 3h 4c 4d 4h 5c 5d 5h",
                B(FOUR_TRIPS) | B(SMALL_2_8) | B(SMALL_2_9) | B(SMALL_2_10) |
                    B(NO_PICTURES));
    expect_mask("2c 2d 2h 3c 3d 3h 4c 4d 4h 9c 9d Th As", B(NO_PICTURES)); /* 3 trips */
    /* three quads (also six pairs, not four trips) */
    expect_mask("2c 2d 2h 2s 3c 3d 3h 3s 4c 4d 4h 4s As",
                B(THREE_QUADS) | B(SIX_PAIRS) | B(NO_PICTURES));
    /* two quads + trips: neither three quads nor four trips */
    expect_mask("2c 2d 2h 2s 3c 3d 3h 3s 4c 4d 4h 5c Ad", B(NO_PICTURES));
    /* colours: 12 red + 1; 13 red; 11 red (all three are dragons) */
    expect_mask("2d 3d 4d 5d 6d 7d 8h 9h Th Jh Qh Kh As",
                B(TWELVE_ONE_COLOUR) | B(DRAGON) | B(THREE_STRAIGHTS));
    expect_mask("2d 3d 4d 5d 6d 7d 8h 9h Th Jh Qh Kh Ah",
                B(TWELVE_ONE_COLOUR) | B(ONE_COLOUR) | B(DRAGON) | B(THREE_STRAIGHTS));
    expect_mask("2d 3d 4d 5d 6d 7d 8h 9h Th Jh Qh Kc As", B(DRAGON) | B(THREE_STRAIGHTS));
    expect_mask("2d 3d 4d 5d 6d 7d 8h 9h Th Jh Kh Kc As", 0);
    /* small and big */
    expect_mask("2c 3c 4c 5c 6c 7c 8c 2d 3d 4d 5d 6d 8d",
                B(SMALL_2_8) | B(SMALL_2_9) | B(SMALL_2_10) | B(NO_PICTURES) |
                    B(SIX_PAIRS));
    expect_mask("2c 3h 4c 5h 6c 7h 8c 9h 2d 3s 4d 5s 6d", /* 2-6, 2-6, 7-8-9 */
                B(SMALL_2_9) | B(SMALL_2_10) | B(NO_PICTURES) | B(THREE_STRAIGHTS));
    expect_mask("2c 3h 4c 5h 6c 7h 8c 9h 2d 3s 4d 5s Td", B(SMALL_2_10) | B(NO_PICTURES));
    expect_mask("2c 3h 4c 5h 6c 7h 8c 9h 2d 3s 4d 5s Jd", 0);
    expect_mask("8c 9h Tc Jh Qc Kh Ac 8d 9s Td Js Qd Ks", B(BIG_8_A) | B(SIX_PAIRS));
    expect_mask("8c 9h Tc Jh Qc Kh Ac 8d 9s Td Js Qd 7s", /* 8-Q, 7-J, Q-K-A */
                B(THREE_STRAIGHTS));
    expect_mask("8c 9h Tc Jh Qc Kh Ac 8d 9s Td Js Kd 7s", 0);
    /* twelve pictures; eleven */
    expect_mask("Jc Jd Jh Js Qc Qd Qh Qs Kc Kd Kh Ks 2c",
                B(TWELVE_PICTURES) | B(THREE_QUADS) | B(SIX_PAIRS));
    expect_mask("Jc Jd Jh Js Qc Qd Qh Qs Kc Kd Kh 2c 3c", 0);
    /* dragon (always three straights too); one rank missing */
    expect_mask("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac", B(DRAGON) | B(THREE_STRAIGHTS));
    expect_mask("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Kc", 0);
    /* one suit: every split natural, dragon, colours; 12 of a suit */
    expect_mask("2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As",
                B(ONE_SUIT) | B(DRAGON) | B(ONE_COLOUR) | B(TWELVE_ONE_COLOUR) |
                    B(THREE_STRAIGHTS) | B(THREE_FLUSHES) | B(THREE_STRAIGHT_FLUSHES));
    expect_mask("2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks Ac",
                B(DRAGON) | B(ONE_COLOUR) | B(TWELVE_ONE_COLOUR) | B(THREE_STRAIGHTS));
    /* no pictures (R-VAR-NOPIC-1) */
    expect_mask("2c 3d 5h 5s 6c 7d 8h 9s Tc 2d 3h 4s As", B(NO_PICTURES));
    expect_mask("2c 3d 4h 5s 6c 7d 8h 9s Tc 2d 3h 4s Ac", /* 6-T, A-5, 2-3-4 */
                B(NO_PICTURES) | B(THREE_STRAIGHTS));
    /* three straights; a straight set missing one rank; K-A-2 is no run */
    expect_mask("Tc Jd Qh Ks Ac 4c 5d 6h 7s 8c Ad 2h 3s", B(THREE_STRAIGHTS));
    expect_mask("Tc Jd Qh Ks Ac 5c 6d 7h 8s 9c 2d 3h Kc", 0);
    expect_mask("Tc Jd Qh Ks Ac 3c 4d 5h 6s 7c Kd Ad 2c", 0);
    /* three flushes; suits 5/5/2 + 1; suits 4/4/5 */
    expect_mask("2c 5c 7c 9c Jc 3d 6d 8d Td Qd 4h 9h Ah", B(THREE_FLUSHES));
    expect_mask("2c 5c 7c 9c Jc 3d 6d 8d Td Qd 4h 9h As", 0);
    expect_mask("2c 5c 7c 9c 3d 6d 8d Td 4h 7h 9h Jh Ah", 0);
    /* three straight flushes; one card off-suit */
    expect_mask("Ts Js Qs Ks As 5h 6h 7h 8h 9h 2d 3d 4d",
                B(THREE_STRAIGHT_FLUSHES) | B(THREE_STRAIGHTS) | B(THREE_FLUSHES) |
                    B(DRAGON));
    expect_mask("Ts Js Qs Ks As 5h 6h 7h 8h 9s 2d 3d 4d", B(THREE_STRAIGHTS) | B(DRAGON));
}

/* R-NAT-5 tie-break keys and the boards shown. */
static void test_keys_and_boards(void)
{
    ofc_naturals_result r, r2;

    r = detect("2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 7c 7d 9s");
    CHECK_EQ(r.key[OFC_NAT_SIX_PAIRS], 0x5432107);
    r = detect("Ac Ad Ah As Kc Kd Qc Qd Jc Jd Tc Td 2c");
    CHECK_EQ(r.key[OFC_NAT_SIX_PAIRS], 0xCCBA980);
    r2 = detect("Ac Ad Ah As Kc Kd Qc Qd Jc Jd Tc Td 3c"); /* better odd card */
    CHECK(r2.key[OFC_NAT_SIX_PAIRS] > r.key[OFC_NAT_SIX_PAIRS]);
    /* keys of naturals without tie-break, and of absent naturals, are 0 */
    CHECK_EQ(r.key[OFC_NAT_DRAGON], 0);
    CHECK_EQ(r.key[OFC_NAT_THREE_STRAIGHTS], 0);

    /* dragon: back T-A, middle 5-9, front 2-3-4 */
    r = detect("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac");
    CHECK_EQ(r.key[OFC_NAT_THREE_STRAIGHTS], 0xC72);
    CHECK_EQ(r.key[OFC_NAT_DRAGON], 0);
    expect_board(r.straights, "4h 3d 2c / 9s 8h 7d 6c 5s / Ac Ks Qh Jd Tc");
    /* wheel in the middle, Q-K-A in front */
    r = detect("Ac 2d 3h 4s 5c 6d 7h 8s 9c Td Qh Ks Ad");
    CHECK_EQ(r.key[OFC_NAT_THREE_STRAIGHTS], 8 << 8 | 3 << 4 | 12);
    expect_board(r.straights, "Ac Ks Qh / 5c 4s 3h 2d Ad / Td 9c 8s 7h 6d");
    /* A-2-3 in front */
    r = detect("Tc Jd Qh Ks Ac 4c 5d 6h 7s 8c Ad 2h 3s");
    CHECK_EQ(r.key[OFC_NAT_THREE_STRAIGHTS], 12 << 8 | 6 << 4 | 1);
    expect_board(r.straights, "3s 2h Ac / 8c 7s 6h 5d 4c / Ad Ks Qh Jd Tc");
    /* a middle straight flush above a plain back: a 5 is exchanged with the front */
    r = detect("Tc Jd Qh Ks Ac 5s 6s 7s 8s 9s 3c 4c 5c");
    expect_board(r.straights, "5s 4c 3c / 9s 8s 7s 6s 5c / Ac Ks Qh Jd Tc");
    /* ... or the back is made a straight flush */
    r = detect("7h 8h 9h Td Jd Ac 2c 3c 4c 5c 7d 8d 9d");
    CHECK_EQ(r.key[OFC_NAT_THREE_STRAIGHTS], 9 << 8 | 3 << 4 | 7);
    expect_board(r.straights, "9h 8h 7h / 5c 4c 3c 2c Ac / Jd Td 9d 8d 7d");

    /* three flushes: back, then middle, then front as high-card hands */
    r = detect("As 9s 7s 5s 3s Kh Jh 9h 7h 5h Qd Td 8d");
    expect_board(r.flushes, "Qd Td 8d / Kh Jh 9h 7h 5h / As 9s 7s 5s 3s");
    r2 = detect("As Ts 7s 5s 3s Kh Jh 9h 7h 2h Qd 9d 8d");
    CHECK(r2.key[OFC_NAT_THREE_FLUSHES] > r.key[OFC_NAT_THREE_FLUSHES]);
    r2 = detect("As 9s 7s 5s 3s Kh Qh 9h 7h 5h Jd Td 8d");
    CHECK(r2.key[OFC_NAT_THREE_FLUSHES] > r.key[OFC_NAT_THREE_FLUSHES]);
    r2 = detect("As 9s 7s 5s 3s Kh Jh 9h 7h 5h Qd Td 9d");
    CHECK(r2.key[OFC_NAT_THREE_FLUSHES] > r.key[OFC_NAT_THREE_FLUSHES]);
    /* ten spades: the back takes the five highest */
    r = detect("2s 4s 5s 7s 8s 9s Ts Js Ks As 2h 7h 9h");
    expect_board(r.flushes, "9h 7h 2h / 8s 7s 5s 4s 2s / As Ks Js Ts 9s");
    /* one suit: A-K-Q-J-T is the best 5-card place (1287), 9-8-7-6-5 place 56
     * (3 + 6 + 10 + 15 + 21 rank sets below it, plus 1), 4-3-2 the lowest (1) */
    r = detect("2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As");
    CHECK_EQ(r.key[OFC_NAT_THREE_FLUSHES], 1287u << 20 | 56u << 9 | 1u);
    expect_board(r.flushes, "4s 3s 2s / 9s 8s 7s 6s 5s / As Ks Qs Js Ts");
    expect_board(r.straight_flushes, "4s 3s 2s / 9s 8s 7s 6s 5s / As Ks Qs Js Ts");
    CHECK_EQ(r.key[OFC_NAT_THREE_STRAIGHT_FLUSHES], 0xC72);

    /* absent split naturals leave 0xFF boards */
    r = detect("2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 7c 7d 9s");
    CHECK_EQ(r.straights[0], 0xFF);
    CHECK_EQ(r.flushes[12], 0xFF);
    CHECK_EQ(r.straight_flushes[5], 0xFF);
    CHECK_EQ(r.reserved, 0);
}

/* Bad input: OFC_E_CARD, OFC_E_DUPLICATE (whichever comes first), NULL pointers. */
static void test_invalid_input(void)
{
    uint8_t c[13];
    ofc_naturals_result r;
    int i;
    for (i = 0; i < 13; i++) {
        c[i] = (uint8_t)(3 * i);
    }
    CHECK_EQ(ofc_naturals(c, &r), OFC_OK);
    c[12] = 52;
    CHECK_EQ(ofc_naturals(c, &r), OFC_E_CARD);
    c[12] = 255;
    CHECK_EQ(ofc_naturals(c, &r), OFC_E_CARD);
    c[12] = c[0];
    CHECK_EQ(ofc_naturals(c, &r), OFC_E_DUPLICATE);
    c[12] = 200;
    c[5] = c[1];
    CHECK_EQ(ofc_naturals(c, &r), OFC_E_DUPLICATE);
    c[1] = 99;
    CHECK_EQ(ofc_naturals(c, &r), OFC_E_CARD);
    CHECK_EQ(ofc_naturals(NULL, &r), OFC_E_COUNT);
    CHECK_EQ(ofc_naturals(c, NULL), OFC_E_COUNT);
}

/* Random hands: the call succeeds, keys are 0 exactly for absent naturals or those
 * without tie-break, and every board shown holds the 13 cards. */
static void test_random_hands(void)
{
    uint32_t state = 12345u;
    int n, i;
    for (n = 0; n < 20000; n++) {
        uint8_t deck[52], h[13];
        ofc_naturals_result r;
        const uint8_t *boards[3];
        int b, nat;
        for (i = 0; i < 52; i++) {
            deck[i] = (uint8_t)i;
        }
        /* every 4th hand from clubs and spades only, for more split naturals */
        for (i = 0; i < 13; i++) {
            int lim = (n % 4 == 0) ? 26 : 52, j;
            state = state * 1103515245u + 12345u;
            j = i + (int)((state >> 8) % (uint32_t)(lim - i));
            {
                uint8_t t = deck[i];
                deck[i] = deck[j];
                deck[j] = t;
            }
            h[i] = (n % 4 == 0) ? (uint8_t)(4 * (deck[i] >> 1) + 3 * (deck[i] & 1))
                                : deck[i];
        }
        CHECK_EQ(ofc_naturals(h, &r), OFC_OK);
        CHECK_EQ(r.mask >> OFC_NAT_COUNT, 0);
        for (nat = 0; nat < OFC_NAT_COUNT; nat++) {
            int keyed = nat == OFC_NAT_SIX_PAIRS || nat == OFC_NAT_THREE_STRAIGHTS ||
                        nat == OFC_NAT_THREE_FLUSHES ||
                        nat == OFC_NAT_THREE_STRAIGHT_FLUSHES;
            CHECK_EQ(r.key[nat] != 0, keyed && (r.mask & OFC_NAT_BIT(nat)));
        }
        boards[0] = r.straights;
        boards[1] = r.flushes;
        boards[2] = r.straight_flushes;
        for (b = 0; b < 3; b++) {
            static const int nats[3] = {OFC_NAT_THREE_STRAIGHTS, OFC_NAT_THREE_FLUSHES,
                                        OFC_NAT_THREE_STRAIGHT_FLUSHES};
            if (r.mask & OFC_NAT_BIT(nats[b])) {
                uint64_t want = 0, got = 0;
                for (i = 0; i < 13; i++) {
                    want |= (uint64_t)1 << h[i];
                    got |= boards[b][i] < 52 ? (uint64_t)1 << boards[b][i] : 0;
                }
                CHECK(want == got);
            }
        }
    }
}

int main(void)
{
    test_names();
    test_each_natural();
    test_keys_and_boards();
    test_invalid_input();
    test_random_hands();
    if (failures) {
        fprintf(stderr, "test_naturals: %d of %d checks FAILED\n", failures, checks);
        return 1;
    }
    printf("test_naturals: all %d checks passed\n", checks);
    return 0;
}
