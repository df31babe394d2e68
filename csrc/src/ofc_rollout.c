/* ofc_rollout.c -- Monte Carlo rollouts of a decision (ofc_search.h): sampled deals,
 * random and model-driven opponents, the searcher's sequential policy, statistics. */
#include <math.h>
#include <string.h>

#include "ofc_internal_solve.h"
#include "ofc_rng.h"
#include "ofc_search_internal.h"
#include "ofc_value.h"

/* ------------------------------------------------------------ rollouts */

void ofc_sx_finish(const env *e, const uint8_t board[13], int in_fl, done *d)
{
    ofc_eval_board_k(e->r, board, &d->ev);
    d->next = ofc_sx_next_fl(e, in_fl, d->ev.strength, d->ev.foul);
}

/* The searcher's value of its finished board against the finished others. */
double ofc_sx_deal_value(const env *e, const ofc_search_pos *pos, const done *me,
                         const done *others)
{
    double v = e->m->fl_value[me->next];
    int p;
    for (p = 0; p < pos->players; p++) {
        if (p != pos->seat) {
            v += ofc_score_evals_k(e->r, &me->ev, &others[p].ev, &ofc_no_context, NULL, 0);
            v -= e->m->fl_value[others[p].next] / (pos->players - 1);
        }
    }
    return v;
}

/* The boards after each candidate (OFC_E_ACTION when one does not fit). */
static int32_t candidate_boards(const ofc_search_pos *pos, const uint8_t *actions,
                                uint32_t n, uint8_t (*boards)[13])
{
    const ofc_search_seat *me = &pos->seats[pos->seat];
    uint32_t a;
    int i;
    for (a = 0; a < n; a++) {
        uint8_t dest[5];
        memcpy(boards[a], me->board, 13);
        if (ofc_action_decode(pos->n_dealt, pos->k, actions[a], dest) != OFC_OK) {
            return OFC_E_ACTION;
        }
        for (i = 0; i < pos->n_dealt; i++) {
            int r = dest[i], j;
            if (r == OFC_DISCARD) {
                continue;
            }
            for (j = ROW_START(r); j < ROW_START(r) + ROW_SIZE(r) &&
                                   boards[a][j] != OFC_NO_CARD; j++) {
            }
            if (j == ROW_START(r) + ROW_SIZE(r)) {
                return OFC_E_ACTION;
            }
            boards[a][j] = pos->dealt[i];
        }
    }
    return OFC_OK;
}

int32_t ofc_sx_search_args(env *e, const ofc_rules *rules, const ofc_fl_rules *fl,
                           const ofc_ev_tables *ev, const ofc_search_model *m,
                           const ofc_search_pos *pos, const uint8_t *actions,
                           uint32_t n_actions, uint8_t (*boards)[13])
{
    int32_t st = ofc_sx_env_init(e, rules, fl, ev, m);
    if (st != OFC_OK) {
        return st;
    }
    if (pos == NULL || (n_actions > 0 && actions == NULL) || n_actions > OFC_ACTION_SPACE) {
        return OFC_E_VALUE;
    }
    if ((st = ofc_search_pos_check(pos)) != OFC_OK) {
        return st;
    }
    if (m->value != NULL && m->value->players != 0 && m->value->players != pos->players) {
        return OFC_E_COUNT; /* as ofc_value_ctx_check() */
    }
    return candidate_boards(pos, actions, n_actions, boards);
}

/* Deals `need` cards of sample `index` to the front of deck. */
static void sample_deck(const ofc_search_pos *pos, uint64_t seed, uint64_t index,
                        int need, uint8_t deck[52])
{
    ofc_rng rng = ofc_rng_make(ofc_random64(seed, index));
    memcpy(deck, pos->unseen, (size_t)pos->n_unseen);
    ofc_rng_shuffle_front(deck, (size_t)pos->n_unseen, need > 0 ? (size_t)need : 0u, &rng);
}

/* ------------------------------------------------------------ random play */

/* A seat completed by a random player (see Opponents in the header): whatever its
 * rule, a player that does not look at the cards ends with its free slots filled by
 * a uniformly random arrangement of a uniformly random subset of its cards (every
 * round's cards are a uniformly random draw): its cards shuffled, the first ones
 * into the free slots in slot order. */
