/* test_status.c -- ofc_status_string(): every status code of every public header has
 * its own message, none of them the fallback for unknown values.
 *
 * Built by tests/c/run.sh (plain, ASan + UBSan, TSan).  The list below is written
 * out by hand on purpose; tests/test_native.py checks from the Python side that
 * every OFC_E_* defined in csrc/include/ofc_*.h has a message of its own, so a code added to
 * a header without a message fails there. */
#include <stdio.h>
#include <string.h>

#include "ofc_fast.h"
#include "ofc_model.h"
#include "ofc_search.h"
#include "ofc_vecenv.h"

#include "check.h"

static const int32_t codes[] = {
    OFC_OK, OFC_E_CARD, OFC_E_DUPLICATE, OFC_E_COUNT, OFC_E_STRENGTH, OFC_E_RULES,
    OFC_E_MEMORY, OFC_E_VALUE, OFC_E_SEAT, OFC_E_MAX_PLAYERS, OFC_E_SURRENDER,
    OFC_E_CONFLICT, OFC_E_NO_NATURALS, OFC_E_NATURAL, OFC_E_HIDDEN, OFC_E_STACKS,
    OFC_E_GAME_OVER, OFC_E_NOT_DEALT, OFC_E_ROW_FULL, OFC_E_DISCARDS, OFC_E_ACTION,
    OFC_E_FULL_SET, OFC_E_NOT_CLASSIC, OFC_E_SEATS, OFC_E_DECK, OFC_E_DESTINATION,
    OFC_E_NOT_OVER, OFC_E_BUDGET, OFC_E_MODEL_MAGIC, OFC_E_MODEL_VERSION,
    OFC_E_MODEL_TRUNCATED, OFC_E_MODEL_CHECKSUM, OFC_E_MODEL_SHAPE, OFC_E_MODEL_VALUE,
    OFC_E_MODEL_NO_NET, OFC_E_NO_DECISION, OFC_E_STATE,
};

int main(void)
{
    const size_t n = sizeof codes / sizeof codes[0];
    const char *unknown = ofc_status_string(12345);
    size_t i, j;
    (void)test_cards; /* check.h's card parser: not needed here */
    CHECK(strcmp(unknown, "unknown status code") == 0);
    CHECK(strcmp(ofc_status_string(-9999), unknown) == 0);
    CHECK(strcmp(ofc_status_string(INT32_MIN), unknown) == 0);
    CHECK(strcmp(ofc_status_string(INT32_MAX), unknown) == 0);
    CHECK(strcmp(ofc_status_string(OFC_E_CARD), "card id outside 0..51") == 0);
    CHECK(strncmp(ofc_status_string(OFC_E_NO_DECISION), "1000 deals in a row", 19) == 0);
    for (i = 0; i < n; i++) {
        const char *text = ofc_status_string(codes[i]);
        CHECK(text != NULL && strlen(text) >= 7);
        CHECK(strcmp(text, unknown) != 0);
        for (j = 0; j < i; j++) {
            if (codes[j] == codes[i] || strcmp(ofc_status_string(codes[j]), text) == 0) {
                fprintf(stderr, "codes %d and %d: same code or message\n",
                        (int)codes[i], (int)codes[j]);
                CHECK(0);
            }
        }
    }
    if (failures) {
        fprintf(stderr, "test_status: %d of %d checks FAILED\n", failures, checks);
        return 1;
    }
    printf("test_status: all %d checks passed\n", checks);
    return 0;
}
