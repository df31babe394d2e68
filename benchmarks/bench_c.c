/*
 * bench_c.c -- C-level speed benchmark of the ofc-fast library.
 *
 * Times, on pre-generated seeded random input (default 10,000,000 hands and
 * 10,000,000 board pairs), in ns per hand or per pair:
 *
 *   rank5 loop        acc += ofc_rank5_inline(h[0..4])      per 5-card hand
 *   rank3 loop        acc += ofc_rank3_inline(h[0..2])      per 3-card hand
 *   rank5/3 call      the same through the exported ofc_rank5/3_unchecked()
 *   rank5_batch       ofc_rank5_batch(): validated batch, one call
 *   rank3_batch       ofc_rank3_batch(): validated batch, one call
 *   board pair loop   ofc_eval_board_unchecked() x2 + ofc_score_evals_unchecked() per pair
 *   score_pairs       ofc_score_pairs(): validated batch, one call
 *
 * Every hand holds distinct cards in random order; every pair is 26 distinct cards
 * (a random deal split 13/13: front 3, middle 5, back 5 each), scored under
 * ofc_rules_init_ofc().  Each row runs `reps` times (default 7); the median and
 * the minimum are printed.  The results of every loop are summed (so the compiler
 * cannot drop the work) and the sums of a loop and its batch twin must agree,
 * otherwise the program fails.
 *
 * Build (from the repository root):
 *   gcc -std=c99 -O3 -Wall -Wextra -Werror -pedantic \
 *       -Icsrc/include -Icsrc/src -Icsrc/generated benchmarks/bench_c.c \
 *       csrc/src/ofc_*.c csrc/generated/ofc_*.c -o bench_c
 * Usage (./bench_c --help says each argument's range and default):
 *   ./bench_c [--hands N] [--pairs N] [--reps N] [--seed N] [--strict]
 * Exit status: 0 on success, 1 on a checksum mismatch or no memory, 2 with --strict
 * when the checksums agree but a row misses its target (MISS), or on an argument it
 * does not take (a usage line and the argument named on standard error).
 *
 * Portable C99; the clock is clock_gettime(CLOCK_MONOTONIC) where POSIX offers
 * it, else clock() (processor time).
 */
#include "bench_clock.h"

#include "bench_args.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ofc_fast.h"
#include "ofc_inline.h"

#define MAX_REPS 99

/* --------------------------------------------------------- seeded random */

