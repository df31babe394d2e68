/*
 * ofc_solver.h -- exact solvers on top of ofc_fast.h: the Fantasyland setter (13 to 17
 * cards, keep 13) and the 13-card arranger (best of the 72,072 splits).  Plain C99, no
 * global mutable state, thread-safe; each solve allocates one work block (about 0.5 MB
 * for 17 cards) with malloc() and frees it before returning.
 *
 * Method
 * ------
 * Branch-and-bound over the (back, middle, front) choices, exact: a board is scored
 * as   value = row value(front) + row value(middle) + row value(back) + coupling
 * where the row values are royalties (plus a tie-break) and the coupling is the
 * Fantasyland stay bonus (or, for the expected-points objective, the sweep and
 * majority terms).  Every 5-card and 3-card hand of the input is ranked once; backs
 * are taken best bound first from a heap; a back, a (back, middle) pair and a leaf are
 * skipped only when an upper bound of everything below them (the best legal middle
 * and front values, each plus the largest coupling it can trigger) cannot beat the
 * best board found so far.  The bounds never under-estimate, so the result is the
 * optimum: tests/test_solver.py checks it against brute force over every subset and
 * split.  Only legal (non-fouling) boards are searched; when none exists the result
 * is a fouled stand-in flagged with `foul` = 1.
 *
 * Objectives
 * ----------
 * Fantasyland: royalties + stay_value[next cards - 13] when the board keeps
 *   Fantasyland under the ofc_fl_rules (0 otherwise).  Ties (equal value) are broken
 *   towards the board with the most expected rows won minus rows lost against the
 *   typical opponent (needs an ofc_ev_tables).
 * OFC_OBJECTIVE_ROYALTIES: royalties, ties broken the same way.
 * OFC_OBJECTIVE_EV: expected net points against one typical opponent (see
 *   ofc_ev_tables), the opponent's expected royalties (a constant) left out; computed
 *   in fixed point (2^-32 point), ties broken towards the larger sum of the three row
 *   strengths, so the result does not depend on the search order.
 *
 * Example
 * -------
 * @code
 * static ofc_rules r;                                 // 95 KB: not on a small stack
 * static ofc_ev_tables ev;                            // 380 KB: not on the stack
 * ofc_fl_rules fl;
 * ofc_fl_solution sol;
 * const double stay[5] = {0, 10.0, 0, 0, 0};          // staying (14 cards) = 10
 * const uint8_t cards[14] = {51, 47, 43, 39, 35,      // As Ks Qs Js Ts
 *                            30, 29, 28, 10, 9,       // 9h 9d 9c 4h 4d
 *                            0, 4, 15, 21};           // 2c 3c 5s 7d
 * assert(ofc_rules_init_ofc(&r) == OFC_OK);
 * assert(ofc_fl_rules_init_standard(&fl, 14) == OFC_OK);
 * assert(ofc_ev_tables_init(&r, &ev) == OFC_OK);
 * assert(ofc_solve_fantasyland(&r, &fl, &ev, cards, 14, stay, 0, &sol) == OFC_OK);
 * // sol.best.board: front 3, middle 5, back 5; one card discarded
 * assert(!sol.best.foul && sol.best.n_discards == 1 && sol.best.royalties >= 37);
 * @endcode
 */
/* ofc_fast.h first, outside the guard: it includes this header at its end, after its
 * own declarations, so that either header may be included first. */
#include "ofc_fast.h"

#ifndef OFC_SOLVER_H
#define OFC_SOLVER_H

#include <stddef.h>
#include <stdint.h>

#include "ofc_export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* --------------------------------------------------------------- constants */

#define OFC_SOLVER_MIN_CARDS 13
#define OFC_SOLVER_MAX_CARDS 17
#define OFC_STAY_VALUE_LIMIT 100000.0 /* |stay value| must not exceed this */

/* Status codes of the solvers beyond ofc_status (ofc_fast.h). */
#define OFC_E_MEMORY (-16) /* the work block could not be allocated */
/* OFC_E_VALUE (ofc_fast.h): a value argument out of range (stay value, objective,
 * missing ev tables, empty opponent counts). */

/* ofc_fl_rules.stay_cards: besides a fixed count 13..17, */
#define OFC_FL_STAY_SAME 0  /* as many cards as this Fantasyland hand (Ultimate) */
#define OFC_FL_STAY_ENTRY 1 /* the entry table, as if entering again (else the least
                             * entry count) */
#define OFC_FL_MAX_ENTRY 8

/* ofc_solve_fantasyland() flags. */
#define OFC_SOLVE_ALTERNATIVES 1u /* also fill best_stay and best_no_stay */

