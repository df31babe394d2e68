/*
 * ofc_model.h -- the learned value model: a file of small multilayer perceptrons,
 * one per number of cards on the board, read into a fixed-size struct and evaluated
 * in C.  Plain C99, no allocation, no global mutable state: a parsed model is
 * read-only and may be shared by any number of threads.
 *
 * File format, versions 1 to 3 (docs/learned.md; every number little-endian)
 * -------------------------------------------------------------------------
 *   offset  size  field
 *        0     8  magic "OFCVALUE"
 *        8     4  version (OFC_VM_VERSION)
 *       12     4  header bytes (OFC_VM_HEADER_BYTES = 64)
 *       16     4  payload bytes (the file is exactly header + payload)
 *       20     4  rules hash (the writer's fingerprint of the rule set; not read here)
 *                  (ofc_fast.learned.rules_hash: of how the rule set plays and
 *                  scores, game flow and table rules included, which the C structs
 *                  do not all hold: C checks no model against rules; see
 *                  ofc_value_ctx_check())
 *       24     4  feature set (1: ofc_value.h, OFC_VF_N inputs)
 *       28     4  inputs of every net (= OFC_VF_N for feature set 1)
 *       32     4  players the model was trained for (0: any)
 *       36     4  nets (1..OFC_VM_MAX_NETS)
 *       40     8  checksum: FNV-1a 64 of the payload (ofc_vm_checksum())
 *       48     4  opponent rows (version 2 on; 0 in version 1): 0 none, 1 the payload
 *                  ends with them
 *       52     8  header checksum (version 3; reserved 0 before): FNV-1a 64 of bytes
 *                  0..51, the payload checksum included, so it covers the whole file
 *                  (versions 1 and 2 have none: their header is not checked)
 *       60     4  reserved, all 0 (52..63 in version 2, 48..63 in version 1)
 *   payload, net after net:
 *     u32 cards (5..12: the cards on the board of the after-states it values),
 *     u32 layers L (1..OFC_VM_MAX_LAYERS), u32 width[L + 1] (width[0] = inputs,
 *     width[L] = 1, each 1..OFC_VM_MAX_WIDTH), then for each layer l: the weights
 *     W[width[l+1]][width[l]] (row-major float32) and the biases b[width[l+1]];
 *   then, with opponent rows, OFC_VM_OPP_COUNTS u32: the row strengths of the
 *   opponents the model was trained against, counts[row * OFC_STRENGTH_TABLE_SIZE +
 *   strength] as ofc_ev_tables_init_counts() reads them (front 3-card strengths,
 *   middle and back 5-card, each row some, nothing else).  The model's features and
 *   labels value boards against that opponent: evaluate it with the tables of
 *   ofc_value_ev_tables() (ofc_value.h).  Without them, against the shipped typical
 *   opponent (ofc_ev_tables_init()).
 * Forward pass: x_{l+1} = relu(W_l x_l + b_l) for every layer but the last, which
 * is linear; sums in double.  Input normalisation is folded into the first layer.
 * (ofc_vmodel.w keeps each layer's weights transposed, W^T then b, for speed.)
 * Each unit's sum is fixed: its bias, then the products W[j][i] x[i] of the nonzero
 * inputs added in input order, each product and sum rounded to double (no fused
 * multiply-add).  The pass lists a layer's nonzero inputs once (without branches)
 * and sums blocks of 16 outputs in registers.  On x86-64 with GCC or Clang the
 * library also carries an AVX2 copy of the pass (each block four vectors of 4
 * doubles) and uses it when the CPU has AVX2; it performs the same operations in the
 * same order, so every CPU gets the same bits.  (The library turns off the
 * contraction of a * b + c into a fused multiply-add, which Clang would do on every
 * arm64 CPU and on x86-64 with -mfma, and GCC there too in its GNU dialects: the
 * bits do not depend on -std either.)
 *
 * Example
 * -------
 * (A model file is read into memory by the caller, then ofc_vm_parse(bytes, n, &m)
 * and ofc_vm_eval(&m, cards, features, &value); ofc_value.h computes the features.)
 * @code
 * static ofc_vmodel m;                              // about 1 MB: not on the stack
 * const uint8_t head[8] = {'O', 'F', 'C', 'V', 'A', 'L', 'U', 'E'};
 * assert(ofc_vm_parse(head, sizeof head, &m) == OFC_E_MODEL_TRUNCATED);
 * assert(ofc_vm_checksum((const uint8_t *)"a", 1) == 0xaf63dc4c8601ec8cULL);
 * @endcode
 */
#ifndef OFC_MODEL_H
#define OFC_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "ofc_fast.h"

#include "ofc_export.h"

