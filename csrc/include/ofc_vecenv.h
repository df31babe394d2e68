/*
 * ofc_vecenv.h -- a vector environment for reinforcement learning: many OFC /
 * Pineapple tables stepped in one call, writing into buffers the caller owns, and the
 * one observation encoding of ofc-fast.
 *
 * The caller (ofc_fast.env.VectorEnv, or a C program) owns everything: the
 * configuration, an array of environment slots (plain data, ofc_vecenv_slot) and the
 * output arrays (ofc_vecenv_out: one row per environment).  ofc_vecenv_step() applies
 * one decision per environment and plays on inside C until each environment reaches
 * the next decision of an agent seat.  No allocation in the vector environment itself
 * (the exact Fantasyland solver allocates its own work block for each Fantasyland
 * set it plays), no global mutable state, no I/O: two threads may step two vector
 * environments at once (sharing the read-only rules), or two disjoint ranges of one.
 *
 * An environment is a match at one table (as ofc_fast.Match): environment i of a
 * configuration with seed S has the environment seed E_i = ofc_deal_seed(S, i); its
 * deal j is dealt from the game seed ofc_deal_seed(E_i, j); the button starts on seat
 * 0 and moves one seat after each deal (not while a seat plays the next deal in
 * Fantasyland when button_frozen is set); Fantasyland is carried from each deal's
 * result (ofc_game_result.fl_next).  Chips are not tracked: rewards are points.
 *
 * Who decides
 * -----------
 *   opponents OFC_VE_SELF      every decision of every seat is an agent decision;
 *             OFC_VE_RANDOM    the seats other than `learner` play uniformly random
 *                              legal moves (ofc_game_random_move) from the
 *                              environment's own stream, inside C;
 *             OFC_VE_EXTERNAL  the other seats stop the environment too (seat != learner
 *                              in the output): the caller plays them (a bot) and steps
 *                              those environments with `active`.
 *   fantasyland OFC_VE_FL_SOLVER   a Fantasyland set is played by the exact solver
 *                                  (ofc_solve_fantasyland with the configuration's ev
 *                                  tables and stay values) for every seat;
 *               OFC_VE_FL_DECISION a Fantasyland set of an agent seat is its decision
 *                                  (full = 1, an all-zero mask: answer with a
 *                                  placement); random opponents set theirs at random.
 *
 * Rewards (float32, points)
 * -------------------------
 * The reward seat of a step is the learner (RANDOM, EXTERNAL) or the seat that acted
 * (SELF).  When a deal ends, final_rewards[i][s] = the net points of seat s (minus
 * its shaping potential, below) and rewards[i] gets the reward seat's entry;
 * terminations[i] = 1.  A deal that ends without any agent decision (every agent seat
 * in Fantasyland, set by the solver) adds its final rewards to the same step's.
 * Shaping (optional, config.shaping = c != 0): potential-based, Phi(board) = c x the
 * royalties of the seat's complete rows (scored as if the board did not foul); each
 * agent decision earns Phi(after) - Phi(before) for the seat that made it, and the deal
 * end subtracts the last Phi, so the rewards of a deal still add up to its net points.
 * Truncations are always 0 (every deal ends).
 *
 * Deals without an agent decision
 * -------------------------------
 * With autoreset, a step (or a reset) plays on through every deal in which no agent
 * seat has a decision (with OFC_VE_FL_SOLVER: each agent seat plays that deal in
 * Fantasyland, set by the solver).  Rules under which the agent seats stay in
 * Fantasyland with certainty (a stay that any clean board meets, say) would make that
 * endless, so one environment plays at most OFC_VE_MAX_SKIPPED_DEALS consecutive such
 * deals in one call: the call then returns OFC_E_NO_DECISION for it (the first such
 * environment in *bad), after stepping the others.  That environment is left at the
 * end of its last deal, as a finished deal without autoreset (seat -1 in the output,
 * no decision pending, the next deal's button and Fantasyland booked): a step there
 * is OFC_E_GAME_OVER; ofc_vecenv_reset() with restart = 1 starts its match again (with
 * restart = 0 the next deal carries the same Fantasyland).  Under the presets a seat
 * stays in under three deals in four even when the solver aims for the stay (about 60%
 * with 17 cards, 8-20% with 13-14), so 1,000 such deals in a row by chance has a
 * probability below 0.75^1000 (about 1e-125): reaching the limit means the rules, not
 * the cards.
 *
 * Observations: the encoding below (OFC_ENC_SIZE bytes) of the seat to decide next;
 * with autoreset a finished deal is followed at once by the next deal's first agent
 * decision (the terminal observation is not written).
 *
 * The encoding (OFC_ENC_SIZE = 828 bytes, one seat's view; written only from an
 * ofc_observation, so it holds nothing the seat may not see).  Card id = 4 rank +
 * suit; relative seat r = (seat - observer) mod players (0 = self, 1 = next seat):
 *   [0, 624)    planes 0..11: 52 bytes each, plane 3r + row (0 front, 1 middle,
 *               2 back): 1 for each face-up card of relative seat r in that row (all
 *               of one's own);
 *   [624, 676)  plane 12: one's cards to place now;
 *   [676, 728)  plane 13: one's own discards;
 *   [728, 780)  plane 14: cards this seat has not seen (none of planes 0..13);
 *   780 + 0..3    button, one-hot by relative seat;     (scale 1)
 *   780 + 4..7    relative seats present (1 each);      (scale 1)
 *   780 + 8..11   seat to act, one-hot (all 0 once over);
 *   780 + 12..15  Fantasyland cards this deal per relative seat (0, 13..17; scale 1/17);
 *   780 + 16..27  face-down cards per relative seat and row, 3r + row (scale 1/5);
 *   780 + 28..31  discards per relative seat (scale 1/4);
 *   780 + 32      street of the pending decision (scale 1/8);
 *   780 + 33      cards to discard now (scale 1);
 *   780 + 34      cards one still gets after this decision (scale 1/16);
 *   780 + 35      discards one still makes after it (scale 1/4);
 *   780 + 36, 37  this decision is a full set / is placed face down;
 *   780 + 38      the deal is over;
 *   780 + 39..41  game kind one-hot: classic, OFC, Pineapple;
 *   780 + 42      a 2-7 middle (lowball rules);
 *   780 + 43..47  0 (reserved).
 * Multiplying byte j by ofc_encoding_scale(j) gives ofc_fast.encoding.encode()'s
 * float32 values.
 *
 * Example (C; Python: ofc_fast.env.VectorEnv)
 * -------
 * @code
 * enum { N = 8 };
 * static ofc_game_rules r;                          // about 100 KB
 * static ofc_vecenv_slot slot[N];
 * static uint8_t obs[N * OFC_ENC_SIZE], mask[N * OFC_ACTION_SPACE],
 *     legal[N * OFC_ACTION_SPACE], term[N], trunc[N], full[N];
 * static int16_t count[N];
 * static int8_t seat[N];
 * static float rew[N], final_rew[N * OFC_GAME_MAX_SEATS];
 * ofc_vecenv_out out = {obs, mask, legal, count, seat, full, rew, final_rew, term, trunc,
 *                       NULL};                     // no final_obs
 * ofc_vecenv_config c;
 * int64_t actions[N];
 * uint32_t i, step, bad, deals = 0;
 * assert(ofc_game_rules_init_pineapple(&r) == OFC_OK);
 * assert(ofc_vecenv_config_init(&c, &r, N, 2, 42) == OFC_OK);  // self-play
 * assert(ofc_vecenv_reset(&c, slot, 0, N, 1, &out) == OFC_OK);
 * for (step = 0; step < 40; step++) {                // the first legal action each time
 *     for (i = 0; i < N; i++)
 *         actions[i] = count[i] > 0 ? legal[i * OFC_ACTION_SPACE] : OFC_VE_NO_ACTION;
 *     assert(ofc_vecenv_step(&c, slot, 0, N, actions, NULL, NULL, &out, &bad) == OFC_OK);
 *     for (i = 0; i < N; i++)
 *         deals += term[i];
 * }
 * assert(deals > 0);                                 // 10 decisions a deal: some ended
 * @endcode
 */
