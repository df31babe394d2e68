/* test_model.c -- the learned value model (ofc_model.h, ofc_value.h): FNV-1a test
 * vectors, a hand-built model file evaluated against values worked out by hand, every
 * damaged file refused with its code (never a crash), the format 3 header checksum,
 * opponent rows (format 2 on: read, checked, and the tables built from them), the
 * features of a known board,
 * complete boards valued exactly, the best action equal to the argmax of the action
 * values, labels of a forced draw, context errors, and a wide random model's forward
 * pass equal, bit for bit on x86-64, to the one the header states. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "model_file.h"
#include "ofc_value.h"

static ofc_rules rules;
static ofc_fl_rules fl;
static ofc_ev_tables ev;
static ofc_vmodel model;
static uint8_t file[200000];

/* ------------------------------------------------------------ a model file */

/* Net for 7 cards: h0 = relu(x0 + x1 - 0.5), h1 = relu(-x0), out = 2 h0 + 3 h1 + 1.
 * Net for 9 cards: out = 0.25 x2 - 1 (one linear layer).  Returns the file size. */
static size_t build(uint8_t *f, int dup)
{
    size_t at = put_header(f, 0x1234u, 2), i;
    at += put32(f + at, 7);
    at += put32(f + at, 2);
    at += put32(f + at, OFC_VF_N);
    at += put32(f + at, 2);
    at += put32(f + at, 1);
    for (i = 0; i < OFC_VF_N; i++) { /* W0 row 0 */
        at += putf(f + at, i < 2 ? 1.0f : 0.0f);
    }
    for (i = 0; i < OFC_VF_N; i++) { /* W0 row 1 */
        at += putf(f + at, i == 0 ? -1.0f : 0.0f);
    }
    at += putf(f + at, -0.5f);
    at += putf(f + at, 0.0f);
    at += putf(f + at, 2.0f);
    at += putf(f + at, 3.0f);
    at += putf(f + at, 1.0f);
    at += put32(f + at, dup ? 7 : 9);
    at += put32(f + at, 1);
    at += put32(f + at, OFC_VF_N);
    at += put32(f + at, 1);
    for (i = 0; i < OFC_VF_N; i++) {
        at += putf(f + at, i == 2 ? 0.25f : 0.0f);
    }
    at += putf(f + at, -1.0f);
    return seal(f, at);
}

static void test_checksum(void)
{
    CHECK(ofc_vm_checksum(NULL, 0) == 0xcbf29ce484222325ULL);
    CHECK(ofc_vm_checksum((const uint8_t *)"a", 1) == 0xaf63dc4c8601ec8cULL);
    CHECK(ofc_vm_checksum((const uint8_t *)"foobar", 6) == 0x85944171f73967e8ULL);
}

static void test_parse_and_eval(void)
{
    float x[OFC_VF_N];
    double v = 0;
    size_t n = build(file, 0);
    memset(x, 0, sizeof x);
    CHECK_EQ(ofc_vm_parse(file, n, &model), OFC_OK);
    CHECK_EQ(model.n_nets, 2);
    CHECK_EQ(model.players, 2);
    CHECK_EQ(model.rules_hash, 0x1234);
    CHECK_EQ(model.net_of[7], 0);
    CHECK_EQ(model.net_of[9], 1);
    CHECK_EQ(model.net_of[5], -1);
    x[0] = 0.4f;
    x[1] = 0.3f;
    CHECK_EQ(ofc_vm_eval(&model, 7, x, &v), OFC_OK);
    CHECK(fabs(v - (2 * (0.4f + 0.3f - 0.5f) + 1)) < 1e-6); /* 1.4 */
    x[0] = -1.0f;
    x[1] = 0.0f;
    CHECK_EQ(ofc_vm_eval(&model, 7, x, &v), OFC_OK);
    CHECK(fabs(v - 4.0) < 1e-12); /* h0 = 0, h1 = 1 */
    x[2] = 8.0f;
    CHECK_EQ(ofc_vm_eval(&model, 9, x, &v), OFC_OK);
    CHECK(fabs(v - 1.0) < 1e-12);
    CHECK_EQ(ofc_vm_eval(&model, 5, x, &v), OFC_E_MODEL_NO_NET);
    CHECK_EQ(ofc_vm_eval(&model, 14, x, &v), OFC_E_MODEL_NO_NET);
    CHECK_EQ(ofc_vm_eval(NULL, 7, x, &v), OFC_E_VALUE);
    CHECK_EQ(ofc_vm_parse(file, n, NULL), OFC_E_VALUE);
}

/* ------------------------------------------------------------ a wide model */

