/*
 * ofc_game.h -- game flow for one deal of Chinese Poker, OFC, Pineapple (and its
 * Progressive, Ultimate and 2-7 variants) and Fantasyland, in C.
 *
 * The state of a deal is one plain struct, ofc_game: fixed size, no pointers, so a
 * search copies it with memcpy (or `=`) in nanoseconds.  The rules live apart in an
 * ofc_game_rules (large, read-only, shared by every game and thread); every function
 * takes both.  No allocation, no global mutable state, no I/O: two threads may play
 * two games at once, and share one ofc_game_rules.
 *
 * A deal
 * ------
 *   ofc_game_init()             deck from a seed (ofc_deck_from_seed) or given, seats,
 *                               button, Fantasyland cards per seat
 *   ofc_game_decision()         whose turn, which cards, how many to discard
 *   ofc_game_legal_actions()    the legal action ids of a normal decision
 *   ofc_game_apply_action()     play an action id            } validated: on any error
 *   ofc_game_apply_placement()  play an explicit placement   } the state is left
 *   ofc_game_declare() / ofc_game_surrender()   classic only } byte-identical
 *   ofc_game_observe()          one seat's view (never another seat's dealt cards or
 *                               discards, never a face-down card before the showdown,
 *                               never the deck)
 *   ofc_game_result_get()       nets (ofc_settle), fouls, royalties, Fantasyland next
 *   ofc_game_playout()          uniformly random legal play to the end
 *
 * Schedule of a deal (R-FLOW-*): the acting order starts left of the button and ends
 * with it.  Classic: each seat sets 13 cards face down.  OFC and Pineapple: first the
 * seats in Fantasyland receive all their cards (13..17) and set them face down; then
 * every other seat takes a 5-card opening, then the rounds (OFC: 8 rounds of 1 card;
 * Pineapple: 4 rounds of 3 cards, place 2 and discard 1), each round in acting
 * order.  With face_down_final = N the last N rounds (OFC: single cards) are placed
 * face down.  Cards come off the deck in decision order from deck[0].
 *
 * Action ids (the fixed action space of normal decisions, OFC_ACTION_SPACE = 243):
 * a decision of n <= 5 dealt cards (deal order d_0 .. d_{n-1}) with k discards and
 * kept = n - k: the discarded index set is the ci-th k-subset of 0..n-1 in
 * lexicographic order (ci = 0 when k = 0), and the kept cards, by increasing index,
 * go to rows r_0, r_1, ... (0 front, 1 middle, 2 back):
 *     action = ci * 3^kept + r_0 + 3 r_1 + 9 r_2 + ...
 * Fantasyland sets and classic hands (13..17 cards) have no action id: play them with
 * ofc_game_apply_placement().  Nor do 5 cards with 1 or 2 discards (their 405 and 270
 * ids would not fit the space; no preset deals them): the action functions refuse
 * those shapes.
 *
 * Deals (a documented counter-based generator, the same on every platform):
 *     ofc_random64(key, i) = mix(key + (i + 1) * 0x9E3779B97F4A7C15)   (mod 2^64)
 *     mix(z): z = (z ^ z>>30) * 0xBF58476D1CE4E5B9; z = (z ^ z>>27) * 0x94D049BB133111EB;
 *             return z ^ z>>31
 * i.e. output i of SplitMix64 seeded with key.  ofc_deck_from_seed() shuffles
 * 0..51 by Fisher-Yates from the top (i = 51 .. 1, swap deck[i] with deck[j], j
 * uniform in 0..i by Lemire's multiply-shift on the high 32 bits of successive
 * outputs, with rejection, so exactly uniform).  Deal i of a run with seed S uses
 * the game seed ofc_deal_seed(S, i) = ofc_random64(S ^ 0x6F66632D66617374, i).
 *
 * Validation: every call validates what a caller chooses (seats, actions,
 * placements, naturals, decks, rules at ofc_game_init()) and leaves the state
 * byte-identical on an error; a NULL state or output is refused with OFC_E_COUNT and
 * NULL rules with OFC_E_RULES (each function's @return); the state `g` itself must be
 * one ofc_game_init() made and the rules `r` ones that passed ofc_game_rules_check()
 * (each function's @pre).
 * State bytes from elsewhere (a saved environment, a file) must pass
 * ofc_game_state_check() first.
 *
 * Example: one random Pineapple deal
 * ----------------------------------
 * @code
 * static ofc_game_rules r;                 // about 100 KB: not on a small stack
 * static ofc_game_result res;
 * ofc_game g;
 * ofc_rng rng = {7, 0};
 * uint32_t decisions;
 * assert(ofc_game_rules_init_pineapple(&r) == OFC_OK);
 * assert(ofc_game_init(&r, &g, 3, 0, NULL, 42, NULL) == OFC_OK);
 * assert(ofc_game_playout(&g, &rng, &decisions) == OFC_OK && ofc_game_is_over(&g));
 * assert(decisions == 3 * 5);              // an opening and 4 rounds per seat
 * assert(ofc_game_result_get(&r, &g, NULL, 0, &res) == OFC_OK);
 * assert(res.net[0] + res.net[1] + res.net[2] == 0);
 * @endcode
 */
