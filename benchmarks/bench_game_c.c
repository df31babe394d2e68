/* bench_game_c.c -- the C game engine on one core: random playouts to the end with the
 * settlement included (init + ofc_game_playout + ofc_game_result_get per deal), and the
 * cost of copying a state.  Prints one JSON object; benchmarks/bench_game.py builds and
 * runs it:
 *     gcc -std=c99 -O3 -Icsrc/include -Icsrc/src -Icsrc/generated \
 *         benchmarks/bench_game_c.c csrc/src/ofc_*.c csrc/generated/ofc_*.c -o bench_game_c
 *     ./bench_game_c [deals] [reps]      (defaults 200000 and 7; --help says more)
 * Exit status: 0; 1 without memory; 2 on an argument it does not take.
 */
#include "bench_clock.h"

#include "bench_args.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ofc_fast.h"

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static ofc_game_rules rules;

/* decisions per second of `deals` random Pineapple deals at `players` seats */
static double playouts(uint32_t players, uint32_t deals, uint64_t seed, int64_t *check)
{
    ofc_game g;
    ofc_game_result res;
    ofc_rng rng = {seed, 0};
    uint64_t decisions = 0;
    uint32_t i, n;
    double t = now_seconds();
    for (i = 0; i < deals; i++) {
        ofc_game_init(&rules, &g, players, i % players, NULL, seed + i, NULL);
        ofc_game_playout(&g, &rng, &n);
        ofc_game_result_get(&rules, &g, NULL, 0, &res);
        decisions += n;
        *check += res.net[0];
    }
    return (double)decisions / (now_seconds() - t);
}

static double copies(uint32_t count)
{
    ofc_game g, copy[16];
    uint32_t i;
    double t;
    ofc_game_init(&rules, &g, 3, 0, NULL, 1, NULL);
    t = now_seconds();
    for (i = 0; i < count; i++) {
        copy[i & 15] = g;
        g.step = (uint8_t)(copy[(i + 7) & 15].step & 1);
    }
    return (now_seconds() - t) / count * 1e9;
}

static const bench_arg ARGS[] = {
    {"deals", "random deals per row and repetition", 1, UINT32_MAX, 0},
    {"reps", "repetitions of each row (the median printed)", 1, 1000000, 0},
};
#define N_ARGS (sizeof ARGS / sizeof ARGS[0])

static const char ABOUT[] =
    "Times the C game engine on one core: random Pineapple playouts\n"
    "with the settlement, and the copy of a state; prints one JSON\n"
    "object (benchmarks/bench_game.py builds and runs it).";

int main(int argc, char **argv)
{
    unsigned long long deals_ull = 200000, reps_ull = 7;
    unsigned long long *const values[] = {&deals_ull, &reps_ull};
    uint32_t deals;
    int reps, r;
    double *p2, *p3, *cp;
    int64_t check = 0;
    int status = bench_parse(argc, argv, "bench_game_c", ABOUT, ARGS, values, N_ARGS);
    if (status >= 0) {
        return status;
    }
    deals = (uint32_t)deals_ull;
    reps = (int)reps_ull;
    p2 = (double *)malloc(3 * (size_t)reps * sizeof *p2);
    if (p2 == NULL) {
        fprintf(stderr, "bench_game_c: out of memory\n");
        return 1;
    }
    p3 = p2 + reps;
    cp = p3 + reps;
    ofc_game_rules_init_pineapple(&rules);
    playouts(3, deals / 10 + 1, 99, &check); /* warm-up */
    for (r = 0; r < reps; r++) {
        p3[r] = playouts(3, deals, 1000u * (uint32_t)r, &check);
        p2[r] = playouts(2, deals, 7777u * (uint32_t)r, &check);
        cp[r] = copies(10000000);
    }
    qsort(p3, (size_t)reps, sizeof *p3, cmp);
    qsort(p2, (size_t)reps, sizeof *p2, cmp);
    qsort(cp, (size_t)reps, sizeof *cp, cmp);
    printf("{\"playout_pineapple_3p\": %.0f, \"playout_pineapple_2p\": %.0f, "
           "\"state_copy_ns\": %.2f, \"state_bytes\": %u, \"deals\": %u, \"reps\": %d, "
           "\"check\": %lld}\n",
           p3[reps / 2], p2[reps / 2], cp[reps / 2], (unsigned)sizeof(ofc_game), deals,
           reps, (long long)check);
    free(p2);
    return 0;
}
