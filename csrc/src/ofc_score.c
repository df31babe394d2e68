/* ofc_score.c -- pairwise scoring of two evaluated boards, single and batch.
 * The batch kernels copy each pair (or block of pairs) to locals and validate and
 * score only the copy: every input byte is read once (see ofc_copy_cards()). */
#include "ofc_internal.h"

int32_t ofc_score_evals_unchecked(const ofc_rules *rules, const ofc_board_eval *a,
                                  const ofc_board_eval *b, const ofc_pair_context *ctx,
                                  ofc_pair_score *detail)
{
    return ofc_score_evals_k(rules, a, b, ctx ? ctx : &ofc_no_context, detail, 0);
}

/* OFC_OK when an evaluated board holds a 3-card front, 5-card middle and back, a
 * 0/1 foul flag and a reserved byte 0 (royalties: any int16 is fine). */
static int32_t ofc_eval_check(const ofc_board_eval *e)
{
    if (ofc_strength_cards(e->strength[OFC_FRONT]) != 3 ||
        ofc_strength_cards(e->strength[OFC_MIDDLE]) != 5 ||
        ofc_strength_cards(e->strength[OFC_BACK]) != 5) {
        return OFC_E_STRENGTH;
    }
    return e->foul <= 1 && e->reserved == 0 ? OFC_OK : OFC_E_VALUE;
}

int32_t ofc_score_evals(const ofc_rules *rules, const ofc_board_eval *a,
                        const ofc_board_eval *b, const ofc_pair_context *ctx,
                        ofc_pair_score *out)
{
    ofc_board_eval ea, eb;
    ofc_pair_context c = ofc_no_context;
    int32_t status;
    if (!ofc_rules_scalars_ok(rules)) {
        return OFC_E_RULES;
    }
    if (!a || !b || !out) {
        return OFC_E_VALUE;
    }
    ofc_copy_cards((uint8_t *)&ea, (const uint8_t *)a, sizeof ea);
    ofc_copy_cards((uint8_t *)&eb, (const uint8_t *)b, sizeof eb);
    if (ctx) {
        ofc_copy_cards((uint8_t *)&c, (const uint8_t *)ctx, sizeof c);
    }
    status = ofc_eval_check(&ea);
    if (status == OFC_OK) {
        status = ofc_eval_check(&eb);
    }
    if (status != OFC_OK) {
        return status;
    }
    if (c.ties < -1 || c.ties > 1 || c.a_sweeps_all > 1 || c.b_sweeps_all > 1 ||
        c.reserved != 0) {
        return OFC_E_VALUE;
    }
    ofc_score_evals_k(rules, &ea, &eb, &c, out, 0);
    return OFC_OK;
}

/* Nonzero when the 26 cards of a pair hold a non-card, a repeat within a board or a
 * card on both boards: 26 distinct cards set 26 distinct bits of the OR, and any byte
 * that is no card sets bit 63 (ofc_tab_card_bit).  Two accumulators, one per board. */
static inline uint32_t ofc_pair_invalid(const uint8_t a[13], const uint8_t b[13])
{
    const uint64_t *bit = ofc_tab_card_bit;
    uint64_t oa = 0, ob = 0, all;
    int i;
    for (i = 0; i < OFC_BOARD_CARDS; i++) {
        oa |= bit[a[i]];
        ob |= bit[b[i]];
    }
    all = oa | ob;
    return (uint32_t)(ofc_popcount64(all) != 2 * OFC_BOARD_CARDS) | (uint32_t)(all >> 63);
}

/* The error of a pair that ofc_pair_invalid() rejected (slow path). */
static int32_t ofc_pair_error(const uint8_t a[13], const uint8_t b[13])
{
    uint64_t seen = 0;
    if (ofc_check_cards(a, OFC_BOARD_CARDS, &seen) != OFC_OK) {
        return ofc_cards_error(a, OFC_BOARD_CARDS);
    }
    return ofc_check_cards(b, OFC_BOARD_CARDS, &seen);
}

static int32_t ofc_pair_check(const uint8_t a[13], const uint8_t b[13])
{
    return OFC_LIKELY(!ofc_pair_invalid(a, b)) ? OFC_OK : ofc_pair_error(a, b);
}

