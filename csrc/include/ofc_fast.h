/*
 * ofc_fast.h -- hand ranking, fouls, royalties and scoring for Chinese Poker and
 * Open Face Chinese Poker (OFC).  Plain C99, no dependencies, no global mutable
 * state: every function is thread-safe and reentrant.  No function allocates memory
 * but the exact solvers of ofc_solver.h (one work block per solve, freed before they
 * return; the vector environment's Fantasyland solver calls them).
 *
 * Conventions
 * -----------
 * Card   : uint8_t id = 4 * rank + suit; rank 0..12 = 2,3,...,K,A; suit 0..3 =
 *          clubs, diamonds, hearts, spades.  So 2c = 0, As = 51.
 * Strength: uint16_t, one scale for 5-card and 3-card hands, larger = stronger,
 *          1..OFC_STRENGTH_MAX, 0 = "no hand".  A 3-card hand sits on the scale as if
 *          its two missing kickers ranked below a deuce, so a front row compares with
 *          a middle row by integer comparison: rank3(Q Q 5) > rank5(Q Q 4 3 2) and
 *          rank3(Q Q 5) < rank5(Q Q 5 3 2).  5-card hands take 7,462 distinct values,
 *          3-card hands 455; no 3-card value equals a 5-card value.
 * Board  : 13 cards in row order: front (3), middle (5), back (5).
 * Rules  : an ofc_rules struct, filled once per rule set (by hand, by
 *          ofc_rules_init_ofc() / ofc_rules_init_classic(), or by the Python package)
 *          and then only read.
 *
 * Validation
 * ----------
 * Functions named *_unchecked (and the *_inline rankers) trust their input (see each
 * @pre): anything else may read out of bounds.  Every other function validates what
 * it is given (card ids, repeats, counts, strengths, the scalar fields of an
 * ofc_rules, NULL pointers where a pointer is required) and returns an ofc_status;
 * a struct's reserved fields must be 0 (every check refuses them otherwise, so that a
 * later version can give them a meaning);
 * what it does not check is stated as its @pre (the game engine's own state, for
 * one: a struct ofc_game_init() filled).  The 95 KB of an ofc_rules' tables are
 * checked by ofc_rules_check() only (any int16 value in them is memory-safe).  For
 * ranking inside your own tight loops, ofc_inline.h offers the two rankers as static
 * inline functions (ofc_rank5_inline, ofc_rank3_inline).
 *
 * Threads
 * -------
 * Every public function that checks its input, in every header (this one,
 * ofc_naturals.h, ofc_solver.h, ofc_settle.h, ofc_game.h, ofc_search.h, ofc_value.h,
 * ofc_heuristic.h, ofc_features.h, ofc_model.h, ofc_vecenv.h), reads each byte of the
 * data it checks exactly once: the cards, hands, boards, pairs, evaluations, strengths,
 * dealt cards, decks, Fantasyland counts, rooms and destinations, deals to settle,
 * search positions, encodings, stacks, transfers, opponent counts, a vector
 * environment's actions, placements and flags and model files it is given are
 * copied to locals (a batch, a block of rows at a time; opponent counts a row at a
 * time; a model file as it is parsed), and only the copy is checked and used.  A
 * caller's thread that writes into such an input while the call runs can therefore
 * only make the call (or a batch's row) fail validation or be answered as some
 * snapshot of that input, never cause an out-of-bounds read or an answer mixed from
 * two snapshots.  Not covered, so not to be written while a call reads them: what a
 * call is given to share rather than to check (rule sets: ofc_rules, ofc_game_rules,
 * ofc_table_rules, ofc_fl_rules; ev tables, models, contexts: fill them once, then
 * share them read-only), the state a call updates (an ofc_game, a vector
 * environment's slots and output arrays, an ofc_observation completed in place, the
 * scratch of ofc_apply_stakes_scratch()), the functions that check nothing
 * (ofc_*_unchecked, ofc_inline.h, ofc_encode), and those that check all their input
 * before writing any output, so read it twice: the batch kernels of this header,
 * ofc_rank5_batch(), ofc_rank3_batch(), ofc_eval_boards() and ofc_score_pairs()
 * (every row checked, then each block copied and checked again as it is computed),
 * and ofc_apply_stakes() beyond 256 transfers (likewise, as they are paid).  A writer
 * can make these fail with their outputs partly written (the rows before the one
 * refused); a row's answer is still one snapshot's.  A refusal that leaves the
 * outputs as they are needs either that second read or room for every row until the
 * last is checked, and the library allocates none: ofc_apply_stakes_scratch() takes
 * that room from the caller and reads every transfer once.
 *
 * Example
 * -------
 * @code
 * static ofc_rules rules;                          // 95 KB: not on a small stack
 * const uint8_t board[13] = {42, 41, 0,            // Qh Qd 2c
 *                            31, 30, 29, 12, 13,   // 9s 9h 9d 5c 5d
 *                            51, 47, 43, 39, 35};  // As Ks Qs Js Ts
 * ofc_board_eval e;
 * uint16_t s = ofc_rank5_unchecked(51, 47, 43, 39, 35);
 * assert(ofc_category_of(s) == OFC_ROYAL_FLUSH && s == OFC_STRENGTH_MAX);
 * assert(ofc_rules_init_ofc(&rules) == OFC_OK);
 * assert(ofc_eval_board(&rules, board, &e) == OFC_OK);
 * assert(!e.foul && e.royalty[0] == 7 && e.royalty[1] == 12 && e.royalty[2] == 25);
 * @endcode
 */
