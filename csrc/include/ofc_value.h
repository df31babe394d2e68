/*
 * ofc_value.h -- the learned value of an after-state (a seat's board after a
 * placement): the feature vector the model reads, the value of a board, the best
 * placement of dealt cards by that value, and the labels of backward induction.
 * Plain C99, no allocation, no global mutable state; every input is const, so any
 * number of threads may share one context.
 *
 * The value of a board
 * --------------------
 *   a complete board (13 cards):  ofc_ev_board() (its expected points against a
 *       typical opponent, royalties included; a foul loses to a clean board: the
 *       context's tables, which for a model are those of ofc_value_ev_tables())
 *       + fl_value[the Fantasyland cards it earns] (legal boards; in_fl: stay rule);
 *   a partial board of c cards:   the model's net for c cards (ofc_model.h) on the
 *       features below.
 * Feature set 1 (OFC_VF_N = 64 floats): per row (front, middle, back; 18 each):
 *   fill (cards / size), full, pairs / 2, trips, quads, the rank of the largest
 *   group, the highest and second-highest rank, a flush draw (every card one suit,
 *   5-card rows), the live cards of that suit, a straight draw (distinct ranks
 *   within five, 5-card rows), its live outs, live cards pairing the row, live cards
 *   of the largest group's rank, and for a full row its category, royalty and
 *   expected units (ofc_ev_tables.units); then a made-hand score per row.  Then the
 *   board: cards / 13, live cards / 52, players / 4, the score differences front -
 *   middle and middle - back, full rows that already foul, a front pair of queens or
 *   better, live queens, kings and aces, the royalties of full rows, and 1.
 * Live cards: the 52 less the board and `dead` (every card the seat knows is out of
 * the deck: other boards' visible cards, its own discards).
 *
 * Example: a complete board is valued exactly (no model needed)
 * ------------------------------------------------------------------
 * @code
 * static ofc_rules rules;                           // 95 KB
 * static ofc_ev_tables ev;                          // 380 KB
 * ofc_value_ctx c = {&rules, NULL, &ev, NULL, {0}, 2, 0};   // no Fantasyland term
 * const uint8_t board[13] = {42, 41, 0,             // Qh Qd 2c
 *                            31, 30, 29, 12, 13,    // 9s 9h 9d 5c 5d
 *                            51, 47, 43, 39, 35};   // As Ks Qs Js Ts
 * float f[OFC_VF_N];
 * double v, ref;
 * assert(ofc_rules_init_ofc(&rules) == OFC_OK && ofc_ev_tables_init(&rules, &ev) == OFC_OK);
 * assert(ofc_value_features(&c, board, 0, f) == OFC_OK && f[60] == 1.0f);  // QQ front
 * assert(ofc_value_board(&c, board, 0, &v) == OFC_OK);
 * assert(ofc_ev_board(&rules, &ev, board, &ref) == OFC_OK && v == ref);
 * @endcode
 */
#ifndef OFC_VALUE_H
#define OFC_VALUE_H

#include <stddef.h>
#include <stdint.h>

#include "ofc_fast.h"
#include "ofc_model.h"
#include "ofc_solver.h"

#include "ofc_export.h"

