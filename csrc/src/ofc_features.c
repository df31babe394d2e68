/* ofc_features.c -- normalised features of a seat's encoding (ofc_features.h). */
#include "ofc_features.h"

#include <string.h>

#include "ofc_internal.h"

/* The encoding's parts (ofc_vecenv.h documents the layout). */
#define E_DEALT (12 * 52)
#define E_DISCARDS (13 * 52)
#define E_UNSEEN (14 * 52)
#define E_SC (OFC_ENC_PLANES * 52)
#define S_BUTTON 0
#define S_PRESENT 4
#define S_FL 12
#define S_FACE_DOWN 16
#define S_DISCARDS 28
#define S_STREET 32
#define S_TO_DISCARD 33
#define S_FUTURE 34
#define S_FUTURE_DISCARDS 35
#define S_FULL 36
#define S_FACE_DOWN_NOW 37
#define S_OVER 38
#define S_KIND 39
#define S_LOWBALL 42

/* Made categories of a row block's one-hot. */
enum { CAT_HIGH, CAT_PAIR, CAT_TWO_PAIR, CAT_TRIPS, CAT_STRAIGHT, CAT_FLUSH, CAT_FULL,
       CAT_QUADS, CAT_STRAIGHT_FLUSH, CAT_NONE };

/* What the features need to know of one row's visible cards. */
typedef struct row_info {
    uint8_t rank[13], suit[4]; /* cards per rank, per suit */
    uint32_t m, size, ranks;   /* cards, row size, bit per rank present */
    int32_t cat, group;        /* CAT_*, rank of the best group (-1: empty) */
} row_info;

typedef struct view {
    const uint8_t *enc;
    uint8_t unseen_rank[13], unseen_suit[4];
    uint8_t others_rank[13];   /* visible cards per rank on the other seats' boards */
    row_info own[3];
    uint32_t players;
} view;

static const uint8_t ROW_SIZE[3] = {3, 5, 5};

static float ratio(uint32_t num, uint32_t den)
{
    float x = (float)num / (float)den;
    return x < 1.0f ? x : 1.0f;
}

/* Whether the ranks of a bit set fit one 5-rank straight window (the wheel included). */
static int straight_window(uint32_t ranks)
{
    uint32_t lo;
    if (ranks == 0)
        return 1;
    if ((ranks & ~UINT32_C(0x100F)) == 0) /* A, 2, 3, 4, 5 */
        return 1;
    for (lo = 0; lo + 5 <= 13; lo++)
        if ((ranks & ~(UINT32_C(0x1F) << lo)) == 0)
            return 1;
    return 0;
}

static int is_straight(uint32_t ranks)
{
    uint32_t lo;
    if (ranks == UINT32_C(0x100F))
        return 1;
    for (lo = 0; lo + 5 <= 13; lo++)
        if (ranks == UINT32_C(0x1F) << lo)
            return 1;
    return 0;
}

static void row_read(const uint8_t *plane, uint32_t size, row_info *ri)
{
    uint32_t c, r, maxc = 0, pairs = 0, trips = 0, suits = 0;
    memset(ri, 0, sizeof *ri);
    ri->size = size;
    ri->group = -1;
    for (c = 0; c < 52; c++) {
        if (plane[c]) {
            ri->rank[c / 4]++;
            ri->suit[c % 4]++;
            ri->m++;
            ri->ranks |= UINT32_C(1) << (c / 4);
        }
    }
    for (r = 0; r < 13; r++) {
        if (ri->rank[r] > maxc)
            maxc = ri->rank[r];
        pairs += ri->rank[r] == 2;
        trips += ri->rank[r] == 3;
    }
    for (r = 0; r < 4; r++)
        suits += ri->suit[r] > 0;
    if (ri->m == 0)
        ri->cat = CAT_NONE;
    else if (maxc == 4)
        ri->cat = CAT_QUADS;
    else if (trips && pairs)
        ri->cat = CAT_FULL;
    else if (trips)
        ri->cat = CAT_TRIPS;
    else if (pairs >= 2)
        ri->cat = CAT_TWO_PAIR;
    else if (pairs)
        ri->cat = CAT_PAIR;
    else if (ri->m == 5 && size == 5) {
        int straight = is_straight(ri->ranks), flush = suits == 1;
        ri->cat = straight && flush ? CAT_STRAIGHT_FLUSH
                  : flush           ? CAT_FLUSH
                  : straight        ? CAT_STRAIGHT
                                    : CAT_HIGH;
    } else
        ri->cat = CAT_HIGH;
    /* the best group of equal counts is the highest rank of the largest count */
    for (r = 13; r-- > 0;)
        if (ri->rank[r] == maxc && maxc > 0) {
            ri->group = (int32_t)r;
            break;
        }
}