#ifndef OFC_FAST_H
#define OFC_FAST_H

#include <stddef.h>
#include <stdint.h>

#include "ofc_export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ----------------------------------------------------------------- version */

#define OFC_VERSION_MAJOR 0
#define OFC_VERSION_MINOR 1
#define OFC_VERSION_PATCH 0
#define OFC_VERSION_NUMBER \
    (OFC_VERSION_MAJOR * 10000 + OFC_VERSION_MINOR * 100 + OFC_VERSION_PATCH)
#define OFC_VERSION_STRING "0.1.0"

/*! @brief The version of the compiled library, to compare with the header's.
 * @return OFC_VERSION_NUMBER as the library was built. */
OFC_API uint32_t ofc_version_number(void);

/*! @brief The version of the compiled library as text.
 * @return OFC_VERSION_STRING as the library was built, e.g. "0.1.0" (static storage). */
OFC_API const char *ofc_version_string(void);

/* --------------------------------------------------------------- constants */

#define OFC_CARDS 52                 /* card ids are 0..51 */
#define OFC_STRENGTH_MAX 7917        /* largest strength (royal flush) */
#define OFC_STRENGTH_TABLE_SIZE 7918 /* tables indexed by strength: 0..7917 */
#define OFC_BOARD_CARDS 13
#define OFC_ROWS 3
#define OFC_FRONT_CARDS 3            /* cards a full front holds (R-ROW-1) */
#define OFC_MIDDLE_CARDS 5
#define OFC_BACK_CARDS 5

/*! Row indices, in board order. */
typedef enum ofc_row { OFC_FRONT = 0, OFC_MIDDLE = 1, OFC_BACK = 2 } ofc_row;

/*! Hand categories, ascending.  3-card hands use HIGH_CARD, ONE_PAIR and TRIPS. */
typedef enum ofc_category {
    OFC_HIGH_CARD = 0,
    OFC_ONE_PAIR = 1,
    OFC_TWO_PAIR = 2,
    OFC_TRIPS = 3,
    OFC_STRAIGHT = 4,
    OFC_FLUSH = 5,
    OFC_FULL_HOUSE = 6,
    OFC_QUADS = 7,
    OFC_STRAIGHT_FLUSH = 8,
    OFC_ROYAL_FLUSH = 9
} ofc_category;

/*! Status codes: 0 on success, negative on bad input. */
typedef enum ofc_status {
    OFC_OK = 0,
    OFC_E_CARD = -1,      /* a card id outside 0..51 */
    OFC_E_DUPLICATE = -2, /* the same card twice (within a hand, board or pair) */
    OFC_E_COUNT = -3,     /* wrong number of cards; also a count or range out of
                           * bounds, or a NULL pointer, where a function says so */
    OFC_E_STRENGTH = -4,  /* a strength outside 1..OFC_STRENGTH_MAX */
    OFC_E_RULES = -5      /* a rule set (ofc_rules, or the table, game or Fantasyland
                           * rules where a function says so) NULL or with a field
                           * outside its documented range */
} ofc_status;

