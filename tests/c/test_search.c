/* test_search.c -- the search primitives (ofc_search.h): a known best completion, a
 * forced foul, rollouts equal to exact values when nothing is hidden, batches that
 * add up, determinism of every policy, the exact budget and every error code; random
 * opponents (opp_random) against an enumeration of every draw and legal action. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "ofc_search.h"
#include "ofc_value.h" /* OFC_VF_SET, OFC_VF_N */

static ofc_rules rules;
static ofc_fl_rules fl;
static ofc_ev_tables ev;
static ofc_search_model model;

static void test_known_completion(void)
{
    const char *rows[3] = {"Qh Qd", "9s 9h 9d 5c", "As Ks Qs Js"};
    uint8_t b[13], cards[3], rn = 3, rk = 0;
    ofc_completion_result out;
    test_layout(rows, b);
    test_cards("2c 5d Ts", cards);
    CHECK_EQ(ofc_best_completion(&rules, &fl, NULL, &model, b, cards, 1, &rn, &rk, 0,
                                 OFC_COMPLETE_BEST, &out), OFC_OK);
    CHECK(out.value == 44.0); /* QQ 7 + full house 12 + royal 25; fl_value all 0 */
    CHECK_EQ(out.foul, 0);
    CHECK_EQ(out.next_fl, 14);
    CHECK_EQ(out.board[2], test_card("2c"));
    CHECK_EQ(out.board[12], test_card("Ts"));
    CHECK_EQ(ofc_best_completion(&rules, &fl, NULL, &model, b, cards, 1, &rn, &rk, 0,
                                 OFC_COMPLETE_FAST, &out), OFC_OK);
    CHECK(out.value == 44.0);
}

/* ofc_best_completion_stop(): a stop word left 0 (or none) gives ofc_best_completion()'s
 * result bit for bit; one set before the call stops a 13-card set's exhaustive
 * completion (72,072 boards) at its first read, out untouched. */
static void test_completion_stop(void)
{
    uint8_t b[13], cards[13], rn = 13, rk = 0;
    ofc_completion_result want, got, kept;
    int32_t word = 0;
    memset(b, OFC_NO_CARD, sizeof b);
    memset(&want, 0, sizeof want); /* (padding, if any, compared too) */
    memset(&got, 0, sizeof got);
    test_cards("As Ks Qs Js 9h 8h 7h 6h 4c 4d 3c 2d Ad", cards);
    CHECK_EQ(ofc_best_completion(&rules, &fl, &ev, &model, b, cards, 1, &rn, &rk, 0,
                                 OFC_COMPLETE_BEST, &want), OFC_OK);
    CHECK(want.leaves > 1000);
    CHECK_EQ(ofc_best_completion_stop(&rules, &fl, &ev, &model, b, cards, 1, &rn, &rk, 0,
                                      OFC_COMPLETE_BEST, &got, &word), OFC_OK);
    CHECK(memcmp(&got, &want, sizeof got) == 0);
    CHECK_EQ(ofc_best_completion_stop(&rules, &fl, &ev, &model, b, cards, 1, &rn, &rk, 0,
                                      OFC_COMPLETE_BEST, &got, NULL), OFC_OK);
    CHECK(memcmp(&got, &want, sizeof got) == 0);
    word = 1;
    memset(&got, 0x5a, sizeof got);
    kept = got;
    CHECK_EQ(ofc_best_completion_stop(&rules, &fl, &ev, &model, b, cards, 1, &rn, &rk, 0,
                                      OFC_COMPLETE_BEST, &got, &word), OFC_E_STOPPED);
    CHECK(memcmp(&got, &kept, sizeof got) == 0);
    rk = 1; /* a bad call is refused first, stop word or not */
    CHECK_EQ(ofc_best_completion_stop(&rules, &fl, &ev, &model, b, cards, 1, &rn, &rk, 0,
                                      OFC_COMPLETE_BEST, &got, &word), OFC_E_COUNT);
}

