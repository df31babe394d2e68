/* ofc_heuristic.c -- board-value kernels of the heuristic bot (see ofc_heuristic.h). */
#include <math.h>
#include <string.h>

#include "ofc_heuristic.h"
#include "ofc_internal.h"
#include "ofc_internal_solve.h"
#include "ofc_rng.h"

/* M(x) of the header: the chance of a majority (two rows or more, by the model). */
static double majority_share(double a, double b, double c)
{
    return a * b + a * c + b * c - 2.0 * a * b * c;
}

/* The value of a board with row strengths s (front 3-card, middle and back 5-card). */
static double strengths_value(const ofc_rules *rules, const ofc_fl_rules *fl,
                              const ofc_heur_model *m, int lowball, int in_fl,
                              const uint16_t s[3])
{
    const ofc_heur_row *f, *mid, *back;
    double v;
    if (ofc_foul_k(rules, s)) {
        return m->foul_value;
    }
    f = &m->row[OFC_FRONT][s[0]];
    mid = &m->row[OFC_MIDDLE][s[1]];
    back = &m->row[OFC_BACK][s[2]];
    v = (double)f->value + (double)mid->value + (double)back->value;
    if (m->sweep != 0.0) {
        v += m->sweep * ((double)f->win * mid->win * back->win -
                         (double)f->lose * mid->lose * back->lose);
    }
    if (m->majority != 0.0) {
        v += m->majority * (majority_share(f->win, mid->win, back->win) -
                            majority_share(f->lose, mid->lose, back->lose));
    }
    if (fl != NULL) {
        v += m->fl_value[ofc_fl_next_k(fl, lowball, in_fl, s)];
    }
    return v;
}

/* The value of one board of 13 valid distinct cards. */
static double board_value(const ofc_rules *rules, const ofc_fl_rules *fl,
                          const ofc_heur_model *m, int lowball, int in_fl,
                          const uint8_t b[13])
{
    uint16_t s[3];
    s[0] = ofc_rank3_k(b[0], b[1], b[2]);
    s[1] = ofc_rank5_k(b[3], b[4], b[5], b[6], b[7]);
    s[2] = ofc_rank5_k(b[8], b[9], b[10], b[11], b[12]);
    return strengths_value(rules, fl, m, lowball, in_fl, s);
}

/* Common argument checks; fl becomes NULL when it has no Fantasyland. */
static int32_t check_common(const ofc_rules *rules, const ofc_fl_rules **fl,
                            uint32_t in_fl)
{
    if (!ofc_rules_scalars_ok(rules) || (*fl && ofc_fl_rules_check(*fl) != OFC_OK)) {
        return OFC_E_RULES;
    }
    if (in_fl != 0 && (in_fl < 13 || in_fl > 17)) {
        return OFC_E_COUNT;
    }
    if (!ofc_fl_on(*fl)) {
        *fl = NULL;
    }
    return OFC_OK;
}

static int finite_double(double x) { return x == x && x - x == 0.0; }

int32_t ofc_heur_model_check(const ofc_heur_model *m)
{
    size_t row, s, k;
    if (!m || !finite_double(m->sweep) || !finite_double(m->majority) ||
        !finite_double(m->foul_value)) {
        return OFC_E_VALUE;
    }
    for (k = 0; k < OFC_HEUR_FL_VALUES; k++) {
        if (!finite_double(m->fl_value[k])) {
            return OFC_E_VALUE;
        }
    }
    for (row = 0; row < OFC_ROWS; row++) {
        for (s = 0; s < OFC_STRENGTH_TABLE_SIZE; s++) {
            const ofc_heur_row *r = &m->row[row][s];
            if (!finite_double(r->value) || !finite_double(r->win) ||
                !finite_double(r->lose) ||
                !ofc_reserved_zero((const uint8_t *)&r->reserved, sizeof r->reserved)) {
                return OFC_E_VALUE;
            }
        }
    }
    return OFC_OK;
}

