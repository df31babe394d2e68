/* ofc_internal.h -- inline kernels shared by the library's translation units.
 * Not part of the public API. */
#ifndef OFC_INTERNAL_H
#define OFC_INTERNAL_H

#include "ofc_fast.h"
#include "ofc_tables.h"

#if defined(__GNUC__) || defined(__clang__)
#define OFC_LIKELY(x) __builtin_expect(!!(x), 1)
#define OFC_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define OFC_LIKELY(x) (x)
#define OFC_UNLIKELY(x) (x)
#endif

/* The suit nibbles of a card-key sum start at 3, so a nibble reaches 8 (bit 3) only
 * when five cards share that suit. */
#define OFC_SUIT_BIAS (UINT64_C(0x3333) << 32)
#define OFC_FLUSH_BITS (UINT64_C(0x8888) << 32)

/* Strength of five distinct valid cards: perfect hash, or the flush table. */
static inline uint16_t ofc_rank5_k(uint32_t a, uint32_t b, uint32_t c, uint32_t d,
                                   uint32_t e)
{
    uint64_t key = OFC_SUIT_BIAS + ofc_tab_card_key[a] + ofc_tab_card_key[b] +
                   ofc_tab_card_key[c] + ofc_tab_card_key[d] + ofc_tab_card_key[e];
    uint32_t k = (uint32_t)key;
    if (OFC_UNLIKELY(key & OFC_FLUSH_BITS)) {
        return ofc_tab_flush[ofc_tab_card_rank_bit[a] | ofc_tab_card_rank_bit[b] |
                             ofc_tab_card_rank_bit[c] | ofc_tab_card_rank_bit[d] |
                             ofc_tab_card_rank_bit[e]];
    }
    return ofc_tab_hash_value[ofc_tab_hash_offset[k >> OFC_HASH_SHIFT] + (k & OFC_HASH_MASK)];
}

/* Strength of three distinct valid cards. */
static inline uint16_t ofc_rank3_k(uint32_t a, uint32_t b, uint32_t c)
{
    return ofc_tab_top3[169u * (a >> 2) + 13u * (b >> 2) + (c >> 2)];
}

/* Adds n cards to the seen-set; OFC_OK, OFC_E_CARD or OFC_E_DUPLICATE. */
static inline int32_t ofc_check_cards(const uint8_t *cards, size_t n, uint64_t *seen)
{
    uint64_t mask = *seen;
    size_t i;
    for (i = 0; i < n; i++) {
        uint64_t bit;
        if (cards[i] >= OFC_CARDS) {
            return OFC_E_CARD;
        }
        bit = (uint64_t)1 << cards[i];
        if (mask & bit) {
            return OFC_E_DUPLICATE;
        }
        mask |= bit;
    }
    *seen = mask;
    return OFC_OK;
}

/* Nonzero when n cards hold an id >= 52, a repeat, or a card of `others` (a set of
 * cards already taken); no branches.  Distinct valid cards have disjoint bits, so
 * their OR equals their sum; any repeat carries, and a non-card sets bit 63. */
static inline uint32_t ofc_cards_mask(const uint8_t *h, size_t n, uint64_t others,
                                      uint64_t *taken)
{
    uint64_t bits = others, sum = others;
    size_t i;
    for (i = 0; i < n; i++) {
        uint64_t bit = ofc_tab_card_bit[h[i]];
        bits |= bit;
        sum += bit;
    }
    *taken = bits;
    return (uint32_t)(bits != sum) | (uint32_t)(bits >> 63);
}

static inline uint32_t ofc_cards_invalid(const uint8_t *h, size_t n, uint64_t others)
{
    uint64_t taken;
    return ofc_cards_mask(h, n, others, &taken);
}

/* The error for cards that ofc_cards_invalid() rejected (slow path). */
static inline int32_t ofc_cards_error(const uint8_t *h, size_t n)
{
    uint64_t seen = 0;
    return ofc_check_cards(h, n, &seen);
}

/* 1 when the strength is a 3-card strength, 0 for 5-card (strength must be valid). */
static inline uint32_t ofc_is_three(uint16_t s)
{
    return (ofc_tab_strength_info[s] >> 24) == 3u;
}

/* Row comparison key: the strength, or its 2-7 value for a lowball middle. */
static inline uint32_t ofc_row_key(const ofc_rules *r, int row, uint16_t s)
{
    return (row == OFC_MIDDLE && r->middle_lowball) ? ofc_tab_low27[s] : s;
}

/* Foul test of three valid strengths (front 3-card, middle/back 5-card). */
static inline uint8_t ofc_foul_k(const ofc_rules *r, const uint16_t s[3])
{
    if (r->middle_lowball) {
        uint32_t back_low = r->lowball_back_strict ? s[2] <= s[0] : s[2] < s[0];
        return (uint8_t)(back_low || ofc_tab_low27[s[1]] < r->lowball_limit);
    }
    switch (r->order_rule) {
    case OFC_ORDER_STRICT:
        return (uint8_t)(s[0] >= s[1] || s[1] >= s[2]);
    case OFC_ORDER_MIXED:
        return (uint8_t)(s[0] >= s[1] || s[1] > s[2]);
    default:
        return (uint8_t)(s[0] > s[1] || s[1] > s[2]);
    }
}

#endif /* OFC_INTERNAL_H */