/* splitmix64: small, fast, good enough to deal cards. */
static uint64_t next_u64(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* A value in 0..bound-1 (multiply-shift; the bias is below 2^-26 here). */
static uint32_t below(uint64_t *state, uint32_t bound)
{
    return (uint32_t)(((next_u64(state) >> 32) * (uint64_t)bound) >> 32);
}

/* n rows of k distinct cards each, in random order: a partial Fisher-Yates
 * shuffle of a deck that stays a permutation from one row to the next. */
static void deal(uint8_t *out, size_t n, unsigned k, uint64_t *state)
{
    uint8_t deck[OFC_CARDS];
    size_t i;
    unsigned j;
    for (j = 0; j < OFC_CARDS; j++) {
        deck[j] = (uint8_t)j;
    }
    for (i = 0; i < n; i++) {
        for (j = 0; j < k; j++) {
            uint32_t r = j + below(state, OFC_CARDS - j);
            uint8_t t = deck[j];
            deck[j] = deck[r];
            deck[r] = t;
            out[i * k + j] = deck[j];
        }
    }
}

/* ---------------------------------------------------------------- work */

typedef struct bench {
    size_t hands, pairs;
    uint8_t *h5, *h3;      /* hands * 5, hands * 3 */
    uint8_t *pa, *pb;      /* pairs * 13 each */
    int32_t *out;          /* max(hands, pairs) */
    ofc_rules *rules;
    int failed;            /* a batch call reported an error */
} bench;

typedef int64_t (*loop_fn)(bench *b);

static int64_t loop_rank5(bench *b)
{
    uint64_t acc = 0;
    size_t i;
    const uint8_t *h = b->h5;
    for (i = 0; i < b->hands; i++, h += 5) {
        acc += ofc_rank5_unchecked(h[0], h[1], h[2], h[3], h[4]);
    }
    return (int64_t)acc;
}

static int64_t loop_rank3(bench *b)
{
    uint64_t acc = 0;
    size_t i;
    const uint8_t *h = b->h3;
    for (i = 0; i < b->hands; i++, h += 3) {
        acc += ofc_rank3_unchecked(h[0], h[1], h[2]);
    }
    return (int64_t)acc;
}

static int64_t loop_rank5_inline(bench *b)
{
    uint64_t acc = 0;
    size_t i;
    const uint8_t *h = b->h5;
    for (i = 0; i < b->hands; i++, h += 5) {
        acc += ofc_rank5_inline(h[0], h[1], h[2], h[3], h[4]);
    }
    return (int64_t)acc;
}

static int64_t loop_rank3_inline(bench *b)
{
    uint64_t acc = 0;
    size_t i;
    const uint8_t *h = b->h3;
    for (i = 0; i < b->hands; i++, h += 3) {
        acc += ofc_rank3_inline(h[0], h[1], h[2]);
    }
    return (int64_t)acc;
}

static int64_t sum_out(const bench *b, size_t n)
{
    int64_t acc = 0;
    size_t i;
    for (i = 0; i < n; i++) {
        acc += b->out[i];
    }
    return acc;
}

static int64_t batch_rank5(bench *b)
{
    size_t bad = 0;
    if (ofc_rank5_batch(b->h5, b->hands, b->out, &bad) != OFC_OK) {
        b->failed = 1;
    }
    return b->out[b->hands - 1];
}

static int64_t batch_rank3(bench *b)
{
    size_t bad = 0;
    if (ofc_rank3_batch(b->h3, b->hands, b->out, &bad) != OFC_OK) {
        b->failed = 1;
    }
    return b->out[b->hands - 1];
}

static int64_t loop_pairs(bench *b)
{
    int64_t acc = 0;
    size_t i;
    const uint8_t *a = b->pa, *c = b->pb;
    for (i = 0; i < b->pairs; i++, a += OFC_BOARD_CARDS, c += OFC_BOARD_CARDS) {
        ofc_board_eval ea, eb;
        ofc_eval_board_unchecked(b->rules, a, &ea);
        ofc_eval_board_unchecked(b->rules, c, &eb);
        acc += ofc_score_evals_unchecked(b->rules, &ea, &eb, NULL, NULL);
    }
    return acc;
}

static int64_t batch_pairs(bench *b)
{
    size_t bad = 0;
    if (ofc_score_pairs(b->rules, b->pa, b->pb, b->pairs, b->out, &bad) != OFC_OK) {
        b->failed = 1;
    }
    return b->out[b->pairs - 1];
}

/* ------------------------------------------------------------- timing */

typedef struct result {
    double median_ns, min_ns;
} result;

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, c = *(const double *)y;
    return (a > c) - (a < c);
}

static volatile int64_t sink; /* keeps every loop's result alive */

static result time_it(loop_fn fn, bench *b, size_t n, int reps)
{
    double t[MAX_REPS];
    result r;
    int i;
    for (i = 0; i < reps; i++) {
        double t0 = now_seconds();
        sink += fn(b);
        t[i] = now_seconds() - t0;
    }
    qsort(t, (size_t)reps, sizeof t[0], cmp_double);
    r.median_ns = (reps % 2 ? t[reps / 2] : 0.5 * (t[reps / 2 - 1] + t[reps / 2])) /
                  (double)n * 1e9;
    r.min_ns = t[0] / (double)n * 1e9;
    return r;
}

