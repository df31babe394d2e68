/*
 * ofc_settle.h -- settling a whole table of 2-4 seats (docs/rules.md sections 3, 4, 7, 9:
 * R-SETTLE-*, R-STAKES-*, R-VAR-HOUSE-1, R-VAR-POOL-1, R-VAR-SINGLE-1, R-VAR-SUR-*,
 * R-VAR-ACES-1, R-NAT-*).  Plain C99, no allocation, no global mutable state,
 * thread-safe; uses the card and rule conventions of ofc_fast.h.
 *
 * A deal's result is two things: the pair scoring of ofc_fast.h (an ofc_rules) and the
 * table rules here (an ofc_table_rules: who plays whom, naturals, surrender, side bets,
 * table stakes).  Fill both once per rule set, then call ofc_settle() once per deal.
 *
 * Order of business (R-FLOW-CP-4, R-SETTLE-*)
 * -------------------------------------------
 *  1. The settlement order (ofc_settlement_order()): the first seat (left of the
 *     button, or the button under R-SETTLE-3) against each other seat clockwise, then
 *     the next seat, and so on.  Under `house` only the pairs holding the button seat
 *     settle rows, naturals and surrenders (the aces bet is between every two seats).
 *  2. Declared naturals, pair by pair (a pair holding a declared natural settles
 *     nothing else but the aces bet), by the table's naturals rule (R-NAT-6).
 *  3. Surrenders: a pair with one surrendered seat pays the surrender cost to the
 *     other seat; two surrendered seats exchange nothing.
 *  4. The rows of the seats that set them ("ordinary" seats), in one of three modes:
 *     - pairwise (default): each remaining pair is scored by ofc_score_evals(), the
 *       house winning tied rows under `house`; when every pair of a table of 3-4 is
 *       scored this way, a seat that swept every opponent is marked and its pairs are
 *       scored again with ofc_pair_context.a/b_sweeps_all (only when the rules make
 *       that differ: sweep_all_multiplier != sweep_multiplier or sweep_all_bonus);
 *     - pool (pool_ante > 0, R-VAR-POOL-1): each ordinary seat antes per row, the best
 *       row takes the row's pot (ties split, the odd unit to the first of the tied
 *       seats in settlement order; fouled boards win nothing; a row nobody contests
 *       takes no antes), a seat winning all three rows alone gets pool_sweep_extra
 *       from each other ordinary seat; the per-seat gains are then written as pair
 *       transfers (losers pay winners, pair by pair in settlement order);
 *     - single winner (single_winner > 0, R-VAR-SINGLE-1): the first ordinary seat
 *       (by seat number) beating every other ordinary seat on two rows or more
 *       collects single_winner from each other ordinary seat (a seat that declared
 *       a natural pays it nothing, nor one that surrendered: its surrender cost, step
 *       3, is all it pays, R-VAR-SUR-1/3).
 *  5. The aces side bet (aces_bet): between every two seats, settlement order.
 *  6. Table stakes (when the input has stacks): each pair's total is capped in
 *     settlement order, pairs with a natural first (R-STAKES-*; ofc_apply_stakes());
 *     pool transfers are pair transfers, so the cap applies to them as to any other.
 *     The cut part of a pair's total is itemised as OFC_ITEM_STAKES, payer/payee
 *     being the direction of the cut (the nominal loser "receives" the cut).
 *
 * Performance: the plain pairwise path (no items) evaluates each board once and scores
 * each pair once: about 0.11 us for 3 seats with warm caches, 0.14 us on 200,000 random
 * deals (2 seats 0.06-0.08 us, 4 seats 0.17-0.18 us; items add 5-15 %) on an x86-64
 * core (benchmarks/bench_settle.c).
 *
 * Example
 * -------
 * @code
 * static ofc_rules r;                        // 95 KB: not on a small stack
 * ofc_table_rules t;
 * static ofc_settle_input in;
 * static ofc_settlement s;
 * const uint8_t board0[13] = {42, 41, 0, 31, 30, 29, 12, 13, 51, 47, 43, 39, 35};
 * uint8_t used[52] = {0};
 * int seat, i, c = 0;
 * assert(ofc_rules_init_ofc(&r) == OFC_OK && ofc_table_rules_init(&t) == OFC_OK);
 * assert(ofc_settle_input_init(&in, 3, 0) == OFC_OK);   // 3 seats, seat 0 deals
 * memcpy(in.cards[0], board0, 13);                      // boards in row order
 * for (i = 0; i < 13; i++)
 *     used[board0[i]] = 1;
 * for (seat = 1; seat < 3; seat++)                      // the others: the lowest cards
 *     for (i = 0; i < 13; i++) {
 *         while (used[c])
 *             c++;
 *         used[c] = 1;
 *         in.cards[seat][i] = (uint8_t)c;
 *     }
 * assert(ofc_settle(&r, &t, &in, OFC_SETTLE_ITEMS, &s) == OFC_OK);
 * assert(s.net[0] + s.net[1] + s.net[2] == 0 && s.net[0] > 0 && s.n_items > 0);
 * @endcode
 */
