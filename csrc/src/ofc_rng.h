/*
 * ofc_rng.h -- the one random number generator of the library (private): SplitMix64
 * streams, uniform integers by Lemire's method and the shuffles built on them.
 *
 * The public face of the generator (the ofc_rng stream, ofc_random64(),
 * ofc_rng_below(), ofc_deck_from_seed(), ofc_deal_seed()) is declared in ofc_game.h
 * and documented there with its exact formulas; ofc_rng.c defines it.  This header
 * adds what the other sources of the library draw with: the unchecked draw and the
 * shuffles, so every random number of the library comes from one place.
 */
#ifndef OFC_RNG_H
#define OFC_RNG_H

#include <stddef.h>
#include <stdint.h>

#include "ofc_game.h"

/* The stream {key, 0}: its first draw is ofc_random64(key, 0). */
static inline ofc_rng ofc_rng_make(uint64_t key)
{
    ofc_rng rng;
    rng.key = key;
    rng.ctr = 0;
    return rng;
}

/* Uniform integer in 0..n-1, advancing the stream (ofc_rng_below() unchecked).
 * Precondition: rng != NULL, 1 <= n <= 2^32. */
uint32_t ofc_rng_draw(ofc_rng *rng, uint64_t n);

/* Fisher-Yates over v[0..n), from the last position down (the deck's order).
 * Precondition: v holds n items, n <= 2^32. */
void ofc_rng_shuffle(uint8_t *v, uint32_t n, ofc_rng *rng);

/* Partial Fisher-Yates from the front: puts a uniformly random draw of `need` of the
 * n items of v at its front, in draw order (need is capped at n).  Precondition:
 * n <= 2^32. */
void ofc_rng_shuffle_front(uint8_t *v, size_t n, size_t need, ofc_rng *rng);

#endif /* OFC_RNG_H */