static void test_forced_foul_and_errors(void)
{
    const char *rows[3] = {"Ah Ad", "2c 3d 4h 6s", "Kc Kd Ks 9c 9d"};
    uint8_t b[13], gap[13], cards[3], rn = 3, rk = 1, bad_k = 3, rk_none = 0;
    ofc_completion_result out;
    ofc_rules broken = rules;
    ofc_fl_rules bad_fl = fl; /* fuzz finding: entries past OFC_FL_MAX_ENTRY were read */
    bad_fl.n_entry = OFC_FL_MAX_ENTRY + 1;
    test_layout(rows, b);
    memcpy(gap, b, sizeof gap);
    test_cards("7c 8h Jd", cards);
    CHECK_EQ(ofc_best_completion(&rules, &fl, &ev, &model, b, cards, 1, &rn, &rk, 0,
                                 OFC_COMPLETE_BEST, &out), OFC_OK);
    CHECK_EQ(out.foul, 1);
    CHECK(out.value == OFC_SEARCH_FOUL_VALUE);
    CHECK_EQ(ofc_best_completion(&rules, &fl, &ev, &model, b, cards, 1, &rn, &bad_k, 0,
                                 OFC_COMPLETE_BEST, &out), OFC_E_COUNT);
    CHECK_EQ(ofc_best_completion(&rules, &fl, &ev, &model, b, cards, 1, &rn, &rk, 12,
                                 OFC_COMPLETE_BEST, &out), OFC_E_COUNT);
    /* the kept cards must fill the free slots exactly (checked, not a precondition):
     * three kept for two free slots; then a card after a free slot of its row */
    CHECK_EQ(ofc_best_completion(&rules, &fl, &ev, &model, b, cards, 1, &rn, &rk_none, 0,
                                 OFC_COMPLETE_BEST, &out), OFC_E_COUNT);
    gap[0] = OFC_NO_CARD;
    CHECK_EQ(ofc_best_completion(&rules, &fl, &ev, &model, gap, cards, 1, &rn, &rk, 0,
                                 OFC_COMPLETE_BEST, &out), OFC_E_CARD);
    CHECK_EQ(ofc_best_completion(&rules, &fl, &ev, &model, b, NULL, 0, NULL, NULL, 0,
                                 OFC_COMPLETE_BEST, &out), OFC_E_COUNT); /* 2 slots free */
    CHECK_EQ(ofc_best_completion(&rules, &fl, &ev, &model, b, cards, 1, &rn, &rk, 0,
                                 OFC_COMPLETE_SEQUENTIAL, &out), OFC_E_VALUE);
    CHECK_EQ(ofc_best_completion(&rules, &fl, &ev, NULL, b, cards, 1, &rn, &rk, 0,
                                 OFC_COMPLETE_BEST, &out), OFC_E_VALUE);
    broken.order_rule = 9;
    CHECK_EQ(ofc_best_completion(&broken, &fl, &ev, &model, b, cards, 1, &rn, &rk, 0,
                                 OFC_COMPLETE_BEST, &out), OFC_E_RULES);
    CHECK_EQ(ofc_best_completion(&rules, &bad_fl, &ev, &model, b, cards, 1, &rn, &rk, 0,
                                 OFC_COMPLETE_BEST, &out), OFC_E_RULES);
    cards[1] = test_card("Ah");
    CHECK_EQ(ofc_best_completion(&rules, &fl, &ev, &model, b, cards, 1, &rn, &rk, 0,
                                 OFC_COMPLETE_BEST, &out), OFC_E_DUPLICATE);
    cards[1] = 52;
    CHECK_EQ(ofc_best_completion(&rules, &fl, &ev, &model, b, cards, 1, &rn, &rk, 0,
                                 OFC_COMPLETE_BEST, &out), OFC_E_CARD);
}

/* Heads-up: seat 0 with 11 cards to place 2 of 3; seat 1 with `opp` cards. */
static void position(ofc_search_pos *pos, const char *opp[3], int opp_rounds)
{
    const char *own[3] = {"2c 2d 7h", "Tc Td Js", "Ac Ad Kh Kc 3s"};
    uint64_t seen = 0;
    int i, n = 0;
    memset(pos, 0, sizeof *pos);
    pos->players = 2;
    pos->n_dealt = 3;
    pos->k = 1;
    test_cards("Jd 4s 5s", pos->dealt);
    test_layout(own, pos->seats[0].board);
    test_layout(opp, pos->seats[1].board);
    pos->seats[1].rounds = (uint8_t)opp_rounds;
    pos->seats[1].round_n[0] = 3;
    pos->seats[1].round_k[0] = 1;
    for (i = 0; i < 13; i++) {
        uint8_t a = pos->seats[0].board[i], b = pos->seats[1].board[i];
        seen |= a < 52 ? (uint64_t)1 << a : 0;
        seen |= b < 52 ? (uint64_t)1 << b : 0;
    }
    for (i = 0; i < 3; i++) {
        seen |= (uint64_t)1 << pos->dealt[i];
    }
    for (i = 0; i < 52; i++) {
        if (!(seen >> i & 1u)) {
            pos->unseen[n++] = (uint8_t)i;
        }
    }
    pos->n_unseen = (uint8_t)n;
}

/* One run of `total` samples equals two batches (split, total - split); the run's
 * sums stay in sum. */
static void check_batches(const ofc_search_model *m, const ofc_search_pos *pos,
                          const uint8_t *acts, int32_t n, uint32_t policy, uint64_t seed,
                          uint64_t total, uint64_t split, double *sum)
{
    double part[OFC_ACTION_SPACE];
    int32_t a;
    memset(sum, 0, sizeof part);
    memset(part, 0, sizeof part);
    CHECK_EQ(ofc_search_rollouts(&rules, &fl, &ev, m, pos, acts, (uint32_t)n, policy, seed, 0,
                                 total, sum, NULL), OFC_OK);
    CHECK_EQ(ofc_search_rollouts(&rules, &fl, &ev, m, pos, acts, (uint32_t)n, policy, seed, 0,
                                 split, part, NULL), OFC_OK);
    CHECK_EQ(ofc_search_rollouts(&rules, &fl, &ev, m, pos, acts, (uint32_t)n, policy, seed,
                                 split, total - split, part, NULL), OFC_OK);
    for (a = 0; a < n; a++) {
        CHECK(fabs(sum[a] - part[a]) < 1e-9);
    }
}