/* Prints one row; 1 when it misses its target, else 0. */
static int print_row(const char *name, const char *unit, result r, double target)
{
    char tgt[32] = "-", verdict[48] = "";
    if (target > 0) {
        sprintf(tgt, "<= %.1f", target);
        if (r.median_ns <= target) {
            strcpy(verdict, "pass");
        } else {
            sprintf(verdict, "MISS (%.2fx, +%.2f ns)", r.median_ns / target,
                    r.median_ns - target);
        }
    }
    printf("%-44s %-5s %9.2f %9.2f %10.1f  %-9s %s\n", name, unit, r.median_ns, r.min_ns,
           1e3 / r.median_ns, tgt, verdict);
    return target > 0 && !(r.median_ns <= target);
}

/* --------------------------------------------------------------- main */

static const bench_arg ARGS[] = {
    {"--hands", "random 5-card and 3-card hands per row", 1, SIZE_MAX / 64, 0},
    {"--pairs", "random board pairs per row", 1, SIZE_MAX / 64, 0},
    {"--reps", "repetitions of each row (median and minimum printed)", 1, MAX_REPS, 0},
    {"--seed", "seed of the hands and boards", 0, UINT64_MAX, 0},
    {"--strict", "exit status 2 when a row misses its target", 0, 1, 1},
};
#define N_ARGS (sizeof ARGS / sizeof ARGS[0])

static const char ABOUT[] =
    "Times the C library alone on seeded random hands and board pairs\n"
    "(benchmarks/README.md, \"The C rows\").";

