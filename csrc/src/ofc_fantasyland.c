/* ofc_fantasyland.c -- the Fantasyland rule API (see ofc_solver.h): the standard
 * rules, their check, and the cards of the next Fantasyland after a board.  The entry
 * and stay rule itself is ofc_internal_solve.h (shared with the solvers and the
 * heuristic). */
#include <string.h>

#include "ofc_internal.h"
#include "ofc_internal_solve.h"
#include "ofc_solver.h"

int32_t ofc_fl_rules_init_standard(ofc_fl_rules *fl, int32_t cards)
{
    if (!fl || cards < 13 || cards > 17) {
        return OFC_E_VALUE;
    }
    memset(fl, 0, sizeof *fl);
    fl->enabled = 1;
    fl->stay_cards = (uint8_t)cards;
    fl->n_entry = 1;
    fl->entry_front[0] = ofc_rank3_k(40, 41, 2);          /* Qc Qd 2h */
    fl->entry_cards[0] = (uint8_t)cards;
    fl->stay_front = ofc_rank3_k(0, 1, 2);                /* 2c 2d 2h */
    fl->stay_middle = ofc_rank5_k(0, 1, 2, 4, 5);         /* 2 2 2 3 3 */
    fl->stay_back = ofc_rank5_k(0, 1, 2, 3, 4);           /* 2 2 2 2 3 */
    return OFC_OK;
}

int32_t ofc_fl_rules_check(const ofc_fl_rules *fl)
{
    int i;
    if (!fl || fl->enabled > 1 || fl->n_entry > OFC_FL_MAX_ENTRY ||
        fl->stay_front > OFC_STRENGTH_MAX || fl->stay_middle > OFC_STRENGTH_MAX ||
        fl->stay_back > OFC_STRENGTH_MAX ||
        !ofc_reserved_zero(fl->reserved, sizeof fl->reserved)) {
        return OFC_E_RULES;
    }
    if (!(fl->stay_cards <= OFC_FL_STAY_ENTRY ||
          (fl->stay_cards >= 13 && fl->stay_cards <= 17))) {
        return OFC_E_RULES;
    }
    if ((fl->lowball_entry && (fl->lowball_entry < 13 || fl->lowball_entry > 17)) ||
        (fl->lowball_both && (fl->lowball_both < 13 || fl->lowball_both > 17))) {
        return OFC_E_RULES;
    }
    for (i = 0; i < fl->n_entry; i++) {
        if (fl->entry_cards[i] < 13 || fl->entry_cards[i] > 17 ||
            fl->entry_front[i] > OFC_STRENGTH_MAX) {
            return OFC_E_RULES;
        }
    }
    return OFC_OK;
}

int32_t ofc_fl_next_cards(const ofc_rules *rules, const ofc_fl_rules *fl_in,
                          const uint8_t board[13], uint32_t in_fl_cards)
{
    ofc_fl_rules fl_copy;
    const ofc_fl_rules *fl = fl_in ? &fl_copy : NULL;
    ofc_board_eval e;
    int32_t status;
    int lowball;
    if (fl_in) { /* read once, then checked and used */
        ofc_copy_cards((uint8_t *)&fl_copy, (const uint8_t *)fl_in, sizeof fl_copy);
    }
    if (!ofc_rules_scalars_ok(rules) || (fl && ofc_fl_rules_check(fl) != OFC_OK)) {
        return OFC_E_RULES;
    }
    if (in_fl_cards != 0 && (in_fl_cards < 13 || in_fl_cards > 17)) {
        return OFC_E_COUNT;
    }
    if (!board) {
        return OFC_E_COUNT;
    }
    status = ofc_eval_board(rules, board, &e);
    if (status != OFC_OK) {
        return status;
    }
    if (e.foul) {
        return 0;
    }
    lowball = rules->middle_lowball != 0;
    return ofc_fl_next_k(fl, lowball, (int)in_fl_cards, e.strength);
}

