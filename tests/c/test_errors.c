/* test_errors.c -- the refusals of the C API as a caller meets them: every validating
 * public function given a NULL pointer its header does not allow, or a value out of
 * its documented range, returns the error code its header names (and reads or writes
 * nothing out of bounds: tests/c/run.sh runs this under AddressSanitizer and
 * UndefinedBehaviorSanitizer too).  One place that holds each header's word on NULL
 * pointers and ranges; the other C tests check what the functions compute. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "ofc_fast.h"
#include "ofc_features.h"
#include "ofc_heuristic.h"
#include "ofc_search.h"
#include "ofc_value.h"
#include "ofc_vecenv.h"

static ofc_rules rules;
static ofc_game_rules game_rules;
static ofc_ev_tables ev;
static ofc_fl_rules fl;
static ofc_table_rules table;
static ofc_settle_input deal_in;
static ofc_settlement settled;
static ofc_fl_solution fl_sol;
static ofc_heur_model heur;
static ofc_vmodel vm;

/* A board in row order: "Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts". */
static const uint8_t BOARD[13] = {42, 41, 0, 31, 30, 29, 12, 13, 51, 47, 43, 39, 35};

static void test_ranking_and_scoring(void)
{
    uint8_t pair[26];
    uint16_t strengths[3] = {1, 1, 1};
    int32_t out[2];
    ofc_board_eval e;
    ofc_pair_score score;
    ofc_pair_detail detail;
    int i;
    for (i = 0; i < 26; i++) {
        pair[i] = (uint8_t)i;
    }
    CHECK_EQ(ofc_rank(NULL, 0, 0), OFC_E_COUNT);
    CHECK_EQ(ofc_rank(NULL, 3, 0), OFC_E_COUNT); /* a count it takes: cards NULL */
    CHECK_EQ(ofc_rank(NULL, 5, 5), OFC_E_COUNT);
    CHECK_EQ(ofc_rank5_batch(NULL, 0, NULL, NULL), OFC_OK);
    CHECK_EQ(ofc_rank5_batch(NULL, 1, out, NULL), OFC_E_VALUE);
    CHECK_EQ(ofc_rank3_batch(pair, 1, NULL, NULL), OFC_E_VALUE);
    CHECK_EQ(ofc_eval_board(NULL, BOARD, &e), OFC_E_RULES);
    CHECK_EQ(ofc_eval_board(&rules, NULL, &e), OFC_E_VALUE);
    CHECK_EQ(ofc_eval_board(&rules, BOARD, NULL), OFC_E_VALUE);
    CHECK_EQ(ofc_is_foul(NULL, strengths), OFC_E_RULES);
    CHECK_EQ(ofc_is_foul(&rules, NULL), OFC_E_VALUE);
    CHECK_EQ(ofc_row_value(NULL, OFC_FRONT, 1), OFC_E_RULES);
    CHECK_EQ(ofc_row_value(&rules, 3, 1), OFC_E_VALUE);
    CHECK_EQ(ofc_eval_boards(NULL, BOARD, 1, NULL, NULL, NULL, NULL), OFC_E_RULES);
    CHECK_EQ(ofc_eval_boards(&rules, NULL, 0, NULL, NULL, NULL, NULL), OFC_OK);
    CHECK_EQ(ofc_eval_boards(&rules, NULL, 1, NULL, NULL, NULL, NULL), OFC_E_VALUE);
    CHECK_EQ(ofc_eval_board(&rules, BOARD, &e), OFC_OK);
    CHECK_EQ(ofc_score_evals(NULL, &e, &e, NULL, &score), OFC_E_RULES);
    CHECK_EQ(ofc_score_evals(&rules, NULL, &e, NULL, &score), OFC_E_VALUE);
    CHECK_EQ(ofc_score_evals(&rules, &e, &e, NULL, NULL), OFC_E_VALUE);
    CHECK_EQ(ofc_score_boards(NULL, pair, pair + 13, &score), OFC_E_RULES);
    CHECK_EQ(ofc_score_boards(&rules, NULL, pair + 13, &score), OFC_E_VALUE);
    CHECK_EQ(ofc_score_boards(&rules, pair, pair + 13, NULL), OFC_E_VALUE);
    CHECK_EQ(ofc_score_boards_detail(NULL, pair, &detail), OFC_E_RULES);
    CHECK_EQ(ofc_score_boards_detail(&rules, NULL, &detail), OFC_E_VALUE);
    CHECK_EQ(ofc_score_boards_detail(&rules, pair, NULL), OFC_E_VALUE);
    CHECK_EQ(ofc_score_pairs(NULL, pair, pair + 13, 1, out, NULL), OFC_E_RULES);
    CHECK_EQ(ofc_score_pairs(&rules, NULL, NULL, 0, NULL, NULL), OFC_OK);
    CHECK_EQ(ofc_score_pairs(&rules, pair, pair + 13, 1, NULL, NULL), OFC_E_VALUE);
    CHECK_EQ(ofc_rules_init_ofc(NULL), OFC_E_RULES);
    CHECK_EQ(ofc_rules_init_classic(NULL, 0), OFC_E_RULES);
    CHECK_EQ(ofc_rules_check(NULL), OFC_E_RULES);
    CHECK_EQ(ofc_category_of(0), OFC_E_STRENGTH);
    CHECK_EQ(ofc_category_of(OFC_STRENGTH_MAX + 1), OFC_E_STRENGTH);
    CHECK_EQ(ofc_strength_cards(OFC_STRENGTH_MAX + 1), 0);
    CHECK_EQ(ofc_strength_info(0), 0);
    CHECK_EQ(ofc_kev_rank(0), 0);
    CHECK_EQ(ofc_strength_from_kev(7463), 0);
    CHECK_EQ(ofc_low27(OFC_STRENGTH_MAX + 1), 0);
    CHECK_EQ(ofc_naturals(NULL, NULL), OFC_E_COUNT);
    CHECK(ofc_natural_name(-1) == NULL && ofc_natural_name(OFC_NAT_COUNT) == NULL);
}

