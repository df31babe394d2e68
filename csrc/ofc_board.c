/* ofc_board.c -- whole-board evaluation: row strengths, foul check, royalties. */
#include "ofc_internal.h"

void ofc_eval_board_unchecked(const ofc_rules *rules, const uint8_t cards[13],
                              ofc_board_eval *out)
{
    ofc_eval_board_k(rules, cards, out);
}

int32_t ofc_eval_board(const ofc_rules *rules, const uint8_t cards[13], ofc_board_eval *out)
{
    if (ofc_cards_invalid(cards, OFC_BOARD_CARDS, 0)) {
        return ofc_cards_error(cards, OFC_BOARD_CARDS);
    }
    ofc_eval_board_k(rules, cards, out);
    return OFC_OK;
}

int32_t ofc_is_foul(const ofc_rules *rules, const uint16_t strength[3])
{
    int row;
    for (row = 0; row < OFC_ROWS; row++) {
        int32_t want = row == OFC_FRONT ? 3 : 5;
        if (ofc_strength_cards(strength[row]) != want) {
            return OFC_E_STRENGTH;
        }
    }
    return ofc_foul_k(rules, strength);
}

int32_t ofc_eval_boards(const ofc_rules *rules, const uint8_t *cards, size_t n,
                        int32_t *strength, int32_t *royalty, uint8_t *foul, size_t *bad)
{
    size_t i;
    int row;
    for (i = 0; i < n; i++) {
        const uint8_t *board = cards + OFC_BOARD_CARDS * i;
        ofc_board_eval e;
        if (OFC_UNLIKELY(ofc_cards_invalid(board, OFC_BOARD_CARDS, 0))) {
            if (bad) {
                *bad = i;
            }
            return ofc_cards_error(board, OFC_BOARD_CARDS);
        }
        ofc_eval_board_k(rules, board, &e);
        for (row = 0; row < OFC_ROWS; row++) {
            if (strength) {
                strength[OFC_ROWS * i + row] = e.strength[row];
            }
            if (royalty) {
                royalty[OFC_ROWS * i + row] = e.royalty[row];
            }
        }
        if (foul) {
            foul[i] = e.foul;
        }
    }
    return OFC_OK;
}
