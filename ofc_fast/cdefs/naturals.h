/* cffi cdef: csrc/ofc_naturals.h (naturals, R-NAT-*). */
#define OFC_NAT_COUNT 17

typedef enum ofc_natural {
    OFC_NAT_SIX_PAIRS = 0,
    OFC_NAT_THREE_STRAIGHTS = 1,
    OFC_NAT_THREE_FLUSHES = 2,
    OFC_NAT_FIVE_PAIRS_TRIPS = 3,
    OFC_NAT_FOUR_TRIPS = 4,
    OFC_NAT_TWELVE_ONE_COLOUR = 5,
    OFC_NAT_ONE_COLOUR = 6,
    OFC_NAT_SMALL_2_8 = 7,
    OFC_NAT_SMALL_2_9 = 8,
    OFC_NAT_SMALL_2_10 = 9,
    OFC_NAT_BIG_8_A = 10,
    OFC_NAT_THREE_QUADS = 11,
    OFC_NAT_THREE_STRAIGHT_FLUSHES = 12,
    OFC_NAT_TWELVE_PICTURES = 13,
    OFC_NAT_DRAGON = 14,
    OFC_NAT_ONE_SUIT = 15,
    OFC_NAT_NO_PICTURES = 16
} ofc_natural;

typedef struct ofc_naturals_result {
    uint32_t mask;
    uint32_t key[17];
    uint8_t straights[13];
    uint8_t flushes[13];
    uint8_t straight_flushes[13];
    uint8_t reserved;
} ofc_naturals_result;

int32_t ofc_naturals(const uint8_t cards[13], ofc_naturals_result *out);
const char *ofc_natural_name(int32_t natural);
