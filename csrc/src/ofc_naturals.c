/* ofc_naturals.c -- the special 13-card hands (naturals, R-NAT-*): detection,
 * tie-break keys (R-NAT-5) and a board for the split naturals.  See ofc_naturals.h. */
#include <string.h>

#include "ofc_internal.h"
#include "ofc_naturals.h"

/* Rank counts are kept packed, 4 bits per rank (rank r in bits 4r..4r+3). */
#define NIB(r) ((uint64_t)1 << (4 * (r)))
/* 8 in each of the 13 rank nibbles: counts (0..4) plus 8 stay in 8..12, and taking
 * away up to 3 cards of a rank never borrows from the next nibble, so "every nibble
 * still has bit 3" means "no rank ran short". */
#define EIGHTS UINT64_C(0x8888888888888)

#define S5(t) (NIB(t) + NIB((t)-1) + NIB((t)-2) + NIB((t)-3) + NIB((t)-4))
#define S3(t) (NIB(t) + NIB((t)-1) + NIB((t)-2))

/* 5-card straights by index i = top rank - 3 (0 = the wheel A-2-3-4-5 .. 9 = T-A):
 * packed rank counts and 13-bit rank masks. */
static const uint64_t straight5_nib[10] = {
    NIB(12) + NIB(0) + NIB(1) + NIB(2) + NIB(3), S5(4), S5(5), S5(6), S5(7), S5(8), S5(9),
    S5(10), S5(11), S5(12)};
static const uint16_t straight5_mask[10] = {0x100F, 0x001F, 0x003E, 0x007C, 0x00F8,
                                            0x01F0, 0x03E0, 0x07C0, 0x0F80, 0x1F00};

/* 3-card runs by index i = top rank - 1 (0 = A-2-3 .. 11 = Q-K-A). */
static const uint64_t straight3_nib[12] = {
    NIB(12) + NIB(0) + NIB(1), S3(2), S3(3), S3(4), S3(5), S3(6), S3(7), S3(8), S3(9),
    S3(10), S3(11), S3(12)};
static const uint16_t straight3_mask[12] = {0x1003, 0x0007, 0x000E, 0x001C,
                                            0x0038, 0x0070, 0x00E0, 0x01C0,
                                            0x0380, 0x0700, 0x0E00, 0x1C00};


static const char *const natural_names[OFC_NAT_COUNT] = {
    "six_pairs", "three_straights", "three_flushes", "five_pairs_trips", "four_trips",
    "twelve_one_colour", "one_colour", "small_2_8", "small_2_9", "small_2_10",
    "big_8_a", "three_quads", "three_straight_flushes", "twelve_pictures", "dragon",
    "one_suit", "no_pictures"};

const char *ofc_natural_name(int32_t natural)
{
    return natural >= 0 && natural < OFC_NAT_COUNT ? natural_names[natural] : NULL;
}

static uint32_t bits13(uint32_t m)
{
    uint32_t n = 0;
    while (m) {
        m &= m - 1;
        n++;
    }
    return n;
}

/* The highest k ranks of a 13-bit rank mask. */
static uint32_t top_ranks(uint32_t m, uint32_t k)
{
    uint32_t out = 0;
    int r;
    for (r = 12; r >= 0 && k; r--) {
        if (m & (1u << r)) {
            out |= 1u << r;
            k--;
        }
    }
    return out;
}

/* 1-based place of a set of ranks among all sets of its size in high-card order
 * (colexicographic rank + 1): larger = the better high-card hand. */
static uint32_t high_card_place(uint32_t m)
{
    uint32_t place = 1, i = 1;
    int r;
    for (r = 0; r < 13; r++) {
        if (m & (1u << r)) {
            place += ofc_binom((uint32_t)r, i++);
        }
    }
    return place;
}

/* Writes one suited row (ranks from a mask, highest first). */
static void put_suited(uint8_t *row, uint32_t ranks, uint32_t suit)
{
    int r;
    for (r = 12; r >= 0; r--) {
        if (ranks & (1u << r)) {
            *row++ = (uint8_t)(4 * r + (int)suit);
        }
    }
}

/* Writes a run of n ranks with top rank `top` (the ace playing low below a deuce),
 * taking for each rank the highest-suited card still in *avail. */
static void put_run(uint8_t *row, int top, int n, uint64_t *avail)
{
    int j, s;
    for (j = 0; j < n; j++) {
        int r = (top - j + 13) % 13;
        for (s = 3; s >= 0; s--) {
            uint64_t bit = (uint64_t)1 << (4 * r + s);
            if (*avail & bit) {
                *avail &= ~bit;
                row[j] = (uint8_t)(4 * r + s);
                break;
            }
        }
    }
}

