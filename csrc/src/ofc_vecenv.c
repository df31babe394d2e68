/* ofc_vecenv.c -- the vector environment and the observation encoding
 * (ofc_vecenv.h documents both). */
#include "ofc_vecenv.h"

#include <math.h>
#include <string.h>

#include "ofc_game_internal.h"

/* Offsets of the encoding's parts. */
#define ENC_DEALT (12 * 52)
#define ENC_DISCARDS (13 * 52)
#define ENC_UNSEEN (14 * 52)
#define ENC_SC (OFC_ENC_PLANES * 52)
#define SC_BUTTON 0
#define SC_PRESENT 4
#define SC_TO_ACT 8
#define SC_FL 12
#define SC_FACE_DOWN 16
#define SC_DISCARDS 28
#define SC_STREET 32
#define SC_TO_DISCARD 33
#define SC_FUTURE 34
#define SC_FUTURE_DISCARDS 35
#define SC_FULL 36
#define SC_FACE_DOWN_NOW 37
#define SC_OVER 38
#define SC_KIND 39
#define SC_LOWBALL 42

/* Key of the random opponents' stream of an environment ("rnd-oppo"). */
#define OPPONENT_KEY UINT64_C(0x726E642D6F70706F)

static const uint8_t ROW_START[3] = {0, 3, 8};

/* -------------------------------------------------------------- encoding */

static void encode_cards(const uint8_t *cards, uint32_t n, uint8_t *plane, uint8_t seen[52])
{
    uint32_t i;
    for (i = 0; i < n; i++) {
        if (cards[i] < 52) {
            plane[cards[i]] = 1;
            seen[cards[i]] = 1;
        }
    }
}

static void encode_seat(const ofc_observation *o, uint32_t s, uint32_t rel, uint8_t *out,
                        uint8_t seen[52])
{
    uint8_t *sc = out + ENC_SC;
    uint32_t row;
    for (row = 0; row < 3; row++) {
        uint32_t size = ofc_row_size(row), n = o->count[s][row]; /* the row's slots only */
        encode_cards(o->board[s] + ROW_START[row], n < size ? n : size,
                     out + (3 * rel + row) * 52, seen);
        sc[SC_FACE_DOWN + 3 * rel + row] = o->face_down_count[s][row];
    }
    sc[SC_PRESENT + rel] = 1;
    sc[SC_FL + rel] = o->fl[s];
    sc[SC_DISCARDS + rel] = o->discard_count[s];
    if (s == o->button)
        sc[SC_BUTTON + rel] = 1;
    if (s == o->to_act)
        sc[SC_TO_ACT + rel] = 1;
}

void ofc_encode(const ofc_observation *o, uint32_t lowball, uint8_t out[OFC_ENC_SIZE])
{
    uint8_t seen[52];
    uint8_t *sc = out + ENC_SC;
    uint32_t s, c, players = o->players <= OFC_GAME_MAX_SEATS ? o->players : 0u;
    memset(out, 0, OFC_ENC_SIZE);
    memset(seen, 0, sizeof seen);
    for (s = 0; s < players; s++)
        encode_seat(o, s, (s + players - o->seat) % players, out, seen);
    encode_cards(o->dealt, o->n <= OFC_GAME_MAX_DEALT ? o->n : 0u, out + ENC_DEALT, seen);
    if (o->seat < players)
        encode_cards(o->discards, o->discard_count[o->seat] <= 4 ? o->discard_count[o->seat]
                                                                 : 0u,
                     out + ENC_DISCARDS, seen);
    for (c = 0; c < 52; c++)
        out[ENC_UNSEEN + c] = (uint8_t)!seen[c];
    sc[SC_STREET] = o->street;
    sc[SC_TO_DISCARD] = o->k;
    sc[SC_FUTURE] = o->future_cards;
    sc[SC_FUTURE_DISCARDS] = o->future_discards;
    sc[SC_FULL] = o->full;
    sc[SC_FACE_DOWN_NOW] = o->face_down;
    sc[SC_OVER] = o->is_over;
    if (o->kind < 3)
        sc[SC_KIND + o->kind] = 1;
    sc[SC_LOWBALL] = (uint8_t)(lowball != 0);
}

