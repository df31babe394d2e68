/*
 * ofc_heuristic.h -- the board-value kernels of the heuristic bot (ofc_fast.bots
 * HeuristicBot): value many complete boards, and score candidate moves over sampled
 * futures, in one call each.  Plain C99, no global mutable state, no allocation,
 * thread-safe (every input is const).
 *
 * The value of a complete board (front, middle, back strengths s_f, s_m, s_b) under a
 * model m is
 *     foul_value                                          when the board fouls, else
 *     sum_r m.row[r][s_r].value
 *   + m.sweep    * (W_f W_m W_b - L_f L_m L_b)
 *   + m.majority * (M(W) - M(L))
 *   + m.fl_value[next Fantasyland cards]                  (when fl is not NULL)
 * with W_r = m.row[r][s_r].win, L_r = m.row[r][s_r].lose and
 * M(x) = x_f x_m + x_f x_b + x_m x_b - 2 x_f x_m x_b.  The Python side fills the
 * model (royalties plus the rows' expected points against a typical board, the
 * chances of winning / losing each row, the Fantasyland bonus); the next Fantasyland
 * cards come from the one entry / stay rule of ofc_solver.h (ofc_fl_next_cards()).
 *
 * Example
 * -------
 * @code
 * static ofc_rules rules;                  // 95 KB: not on a small stack
 * static ofc_heur_model m;                 // 380 KB: not on the stack; all 0 here
 * const uint8_t boards[26] = {
 *     42, 41, 0, 31, 30, 29, 12, 13, 51, 47, 43, 39, 35,   // legal
 *     51, 50, 49, 0, 5, 10, 15, 20, 1, 6, 11, 16, 21};     // front aces: fouls
 * double v[2];
 * assert(ofc_rules_init_ofc(&rules) == OFC_OK);
 * m.foul_value = -9.0;  // ... and m.row[r][s] (value, win, lose), m.sweep, m.majority
 * assert(ofc_heur_model_check(&m) == OFC_OK);
 * assert(ofc_heur_values(&rules, NULL, &m, boards, 2, 0, v, NULL) == OFC_OK);
 * assert(v[0] == 0.0 && v[1] == -9.0);
 * @endcode
 */
#ifndef OFC_HEURISTIC_H
#define OFC_HEURISTIC_H

#include <stddef.h>
#include <stdint.h>

#include "ofc_fast.h"
#include "ofc_solver.h"

#include "ofc_export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A template byte below this is a slot (index into the fill); at or above it, the
 * card (byte - OFC_HEUR_CARD). */
#define OFC_HEUR_CARD 64
#define OFC_HEUR_MAX_SLOTS 13
#define OFC_HEUR_MAX_ROWS 512   /* row templates of each kind in one call */
#define OFC_HEUR_MAX_FUTURE 39 /* future cards of one sample: at most 52 - 13 */
#define OFC_HEUR_FL_VALUES 18 /* fl_value[0..17]: by next Fantasyland cards */

/*! One row at one strength: its additive value and its chances against the same row
 * of a typical opponent. */
typedef struct ofc_heur_row {
    float value; /* royalty plus weighted expected row points */
    float win;   /* chance the row beats the opponent's row */
    float lose;  /* chance it loses to it */
    float reserved; /* 0: all bits 0 (+0.0f; -0.0f and NaN are refused) */
} ofc_heur_row;

/*! The value model (about 380 KB): per row and strength, then the coupling weights. */
typedef struct ofc_heur_model {
    ofc_heur_row row[OFC_ROWS][OFC_STRENGTH_TABLE_SIZE];
    double sweep;                         /* weight of W_f W_m W_b - L_f L_m L_b */
    double majority;                      /* weight of M(W) - M(L) */
    double foul_value;                    /* value of a fouled board */
    double fl_value[OFC_HEUR_FL_VALUES];  /* value of k Fantasyland cards next deal */
} ofc_heur_model;

/*! ofc_heur_model_check():
 * @brief Checks that every number of a model is finite and every row's reserved
 *        field 0 (all bits 0: +0.0f).
 * @param m  the model (may be NULL: rejected).
 * @return OFC_OK, or OFC_E_VALUE on NULL, a NaN / infinite entry or a reserved field
 *         whose bits are not all 0 (NaN and -0.0f included). */
OFC_API int32_t ofc_heur_model_check(const ofc_heur_model *m);

/*! ofc_heur_values():
 * @brief The value (see the top of this header) of n complete boards.
 * @param rules   a valid rule set;
 * @param fl      its Fantasyland rules, or NULL (no Fantasyland term);
 * @param m       the model;
 * @param boards  n boards of 13 card ids (front 3, middle 5, back 5);
 * @param n       number of boards (0 allowed);
 * @param in_fl   0: the boards finish a normal hand (entry rule); 13..17: an
 *                in_fl-card Fantasyland hand (stay rule);
 * @param out     n values;
 * @param bad     on a card error, the index of the first bad board (may be NULL).
 * @pre  m passed ofc_heur_model_check() (else values may be NaN; never a crash).
 * @return OFC_OK, OFC_E_RULES (rules or fl invalid, pointer NULL), OFC_E_COUNT
 *         (in_fl not 0 or 13..17), OFC_E_VALUE (m, boards or out NULL with n > 0, or
 *         out sharing a byte with boards, *rules, *fl or *m: nothing written),
 *         OFC_E_CARD or OFC_E_DUPLICATE (outputs before *bad are filled). */