/* The batch loop for any rule set: evaluate both boards, score them. */
static int32_t ofc_score_pairs_general(const ofc_rules *rules, const uint8_t *a,
                                       const uint8_t *b, size_t n, int32_t *net, size_t *bad)
{
    size_t i;
    for (i = 0; i < n; i++) {
        uint8_t ba[OFC_BOARD_CARDS], bb[OFC_BOARD_CARDS];
        ofc_board_eval ea, eb;
        ofc_copy_cards(ba, a + OFC_BOARD_CARDS * i, OFC_BOARD_CARDS);
        ofc_copy_cards(bb, b + OFC_BOARD_CARDS * i, OFC_BOARD_CARDS);
        if (OFC_UNLIKELY(ofc_pair_invalid(ba, bb))) {
            if (bad) {
                *bad = i;
            }
            return ofc_pair_error(ba, bb);
        }
        ofc_eval_board_k(rules, ba, &ea);
        ofc_eval_board_k(rules, bb, &eb);
        net[i] = ofc_score_evals_k(rules, &ea, &eb, &ofc_no_context, NULL, 0);
    }
    return OFC_OK;
}

/* What the plain kernel reads, copied out of the rule set once per batch. */
typedef struct ofc_plain {
    const int16_t *royalty[OFC_ROWS];
    const int16_t *win_value[OFC_ROWS];
    int32_t sweep_bonus, majority_bonus;
    uint8_t order_rule, majority_rule;
} ofc_plain;

/* Strengths of a board's three rows. */
static inline void ofc_row_strengths(const uint8_t *c, uint32_t s[3])
{
    s[0] = ofc_rank3_k(c[0], c[1], c[2]);
    s[1] = ofc_rank5_k(c[3], c[4], c[5], c[6], c[7]);
    s[2] = ofc_rank5_k(c[8], c[9], c[10], c[11], c[12]);
}


/* Net points of board a against b under a plain rule set (ofc_rules_plain()): the
 * same arithmetic as ofc_score_evals_k(), on strengths held in registers.
 * `unit_rows` (a constant) = every won row pays exactly 1 (OFC, Pineapple). */
static inline int32_t ofc_pair_net_plain(const ofc_plain *k, const uint8_t *a,
                                         const uint8_t *b, int unit_rows)
{
    uint32_t sa[3], sb[3];
    int32_t fa, fb, any_foul, won_a = 0, won_b = 0, units = 0, royalties, majority;
    int row;
    ofc_row_strengths(a, sa);
    ofc_row_strengths(b, sb);
    fa = (int32_t)ofc_order_fouls(k->order_rule, sa[0], sa[1], sa[2]);
    fb = (int32_t)ofc_order_fouls(k->order_rule, sb[0], sb[1], sb[2]);
    any_foul = fa | fb;
    royalties = ((k->royalty[0][sa[0]] + k->royalty[1][sa[1]] + k->royalty[2][sa[2]]) &
                 (fa - 1)) -
                ((k->royalty[0][sb[0]] + k->royalty[1][sb[1]] + k->royalty[2][sb[2]]) &
                 (fb - 1));
    for (row = 0; row < OFC_ROWS; row++) {
        int32_t o = (int32_t)(sa[row] > sb[row]) - (int32_t)(sa[row] < sb[row]);
        int32_t pos, neg;
        o = any_foul ? fb - fa : o;
        pos = o > 0;
        neg = o < 0;
        units += unit_rows ? pos - neg
                           : pos * k->win_value[row][sa[row]] - neg * k->win_value[row][sb[row]];
        won_a += pos;
        won_b += neg;
    }
    majority = k->majority_rule == OFC_MAJORITY_MORE_ROWS
                   ? (won_a > won_b) - (won_b > won_a)
                   : (won_a >= 2) - (won_b >= 2);
    return units + royalties + ((won_a == OFC_ROWS) - (won_b == OFC_ROWS)) * k->sweep_bonus +
           majority * k->majority_bonus;
}

/* Index of the first invalid pair among n, or n when all are valid; meanwhile
 * prefetches `next` bytes of the next block of a and b (ofc_prefetch_row()). */
