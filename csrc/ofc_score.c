/* ofc_score.c -- pairwise scoring of two evaluated boards, single and batch. */
#include "ofc_internal.h"

static const ofc_pair_context ofc_no_context = {0, 0, 0, 0};

/* +1 when a wins the row, -1 when b wins it, else `ties` (fouls decide first). */
static inline int32_t ofc_row_outcome(const ofc_rules *r, const ofc_board_eval *a,
                                      const ofc_board_eval *b, int row, int32_t ties)
{
    uint32_t ka, kb;
    if (a->foul || b->foul) {
        return (int32_t)b->foul - (int32_t)a->foul;
    }
    ka = ofc_row_key(r, row, a->strength[row]);
    kb = ofc_row_key(r, row, b->strength[row]);
    return ka != kb ? (int32_t)(ka > kb) - (int32_t)(ka < kb) : ties;
}

/* Sweep and majority units for a side that won `won` rows and lost `lost`. */
static inline int32_t ofc_side_bonus(const ofc_rules *r, int32_t won, int32_t lost)
{
    int32_t bonus = won == OFC_ROWS ? r->sweep_bonus : 0;
    int32_t majority = r->majority_rule == OFC_MAJORITY_MORE_ROWS ? won > lost : won >= 2;
    return bonus + (majority ? r->majority_bonus : 0);
}

/* Multiplies a swept pair's units and adds the sweep-all bonus (signed for a). */
static inline void ofc_apply_sweep(const ofc_rules *r, int32_t sign, uint8_t swept_all,
                                   int32_t *units, int32_t *bonus)
{
    int32_t m = swept_all ? r->sweep_all_multiplier : r->sweep_multiplier;
    *units *= m;
    *bonus *= m;
    if (swept_all) {
        *bonus += sign * r->sweep_all_bonus;
    }
}

int32_t ofc_score_evals(const ofc_rules *rules, const ofc_board_eval *a,
                        const ofc_board_eval *b, const ofc_pair_context *ctx,
                        ofc_pair_score *detail)
{
    int32_t won_a = 0, won_b = 0, units = 0, bonus = 0, royalties, net;
    int8_t rows[OFC_ROWS] = {0, 0, 0};
    int row;
    int any_foul = a->foul || b->foul;
    if (!ctx) {
        ctx = &ofc_no_context;
    }
    if (!(a->foul && b->foul)) {
        for (row = 0; row < OFC_ROWS; row++) {
            int32_t o = ofc_row_outcome(rules, a, b, row, ctx->ties);
            rows[row] = (int8_t)o;
            if (o > 0) {
                units += rules->win_value[row][a->strength[row]];
                won_a++;
            } else if (o < 0) {
                units -= rules->win_value[row][b->strength[row]];
                won_b++;
            }
        }
    }
    if (!any_foul || rules->foul_pays_sweep) {
        bonus = ofc_side_bonus(rules, won_a, won_b) - ofc_side_bonus(rules, won_b, won_a);
        if (won_a == OFC_ROWS) {
            ofc_apply_sweep(rules, 1, ctx->a_sweeps_all, &units, &bonus);
        } else if (won_b == OFC_ROWS) {
            ofc_apply_sweep(rules, -1, ctx->b_sweeps_all, &units, &bonus);
        }
    }
    royalties = (a->royalty[0] + a->royalty[1] + a->royalty[2]) -
                (b->royalty[0] + b->royalty[1] + b->royalty[2]);
    net = units + bonus + royalties;
    if (net != 0 && rules->overall_bonus != 0) {
        int32_t extra = net > 0 ? rules->overall_bonus : -rules->overall_bonus;
        bonus += extra;
        net += extra;
    }
    if (detail) {
        detail->net = net;
        for (row = 0; row < OFC_ROWS; row++) {
            detail->rows[row] = rows[row];
        }
        detail->sweep = (int8_t)((won_a == OFC_ROWS) - (won_b == OFC_ROWS));
        detail->row_points = units;
        detail->bonus = bonus;
        detail->royalties = royalties;
    }
    return net;
}

/* Validates the 26 cards of a pair; OFC_OK or the error. */
static int32_t ofc_pair_check(const uint8_t a[13], const uint8_t b[13])
{
    uint64_t taken, seen = 0;
    uint32_t invalid = ofc_cards_mask(a, OFC_BOARD_CARDS, 0, &taken);
    invalid |= ofc_cards_invalid(b, OFC_BOARD_CARDS, taken);
    if (OFC_LIKELY(!invalid)) {
        return OFC_OK;
    }
    if (ofc_check_cards(a, OFC_BOARD_CARDS, &seen) != OFC_OK) {
        return ofc_cards_error(a, OFC_BOARD_CARDS);
    }
    return ofc_check_cards(b, OFC_BOARD_CARDS, &seen);
}

int32_t ofc_score_boards(const ofc_rules *rules, const uint8_t a[13], const uint8_t b[13],
                         ofc_pair_score *out)
{
    ofc_board_eval ea, eb;
    int32_t status = ofc_pair_check(a, b);
    if (status != OFC_OK) {
        return status;
    }
    ofc_eval_board_unchecked(rules, a, &ea);
    ofc_eval_board_unchecked(rules, b, &eb);
    ofc_score_evals(rules, &ea, &eb, NULL, out);
    return OFC_OK;
}

int32_t ofc_score_pairs(const ofc_rules *rules, const uint8_t *a, const uint8_t *b,
                        size_t n, int32_t *net, size_t *bad)
{
    size_t i;
    for (i = 0; i < n; i++) {
        const uint8_t *ba = a + OFC_BOARD_CARDS * i, *bb = b + OFC_BOARD_CARDS * i;
        ofc_board_eval ea, eb;
        int32_t status = ofc_pair_check(ba, bb);
        if (OFC_UNLIKELY(status != OFC_OK)) {
            if (bad) {
                *bad = i;
            }
            return status;
        }
        ofc_eval_board_unchecked(rules, ba, &ea);
        ofc_eval_board_unchecked(rules, bb, &eb);
        net[i] = ofc_score_evals(rules, &ea, &eb, NULL, NULL);
    }
    return OFC_OK;
}
