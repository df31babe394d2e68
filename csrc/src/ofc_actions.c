/* ofc_actions.c -- action ids of a decision (see ofc_game.h): encoding and decoding,
 * the legal actions and their mask. */
#include <string.h>

#include "ofc_game_internal.h"

/* ------------------------------------------------------------ action ids */

/* The ci-th k-subset of 0..n-1 in lexicographic order, as a bit mask (0 when ci is
 * out of range and k > 0). */
uint32_t ofc_gm_subset_at(uint32_t n, uint32_t k, uint32_t ci)
{
    uint32_t idx[5], i, count = 0;
    if (k == 0)
        return ci == 0 ? 0u : UINT32_MAX;
    for (i = 0; i < k; i++)
        idx[i] = i;
    for (;;) {
        if (count++ == ci) {
            uint32_t mask = 0;
            for (i = 0; i < k; i++)
                mask |= 1u << idx[i];
            return mask;
        }
        i = k;
        while (i > 0 && idx[i - 1] == n - k + i - 1)
            i--;
        if (i == 0)
            return UINT32_MAX;
        idx[i - 1]++;
        for (; i < k; i++)
            idx[i] = idx[i - 1] + 1;
    }
}

uint32_t ofc_gm_subset_count(uint32_t n, uint32_t k)
{
    uint32_t c = 1, i;
    for (i = 0; i < k; i++)
        c = c * (n - i) / (i + 1);
    return c;
}

/* 1 when (n, k) is a decision shape whose ids all fit OFC_ACTION_SPACE (not 5 cards
 * with 1 or 2 discards: 405 and 270 ids). */
static int shape_ok(uint32_t n, uint32_t k)
{
    return n >= 1 && n <= 5 && k < n &&
           ofc_gm_subset_count(n, k) * ofc_pow3(n - k) <= OFC_ACTION_SPACE;
}

int32_t ofc_action_decode(uint32_t n, uint32_t k, uint32_t action, uint8_t dest[5])
{
    uint32_t kept, ci, code, disc, i;
    if (!shape_ok(n, k) || action >= OFC_ACTION_SPACE || dest == NULL)
        return OFC_E_ACTION;
    kept = n - k;
    ci = action / ofc_pow3(kept);
    code = action % ofc_pow3(kept);
    if (ci >= ofc_gm_subset_count(n, k))
        return OFC_E_ACTION;
    disc = ofc_gm_subset_at(n, k, ci);
    for (i = 0; i < n; i++) {
        if (disc >> i & 1u) {
            dest[i] = OFC_DISCARD;
        } else {
            dest[i] = (uint8_t)(code % 3);
            code /= 3;
        }
    }
    return OFC_OK;
}

int32_t ofc_action_encode(uint32_t n, uint32_t k, const uint8_t given[5])
{
    uint8_t local[5];
    uint32_t disc = 0, nd = 0, code = 0, ofc_gm_place = 1, ci, i, total;
    /* the caller's destinations read once (ofc_fast.h, Threads) */
    const uint8_t *dest = ofc_read_once(given, shape_ok(n, k) ? n : 0, local);
    if (!shape_ok(n, k) || dest == NULL)
        return OFC_E_ACTION;
    for (i = 0; i < n; i++) {
        if (dest[i] > OFC_DISCARD)
            return OFC_E_DESTINATION;
        if (dest[i] == OFC_DISCARD) {
            disc |= 1u << i;
            nd++;
        } else {
            code += dest[i] * ofc_gm_place;
            ofc_gm_place *= 3;
        }
    }
    if (nd != k)
        return OFC_E_DISCARDS;
    total = ofc_gm_subset_count(n, k);
    for (ci = 0; ci < total && ofc_gm_subset_at(n, k, ci) != disc; ci++)
        ;
    return (int32_t)(ci * ofc_pow3(n - k) + code);
}

/* Whether the kept rows of `code` (kept digits) fit the free slots. */
int ofc_gm_code_fits(uint32_t code, uint32_t kept, const uint8_t free_[3])
{
    uint8_t need[3] = {0, 0, 0};
    uint32_t i;
    for (i = 0; i < kept; i++) {
        need[code % 3]++;
        code /= 3;
    }
    return need[0] <= free_[0] && need[1] <= free_[1] && need[2] <= free_[2];
}

/* The row codes of `kept` cards that fit the free slots, increasing (an odometer over
 * the base-3 digits that keeps the cards per row as it counts: no division). */
static uint32_t legal_codes(uint32_t kept, const uint8_t room[3], uint8_t *codes)
{
    uint8_t digit[5] = {0, 0, 0, 0, 0};
    uint32_t need[3], code, n = 0, i;
    need[0] = kept;
    need[1] = need[2] = 0;
    for (code = 0; code < ofc_pow3(kept); code++) {
        if (need[0] <= room[0] && need[1] <= room[1] && need[2] <= room[2])
            codes[n++] = (uint8_t)code;
        for (i = 0; i < kept; i++) {
            need[digit[i]]--;
            if (digit[i] < 2) {
                need[++digit[i]]++;
                break;
            }
            digit[i] = 0;
            need[0]++;
        }
    }
    return n;
}

int32_t ofc_actions_legal(uint32_t n, uint32_t k, const uint8_t given[3], uint8_t *out,
                          uint8_t *mask)
{
    uint8_t codes[OFC_ACTION_SPACE], local[3];
    uint32_t kept, combos, ci, j, ncodes, count = 0;
    /* the caller's room read once (ofc_fast.h, Threads) */
    const uint8_t *room = ofc_read_once(given, 3, local);
    if (!shape_ok(n, k) || room == NULL || room[0] > 3 || room[1] > 5 || room[2] > 5)
        return OFC_E_ACTION;
    kept = n - k;
    combos = ofc_gm_subset_count(n, k);
    ncodes = legal_codes(kept, room, codes);
    if (ncodes == 0) /* the rows cannot hold the kept cards */
        return OFC_E_ACTION;
    for (ci = 0; ci < combos; ci++) {
        for (j = 0; j < ncodes; j++) {
            uint32_t a = ci * ofc_pow3(kept) + codes[j];
            if (out)
                out[count] = (uint8_t)a;
            if (mask)
                mask[a] = 1;
            count++;
        }
    }
    return (int32_t)count;
}

static int32_t list_actions(const ofc_game *g, const ofc_game_step *st, uint8_t *out,
                            uint8_t *mask)
{
    uint8_t free_[3];
    ofc_gm_free_slots(g, st->seat, free_);
    return ofc_actions_legal(st->n, st->k, free_, out, mask);
}

int32_t ofc_game_legal_actions(const ofc_game *g, uint8_t *out)
{
    const ofc_game_step *st;
    if (g == NULL)
        return OFC_E_COUNT;
    st = ofc_gm_pending(g);
    if (st == NULL)
        return OFC_E_GAME_OVER;
    if (st->full)
        return OFC_E_FULL_SET;
    return list_actions(g, st, out, NULL);
}

int32_t ofc_game_action_mask(const ofc_game *g, uint8_t mask[OFC_ACTION_SPACE])
{
    const ofc_game_step *st;
    if (g == NULL || mask == NULL)
        return OFC_E_COUNT;
    if (ofc_bytes_overlap(mask, OFC_ACTION_SPACE, g, sizeof *g))
        return OFC_E_VALUE; /* mask untouched: its writes would change the state read */
    st = ofc_gm_pending(g);
    memset(mask, 0, OFC_ACTION_SPACE);
    if (st == NULL)
        return OFC_E_GAME_OVER;
    if (st->full)
        return OFC_E_FULL_SET;
    return list_actions(g, st, NULL, mask);
}