static void test_solvers(void)
{
    uint8_t cards[17];
    ofc_setting set;
    double value;
    int i;
    for (i = 0; i < 17; i++) {
        cards[i] = (uint8_t)(3 * i);
    }
    CHECK_EQ(ofc_fl_rules_init_standard(NULL, 14), OFC_E_VALUE);
    CHECK_EQ(ofc_fl_rules_init_standard(&fl, 18), OFC_E_VALUE);
    CHECK_EQ(ofc_fl_rules_init_standard(&fl, 14), OFC_OK);
    CHECK_EQ(ofc_fl_rules_check(NULL), OFC_E_RULES);
    CHECK_EQ(ofc_fl_next_cards(NULL, &fl, BOARD, 0), OFC_E_RULES);
    CHECK_EQ(ofc_fl_next_cards(&rules, &fl, NULL, 0), OFC_E_COUNT);
    CHECK_EQ(ofc_fl_next_cards(&rules, &fl, BOARD, 12), OFC_E_COUNT);
    CHECK_EQ(ofc_ev_tables_init(NULL, &ev), OFC_E_RULES);
    CHECK_EQ(ofc_ev_tables_init(&rules, NULL), OFC_E_VALUE);
    CHECK_EQ(ofc_ev_tables_init_counts(&rules, NULL, &ev), OFC_E_VALUE);
    CHECK_EQ(ofc_ev_tables_init_counts(&rules, ofc_ev_opponent_counts(NULL), NULL),
             OFC_E_VALUE);
    CHECK_EQ(ofc_ev_board(NULL, &ev, BOARD, &value), OFC_E_RULES);
    CHECK_EQ(ofc_ev_board(&rules, NULL, BOARD, &value), OFC_E_VALUE);
    CHECK_EQ(ofc_ev_board(&rules, &ev, NULL, &value), OFC_E_COUNT);
    CHECK_EQ(ofc_ev_board(&rules, &ev, BOARD, NULL), OFC_E_VALUE);
    CHECK_EQ(ofc_solve_fantasyland(NULL, &fl, &ev, cards, 14, NULL, 0, &fl_sol),
             OFC_E_RULES);
    CHECK_EQ(ofc_solve_fantasyland(&rules, &fl, &ev, NULL, 14, NULL, 0, &fl_sol),
             OFC_E_COUNT);
    CHECK_EQ(ofc_solve_fantasyland(&rules, &fl, &ev, cards, 14, NULL, 0, NULL),
             OFC_E_VALUE);
    CHECK_EQ(ofc_best_setting(NULL, &ev, cards, OFC_OBJECTIVE_EV, &set), OFC_E_RULES);
    CHECK_EQ(ofc_best_setting(&rules, &ev, NULL, OFC_OBJECTIVE_EV, &set), OFC_E_COUNT);
    CHECK_EQ(ofc_best_setting(&rules, &ev, cards, OFC_OBJECTIVE_EV, NULL), OFC_E_VALUE);
    CHECK_EQ(ofc_best_setting(&rules, NULL, cards, OFC_OBJECTIVE_EV, &set), OFC_E_VALUE);
    CHECK_EQ(ofc_best_setting(&rules, &ev, cards, 2, &set), OFC_E_VALUE);
    CHECK_EQ(ofc_best_settings(&rules, &ev, NULL, 1, 0, NULL, NULL, NULL), OFC_E_COUNT);
    CHECK_EQ(ofc_best_settings(&rules, &ev, NULL, 0, 0, NULL, NULL, NULL), OFC_OK);
}

static void test_settlement(void)
{
    const int32_t stacks[2] = {10, 10}, amount[1] = {INT32_MIN};
    const uint8_t pairs[1][2] = {{0, 1}};
    uint8_t order[OFC_SETTLE_MAX_PAIRS][2];
    int32_t actual[1], status = 99;
    CHECK_EQ(ofc_table_rules_init(NULL), OFC_E_VALUE);
    CHECK_EQ(ofc_table_rules_check(NULL), OFC_E_RULES);
    CHECK_EQ(ofc_settle_input_init(NULL, 2, 0), OFC_E_VALUE);
    CHECK_EQ(ofc_settle(NULL, &table, &deal_in, 0, &settled), OFC_E_VALUE);
    CHECK_EQ(ofc_settle(&rules, NULL, &deal_in, 0, &settled), OFC_E_VALUE);
    CHECK_EQ(ofc_settle(&rules, &table, NULL, 0, &settled), OFC_E_VALUE);
    CHECK_EQ(ofc_settle(&rules, &table, &deal_in, 0, NULL), OFC_E_VALUE);
    CHECK_EQ(ofc_settle(&rules, &table, &deal_in, 2u, &settled), OFC_E_VALUE);
    CHECK_EQ(ofc_settlement_order(2, 0, 0, NULL), OFC_E_VALUE);
    CHECK_EQ(ofc_settlement_order(5, 0, 0, order), OFC_E_SEAT);
    CHECK_EQ(ofc_settlement_order(3, 3, 0, order), OFC_E_SEAT);
    CHECK_EQ(ofc_settlement_order(3, 0, 2, order), OFC_E_VALUE);
    CHECK_EQ(ofc_apply_stakes(OFC_STAKES_WIN_CAP, NULL, 1, NULL, NULL, 0, NULL), OFC_E_VALUE);
    CHECK_EQ(ofc_apply_stakes(2, stacks, 2, pairs, amount, 0, actual), OFC_E_VALUE);
    CHECK_EQ(ofc_apply_stakes(OFC_STAKES_WIN_CAP, stacks, 1, pairs, amount + 0, 1, actual),
             OFC_E_SEAT);
    CHECK_EQ(ofc_apply_stakes(OFC_STAKES_WIN_CAP, stacks, 2, pairs, amount, 1, actual),
             OFC_E_VALUE); /* INT32_MIN */
    CHECK_EQ(ofc_natural_payment(NULL, -1, 0, -1, 0, &status), 0);
    CHECK_EQ(status, OFC_E_RULES);
    CHECK_EQ(ofc_natural_payment(&table, OFC_NAT_DRAGON, 0, -1, 0, &status), 0);
    CHECK_EQ(status, OFC_E_NATURAL); /* the plain table plays no natural */
    table.max_players = 9; /* fails ofc_table_rules_check() (documented) */
    CHECK_EQ(ofc_natural_payment(&table, -1, 0, -1, 0, &status), 0);
    CHECK_EQ(status, OFC_E_RULES);
    CHECK_EQ(ofc_table_rules_init(&table), OFC_OK);
}

static void test_game(void)
{
    ofc_game g;
    ofc_rng rng = {1, 0};
    ofc_observation o;
    uint8_t dest[5] = {0, 1, 2, 0, 0}, room[3] = {4, 5, 5};
    const uint8_t fl_12[2] = {12, 0};
    CHECK_EQ(ofc_cards_per_seat(9, 0), OFC_E_RULES);
    CHECK_EQ(ofc_cards_per_seat(OFC_KIND_CLASSIC, 14), OFC_E_SEATS);
    CHECK_EQ(ofc_cards_per_seat(OFC_KIND_OFC, 18), OFC_E_SEATS);
    CHECK_EQ(ofc_game_rules_init_pineapple(NULL), OFC_E_RULES);
    CHECK_EQ(ofc_game_rules_check(NULL), OFC_E_RULES);
    CHECK_EQ(ofc_game_init(NULL, &g, 2, 0, NULL, 1, NULL), OFC_E_RULES);
    CHECK_EQ(ofc_game_init(&game_rules, NULL, 2, 0, NULL, 1, NULL), OFC_E_COUNT);
    CHECK_EQ(ofc_game_init(&game_rules, &g, 4, 0, NULL, 1, NULL), OFC_E_SEATS);
    CHECK_EQ(ofc_game_init(&game_rules, &g, 2, 2, NULL, 1, NULL), OFC_E_SEATS);
    CHECK_EQ(ofc_game_init(&game_rules, &g, 2, 0, fl_12, 1, NULL), OFC_E_SEATS);
    CHECK_EQ(ofc_game_init(&game_rules, &g, 2, 0, NULL, 1, NULL), OFC_OK);
    CHECK_EQ(ofc_game_legal_actions(&g, NULL), 232); /* 5 cards: 3^5 less the overfull */
    CHECK_EQ(ofc_game_apply_action(&g, OFC_ACTION_SPACE), OFC_E_ACTION);
    CHECK_EQ(ofc_game_apply_placement(&g, NULL, 5), OFC_E_COUNT);
    CHECK_EQ(ofc_game_apply_placement(&g, dest, 4), OFC_E_COUNT);
    CHECK_EQ(ofc_action_decode(3, 1, 0, NULL), OFC_E_ACTION);
    CHECK_EQ(ofc_action_decode(3, 1, 27, dest), OFC_E_ACTION);
    CHECK_EQ(ofc_action_decode(5, 1, 0, dest), OFC_E_ACTION); /* no ids for 5 with 1 */
    CHECK_EQ(ofc_action_encode(3, 1, NULL), OFC_E_ACTION);
    CHECK_EQ(ofc_actions_legal(3, 1, NULL, NULL, NULL), OFC_E_ACTION);
    CHECK_EQ(ofc_actions_legal(3, 1, room, NULL, NULL), OFC_E_ACTION); /* front 0..3 */
    CHECK_EQ(ofc_game_random_move(NULL, &rng), OFC_E_COUNT);
    CHECK_EQ(ofc_game_random_move(&g, NULL), OFC_E_COUNT);
    CHECK_EQ(ofc_game_playout(NULL, &rng, NULL), OFC_E_COUNT);
    CHECK_EQ(ofc_game_observe(&g, 2, &o), OFC_E_SEAT);
    CHECK_EQ(ofc_observation_complete(NULL, &o), OFC_E_RULES);
    CHECK_EQ(ofc_observation_complete(&game_rules, NULL), OFC_E_VALUE);
    CHECK_EQ(ofc_rng_below(NULL, 5), 0);
}

