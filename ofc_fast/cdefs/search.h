/* cffi cdef: csrc/ofc_search.h (best completion, rollouts, exact expectimax; after
 * solver.h, whose ofc_fl_rules and ofc_ev_tables it uses). */
#define OFC_SEARCH_MAX_ROUNDS 9
#define OFC_SEARCH_MAX_ROUND_CARDS 17
#define OFC_SEARCH_FL_VALUES 18
#define OFC_SEARCH_FAST_LEAVES 4096
#define OFC_SEARCH_BEST_LEAVES 20000
#define OFC_SEARCH_MAX_SEATS 4
#define OFC_E_BUDGET -50
#define OFC_COMPLETE_FAST 0
#define OFC_COMPLETE_BEST 1
#define OFC_COMPLETE_SEQUENTIAL 2

typedef struct ofc_search_model {
    double fl_value[18];
    double row_weight;
    double opp_random;
} ofc_search_model;

typedef struct ofc_search_seat {
    uint8_t board[13];
    uint8_t in_fl;
    uint8_t rounds;
    uint8_t round_n[9];
    uint8_t round_k[9];
} ofc_search_seat;

typedef struct ofc_search_pos {
    uint8_t players, seat, n_dealt, k;
    uint8_t dealt[5];
    uint8_t n_unseen;
    uint8_t unseen[52];
    ofc_search_seat seats[4];
} ofc_search_pos;

typedef struct ofc_completion_result {
    uint8_t board[13];
    uint8_t foul;
    uint8_t next_fl;
    uint8_t reserved[2];
    double value;
    uint64_t leaves;
} ofc_completion_result;

int32_t ofc_search_model_check(const ofc_search_model *m);
int32_t ofc_best_completion(const ofc_rules *rules, const ofc_fl_rules *fl,
                            const ofc_ev_tables *ev, const ofc_search_model *m,
                            const uint8_t board[13], const uint8_t *cards, uint32_t rounds,
                            const uint8_t *round_n, const uint8_t *round_k, uint32_t in_fl,
                            uint32_t policy, ofc_completion_result *out);
int32_t ofc_search_pos_check(const ofc_search_pos *pos);
int32_t ofc_search_rollouts(const ofc_rules *rules, const ofc_fl_rules *fl,
                            const ofc_ev_tables *ev, const ofc_search_model *m,
                            const ofc_search_pos *pos, const uint8_t *actions,
                            uint32_t n_actions, uint32_t policy, uint64_t seed,
                            uint64_t first, uint64_t samples, double *sum, double *sum_sq);
uint64_t ofc_search_exact_cost(const ofc_search_pos *pos, uint32_t n_actions);
int32_t ofc_search_exact(const ofc_rules *rules, const ofc_fl_rules *fl,
                         const ofc_ev_tables *ev, const ofc_search_model *m,
                         const ofc_search_pos *pos, const uint8_t *actions,
                         uint32_t n_actions, uint64_t max_nodes, double *values);
