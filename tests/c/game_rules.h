/* game_rules.h -- the rule sets the C tests of csrc/include/ofc_game.h play
 * (tests/c/test_game.c, tests/c/test_game_state.c): Pineapple, OFC for up to 4 seats
 * with 3 cards face down, classic with surrender, and Pineapple whose Fantasyland stays
 * with 15 cards.  Static inline: a test uses the ones it needs. */
#ifndef OFC_TEST_GAME_RULES_H
#define OFC_TEST_GAME_RULES_H

#include <string.h>

#include "ofc_fast.h"

#include "check.h"

static inline void game_rules_setup(ofc_game_rules *pineapple, ofc_game_rules *ofc_r,
                                    ofc_game_rules *classic, ofc_game_rules *progressive)
{
    CHECK_EQ(ofc_game_rules_init_pineapple(pineapple), OFC_OK);
    *ofc_r = *pineapple;
    ofc_r->kind = OFC_KIND_OFC;
    ofc_r->max_players = 4;
    ofc_r->face_down_final = 3;
    *classic = *pineapple;
    classic->kind = OFC_KIND_CLASSIC;
    classic->max_players = 4;
    memset(&classic->fl, 0, sizeof classic->fl);
    ofc_rules_init_classic(&classic->scoring, 0);
    classic->table.surrender_cost = 1;
    *progressive = *pineapple;
    progressive->fl.stay_cards = 15;
    CHECK_EQ(ofc_game_rules_check(ofc_r), OFC_OK);
    CHECK_EQ(ofc_game_rules_check(classic), OFC_OK);
}

#endif /* OFC_TEST_GAME_RULES_H */
