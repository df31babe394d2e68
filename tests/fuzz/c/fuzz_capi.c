/*
 * fuzz_capi.c -- libFuzzer harness for the public C API (csrc/include/ofc_fast.h and its
 * companion headers ofc_naturals.h, ofc_solver.h, ofc_settle.h, the game engine
 * ofc_game.h, the search ofc_search.h, the learned value ofc_model.h /
 * ofc_value.h, the heuristic bot's kernels ofc_heuristic.h, the vector environment
 * ofc_vecenv.h and the features ofc_features.h): every validating (non-_unchecked)
 * function gets fuzzer bytes as cards, strengths, counts, action ids, encodings,
 * hand-built structs and rule sets, and every result is checked to be in range (and
 * equal to the unchecked twin where there is one).  Built and run by
 * tests/fuzz/c/run.sh under -fsanitize=fuzzer,address,undefined.
 *
 * The first input byte picks a target from the table `targets` below; the rest is the
 * target's input.  A new C target is one function
 * `static void t_name(reader *in)` and one line `{"name", t_name},` in the table.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ofc_fast.h"
#include "ofc_features.h"
#include "ofc_heuristic.h"
#include "ofc_search.h"
#include "ofc_value.h"

/* A fuzz-found contract violation: print it and abort (libFuzzer saves the input). */
#define REQUIRE(cond)                                                                 \
    do {                                                                              \
        if (!(cond)) {                                                                \
            fprintf(stderr, "%s:%d: contract violated: %s\n", __FILE__, __LINE__, #cond); \
            abort();                                                                  \
        }                                                                             \
    } while (0)

/* ------------------------------------------------------------ input reader */

typedef struct reader {
    const uint8_t *p;
    size_t n;
} reader;

static uint8_t u8(reader *in)
{
    uint8_t v = 0;
    if (in->n) {
        v = *in->p++;
        in->n--;
    }
    return v;
}

static uint16_t u16(reader *in)
{
    uint16_t hi = u8(in);
    return (uint16_t)(hi << 8 | u8(in));
}

static uint32_t u32(reader *in)
{
    uint32_t hi = u16(in);
    return hi << 16 | u16(in);
}

/* n card bytes: mostly distinct valid ids drawn from a fuzzed deck, sometimes raw. */
static void cards(reader *in, uint8_t *out, size_t n)
{
    uint8_t deck[OFC_CARDS];
    size_t i, left = OFC_CARDS;
    int raw = (u8(in) & 7) == 0;
    for (i = 0; i < OFC_CARDS; i++) {
        deck[i] = (uint8_t)i;
    }
    for (i = 0; i < n; i++) {
        if (raw || left == 0) {
            out[i] = u8(in);
        } else {
            size_t j = u8(in) % left;
            out[i] = deck[j];
            deck[j] = deck[--left];
        }
    }
}

/* A rule set: a preset (built once), then sometimes a copy with fuzzed scalar fields
 * and table entries, sometimes NULL. */
static ofc_rules presets[3], rules_buf;

static const ofc_rules *rules(reader *in)
{
    static int ready;
    uint8_t how = u8(in);
    int k;
    if (!ready) {
        REQUIRE(ofc_rules_init_ofc(&presets[0]) == OFC_OK);
        REQUIRE(ofc_rules_init_classic(&presets[1], 0) == OFC_OK);
        REQUIRE(ofc_rules_init_classic(&presets[2], 1) == OFC_OK);
        ready = 1;
    }
    if ((how & 0x0C) == 0 && !(how & 0x70)) {
        return &presets[how % 3];
    }
    memcpy(&rules_buf, &presets[how % 3], sizeof rules_buf);
    if ((how & 0x0C) == 0x04) { /* fuzzed scalars, often in range */
        rules_buf.sweep_bonus = (int32_t)u32(in) % (OFC_BONUS_LIMIT + 2);
        rules_buf.majority_bonus = (int8_t)u8(in);
        rules_buf.overall_bonus = (int8_t)u8(in);
        rules_buf.sweep_multiplier = (int32_t)(u16(in) % (OFC_MULTIPLIER_MAX + 2));
        rules_buf.sweep_all_multiplier = (int32_t)(u16(in) % (OFC_MULTIPLIER_MAX + 2));
        rules_buf.sweep_all_bonus = (int8_t)u8(in);
        rules_buf.majority_rule = u8(in) % 3;
        rules_buf.order_rule = u8(in) % 4;
        rules_buf.middle_lowball = u8(in) % 3;
        rules_buf.foul_pays_sweep = u8(in) % 3;
        rules_buf.lowball_limit = (uint16_t)(u16(in) % 7500);
    } else if ((how & 0x0C) == 0x08) { /* raw scalars: anything at all */
        rules_buf.sweep_bonus = (int32_t)u32(in);
        rules_buf.majority_bonus = (int32_t)u32(in);
        rules_buf.overall_bonus = (int32_t)u32(in);
        rules_buf.sweep_multiplier = (int32_t)u32(in);
        rules_buf.sweep_all_multiplier = (int32_t)u32(in);
        rules_buf.sweep_all_bonus = (int32_t)u32(in);
        rules_buf.majority_rule = u8(in);
        rules_buf.order_rule = u8(in);
        rules_buf.middle_lowball = u8(in);
        rules_buf.foul_pays_sweep = u8(in);
        rules_buf.lowball_limit = u16(in);
    }
    for (k = (how >> 4) & 7; k > 0; k--) { /* table entries: any int16 */
        uint16_t s = (uint16_t)(u16(in) % OFC_STRENGTH_TABLE_SIZE);
        int row = u8(in) % OFC_ROWS;
        rules_buf.royalty[row][s] = (int16_t)u16(in);
        rules_buf.win_value[row][s] = (int16_t)u16(in);
    }
    return (how & 0x80) && (how & 0x40) ? NULL : &rules_buf;
}

static int valid_strength(uint16_t s, int n)
{
    return ofc_strength_cards(s) == n;
}

static int is_status(int32_t v)
{
    return v == OFC_E_CARD || v == OFC_E_DUPLICATE || v == OFC_E_COUNT ||
           v == OFC_E_STRENGTH || v == OFC_E_RULES || v == OFC_E_VALUE ||
           v == OFC_E_MEMORY;
}

static int distinct(const uint8_t *c, size_t n)
{
    uint64_t seen = 0;
    size_t i;
    for (i = 0; i < n; i++) {
        if (c[i] >= OFC_CARDS || (seen >> c[i] & 1u)) {
            return 0;
        }
        seen |= (uint64_t)1 << c[i];
    }
    return 1;
}

/* ----------------------------------------------------------------- targets */

static void t_rank(reader *in)
{
    int32_t c[7];
    size_t n = u8(in) % 8, i;
    uint32_t expect = u8(in) % 7;
    int32_t s;
    for (i = 0; i < n; i++) {
        c[i] = (u8(in) & 0x80) ? (int32_t)u32(in) : (int32_t)(u8(in) % 56);
    }
    s = ofc_rank(n ? c : NULL, n, expect);
    REQUIRE(s > 0 ? valid_strength((uint16_t)s, (int)n) && s <= OFC_STRENGTH_MAX
                  : is_status(s));
}

static void t_rank_batch(reader *in)
{
    uint8_t h[5 * 24];
    int32_t out[24];
    size_t n = u8(in) % 25, i, bad = (size_t)-1, width = (u8(in) & 1) ? 5 : 3;
    int32_t st;
    cards(in, h, width * n);
    for (i = 0; i < 24; i++) {
        out[i] = -7; /* a bad hand leaves out untouched */
    }
    st = width == 5 ? ofc_rank5_batch(h, n, out, &bad) : ofc_rank3_batch(h, n, out, &bad);
    REQUIRE(st == OFC_OK || ((st == OFC_E_CARD || st == OFC_E_DUPLICATE) && bad < n));
    for (i = 0; i < (st == OFC_OK ? n : bad); i++) {
        const uint8_t *x = h + width * i;
        REQUIRE(distinct(x, width));
        REQUIRE(out[i] == (st != OFC_OK ? -7
                           : width == 5 ? ofc_rank5_unchecked(x[0], x[1], x[2], x[3], x[4])
                                        : ofc_rank3_unchecked(x[0], x[1], x[2])));
    }
    if (st != OFC_OK) {
        REQUIRE(!distinct(h + width * bad, width));
        for (i = 0; i < n; i++) {
            REQUIRE(out[i] == -7);
        }
    }
}

static void t_strength(reader *in)
{
    uint16_t s = u16(in);
    int32_t kev = (int32_t)u32(in) % 8000, cat = ofc_category_of(s), k = ofc_kev_rank(s);
    uint32_t info = ofc_strength_info(s);
    uint16_t back;
    REQUIRE(cat == OFC_E_STRENGTH ? info == 0 : (cat >= 0 && cat <= OFC_ROYAL_FLUSH));
    REQUIRE(k >= 0 && k <= 7462 && ofc_low27(s) >= 0 && ofc_low27(s) <= 7462);
    REQUIRE(k == 0 || ofc_strength_from_kev(k) == s);
    back = ofc_strength_from_kev(kev);
    REQUIRE(back == 0 ? (kev < 1 || kev > 7462) : ofc_kev_rank(back) == kev);
}

static void t_rules_check(reader *in)
{
    const ofc_rules *r = rules(in);
    int32_t st = ofc_rules_check(r);
    REQUIRE(st == OFC_OK || st == OFC_E_RULES);
}

static void check_eval(const ofc_rules *r, const uint8_t *b, const ofc_board_eval *e)
{
    ofc_board_eval u;
    int row;
    REQUIRE(valid_strength(e->strength[0], 3) && valid_strength(e->strength[1], 5) &&
            valid_strength(e->strength[2], 5) && e->foul <= 1);
    for (row = 0; row < OFC_ROWS; row++) {
        REQUIRE(!e->foul || e->royalty[row] == 0);
    }
    ofc_eval_board_unchecked(r, b, &u);
    REQUIRE(memcmp(&u, e, sizeof u) == 0);
}

static void t_eval_board(reader *in)
{
    const ofc_rules *r = rules(in);
    uint8_t b[13];
    ofc_board_eval e;
    uint16_t s[3];
    int32_t st, foul;
    cards(in, b, 13);
    st = ofc_eval_board(r, b, &e);
    REQUIRE(st == OFC_OK || is_status(st));
    if (st == OFC_OK) {
        check_eval(r, b, &e);
        REQUIRE(ofc_is_foul(r, e.strength) == e.foul);
        REQUIRE(ofc_fl_next_cards(r, NULL, b, 0) == 0);
    }
    s[0] = u16(in);
    s[1] = u16(in);
    s[2] = u16(in);
    foul = ofc_is_foul(r, s);
    REQUIRE(foul == 0 || foul == 1 || foul == OFC_E_STRENGTH || foul == OFC_E_RULES);
}

static void t_eval_boards(reader *in)
{
    const ofc_rules *r = rules(in);
    uint8_t b[13 * 12], foul[12];
    int32_t strength[36], royalty[36];
    size_t n = u8(in) % 13, bad = (size_t)-1, i;
    int32_t st;
    cards(in, b, 13 * n);
    for (i = 0; i < 36; i++) {
        strength[i] = royalty[i] = -7; /* a bad board leaves the outputs untouched */
    }
    st = ofc_eval_boards(r, b, n, strength, royalty, (u8(in) & 1) ? foul : NULL, &bad);
    REQUIRE(st == OFC_OK || st == OFC_E_RULES || (is_status(st) && bad < n));
    for (i = 0; st != OFC_E_RULES && i < (st == OFC_OK ? n : bad); i++) {
        ofc_board_eval e;
        REQUIRE(ofc_eval_board(r, b + 13 * i, &e) == OFC_OK);
        if (st == OFC_OK) {
            REQUIRE(strength[3 * i] == e.strength[0] && royalty[3 * i + 2] == e.royalty[2]);
        }
    }
    for (i = 0; st != OFC_OK && i < 3 * n; i++) {
        REQUIRE(strength[i] == -7 && royalty[i] == -7);
    }
}

/* A hand-built ofc_board_eval: from a real board or raw bytes. */
static void board_eval(reader *in, const ofc_rules *r, ofc_board_eval *e)
{
    uint8_t b[13];
    cards(in, b, 13);
    if ((u8(in) & 3) == 0 || ofc_eval_board(r, b, e) != OFC_OK) {
        e->strength[0] = u16(in) % 8000;
        e->strength[1] = u16(in) % 8000;
        e->strength[2] = u16(in) % 8000;
        e->royalty[0] = (int16_t)u16(in);
        e->royalty[1] = (int16_t)u16(in);
        e->royalty[2] = (int16_t)u16(in);
        e->foul = u8(in) % 3;
        e->reserved = 0;
    }
}

static void t_score_evals(reader *in)
{
    const ofc_rules *r = rules(in);
    ofc_board_eval a, b;
    ofc_pair_context ctx;
    ofc_pair_score s, t;
    const ofc_pair_context *use;
    int32_t st, row;
    board_eval(in, r ? r : &presets[0], &a);
    board_eval(in, r ? r : &presets[0], &b);
    ctx.ties = (int8_t)(u8(in) % 4) - 1;
    ctx.a_sweeps_all = u8(in) % 3;
    ctx.b_sweeps_all = u8(in) % 3;
    ctx.reserved = 0;
    use = (u8(in) & 1) ? &ctx : NULL;
    st = ofc_score_evals(r, &a, &b, use, &s);
    REQUIRE(st == OFC_OK || st == OFC_E_RULES || st == OFC_E_STRENGTH || st == OFC_E_VALUE);
    if (st != OFC_OK) {
        return;
    }
    for (row = 0; row < OFC_ROWS; row++) {
        REQUIRE(s.rows[row] >= -1 && s.rows[row] <= 1);
    }
    REQUIRE(s.sweep >= -1 && s.sweep <= 1);
    REQUIRE(s.net == ofc_score_evals_unchecked(r, &a, &b, use, NULL));
    REQUIRE(ofc_score_evals(r, &b, &a, NULL, &t) == OFC_OK);
    REQUIRE(ofc_score_evals(r, &a, &b, NULL, &s) == OFC_OK && t.net == -s.net);
}

static void t_score_pairs(reader *in)
{
    const ofc_rules *r = rules(in);
    uint8_t a[13 * 8], b[13 * 8];
    int32_t net[8];
    size_t n = u8(in) % 9, bad = (size_t)-1, i;
    int32_t st;
    uint8_t both[26];
    for (i = 0; i < n; i++) {
        cards(in, both, 26);
        memcpy(a + 13 * i, both, 13);
        memcpy(b + 13 * i, both + 13, 13);
    }
    for (i = 0; i < 8; i++) {
        net[i] = -7777; /* a bad pair leaves net untouched */
    }
    st = ofc_score_pairs(r, a, b, n, net, &bad);
    REQUIRE(st == OFC_OK || st == OFC_E_RULES || (is_status(st) && bad < n));
    for (i = 0; st != OFC_OK && i < n; i++) {
        REQUIRE(net[i] == -7777);
    }
    for (i = 0; st != OFC_E_RULES && i < (st == OFC_OK ? n : bad); i++) {
        ofc_pair_score s;
        ofc_pair_detail d;
        REQUIRE(ofc_score_boards(r, a + 13 * i, b + 13 * i, &s) == OFC_OK);
        REQUIRE(st != OFC_OK || s.net == net[i]);
        memcpy(both, a + 13 * i, 13);
        memcpy(both + 13, b + 13 * i, 13);
        REQUIRE(ofc_score_boards_detail(r, both, &d) == OFC_OK);
        REQUIRE(memcmp(&d.score, &s, sizeof s) == 0);
    }
    if (st != OFC_OK && st != OFC_E_RULES) {
        ofc_pair_score s;
        ofc_pair_detail d;
        REQUIRE(ofc_score_boards(r, a + 13 * bad, b + 13 * bad, &s) == st);
        memcpy(both, a + 13 * bad, 13);
        memcpy(both + 13, b + 13 * bad, 13);
        REQUIRE(ofc_score_boards_detail(r, both, &d) == st);
    }
}

static void t_naturals(reader *in)
{
    uint8_t c[13];
    ofc_naturals_result res;
    int32_t st;
    cards(in, c, 13);
    st = ofc_naturals(c, &res);
    REQUIRE(st == OFC_OK ? (res.mask >> OFC_NAT_COUNT) == 0 && distinct(c, 13)
                         : (st == OFC_E_CARD || st == OFC_E_DUPLICATE));
    {
        const char *name = ofc_natural_name((int32_t)u32(in));
        REQUIRE(name == NULL || strlen(name) < 64);
    }
}

static void fl_rules(reader *in, ofc_fl_rules *fl)
{
    size_t i;
    if (ofc_fl_rules_init_standard(fl, 13 + u8(in) % 6) != OFC_OK) {
        ofc_fl_rules_init_standard(fl, 14);
    }
    if (u8(in) & 1) {
        uint8_t *bytes = (uint8_t *)fl;
        for (i = 0; i < sizeof *fl; i++) {
            if (u8(in) & 1) {
                bytes[i] = u8(in);
            }
        }
    }
}

static void t_fl_next_cards(reader *in)
{
    const ofc_rules *r = rules(in);
    ofc_fl_rules fl;
    uint8_t b[13];
    int32_t got;
    fl_rules(in, &fl);
    cards(in, b, 13);
    got = ofc_fl_next_cards(r, (u8(in) & 7) ? &fl : NULL, b, u8(in) % 20);
    REQUIRE(got == 0 || (got >= 13 && got <= 17) || is_status(got));
    got = ofc_fl_rules_check(&fl);
    REQUIRE(got == OFC_OK || got == OFC_E_RULES);
}

/* Expected-points tables of the OFC preset, built once (380 KB). */
static const ofc_ev_tables *ev_ofc(void)
{
    static ofc_ev_tables *ev;
    if (!ev) {
        ofc_rules r;
        ev = malloc(sizeof *ev);
        REQUIRE(ev && ofc_rules_init_ofc(&r) == OFC_OK && ofc_ev_tables_init(&r, ev) == OFC_OK);
    }
    return ev;
}

static void check_setting(const ofc_setting *s, const uint8_t *c, size_t n)
{
    uint64_t given = 0, used = 0;
    size_t i;
    for (i = 0; i < n; i++) {
        given |= (uint64_t)1 << c[i];
    }
    REQUIRE(distinct(s->board, 13) && s->n_discards == n - 13 && s->foul <= 1);
    for (i = 0; i < 13; i++) {
        used |= (uint64_t)1 << s->board[i];
    }
    for (i = 0; i < s->n_discards; i++) {
        used |= (uint64_t)1 << s->discards[i];
    }
    REQUIRE(used == given);
    REQUIRE(!s->foul || s->royalties == 0);
    REQUIRE(s->royalties == s->royalty[0] + s->royalty[1] + s->royalty[2]);
    REQUIRE(isfinite(s->value));
}

static void t_ev_board(reader *in)
{
    const ofc_rules *r = rules(in);
    uint8_t b[13];
    double v = 0;
    int32_t st;
    cards(in, b, 13);
    st = ofc_ev_board(r, (u8(in) & 7) ? ev_ofc() : NULL, b, &v);
    REQUIRE(st == OFC_OK ? isfinite(v) : is_status(st));
}

static void t_solve_fantasyland(reader *in)
{
    const ofc_rules *r = rules(in);
    ofc_fl_rules fl;
    ofc_fl_solution out;
    uint8_t c[17];
    double stay[5];
    size_t n = 12 + u8(in) % 7, i;
    int32_t st;
    fl_rules(in, &fl);
    cards(in, c, n > 17 ? 17 : n);
    for (i = 0; i < 5; i++) {
        stay[i] = (u8(in) & 0x80) ? (double)(int32_t)u32(in) / 4.0 : (double)(int8_t)u8(in);
    }
    st = ofc_solve_fantasyland(r, (u8(in) & 3) ? &fl : NULL, (u8(in) & 1) ? ev_ofc() : NULL,
                               c, n, (u8(in) & 3) ? stay : NULL, u8(in) & 1, &out);
    REQUIRE(st == OFC_OK || is_status(st));
    if (st == OFC_OK) {
        check_setting(&out.best, c, n);
    }
}

static void t_best_setting(reader *in)
{
    const ofc_rules *r = rules(in);
    uint8_t c[13 * 2], boards[13 * 2];
    double values[2];
    ofc_setting s;
    size_t n = u8(in) % 3, bad = (size_t)-1;
    uint32_t objective = u8(in) % 3;
    const ofc_ev_tables *ev = (u8(in) & 7) ? ev_ofc() : NULL;
    int32_t st;
    cards(in, c, 13 * (n ? n : 1));
    st = ofc_best_setting(r, ev, c, objective, &s);
    REQUIRE(st == OFC_OK || is_status(st));
    if (st == OFC_OK) {
        check_setting(&s, c, 13);
    }
    if ((u8(in) & 3) == 0) { /* the batch: a few milliseconds a hand under ASan */
        st = ofc_best_settings(r, ev, c, n, objective, boards, values, &bad);
        REQUIRE(st == OFC_OK || (is_status(st) && (bad < n || bad == (size_t)-1)));
    }
}

/* ------------------------------------------------------------ search */

static int is_search_status(int32_t v)
{
    return is_status(v) || v == OFC_E_ACTION || v == OFC_E_BUDGET;
}

/* A small valid value model (feature set 1: nets for 5, 7, 9, 11 cards, 64 -> 8 -> 1,
 * weights from a fixed stream), built once: the search and the value kernels run with
 * a real model. */
static uint8_t vm_file[64 + 4 * (4 * (5 + 8 * 65 + 9))];

static size_t vm_put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
    return 4;
}