#ifdef __cplusplus
extern "C" {
#endif

#define OFC_VM_VERSION 3            /* the newest format version read (1 to 3) */
#define OFC_VM_OPP_COUNTS 23754     /* opponent row counts: OFC_ROWS x OFC_STRENGTH_TABLE_SIZE */
#define OFC_VM_HEADER_BYTES 64
#define OFC_VM_MAX_NETS 13      /* one per cards on the board at most */
#define OFC_VM_MAX_LAYERS 4     /* weight layers of one net */
#define OFC_VM_MAX_WIDTH 256    /* inputs or units of one layer */
#define OFC_VM_MAX_PARAMS 262144 /* float32 parameters of all nets together */
/* The largest |weight| or |bias| a model file may hold (OFC_E_MODEL_VALUE beyond): the
 * shipped models' largest is about 3.8e3 (input scalings folded into the first layer),
 * and with every parameter within 1e6 a net's value, and its square in the value
 * functions' variances, stay far inside a double's range (a file of 3e38 weights gave
 * means near 1e162 and a variance of inf - inf). */
#define OFC_VM_MAX_WEIGHT 1.0e6

/* Status codes of a model file (beyond ofc_status, ofc_game.h and ofc_search.h). */
#define OFC_E_MODEL_MAGIC (-60)     /* not a model file (magic) */
#define OFC_E_MODEL_VERSION (-61)   /* a format version this library does not read */
#define OFC_E_MODEL_TRUNCATED (-62) /* shorter (or longer) than its header says */
#define OFC_E_MODEL_CHECKSUM (-63)  /* the payload, or a version 3 header, does not match
                                       its checksum */
#define OFC_E_MODEL_SHAPE (-64)     /* a layer count, width, card count or size out of range */
#define OFC_E_MODEL_VALUE (-65)     /* a parameter that is NaN, infinite or over
                                       OFC_VM_MAX_WEIGHT in magnitude */
#define OFC_E_MODEL_NO_NET (-66)    /* the model has no net for this many cards */

/*! One net: the after-states with `cards` cards on the board. */
typedef struct ofc_vm_net {
    uint32_t cards;                        /* cards on the board (5..12) */
    uint32_t layers;                       /* weight layers (1..OFC_VM_MAX_LAYERS) */
    uint32_t width[OFC_VM_MAX_LAYERS + 1]; /* width[0] inputs .. width[layers] = 1 */
    uint32_t offset;                       /* its first parameter in ofc_vmodel.w */
} ofc_vm_net;

/*! A parsed model (about 1 MB: allocate it statically or on the heap). */
typedef struct ofc_vmodel {
    uint32_t version;
    uint32_t rules_hash;
    uint32_t feature_set;
    uint32_t inputs;
    uint32_t players;
    uint32_t n_nets;
    uint64_t checksum;
    int8_t net_of[14];                    /* net index by cards on the board, -1: none */
    uint8_t reserved[2];
    uint32_t n_params;
    uint32_t opponent;                    /* 1: opp holds the file's opponent rows */
    uint32_t opp[OFC_VM_OPP_COUNTS];      /* its opponent row counts (0 without) */
    ofc_vm_net nets[OFC_VM_MAX_NETS];
    float w[OFC_VM_MAX_PARAMS];           /* per net, per layer: W^T[in][out], b[out] */
} ofc_vmodel;

/*! ofc_vm_checksum():
 * @brief FNV-1a 64 of bytes (offset basis 0xcbf29ce484222325, prime 0x100000001b3).
 * @param data  the bytes (NULL is answered 0 when n > 0; NULL with n 0 is the
 *              hash of no bytes, the offset basis).
 * @param n     how many.
 * @pre data, where not NULL, holds n readable bytes (no status to return: a NULL
 *      data with n > 0 is answered 0 and reads nothing).
 * @return the hash; 0 when data is NULL and n > 0. */
OFC_API uint64_t ofc_vm_checksum(const uint8_t *data, size_t n);

/*! ofc_vm_parse():
 * @brief Reads and checks a model file held in memory (see the format above).
 * @param data  the file's bytes (NULL only with n 0: then OFC_E_MODEL_TRUNCATED).
 * @param n     how many.
 * @param out   receives the model (its contents are unspecified on error).
 * @pre data holds n readable bytes (every byte is checked: no input reads past them).
 * @return OFC_OK; OFC_E_VALUE (out NULL, or sharing a byte with the n bytes at data:
 *         out untouched); OFC_E_MODEL_TRUNCATED (shorter than a
 *         header or than the header says, or longer); OFC_E_MODEL_MAGIC;
 *         OFC_E_MODEL_VERSION; OFC_E_MODEL_CHECKSUM (the payload's, or a version 3
 *         header's, checked before its sizes); OFC_E_MODEL_SHAPE (a count or
 *         width out of range, two nets for the same cards, reserved bytes not 0, an
 *         opponent flag not 0 or 1, opponent rows a row cannot hold or a row without
 *         any, a payload that does not end where the nets and the opponent rows do);
 *         OFC_E_MODEL_VALUE (a weight or bias NaN, infinite or over OFC_VM_MAX_WEIGHT
 *         in magnitude). */
OFC_API int32_t ofc_vm_parse(const uint8_t *data, size_t n, ofc_vmodel *out);

/*! ofc_vm_eval():
 * @brief The value of one input vector by the net for `cards` cards on the board.
 * @param m      a model from ofc_vm_parse();
 * @param cards  cards on the board (0..13);
 * @param x      m->inputs features;
 * @param out    receives the value.
 * @pre m was filled by an ofc_vm_parse() that returned OFC_OK (a struct it refused is
 *      not checked again here), and x holds m->inputs floats.  m is only read: any
 *      number of threads may evaluate one model at once.
 * @return OFC_OK, OFC_E_VALUE (a NULL pointer), OFC_E_MODEL_NO_NET. */
OFC_API int32_t ofc_vm_eval(const ofc_vmodel *m, uint32_t cards, const float *x,
                            double *out);

#ifdef __cplusplus
}
#endif

#endif /* OFC_MODEL_H */