/* The game engine given a NULL state, rules or output (ofc_game.h: OFC_E_COUNT for a
 * NULL state or output, OFC_E_RULES for NULL rules, 0 naturals declarable), the deal
 * left as it was; a classic set and a finished deal reach the code that reads r. */
static void test_game_null(void)
{
    static ofc_game_rules classic; /* about 100 KB: not on the stack */
    static ofc_game_result res;
    ofc_game g, before;
    ofc_decision d;
    ofc_observation o;
    ofc_rng rng = {3, 0};
    uint8_t mask[OFC_ACTION_SPACE], enc[OFC_ENC_SIZE], dest[5] = {2, 2, 2, 1, 1};
    CHECK_EQ(ofc_game_init(&game_rules, &g, 2, 0, NULL, 1, NULL), OFC_OK);
    before = g;
    CHECK_EQ(ofc_game_decision(NULL, &d), OFC_E_COUNT);
    CHECK_EQ(ofc_game_decision(&g, NULL), OFC_E_COUNT);
    CHECK_EQ(ofc_game_to_act(NULL), OFC_E_COUNT);
    CHECK_EQ(ofc_game_is_over(NULL), OFC_E_COUNT);
    CHECK_EQ(ofc_game_legal_actions(NULL, NULL), OFC_E_COUNT);
    CHECK_EQ(ofc_game_action_mask(NULL, mask), OFC_E_COUNT);
    CHECK_EQ(ofc_game_action_mask(&g, NULL), OFC_E_COUNT);
    CHECK_EQ(ofc_game_apply_action(NULL, 0), OFC_E_COUNT);
    CHECK_EQ(ofc_game_apply_placement(NULL, dest, 5), OFC_E_COUNT);
    CHECK_EQ(ofc_game_observe(NULL, 0, &o), OFC_E_COUNT);
    CHECK_EQ(ofc_game_observe(&g, 0, NULL), OFC_E_COUNT);
    CHECK_EQ(ofc_encode_game(NULL, 0, 0, enc), OFC_E_COUNT);
    CHECK_EQ(ofc_encode_game(&g, 0, 0, NULL), OFC_E_COUNT);
    CHECK_EQ(ofc_game_result_get(&game_rules, NULL, NULL, 0, &res), OFC_E_COUNT);
    CHECK(memcmp(&g, &before, sizeof g) == 0);
    CHECK_EQ(ofc_game_random_move(NULL, &rng), OFC_E_COUNT);
    CHECK_EQ(ofc_game_random_move(&g, NULL), OFC_E_COUNT);
    CHECK_EQ(ofc_game_playout(NULL, &rng, NULL), OFC_E_COUNT);
    CHECK_EQ(ofc_game_playout(&g, NULL, NULL), OFC_E_COUNT);
    CHECK(memcmp(&g, &before, sizeof g) == 0 && rng.ctr == 0);
    /* ofc_rng_below(): no stream, an empty range or one over 2^32 give 0, nothing drawn */
    CHECK_EQ(ofc_rng_below(NULL, 5), 0);
    CHECK_EQ(ofc_rng_below(&rng, 0), 0);
    CHECK_EQ(ofc_rng_below(&rng, (UINT64_C(1) << 32) + 1), 0);
    CHECK_EQ(rng.ctr, 0);
    CHECK_EQ(ofc_game_playout(&g, &rng, NULL), OFC_OK);
    CHECK_EQ(ofc_game_result_get(NULL, &g, NULL, 0, &res), OFC_E_RULES);
    CHECK_EQ(ofc_game_result_get(&game_rules, &g, NULL, 0, NULL), OFC_E_COUNT);
    CHECK_EQ(ofc_game_result_get(&game_rules, &g, NULL, 0, &res), OFC_OK);
    classic = game_rules;
    classic.kind = OFC_KIND_CLASSIC;
    classic.fl.enabled = 0;
    classic.face_down_final = 0;
    CHECK_EQ(ofc_game_rules_check(&classic), OFC_OK);
    CHECK_EQ(ofc_game_init(&classic, &g, 2, 0, NULL, 1, NULL), OFC_OK);
    before = g;
    CHECK_EQ(ofc_game_declarable(NULL, &g), 0);
    CHECK_EQ(ofc_game_declarable(&classic, NULL), 0);
    CHECK_EQ(ofc_game_declare(NULL, &g, OFC_NAT_SIX_PAIRS), OFC_E_RULES);
    CHECK_EQ(ofc_game_declare(&classic, NULL, OFC_NAT_SIX_PAIRS), OFC_E_COUNT);
    CHECK_EQ(ofc_game_surrender(NULL, &g), OFC_E_RULES);
    CHECK_EQ(ofc_game_surrender(&classic, NULL), OFC_E_COUNT);
    CHECK(memcmp(&g, &before, sizeof g) == 0);
}

/* The searcher's first decision of a heads-up Pineapple deal: 5 cards, 0 discards. */
static void opening_position(ofc_search_pos *pos)
{
    int s, i;
    memset(pos, 0, sizeof *pos);
    pos->players = 2;
    pos->seat = 1;
    pos->n_dealt = 5;
    for (i = 0; i < 5; i++) {
        pos->dealt[i] = (uint8_t)i;
    }
    for (s = 0; s < 2; s++) {
        memset(pos->seats[s].board, OFC_NO_CARD, 13);
        pos->seats[s].rounds = s == 1 ? 4 : 5;
        for (i = 0; i < pos->seats[s].rounds; i++) {
            pos->seats[s].round_n[i] = (uint8_t)(s == 0 && i == 0 ? 5 : 3);
            pos->seats[s].round_k[i] = (uint8_t)(s == 0 && i == 0 ? 0 : 1);
        }
    }
    for (i = 5; i < OFC_CARDS; i++) {
        pos->unseen[pos->n_unseen++] = (uint8_t)i;
    }
}

