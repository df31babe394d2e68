/* ofc_internal.h -- inline kernels shared by the library's translation units.
 * Not part of the public API. */
#ifndef OFC_INTERNAL_H
#define OFC_INTERNAL_H

#include <string.h>

#include "ofc_fast.h"
#include "ofc_inline.h"
#include "ofc_tables.h"


/* The ranking kernels are public, for inlining: see ofc_inline.h. */
#define ofc_rank5_k ofc_rank5_inline
#define ofc_rank3_k ofc_rank3_inline

/* Ends a copy of caller bytes to a local buffer: on GCC and Clang an empty asm
 * statement that clobbers memory, so the compiler may not replace later reads of the
 * copy by new reads of the source (elsewhere ofc_copy_cards() reads through a volatile
 * pointer instead). */
#if defined(__GNUC__) || defined(__clang__)
#define ofc_copy_fence(dst) __asm__ __volatile__("" : : "r"(dst) : "memory")
#else
#define ofc_copy_fence(dst) ((void)(dst))
#endif

/* Copies n caller bytes to dst, reading each source byte exactly once, so a kernel
 * that validates and uses only the copy sees one snapshot of the input even while
 * another thread writes it. */
static inline void ofc_copy_cards(uint8_t *dst, const uint8_t *src, size_t n)
{
#if defined(__GNUC__) || defined(__clang__)
    memcpy(dst, src, n);
#else
    const volatile uint8_t *v = src;
    size_t i;
    for (i = 0; i < n; i++) {
        dst[i] = v[i];
    }
#endif
    ofc_copy_fence(dst);
}

/* The caller's n bytes at src read once into local (ofc_fast.h, Threads): a public
 * function checks and uses only the copy.  NULL stays NULL. */
static inline const void *ofc_read_once(const void *src, size_t n, void *local)
{
    if (src == NULL) {
        return NULL;
    }
    ofc_copy_cards((uint8_t *)local, (const uint8_t *)src, n);
    return local;
}

/* 1 when the n bytes at a and the m bytes at b share a byte (addresses compared as
 * integers: the buffers are distinct objects unless they overlap).  A function that
 * writes an output while it still reads an input refuses the two overlapping: its
 * writes would change rows not yet read (the batch kernels of ofc_fast.h,
 * ofc_apply_stakes(), ofc_features_rows(), ofc_features_slots(), ofc_heur_values(),
 * ofc_best_settings()). */
static inline int ofc_bytes_overlap(const void *a, size_t n, const void *b, size_t m)
{
    uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    return a != NULL && b != NULL && n > 0 && m > 0 && (x < y ? y - x < n : x - y < m);
}

/* An input a function still reads while it writes its outputs: its address and size in
 * bytes (NULL p: none).  The const struct inputs (rules, configurations, models,
 * tables) count as well as the arrays: an output laid over them changes what the rest
 * of the call reads. */
typedef struct ofc_span {
    const void *p;
    size_t n;
} ofc_span;

/* a x b, or SIZE_MAX when that overflows (a size no buffer has). */
static inline size_t ofc_mul_sat(size_t a, size_t b)
{
    return a != 0 && b > (size_t)-1 / a ? (size_t)-1 : a * b;
}

/* 1 when the n bytes at out share a byte with one of the k inputs (ofc_bytes_overlap():
 * NULL out or n 0, no). */
static inline int ofc_over_any(const void *out, size_t n, const ofc_span *in, size_t k)
{
    size_t i;
    for (i = 0; i < k; i++) {
        if (ofc_bytes_overlap(out, n, in[i].p, in[i].n)) {
            return 1;
        }
    }
    return 0;
}

/* The n rows of `width` bytes at p as an input of ofc_rows_over_any(), their size
 * saturated (ofc_mul_sat()). */
static inline ofc_span ofc_rows(const void *p, size_t n, size_t width)
{
    ofc_span s;
    s.p = p;
    s.n = ofc_mul_sat(n, width);
    return s;
}

