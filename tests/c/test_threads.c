/* test_threads.c -- the batch kernels, a learned value model (ofc_vm_eval(),
 * ofc_value_board(), the value bot's ofc_value_best() and its labels'
 * ofc_value_expect()), the searches (rollouts, exact expectimax; the rollouts also
 * with the learned model deciding the searcher's rounds), the solvers (the
 * 13-card arranger, the Fantasyland setter), the heuristic's board values and table
 * settlement, from two threads on the same read-only inputs, rule set, tables and
 * model (the library's promise: no global mutable state, inputs only read).
 * Each thread's results must equal the single-threaded ones bit for bit.
 * tests/c/run.sh also runs this program under ThreadSanitizer, which reports any data
 * race inside the library.  (The game engine and the vector environment run from two
 * threads in tests/c/test_vecenv.c.) */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "model_file.h"
#include "ofc_fast.h"
#include "ofc_heuristic.h"
#include "ofc_search.h"
#include "ofc_value.h"

#define N_HANDS 3000
#define N_PAIRS 1500
#define ROUNDS 4
#define N_VALUES 400 /* boards of 7 cards valued by the model */
#define VM_HIDDEN 16 /* the model: nets 64 -> 16 -> 1, for 7, 9 and 11 cards */
#define VM_NETS 3
#define N_SETTINGS 6   /* hands of 13 cards set by ofc_best_settings() */
#define N_FL 2         /* Fantasyland hands of 14 cards */
#define N_DEALS 200    /* 3-seat deals settled */
#define N_SAMPLES 12   /* rollout samples */

/* The shared, read-only inputs and the single-threaded answers. */
typedef struct shared {
    ofc_rules ofc, classic;
    uint8_t hands5[5 * N_HANDS], hands3[3 * N_HANDS];
    uint8_t a[13 * N_PAIRS], b[13 * N_PAIRS];
    int32_t rank5[N_HANDS], rank3[N_HANDS], royalty[3 * N_PAIRS];
    int32_t net_ofc[N_PAIRS], net_classic[N_PAIRS];
    uint32_t naturals[N_PAIRS];
    uint8_t boards7[13 * N_VALUES];
    float x[OFC_VF_N * N_VALUES];
    double eval[N_VALUES], value[N_VALUES];
} shared;

static shared data;
static ofc_vmodel vm;       /* about 1 MB */
static ofc_ev_tables ev;    /* about 380 KB */
static ofc_value_ctx vctx;  /* rules, ev and vm above */
static uint8_t vm_bytes[64 + 4 * VM_NETS * (5 + VM_HIDDEN * (OFC_VF_N + 1) + VM_HIDDEN + 1)];

/* The searches', solvers', heuristic's and settlement's shared inputs and their
 * single-threaded answers. */
typedef struct search_data {
    ofc_fl_rules fl;
    ofc_table_rules table;
    ofc_search_model model, exact_model; /* exact search: no opp_self */
    ofc_search_model learned;            /* model with the value model vm */
    ofc_search_pos early, late; /* an early decision (rollouts), a late one (exact) */
    uint8_t early_acts[OFC_ACTION_SPACE], late_acts[OFC_ACTION_SPACE];
    uint32_t n_early, n_late;
    double sum[OFC_ACTION_SPACE], sq[OFC_ACTION_SPACE], exact[OFC_ACTION_SPACE];
    ofc_search_stats stats[OFC_ACTION_SPACE];
    double learned_sum[OFC_ACTION_SPACE], best, mean, var;
    uint8_t best_action, best_after[13];
    uint64_t dead; /* the early position's cards out of the searcher's deck */
    uint8_t hands[13 * N_SETTINGS], boards[13 * N_SETTINGS];
    double setting_values[N_SETTINGS];
    uint8_t fl_hands[14 * N_FL];
    ofc_fl_solution fl_sol[N_FL];
    double heur[N_PAIRS];
    ofc_settle_input deals[N_DEALS];
    ofc_settlement settled[N_DEALS];
} search_data;

static search_data sd;
static ofc_heur_model hm; /* about 380 KB */

