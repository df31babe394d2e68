/* ofc_search_internal.h -- what the three parts of the search share (private): the
 * completion of a board (ofc_complete.c), the rollouts (ofc_rollout.c) and the exact
 * expectimax (ofc_exact.c), all documented in ofc_search.h. */
#ifndef OFC_SEARCH_INTERNAL_H
#define OFC_SEARCH_INTERNAL_H

#include "ofc_internal.h"
#include "ofc_search.h"


#define ROW_START(r) ((r) == 0 ? 0 : (r) == 1 ? 3 : 8)
#define ROW_SIZE(r) ((int)ofc_row_size((uint32_t)(r)))
#define MAX_COMPLETIONS 1024 /* completions of the searcher's last round kept at once */
#define OFC_SEARCH_FAKE_KEY 0x7365717565636eULL /* stream of the sequential policy */
#define OFC_SEARCH_OPP_KEY 0x6f70706f6e656e74ULL /* stream of the random opponents */

/* ------------------------------------------------------------ the context */

/* Read-only inputs shared by every completion of a call. */
typedef struct env {
    const ofc_rules *r;
    const ofc_fl_rules *fl;
    const ofc_ev_tables *ev;
    const ofc_search_model *m;
    int lowball;
} env;

struct own_set; /* ofc_exact.c */

/* One completion search: the board's known cards, the kept cards, the best so far
 * (or, with `all`, every board: the completions exact search weighs). */
typedef struct cx {
    const env *e;
    int in_fl;
    uint8_t row[3][5]; /* known cards of each row */
    int known[3];      /* how many */
    int free_[3];      /* free slots of each row */
    uint8_t kept[13];  /* kept future cards */
    int nkept;
    uint8_t cur[13];   /* the board being examined */
    uint8_t best[13];
    double best_value;
    int have;          /* a board (maybe fouled) is recorded */
    int legal;         /* a legal board is recorded */
    uint64_t leaves;
    struct own_set *all; /* NULL, or where every board goes (no pruning) */
    const int32_t *stop; /* the caller's stop word (NULL: none), read every
                          * OFC_SX_STOP_EVERY leaves (ofc_best_completion_stop()) */
    uint32_t tick;       /* leaves since the stop word was last read */
    int stopped;         /* it was nonzero: every loop ends */
} cx;

#define OFC_SX_STOP_EVERY 256u /* leaves between two reads of a stop word (well under 1 ms) */

/* A caller's stop word, which another thread sets: read from memory each time, by an
 * atomic (relaxed) load where the compiler has one, so that a writer's atomic store
 * makes no data race (ThreadSanitizer reported the volatile read as one, whatever the
 * writer did); elsewhere a volatile read.  The one reader of ofc_search_exact_stop()'s
 * and ofc_best_completion_stop()'s words. */
static inline int32_t ofc_sx_read_stop(const int32_t *stop)
{
#if defined(__GNUC__) || defined(__clang__)
    return __atomic_load_n(stop, __ATOMIC_RELAXED);
#else
    return *(const volatile int32_t *)stop;
#endif
}

/* A finished board, evaluated, with the Fantasyland cards it earns. */
typedef struct done {
    ofc_board_eval ev;
    int next;
} done;

/* Fantasyland cards a legal board with these strengths earns (0 when fouled). */
int ofc_sx_next_fl(const env *e, int in_fl, const uint16_t s[3], int foul);

/* A complete board of the context: valued, kept when it beats the best (or recorded
 * for exact search). */
void ofc_sx_cx_leaf(cx *c, const uint16_t s[3]);

/* Next k-subset bit mask after x (Gosper's hack); x != 0. */
uint32_t ofc_sx_next_subset(uint32_t x);

/* The best policy: every discard choice of round i.. (kept so far: c->nkept). */
void ofc_sx_cx_discards(cx *c, const uint8_t *cards, int rounds, const uint8_t *rn,
                        const uint8_t *rk);

/* Loads a board's known cards into a fresh context. */
void ofc_sx_cx_init(cx *c, const env *e, const uint8_t board[13], int in_fl);

/* A completion without checks: the best board into c->best. */
void ofc_sx_complete(cx *c, const env *e, const uint8_t board[13], const uint8_t *cards,
                     int rounds, const uint8_t *rn, const uint8_t *rk, int in_fl,
                     uint32_t policy);

/* The caller's position read once into *local (ofc_fast.h, Threads): a public search
 * function checks and uses only this copy.  NULL stays NULL. */
static inline const ofc_search_pos *ofc_sx_pos_copy(const ofc_search_pos *pos,
                                                    ofc_search_pos *local)
{
    return ofc_read_once(pos, sizeof *local, local);
}

/* Checks the rules, Fantasyland rules, tables and model of a call into e. */
int32_t ofc_sx_env_init(env *e, const ofc_rules *rules, const ofc_fl_rules *fl,
                        const ofc_ev_tables *ev, const ofc_search_model *m);

/* 1 when the n bytes at out share a byte with what a search still reads while it
 * writes its outputs: e's rules, Fantasyland rules, tables, model and the model's value
 * net, and the stop flag (the call then refuses: OFC_E_VALUE, nothing written). */
int ofc_sx_out_over(const env *e, const int32_t *stop, const void *out, size_t n);

/* Cards a seat still receives. */
int ofc_sx_seat_cards(const ofc_search_seat *s);

/* A finished board of a seat, evaluated, with the Fantasyland cards it earns. */
void ofc_sx_finish(const env *e, const uint8_t board[13], int in_fl, done *d);

/* The searcher's value of its finished board against the finished others. */
double ofc_sx_deal_value(const env *e, const ofc_search_pos *pos, const done *me,
                         const done *others);

/* Checks the arguments of a rollouts or exact call; the candidate boards of the
 * actions into boards. */
int32_t ofc_sx_search_args(env *e, const ofc_rules *rules, const ofc_fl_rules *fl,
                           const ofc_ev_tables *ev, const ofc_search_model *m,
                           const ofc_search_pos *pos, const uint8_t *actions,
                           uint32_t n_actions, uint8_t (*boards)[13]);

/* Completes every other seat from deck (after the searcher's own cards); with `cap`,
 * a seat with more than OFC_SEARCH_BEST_LEAVES completions uses the fast policy;
 * with `rng`, a seat may play at random instead (plays_random()), or, with
 * m->opp_self, as the searcher's sequential rollouts do (ofc_search.h, Opponents). */
void ofc_sx_complete_others(const env *e, const ofc_search_pos *pos, const uint8_t *deck,
                            uint32_t policy, int cap, ofc_rng *rng, done *others);

/* Adds what one finished board of the searcher does to *s (NULL: nothing). */
void ofc_sx_stats_add(ofc_search_stats *s, const done *d, double weight);

/* Completions of one seat's rounds (every discard choice, at most nkept! fills). */
uint64_t ofc_sx_seat_leaves(const ofc_search_seat *s);

/* ofc_sx_cx_leaf() with `all`: keep the board (finished) for exact search. */
void ofc_sx_own_record(cx *c);

#endif /* OFC_SEARCH_INTERNAL_H */