int32_t ofc_heur_values(const ofc_rules *rules, const ofc_fl_rules *fl,
                        const ofc_heur_model *m, const uint8_t *boards, size_t n,
                        uint32_t in_fl, double *out, size_t *bad)
{
    size_t start, j;
    int lowball;
    const ofc_span in[4] = {ofc_rows(boards, n, OFC_BOARD_CARDS),
                            {rules, sizeof *rules},
                            {fl, sizeof *fl},
                            {m, sizeof *m}};
    int32_t status = check_common(rules, &fl, in_fl);
    if (status != OFC_OK) {
        return status;
    }
    if (n > 0 && (!m || !boards || !out || ofc_rows_over_any(out, n, sizeof *out, in, 4))) {
        return OFC_E_VALUE;
    }
    lowball = rules->middle_lowball != 0;
    for (start = 0; start < n; start += OFC_COPY_BLOCK) {
        uint8_t block[OFC_BOARD_CARDS * OFC_COPY_BLOCK]; /* the caller's boards, read once */
        size_t rows = n - start < OFC_COPY_BLOCK ? n - start : OFC_COPY_BLOCK;
        ofc_copy_cards(block, boards + (size_t)OFC_BOARD_CARDS * start, OFC_BOARD_CARDS * rows);
        for (j = 0; j < rows; j++) {
            const uint8_t *b = block + (size_t)OFC_BOARD_CARDS * j;
            if (OFC_UNLIKELY(ofc_cards_invalid(b, OFC_BOARD_CARDS, 0))) {
                if (bad) {
                    *bad = start + j;
                }
                return ofc_cards_error(b, OFC_BOARD_CARDS);
            }
            out[start + j] = board_value(rules, fl, m, lowball, (int)in_fl, b);
        }
    }
    return OFC_OK;
}

/* Card bits of n card ids, or UINT64_MAX when one is bad or repeated. */
static uint64_t card_set(const uint8_t *cards, size_t n)
{
    uint64_t taken;
    return ofc_cards_mask(cards, n, 0, &taken) ? UINT64_MAX : taken;
}

/* Card and slot bits of one row template (3 or 5 bytes). */
typedef struct row_bits {
    uint64_t cards;
    uint32_t slots;
    int32_t status; /* OFC_OK or the template's error */
} row_bits;

static row_bits template_bits(const uint8_t *t, size_t n, size_t n_slots)
{
    row_bits r = {0, 0, OFC_OK};
    size_t i;
    for (i = 0; i < n; i++) {
        int slot = t[i] < OFC_HEUR_CARD;
        uint64_t bit;
        if (t[i] >= OFC_HEUR_CARD + OFC_CARDS || (slot && t[i] >= n_slots)) {
            r.status = OFC_E_VALUE;
            return r;
        }
        bit = (uint64_t)1 << (slot ? t[i] : t[i] - OFC_HEUR_CARD);
        if (slot ? (r.slots & bit) != 0 : (r.cards & bit) != 0) {
            r.status = slot ? OFC_E_VALUE : OFC_E_DUPLICATE;
            return r;
        }
        if (slot) {
            r.slots |= (uint32_t)bit;
        } else {
            r.cards |= bit;
        }
    }
    return r;
}

/* Checks one move: its row indices in range, its three rows sharing no card and no
 * slot (b3, b5: the templates' bits). */
static int32_t check_move(const uint16_t mv[3], const ofc_heur_rows *rows,
                          const row_bits *b3, const row_bits *b5)
{
    const row_bits *f, *mid, *back;
    if (mv[0] >= rows->n_fronts || mv[1] >= rows->n_fives || mv[2] >= rows->n_fives) {
        return OFC_E_VALUE;
    }
    f = &b3[mv[0]];
    mid = &b5[mv[1]];
    back = &b5[mv[2]];
    if ((f->slots & mid->slots) | (f->slots & back->slots) | (mid->slots & back->slots)) {
        return OFC_E_VALUE;
    }
    if ((f->cards & mid->cards) | (f->cards & back->cards) | (mid->cards & back->cards)) {
        return OFC_E_DUPLICATE;
    }
    return OFC_OK;
}

/* Checks the row templates (their bits into b3, b5) and the moves; *fixed = every
 * card of every template. */
static int32_t check_rows(const ofc_heur_rows *rows, size_t n_slots, row_bits *b3,
                          row_bits *b5, uint64_t *fixed)
{
    size_t i;
    int32_t st = OFC_OK;
    *fixed = 0;
    for (i = 0; i < rows->n_fronts + rows->n_fives; i++) {
        int front = i < rows->n_fronts;
        row_bits *b = front ? &b3[i] : &b5[i - rows->n_fronts];
        *b = front ? template_bits(rows->fronts + 3 * i, 3, n_slots)
                   : template_bits(rows->fives + 5 * (i - rows->n_fronts), 5, n_slots);
        if (b->status != OFC_OK) {
            return b->status;
        }
        *fixed |= b->cards;
    }
    for (i = 0; st == OFC_OK && i < rows->n_moves; i++) {
        uint16_t mv[3]; /* the caller's move, read once */
        ofc_copy_cards((uint8_t *)mv, (const uint8_t *)(rows->moves + 3 * i), sizeof mv);
        st = check_move(mv, rows, b3, b5);
    }
    return st;
}