/* ofc_fast.h first, outside the guard: it includes this header at its end, after its
 * own declarations, so that either header may be included first. */
#include "ofc_fast.h"

#ifndef OFC_SETTLE_H
#define OFC_SETTLE_H

#include "ofc_export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes of this header (ofc_status and ofc_solver.h hold the others). */
#define OFC_E_SEAT (-20)        /* players outside 2..4, button not a seat, or a
                                 * surrender/declaration for a seat not at the table */
#define OFC_E_MAX_PLAYERS (-21) /* more players than the table rules allow */
#define OFC_E_SURRENDER (-22)   /* a seat surrendered but the rules allow no surrender */
#define OFC_E_CONFLICT (-23)    /* a seat both surrendered and declared a natural */
#define OFC_E_NO_NATURALS (-24) /* a natural was declared but the rules play none */
#define OFC_E_NATURAL (-25)     /* a declared natural the cards do not make, the rules
                                 * do not play, or an id outside the ofc_natural ids */
#define OFC_E_HIDDEN (-26)      /* the aces side bet needs a seat's cards (none given) */
#define OFC_E_STACKS (-27)      /* a stack outside 0..OFC_STACK_MAX */

#define OFC_SETTLE_MAX_SEATS 4
#define OFC_SETTLE_MAX_PAIRS 6  /* 4 seats */
#define OFC_SETTLE_MAX_ITEMS 36 /* never reached: at most 5 items a pair */
#define OFC_STACK_MAX 1000000000 /* largest stack (so stacks after fit int32) */
#define OFC_NO_CARD 0xFF         /* a card slot left empty (a seat showing no cards) */
#define OFC_DECLARE_NONE (-1)    /* ofc_settle_input.declared: no natural declared */
#define OFC_DECLARE_BEST (-2)    /* declared: the best natural the rules play that the
                                  * cards make */

/*! ofc_settle() flags. */
#define OFC_SETTLE_ITEMS 1u /* fill ofc_settlement.items (the itemised transfers) */

/*! First seat of the settlement order (R-SETTLE-1/2, R-SETTLE-3). */
typedef enum ofc_settle_start {
    OFC_START_LEFT_OF_BUTTON = 0,
    OFC_START_BUTTON = 1
} ofc_settle_start;

/*! Table-stakes model (R-STAKES-*; see ofc_apply_stakes()). */
typedef enum ofc_stakes_model {
    OFC_STAKES_WIN_CAP = 0, /* pay at most your chips, win at most your start stack */
    OFC_STAKES_CHIPS = 1    /* every chip is used once, won or lost (EX-3) */
} ofc_stakes_model;

/*! Natural against natural (R-NAT-6; see ofc_natural_payment()). */
typedef enum ofc_naturals_rule {
    OFC_NATRULE_HIGHER_FULL = 0,      /* the higher natural wins its full units */
    OFC_NATRULE_EQUAL_CANCEL = 1,     /* as HIGHER_FULL, equal units cancel (dragon
                                       * against a non-dragon excepted) */
    OFC_NATRULE_DIFFERENCE = 2        /* the higher-valued wins the difference */
} ofc_naturals_rule;

/*! Kinds of settlement items (the Python names in comments). */
typedef enum ofc_item_kind {
    OFC_ITEM_ROWS = 0,          /* "rows": row units of a scored pair */
    OFC_ITEM_BONUS = 1,         /* "bonus": sweep / majority / overall units */
    OFC_ITEM_ROYALTIES = 2,     /* "royalties" */
    OFC_ITEM_NATURAL = 3,       /* "natural" */
    OFC_ITEM_SURRENDER = 4,     /* "surrender" */
    OFC_ITEM_POOL = 5,          /* "pool" */
    OFC_ITEM_SINGLE_WINNER = 6, /* "single_winner" */
    OFC_ITEM_ACES = 7,          /* "aces" */
    OFC_ITEM_STAKES = 8         /* "stakes": the part of a pair's total the stakes cut */
} ofc_item_kind;

/*! Everything beyond a pair that a table's settlement needs, compiled once from a
 * rule set (ofc_fast._compiled.table_rules() in Python) and then only read. */