static void test_search(void)
{
    ofc_search_model m;
    ofc_search_pos pos;
    ofc_completion_result done;
    const uint8_t all_back[1] = {242}; /* every dealt card to the back */
    double sum[1] = {0}, value[1];
    memset(&m, 0, sizeof m);
    opening_position(&pos);
    CHECK_EQ(ofc_search_model_check(NULL), OFC_E_VALUE);
    CHECK_EQ(ofc_best_completion(NULL, &fl, &ev, &m, BOARD, NULL, 0, NULL, NULL, 0,
                                 OFC_COMPLETE_BEST, &done), OFC_E_RULES);
    CHECK_EQ(ofc_best_completion(&rules, &fl, &ev, NULL, BOARD, NULL, 0, NULL, NULL, 0,
                                 OFC_COMPLETE_BEST, &done), OFC_E_VALUE);
    CHECK_EQ(ofc_best_completion(&rules, &fl, &ev, &m, NULL, NULL, 0, NULL, NULL, 0,
                                 OFC_COMPLETE_BEST, &done), OFC_E_VALUE);
    CHECK_EQ(ofc_best_completion(&rules, &fl, &ev, &m, BOARD, NULL, 0, NULL, NULL, 0,
                                 OFC_COMPLETE_BEST, NULL), OFC_E_VALUE);
    CHECK_EQ(ofc_best_completion(&rules, &fl, &ev, &m, BOARD, NULL, 1, NULL, NULL, 0,
                                 OFC_COMPLETE_BEST, &done), OFC_E_VALUE);
    CHECK_EQ(ofc_best_completion(&rules, &fl, &ev, &m, BOARD, NULL, 0, NULL, NULL, 0,
                                 OFC_COMPLETE_BEST, &done), OFC_OK); /* nothing to add */
    CHECK_EQ(ofc_search_pos_check(NULL), OFC_E_COUNT);
    CHECK_EQ(ofc_search_pos_check(&pos), OFC_OK);
    CHECK_EQ(ofc_search_rollouts(NULL, &fl, &ev, &m, &pos, all_back, 1, OFC_COMPLETE_FAST,
                                 1, 0, 1, sum, NULL), OFC_E_RULES);
    CHECK_EQ(ofc_search_rollouts(&rules, &fl, &ev, NULL, &pos, all_back, 1,
                                 OFC_COMPLETE_FAST, 1, 0, 1, sum, NULL), OFC_E_VALUE);
    CHECK_EQ(ofc_search_rollouts(&rules, &fl, &ev, &m, NULL, all_back, 1, OFC_COMPLETE_FAST,
                                 1, 0, 1, sum, NULL), OFC_E_VALUE);
    CHECK_EQ(ofc_search_rollouts(&rules, &fl, &ev, &m, &pos, NULL, 1, OFC_COMPLETE_FAST, 1,
                                 0, 1, sum, NULL), OFC_E_VALUE);
    CHECK_EQ(ofc_search_rollouts(&rules, &fl, &ev, &m, &pos, all_back, 1, OFC_COMPLETE_FAST,
                                 1, 0, 1, NULL, NULL), OFC_E_VALUE);
    CHECK_EQ(ofc_search_rollouts(&rules, &fl, &ev, &m, &pos, all_back, 1, 3, 1, 0, 1, sum,
                                 NULL), OFC_E_VALUE);
    CHECK_EQ(ofc_search_rollouts(&rules, &fl, &ev, &m, &pos, all_back, 1, OFC_COMPLETE_FAST,
                                 1, 0, 1, sum, NULL), OFC_OK);
    CHECK_EQ(ofc_search_exact_cost(NULL, 1), 0);
    CHECK_EQ(ofc_search_exact(&rules, &fl, &ev, &m, NULL, all_back, 1, 10, value),
             OFC_E_VALUE);
    CHECK_EQ(ofc_search_exact(&rules, &fl, &ev, &m, &pos, all_back, 1, 10, NULL),
             OFC_E_VALUE);
}

static void test_value_and_model(void)
{
    ofc_value_ctx c;
    float x[OFC_VF_N];
    uint8_t partial[13], dealt[3] = {0, 1, 2}, ids[1] = {0};
    double v;
    memset(&c, 0, sizeof c);
    c.rules = &rules;
    c.ev = &ev;
    c.players = 2;
    memset(partial, OFC_NO_CARD, sizeof partial);
    partial[0] = 51;
    partial[3] = 50;
    CHECK_EQ(ofc_value_ctx_check(NULL), OFC_E_VALUE);
    CHECK_EQ(ofc_value_ctx_check(&c), OFC_OK);
    CHECK_EQ(ofc_value_ev_tables(NULL, NULL, &ev), OFC_E_RULES);
    CHECK_EQ(ofc_value_ev_tables(&rules, NULL, NULL), OFC_E_VALUE);
    CHECK_EQ(ofc_value_features(NULL, BOARD, 0, x), OFC_E_VALUE);
    CHECK_EQ(ofc_value_features(&c, NULL, 0, x), OFC_E_VALUE);
    CHECK_EQ(ofc_value_features(&c, BOARD, 0, NULL), OFC_E_VALUE);
    CHECK_EQ(ofc_value_features(&c, BOARD, (uint64_t)1 << 60, x), OFC_E_CARD);
    c.players = 5; /* the context's own errors, as ofc_value_ctx_check() (documented) */
    CHECK_EQ(ofc_value_features(&c, BOARD, 0, x), OFC_E_COUNT);
    c.players = 2;
    c.rules = NULL;
    CHECK_EQ(ofc_value_features(&c, BOARD, 0, x), OFC_E_VALUE);
    c.rules = &rules;
    CHECK_EQ(ofc_value_board(&c, BOARD, 0, NULL), OFC_E_VALUE);
    CHECK_EQ(ofc_value_board(&c, partial, 0, &v), OFC_E_MODEL_NO_NET); /* no model */
    CHECK_EQ(ofc_value_actions(&c, NULL, dealt, 3, 1, 0, ids, 1, &v), OFC_E_VALUE);
    CHECK_EQ(ofc_value_actions(&c, partial, NULL, 3, 1, 0, ids, 1, &v), OFC_E_VALUE);
    CHECK_EQ(ofc_value_actions(&c, partial, dealt, 3, 1, 0, NULL, 1, &v), OFC_E_VALUE);
    CHECK_EQ(ofc_value_actions(&c, partial, dealt, 3, 1, 0, ids, 1, NULL), OFC_E_VALUE);
    CHECK_EQ(ofc_value_actions(&c, partial, dealt, 3, 1, 0, NULL, 0, NULL), OFC_OK);
    /* the decision's counts and the number of actions (documented since audit 19) */
    CHECK_EQ(ofc_value_actions(&c, partial, dealt, 6, 1, 0, ids, 1, &v), OFC_E_COUNT);
    CHECK_EQ(ofc_value_actions(&c, partial, dealt, 3, 3, 0, ids, 1, &v), OFC_E_COUNT);
    CHECK_EQ(ofc_value_actions(&c, partial, dealt, 3, 1, 0, ids, OFC_ACTION_SPACE + 1, &v),
             OFC_E_VALUE);
    CHECK_EQ(ofc_value_actions(&c, partial, dealt, 3, 1, (uint64_t)1 << 1, ids, 1, &v),
             OFC_E_DUPLICATE);
    CHECK_EQ(ofc_value_best(&c, partial, dealt, 0, 0, 0, NULL, NULL, NULL), OFC_E_COUNT);
    CHECK_EQ(ofc_value_best(&c, partial, NULL, 3, 1, 0, NULL, NULL, NULL), OFC_E_VALUE);
    CHECK_EQ(ofc_value_expect(&c, partial, 0, 3, 1, 0, 1, 1, NULL, NULL), OFC_E_VALUE);
    CHECK_EQ(ofc_value_expect(&c, partial, 0, 3, 1, 21, 1, 1, &v, NULL), OFC_E_COUNT);
    CHECK_EQ(ofc_value_expect(&c, partial, 0, 3, 1, 0, 1, 0, &v, NULL), OFC_E_COUNT);
    CHECK(ofc_vm_checksum(NULL, 0) == UINT64_C(0xcbf29ce484222325));
    /* Regression: a NULL data with n > 0 read through NULL (a crash); now 0 */
    CHECK(ofc_vm_checksum(NULL, 1) == 0);
    CHECK(ofc_vm_checksum(NULL, 64) == 0);
    CHECK_EQ(ofc_vm_parse(NULL, 0, &vm), OFC_E_MODEL_TRUNCATED);
    CHECK_EQ(ofc_vm_parse(BOARD, sizeof BOARD, NULL), OFC_E_VALUE);
    CHECK_EQ(ofc_vm_eval(NULL, 5, x, &v), OFC_E_VALUE);
    CHECK_EQ(ofc_vm_eval(&vm, 5, NULL, &v), OFC_E_VALUE);
}