/* ofc_fast.h first, outside the guard: it includes this header at its end, after its
 * own declarations, so that either header may be included first. */
#include "ofc_fast.h"

#ifndef OFC_GAME_H
#define OFC_GAME_H

#include "ofc_settle.h"

#include "ofc_export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* --------------------------------------------------------------- constants */

#define OFC_GAME_MAX_SEATS 4
#define OFC_GAME_MAX_DEALT 17  /* most cards in one decision (a 17-card Fantasyland) */
#define OFC_GAME_MAX_STEPS 40  /* most decisions in a deal (4 seats x 9 for OFC) */
#define OFC_GAME_MAX_ROUNDS 9  /* most decisions of one seat in a deal (OFC: 5 + 8 x 1) */
#define OFC_ACTION_SPACE 243   /* action ids of normal decisions: 0..242 */
#define OFC_NO_SEAT 0xFF       /* ofc_decision.seat when the deal is over */
#define OFC_DISCARD 3          /* placement destination: discard the card */

/* Status codes of the game engine (beyond ofc_fast.h and the companion headers; it
 * also returns OFC_E_SEAT, OFC_E_NATURAL and OFC_E_SURRENDER of ofc_settle.h). */
#define OFC_E_GAME_OVER (-30)    /* no decision is pending: the deal is over */
#define OFC_E_NOT_DEALT (-31)    /* a card of the move was not dealt to the seat */
#define OFC_E_ROW_FULL (-32)     /* the move puts more cards in a row than it has room */
#define OFC_E_DISCARDS (-33)     /* the move discards the wrong number of cards (an
                                    observation: more discards than made) */
#define OFC_E_ACTION (-34)       /* an action id that is not legal here */
#define OFC_E_FULL_SET (-35)     /* a full set (13..17 cards) has no action ids */
#define OFC_E_NOT_CLASSIC (-36)  /* declare / surrender outside a classic set */
#define OFC_E_SEATS (-39)        /* players, button or a Fantasyland count out of range */
#define OFC_E_DECK (-40)         /* the deal needs more than 52 cards / a bad deck */
#define OFC_E_DESTINATION (-41)  /* a placement destination outside 0..3 */
#define OFC_E_NOT_OVER (-42)     /* the result of a deal that is not over */
#define OFC_E_STATE (-43)        /* a state ofc_game_init() and the moves could not have
                                    made (ofc_game_state_check) */

/*! How the cards are dealt (ofc_fast.rules.Game). */
typedef enum ofc_game_kind {
    OFC_KIND_CLASSIC = 0,   /* 13 cards, set at once, face down */
    OFC_KIND_OFC = 1,       /* 5, then 8 x 1 */
    OFC_KIND_PINEAPPLE = 2  /* 5, then 4 x (3: place 2, discard 1) */
} ofc_game_kind;

/* ------------------------------------------------------------------ random */

/*! A caller-owned random stream: output `ctr` of SplitMix64 seeded with `key`. */
typedef struct ofc_rng {
    uint64_t key;
    uint64_t ctr;
} ofc_rng;

/*! @brief Output `i` (0-based) of SplitMix64 seeded with `key`.
 * @param key  the seed.
 * @param i    the position in the stream.
 * @return a uniformly distributed 64-bit value. */
OFC_API uint64_t ofc_random64(uint64_t key, uint64_t i);