/* A value argument out of range: a NULL required pointer, a hand-built struct field
 * (foul flag, pair context), a solver value (stay value, objective, ev tables). */
#define OFC_E_VALUE (-17)

/*! @brief A short English message for a status code (what went wrong, in one phrase).
 * Covers OFC_OK and every OFC_E_* code of every public header: ofc_fast.h,
 * ofc_solver.h, ofc_settle.h, ofc_game.h, ofc_search.h, ofc_model.h, ofc_vecenv.h (the
 * other headers return only these codes).  Never fails.
 * @param status a value returned by any function of the library (any int32_t).
 * @return a static, NUL-terminated message, e.g. "card id outside 0..51" for
 *         OFC_E_CARD; "unknown status code" for a value that is no status code. */
OFC_API const char *ofc_status_string(int32_t status);

/* ---------------------------------------------------------------- ranking */

/*! @brief Strength of a 5-card hand (any card order), without checks.  About 2 ns.
 * @param a  the first card;
 * @param b  the second card;
 * @param c  the third card;
 * @param d  the fourth card;
 * @param e  the fifth card.
 * @pre five distinct card ids in 0..51 (anything else reads out of bounds).
 * @return the strength, 1..OFC_STRENGTH_MAX. */
OFC_API uint16_t ofc_rank5_unchecked(uint8_t a, uint8_t b, uint8_t c, uint8_t d, uint8_t e);

/*! @brief Strength of a 3-card front hand (any card order) on the 5-card scale,
 * without checks.
 * @param a  the first card;
 * @param b  the second card;
 * @param c  the third card.
 * @pre three distinct card ids in 0..51 (anything else reads out of bounds).
 * @return the strength, 1..OFC_STRENGTH_MAX. */
OFC_API uint16_t ofc_rank3_unchecked(uint8_t a, uint8_t b, uint8_t c);

/*! @brief Strength of 3 or 5 cards given as ints, validated (the Python per-call
 * path).
 * @param cards   n card ids (NULL is refused: OFC_E_COUNT).
 * @param n       number of cards: 3 or 5, and `expect` when that is nonzero.
 * @param expect  0 = accept 3 or 5 cards, else the required count.
 * @return the strength (> 0), or OFC_E_COUNT (n not 3 or 5, n not `expect` when that
 *         is nonzero, or cards NULL), OFC_E_CARD, OFC_E_DUPLICATE. */
OFC_API int32_t ofc_rank(const int32_t *cards, size_t n, uint32_t expect);

/*! @brief Rank n 5-card hands stored row by row (5 bytes a hand) into out[0..n-1].
 * Every hand is validated before any is ranked: a bad hand leaves out untouched
 * (unless another thread writes the hands during the call).
 * @param cards  n * 5 card ids.
 * @param n      number of hands.
 * @param out    receives n strengths.
 * @param bad    receives the index of the first bad hand (untouched on success); may
 *               be NULL.
 * @return OFC_OK, or OFC_E_CARD / OFC_E_DUPLICATE for the first bad hand *bad
 *         (out untouched), or OFC_E_VALUE when n > 0 and cards or out is NULL or
 *         out shares a byte with cards (out untouched: the strengths would overwrite
 *         hands not yet read). */
OFC_API int32_t ofc_rank5_batch(const uint8_t *cards, size_t n, int32_t *out, size_t *bad);

/*! @brief Rank n 3-card front hands stored row by row (3 bytes a hand), as
 * ofc_rank5_batch().
 * @param cards  n * 3 card ids.
 * @param n      number of hands.
 * @param out    receives n strengths.
 * @param bad    receives the index of the first bad hand; may be NULL.
 * @return OFC_OK, OFC_E_CARD / OFC_E_DUPLICATE (hand *bad; out untouched), or
 *         OFC_E_VALUE when n > 0 and cards or out is NULL or out shares a byte with
 *         cards (out untouched). */
OFC_API int32_t ofc_rank3_batch(const uint8_t *cards, size_t n, int32_t *out, size_t *bad);

