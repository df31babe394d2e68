/*
 * bench_settle.c -- speed of one table settlement, ofc_settle() (csrc/include/ofc_settle.h).
 *
 * Times ofc_settle() on pre-generated seeded random deals of 2, 3 and 4 seats (each
 * seat a random complete board of distinct cards, random button) under the OFC /
 * Pineapple pair scoring (ofc_rules_init_ofc()) and the plain table
 * (ofc_table_rules_init(): pairwise rows, no stakes), without items (flags 0: the
 * path a game engine takes once per finished deal) and with OFC_SETTLE_ITEMS.  Each
 * row runs `reps` times (default 7); the median and minimum ns per call are printed.
 * The nets of every run are summed so the work cannot be dropped, and the two paths
 * must agree on them, otherwise the program fails.
 *
 * Build (from the repository root):
 *   gcc -std=c99 -O3 -Wall -Wextra -Werror -pedantic \
 *       -Icsrc/include -Icsrc/src -Icsrc/generated benchmarks/bench_settle.c \
 *       csrc/src/ofc_*.c csrc/generated/ofc_*.c -o bench_settle
 * Usage (./bench_settle --help says each argument's range):
 *   ./bench_settle [deals per seat count, default 200000] [reps, default 7]
 * Exit status: 0 on success, 1 on a checksum mismatch, a settle error or no memory,
 * 2 on an argument it does not take (a usage line and the argument named).
 */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 199309L
#endif

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_args.h"
#include "ofc_fast.h"

#define MAX_REPS 99

static double now_seconds(void)
{
#if defined(CLOCK_MONOTONIC)
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
#else
    return (double)clock() / CLOCKS_PER_SEC;
#endif
}

static uint64_t next_u64(uint64_t *state) /* SplitMix64 */
{
    uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* n random deals of `players` seats. */
static void make_deals(ofc_settle_input *in, size_t n, int players, uint64_t *state)
{
    size_t d;
    for (d = 0; d < n; d++) {
        uint8_t deck[52];
        int i;
        for (i = 0; i < 52; i++) {
            deck[i] = (uint8_t)i;
        }
        for (i = 51; i > 0; i--) {
            int j = (int)(next_u64(state) % (uint64_t)(i + 1));
            uint8_t c = deck[i];
            deck[i] = deck[j];
            deck[j] = c;
        }
        ofc_settle_input_init(&in[d], (uint8_t)players,
                              (uint8_t)(next_u64(state) % (uint64_t)players));
        memcpy(in[d].cards, deck, 13u * (unsigned)players);
    }
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* Median and minimum ns per call over `reps` runs; *sum gets the checksum. */
static int time_settle(const ofc_rules *r, const ofc_table_rules *t,
                       const ofc_settle_input *in, size_t n, uint32_t flags, int reps,
                       double *median, double *min, int64_t *sum)
{
    double ns[MAX_REPS];
    ofc_settlement s;
    int rep;
    for (rep = 0; rep < reps; rep++) {
        int64_t acc = 0;
        size_t d;
        double t0 = now_seconds();
        for (d = 0; d < n; d++) {
            if (ofc_settle(r, t, &in[d], flags, &s) != OFC_OK) {
                return 1;
            }
            acc += s.net[0] * 3 + s.net[1];
        }
        ns[rep] = (now_seconds() - t0) * 1e9 / (double)n;
        *sum = acc;
    }
    qsort(ns, (size_t)reps, sizeof ns[0], cmp_double);
    *median = reps % 2 ? ns[reps / 2] : 0.5 * (ns[reps / 2 - 1] + ns[reps / 2]);
    *min = ns[0];
    return 0;
}

static const bench_arg ARGS[] = {
    {"deals", "random deals per seat count", 1, SIZE_MAX / sizeof(ofc_settle_input), 0},
    {"reps", "repetitions of each row (median and minimum printed)", 1, MAX_REPS, 0},
};
#define N_ARGS (sizeof ARGS / sizeof ARGS[0])

static const char ABOUT[] =
    "Times one ofc_settle() call on seeded random deals of 2, 3 and 4\n"
    "seats, without and with OFC_SETTLE_ITEMS (benchmarks/README.md).";

int main(int argc, char **argv)
{
    unsigned long long deals = 200000, reps_ull = 7;
    unsigned long long *const values[] = {&deals, &reps_ull};
    size_t n;
    int reps, players;
    uint64_t state = 20261201;
    ofc_rules *r;
    ofc_settle_input *in;
    ofc_table_rules t;
    int status = bench_parse(argc, argv, "bench_settle", ABOUT, ARGS, values, N_ARGS);
    if (status >= 0) {
        return status;
    }
    n = (size_t)deals;
    reps = (int)reps_ull;
    r = malloc(sizeof *r);
    in = malloc(n * sizeof *in);
    if (r == NULL || in == NULL) {
        fprintf(stderr, "bench_settle: out of memory for %zu deals\n", n);
        free(r);
        free(in);
        return 1;
    }
    ofc_rules_init_ofc(r);
    ofc_table_rules_init(&t);
    printf("ofc_settle(), OFC/Pineapple pairwise scoring, %zu random deals, %d reps\n", n,
           reps);
    printf("%-8s %-14s %10s %10s %12s\n", "seats", "path", "median ns", "min ns",
           "M calls/s");
    for (players = 2; players <= 4; players++) {
        double med[2], mn[2];
        int64_t sum[2];
        int k;
        make_deals(in, n, players, &state);
        for (k = 0; k < 2; k++) {
            if (time_settle(r, &t, in, n, k ? OFC_SETTLE_ITEMS : 0, reps, &med[k], &mn[k],
                            &sum[k])) {
                fprintf(stderr, "ofc_settle failed\n");
                return 1;
            }
            printf("%-8d %-14s %10.1f %10.1f %12.2f\n", players, k ? "with items" : "no items",
                   med[k], mn[k], 1e3 / med[k]);
        }
        if (sum[0] != sum[1]) {
            fprintf(stderr, "checksum mismatch: %lld != %lld\n", (long long)sum[0],
                    (long long)sum[1]);
            return 1;
        }
    }
    free(in);
    free(r);
    return 0;
}