/* The batch kernels' overlap check: 1 when the n rows of `width` bytes at out share a
 * byte with one of the k inputs (ofc_over_any()), the rows' size saturated
 * (ofc_mul_sat(), as ofc_rows()'s): a count whose product overflows describes no array
 * and is refused, where a wrapped product let an output laid over its input pass. */
static inline int ofc_rows_over_any(const void *out, size_t n, size_t width,
                                    const ofc_span *in, size_t k)
{
    return ofc_over_any(out, ofc_mul_sat(n, width), in, k);
}

/* Batch kernels copy their input in blocks of this many rows (hands, boards or pairs)
 * to a local buffer, then validate and use only the buffer: one copy barrier per block
 * keeps the copy free. */
#define OFC_COPY_BLOCK 256

#if defined(__GNUC__) || defined(__clang__)
#define OFC_PREFETCH(p) __builtin_prefetch(p)
#else
#define OFC_PREFETCH(p) ((void)(p))
#endif

/* Bytes of the block after the one starting at row `start` of n rows of `width` bytes
 * (0 when it is the last). */
static inline size_t ofc_next_block_bytes(size_t start, size_t n, size_t width)
{
    size_t after = n - start > OFC_COPY_BLOCK ? n - start - OFC_COPY_BLOCK : 0;
    return width * (after < OFC_COPY_BLOCK ? after : OFC_COPY_BLOCK);
}

/* Row i of a block's loop prefetches row i of the next block, once per cache line: the
 * copy of the next block then reads from cache (without it, a copied block stalls on
 * memory that the hardware prefetcher, idle while the copy is used, did not fetch). */
static inline void ofc_prefetch_row(const uint8_t *next, size_t next_bytes, size_t i,
                                    size_t width)
{
    size_t off = width * i;
    if (((uintptr_t)(next + off) & 63u) < width && off < next_bytes) {
        OFC_PREFETCH(next + off);
    }
}

/* 1 when the n bytes at p are all 0: every check refuses a struct whose reserved
 * bytes (documented as 0) are not, so that a later version can give them a meaning. */
static inline int ofc_reserved_zero(const uint8_t *p, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) {
        if (p[i] != 0) {
            return 0;
        }
    }
    return 1;
}

/* 1 when the scalar fields of a rule set are in range (its reserved bytes 0) (ofc_rules_check() also scans
 * the 95 KB of tables: too slow per call; any int16 table value is memory-safe).  The
 * bounds keep every int32 sum of the scoring kernel far from overflow. */
static inline int ofc_rules_scalars_ok(const ofc_rules *r)
{
    return r != NULL && r->order_rule <= OFC_ORDER_STRICT && r->middle_lowball <= 1 &&
           r->lowball_limit <= 7462 && r->foul_pays_sweep <= 1 &&
           r->majority_rule <= OFC_MAJORITY_MORE_ROWS &&
           r->sweep_multiplier >= 1 && r->sweep_multiplier <= OFC_MULTIPLIER_MAX &&
           r->sweep_all_multiplier >= 1 && r->sweep_all_multiplier <= OFC_MULTIPLIER_MAX &&
           r->sweep_bonus >= -OFC_BONUS_LIMIT && r->sweep_bonus <= OFC_BONUS_LIMIT &&
           r->majority_bonus >= -OFC_BONUS_LIMIT && r->majority_bonus <= OFC_BONUS_LIMIT &&
           r->overall_bonus >= -OFC_BONUS_LIMIT && r->overall_bonus <= OFC_BONUS_LIMIT &&
           r->sweep_all_bonus >= -OFC_BONUS_LIMIT && r->sweep_all_bonus <= OFC_BONUS_LIMIT &&
           r->reserved == 0 && r->reserved2 == 0;
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
    uint64_t bits0 = others, sum0 = others, bits1 = 0, sum1 = 0;
    size_t i;
    for (i = 0; i + 1 < n; i += 2) { /* two chains: shorter dependency paths */
        uint64_t x = ofc_tab_card_bit[h[i]], y = ofc_tab_card_bit[h[i + 1]];
        bits0 |= x;
        sum0 += x;
        bits1 |= y;
        sum1 += y;
    }
    if (i < n) {
        uint64_t x = ofc_tab_card_bit[h[i]];
        bits0 |= x;
        sum0 += x;
    }
    *taken = bits0 | bits1;
    return (uint32_t)((bits0 | bits1) != sum0 + sum1) | (uint32_t)((bits0 | bits1) >> 63);
}