/* ------------------------------------------------------ strength metadata */

/*! @brief The category of a strength (a royal flush is its own category).
 * @param strength  any value.
 * @return an ofc_category, or OFC_E_STRENGTH when the strength is outside
 *         1..OFC_STRENGTH_MAX. */
OFC_API int32_t ofc_category_of(uint16_t strength);

/*! @brief How many cards a strength's hand holds.
 * @param strength  any value.
 * @return 5 for a 5-card strength, 3 for a 3-card strength, 0 when out of range. */
OFC_API int32_t ofc_strength_cards(uint16_t strength);

/*! @brief Packed description of a strength: ncards << 24 | category << 20 | five
 * 4-bit ranks (most significant first, 0..12 = 2..A, 0xF = no card), in the order a
 * player reads the hand ("K K K 7 7", a wheel as "5 4 3 2 A").
 * @param strength  any value.
 * @return the packed value, 0 when the strength is out of range. */
OFC_API uint32_t ofc_strength_info(uint16_t strength);

/*! @brief Cactus Kev number of a 5-card strength (1 = royal flush .. 7462 =
 * 7-5-4-3-2), the lower-is-better numbers of treys, phevaluator and Cactus Kev.
 * @param strength  any value.
 * @return 1..7462, or 0 for a 3-card or out-of-range strength. */
OFC_API int32_t ofc_kev_rank(uint16_t strength);

/*! @brief Inverse of ofc_kev_rank().
 * @param kev  a Cactus Kev number.
 * @return the strength, or 0 when kev is outside 1..7462. */
OFC_API uint16_t ofc_strength_from_kev(int32_t kev);

/*! @brief 2-7 lowball value of a 5-card strength: larger = better low hand
 * (7-5-4-3-2 offsuit is 7462); the ace is always high, A-2-3-4-5 is ace-high,
 * straights and flushes count against the hand.
 * @param strength  any value.
 * @return 1..7462, or 0 for a 3-card or out-of-range strength. */
OFC_API int32_t ofc_low27(uint16_t strength);

/* ------------------------------------------------------------------ rules */

/*! Row ordering rule (R-ORDER-1). */
typedef enum ofc_order_rule {
    OFC_ORDER_NONSTRICT = 0, /* front <= middle <= back (default, [003]) */
    OFC_ORDER_STRICT = 1     /* front < middle < back */
} ofc_order_rule;

/* Ranges of the ofc_rules scalar fields (checked by every validating function). */
#define OFC_BONUS_LIMIT 100000
#define OFC_MULTIPLIER_MAX 1000

/*! Who takes the majority bonus. */
typedef enum ofc_majority_rule {
    OFC_MAJORITY_TWO_ROWS = 0, /* won at least two rows ([003]) */
    OFC_MAJORITY_MORE_ROWS = 1 /* won more rows than the opponent ([001]) */
} ofc_majority_rule;

/*! A compiled rule set.  Fill it once, then share it read-only between threads.
 * Royalties and win values are looked up by row and strength, so any schedule is a
 * table; entries for strengths a row cannot hold are ignored. */