int32_t ofc_encode_game(const ofc_game *g, uint32_t seat, uint32_t lowball,
                        uint8_t out[OFC_ENC_SIZE])
{
    ofc_observation o;
    int32_t rc = out == NULL ? OFC_E_COUNT : ofc_game_observe(g, seat, &o);
    if (rc == OFC_OK)
        ofc_encode(&o, lowball, out);
    return rc;
}

float ofc_encoding_scale(uint32_t j)
{
    if (j >= OFC_ENC_SIZE)
        return 0.0f;
    if (j < ENC_SC)
        return 1.0f;
    j -= ENC_SC;
    if (j >= SC_FL && j < SC_FACE_DOWN)
        return 1.0f / 17.0f;
    if (j >= SC_FACE_DOWN && j < SC_DISCARDS)
        return 1.0f / 5.0f;
    if ((j >= SC_DISCARDS && j < SC_STREET) || j == SC_FUTURE_DISCARDS)
        return 1.0f / 4.0f;
    if (j == SC_STREET)
        return 1.0f / 8.0f;
    if (j == SC_FUTURE)
        return 1.0f / 16.0f;
    return 1.0f;
}

/* ---------------------------------------------------------- configuration */

/* The most cards one seat can be dealt in a deal of these rules: a normal hand, or
 * the largest Fantasyland hand an entry, a 2-7 entry or a stay can give. */
static uint32_t most_cards_per_seat(const ofc_game_rules *r)
{
    const ofc_fl_rules *fl = &r->fl;
    uint32_t most = (uint32_t)ofc_cards_per_seat(r->kind, 0), i;
    uint32_t n_entry = fl->n_entry < OFC_FL_MAX_ENTRY ? fl->n_entry : OFC_FL_MAX_ENTRY;
    if (!fl->enabled)
        return most;
    for (i = 0; i < n_entry; i++)
        most = fl->entry_cards[i] > most ? fl->entry_cards[i] : most;
    most = fl->lowball_entry > most ? fl->lowball_entry : most;
    most = fl->lowball_both > most ? fl->lowball_both : most;
    return fl->stay_cards > OFC_FL_STAY_ENTRY && fl->stay_cards > most ? fl->stay_cards
                                                                       : most;
}

int32_t ofc_vecenv_config_check(const ofc_vecenv_config *c)
{
    uint32_t i;
    if (c == NULL || c->rules == NULL || c->rules->kind == OFC_KIND_CLASSIC
        || c->rules->kind > OFC_KIND_PINEAPPLE)
        return OFC_E_RULES;
    if (c->num_envs == 0)
        return OFC_E_COUNT;
    if (c->players < 2 || c->players > c->rules->max_players
        || c->players > OFC_GAME_MAX_SEATS || c->learner >= c->players)
        return OFC_E_SEATS;
    if (c->players * most_cards_per_seat(c->rules) > OFC_CARDS)
        return OFC_E_DECK; /* a deal of the match could need more than one deck */
    if (c->opponents > OFC_VE_EXTERNAL || c->fantasyland > OFC_VE_FL_DECISION
        || c->button_frozen > 1 || c->autoreset > 1 || c->reserved != 0
        || c->lowball != (c->rules->scoring.middle_lowball != 0) /* the rules' */
        || !isfinite(c->shaping) || fabsf(c->shaping) > 1e6f)
        return OFC_E_VALUE;
    for (i = 0; i < 5; i++)
        if (!(fabs(c->stay_value[i]) <= OFC_STAY_VALUE_LIMIT))
            return OFC_E_VALUE;
    return OFC_OK;
}

int32_t ofc_vecenv_config_init(ofc_vecenv_config *c, const ofc_game_rules *rules,
                               uint32_t num_envs, uint32_t players, uint64_t seed)
{
    if (c == NULL)
        return ofc_vecenv_config_check(NULL);
    if (ofc_bytes_overlap(c, sizeof *c, rules, sizeof *rules))
        return OFC_E_VALUE; /* the rules it reads zeroed by the fill */
    memset(c, 0, sizeof *c);
    c->rules = rules;
    c->seed = seed;
    c->num_envs = num_envs;
    c->players = (uint8_t)(players <= 255 ? players : 255);
    c->autoreset = 1;
    c->lowball = (uint8_t)(rules != NULL && rules->scoring.middle_lowball != 0);
    return ofc_vecenv_config_check(c);
}