/* A middle straight flush above a plain back straight fouls the board (the back's top
 * card is never below the middle's, so nothing else can).  The rows' ranks are fixed by
 * the key, only the choice among cards of equal rank is free; the board is legal as
 * soon as the middle is not all one suit or the back is a straight flush:
 *  1. exchange a middle card with a card of the same rank (so another suit) from the
 *     back or the front: the middle is then no flush;
 *  2. else give the back the five cards of one suit, when the hand holds them, and
 *     deal the middle and the front again from what is left.
 * When neither is possible every split with this key fouls. */
static void unfoul_straights(uint8_t b[13], int back_top, int middle_top, int front_top,
                             uint64_t cards)
{
    int i, j, s, k;
    if (ofc_rank5_k(b[3], b[4], b[5], b[6], b[7]) <= ofc_rank5_k(b[8], b[9], b[10], b[11],
                                                                  b[12])) {
        return;
    }
    for (i = 3; i < 8; i++) {
        for (j = 0; j < 13; j++) {
            if ((j < 3 || j >= 8) && (b[j] >> 2) == (b[i] >> 2)) {
                uint8_t t = b[i];
                b[i] = b[j];
                b[j] = t;
                return;
            }
        }
    }
    for (s = 3; s >= 0; s--) {
        uint64_t back = 0;
        for (k = 0; k < 5; k++) {
            back |= (uint64_t)1 << (4 * ((back_top - k + 13) % 13) + s);
        }
        if ((cards & back) == back) {
            uint64_t avail = cards & ~back;
            put_run(b + 8, back_top, 5, &back);
            put_run(b + 3, middle_top, 5, &avail);
            put_run(b, front_top, 3, &avail);
            return;
        }
    }
}

/* THREE_STRAIGHTS: the split with the best (back, middle, front) tops.  For a given
 * back and middle the front is what is left, so the first hit in descending order is
 * the best; a middle above the back is never needed (swapping them is better). */
static uint32_t three_straights(uint64_t counts, uint64_t cards, uint8_t board[13])
{
    uint64_t c8 = counts + EIGHTS;
    int bi, mi, fi;
    for (bi = 9; bi >= 0; bi--) {
        uint64_t r1 = c8 - straight5_nib[bi];
        if ((r1 & EIGHTS) != EIGHTS) {
            continue;
        }
        for (mi = bi; mi >= 0; mi--) {
            uint64_t r2 = r1 - straight5_nib[mi];
            if ((r2 & EIGHTS) != EIGHTS) {
                continue;
            }
            for (fi = 11; fi >= 0; fi--) {
                if (r2 == EIGHTS + straight3_nib[fi]) {
                    uint64_t avail = cards;
                    put_run(board + 8, bi + 3, 5, &avail);
                    put_run(board + 3, mi + 3, 5, &avail);
                    put_run(board, fi + 1, 3, &avail);
                    unfoul_straights(board, bi + 3, mi + 3, fi + 1, cards);
                    return (uint32_t)(bi + 3) << 8 | (uint32_t)(mi + 3) << 4 |
                           (uint32_t)(fi + 1);
                }
            }
        }
    }
    return 0;
}

/* THREE_FLUSHES: every assignment of suits to (back, middle, front) whose sizes
 * match the suit counts; within an assignment the back takes the highest cards of its
 * suit, then the middle, and the front what is left, which is the best split for that
 * assignment.  Returns the best key (0: no three flushes). */
static uint32_t three_flushes(const uint32_t suit[4], const uint32_t n[4],
                              uint8_t board[13])
{
    uint32_t best = 0, best_rows[3] = {0, 0, 0}, best_suits[3] = {0, 0, 0};
    uint32_t sb, sm, sf, s;
    for (s = 0; s < 4; s++) {
        if (n[s] != 0 && n[s] != 3 && n[s] != 5 && n[s] != 8 && n[s] != 10 && n[s] != 13) {
            return 0;
        }
    }
    for (sb = 0; sb < 4; sb++) {
        for (sm = 0; sm < 4; sm++) {
            for (sf = 0; sf < 4; sf++) {
                uint32_t avail[4], back, middle, front, key, ok = 1;
                for (s = 0; s < 4; s++) {
                    ok &= n[s] == 5u * (s == sb) + 5u * (s == sm) + 3u * (s == sf);
                    avail[s] = suit[s];
                }
                if (!ok) {
                    continue;
                }
                back = top_ranks(avail[sb], 5);
                avail[sb] &= ~back;
                middle = top_ranks(avail[sm], 5);
                avail[sm] &= ~middle;
                front = avail[sf];
                key = high_card_place(back) << 20 | high_card_place(middle) << 9 |
                      high_card_place(front);
                if (key > best) {
                    best = key;
                    best_rows[0] = front;
                    best_rows[1] = middle;
                    best_rows[2] = back;
                    best_suits[0] = sf;
                    best_suits[1] = sm;
                    best_suits[2] = sb;
                }
            }
        }
    }
    if (best) {
        put_suited(board, best_rows[0], best_suits[0]);
        put_suited(board + 3, best_rows[1], best_suits[1]);
        put_suited(board + 8, best_rows[2], best_suits[2]);
    }
    return best;
}

