/* ofc_rank.c -- 5-card and 3-card ranking, strength metadata, batch ranking. */
#include "ofc_internal.h"

uint32_t ofc_version_number(void)
{
    return OFC_VERSION_NUMBER;
}

const char *ofc_version_string(void)
{
    return OFC_VERSION_STRING;
}

uint16_t ofc_rank5_unchecked(uint8_t a, uint8_t b, uint8_t c, uint8_t d, uint8_t e)
{
    return ofc_rank5_k(a, b, c, d, e);
}

uint16_t ofc_rank3_unchecked(uint8_t a, uint8_t b, uint8_t c)
{
    return ofc_rank3_k(a, b, c);
}

int32_t ofc_rank(const int32_t *cards, size_t n, uint32_t expect)
{
    uint8_t c[5];
    uint64_t seen = 0;
    size_t i;
    int32_t status;
    if ((n != 3 && n != 5) || (expect != 0 && n != expect)) {
        return OFC_E_COUNT;
    }
    if (!cards) {
        return OFC_E_COUNT;
    }
    for (i = 0; i < n; i++) {
        int32_t card = cards[i]; /* each input read once */
        if (card < 0 || card >= OFC_CARDS) {
            return OFC_E_CARD;
        }
        c[i] = (uint8_t)card;
    }
    status = ofc_check_cards(c, n, &seen);
    if (status != OFC_OK) {
        return status;
    }
    return n == 5 ? ofc_rank5_k(c[0], c[1], c[2], c[3], c[4])
                  : ofc_rank3_k(c[0], c[1], c[2]);
}

/* Validates and ranks n hands of `width` (3 or 5) cards; a bad hand writes nothing
 * (ofc_first_bad_row() runs first).  Hands are copied to a local block first and only
 * the copy is validated and ranked, so a concurrent writer can only make a hand fail
 * or rank as the bytes read. */
static inline int32_t ofc_rank_batch_k(const uint8_t *cards, size_t n, size_t width,
                                       int32_t *out, size_t *bad)
{
    size_t start, i;
    int32_t status = OFC_OK;
    const ofc_span hands = ofc_rows(cards, n, width);
    if (n && (!cards || !out || ofc_rows_over_any(out, n, sizeof *out, &hands, 1))) {
        return OFC_E_VALUE;
    }
    start = ofc_first_bad_row(cards, n, width, &status);
    if (OFC_UNLIKELY(start < n)) {
        if (bad) {
            *bad = start;
        }
        return status;
    }
    for (start = 0; start < n; start += OFC_COPY_BLOCK) {
        uint8_t block[5 * OFC_COPY_BLOCK];
        size_t m = n - start < OFC_COPY_BLOCK ? n - start : OFC_COPY_BLOCK;
        size_t next = ofc_next_block_bytes(start, n, width);
        ofc_copy_cards(block, cards + width * start, width * m);
        for (i = 0; i < m; i++) {
            const uint8_t *h = block + width * i;
            ofc_prefetch_row(cards + width * (start + m), next, i, width);
            if (OFC_UNLIKELY(ofc_cards_invalid(h, width, 0))) {
                if (bad) {
                    *bad = start + i;
                }
                return ofc_cards_error(h, width);
            }
            out[start + i] = width == 5 ? ofc_rank5_k(h[0], h[1], h[2], h[3], h[4])
                                        : ofc_rank3_k(h[0], h[1], h[2]);
        }
    }
    return OFC_OK;
}

int32_t ofc_rank5_batch(const uint8_t *cards, size_t n, int32_t *out, size_t *bad)
{
    return ofc_rank_batch_k(cards, n, 5, out, bad);
}

int32_t ofc_rank3_batch(const uint8_t *cards, size_t n, int32_t *out, size_t *bad)
{
    return ofc_rank_batch_k(cards, n, 3, out, bad);
}

uint32_t ofc_strength_info(uint16_t strength)
{
    return (strength >= 1 && strength <= OFC_STRENGTH_MAX) ? ofc_tab_strength_info[strength]
                                                           : 0u;
}

int32_t ofc_category_of(uint16_t strength)
{
    return (strength >= 1 && strength <= OFC_STRENGTH_MAX) ? (int32_t)ofc_info_category(strength)
                                                           : OFC_E_STRENGTH;
}

int32_t ofc_strength_cards(uint16_t strength)
{
    return (strength >= 1 && strength <= OFC_STRENGTH_MAX) ? (int32_t)ofc_info_cards(strength)
                                                           : 0;
}

int32_t ofc_kev_rank(uint16_t strength)
{
    return (strength <= OFC_STRENGTH_MAX) ? ofc_tab_kev[strength] : 0;
}

uint16_t ofc_strength_from_kev(int32_t kev)
{
    /* ofc_tab_kev is strictly decreasing over the 5-card strengths: binary search. */
    uint32_t lo = 1, hi = OFC_STRENGTH_MAX;
    if (kev < 1 || kev > 7462) {
        return 0;
    }
    while (lo <= hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        uint32_t s = mid;
        while (s <= hi && ofc_tab_kev[s] == 0) { /* skip 3-card strengths */
            s++;
        }
        if (s > hi) {
            hi = mid - 1;
        } else if (ofc_tab_kev[s] == kev) {
            return (uint16_t)s;
        } else if (ofc_tab_kev[s] > kev) {
            lo = s + 1;
        } else {
            hi = mid - 1;
        }
    }
    return 0;
}

int32_t ofc_low27(uint16_t strength)
{
    return (strength <= OFC_STRENGTH_MAX) ? ofc_tab_low27[strength] : 0;
}