#ifndef OFC_VECENV_H
#define OFC_VECENV_H

#include "ofc_game.h"
#include "ofc_solver.h"

#include "ofc_export.h"

#ifdef __cplusplus
extern "C" {
#endif

#define OFC_ENC_PLANES 15
#define OFC_ENC_SCALARS 48
#define OFC_ENC_SIZE 828          /* OFC_ENC_PLANES * 52 + OFC_ENC_SCALARS */
#define OFC_VE_NO_ACTION (-1)     /* actions[i]: play placements[i] instead */
/* Consecutive deals without an agent decision one environment plays in one call
 * (ofc_vecenv_step, ofc_vecenv_reset) before OFC_E_NO_DECISION: see above. */
#define OFC_VE_MAX_SKIPPED_DEALS 1000

/* Status code of the vector environment (beyond ofc_game.h's). */
#define OFC_E_NO_DECISION (-70)   /* OFC_VE_MAX_SKIPPED_DEALS deals in a row without an
                                     agent decision: the rules keep the agent seats in
                                     Fantasyland */

/* ofc_vecenv_config.opponents */
#define OFC_VE_SELF 0
#define OFC_VE_RANDOM 1
#define OFC_VE_EXTERNAL 2
/* ofc_vecenv_config.fantasyland */
#define OFC_VE_FL_SOLVER 0
#define OFC_VE_FL_DECISION 1

/*! What the vector environment plays: read-only during a step. */
typedef struct ofc_vecenv_config {
    const ofc_game_rules *rules; /* checked with ofc_game_rules_check() by the caller */
    const ofc_ev_tables *ev;     /* the Fantasyland solver's tie-break tables, or NULL */
    double stay_value[5];        /* the solver's worth of staying with 13..17 cards */
    uint64_t seed;               /* run seed: environment i uses ofc_deal_seed(seed, i) */
    float shaping;               /* 0: none; else the potential's weight (see above) */
    uint32_t num_envs;           /* environments in the slot and output arrays */
    uint8_t players;             /* 2..rules->max_players */
    uint8_t opponents;           /* OFC_VE_SELF, OFC_VE_RANDOM or OFC_VE_EXTERNAL */
    uint8_t fantasyland;         /* OFC_VE_FL_SOLVER or OFC_VE_FL_DECISION */
    uint8_t learner;             /* the agent's seat (not used by OFC_VE_SELF) */
    uint8_t button_frozen;       /* 1: the button stays for a Fantasyland deal */
    uint8_t autoreset;           /* 1: a finished deal is followed by the next one */
    uint8_t lowball;             /* 1: a 2-7 middle (encoded): the rules'
                                  * scoring.middle_lowball, 0 or 1 */
    uint8_t reserved;            /* 0 */
} ofc_vecenv_config;

/*! One environment: plain data (copy it freely); written only by the functions here. */
typedef struct ofc_vecenv_slot {
    ofc_game game;               /* the current deal */
    ofc_rng rng;                 /* the random opponents' stream */
    uint64_t env_seed;           /* E_i */
    uint64_t deal;               /* deals started (the current deal is deal - 1) */
    float potential[OFC_GAME_MAX_SEATS]; /* shaping potential given so far, per seat */
    uint8_t button;              /* the button of the next deal */
    uint8_t fl[OFC_GAME_MAX_SEATS]; /* Fantasyland cards of the next deal */
    uint8_t reserved[3];         /* 0 (a step marks in reserved[0], while it runs,
                                  * the environments it has given a decision) */
} ofc_vecenv_slot;

/*! The caller's output arrays, row i for environment i (num_envs rows each).  Rows of
 * environments a call does not step are left as they are. */
typedef struct ofc_vecenv_out {
    uint8_t *obs;           /* num_envs x OFC_ENC_SIZE: the encoding of `seat` */
    uint8_t *mask;          /* num_envs x OFC_ACTION_SPACE: 1 = legal action */
    uint8_t *legal;         /* num_envs x OFC_ACTION_SPACE: legal ids increasing, or NULL */
    int16_t *legal_count;   /* num_envs: legal ids (0: a full set or the deal is over) */
    int8_t *seat;           /* num_envs: the seat to decide next (-1: deal over) */
    uint8_t *full;          /* num_envs: 1 when that decision is a full set */
    float *rewards;         /* num_envs: the reward seat's reward of this step */
    float *final_rewards;   /* num_envs x OFC_GAME_MAX_SEATS: per seat, at a deal end */
    uint8_t *terminations;  /* num_envs: 1 when a deal ended in this step */
    uint8_t *truncations;   /* num_envs: always 0 */
    uint8_t *final_obs;     /* num_envs x OFC_ENC_SIZE, or NULL: where a step ended
                             * the deal it played in (terminations), seat learner's
                             * encoding of that deal's end, before autoreset deals
                             * on (deals ended without a decision: not written) */
} ofc_vecenv_out;

/*! @brief Fill a configuration with defaults: self-play, Fantasyland by the solver
 * without tie-break tables, stay values 0, no shaping, autoreset, learner 0, the
 * button moving after every deal (set button_frozen to freeze it for Fantasyland),
 * lowball from the rules.
 * @param c         the configuration to fill (NULL is refused: OFC_E_RULES, as
 *                  ofc_vecenv_config_check()).
 * @param rules     the rules (kept by pointer; must outlive c).
 * @param num_envs  environments.
 * @param players   seats per table.
 * @param seed      the run seed.
 * @pre rules passed ofc_game_rules_check(), or is NULL (refused: OFC_E_RULES).
 * @return OFC_OK, OFC_E_VALUE (c shares a byte with *rules: nothing written), or what
 *         ofc_vecenv_config_check() returns (OFC_E_RULES when c is NULL). */
OFC_API int32_t ofc_vecenv_config_init(ofc_vecenv_config *c, const ofc_game_rules *rules,
                                       uint32_t num_envs, uint32_t players, uint64_t seed);

/*! @brief Check a configuration.
 * @param c  the configuration (may be NULL: rejected).
 * @pre c->rules passed ofc_game_rules_check() (only the fields the deal reads are
 *      checked here).
 * @return OFC_OK; OFC_E_RULES (c or c->rules NULL, or a classic or unknown rules
 *         kind: the environments play OFC and Pineapple), OFC_E_SEATS (players,
 *         learner), OFC_E_DECK (players x the most cards a seat can be dealt in a
 *         deal, a Fantasyland hand included, is over 52), OFC_E_VALUE (opponents,
 *         fantasyland, a flag or a stay value out of range, reserved not 0, lowball
 *         not the rules' 2-7 middle, shaping not finite), OFC_E_COUNT (num_envs 0). */
OFC_API int32_t ofc_vecenv_config_check(const ofc_vecenv_config *c);

/*! @brief Check one environment's slot from outside (a saved environment restored)
 * before any other function reads it: its deal passes ofc_game_state_check() under
 * c->rules with c->players seats; the next deal's button and Fantasyland counts are
 * ones ofc_game_init() takes (the counts of seats beyond the table 0) and the ones the
 * steps leave (the deal's own while it runs; once it is over, the button moved on and
 * the counts its result earns, as its end sets them); each shaping potential the one
 * the steps leave: its seat's board's (c->shaping x the royalties of its complete rows)
 * once the seat has made an agent decision this deal whose reward is shaped (any agent
 * seat's in self-play, else the learner's), 0 otherwise (0 beyond the table); at least
 * one deal started; reserved bytes 0.
 * The environment seed and the random stream may hold any value.
 * @param c    the configuration, checked by ofc_vecenv_config_check() first.
 * @param e    the slot: any bytes.
 * @param why  receives a static text naming the first invariant broken (NULL when
 *             the slot passes), or NULL.
 * @return OFC_OK; OFC_E_STATE (see *why); OFC_E_COUNT (NULL e); the error of
 *         ofc_vecenv_config_check() for c. */
OFC_API int32_t ofc_vecenv_slot_check(const ofc_vecenv_config *c, const ofc_vecenv_slot *e,
                                      const char **why);

/*! @brief Write the decision rows of environments first .. first+count-1 from their
 * slots, as a reset or a step leaves them: the pending decision's seat, full-set flag,
 * legal actions, mask and encoding (a finished deal's row: seat -1, the view of its
 * reward seat, the learner or, in self-play, the seat of the deal's last agent
 * decision). Rewards, terminations and final rewards are not written. For a saved
 * environment restored: the rows come from its state alone.
 * @param c      the configuration, checked by ofc_vecenv_config_check() first.
 * @param slots  the num_envs slots.
 * @param first  the first environment.
 * @param count  how many (first + count <= c->num_envs).
 * @param out    the output arrays.
 * @pre each slot written passed ofc_vecenv_slot_check(); out's arrays (but legal) have
 *      c->num_envs rows.
 * @return OFC_OK, OFC_E_COUNT (range or a NULL pointer), OFC_E_VALUE (an output array
 *         shares a byte with the slots, c, c->rules or c->ev, or a slot with c,
 *         c->rules or c->ev), or the error of ofc_vecenv_config_check() for c
 *         (nothing written). */
OFC_API int32_t ofc_vecenv_write_rows(const ofc_vecenv_config *c,
                                      const ofc_vecenv_slot *slots, uint32_t first,
                                      uint32_t count, const ofc_vecenv_out *out);

/*! @brief Start environments first .. first+count-1 and write their outputs (rewards,
 * terminations and final rewards 0).
 * @param c        the configuration, checked by ofc_vecenv_config_check() first.
 * @param slots    the num_envs slots.
 * @param first    the first environment.
 * @param count    how many (first + count <= c->num_envs).
 * @param restart  1: from deal 0 of the environment seed ofc_deal_seed(c->seed, i)
 *                 (button 0, no Fantasyland); 0: the next deal of the match (an
 *                 unfinished deal is abandoned: it earns no Fantasyland, and the
 *                 button moves on as after a deal without Fantasyland).
 * @param out      the output arrays.
 * @pre out's arrays (but legal) have c->num_envs rows; with restart 0, each slot
 *      started was left by ofc_vecenv_reset() or ofc_vecenv_step() under c, or passed
 *      ofc_vecenv_slot_check() (its deal and next deal are read, not checked); with
 *      restart 1 a slot may hold any bytes.
 * @return OFC_OK, OFC_E_COUNT (range or a NULL pointer), OFC_E_VALUE (an output array
 *         shares a byte with the slots, c, c->rules or c->ev, or a slot with c,
 *         c->rules or c->ev: nothing started or written), the error of
 *         ofc_vecenv_config_check() for c (nothing started), OFC_E_NO_DECISION (an
 *         environment played OFC_VE_MAX_SKIPPED_DEALS deals in a row without an agent
 *         decision: it is left at the end of its last deal, the others are started;
 *         see "Deals without an agent decision"), or an engine error (OFC_E_MEMORY:
 *         the environments before it are started, it is left unplayable as by
 *         ofc_vecenv_step(), the ones after it are not touched). */
OFC_API int32_t ofc_vecenv_reset(const ofc_vecenv_config *c, ofc_vecenv_slot *slots,
                                 uint32_t first, uint32_t count, uint32_t restart,
                                 const ofc_vecenv_out *out);

/*! @brief Step environments first .. first+count-1: apply each one's decision, play on
 * in C to the next agent decision (starting the next deal with autoreset), write the
 * outputs.  Every decision is read once (ofc_fast.h, "Threads") and validated before
 * any environment plays on: on a validation error no environment changes (the
 * decisions given to the environments before it are taken back).  An engine error
 * during the play (OFC_E_MEMORY: the Fantasyland solver's work block could not be
 * allocated) stops the call at that environment (*bad): the environments before it
 * are stepped (their rows written), the ones after it are not, and it is left
 * unplayable, its deal marked over (its row not written; a step there is
 * OFC_E_GAME_OVER) until ofc_vecenv_reset() starts it again.
 * @param c           the configuration, checked by ofc_vecenv_config_check() first.
 * @param slots       the num_envs slots.
 * @param first       the first environment.
 * @param count       how many.
 * @param actions     num_envs action ids (row i for environment i), or
 *                    OFC_VE_NO_ACTION to play placements[i].
 * @param placements  num_envs x OFC_GAME_MAX_DEALT destinations (0 front, 1 middle,
 *                    2 back, OFC_DISCARD) per dealt card in deal order, or NULL.
 * @param active      num_envs flags (0: leave that environment alone), or NULL (all).
 * @param out         the output arrays.
 * @param bad         receives the first environment that failed (may be NULL).
 * The output arrays may share bytes with actions, placements and active (every
 * decision is read before any output is written), not with the slots, c, c->rules or
 * c->ev.
 * @pre each slot stepped was left by ofc_vecenv_reset() or ofc_vecenv_step() under c,
 *      or passed ofc_vecenv_slot_check() (a saved environment restored): its state is
 *      read, not checked (other bytes, such as slots never reset, may read and write
 *      out of bounds); out's arrays (but legal) have c->num_envs rows.
 * @return OFC_OK; OFC_E_COUNT (range, NULL pointer, a missing placement);
 *         OFC_E_VALUE (an output array, actions, placements or active shares a byte
 *         with the slots, an output array or a slot with c, c->rules or c->ev:
 *         nothing changed or written); the error
 *         of ofc_vecenv_config_check() for c; OFC_E_GAME_OVER (a finished deal
 *         without autoreset, or an environment an engine error left unplayable);
 *         OFC_E_ACTION (an illegal action id, or an action for a full set); or a
 *         placement's error
 *         (OFC_E_DESTINATION, OFC_E_DISCARDS, OFC_E_ROW_FULL); OFC_E_NO_DECISION
 *         after the play (not a validation error: every environment is stepped, and
 *         the ones that played OFC_VE_MAX_SKIPPED_DEALS deals in a row without an
 *         agent decision are left at the end of their last deal, *bad the first; see
 *         "Deals without an agent decision"); OFC_E_MEMORY (see above). */
OFC_API int32_t ofc_vecenv_step(const ofc_vecenv_config *c, ofc_vecenv_slot *slots,
                                uint32_t first, uint32_t count, const int64_t *actions,
                                const uint8_t *placements, const uint8_t *active,
                                const ofc_vecenv_out *out, uint32_t *bad);

/*! @brief The encoding of an observation (layout at the top of this header).
 * @param o        a seat's view (ofc_game_observe()).
 * @param lowball  1 for a 2-7 middle.
 * @param out      OFC_ENC_SIZE bytes.
 * @pre o, out != NULL. */
OFC_API void ofc_encode(const ofc_observation *o, uint32_t lowball,
                        uint8_t out[OFC_ENC_SIZE]);

/*! @brief The encoding of `seat`'s view of a game (ofc_game_observe + ofc_encode).
 * @param g        a state made by ofc_game_init().
 * @param seat     the observing seat.
 * @param lowball  1 for a 2-7 middle.
 * @param out      OFC_ENC_SIZE bytes (untouched on error).
 * @pre g is NULL or a state ofc_game_init() made.
 * @return OFC_OK, OFC_E_SEAT when seat >= g->players, or OFC_E_COUNT when g or out is
 *         NULL. */
OFC_API int32_t ofc_encode_game(const ofc_game *g, uint32_t seat, uint32_t lowball,
                                uint8_t out[OFC_ENC_SIZE]);

/*! @brief The float scale of encoding byte j (1 for the card planes).
 * @param j  the byte's index.
 * @pre none (any j).
 * @return the scale, 0 for j >= OFC_ENC_SIZE. */
OFC_API float ofc_encoding_scale(uint32_t j);

#ifdef __cplusplus
}
#endif

#endif /* OFC_VECENV_H */
