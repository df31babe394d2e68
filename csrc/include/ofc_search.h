/*
 * ofc_search.h -- search primitives for OFC and Pineapple: the best completion of a
 * partial board, Monte Carlo rollouts from one seat's information set with common
 * random numbers, and exact expectimax over every draw where that is affordable.
 * Plain C99, no allocation, no global mutable state: every input is const and every
 * scratch buffer is on the stack (at most about 40 KB, in ofc_search_exact), so two
 * threads may search at once (and share one rules struct, one ev table and one model).
 *
 * The value of a board
 * --------------------
 * A finished board is worth, to the seat that set it,
 *     royalties + model.fl_value[the Fantasyland cards it earns next deal]
 *               + model.row_weight * sum_r ev.units[r][strength of row r]
 * (ev.units: the row's expected units against a typical opponent, ofc_solver.h; left
 * out when ev is NULL); a fouled board is worth OFC_SEARCH_FOUL_VALUE.  The next
 * Fantasyland cards come from the one entry / stay rule (ofc_fl_next_cards).
 * This is the objective of a completion.  A finished *deal* is worth to the searcher
 *     sum over opponents o of pair points (ofc_score_evals against o, no table
 *     context: house ties, table-wide sweep bonuses and stakes are left out)
 *   + fl_value[searcher's next cards] - sum_o fl_value[o's next cards] / (players - 1)
 * (the Fantasyland terms: an opponent's next Fantasyland deal is paid by the others).
 * This is the value rollouts average and expectimax takes the expectation of.
 *
 * Completions
 * -----------
 * A seat still to receive `rounds` decisions (round i: round_n[i] cards dealt,
 * round_k[i] of them discarded) ends with a board that keeps every card it has and
 * one kept set of future cards (each round gives up exactly round_k[i] cards): any
 * assignment of the kept cards to the free slots can be played round by round, so a
 * completion is a choice of discards and of rows.
 *   OFC_COMPLETE_BEST: every choice is tried (foul pruning only): the exact maximum.
 *   OFC_COMPLETE_FAST: each round discards its lowest-ranked cards, then the rows are
 *     searched exactly when there are at most OFC_SEARCH_FAST_LEAVES ways to fill
 *     them, else filled greedily (pairs and trips first, then high cards, to the
 *     back, then the middle, then the front).
 * Both are deterministic functions of the cards: rollouts of different candidate moves
 * over the same sampled future differ only by the move (common random numbers).  A
 * completion knows every future card of its seat (it is clairvoyant), so rollouts
 * with it overrate risky moves; exact expectimax does not (see ofc_search_exact).
 *   OFC_COMPLETE_SEQUENTIAL (rollouts only) removes that bias for the searcher: each
 *     of its rounds but the last is placed without seeing the cards after it: every
 *     option of the round (discards, a row per kept card) is valued by the fast
 *     completion over fake cards for the later rounds (drawn from the cards the
 *     searcher has not seen; the same fake cards for every candidate move: the
 *     stream {ofc_random64(seed ^ 0x7365717565636e, i), 0} of sample i), and the last
 *     round by the best completion with its real cards.  The other seats complete
 *     by the best completion when they have at most two rounds left, else fast.
 *
 * Learned value
 * -------------
 * With m->value set (a model of ofc_model.h, feature set 1) and ev given, the
 * sequential policy values each option of the searcher's rounds but the last by the
 * model (ofc_value_board(): the board after the option, the cards the searcher knows
 * are out of the deck) instead of the fast completion over fake cards; nothing else
 * changes, and with m->value NULL the search is the rollout-only search.  Give it the
 * model's tables as ev (ofc_value_ev_tables(): those of its opponent rows, if its file
 * carries them): the model's features and the search's completions then price boards
 * against the same opponent.  ofc_search_model_check() refuses a model of another
 * feature set, and the search one trained for another seat count; nothing checks that
 * it was trained for these rules (ofc_value_ctx_check(): the caller's precondition,
 * which the Python search checks); a board of a size the model has no net for is
 * valued, silently, as OFC_SEARCH_FOUL_VALUE, so give a model with a net for every
 * board size the rollouts value (the Python search refuses one that lacks any).
 *
 * Opponents
 * ---------
 * In a rollout sample every other seat completes its board by the completion policy
 * (a strong, clairvoyant opponent) or, with probability model.opp_random, as a random
 * player (one that takes uniformly random legal actions, as a RandomBot) does.  A
 * player that does not look at its cards ends with its free slots filled by a
 * uniformly random arrangement of a uniformly random subset of the cards it is dealt
 * (each round's cards are a uniformly random draw), whatever its rule for choosing
 * among the legal actions; so that is what the rollouts deal it: its cards shuffled,
 * the first ones into its free slots in slot order.  The coin and the shuffle of
 * sample i come from the stream {ofc_random64(seed ^ 0x6f70706f6e656e74, i), 0}: one
 * opponent board per sample, the same for every candidate move.  opp_random = 1
 * models a random player; a value in between, a mix of the two.
 * With model.opp_self = 1, each other seat that does not play at random and has more
 * than one round left plays as the searcher's sequential rollouts do, whatever the
 * rollout policy: round by round without seeing its cards to come (valued by the
 * learned model when m->value is set, else by the fast completion over fake cards),
 * the last round by the best completion.  Its fake cards are drawn from the cards the
 * searcher has not seen, less that seat's own, by the stream {ofc_random64(key, c), 0}
 * where {key, c} is the opponent stream's next output (then advanced by one): a
 * realistic opponent, one that cannot see its cards to come and fouls when they miss.
 * Exact search models the completion policy only: it refuses a model with
 * opp_random > 0 or opp_self set (OFC_E_BUDGET).
 *
 * Example: the best completion of a partial board
 * ----------------------------------------------
 * (Rollouts take a position filled from an observation: ofc_search_rollouts(&rules,
 * &fl, &ev, &model, &pos, actions, n_actions, OFC_COMPLETE_BEST, seed, 0, 500, sum,
 * sq) adds each candidate's value over 500 samples to sum[i].)
 * @code
 * static ofc_rules rules;                            // 95 KB: not on a small stack
 * ofc_search_model model = {{0}, 0.0, 0.0, NULL, 0}; // no Fantasyland or row terms
 * ofc_completion_result out;
 * const uint8_t board[13] = {42, 41, OFC_NO_CARD,    // Qh Qd _
 *                            31, 30, 29, 12, OFC_NO_CARD,   // 9s 9h 9d 5c _
 *                            51, 47, 43, 39, OFC_NO_CARD};  // As Ks Qs Js _
 * const uint8_t future[3] = {35, 0, 13};             // one round: Ts 2c 5d
 * const uint8_t round_n[1] = {3}, round_k[1] = {0};
 * assert(ofc_rules_init_ofc(&rules) == OFC_OK);
 * assert(ofc_best_completion(&rules, NULL, NULL, &model, board, future, 1, round_n,
 *                            round_k, 0, OFC_COMPLETE_BEST, &out) == OFC_OK);
 * assert(!out.foul && out.value == 7 + 12 + 25);     // QQ, a full house, a royal
 * assert(out.board[2] == 0 && out.board[7] == 13 && out.board[12] == 35);
 * @endcode
 */