typedef struct ofc_table_rules {
    uint8_t max_players;      /* 2..4 */
    uint8_t house;            /* 1: the button seat is the house (R-VAR-HOUSE-1) */
    uint8_t start;            /* ofc_settle_start */
    uint8_t stakes;           /* ofc_stakes_model */
    int32_t pool_ante;        /* 0: no pool; 1..1000: pool mode, ante per row */
    int32_t pool_sweep_extra; /* 0..1000 (0 when pool_ante is 0) */
    int32_t single_winner;    /* 0: off; 1..1000 units (R-VAR-SINGLE-1) */
    int32_t surrender_cost;   /* < 0: surrender not allowed; 0..1000 units */
    uint8_t aces_bet;         /* 1: play the aces side bet */
    uint8_t naturals_rule;    /* ofc_naturals_rule */
    uint8_t reserved[2];      /* 0 */
    int32_t aces_value[5];    /* 0..1000: value of holding 0..4 aces */
    uint32_t natural_mask;    /* OFC_NAT_BIT(n) set when the rules play natural n */
    int32_t natural_units[OFC_NAT_COUNT]; /* 0..1000 per played natural */
    int8_t natural_rank[OFC_NAT_COUNT];   /* place in the rules' ascending list (higher
                                           * ranks higher): 0..played-1, distinct;
                                           * -1 for a natural not played */
    uint8_t reserved2[3];     /* 0 */
} ofc_table_rules;

/*! One deal to settle.  Start from ofc_settle_input_init(): in a zeroed struct every
 * seat declares six pairs (natural id 0), which ofc_settle() refuses. */
typedef struct ofc_settle_input {
    uint8_t players;          /* 2..4 (at most the table's max_players) */
    uint8_t button;           /* 0..players-1 */
    /* Per seat: a seat that sets rows gives 13 cards in board order (front 3, middle
     * 5, back 5); a surrendered or declaring seat gives its 13 cards in any order; a
     * surrendered seat may give none: all 13 OFC_NO_CARD (then no aces bet; a
     * declaring seat must give its cards). */
    uint8_t cards[OFC_SETTLE_MAX_SEATS][OFC_BOARD_CARDS];
    uint8_t surrendered;      /* bit s: seat s surrendered (R-VAR-SUR-*) */
    int8_t declared[OFC_SETTLE_MAX_SEATS]; /* ofc_natural id declared by seat s,
                                            * OFC_DECLARE_BEST, or OFC_DECLARE_NONE */
    uint8_t has_stacks;       /* 1: apply table stakes to `stacks`; 0: none */
    int32_t stacks[OFC_SETTLE_MAX_SEATS];  /* chips at the start, 0..OFC_STACK_MAX */
} ofc_settle_input;

/*! One transfer: payer pays payee `amount` (> 0) for `kind`, within pair (a, b). */
typedef struct ofc_settle_item {
    uint8_t a, b;             /* the pair, in settlement order */
    uint8_t kind;             /* ofc_item_kind */
    uint8_t payer, payee;
    uint8_t reserved[3];      /* 0 */
    int32_t amount;
} ofc_settle_item;

/*! One row-scored pair: a against b, in settlement order. */
typedef struct ofc_settle_pair {
    uint8_t a, b;
    uint8_t reserved[2];      /* 0 */
    ofc_pair_score score;     /* seen from a (sweep-all context included) */
} ofc_settle_pair;

/*! The result of ofc_settle().  Every field below is written on OFC_OK except
 * `items` (only with OFC_SETTLE_ITEMS; n_items is 0 without it); entries past the
 * counts and eval of seats not in `evaluated` are left as they were. */
typedef struct ofc_settlement {
    int32_t net[OFC_SETTLE_MAX_SEATS];          /* per seat, sums to zero; 0 past players */
    int32_t stacks_after[OFC_SETTLE_MAX_SEATS]; /* stacks + net when has_stacks, else 0 */
    int8_t winner;            /* single-winner mode's winner, else -1 */
    uint8_t evaluated;        /* bit s: seat s set rows; eval[s] holds its board */
    uint8_t n_pairs;          /* row-scored pairs in `pairs` */
    uint8_t n_items;          /* items in `items` */
    int8_t natural[OFC_SETTLE_MAX_SEATS];       /* natural id seat s declared (the best
                                                 * one for OFC_DECLARE_BEST), else -1 */
    uint32_t natural_key[OFC_SETTLE_MAX_SEATS]; /* its tie-break key (ofc_naturals.h) */
    /* For a seat with natural[s] >= 0: a board showing three straights / flushes /
     * straight flushes when that is the natural (ofc_naturals_result's board), else all
     * OFC_NO_CARD; untouched for the other seats. */
    uint8_t natural_board[OFC_SETTLE_MAX_SEATS][OFC_BOARD_CARDS];
    int8_t bad_seat;          /* on an error: the seat at fault, else -1 */
    uint8_t bad_card;         /* on OFC_E_CARD / OFC_E_DUPLICATE: the card, else 0xFF */
    uint8_t reserved[2];      /* 0 */
    ofc_board_eval eval[OFC_SETTLE_MAX_SEATS];
    ofc_settle_pair pairs[OFC_SETTLE_MAX_PAIRS];
    ofc_settle_item items[OFC_SETTLE_MAX_ITEMS];
} ofc_settlement;