OFC_API int32_t ofc_heur_values(const ofc_rules *rules, const ofc_fl_rules *fl,
                                const ofc_heur_model *m, const uint8_t *boards, size_t n,
                                uint32_t in_fl, double *out, size_t *bad);

/*! Candidate moves as row templates.  A template byte is a card (OFC_HEUR_CARD + id)
 * or a slot (0 .. n_slots - 1: the card a fill puts there).  Move c is the board
 * (fronts[moves[3c]], fives[moves[3c + 1]], fives[moves[3c + 2]]): moves that share a
 * row share its template, so each distinct row is ranked once per fill. */
typedef struct ofc_heur_rows {
    const uint8_t *fronts;  /* n_fronts x 3 template bytes */
    size_t n_fronts;        /* at most OFC_HEUR_MAX_ROWS */
    const uint8_t *fives;   /* n_fives x 5 template bytes (middles and backs) */
    size_t n_fives;         /* at most OFC_HEUR_MAX_ROWS */
    const uint16_t *moves;  /* n_moves x 3 row indices: front, middle, back */
    size_t n_moves;
} ofc_heur_rows;

/*! ofc_heur_score_moves():
 * @brief Scores candidate moves over sampled futures: for move c and fill p of sample
 *        k, the board is the move's rows with slot j holding
 *        fills[(k * n_fills + p) * n_slots + j]; the score is
 *        scores[c] = mean over k of ( optimism * max over p of value
 *                                   + (1 - optimism) * mean over p of value ).
 * @param rules      a valid rule set;
 * @param fl         its Fantasyland rules, or NULL;
 * @param m          the model;
 * @param rows       the moves (n_moves may be 0);
 * @param fills      n_samples x n_fills x n_slots card ids (may be NULL when
 *                   n_slots is 0);
 * @param n_samples  samples k (>= 1 when there are moves);
 * @param n_fills    fills p per sample (>= 1 when there are moves);
 * @param n_slots    slots per fill, 0..13;
 * @param in_fl      as in ofc_heur_values();
 * @param optimism   0..1: weight of the best fill against the mean one;
 * @param scores     n_moves scores.
 * @pre  m passed ofc_heur_model_check().
 * @return OFC_OK, OFC_E_RULES, OFC_E_COUNT (in_fl, n_slots, n_samples, n_fills or a
 *         row count out of range, or counts whose product overflows: fills or moves
 *         of SIZE_MAX bytes or more, which no array holds; nothing written),
 *         OFC_E_VALUE (NULL pointer, optimism outside 0..1, a template byte that is
 *         neither a card nor a slot below n_slots, a row index out of range, a slot
 *         used twice in a move, scores sharing a byte with *rules, *fl, *m, the
 *         moves or the fills: nothing written), OFC_E_CARD / OFC_E_DUPLICATE (a card
 *         repeated in a move or in a fill, or a fill's card among the templates'
 *         cards); on error scores is unspecified. */
OFC_API int32_t ofc_heur_score_moves(const ofc_rules *rules, const ofc_fl_rules *fl,
                                     const ofc_heur_model *m, const ofc_heur_rows *rows,
                                     const uint8_t *fills, size_t n_samples, size_t n_fills,
                                     size_t n_slots, uint32_t in_fl, double optimism,
                                     double *scores);

/*! ofc_heur_sample():
 * @brief Sampled futures and ways to fill the slots from them, for
 *        ofc_heur_score_moves().  Per sample k: n_future distinct cards drawn
 *        uniformly from unseen (futures[k * n_future ..]); then n_fills fills of
 *        n_slots cards (fills[(k * n_fills + p) * n_slots ..]): fill 0 takes the
 *        n_slots highest-ranked candidates (the lowest of them to slot 0, the front
 *        slots), fills 1.. are uniformly random ordered choices of n_slots
 *        candidates.  The candidates are the future cards, or with `rounds`
 *        Pineapple rounds (3 future cards a round, 1 discarded), 2 of each round's
 *        3: fill 0 drops the lowest rank of a round, a random fill a random card.
 *        Draws come from splitmix64 seeded with `seed`: the same arguments give the
 *        same output on every platform.
 * @param unseen     n_unseen distinct card ids to draw from;
 * @param n_unseen   how many (<= 52);
 * @param n_future   cards per sample (<= n_unseen, <= OFC_HEUR_MAX_FUTURE);
 * @param rounds     0, or n_future / 3 (then n_slots <= 2 * rounds);
 * @param n_slots    cards per fill (<= n_future, <= OFC_HEUR_MAX_SLOTS);
 * @param n_samples  samples;  @param n_fills fills per sample (0: futures only);
 * @param seed       the generator's seed;
 * @param futures    n_samples x n_future bytes out;
 * @param fills      n_samples x n_fills x n_slots bytes out (may be NULL when
 *                   n_fills or n_slots is 0).
 * @return OFC_OK, OFC_E_CARD / OFC_E_DUPLICATE (unseen), OFC_E_COUNT (a count out of
 *         range or inconsistent, or counts whose product overflows: futures or
 *         fills of SIZE_MAX bytes or more, which no array holds; nothing written) or
 *         OFC_E_VALUE (a needed pointer NULL). */
OFC_API int32_t ofc_heur_sample(const uint8_t *unseen, size_t n_unseen, size_t n_future,
                                uint32_t rounds, size_t n_slots, size_t n_samples,
                                size_t n_fills, uint64_t seed, uint8_t *futures,
                                uint8_t *fills);

#ifdef __cplusplus
}
#endif

#endif /* OFC_HEURISTIC_H */