/* The checksums of a file of n bytes into its header: the payload's, then (version 3)
 * the header's over bytes 0..51, or 0 there (versions 1 and 2 have none). */
static void vm_seal(uint8_t *f, size_t n)
{
    uint64_t h = ofc_vm_checksum(f + 64, n - 64);
    vm_put32(f + 40, (uint32_t)h);
    vm_put32(f + 44, (uint32_t)(h >> 32));
    h = f[8] >= 3 ? ofc_vm_checksum(f, 52) : 0;
    vm_put32(f + 52, (uint32_t)h);
    vm_put32(f + 56, (uint32_t)(h >> 32));
}

static size_t vm_build(uint8_t *f)
{
    size_t at = 64;
    uint32_t net, i, seed = 12345;
    memset(f, 0, 64);
    memcpy(f, "OFCVALUE", 8);
    vm_put32(f + 8, OFC_VM_VERSION);
    vm_put32(f + 12, OFC_VM_HEADER_BYTES);
    vm_put32(f + 24, OFC_VF_SET);
    vm_put32(f + 28, OFC_VF_N);
    vm_put32(f + 36, 4);
    for (net = 0; net < 4; net++) {
        at += vm_put32(f + at, 5 + 2 * net);
        at += vm_put32(f + at, 2);
        at += vm_put32(f + at, OFC_VF_N);
        at += vm_put32(f + at, 8);
        at += vm_put32(f + at, 1);
        for (i = 0; i < 8 * (OFC_VF_N + 1) + 9; i++) {
            float w;
            uint32_t u;
            seed = seed * 1103515245u + 12345u;
            w = (float)((int)(seed >> 16 & 0xFF) - 128) / 256.0f;
            memcpy(&u, &w, 4);
            at += vm_put32(f + at, u);
        }
    }
    vm_put32(f + 16, (uint32_t)(at - 64));
    vm_seal(f, at);
    return at;
}