/* ofc_search_exact_stop(): a stop word left 0 (or none) gives the values of
 * ofc_search_exact() bit for bit; one set before the call stops it (OFC_E_STOPPED) at
 * its first read, 256 leaves in, however large the tree. */
static void check_stop(const ofc_search_pos *pos, const uint8_t *acts, int32_t n)
{
    double exact[OFC_ACTION_SPACE], again[OFC_ACTION_SPACE];
    ofc_search_stats st[OFC_ACTION_SPACE];
    int32_t word = 0, a;
    uint64_t big = (uint64_t)1 << 40;
    CHECK_EQ(ofc_search_exact(&rules, &fl, &ev, &model, pos, acts, (uint32_t)n, big, exact),
             OFC_OK);
    CHECK_EQ(ofc_search_exact_stop(&rules, &fl, &ev, &model, pos, acts, (uint32_t)n, big,
                                   again, st, &word), OFC_OK);
    for (a = 0; a < n; a++) {
        CHECK(again[a] == exact[a]);
    }
    CHECK_EQ(ofc_search_exact_stop(&rules, &fl, &ev, &model, pos, acts, (uint32_t)n, big,
                                   again, NULL, NULL), OFC_OK);
    CHECK(again[0] == exact[0]);
    word = 1;
    CHECK_EQ(ofc_search_exact_stop(&rules, &fl, &ev, &model, pos, acts, (uint32_t)n, big,
                                   again, st, &word), OFC_E_STOPPED);
    CHECK_EQ(ofc_search_exact_stop(&rules, &fl, &ev, &model, pos, acts, (uint32_t)n, 10,
                                   again, st, &word), OFC_E_BUDGET); /* refused first */
}

static void test_rollouts_and_exact(void)
{
    const char *done[3] = {"Qc Qd 4h", "8c 8d 8h 6c 6d", "9c 9d 9h 9s 2h"};
    const char *open[3] = {"Qc Qd", "8c 8d 8h 6c", "9c 9d 9h 9s 2h"};
    ofc_search_pos pos;
    ofc_fl_rules bad_fl = fl;
    uint8_t acts[OFC_ACTION_SPACE], room[3] = {0, 2, 0};
    double exact[OFC_ACTION_SPACE], sum[OFC_ACTION_SPACE], sq[OFC_ACTION_SPACE];
    int32_t n = ofc_actions_legal(3, 1, room, acts, NULL), a;
    CHECK_EQ(n, 3);
    position(&pos, done, 0);
    CHECK_EQ(ofc_search_pos_check(&pos), OFC_OK);
    CHECK_EQ(ofc_search_exact(&rules, &fl, &ev, &model, &pos, acts, (uint32_t)n, 1000, exact),
             OFC_OK);
    bad_fl.n_entry = OFC_FL_MAX_ENTRY + 1; /* fuzz finding: checked like the rules */
    CHECK_EQ(ofc_search_exact(&rules, &bad_fl, &ev, &model, &pos, acts, (uint32_t)n, 1000,
                              exact), OFC_E_RULES);
    CHECK_EQ(ofc_search_rollouts(&rules, &bad_fl, &ev, &model, &pos, acts, (uint32_t)n,
                                 OFC_COMPLETE_BEST, 5, 0, 8, sum, sq), OFC_E_RULES);
    memset(sum, 0, sizeof sum);
    memset(sq, 0, sizeof sq);
    CHECK_EQ(ofc_search_rollouts(&rules, &fl, &ev, &model, &pos, acts, (uint32_t)n,
                                 OFC_COMPLETE_BEST, 5, 0, 8, sum, sq), OFC_OK);
    for (a = 0; a < n; a++) { /* nothing hidden: every sample is the exact value */
        CHECK(fabs(sum[a] / 8 - exact[a]) < 1e-9);
        CHECK(fabs(sq[a] / 8 - exact[a] * exact[a]) < 1e-6);
    }
    position(&pos, open, 1); /* the opponent draws its last three */
    CHECK(ofc_search_exact_cost(&pos, (uint32_t)n) > 1000);
    CHECK_EQ(ofc_search_exact(&rules, &fl, &ev, &model, &pos, acts, (uint32_t)n, 1000, exact),
             OFC_E_BUDGET);
    check_stop(&pos, acts, n);
    check_batches(&model, &pos, acts, n, OFC_COMPLETE_SEQUENTIAL, 5, 20, 12, sum);
    acts[0] = 0; /* every dealt card to the front: no room */
    CHECK_EQ(ofc_search_rollouts(&rules, &fl, &ev, &model, &pos, acts, 1, OFC_COMPLETE_FAST,
                                 5, 0, 1, sum, NULL), OFC_E_ACTION);
    CHECK_EQ(ofc_actions_legal(3, 1, room, acts, NULL), n);
    CHECK_EQ(ofc_search_rollouts(&rules, &fl, &ev, &model, &pos, acts, 1, 7, 5, 0, 1, sum,
                                 NULL), OFC_E_VALUE);
    pos.seat = 2;
    CHECK_EQ(ofc_search_pos_check(&pos), OFC_E_COUNT);
    CHECK_EQ(ofc_search_exact_cost(&pos, 1), 0);
    pos.seat = 0;
    pos.unseen[0] = pos.dealt[0];
    CHECK_EQ(ofc_search_pos_check(&pos), OFC_E_DUPLICATE);
}

