/*
 * ofc_inline.h -- the 5-card and 3-card ranking kernels as static inline functions,
 * for C callers who rank hands in their own tight loops (the xxHash XXH_INLINE_ALL
 * idea): include this header instead of calling ofc_rank5_unchecked(), and link
 * csrc/generated/ofc_tables.c (or the whole library) for the tables.
 *
 * Example
 * -------
 * @code
 * uint16_t s = ofc_rank5_inline(51, 47, 43, 39, 35);   // As Ks Qs Js Ts
 * assert(s == ofc_rank5_unchecked(51, 47, 43, 39, 35) && s == OFC_STRENGTH_MAX);
 * assert(ofc_rank3_inline(50, 46, 42) == ofc_rank3_unchecked(42, 46, 50));  // Ah Kh Qh
 * @endcode
 *
 * The functions return exactly what ofc_rank5_unchecked() / ofc_rank3_unchecked()
 * return and have the same preconditions: distinct card ids in 0..51.
 */
#ifndef OFC_INLINE_H
#define OFC_INLINE_H

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

/* The low 32 bits of a key: a static_cast in C++, whose strict builds
 * (-Wold-style-cast -Werror) refuse a C-style cast in a header they include. */
#ifdef __cplusplus
#define OFC_KEY_LOW32(key) static_cast<uint32_t>(key)
#else
#define OFC_KEY_LOW32(key) ((uint32_t)(key))
#endif

/*! @brief ofc_rank5_unchecked() inlined: the perfect hash of the rank keys, or the
 * flush table when the suit nibbles show five of a suit.
 * @param a  the first card;
 * @param b  the second card;
 * @param c  the third card;
 * @param d  the fourth card;
 * @param e  the fifth card.
 * @pre five distinct card ids in 0..51 (anything else reads out of bounds).
 * @return the strength, 1..OFC_STRENGTH_MAX. */
static inline uint16_t ofc_rank5_inline(uint32_t a, uint32_t b, uint32_t c, uint32_t d,
                                        uint32_t e)
{
    uint64_t key = OFC_SUIT_BIAS + ofc_tab_card_key[a] + ofc_tab_card_key[b] +
                   ofc_tab_card_key[c] + ofc_tab_card_key[d] + ofc_tab_card_key[e];
    uint32_t k = OFC_KEY_LOW32(key);
    if (OFC_UNLIKELY(key & OFC_FLUSH_BITS)) {
        return ofc_tab_flush[ofc_tab_card_rank_bit[a] | ofc_tab_card_rank_bit[b] |
                             ofc_tab_card_rank_bit[c] | ofc_tab_card_rank_bit[d] |
                             ofc_tab_card_rank_bit[e]];
    }
    return ofc_tab_hash_value[ofc_tab_hash_offset[k >> OFC_HASH_SHIFT] + (k & OFC_HASH_MASK)];
}

/*! @brief ofc_rank3_unchecked() inlined.
 * @param a  the first card;
 * @param b  the second card;
 * @param c  the third card.
 * @pre three card ids in 0..51 (anything else reads out of bounds).
 * @return the strength, 1..OFC_STRENGTH_MAX. */
static inline uint16_t ofc_rank3_inline(uint32_t a, uint32_t b, uint32_t c)
{
    return ofc_tab_top3[169u * (a >> 2) + 13u * (b >> 2) + (c >> 2)];
}

#endif /* OFC_INLINE_H */