/* ---------------------------------------------------------- a saved slot */

static float potential(const ofc_vecenv_config *c, const ofc_game *g, uint32_t s);
static int is_agent_decision(const ofc_vecenv_config *c, const ofc_game_step *st);
static int32_t finish_deal(const ofc_vecenv_config *c, ofc_vecenv_slot *e,
                           uint32_t reward_seat, float *reward, float final_[4]);

/* Whether the next deal's button and Fantasyland counts are the ones the steps leave:
 * the deal's own while it runs, moved on by its end (finish_deal()) once it is over. */
static int next_deal_as_left(const ofc_vecenv_config *c, const ofc_vecenv_slot *e)
{
    ofc_vecenv_slot x = *e;
    float reward = 0.0f, final_[OFC_GAME_MAX_SEATS] = {0.0f, 0.0f, 0.0f, 0.0f};
    x.button = e->game.button;
    memcpy(x.fl, e->game.fl, sizeof x.fl);
    if (x.game.step >= x.game.nsteps && finish_deal(c, &x, 0, &reward, final_) != OFC_OK)
        return 0;
    return x.button == e->button && memcmp(x.fl, e->fl, sizeof x.fl) == 0;
}

/* The shaping potential the steps leave seat s: its board's once it has made a
 * decision this deal whose reward is shaped (an agent decision of the reward seat:
 * step_one()), else 0. */
static float potential_left(const ofc_vecenv_config *c, const ofc_game *g, uint32_t s)
{
    uint32_t i;
    if (s >= c->players || (c->opponents != OFC_VE_SELF && s != c->learner))
        return 0.0f;
    for (i = 0; i < g->step; i++)
        if (g->steps[i].seat == s && is_agent_decision(c, &g->steps[i]))
            return potential(c, g, s);
    return 0.0f;
}

/* The slot's own fields (the deal aside, checked first): what the next deal starts from,
 * and each seat's shaping potential (what the steps leave). */
static const char *slot_problem(const ofc_vecenv_config *c, const ofc_vecenv_slot *e)
{
    ofc_game next;
    uint32_t s;
    if (e->deal == 0)
        return "no deal started";
    if (e->reserved[0] || e->reserved[1] || e->reserved[2])
        return "reserved bytes not 0";
    if (ofc_game_init(c->rules, &next, c->players, e->button, e->fl, 0, NULL) != OFC_OK)
        return "the next deal's button or Fantasyland counts";
    for (s = 0; s < OFC_GAME_MAX_SEATS; s++) {
        if (e->potential[s] != potential_left(c, &e->game, s))
            return "a shaping potential not the one the steps leave (its seat's board's "
                   "after a shaped decision, else 0)";
        if (s >= c->players && e->fl[s])
            return "the next deal's Fantasyland counts";
    }
    if (!next_deal_as_left(c, e))
        return "the next deal's button or Fantasyland counts are not the ones the deal "
               "leaves";
    return NULL;
}

int32_t ofc_vecenv_slot_check(const ofc_vecenv_config *c, const ofc_vecenv_slot *e,
                              const char **why)
{
    const char *problem;
    int32_t rc = ofc_vecenv_config_check(c);
    if (why != NULL)
        *why = NULL;
    if (rc != OFC_OK)
        return rc;
    if (e == NULL)
        return OFC_E_COUNT;
    rc = ofc_game_state_check(c->rules, &e->game, why);
    if (rc != OFC_OK)
        return rc;
    problem = e->game.players != c->players ? "the deal's player count is not the "
                                              "environment's"
                                            : slot_problem(c, e);
    if (why != NULL)
        *why = problem;
    return problem == NULL ? OFC_OK : OFC_E_STATE;
}

/* ------------------------------------------------------------ one deal */

static int32_t start_deal(const ofc_vecenv_config *c, ofc_vecenv_slot *e)
{
    int32_t rc = ofc_game_init(c->rules, &e->game, c->players, e->button, e->fl,
                               ofc_deal_seed(e->env_seed, e->deal), NULL);
    if (rc != OFC_OK)
        return rc;
    e->deal++;
    memset(e->potential, 0, sizeof e->potential);
    return OFC_OK;
}