/* Deterministic deals: a Fisher-Yates shuffle driven by a 64-bit LCG. */
static void deal(uint64_t *state, uint8_t *out, size_t n)
{
    uint8_t deck[OFC_CARDS];
    size_t i;
    for (i = 0; i < OFC_CARDS; i++) {
        deck[i] = (uint8_t)i;
    }
    for (i = 0; i < n; i++) {
        size_t j;
        *state = *state * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
        j = i + (size_t)((*state >> 33) % (OFC_CARDS - i));
        out[i] = deck[j];
        deck[j] = deck[i];
        deck[i] = out[i];
    }
}

/* The model's values (ofc_vm_eval() of the shared inputs, ofc_value_board() of the
 * shared boards) into out[0..1]; 0 when every call succeeds. */
static int model_values(double out[2][N_VALUES])
{
    size_t i;
    int wrong = 0;
    for (i = 0; i < N_VALUES; i++) {
        wrong |= ofc_vm_eval(&vm, 7, data.x + OFC_VF_N * i, &out[0][i]) != OFC_OK;
        wrong |= ofc_value_board(&vctx, data.boards7 + 13 * i, 0, &out[1][i]) != OFC_OK;
    }
    return wrong;
}

/* model_values() equal to the single-threaded ones; 0 when they are. */
static int run_model(void)
{
    double out[2][N_VALUES];
    int wrong = model_values(out);
    wrong |= memcmp(out[0], data.eval, sizeof data.eval) != 0;
    return wrong | (memcmp(out[1], data.value, sizeof data.value) != 0);
}

/* Every batch kernel once over the shared inputs; 0 when all answers match. */
static int run_all(int32_t *scratch, uint8_t *foul)
{
    size_t bad, i;
    int wrong = 0;
    ofc_naturals_result nat;
    wrong |= ofc_rank5_batch(data.hands5, N_HANDS, scratch, &bad) != OFC_OK;
    wrong |= memcmp(scratch, data.rank5, sizeof data.rank5) != 0;
    wrong |= ofc_rank3_batch(data.hands3, N_HANDS, scratch, &bad) != OFC_OK;
    wrong |= memcmp(scratch, data.rank3, sizeof data.rank3) != 0;
    wrong |= ofc_eval_boards(&data.ofc, data.a, N_PAIRS, NULL, scratch, foul, &bad) != OFC_OK;
    wrong |= memcmp(scratch, data.royalty, sizeof data.royalty) != 0;
    wrong |= ofc_score_pairs(&data.ofc, data.a, data.b, N_PAIRS, scratch, &bad) != OFC_OK;
    wrong |= memcmp(scratch, data.net_ofc, sizeof data.net_ofc) != 0;
    wrong |= ofc_score_pairs(&data.classic, data.a, data.b, N_PAIRS, scratch, &bad) != OFC_OK;
    wrong |= memcmp(scratch, data.net_classic, sizeof data.net_classic) != 0;
    for (i = 0; i < N_PAIRS; i += 97) {
        wrong |= ofc_naturals(data.a + 13 * i, &nat) != OFC_OK || nat.mask != data.naturals[i];
    }
    return wrong | run_model();
}

/* The searches, solvers, heuristic values and settlements of the shared inputs into
 * the caller's buffers (zeroed first, so that whole structs compare); 0 when every
 * call succeeds. */
typedef struct search_out {
    double sum[OFC_ACTION_SPACE], sq[OFC_ACTION_SPACE], exact[OFC_ACTION_SPACE];
    ofc_search_stats stats[OFC_ACTION_SPACE];
    double learned_sum[OFC_ACTION_SPACE], best, mean, var;
    uint8_t best_action, best_after[13];
    uint8_t boards[13 * N_SETTINGS];
    double setting_values[N_SETTINGS];
    ofc_fl_solution fl_sol[N_FL];
    double heur[N_PAIRS];
    ofc_settlement settled[N_DEALS];
} search_out;

