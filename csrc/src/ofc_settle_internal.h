/* ofc_settle_internal.h -- what the two parts of table settlement share (private):
 * the table's rules, settlement order, stakes and natural payments (ofc_table.c) and
 * the settlement itself (ofc_settle.c), documented in ofc_settle.h. */
#ifndef OFC_SETTLE_INTERNAL_H
#define OFC_SETTLE_INTERNAL_H

#include "ofc_internal.h"

#define SEATS OFC_SETTLE_MAX_SEATS
#define BIT(s) (1u << (s))

/* Running state of table stakes, per seat (start stack, chips now, chips-model
 * capacity, WIN_CAP "hand complete"). */
typedef struct stakes_seat {
    int64_t start, chips, capacity;
    uint8_t done;
} stakes_seat;

/* 1 when lo <= v <= hi. */
static inline int in_range(int32_t v, int32_t lo, int32_t hi)
{
    return lo <= v && v <= hi;
}

/* Pairs in settlement order (players and button valid); returns their count. */
int ofc_st_order_pairs(uint32_t players, uint32_t button, uint32_t start, uint8_t pairs[][2]);

/* One capped transfer (R-STAKES-*): amount > 0 means seat j pays seat i. */
int32_t ofc_st_stakes_step(uint32_t model, stakes_seat *st, uint32_t i, uint32_t j,
                           int32_t amount);

/* The stakes state of every seat from its starting stack. */
void ofc_st_stakes_init(stakes_seat *st, const int32_t *stacks, size_t seats);

/* ofc_natural_payment() for two valid ids (-1 = ordinary hand). */
int32_t ofc_st_natural_pay(const ofc_table_rules *t, int32_t a, uint32_t ka, int32_t b,
                           uint32_t kb);

/* The natural seat s declares, resolved against its cards: fills out->natural[s],
 * natural_key[s] and natural_board[s]; OFC_OK or OFC_E_NATURAL. */
int32_t ofc_st_resolve_natural(const ofc_table_rules *t, const uint8_t cards[13],
                               int32_t declared, ofc_settlement *out, int s);

#endif /* OFC_SETTLE_INTERNAL_H */
