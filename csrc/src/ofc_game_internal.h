/* ofc_game_internal.h -- what the parts of the game engine share (private): the deal's
 * flow (ofc_game.c), action ids (ofc_actions.c), observations (ofc_observe.c) and
 * random playouts (ofc_playout.c), all documented in ofc_game.h. */
#ifndef OFC_GAME_INTERNAL_H
#define OFC_GAME_INTERNAL_H

#include "ofc_game.h"
#include "ofc_internal.h"

/* 3^n for n 0..5: the row codes of n kept cards. */
static inline uint32_t ofc_pow3(uint32_t n)
{
    static const uint16_t pow3[6] = {1, 3, 9, 27, 81, 243};
    return pow3[n];
}

/* The pending step of the schedule (NULL when the deal is over). */
/* The row (0 front, 1 middle, 2 back) of a slot 0..12 of a 13-card board. */
static inline uint8_t ofc_slot_row(uint32_t slot)
{
    return (uint8_t)(slot < 3 ? 0 : slot < 8 ? 1 : 2);
}

/* The row of the slot of board that holds card, or OFC_DISCARD when none does. */
static inline uint8_t ofc_board_row_of(const uint8_t board[13], uint8_t card)
{
    uint32_t i;
    for (i = 0; i < 13; i++)
        if (board[i] == card)
            return ofc_slot_row(i);
    return OFC_DISCARD;
}

const ofc_game_step *ofc_gm_pending(const ofc_game *g);

/* Free slots of each row of a seat's board. */
void ofc_gm_free_slots(const ofc_game *g, uint32_t seat, uint8_t free_[3]);

/* The ci-th k-subset of 0..n-1 in lexicographic order, as a bit mask (0 when ci is
 * out of range and k > 0). */
uint32_t ofc_gm_subset_at(uint32_t n, uint32_t k, uint32_t ci);

/* C(n, k): the k-subsets of n cards. */
uint32_t ofc_gm_subset_count(uint32_t n, uint32_t k);

/* Whether the kept rows of `code` (kept digits) fit the free slots. */
int ofc_gm_code_fits(uint32_t code, uint32_t kept, const uint8_t free_[3]);

/* Apply validated destinations and move to the next decision. */
void ofc_gm_place(ofc_game *g, const ofc_game_step *st, const uint8_t *dest);

/* Take back the last decision ofc_gm_place() played (g->step > 0; not a classic set
 * declared or surrendered): the state is again byte for byte what it was before it. */
void ofc_gm_unplace(ofc_game *g);

#endif /* OFC_GAME_INTERNAL_H */