static int single_suit(const row_info *ri, int32_t *suit)
{
    uint32_t s;
    for (s = 0; s < 4; s++)
        if (ri->suit[s] == ri->m && ri->m > 0) {
            *suit = (int32_t)s;
            return 1;
        }
    return 0;
}

static void row_block(const view *v, const row_info *ri, uint32_t face_down, float *x)
{
    uint32_t r, outs = 0, top = 0;
    int32_t suit;
    x[0] = ratio(ri->m, ri->size);
    x[1] = ratio(ri->size - (ri->m < ri->size ? ri->m : ri->size), ri->size);
    if (ri->cat != CAT_NONE)
        x[2 + ri->cat] = 1.0f;
    for (r = 0; r < 13; r++) {
        if (ri->rank[r]) {
            top = r;
            outs += v->unseen_rank[r];
        }
        x[17 + r] = ratio(ri->rank[r], 4);
    }
    if (ri->m > 0) {
        x[11] = (float)ri->group / 12.0f;
        x[12] = (float)top / 12.0f;
    }
    if (ri->size == 5 && single_suit(ri, &suit)) {
        x[13] = (float)(ri->m == 5 || v->unseen_suit[suit] >= 5 - ri->m);
        x[14] = ratio(v->unseen_suit[suit], 13);
    }
    if (ri->size == 5 && ri->m > 0 && ri->cat == CAT_HIGH && straight_window(ri->ranks))
        x[15] = 1.0f;
    x[16] = ratio(outs, 12);
    for (r = 0; r < 4; r++)
        x[30 + r] = ratio(ri->suit[r], 5);
    x[34] = ratio(face_down, ri->size);
}

static void slot_block(const view *v, const uint8_t *dealt, uint32_t n, uint32_t j, float *x)
{
    uint32_t c = dealt[j], rank = c / 4, suit = c % 4, row, i, same_rank = 0, same_suit = 0;
    x[0] = 1.0f;
    x[1 + rank] = 1.0f;
    x[14 + suit] = 1.0f;
    x[18] = (float)rank / 12.0f;
    for (row = 0; row < 3; row++) {
        const row_info *ri = &v->own[row];
        float *y = x + 19 + 5 * row;
        int32_t s;
        y[0] = ratio(ri->rank[rank], 3);
        y[1] = ratio(ri->suit[suit], 5);
        if (ri->size == 5 && ri->m < 5) {
            y[2] = (float)(ri->m == 0 || (single_suit(ri, &s) && (uint32_t)s == suit));
            y[3] = (float)(ri->rank[rank] == 0 && (ri->m == 0 || ri->cat == CAT_HIGH)
                           && straight_window(ri->ranks | (UINT32_C(1) << rank)));
        }
        y[4] = (float)(ri->m < ri->size);
    }
    for (i = 0; i < n; i++) {
        if (i == j)
            continue;
        same_rank += dealt[i] / 4 == rank;
        same_suit += dealt[i] % 4 == suit;
    }
    x[34] = ratio(same_rank, 2);
    x[35] = ratio(same_suit, 4);
    x[36] = ratio(v->unseen_rank[rank], 3);
    x[37] = ratio(v->unseen_suit[suit], 13);
    x[38] = ratio(v->others_rank[rank], 3);
}

