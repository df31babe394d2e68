/*
 * ofc_rng.c -- the one random number generator of the library (see ofc_rng.h and,
 * for the public functions and their formulas, ofc_game.h): SplitMix64 outputs,
 * uniform integers by Lemire's method with rejection, shuffles, seeds of deals.
 */
#include "ofc_rng.h"

#define GOLDEN UINT64_C(0x9E3779B97F4A7C15)

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

uint64_t ofc_random64(uint64_t key, uint64_t i)
{
    return mix64(key + (i + 1) * GOLDEN);
}

/* Lemire's multiply-shift on the high 32 bits of successive outputs, with rejection
 * of the (rare) biased low products. */
uint32_t ofc_rng_draw(ofc_rng *rng, uint64_t n)
{
    for (;;) {
        uint64_t x = mix64(rng->key + ++rng->ctr * GOLDEN) >> 32;
        uint64_t m = x * n;
        uint64_t lo = m & UINT64_C(0xFFFFFFFF);
        if (lo < n && lo < ((UINT64_C(1) << 32) - n) % n)
            continue;
        return (uint32_t)(m >> 32);
    }
}

uint32_t ofc_rng_below(ofc_rng *rng, uint64_t n)
{
    if (rng == NULL || n == 0 || n > (UINT64_C(1) << 32))
        return 0;
    return ofc_rng_draw(rng, n);
}

void ofc_rng_shuffle(uint8_t *v, uint32_t n, ofc_rng *rng)
{
    uint32_t i;
    for (i = n ? n - 1u : 0u; i > 0; i--) {
        uint32_t j = ofc_rng_draw(rng, (uint64_t)i + 1u);
        uint8_t t = v[i];
        v[i] = v[j];
        v[j] = t;
    }
}

void ofc_rng_shuffle_front(uint8_t *v, size_t n, size_t need, ofc_rng *rng)
{
    size_t i;
    need = need < n ? need : n;
    for (i = 0; i < need; i++) {
        size_t j = i + ofc_rng_draw(rng, (uint64_t)(n - i));
        uint8_t t = v[i];
        v[i] = v[j];
        v[j] = t;
    }
}

void ofc_deck_from_seed(uint64_t seed, uint8_t deck[52])
{
    ofc_rng rng = ofc_rng_make(seed);
    uint32_t i;
    for (i = 0; i < 52; i++)
        deck[i] = (uint8_t)i;
    ofc_rng_shuffle(deck, 52, &rng);
}

uint64_t ofc_deal_seed(uint64_t run_seed, uint64_t i)
{
    return ofc_random64(run_seed ^ UINT64_C(0x6F66632D66617374), i);
}