/* The stats variants (ofc_search_rollouts_stats, ofc_search_exact_stats) on a last
 * decision whose boards are known: the searcher's board "Kh Ks 2c / Tc Td 7s + 2 /
 * Ac Ad Ah 3s 3d" takes two of "Th 9c 4h" into the middle.  Discarding Th leaves a
 * pair of tens under the kings: a foul; otherwise trip tens, royalties 8 (front KK)
 * + 2 (middle trips) + 6 (back full house) = 16 and a Fantasyland entry (KK).  The
 * opponent's board is complete, so every sample is the same and the stats are exact;
 * the values are those of the plain calls, bit for bit. */
static void test_stats(void)
{
    const char *own[3] = {"Kh Ks 2c", "Tc Td 7s", "Ac Ad Ah 3s 3d"};
    const char *opp[3] = {"5c 6c 8d", "Jc Jh 4c 4d 9s", "Qc Qd Qs 6h 6s"};
    ofc_search_pos pos;
    ofc_search_stats rs[3], es[3];
    uint8_t acts[OFC_ACTION_SPACE], room[3] = {0, 2, 0}, dest[5];
    double sum[3] = {0, 0, 0}, sum2[3] = {0, 0, 0}, sq[3] = {0, 0, 0};
    double exact[3], exact2[3];
    uint64_t seen = 0;
    int32_t n = ofc_actions_legal(3, 1, room, acts, NULL), a, i, m = 0;
    CHECK_EQ(n, 3);
    memset(&pos, 0, sizeof pos);
    memset(rs, 0, sizeof rs);
    pos.players = 2;
    pos.n_dealt = 3;
    pos.k = 1;
    test_cards("Th 9c 4h", pos.dealt);
    test_layout(own, pos.seats[0].board);
    test_layout(opp, pos.seats[1].board);
    for (i = 0; i < 13; i++) {
        uint8_t c0 = pos.seats[0].board[i], c1 = pos.seats[1].board[i];
        seen |= c0 < 52 ? (uint64_t)1 << c0 : 0;
        seen |= (uint64_t)1 << c1;
    }
    for (i = 0; i < 3; i++) {
        seen |= (uint64_t)1 << pos.dealt[i];
    }
    for (i = 0; i < 52; i++) {
        if (!(seen >> i & 1u)) {
            pos.unseen[m++] = (uint8_t)i;
        }
    }
    pos.n_unseen = (uint8_t)m;
    CHECK_EQ(ofc_search_pos_check(&pos), OFC_OK);
    CHECK_EQ(ofc_search_rollouts(&rules, &fl, &ev, &model, &pos, acts, 3, OFC_COMPLETE_BEST,
                                 9, 0, 8, sum, NULL), OFC_OK);
    CHECK_EQ(ofc_search_rollouts_stats(&rules, &fl, &ev, &model, &pos, acts, 3,
                                       OFC_COMPLETE_BEST, 9, 0, 8, sum2, sq, rs), OFC_OK);
    CHECK_EQ(ofc_search_exact(&rules, &fl, &ev, &model, &pos, acts, 3, 1000, exact), OFC_OK);
    CHECK_EQ(ofc_search_exact_stats(&rules, &fl, &ev, &model, &pos, acts, 3, 1000, exact2,
                                    es), OFC_OK);
    for (a = 0; a < n; a++) {
        int foul;
        CHECK_EQ(ofc_action_decode(3, 1, acts[a], dest), OFC_OK);
        foul = dest[0] == OFC_DISCARD; /* Th discarded: the middle is only a pair */
        CHECK(sum2[a] == sum[a]);
        CHECK(exact2[a] == exact[a]);
        CHECK(rs[a].foul == 8.0 * foul);
        CHECK(rs[a].royalties == (foul ? 0.0 : 8.0 * 16));
        CHECK(rs[a].fantasyland == (foul ? 0.0 : 8.0));
        CHECK(es[a].foul == (double)foul);
        CHECK(es[a].royalties == (foul ? 0.0 : 16.0));
        CHECK(es[a].fantasyland == (foul ? 0.0 : 1.0));
    }
    CHECK_EQ(ofc_search_rollouts_stats(&rules, &fl, &ev, &model, &pos, acts, 3,
                                       OFC_COMPLETE_BEST, 9, 0, 8, sum2, NULL, NULL), OFC_OK);
    CHECK_EQ(ofc_search_exact_stats(&rules, &fl, &ev, &model, &pos, acts, 3, 1000, exact2,
                                    NULL), OFC_OK);
    CHECK_EQ(ofc_search_exact_stats(&rules, &fl, &ev, &model, &pos, acts, 3, 0, exact2, es),
             OFC_E_BUDGET);
    CHECK_EQ(ofc_search_rollouts_stats(&rules, &fl, &ev, &model, &pos, acts, 3, 7, 9, 0, 8,
                                       sum2, NULL, rs), OFC_E_VALUE);
}