/* vm_file with opponent rows (the shipped typical opponent's counts). */
static uint8_t vm_file2[sizeof vm_file + 4 * OFC_VM_OPP_COUNTS];

static size_t vm_build2(uint8_t *f)
{
    const uint32_t *counts = ofc_ev_opponent_counts(NULL);
    size_t at = vm_build(f), i;
    vm_put32(f + 48, 1);
    for (i = 0; i < OFC_VM_OPP_COUNTS; i++) {
        at += vm_put32(f + at, counts[i]);
    }
    vm_put32(f + 16, (uint32_t)(at - 64));
    vm_seal(f, at);
    return at;
}

static const ofc_vmodel *fuzz_vmodel(void)
{
    static ofc_vmodel *m;
    if (!m) {
        size_t n = vm_build(vm_file);
        m = malloc(sizeof *m);
        REQUIRE(m && n == sizeof vm_file && ofc_vm_parse(vm_file, n, m) == OFC_OK);
    }
    return m;
}

/* A value model: mostly sane numbers, sometimes raw doubles (then it must be refused
 * by ofc_search_model_check, and the search is not called with it). */
static int search_model(reader *in, ofc_search_model *m)
{
    int i, raw = (u8(in) & 15) == 0;
    for (i = 0; i < OFC_SEARCH_FL_VALUES; i++) {
        m->fl_value[i] = raw ? (double)(int32_t)u32(in) * 1e3 : (double)(u8(in) % 40);
    }
    m->row_weight = raw ? (double)(int32_t)u32(in) : (double)(u8(in) % 3);
    m->opp_random = raw ? (double)(int8_t)u8(in) : (double)(u8(in) % 5) / 4.0;
    m->value = (u8(in) & 3) == 0 ? fuzz_vmodel() : NULL;
    m->opp_self = raw ? u8(in) : u8(in) & 1u;
    if (raw && (u8(in) & 1)) {
        m->row_weight = NAN;
    }
    return ofc_search_model_check(m) == OFC_OK;
}

/* Fills a seat's rows with `placed` cards from deck[*d] on (row by fuzzed choice,
 * a full row passing the card on), the rest OFC_NO_CARD. */
static void search_board(reader *in, uint8_t board[13], int placed, const uint8_t *deck,
                         int *d)
{
    static const int start[3] = {0, 3, 8}, size[3] = {3, 5, 5};
    int fill[3] = {0, 0, 0}, i;
    memset(board, OFC_NO_CARD, 13);
    for (i = 0; i < placed && *d < 52; i++) {
        int r = u8(in) % 3, tries;
        for (tries = 0; tries < 3 && fill[r] == size[r]; tries++) {
            r = (r + 1) % 3;
        }
        board[start[r] + fill[r]++] = deck[(*d)++];
    }
}

/* Rounds that fill `free_` slots: Pineapple rounds (3 cards, 1 discard) when even,
 * else one card each; sometimes raw bytes. */
static void search_rounds(reader *in, ofc_search_seat *s, int free_)
{
    int i, raw = (u8(in) & 15) == 0, pine = free_ % 2 == 0;
    s->rounds = (uint8_t)(raw ? u8(in) % (OFC_SEARCH_MAX_ROUNDS + 2) : pine ? free_ / 2 : free_);
    if (s->rounds > OFC_SEARCH_MAX_ROUNDS && !raw) {
        s->rounds = OFC_SEARCH_MAX_ROUNDS;
    }
    for (i = 0; i < OFC_SEARCH_MAX_ROUNDS; i++) {
        s->round_n[i] = (uint8_t)(raw ? u8(in) % 20 : pine ? 3 : 1);
        s->round_k[i] = (uint8_t)(raw ? u8(in) % 4 : pine ? 1 : 0);
    }
}

/* A position as the searcher knows it, mostly consistent (cards from one shuffled
 * deck, rounds that fill the free slots), sometimes not. */
static void search_pos(reader *in, ofc_search_pos *pos)
{
    uint8_t deck[52];
    int d = 0, p, i;
    memset(pos, 0, sizeof *pos);
    cards(in, deck, 52);
    pos->players = (uint8_t)((u8(in) & 15) ? 2 + u8(in) % 3 : u8(in) % 6);
    pos->seat = (uint8_t)(u8(in) % (pos->players ? pos->players : 1));
    for (p = 0; p < pos->players && p < OFC_SEARCH_MAX_SEATS; p++) {
        ofc_search_seat *s = &pos->seats[p];
        int placed = (u8(in) & 1) ? 9 + 2 * (u8(in) % 3) : u8(in) % 14, free_;
        if (p == pos->seat) {
            static const uint8_t deal[3][2] = {{5, 0}, {3, 1}, {1, 0}};
            int kind = placed == 0 ? 0 : 1 + u8(in) % 2;
            placed = placed > 12 ? 11 : placed;
            pos->n_dealt = (u8(in) & 15) ? deal[kind][0] : u8(in) % 7;
            pos->k = (u8(in) & 15) ? deal[kind][1] : u8(in) % 3;
            for (i = 0; i < pos->n_dealt && i < 5 && d < 52; i++) {
                pos->dealt[i] = deck[d++];
            }
            free_ = 13 - placed - (pos->n_dealt - pos->k);
        } else {
            free_ = 13 - placed;
        }
        search_board(in, s->board, placed, deck, &d);
        s->in_fl = (uint8_t)((u8(in) & 7) ? 0 : 12 + u8(in) % 7);
        search_rounds(in, s, free_ < 0 ? 0 : free_);
    }
    d += u8(in) % 5; /* discards the searcher saw */
    for (i = d; i < 52; i++) {
        pos->unseen[pos->n_unseen++] = deck[i];
    }
    if ((u8(in) & 31) == 0) {
        pos->n_unseen = u8(in); /* a count beyond the array */
    }
}

static void t_best_completion(reader *in)
{
    const ofc_rules *r = rules(in);
    ofc_fl_rules fl;
    ofc_search_model m;
    ofc_completion_result out;
    uint8_t board[13], fut[52], rn[OFC_SEARCH_MAX_ROUNDS + 2], rk[OFC_SEARCH_MAX_ROUNDS + 2];
    uint8_t deck[52];
    int d = 0, placed = 4 + u8(in) % 10, i, total = 0;
    uint32_t rounds, policy = u8(in) % 4, in_fl = (u8(in) & 7) ? 0 : u8(in) % 19;
    int32_t st;
    fl_rules(in, &fl);
    if (!search_model(in, &m)) {
        return;
    }
    cards(in, deck, 52);
    search_board(in, board, placed, deck, &d);
    if (u8(in) & 7) { /* Pineapple rounds that fill the free slots, or single cards */
        int free_ = 13 - placed, pine = free_ % 2 == 0;
        rounds = (uint32_t)(pine ? free_ / 2 : free_);
        for (i = 0; i < (int)rounds && i < OFC_SEARCH_MAX_ROUNDS + 2; i++) {
            rn[i] = (uint8_t)(pine ? 3 : 1);
            rk[i] = (uint8_t)(pine ? 1 : 0);
        }
    } else {
        rounds = u8(in) % (OFC_SEARCH_MAX_ROUNDS + 2);
        for (i = 0; i < (int)rounds; i++) {
            rn[i] = (uint8_t)(u8(in) % 19);
            rk[i] = (uint8_t)(u8(in) % 3);
        }
    }
    if (rounds > OFC_SEARCH_MAX_ROUNDS + 2 ||
        (policy == OFC_COMPLETE_BEST && rounds > 2)) {
        return; /* the exact completion of many rounds takes seconds under ASan */
    }
    for (i = 0; i < (int)rounds; i++) {
        total += rn[i];
    }
    for (i = 0; i < total && i < 52; i++) {
        fut[i] = d < 52 ? deck[d++] : u8(in);
    }
    if (total > 52) {
        return; /* the caller owns sum(round_n) cards */
    }
    st = ofc_best_completion(r, (u8(in) & 3) ? &fl : NULL, (u8(in) & 1) ? ev_ofc() : NULL,
                             &m, board, fut, rounds, rn, rk, in_fl, policy, &out);
    REQUIRE(st == OFC_OK || is_search_status(st));
    if (st == OFC_OK) {
        REQUIRE(out.foul ? out.value == OFC_SEARCH_FOUL_VALUE : isfinite(out.value));
        for (i = 0; i < 13; i++) { /* the board's known cards stay in their slots */
            REQUIRE(board[i] == OFC_NO_CARD || out.board[i] == board[i]);
        }
    }
}