static void complete_random(const env *e, const ofc_search_seat *s, const uint8_t *cards,
                            ofc_rng *rng, done *out)
{
    uint8_t b[13], deck[52];
    int i, j = 0, n = ofc_sx_seat_cards(s);
    memcpy(deck, cards, (size_t)n);
    ofc_rng_shuffle_front(deck, (size_t)n, n > 0 ? (size_t)(n - 1) : 0u, rng);
    memcpy(b, s->board, 13);
    for (i = 0; i < 13; i++) {
        if (b[i] == OFC_NO_CARD) {
            b[i] = deck[j++];
        }
    }
    ofc_sx_finish(e, b, s->in_fl, out);
}

/* 1 when this sample's seat plays at random (a coin of weight m->opp_random). */
static int plays_random(const env *e, ofc_rng *rng)
{
    double w = e->m->opp_random;
    if (rng == NULL || w <= 0) {
        return 0;
    }
    return w >= 1 || (double)ofc_rng_draw(rng, (uint64_t)1 << 30) < w * 1073741824.0;
}

/* ------------------------------------------------------------ sequential */

/* Cards of a round placed one option at a time (seq_round()): a normal decision. */
#define SEQ_ROUND_CARDS 5

/* The learned value of a board of the searcher (m->value set; see Learned value in
 * the header): every card but the board and the `live` ones is out of the deck. */
static double seq_learned(const env *e, const uint8_t b[13], uint64_t live, int players,
                          int in_fl)
{
    ofc_value_ctx vc;
    uint64_t mask = 0;
    double v;
    int i;
    for (i = 0; i < 13; i++) {
        mask |= b[i] == OFC_NO_CARD ? 0 : (uint64_t)1 << b[i];
    }
    vc.rules = e->r;
    vc.fl = e->fl;
    vc.ev = e->ev;
    vc.model = e->m->value;
    memcpy(vc.fl_value, e->m->fl_value, sizeof vc.fl_value);
    vc.players = (uint32_t)players;
    vc.in_fl = (uint32_t)in_fl;
    if (ofc_value_board(&vc, b, ((uint64_t)1 << OFC_CARDS) - 1 - (live | mask), &v) != OFC_OK) {
        return OFC_SEARCH_FOUL_VALUE;
    }
    return v;
}

/* The best option for one round of cards (every discard, every row per kept card),
 * each valued by the fast completion over `fake` cards for the rounds after it (or by
 * the learned value, seq_learned(), with m->value: `live`, `players`); the board gets
 * the winner. */
static void seq_round(const env *e, uint8_t board[13], const uint8_t *cards, int n, int k,
                      const uint8_t *fake, int left, const uint8_t *rn, const uint8_t *rk,
                      int in_fl, uint64_t live, int players)
{
    uint8_t best[13], kept[SEQ_ROUND_CARDS], b[13];
    uint32_t dm = k ? (1u << k) - 1u : 0u, full = (1u << n) - 1u;
    int have = 0, i;
    double best_v = 0;
    cx c;
    ofc_sx_cx_init(&c, e, board, in_fl);
    for (;;) {
        int nk = 0, code, codes = 1;
        for (i = 0; i < n; i++) {
            if (!(dm >> i & 1u)) {
                kept[nk++] = cards[i];
            }
        }
        for (i = 0; i < nk; i++) {
            codes *= 3;
        }
        for (code = 0; code < codes; code++) {
            int room[3], x = code, ok = 1;
            memcpy(b, board, 13);
            for (i = 0; i < 3; i++) {
                room[i] = c.free_[i];
            }
            for (i = 0; i < nk && ok; i++, x /= 3) {
                int r = x % 3;
                ok = room[r] > 0;
                if (ok) {
                    b[ROW_START(r) + ROW_SIZE(r) - room[r]--] = kept[i];
                }
            }
            if (ok) {
                cx t;
                double v;
                if (e->m->value != NULL && e->ev != NULL) {
                    v = seq_learned(e, b, live, players, in_fl);
                } else {
                    ofc_sx_complete(&t, e, b, fake, left, rn, rk, in_fl, OFC_COMPLETE_FAST);
                    v = t.best_value;
                }
                if (!have || v > best_v) {
                    memcpy(best, b, 13);
                    best_v = v;
                    have = 1;
                }
            }
        }
        if (dm == 0 || (dm = ofc_sx_next_subset(dm)) > full) {
            break;
        }
    }
    memcpy(board, best, 13);
}