static void global_block(const view *v, uint32_t n, float *x)
{
    const uint8_t *sc = v->enc + E_SC;
    uint32_t s;
    x[sc[S_STREET] < 8 ? sc[S_STREET] : 8] = 1.0f;
    x[9] = ratio(sc[S_TO_DISCARD], 2);
    x[10] = ratio(sc[S_FUTURE], 16);
    x[11] = ratio(sc[S_FUTURE_DISCARDS], 4);
    x[12] = (float)(sc[S_FULL] != 0);
    x[13] = (float)(sc[S_FACE_DOWN_NOW] != 0);
    x[14] = (float)(sc[S_OVER] != 0);
    for (s = 0; s < 4; s++) {
        x[15 + s] = (float)(sc[S_PRESENT + s] != 0);
        x[19 + s] = (float)(sc[S_BUTTON + s] != 0);
        x[23 + s] = ratio(sc[S_FL + s], 17);
    }
    x[27] = (float)(sc[S_LOWBALL] != 0);
    x[28] = (float)(sc[S_KIND + 1] != 0);
    x[29] = (float)(sc[S_KIND + 2] != 0);
    x[30] = ratio(n, 5);
    x[31] = ratio(sc[S_DISCARDS], 4);
}

/* The dealt plane's cards in deal order (given, checked) or by increasing id. */
static int32_t dealt_order(const uint8_t *enc, const uint8_t *dealt, uint32_t n,
                           uint8_t order[OFC_GAME_MAX_DEALT], uint32_t *count)
{
    uint8_t used[52];
    uint32_t c, i, in_plane = 0;
    for (c = 0; c < 52; c++)
        in_plane += enc[E_DEALT + c] != 0;
    if (dealt == NULL) {
        for (c = 0, *count = 0; c < 52 && *count < OFC_GAME_MAX_DEALT; c++)
            if (enc[E_DEALT + c])
                order[(*count)++] = (uint8_t)c;
        return in_plane <= OFC_GAME_MAX_DEALT ? OFC_OK : OFC_E_CARD;
    }
    if (n != in_plane || n > OFC_GAME_MAX_DEALT)
        return OFC_E_CARD;
    memset(used, 0, sizeof used);
    for (i = 0; i < n; i++) {
        if (dealt[i] >= 52 || !enc[E_DEALT + dealt[i]] || used[dealt[i]])
            return OFC_E_CARD;
        used[dealt[i]] = 1;
        order[i] = dealt[i];
    }
    *count = n;
    return OFC_OK;
}

int32_t ofc_features(const uint8_t given[OFC_ENC_SIZE], const uint8_t *given_dealt,
                     uint32_t n, float out[OFC_FEAT_SIZE])
{
    view v;
    uint8_t local[OFC_ENC_SIZE], local_dealt[OFC_GAME_MAX_DEALT];
    uint8_t order[OFC_GAME_MAX_DEALT];
    uint32_t c, r, row, j, count = 0;
    /* the caller's encoding and dealt cards read once (ofc_fast.h, Threads) */
    const uint8_t *enc = ofc_read_once(given, OFC_ENC_SIZE, local);
    const uint8_t *dealt = ofc_read_once(given_dealt, n <= OFC_GAME_MAX_DEALT ? n : 0,
                                         local_dealt);
    const uint8_t *sc;
    int32_t rc;
    if (enc == NULL || out == NULL)
        return OFC_E_VALUE;
    sc = enc + E_SC;
    rc = dealt_order(enc, dealt, n, order, &count);
    if (rc != OFC_OK)
        return rc;
    memset(&v, 0, sizeof v);
    memset(out, 0, OFC_FEAT_SIZE * sizeof(float));
    v.enc = enc;
    for (c = 0; c < 52; c++) {
        v.unseen_rank[c / 4] += enc[E_UNSEEN + c] != 0;
        v.unseen_suit[c % 4] += enc[E_UNSEEN + c] != 0;
        for (r = 1; r < 4; r++)
            for (row = 0; row < 3; row++)
                v.others_rank[c / 4] += enc[(3 * r + row) * 52 + c] != 0;
    }
    for (row = 0; row < 3; row++)
        row_read(enc + row * 52, ROW_SIZE[row], &v.own[row]);
    global_block(&v, count, out + OFC_FEAT_GLOBAL);
    for (r = 0; r < 13; r++)
        out[OFC_FEAT_UNSEEN + r] = ratio(v.unseen_rank[r], 4);
    for (r = 0; r < 4; r++)
        out[OFC_FEAT_UNSEEN + 13 + r] = ratio(v.unseen_suit[r], 13);
    for (c = 0, r = 0; c < 52; c++)
        r += enc[E_UNSEEN + c] != 0;
    out[OFC_FEAT_UNSEEN + 17] = ratio(r, 52);
    for (row = 0; row < 3; row++)
        row_block(&v, &v.own[row], 0, out + OFC_FEAT_OWN + row * OFC_FEAT_ROW);
    for (row = 0; row < 2; row++) {
        const row_info *a = &v.own[row], *b = &v.own[row + 1];
        if (a->cat != CAT_NONE && b->cat != CAT_NONE) {
            out[OFC_FEAT_FOUL + 2 * row] = (float)(a->cat > b->cat);
            out[OFC_FEAT_FOUL + 2 * row + 1] = (float)(a->cat == b->cat
                                                       && a->group > b->group);
        }
    }
    if (count <= OFC_FEAT_DEALT_SLOTS)
        for (j = 0; j < count; j++)
            slot_block(&v, order, count, j, out + OFC_FEAT_DEALT + j * OFC_FEAT_SLOT);
    for (r = 1; r < 4; r++) {
        if (!sc[S_PRESENT + r])
            continue; /* no such seat: its blocks stay 0 */
        for (row = 0; row < 3; row++) {
            row_info ri;
            row_read(enc + (3 * r + row) * 52, ROW_SIZE[row], &ri);
            row_block(&v, &ri, sc[S_FACE_DOWN + 3 * r + row],
                      out + OFC_FEAT_OTHERS + ((r - 1) * 3 + row) * OFC_FEAT_ROW);
        }
        out[OFC_FEAT_OTHERS_EXTRA + r - 1] = ratio(sc[S_DISCARDS + r], 4);
    }
    return OFC_OK;
}