/* b with the cards of action `id` (3 dealt, 1 discarded), each to its row's first
 * free slot. */
static void play_action(uint8_t b[13], const uint8_t cards[3], uint8_t id)
{
    static const int start[3] = {0, 3, 8};
    uint8_t dest[5];
    int i, j;
    CHECK_EQ(ofc_action_decode(3, 1, id, dest), OFC_OK);
    for (i = 0; i < 3; i++) {
        if (dest[i] < 3) {
            for (j = start[dest[i]]; b[j] != OFC_NO_CARD; j++) {
            }
            b[j] = cards[i];
        }
    }
}

/* A random player's expected pair points against `mine`: the mean over the legal
 * actions of its round (ofc_actions_legal ids) of the rounds after it. */
static double random_play(const uint8_t mine[13], const uint8_t board[13],
                          const uint8_t *cards, int rounds)
{
    static const int start[3] = {0, 3, 8}, size[3] = {3, 5, 5};
    uint8_t room[3] = {0, 0, 0}, legal[OFC_ACTION_SPACE];
    double total = 0;
    int i, j, n;
    ofc_pair_score ps;
    if (rounds == 0) {
        CHECK_EQ(ofc_score_boards(&rules, mine, board, &ps), OFC_OK);
        return ps.net;
    }
    for (i = 0; i < 3; i++) {
        for (j = 0; j < size[i]; j++) {
            room[i] += board[start[i] + j] == OFC_NO_CARD;
        }
    }
    n = ofc_actions_legal(3, 1, room, legal, NULL);
    CHECK(n > 0);
    for (i = 0; i < n; i++) {
        uint8_t b[13];
        memcpy(b, board, 13);
        play_action(b, cards, legal[i]);
        total += random_play(mine, b, cards + 3, rounds - 1);
    }
    return total / n;
}

/* The reference value of each of the searcher's moves (its last: its board is then
 * complete) against an opponent with two rounds (3 cards, 1 discarded) to come from
 * exactly six unseen cards, playing each as a RandomBot does (a uniformly random
 * legal action id; the rollouts deal it a random arrangement instead, which must
 * give the same boards with the same probabilities): the mean over every split of
 * the six (3 now, 3 next) of random_play(). */
static void random_reference(const ofc_search_pos *pos, const uint8_t *acts, int n,
                             double *out)
{
    int a, i, mask, draws = 0;
    CHECK_EQ(pos->n_unseen, 6);
    for (a = 0; a < n; a++) {
        uint8_t mine[13];
        memcpy(mine, pos->seats[0].board, 13);
        play_action(mine, pos->dealt, acts[a]);
        out[a] = 0;
        draws = 0;
        for (mask = 0; mask < 64; mask++) {
            uint8_t cards[6];
            int x = 0, y = 3;
            for (i = 0; i < 6; i++) {
                if (mask >> i & 1) {
                    if (x < 3) {
                        cards[x] = pos->unseen[i];
                    }
                    x++;
                } else if (y < 6) {
                    cards[y++] = pos->unseen[i];
                }
            }
            if (x == 3) {
                out[a] += random_play(mine, pos->seats[1].board, cards, 2);
                draws++;
            }
        }
        CHECK_EQ(draws, 20);
        out[a] /= draws;
    }
}

/* Rollout means within 4.5 standard errors of `want` (compared squared). */
static void check_means(const double *sum, const double *sq, const double *want, int n,
                        double samples)
{
    int a;
    for (a = 0; a < n; a++) {
        double mean = sum[a] / samples, var = sq[a] / samples - mean * mean;
        double d = mean - want[a];
        CHECK(d * d < 4.5 * 4.5 * (var > 0 ? var / samples : 0) + 1e-12);
    }
}