static void test_heuristic_and_features(void)
{
    static ofc_vecenv_slot slot; /* zeros: never read (every call here is refused) */
    ofc_heur_rows rows;
    uint8_t futures[3], enc[OFC_ENC_SIZE];
    float x[OFC_FEAT_SIZE];
    double v;
    memset(&rows, 0, sizeof rows);
    rows.n_moves = 1;
    CHECK_EQ(ofc_heur_model_check(NULL), OFC_E_VALUE);
    CHECK_EQ(ofc_heur_values(NULL, NULL, &heur, BOARD, 1, 0, &v, NULL), OFC_E_RULES);
    CHECK_EQ(ofc_heur_values(&rules, NULL, NULL, BOARD, 1, 0, &v, NULL), OFC_E_VALUE);
    CHECK_EQ(ofc_heur_values(&rules, NULL, &heur, NULL, 1, 0, &v, NULL), OFC_E_VALUE);
    CHECK_EQ(ofc_heur_values(&rules, NULL, &heur, BOARD, 1, 12, &v, NULL), OFC_E_COUNT);
    CHECK_EQ(ofc_heur_score_moves(&rules, NULL, &heur, NULL, NULL, 1, 1, 0, 0, 0.5, &v),
             OFC_E_VALUE);
    CHECK_EQ(ofc_heur_score_moves(&rules, NULL, &heur, &rows, NULL, 1, 1, 0, 0, 0.5, &v),
             OFC_E_VALUE); /* no templates */
    CHECK_EQ(ofc_heur_score_moves(&rules, NULL, &heur, &rows, NULL, 1, 1, 14, 0, 0.5, &v),
             OFC_E_COUNT);
    CHECK_EQ(ofc_heur_sample(NULL, 1, 0, 0, 0, 0, 0, 1, NULL, NULL), OFC_E_VALUE);
    CHECK_EQ(ofc_heur_sample(BOARD, 13, 3, 0, 0, 1, 0, 1, NULL, NULL), OFC_E_VALUE);
    CHECK_EQ(ofc_heur_sample(BOARD, 53, 3, 0, 0, 1, 0, 1, futures, NULL), OFC_E_COUNT);
    memset(enc, 0, sizeof enc);
    enc[12 * 52 + 7] = 1; /* the dealt plane holds card 7 only */
    CHECK_EQ(ofc_features(enc, BOARD, 1, x), OFC_E_CARD);
    CHECK_EQ(ofc_features(enc, NULL, 0, x), OFC_OK);
    /* NULL encodings and outputs are refused, as the other checking functions do (they
     * were read through: a crash) */
    CHECK_EQ(ofc_features(NULL, NULL, 0, x), OFC_E_VALUE);
    CHECK_EQ(ofc_features(enc, NULL, 0, NULL), OFC_E_VALUE);
    CHECK_EQ(ofc_features_rows(NULL, NULL, 1, x), OFC_E_VALUE);
    CHECK_EQ(ofc_features_rows(enc, NULL, 1, NULL), OFC_E_VALUE);
    CHECK_EQ(ofc_features_rows(NULL, NULL, 0, NULL), OFC_OK);
    CHECK_EQ(ofc_features_slots(NULL, 0, 1, enc, x), OFC_E_VALUE);
    CHECK_EQ(ofc_features_slots(&slot, 0, 1, NULL, x), OFC_E_VALUE);
    CHECK_EQ(ofc_features_slots(&slot, 0, 1, enc, NULL), OFC_E_VALUE);
    CHECK_EQ(ofc_features_slots(NULL, 0, 0, NULL, NULL), OFC_OK);
    /* environments first .. first + count - 1 past 2^32 - 1: no table has them (the
     * loop's end wrapped to below first, and the call answered OFC_OK, writing nothing) */
    CHECK_EQ(ofc_features_slots(&slot, UINT32_MAX, 2, enc, x), OFC_E_COUNT);
    CHECK(ofc_encoding_scale(OFC_ENC_SIZE) == 0.0f);
}

static void test_vecenv(void)
{
    static ofc_game_rules kind; /* about 100 KB: not on the stack */
    ofc_vecenv_config c;
    CHECK_EQ(ofc_vecenv_config_check(NULL), OFC_E_RULES);
    CHECK_EQ(ofc_vecenv_config_init(NULL, &game_rules, 1, 2, 0), OFC_E_RULES);
    CHECK_EQ(ofc_vecenv_config_init(&c, NULL, 1, 2, 0), OFC_E_RULES);
    CHECK_EQ(ofc_vecenv_config_check(&c), OFC_E_RULES); /* c->rules NULL */
    kind = game_rules;
    kind.kind = OFC_KIND_CLASSIC;
    CHECK_EQ(ofc_vecenv_config_init(&c, &kind, 1, 2, 0), OFC_E_RULES);
    kind.kind = OFC_KIND_PINEAPPLE + 1;
    CHECK_EQ(ofc_vecenv_config_check(&c), OFC_E_RULES);
    CHECK_EQ(ofc_vecenv_config_init(&c, &game_rules, 1, 2, 0), OFC_OK);
    CHECK_EQ(ofc_vecenv_reset(NULL, NULL, 0, 1, 1, NULL), OFC_E_COUNT);
    CHECK_EQ(ofc_vecenv_reset(&c, NULL, 0, 1, 1, NULL), OFC_E_COUNT);
    CHECK_EQ(ofc_vecenv_step(NULL, NULL, 0, 1, NULL, NULL, NULL, NULL, NULL), OFC_E_COUNT);
}