static inline uint32_t ofc_cards_invalid(const uint8_t *h, size_t n, uint64_t others)
{
    uint64_t taken;
    return ofc_cards_mask(h, n, others, &taken);
}

/* Number of set bits (SWAR; no popcount instruction needed). */
static inline uint32_t ofc_popcount64(uint64_t x)
{
    x = x - ((x >> 1) & UINT64_C(0x5555555555555555));
    x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
    x = (x + (x >> 4)) & UINT64_C(0x0F0F0F0F0F0F0F0F);
    return (uint32_t)((x * UINT64_C(0x0101010101010101)) >> 56);
}

/* The error for cards that ofc_cards_invalid() rejected (slow path). */
static inline int32_t ofc_cards_error(const uint8_t *h, size_t n)
{
    uint64_t seen = 0;
    return ofc_check_cards(h, n, &seen);
}

/* Index of the first of n rows of `width` (<= 13) card ids that ofc_cards_invalid()
 * rejects, or n when all are valid; *status receives its error.  The batch kernels run
 * it over their whole input before writing any output, so a bad row leaves the outputs
 * untouched (rows are checked on a copied block, as the kernels do). */
static inline size_t ofc_first_bad_row(const uint8_t *cards, size_t n, size_t width,
                                       int32_t *status)
{
    size_t start, i;
    for (start = 0; start < n; start += OFC_COPY_BLOCK) {
        uint8_t block[OFC_BOARD_CARDS * OFC_COPY_BLOCK];
        size_t m = n - start < OFC_COPY_BLOCK ? n - start : OFC_COPY_BLOCK;
        ofc_copy_cards(block, cards + width * start, width * m);
        for (i = 0; i < m; i++) {
            if (OFC_UNLIKELY(ofc_cards_invalid(block + width * i, width, 0))) {
                *status = ofc_cards_error(block + width * i, width);
                return start + i;
            }
        }
    }
    return n;
}

/* The fields of ofc_tab_strength_info[s] (packing documented at ofc_strength_info()
 * in ofc_fast.h), for a valid strength s: the only place in csrc/ that decodes them. */
static inline uint32_t ofc_info_cards(uint16_t s)
{
    return ofc_tab_strength_info[s] >> 24;
}

static inline uint32_t ofc_info_category(uint16_t s)
{
    return (ofc_tab_strength_info[s] >> 20) & 0xFu;
}

/* The rank (0..12) of the first card of a strength's description. */
static inline uint32_t ofc_info_lead(uint16_t s)
{
    return (ofc_tab_strength_info[s] >> 16) & 0xFu;
}

/* 1 when the strength is a 3-card strength, 0 for 5-card (strength must be valid). */
static inline uint32_t ofc_is_three(uint16_t s)
{
    return ofc_info_cards(s) == 3u;
}

/* Cards a full row holds (R-ROW-1), row 0..2. */
static inline uint32_t ofc_row_size(uint32_t row)
{
    return row == OFC_FRONT ? OFC_FRONT_CARDS : row == OFC_MIDDLE ? OFC_MIDDLE_CARDS
                                                                  : OFC_BACK_CARDS;
}

/* Free slots per row of a board whose rows hold count[0..2] cards. */
static inline void ofc_row_room(const uint8_t count[3], uint8_t room[3])
{
    uint32_t row;
    for (row = 0; row < OFC_ROWS; row++) {
        room[row] = (uint8_t)(ofc_row_size(row) - count[row]);
    }
}

/* First slot of a row in a 13-card board: 0, 3 and 8. */
static inline uint32_t ofc_row_start(uint32_t row)
{
    return row == 0 ? 0u : 5u * row - 2u;
}