static int32_t start_match(const ofc_vecenv_config *c, ofc_vecenv_slot *e, uint32_t i)
{
    memset(e, 0, sizeof *e);
    e->env_seed = ofc_deal_seed(c->seed, i);
    e->rng.key = e->env_seed ^ OPPONENT_KEY;
    return start_deal(c, e);
}

/* Whether seat s's pending decision is the caller's (an agent or external seat). */
static int is_agent_decision(const ofc_vecenv_config *c, const ofc_game_step *st)
{
    if (st->full && c->fantasyland == OFC_VE_FL_SOLVER)
        return 0;
    return c->opponents != OFC_VE_RANDOM || st->seat == c->learner;
}

/* The Fantasyland solver's setting of a full set, as destinations. */
static int32_t solver_move(const ofc_vecenv_config *c, ofc_game *g, const ofc_game_step *st)
{
    const ofc_game_rules *r = c->rules;
    const uint8_t *cards = g->deck + st->start;
    uint8_t dest[OFC_GAME_MAX_DEALT];
    ofc_fl_solution sol;
    uint32_t i;
    int32_t rc = ofc_solve_fantasyland(&r->scoring, &r->fl, c->ev, cards, st->n,
                                       c->stay_value, 0, &sol);
    if (rc != OFC_OK)
        return rc;
    for (i = 0; i < st->n; i++)
        dest[i] = ofc_board_row_of(sol.best.board, cards[i]);
    return ofc_game_apply_placement(g, dest, st->n);
}

/* Royalties of seat s's complete rows (as if its board did not foul) x c->shaping. */
static float potential(const ofc_vecenv_config *c, const ofc_game *g, uint32_t s)
{
    const uint8_t *b = g->board[s];
    int32_t total = 0;
    if (g->count[s][0] == 3)
        total += c->rules->scoring.royalty[0][ofc_rank3_unchecked(b[0], b[1], b[2])];
    if (g->count[s][1] == 5)
        total += c->rules->scoring.royalty[1][ofc_rank5_unchecked(b[3], b[4], b[5], b[6],
                                                                  b[7])];
    if (g->count[s][2] == 5)
        total += c->rules->scoring.royalty[2][ofc_rank5_unchecked(b[8], b[9], b[10], b[11],
                                                                  b[12])];
    return c->shaping * (float)total;
}

/* The next deal's button, e->fl holding its Fantasyland counts: one seat on, or where
 * it is while the rules freeze it for a Fantasyland deal (R-FLOW-OFC-8, R-FL-6). */
static void move_button(const ofc_vecenv_config *c, ofc_vecenv_slot *e)
{
    uint32_t s, any_fl = 0;
    for (s = 0; s < c->players; s++)
        any_fl |= e->fl[s];
    if (!(c->button_frozen && any_fl))
        e->button = (uint8_t)((e->button + 1u) % c->players);
}

/* Book a finished deal: final rewards, reward, Fantasyland and button for the next. */
static int32_t finish_deal(const ofc_vecenv_config *c, ofc_vecenv_slot *e,
                           uint32_t reward_seat, float *reward, float final_[4])
{
    ofc_game_result res;
    uint32_t s;
    int32_t rc = ofc_game_result_get(c->rules, &e->game, NULL, 0, &res);
    if (rc != OFC_OK)
        return rc;
    for (s = 0; s < c->players; s++) {
        float f = (float)res.net[s] - e->potential[s];
        final_[s] += f;
        if (s == reward_seat)
            *reward += f;
        e->fl[s] = res.fl_next[s];
    }
    move_button(c, e);
    return OFC_OK;
}

/* Give up an unfinished deal (a truncation): it earns no Fantasyland, and the button
 * moves on for the next deal as after any deal without Fantasyland. */
static void abandon_deal(const ofc_vecenv_config *c, ofc_vecenv_slot *e)
{
    memset(e->fl, 0, sizeof e->fl);
    move_button(c, e);
}

