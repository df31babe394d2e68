/*
 * ofc_naturals.h -- naturals: the special 13-card hands of classic Chinese Poker
 * (docs/rules.md section 9, R-NAT-*, and the regional lists R-VAR-MAL-*, R-VAR-VIET-*,
 * R-VAR-SG-*, R-VAR-HG-*, R-VAR-NOPIC-1).  Plain C99, no allocation, no global
 * mutable state, thread-safe; uses the card conventions of ofc_fast.h.
 *
 * One call, ofc_naturals(), finds every natural 13 cards make, whatever the rule set:
 * which naturals a table plays, their units and how two naturals settle are rule-set
 * matters left to the caller (the Python package does it in ofc_fast.naturals).
 *
 * Definitions (docs/rules.md R-NAT-4, R-NAT-7; the choices for open question Q-8 are
 * marked "Q-8")
 * -----------
 * A natural is a property of the 13 cards: it need not be a legal (non-fouled)
 * setting, because a natural is declared, not set (R-NAT-2).  A hand may make several
 * naturals at once (Q-8: every one is reported; the rule set picks the best).
 *
 *   SIX_PAIRS          six pairs and an odd card.  Q-8: a four of a kind counts as two
 *                      pairs, a three of a kind as a pair and an odd card, so five
 *                      pairs + trips is also six pairs.
 *   THREE_STRAIGHTS    the cards split into a 5-card straight (back), a 5-card straight
 *                      (middle) and three consecutive ranks (front).  Suits do not
 *                      matter.  Q-8: the wheel A-2-3-4-5 is a straight; the front may be
 *                      A-2-3 or Q-K-A, never K-A-2 (no wrap-around).
 *   THREE_FLUSHES      the cards split into 5 suited (back), 5 suited (middle) and 3
 *                      suited (front); two rows may share a suit.
 *   FIVE_PAIRS_TRIPS   five pairs and one three of a kind (Q-8: a four of a kind counts
 *                      as two pairs): exactly one rank held three times, every other
 *                      rank held 0, 2 or 4 times.
 *   FOUR_TRIPS         four threes of a kind and an odd card (Q-8: a four of a kind
 *                      counts as a three of a kind and the odd card).
 *   TWELVE_ONE_COLOUR  at least 12 cards of one colour (diamonds and hearts red, clubs
 *                      and spades black).  Q-8: 13 of one colour also qualifies (it is
 *                      "12 of one colour + 1 card", and ONE_COLOUR besides).
 *   ONE_COLOUR         all 13 cards of one colour.
 *   SMALL_2_8          every card 2..8;  SMALL_2_9: every card 2..9;  SMALL_2_10: every
 *                      card 2..10 (each smaller range also makes the larger ones).
 *   BIG_8_A            every card 8..A.
 *   THREE_QUADS        three fours of a kind and an odd card.
 *   THREE_STRAIGHT_FLUSHES  as THREE_STRAIGHTS with every row also suited: 5-card
 *                      straight flushes in back and middle, three consecutive suited
 *                      cards in front (same Q-8 choices for A-2-3-4-5, A-2-3, Q-K-A).
 *   TWELVE_PICTURES    all twelve jacks, queens and kings, and any card.
 *   DRAGON             one card of every rank 2..A, suits mixed or not (the presets
 *                      list ONE_SUIT separately and higher).  A dragon always makes
 *                      THREE_STRAIGHTS too.
 *   ONE_SUIT           all 13 cards of one suit (also a DRAGON, ONE_COLOUR, ...).
 *   NO_PICTURES        no jack, queen or king (R-VAR-NOPIC-1).
 *
 * Tie-break keys (R-NAT-5): one uint32 per natural, larger = better; two hands with
 * the same natural compare by integer comparison of their keys.  Every natural not
 * listed here ties with itself: its key is 0.
 *
 *   SIX_PAIRS          the six pairs from the highest down, then the odd card: bits
 *                      27..4 hold the pair ranks (4 bits each, 0..12 = 2..A, highest
 *                      pair in bits 27..24; a four of a kind gives two equal entries,
 *                      a three of a kind a pair and the odd card), bits 3..0 the odd
 *                      card's rank.  Never 0.
 *   THREE_STRAIGHTS    back, then middle, then front, each by its top card (the wheel's
 *                      top card is the 5, A-2-3's the 3), for the best of all possible
 *                      splits: back top rank << 8 | middle top << 4 | front top.  Never 0.
 *   THREE_FLUSHES      back flush, then middle, then front, each compared as a high-card
 *                      hand (highest card first, then the next ...; Q-8: a straight
 *                      flush row counts as its cards only), best split:
 *                      back << 20 | middle << 9 | front, where a 5-card row is 1..1287
 *                      and a 3-card row 1..286, its place among all rank sets of
 *                      its size in high-card order.  Never 0.
 *   THREE_STRAIGHT_FLUSHES  not in R-NAT-5; ranked here like THREE_STRAIGHTS (back,
 *                      middle, front by top card, same encoding), as straight flushes
 *                      compare by their top card.
 *   DRAGON             0: two dragons tie (R-NAT-5); every other natural: 0.
 *
 * Example
 * -------
 * @code
 * uint8_t cards[13];
 * ofc_naturals_result r;
 * int i;
 * for (i = 0; i < 13; i++)
 *     cards[i] = (uint8_t)(4 * i + i % 4);   // 2c 3d 4h 5s 6c ... Ac: a dragon
 * assert(ofc_naturals(cards, &r) == OFC_OK);
 * assert(r.mask & OFC_NAT_BIT(OFC_NAT_DRAGON));
 * assert(strcmp(ofc_natural_name(OFC_NAT_DRAGON), "dragon") == 0);
 * @endcode
 */