static int search_values(search_out *o)
{
    const ofc_rules *r = &data.ofc;
    const ofc_search_seat *seat = &sd.early.seats[sd.early.seat];
    size_t bad, i;
    int wrong = 0;
    memset(o, 0, sizeof *o);
    wrong |= ofc_search_rollouts_stats(r, &sd.fl, &ev, &sd.model, &sd.early, sd.early_acts,
                                       sd.n_early, OFC_COMPLETE_SEQUENTIAL, 99, 0, N_SAMPLES,
                                       o->sum, o->sq, o->stats) != OFC_OK;
    wrong |= ofc_search_exact(r, &sd.fl, &ev, &sd.exact_model, &sd.late, sd.late_acts, sd.n_late,
                              UINT64_MAX, o->exact) != OFC_OK;
    wrong |= ofc_search_rollouts(r, &sd.fl, &ev, &sd.learned, &sd.early, sd.early_acts,
                                 sd.n_early, OFC_COMPLETE_SEQUENTIAL, 7, 0, N_SAMPLES,
                                 o->learned_sum, NULL) != OFC_OK;
    wrong |= ofc_value_best(&vctx, seat->board, sd.early.dealt, sd.early.n_dealt, sd.early.k,
                            sd.dead, &o->best_action, o->best_after, &o->best) != OFC_OK;
    wrong |= ofc_value_expect(&vctx, seat->board, sd.dead, 3, 1, 2, 5, N_SAMPLES, &o->mean,
                              &o->var) != OFC_OK;
    wrong |= ofc_best_settings(r, &ev, sd.hands, N_SETTINGS, OFC_OBJECTIVE_EV, o->boards,
                               o->setting_values, &bad) != OFC_OK;
    for (i = 0; i < N_FL; i++) {
        wrong |= ofc_solve_fantasyland(r, &sd.fl, &ev, sd.fl_hands + 14 * i, 14, NULL,
                                       OFC_SOLVE_ALTERNATIVES, &o->fl_sol[i]) != OFC_OK;
    }
    wrong |= ofc_heur_values(r, &sd.fl, &hm, data.a, N_PAIRS, 0, o->heur, &bad) != OFC_OK;
    for (i = 0; i < N_DEALS; i++) {
        wrong |= ofc_settle(r, &sd.table, &sd.deals[i], OFC_SETTLE_ITEMS, &o->settled[i])
                 != OFC_OK;
    }
    return wrong;
}

/* search_values() equal to the single-threaded ones; 0 when they are. */
static int run_search(search_out *o)
{
    int wrong = search_values(o);
    wrong |= memcmp(o->sum, sd.sum, sizeof sd.sum) != 0;
    wrong |= memcmp(o->sq, sd.sq, sizeof sd.sq) != 0;
    wrong |= memcmp(o->stats, sd.stats, sizeof sd.stats) != 0;
    wrong |= memcmp(o->exact, sd.exact, sizeof sd.exact) != 0;
    wrong |= memcmp(o->learned_sum, sd.learned_sum, sizeof sd.learned_sum) != 0;
    wrong |= o->best_action != sd.best_action || o->best != sd.best;
    wrong |= memcmp(o->best_after, sd.best_after, sizeof sd.best_after) != 0;
    wrong |= o->mean != sd.mean || o->var != sd.var;
    wrong |= memcmp(o->boards, sd.boards, sizeof sd.boards) != 0;
    wrong |= memcmp(o->setting_values, sd.setting_values, sizeof sd.setting_values) != 0;
    wrong |= memcmp(o->fl_sol, sd.fl_sol, sizeof sd.fl_sol) != 0;
    wrong |= memcmp(o->heur, sd.heur, sizeof sd.heur) != 0;
    return wrong | (memcmp(o->settled, sd.settled, sizeof sd.settled) != 0);
}

static void *worker(void *arg)
{
    static int32_t scratch[2][3 * N_PAIRS + N_HANDS];
    static uint8_t foul[2][N_PAIRS];
    static search_out search[2];
    int id = *(int *)arg, round;
    int *wrong = malloc(sizeof *wrong);
    if (!wrong) {
        return NULL;
    }
    *wrong = 0;
    for (round = 0; round < ROUNDS; round++) {
        *wrong |= run_all(scratch[id], foul[id]);
    }
    *wrong |= run_search(&search[id]);
    return wrong;
}