/* Free slots of each row of a board. */
static void board_room(const uint8_t board[13], uint8_t room[3])
{
    static const int start[3] = {0, 3, 8}, size[3] = {3, 5, 5};
    int r, i;
    for (r = 0; r < 3; r++) {
        room[r] = 0;
        for (i = start[r]; i < start[r] + size[r]; i++) {
            room[r] = (uint8_t)(room[r] + (board[i] == OFC_NO_CARD));
        }
    }
}

/* n action ids of the searcher's decision: legal ones (when the shape is a decision),
 * now and then any byte. */
static void legal_moves(reader *in, const ofc_search_pos *pos, uint8_t *out, uint32_t n)
{
    uint8_t legal[OFC_ACTION_SPACE], room[3];
    int32_t count = 0;
    uint32_t a;
    if (pos->seat < OFC_SEARCH_MAX_SEATS) {
        board_room(pos->seats[pos->seat].board, room);
        count = ofc_actions_legal(pos->n_dealt, pos->k, room, legal, NULL);
    }
    for (a = 0; a < n; a++) {
        out[a] = count > 0 && (u8(in) & 15) ? legal[u8(in) % (uint32_t)count] : u8(in);
    }
}

static void t_search(reader *in)
{
    const ofc_rules *r = rules(in);
    ofc_fl_rules fl;
    ofc_search_model m;
    ofc_search_pos pos;
    uint8_t actions[4];
    double sum[4], sq[4], values[4];
    ofc_search_stats stats[4];
    uint32_t n = 1 + u8(in) % 4, policy = u8(in) % 4, a;
    uint64_t cost;
    int32_t st;
    fl_rules(in, &fl);
    if (!search_model(in, &m)) {
        return;
    }
    search_pos(in, &pos);
    legal_moves(in, &pos, actions, n);
    st = ofc_search_pos_check(&pos);
    REQUIRE(st == OFC_OK || is_search_status(st));
    cost = ofc_search_exact_cost(&pos, n);
    REQUIRE(st == OFC_OK || cost == 0);
    if (policy == OFC_COMPLETE_BEST && st == OFC_OK && pos.seats[pos.seat].rounds > 1) {
        policy = OFC_COMPLETE_FAST; /* many exact completions: seconds under ASan */
    }
    memset(sum, 0, sizeof sum);
    memset(sq, 0, sizeof sq);
    memset(stats, 0, sizeof stats);
    if (u8(in) & 1) { /* with the counts, or the plain call */
        st = ofc_search_rollouts_stats(r, (u8(in) & 3) ? &fl : NULL,
                                       (u8(in) & 1) ? ev_ofc() : NULL, &m, &pos, actions, n,
                                       policy, u32(in), u8(in), 1 + u8(in) % 2, sum,
                                       (u8(in) & 1) ? sq : NULL, stats);
    } else {
        st = ofc_search_rollouts(r, (u8(in) & 3) ? &fl : NULL, (u8(in) & 1) ? ev_ofc() : NULL,
                                 &m, &pos, actions, n, policy, u32(in), u8(in),
                                 1 + u8(in) % 2, sum, (u8(in) & 1) ? sq : NULL);
    }
    REQUIRE(st == OFC_OK || is_search_status(st));
    for (a = 0; a < n && st == OFC_OK; a++) { /* counts of at most 2 samples */
        REQUIRE(stats[a].foul >= 0 && stats[a].foul <= 2 && stats[a].fantasyland >= 0 &&
                stats[a].fantasyland <= 2 && isfinite(stats[a].royalties));
    }
    for (a = 0; a < n && st == OFC_OK; a++) {
        REQUIRE(isfinite(sum[a]) && isfinite(sq[a]) && sq[a] >= 0);
    }
    if (u8(in) & 1) {
        st = ofc_search_exact_stats(r, (u8(in) & 3) ? &fl : NULL,
                                    (u8(in) & 1) ? ev_ofc() : NULL, &m, &pos, actions, n,
                                    20000, values, stats);
    } else {
        st = ofc_search_exact(r, (u8(in) & 3) ? &fl : NULL, (u8(in) & 1) ? ev_ofc() : NULL,
                              &m, &pos, actions, n, 20000, values);
    }
    REQUIRE(st == OFC_OK || is_search_status(st));
    REQUIRE(st != OFC_OK || (cost > 0 && cost <= 20000));
    for (a = 0; a < n && st == OFC_OK; a++) {
        REQUIRE(isfinite(values[a]));
    }
}

/* The model parser: raw bytes, or a valid model (format 3, with or without opponent
 * rows, or as format 1 or 2 wrote it) with fuzzed bytes written over it (the checksums
 * fixed after, or not), so the shape checks behind the checksums are reached.  A parsed model is evaluated on
 * fuzzed inputs: finite or NO_NET; its opponent tables always build. */
static void t_vm_parse(reader *in)
{
    static ofc_vmodel m;
    static ofc_ev_tables t;
    static ofc_rules r;
    static uint8_t buf[sizeof vm_file2 + 64];
    float x[OFC_VM_MAX_WIDTH];
    size_t n, k, i, size;
    uint8_t how = u8(in);
    const uint8_t *valid = how & 8 ? vm_file2 : vm_file;
    int32_t st;
    double v;
    static size_t size2;
    fuzz_vmodel();
    if (size2 == 0) {
        size2 = vm_build2(vm_file2);
    }
    size = how & 8 ? size2 : sizeof vm_file;
    if (how & 1) { /* raw */
        n = in->n < sizeof buf ? in->n : sizeof buf;
        memcpy(buf, in->p, n);
        in->p += n;
        in->n -= n;
    } else {
        memcpy(buf, valid, size);
        if (how & 16) { /* the older format of the same model */
            vm_put32(buf + 8, how & 8 ? 2 : 1);
            vm_seal(buf, size);
        }
        n = size - (how & 2 ? u8(in) % 16 : 0);
        for (k = u8(in) % 8; k > 0; k--) {
            buf[u32(in) % size] = u8(in);
        }
        if (how & 4) {
            vm_seal(buf, n);
        }
    }
    st = ofc_vm_parse(buf, n, &m);
    REQUIRE(st == OFC_OK || (st <= OFC_E_MODEL_MAGIC && st >= OFC_E_MODEL_VALUE));
    if (st != OFC_OK) {
        return;
    }
    REQUIRE(m.n_nets >= 1 && m.n_nets <= OFC_VM_MAX_NETS && m.n_params <= OFC_VM_MAX_PARAMS);
    REQUIRE(m.opponent <= 1 && ofc_rules_init_ofc(&r) == OFC_OK);
    REQUIRE(ofc_value_ev_tables(&r, &m, &t) == OFC_OK);
    for (i = 0; i < OFC_VM_MAX_WIDTH; i++) {
        x[i] = (float)(int8_t)u8(in) / 8.0f;
    }
    for (k = 0; k <= 13; k++) {
        st = ofc_vm_eval(&m, (uint32_t)k, x, &v);
        REQUIRE(st == OFC_E_MODEL_NO_NET || (st == OFC_OK && !isnan(v)));
    }
}

/* The value kernels: a fuzzed board, dead cards and decision under a real model;
 * every result finite or a status, the best action the argmax of the values. */
static void t_value(reader *in)
{
    ofc_fl_rules fl;
    ofc_value_ctx c;
    uint8_t board[13], dealt[5], deck[52], ids[OFC_ACTION_SPACE], act = 0, room[3];
    float f[OFC_VF_N];
    double v[OFC_ACTION_SPACE], best = 0, mean = 0, var = 0;
    uint64_t dead = (uint64_t)u32(in) << 20 ^ u32(in);
    int d = 0, r, i, placed = u8(in) % 13;
    uint32_t n = 1 + u8(in) % 3, k = n == 3 ? 1 : 0;
    int32_t st, count;
    memset(&c, 0, sizeof c);
    c.rules = rules(in);
    fl_rules(in, &fl);
    c.fl = (u8(in) & 3) ? &fl : NULL;
    c.ev = (u8(in) & 7) ? ev_ofc() : NULL;
    c.model = (u8(in) & 7) ? fuzz_vmodel() : NULL;
    c.players = 1 + u8(in) % 4;
    c.in_fl = (u8(in) & 7) ? 0 : u8(in) % 18;
    cards(in, deck, 52);
    search_board(in, board, placed, deck, &d);
    for (i = 0; i < 5; i++) {
        dealt[i] = deck[(d + i) % 52];
    }
    if ((u8(in) & 7) != 0) { /* mostly: the dead cards clear of board and dealt */
        for (i = 0; i < 13; i++) {
            dead &= board[i] < 52 ? ~((uint64_t)1 << board[i]) : ~(uint64_t)0;
        }
        for (i = 0; i < 5; i++) {
            dead &= dealt[i] < 52 ? ~((uint64_t)1 << dealt[i]) : ~(uint64_t)0;
        }
    }
    st = ofc_value_features(&c, board, dead, f);
    for (i = 0; i < OFC_VF_N && st == OFC_OK; i++) {
        REQUIRE(isfinite(f[i]));
    }
    st = ofc_value_board(&c, board, dead, &best);
    REQUIRE(st != OFC_OK || isfinite(best));
    for (r = 0; r < 3; r++) {
        static const int start[3] = {0, 3, 8}, size[3] = {3, 5, 5};
        for (i = 0; i < size[r] && board[start[r] + i] != OFC_NO_CARD; i++) {
        }
        room[r] = (uint8_t)(size[r] - i);
    }
    count = ofc_actions_legal(n, k, room, ids, NULL);
    if (count <= 0) {
        return;
    }
    st = ofc_value_actions(&c, board, dealt, n, k, dead, ids, (uint32_t)count, v);
    if (st != OFC_OK) {
        REQUIRE(ofc_value_best(&c, board, dealt, n, k, dead, &act, NULL, &best) != OFC_OK);
        return;
    }
    REQUIRE(ofc_value_best(&c, board, dealt, n, k, dead, &act, NULL, &best) == OFC_OK);
    for (i = 0; i < count; i++) {
        REQUIRE(isfinite(v[i]) && v[i] <= best);
    }
    st = ofc_value_expect(&c, board, dead, n, k, u8(in) % 4, u32(in), 1 + u8(in) % 3, &mean,
                          &var);
    REQUIRE(st != OFC_OK || (isfinite(mean) && var >= 0));
}

/* ------------------------------------------------------------ target table */

/* The game engine: a deal from fuzzed seats, button, Fantasyland counts and a seed
 * or a (possibly bad) deck, then fuzzed operations.  Every refused operation leaves the
 * state byte-identical; every accepted one advances it; a finished deal is zero-sum. */
static ofc_game_rules game_rules_buf[3];

