/* cffi cdef: csrc/ofc_game.h (game flow in C: state, decisions, actions, observations,
 * results, playouts). */
#define OFC_GAME_MAX_SEATS 4
#define OFC_GAME_MAX_DEALT 17
#define OFC_GAME_MAX_STEPS 40
#define OFC_ACTION_SPACE 243
#define OFC_NO_SEAT 255
#define OFC_DISCARD 3
#define OFC_E_GAME_OVER -30
#define OFC_E_NOT_DEALT -31
#define OFC_E_ROW_FULL -32
#define OFC_E_DISCARDS -33
#define OFC_E_ACTION -34
#define OFC_E_FULL_SET -35
#define OFC_E_NOT_CLASSIC -36
#define OFC_E_SEATS -39
#define OFC_E_DECK -40
#define OFC_E_DESTINATION -41
#define OFC_E_NOT_OVER -42

typedef struct ofc_rng { uint64_t key; uint64_t ctr; } ofc_rng;

uint64_t ofc_random64(uint64_t key, uint64_t i);
uint32_t ofc_rng_below(ofc_rng *rng, uint64_t n);
void ofc_deck_from_seed(uint64_t seed, uint8_t deck[52]);
uint64_t ofc_deal_seed(uint64_t run_seed, uint64_t i);
int32_t ofc_cards_per_seat(uint32_t kind, uint32_t fantasyland);

typedef struct ofc_game_rules {
    ofc_rules scoring;
    ofc_table_rules table;
    ofc_fl_rules fl;
    uint8_t kind;
    uint8_t max_players;
    uint8_t face_down_final;
    uint8_t reserved;
} ofc_game_rules;

int32_t ofc_game_rules_init_pineapple(ofc_game_rules *r);
int32_t ofc_game_rules_check(const ofc_game_rules *r);

typedef struct ofc_game_step {
    uint8_t seat, start, n, k, full, face_down, street, reserved;
} ofc_game_step;

typedef struct ofc_game {
    uint64_t seed;
    uint8_t deck[52];
    uint8_t players, button, kind, step, nsteps, surrendered;
    int8_t declared[4];
    uint8_t fl[4];
    uint8_t count[4][3];
    uint8_t board[4][13];
    uint16_t face_down[4];
    uint8_t ndiscards[4];
    uint8_t discards[4][4];
    ofc_game_step steps[40];
} ofc_game;

int32_t ofc_game_init(const ofc_game_rules *r, ofc_game *g, uint32_t players,
                      uint32_t button, const uint8_t *fl, uint64_t seed,
                      const uint8_t *deck);

typedef struct ofc_decision {
    uint8_t seat, n, k, full, face_down, street;
    uint8_t free[3];
    uint8_t future_cards, future_discards, reserved;
    uint8_t dealt[17];
} ofc_decision;

int32_t ofc_game_decision(const ofc_game *g, ofc_decision *out);
int32_t ofc_game_to_act(const ofc_game *g);
int32_t ofc_game_is_over(const ofc_game *g);
int32_t ofc_game_legal_actions(const ofc_game *g, uint8_t *out);
int32_t ofc_game_action_mask(const ofc_game *g, uint8_t mask[243]);
int32_t ofc_action_decode(uint32_t n, uint32_t k, uint32_t action, uint8_t dest[5]);
int32_t ofc_action_encode(uint32_t n, uint32_t k, const uint8_t dest[5]);
int32_t ofc_actions_legal(uint32_t n, uint32_t k, const uint8_t room[3], uint8_t *out,
                          uint8_t *mask);
int32_t ofc_game_apply_action(ofc_game *g, uint32_t action);
int32_t ofc_game_apply_placement(ofc_game *g, const uint8_t *dest, uint32_t n);
int32_t ofc_game_declare(const ofc_game_rules *r, ofc_game *g, uint32_t natural);
int32_t ofc_game_surrender(const ofc_game_rules *r, ofc_game *g);
uint32_t ofc_game_declarable(const ofc_game_rules *r, const ofc_game *g);

typedef struct ofc_observation {
    uint8_t seat, players, button, kind;
    uint8_t to_act;
    uint8_t is_over;
    uint8_t street;
    uint8_t surrendered;
    uint8_t fl[4];
    uint8_t board[4][13];
    uint8_t count[4][3];
    uint8_t face_down_count[4][3];
    uint8_t discard_count[4];
    uint8_t discards[4];
    int8_t declared[4];
    uint8_t n, k, full, face_down, future_cards, future_discards;
    uint8_t dealt[17];
} ofc_observation;

int32_t ofc_game_observe(const ofc_game *g, uint32_t seat, ofc_observation *out);

typedef struct ofc_game_result {
    int32_t net[4];
    uint8_t foul[4];
    int16_t royalty[4][3];
    uint8_t fl_next[4];
    ofc_settlement settlement;
} ofc_game_result;

int32_t ofc_game_result_get(const ofc_game_rules *r, const ofc_game *g,
                            const int32_t *stacks, uint32_t flags, ofc_game_result *out);
int32_t ofc_game_random_move(ofc_game *g, ofc_rng *rng);
int32_t ofc_game_playout(ofc_game *g, ofc_rng *rng, uint32_t *decisions);