/* C(n, k) for n 0..17, k 0..5 (the generated table). */
static inline uint32_t ofc_binom(uint32_t n, uint32_t k)
{
    return ofc_tab_binom[6u * n + k];
}

/* C(n, k) for any n (0 when k < 0 or k > n), exact while it fits in 64 bits: the
 * table of ofc_binom() where it reaches, else the product formula. */
static inline uint64_t ofc_choose(int n, int k)
{
    uint64_t r = 1;
    int i;
    if (k < 0 || k > n) {
        return 0;
    }
    if (n <= 17 && k <= 5) {
        return ofc_binom((uint32_t)n, (uint32_t)k);
    }
    for (i = 1; i <= k; i++) {
        r = r * (uint64_t)(n - k + i) / (uint64_t)i;
    }
    return r;
}

/* n! for n 0..20 (the largest that fits in 64 bits). */
static inline uint64_t ofc_factorial(int n)
{
    uint64_t f = 1;
    while (n > 1) {
        f *= (uint64_t)n--;
    }
    return f;
}

/* Row comparison key: the strength, or its 2-7 value for a lowball middle. */
static inline uint32_t ofc_row_key(const ofc_rules *r, int row, uint16_t s)
{
    return (row == OFC_MIDDLE && r->middle_lowball) ? ofc_tab_low27[s] : s;
}

/* The row-order foul (R-ORDER-1) of front, middle and back strengths under an
 * ofc_order_rule (no branch on the data).  A 3-card strength never equals a 5-card
 * one, so only middle against back can differ between the two rules. */
static inline uint32_t ofc_order_fouls(uint32_t order, uint32_t f, uint32_t m, uint32_t b)
{
    return order == OFC_ORDER_STRICT ? (uint32_t)(f >= m) | (uint32_t)(m >= b)
                                     : (uint32_t)(f > m) | (uint32_t)(m > b);
}

/* Foul test of three valid strengths (front 3-card, middle/back 5-card). */
static inline uint8_t ofc_foul_k(const ofc_rules *r, const uint16_t s[3])
{
    if (r->middle_lowball) {
        uint32_t back_low = s[2] < s[0]; /* a front never equals a back */
        return (uint8_t)(back_low || ofc_tab_low27[s[1]] < r->lowball_limit);
    }
    return (uint8_t)ofc_order_fouls(r->order_rule, s[0], s[1], s[2]);
}

/* Evaluates a board of 13 valid distinct cards (no branches on the data). */
static inline void ofc_eval_board_k(const ofc_rules *rules, const uint8_t cards[13],
                                    ofc_board_eval *out)
{
    int row;
    int16_t keep;
    out->strength[OFC_FRONT] = ofc_rank3_k(cards[0], cards[1], cards[2]);
    out->strength[OFC_MIDDLE] = ofc_rank5_k(cards[3], cards[4], cards[5], cards[6], cards[7]);
    out->strength[OFC_BACK] = ofc_rank5_k(cards[8], cards[9], cards[10], cards[11], cards[12]);
    out->foul = ofc_foul_k(rules, out->strength);
    out->reserved = 0;
    keep = (int16_t)(out->foul - 1); /* all ones when legal, 0 when fouled: no branch */
    for (row = 0; row < OFC_ROWS; row++) {
        out->royalty[row] = (int16_t)(rules->royalty[row][out->strength[row]] & keep);
    }
}

static const ofc_pair_context ofc_no_context = {0, 0, 0, 0};

/* The scoring kernel is written without data-dependent branches: about 70% of random
 * boards foul, so branching on fouls and row results would mispredict constantly.
 * Only branches on rule fields remain (the same for every pair of a batch). */

/* Side bonus (sweep + majority) for a side with `won` rows against `lost`. */
static inline int32_t ofc_side_bonus(const ofc_rules *r, int32_t won, int32_t lost)
{
    int32_t majority = r->majority_rule == OFC_MAJORITY_MORE_ROWS ? won > lost : won >= 2;
    return (won == OFC_ROWS) * r->sweep_bonus + majority * r->majority_bonus;
}

