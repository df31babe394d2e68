/* cffi cdef: csrc/ofc_solver.h (Fantasyland solver, 13-card arranger, ev tables). */
#define OFC_SOLVER_MIN_CARDS 13
#define OFC_SOLVER_MAX_CARDS 17
#define OFC_E_MEMORY -16
#define OFC_E_VALUE -17
#define OFC_FL_STAY_SAME 0
#define OFC_FL_STAY_ENTRY 1
#define OFC_FL_MAX_ENTRY 8
#define OFC_SOLVE_ALTERNATIVES 1

typedef enum ofc_objective {
    OFC_OBJECTIVE_ROYALTIES = 0,
    OFC_OBJECTIVE_EV = 1
} ofc_objective;

typedef struct ofc_fl_rules {
    uint8_t enabled;
    uint8_t stay_cards;
    uint8_t n_entry;
    uint8_t lowball_entry;
    uint8_t lowball_both;
    uint8_t reserved[3];
    uint16_t stay_front;
    uint16_t stay_middle;
    uint16_t stay_back;
    uint16_t entry_front[8];
    uint8_t entry_cards[8];
} ofc_fl_rules;

int32_t ofc_fl_rules_init_standard(ofc_fl_rules *fl, int32_t cards);
int32_t ofc_fl_rules_check(const ofc_fl_rules *fl);
int32_t ofc_fl_next_cards(const ofc_rules *rules, const ofc_fl_rules *fl,
                          const uint8_t board[13], uint32_t in_fl_cards);

typedef struct ofc_ev_tables {
    float win[3][7918];
    float lose[3][7918];
    float units[3][7918];
    float lose_units[3][7918];
} ofc_ev_tables;

int32_t ofc_ev_tables_init(const ofc_rules *rules, ofc_ev_tables *out);
int32_t ofc_ev_tables_init_counts(const ofc_rules *rules, const uint32_t *counts,
                                  ofc_ev_tables *out);
const uint32_t *ofc_ev_opponent_counts(uint32_t *deals);
int32_t ofc_ev_board(const ofc_rules *rules, const ofc_ev_tables *ev,
                     const uint8_t board[13], double *value);

typedef struct ofc_setting {
    uint8_t board[13];
    uint8_t discards[4];
    uint8_t n_discards;
    uint8_t found;
    uint8_t foul;
    uint8_t stays;
    uint8_t next_cards;
    uint8_t reserved;
    uint16_t strength[3];
    int16_t royalty[3];
    int32_t royalties;
    double value;
} ofc_setting;

typedef struct ofc_fl_solution {
    ofc_setting best;
    ofc_setting best_stay;
    ofc_setting best_no_stay;
    uint64_t nodes;
} ofc_fl_solution;

int32_t ofc_solve_fantasyland(const ofc_rules *rules, const ofc_fl_rules *fl,
                              const ofc_ev_tables *ev, const uint8_t *cards, size_t n,
                              const double *stay_value, uint32_t flags,
                              ofc_fl_solution *out);
int32_t ofc_best_setting(const ofc_rules *rules, const ofc_ev_tables *ev,
                         const uint8_t cards[13], uint32_t objective, ofc_setting *out);
int32_t ofc_best_settings(const ofc_rules *rules, const ofc_ev_tables *ev,
                          const uint8_t *cards, size_t n, uint32_t objective,
                          uint8_t *boards, double *values, size_t *bad);
