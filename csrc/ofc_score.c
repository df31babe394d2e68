/* ofc_score.c -- pairwise scoring of two evaluated boards, single and batch. */
#include "ofc_internal.h"

int32_t ofc_score_evals(const ofc_rules *rules, const ofc_board_eval *a,
                        const ofc_board_eval *b, const ofc_pair_context *ctx,
                        ofc_pair_score *detail)
{
    return ofc_score_evals_k(rules, a, b, ctx ? ctx : &ofc_no_context, detail, 0);
}

/* Number of set bits (SWAR; no popcount instruction needed). */
static inline uint32_t ofc_popcount64(uint64_t x)
{
    x = x - ((x >> 1) & UINT64_C(0x5555555555555555));
    x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
    x = (x + (x >> 4)) & UINT64_C(0x0F0F0F0F0F0F0F0F);
    return (uint32_t)((x * UINT64_C(0x0101010101010101)) >> 56);
}

/* Nonzero when the 26 cards of a pair hold a non-card, a repeat within a board or a
 * card on both boards: 26 distinct cards set 26 distinct bits of the OR, and any byte
 * that is no card sets bit 63 (ofc_tab_card_bit).  Two accumulators, one per board. */
static inline uint32_t ofc_pair_invalid(const uint8_t a[13], const uint8_t b[13])
{
    const uint64_t *bit = ofc_tab_card_bit;
    uint64_t oa = 0, ob = 0, all;
    int i;
    for (i = 0; i < OFC_BOARD_CARDS; i++) {
        oa |= bit[a[i]];
        ob |= bit[b[i]];
    }
    all = oa | ob;
    return (uint32_t)(ofc_popcount64(all) != 2 * OFC_BOARD_CARDS) | (uint32_t)(all >> 63);
}

/* The error of a pair that ofc_pair_invalid() rejected (slow path). */
static int32_t ofc_pair_error(const uint8_t a[13], const uint8_t b[13])
{
    uint64_t seen = 0;
    if (ofc_check_cards(a, OFC_BOARD_CARDS, &seen) != OFC_OK) {
        return ofc_cards_error(a, OFC_BOARD_CARDS);
    }
    return ofc_check_cards(b, OFC_BOARD_CARDS, &seen);
}

static int32_t ofc_pair_check(const uint8_t a[13], const uint8_t b[13])
{
    return OFC_LIKELY(!ofc_pair_invalid(a, b)) ? OFC_OK : ofc_pair_error(a, b);
}

/* The batch loop, specialised by the compiler for plain and general rule sets. */
static inline int32_t ofc_score_pairs_k(const ofc_rules *rules, const uint8_t *a,
                                        const uint8_t *b, size_t n, int32_t *net,
                                        size_t *bad, int plain)
{
    size_t i;
    for (i = 0; i < n; i++) {
        const uint8_t *ba = a + OFC_BOARD_CARDS * i, *bb = b + OFC_BOARD_CARDS * i;
        ofc_board_eval ea, eb;
        if (OFC_UNLIKELY(ofc_pair_invalid(ba, bb))) {
            if (bad) {
                *bad = i;
            }
            return ofc_pair_error(ba, bb);
        }
        ofc_eval_board_k(rules, ba, &ea);
        ofc_eval_board_k(rules, bb, &eb);
        net[i] = ofc_score_evals_k(rules, &ea, &eb, &ofc_no_context, NULL, plain);
    }
    return OFC_OK;
}

int32_t ofc_score_boards(const ofc_rules *rules, const uint8_t a[13], const uint8_t b[13],
                         ofc_pair_score *out)
{
    ofc_board_eval ea, eb;
    int32_t status = ofc_pair_check(a, b);
    if (status != OFC_OK) {
        return status;
    }
    ofc_eval_board_k(rules, a, &ea);
    ofc_eval_board_k(rules, b, &eb);
    ofc_score_evals_k(rules, &ea, &eb, &ofc_no_context, out, 0);
    return OFC_OK;
}

int32_t ofc_score_pairs(const ofc_rules *rules, const uint8_t *a, const uint8_t *b,
                        size_t n, int32_t *net, size_t *bad)
{
    return ofc_rules_plain(rules) ? ofc_score_pairs_k(rules, a, b, n, net, bad, 1)
                                  : ofc_score_pairs_k(rules, a, b, n, net, bad, 0);
}