/*! @brief Uniform integer in 0..n-1 from a stream (Lemire's method with rejection).
 * @param rng  the stream; advanced by the outputs used (usually one).
 * @param n    the range, 1..2^32.
 * @pre none checked beyond these: a NULL rng, n 0 or n over 2^32 is answered 0 (no
 *      status to return) and advances nothing.
 * @return a value in 0..n-1; 0 when rng is NULL or n is outside 1..2^32. */
OFC_API uint32_t ofc_rng_below(ofc_rng *rng, uint64_t n);

/*! @brief The deck of a seed: Fisher-Yates over 0..51 driven by ofc_rng_below().
 * @param seed  any 64-bit value.
 * @param deck  receives the 52 card ids in deal order.
 * @pre deck != NULL. */
OFC_API void ofc_deck_from_seed(uint64_t seed, uint8_t deck[52]);

/*! @brief The game seed of deal `i` of a run with seed `run_seed`.
 * @param run_seed  the run's seed.
 * @param i         the deal's index in the run.
 * @return ofc_random64(run_seed ^ 0x6F66632D66617374, i). */
OFC_API uint64_t ofc_deal_seed(uint64_t run_seed, uint64_t i);

/* ------------------------------------------------------------------ rules */

/*! @brief Cards one seat is dealt in a deal (R-FLOW-CP-2, R-FLOW-OFC-3/4,
 * R-FLOW-PIN-2/3, R-FL-2): its Fantasyland count, else 13 (classic, OFC) or 17
 * (Pineapple: 5 + 4 x 3), read from the schedule ofc_game_init() builds.
 * @param kind         an ofc_game_kind.
 * @param fantasyland  the seat's Fantasyland cards this deal: 0 (none) or 13..17.
 * @return the number of cards, OFC_E_RULES for an unknown kind, or OFC_E_SEATS for a
 *         Fantasyland count out of range (or any under classic rules).
 *
 * Example:
 * @code
 * assert(ofc_cards_per_seat(OFC_KIND_PINEAPPLE, 0) == 17);
 * assert(ofc_cards_per_seat(OFC_KIND_OFC, 15) == 15);
 * @endcode */
OFC_API int32_t ofc_cards_per_seat(uint32_t kind, uint32_t fantasyland);

/*! Everything a deal needs from a rule set: pair scoring, table settlement,
 * Fantasyland, and the deal itself.  About 100 KB; fill it once, share it read-only. */
typedef struct ofc_game_rules {
    ofc_rules scoring;        /* pair scoring, royalties, fouls */
    ofc_table_rules table;    /* table settlement (ofc_settle.h) */
    ofc_fl_rules fl;          /* Fantasyland entry and stay (ofc_solver.h) */
    uint8_t kind;             /* ofc_game_kind */
    uint8_t max_players;      /* 2..4 */
    uint8_t face_down_final;  /* the last N rounds face down (0..8; OFC: R-FLOW-OFC-7) */
    uint8_t reserved;         /* 0 */
} ofc_game_rules;

/*! @brief Fill `r` with the PINEAPPLE preset (1-6 scoring, standard royalties,
 * Fantasyland on QQ+ with 14 cards, stay on trips / full house middle / quads back).
 * @param r  the rules to fill.
 * @return OFC_OK, or OFC_E_RULES when r is NULL. */
OFC_API int32_t ofc_game_rules_init_pineapple(ofc_game_rules *r);

/*! @brief Check every field of `r`, the scoring, table and Fantasyland rules in it
 * included.
 * @param r  the rules; may be NULL.
 * @return OFC_OK, or OFC_E_RULES when a field is out of range (NULL included). */
OFC_API int32_t ofc_game_rules_check(const ofc_game_rules *r);

/* ------------------------------------------------------------------ state */

/*! One decision of the schedule (filled by ofc_game_init). */
typedef struct ofc_game_step {
    uint8_t seat;      /* who decides */
    uint8_t start;     /* deck position of its first card */
    uint8_t n;         /* cards dealt */
    uint8_t k;         /* cards to discard */
    uint8_t full;      /* 1: a full set (13..17 cards onto an empty board) */
    uint8_t face_down; /* 1: placed face down (hidden from the others until the end) */
    uint8_t street;    /* 0 = the first decision of the seat, then 1, 2, ... */
    uint8_t reserved;  /* 0 */
} ofc_game_step;