#ifdef __cplusplus
extern "C" {
#endif

#define OFC_VF_SET 1        /* the feature set of this header */
#define OFC_VF_N 64         /* its features */
#define OFC_VF_FL_VALUES 18 /* fl_value[0..17] (as ofc_search_model) */

/*! What valuing a board needs (share it read-only). */
typedef struct ofc_value_ctx {
    const ofc_rules *rules;     /* a valid rule set */
    const ofc_fl_rules *fl;     /* its Fantasyland rules, or NULL (no Fantasyland term) */
    const ofc_ev_tables *ev;    /* its expected-points tables (required) */
    const ofc_vmodel *model;    /* a parsed model (feature set 1), or NULL: complete
                                 * boards only */
    double fl_value[OFC_VF_FL_VALUES]; /* worth of k Fantasyland cards next deal */
    uint32_t players;           /* seats at the table, 2..4 (a feature) */
    uint32_t in_fl;             /* 0, or 13..17: the stay rule for complete boards */
} ofc_value_ctx;

/*! ofc_value_ctx_check():
 * @brief Checks a context: rules (its scalar fields) and ev present, fl NULL or
 *        passing ofc_fl_rules_check(), a model of feature set 1 with OFC_VF_N inputs
 *        (or NULL), players 2..4 and the model's (unless it was trained for any
 *        count: players 0), in_fl 0 or 13..17, every fl_value finite with
 *        |v| <= 1e6.
 * @param c  the context.
 * @pre the model was trained for these rules: not checked here (its rules_hash is
 *      the Python fingerprint of the whole rule set, ofc_model.h, which the C
 *      structs do not all hold); a model of other rules gives values of the wrong
 *      game, silently.  The Python layer checks it (ValueModel.check_rules).
 * @return OFC_OK, OFC_E_RULES (rules, ev or fl), OFC_E_VALUE (c NULL, an fl_value),
 *         OFC_E_MODEL_SHAPE or OFC_E_COUNT (players or in_fl out of range, or players
 *         not the model's). */
OFC_API int32_t ofc_value_ctx_check(const ofc_value_ctx *c);

/*! ofc_value_ev_tables():
 * @brief The expected-points tables a model's values are computed against (the `ev`
 *        of its contexts, and of a search that uses it): built from the opponent
 *        rows its file carries (ofc_model.h, format 2), else from the shipped
 *        typical opponent (ofc_ev_tables_init()).
 * @param rules  the rule set; fully checked (ofc_rules_check());
 * @param model  a parsed model, or NULL (the shipped typical opponent);
 * @param out    receives the tables (about 380 KB).
 * @pre the model was parsed by ofc_vm_parse() (its opponent rows checked there).
 * @return OFC_OK, or the errors of ofc_ev_tables_init_counts(). */
OFC_API int32_t ofc_value_ev_tables(const ofc_rules *rules, const ofc_vmodel *model,
                                    ofc_ev_tables *out);

/*! ofc_value_features():
 * @brief The features of a board (see the top of this header).
 * @param c      a context (ofc_value_ctx_check(); its model is not used);
 * @param board  13 slots, each row's cards first then OFC_NO_CARD;
 * @param dead   bit mask of cards out of the deck (bit i: card i), none on the board;
 * @param out    OFC_VF_N features.
 * @return OFC_OK, OFC_E_VALUE (NULL pointer; a context that ofc_value_ctx_check()
 *         refuses with OFC_E_VALUE or OFC_E_RULES; out sharing a byte with *c or the
 *         rules, tables or model it points to: nothing written), OFC_E_MODEL_SHAPE
 *         or OFC_E_COUNT (the context's, as ofc_value_ctx_check()), OFC_E_CARD (a
 *         card out of range, a card after a gap), OFC_E_DUPLICATE (a card twice, or
 *         on the board and dead). */
OFC_API int32_t ofc_value_features(const ofc_value_ctx *c, const uint8_t board[13],
                                   uint64_t dead, float out[OFC_VF_N]);

/*! ofc_value_board():
 * @brief The value of a board (see the top of this header).
 * @param c      as ofc_value_features();
 * @param board  as ofc_value_features();
 * @param dead   as ofc_value_features();
 * @param out    receives the value.
 * @return OFC_OK, the errors of ofc_value_features(), OFC_E_MODEL_NO_NET (a partial
 *         board the model has no net for, or no model). */
OFC_API int32_t ofc_value_board(const ofc_value_ctx *c, const uint8_t board[13],
                                uint64_t dead, double *out);

/*! ofc_value_actions():
 * @brief The value of the board after each candidate action of a decision (its
 *        discards join the dead cards).
 * @param c          a context;
 * @param board      the board before the decision;
 * @param dealt      n dealt cards (1..5);  @param n  how many;  @param k  discards;
 * @param dead       cards out of the deck, neither on the board nor dealt;
 * @param actions    n_actions action ids (ofc_game.h);
 * @param n_actions  how many (<= OFC_ACTION_SPACE);
 * @param values     n_actions values out.
 * @return OFC_OK, OFC_E_ACTION (an id that does not exist or does not fit the
 *         board), OFC_E_COUNT (n outside 1..5, or k not below n), OFC_E_VALUE
 *         (actions or values NULL with n_actions > 0, n_actions over
 *         OFC_ACTION_SPACE, values sharing a byte with *c or the rules, tables or
 *         model it points to: nothing written), OFC_E_CARD / OFC_E_DUPLICATE (a
 *         dealt card out of range, twice, on the board or dead), the errors of
 *         ofc_value_board(). */
OFC_API int32_t ofc_value_actions(const ofc_value_ctx *c, const uint8_t board[13],
                                  const uint8_t *dealt, uint32_t n, uint32_t k,
                                  uint64_t dead, const uint8_t *actions, uint32_t n_actions,
                                  double *values);

/*! ofc_value_best():
 * @brief The legal action of largest value (ties: the smallest id).
 * @param c       as ofc_value_actions();
 * @param board   as ofc_value_actions();
 * @param dealt   as ofc_value_actions();
 * @param n       as ofc_value_actions();
 * @param k       as ofc_value_actions();
 * @param dead    as ofc_value_actions();
 * @param action  receives its id (may be NULL);
 * @param after   receives the board after it (may be NULL);
 * @param value   receives its value (may be NULL).
 * @return as ofc_value_actions(); OFC_E_ACTION when (n, k) does not fit the board. */
OFC_API int32_t ofc_value_best(const ofc_value_ctx *c, const uint8_t board[13],
                               const uint8_t *dealt, uint32_t n, uint32_t k, uint64_t dead,
                               uint8_t *action, uint8_t after[13], double *value);

/*! ofc_value_expect():
 * @brief A label of backward induction: the mean, over `samples` draws, of the best
 *        value of the next decision.  Draw i (stream {ofc_random64(seed, i), 0})
 *        deals n live cards to the seat and `reveal` more (the cards the other seats
 *        show on that street) that join the dead cards.
 * @param c         as ofc_value_features() (a partial board);
 * @param board     as ofc_value_features() (a partial board);
 * @param dead      as ofc_value_features() (a partial board);
 * @param n        the next decision's cards;
 * @param k        its discards;
 * @param reveal   cards the other seats show meanwhile (0..20);
 * @param seed     the stream's key;  @param samples  draws (1..1e6);
 * @param mean     receives the mean;  @param var  receives the variance of the
 *                 draws' values (may be NULL).
 * @return OFC_OK, OFC_E_COUNT (too few live cards, bad counts), the errors of
 *         ofc_value_best(). */
OFC_API int32_t ofc_value_expect(const ofc_value_ctx *c, const uint8_t board[13],
                                 uint64_t dead, uint32_t n, uint32_t k, uint32_t reveal,
                                 uint64_t seed, uint32_t samples, double *mean,
                                 double *var);

#ifdef __cplusplus
}
#endif

#endif /* OFC_VALUE_H */