static const ofc_game_rules *game_rules(reader *in)
{
    static int ready;
    if (!ready) {
        REQUIRE(ofc_game_rules_init_pineapple(&game_rules_buf[0]) == OFC_OK);
        game_rules_buf[1] = game_rules_buf[0];
        game_rules_buf[1].kind = OFC_KIND_OFC;
        game_rules_buf[1].max_players = 4;
        game_rules_buf[1].table.max_players = 4;
        game_rules_buf[1].face_down_final = 3;
        game_rules_buf[2] = game_rules_buf[1];
        game_rules_buf[2].kind = OFC_KIND_CLASSIC;
        memset(&game_rules_buf[2].fl, 0, sizeof game_rules_buf[2].fl);
        game_rules_buf[2].table.surrender_cost = 1;
        game_rules_buf[2].table.natural_mask = OFC_NAT_BIT(OFC_NAT_SIX_PAIRS);
        game_rules_buf[2].table.natural_units[OFC_NAT_SIX_PAIRS] = 3;
        game_rules_buf[2].table.natural_rank[OFC_NAT_SIX_PAIRS] = 0;
        REQUIRE(ofc_game_rules_check(&game_rules_buf[1]) == OFC_OK);
        REQUIRE(ofc_game_rules_check(&game_rules_buf[2]) == OFC_OK);
        ready = 1;
    }
    return &game_rules_buf[u8(in) % 3];
}

static void game_step(reader *in, const ofc_game_rules *r, ofc_game *g)
{
    ofc_game before = *g;
    ofc_observation o;
    uint8_t dest[OFC_GAME_MAX_DEALT + 2], acts[OFC_ACTION_SPACE];
    uint32_t op = u8(in) % 6, i, n;
    int32_t rc = OFC_OK, legal;
    switch (op) {
    case 0:
        rc = ofc_game_apply_action(g, u16(in) % 300);
        break;
    case 1:
        n = u8(in) % (OFC_GAME_MAX_DEALT + 2);
        for (i = 0; i < n; i++)
            dest[i] = u8(in) % 5;
        rc = ofc_game_apply_placement(g, dest, n);
        break;
    case 2:
        rc = ofc_game_declare(r, g, u8(in) % 20);
        break;
    case 3:
        rc = ofc_game_surrender(r, g);
        break;
    case 4: /* a legal action, when there is one */
        legal = ofc_game_legal_actions(g, acts);
        if (legal > 0)
            REQUIRE(ofc_game_apply_action(g, acts[u8(in) % (uint32_t)legal]) == OFC_OK);
        else
            REQUIRE(legal == OFC_E_GAME_OVER || legal == OFC_E_FULL_SET);
        return;
    default:
        rc = ofc_game_observe(g, u8(in) % 5, &o);
        REQUIRE(rc == OFC_OK || rc == OFC_E_SEAT);
        REQUIRE(memcmp(&before, g, sizeof before) == 0);
        if (rc == OFC_OK && !o.is_over) { /* the same record without the game */
            ofc_observation c = o;
            c.k = c.full = c.face_down = c.future_cards = c.future_discards = 0;
            memset(c.rounds, 0, sizeof c.rounds);
            REQUIRE(ofc_observation_complete(r, &c) == OFC_OK);
            REQUIRE(memcmp(&c, &o, sizeof c) == 0);
            for (i = u8(in) % 4; i > 0; i--) /* forged bytes: a status, no crash */
                ((uint8_t *)&c)[u16(in) % sizeof c] = u8(in);
            rc = ofc_observation_complete(r, &c);
            REQUIRE(rc == OFC_OK || rc == OFC_E_SEATS || rc == OFC_E_COUNT || rc == OFC_E_DISCARDS);
        }
        return;
    }
    if (rc == OFC_OK)
        REQUIRE(g->step == before.step + 1);
    else
        REQUIRE(memcmp(&before, g, sizeof before) == 0);
}

static void t_game(reader *in)
{
    const ofc_game_rules *r = game_rules(in);
    ofc_game g;
    ofc_game_result res;
    uint8_t fl[4], deck[52];
    uint32_t players = u8(in) % 6, button = u8(in) % 5, s, steps;
    int32_t rc, sum = 0;
    for (s = 0; s < 4; s++)
        fl[s] = (uint8_t)(u8(in) % 4 == 0 ? 13 + u8(in) % 6 : 0);
    cards(in, deck, 52);
    rc = ofc_game_init(r, &g, players, button, (u8(in) & 1) ? fl : NULL, u32(in),
                       (u8(in) & 3) == 0 ? deck : NULL);
    if (rc != OFC_OK) {
        REQUIRE(rc == OFC_E_SEATS || rc == OFC_E_DECK || rc == OFC_E_CARD ||
                rc == OFC_E_DUPLICATE);
        return;
    }
    for (steps = 0; steps < 200 && in->n > 0; steps++)
        game_step(in, r, &g);
    if (!ofc_game_is_over(&g)) {
        REQUIRE(ofc_game_result_get(r, &g, NULL, 0, &res) == OFC_E_NOT_OVER);
        return;
    }
    REQUIRE(ofc_game_result_get(r, &g, NULL, OFC_SETTLE_ITEMS, &res) == OFC_OK);
    for (s = 0; s < g.players; s++)
        sum += res.net[s];
    REQUIRE(sum == 0);
}

/* Table settlement on fuzzed inputs: a valid result is zero-sum. */
static void t_settle(reader *in)
{
    const ofc_rules *r = rules(in);
    ofc_table_rules t;
    ofc_settle_input inp;
    ofc_settlement out;
    uint8_t deck[52];
    uint32_t s, k;
    int32_t rc, sum = 0;
    if (r == NULL)
        return;
    ofc_table_rules_init(&t);
    t.house = u8(in) % 3;
    t.start = u8(in) % 3;
    t.stakes = u8(in) % 3;
    t.pool_ante = (int32_t)(u8(in) % 4 == 0 ? u8(in) % 5 : 0);
    t.single_winner = (int32_t)(u8(in) % 4 == 0 ? u8(in) % 5 : 0);
    t.surrender_cost = (int32_t)(u8(in) % 3) - 1;
    t.aces_bet = u8(in) % 3;
    for (k = 0; k < 5; k++)
        t.aces_value[k] = (int32_t)(u8(in) % 10);
    ofc_settle_input_init(&inp, (uint8_t)(u8(in) % 6), (uint8_t)(u8(in) % 5));
    cards(in, deck, 52);
    for (s = 0; s < 4; s++) {
        memcpy(inp.cards[s], deck + 13 * s, 13);
        inp.declared[s] = (int8_t)(u8(in) % 8 == 0 ? (int)(u8(in) % 20) - 2 : -1);
        inp.stacks[s] = (int32_t)(u16(in) % 300);
    }
    inp.surrendered = u8(in) & 15;
    inp.has_stacks = u8(in) & 1;
    rc = ofc_settle(r, &t, &inp, u8(in) & 1 ? OFC_SETTLE_ITEMS : 0, &out);
    if (rc != OFC_OK)
        return;
    for (s = 0; s < inp.players; s++)
        sum += out.net[s];
    REQUIRE(sum == 0);
}

typedef struct fuzz_target {
    const char *name;
    void (*run)(reader *in);
} fuzz_target;

/* The heuristic bot's sampler: fuzzed counts (rounds over all 32 bits: 3 x rounds
 * must not wrap into a valid count) and unseen cards; on OFC_OK every sample's future
 * is distinct cards of the unseen and every fill is distinct cards of its future. */
static void t_heur_sample(reader *in)
{
    enum { SAMPLES = 4, FILLS = 4 };
    uint8_t unseen[OFC_CARDS + 8], futures[SAMPLES * 64], fills[SAMPLES * FILLS * 16];
    size_t n_unseen = u8(in) % (OFC_CARDS + 8), n_future = u8(in) % 48;
    size_t n_slots = u8(in) % 16, n_samples = u8(in) % (SAMPLES + 1);
    size_t n_fills = u8(in) % (FILLS + 1), k, p, i, j;
    uint32_t rounds = u8(in) & 1 ? u32(in) : u8(in) % 16;
    int32_t st;
    cards(in, unseen, n_unseen);
    st = ofc_heur_sample(u8(in) == 0 ? NULL : unseen, n_unseen, n_future, rounds, n_slots,
                         n_samples, n_fills, u32(in), futures, fills);
    REQUIRE(st == OFC_OK || st == OFC_E_CARD || st == OFC_E_DUPLICATE || st == OFC_E_COUNT
            || st == OFC_E_VALUE);
    if (st != OFC_OK) {
        return;
    }
    REQUIRE(n_future <= n_unseen && n_slots <= n_future && n_future <= OFC_HEUR_MAX_FUTURE);
    REQUIRE(rounds == 0 || (size_t)rounds * 3 == n_future);
    for (k = 0; k < n_samples && n_future; k++) {
        const uint8_t *f = futures + k * n_future;
        REQUIRE(distinct(f, n_future));
        for (i = 0; i < n_future; i++) {
            for (j = 0; j < n_unseen && unseen[j] != f[i]; j++) {
            }
            REQUIRE(j < n_unseen);
        }
        for (p = 0; p < n_fills && n_slots; p++) {
            const uint8_t *fill = fills + (k * n_fills + p) * n_slots;
            REQUIRE(distinct(fill, n_slots));
            for (i = 0; i < n_slots; i++) {
                for (j = 0; j < n_future && f[j] != fill[i]; j++) {
                }
                REQUIRE(j < n_future);
            }
        }
    }
}

/* ------------------------------------------------------------ vector environment */

/* The vector environment: a fuzzed configuration (mostly valid), a reset, then steps
 * with arbitrary action ids (any int64), placements and active flags.  A validation
 * error changes no slot; every written row is a decision of the configuration's seats
 * (its mask the legal ids, its encoding's features computable). */
enum { VE_ENVS = 3 };

static void ve_check_rows(const ofc_vecenv_config *c, const ofc_vecenv_slot *slots,
                          const ofc_vecenv_out *out, uint32_t first, uint32_t count)
{
    static float feat[VE_ENVS * OFC_FEAT_SIZE];
    uint32_t i, a, legal;
    for (i = first; i < first + count; i++) {
        REQUIRE(out->seat[i] >= -1 && out->seat[i] < (int8_t)c->players);
        REQUIRE(out->legal_count[i] >= 0 && out->legal_count[i] <= OFC_ACTION_SPACE);
        REQUIRE(out->terminations[i] <= 1 && out->truncations[i] == 0);
        REQUIRE(isfinite(out->rewards[i]));
        if (out->terminations[i] && c->shaping == 0.0f) { /* points: zero-sum */
            float sum = 0.0f;
            for (a = 0; a < OFC_GAME_MAX_SEATS; a++) {
                REQUIRE(a < c->players || out->final_rewards[i * OFC_GAME_MAX_SEATS + a] == 0);
                sum += out->final_rewards[i * OFC_GAME_MAX_SEATS + a];
            }
            REQUIRE(sum == 0.0f);
        }
        for (a = 0, legal = 0; a < OFC_ACTION_SPACE; a++) {
            REQUIRE(out->mask[i * OFC_ACTION_SPACE + a] <= 1);
            legal += out->mask[i * OFC_ACTION_SPACE + a];
        }
        REQUIRE(legal == (uint32_t)out->legal_count[i]);
        for (a = 0; a < (uint32_t)out->legal_count[i]; a++) {
            REQUIRE(out->mask[i * OFC_ACTION_SPACE + out->legal[i * OFC_ACTION_SPACE + a]]);
        }
    }
    REQUIRE(ofc_features_slots(slots, first, count, out->obs, feat) == OFC_OK);
    for (i = first * OFC_FEAT_SIZE; i < (first + count) * OFC_FEAT_SIZE; i++) {
        REQUIRE(isfinite(feat[i]));
    }
}