typedef struct ofc_rules {
    /* Paid for the hand made whatever the row result (OFC royalties, "extras counted
     * for losing hands"); netted between the two players; 0 on a fouled board. */
    int16_t royalty[OFC_ROWS][OFC_STRENGTH_TABLE_SIZE];
    /* Units for winning the row with this hand (1 normally; classic win-only bonuses
     * such as front trips = 3).  Must be >= 0. */
    int16_t win_value[OFC_ROWS][OFC_STRENGTH_TABLE_SIZE];
    /* The int32 bonus fields lie in -OFC_BONUS_LIMIT..OFC_BONUS_LIMIT and the
     * multipliers in 1..OFC_MULTIPLIER_MAX (no sum of the scoring can overflow). */
    int32_t sweep_bonus;     /* extra units for winning all three rows (1-6: 3) */
    int32_t majority_bonus;  /* extra units for the majority of rows (2-4: 1) */
    int32_t overall_bonus;   /* extra units to the pair's net winner (R-VAR-OVR-1) */
    int32_t sweep_multiplier;     /* a swept pair's row and bonus units times this
                                   * (>= 1; R-VAR-VIET-2 "paid double") */
    int32_t sweep_all_multiplier; /* instead, when the sweeper swept every opponent at
                                   * the table (>= 1; see ofc_pair_context) */
    int32_t sweep_all_bonus;      /* extra units from each opponent then (R-VAR-HG-2) */
    uint8_t majority_rule;   /* ofc_majority_rule */
    uint8_t order_rule;      /* ofc_order_rule */
    uint8_t middle_lowball;  /* 1 = 2-7 middle (R-27-*): compared by ofc_low27(), no
                              * order with the other rows; the board fouls when the
                              * back is below the front or the middle's ofc_low27()
                              * value is below lowball_limit */
    uint8_t foul_pays_sweep; /* 1: beating a fouled board counts as a sweep (R-FOUL-3b);
                              * 0: the rows only */
    uint16_t lowball_limit;  /* 2-7: the middle fouls when its ofc_low27() value is
                              * below this (R-27-4: ten-high limit) */
    uint8_t reserved;        /* 0 */
    uint8_t reserved2;       /* 0 */
} ofc_rules;

/*! @brief Fill `rules` with the OFC / Pineapple preset (1-6 scoring, the standard
 * royalty schedule with front trips 10..22 and middle trips 2, non-strict order).
 * @param rules  the struct to fill.
 * @return OFC_OK, or OFC_E_RULES when rules is NULL. */
OFC_API int32_t ofc_rules_init_ofc(ofc_rules *rules);

/*! @brief Fill `rules` with classic Chinese Poker and the typical win-only bonus
 * scale (R-BON-CP-2).
 * @param rules     the struct to fill.
 * @param majority  0: the 1-6 method (sweep bonus 3); nonzero: 2-4 (majority 1).
 * @return OFC_OK, or OFC_E_RULES when rules is NULL. */
OFC_API int32_t ofc_rules_init_classic(ofc_rules *rules, int32_t majority);

/*! @brief Check every field of a rule set, its tables included (the other
 * validating functions check only the scalar fields, per call).
 * @param rules  the rule set; may be NULL.
 * @return OFC_OK when every field is in range, else OFC_E_RULES (NULL included). */
OFC_API int32_t ofc_rules_check(const ofc_rules *rules);

/* ----------------------------------------------------------------- boards */

/*! One evaluated board. */
typedef struct ofc_board_eval {
    uint16_t strength[OFC_ROWS]; /* front, middle, back */
    int16_t royalty[OFC_ROWS];   /* per row under the rules; all 0 when fouled */
    uint8_t foul;                /* 1 when the rows break the rules' order */
    uint8_t reserved;            /* 0 (ofc_eval_board() writes it) */
} ofc_board_eval;

/*! @brief Evaluate a complete board: row strengths, foul flag, royalties.
 * @param rules  a rule set (its scalar fields are checked).
 * @param cards  13 card ids: front 3, middle 5, back 5.
 * @param out    receives the result.
 * @return OFC_OK, OFC_E_CARD or OFC_E_DUPLICATE (then *out is unspecified), OFC_E_RULES,
 *         or OFC_E_VALUE (cards or out NULL). */
OFC_API int32_t ofc_eval_board(const ofc_rules *rules, const uint8_t cards[13],
                               ofc_board_eval *out);

/*! @brief ofc_eval_board() without any check, for tight loops.
 * @param rules  a rule set.
 * @param cards  13 card ids: front 3, middle 5, back 5.
 * @param out    receives the result.
 * @pre rules, cards and out are valid pointers, the rule set's scalar fields are in
 *      range (ofc_rules_check()) and cards are 13 distinct ids in 0..51. */
OFC_API void ofc_eval_board_unchecked(const ofc_rules *rules, const uint8_t cards[13],
                                      ofc_board_eval *out);

/*! @brief Foul test of three row strengths under the rules' order (R-FOUL-1).
 * @param rules     a rule set (its scalar fields are checked).
 * @param strength  front (a 3-card strength), middle and back (5-card strengths).
 * @return 1 when fouled, 0 when legal, OFC_E_STRENGTH on a strength of the wrong kind,
 *         OFC_E_RULES, or OFC_E_VALUE (strength NULL). */