/* Play the seats C plays until an agent decision (or the end without autoreset).
 * decided: whether the current deal already had an agent decision (a step's).  A deal
 * that ends without one is skipped; after OFC_VE_MAX_SKIPPED_DEALS of them in a row
 * the slot stays at the end of the last (no next deal started): OFC_E_NO_DECISION.
 * An engine error mid-deal (OFC_E_MEMORY: the Fantasyland solver's work block) leaves
 * the deal unplayable: marked over, so that a step there is OFC_E_GAME_OVER until a
 * reset starts the environment again. */
static int32_t play_on(const ofc_vecenv_config *c, ofc_vecenv_slot *e, uint32_t reward_seat,
                       float *reward, float final_[4], uint8_t *terminated, int decided,
                       uint8_t *final_obs)
{
    uint32_t skipped = 0;
    int32_t rc;
    for (;;) {
        ofc_game *g = &e->game;
        if (g->step >= g->nsteps) {
            rc = finish_deal(c, e, reward_seat, reward, final_);
            *terminated = 1;
            if (rc == OFC_OK && decided && final_obs != NULL) /* the step's own deal */
                rc = ofc_encode_game(g, c->learner, c->lowball, final_obs);
            if (rc != OFC_OK || !c->autoreset)
                return rc;
            if (!decided && ++skipped >= OFC_VE_MAX_SKIPPED_DEALS)
                return OFC_E_NO_DECISION; /* the rules keep the agent seats in FL */
            decided = 0;
            rc = start_deal(c, e);
        } else {
            const ofc_game_step *st = &g->steps[g->step];
            if (is_agent_decision(c, st))
                return OFC_OK;
            rc = st->full && c->fantasyland == OFC_VE_FL_SOLVER
                     ? solver_move(c, g, st)
                     : ofc_game_random_move(g, &e->rng);
        }
        if (rc != OFC_OK) {
            g->step = g->nsteps;
            return rc;
        }
    }
}

/* The legal ids of an opening (5 cards onto an empty board: the longest list), listed
 * once per call and copied for every environment at an opening. */
typedef struct opening_cache {
    int32_t count; /* -1 until listed */
    uint8_t list[OFC_ACTION_SPACE];
    uint8_t mask[OFC_ACTION_SPACE];
} opening_cache;

static int32_t list_legal(const ofc_game_step *st, const uint8_t room[3], uint8_t *legal,
                          uint8_t *mask, opening_cache *oc)
{
    if (st->n == 5 && st->k == 0 && room[0] == 3 && room[1] == 5 && room[2] == 5) {
        if (oc->count < 0) {
            memset(oc->mask, 0, sizeof oc->mask);
            oc->count = ofc_actions_legal(5, 0, room, oc->list, oc->mask);
        }
        memcpy(mask, oc->mask, OFC_ACTION_SPACE);
        if (legal != NULL)
            memcpy(legal, oc->list, (size_t)oc->count);
        return oc->count;
    }
    memset(mask, 0, OFC_ACTION_SPACE);
    return ofc_actions_legal(st->n, st->k, room, legal, mask);
}

/* Row i of the outputs: the next decision's seat, encoding and legal actions. */
static void write_decision(const ofc_vecenv_config *c, const ofc_game *g, uint32_t i,
                           uint32_t over_seat, const ofc_vecenv_out *out,
                           opening_cache *oc)
{
    uint8_t *mask = out->mask + (size_t)i * OFC_ACTION_SPACE;
    uint8_t *legal = out->legal ? out->legal + (size_t)i * OFC_ACTION_SPACE : NULL;
    ofc_observation o;
    int32_t n = 0;
    uint32_t seat;
    if (g->step < g->nsteps) {
        const ofc_game_step *st = &g->steps[g->step];
        seat = st->seat;
        if (!st->full) {
            uint8_t room[3];
            ofc_row_room(g->count[seat], room);
            n = list_legal(st, room, legal, mask, oc);
        } else {
            memset(mask, 0, OFC_ACTION_SPACE);
        }
        out->seat[i] = (int8_t)seat;
        out->full[i] = st->full;
    } else {
        memset(mask, 0, OFC_ACTION_SPACE);
        seat = over_seat; /* the reward seat sees the end */
        out->seat[i] = -1;
        out->full[i] = 0;
    }
    out->legal_count[i] = (int16_t)(n > 0 ? n : 0);
    ofc_game_observe(g, seat, &o);
    ofc_encode(&o, c->lowball, out->obs + (size_t)i * OFC_ENC_SIZE);
}

