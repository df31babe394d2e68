/* test_features.c -- C-level tests of csrc/include/ofc_features.h: on random Pineapple and OFC
 * games, every feature lies in [0, 1], the dealt slots follow the given deal order, the
 * vector-environment form equals the one-encoding form, a known row is described as
 * the layout says, and a dealt order that is not the encoding's cards is refused
 * (nothing written).  The Python suite checks every value against a reference
 * (tests/test_features.py).
 *
 * Built by tests/c/run.sh with -std=c99 -Wall -Wextra -Werror -pedantic, plain and under
 * AddressSanitizer + UndefinedBehaviorSanitizer. */
#include <stdio.h>
#include <string.h>

#include "ofc_features.h"

#include "check.h"

#define N 8

static ofc_game_rules rules;
static ofc_vecenv_slot slots[N];
static uint8_t obs[N][OFC_ENC_SIZE], mask[N][OFC_ACTION_SPACE], legal[N][OFC_ACTION_SPACE];
static float feats[N][OFC_FEAT_SIZE], final_feats[N][OFC_FEAT_SIZE];
static uint8_t final_obs[N][OFC_ENC_SIZE];

static void check_range(const float *x)
{
    uint32_t j;
    for (j = 0; j < OFC_FEAT_SIZE; j++)
        CHECK(x[j] >= 0.0f && x[j] <= 1.0f);
}

static void test_vector_env(void)
{
    int16_t count[N];
    int8_t seat[N];
    uint8_t full[N], term[N], trunc[N];
    float rew[N], final_rew[N * OFC_GAME_MAX_SEATS];
    ofc_vecenv_out out = {obs[0], mask[0], legal[0], count, seat, full,
                          rew, final_rew, term, trunc, final_obs[0]};
    ofc_vecenv_config c;
    int64_t actions[N];
    uint32_t i, step;
    CHECK_EQ(ofc_vecenv_config_init(&c, &rules, N, 3, 7), OFC_OK);
    CHECK_EQ(ofc_vecenv_reset(&c, slots, 0, N, 1, &out), OFC_OK);
    for (step = 0; step < 60; step++) {
        CHECK_EQ(ofc_features_slots(slots, 0, N, obs[0], feats[0]), OFC_OK);
        for (i = 0; i < N; i++) {
            const ofc_game *g = &slots[i].game;
            const ofc_game_step *st = &g->steps[g->step];
            float one[OFC_FEAT_SIZE];
            uint32_t j;
            check_range(feats[i]);
            CHECK_EQ(ofc_features(obs[i], g->deck + st->start, st->n, one), OFC_OK);
            CHECK(memcmp(one, feats[i], sizeof one) == 0);
            for (j = 0; j < st->n && j < OFC_FEAT_DEALT_SLOTS; j++) {
                uint8_t card = g->deck[st->start + j];
                const float *slot = feats[i] + OFC_FEAT_DEALT + j * OFC_FEAT_SLOT;
                CHECK(slot[0] == 1.0f && slot[1 + card / 4] == 1.0f
                      && slot[14 + card % 4] == 1.0f);
            }
            actions[i] = legal[i][(step * 7 + i) % (uint32_t)count[i]];
        }
        CHECK_EQ(ofc_vecenv_step(&c, slots, 0, N, actions, NULL, NULL, &out, NULL), OFC_OK);
        /* ofc_features_rows: the ended rows' features of their end, the others kept */
        memset(final_feats, 0xff, sizeof final_feats);
        CHECK_EQ(ofc_features_rows(final_obs[0], term, N, final_feats[0]), OFC_OK);
        for (i = 0; i < N; i++) {
            float one[OFC_FEAT_SIZE];
            if (!term[i]) {
                CHECK(final_feats[i][0] != final_feats[i][0]); /* the 0xff NaN */
                continue;
            }
            check_range(final_feats[i]);
            CHECK_EQ(ofc_features(final_obs[i], NULL, 0, one), OFC_OK);
            CHECK(memcmp(one, final_feats[i], sizeof one) == 0);
        }
    }
}

