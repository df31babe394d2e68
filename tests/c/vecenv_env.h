/* vecenv_env.h -- one vector environment's buffers for the C tests of
 * csrc/include/ofc_vecenv.h (tests/c/test_vecenv.c, tests/c/test_vecenv_checks.c): the
 * configuration, N slots, the output arrays, random legal steps, and the rule sets both
 * programs play.  Static inline: a test uses the ones it needs. */
#ifndef OFC_TEST_VECENV_ENV_H
#define OFC_TEST_VECENV_ENV_H

#include <string.h>

#include "ofc_vecenv.h"

#include "check.h"

#define N 8

/* One vector environment's buffers. */
typedef struct env {
    ofc_vecenv_config c;
    ofc_vecenv_slot slots[N];
    uint8_t obs[N][OFC_ENC_SIZE], mask[N][OFC_ACTION_SPACE], legal[N][OFC_ACTION_SPACE];
    int16_t legal_count[N];
    int8_t seat[N];
    uint8_t full[N], terminations[N], truncations[N];
    float rewards[N], final_rewards[N][OFC_GAME_MAX_SEATS];
    uint8_t final_obs[N][OFC_ENC_SIZE];
    ofc_vecenv_out out;
    int64_t actions[N];
    ofc_rng rng;
} env;

static inline void env_init(env *e, const ofc_game_rules *r, uint32_t players,
                            uint64_t seed)
{
    memset(e, 0, sizeof *e);
    CHECK_EQ(ofc_vecenv_config_init(&e->c, r, N, players, seed), OFC_OK);
    e->out.obs = &e->obs[0][0];
    e->out.mask = &e->mask[0][0];
    e->out.legal = &e->legal[0][0];
    e->out.legal_count = e->legal_count;
    e->out.seat = e->seat;
    e->out.full = e->full;
    e->out.rewards = e->rewards;
    e->out.final_rewards = &e->final_rewards[0][0];
    e->out.terminations = e->terminations;
    e->out.truncations = e->truncations;
    e->out.final_obs = &e->final_obs[0][0];
    e->rng.key = seed;
}

/* Random legal actions from the env's legal lists. */
static inline int32_t env_step(env *e)
{
    uint32_t i, bad = 99;
    for (i = 0; i < N; i++)
        e->actions[i] = e->legal[i][ofc_rng_below(&e->rng, (uint64_t)e->legal_count[i])];
    return ofc_vecenv_step(&e->c, e->slots, 0, N, e->actions, NULL, NULL, &e->out, &bad);
}

/* Random legal actions for environment i alone. */
static inline int32_t env_step_some(env *e, uint32_t i)
{
    uint32_t bad = 99;
    e->actions[i] = e->legal[i][ofc_rng_below(&e->rng, (uint64_t)e->legal_count[i])];
    return ofc_vecenv_step(&e->c, e->slots, i, 1, e->actions, NULL, NULL, &e->out, &bad);
}

/* The rule sets the tests play: Pineapple, and OFC for up to 4 seats. */
static inline void env_rules(ofc_game_rules *pineapple, ofc_game_rules *ofc)
{
    CHECK_EQ(ofc_game_rules_init_pineapple(pineapple), OFC_OK);
    *ofc = *pineapple;
    ofc->kind = OFC_KIND_OFC;
    ofc->max_players = 4;
    ofc->face_down_final = 0;
    CHECK_EQ(ofc_game_rules_check(ofc), OFC_OK);
}

#endif /* OFC_TEST_VECENV_ENV_H */
