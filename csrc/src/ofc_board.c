/* ofc_board.c -- whole-board evaluation: row strengths, foul check, royalties. */
#include "ofc_internal.h"

void ofc_eval_board_unchecked(const ofc_rules *rules, const uint8_t cards[13],
                              ofc_board_eval *out)
{
    ofc_eval_board_k(rules, cards, out);
}

/* Copies a board to `board` and validates the copy: OFC_OK, OFC_E_CARD or
 * OFC_E_DUPLICATE. */
static inline int32_t ofc_board_copy_check(uint8_t board[13], const uint8_t *src)
{
    ofc_copy_cards(board, src, OFC_BOARD_CARDS);
    if (OFC_UNLIKELY(ofc_cards_invalid(board, OFC_BOARD_CARDS, 0))) {
        return ofc_cards_error(board, OFC_BOARD_CARDS);
    }
    return OFC_OK;
}

int32_t ofc_eval_board(const ofc_rules *rules, const uint8_t cards[13], ofc_board_eval *out)
{
    uint8_t board[OFC_BOARD_CARDS];
    int32_t status;
    if (!ofc_rules_scalars_ok(rules)) {
        return OFC_E_RULES;
    }
    if (!cards || !out) {
        return OFC_E_VALUE;
    }
    status = ofc_board_copy_check(board, cards);
    if (status == OFC_OK) {
        ofc_eval_board_k(rules, board, out);
    }
    return status;
}

int32_t ofc_is_foul(const ofc_rules *rules, const uint16_t strength[3])
{
    uint16_t s[OFC_ROWS];
    int row;
    if (!ofc_rules_scalars_ok(rules)) {
        return OFC_E_RULES;
    }
    if (!strength) {
        return OFC_E_VALUE;
    }
    for (row = 0; row < OFC_ROWS; row++) {
        int32_t want = (int32_t)ofc_row_size((uint32_t)row);
        s[row] = strength[row];
        if (ofc_strength_cards(s[row]) != want) {
            return OFC_E_STRENGTH;
        }
    }
    return ofc_foul_k(rules, s);
}

int32_t ofc_row_value(const ofc_rules *rules, uint32_t row, uint16_t strength)
{
    if (!ofc_rules_scalars_ok(rules)) {
        return OFC_E_RULES;
    }
    if (row >= OFC_ROWS) {
        return OFC_E_VALUE;
    }
    if (ofc_strength_cards(strength) != (int32_t)ofc_row_size(row)) {
        return OFC_E_STRENGTH;
    }
    return (int32_t)ofc_row_key(rules, (int)row, strength);
}

/* Evaluates m valid-or-not boards of a copied block into the outputs at row `first`;
 * returns the index in the block of the first bad board (m when none) and its error.
 * Meanwhile prefetches `next_bytes` of the next block (ofc_prefetch_row()). */
static size_t ofc_eval_block(const ofc_rules *rules, const uint8_t *block, size_t m,
                             size_t first, int32_t *strength, int32_t *royalty,
                             uint8_t *foul, int32_t *status, const uint8_t *next,
                             size_t next_bytes)
{
    size_t i;
    int row;
    for (i = 0; i < m; i++) {
        const uint8_t *board = block + OFC_BOARD_CARDS * i;
        size_t at = first + i;
        ofc_board_eval e;
        ofc_prefetch_row(next, next_bytes, i, OFC_BOARD_CARDS);
        if (OFC_UNLIKELY(ofc_cards_invalid(board, OFC_BOARD_CARDS, 0))) {
            *status = ofc_cards_error(board, OFC_BOARD_CARDS);
            return i;
        }
        ofc_eval_board_k(rules, board, &e);
        for (row = 0; row < OFC_ROWS; row++) {
            if (strength) {
                strength[OFC_ROWS * at + row] = e.strength[row];
            }
            if (royalty) {
                royalty[OFC_ROWS * at + row] = e.royalty[row];
            }
        }
        if (foul) {
            foul[at] = e.foul;
        }
    }
    return m;
}

int32_t ofc_eval_boards(const ofc_rules *rules, const uint8_t *cards, size_t n,
                        int32_t *strength, int32_t *royalty, uint8_t *foul, size_t *bad)
{
    size_t start;
    int32_t first_status = OFC_OK;
    const ofc_span in[2] = {ofc_rows(cards, n, OFC_BOARD_CARDS), {rules, sizeof *rules}};
    if (!ofc_rules_scalars_ok(rules)) {
        return OFC_E_RULES;
    }
    if (n && (!cards || ofc_rows_over_any(strength, n, 3 * sizeof *strength, in, 2) ||
              ofc_rows_over_any(royalty, n, 3 * sizeof *royalty, in, 2) ||
              ofc_rows_over_any(foul, n, 1, in, 2))) {
        return OFC_E_VALUE;
    }
    start = ofc_first_bad_row(cards, n, OFC_BOARD_CARDS, &first_status);
    if (OFC_UNLIKELY(start < n)) { /* a bad board writes nothing */
        if (bad) {
            *bad = start;
        }
        return first_status;
    }
    for (start = 0; start < n; start += OFC_COPY_BLOCK) {
        uint8_t block[OFC_BOARD_CARDS * OFC_COPY_BLOCK];
        size_t m = n - start < OFC_COPY_BLOCK ? n - start : OFC_COPY_BLOCK, done;
        int32_t status = OFC_OK;
        ofc_copy_cards(block, cards + OFC_BOARD_CARDS * start, OFC_BOARD_CARDS * m);
        done = ofc_eval_block(rules, block, m, start, strength, royalty, foul, &status,
                              cards + OFC_BOARD_CARDS * (start + m),
                              ofc_next_block_bytes(start, n, OFC_BOARD_CARDS));
        if (OFC_UNLIKELY(done < m)) {
            if (bad) {
                *bad = start + done;
            }
            return status;
        }
    }
    return OFC_OK;
}