static void t_vecenv(reader *in)
{
    static ofc_game_rules gr;
    static ofc_vecenv_slot slots[VE_ENVS], before[VE_ENVS];
    static uint8_t obs[VE_ENVS * OFC_ENC_SIZE], mask[VE_ENVS * OFC_ACTION_SPACE],
        legal[VE_ENVS * OFC_ACTION_SPACE], term[VE_ENVS], trunc[VE_ENVS], full[VE_ENVS],
        final_obs[VE_ENVS * OFC_ENC_SIZE], place[VE_ENVS * OFC_GAME_MAX_DEALT],
        active[VE_ENVS];
    static int16_t count[VE_ENVS];
    static int8_t seat[VE_ENVS];
    static float rew[VE_ENVS], final_rew[VE_ENVS * OFC_GAME_MAX_SEATS];
    ofc_vecenv_out out = {obs, mask, legal, count, seat, full, rew, final_rew, term, trunc,
                          NULL};
    ofc_vecenv_config c;
    int64_t actions[VE_ENVS];
    uint32_t n = 1 + u8(in) % VE_ENVS, steps, i, j, first, cnt, bad;
    int32_t rc;
    gr = *game_rules(in);
    if (gr.kind == OFC_KIND_CLASSIC) {
        gr.kind = OFC_KIND_OFC;
    }
    out.final_obs = (u8(in) & 1) ? final_obs : NULL;
    rc = ofc_vecenv_config_init(&c, &gr, n, 2 + u8(in) % 3, (uint64_t)u32(in) << 32 | u32(in));
    if (rc != OFC_OK) {
        REQUIRE(rc == OFC_E_SEATS || rc == OFC_E_DECK);
        return;
    }
    c.opponents = u8(in) % 3;
    c.fantasyland = u8(in) % 2;
    c.learner = (uint8_t)(u8(in) % c.players);
    c.button_frozen = u8(in) & 1;
    c.autoreset = (u8(in) & 3) != 0;
    c.shaping = (float)(int8_t)u8(in) / 16.0f;
    for (i = 0; i < 5; i++) {
        c.stay_value[i] = (double)(int8_t)u8(in);
    }
    if ((u8(in) & 15) == 0) { /* a bad field: refused, nothing touched */
        ((uint8_t *)&c.players)[u8(in) % 8] = u8(in);
    }
    rc = ofc_vecenv_config_check(&c);
    if (rc != OFC_OK) {
        REQUIRE(rc == OFC_E_SEATS || rc == OFC_E_DECK || rc == OFC_E_VALUE ||
                rc == OFC_E_RULES || rc == OFC_E_COUNT);
        REQUIRE(ofc_vecenv_reset(&c, slots, 0, n, 1, &out) == rc);
        return;
    }
    rc = ofc_vecenv_reset(&c, slots, 0, n, 1, &out);
    REQUIRE(rc == OFC_OK);
    ve_check_rows(&c, slots, &out, 0, n);
    for (steps = 0; steps < 60 && in->n > 0; steps++) {
        uint8_t how = u8(in);
        int raw = (how & 0xC0) == 0xC0, range = (how & 0x30) == 0x30;
        first = range ? u8(in) % (n + 2) : 0;
        cnt = range ? u8(in) % (n + 2) : n;
        if (raw) { /* any bytes: a placement or an action of any value */
            for (i = 0; i < VE_ENVS; i++) {
                actions[i] = (u8(in) & 1) ? OFC_VE_NO_ACTION : (int64_t)(int32_t)u32(in);
                for (j = 0; j < OFC_GAME_MAX_DEALT; j++) {
                    place[i * OFC_GAME_MAX_DEALT + j] = u8(in) % 6;
                }
                active[i] = u8(in) & 1;
            }
        } else { /* mostly legal: a legal id, or a random legal placement */
            for (i = 0; i < VE_ENVS; i++) {
                active[i] = 1;
                actions[i] = i < n && count[i] > 0
                                 ? legal[i * OFC_ACTION_SPACE + u8(in) % (uint32_t)count[i]]
                                 : OFC_VE_NO_ACTION;
                if (i < n && count[i] == 0 && seat[i] >= 0) { /* a full set: rows, then discards */
                    const ofc_game *g = &slots[i].game;
                    uint32_t nd = g->steps[g->step].n, room[3] = {3, 5, 5}, r, t;
                    for (j = 0; j < nd && j < OFC_GAME_MAX_DEALT; j++) {
                        r = u8(in) % 3;
                        for (t = 0; t < 3 && room[r] == 0; t++) {
                            r = (r + 1) % 3;
                        }
                        place[i * OFC_GAME_MAX_DEALT + j] = room[r] ? (uint8_t)r : OFC_DISCARD;
                        room[r] -= room[r] ? 1 : 0;
                    }
                }
            }
        }
        memcpy(before, slots, sizeof slots);
        bad = (uint32_t)-1;
        rc = ofc_vecenv_step(&c, slots, first, cnt, actions, (how & 0x0F) ? place : NULL,
                             raw ? active : NULL, &out, &bad);
        if (rc == OFC_E_COUNT && (first > n || cnt > n - first)) {
            REQUIRE(memcmp(before, slots, sizeof slots) == 0);
            continue;
        }
        REQUIRE(rc == OFC_OK || rc == OFC_E_COUNT || rc == OFC_E_GAME_OVER ||
                rc == OFC_E_ACTION || rc == OFC_E_DESTINATION || rc == OFC_E_DISCARDS ||
                rc == OFC_E_ROW_FULL || rc == OFC_E_NO_DECISION);
        if (rc != OFC_OK && rc != OFC_E_NO_DECISION) { /* a validation error */
            REQUIRE(bad >= first && bad < first + cnt);
            REQUIRE(memcmp(before, slots, sizeof slots) == 0);
            continue;
        }
        ve_check_rows(&c, slots, &out, first, cnt);
        REQUIRE(ofc_vecenv_write_rows(&c, slots, first, cnt, &out) == OFC_OK);
        ve_check_rows(&c, slots, &out, first, cnt); /* the rows of the slots alone */
        for (i = 0; i < n; i++) { /* what step leaves passes the check of a saved slot */
            REQUIRE(ofc_vecenv_slot_check(&c, &slots[i], NULL) == OFC_OK);
        }
        if ((how & 0x0F) == 0x0E) { /* a damaged saved slot: refused, or safe to play on */
            ofc_vecenv_slot dmg = slots[0];
            const char *why = NULL;
            ((uint8_t *)&dmg)[u16(in) % sizeof dmg] = u8(in);
            rc = ofc_vecenv_slot_check(&c, &dmg, &why);
            REQUIRE(rc == OFC_OK ? why == NULL : rc == OFC_E_STATE && why != NULL);
            if (rc == OFC_OK) {
                slots[0] = dmg;
            }
        }
        if ((u8(in) & 15) == 0) {
            REQUIRE(ofc_vecenv_reset(&c, slots, 0, n, u8(in) & 1, &out) == OFC_OK);
            ve_check_rows(&c, slots, &out, 0, n);
        }
    }
}

/* The features of hand-made encodings: any bytes, any dealt list; finite or
 * OFC_E_CARD. */
static void t_features(reader *in)
{
    static uint8_t enc[2 * OFC_ENC_SIZE];
    static float x[2 * OFC_FEAT_SIZE];
    uint8_t dealt[OFC_GAME_MAX_DEALT + 4], select[2];
    uint32_t n = u8(in) % (OFC_GAME_MAX_DEALT + 4), i;
    int32_t rc;
    memset(enc, 0, sizeof enc);
    if (u8(in) & 1) { /* the encoding of a forged observation (any bytes) */
        ofc_observation o;
        memset(&o, 0, sizeof o);
        for (i = u16(in) % 200; i > 0; i--) {
            ((uint8_t *)&o)[u16(in) % sizeof o] = u8(in);
        }
        ofc_encode(&o, u8(in), enc);
        for (i = 0; i < OFC_ENC_PLANES * 52; i++) {
            REQUIRE(enc[i] <= 1);
        }
    }
    for (i = u16(in) % 400; i > 0; i--) {
        enc[u16(in) % sizeof enc] = (u8(in) & 1) ? 1 : u8(in);
    }
    cards(in, dealt, n);
    for (i = 0; i < n && (u8(in) & 3); i++) { /* mostly: the dealt plane holds them */
        if (dealt[i] < 52) {
            enc[12 * 52 + dealt[i]] = 1;
        }
    }
    rc = ofc_features(enc, (u8(in) & 3) ? dealt : NULL, n, x);
    REQUIRE(rc == OFC_OK || rc == OFC_E_CARD);
    for (i = 0; rc == OFC_OK && i < OFC_FEAT_SIZE; i++) {
        REQUIRE(isfinite(x[i]) && x[i] >= -1e6f && x[i] <= 1e6f);
    }
    select[0] = u8(in) & 1;
    select[1] = u8(in) & 1;
    rc = ofc_features_rows(enc, (u8(in) & 1) ? select : NULL, 2, x);
    REQUIRE(rc == OFC_OK || rc == OFC_E_CARD);
}

/* ------------------------------------------------------------ heuristic kernels */

static const ofc_heur_model *heur_model(void)
{
    static ofc_heur_model *m;
    if (!m) {
        uint32_t seed = 7, row, s, k;
        m = calloc(1, sizeof *m);
        REQUIRE(m != NULL);
        for (row = 0; row < OFC_ROWS; row++) {
            for (s = 0; s < OFC_STRENGTH_TABLE_SIZE; s++) {
                seed = seed * 1103515245u + 12345u;
                m->row[row][s].value = (float)(int)(seed >> 20 & 0xFF) / 16.0f - 8.0f;
                m->row[row][s].win = (float)(seed >> 8 & 0xFF) / 256.0f;
                m->row[row][s].lose = 1.0f - m->row[row][s].win;
            }
        }
        m->sweep = 3.0;
        m->majority = 1.0;
        m->foul_value = -6.0;
        for (k = 0; k < OFC_HEUR_FL_VALUES; k++) {
            m->fl_value[k] = k ? 8.0 + k : 0.0;
        }
        REQUIRE(ofc_heur_model_check(m) == OFC_OK);
    }
    return m;
}