static size_t ofc_first_invalid_pair(const uint8_t *a, const uint8_t *b, size_t n,
                                     const uint8_t *next_a, const uint8_t *next_b,
                                     size_t next)
{
    size_t i;
    for (i = 0; i < n; i++) {
        ofc_prefetch_row(next_a, next, i, OFC_BOARD_CARDS);
        ofc_prefetch_row(next_b, next, i, OFC_BOARD_CARDS);
        if (OFC_UNLIKELY(ofc_pair_invalid(a + OFC_BOARD_CARDS * i, b + OFC_BOARD_CARDS * i))) {
            break;
        }
    }
    return i;
}

/* Index of the first invalid pair of n, or n when all are valid (ofc_first_bad_row()
 * for pairs); *status receives its error.  ofc_score_pairs() runs it before writing. */
static size_t ofc_first_bad_pair(const uint8_t *a, const uint8_t *b, size_t n,
                                 int32_t *status)
{
    size_t start;
    for (start = 0; start < n; start += OFC_COPY_BLOCK) {
        uint8_t ba[OFC_BOARD_CARDS * OFC_COPY_BLOCK], bb[OFC_BOARD_CARDS * OFC_COPY_BLOCK];
        size_t m = n - start < OFC_COPY_BLOCK ? n - start : OFC_COPY_BLOCK, valid;
        ofc_copy_cards(ba, a + OFC_BOARD_CARDS * start, OFC_BOARD_CARDS * m);
        ofc_copy_cards(bb, b + OFC_BOARD_CARDS * start, OFC_BOARD_CARDS * m);
        valid = ofc_first_invalid_pair(ba, bb, m, a + OFC_BOARD_CARDS * (start + m),
                                       b + OFC_BOARD_CARDS * (start + m),
                                       ofc_next_block_bytes(start, n, OFC_BOARD_CARDS));
        if (OFC_UNLIKELY(valid < m)) {
            *status = ofc_pair_error(ba + OFC_BOARD_CARDS * valid, bb + OFC_BOARD_CARDS * valid);
            return start + valid;
        }
    }
    return n;
}

/* Validation and scoring run as two short loops over blocks of pairs (copied to a
 * local buffer first): each loop keeps its few values in registers (one fused loop
 * spills). */
#define OFC_PAIR_BLOCK OFC_COPY_BLOCK

/* 1 when every won row pays exactly one unit (scanned once for large batches). */
static int ofc_unit_rows(const ofc_rules *r)
{
    size_t row, s;
    for (row = 0; row < OFC_ROWS; row++) {
        for (s = 0; s < OFC_STRENGTH_TABLE_SIZE; s++) {
            if (r->win_value[row][s] != 1) {
                return 0;
            }
        }
    }
    return 1;
}

/* Scores the pairs of one block of valid pairs. */
static inline void ofc_block_plain(const ofc_plain *k, const uint8_t *a, const uint8_t *b,
                                   size_t m, int32_t *net, int unit_rows)
{
    size_t i;
    for (i = 0; i < m; i++) {
        net[i] = ofc_pair_net_plain(k, a + OFC_BOARD_CARDS * i, b + OFC_BOARD_CARDS * i,
                                    unit_rows);
    }
}