/* ------------------------------------------------------------ validation */

/* Plays a decision on g: OFC_OK, or its error with g unchanged (a finished deal, no
 * placement, an id out of range or for a full set, what the engine refuses). */
static int32_t play_decision(ofc_game *g, int64_t action, const uint8_t *placement)
{
    if (g->step >= g->nsteps)
        return OFC_E_GAME_OVER;
    if (action == OFC_VE_NO_ACTION)
        return placement == NULL ? OFC_E_COUNT
                                 : ofc_game_apply_placement(g, placement,
                                                            g->steps[g->step].n);
    if (action < 0 || action >= OFC_ACTION_SPACE || g->steps[g->step].full)
        return OFC_E_ACTION;
    return ofc_game_apply_action(g, (uint32_t)action);
}

static int out_ok(const ofc_vecenv_out *out)
{
    return out != NULL && out->obs && out->mask && out->legal_count && out->seat
           && out->full && out->rewards && out->final_rewards && out->terminations
           && out->truncations;
}

/* What a reset, a step or ofc_vecenv_write_rows() reads while it writes: the slots
 * (in[0]), the configuration, its rules and its tie-break tables. */
#define VE_INPUTS 4
static void call_inputs(const ofc_vecenv_config *c, const ofc_vecenv_slot *slots,
                        ofc_span in[VE_INPUTS])
{
    in[0].p = slots, in[0].n = c->num_envs * sizeof *slots;
    in[1].p = c, in[1].n = sizeof *c;
    in[2].p = c->rules, in[2].n = sizeof *c->rules;
    in[3].p = c->ev, in[3].n = sizeof *c->ev;
}

/* Whether a caller array of c->num_envs rows of `row` bytes shares a byte with one of
 * the k inputs (NULL p: no). */
static int over(const ofc_vecenv_config *c, const ofc_span *in, size_t k, const void *p,
                size_t row)
{
    return ofc_over_any(p, c->num_envs * row, in, k);
}

/* Whether an output array shares a byte with an input: the rows of one environment are
 * written while the slots of the ones after it and the configuration are still read. */
static int out_over(const ofc_vecenv_config *c, const ofc_span *in,
                    const ofc_vecenv_out *out)
{
    size_t k = VE_INPUTS;
    return over(c, in, k, out->obs, OFC_ENC_SIZE) ||
           over(c, in, k, out->mask, OFC_ACTION_SPACE) ||
           over(c, in, k, out->legal, OFC_ACTION_SPACE) ||
           over(c, in, k, out->legal_count, sizeof *out->legal_count) ||
           over(c, in, k, out->seat, 1) || over(c, in, k, out->full, 1) ||
           over(c, in, k, out->rewards, sizeof *out->rewards) ||
           over(c, in, k, out->final_rewards,
                OFC_GAME_MAX_SEATS * sizeof *out->final_rewards) ||
           over(c, in, k, out->terminations, 1) || over(c, in, k, out->truncations, 1) ||
           over(c, in, k, out->final_obs, OFC_ENC_SIZE);
}

/* The checks reset and step share: the pointers, the configuration (its error), the
 * range of environments, no output array over an input and no slot over the
 * configuration, its rules or its tables (OFC_E_VALUE). */
static int32_t check_call(const ofc_vecenv_config *c, const ofc_vecenv_slot *slots,
                          uint32_t first, uint32_t count, const ofc_vecenv_out *out)
{
    int32_t rc;
    ofc_span in[VE_INPUTS];
    if (c == NULL || slots == NULL || !out_ok(out))
        return OFC_E_COUNT;
    if ((rc = ofc_vecenv_config_check(c)) != OFC_OK)
        return rc;
    if (first > c->num_envs || count > c->num_envs - first)
        return OFC_E_COUNT;
    call_inputs(c, slots, in);
    return out_over(c, in, out) || over(c, in + 1, VE_INPUTS - 1, slots, sizeof *slots)
               ? OFC_E_VALUE
               : OFC_OK;
}