static void test_known_row_and_refusals(void)
{
    uint8_t enc[OFC_ENC_SIZE];
    float x[OFC_FEAT_SIZE], before[OFC_FEAT_SIZE];
    uint8_t dealt[3], wrong[3], twice[3];
    const float *back = x + OFC_FEAT_OWN + 2 * OFC_FEAT_ROW;
    uint32_t c;
    CHECK_EQ(test_cards("Ac Ad 2c", dealt), 3u);
    CHECK_EQ(test_cards("Ac Ad 2d", wrong), 3u);
    CHECK_EQ(test_cards("Ac Ac 2c", twice), 3u);
    CHECK(test_card("As") == 51 && test_card("Ks") == 47);
    memset(enc, 0, sizeof enc);
    for (c = 0; c < 52; c++)
        enc[14 * 52 + c] = 1; /* unseen */
    enc[2 * 52 + 51] = enc[2 * 52 + 47] = 1; /* one's back: As, Ks */
    enc[14 * 52 + 51] = enc[14 * 52 + 47] = 0;
    for (c = 0; c < 3; c++) {
        enc[12 * 52 + dealt[c]] = 1; /* dealt: Ac, Ad, 2c */
        enc[14 * 52 + dealt[c]] = 0;
    }
    enc[OFC_ENC_PLANES * 52 + 4] = enc[OFC_ENC_PLANES * 52 + 5] = 1; /* two seats */
    CHECK_EQ(ofc_features(enc, dealt, 3, x), OFC_OK);
    CHECK(back[0] == 2.0f / 5.0f && back[2] == 1.0f);        /* 2 of 5, high card */
    CHECK(back[11] == 1.0f && back[13] == 1.0f && back[15] == 1.0f); /* flush, straight */
    CHECK(back[14] == 11.0f / 13.0f);                        /* 11 spades unseen */
    CHECK(x[OFC_FEAT_DEALT + 19 + 10] == 1.0f / 3.0f);       /* Ac pairs the back's ace */
    CHECK(x[OFC_FEAT_DEALT + 34] == 0.5f);                   /* Ac and Ad pair */
    memcpy(before, x, sizeof x);
    CHECK_EQ(ofc_features(enc, wrong, 3, x), OFC_E_CARD);
    CHECK_EQ(ofc_features(enc, twice, 3, x), OFC_E_CARD);
    CHECK_EQ(ofc_features(enc, dealt, 2, x), OFC_E_CARD);
    CHECK(memcmp(before, x, sizeof x) == 0);
    CHECK_EQ(ofc_features(enc, NULL, 0, x), OFC_OK); /* by increasing id: 2c, Ac, Ad */
    CHECK(x[OFC_FEAT_DEALT + 1] == 1.0f && x[OFC_FEAT_DEALT + OFC_FEAT_SLOT + 13] == 1.0f);
}

/* Regression: ofc_features_slots() given the features array over the slots it reads
 * (rows 1 and 2 laid where slots 1 and 2 lay) wrote row 0 over them, then read their
 * deals from those floats: OFC_OK with wrong features for rows 1 and 2, and the
 * caller's slots overwritten.  Such an array is now refused with OFC_E_VALUE, nothing
 * written. */
static void test_features_over_slots(void)
{
    static struct {
        float lead[OFC_FEAT_SIZE]; /* row 0 of an array whose row 1 is slot 0 */
        ofc_vecenv_slot slots[3];
        float room[3 * OFC_FEAT_SIZE];
    } w;
    static uint8_t enc[3][OFC_ENC_SIZE];
    static ofc_vecenv_slot saved[3];
    uint32_t i;
    for (i = 0; i < 3; i++) {
        CHECK_EQ(ofc_game_init(&rules, &w.slots[i].game, 2, 0, NULL, 11 + i, NULL), OFC_OK);
        CHECK_EQ(ofc_encode_game(&w.slots[i].game, w.slots[i].game.steps[0].seat, 0, enc[i]),
                 OFC_OK);
    }
    memcpy(saved, w.slots, sizeof saved);
    CHECK_EQ(ofc_features_slots(w.slots, 0, 3, enc[0], feats[0]), OFC_OK);
    CHECK_EQ(ofc_features_slots(w.slots, 0, 3, enc[0], (float *)(void *)&w.slots[1]),
             OFC_E_VALUE);
    CHECK_EQ(ofc_features_slots(w.slots, 1, 2, enc[0], w.lead), OFC_E_VALUE);
    CHECK(memcmp(saved, w.slots, sizeof saved) == 0); /* nothing written */
    CHECK_EQ(ofc_features_slots(w.slots, 0, 3, enc[0], w.room), OFC_OK); /* next to them */
    CHECK(memcmp(w.room, feats[0], 3 * sizeof feats[0]) == 0);
}

int main(void)
{
    CHECK_EQ(ofc_game_rules_init_pineapple(&rules), OFC_OK);
    test_vector_env();
    test_known_row_and_refusals();
    test_features_over_slots();
    printf("test_features: %d checks, %d failures\n", checks, failures);
    return failures != 0;
}