int main(int argc, char **argv)
{
    bench b;
    unsigned long long hands = 10000000, pairs = 10000000, reps_ull = 7, seed = 1, strict = 0;
    unsigned long long *const values[] = {&hands, &pairs, &reps_ull, &seed, &strict};
    size_t outn;
    int reps;
    uint64_t state;
    double t0;
    int64_t loop_sum, batch_sum;
    result r;
    int status, misses = 0;

    status = bench_parse(argc, argv, "bench_c", ABOUT, ARGS, values, N_ARGS);
    if (status >= 0) {
        return status;
    }
    status = 0;
    memset(&b, 0, sizeof b);
    b.hands = (size_t)hands;
    b.pairs = (size_t)pairs;
    reps = (int)reps_ull;
    state = (uint64_t)seed;

    outn = b.hands > b.pairs ? b.hands : b.pairs;
    b.h5 = (uint8_t *)malloc(b.hands * 5);
    b.h3 = (uint8_t *)malloc(b.hands * 3);
    b.pa = (uint8_t *)malloc(b.pairs * OFC_BOARD_CARDS);
    b.pb = (uint8_t *)malloc(b.pairs * OFC_BOARD_CARDS);
    b.out = (int32_t *)malloc(outn * sizeof(int32_t));
    b.rules = (ofc_rules *)malloc(sizeof(ofc_rules));
    if (!b.h5 || !b.h3 || !b.pa || !b.pb || !b.out || !b.rules) {
        fprintf(stderr, "bench_c: out of memory\n");
        return 1;
    }
    ofc_rules_init_ofc(b.rules);
    memset(b.out, 0, outn * sizeof(int32_t)); /* fault the pages in before timing */

    t0 = now_seconds();
    deal(b.h5, b.hands, 5, &state);
    deal(b.h3, b.hands, 3, &state);
    {
        /* one 26-card deal per pair, split 13/13 */
        size_t p;
        uint8_t *tmp = (uint8_t *)malloc(26 * 4096);
        if (tmp == NULL) {
            fprintf(stderr, "bench_c: out of memory\n");
            return 1;
        }
        for (p = 0; p < b.pairs; p += 4096) {
            size_t m = b.pairs - p < 4096 ? b.pairs - p : 4096, q;
            deal(tmp, m, 26, &state);
            for (q = 0; q < m; q++) {
                memcpy(b.pa + OFC_BOARD_CARDS * (p + q), tmp + 26 * q, OFC_BOARD_CARDS);
                memcpy(b.pb + OFC_BOARD_CARDS * (p + q), tmp + 26 * q + 13,
                       OFC_BOARD_CARDS);
            }
        }
        free(tmp);
    }

    printf("ofc-fast C benchmark (library %s): %llu hands, %llu pairs, seed %llu, %d reps\n",
           ofc_version_string(), hands, pairs, seed, reps);
#if defined(__VERSION__)
    printf("compiler: %s; clock: %s; dealt in %.2f s\n", __VERSION__, clock_name,
           now_seconds() - t0);
#else
    printf("clock: %s; dealt in %.2f s\n", clock_name, now_seconds() - t0);
#endif
    printf("\n%-44s %-5s %9s %9s %10s  %-9s %s\n", "row", "unit", "median ns", "min ns",
           "M/s", "target", "result");
    printf("----------------------------------------------------------------------"
           "-------------------------------------\n");

    r = time_it(loop_rank5_inline, &b, b.hands, reps);
    misses += print_row("rank5 loop: ofc_rank5_inline per hand", "hand", r, 3.0);
    r = time_it(loop_rank3_inline, &b, b.hands, reps);
    misses += print_row("rank3 loop: ofc_rank3_inline per hand", "hand", r, 1.5);
    r = time_it(loop_rank5, &b, b.hands, reps);
    print_row("rank5 call: ofc_rank5_unchecked per hand", "hand", r, 0);
    r = time_it(loop_rank3, &b, b.hands, reps);
    print_row("rank3 call: ofc_rank3_unchecked per hand", "hand", r, 0);
    if (loop_rank5(&b) != loop_rank5_inline(&b) || loop_rank3(&b) != loop_rank3_inline(&b)) {
        printf("ERROR: inline and exported rankers disagree\n");
        status = 1;
    }
    r = time_it(batch_rank5, &b, b.hands, reps);
    print_row("ofc_rank5_batch (validated, one call)", "hand", r, 0);
    loop_sum = loop_rank5(&b);
    batch_rank5(&b);
    batch_sum = sum_out(&b, b.hands);
    if (loop_sum != batch_sum) {
        printf("ERROR: rank5 loop sum %lld != ofc_rank5_batch sum %lld\n",
               (long long)loop_sum, (long long)batch_sum);
        status = 1;
    }
    r = time_it(batch_rank3, &b, b.hands, reps);
    print_row("ofc_rank3_batch (validated, one call)", "hand", r, 0);
    loop_sum = loop_rank3(&b);
    batch_rank3(&b);
    batch_sum = sum_out(&b, b.hands);
    if (loop_sum != batch_sum) {
        printf("ERROR: rank3 loop sum %lld != ofc_rank3_batch sum %lld\n",
               (long long)loop_sum, (long long)batch_sum);
        status = 1;
    }
    r = time_it(loop_pairs, &b, b.pairs, reps);
    print_row("board pair: eval_board_unchecked x2 + score", "pair", r, 0);
    r = time_it(batch_pairs, &b, b.pairs, reps);
    misses += print_row("ofc_score_pairs (validated, one call)", "pair", r, 25.0);
    loop_sum = loop_pairs(&b);
    batch_pairs(&b);
    batch_sum = sum_out(&b, b.pairs);
    if (loop_sum != batch_sum) {
        printf("ERROR: pair loop net sum %lld != ofc_score_pairs net sum %lld\n",
               (long long)loop_sum, (long long)batch_sum);
        status = 1;
    }
    if (b.failed) {
        printf("ERROR: a validated batch call rejected generated input\n");
        status = 1;
    }
    printf("\nmedian/min over %d reps of (loop seconds / count); M/s at the median. "
           "Targets: docs/design.md, Performance targets.\n", reps);
    printf("checksums: loops and batches agree: %s\n", status == 0 ? "yes" : "NO");
    if (misses > 0) {
        printf("targets missed: %d%s\n", misses,
               strict ? " (--strict: exit status 2)" : " (information; --strict: status 2)");
        if (strict && status == 0) {
            status = 2;
        }
    }

    free(b.h5);
    free(b.h3);
    free(b.pa);
    free(b.pb);
    free(b.out);
    free(b.rules);
    return status;
}
