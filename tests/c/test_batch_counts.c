/* test_batch_counts.c -- the batch functions refuse a count n whose rows' size
 * overflows size_t (n x a row's bytes) when an output lies past its input: the
 * overlap check saturates that size (ofc_rows_over_any()), where a wrapped product
 * (a few bytes) let the output pass as apart from the input.  ofc_apply_stakes() likewise:
 * n transfers of 4 bytes whose size wraps, the capped transfers laid past the amounts
 * (or before the pairs) they are computed from.
 *
 * Built by tests/c/run.sh (plain, ASan + UBSan, TSan).  The tables and rows lie in one
 * object, the tables first, so only the input rows' size decides the check. */
#include <stdint.h>
#include <stdio.h>

#include "ofc_fast.h"
#include "ofc_heuristic.h"
#include "ofc_solver.h"

#include "check.h"

static struct {
    ofc_rules rules;
    ofc_fl_rules fl;
    ofc_heur_model model;
    ofc_ev_tables ev;
    double rows[16]; /* the input rows at rows, an output 32 bytes on */
} w;

/* A count of rows of `width` bytes whose size wraps to less than 2 x width (< 32). */
static size_t wrapping(size_t width) { return SIZE_MAX / width + 2; }

int main(void)
{
    uint8_t *cards = (uint8_t *)w.rows;
    void *past = (uint8_t *)w.rows + 32;
    size_t n13 = wrapping(13);
    (void)test_cards;
    ofc_rules_init_ofc(&w.rules);
    CHECK_EQ(ofc_fl_rules_init_standard(&w.fl, 14), OFC_OK);
    CHECK_EQ(ofc_ev_tables_init(&w.rules, &w.ev), OFC_OK);
    CHECK_EQ(ofc_rank5_batch(cards, wrapping(5), (int32_t *)past, NULL), OFC_E_VALUE);
    CHECK_EQ(ofc_rank3_batch(cards, wrapping(3), (int32_t *)past, NULL), OFC_E_VALUE);
    CHECK_EQ(ofc_eval_boards(&w.rules, cards, n13, (int32_t *)past, NULL, NULL, NULL),
             OFC_E_VALUE);
    CHECK_EQ(ofc_eval_boards(&w.rules, cards, n13, NULL, NULL, (uint8_t *)past, NULL),
             OFC_E_VALUE);
    CHECK_EQ(ofc_score_pairs(&w.rules, cards, cards, n13, (int32_t *)past, NULL),
             OFC_E_VALUE);
    CHECK_EQ(ofc_heur_values(&w.rules, &w.fl, &w.model, cards, n13, 0, (double *)past, NULL),
             OFC_E_VALUE);
    CHECK_EQ(ofc_best_settings(&w.rules, &w.ev, cards, n13, OFC_OBJECTIVE_ROYALTIES,
                               cards + 26, NULL, NULL),
             OFC_E_VALUE);
    CHECK_EQ(ofc_best_settings(&w.rules, &w.ev, cards, n13, OFC_OBJECTIVE_ROYALTIES, NULL,
                               (double *)past, NULL),
             OFC_E_VALUE);
    {
        /* Regression: ofc_apply_stakes() given such a count passed its overlap check
         * (n x 4 bytes wrapped to 4) and read past the transfers until it crashed. */
        const int32_t stacks[2] = {100, 100};
        int32_t *amount = (int32_t *)(void *)w.rows;
        const uint8_t(*pairs)[2] = (const uint8_t(*)[2])(const void *)(amount + 2);
        CHECK_EQ(ofc_apply_stakes(OFC_STAKES_WIN_CAP, stacks, 2, pairs, amount, wrapping(4),
                                  amount + 2),
                 OFC_E_VALUE); /* actual 8 bytes past amount */
        CHECK_EQ(ofc_apply_stakes(OFC_STAKES_CHIPS, stacks, 2, pairs, amount + 4, wrapping(4),
                                  amount),
                 OFC_E_VALUE); /* actual 8 bytes before pairs */
    }
    if (failures) {
        fprintf(stderr, "test_batch_counts: %d of %d checks failed\n", failures, checks);
        return 1;
    }
    printf("test_batch_counts: all %d checks passed\n", checks);
    return 0;
}