/* Draws `need` cards from the unseen cards less the first `seen` of own[] into fake. */
static void seq_fake(const ofc_search_pos *pos, const uint8_t *own, int seen, int need,
                     ofc_rng *rng, uint8_t *fake)
{
    uint8_t avail[52];
    uint64_t known = 0;
    int i, n = 0;
    for (i = 0; i < seen; i++) {
        known |= (uint64_t)1 << own[i];
    }
    for (i = 0; i < pos->n_unseen; i++) {
        if (!(known >> pos->unseen[i] & 1u)) {
            avail[n++] = pos->unseen[i];
        }
    }
    need = need < 0 ? 0 : need > n ? n : need;
    ofc_rng_shuffle_front(avail, (size_t)n, (size_t)need, rng);
    memcpy(fake, avail, (size_t)need);
}

/* The sequential completion of seat s (the searcher, or another seat playing as
 * the searcher's rollouts do): each round but the last placed by seq_round() over
 * fake cards for the rounds after it, the last by the best completion. */
static void complete_seq(cx *c, const env *e, const ofc_search_pos *pos,
                         const ofc_search_seat *s, const uint8_t board[13],
                         const uint8_t *cards, ofc_rng rng)
{
    uint8_t b[13], fake[52];
    uint64_t live = 0;
    int i, off = 0, rounds = s->rounds;
    memcpy(b, board, 13);
    for (i = 0; i < pos->n_unseen; i++) {
        live |= (uint64_t)1 << pos->unseen[i];
    }
    for (i = 0; i + 1 < rounds; i++) {
        int need = 0, j;
        for (j = i + 1; j < rounds; j++) {
            need += s->round_n[j];
        }
        for (j = 0; j < s->round_n[i]; j++) {
            live &= ~((uint64_t)1 << cards[off + j]);
        }
        seq_fake(pos, cards, off + s->round_n[i], need, &rng, fake);
        seq_round(e, b, cards + off, s->round_n[i], s->round_k[i], fake, rounds - 1 - i,
                  s->round_n + i + 1, s->round_k + i + 1, s->in_fl, live, pos->players);
        off += s->round_n[i];
    }
    ofc_sx_complete(c, e, b, cards + off, rounds ? 1 : 0, s->round_n + (rounds ? rounds - 1 : 0),
             s->round_k + (rounds ? rounds - 1 : 0), s->in_fl, OFC_COMPLETE_BEST);
}

/* Whether seat p's rounds fit the play of the rollouts: the rounds complete_seq()
 * places one by one (each but the last, for the searcher under SEQUENTIAL, for the
 * others with m->opp_self) are normal decisions of at most SEQ_ROUND_CARDS cards. */
static int seq_rounds_ok(const env *e, const ofc_search_pos *pos, int p, uint32_t policy)
{
    const ofc_search_seat *s = &pos->seats[p];
    int i;
    if (p == pos->seat ? policy != OFC_COMPLETE_SEQUENTIAL : !e->m->opp_self) {
        return 1;
    }
    for (i = 0; i + 1 < s->rounds; i++) {
        if (s->round_n[i] > SEQ_ROUND_CARDS) {
            return 0;
        }
    }
    return 1;
}

/* One other seat's board (not at random): as the searcher's sequential rollouts with
 * m->opp_self and `rng` (two rounds or more left), else by the completion policy
 * (for SEQUENTIAL: best with at most two rounds left, else fast; with `cap`, fast
 * past OFC_SEARCH_BEST_LEAVES completions). */
static void complete_other(cx *c, const env *e, const ofc_search_pos *pos,
                           const ofc_search_seat *s, const uint8_t *deck, uint32_t policy,
                           int cap, ofc_rng *rng)
{
    if (rng != NULL && e->m->opp_self && s->rounds > 1) {
        /* its fake cards: the stream {ofc_random64(key, ctr), 0} of rng's next draw */
        complete_seq(c, e, pos, s, s->board, deck,
                     ofc_rng_make(ofc_random64(rng->key, rng->ctr++)));
        return;
    }
    if (policy == OFC_COMPLETE_SEQUENTIAL) {
        policy = s->rounds <= 2 ? OFC_COMPLETE_BEST : OFC_COMPLETE_FAST;
    }
    if (cap && ofc_sx_seat_leaves(s) > OFC_SEARCH_BEST_LEAVES) {
        policy = OFC_COMPLETE_FAST;
    }
    ofc_sx_complete(c, e, s->board, deck, s->rounds, s->round_n, s->round_k, s->in_fl,
                    policy);
}

/* Completes every other seat from deck (after the searcher's own cards): with `rng`,
 * a seat may play at random (plays_random()), else complete_other(). */