#define WIDE 64 /* the wide model: OFC_VF_N -> WIDE -> WIDE2 -> 1, for 11 cards */
#define WIDE2 40 /* not a multiple of the forward pass's blocks of 16: a block's tail */

/* The wide model's layer widths. */
static const uint32_t WIDTH[4] = {OFC_VF_N, WIDE, WIDE2, 1};

static uint32_t lcg(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

/* A uniform float in [-1, 1) from the stream. */
static float unit(uint32_t *s) { return (float)lcg(s) / 8388608.0f - 1.0f; }

/* The wide model's file, weights from the stream `seed` (per layer W[out][in]
 * row-major, then the biases, as the file stores them); also into w[] in that order. */
static size_t build_wide(uint8_t *f, uint32_t seed, float *w)
{
    size_t at = put_header(f, 0, 1), k = 0;
    uint32_t l, i, n;
    at += put32(f + at, 11);
    at += put32(f + at, 3);
    for (l = 0; l < 4; l++) {
        at += put32(f + at, WIDTH[l]);
    }
    for (l = 0; l < 3; l++) {
        n = WIDTH[l] * WIDTH[l + 1] + WIDTH[l + 1];
        for (i = 0; i < n; i++, k++) {
            w[k] = 0.3f * unit(&seed);
            at += putf(f + at, w[k]);
        }
    }
    return seal(f, at);
}

/* The forward pass as the header states it: per output, the bias, then each nonzero
 * input's product added in input order; ReLU between layers.  Each product is rounded
 * to double on its own (a volatile store): no fused multiply-add here, whatever the
 * compiler's contraction default, so a library that fuses one fails the bit test. */
static double reference(const float *w, const float *x)
{
    double a[WIDE], b[WIDE];
    uint32_t l, i, j;
    for (i = 0; i < OFC_VF_N; i++) {
        a[i] = x[i];
    }
    for (l = 0; l < 3; l++) {
        uint32_t nin = WIDTH[l], nout = WIDTH[l + 1];
        for (j = 0; j < nout; j++) {
            double acc = w[nin * nout + j];
            for (i = 0; i < nin; i++) {
                if (a[i] != 0.0) {
                    volatile double p = (double)w[j * nin + i] * a[i];
                    acc += p;
                }
            }
            b[j] = (l < 2 && acc < 0) ? 0.0 : acc;
        }
        memcpy(a, b, nout * sizeof(double));
        w += nin * nout + nout;
    }
    return a[0];
}

/* 2,000 inputs (a third of them zero) through a wide random model: the same bits as
 * the reference on x86-64 (whichever instruction set the library picks there),
 * within 1e-12 elsewhere (where a compiler may fuse a multiply-add). */
static void test_wide_model_bits(void)
{
    static float w[(OFC_VF_N + 1) * WIDE + (WIDE + 1) * WIDE2 + WIDE2 + 1];
    static ofc_vmodel wide; /* the other tests keep `model` */
    float x[OFC_VF_N];
    uint32_t s = 99;
    size_t n = build_wide(file, 7, w);
    int k, i, same = 0;
    CHECK_EQ(ofc_vm_parse(file, n, &wide), OFC_OK);
    for (k = 0; k < 2000; k++) {
        double v = 0, want;
        for (i = 0; i < OFC_VF_N; i++) {
            x[i] = lcg(&s) % 3 == 0 ? 0.0f : unit(&s);
        }
        CHECK_EQ(ofc_vm_eval(&wide, 11, x, &v), OFC_OK);
        want = reference(w, x);
#if defined(__x86_64__)
        same += v == want;
#else
        same += fabs(v - want) <= 1e-12 * (fabs(want) > 1 ? fabs(want) : 1);
#endif
    }
    CHECK_EQ(same, 2000);
}

static void test_damaged_files(void)
{
    static ofc_vmodel m;
    size_t n = build(file, 0), i;
    int32_t st;
    for (i = 0; i < n; i++) { /* every truncation is refused */
        st = ofc_vm_parse(file, i, &m);
        CHECK(st == OFC_E_MODEL_TRUNCATED);
    }
    CHECK_EQ(ofc_vm_parse(NULL, 0, &m), OFC_E_MODEL_TRUNCATED);
    file[n] = 0;
    CHECK_EQ(ofc_vm_parse(file, n + 1, &m), OFC_E_MODEL_TRUNCATED);
    for (i = 64; i < n; i += 7) { /* any payload bit flipped: the checksum */
        file[i] ^= 0x10;
        CHECK_EQ(ofc_vm_parse(file, n, &m), OFC_E_MODEL_CHECKSUM);
        file[i] ^= 0x10;
    }
    file[3] ^= 1;
    CHECK_EQ(ofc_vm_parse(file, n, &m), OFC_E_MODEL_MAGIC);
    file[3] ^= 1;
    file[8] = OFC_VM_VERSION + 1; /* (a format 1 file as format 3: its header checksum) */
    CHECK_EQ(ofc_vm_parse(file, n, &m), OFC_E_MODEL_VERSION);
    file[8] = 3;
    CHECK_EQ(ofc_vm_parse(file, n, &m), OFC_E_MODEL_CHECKSUM);
    file[8] = 0;
    CHECK_EQ(ofc_vm_parse(file, n, &m), OFC_E_MODEL_VERSION);
    file[8] = 1;
    file[48] = 1; /* opponent rows announced in format 1: a reserved byte */
    CHECK_EQ(ofc_vm_parse(file, n, &m), OFC_E_MODEL_SHAPE);
    file[48] = 0;
    file[50] = 1;
    CHECK_EQ(ofc_vm_parse(file, n, &m), OFC_E_MODEL_SHAPE); /* reserved bytes */
    file[50] = 0;
    put32(file + 28, 63); /* inputs != the nets' */
    CHECK_EQ(ofc_vm_parse(file, n, &m), OFC_E_MODEL_SHAPE);
    put32(file + 28, OFC_VF_N);
    put32(file + 64 + 12, 0); /* a width of 0 */
    reseal(file, n);
    CHECK_EQ(ofc_vm_parse(file, n, &m), OFC_E_MODEL_SHAPE);
    build(file, 0);
    putf(file + 64 + 20, NAN); /* the first weight */
    reseal(file, n);
    CHECK_EQ(ofc_vm_parse(file, n, &m), OFC_E_MODEL_VALUE);
    n = build(file, 1); /* two nets for 7 cards */
    CHECK_EQ(ofc_vm_parse(file, n, &m), OFC_E_MODEL_SHAPE);
    n = build(file, 0);
    put32(file + 36, 3); /* a third net that is not there */
    CHECK_EQ(ofc_vm_parse(file, n, &m), OFC_E_MODEL_SHAPE);
    put32(file + 36, 0);
    CHECK_EQ(ofc_vm_parse(file, n, &m), OFC_E_MODEL_SHAPE);
    build(file, 0);
    for (i = 0; i < 14; i++) { /* a net's cards: 5..12 (the format), nothing else */
        put32(file + 64, (uint32_t)i);
        reseal(file, n);
        CHECK_EQ(ofc_vm_parse(file, n, &m),
                 i >= 5 && i <= 12 && i != 9 ? OFC_OK : OFC_E_MODEL_SHAPE);
    }
    build(file, 0);
}

/* Two nets of 64 -> 256 -> 256 -> 256 -> 1 (148,481 parameters each): together more
 * than OFC_VM_MAX_PARAMS, so the second is refused before its bytes are read. */
static void test_parameter_budget(void)
{
    static const uint32_t width[5] = {OFC_VF_N, 256, 256, 256, 1};
    static ofc_vmodel m;
    size_t per = 256 * 65 + 256 * 257 * 2 + 257, size = 64 + 2 * (28 + 4 * per), at, i;
    uint8_t *f = malloc(size);
    uint32_t net, l;
    CHECK(f != NULL && 2 * per > OFC_VM_MAX_PARAMS && per <= OFC_VM_MAX_PARAMS);
    if (f == NULL) {
        return;
    }
    at = put_header(f, 0, 2);
    for (net = 0; net < 2; net++) {
        at += put32(f + at, 5 + net);
        at += put32(f + at, 4);
        for (l = 0; l < 5; l++) {
            at += put32(f + at, width[l]);
        }
        for (i = 0; i < per; i++) {
            at += putf(f + at, 0.0f);
        }
    }
    CHECK(at == size);
    CHECK_EQ(ofc_vm_parse(f, seal(f, size), &m), OFC_E_MODEL_SHAPE);
    put32(f + 36, 1); /* the first net alone fits; then the second is bytes too many */
    CHECK_EQ(ofc_vm_parse(f, size, &m), OFC_E_MODEL_SHAPE);
    CHECK_EQ(ofc_vm_parse(f, seal(f, size - 28 - 4 * per), &m), OFC_OK);
    free(f);
}

/* Format 3: the header under its checksum (bytes 52..59, over 0..51).  Format 1 reads
 * a players field of 2 damaged to 0 as "any seat count"; format 3 refuses it, and
 * every header byte changed (xor 0xFF, or any one bit), while the model and its
 * payload checksum are those of the same file as format 1. */
static void test_header_checksum(void)
{
    static ofc_vmodel m, old;
    size_t n = build(file, 0), i;
    uint32_t bit;
    CHECK_EQ(ofc_vm_parse(file, n, &old), OFC_OK);
    put32(file + 32, 0);
    CHECK_EQ(ofc_vm_parse(file, n, &m), OFC_OK); /* format 1: its header unchecked */
    CHECK_EQ(m.players, 0u);
    put32(file + 32, 2);
    seal_v3(file, n);
    CHECK_EQ(ofc_vm_parse(file, n, &m), OFC_OK);
    CHECK_EQ(m.version, 3u);
    CHECK_EQ(m.players, 2u);
    CHECK(m.checksum == old.checksum && m.n_params == old.n_params);
    CHECK(memcmp(m.w, old.w, sizeof m.w) == 0);
    put32(file + 32, 0);
    CHECK_EQ(ofc_vm_parse(file, n, &m), OFC_E_MODEL_CHECKSUM);
    put32(file + 32, 2);
    for (i = 0; i < 64; i++) {
        for (bit = 0; bit <= 8; bit++) {
            uint8_t mask = bit == 8 ? 0xFF : (uint8_t)(1u << bit);
            file[i] ^= mask;
            CHECK(ofc_vm_parse(file, n, &m) != OFC_OK);
            file[i] ^= mask;
        }
    }
    file[16] ^= 1; /* a payload size: the header checksum before the size */
    CHECK_EQ(ofc_vm_parse(file, n, &m), OFC_E_MODEL_CHECKSUM);
    file[16] ^= 1;
    CHECK_EQ(ofc_vm_parse(file, n, &m), OFC_OK);
}
/* Shapes and numbers out of range, one at a time in build()'s file (its first net:
 * cards at 64, layers at 68, widths at 72, 76, 80, 133 parameters from 84), each
 * refused with its code; the header fields outside the checksum need no reseal. */
static void test_bad_shapes_and_numbers(void)
{
    static const struct {
        size_t at;
        uint32_t value;
        int32_t want;
    } cases[] = {
        {68, 0, OFC_E_MODEL_SHAPE},           /* no layer */
        {68, 5, OFC_E_MODEL_SHAPE},           /* more than OFC_VM_MAX_LAYERS */
        {76, 257, OFC_E_MODEL_SHAPE},         /* wider than OFC_VM_MAX_WIDTH */
        {80, 2, OFC_E_MODEL_SHAPE},           /* a last layer of 2 outputs */
        {84, 0x7f800000u, OFC_E_MODEL_VALUE}, /* +inf, the first weight */
        {84, 0xff800000u, OFC_E_MODEL_VALUE}, /* -inf */
        {84 + 4 * 132, 0x7fc00000u, OFC_E_MODEL_VALUE}, /* NaN, the net's last bias */
        {84 + 4 * 132, 0x7f7fffffu, OFC_E_MODEL_VALUE}, /* FLT_MAX: over the bound */
        {84, 0x49742400u, OFC_OK},            /* 1e6, OFC_VM_MAX_WEIGHT: within */
        {84, 0xc9742400u, OFC_OK},            /* -1e6 */
        {84, 0x49742401u, OFC_E_MODEL_VALUE}, /* the next float past 1e6 */
        {84 + 4 * 132, 0xc9742401u, OFC_E_MODEL_VALUE}, /* and past -1e6, a bias */
    };
    static const struct {
        size_t at;
        uint32_t value;
        int32_t want;
    } header[] = {
        {12, 63, OFC_E_MODEL_VERSION},             /* header bytes other than 64 */
        {16, 0xffffffffu, OFC_E_MODEL_TRUNCATED},  /* 64 + payload past 2^32 */
        {16, 0xffffffc0u, OFC_E_MODEL_TRUNCATED},  /* ... 0 in a 32-bit size_t */
        {28, 0, OFC_E_MODEL_SHAPE},                /* no inputs */
        {28, 257, OFC_E_MODEL_SHAPE},              /* too many */
        {32, 1, OFC_E_MODEL_SHAPE},                /* players: 0 or 2..4 */
        {32, 5, OFC_E_MODEL_SHAPE},
        {32, 0, OFC_OK},
        {32, 4, OFC_OK},
        {36, 14, OFC_E_MODEL_SHAPE},               /* more than OFC_VM_MAX_NETS */
    };
    static ofc_vmodel m;
    size_t n = build(file, 0), k;
    for (k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        build(file, 0);
        put32(file + cases[k].at, cases[k].value);
        reseal(file, n);
        CHECK_EQ(ofc_vm_parse(file, n, &m), cases[k].want);
    }
    for (k = 0; k < sizeof header / sizeof header[0]; k++) {
        build(file, 0);
        put32(file + header[k].at, header[k].value);
        CHECK_EQ(ofc_vm_parse(file, n, &m), header[k].want);
    }
    build(file, 0);
}

/* ------------------------------------------------------------ opponent rows */

/* build()'s file as format 2 with opponent rows `counts` (flag 1) appended. */
static size_t build_opponent(uint8_t *f, const uint32_t *counts, uint32_t flag)
{
    size_t at = build(f, 0), i;
    put32(f + 8, 2);
    put32(f + 48, flag);
    for (i = 0; i < OFC_VM_OPP_COUNTS; i++) {
        at += put32(f + at, counts[i]);
    }
    return seal(f, at);
}

static void test_opponent_rows(void)
{
    static ofc_vmodel m;
    static ofc_ev_tables t;
    static uint32_t counts[OFC_VM_OPP_COUNTS];
    size_t n, i, front = 1;
    memcpy(counts, ofc_ev_opponent_counts(NULL), sizeof counts);
    while (counts[front] == 0) { /* the weakest front the typical opponent holds */
        front++;
    }
    n = build_opponent(file, counts, 1);
    CHECK_EQ(ofc_vm_parse(file, n, &m), OFC_OK);
    CHECK_EQ(m.version, 2u);
    CHECK_EQ(m.opponent, 1u);
    CHECK(memcmp(m.opp, counts, sizeof counts) == 0);
    /* The shipped counts give the shipped tables; no rows (or no model): them too. */
    CHECK_EQ(ofc_value_ev_tables(&rules, &m, &t), OFC_OK);
    CHECK(memcmp(&t, &ev, sizeof t) == 0);
    memset(&t, 0, sizeof t);
    CHECK_EQ(ofc_value_ev_tables(&rules, NULL, &t), OFC_OK);
    CHECK(memcmp(&t, &ev, sizeof t) == 0);
    memset(&t, 0, sizeof t);
    CHECK_EQ(ofc_value_ev_tables(&rules, &model, &t), OFC_OK);
    CHECK(memcmp(&t, &ev, sizeof t) == 0);
    /* Other counts, other tables; the same nets. */
    counts[front] += 100000;
    n = build_opponent(file, counts, 1);
    CHECK_EQ(ofc_vm_parse(file, n, &m), OFC_OK);
    CHECK_EQ(ofc_value_ev_tables(&rules, &m, &t), OFC_OK);
    CHECK(memcmp(&t, &ev, sizeof t) != 0);
    CHECK_EQ(m.n_params, model.n_params);
    CHECK(memcmp(m.w, model.w, sizeof(float) * model.n_params) == 0);
    for (i = 0; i < n; i += 997) { /* truncations */
        CHECK_EQ(ofc_vm_parse(file, i, &m), OFC_E_MODEL_TRUNCATED);
    }
    n = build_opponent(file, counts, 2); /* a flag that is not 0 or 1 */
    CHECK_EQ(ofc_vm_parse(file, n, &m), OFC_E_MODEL_SHAPE);
    n = build_opponent(file, counts, 0); /* rows the header does not announce */
    CHECK_EQ(ofc_vm_parse(file, n, &m), OFC_E_MODEL_SHAPE);
    n = build_opponent(file, counts, 1);
    CHECK_EQ(ofc_vm_parse(file, seal(file, n - 4), &m), OFC_E_MODEL_SHAPE); /* short */
    counts[0] = 1; /* strength 0 */
    n = build_opponent(file, counts, 1);
    CHECK_EQ(ofc_vm_parse(file, n, &m), OFC_E_MODEL_SHAPE);
    counts[0] = 0;
    counts[OFC_STRENGTH_MAX] = 1; /* a front row with a 5-card strength */
    n = build_opponent(file, counts, 1);
    CHECK_EQ(ofc_vm_parse(file, n, &m), OFC_E_MODEL_SHAPE);
    counts[OFC_STRENGTH_MAX] = 0;
    memset(counts + 2 * OFC_STRENGTH_TABLE_SIZE, 0, 4 * OFC_STRENGTH_TABLE_SIZE);
    n = build_opponent(file, counts, 1); /* a back row without counts */
    CHECK_EQ(ofc_vm_parse(file, n, &m), OFC_E_MODEL_SHAPE);
    n = build(file, 0);
    put32(file + 8, 2); /* format 2 without rows reads as format 1 does */
    CHECK_EQ(ofc_vm_parse(file, n, &m), OFC_OK);
    CHECK_EQ(m.opponent, 0u);
    build(file, 0);
}

/* ------------------------------------------------------------ values */

static ofc_value_ctx context(const ofc_vmodel *m)
{
    ofc_value_ctx c;
    memset(&c, 0, sizeof c);
    c.rules = &rules;
    c.fl = &fl;
    c.ev = &ev;
    c.model = m;
    c.players = 2;
    c.fl_value[14] = 5.0;
    c.fl_value[15] = 7.5;
    return c;
}

static void test_features(void)
{
    const char *rows[3] = {"Qs Qh", "5c 6d 7h 8s", "Ah Kh"};
    ofc_value_ctx c = context(&model);
    uint8_t b[13];
    float f[OFC_VF_N];
    test_layout(rows, b);
    CHECK_EQ(ofc_value_features(&c, b, 0, f), OFC_OK);
    CHECK(fabsf(f[0] - 2.0f / 3.0f) < 1e-6f); /* front fill */
    CHECK(fabsf(f[2] - 0.5f) < 1e-6f);        /* one pair */
    CHECK(fabsf(f[5] - 11.0f / 13.0f) < 1e-6f); /* queens */
    CHECK(fabsf(f[13] - 1.0f) < 1e-6f);       /* both other queens live */
    CHECK(f[18 + 10] == 1.0f);                /* middle: 5-6-7-8 */
    CHECK(fabsf(f[18 + 11] - 0.5f) < 1e-6f);  /* outs: four 4s and four 9s */
    CHECK(f[18 + 8] == 0.0f);                 /* no flush draw */
    CHECK(f[36 + 8] == 1.0f);                 /* back: two hearts */
    CHECK(fabsf(f[36 + 9] - 9.0f / 13.0f) < 1e-6f); /* hearts left: 13 - Qh 7h Ah Kh */
    CHECK(f[36 + 10] == 1.0f);                /* A-K: a broadway draw */
    CHECK(fabsf(f[54] - 8.0f / 13.0f) < 1e-6f);
    CHECK(fabsf(f[55] - 44.0f / 52.0f) < 1e-6f);
    CHECK(f[60] == 1.0f);                     /* queens up front */
    CHECK(fabsf(f[61] - 8.0f / 12.0f) < 1e-6f); /* live Q K A: 2 + 3 + 3 */
    CHECK(f[63] == 1.0f);
    /* dead cards count: the two other queens gone */
    CHECK_EQ(ofc_value_features(&c, b, (uint64_t)1 << 40 | (uint64_t)1 << 41, f), OFC_OK);
    CHECK(f[13] == 0.0f);
    CHECK(fabsf(f[55] - 42.0f / 52.0f) < 1e-6f);
    /* errors */
    CHECK_EQ(ofc_value_features(&c, b, (uint64_t)1 << b[0], f), OFC_E_DUPLICATE);
    CHECK_EQ(ofc_value_features(&c, b, (uint64_t)1 << 52, f), OFC_E_CARD);
    b[2] = b[1];
    CHECK_EQ(ofc_value_features(&c, b, 0, f), OFC_E_DUPLICATE);
    b[2] = OFC_NO_CARD;
    b[1] = OFC_NO_CARD;
    b[2] = test_card("2c");
    CHECK_EQ(ofc_value_features(&c, b, 0, f), OFC_E_CARD); /* a card after a gap */
    CHECK_EQ(ofc_value_features(NULL, b, 0, f), OFC_E_VALUE);
}

static void test_complete_board(void)
{
    const char *rows[3] = {"Qs Qh 2c", "5c 5d 5h 8s 9s", "Ah Kh Th 3h 2h"};
    ofc_value_ctx c = context(NULL);
    uint8_t b[13];
    double v = 0, ref = 0;
    int32_t next;
    test_layout(rows, b);
    next = ofc_fl_next_cards(&rules, &fl, b, 0);
    CHECK_EQ(next, 14);
    CHECK_EQ(ofc_ev_board(&rules, &ev, b, &ref), OFC_OK);
    CHECK_EQ(ofc_value_board(&c, b, 0, &v), OFC_OK);
    CHECK(fabs(v - (ref + c.fl_value[next])) < 1e-9);
    b[12] = OFC_NO_CARD; /* partial, no model */
    CHECK_EQ(ofc_value_board(&c, b, 0, &v), OFC_E_MODEL_NO_NET);
}

/* The best action is the argmax of the action values: after 5 cards the 7-card net,
 * after 11 cards the exact values of complete boards. */
static void check_best(const char *rows[3], const uint8_t room[3], const char *cards)
{
    ofc_value_ctx c = context(&model);
    uint8_t b[13], dealt[3], ids[OFC_ACTION_SPACE], action = 0, after[13];
    double v[OFC_ACTION_SPACE], best = 0;
    int32_t n, i, arg = 0, kept = 0, j;
    test_layout(rows, b);
    test_cards(cards, dealt);
    n = ofc_actions_legal(3, 1, room, ids, NULL);
    CHECK(n > 0);
    CHECK_EQ(ofc_value_actions(&c, b, dealt, 3, 1, 0, ids, (uint32_t)n, v), OFC_OK);
    for (i = 1; i < n; i++) {
        arg = v[i] > v[arg] ? i : arg;
    }
    CHECK_EQ(ofc_value_best(&c, b, dealt, 3, 1, 0, &action, after, &best), OFC_OK);
    CHECK_EQ(action, ids[arg]);
    CHECK(best == v[arg]);
    for (i = 0; i < 13; i++) { /* the board's cards stay, two dealt cards join */
        CHECK(b[i] == OFC_NO_CARD || after[i] == b[i]);
        for (j = 0; j < 3; j++) {
            kept += after[i] == dealt[j];
        }
    }
    CHECK_EQ(kept, 2);
}

static void test_best_and_expect(void)
{
    const char *five[3] = {"Qs Qh", "5c 5d", "Ah"};
    const char *eleven[3] = {"Qs Qh 2c", "5c 5d 7h 8s", "Ah Kh Th 3h"};
    const uint8_t room5[3] = {1, 3, 4}, room11[3] = {0, 1, 1};
    ofc_value_ctx c = context(&model);
    uint8_t b[13], dealt[3], ids[1];
    double v[1], best = 0, mean = 0, var = -1, again = 0;
    uint64_t dead = 0;
    int32_t i;
    check_best(five, room5, "Qd 9s 2h");
    check_best(eleven, room11, "Qd 9s 2h");
    check_best(eleven, room11, "5h 6c 2h");
    /* a forced draw: only three cards are live, so the label is that decision's best */
    test_layout(five, b);
    test_cards("Qd 9s 2h", dealt);
    for (i = 0; i < 52; i++) {
        dead |= (uint64_t)1 << i;
    }
    for (i = 0; i < 13; i++) {
        dead &= b[i] == OFC_NO_CARD ? ~(uint64_t)0 : ~((uint64_t)1 << b[i]);
    }
    for (i = 0; i < 3; i++) {
        dead &= ~((uint64_t)1 << dealt[i]);
    }
    CHECK_EQ(ofc_value_best(&c, b, dealt, 3, 1, 0, NULL, NULL, &best), OFC_OK);
    CHECK_EQ(ofc_value_expect(&c, b, dead, 3, 1, 0, 99, 5, &mean, &var), OFC_OK);
    CHECK(fabs(mean - best) < 1e-9 && var < 1e-12);
    CHECK_EQ(ofc_value_expect(&c, b, dead, 3, 1, 1, 99, 5, &mean, &var), OFC_E_COUNT);
    CHECK_EQ(ofc_value_expect(&c, b, 0, 3, 1, 2, 7, 0, &mean, NULL), OFC_E_COUNT);
    test_layout(eleven, b); /* complete boards: the value depends on the draw */
    CHECK_EQ(ofc_value_expect(&c, b, 0, 3, 1, 2, 7, 50, &mean, &var), OFC_OK);
    CHECK_EQ(ofc_value_expect(&c, b, 0, 3, 1, 2, 7, 50, &again, NULL), OFC_OK);
    CHECK(mean == again && var > 0);
    CHECK_EQ(ofc_value_expect(&c, b, 0, 3, 1, 2, 8, 50, &again, NULL), OFC_OK);
    CHECK(mean != again);
    test_layout(five, b);
    /* errors */
    ids[0] = 242;
    CHECK_EQ(ofc_value_actions(&c, b, dealt, 3, 1, 0, ids, 1, v), OFC_E_ACTION);
    dealt[1] = dealt[0];
    CHECK_EQ(ofc_value_best(&c, b, dealt, 3, 1, 0, NULL, NULL, NULL), OFC_E_DUPLICATE);
    test_cards("Ah 9s 2h", dealt);
    CHECK_EQ(ofc_value_best(&c, b, dealt, 3, 1, 0, NULL, NULL, NULL), OFC_E_DUPLICATE);
    test_cards("Ad 9s 2h", dealt);
    CHECK_EQ(ofc_value_best(&c, b, dealt, 3, 1, (uint64_t)1 << dealt[2], NULL, NULL, NULL),
             OFC_E_DUPLICATE);
}

static void test_context_errors(void)
{
    ofc_value_ctx c = context(&model);
    static ofc_vmodel other;
    ofc_fl_rules bad_fl = fl;
    CHECK_EQ(ofc_value_ctx_check(&c), OFC_OK);
    c.fl = NULL; /* no Fantasyland term: a context without fl is valid */
    CHECK_EQ(ofc_value_ctx_check(&c), OFC_OK);
    bad_fl.n_entry = OFC_FL_MAX_ENTRY + 1;
    c.fl = &bad_fl;
    CHECK_EQ(ofc_value_ctx_check(&c), OFC_E_RULES);
    c.fl = &fl;
    c.players = 1;
    CHECK_EQ(ofc_value_ctx_check(&c), OFC_E_COUNT);
    c.players = 2;
    c.in_fl = 12;
    CHECK_EQ(ofc_value_ctx_check(&c), OFC_E_COUNT);
    c.in_fl = 0;
    c.fl_value[3] = NAN;
    CHECK_EQ(ofc_value_ctx_check(&c), OFC_E_VALUE);
    c.fl_value[3] = 0;
    c.ev = NULL;
    CHECK_EQ(ofc_value_ctx_check(&c), OFC_E_RULES);
    c.ev = &ev;
    memcpy(&other, &model, sizeof other);
    other.inputs = 10;
    c.model = &other;
    CHECK_EQ(ofc_value_ctx_check(&c), OFC_E_MODEL_SHAPE);
    CHECK_EQ(ofc_value_ctx_check(NULL), OFC_E_VALUE);
}

/* A model trained for two seats prices no 3-seat table (players 0: any table). */
static void test_context_players(void)
{
    ofc_value_ctx c = context(&model);
    static ofc_vmodel other;
    memcpy(&other, &model, sizeof other);
    c.model = &other;
    other.players = 2;
    c.players = 2;
    CHECK_EQ(ofc_value_ctx_check(&c), OFC_OK);
    c.players = 3;
    CHECK_EQ(ofc_value_ctx_check(&c), OFC_E_COUNT);
    other.players = 0;
    CHECK_EQ(ofc_value_ctx_check(&c), OFC_OK);
}

/* Regression: a learned value call given an output laid over its context (or the rules,
 * tables or model it points to) wrote features or values over the pointers it still
 * read: ofc_value_features() over the context read the rules through a pointer made of
 * feature bits (a crash); ofc_vm_parse() given a model laid over the file's bytes
 * overwrote the file while reading it.  Now each is refused with OFC_E_VALUE, nothing
 * written. */
static void test_outputs_over_context(void)
{
    const char *rows[3] = {"Qs Qh", "5c 6d 7h 8s", "Ah Kh"};
    static union {
        ofc_value_ctx c;
        float f[OFC_VF_N];
        double v[OFC_ACTION_SPACE];
    } u;
    static union {
        ofc_vmodel m;
        uint8_t bytes[sizeof file];
    } mu;
    ofc_value_ctx want = context(&model);
    uint8_t b[13], dealt[3], ids[OFC_ACTION_SPACE], room[3] = {1, 1, 3};
    size_t n = build(file, 0);
    int32_t count = ofc_actions_legal(3, 1, room, ids, NULL);
    test_layout(rows, b);
    test_cards("2c 3d 4h", dealt);
    CHECK(count > 0);
    u.c = want;
    CHECK_EQ(ofc_value_features(&u.c, b, 0, u.f), OFC_E_VALUE);
    CHECK_EQ(ofc_value_actions(&u.c, b, dealt, 3, 1, 0, ids, (uint32_t)count, u.v),
             OFC_E_VALUE);
    CHECK_EQ(ofc_value_board(&u.c, b, 0, u.v), OFC_E_VALUE);
    CHECK(memcmp(&u.c, &want, sizeof want) == 0);
    memcpy(mu.bytes, file, n);
    CHECK_EQ(ofc_vm_parse(mu.bytes, n, &mu.m), OFC_E_VALUE);
    CHECK(memcmp(mu.bytes, file, n) == 0);
    CHECK_EQ(ofc_value_features(&want, b, 0, u.f), OFC_OK); /* beside it: computed */
}

int main(void)
{
    CHECK_EQ(ofc_rules_init_ofc(&rules), OFC_OK);
    CHECK_EQ(ofc_fl_rules_init_standard(&fl, 14), OFC_OK);
    CHECK_EQ(ofc_ev_tables_init(&rules, &ev), OFC_OK);
    test_checksum();
    test_parse_and_eval();
    test_wide_model_bits();
    test_damaged_files();
    test_header_checksum();
    test_bad_shapes_and_numbers();
    test_parameter_budget();
    test_opponent_rows();
    test_features();
    test_complete_board();
    test_best_and_expect();
    test_context_errors();
    test_context_players();
    test_outputs_over_context();
    printf("test_model: %d checks, %d failures\n", checks, failures);
    return failures != 0;
}