int32_t ofc_features_slots(const ofc_vecenv_slot *slots, uint32_t first, uint32_t count,
                           const uint8_t *enc, float *out)
{
    uint32_t i;
    if (count > 0 && (slots == NULL || enc == NULL || out == NULL))
        return OFC_E_VALUE;
    if (count > UINT32_MAX - first)
        return OFC_E_COUNT; /* past the last environment any table can have */
    if (count > 0) {
        /* the rows read, encodings and slots: the rows written would overwrite ones
         * not yet read (a slot overwritten: its deal read from the floats) */
        const ofc_span in[2] = {
            {enc + (size_t)first * OFC_ENC_SIZE, (size_t)count * OFC_ENC_SIZE},
            {slots + first, (size_t)count * sizeof *slots}};
        if (ofc_over_any(out + (size_t)first * OFC_FEAT_SIZE,
                         (size_t)count * OFC_FEAT_SIZE * sizeof *out, in, 2))
            return OFC_E_VALUE;
    }
    for (i = first; i < first + count; i++) {
        const ofc_game *g = &slots[i].game;
        const uint8_t *row = enc + (size_t)i * OFC_ENC_SIZE;
        float *x = out + (size_t)i * OFC_FEAT_SIZE;
        int32_t rc;
        if (g->step < g->nsteps)
            rc = ofc_features(row, g->deck + g->steps[g->step].start,
                              g->steps[g->step].n, x);
        else
            rc = ofc_features(row, NULL, 0, x);
        if (rc != OFC_OK)
            return rc;
    }
    return OFC_OK;
}

int32_t ofc_features_rows(const uint8_t *enc, const uint8_t *select, uint32_t count,
                          float *out)
{
    uint32_t i;
    size_t out_bytes = (size_t)count * OFC_FEAT_SIZE * sizeof *out;
    if (count > 0 && (enc == NULL || out == NULL ||
                      ofc_bytes_overlap(out, out_bytes, enc, (size_t)count * OFC_ENC_SIZE) ||
                      ofc_bytes_overlap(out, out_bytes, select, count)))
        return OFC_E_VALUE;
    for (i = 0; i < count; i++) {
        int32_t rc;
        if (select != NULL && !select[i])
            continue;
        rc = ofc_features(enc + (size_t)i * OFC_ENC_SIZE, NULL, 0,
                          out + (size_t)i * OFC_FEAT_SIZE);
        if (rc != OFC_OK)
            return rc;
    }
    return OFC_OK;
}
