/* check.h -- the tiny assertion harness shared by the C test programs in tests/c/.
 * Each program includes it once, counts with CHECK / CHECK_EQ, and ends with
 * CHECK_SUMMARY(name), which prints the counts and yields the exit status. */
#ifndef OFC_TEST_CHECK_H
#define OFC_TEST_CHECK_H

#include <stdio.h>

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

#endif /* OFC_TEST_CHECK_H */