/*! @brief Fill `t` with the plain table: up to 4 players, left of the button first,
 * WIN_CAP stakes, pairwise rows, no house, pool, single winner, surrender, aces bet
 * or naturals.
 * @param t  the struct to fill.
 * @return OFC_OK, or OFC_E_VALUE when t is NULL. */
OFC_API int32_t ofc_table_rules_init(ofc_table_rules *t);

/*! @brief Check every field of a table's rules.
 * @param t  the table rules; may be NULL.
 * @return OFC_OK when every field is in its documented range and the modes combine
 *         (pool excludes house and single winner; house excludes single winner),
 *         else OFC_E_RULES (also for NULL). */
OFC_API int32_t ofc_table_rules_check(const ofc_table_rules *t);

/*! @brief Start an empty deal: every card OFC_NO_CARD, nobody surrendered or
 * declared, no stacks.  Values are stored as given (ofc_settle() validates them).
 * @param in       the struct to fill.
 * @param players  the number of seats.
 * @param button   the dealer's seat.
 * @return OFC_OK, or OFC_E_VALUE when in is NULL. */
OFC_API int32_t ofc_settle_input_init(ofc_settle_input *in, uint8_t players,
                                      uint8_t button);

/*! @brief Settle one deal (see the order of business above).
 * @param rules  pair scoring; its scalar fields are checked (its tables, any int16
 *               value of which is memory-safe, by ofc_rules_check() only).
 * @param table  the table's rules (checked).
 * @param in     the deal (validated).
 * @param flags  0 or OFC_SETTLE_ITEMS.
 * @param out    receives the result.
 * @return OFC_OK; OFC_E_VALUE (NULL pointer, unknown flag, has_stacks not 0 or 1, out
 *         sharing a byte with *rules, *table or *in: out untouched);
 *         OFC_E_RULES (rules' scalar fields or table);
 *         OFC_E_MAX_PLAYERS, OFC_E_SEAT, OFC_E_SURRENDER, OFC_E_CONFLICT;
 *         OFC_E_COUNT (a seat setting rows shows no cards, or a seat mixes cards
 *         and OFC_NO_CARD), OFC_E_CARD, OFC_E_DUPLICATE (across all seats);
 *         OFC_E_NO_NATURALS, OFC_E_COUNT (a declaring seat shows no cards),
 *         OFC_E_NATURAL, OFC_E_HIDDEN, OFC_E_STACKS, checked in this order.  On an
 *         error (out not NULL) out->bad_seat / bad_card say where when it concerns a
 *         seat or a card, else they are -1 / 0xFF; the rest of *out is unspecified. */
OFC_API int32_t ofc_settle(const ofc_rules *rules, const ofc_table_rules *table,
                           const ofc_settle_input *in, uint32_t flags, ofc_settlement *out);

/*! @brief Pairs in settlement order (R-SETTLE-2/3): pairs[k][0] against
 * pairs[k][1].
 * @param players  2..4.
 * @param button   the dealer's seat.
 * @param start    an ofc_settle_start.
 * @param pairs    receives the pairs; room for OFC_SETTLE_MAX_PAIRS.
 * @return the number of pairs (players * (players - 1) / 2), or OFC_E_SEAT (players
 *         outside 2..4, button not a seat), OFC_E_VALUE (start unknown, pairs NULL). */
OFC_API int32_t ofc_settlement_order(uint32_t players, uint32_t button, uint32_t start,
                                     uint8_t pairs[][2]);