/* The model file (weights from an LCG), parsed into vm; the context; the boards of 7
 * cards (front 2, middle 3, back 2 of the shared boards), the inputs, and their
 * single-threaded values. */
static void prepare_model(void)
{
    static const uint32_t head[] = {7, 2, OFC_VF_N, VM_HIDDEN, 1};
    uint64_t state = 777;
    size_t at = 64, i, k, net;
    double out[2][N_VALUES];
    put_header(vm_bytes, 0, VM_NETS);
    for (net = 0; net < VM_NETS; net++) { /* 7, 9, 11 cards */
        size_t end = at + (sizeof vm_bytes - 64) / VM_NETS;
        for (i = 0; i < 5; i++) {
            at += put32(vm_bytes + at, i == 0 ? head[0] + 2 * (uint32_t)net : head[i]);
        }
        while (at < end) {
            state = state * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
            at += putf(vm_bytes + at, (float)((int)(state >> 56) - 128) / 128.0f);
        }
    }
    seal(vm_bytes, at);
    CHECK_EQ(ofc_vm_parse(vm_bytes, at, &vm), OFC_OK);
    CHECK_EQ(ofc_ev_tables_init(&data.ofc, &ev), OFC_OK);
    vctx.rules = &data.ofc;
    vctx.ev = &ev;
    vctx.model = &vm;
    vctx.players = 2;
    for (i = 0; i < N_VALUES; i++) {
        uint8_t *b = data.boards7 + 13 * i;
        const uint8_t *src = data.a + 13 * i;
        memset(b, OFC_NO_CARD, 13);
        memcpy(b, src, 2);         /* front */
        memcpy(b + 3, src + 3, 3); /* middle */
        memcpy(b + 8, src + 8, 2); /* back */
        for (k = 0; k < OFC_VF_N; k++) {
            state = state * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
            data.x[OFC_VF_N * i + k] =
                (state >> 62) == 0 ? 0.0f : (float)(state >> 40) / 16777216.0f;
        }
    }
    CHECK_EQ(model_values(out), 0);
    memcpy(data.eval, out[0], sizeof data.eval);
    memcpy(data.value, out[1], sizeof data.value);
}

/* The search position of `seat` to act in g (its view: boards, rounds to come, the
 * cards it has not seen) and the legal actions of its decision. */
static void search_position(const ofc_game *g, ofc_search_pos *pos, uint8_t *acts,
                            uint32_t *n_acts)
{
    static const int start[3] = {0, 3, 8};
    ofc_observation o;
    uint64_t seen = 0;
    int s, row, i;
    CHECK_EQ(ofc_game_observe(g, (uint32_t)ofc_game_to_act(g), &o), OFC_OK);
    memset(pos, 0, sizeof *pos);
    pos->players = o.players;
    pos->seat = o.seat;
    pos->n_dealt = o.n;
    pos->k = o.k;
    memcpy(pos->dealt, o.dealt, o.n);
    for (i = 0; i < o.n; i++) {
        seen |= (uint64_t)1 << o.dealt[i];
    }
    for (i = 0; i < o.discard_count[o.seat]; i++) {
        seen |= (uint64_t)1 << o.discards[i];
    }
    for (s = 0; s < o.players; s++) {
        ofc_search_seat *seat = &pos->seats[s];
        memset(seat->board, OFC_NO_CARD, 13);
        for (row = 0; row < 3; row++) {
            for (i = 0; i < o.count[s][row]; i++) {
                seat->board[start[row] + i] = o.board[s][start[row] + i];
                seen |= (uint64_t)1 << o.board[s][start[row] + i];
            }
        }
        seat->rounds = o.rounds[s];
        memcpy(seat->round_n, o.round_n[s], o.rounds[s]);
        memcpy(seat->round_k, o.round_k[s], o.rounds[s]);
    }
    for (i = 0; i < OFC_CARDS; i++) {
        if (!(seen >> i & 1u)) {
            pos->unseen[pos->n_unseen++] = (uint8_t)i;
        }
    }
    CHECK_EQ(ofc_search_pos_check(pos), OFC_OK);
    *n_acts = (uint32_t)ofc_game_legal_actions(g, acts);
}