OFC_API int32_t ofc_is_foul(const ofc_rules *rules, const uint16_t strength[3]);

/*! @brief The value two boards' hands in a row are compared by (R-CMP-1, R-27-2):
 * the strength, or under a 2-7 rule set (middle_lowball) the middle's ofc_low27()
 * value.  Larger wins the row.
 * @param rules     the rule set; its scalar fields are checked.
 * @param row       OFC_FRONT, OFC_MIDDLE or OFC_BACK.
 * @param strength  a 3-card strength for the front, a 5-card one for the other rows.
 * @return the value (> 0), OFC_E_RULES, OFC_E_VALUE (row out of range), or
 *         OFC_E_STRENGTH (a strength that is not one of the row's). */
OFC_API int32_t ofc_row_value(const ofc_rules *rules, uint32_t row, uint16_t strength);

/*! @brief Batch ofc_eval_board() over n boards of 13 bytes.
 * @param rules     a rule set (its scalar fields are checked).
 * @param cards     n * 13 card ids, board by board.
 * @param n         number of boards.
 * @param strength  receives n * 3 strengths; may be NULL.
 * @param royalty   receives n * 3 royalties; may be NULL.
 * @param foul      receives n foul flags; may be NULL.
 * @param bad       receives the index of the first bad board; may be NULL.
 * @return OFC_OK or the first bad board's error (every board is checked before any
 *         output is written: the outputs are untouched, unless another thread writes
 *         the boards during the call: see Threads);
 *         OFC_E_RULES, or OFC_E_VALUE when n > 0 and cards is NULL or an output
 *         shares a byte with cards or *rules (outputs untouched). */
OFC_API int32_t ofc_eval_boards(const ofc_rules *rules, const uint8_t *cards, size_t n,
                                int32_t *strength, int32_t *royalty, uint8_t *foul,
                                size_t *bad);

/* ---------------------------------------------------------------- scoring */

/*! The result of one pair, seen from player a. */
typedef struct ofc_pair_score {
    int32_t net;         /* points a wins from b (negative: a pays) */
    int8_t rows[3];      /* +1 a won the row, -1 b won it, 0 tie (fouls included) */
    int8_t sweep;        /* +1 a swept, -1 b swept, 0 neither */
    int32_t row_points;  /* row units net of both sides (bonuses of won rows in) */
    int32_t bonus;       /* sweep + majority + overall units, net */
    int32_t royalties;   /* a's royalties minus b's (0 on a fouled side) */
} ofc_pair_score;

/*! Table context of one pair (all zero: an ordinary pair). */
typedef struct ofc_pair_context {
    int8_t ties;          /* 0: a tied row pays nothing; +1: a wins tied rows (a is the
                           * house, R-VAR-HOUSE-1); -1: b wins them */
    uint8_t a_sweeps_all; /* 1: a swept every opponent at the table this deal, so a
                           * sweep of b uses sweep_all_multiplier and sweep_all_bonus */
    uint8_t b_sweeps_all; /* the same for b */
    uint8_t reserved;     /* 0 */
} ofc_pair_context;

/*! @brief Score two evaluated boards (a against b), validating them first.
 * Rows are compared by ofc_row_value() (the strength; the middle's ofc_low27() under
 * a 2-7 rule set); a won row pays the winner's win_value; a fouled board loses every
 * row and earns no royalties; two fouled boards exchange nothing.
 *   units = row units + sweep/majority bonuses, times the sweep multiplier when a side
 *           swept (plus sweep_all_bonus when it swept the whole table);
 *   net   = units + royalties (a's minus b's), then +/- overall_bonus to the winner.
 * @param rules  a rule set (its scalar fields are checked).
 * @param a      an evaluated board: front a 3-card strength, middle and back 5-card
 *               strengths, foul 0 or 1, reserved 0 (royalty values are taken as
 *               given).  An
 *               ofc_board_eval carries no rule set: the foul flag and royalties are
 *               those of the rules ofc_eval_board() was given, which should be `rules`
 *               (the Python EvaluatedBoard keeps its rules and checks them).
 * @param b      the other board, likewise.
 * @param ctx    the pair's table context; NULL for an ordinary pair, else ties -1..1
 *               and *_sweeps_all 0 or 1 (reserved 0).
 * @param out    receives the result (out->net: the net points of a); required.
 * @return OFC_OK, OFC_E_RULES, OFC_E_STRENGTH (a strength of the wrong kind) or
 *         OFC_E_VALUE (a NULL pointer, a foul flag, reserved byte or context field
 *         out of range). */