/* Strengths of every row template under one fill (ext: slots, then the card ids). */
static void rank_rows(const ofc_heur_rows *rows, const uint8_t *ext, uint16_t *s3,
                      uint16_t *s5)
{
    size_t i;
    for (i = 0; i < rows->n_fronts; i++) {
        const uint8_t *t = rows->fronts + 3 * i;
        s3[i] = ofc_rank3_k(ext[t[0]], ext[t[1]], ext[t[2]]);
    }
    for (i = 0; i < rows->n_fives; i++) {
        const uint8_t *t = rows->fives + 5 * i;
        s5[i] = ofc_rank5_k(ext[t[0]], ext[t[1]], ext[t[2]], ext[t[3]], ext[t[4]]);
    }
}

/* Moves scored together: running best / sum over the fills of one sample. */
#define HEUR_BLOCK 256

/* Scores moves first .. first + n_moves - 1 (at most HEUR_BLOCK): the caller's
 * moves and fills each read once here, and checked again as read (a thread writing
 * them meanwhile can only make the call fail; ofc_fast.h, Threads). */
static int32_t score_block(const ofc_rules *rules, const ofc_fl_rules *fl,
                           const ofc_heur_model *m, const ofc_heur_rows *rows,
                           const row_bits *b3, const row_bits *b5, size_t first,
                           size_t n_moves, uint64_t fixed, const uint8_t *fills,
                           size_t n_samples, size_t n_fills, size_t n_slots, int in_fl,
                           double optimism, double *scores)
{
    uint8_t ext[OFC_HEUR_CARD + OFC_CARDS];
    uint16_t s3[OFC_HEUR_MAX_ROWS], s5[OFC_HEUR_MAX_ROWS], moves[3 * HEUR_BLOCK];
    double best[HEUR_BLOCK], sum[HEUR_BLOCK];
    int lowball = rules->middle_lowball != 0;
    size_t k, p, c, i;
    int32_t st;
    for (i = 0; i < OFC_CARDS; i++) {
        ext[OFC_HEUR_CARD + i] = (uint8_t)i;
    }
    ofc_copy_cards((uint8_t *)moves, (const uint8_t *)(rows->moves + 3 * first),
                   3 * n_moves * sizeof moves[0]);
    for (c = 0; c < n_moves; c++) {
        if ((st = check_move(moves + 3 * c, rows, b3, b5)) != OFC_OK) {
            return st;
        }
        scores[c] = 0.0;
    }
    for (k = 0; k < n_samples; k++) {
        for (c = 0; c < n_moves; c++) {
            best[c] = -HUGE_VAL;
            sum[c] = 0.0;
        }
        for (p = 0; p < n_fills; p++) {
            /* no slots: fills may be NULL, and NULL + 0 is undefined in C */
            uint64_t fill_set = 0;
            if (n_slots) { /* the fill read once, into the slots of ext */
                ofc_copy_cards(ext, fills + (k * n_fills + p) * n_slots, n_slots);
                fill_set = card_set(ext, n_slots);
            }
            if (fill_set == UINT64_MAX) {
                return ofc_cards_error(ext, n_slots);
            }
            if (fill_set & fixed) {
                return OFC_E_DUPLICATE;
            }
            rank_rows(rows, ext, s3, s5);
            for (c = 0; c < n_moves; c++) {
                const uint16_t *mv = moves + 3 * c;
                uint16_t s[3];
                double v;
                s[0] = s3[mv[0]];
                s[1] = s5[mv[1]];
                s[2] = s5[mv[2]];
                v = strengths_value(rules, fl, m, lowball, in_fl, s);
                best[c] = v > best[c] ? v : best[c];
                sum[c] += v;
            }
        }
        for (c = 0; c < n_moves; c++) {
            scores[c] += optimism * best[c] + (1.0 - optimism) * (sum[c] / (double)n_fills);
        }
    }
    for (c = 0; c < n_moves; c++) {
        scores[c] /= (double)n_samples;
    }
    return OFC_OK;
}