/*! The state of one deal: plain data, copy it freely.  Read it through the
 * functions below; write it only through them. */
typedef struct ofc_game {
    uint64_t seed;                               /* the seed of the deck (0 if given) */
    uint8_t deck[52];                            /* the deck, dealt from deck[0] */
    uint8_t players;                             /* 2..4 */
    uint8_t button;                              /* 0..players-1 */
    uint8_t kind;                                /* ofc_game_kind */
    uint8_t step;                                /* decisions made so far */
    uint8_t nsteps;                              /* decisions in the deal */
    uint8_t surrendered;                         /* bit per seat (classic) */
    int8_t declared[OFC_GAME_MAX_SEATS];         /* natural declared, or -1 */
    uint8_t fl[OFC_GAME_MAX_SEATS];              /* Fantasyland cards this deal, 0 = none */
    uint8_t count[OFC_GAME_MAX_SEATS][3];        /* cards in each row */
    uint8_t board[OFC_GAME_MAX_SEATS][13];       /* front 0..2, middle 3..7, back 8..12,
                                                  * in placement order; OFC_NO_CARD empty */
    uint16_t face_down[OFC_GAME_MAX_SEATS];      /* bit i: board slot i is face down */
    uint8_t ndiscards[OFC_GAME_MAX_SEATS];
    uint8_t discards[OFC_GAME_MAX_SEATS][4];
    ofc_game_step steps[OFC_GAME_MAX_STEPS];
} ofc_game;

/*! @brief Start a deal.
 * @param r        the rules; NULL is refused.
 * @pre   r passed ofc_game_rules_check() once (its large tables are not re-checked
 *        here; only the fields the deal itself reads are).
 * @param g        the state to fill; fully written on OFC_OK, untouched on error.
 * @param players  2..r->max_players.
 * @param button   0..players-1: the dealer; the seat on its left acts first.
 * @param fl       Fantasyland cards per seat this deal (0, or 13..17), or NULL for
 *                 none; must be all 0 in classic and when the rules have no
 *                 Fantasyland.
 * @param seed     the deck's seed (ignored when deck is given).
 * @param deck     52 distinct card ids to deal from, or NULL for ofc_deck_from_seed(seed).
 * @return OFC_OK; OFC_E_RULES, OFC_E_SEATS, OFC_E_DECK (too many cards for one deck),
 *         OFC_E_CARD / OFC_E_DUPLICATE (a bad explicit deck), OFC_E_COUNT (NULL g). */
OFC_API int32_t ofc_game_init(const ofc_game_rules *r, ofc_game *g, uint32_t players,
                              uint32_t button, const uint8_t *fl, uint64_t seed,
                              const uint8_t *deck);

/*! @brief Check that `g` is a state ofc_game_init() and this engine's moves could
 * have made under the rules `r`: for state bytes from outside (a saved environment,
 * a file), before any other function reads them.  Checked: the table (players,
 * button, kind, Fantasyland counts, as ofc_game_init() checks them), the deck (52
 * distinct cards, the seed's own deck when the seed is not 0), the schedule (nsteps
 * and every step byte, reserved ones included, exactly as ofc_game_init() builds it),
 * step <= nsteps, and per seat: the row counts within the row sizes (3, 5, 5) and
 * summing to the cards the seat has kept in its decisions so far, each board slot a
 * card up to its row's count and OFC_NO_CARD after it, the discards likewise, every
 * card on a board or discarded one dealt to that seat and none twice, the face-down
 * marks exactly the cards placed face down (the last ones of each row), declared
 * naturals and surrenders only for a classic seat that has set its hand (a natural
 * the table rules pay, a surrender they allow, not both); the seats beyond `players`
 * empty, and no surrender bit beyond the four seats; and the decisions made, replayed
 * by the engine with each card sent where the state holds it, are ones it takes (one
 * discard per Pineapple round, a natural the hand makes) and give the state's rows,
 * discards and marks byte for byte: a row's cards and the discards in deal order, a
 * declared or surrendered classic hand as the engine lays it out (the same cards in
 * another order would show other cards to the other seats).  A deal an engine error left
 * unplayable (marked over before its end) does not pass.  No state is kept between
 * calls.
 * @param r    the rules the state is played under (passed ofc_game_rules_check()).
 * @param g    the state: any bytes.
 * @param why  receives a static text naming the first invariant broken (NULL when
 *             the state passes), or NULL.
 * @return OFC_OK; OFC_E_STATE (the state breaks an invariant: see *why); OFC_E_RULES
 *         (NULL r, or r's kind or player count out of range); OFC_E_COUNT (NULL g). */