/*! Objectives of ofc_best_setting(). */
typedef enum ofc_objective {
    OFC_OBJECTIVE_ROYALTIES = 0, /* most royalties */
    OFC_OBJECTIVE_EV = 1         /* most expected points against a typical opponent */
} ofc_objective;

/* ------------------------------------------------------ Fantasyland rules */

/*! Fantasyland entry and stay conditions (R-FL-*, R-27-6/7), compiled from a rule set.
 * Strength thresholds are on the ofc_fast.h scale; a condition holds when the row's
 * strength is >= its threshold; 0 = no such condition.  A fouled board never enters
 * or stays. */
typedef struct ofc_fl_rules {
    uint8_t enabled;       /* 0: the rules have no Fantasyland; nothing ever stays */
    uint8_t stay_cards;    /* cards after a stay: 13..17, OFC_FL_STAY_SAME or
                            * OFC_FL_STAY_ENTRY */
    uint8_t n_entry;       /* entries used in entry_front / entry_cards (0..8) */
    uint8_t lowball_entry; /* 2-7: cards for a 7-5-4-3-2 middle alone (0 = none) */
    uint8_t lowball_both;  /* 2-7: cards when the front and that middle both qualify */
    uint8_t reserved[3];   /* 0 */
    uint16_t stay_front;   /* weakest 3-card front that stays (e.g. trip deuces) */
    uint16_t stay_middle;  /* weakest 5-card middle that stays (ignored under 2-7) */
    uint16_t stay_back;    /* weakest 5-card back that stays (e.g. the lowest quads) */
    uint16_t entry_front[OFC_FL_MAX_ENTRY]; /* weakest front of each entry ... */
    uint8_t entry_cards[OFC_FL_MAX_ENTRY];  /* ... and its cards (13..17); the best
                                             * entry met (the highest threshold, then
                                             * the most cards) gives the cards */
} ofc_fl_rules;

/*! @brief The common rule: entry on a front of Q-Q or better, stay on front trips, a full
 * house or better in the middle or quads or better in the back; `cards` (13..17) for
 * both entry and stay (PINEAPPLE: 14).
 * @param fl     the struct to fill.
 * @param cards  13..17.
 * @return OFC_OK, or OFC_E_VALUE when fl is NULL or cards is outside 13..17. */
OFC_API int32_t ofc_fl_rules_init_standard(ofc_fl_rules *fl, int32_t cards);

/*! @brief Check every field of Fantasyland rules.
 * @param fl  the rules; may be NULL.
 * @return OFC_OK when every field is in range, else OFC_E_RULES (NULL included). */
OFC_API int32_t ofc_fl_rules_check(const ofc_fl_rules *fl);

/*! @brief Fantasyland cards earned by a finished board: the one implementation of the
 *        entry and stay rules (Python's fantasyland_cards() calls it).
 * @param rules        a valid rule set (its order decides fouls, its 2-7 flag the
 *                     lowball entry);
 * @param fl           its Fantasyland rules, or NULL (no Fantasyland: 0);
 * @param board        13 card ids: front 3, middle 5, back 5;
 * @param in_fl_cards  0 for a normal hand (entry rule), or the cards of this
 *                     Fantasyland hand, 13..17 (stay rule).
 * @pre  nothing: every argument is validated.
 * @return the cards for the next deal (0 = none; a fouled board never qualifies).
 *         Entry: the best threshold met gives the cards; 2-7: a 7-5-4-3-2 middle
 *         gives lowball_entry, or lowball_both together with a front that enters.
 *         Stay: stay_cards, or in_fl_cards (OFC_FL_STAY_SAME), or the entry count
 *         (OFC_FL_STAY_ENTRY; a board that would not enter gets the smallest entry
 *         count).  Errors: OFC_E_CARD / OFC_E_DUPLICATE, OFC_E_RULES, OFC_E_COUNT
 *         (in_fl_cards not 0 or 13..17, or board NULL). */
OFC_API int32_t ofc_fl_next_cards(const ofc_rules *rules, const ofc_fl_rules *fl,
                                  const uint8_t board[13], uint32_t in_fl_cards);

/* ------------------------------------------------- expected-points tables */