/* Every reserved field documented as 0, set to 1, is refused by the check of its
 * struct (and by the game rules holding it), so that a later version can use it. */
static void test_reserved_fields(void)
{
    static ofc_game_rules g;
    ofc_rules r = rules;
    ofc_table_rules t = table;
    ofc_fl_rules f;
    ofc_vecenv_config c;
    ofc_board_eval e;
    ofc_pair_score score;
    ofc_pair_context ctx = {0, 0, 0, 1};
    CHECK_EQ(ofc_fl_rules_init_standard(&f, 14), OFC_OK);
    r.reserved = 1;
    CHECK_EQ(ofc_rules_check(&r), OFC_E_RULES);
    CHECK_EQ(ofc_eval_board(&r, BOARD, &e), OFC_E_RULES); /* a scalar field */
    r = rules;
    r.reserved2 = 1;
    CHECK_EQ(ofc_rules_check(&r), OFC_E_RULES);
    CHECK_EQ(ofc_eval_board(&rules, BOARD, &e), OFC_OK);
    CHECK_EQ(ofc_score_evals(&rules, &e, &e, &ctx, &score), OFC_E_VALUE);
    CHECK_EQ(e.reserved, 0); /* ofc_eval_board() writes it */
    CHECK_EQ(ofc_score_evals(&rules, &e, &e, NULL, &score), OFC_OK);
    e.reserved = 1; /* an evaluated board's reserved byte, as any other */
    CHECK_EQ(ofc_score_evals(&rules, &e, &e, NULL, &score), OFC_E_VALUE);
    t.reserved[1] = 1;
    CHECK_EQ(ofc_table_rules_check(&t), OFC_E_RULES);
    t = table;
    t.reserved2[2] = 1;
    CHECK_EQ(ofc_table_rules_check(&t), OFC_E_RULES);
    f.reserved[2] = 1;
    CHECK_EQ(ofc_fl_rules_check(&f), OFC_E_RULES);
    g = game_rules;
    g.fl.reserved[0] = 1;
    CHECK_EQ(ofc_game_rules_check(&g), OFC_E_RULES);
    g = game_rules;
    g.table.reserved[0] = 1;
    CHECK_EQ(ofc_game_rules_check(&g), OFC_E_RULES);
    g = game_rules;
    g.scoring.reserved = 1;
    CHECK_EQ(ofc_game_rules_check(&g), OFC_E_RULES);
    CHECK_EQ(ofc_game_rules_check(&game_rules), OFC_OK);
    CHECK_EQ(ofc_vecenv_config_init(&c, &game_rules, 1, 2, 0), OFC_OK);
    c.reserved = 1;
    CHECK_EQ(ofc_vecenv_config_check(&c), OFC_E_VALUE);
}

/* Regression: a C caller whose output array overlapped its input (out placed inside
 * the hands, a result array reusing the cards' buffer, capped transfers written over
 * the transfers) got OFC_E_CARD for hands that were all valid, or silently wrong
 * results: the batch kernels check every row first, then read each block again while
 * they write, so their own writes changed rows not yet read.  Now an output sharing a
 * byte with an input it reads is refused with OFC_E_VALUE before anything is read or
 * written (the Python layer refuses such arrays too). */
#define OVERLAP_ROWS 600
static void test_outputs_overlapping_inputs(void)
{
    static int32_t words[1200], saved[1200], amount[OVERLAP_ROWS + 1];
    static int32_t pair_words[OVERLAP_ROWS / 2]; /* the pairs, aligned for an int32_t */
    uint8_t *bytes = (uint8_t *)words, (*pairs)[2] = (uint8_t(*)[2])(void *)pair_words;
    int32_t stacks[2] = {40, 40}, *net = words + 320; /* byte 1280: hand 256's cards */
    size_t i, bad = 7;
    for (i = 0; i < 5 * OVERLAP_ROWS; i++)
        bytes[i] = (uint8_t)((i / 5 * 7 + i % 5) % 52); /* five different cards a row */
    memcpy(saved, words, sizeof words);
    CHECK_EQ(ofc_rank5_batch(bytes, OVERLAP_ROWS, net, &bad), OFC_E_VALUE);
    CHECK_EQ(ofc_rank5_batch(bytes, OVERLAP_ROWS, words, &bad), OFC_E_VALUE); /* in place */
    CHECK_EQ(ofc_rank3_batch(bytes, OVERLAP_ROWS, net, &bad), OFC_E_VALUE);
    CHECK_EQ(ofc_eval_boards(&rules, bytes, 200, NULL, net, NULL, &bad), OFC_E_VALUE);
    CHECK_EQ(ofc_eval_boards(&rules, bytes, 200, NULL, NULL, bytes + 2599, &bad),
             OFC_E_VALUE); /* the last board's last card */
    CHECK_EQ(ofc_score_pairs(&rules, bytes, bytes + 1300, 100, net, &bad), OFC_E_VALUE);
    CHECK(memcmp(saved, words, sizeof words) == 0 && bad == 7); /* nothing written */
    for (i = 0; i < OVERLAP_ROWS; i++) {
        pairs[i][0] = 0;
        pairs[i][1] = 1;
        amount[i] = i % 2 ? 3 : -5;
    }
    CHECK_EQ(ofc_apply_stakes(OFC_STAKES_CHIPS, stacks, 2, (const uint8_t(*)[2])pairs,
                              amount + 1, OVERLAP_ROWS, amount),
             OFC_E_VALUE);
    CHECK_EQ(ofc_apply_stakes(OFC_STAKES_CHIPS, stacks, 2, (const uint8_t(*)[2])pairs, amount,
                              OVERLAP_ROWS, amount + 1),
             OFC_E_VALUE);
    CHECK_EQ(ofc_apply_stakes(OFC_STAKES_CHIPS, stacks, 2, (const uint8_t(*)[2])pairs, amount,
                              OVERLAP_ROWS, pair_words + 1),
             OFC_E_VALUE);
    CHECK_EQ(amount[1], 3);
    CHECK_EQ(ofc_apply_stakes(OFC_STAKES_CHIPS, stacks, 2, (const uint8_t(*)[2])pairs, amount,
                              OVERLAP_ROWS, saved),
             OFC_OK);
    CHECK_EQ(ofc_apply_stakes(OFC_STAKES_CHIPS, stacks, 2, (const uint8_t(*)[2])pairs, amount,
                              OVERLAP_ROWS, amount),
             OFC_OK); /* in place: the same capped transfers */
    CHECK(memcmp(saved, amount, OVERLAP_ROWS * sizeof *amount) == 0);
    CHECK_EQ(ofc_apply_stakes(OFC_STAKES_CHIPS, stacks, 2, (const uint8_t(*)[2])pairs, amount,
                              OVERLAP_ROWS / 2, amount + OVERLAP_ROWS / 2),
             OFC_OK); /* adjacent, not overlapping */
}

/* Regression: ofc_features_rows() and ofc_features_slots() given the features array
 * over the encodings (one buffer reused, the floats written where the encodings
 * lay) computed the rows after the first from the floats of the rows before, not
 * from their encodings: OFC_E_CARD for valid encodings, or wrong features.  A
 * features array sharing a byte with the encodings (or the row flags) is now refused
 * with OFC_E_VALUE, nothing written. */