/* 1 when a rule set needs none of the general scoring features (2-7 middle, sweep
 * multipliers, sweep-all bonus, overall point): the batch loop then runs a kernel
 * specialised by the compiler (ofc_score_evals_k with plain = 1). */
static inline int ofc_rules_plain(const ofc_rules *r)
{
    return !r->middle_lowball && r->sweep_multiplier == 1 && r->sweep_all_multiplier == 1 &&
           r->sweep_all_bonus == 0 && r->overall_bonus == 0 && r->foul_pays_sweep;
}

/* Scores two evaluated boards under a context (never NULL).  `plain` must be a
 * constant: 1 only for rules where ofc_rules_plain() holds and a zero context. */
static inline int32_t ofc_score_evals_k(const ofc_rules *rules, const ofc_board_eval *a,
                                        const ofc_board_eval *b,
                                        const ofc_pair_context *ctx, ofc_pair_score *detail,
                                        int plain)
{
    int32_t fa = a->foul, fb = b->foul, any_foul = fa | fb;
    int32_t won_a = 0, won_b = 0, units = 0, bonus, royalties, net, sweep_a, sweep_b;
    int32_t mult_a, mult_b, m, overall, sweeps_count;
    (void)mult_a;
    int8_t rows[OFC_ROWS];
    int row;
    for (row = 0; row < OFC_ROWS; row++) {
        uint32_t ka = plain ? a->strength[row] : ofc_row_key(rules, row, a->strength[row]);
        uint32_t kb = plain ? b->strength[row] : ofc_row_key(rules, row, b->strength[row]);
        int32_t cmp = (int32_t)(ka > kb) - (int32_t)(ka < kb);
        int32_t o = plain ? cmp : cmp + (cmp == 0) * ctx->ties;
        int32_t pos, neg;
        o = any_foul ? fb - fa : o; /* a fouled board loses every row; both: 0 */
        pos = o > 0;
        neg = o < 0;
        units += pos * rules->win_value[row][a->strength[row]] -
                 neg * rules->win_value[row][b->strength[row]];
        won_a += pos;
        won_b += neg;
        rows[row] = (int8_t)o;
    }
    /* Beating a fouled board counts as a sweep unless the rules say rows only. */
    sweeps_count = (any_foul == 0) | rules->foul_pays_sweep;
    sweep_a = (won_a == OFC_ROWS) & sweeps_count;
    sweep_b = (won_b == OFC_ROWS) & sweeps_count;
    bonus = ofc_side_bonus(rules, won_a, won_b) - ofc_side_bonus(rules, won_b, won_a);
    bonus = sweeps_count ? bonus : 0;
    if (!plain) {
        mult_a = ctx->a_sweeps_all ? rules->sweep_all_multiplier : rules->sweep_multiplier;
        mult_b = ctx->b_sweeps_all ? rules->sweep_all_multiplier : rules->sweep_multiplier;
        m = 1 + sweep_a * (mult_a - 1) + sweep_b * (mult_b - 1); /* at most one sweeps */
        units *= m;
        bonus = bonus * m + (sweep_a * ctx->a_sweeps_all - sweep_b * ctx->b_sweeps_all) *
                                rules->sweep_all_bonus;
    }
    royalties = (a->royalty[0] + a->royalty[1] + a->royalty[2]) -
                (b->royalty[0] + b->royalty[1] + b->royalty[2]);
    net = units + bonus + royalties;
    if (!plain) {
        overall = ((net > 0) - (net < 0)) * rules->overall_bonus;
        bonus += overall;
        net += overall;
    }
    if (detail) {
        detail->net = net;
        for (row = 0; row < OFC_ROWS; row++) {
            detail->rows[row] = rows[row];
        }
        detail->sweep = (int8_t)(sweep_a - sweep_b);
        detail->row_points = units;
        detail->bonus = bonus;
        detail->royalties = royalties;
    }
    return net;
}

#endif /* OFC_INTERNAL_H */