/* Two positions of one random heads-up Pineapple deal, the hands to set, the
 * heuristic model (from the ev tables), the deals to settle, and the single-threaded
 * answers. */
static void prepare_search(void)
{
    static ofc_game_rules gr;
    ofc_game g;
    ofc_rng rng = {2024, 0};
    uint64_t state = 4242;
    uint8_t cards[39];
    search_out *once = malloc(sizeof *once);
    size_t i;
    int row, s;
    CHECK(once != NULL);
    if (once == NULL) {
        return;
    }
    CHECK_EQ(ofc_game_rules_init_pineapple(&gr), OFC_OK);
    CHECK_EQ(ofc_fl_rules_init_standard(&sd.fl, 14), OFC_OK);
    CHECK_EQ(ofc_table_rules_init(&sd.table), OFC_OK);
    sd.table.aces_bet = 1;
    sd.table.aces_value[4] = 5;
    sd.model.fl_value[14] = 8.0;
    sd.model.row_weight = 0.5;
    sd.exact_model = sd.model;
    sd.model.opp_self = 1;
    CHECK_EQ(ofc_search_model_check(&sd.model), OFC_OK);
    CHECK_EQ(ofc_game_init(&gr, &g, 2, 0, NULL, 77, NULL), OFC_OK);
    for (i = 0; i < 2; i++) { /* both openings: the first seat's second decision */
        CHECK_EQ(ofc_game_random_move(&g, &rng), OFC_OK);
    }
    search_position(&g, &sd.early, sd.early_acts, &sd.n_early);
    sd.dead = ((uint64_t)1 << OFC_CARDS) - 1; /* the cards the searcher knows are out */
    for (i = 0; i < sd.early.n_unseen; i++) {
        sd.dead &= ~((uint64_t)1 << sd.early.unseen[i]);
    }
    for (i = 0; i < 13; i++) {
        s = sd.early.seats[sd.early.seat].board[i];
        sd.dead &= s == OFC_NO_CARD ? ~(uint64_t)0 : ~((uint64_t)1 << s);
    }
    for (i = 0; i < sd.early.n_dealt; i++) {
        sd.dead &= ~((uint64_t)1 << sd.early.dealt[i]);
    }
    sd.learned = sd.exact_model;
    sd.learned.value = &vm;
    CHECK_EQ(ofc_search_model_check(&sd.learned), OFC_OK);
    while (g.step + 2 < g.nsteps) { /* the first seat's last decision */
        CHECK_EQ(ofc_game_random_move(&g, &rng), OFC_OK);
    }
    search_position(&g, &sd.late, sd.late_acts, &sd.n_late);
    CHECK(sd.late.seats[1 - sd.late.seat].rounds == 1); /* the other seat draws */
    for (i = 0; i < N_SETTINGS; i++) {
        deal(&state, sd.hands + 13 * i, 13);
    }
    for (i = 0; i < N_FL; i++) {
        deal(&state, sd.fl_hands + 14 * i, 14);
    }
    for (row = 0; row < OFC_ROWS; row++) {
        for (s = 0; s < OFC_STRENGTH_TABLE_SIZE; s++) {
            hm.row[row][s].value = ev.units[row][s];
            hm.row[row][s].win = ev.win[row][s];
            hm.row[row][s].lose = ev.lose[row][s];
        }
    }
    hm.sweep = 3.0;
    hm.majority = 1.0;
    hm.foul_value = -6.0;
    hm.fl_value[14] = 8.0;
    CHECK_EQ(ofc_heur_model_check(&hm), OFC_OK);
    for (i = 0; i < N_DEALS; i++) {
        CHECK_EQ(ofc_settle_input_init(&sd.deals[i], 3, (uint8_t)(i % 3)), OFC_OK);
        deal(&state, cards, 39);
        for (s = 0; s < 3; s++) {
            memcpy(sd.deals[i].cards[s], cards + 13 * s, 13);
        }
    }
    CHECK_EQ(search_values(once), 0);
    memcpy(sd.sum, once->sum, sizeof sd.sum);
    memcpy(sd.sq, once->sq, sizeof sd.sq);
    memcpy(sd.stats, once->stats, sizeof sd.stats);
    memcpy(sd.exact, once->exact, sizeof sd.exact);
    memcpy(sd.learned_sum, once->learned_sum, sizeof sd.learned_sum);
    memcpy(sd.best_after, once->best_after, sizeof sd.best_after);
    sd.best_action = once->best_action;
    sd.best = once->best;
    sd.mean = once->mean;
    sd.var = once->var;
    /* the learned rollouts are the model's: not the plain completion's values */
    CHECK(memcmp(sd.learned_sum, sd.sum, sd.n_early * sizeof sd.sum[0]) != 0);
    memcpy(sd.boards, once->boards, sizeof sd.boards);
    memcpy(sd.setting_values, once->setting_values, sizeof sd.setting_values);
    memcpy(sd.fl_sol, once->fl_sol, sizeof sd.fl_sol);
    memcpy(sd.heur, once->heur, sizeof sd.heur);
    memcpy(sd.settled, once->settled, sizeof sd.settled);
    free(once);
}