/*! Per row and strength, what a row of that strength is worth against the same row
 * of a typical opponent.  Built from an opponent row-strength distribution by
 * ofc_ev_tables_init() (the shipped one, see tools/gen_opponent_rows.py) or
 * ofc_ev_tables_init_counts(); about 380 KB, so allocate it statically or on the
 * heap.  Entries for strengths a row cannot hold are 0.
 *
 * The expected points of a board (s_f, s_m, s_b) against one opponent, taking the
 * opponent's three rows as independent draws from the distribution, are
 *     sum_r units[r][s_r] + own royalties
 *   + sweep_bonus    * (W_f W_m W_b - L_f L_m L_b)
 *   + majority_bonus * (P(a majority of rows won) - P(lost))
 *   + (sweep_multiplier - 1) * (the swept side's units and bonus, by the same model)
 * with W = win, L = lose.  Not modelled: opponent fouls, naturals, overall bonus,
 * table-wide sweeps, house ties.  Under a 2-7 middle no opponent data exist: the
 * middle's win/lose are its share of the 7,462 low-hand classes below/above it. */
typedef struct ofc_ev_tables {
    float win[OFC_ROWS][OFC_STRENGTH_TABLE_SIZE];   /* P(opponent row weaker) */
    float lose[OFC_ROWS][OFC_STRENGTH_TABLE_SIZE];  /* P(opponent row stronger) */
    float units[OFC_ROWS][OFC_STRENGTH_TABLE_SIZE]; /* expected row units: win times
                                                     * own win value minus
                                                     * lose_units */
    float lose_units[OFC_ROWS][OFC_STRENGTH_TABLE_SIZE]; /* E[opponent's win value;
                                                          * opponent stronger] */
} ofc_ev_tables;

/*! @brief Tables for a rule set (its win values) from the shipped opponent
 * distribution.
 * @param rules  the rule set; fully checked (ofc_rules_check()).
 * @param out    receives the tables.
 * @return OFC_OK, or OFC_E_RULES / OFC_E_VALUE on NULL or bad rules (OFC_E_VALUE
 *         also for out sharing a byte with *rules: out untouched). */
OFC_API int32_t ofc_ev_tables_init(const ofc_rules *rules, ofc_ev_tables *out);

/*! @brief ofc_ev_tables_init() from your own opponent distribution.
 * @param rules   the rule set; fully checked (ofc_rules_check()).
 * @param counts  3 x 7918 counts: counts[row * 7918 + strength] = how often the
 *                opponent's row had that strength (front 3-card strengths, middle and
 *                back 5-card; other entries ignored).
 * @param out     receives the tables.
 * @return OFC_OK, OFC_E_RULES, or OFC_E_VALUE (counts or out NULL, out sharing a byte
 *         with *rules or counts: out untouched, or a row with no count).  Each row of
 *         counts is copied once to the stack (about 32 KB). */
OFC_API int32_t ofc_ev_tables_init_counts(const ofc_rules *rules, const uint32_t *counts,
                                          ofc_ev_tables *out);

/*! @brief The shipped opponent distribution.
 * @param deals  receives the number of simulated deals behind it; may be NULL.
 * @return 3 x 7918 counts, row-major as ofc_ev_tables_init_counts() reads them
 *         (static storage). */
OFC_API const uint32_t *ofc_ev_opponent_counts(uint32_t *deals);

/*! @brief Expected points of a complete board under the model above (own royalties
 * included); a fouled board gets the points it loses to a clean opponent.
 * @param rules  the rule set (its scalar fields are checked).
 * @param ev     its tables.
 * @param board  13 card ids: front 3, middle 5, back 5.
 * @param value  receives the expected points.
 * @return OFC_OK, OFC_E_CARD, OFC_E_DUPLICATE, OFC_E_RULES, OFC_E_VALUE (ev or value
 *         NULL) or OFC_E_COUNT (board NULL). */
OFC_API int32_t ofc_ev_board(const ofc_rules *rules, const ofc_ev_tables *ev,
                             const uint8_t board[13], double *value);

/* ------------------------------------------------------------ the solvers */

/*! A setting: one way to set 13 of the cards. */
typedef struct ofc_setting {
    uint8_t board[13];     /* front 3, middle 5, back 5; each row high card first */
    uint8_t discards[4];   /* the cards not kept, in input order */
    uint8_t n_discards;
    uint8_t found;         /* 1 when this setting exists (an alternative may not) */
    uint8_t foul;          /* 1: no legal setting exists; this is a fouled stand-in
                            * (royalties 0, never stays) */
    uint8_t stays;         /* 1: keeps Fantasyland */
    uint8_t next_cards;    /* Fantasyland cards next deal when stays, else 0 */
    uint8_t reserved;
    uint16_t strength[3];  /* front, middle, back */
    int16_t royalty[3];    /* per row; 0 when foul */
    int32_t royalties;     /* their sum */
    double value;          /* the objective: royalties + stay value, or expected points */
} ofc_setting;