OFC_API int32_t ofc_game_state_check(const ofc_game_rules *r, const ofc_game *g,
                                     const char **why);

/*! The pending decision. */
typedef struct ofc_decision {
    uint8_t seat;        /* OFC_NO_SEAT when the deal is over */
    uint8_t n;           /* cards dealt */
    uint8_t k;           /* cards to discard */
    uint8_t full;        /* 1: a full set, no action ids (apply a placement) */
    uint8_t face_down;   /* 1: placed face down */
    uint8_t street;
    uint8_t free[3];     /* room left in front, middle, back */
    uint8_t future_cards;    /* cards this seat still gets after this decision */
    uint8_t future_discards; /* discards it still makes after this decision */
    uint8_t reserved;
    uint8_t dealt[OFC_GAME_MAX_DEALT]; /* n cards in deal order */
} ofc_decision;

/*! @brief The pending decision of `g`.
 * @param g    a state made by ofc_game_init() (NULL is refused).
 * @param out  receives it (seat OFC_NO_SEAT and n 0 when the deal is over; NULL is
 *             refused).
 * @pre g, where not NULL, is a state ofc_game_init() made.
 * @return OFC_OK, OFC_E_GAME_OVER when the deal is over, OFC_E_COUNT when g or out is
 *         NULL, or OFC_E_VALUE when out shares a byte with *g (out untouched). */
OFC_API int32_t ofc_game_decision(const ofc_game *g, ofc_decision *out);

/*! @brief Seat to act.
 * @param g  a state made by ofc_game_init() (NULL is refused).
 * @pre g, where not NULL, is a state ofc_game_init() made.
 * @return 0..players-1, -1 when the deal is over, or OFC_E_COUNT when g is NULL. */
OFC_API int32_t ofc_game_to_act(const ofc_game *g);

/*! @brief Whether the deal is over.
 * @param g  a state made by ofc_game_init() (NULL is refused).
 * @pre g, where not NULL, is a state ofc_game_init() made.
 * @return 1 when every decision is made, 0 when not, OFC_E_COUNT when g is NULL. */
OFC_API int32_t ofc_game_is_over(const ofc_game *g);

/*! @brief Legal action ids of the pending normal decision, increasing.
 * @param g    a state made by ofc_game_init() (NULL is refused: OFC_E_COUNT).
 * @param out  receives up to OFC_ACTION_SPACE ids (may be NULL to count only).
 * @pre g, where not NULL, is a state ofc_game_init() made.
 * @return the number of legal actions (1..243), OFC_E_GAME_OVER, OFC_E_FULL_SET, or
 *         OFC_E_COUNT (g NULL). */
OFC_API int32_t ofc_game_legal_actions(const ofc_game *g, uint8_t *out);

/*! @brief Action mask of the pending normal decision.
 * @param g     a state made by ofc_game_init() (NULL is refused: OFC_E_COUNT).
 * @param mask  OFC_ACTION_SPACE bytes (NULL is refused: OFC_E_COUNT), 1 for a legal
 *              action, else 0 (all 0 when the deal is over or the decision is a full
 *              set).
 * @pre g, where not NULL, is a state ofc_game_init() made.
 * @return the number of legal actions, OFC_E_GAME_OVER, OFC_E_FULL_SET,
 *         OFC_E_COUNT (g or mask NULL: mask untouched), or OFC_E_VALUE (mask shares a
 *         byte with *g: mask untouched). */
OFC_API int32_t ofc_game_action_mask(const ofc_game *g, uint8_t mask[OFC_ACTION_SPACE]);

/*! @brief Destinations of an action id: what it does with each dealt card.
 * @param n       cards dealt (1..5).
 * @param k       discards (0..n-1; not 1 or 2 when n is 5).
 * @param action  0..OFC_ACTION_SPACE-1.
 * @param dest    receives n destinations: 0 front, 1 middle, 2 back, OFC_DISCARD.
 * @return OFC_OK, or OFC_E_ACTION when the id does not exist for (n, k), (n, k)
 *         has no ids or dest is NULL (rows' room is not checked here). */