static void test_random_opponent(void)
{
    /* two rounds left: where the opponent's cards go matters */
    const char *open[3] = {"Qc Qd", "8c 8d 6c", "9c 9d 9h 9s"};
    const char *none[3] = {"", "", ""};
    ofc_search_model m;
    ofc_search_pos pos;
    uint8_t acts[OFC_ACTION_SPACE], room[3] = {0, 2, 0};
    double ref[OFC_ACTION_SPACE], best[OFC_ACTION_SPACE], mix[OFC_ACTION_SPACE];
    double sum[OFC_ACTION_SPACE], sq[OFC_ACTION_SPACE], again[OFC_ACTION_SPACE];
    const double samples = 20000;
    int32_t n = ofc_actions_legal(3, 1, room, acts, NULL), a;
    memset(&m, 0, sizeof m); /* pair points only: no Fantasyland values */
    position(&pos, open, 2);
    pos.seats[1].round_n[1] = 3;
    pos.seats[1].round_k[1] = 1;
    pos.n_unseen = 6; /* the rest is dead */
    test_cards("Qh 8h 5d 3c 7d Kd", pos.unseen);
    CHECK_EQ(ofc_search_pos_check(&pos), OFC_OK);
    random_reference(&pos, acts, n, ref);
    m.opp_random = 1;
    CHECK_EQ(ofc_search_model_check(&m), OFC_OK);
    memset(sum, 0, sizeof sum);
    memset(sq, 0, sizeof sq);
    CHECK_EQ(ofc_search_rollouts(&rules, &fl, &ev, &m, &pos, acts, (uint32_t)n,
                                 OFC_COMPLETE_BEST, 3, 0, (uint64_t)samples, sum, sq), OFC_OK);
    check_means(sum, sq, ref, n, samples);
    /* a mix: half the samples random, half the best completion (exact values) */
    m.opp_random = 0;
    CHECK_EQ(ofc_search_exact(&rules, &fl, &ev, &m, &pos, acts, (uint32_t)n, 1u << 30, best),
             OFC_OK);
    m.opp_random = 0.5;
    CHECK_EQ(ofc_search_exact(&rules, &fl, &ev, &m, &pos, acts, (uint32_t)n, 1u << 30, mix),
             OFC_E_BUDGET);
    for (a = 0; a < n; a++) {
        mix[a] = (best[a] + ref[a]) / 2;
        CHECK(fabs(best[a] - ref[a]) > 0.5); /* the two models disagree */
    }
    memset(sum, 0, sizeof sum);
    memset(sq, 0, sizeof sq);
    CHECK_EQ(ofc_search_rollouts(&rules, &fl, &ev, &m, &pos, acts, (uint32_t)n,
                                 OFC_COMPLETE_BEST, 4, 0, (uint64_t)samples, sum, sq), OFC_OK);
    check_means(sum, sq, mix, n, samples);
    /* a Fantasyland opponent (14 cards, a random set): reproducible, batches add up */
    position(&pos, none, 1);
    pos.seats[1].rounds = 1;
    pos.seats[1].in_fl = 14;
    pos.seats[1].round_n[0] = 14;
    pos.seats[1].round_k[0] = 1;
    CHECK_EQ(ofc_search_pos_check(&pos), OFC_OK);
    m.opp_random = 1;
    check_batches(&m, &pos, acts, n, OFC_COMPLETE_FAST, 9, 64, 40, sum);
    check_batches(&m, &pos, acts, n, OFC_COMPLETE_FAST, 9, 64, 40, again);
    for (a = 0; a < n; a++) {
        CHECK(sum[a] == again[a]); /* reproducible */
        CHECK(sum[a] / 64 > 3.0); /* a random 13-card set fouls almost always */
    }
    m.opp_random = -0.01;
    CHECK_EQ(ofc_search_model_check(&m), OFC_E_VALUE);
    m.opp_random = 1.01;
    CHECK_EQ(ofc_search_model_check(&m), OFC_E_VALUE);
    m.opp_random = NAN;
    CHECK_EQ(ofc_search_model_check(&m), OFC_E_VALUE);
    CHECK_EQ(ofc_search_rollouts(&rules, &fl, &ev, &m, &pos, acts, (uint32_t)n,
                                 OFC_COMPLETE_FAST, 9, 0, 1, sum, NULL), OFC_E_VALUE);
}

/* Sums of `samples` rollouts of every action under m (policy SEQUENTIAL, seed 11). */
static void rollout_sums(const ofc_search_model *m, const ofc_search_pos *pos,
                         const uint8_t *acts, int32_t n, uint64_t samples, double *sum,
                         double *sq)
{
    memset(sum, 0, sizeof(double) * OFC_ACTION_SPACE);
    memset(sq, 0, sizeof(double) * OFC_ACTION_SPACE);
    CHECK_EQ(ofc_search_rollouts(&rules, &fl, &ev, m, pos, acts, (uint32_t)n,
                                 OFC_COMPLETE_SEQUENTIAL, 11, 0, samples, sum, sq), OFC_OK);
}