static int32_t ofc_score_pairs_plain(const ofc_rules *rules, const uint8_t *a,
                                     const uint8_t *b, size_t n, int32_t *net, size_t *bad)
{
    ofc_plain k;
    size_t start;
    int row, unit_rows = n >= 4 * OFC_PAIR_BLOCK && ofc_unit_rows(rules);
    for (row = 0; row < OFC_ROWS; row++) {
        k.royalty[row] = rules->royalty[row];
        k.win_value[row] = rules->win_value[row];
    }
    k.sweep_bonus = rules->sweep_bonus;
    k.majority_bonus = rules->majority_bonus;
    k.order_rule = rules->order_rule;
    k.majority_rule = rules->majority_rule;
    for (start = 0; start < n; start += OFC_PAIR_BLOCK) {
        uint8_t ba[OFC_BOARD_CARDS * OFC_PAIR_BLOCK], bb[OFC_BOARD_CARDS * OFC_PAIR_BLOCK];
        size_t m = n - start < OFC_PAIR_BLOCK ? n - start : OFC_PAIR_BLOCK;
        size_t valid;
        ofc_copy_cards(ba, a + OFC_BOARD_CARDS * start, OFC_BOARD_CARDS * m);
        ofc_copy_cards(bb, b + OFC_BOARD_CARDS * start, OFC_BOARD_CARDS * m);
        valid = ofc_first_invalid_pair(ba, bb, m, a + OFC_BOARD_CARDS * (start + m),
                                       b + OFC_BOARD_CARDS * (start + m),
                                       ofc_next_block_bytes(start, n, OFC_BOARD_CARDS));
        if (unit_rows) {
            ofc_block_plain(&k, ba, bb, valid, net + start, 1);
        } else {
            ofc_block_plain(&k, ba, bb, valid, net + start, 0);
        }
        if (valid < m) {
            if (bad) {
                *bad = start + valid;
            }
            return ofc_pair_error(ba + OFC_BOARD_CARDS * valid, bb + OFC_BOARD_CARDS * valid);
        }
    }
    return OFC_OK;
}

/* Check and evaluate a pair, then score it; ea and eb receive the evaluations. */
static int32_t ofc_score_pair_k(const ofc_rules *rules, const uint8_t *a, const uint8_t *b,
                                ofc_board_eval *ea, ofc_board_eval *eb, ofc_pair_score *out)
{
    uint8_t ca[OFC_BOARD_CARDS], cb[OFC_BOARD_CARDS];
    int32_t status;
    ofc_copy_cards(ca, a, OFC_BOARD_CARDS);
    ofc_copy_cards(cb, b, OFC_BOARD_CARDS);
    status = ofc_pair_check(ca, cb);
    if (status != OFC_OK) {
        return status;
    }
    ofc_eval_board_k(rules, ca, ea);
    ofc_eval_board_k(rules, cb, eb);
    ofc_score_evals_k(rules, ea, eb, &ofc_no_context, out, 0);
    return OFC_OK;
}

int32_t ofc_score_boards(const ofc_rules *rules, const uint8_t a[13], const uint8_t b[13],
                         ofc_pair_score *out)
{
    ofc_board_eval ea, eb;
    if (!ofc_rules_scalars_ok(rules)) {
        return OFC_E_RULES;
    }
    if (!a || !b || !out) {
        return OFC_E_VALUE;
    }
    return ofc_score_pair_k(rules, a, b, &ea, &eb, out);
}

int32_t ofc_score_boards_detail(const ofc_rules *rules, const uint8_t cards[26],
                                ofc_pair_detail *out)
{
    ofc_board_eval ea, eb;
    ofc_pair_score score;
    int32_t status;
    if (!ofc_rules_scalars_ok(rules)) {
        return OFC_E_RULES;
    }
    if (!cards || !out) {
        return OFC_E_VALUE;
    }
    status = ofc_score_pair_k(rules, cards, cards + OFC_BOARD_CARDS, &ea, &eb, &score);
    if (status == OFC_OK) {
        out->score = score;
        out->a = ea;
        out->b = eb;
    }
    return status;
}

int32_t ofc_score_pairs(const ofc_rules *rules, const uint8_t *a, const uint8_t *b,
                        size_t n, int32_t *net, size_t *bad)
{
    size_t first;
    int32_t status = OFC_OK;
    const ofc_span in[3] = {ofc_rows(a, n, OFC_BOARD_CARDS), ofc_rows(b, n, OFC_BOARD_CARDS),
                            {rules, sizeof *rules}};
    if (!ofc_rules_scalars_ok(rules)) {
        return OFC_E_RULES;
    }
    if (n && (!a || !b || !net || ofc_rows_over_any(net, n, sizeof *net, in, 3))) {
        return OFC_E_VALUE;
    }
    first = ofc_first_bad_pair(a, b, n, &status);
    if (OFC_UNLIKELY(first < n)) { /* a bad pair writes nothing */
        if (bad) {
            *bad = first;
        }
        return status;
    }
    return ofc_rules_plain(rules) ? ofc_score_pairs_plain(rules, a, b, n, net, bad)
                                  : ofc_score_pairs_general(rules, a, b, n, net, bad);
}
