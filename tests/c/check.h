/* check.h -- the tiny assertion harness shared by the C test programs in tests/c/.
 * Each program includes it once, counts with CHECK / CHECK_EQ, and ends with
 * CHECK_SUMMARY(name), which prints the counts and yields the exit status. */
#ifndef OFC_TEST_CHECK_H
#define OFC_TEST_CHECK_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int failures = 0;
static int checks = 0;

#define CHECK(cond)                                                               \
    do {                                                                          \
        checks++;                                                                 \
        if (!(cond)) {                                                            \
            failures++;                                                           \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                         \
    } while (0)

#define CHECK_EQ(a, b)                                                            \
    do {                                                                          \
        long long va_ = (long long)(a), vb_ = (long long)(b);                     \
        checks++;                                                                 \
        if (va_ != vb_) {                                                         \
            failures++;                                                           \
            fprintf(stderr, "%s:%d: %s == %lld, expected %s == %lld\n", __FILE__,  \
                    __LINE__, #a, va_, #b, vb_);                                  \
        }                                                                         \
    } while (0)

/* Card id from text like "As", "Td". */
static uint8_t test_card(const char *t)
{
    static const char ranks[] = "23456789TJQKA", suits[] = "cdhs";
    int r = (int)(strchr(ranks, t[0]) - ranks), s = (int)(strchr(suits, t[1]) - suits);
    return (uint8_t)(4 * r + s);
}

/* Parses "Qh Qd 2c / 9s ..." into ids (spaces and '/' separate); returns the count. */
static size_t test_cards(const char *text, uint8_t *out)
{
    size_t n = 0;
    while (*text) {
        if (*text == ' ' || *text == '/') {
            text++;
            continue;
        }
        out[n++] = test_card(text);
        text += 2;
    }
    return n;
}

/* A board in row layout (front 0..2, middle 3..7, back 8..12) from the text of its
 * three rows, the free slots 0xFF (OFC_NO_CARD). */
static inline void test_layout(const char *rows[3], uint8_t out[13])
{
    static const int start[3] = {0, 3, 8};
    int r;
    memset(out, 0xFF, 13);
    for (r = 0; r < 3; r++) {
        test_cards(rows[r], out + start[r]);
    }
}

#endif /* OFC_TEST_CHECK_H */