OFC_API int32_t ofc_score_evals(const ofc_rules *rules, const ofc_board_eval *a,
                                const ofc_board_eval *b, const ofc_pair_context *ctx,
                                ofc_pair_score *out);

/*! @brief ofc_score_evals() without any check, for tight loops over boards from
 * ofc_eval_board().
 * @param rules   a rule set.
 * @param a       an evaluated board.
 * @param b       the other board.
 * @param ctx     the pair's table context, or NULL.
 * @param detail  receives the whole result; may be NULL.
 * @pre rules (scalar fields in range), a and b are valid pointers, the boards are as
 *      ofc_eval_board() fills them and ctx is NULL or in range.
 * @return the net points of a. */
OFC_API int32_t ofc_score_evals_unchecked(const ofc_rules *rules, const ofc_board_eval *a,
                                          const ofc_board_eval *b,
                                          const ofc_pair_context *ctx,
                                          ofc_pair_score *detail);

/*! @brief Evaluate and score two boards of 13 cards (a against b); the 26 cards
 * must be distinct.
 * @param rules  a rule set (its scalar fields are checked).
 * @param a      13 card ids: front 3, middle 5, back 5.
 * @param b      the other board's 13 card ids.
 * @param out    receives the result.
 * @return OFC_OK, OFC_E_CARD, OFC_E_DUPLICATE, OFC_E_RULES or OFC_E_VALUE (a NULL
 *         pointer). */
OFC_API int32_t ofc_score_boards(const ofc_rules *rules, const uint8_t a[13],
                                 const uint8_t b[13], ofc_pair_score *out);

/*! A scored pair with both boards' evaluations (ofc_score_boards_detail()). */
typedef struct ofc_pair_detail {
    ofc_pair_score score; /* a against b */
    ofc_board_eval a;     /* a's rows, royalties and foul */
    ofc_board_eval b;     /* b's */
} ofc_pair_detail;

/*! @brief ofc_score_boards() on one array of both boards, keeping both boards'
 * evaluations: everything a caller reports about a pair, from one call that checks
 * the 26 cards once.
 * @param rules  a rule set (its scalar fields are checked).
 * @param cards  26 card ids: board a (front 3, middle 5, back 5), then board b.
 * @param out    receives the score and both evaluations.
 * @return as ofc_score_boards(). */
OFC_API int32_t ofc_score_boards_detail(const ofc_rules *rules, const uint8_t cards[26],
                                        ofc_pair_detail *out);

/*! @brief Batch ofc_score_boards(): boards a[i] and b[i] (13 bytes each) give
 * net[i].
 * @param rules  a rule set (its scalar fields are checked).
 * @param a      n * 13 card ids.
 * @param b      n * 13 card ids.
 * @param n      number of pairs.
 * @param net    receives the n net points of the a boards.
 * @param bad    receives the index of the first bad pair; may be NULL.
 * @return OFC_OK or the first bad pair's error (every pair is checked before net
 *         is written: net is untouched, unless another thread writes the boards
 *         during the call: see Threads);
 *         OFC_E_RULES, or OFC_E_VALUE when n > 0 and a, b or net is NULL or net
 *         shares a byte with a, b or *rules (net untouched). */
OFC_API int32_t ofc_score_pairs(const ofc_rules *rules, const uint8_t *a, const uint8_t *b,
                                size_t n, int32_t *net, size_t *bad);

#ifdef __cplusplus
}
#endif

/* Companion headers, part of the public API: naturals (13-card special hands), the
 * solvers (Fantasyland, 13-card arranger), table settlement and the game engine. */
#include "ofc_naturals.h"
#include "ofc_solver.h"
#include "ofc_settle.h"
#include "ofc_game.h"

#endif /* OFC_FAST_H */