static void test_self_opponent(void)
{
    const char *open[3] = {"Qc Qd", "8c 8d 6c", "9c 9d 9h 9s"};
    const char *last[3] = {"Qc Qd", "8c 8d 8h 6c", "9c 9d 9h 9s 2h"};
    ofc_search_model m = model, s;
    ofc_search_pos pos;
    uint8_t acts[OFC_ACTION_SPACE], room[3] = {0, 2, 0};
    double a_sum[OFC_ACTION_SPACE], a_sq[OFC_ACTION_SPACE], b_sum[OFC_ACTION_SPACE];
    double b_sq[OFC_ACTION_SPACE], x[OFC_ACTION_SPACE];
    int32_t n = ofc_actions_legal(3, 1, room, acts, NULL), a, differ = 0;
    const uint64_t samples = 4000;
    s = m;
    s.opp_self = 1;
    CHECK_EQ(ofc_search_model_check(&s), OFC_OK);
    /* one round left: the seat plays its last round by the best completion either way */
    position(&pos, last, 1);
    CHECK_EQ(ofc_search_pos_check(&pos), OFC_OK);
    rollout_sums(&m, &pos, acts, n, 300, a_sum, a_sq);
    rollout_sums(&s, &pos, acts, n, 300, b_sum, b_sq);
    for (a = 0; a < n; a++) {
        CHECK(a_sum[a] == b_sum[a] && a_sq[a] == b_sq[a]);
    }
    /* two rounds left: it places the first without seeing the second */
    position(&pos, open, 2);
    pos.seats[1].round_n[1] = 3;
    pos.seats[1].round_k[1] = 1;
    CHECK_EQ(ofc_search_pos_check(&pos), OFC_OK);
    rollout_sums(&m, &pos, acts, n, samples, a_sum, a_sq);
    rollout_sums(&s, &pos, acts, n, samples, b_sum, b_sq);
    for (a = 0; a < n; a++) { /* the means differ by more than 4.5 standard errors */
        double ma = a_sum[a] / samples, mb = b_sum[a] / samples, d = mb - ma;
        double va = a_sq[a] / samples - ma * ma, vb = b_sq[a] / samples - mb * mb;
        differ += d * d > 4.5 * 4.5 * (va + vb) / samples;
    }
    CHECK(differ > 0);
    check_batches(&s, &pos, acts, n, OFC_COMPLETE_SEQUENTIAL, 11, samples, 1700, x);
    for (a = 0; a < n; a++) { /* reproducible, and batches add up */
        CHECK(fabs(x[a] - b_sum[a]) < 1e-9);
    }
    /* a seat that plays at random plays at random, whatever opp_self says */
    m.opp_random = s.opp_random = 1;
    rollout_sums(&m, &pos, acts, n, 500, a_sum, a_sq);
    rollout_sums(&s, &pos, acts, n, 500, b_sum, b_sq);
    for (a = 0; a < n; a++) {
        CHECK(a_sum[a] == b_sum[a] && a_sq[a] == b_sq[a]);
    }
    s.opp_random = 0;
    CHECK_EQ(ofc_search_exact(&rules, &fl, &ev, &s, &pos, acts, (uint32_t)n, 1u << 30, x),
             OFC_E_BUDGET); /* exact search models the completion policy only */
    s.opp_self = 2;
    CHECK_EQ(ofc_search_model_check(&s), OFC_E_VALUE);
    CHECK_EQ(ofc_search_rollouts(&rules, &fl, &ev, &s, &pos, acts, (uint32_t)n,
                                 OFC_COMPLETE_SEQUENTIAL, 11, 0, 1, x, NULL), OFC_E_VALUE);
}

/* Heads-up on empty boards: the searcher places 1 card now, then its rounds `own`;
 * seat 1 has its rounds `opp` (no discards: each list keeps 12 and 13 cards). */
static void empty_position(ofc_search_pos *pos, const uint8_t *own, int n_own,
                          const uint8_t *opp, int n_opp)
{
    int i;
    memset(pos, 0, sizeof *pos);
    pos->players = 2;
    pos->n_dealt = 1;
    pos->dealt[0] = 51;
    for (i = 0; i < 2; i++) {
        memset(pos->seats[i].board, OFC_NO_CARD, 13);
    }
    pos->seats[0].rounds = (uint8_t)n_own;
    memcpy(pos->seats[0].round_n, own, (size_t)n_own);
    pos->seats[1].rounds = (uint8_t)n_opp;
    memcpy(pos->seats[1].round_n, opp, (size_t)n_opp);
    pos->n_unseen = 51;
    for (i = 0; i < 51; i++) {
        pos->unseen[i] = (uint8_t)i;
    }
}

/* The sequential policy places every round but a seat's last one option at a time,
 * as a normal decision (at most 5 cards): a position with a longer round before a
 * seat's last is refused there (it overflowed the round's kept cards on the stack,
 * OFC_COMPLETE_SEQUENTIAL for the searcher, opp_self for the others); the other
 * policies complete it as before, and 5-card rounds stay sequential. */