/* Bytes of n_samples x n_fills fills of n_slots cards, or SIZE_MAX when that product
 * overflows: counts that describe no array, refused (OFC_E_COUNT) by the sampler that
 * writes the fills and the scoring that reads them. */
static size_t fills_bytes(size_t n_samples, size_t n_fills, size_t n_slots)
{
    return ofc_mul_sat(ofc_mul_sat(n_samples, n_fills), n_slots);
}

/* Whether the scores share a byte with what the scoring still reads while it writes
 * them, a block of moves at a time: the rules, the model, the moves and the fills
 * (their sizes saturated: counts whose product overflows describe no array). */
static int scores_over_inputs(const ofc_rules *rules, const ofc_fl_rules *fl,
                              const ofc_heur_model *m, const ofc_heur_rows *r,
                              const uint8_t *fills, size_t n_samples, size_t n_fills,
                              size_t n_slots, const double *scores)
{
    size_t fill_bytes = fills_bytes(n_samples, n_fills, n_slots);
    const ofc_span in[5] = {{rules, sizeof *rules},
                            {fl, sizeof *fl},
                            {m, sizeof *m},
                            {r->moves, ofc_mul_sat(r->n_moves, 3 * sizeof *r->moves)},
                            {fills, fill_bytes}};
    return ofc_over_any(scores, ofc_mul_sat(r->n_moves, sizeof *scores), in, 5);
}

int32_t ofc_heur_score_moves(const ofc_rules *rules, const ofc_fl_rules *fl,
                             const ofc_heur_model *m, const ofc_heur_rows *rows,
                             const uint8_t *fills, size_t n_samples, size_t n_fills,
                             size_t n_slots, uint32_t in_fl, double optimism,
                             double *scores)
{
    /* The caller's rows and templates, read once: only these copies are checked and
     * used (the moves and fills: score_block()). */
    ofc_heur_rows r;
    uint8_t fronts[3 * OFC_HEUR_MAX_ROWS], fives[5 * OFC_HEUR_MAX_ROWS];
    row_bits b3[OFC_HEUR_MAX_ROWS], b5[OFC_HEUR_MAX_ROWS];
    size_t c;
    uint64_t fixed;
    int32_t status = check_common(rules, &fl, in_fl);
    if (status != OFC_OK) {
        return status;
    }
    if (!rows) {
        return OFC_E_VALUE;
    }
    ofc_copy_cards((uint8_t *)&r, (const uint8_t *)rows, sizeof r);
    if (r.n_moves == 0) {
        return OFC_OK;
    }
    if (n_slots > OFC_HEUR_MAX_SLOTS || n_samples == 0 || n_fills == 0 ||
        r.n_fronts > OFC_HEUR_MAX_ROWS || r.n_fives > OFC_HEUR_MAX_ROWS ||
        fills_bytes(n_samples, n_fills, n_slots) == SIZE_MAX ||
        ofc_mul_sat(r.n_moves, 3 * sizeof *r.moves) == SIZE_MAX) {
        return OFC_E_COUNT;
    }
    if (!m || !r.fronts || !r.fives || !r.moves || !scores || (n_slots && !fills) ||
        !(optimism >= 0.0 && optimism <= 1.0) || scores_over_inputs(rules, fl, m, &r,
                                                                    fills, n_samples,
                                                                    n_fills, n_slots,
                                                                    scores)) {
        return OFC_E_VALUE;
    }
    ofc_copy_cards(fronts, r.fronts, 3 * r.n_fronts);
    ofc_copy_cards(fives, r.fives, 5 * r.n_fives);
    r.fronts = fronts;
    r.fives = fives;
    status = check_rows(&r, n_slots, b3, b5, &fixed);
    for (c = 0; status == OFC_OK && c < r.n_moves; c += HEUR_BLOCK) {
        size_t block = r.n_moves - c < HEUR_BLOCK ? r.n_moves - c : HEUR_BLOCK;
        status = score_block(rules, fl, m, &r, b3, b5, c, block, fixed, fills, n_samples,
                             n_fills, n_slots, (int)in_fl, optimism, scores + c);
    }
    return status;
}

/* ------------------------------------------------------------------ sampling */