static void test_features_overlapping_encodings(void)
{
    static float buf[3 * OFC_FEAT_SIZE], want[3 * OFC_FEAT_SIZE];
    static ofc_vecenv_slot slots[3];
    static uint8_t saved[3 * OFC_ENC_SIZE];
    uint8_t *enc = (uint8_t *)buf;
    uint32_t i;
    for (i = 0; i < 3; i++) {
        CHECK_EQ(ofc_game_init(&game_rules, &slots[i].game, 2, 0, NULL, 11 + i, NULL), OFC_OK);
        CHECK_EQ(ofc_encode_game(&slots[i].game, slots[i].game.steps[0].seat, 0,
                                 enc + i * OFC_ENC_SIZE),
                 OFC_OK);
    }
    memcpy(saved, enc, sizeof saved);
    CHECK_EQ(ofc_features_slots(slots, 0, 3, saved, want), OFC_OK);
    CHECK_EQ(ofc_features_rows(enc, NULL, 3, buf), OFC_E_VALUE);
    CHECK_EQ(ofc_features_rows(enc + OFC_ENC_SIZE, NULL, 2, buf), OFC_E_VALUE);
    CHECK_EQ(ofc_features_rows(saved, enc, 3, buf), OFC_E_VALUE); /* the row flags */
    CHECK_EQ(ofc_features_slots(slots, 0, 3, enc, buf), OFC_E_VALUE);
    CHECK_EQ(ofc_features_slots(slots, 0, 1, enc, buf), OFC_E_VALUE); /* row 0 alone */
    CHECK(memcmp(saved, enc, sizeof saved) == 0); /* nothing written */
    CHECK_EQ(ofc_features_slots(slots, 0, 3, saved, buf), OFC_OK);
    CHECK(memcmp(want, buf, sizeof want) == 0);
}

/* Regression: ofc_heur_values() and ofc_best_settings() given an output over the
 * hands still to read (values or boards written one row on, a buffer reused) read
 * their own results as the later hands: wrong settings and values with OFC_OK, or
 * OFC_E_CARD for valid hands.  Such an output is now refused with OFC_E_VALUE,
 * nothing written; boards == cards still sets the hands in place. */
static void test_solver_outputs_overlapping_hands(void)
{
    static double store[20], values[4], in_place[4]; /* store: the hands, aligned */
    static uint8_t saved[4 * 13], want[4 * 13];
    uint8_t *hands = (uint8_t *)store;
    size_t i;
    for (i = 0; i < 4 * 13; i++)
        hands[i] = (uint8_t)((i % 13) * 4 + i / 13); /* hand h: suit h of every rank */
    memcpy(saved, hands, sizeof saved);
    CHECK_EQ(ofc_best_settings(&rules, &ev, saved, 4, OFC_OBJECTIVE_EV, want, values, NULL),
             OFC_OK);
    CHECK_EQ(ofc_best_settings(&rules, &ev, hands, 3, OFC_OBJECTIVE_EV, hands + 13, NULL, NULL),
             OFC_E_VALUE);
    CHECK_EQ(ofc_best_settings(&rules, &ev, hands, 3, OFC_OBJECTIVE_EV, NULL, store, NULL),
             OFC_E_VALUE);
    CHECK_EQ(ofc_heur_values(&rules, NULL, &heur, hands, 4, 0, store + 1, NULL), OFC_E_VALUE);
    CHECK(memcmp(saved, hands, sizeof saved) == 0); /* nothing written */
    CHECK_EQ(ofc_best_settings(&rules, &ev, hands, 4, OFC_OBJECTIVE_EV, hands, in_place, NULL),
             OFC_OK); /* in place */
    CHECK(memcmp(want, hands, sizeof want) == 0 && memcmp(values, in_place, sizeof values) == 0);
}

/* Regression: a C caller whose output array was laid over the rules, the heuristic model
 * or the tie-break tables a batch kernel reads (one buffer reused) had them overwritten
 * by the first rows' results: ofc_eval_boards(), ofc_score_pairs(), ofc_heur_values(),
 * ofc_heur_score_moves() and ofc_best_settings() answered OFC_OK with the later rows
 * computed under the changed rules, model or tables (and those left changed).  Now such
 * an output is refused with OFC_E_VALUE, nothing written. */
static void test_outputs_overlapping_rules_and_models(void)
{
    static ofc_rules r;
    static ofc_heur_model h;
    static ofc_ev_tables t;
    static uint8_t two[2 * 13], fronts[3], fives[10];
    static double scores[1];
    uint16_t moves[4] = {0, 0, 1, 0}; /* a move, and room for a score over it */
    ofc_heur_rows rows;
    size_t i;
    r = rules, h = heur, t = ev;
    memcpy(two, BOARD, 13);
    memcpy(two + 13, BOARD, 13);
    for (i = 0; i < 13; i++)
        (i < 3 ? fronts + i : fives + i - 3)[0] = (uint8_t)(OFC_HEUR_CARD + BOARD[i]);
    memset(&rows, 0, sizeof rows);
    rows.fronts = fronts, rows.n_fronts = 1, rows.fives = fives, rows.n_fives = 2;
    rows.moves = moves, rows.n_moves = 1;
    CHECK_EQ(ofc_eval_boards(&r, two, 2, (int32_t *)(void *)&r, NULL, NULL, NULL),
             OFC_E_VALUE);
    CHECK_EQ(ofc_eval_boards(&r, two, 2, NULL, NULL, (uint8_t *)&r, NULL), OFC_E_VALUE);
    CHECK_EQ(ofc_score_pairs(&r, two, two + 13, 1, (int32_t *)(void *)&r, NULL),
             OFC_E_VALUE);
    CHECK_EQ(ofc_heur_values(&r, NULL, &h, two, 2, 0, (double *)(void *)&h, NULL),
             OFC_E_VALUE);
    CHECK_EQ(ofc_heur_values(&r, NULL, &h, two, 2, 0, (double *)(void *)&r, NULL),
             OFC_E_VALUE);
    CHECK_EQ(ofc_heur_score_moves(&r, NULL, &h, &rows, NULL, 1, 1, 0, 0, 0.5,
                                  (double *)(void *)&h), OFC_E_VALUE);
    CHECK_EQ(ofc_heur_score_moves(&r, NULL, &h, &rows, NULL, 1, 1, 0, 0, 0.5,
                                  (double *)(void *)moves), OFC_E_VALUE);
    CHECK_EQ(ofc_best_settings(&r, &t, two, 2, OFC_OBJECTIVE_EV, NULL,
                               (double *)(void *)&t, NULL), OFC_E_VALUE);
    CHECK_EQ(ofc_best_settings(&r, &t, two, 2, OFC_OBJECTIVE_EV, (uint8_t *)&r, NULL, NULL),
             OFC_E_VALUE);
    CHECK(memcmp(&r, &rules, sizeof r) == 0 && memcmp(&h, &heur, sizeof h) == 0);
    CHECK(memcmp(&t, &ev, sizeof t) == 0 && moves[0] == 0 && moves[2] == 1);
    /* separate outputs: the same calls answer */
    CHECK_EQ(ofc_heur_score_moves(&r, NULL, &h, &rows, NULL, 1, 1, 0, 0, 0.5, scores),
             OFC_OK);
}

