/* cffi cdef: the core of csrc/ofc_fast.h (ranking, boards, scoring). */
#define OFC_STRENGTH_MAX 7917
#define OFC_STRENGTH_TABLE_SIZE 7918
#define OFC_FRONT_CARDS 3
#define OFC_MIDDLE_CARDS 5
#define OFC_BACK_CARDS 5
#define OFC_VERSION_NUMBER ...

uint32_t ofc_version_number(void);
const char *ofc_version_string(void);

uint16_t ofc_rank5_unchecked(uint8_t a, uint8_t b, uint8_t c, uint8_t d, uint8_t e);
uint16_t ofc_rank3_unchecked(uint8_t a, uint8_t b, uint8_t c);
int32_t ofc_rank(const int32_t *cards, size_t n, uint32_t expect);
int32_t ofc_rank5_batch(const uint8_t *cards, size_t n, int32_t *out, size_t *bad);
int32_t ofc_rank3_batch(const uint8_t *cards, size_t n, int32_t *out, size_t *bad);

int32_t ofc_category_of(uint16_t strength);
int32_t ofc_strength_cards(uint16_t strength);
uint32_t ofc_strength_info(uint16_t strength);
int32_t ofc_kev_rank(uint16_t strength);
uint16_t ofc_strength_from_kev(int32_t kev);
int32_t ofc_low27(uint16_t strength);

typedef struct ofc_rules {
    int16_t royalty[3][7918];
    int16_t win_value[3][7918];
    int32_t sweep_bonus;
    int32_t majority_bonus;
    int32_t overall_bonus;
    int32_t sweep_multiplier;
    int32_t sweep_all_multiplier;
    int32_t sweep_all_bonus;
    uint8_t majority_rule;
    uint8_t order_rule;
    uint8_t middle_lowball;
    uint8_t foul_pays_sweep;
    uint16_t lowball_limit;
    uint8_t reserved;
    uint8_t reserved2;
} ofc_rules;

int32_t ofc_row_value(const ofc_rules *rules, uint32_t row, uint16_t strength);

int32_t ofc_rules_init_ofc(ofc_rules *rules);
int32_t ofc_rules_init_classic(ofc_rules *rules, int32_t majority);
int32_t ofc_rules_check(const ofc_rules *rules);

typedef struct ofc_board_eval {
    uint16_t strength[3];
    int16_t royalty[3];
    uint8_t foul;
    uint8_t reserved;
} ofc_board_eval;

int32_t ofc_eval_board(const ofc_rules *rules, const uint8_t cards[13],
                       ofc_board_eval *out);
int32_t ofc_is_foul(const ofc_rules *rules, const uint16_t strength[3]);
int32_t ofc_eval_boards(const ofc_rules *rules, const uint8_t *cards, size_t n,
                        int32_t *strength, int32_t *royalty, uint8_t *foul,
                        size_t *bad);

typedef struct ofc_pair_score {
    int32_t net;
    int8_t rows[3];
    int8_t sweep;
    int32_t row_points;
    int32_t bonus;
    int32_t royalties;
} ofc_pair_score;

typedef struct ofc_pair_context {
    int8_t ties;
    uint8_t a_sweeps_all;
    uint8_t b_sweeps_all;
    uint8_t reserved;
} ofc_pair_context;

int32_t ofc_score_evals(const ofc_rules *rules, const ofc_board_eval *a,
                        const ofc_board_eval *b, const ofc_pair_context *ctx,
                        ofc_pair_score *detail);
int32_t ofc_score_boards(const ofc_rules *rules, const uint8_t a[13],
                         const uint8_t b[13], ofc_pair_score *out);
int32_t ofc_score_pairs(const ofc_rules *rules, const uint8_t *a, const uint8_t *b,
                        size_t n, int32_t *net, size_t *bad);
