/* ofc_playout.c -- random play (see ofc_game.h): a uniformly random legal move, and
 * playouts to the end of the deal, drawn from the library's one generator (ofc_rng.c). */
#include "ofc_game_internal.h"
#include "ofc_rng.h"

/* ----------------------------------------------------------------- playout */

/* A uniformly random setting of a full set: shuffle, discard the first n - 13. */
static void random_setting(const ofc_game_step *st, ofc_rng *rng, uint8_t *dest)
{
    uint8_t order[OFC_GAME_MAX_DEALT];
    uint32_t i;
    for (i = 0; i < st->n; i++)
        order[i] = (uint8_t)i;
    ofc_rng_shuffle(order, st->n, rng);
    for (i = 0; i < st->n; i++) {
        uint32_t p = i < st->k ? 99u : i - st->k; /* position among the kept */
        dest[order[i]] = p == 99u ? (uint8_t)OFC_DISCARD : ofc_slot_row(p);
    }
}

/* A uniformly random legal decision, as destinations: every discard choice has the
 * same legal row codes, so a uniform discard choice and a uniform legal code (by
 * rejection: at least 1 code in 9 fits in any reachable state) make a uniformly
 * random legal action. */
static void random_dest(const ofc_game *g, const ofc_game_step *st, ofc_rng *rng,
                        uint8_t dest[5])
{
    uint8_t free_[3];
    uint32_t kept = (uint32_t)st->n - st->k, code, disc = 0, i;
    if (st->k)
        disc = ofc_gm_subset_at(st->n, st->k, ofc_rng_draw(rng, ofc_gm_subset_count(st->n, st->k)));
    ofc_gm_free_slots(g, st->seat, free_);
    do
        code = ofc_rng_draw(rng, ofc_pow3(kept));
    while (!ofc_gm_code_fits(code, kept, free_));
    for (i = 0; i < st->n; i++) {
        if (disc >> i & 1u) {
            dest[i] = OFC_DISCARD;
        } else {
            dest[i] = (uint8_t)(code % 3);
            code /= 3;
        }
    }
}

int32_t ofc_game_random_move(ofc_game *g, ofc_rng *rng)
{
    const ofc_game_step *st;
    uint8_t dest[OFC_GAME_MAX_DEALT];
    if (g == NULL || rng == NULL)
        return OFC_E_COUNT;
    st = ofc_gm_pending(g);
    if (st == NULL)
        return OFC_E_GAME_OVER;
    if (st->full)
        random_setting(st, rng, dest);
    else
        random_dest(g, st, rng, dest);
    ofc_gm_place(g, st, dest);
    return OFC_OK;
}

int32_t ofc_game_playout(ofc_game *g, ofc_rng *rng, uint32_t *decisions)
{
    uint32_t played = 0;
    if (g == NULL || rng == NULL)
        return OFC_E_COUNT;
    while (ofc_game_random_move(g, rng) == OFC_OK)
        played++;
    if (decisions)
        *decisions = played;
    return OFC_OK;
}