/* Regression: the game engine and table settlement given an output laid over the state,
 * rules or deal they read cleared it before reading it: ofc_game_decision(),
 * ofc_game_observe() and ofc_game_action_mask() over the state answered from the
 * zeroed bytes (a wrong decision or view, the state left damaged),
 * ofc_game_result_get() over the rules or the state and ofc_settle() over its rules,
 * table or deal settled changed inputs.  Now each is refused with OFC_E_VALUE, the
 * output untouched. */
static void test_game_outputs_overlapping_inputs(void)
{
    static union {
        ofc_game g;
        ofc_decision d;
        ofc_observation o;
        uint8_t mask[OFC_ACTION_SPACE];
        ofc_game_result res;
        ofc_settlement set;
    } u;
    static union {
        ofc_game_rules r;
        ofc_game_result res;
    } ru;
    static union {
        ofc_settle_input in;
        ofc_settlement set;
    } su;
    static ofc_game g, before;
    ofc_rng rng = {3, 0};
    CHECK_EQ(ofc_game_init(&game_rules, &u.g, 2, 0, NULL, 7, NULL), OFC_OK);
    before = u.g;
    CHECK_EQ(ofc_game_decision(&u.g, &u.d), OFC_E_VALUE);
    CHECK_EQ(ofc_game_observe(&u.g, 0, &u.o), OFC_E_VALUE);
    CHECK_EQ(ofc_game_action_mask(&u.g, u.mask), OFC_E_VALUE);
    CHECK(memcmp(&before, &u.g, sizeof before) == 0);
    g = u.g;
    CHECK_EQ(ofc_game_playout(&g, &rng, NULL), OFC_OK);
    u.g = g;
    CHECK_EQ(ofc_game_result_get(&game_rules, &u.g, NULL, 0, &u.res), OFC_E_VALUE);
    CHECK(memcmp(&g, &u.g, sizeof g) == 0);
    ru.r = game_rules;
    CHECK_EQ(ofc_game_result_get(&ru.r, &g, NULL, 0, &ru.res), OFC_E_VALUE);
    CHECK(memcmp(&ru.r, &game_rules, sizeof game_rules) == 0);
    su.in = deal_in;
    CHECK_EQ(ofc_settle(&rules, &table, &su.in, 0, &su.set), OFC_E_VALUE);
    CHECK(memcmp(&su.in, &deal_in, sizeof deal_in) == 0);
    CHECK_EQ(ofc_game_result_get(&game_rules, &g, NULL, 0, &ru.res), OFC_OK);
}

/* Regression: a search given an output laid over the rules or the model it reads
 * (ofc_search_rollouts()' sums, ofc_best_completion()'s result) added its values into
 * them sample by sample and answered OFC_OK, the later samples played under the
 * changed rules or model (and those left changed); exact search answered
 * OFC_E_BUDGET.  Now each is refused with OFC_E_VALUE, nothing written. */
static void test_search_outputs_overlapping_inputs(void)
{
    static ofc_rules r;
    static union {
        ofc_search_model m;
        ofc_completion_result res;
    } u;
    static ofc_search_model zero;
    static ofc_search_pos pos;
    const uint8_t all_back[1] = {242}; /* every dealt card to the back */
    double sum[1] = {0};
    r = rules;
    opening_position(&pos);
    CHECK_EQ(ofc_search_rollouts(&r, &fl, &ev, &u.m, &pos, all_back, 1, OFC_COMPLETE_FAST,
                                 1, 0, 4, (double *)(void *)&u.m, NULL), OFC_E_VALUE);
    CHECK_EQ(ofc_search_rollouts(&r, &fl, &ev, &u.m, &pos, all_back, 1, OFC_COMPLETE_FAST,
                                 1, 0, 4, sum, (double *)(void *)&r), OFC_E_VALUE);
    CHECK_EQ(ofc_best_completion(&r, &fl, &ev, &u.m, BOARD, NULL, 0, NULL, NULL, 0,
                                 OFC_COMPLETE_BEST, &u.res), OFC_E_VALUE);
    CHECK_EQ(ofc_search_exact(&r, &fl, &ev, &u.m, &pos, all_back, 1, 10,
                              (double *)(void *)&u.m), OFC_E_VALUE);
    CHECK(memcmp(&u.m, &zero, sizeof zero) == 0 && memcmp(&r, &rules, sizeof r) == 0);
    CHECK(sum[0] == 0.0);
    CHECK_EQ(ofc_search_rollouts(&r, &fl, &ev, &u.m, &pos, all_back, 1, OFC_COMPLETE_FAST,
                                 1, 0, 4, sum, NULL), OFC_OK);
}

/* Regression: ofc_solve_fantasyland() given its result laid over the rules or the hand
 * cleared them before reading them (OFC_E_RULES for valid rules, or a solution of other
 * cards), and ofc_ev_tables_init() over its rules built tables from zeroed rules.  Now
 * each is refused with OFC_E_VALUE, the output untouched. */
static void test_solver_outputs_overlapping_inputs(void)
{
    static union {
        ofc_rules r;
        ofc_ev_tables t;
        ofc_fl_solution s;
    } u;
    static union {
        uint8_t cards[14];
        ofc_fl_solution s;
    } h;
    static ofc_fl_solution sol;
    uint8_t hand[14];
    size_t i;
    for (i = 0; i < 14; i++)
        hand[i] = (uint8_t)(3 * i);
    u.r = rules;
    CHECK_EQ(ofc_solve_fantasyland(&u.r, NULL, &ev, hand, 14, NULL, 0, &u.s), OFC_E_VALUE);
    CHECK_EQ(ofc_ev_tables_init(&u.r, &u.t), OFC_E_VALUE);
    CHECK(memcmp(&u.r, &rules, sizeof rules) == 0);
    memcpy(h.cards, hand, sizeof hand);
    CHECK_EQ(ofc_solve_fantasyland(&rules, NULL, &ev, h.cards, 14, NULL, 0, &h.s),
             OFC_E_VALUE);
    CHECK(memcmp(h.cards, hand, sizeof hand) == 0);
    CHECK_EQ(ofc_solve_fantasyland(&rules, NULL, &ev, hand, 14, NULL, 0, &sol), OFC_OK);
}

int main(void)
{
    CHECK_EQ(ofc_rules_init_ofc(&rules), OFC_OK);
    CHECK_EQ(ofc_game_rules_init_pineapple(&game_rules), OFC_OK);
    CHECK_EQ(ofc_ev_tables_init(&rules, &ev), OFC_OK);
    CHECK_EQ(ofc_table_rules_init(&table), OFC_OK);
    CHECK_EQ(ofc_settle_input_init(&deal_in, 2, 0), OFC_OK);
    test_ranking_and_scoring();
    test_solvers();
    test_settlement();
    test_game();
    test_game_null();
    test_search();
    test_value_and_model();
    test_heuristic_and_features();
    test_vecenv();
    test_reserved_fields();
    test_outputs_overlapping_inputs();
    test_features_overlapping_encodings();
    test_solver_outputs_overlapping_hands();
    test_outputs_overlapping_rules_and_models();
    test_game_outputs_overlapping_inputs();
    test_search_outputs_overlapping_inputs();
    test_solver_outputs_overlapping_inputs();
    printf("test_errors: %d checks, %d failures\n", checks, failures);
    return failures != 0;
}
