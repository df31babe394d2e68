/* cffi cdef: csrc/ofc_heuristic.h (the heuristic bot's board-value kernels; after
 * solver.h, whose ofc_fl_rules it uses). */
#define OFC_HEUR_CARD 64
#define OFC_HEUR_MAX_SLOTS 13
#define OFC_HEUR_MAX_ROWS 512
#define OFC_HEUR_MAX_FUTURE 39
#define OFC_HEUR_FL_VALUES 18

typedef struct ofc_heur_row {
    float value;
    float win;
    float lose;
    float reserved;
} ofc_heur_row;

typedef struct ofc_heur_model {
    ofc_heur_row row[3][7918];
    double sweep;
    double majority;
    double foul_value;
    double fl_value[18];
} ofc_heur_model;

int32_t ofc_heur_model_check(const ofc_heur_model *m);
int32_t ofc_heur_values(const ofc_rules *rules, const ofc_fl_rules *fl,
                        const ofc_heur_model *m, const uint8_t *boards, size_t n,
                        uint32_t in_fl, double *out, size_t *bad);
typedef struct ofc_heur_rows {
    const uint8_t *fronts;
    size_t n_fronts;
    const uint8_t *fives;
    size_t n_fives;
    const uint16_t *moves;
    size_t n_moves;
} ofc_heur_rows;

int32_t ofc_heur_score_moves(const ofc_rules *rules, const ofc_fl_rules *fl,
                             const ofc_heur_model *m, const ofc_heur_rows *rows,
                             const uint8_t *fills, size_t n_samples, size_t n_fills,
                             size_t n_slots, uint32_t in_fl, double optimism,
                             double *scores);
int32_t ofc_heur_sample(const uint8_t *unseen, size_t n_unseen, size_t n_future,
                        uint32_t rounds, size_t n_slots, size_t n_samples, size_t n_fills,
                        uint64_t seed, uint8_t *futures, uint8_t *fills);