/* ofc_fast.h first, outside the guard: it includes this header at its end, after its
 * own declarations, so that either header may be included first. */
#include "ofc_fast.h"

#ifndef OFC_NATURALS_H
#define OFC_NATURALS_H

#include "ofc_export.h"

#ifdef __cplusplus
extern "C" {
#endif

/*! The naturals, in the order of ofc_fast.rules.NATURAL_NAMES (not a ranking: each
 * rule set ranks its own list). */
typedef enum ofc_natural {
    OFC_NAT_SIX_PAIRS = 0,
    OFC_NAT_THREE_STRAIGHTS = 1,
    OFC_NAT_THREE_FLUSHES = 2,
    OFC_NAT_FIVE_PAIRS_TRIPS = 3,
    OFC_NAT_FOUR_TRIPS = 4,
    OFC_NAT_TWELVE_ONE_COLOUR = 5,
    OFC_NAT_ONE_COLOUR = 6,
    OFC_NAT_SMALL_2_8 = 7,
    OFC_NAT_SMALL_2_9 = 8,
    OFC_NAT_SMALL_2_10 = 9,
    OFC_NAT_BIG_8_A = 10,
    OFC_NAT_THREE_QUADS = 11,
    OFC_NAT_THREE_STRAIGHT_FLUSHES = 12,
    OFC_NAT_TWELVE_PICTURES = 13,
    OFC_NAT_DRAGON = 14,
    OFC_NAT_ONE_SUIT = 15,
    OFC_NAT_NO_PICTURES = 16
} ofc_natural;

#define OFC_NAT_COUNT 17           /* number of naturals */
#define OFC_NAT_BIT(n) (UINT32_C(1) << (n))

/*! What 13 cards make.  The three boards are 13 card ids in board order (front 3,
 * middle 5, back 5; each row highest card first, a wheel as 5-4-3-2-A, A-2-3 as
 * 3-2-A); a board whose natural is absent is filled with 0xFF. */
typedef struct ofc_naturals_result {
    uint32_t mask;                 /* OFC_NAT_BIT(n) set when the cards make natural n */
    uint32_t key[OFC_NAT_COUNT];   /* tie-break key per natural (see above); 0 when the
                                    * natural is absent or has no tie-break */
    uint8_t straights[13];         /* a THREE_STRAIGHTS board with the best key */
    uint8_t flushes[13];           /* a THREE_FLUSHES board with the best key */
    uint8_t straight_flushes[13];  /* a THREE_STRAIGHT_FLUSHES board with the best key */
    uint8_t reserved;              /* 0 */
} ofc_naturals_result;

/*! @brief Every natural the 13 cards make, with tie-break keys and, for the three split
 * naturals, a board showing the best split.  Among the splits with the best key the
 * board is a legal setting (front <= middle <= back, ofc_fast.h's non-strict order)
 * whenever one exists.  THREE_STRAIGHTS deals cards of equal rank to the back first
 * (highest suit first), then the middle, then the front; should that put a straight
 * flush in the middle above a plain straight in the back, one middle card is
 * exchanged for a card of the same rank, or else the back is made a straight flush.
 * About 0.15 us for a random hand and under 1 us for any hand on a current x86-64
 * core (thirteen of one suit, where every split natural is searched, is the slowest
 * at about 0.5 us).
 * @param cards  13 card ids in any order.
 * @param out    receives the result; fully written on OFC_OK, unspecified otherwise.
 * @return OFC_OK; OFC_E_CARD (an id outside 0..51) or OFC_E_DUPLICATE (a card twice),
 *         whichever comes first in card order; OFC_E_COUNT when cards or out is NULL. */
OFC_API int32_t ofc_naturals(const uint8_t cards[13], ofc_naturals_result *out);

/*! @brief The name of a natural.
 * @param natural  an ofc_natural.
 * @return the snake_case name of a natural ("six_pairs", ..., "no_pictures", the
 *         names of ofc_fast.rules.NATURAL_NAMES; static storage), or NULL when
 *         `natural` is outside 0..OFC_NAT_COUNT-1. */
OFC_API const char *ofc_natural_name(int32_t natural);

#ifdef __cplusplus
}
#endif

#endif /* OFC_NATURALS_H */