static void clear_row(uint32_t i, const ofc_vecenv_out *out)
{
    out->rewards[i] = 0.0f;
    out->terminations[i] = 0;
    out->truncations[i] = 0;
    memset(out->final_rewards + (size_t)i * OFC_GAME_MAX_SEATS, 0,
           OFC_GAME_MAX_SEATS * sizeof(float));
}

/* The seat whose view a finished deal's row shows, as the step that finished it wrote
 * it: the learner, or in self-play the seat of the deal's last agent decision (a full
 * set is one unless the solver sets it), the learner when it had none. */
static uint32_t over_seat(const ofc_vecenv_config *c, const ofc_game *g)
{
    uint32_t k;
    if (c->opponents == OFC_VE_SELF) {
        for (k = g->nsteps; k-- > 0;) {
            if (!(g->steps[k].full && c->fantasyland == OFC_VE_FL_SOLVER))
                return g->steps[k].seat;
        }
    }
    return c->learner;
}

int32_t ofc_vecenv_write_rows(const ofc_vecenv_config *c, const ofc_vecenv_slot *slots,
                              uint32_t first, uint32_t count, const ofc_vecenv_out *out)
{
    uint32_t i;
    opening_cache oc;
    int32_t rc = check_call(c, slots, first, count, out);
    oc.count = -1;
    for (i = first; rc == OFC_OK && i < first + count; i++)
        write_decision(c, &slots[i].game, i, over_seat(c, &slots[i].game), out, &oc);
    return rc;
}

/* ------------------------------------------------------------ reset, step */

int32_t ofc_vecenv_reset(const ofc_vecenv_config *c, ofc_vecenv_slot *slots,
                         uint32_t first, uint32_t count, uint32_t restart,
                         const ofc_vecenv_out *out)
{
    uint32_t i;
    opening_cache oc;
    int32_t rc = check_call(c, slots, first, count, out), stuck = OFC_OK;
    oc.count = -1;
    for (i = first; rc == OFC_OK && i < first + count; i++) {
        ofc_vecenv_slot *e = &slots[i];
        float ignored = 0.0f;
        clear_row(i, out);
        if (!restart && e->game.step < e->game.nsteps)
            abandon_deal(c, e);
        rc = restart ? start_match(c, e, i) : start_deal(c, e);
        if (rc == OFC_OK)
            rc = play_on(c, e, c->learner, &ignored,
                         out->final_rewards + (size_t)i * OFC_GAME_MAX_SEATS,
                         &out->terminations[i], 0, NULL);
        if (rc == OFC_E_NO_DECISION) { /* parked at a deal's end: start the others */
            stuck = rc;
            rc = OFC_OK;
        }
        if (rc == OFC_OK)
            write_decision(c, &e->game, i, c->learner, out, &oc);
    }
    return rc != OFC_OK ? rc : stuck;
}

/* The decisions of a block of environments as a step copied them. */
typedef struct decisions {
    int64_t action[OFC_COPY_BLOCK];
    uint8_t active[OFC_COPY_BLOCK];
    uint8_t placement[OFC_COPY_BLOCK][OFC_GAME_MAX_DEALT];
} decisions;

/* Copies the decisions of environments start .. end-1 (at most OFC_COPY_BLOCK of them)
 * to d, reading each caller byte once; returns how many were copied. */
static uint32_t read_decisions(const int64_t *actions, const uint8_t *placements,
                               const uint8_t *active, uint32_t start, uint32_t end,
                               decisions *d)
{
    uint32_t m = end - start < OFC_COPY_BLOCK ? end - start : OFC_COPY_BLOCK;
    ofc_copy_cards((uint8_t *)d->action, (const uint8_t *)(actions + start),
                   m * sizeof *d->action);
    if (active != NULL)
        ofc_copy_cards(d->active, active + start, m);
    else
        memset(d->active, 1, m);
    if (placements != NULL)
        ofc_copy_cards(&d->placement[0][0],
                       placements + (size_t)start * OFC_GAME_MAX_DEALT,
                       (size_t)m * OFC_GAME_MAX_DEALT);
    return m;
}

/* Plays environment i on after the decision its deal was just given: the shaping
 * reward, the C seats to the next agent decision, its row. */
