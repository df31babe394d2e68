/*
 * ofc_features.h -- normalised float features of one seat's view, for neural networks
 * (the obs_type="features" observations of ofc_fast.env).
 *
 * The features are computed from the seat's encoding (ofc_vecenv.h: OFC_ENC_SIZE bytes,
 * written only from what the seat may see) and the order in which its own cards were
 * dealt (action ids number the dealt cards in deal order), nothing else: they can hold
 * nothing the seat may not see.  Every value lies in [0, 1].  Plain C99, no allocation,
 * no global mutable state, thread-safe.
 *
 * Ranks r = card / 4 (0 = deuce .. 12 = ace), suits card % 4.  "Unseen" = the
 * encoding's plane 14 (cards this seat has not seen: the deck and hidden cards).  A row
 * block (OFC_FEAT_ROW = 36 floats) describes the visible cards of one row of size S (3
 * front, 5 middle / back), m of them:
 *   0      m / S                       1      (S - m) / S (room)
 *   2..10  made category one-hot: high card, pair, two pair, trips, straight, flush,
 *          full house, quads, straight flush (all 0 for an empty row; straight and
 *          flush only for a complete 5-card row)
 *   11     rank of the best group (the highest rank of the largest count) / 12
 *   12     highest rank / 12
 *   13     flush still possible (a 5-card row, all one suit, enough of it unseen)
 *   14     that suit's unseen cards / 13 (0 unless all one suit)
 *   15     straight still possible (a 5-card row, distinct ranks within a 5-rank
 *          window, the wheel included)
 *   16     pair-up outs: unseen cards of the row's ranks / 12 (at most 1)
 *   17..29 cards per rank / 4
 *   30..33 cards per suit / 5
 *   34     face-down cards / S (others' rows)
 *   35     0
 * A dealt-card block (OFC_FEAT_SLOT = 40 floats) describes dealt card j (deal order):
 *   0      present                     1..13  rank one-hot     14..17 suit one-hot
 *   18     rank / 12
 *   19 + 5 row + 0..4, for one's front, middle, back: cards of its rank in the row / 3;
 *          of its suit / 5; the row stays a flush draw with it (5-card row, empty or all
 *          its suit); stays a straight draw with it; the row has room
 *   34     other dealt cards of its rank / 2 (at most 1)
 *   35     other dealt cards of its suit / 4 (at most 1)
 *   36     unseen cards of its rank / 3     37  unseen cards of its suit / 13
 *   38     cards of its rank on the others' boards / 3
 *   39     0
 *
 * Layout (OFC_FEAT_SIZE = 696 floats; relative seat r = (seat - observer) mod players):
 *   [0, 32)     global: 0..8 street one-hot (8 = 8 or later); 9 cards to discard / 2;
 *               10 future cards / 16; 11 future discards / 4; 12 full set; 13 face
 *               down; 14 deal over; 15..18 relative seats present; 19..22 button
 *               one-hot by relative seat; 23..26 Fantasyland cards / 17 per relative
 *               seat; 27 a 2-7 middle; 28 OFC; 29 Pineapple; 30 cards dealt now / 5;
 *               31 discards made / 4
 *   [32, 52)    unseen: 0..12 per rank / 4; 13..16 per suit / 13; 17 total / 52;
 *               18, 19 zero
 *   [52, 160)   one's front, middle, back: three row blocks
 *   [160, 164)  foul hints: front's category above the middle's; equal category with
 *               a higher best group; the same for middle over back
 *   [164, 364)  dealt cards 0..4: five dealt-card blocks (a full set of more than 5
 *               cards leaves them 0)
 *   [364, 688)  relative seats 1..3: front, middle, back row blocks each (0 if absent)
 *   [688, 696)  relative seats 1..3: discards / 4; then 0 x 5
 *
 * Example
 * -------
 * @code
 * static ofc_game_rules r;
 * ofc_game g;
 * ofc_observation o;
 * uint8_t enc[OFC_ENC_SIZE];
 * float x[OFC_FEAT_SIZE];
 * assert(ofc_game_rules_init_pineapple(&r) == OFC_OK);
 * assert(ofc_game_init(&r, &g, 2, 0, NULL, 7, NULL) == OFC_OK);
 * assert(ofc_game_observe(&g, g.steps[0].seat, &o) == OFC_OK);
 * ofc_encode(&o, 0, enc);
 * assert(ofc_features(enc, o.dealt, o.n, x) == OFC_OK);
 * assert(x[164] == 1.0f);                       // dealt card 0 is present
 * @endcode
 */
