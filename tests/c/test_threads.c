/* test_threads.c -- the batch kernels, and a learned value model (ofc_vm_eval(),
 * ofc_value_board()), from two threads on the same read-only inputs, rule set and
 * model (the library's promise: no global mutable state, inputs only read).
 * Each thread's results must equal the single-threaded ones.  tests/c/run.sh also runs
 * this program under ThreadSanitizer, which reports any data race inside the library. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "model_file.h"
#include "ofc_fast.h"
#include "ofc_value.h"

#define N_HANDS 3000
#define N_PAIRS 1500
#define ROUNDS 4
#define N_VALUES 400 /* boards of 7 cards valued by the model */
#define VM_HIDDEN 16 /* the model: one net, 64 -> 16 -> 1, for 7 cards */

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
static uint8_t vm_bytes[64 + 4 * (5 + VM_HIDDEN * (OFC_VF_N + 1) + VM_HIDDEN + 1)];

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

static void *worker(void *arg)
{
    static int32_t scratch[2][3 * N_PAIRS + N_HANDS];
    static uint8_t foul[2][N_PAIRS];
    int id = *(int *)arg, round;
    int *wrong = malloc(sizeof *wrong);
    if (!wrong) {
        return NULL;
    }
    *wrong = 0;
    for (round = 0; round < ROUNDS; round++) {
        *wrong |= run_all(scratch[id], foul[id]);
    }
    return wrong;
}

/* The model file (weights from an LCG), parsed into vm; the context; the boards of 7
 * cards (front 2, middle 3, back 2 of the shared boards), the inputs, and their
 * single-threaded values. */
static void prepare_model(void)
{
    static const uint32_t head[] = {7, 2, OFC_VF_N, VM_HIDDEN, 1};
    uint64_t state = 777;
    size_t at = 64, i, k;
    double out[2][N_VALUES];
    put_header(vm_bytes, 0, 1);
    for (i = 0; i < 5; i++) {
        at += put32(vm_bytes + at, head[i]);
    }
    while (at < sizeof vm_bytes) {
        state = state * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
        at += putf(vm_bytes + at, (float)((int)(state >> 56) - 128) / 128.0f);
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
}

int main(void)
{
    pthread_t threads[2];
    int ids[2] = {0, 1}, t;
    prepare();
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