OFC_API int32_t ofc_action_decode(uint32_t n, uint32_t k, uint32_t action, uint8_t dest[5]);

/*! @brief The action id of destinations (inverse of ofc_action_decode()).
 * @param n     cards dealt (1..5).
 * @param k     discards (0..n-1; not 1 or 2 when n is 5).
 * @param dest  n destinations: 0 front, 1 middle, 2 back, OFC_DISCARD.
 * @return the id, or OFC_E_DISCARDS / OFC_E_DESTINATION when dest does not fit (n, k),
 *         OFC_E_ACTION when (n, k) has no ids or dest is NULL. */
OFC_API int32_t ofc_action_encode(uint32_t n, uint32_t k, const uint8_t dest[5]);

/*! @brief Legal action ids of any normal decision, from its shape alone.
 * @param n      cards dealt (1..5).
 * @param k      discards (0..n-1; not 1 or 2 when n is 5).
 * @param room   free slots of front, middle and back (0..3, 0..5, 0..5).
 * @param out    receives the legal ids, increasing (may be NULL).
 * @param mask   OFC_ACTION_SPACE bytes set to 1 at the legal ids (may be NULL; the
 *               other bytes are left as they are).
 * @return the number of legal ids (at least 1), or OFC_E_ACTION when (n, k, room) is
 *         no decision: a shape without ids, a room out of range or NULL, or rows
 *         with fewer free slots than the n - k kept cards. */
OFC_API int32_t ofc_actions_legal(uint32_t n, uint32_t k, const uint8_t room[3],
                                  uint8_t *out, uint8_t *mask);

/*! @brief Play an action id of the pending normal decision, then deal on.
 * @param g       a state made by ofc_game_init() (NULL is refused: OFC_E_COUNT).
 * @param action  the action id (validated).
 * @pre g, where not NULL, is a state ofc_game_init() made.
 * @return OFC_OK; OFC_E_GAME_OVER, OFC_E_FULL_SET or OFC_E_ACTION (then g is
 *         unchanged); OFC_E_COUNT (g NULL). */
OFC_API int32_t ofc_game_apply_action(ofc_game *g, uint32_t action);

/*! @brief Play an explicit placement of the pending decision (normal or full set).
 * @param g     a state made by ofc_game_init() (NULL is refused: OFC_E_COUNT).
 * @param dest  one destination per dealt card, in deal order: 0 front, 1 middle,
 *              2 back, OFC_DISCARD (NULL is refused: OFC_E_COUNT).
 * @param n     the number of entries; must equal the cards dealt.
 * @pre g, where not NULL, is a state ofc_game_init() made.
 * @return OFC_OK; OFC_E_GAME_OVER, OFC_E_COUNT (n, or g or dest NULL),
 *         OFC_E_DESTINATION, OFC_E_DISCARDS, OFC_E_ROW_FULL (then g is unchanged). */
OFC_API int32_t ofc_game_apply_placement(ofc_game *g, const uint8_t *dest, uint32_t n);

/*! @brief Classic: show a natural instead of setting (R-NAT-2).  The hand is laid out
 * as the natural's own board for the three split naturals, else highest cards in the
 * back, then the middle, then the front.
 * @param r        the rules g was made with (NULL is refused: OFC_E_RULES).
 * @param g        a state made by ofc_game_init() (NULL is refused: OFC_E_COUNT).
 * @param natural  an ofc_natural id that the rules pay and the cards make.
 * @pre r and g, where not NULL, are rules that passed ofc_game_rules_check() and a
 *      state ofc_game_init() made with them.
 * @return OFC_OK; OFC_E_RULES (r NULL), OFC_E_COUNT (g NULL), OFC_E_GAME_OVER,
 *         OFC_E_NOT_CLASSIC, OFC_E_NATURAL (g unchanged). */
OFC_API int32_t ofc_game_declare(const ofc_game_rules *r, ofc_game *g, uint32_t natural);

/*! @brief Classic: surrender the hand (R-VAR-SUR-*); it is never shown.
 * @param r  the rules g was made with (NULL is refused: OFC_E_RULES).
 * @param g  a state made by ofc_game_init() (NULL is refused: OFC_E_COUNT).
 * @pre r and g, where not NULL, are rules that passed ofc_game_rules_check() and a
 *      state ofc_game_init() made with them.
 * @return OFC_OK; OFC_E_RULES (r NULL), OFC_E_COUNT (g NULL), OFC_E_GAME_OVER,
 *         OFC_E_NOT_CLASSIC, OFC_E_SURRENDER (g unchanged). */