/* THREE_STRAIGHT_FLUSHES: every pair of 5-card straight flushes in the hand for back
 * and middle, the front being the 3 cards left.  Only called when the hand makes
 * both three straights and three flushes, so the lists are short. */
static uint32_t three_straight_flushes(const uint32_t suit[4], uint8_t board[13])
{
    uint8_t cs[40], ct[40];
    int nc = 0, s, t, i, j, f;
    uint32_t best = 0;
    int bb = 0, bm = 0, bf = 0, bfs = 0;
    for (t = 9; t >= 0; t--) {
        for (s = 3; s >= 0; s--) {
            if ((suit[s] & straight5_mask[t]) == straight5_mask[t]) {
                cs[nc] = (uint8_t)s;
                ct[nc++] = (uint8_t)t;
            }
        }
    }
    for (i = 0; i < nc; i++) {
        for (j = 0; j < nc; j++) {
            uint32_t rest[4], key;
            int fs = -1, others = 0;
            if (i == j || ct[j] > ct[i] ||
                (cs[i] == cs[j] && (straight5_mask[ct[i]] & straight5_mask[ct[j]]))) {
                continue;
            }
            for (s = 0; s < 4; s++) {
                rest[s] = suit[s];
            }
            rest[cs[i]] &= ~(uint32_t)straight5_mask[ct[i]];
            rest[cs[j]] &= ~(uint32_t)straight5_mask[ct[j]];
            for (s = 0; s < 4; s++) {
                if (rest[s]) {
                    others += fs >= 0;
                    fs = s;
                }
            }
            if (fs < 0 || others) {
                continue;
            }
            for (f = 11; f >= 0 && rest[fs] != straight3_mask[f]; f--) {
            }
            if (f < 0) {
                continue;
            }
            key = (uint32_t)(ct[i] + 3) << 8 | (uint32_t)(ct[j] + 3) << 4 |
                  (uint32_t)(f + 1);
            if (key > best) {
                best = key;
                bb = i;
                bm = j;
                bf = f;
                bfs = fs;
            }
        }
    }
    if (best) {
        uint64_t back = 0, middle = 0, front = 0;
        for (t = 0; t < 13; t++) {
            if (straight5_mask[ct[bb]] & (1u << t)) {
                back |= (uint64_t)1 << (4 * t + cs[bb]);
            }
            if (straight5_mask[ct[bm]] & (1u << t)) {
                middle |= (uint64_t)1 << (4 * t + cs[bm]);
            }
            if (straight3_mask[bf] & (1u << t)) {
                front |= (uint64_t)1 << (4 * t + bfs);
            }
        }
        put_run(board + 8, ct[bb] + 3, 5, &back);
        put_run(board + 3, ct[bm] + 3, 5, &middle);
        put_run(board, bf + 1, 3, &front);
    }
    return best;
}