static int32_t step_one(const ofc_vecenv_config *c, ofc_vecenv_slot *e, uint32_t i,
                        const ofc_vecenv_out *out, opening_cache *oc)
{
    ofc_game *g = &e->game;
    uint32_t seat = g->steps[g->step - 1u].seat; /* the decision's */
    uint32_t reward_seat = c->opponents == OFC_VE_SELF ? seat : c->learner;
    float *final_ = out->final_rewards + (size_t)i * OFC_GAME_MAX_SEATS;
    int32_t rc;
    clear_row(i, out);
    if (c->shaping != 0.0f && seat == reward_seat) { /* an agent seat: shaped */
        float phi = potential(c, g, seat);
        out->rewards[i] += phi - e->potential[seat];
        e->potential[seat] = phi;
    }
    rc = play_on(c, e, reward_seat, &out->rewards[i], final_, &out->terminations[i], 1,
                 out->final_obs ? out->final_obs + (size_t)i * OFC_ENC_SIZE : NULL);
    if (rc == OFC_OK || rc == OFC_E_NO_DECISION) /* the latter: a finished deal's row */
        write_decision(c, g, i, reward_seat, out, oc);
    return rc;
}

/* Takes the decisions back that a step gave the environments from .. to-1 it marked
 * (reserved[0]), and unmarks them: their slots as they were before the step. */
static void take_back(ofc_vecenv_slot *slots, uint32_t from, uint32_t to)
{
    for (; from < to; from++) {
        if (slots[from].reserved[0]) {
            slots[from].reserved[0] = 0;
            ofc_gm_unplace(&slots[from].game);
        }
    }
}

int32_t ofc_vecenv_step(const ofc_vecenv_config *c, ofc_vecenv_slot *slots,
                        uint32_t first, uint32_t count, const int64_t *actions,
                        const uint8_t *placements, const uint8_t *active,
                        const ofc_vecenv_out *out, uint32_t *bad)
{
    uint32_t i, start, k, m = 0;
    opening_cache oc;
    decisions d;
    ofc_span in[VE_INPUTS];
    int32_t rc = check_call(c, slots, first, count, out), stuck = OFC_OK;
    oc.count = -1;
    if (rc == OFC_OK && actions == NULL)
        rc = OFC_E_COUNT;
    /* the decisions are read a block at a time while the slots (in[0]) take them */
    if (rc == OFC_OK) {
        call_inputs(c, slots, in);
        if (over(c, in, 1, actions, sizeof *actions) ||
            over(c, in, 1, placements, OFC_GAME_MAX_DEALT) || over(c, in, 1, active, 1))
            rc = OFC_E_VALUE;
    }
    if (rc != OFC_OK)
        return rc;
    /* each decision read once (ofc_fast.h, Threads), a block at a time, and given to
     * its environment's deal (the engine's validation), the environment marked in
     * reserved[0]; on an error the decisions given are taken back: nothing changed */
    for (start = first; start < first + count; start += m) {
        m = read_decisions(actions, placements, active, start, first + count, &d);
        for (k = 0, i = start; k < m; k++, i++) {
            slots[i].reserved[0] = 0;
            if (!d.active[k])
                continue;
            rc = play_decision(&slots[i].game, d.action[k],
                               placements ? d.placement[k] : NULL);
            if (rc != OFC_OK) {
                take_back(slots, first, i);
                if (bad != NULL)
                    *bad = i;
                return rc;
            }
            slots[i].reserved[0] = 1;
        }
    }
    /* then the marked environments played on, unmarked */
    for (i = first; i < first + count; i++) {
        if (!slots[i].reserved[0])
            continue;
        slots[i].reserved[0] = 0;
        rc = step_one(c, &slots[i], i, out, &oc);
        if (rc == OFC_E_NO_DECISION) { /* stepped, parked at a deal's end */
            if (stuck == OFC_OK && bad != NULL)
                *bad = i;
            stuck = rc;
        } else if (rc != OFC_OK) { /* the ones after it: as before the call */
            take_back(slots, i + 1, first + count);
            if (bad != NULL)
                *bad = i;
            return rc;
        }
    }
    return stuck;
}
