/* cffi cdef: csrc/ofc_settle.h (table settlement, R-SETTLE-*, R-STAKES-*). */
#define OFC_E_SEAT -20
#define OFC_E_MAX_PLAYERS -21
#define OFC_E_SURRENDER -22
#define OFC_E_CONFLICT -23
#define OFC_E_NO_NATURALS -24
#define OFC_E_NATURAL -25
#define OFC_E_HIDDEN -26
#define OFC_E_STACKS -27
#define OFC_SETTLE_MAX_SEATS 4
#define OFC_SETTLE_MAX_PAIRS 6
#define OFC_SETTLE_MAX_ITEMS 36
#define OFC_STACK_MAX 1000000000
#define OFC_NO_CARD 255
#define OFC_DECLARE_NONE -1
#define OFC_DECLARE_BEST -2
#define OFC_SETTLE_ITEMS 1

typedef struct ofc_table_rules {
    uint8_t max_players;
    uint8_t house;
    uint8_t start;
    uint8_t stakes;
    int32_t pool_ante;
    int32_t pool_sweep_extra;
    int32_t single_winner;
    int32_t surrender_cost;
    uint8_t aces_bet;
    uint8_t naturals_rule;
    uint8_t reserved[2];
    int32_t aces_value[5];
    uint32_t natural_mask;
    int32_t natural_units[17];
    int8_t natural_rank[17];
    uint8_t reserved2[3];
} ofc_table_rules;

typedef struct ofc_settle_input {
    uint8_t players;
    uint8_t button;
    uint8_t cards[4][13];
    uint8_t surrendered;
    int8_t declared[4];
    uint8_t has_stacks;
    int32_t stacks[4];
} ofc_settle_input;

typedef struct ofc_settle_item {
    uint8_t a, b;
    uint8_t kind;
    uint8_t payer, payee;
    uint8_t reserved[3];
    int32_t amount;
} ofc_settle_item;

typedef struct ofc_settle_pair {
    uint8_t a, b;
    uint8_t reserved[2];
    ofc_pair_score score;
} ofc_settle_pair;

typedef struct ofc_settlement {
    int32_t net[4];
    int32_t stacks_after[4];
    int8_t winner;
    uint8_t evaluated;
    uint8_t n_pairs;
    uint8_t n_items;
    int8_t natural[4];
    uint32_t natural_key[4];
    uint8_t natural_board[4][13];
    int8_t bad_seat;
    uint8_t bad_card;
    uint8_t reserved[2];
    ofc_board_eval eval[4];
    ofc_settle_pair pairs[6];
    ofc_settle_item items[36];
} ofc_settlement;

int32_t ofc_table_rules_init(ofc_table_rules *t);
int32_t ofc_table_rules_check(const ofc_table_rules *t);
int32_t ofc_settle_input_init(ofc_settle_input *in, uint8_t players, uint8_t button);
int32_t ofc_settle(const ofc_rules *rules, const ofc_table_rules *table,
                   const ofc_settle_input *in, uint32_t flags, ofc_settlement *out);
int32_t ofc_settlement_order(uint32_t players, uint32_t button, uint32_t start,
                             uint8_t (*pairs)[2]);
int32_t ofc_apply_stakes(uint32_t model, const int32_t *stacks, size_t seats,
                         const uint8_t (*pairs)[2], const int32_t *amount, size_t n,
                         int32_t *actual);
int32_t ofc_natural_payment(const ofc_table_rules *table, int32_t a, uint32_t key_a,
                            int32_t b, uint32_t key_b, int32_t *status);