int32_t ofc_naturals(const uint8_t cards_in[13], ofc_naturals_result *out)
{
    uint8_t cards[OFC_BOARD_CARDS]; /* the input, read once */
    uint64_t seen = 0, counts = 0;
    uint32_t suit[4] = {0, 0, 0, 0}, n[4], ranks = 0, mask = 0;
    uint32_t pairs = 0, pair_key = 0, n1 = 0, n3 = 0, n4 = 0, red, r, k;
    int32_t status;
    int i;

    if (cards_in == NULL || out == NULL) {
        return OFC_E_COUNT;
    }
    ofc_copy_cards(cards, cards_in, OFC_BOARD_CARDS);
    status = ofc_check_cards(cards, OFC_BOARD_CARDS, &seen);
    if (status != OFC_OK) {
        return status;
    }
    memset(out, 0, sizeof *out);
    memset(out->straights, 0xFF, sizeof out->straights);
    memset(out->flushes, 0xFF, sizeof out->flushes);
    memset(out->straight_flushes, 0xFF, sizeof out->straight_flushes);

    for (i = 0; i < OFC_BOARD_CARDS; i++) {
        counts += NIB(cards[i] >> 2);
        suit[cards[i] & 3] |= 1u << (cards[i] >> 2);
    }
    for (k = 0; k < 4; k++) {
        n[k] = bits13(suit[k]);
    }
    ranks = suit[0] | suit[1] | suit[2] | suit[3];

    /* Six pairs key: pair ranks from the highest down, then the odd card. */
    for (i = 12; i >= 0; i--) {
        uint32_t c = (uint32_t)(counts >> (4 * i)) & 0xF;
        n1 += c == 1;
        n3 += c == 3;
        n4 += c == 4;
        for (k = 0; k < c / 2 && pairs < 6; k++) {
            pair_key = pair_key << 4 | (uint32_t)i;
            pairs++;
        }
    }
    if (pairs == 6) {
        for (r = 0; r < 13 && !((counts >> (4 * r)) & 1); r++) {
        }
        mask |= OFC_NAT_BIT(OFC_NAT_SIX_PAIRS);
        out->key[OFC_NAT_SIX_PAIRS] = pair_key << 4 | r;
    }
    if (n3 == 1 && n1 == 0) {
        mask |= OFC_NAT_BIT(OFC_NAT_FIVE_PAIRS_TRIPS);
    }
    if (n3 + n4 >= 4) {
        mask |= OFC_NAT_BIT(OFC_NAT_FOUR_TRIPS);
    }
    if (n4 >= 3) {
        mask |= OFC_NAT_BIT(OFC_NAT_THREE_QUADS);
    }

    red = n[1] + n[2];
    if (red >= 12 || red <= 1) {
        mask |= OFC_NAT_BIT(OFC_NAT_TWELVE_ONE_COLOUR);
    }
    if (red == 13 || red == 0) {
        mask |= OFC_NAT_BIT(OFC_NAT_ONE_COLOUR);
    }
    if (n[0] == 13 || n[1] == 13 || n[2] == 13 || n[3] == 13) {
        mask |= OFC_NAT_BIT(OFC_NAT_ONE_SUIT);
    }

    if (!(ranks & ~0x007Fu)) {
        mask |= OFC_NAT_BIT(OFC_NAT_SMALL_2_8);
    }
    if (!(ranks & ~0x00FFu)) {
        mask |= OFC_NAT_BIT(OFC_NAT_SMALL_2_9);
    }
    if (!(ranks & ~0x01FFu)) {
        mask |= OFC_NAT_BIT(OFC_NAT_SMALL_2_10);
    }
    if (!(ranks & 0x003Fu)) {
        mask |= OFC_NAT_BIT(OFC_NAT_BIG_8_A);
    }
    if ((counts >> 36 & 0xFFF) == 0x444) { /* J, Q, K: ranks 9, 10, 11 */
        mask |= OFC_NAT_BIT(OFC_NAT_TWELVE_PICTURES);
    }
    if (!(ranks & 0x0E00u)) {
        mask |= OFC_NAT_BIT(OFC_NAT_NO_PICTURES);
    }
    if (ranks == 0x1FFFu) {
        mask |= OFC_NAT_BIT(OFC_NAT_DRAGON);
    }

    out->key[OFC_NAT_THREE_STRAIGHTS] = three_straights(counts, seen, out->straights);
    if (out->key[OFC_NAT_THREE_STRAIGHTS]) {
        mask |= OFC_NAT_BIT(OFC_NAT_THREE_STRAIGHTS);
    }
    out->key[OFC_NAT_THREE_FLUSHES] = three_flushes(suit, n, out->flushes);
    if (out->key[OFC_NAT_THREE_FLUSHES]) {
        mask |= OFC_NAT_BIT(OFC_NAT_THREE_FLUSHES);
    }
    if (out->key[OFC_NAT_THREE_STRAIGHTS] && out->key[OFC_NAT_THREE_FLUSHES]) {
        out->key[OFC_NAT_THREE_STRAIGHT_FLUSHES] =
            three_straight_flushes(suit, out->straight_flushes);
        if (out->key[OFC_NAT_THREE_STRAIGHT_FLUSHES]) {
            mask |= OFC_NAT_BIT(OFC_NAT_THREE_STRAIGHT_FLUSHES);
        }
    }
    out->mask = mask;
    return OFC_OK;
}
