/* cffi cdef: csrc/ofc_vecenv.h (the vector environment and the observation encoding). */
#define OFC_ENC_PLANES 15
#define OFC_ENC_SCALARS 48
#define OFC_ENC_SIZE 828
#define OFC_VE_NO_ACTION -1
#define OFC_VE_SELF 0
#define OFC_VE_RANDOM 1
#define OFC_VE_EXTERNAL 2
#define OFC_VE_FL_SOLVER 0
#define OFC_VE_FL_DECISION 1

typedef struct ofc_vecenv_config {
    const ofc_game_rules *rules;
    const ofc_ev_tables *ev;
    double stay_value[5];
    uint64_t seed;
    float shaping;
    uint32_t num_envs;
    uint8_t players, opponents, fantasyland, learner, button_frozen, autoreset, lowball,
        reserved;
} ofc_vecenv_config;

typedef struct ofc_vecenv_slot {
    ofc_game game;
    ofc_rng rng;
    uint64_t env_seed;
    uint64_t deal;
    float potential[4];
    uint8_t button;
    uint8_t fl[4];
    uint8_t reserved[3];
} ofc_vecenv_slot;

typedef struct ofc_vecenv_out {
    uint8_t *obs;
    uint8_t *mask;
    uint8_t *legal;
    int16_t *legal_count;
    int8_t *seat;
    uint8_t *full;
    float *rewards;
    float *final_rewards;
    uint8_t *terminations;
    uint8_t *truncations;
} ofc_vecenv_out;

int32_t ofc_vecenv_config_init(ofc_vecenv_config *c, const ofc_game_rules *rules,
                               uint32_t num_envs, uint32_t players, uint64_t seed);
int32_t ofc_vecenv_config_check(const ofc_vecenv_config *c);
int32_t ofc_vecenv_reset(const ofc_vecenv_config *c, ofc_vecenv_slot *slots,
                         uint32_t first, uint32_t count, uint32_t restart,
                         const ofc_vecenv_out *out);
int32_t ofc_vecenv_step(const ofc_vecenv_config *c, ofc_vecenv_slot *slots,
                        uint32_t first, uint32_t count, const int64_t *actions,
                        const uint8_t *placements, const uint8_t *active,
                        const ofc_vecenv_out *out, uint32_t *bad);
void ofc_encode(const ofc_observation *o, uint32_t lowball, uint8_t out[828]);
int32_t ofc_encode_game(const ofc_game *g, uint32_t seat, uint32_t lowball,
                        uint8_t out[828]);
float ofc_encoding_scale(uint32_t j);