#ifndef OFC_SEARCH_H
#define OFC_SEARCH_H

#include <stddef.h>
#include <stdint.h>

#include "ofc_fast.h"
#include "ofc_model.h"
#include "ofc_solver.h"

#include "ofc_export.h"

#ifdef __cplusplus
extern "C" {
#endif

#define OFC_SEARCH_MAX_ROUNDS 9      /* future decisions of one seat (OFC: 8 + opening) */
#define OFC_SEARCH_MAX_ROUND_CARDS 17 /* cards of one round (a 17-card Fantasyland) */
#define OFC_SEARCH_FL_VALUES 18      /* fl_value[0..17] by next Fantasyland cards */
#define OFC_SEARCH_FOUL_VALUE (-1000.0) /* completion value of a fouled board */
#define OFC_SEARCH_FAST_LEAVES 4096  /* OFC_COMPLETE_FAST: most row fills searched */
#define OFC_SEARCH_BEST_LEAVES 20000 /* rollouts: other seats with more completions
                                      * (a hidden Fantasyland set) use the fast policy */
#define OFC_SEARCH_MAX_SEATS 4

/* Status codes beyond ofc_status (ofc_fast.h) and ofc_solver.h. */
#define OFC_E_BUDGET (-50) /* ofc_search_exact: the tree is larger than max_nodes */
#define OFC_E_STOPPED (-51) /* a *_stop call: stopped by its caller's stop word */

/*! Completion policies. */
typedef enum ofc_completion {
    OFC_COMPLETE_FAST = 0, /* fixed discards (lowest ranks), rows searched or greedy */
    OFC_COMPLETE_BEST = 1, /* the exact best completion */
    OFC_COMPLETE_SEQUENTIAL = 2 /* rollouts only: the searcher plays round by round
                                 * without seeing the cards to come (see above) */
} ofc_completion;

/*! The value model (see the top of this header); fill it and share it read-only. */
typedef struct ofc_search_model {
    double fl_value[OFC_SEARCH_FL_VALUES]; /* worth of k Fantasyland cards next deal;
                                            * fl_value[0] = no Fantasyland (usually 0) */
    double row_weight;                     /* weight of ev.units in a completion */
    double opp_random;                     /* 0..1: the opponent model of the rollouts
                                            * (see Opponents); 0: completion policy */
    const ofc_vmodel *value;               /* NULL, or a learned value model (see
                                            * Learned value) */
    uint32_t opp_self;                     /* 0, or 1: the other seats that do not play
                                            * at random play as the searcher's
                                            * sequential rollouts do (see Opponents) */
} ofc_search_model;

/*! One seat of a position: what the searcher knows of its board and what is left. */
typedef struct ofc_search_seat {
    uint8_t board[13];   /* known cards by slot (front 0..2, middle 3..7, back 8..12),
                          * each row's cards first, then OFC_NO_CARD for slots still
                          * free (face-down cards the searcher has not seen count as
                          * free: they come back as a round) */
    uint8_t in_fl;       /* 0, or 13..17: a Fantasyland hand of that many cards (the
                          * stay rule applies to its board) */
    uint8_t rounds;      /* decisions still to come (the searcher: after the pending one) */
    uint8_t round_n[OFC_SEARCH_MAX_ROUNDS]; /* cards of each, in order (1..17; 1..5
                                             * before the last where the rollouts
                                             * play them round by round) */
    uint8_t round_k[OFC_SEARCH_MAX_ROUNDS]; /* discards of each */
} ofc_search_seat;

/*! A position as one seat (the searcher) knows it. */
typedef struct ofc_search_pos {
    uint8_t players;  /* 2..4 */
    uint8_t seat;     /* the searcher */
    uint8_t n_dealt;  /* cards of its pending decision (1..5) */
    uint8_t k;        /* discards of it */
    uint8_t dealt[5];
    uint8_t n_unseen; /* cards the searcher has not seen anywhere */
    uint8_t unseen[52];
    ofc_search_seat seats[OFC_SEARCH_MAX_SEATS];
} ofc_search_pos;

/*! Result of a completion. */
typedef struct ofc_completion_result {
    uint8_t board[13];   /* the finished board (row order; a fouled board when foul) */
    uint8_t foul;        /* 1: no legal completion exists */
    uint8_t next_fl;     /* Fantasyland cards it earns next deal */
    uint8_t reserved[2];
    double value;        /* its value (OFC_SEARCH_FOUL_VALUE when foul) */
    uint64_t leaves;     /* boards examined */
} ofc_completion_result;

/*! ofc_search_model_check():
 * @brief Checks a model: every number finite, |fl_value| <= 1e6, 0 <= row_weight
 *        <= 1e6, 0 <= opp_random <= 1, opp_self 0 or 1, a value model (if any) of
 *        feature set OFC_VF_SET with OFC_VF_N inputs (ofc_value.h).
 * @param m  the model (NULL is rejected).
 * @pre a value model (if any) was trained for the rules it is searched under (not
 *      checked: see ofc_value_ctx_check()).
 * @return OFC_OK or OFC_E_VALUE. */
OFC_API int32_t ofc_search_model_check(const ofc_search_model *m);

/*! ofc_best_completion():
 * @brief The completion of maximum value of a partial board (see Completions).
 * @param rules   a valid rule set;
 * @param fl      its Fantasyland rules, or NULL (no Fantasyland term);
 * @param ev      expected-units tables, or NULL (no row term);
 * @param m       the value model (passed ofc_search_model_check());
 * @param board   13 slots: each row's known cards first, then OFC_NO_CARD;
 * @param cards   the future cards, round after round (sum of round_n of them);
 * @param rounds  number of rounds (0..OFC_SEARCH_MAX_ROUNDS);
 * @param round_n cards of each round (1..17);  @param round_k discards (< round_n);
 * @param in_fl   0, or 13..17 for a Fantasyland hand (stay rule);
 * @param policy  OFC_COMPLETE_BEST or OFC_COMPLETE_FAST;
 * @param out     the result.
 * The kept cards (sum of round_n - round_k) must fill the free slots exactly: that is
 * checked (OFC_E_COUNT), as is every other argument.
 * @return OFC_OK; OFC_E_RULES (rules NULL or bad scalars, fl not passing
 *         ofc_fl_rules_check()), OFC_E_VALUE (a NULL pointer -- cards, round_n and
 *         round_k may be NULL when rounds is 0 -- a model failing
 *         ofc_search_model_check(), a bad policy, or out sharing a byte with *rules,
 *         *fl, *ev, *m, *m->value or the stop flag: out untouched), OFC_E_COUNT
 *         (rounds or counts out of range, kept cards that do not fill the free
 *         slots exactly, in_fl not 0 or 13..17), OFC_E_CARD (a card out of range, or
 *         a card after a free slot of its row) / OFC_E_DUPLICATE (board and cards
 *         together). */
OFC_API int32_t ofc_best_completion(const ofc_rules *rules, const ofc_fl_rules *fl,
                                    const ofc_ev_tables *ev, const ofc_search_model *m,
                                    const uint8_t board[13], const uint8_t *cards,
                                    uint32_t rounds, const uint8_t *round_n,
                                    const uint8_t *round_k, uint32_t in_fl, uint32_t policy,
                                    ofc_completion_result *out);

/*! ofc_best_completion_stop():
 * @brief ofc_best_completion() that a caller can stop: the search reads *stop every
 *        256 leaves (some 20 microseconds; the best policy's exact completion of a
 *        17-card Fantasyland hand: some 85 million leaves, seconds) and, once it is
 *        nonzero, returns OFC_E_STOPPED within about that, read as
 *        ofc_search_exact_stop() reads its word (an atomic load; a writer's atomic
 *        store makes no data race).
 * @param rules   as ofc_best_completion();  @param fl      as ofc_best_completion();
 * @param ev      as ofc_best_completion();  @param m       as ofc_best_completion();
 * @param board   as ofc_best_completion();  @param cards   as ofc_best_completion();
 * @param rounds  as ofc_best_completion();  @param round_n as ofc_best_completion();
 * @param round_k as ofc_best_completion();  @param in_fl   as ofc_best_completion();
 * @param policy  as ofc_best_completion();  @param out     as ofc_best_completion();
 * @param stop    the stop word (NULL: never stopped, ofc_best_completion()).
 * @pre   *stop, where given, stays readable until the call returns.
 * @return as ofc_best_completion(), or OFC_E_STOPPED (out untouched). */
OFC_API int32_t ofc_best_completion_stop(const ofc_rules *rules, const ofc_fl_rules *fl,
                                         const ofc_ev_tables *ev, const ofc_search_model *m,
                                         const uint8_t board[13], const uint8_t *cards,
                                         uint32_t rounds,
                                         const uint8_t *round_n, const uint8_t *round_k,
                                         uint32_t in_fl, uint32_t policy,
                                         ofc_completion_result *out, const int32_t *stop);

/*! ofc_search_pos_check():
 * @brief Checks a position: seats, counts, rounds that fill every free slot, every
 *        card valid and seen once (boards, dealt, unseen), enough unseen cards for
 *        every round still to come.
 * @param pos  the position (NULL is rejected).
 * @return OFC_OK, OFC_E_COUNT (pos NULL, a seat or card count out of range, rounds
 *         that do not fill a board's free slots, too few unseen cards for the rounds
 *         to come), OFC_E_CARD or OFC_E_DUPLICATE. */
OFC_API int32_t ofc_search_pos_check(const ofc_search_pos *pos);

/*! ofc_search_rollouts():
 * @brief Monte Carlo values of candidate moves of the searcher's pending decision.
 *        Sample i (i = first .. first + samples - 1) shuffles the unseen cards with
 *        the stream {ofc_random64(seed, i), 0} and deals them in order: the searcher's
 *        rounds, then each other seat's rounds in seat order.  The other seats are
 *        completed once per sample (a seat with more than OFC_SEARCH_BEST_LEAVES
 *        possible completions, such as a hidden Fantasyland set, by the fast policy); then every candidate (the same sampled cards:
 *        common random numbers) is played, completed and valued (see the top);
 *        with m->opp_random > 0 some other seats play at random (see Opponents).
 *        Batches with consecutive `first` add up to one long run, so a caller can
 *        stop on a time budget or split the samples between threads.
 * @param rules    as ofc_best_completion();
 * @param fl       as ofc_best_completion();
 * @param ev       as ofc_best_completion();
 * @param m        as ofc_best_completion();
 * @param pos      the position (passed ofc_search_pos_check());
 * @param actions  n_actions action ids of the pending decision (ofc_game.h ids);
 * @param n_actions  how many (at most OFC_ACTION_SPACE);
 * @param policy   completion policy of every seat;
 * @param seed     the stream's key;  @param first  the first sample index;
 * @param samples  how many samples;
 * @param sum      n_actions sums: value of each move added per sample;
 * @param sum_sq   n_actions sums of squared values (may be NULL).
 * @return OFC_OK; OFC_E_RULES, OFC_E_VALUE (NULL pointers, bad policy, an output --
 *         sum, sum_sq, stats; exact search: values, stats -- sharing a byte with
 *         *rules, *fl, *ev, *m, *m->value or the stop flag: nothing written), OFC_E_ACTION
 *         (an id that is not legal here), OFC_E_COUNT (a round of more than 5 cards
 *         before a seat's last one where it is played round by round: the searcher's
 *         under OFC_COMPLETE_SEQUENTIAL, the others' with m->opp_self; or m->value
 *         trained for another seat count than pos->players) or the errors of
 *         ofc_search_pos_check(). */
OFC_API int32_t ofc_search_rollouts(const ofc_rules *rules, const ofc_fl_rules *fl,
                                    const ofc_ev_tables *ev, const ofc_search_model *m,
                                    const ofc_search_pos *pos, const uint8_t *actions,
                                    uint32_t n_actions, uint32_t policy, uint64_t seed,
                                    uint64_t first, uint64_t samples, double *sum,
                                    double *sum_sq);

/*! What the searcher's own finished board does, per candidate move: sums over the
 * samples of a rollout run (or, from exact search, expectations over every draw,
 * following the completion the searcher picks for each of its own draws). */
typedef struct ofc_search_stats {
    double foul;        /* 1 per sample whose board fouls */
    double fantasyland; /* 1 per sample whose board earns (or keeps) a Fantasyland */
    double royalties;   /* the board's royalties (0 when fouled) */
} ofc_search_stats;

/*! ofc_search_rollouts_stats():
 * @brief ofc_search_rollouts(), also counting what the searcher's finished board does
 *        in each sample (the same rollouts: the values are identical).
 * @param rules      as ofc_search_rollouts();
 * @param fl         as ofc_search_rollouts();
 * @param ev         as ofc_search_rollouts();
 * @param m          as ofc_search_rollouts();
 * @param pos        as ofc_search_rollouts();
 * @param actions    as ofc_search_rollouts();
 * @param n_actions  as ofc_search_rollouts();
 * @param policy     as ofc_search_rollouts();
 * @param seed       as ofc_search_rollouts();
 * @param first      as ofc_search_rollouts();
 * @param samples    as ofc_search_rollouts();
 * @param sum        as ofc_search_rollouts();
 * @param sum_sq     as ofc_search_rollouts();
 * @param stats  n_actions sums the counts are added to (may be NULL: none counted).
 * @return as ofc_search_rollouts(). */
OFC_API int32_t ofc_search_rollouts_stats(const ofc_rules *rules, const ofc_fl_rules *fl,
                                          const ofc_ev_tables *ev,
                                          const ofc_search_model *m,
                                          const ofc_search_pos *pos, const uint8_t *actions,
                                          uint32_t n_actions, uint32_t policy,
                                          uint64_t seed, uint64_t first, uint64_t samples,
                                          double *sum, double *sum_sq,
                                          ofc_search_stats *stats);

/*! ofc_search_exact_cost():
 * @brief The number of leaves ofc_search_exact() would visit (an upper bound, capped
 *        at 2^62), so a caller can decide within a time budget.
 * @param pos        the position (validated as ofc_search_pos_check()).
 * @param n_actions  the number of candidate moves.
 * @return the count, or 0 when the position is not one exact search handles (the
 *         searcher has more than one round to come, or more than 1,024 ways to play
 *         it) or is invalid. */
OFC_API uint64_t ofc_search_exact_cost(const ofc_search_pos *pos, uint32_t n_actions);

/*! ofc_search_exact():
 * @brief Exact expected values of candidate moves over every draw:
 *        V(move) = E_S [ max_c E_O [ value ] ]  where S is the searcher's next round
 *        (when it has one left), c its completions (every discard and row choice,
 *        maximising the expected value itself, not the completion objective), O
 *        every way to deal the other seats their remaining rounds from the cards left
 *        (each completed by OFC_COMPLETE_BEST).  The searcher decides its last round
 *        knowing its own cards only.  Every draw is equally likely (uniform over the
 *        unseen cards, as the rollouts).
 * @param rules      as ofc_search_rollouts();
 * @param fl         as ofc_search_rollouts();
 * @param ev         as ofc_search_rollouts();
 * @param m          as ofc_search_rollouts();
 * @param pos        as ofc_search_rollouts();
 * @param actions    as ofc_search_rollouts();
 * @param n_actions  as ofc_search_rollouts();
 * @param max_nodes  refuse (OFC_E_BUDGET) when ofc_search_exact_cost() exceeds it;
 * @param values     n_actions expected values out.
 * @return OFC_OK, OFC_E_BUDGET (nothing computed; also when the searcher has more than
 *         one round left, or when m->opp_random > 0 or m->opp_self is set: exact
 *         search models the completion policy only), or the errors of
 *         ofc_search_rollouts(). */
OFC_API int32_t ofc_search_exact(const ofc_rules *rules, const ofc_fl_rules *fl,
                                 const ofc_ev_tables *ev, const ofc_search_model *m,
                                 const ofc_search_pos *pos, const uint8_t *actions,
                                 uint32_t n_actions, uint64_t max_nodes, double *values);

/*! ofc_search_exact_stats():
 * @brief ofc_search_exact(), also giving the expected foul and Fantasyland
 *        probabilities and royalties of the searcher's board under the completion it
 *        picks (the first of the best when several tie) for each of its own draws.
 * @param rules      as ofc_search_exact();
 * @param fl         as ofc_search_exact();
 * @param ev         as ofc_search_exact();
 * @param m          as ofc_search_exact();
 * @param pos        as ofc_search_exact();
 * @param actions    as ofc_search_exact();
 * @param n_actions  as ofc_search_exact();
 * @param max_nodes  as ofc_search_exact();
 * @param values     as ofc_search_exact();
 * @param stats  n_actions expectations out (may be NULL: none computed).
 * @return as ofc_search_exact(). */
OFC_API int32_t ofc_search_exact_stats(const ofc_rules *rules, const ofc_fl_rules *fl,
                                       const ofc_ev_tables *ev, const ofc_search_model *m,
                                       const ofc_search_pos *pos, const uint8_t *actions,
                                       uint32_t n_actions, uint64_t max_nodes,
                                       double *values, ofc_search_stats *stats);

/*! ofc_search_exact_stop():
 * @brief ofc_search_exact_stats() that a caller can stop: the search reads *stop
 *        every 256 leaves (well under a millisecond) and, once it is nonzero, returns
 *        OFC_E_STOPPED within about that (another thread sets it: a time budget,
 *        a cancel button, Ctrl-C; the search keeps no state of its own).  The search
 *        reads it with an atomic load (gcc, clang; elsewhere a volatile read): a
 *        writer's atomic store, e.g. __atomic_store_n(&word, 1, __ATOMIC_RELAXED),
 *        makes no data race for ThreadSanitizer.
 * @param rules      as ofc_search_exact();
 * @param fl         as ofc_search_exact();
 * @param ev         as ofc_search_exact();
 * @param m          as ofc_search_exact();
 * @param pos        as ofc_search_exact();
 * @param actions    as ofc_search_exact();
 * @param n_actions  as ofc_search_exact();
 * @param max_nodes  as ofc_search_exact();
 * @param values     as ofc_search_exact();
 * @param stats      as ofc_search_exact_stats();
 * @param stop       the stop word (NULL: never stopped, ofc_search_exact_stats()).
 * @pre   *stop, where given, stays readable until the call returns.
 * @return as ofc_search_exact_stats(), or OFC_E_STOPPED (values and stats partly
 *         written: read none). */
OFC_API int32_t ofc_search_exact_stop(const ofc_rules *rules, const ofc_fl_rules *fl,
                                      const ofc_ev_tables *ev, const ofc_search_model *m,
                                      const ofc_search_pos *pos, const uint8_t *actions,
                                      uint32_t n_actions, uint64_t max_nodes,
                                      double *values, ofc_search_stats *stats,
                                      const int32_t *stop);

#ifdef __cplusplus
}
#endif

#endif /* OFC_SEARCH_H */
