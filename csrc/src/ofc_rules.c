/* ofc_rules.c -- the two built-in rule sets of the C API and the range check. */
#include <string.h>

#include "ofc_internal.h"

/* Fills every 5-card entry of a row table from a value per category. */
static void ofc_fill_by_category(int16_t table[OFC_STRENGTH_TABLE_SIZE],
                                 const int16_t per_category[10])
{
    uint32_t s;
    for (s = 1; s <= OFC_STRENGTH_MAX; s++) {
        if (!ofc_is_three((uint16_t)s)) {
            table[s] = per_category[ofc_info_category((uint16_t)s)];
        }
    }
}

static void ofc_rules_clear(ofc_rules *r)
{
    uint32_t s;
    int row;
    memset(r, 0, sizeof *r);
    r->sweep_multiplier = 1;
    r->sweep_all_multiplier = 1;
    r->foul_pays_sweep = 1;
    for (row = 0; row < OFC_ROWS; row++) {
        for (s = 0; s < OFC_STRENGTH_TABLE_SIZE; s++) {
            r->win_value[row][s] = 1;
        }
    }
}

int32_t ofc_rules_init_ofc(ofc_rules *rules)
{
    /* R-ROY-OFC-3: back / middle royalties by category, middle trips 2. */
    static const int16_t back[10] = {0, 0, 0, 0, 2, 4, 6, 10, 15, 25};
    static const int16_t middle[10] = {0, 0, 0, 2, 4, 8, 12, 20, 30, 50};
    uint32_t s;
    if (!rules) {
        return OFC_E_RULES;
    }
    ofc_rules_clear(rules);
    ofc_fill_by_category(rules->royalty[OFC_BACK], back);
    ofc_fill_by_category(rules->royalty[OFC_MIDDLE], middle);
    /* R-ROY-OFC-4: front pair 66 = 1 .. AA = 9, trips 222 = 10 .. AAA = 22. */
    for (s = 1; s <= OFC_STRENGTH_MAX; s++) {
        uint32_t cat = ofc_info_category((uint16_t)s), rank = ofc_info_lead((uint16_t)s);
        if (!ofc_is_three((uint16_t)s)) {
            continue;
        }
        if (cat == OFC_TRIPS) {
            rules->royalty[OFC_FRONT][s] = (int16_t)(10 + rank);
        } else if (cat == OFC_ONE_PAIR && rank >= 4) {
            rules->royalty[OFC_FRONT][s] = (int16_t)(rank - 3);
        }
    }
    rules->sweep_bonus = 3;
    return OFC_OK;
}

int32_t ofc_rules_init_classic(ofc_rules *rules, int32_t majority)
{
    /* R-BON-CP-2: units for a row won with the hand (1 otherwise). */
    static const int16_t back[10] = {1, 1, 1, 1, 1, 1, 1, 4, 5, 5};
    static const int16_t middle[10] = {1, 1, 1, 1, 1, 1, 2, 4, 5, 5};
    uint32_t s;
    if (!rules) {
        return OFC_E_RULES;
    }
    ofc_rules_clear(rules);
    ofc_fill_by_category(rules->win_value[OFC_BACK], back);
    ofc_fill_by_category(rules->win_value[OFC_MIDDLE], middle);
    for (s = 1; s <= OFC_STRENGTH_MAX; s++) {
        if (ofc_is_three((uint16_t)s) && ofc_info_category((uint16_t)s) == OFC_TRIPS) {
            rules->win_value[OFC_FRONT][s] = 3;
        }
    }
    if (majority) {
        rules->majority_bonus = 1;
    } else {
        rules->sweep_bonus = 3;
    }
    return OFC_OK;
}

int32_t ofc_rules_check(const ofc_rules *rules)
{
    uint32_t s;
    int row;
    if (!ofc_rules_scalars_ok(rules)) {
        return OFC_E_RULES;
    }
    for (row = 0; row < OFC_ROWS; row++) {
        for (s = 0; s < OFC_STRENGTH_TABLE_SIZE; s++) {
            if (rules->win_value[row][s] < 0) {
                return OFC_E_RULES;
            }
        }
    }
    return OFC_OK;
}