/* Fill 0: the candidates (every future card, or the two highest of each round) by
 * rank, highest first (ties: earlier card first); the lowest of the top n_slots go
 * to the first (front) slots. */
static void fill_by_rank(const uint8_t *future, size_t n, uint32_t rounds, size_t n_slots,
                         uint8_t *fill)
{
    int key[OFC_HEUR_MAX_FUTURE];
    size_t i, j, order[OFC_HEUR_MAX_FUTURE];
    for (i = 0; i < n; i++) {
        key[i] = future[i] >> 2;
    }
    for (i = 0; rounds && i < n; i += 3) { /* drop the lowest (first such) of a round */
        size_t low = key[i + 1] < key[i] ? i + 1 : i;
        low = key[i + 2] < key[low] ? i + 2 : low;
        key[low] = -1;
    }
    for (i = 0; i < n; i++) { /* insertion sort: stable, descending */
        size_t pos = i;
        while (pos > 0 && key[order[pos - 1]] < key[i]) {
            order[pos] = order[pos - 1];
            pos--;
        }
        order[pos] = i;
    }
    for (j = 0; j < n_slots; j++) {
        fill[j] = future[order[n_slots - 1 - j]];
    }
}

/* One random fill: with rounds, 2 of each round's 3 cards kept at random; then a
 * random ordered choice of n_slots kept cards. */
static void fill_random(const uint8_t *future, size_t n, uint32_t rounds, size_t n_slots,
                        ofc_rng *rng, uint8_t *fill)
{
    uint8_t kept[OFC_HEUR_MAX_FUTURE];
    size_t n_kept = 0, i, r;
    if (rounds) {
        for (r = 0; r < rounds; r++) {
            uint32_t drop = ofc_rng_draw(rng, 3);
            for (i = 0; i < 3; i++) {
                if (i != drop) {
                    kept[n_kept++] = future[3 * r + i];
                }
            }
        }
    } else {
        for (i = 0; i < n; i++) {
            kept[n_kept++] = future[i];
        }
    }
    ofc_rng_shuffle_front(kept, n_kept, n_slots, rng);
    for (i = 0; i < n_slots; i++) {
        fill[i] = kept[i];
    }
}

int32_t ofc_heur_sample(const uint8_t *unseen, size_t n_unseen, size_t n_future,
                        uint32_t rounds, size_t n_slots, size_t n_samples, size_t n_fills,
                        uint64_t seed, uint8_t *futures, uint8_t *fills)
{
    uint8_t deck[OFC_CARDS];
    ofc_rng rng = ofc_rng_make(seed);
    size_t k, p;
    if (n_unseen > OFC_CARDS) {
        return OFC_E_COUNT;
    }
    if (!unseen && n_unseen) {
        return OFC_E_VALUE;
    }
    if (n_unseen) { /* the caller's cards, read once: only the copy is checked and drawn */
        ofc_copy_cards(deck, unseen, n_unseen);
        if (card_set(deck, n_unseen) == UINT64_MAX) {
            return ofc_cards_error(deck, n_unseen);
        }
    }
    if (n_future > n_unseen || n_future > OFC_HEUR_MAX_FUTURE || n_slots > n_future ||
        n_slots > OFC_HEUR_MAX_SLOTS ||
        (rounds && (n_future % 3u != 0 || n_future / 3u != rounds ||
                    n_slots > 2u * (n_future / 3u))) || /* no 32-bit 3 x rounds */
        ofc_mul_sat(n_samples, n_future) == SIZE_MAX ||
        (n_future && fills_bytes(n_samples, n_fills, n_slots) == SIZE_MAX)) {
        return OFC_E_COUNT;
    }
    if ((n_samples && n_future && !futures) || (n_fills && n_slots && !fills)) {
        return OFC_E_VALUE;
    }
    for (k = 0; k < n_samples && n_future; k++) {
        const uint8_t *future = futures + k * n_future;
        ofc_rng_shuffle_front(deck, n_unseen, n_future, &rng);
        memcpy(futures + k * n_future, deck, n_future);
        for (p = 0; p < n_fills && n_slots; p++) {
            uint8_t *fill = fills + (k * n_fills + p) * n_slots;
            if (p == 0) {
                fill_by_rank(future, n_future, rounds, n_slots, fill);
            } else {
                fill_random(future, n_future, rounds, n_slots, &rng, fill);
            }
        }
    }
    return OFC_OK;
}