static void prepare(void)
{
    uint64_t state = 12345;
    size_t i, bad;
    uint8_t foul[N_PAIRS], pair[26];
    ofc_naturals_result nat;
    uint8_t royal[5];
    CHECK_EQ(test_cards("As Ks Qs Js Ts", royal), 5);
    CHECK_EQ(ofc_rank5_unchecked(royal[0], royal[1], royal[2], royal[3], royal[4]),
             OFC_STRENGTH_MAX);
    CHECK_EQ(ofc_rules_init_ofc(&data.ofc), OFC_OK);
    CHECK_EQ(ofc_rules_init_classic(&data.classic, 0), OFC_OK);
    for (i = 0; i < N_HANDS; i++) {
        deal(&state, data.hands5 + 5 * i, 5);
        deal(&state, data.hands3 + 3 * i, 3);
        data.rank5[i] = ofc_rank5_unchecked(data.hands5[5 * i], data.hands5[5 * i + 1],
                                            data.hands5[5 * i + 2], data.hands5[5 * i + 3],
                                            data.hands5[5 * i + 4]);
        data.rank3[i] = ofc_rank3_unchecked(data.hands3[3 * i], data.hands3[3 * i + 1],
                                            data.hands3[3 * i + 2]);
    }
    for (i = 0; i < N_PAIRS; i++) {
        ofc_board_eval ea, eb;
        deal(&state, pair, 26);
        memcpy(data.a + 13 * i, pair, 13);
        memcpy(data.b + 13 * i, pair + 13, 13);
        ofc_eval_board_unchecked(&data.ofc, pair, &ea);
        ofc_eval_board_unchecked(&data.ofc, pair + 13, &eb);
        data.royalty[3 * i] = ea.royalty[0];
        data.royalty[3 * i + 1] = ea.royalty[1];
        data.royalty[3 * i + 2] = ea.royalty[2];
        data.net_ofc[i] = ofc_score_evals_unchecked(&data.ofc, &ea, &eb, NULL, NULL);
        ofc_eval_board_unchecked(&data.classic, pair, &ea);
        ofc_eval_board_unchecked(&data.classic, pair + 13, &eb);
        data.net_classic[i] = ofc_score_evals_unchecked(&data.classic, &ea, &eb, NULL, NULL);
        CHECK_EQ(ofc_naturals(pair, &nat), OFC_OK);
        data.naturals[i] = nat.mask;
    }
    CHECK_EQ(ofc_eval_boards(&data.ofc, data.a, N_PAIRS, NULL, NULL, foul, &bad), OFC_OK);
    prepare_model();
    prepare_search();
}

/* ofc_search_exact_stop() stopped from another thread, as ofc_search.h says: the
 * exact search of the late position runs in one thread while this one sets the stop
 * word with an atomic store; it is stopped (OFC_E_STOPPED) or, done first, gives the
 * values of ofc_search_exact().  The search reads the word atomically, so
 * ThreadSanitizer (tests/c/run.sh) sees no race; before, its volatile read was one,
 * whatever the writer did. */