#ifndef OFC_FEATURES_H
#define OFC_FEATURES_H

#include <stddef.h>
#include <stdint.h>

#include "ofc_vecenv.h"

#include "ofc_export.h"

#ifdef __cplusplus
extern "C" {
#endif

#define OFC_FEAT_SIZE 696
#define OFC_FEAT_ROW 36
#define OFC_FEAT_SLOT 40
#define OFC_FEAT_DEALT_SLOTS 5
#define OFC_FEAT_GLOBAL 0
#define OFC_FEAT_UNSEEN 32
#define OFC_FEAT_OWN 52
#define OFC_FEAT_FOUL 160
#define OFC_FEAT_DEALT 164
#define OFC_FEAT_OTHERS 364
#define OFC_FEAT_OTHERS_EXTRA 688

/*! @brief The features (layout at the top of this header) of one seat's encoding.
 * @param enc    the seat's encoding (ofc_encode()).
 * @param dealt  the seat's dealt cards in deal order (exactly the cards of the
 *               encoding's dealt plane), or NULL: that plane's cards by increasing id.
 * @param n      cards in dealt (ignored when dealt is NULL).
 * @param out    OFC_FEAT_SIZE floats (written only on success).
 * @pre enc holds OFC_ENC_SIZE bytes and out room for OFC_FEAT_SIZE floats.
 * @return OFC_OK, OFC_E_VALUE (enc or out NULL), or OFC_E_CARD when dealt is not
 *         the dealt plane's cards (an id outside 0..51, a card not in the plane, a
 *         repeat, or a different count). */
OFC_API int32_t ofc_features(const uint8_t enc[OFC_ENC_SIZE], const uint8_t *dealt,
                             uint32_t n, float out[OFC_FEAT_SIZE]);

/*! @brief The features of environments first .. first+count-1 of a vector environment,
 * from its encodings (ofc_vecenv_out.obs) and each one's pending decision's deal order.
 * @param slots  the environments' slots (the pending decision of slot i is the one
 *               whose seat's encoding is row i, as ofc_vecenv_step() writes them).
 * @param first  the first environment.
 * @param count  how many.
 * @param enc    num_envs x OFC_ENC_SIZE encodings (row i for environment i).
 * @param out    num_envs x OFC_FEAT_SIZE floats (rows first .. first+count-1 written).
 * @pre first + count is at most num_envs and each slot passed
 *      ofc_vecenv_slot_check() (num_envs is not given here: not checked).
 * @return OFC_OK, OFC_E_VALUE (slots, enc or out NULL with count > 0, or out's rows
 *         first .. first+count-1 sharing a byte with enc's or with those slots: they
 *         would overwrite encodings or slots not yet read; nothing written), OFC_E_COUNT
 *         (first + count over 2^32 - 1), or OFC_E_CARD for an encoding that does not
 *         match its slot (then rows from the first bad one on are left as they are). */
OFC_API int32_t ofc_features_slots(const ofc_vecenv_slot *slots, uint32_t first,
                                   uint32_t count, const uint8_t *enc, float *out);

/*! @brief The features of the selected rows of encodings of deals' ends (no dealt
 * cards: ofc_features() with dealt NULL), such as ofc_vecenv_out.final_obs.
 * @param enc     count x OFC_ENC_SIZE encodings.
 * @param select  count flags (row i is computed where select[i] != 0), or NULL: all.
 * @param count   rows.
 * @param out     count x OFC_FEAT_SIZE floats (the selected rows written).
 * @pre enc and out hold count rows.
 * @return OFC_OK, OFC_E_VALUE (enc or out NULL with count > 0, or out sharing a byte
 *         with enc or select: nothing written), or what
 *         ofc_features() returns for the first bad row. */
OFC_API int32_t ofc_features_rows(const uint8_t *enc, const uint8_t *select, uint32_t count,
                                  float *out);

#ifdef __cplusplus
}
#endif

#endif /* OFC_FEATURES_H */