OFC_API int32_t ofc_game_surrender(const ofc_game_rules *r, ofc_game *g);

/*! @brief Naturals a classic seat to act may declare: those its cards make and the
 * rules pay.
 * @param r  the rules g was made with (may be NULL: then 0).
 * @param g  a state made by ofc_game_init() (may be NULL: then 0).
 * @pre r and g, where not NULL, are rules that passed ofc_game_rules_check() and a
 *      state ofc_game_init() made with them.
 * @return a bit mask (OFC_NAT_BIT(n)), 0 when none, not a classic set, or r or g
 *         NULL. */
OFC_API uint32_t ofc_game_declarable(const ofc_game_rules *r, const ofc_game *g);

/* ------------------------------------------------------------- observation */

/*! What one seat may see.  Boards hold the visible cards of each row in placement
 * order (count[s][row] of them), OFC_NO_CARD after; face-down cards are counted, not
 * shown, until the deal is over (a surrendered hand is never shown). */
typedef struct ofc_observation {
    uint8_t seat, players, button, kind;
    uint8_t to_act;            /* OFC_NO_SEAT when over */
    uint8_t is_over;
    uint8_t street;            /* of the pending decision, or last street + 1 */
    uint8_t surrendered;       /* bit per seat (known to all) */
    uint8_t fl[OFC_GAME_MAX_SEATS];
    uint8_t board[OFC_GAME_MAX_SEATS][13];       /* visible cards by row slot */
    uint8_t count[OFC_GAME_MAX_SEATS][3];        /* visible cards per row */
    uint8_t face_down_count[OFC_GAME_MAX_SEATS][3]; /* placed but hidden, per row */
    uint8_t discard_count[OFC_GAME_MAX_SEATS];
    uint8_t discards[4];                         /* own discards (discard_count[seat]) */
    int8_t declared[OFC_GAME_MAX_SEATS];         /* shown naturals (-1 = none) */
    /* the pending decision, when it is this seat's (else n = 0): */
    uint8_t n, k, full, face_down, future_cards, future_discards;
    uint8_t dealt[OFC_GAME_MAX_DEALT];
    /* the rounds still to come per seat, from the schedule (none once the deal is
     * over): for the observer, its decisions after the pending one; for every other
     * seat, the decisions that fill the slots the observer cannot see (not made yet,
     * or made face down and still hidden), in deal order.  round_n / round_k: the
     * cards and discards of each. */
    uint8_t rounds[OFC_GAME_MAX_SEATS];
    uint8_t round_n[OFC_GAME_MAX_SEATS][OFC_GAME_MAX_ROUNDS];
    uint8_t round_k[OFC_GAME_MAX_SEATS][OFC_GAME_MAX_ROUNDS];
} ofc_observation;

/*! @brief Write `seat`'s view of `g` into `out`.
 * @param g     a state made by ofc_game_init() (NULL is refused).
 * @param seat  the observing seat (validated).
 * @param out   receives the view (NULL is refused; untouched on an error).
 * @pre g, where not NULL, is a state ofc_game_init() made.
 * @return OFC_OK, OFC_E_SEAT when seat >= players, OFC_E_COUNT when g or out is
 *         NULL, or OFC_E_VALUE when out shares a byte with *g. */
OFC_API int32_t ofc_game_observe(const ofc_game *g, uint32_t seat, ofc_observation *out);