/* The heuristic bot's kernels on fuzzed boards, row templates, moves and fills:
 * finite values or a documented status. */
static void t_heur(reader *in)
{
    enum { ROWS = 16, MOVES = 8, SAMPLES = 2, FILLS = 3 };
    const ofc_rules *r = rules(in);
    ofc_fl_rules fl;
    const ofc_fl_rules *flp;
    static ofc_heur_model bad_m;
    const ofc_heur_model *m = heur_model();
    uint8_t boards[13 * 4], fronts[3 * ROWS], fives[5 * ROWS], fills[SAMPLES * FILLS * 14];
    uint16_t moves[3 * MOVES];
    double out[4], scores[MOVES], optimism;
    ofc_heur_rows rows;
    size_t n = u8(in) % 5, bad = (size_t)-1, i, n_slots, n_samples, n_fills;
    uint32_t in_fl = (u8(in) & 3) ? 0 : u8(in) % 19;
    int32_t st;
    fl_rules(in, &fl);
    flp = (u8(in) & 3) ? &fl : NULL;
    if ((u8(in) & 15) == 0) { /* a NaN or a reserved -0: refused by the check, no crash */
        ofc_heur_row *row;
        memcpy(&bad_m, m, sizeof bad_m);
        row = &bad_m.row[u8(in) % 3][u16(in) % OFC_STRENGTH_TABLE_SIZE];
        if (u8(in) & 1) {
            row->win = NAN;
        } else {
            row->reserved = -0.0f;
        }
        REQUIRE(ofc_heur_model_check(&bad_m) == OFC_E_VALUE);
        m = &bad_m;
    }
    cards(in, boards, 13 * (n ? n : 1));
    st = ofc_heur_values(r, flp, m, boards, n, in_fl, out, &bad);
    REQUIRE(st == OFC_OK || st == OFC_E_RULES || st == OFC_E_COUNT ||
            ((st == OFC_E_CARD || st == OFC_E_DUPLICATE) && bad < n));
    for (i = 0; st == OFC_OK && m != &bad_m && i < n; i++) {
        REQUIRE(isfinite(out[i]));
    }
    n_slots = u8(in) % 15;
    n_samples = u8(in) % (SAMPLES + 1);
    n_fills = u8(in) % (FILLS + 1);
    if (u8(in) & 3) { /* mostly valid: move c is a split of 13 tokens (the slots, then
                       * cards), the fills cards of the rest of the deck */
        uint8_t deck[52], tok[13];
        size_t c, t, o = 0, ns = n_slots > 13 ? 13 : n_slots;
        cards(in, deck, 52);
        n_slots = ns;
        rows.n_moves = u8(in) % (MOVES + 1);
        rows.n_fronts = rows.n_moves;
        rows.n_fives = 2 * rows.n_moves;
        for (c = 0; c < rows.n_moves; c++) {
            for (t = 0; t < 13; t++) {
                tok[t] = t < ns ? (uint8_t)t : (uint8_t)(OFC_HEUR_CARD + deck[t - ns]);
            }
            for (t = 13; t > 1; t--) { /* shuffle */
                size_t j = u8(in) % t;
                uint8_t x = tok[t - 1];
                tok[t - 1] = tok[j];
                tok[j] = x;
            }
            memcpy(fronts + 3 * c, tok, 3);
            memcpy(fives + 5 * (2 * c), tok + 3, 5);
            memcpy(fives + 5 * (2 * c + 1), tok + 8, 5);
            moves[3 * c] = (uint16_t)c;
            moves[3 * c + 1] = (uint16_t)(2 * c);
            moves[3 * c + 2] = (uint16_t)(2 * c + 1);
        }
        for (t = 0; ns && t < sizeof fills; t++) { /* a fill: ns cards in a row of the rest */
            o = t % ns == 0 ? u8(in) % 39u : o;
            fills[t] = deck[13 + (o + t % ns) % 39];
        }
    } else {
        rows.n_fronts = u8(in) % (ROWS + 1);
        rows.n_fives = u8(in) % (ROWS + 1);
        rows.n_moves = u8(in) % (MOVES + 1);
        for (i = 0; i < sizeof fronts; i++) { /* mostly slots or cards, sometimes raw */
            uint8_t b = u8(in);
            fronts[i] = (b & 0xC0) == 0xC0 ? u8(in) : (b & 1) ? (uint8_t)(b >> 1) % 14
                                                              : OFC_HEUR_CARD + (b >> 1) % 52;
        }
        for (i = 0; i < sizeof fives; i++) {
            uint8_t b = u8(in);
            fives[i] = (b & 0xC0) == 0xC0 ? u8(in) : (b & 1) ? (uint8_t)(b >> 1) % 14
                                                             : OFC_HEUR_CARD + (b >> 1) % 52;
        }
        for (i = 0; i < 3 * MOVES; i++) {
            moves[i] = (uint16_t)((u8(in) & 15) ? u8(in) % (ROWS + 1) : u16(in));
        }
        cards(in, fills, sizeof fills);
    }
    rows.fronts = fronts;
    rows.fives = fives;
    rows.moves = moves;
    optimism = (u8(in) & 7) ? (double)(u8(in) % 5) / 4.0 : (double)(int8_t)u8(in);
    st = ofc_heur_score_moves(r, flp, m, &rows, (u8(in) & 7) ? fills : NULL, n_samples,
                              n_fills, n_slots, in_fl, optimism, scores);
    REQUIRE(st == OFC_OK || st == OFC_E_RULES || st == OFC_E_COUNT || st == OFC_E_VALUE ||
            st == OFC_E_CARD || st == OFC_E_DUPLICATE);
    for (i = 0; st == OFC_OK && m != &bad_m && i < rows.n_moves; i++) {
        REQUIRE(isfinite(scores[i]));
    }
}

/* ------------------------------------------------------------ small entry points */

/* Action ids and destinations: decode and encode are inverse where they are defined. */
static void t_actions(reader *in)
{
    uint8_t dest[5], room[3], ids[OFC_ACTION_SPACE], mask[OFC_ACTION_SPACE];
    uint32_t n = u8(in) % 8, k = u8(in) % 8, action = (u8(in) & 1) ? u32(in) : u8(in);
    int32_t st, got, i;
    st = ofc_action_decode(n, k, action, dest);
    if (st == OFC_OK) {
        REQUIRE(ofc_action_encode(n, k, dest) == (int32_t)action);
    }
    for (i = 0; i < 5; i++) {
        dest[i] = u8(in) % 6;
    }
    got = ofc_action_encode(n, k, dest);
    if (got >= 0) {
        uint8_t back[5];
        REQUIRE(got < OFC_ACTION_SPACE && ofc_action_decode(n, k, (uint32_t)got, back) == OFC_OK);
        REQUIRE(memcmp(back, dest, n) == 0);
    }
    room[0] = u8(in) % 5;
    room[1] = u8(in) % 7;
    room[2] = u8(in) % 7;
    got = ofc_actions_legal(n, k, room, ids, mask);
    REQUIRE(got <= OFC_ACTION_SPACE);
    for (i = 0; i < got; i++) {
        REQUIRE(mask[ids[i]] == 1 && (i == 0 || ids[i] > ids[i - 1]));
    }
    REQUIRE(ofc_cards_per_seat(u8(in), u8(in)) <= 17);
    REQUIRE(ofc_random64(u32(in), u32(in)) != 0 || ofc_version_number() > 0);
    REQUIRE(strlen(ofc_version_string()) > 0);
    REQUIRE(strlen(ofc_status_string((int32_t)u32(in))) > 0);
    {
        const ofc_rules *r = rules(in);
        uint32_t row = u8(in) % 4, j = u16(in);
        uint16_t s = u16(in);
        int32_t v = ofc_row_value(r, row, s);
        uint64_t range = (u8(in) & 1) ? (uint64_t)u32(in) << (u8(in) % 33) : u8(in);
        ofc_rng rng;
        uint8_t deck[52];
        float scale = ofc_encoding_scale(j);
        REQUIRE(v > 0 || v == OFC_E_RULES || v == OFC_E_VALUE || v == OFC_E_STRENGTH);
        REQUIRE(j >= OFC_ENC_SIZE ? scale == 0.0f : scale > 0.0f && scale <= 1.0f);
        rng.key = u32(in);
        rng.ctr = u32(in);
        REQUIRE(range == 0 || range > ((uint64_t)1 << 32) ? ofc_rng_below(&rng, range) == 0
                                                          : ofc_rng_below(&rng, range) < range);
        ofc_deck_from_seed(ofc_deal_seed(u32(in), u32(in)), deck);
        REQUIRE(distinct(deck, 52));
    }
}

/* A game played on with the engine's own movers, every read-only query checked
 * against the others on the way. */
static void t_game_play(reader *in)
{
    const ofc_game_rules *r = game_rules(in);
    ofc_game g, before;
    ofc_rng rng;
    ofc_decision d;
    ofc_observation o;
    uint8_t acts[OFC_ACTION_SPACE], mask[OFC_ACTION_SPACE], enc[OFC_ENC_SIZE],
        enc2[OFC_ENC_SIZE], fl[4];
    uint32_t players = 2 + u8(in) % 3, s, steps, decisions, a, on;
    int32_t rc, legal;
    for (s = 0; s < 4; s++) {
        fl[s] = (uint8_t)(u8(in) % 4 == 0 ? 13 + u8(in) % 6 : 0);
    }
    rc = ofc_game_init(r, &g, players, u8(in) % players, (u8(in) & 1) ? fl : NULL, u32(in),
                       NULL);
    if (rc != OFC_OK) {
        REQUIRE(rc == OFC_E_SEATS || rc == OFC_E_DECK);
        return;
    }
    rng.key = u32(in);
    rng.ctr = u32(in);
    for (steps = 0; steps < 60 && in->n > 0; steps++) {
        before = g;
        rc = ofc_game_decision(&g, &d);
        REQUIRE(rc == (ofc_game_is_over(&g) ? OFC_E_GAME_OVER : OFC_OK));
        REQUIRE(rc != OFC_OK || (int32_t)d.seat == ofc_game_to_act(&g));
        legal = ofc_game_legal_actions(&g, acts);
        REQUIRE(ofc_game_action_mask(&g, mask) == legal);
        for (a = 0, on = 0; legal > 0 && a < OFC_ACTION_SPACE; a++) {
            on += mask[a];
        }
        REQUIRE(legal <= 0 || on == (uint32_t)legal);
        REQUIRE((ofc_game_declarable(r, &g) >> OFC_NAT_COUNT) == 0);
        s = u8(in) % 5;
        rc = ofc_encode_game(&g, s, u8(in) & 1, enc);
        REQUIRE(rc == (s < g.players ? OFC_OK : OFC_E_SEAT));
        if (rc == OFC_OK) {
            REQUIRE(ofc_game_observe(&g, s, &o) == OFC_OK);
            ofc_encode(&o, 0, enc2);
            REQUIRE(memcmp(enc, enc2, 780) == 0);
        }
        REQUIRE(memcmp(&before, &g, sizeof g) == 0);
        if (ofc_game_is_over(&g)) {
            REQUIRE(ofc_game_random_move(&g, &rng) == OFC_E_GAME_OVER);
            break;
        }
        if (u8(in) % 8 == 0) {
            REQUIRE(ofc_game_playout(&g, &rng, (u8(in) & 1) ? &decisions : NULL) == OFC_OK);
            REQUIRE(ofc_game_is_over(&g));
        } else {
            REQUIRE(ofc_game_random_move(&g, &rng) == OFC_OK && g.step == before.step + 1);
        }
    }
}