typedef struct stopped_search {
    int32_t word, status;
    double values[OFC_ACTION_SPACE];
} stopped_search;

static void *search_until_stopped(void *arg)
{
    stopped_search *x = (stopped_search *)arg;
    x->status = ofc_search_exact_stop(&data.ofc, &sd.fl, &ev, &sd.exact_model, &sd.late,
                                      sd.late_acts, sd.n_late, UINT64_MAX, x->values, NULL,
                                      &x->word);
    return NULL;
}

/* Runs `call(arg)` in a thread, sets its stop word *word (0 before) from this one
 * with an atomic store and waits for it; *status: stopped, or done first. */
static void stop_from_here(void *(*call)(void *), void *arg, int32_t *word,
                           const int32_t *status)
{
    pthread_t thread;
    *word = 0;
    CHECK_EQ(pthread_create(&thread, NULL, call, arg), 0);
    __atomic_store_n(word, 1, __ATOMIC_RELAXED);
    CHECK_EQ(pthread_join(thread, NULL), 0);
    CHECK(*status == OFC_E_STOPPED || *status == OFC_OK);
}

static void test_stop_from_another_thread(void)
{
    static stopped_search x;
    CHECK(ofc_search_exact_cost(&sd.late, sd.n_late) > 256); /* the word is read */
    x.status = OFC_OK;
    stop_from_here(search_until_stopped, &x, &x.word, &x.status);
    if (x.status == OFC_OK) {
        CHECK(memcmp(x.values, sd.exact, sd.n_late * sizeof sd.exact[0]) == 0);
    }
}

/* ofc_best_completion_stop() stopped from another thread alike: a 13-card set's
 * exhaustive completion (72,072 boards) runs in one thread while this one sets the
 * word with an atomic store; stopped (OFC_E_STOPPED, its result untouched) or, done
 * first, the result of ofc_best_completion(). */
typedef struct stopped_completion {
    int32_t word, status;
    uint8_t board[13], cards[13];
    ofc_completion_result out;
} stopped_completion;

static void *complete_until_stopped(void *arg)
{
    stopped_completion *x = (stopped_completion *)arg;
    uint8_t rn = 13, rk = 0;
    x->status = ofc_best_completion_stop(&data.ofc, &sd.fl, &ev, &sd.exact_model, x->board,
                                         x->cards, 1, &rn, &rk, 0, OFC_COMPLETE_BEST,
                                         &x->out, &x->word);
    return NULL;
}

static void test_completion_stop_from_another_thread(void)
{
    static stopped_completion x;
    ofc_completion_result want;
    uint8_t rn = 13, rk = 0;
    memset(x.board, OFC_NO_CARD, sizeof x.board);
    test_cards("As Ks Qs Js 9h 8h 7h 6h 4c 4d 3c 2d Ad", x.cards);
    memset(&want, 0, sizeof want);
    memset(&x.out, 0, sizeof x.out);
    CHECK_EQ(ofc_best_completion(&data.ofc, &sd.fl, &ev, &sd.exact_model, x.board, x.cards,
                                 1, &rn, &rk, 0, OFC_COMPLETE_BEST, &want), OFC_OK);
    x.status = OFC_OK;
    stop_from_here(complete_until_stopped, &x, &x.word, &x.status);
    if (x.status == OFC_OK) {
        CHECK(memcmp(&x.out, &want, sizeof want) == 0);
    } else {
        CHECK_EQ(x.out.leaves, 0); /* untouched */
    }
}

int main(void)
{
    pthread_t threads[2];
    int ids[2] = {0, 1}, t;
    prepare();
    test_stop_from_another_thread();
    test_completion_stop_from_another_thread();
    for (t = 0; t < 2; t++) {
        CHECK_EQ(pthread_create(&threads[t], NULL, worker, &ids[t]), 0);
    }
    for (t = 0; t < 2; t++) {
        void *result = NULL;
        CHECK_EQ(pthread_join(threads[t], &result), 0);
        CHECK(result != NULL);
        if (result) {
            CHECK_EQ(*(int *)result, 0);
            free(result);
        }
    }
    printf("test_threads: %d checks, %d failures\n", checks, failures);
    return failures != 0;
}