/*! @brief Complete the observation of a caller that has no game (a position typed in,
 * an observation dict, a protocol client's view): from the seats, the boards and
 * the counts it filled, and the rules' schedule, write everything the schedule
 * decides -- the observer's pending decision and its future, and every seat's
 * rounds still to come -- as ofc_game_observe() writes them.
 * The caller fills seat, players, button, fl, board (visible cards by row slot,
 * OFC_NO_CARD after), count, face_down_count, discard_count, discards, surrendered
 * and declared as ofc_game_observe() would, and n and dealt: the observer's dealt
 * cards (n = 0 when it has no decision to make).  Each seat's placed cards (count +
 * face_down_count) must end one of its decisions in the schedule, and its
 * discard_count be at most the discards those decisions make (a caller that does not
 * know another seat's discards may give fewer, 0 say); the observer's next decision
 * must deal n cards.  When every seat has made all its decisions (n
 * 0), the deal is over: is_over 1, to_act OFC_NO_SEAT, street the last one + 1 and
 * no rounds to come, as ofc_game_observe() writes a finished deal.
 * @param r  the rules (kind and Fantasyland; checked with ofc_game_rules_check()).
 * @param o  the observation, completed in place: kind, is_over (0, or 1 for a deal
 *           over), k, full, face_down, future_cards, future_discards, rounds,
 *           round_n and round_k are written, and to_act and street when n > 0 or
 *           the deal is over (else they stay as given); on an error o is left as it
 *           is.
 * @return OFC_OK; OFC_E_RULES (r NULL or out of range); OFC_E_VALUE (o NULL);
 *         OFC_E_SEATS (players,
 *         seat, button or a Fantasyland count out of range); OFC_E_COUNT (counts that
 *         overflow a row, or fit no point of the schedule, or n is not the number of
 *         cards the observer's next decision deals); OFC_E_DISCARDS (a seat's
 *         discard_count over the discards its decisions so far make). */
OFC_API int32_t ofc_observation_complete(const ofc_game_rules *r, ofc_observation *o);

/* ------------------------------------------------------------------ result */

/*! The scored end of a deal. */
typedef struct ofc_game_result {
    int32_t net[OFC_GAME_MAX_SEATS];       /* sums to zero */
    uint8_t foul[OFC_GAME_MAX_SEATS];
    int16_t royalty[OFC_GAME_MAX_SEATS][3];
    uint8_t fl_next[OFC_GAME_MAX_SEATS];   /* Fantasyland cards next deal, 0 = none */
    ofc_settlement settlement;             /* the full settlement (items on request) */
} ofc_game_result;

/*! @brief Settle a finished deal.
 * @param r       the rules g was made with (NULL is refused: OFC_E_RULES).
 * @param g       a state made by ofc_game_init() (NULL is refused: OFC_E_COUNT).
 * @param stacks  chips per seat for table stakes, or NULL.
 * @param flags   ofc_settle() flags (e.g. OFC_SETTLE_ITEMS for the itemised list).
 * @param out     receives the result (NULL is refused: OFC_E_COUNT).
 * @pre r, where not NULL, passed ofc_game_rules_check(); g, where not NULL, is a
 *      state ofc_game_init() made with r.
 * @return OFC_OK, OFC_E_RULES (r NULL), OFC_E_COUNT (g or out NULL), OFC_E_VALUE (out
 *         shares a byte with *r or *g: out untouched), OFC_E_NOT_OVER, or an
 *         ofc_settle() error. */
OFC_API int32_t ofc_game_result_get(const ofc_game_rules *r, const ofc_game *g,
                                    const int32_t *stacks, uint32_t flags,
                                    ofc_game_result *out);

/* ----------------------------------------------------------------- playout */

/*! @brief Play one uniformly random legal move of the pending decision (a full set: a
 * uniformly random setting), as ofc_game_playout() does for each decision.
 * @param g    a state made by ofc_game_init() (NULL is refused).
 * @param rng  the caller's random stream (advanced; NULL is refused).
 * @pre g, where not NULL, is a state ofc_game_init() made.
 * @return OFC_OK, OFC_E_GAME_OVER, or OFC_E_COUNT on NULL arguments. */
OFC_API int32_t ofc_game_random_move(ofc_game *g, ofc_rng *rng);

/*! @brief Play uniformly random legal moves until the deal is over (a full set: a
 * uniformly random setting; classic seats never declare or surrender).
 * @param g          a state made by ofc_game_init() (NULL is refused).
 * @param rng        the caller's random stream (advanced; NULL is refused).
 * @param decisions  receives the number of decisions played (may be NULL).
 * @pre g, where not NULL, is a state ofc_game_init() made.
 * @return OFC_OK, or OFC_E_COUNT when g or rng is NULL. */
OFC_API int32_t ofc_game_playout(ofc_game *g, ofc_rng *rng, uint32_t *decisions);

#ifdef __cplusplus
}
#endif

#endif /* OFC_GAME_H */