static void test_sequential_long_round(void)
{
    const uint8_t six_six[2] = {6, 6}, twelve[1] = {12}, six_seven[2] = {6, 7},
                  thirteen[1] = {13}, five_seven[2] = {5, 7}, five_eight[2] = {5, 8};
    uint8_t act = 0;
    double sum = 0, sq = 0;
    ofc_search_model s = model;
    ofc_search_pos pos;
    uint32_t policy;
    s.opp_self = 1;
    empty_position(&pos, six_six, 2, thirteen, 1); /* the searcher: 6 cards, then 6 */
    CHECK_EQ(ofc_search_pos_check(&pos), OFC_OK);
    CHECK_EQ(ofc_search_rollouts(&rules, &fl, &ev, &model, &pos, &act, 1,
                                 OFC_COMPLETE_SEQUENTIAL, 3, 0, 2, &sum, &sq), OFC_E_COUNT);
    for (policy = OFC_COMPLETE_FAST; policy <= OFC_COMPLETE_BEST; policy++) {
        CHECK_EQ(ofc_search_rollouts(&rules, &fl, &ev, &s, &pos, &act, 1, policy, 3, 0, 2,
                                     &sum, &sq), OFC_OK);
    }
    empty_position(&pos, twelve, 1, six_seven, 2); /* seat 1: 6 cards, then 7 */
    CHECK_EQ(ofc_search_pos_check(&pos), OFC_OK);
    CHECK_EQ(ofc_search_rollouts(&rules, &fl, &ev, &s, &pos, &act, 1, OFC_COMPLETE_FAST, 3,
                                 0, 2, &sum, &sq), OFC_E_COUNT);
    CHECK_EQ(ofc_search_rollouts(&rules, &fl, &ev, &model, &pos, &act, 1,
                                 OFC_COMPLETE_SEQUENTIAL, 3, 0, 2, &sum, &sq), OFC_OK);
    empty_position(&pos, five_seven, 2, five_eight, 2); /* 5-card rounds: sequential */
    CHECK_EQ(ofc_search_pos_check(&pos), OFC_OK);
    CHECK_EQ(ofc_search_rollouts(&rules, &fl, &ev, &s, &pos, &act, 1,
                                 OFC_COMPLETE_SEQUENTIAL, 3, 0, 1, &sum, &sq), OFC_OK);
}

/* A learned value model of another feature set (or input count) than the library
 * computes is refused by the model check: before, it passed, and every board the
 * sequential rollouts valued by it counted silently as a foul. */
static void test_value_model_feature_set(void)
{
    static ofc_vmodel vm; /* only the header fields are read by the check */
    ofc_search_model s;
    memset(&s, 0, sizeof s);
    s.value = &vm;
    vm.feature_set = OFC_VF_SET;
    vm.inputs = OFC_VF_N;
    CHECK_EQ(ofc_search_model_check(&s), OFC_OK);
    vm.feature_set = OFC_VF_SET + 1;
    CHECK_EQ(ofc_search_model_check(&s), OFC_E_VALUE);
    vm.feature_set = OFC_VF_SET;
    vm.inputs = OFC_VF_N - 1;
    CHECK_EQ(ofc_search_model_check(&s), OFC_E_VALUE);
}

/* A learned value model trained for another seat count than the position's is
 * refused (OFC_E_COUNT, as ofc_value_ctx_check()): before, every board the
 * sequential rollouts valued by it counted silently as a foul. */
static void test_value_model_players(void)
{
    static ofc_vmodel vm; /* header fields only: no sample is drawn */
    const uint8_t five_seven[2] = {5, 7}, five_eight[2] = {5, 8};
    uint8_t act = 0;
    double sum = 0, sq = 0;
    ofc_search_model s = model;
    ofc_search_pos pos;
    s.value = &vm;
    vm.feature_set = OFC_VF_SET;
    vm.inputs = OFC_VF_N;
    vm.players = 3;
    empty_position(&pos, five_seven, 2, five_eight, 2); /* two seats */
    CHECK_EQ(ofc_search_rollouts(&rules, &fl, &ev, &s, &pos, &act, 1,
                                 OFC_COMPLETE_SEQUENTIAL, 3, 0, 0, &sum, &sq), OFC_E_COUNT);
    vm.players = 2;
    CHECK_EQ(ofc_search_rollouts(&rules, &fl, &ev, &s, &pos, &act, 1,
                                 OFC_COMPLETE_SEQUENTIAL, 3, 0, 0, &sum, &sq), OFC_OK);
    vm.players = 0; /* any table */
    CHECK_EQ(ofc_search_rollouts(&rules, &fl, &ev, &s, &pos, &act, 1,
                                 OFC_COMPLETE_SEQUENTIAL, 3, 0, 0, &sum, &sq), OFC_OK);
}

int main(void)
{
    int i;
    CHECK_EQ(ofc_rules_init_ofc(&rules), OFC_OK);
    CHECK_EQ(ofc_fl_rules_init_standard(&fl, 14), OFC_OK);
    CHECK_EQ(ofc_ev_tables_init(&rules, &ev), OFC_OK);
    memset(&model, 0, sizeof model);
    CHECK_EQ(ofc_search_model_check(&model), OFC_OK);
    test_known_completion();
    for (i = 13; i < 18; i++) {
        model.fl_value[i] = 10.0;
    }
    model.row_weight = 1.0;
    test_forced_foul_and_errors();
    test_completion_stop();
    test_rollouts_and_exact();
    test_random_opponent();
    test_self_opponent();
    test_sequential_long_round();
    test_stats();
    test_value_model_feature_set();
    test_value_model_players();
    model.row_weight = NAN;
    CHECK_EQ(ofc_search_model_check(&model), OFC_E_VALUE);
    CHECK_EQ(ofc_search_model_check(NULL), OFC_E_VALUE);
    printf("test_search: %d checks, %d failures\n", checks, failures);
    return failures != 0;
}