void ofc_sx_complete_others(const env *e, const ofc_search_pos *pos, const uint8_t *deck,
                            uint32_t policy, int cap, ofc_rng *rng, done *others)
{
    int p;
    cx c;
    for (p = 0; p < pos->players; p++) {
        const ofc_search_seat *s = &pos->seats[p];
        if (p == pos->seat) {
            continue;
        }
        if (plays_random(e, rng)) {
            complete_random(e, s, deck, rng, &others[p]);
        } else {
            complete_other(&c, e, pos, s, deck, policy, cap, rng);
            ofc_sx_finish(e, c.best, s->in_fl, &others[p]);
        }
        deck += ofc_sx_seat_cards(s);
    }
}

/* Adds what one finished board of the searcher does to *s (NULL: nothing). */
void ofc_sx_stats_add(ofc_search_stats *s, const done *d, double weight)
{
    if (s != NULL) {
        s->foul += weight * d->ev.foul;
        s->fantasyland += weight * (d->next > 0);
        s->royalties +=
            weight * (double)(d->ev.royalty[0] + d->ev.royalty[1] + d->ev.royalty[2]);
    }
}

int32_t ofc_search_rollouts(const ofc_rules *rules, const ofc_fl_rules *fl,
                            const ofc_ev_tables *ev, const ofc_search_model *m,
                            const ofc_search_pos *pos, const uint8_t *actions,
                            uint32_t n_actions, uint32_t policy, uint64_t seed,
                            uint64_t first, uint64_t samples, double *sum, double *sum_sq)
{
    return ofc_search_rollouts_stats(rules, fl, ev, m, pos, actions, n_actions, policy,
                                     seed, first, samples, sum, sum_sq, NULL);
}

int32_t ofc_search_rollouts_stats(const ofc_rules *rules, const ofc_fl_rules *fl,
                                  const ofc_ev_tables *ev, const ofc_search_model *m,
                                  const ofc_search_pos *given, const uint8_t *actions,
                                  uint32_t n_actions, uint32_t policy, uint64_t seed,
                                  uint64_t first, uint64_t samples, double *sum,
                                  double *sum_sq, ofc_search_stats *stats)
{
    ofc_search_pos local;
    const ofc_search_pos *pos = ofc_sx_pos_copy(given, &local);
    env e;
    uint8_t boards[OFC_ACTION_SPACE][13], deck[52];
    done others[OFC_SEARCH_MAX_SEATS], me;
    cx c;
    const ofc_search_seat *own;
    int need = 0, p, mine;
    uint64_t i;
    uint32_t a;
    int32_t st = ofc_sx_search_args(&e, rules, fl, ev, m, pos, actions, n_actions, boards);
    if (st != OFC_OK) {
        return st;
    }
    if (policy > OFC_COMPLETE_SEQUENTIAL || (n_actions > 0 && sum == NULL) ||
        ofc_sx_out_over(&e, NULL, sum, n_actions * sizeof *sum) ||
        ofc_sx_out_over(&e, NULL, sum_sq, n_actions * sizeof *sum_sq) ||
        ofc_sx_out_over(&e, NULL, stats, n_actions * sizeof *stats)) {
        return OFC_E_VALUE;
    }
    own = &pos->seats[pos->seat];
    mine = ofc_sx_seat_cards(own);
    for (p = 0; p < pos->players; p++) {
        if (!seq_rounds_ok(&e, pos, p, policy)) {
            return OFC_E_COUNT;
        }
        need += ofc_sx_seat_cards(&pos->seats[p]);
    }
    for (i = 0; i < samples; i++) {
        ofc_rng fake_rng = ofc_rng_make(ofc_random64(seed ^ OFC_SEARCH_FAKE_KEY, first + i));
        ofc_rng opp_rng = ofc_rng_make(ofc_random64(seed ^ OFC_SEARCH_OPP_KEY, first + i));
        sample_deck(pos, seed, first + i, need, deck);
        ofc_sx_complete_others(&e, pos, deck + mine, policy, 1, &opp_rng, others);
        for (a = 0; a < n_actions; a++) {
            double v;
            if (policy == OFC_COMPLETE_SEQUENTIAL) {
                complete_seq(&c, &e, pos, own, boards[a], deck, fake_rng);
            } else {
                ofc_sx_complete(&c, &e, boards[a], deck, own->rounds, own->round_n, own->round_k,
                         own->in_fl, policy);
            }
            ofc_sx_finish(&e, c.best, own->in_fl, &me);
            v = ofc_sx_deal_value(&e, pos, &me, others);
            sum[a] += v;
            if (sum_sq != NULL) {
                sum_sq[a] += v * v;
            }
            ofc_sx_stats_add(stats != NULL ? &stats[a] : NULL, &me, 1.0);
        }
    }
    return OFC_OK;
}