/*! @brief Cap n nominal pair transfers, in order, under table stakes (R-STAKES-*):
 * amount[k] > 0: pairs[k][1] pays pairs[k][0]; < 0 the reverse.
 *  - WIN_CAP (R-STAKES-1/2): a loser pays at most the chips he has now; a winner wins
 *    at most his stack at the start, and once his running win reaches it his hand is
 *    complete: he neither wins nor loses anything further.
 *  - CHIPS (R-STAKES-3): each seat's capacity starts at its stack; a transfer is at
 *    most both capacities and uses up that much of each.
 * @param model   an ofc_stakes_model.
 * @param stacks  `seats` stacks, 0..OFC_STACK_MAX (never NULL: seats >= 1).
 * @param seats   1..256.
 * @param pairs   n pairs of two different seats (each < `seats`); may be NULL only
 *                when n == 0.  Before C23 a non-const uint8_t[][2] (as
 *                ofc_settlement_order() fills) passes as (const uint8_t(*)[2])pairs:
 *                without the cast, gcc -pedantic warns of the qualifier.
 * @param amount  n nominal transfers (any amount but INT32_MIN); may be NULL only
 *                when n == 0.
 * @param n       number of transfers.
 * @param actual  receives the n capped transfers (same signs); may be NULL only when
 *                n == 0.
 * @return OFC_OK, OFC_E_STACKS (a stack out of range), OFC_E_SEAT (a seat out of
 *         range, or a pair of one seat twice), OFC_E_VALUE (model, an amount, seats, stacks NULL, or pairs, amount
 *         or actual NULL with n > 0, or actual sharing a byte with pairs, or with
 *         amount without being amount itself: the capped transfers would overwrite
 *         ones not yet read; actual == amount caps them in place), checked before
 *         any transfer is paid: on an
 *         error `actual` is left as it is (but see ofc_fast.h, Threads: beyond 256
 *         transfers, ofc_apply_stakes_scratch() reads them once). */
OFC_API int32_t ofc_apply_stakes(uint32_t model, const int32_t *stacks, size_t seats,
                                 const uint8_t pairs[][2], const int32_t *amount, size_t n,
                                 int32_t *actual);

/*! One transfer as ofc_apply_stakes_scratch() keeps it: amount, then the pair. */
typedef struct ofc_stakes_transfer {
    int32_t amount;
    uint8_t pair[2];
} ofc_stakes_transfer;

/*! @brief ofc_apply_stakes() reading each transfer once, however many: the transfers
 * are copied to `scratch` as they are checked, and paid from there.  Without it (NULL),
 * beyond 256 transfers they are read again to be paid (ofc_fast.h, Threads).
 * @param model        as for ofc_apply_stakes().
 * @param stacks       as for ofc_apply_stakes().
 * @param seats        as for ofc_apply_stakes().
 * @param pairs        as for ofc_apply_stakes().
 * @param amount       as for ofc_apply_stakes().
 * @param n            as for ofc_apply_stakes().
 * @param actual       as for ofc_apply_stakes().
 * @param scratch      room for scratch_len transfers, sharing no byte with stacks,
 *                     pairs, amount or actual; its contents on return are unspecified.
 *                     NULL (with scratch_len 0): ofc_apply_stakes().
 * @param scratch_len  at least n when scratch is not NULL; 0 when it is.
 * @pre scratch_len does not exceed the room at scratch.
 * @return as ofc_apply_stakes(); also OFC_E_VALUE when scratch is NULL with a
 *         scratch_len, or has room for fewer than n transfers, or shares a byte with
 *         stacks, pairs, amount or actual (checked before anything is read). */
OFC_API int32_t ofc_apply_stakes_scratch(uint32_t model, const int32_t *stacks, size_t seats,
                                         const uint8_t pairs[][2], const int32_t *amount,
                                         size_t n, int32_t *actual,
                                         ofc_stakes_transfer *scratch, size_t scratch_len);

/*! @brief What the seat holding natural b pays the seat holding natural a (negative: a pays
 * b) under the table's naturals rule (R-NAT-2, R-NAT-6); -1 for an ordinary hand.
 * Natural ids must be played by the table; keys are the tie-break keys of
 * ofc_naturals().  Against an ordinary hand a natural wins its units.
 * @param table   the table's rules (its naturals and their units).
 * @param a       a natural id, or -1.
 * @param key_a   its tie-break key.
 * @param b       the other seat's natural id, or -1.
 * @param key_b   its tie-break key.
 * @param status  receives the status; may be NULL.
 * @return the payment; 0 when both are -1.  *status (may be NULL) receives OFC_OK, or
 *         OFC_E_NATURAL when an id is neither -1 nor played by the table, or
 *         OFC_E_RULES when table is NULL or fails ofc_table_rules_check() (the
 *         payment is then 0). */
OFC_API int32_t ofc_natural_payment(const ofc_table_rules *table, int32_t a, uint32_t key_a,
                                    int32_t b, uint32_t key_b, int32_t *status);

#ifdef __cplusplus
}
#endif

#endif /* OFC_SETTLE_H */