/*! Result of ofc_solve_fantasyland(). */
typedef struct ofc_fl_solution {
    ofc_setting best;         /* the optimum */
    ofc_setting best_stay;    /* with OFC_SOLVE_ALTERNATIVES: the best legal setting
                               * that keeps Fantasyland (found = 0 when none) */
    ofc_setting best_no_stay; /* ... and the best legal one that does not */
    uint64_t nodes;           /* search effort: (back, middle) pairs and leaves
                               * examined */
} ofc_fl_solution;

/*! @brief The provably best setting of 13 of n cards (13..17), maximising royalties plus the
 * stay value when the board keeps Fantasyland; never a fouled board when a legal one
 * exists.
 * @param rules       the rule set (2-7 middle included; its scalar fields are
 *                    checked).
 * @param fl          its Fantasyland rules (checked), or NULL (nothing stays).
 * @param ev          tables for the tie-break, or NULL (ties: the first board found).
 * @param cards       n distinct card ids.
 * @param n           13..17.
 * @param stay_value  5 values: the worth of staying with 13, 14, 15, 16, 17 cards next
 *                    deal (|v| <= OFC_STAY_VALUE_LIMIT, searched to 2^-16 of a
 *                    point; a nonzero one smaller than that counts 2^-16 with its
 *                    sign, so it still decides a tie of royalties), or NULL (all 0).
 * @param flags       0 or OFC_SOLVE_ALTERNATIVES (about twice the work); any other
 *                    bit is refused (OFC_E_VALUE).
 * @param out         receives the result (best.value = royalties + stay value).
 * In a stay_cards == OFC_FL_STAY_SAME rule set the hand is taken to be an n-card
 * Fantasyland hand.
 * @return OFC_OK, OFC_E_COUNT (n outside 13..17, or cards NULL), OFC_E_CARD,
 *         OFC_E_DUPLICATE, OFC_E_RULES, OFC_E_VALUE (out NULL or sharing a byte with
 *         *rules, *fl, *ev, cards or stay_value: out untouched; a stay value out of
 *         range, an unknown flag) or OFC_E_MEMORY. */
OFC_API int32_t ofc_solve_fantasyland(const ofc_rules *rules, const ofc_fl_rules *fl,
                                      const ofc_ev_tables *ev, const uint8_t *cards,
                                      size_t n, const double *stay_value, uint32_t flags,
                                      ofc_fl_solution *out);

/*! @brief The best of the 72,072 ways to set 13 cards for an objective; never a
 * fouled board when a legal one exists.
 * @param rules      the rule set (its scalar fields are checked).
 * @param ev         its tables: required for OFC_OBJECTIVE_EV, the tie-break for
 *                   OFC_OBJECTIVE_ROYALTIES (may be NULL there).
 * @param cards      13 distinct card ids.
 * @param objective  an ofc_objective.
 * @param out        receives the setting.
 * @return OFC_OK, OFC_E_CARD, OFC_E_DUPLICATE, OFC_E_RULES, OFC_E_VALUE (bad objective,
 *         missing ev, out NULL), OFC_E_COUNT (cards NULL) or OFC_E_MEMORY. */
OFC_API int32_t ofc_best_setting(const ofc_rules *rules, const ofc_ev_tables *ev,
                                 const uint8_t cards[13], uint32_t objective,
                                 ofc_setting *out);

/*! @brief Batch ofc_best_setting().
 * @param rules      the rule set (its scalar fields are checked).
 * @param ev         its tables (as ofc_best_setting()).
 * @param cards      n hands of 13 card ids: hand i is cards[13*i .. 13*i+12].
 * @param n          number of hands.
 * @param objective  an ofc_objective.
 * @param boards     receives board i at boards[13*i ..]; may be NULL.
 * @param values     receives value i at values[i]; may be NULL.
 * @param bad        receives the index of the first bad hand; may be NULL.
 * @return OFC_OK, the first bad hand's error (OFC_E_CARD, OFC_E_DUPLICATE), or
 *         OFC_E_RULES, OFC_E_VALUE (also boards or values sharing a byte with cards,
 *         *rules or *ev, nothing written: they would overwrite hands not yet read or
 *         what the next hands read; boards == cards sets the hands in place),
 *         OFC_E_COUNT (cards NULL with n > 0),
 *         OFC_E_MEMORY. */
OFC_API int32_t ofc_best_settings(const ofc_rules *rules, const ofc_ev_tables *ev,
                                  const uint8_t *cards, size_t n, uint32_t objective,
                                  uint8_t *boards, double *values, size_t *bad);

#ifdef __cplusplus
}
#endif

#endif /* OFC_SOLVER_H */