/* Table rules, natural payments, the settlement order and the stakes on fuzzed
 * fields and counts (the transfers repeated up to 40 times, so past a block of 256:
 * a refusal leaves `actual` as it is). */
static void t_table(reader *in)
{
    enum { SENTINEL = -123456789 };
    ofc_table_rules t;
    static uint8_t spairs[16 * 40][2];
    const uint8_t(*cpairs)[2] = (const uint8_t(*)[2])spairs; /* ofc_settle.h: before C23 */
    static int32_t amount[16 * 40], actual[16 * 40];
    uint8_t pairs[OFC_SETTLE_MAX_PAIRS + 2][2];
    int32_t stacks[300], st, pay, got;
    size_t seats = (u8(in) & 1) ? u16(in) % 300 : u8(in) % 6, n = u8(in) % 17, k, first;
    uint32_t model = u8(in) % 3;
    ofc_table_rules_init(&t);
    for (k = u8(in) % 6; k > 0; k--) {
        ((uint8_t *)&t)[u16(in) % sizeof t] = u8(in);
    }
    st = ofc_table_rules_check(&t);
    REQUIRE(st == OFC_OK || st == OFC_E_RULES);
    pay = ofc_natural_payment(&t, (int32_t)(u8(in) % (OFC_NAT_COUNT + 3)) - 2, u32(in),
                              (int32_t)(u8(in) % (OFC_NAT_COUNT + 3)) - 2, u32(in), &got);
    REQUIRE(got == OFC_OK || got == OFC_E_NATURAL || got == OFC_E_RULES);
    REQUIRE(got == OFC_OK || pay == 0);
    REQUIRE(got != OFC_E_RULES || st != OFC_OK);
    got = ofc_settlement_order(u8(in) % 6, u8(in) % 5, u8(in) % 3, pairs);
    REQUIRE(got == OFC_E_SEAT || got == OFC_E_VALUE || (got >= 1 && got <= 6));
    for (k = 0; k < seats; k++) {
        stacks[k] = (u8(in) & 7) ? (int32_t)(u32(in) % (OFC_STACK_MAX + 1u)) : (int32_t)u32(in);
    }
    for (k = 0; k < n; k++) {
        spairs[k][0] = (uint8_t)(u8(in) % (seats + 1));
        spairs[k][1] = (uint8_t)(u8(in) % (seats + 1));
        amount[k] = (int32_t)u32(in);
    }
    first = n;
    n *= (u8(in) & 3) ? 1 : 1 + u8(in) % 40;
    for (k = first; k < n; k++) {
        memcpy(spairs[k], spairs[k - first], sizeof spairs[k]);
        amount[k] = amount[k - first];
    }
    for (k = 0; k < n; k++) {
        actual[k] = SENTINEL;
    }
    st = ofc_apply_stakes(model, seats ? stacks : NULL, seats, cpairs, amount, n, actual);
    REQUIRE(st == OFC_OK || st == OFC_E_STACKS || st == OFC_E_SEAT || st == OFC_E_VALUE);
    for (k = 0; k < n; k++) { /* capped, same sign; a refusal writes nothing */
        REQUIRE(st != OFC_OK ? actual[k] == SENTINEL
                : amount[k] >= 0 ? actual[k] >= 0 && actual[k] <= amount[k]
                                 : actual[k] <= 0 && actual[k] >= amount[k]);
    }
    { /* with scratch: the same status and transfers */
        static int32_t again[sizeof amount / sizeof amount[0]];
        static ofc_stakes_transfer scratch[sizeof amount / sizeof amount[0]];
        memcpy(again, actual, n * sizeof *again);
        got = ofc_apply_stakes_scratch(model, seats ? stacks : NULL, seats, cpairs, amount, n,
                                       again, scratch, n);
        REQUIRE(got == st && memcmp(again, actual, n * sizeof *again) == 0);
    }
}

/* Opponent tables from fuzzed row counts, and the value context's checks. */
static void t_ev_counts(reader *in)
{
    static uint32_t counts[OFC_VM_OPP_COUNTS];
    static ofc_ev_tables t;
    const ofc_rules *r = rules(in);
    ofc_value_ctx c;
    uint32_t k;
    int32_t st;
    memset(counts, 0, sizeof counts);
    for (k = u8(in) % 12; k > 0; k--) {
        counts[u16(in) % OFC_VM_OPP_COUNTS] = (u8(in) & 1) ? u32(in) : u8(in);
    }
    if (u8(in) & 1) { /* one valid entry per row, mostly */
        counts[0 * OFC_STRENGTH_TABLE_SIZE + ofc_rank3_unchecked(0, 4, 9)] += 1;
        counts[1 * OFC_STRENGTH_TABLE_SIZE + ofc_rank5_unchecked(0, 4, 9, 13, 18)] += 1;
        counts[2 * OFC_STRENGTH_TABLE_SIZE + ofc_rank5_unchecked(1, 5, 9, 13, 18)] += 1;
    }
    st = ofc_ev_tables_init_counts(r, counts, &t);
    REQUIRE(st == OFC_OK || st == OFC_E_RULES || st == OFC_E_VALUE);
    memset(&c, 0, sizeof c);
    c.rules = r;
    c.ev = st == OFC_OK ? &t : (u8(in) & 1) ? ev_ofc() : NULL;
    c.model = (u8(in) & 1) ? fuzz_vmodel() : NULL;
    c.players = u8(in) % 6;
    c.in_fl = u8(in) % 19;
    for (k = 0; k < OFC_VF_FL_VALUES; k++) {
        c.fl_value[k] = (u8(in) & 15) ? (double)(int8_t)u8(in) : (double)(int32_t)u32(in) * 1e3;
    }
    st = ofc_value_ctx_check(&c);
    REQUIRE(st == OFC_OK || st == OFC_E_RULES || st == OFC_E_VALUE || st == OFC_E_COUNT ||
            st == OFC_E_MODEL_SHAPE);
}

/* The state check (ofc_game_state_check) on real states with fuzzed bytes: a state
 * the engine made passes; a damaged one passes or is OFC_E_STATE with a reason, and
 * one that passes is safe to read, play to the end and score (no read outside its
 * arrays: ASan). */
static void t_game_state(reader *in)
{
    const ofc_game_rules *r = game_rules(in);
    ofc_game g;
    ofc_game_result res;
    ofc_rng rng;
    ofc_decision d;
    uint8_t acts[OFC_ACTION_SPACE], enc[OFC_ENC_SIZE], fl[4];
    const char *why = "unset";
    uint32_t players = 2 + u8(in) % 3, s, k;
    int32_t rc, sum = 0;
    for (s = 0; s < 4; s++) {
        fl[s] = (uint8_t)(u8(in) % 4 == 0 ? 13 + u8(in) % 6 : 0);
    }
    rc = ofc_game_init(r, &g, players, u8(in) % players, (u8(in) & 1) ? fl : NULL, u32(in),
                       NULL);
    if (rc != OFC_OK) {
        return;
    }
    for (k = u8(in) % 48; k > 0 && in->n > 0; k--) {
        game_step(in, r, &g);
    }
    REQUIRE(ofc_game_state_check(r, &g, &why) == OFC_OK && why == NULL);
    for (k = u8(in) % 6; k > 0; k--) { /* damaged bytes */
        ((uint8_t *)&g)[u16(in) % sizeof g] = u8(in);
    }
    rc = ofc_game_state_check(r, &g, &why);
    REQUIRE(rc == OFC_OK ? why == NULL : rc == OFC_E_STATE && why != NULL);
    if (rc != OFC_OK) {
        return;
    }
    rng.key = u32(in);
    rng.ctr = 0;
    for (k = 0; k <= OFC_GAME_MAX_STEPS && !ofc_game_is_over(&g); k++) {
        REQUIRE(ofc_game_decision(&g, &d) == OFC_OK);
        rc = ofc_game_legal_actions(&g, acts);
        REQUIRE(rc > 0 || rc == OFC_E_FULL_SET);
        for (s = 0; s < g.players; s++) {
            REQUIRE(ofc_encode_game(&g, s, 0, enc) == OFC_OK);
        }
        REQUIRE(ofc_game_random_move(&g, &rng) == OFC_OK);
        REQUIRE(ofc_game_state_check(r, &g, NULL) == OFC_OK);
    }
    REQUIRE(ofc_game_is_over(&g));
    /* a declaration the cards lack does not pass the check: the deal scores */
    REQUIRE(ofc_game_result_get(r, &g, NULL, OFC_SETTLE_ITEMS, &res) == OFC_OK);
    for (s = 0; s < g.players; s++) {
        sum += res.net[s];
    }
    REQUIRE(sum == 0);
}

static const fuzz_target targets[] = {
    {"rank", t_rank},
    {"rank_batch", t_rank_batch},
    {"strength", t_strength},
    {"rules_check", t_rules_check},
    {"eval_board", t_eval_board},
    {"eval_boards", t_eval_boards},
    {"score_evals", t_score_evals},
    {"score_pairs", t_score_pairs},
    {"naturals", t_naturals},
    {"fl_next_cards", t_fl_next_cards},
    {"ev_board", t_ev_board},
    {"solve_fantasyland", t_solve_fantasyland},
    {"best_setting", t_best_setting},
    {"game", t_game},
    {"settle", t_settle},
    {"best_completion", t_best_completion},
    {"search", t_search},
    {"vm_parse", t_vm_parse},
    {"value", t_value},
    {"heur_sample", t_heur_sample},
    {"vecenv", t_vecenv},
    {"features", t_features},
    {"heur", t_heur},
    {"actions", t_actions},
    {"game_play", t_game_play},
    {"table", t_table},
    {"ev_counts", t_ev_counts},
    {"game_state", t_game_state}, /* index 27: the seeds' first bytes stay below it */
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    reader in;
    size_t count = sizeof targets / sizeof targets[0];
    if (size == 0) {
        return 0;
    }
    in.p = data + 1;
    in.n = size - 1;
    targets[data[0] % count].run(&in);
    return 0;
}
