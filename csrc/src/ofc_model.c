/* ofc_model.c -- the learned value model: file parser and forward pass (ofc_model.h). */
#include "ofc_model.h"

#include <math.h>
#include <string.h>

static const uint8_t MAGIC[8] = {'O', 'F', 'C', 'V', 'A', 'L', 'U', 'E'};

uint64_t ofc_vm_checksum(const uint8_t *data, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    size_t i;
    for (i = 0; i < n; i++) {
        h ^= data[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t rd64(const uint8_t *p) { return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32; }

static float rdf(const uint8_t *p)
{
    uint32_t u = rd32(p);
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* One net's shape at p (n bytes left): into *net; *used = its bytes. */
static int32_t parse_net(const uint8_t *p, size_t n, uint32_t inputs, uint32_t offset,
                         ofc_vm_net *net, size_t *used, uint32_t *params)
{
    uint32_t l, count = 0;
    size_t head;
    if (n < 8) {
        return OFC_E_MODEL_SHAPE;
    }
    net->cards = rd32(p);
    net->layers = rd32(p + 4);
    if (net->cards < 1 || net->cards > 12 || net->layers < 1 ||
        net->layers > OFC_VM_MAX_LAYERS) {
        return OFC_E_MODEL_SHAPE;
    }
    head = 8 + 4 * (size_t)(net->layers + 1);
    if (n < head) {
        return OFC_E_MODEL_SHAPE;
    }
    for (l = 0; l <= net->layers; l++) {
        net->width[l] = rd32(p + 8 + 4 * l);
        if (net->width[l] < 1 || net->width[l] > OFC_VM_MAX_WIDTH) {
            return OFC_E_MODEL_SHAPE;
        }
    }
    if (net->width[0] != inputs || net->width[net->layers] != 1) {
        return OFC_E_MODEL_SHAPE;
    }
    for (l = 0; l < net->layers; l++) {
        count += net->width[l + 1] * (net->width[l] + 1);
    }
    if (count > OFC_VM_MAX_PARAMS - offset || n - head < 4 * (size_t)count) {
        return OFC_E_MODEL_SHAPE;
    }
    net->offset = offset;
    *params = count;
    *used = head;
    return OFC_OK;
}

/* A net's parameters from the file (per layer W[out][in] then b) into w, each layer's
 * weights transposed (W^T[in][out], then b): the forward pass runs over outputs
 * innermost, contiguous and independent (vectorised), and skips zero inputs. */
static void store_net(const uint8_t *p, const ofc_vm_net *net, float *w)
{
    uint32_t l, i, j;
    for (l = 0; l < net->layers; l++) {
        uint32_t nin = net->width[l], nout = net->width[l + 1];
        for (j = 0; j < nout; j++) {
            for (i = 0; i < nin; i++) {
                w[(size_t)i * nout + j] = rdf(p + 4 * ((size_t)j * nin + i));
            }
        }
        for (j = 0; j < nout; j++) {
            w[(size_t)nin * nout + j] = rdf(p + 4 * ((size_t)nin * nout + j));
        }
        p += 4 * (size_t)nout * (nin + 1);
        w += (size_t)nout * (nin + 1);
    }
}

int32_t ofc_vm_parse(const uint8_t *data, size_t n, ofc_vmodel *out)
{
    size_t at, payload, i;
    uint32_t k;
    if (out == NULL) {
        return OFC_E_VALUE;
    }
    if (data == NULL || n < OFC_VM_HEADER_BYTES) {
        return OFC_E_MODEL_TRUNCATED;
    }
    if (memcmp(data, MAGIC, 8) != 0) {
        return OFC_E_MODEL_MAGIC;
    }
    out->version = rd32(data + 8);
    if (out->version != OFC_VM_VERSION || rd32(data + 12) != OFC_VM_HEADER_BYTES) {
        return OFC_E_MODEL_VERSION;
    }
    payload = rd32(data + 16);
    if (n != OFC_VM_HEADER_BYTES + payload) {
        return OFC_E_MODEL_TRUNCATED;
    }
    out->checksum = rd64(data + 40);
    if (ofc_vm_checksum(data + OFC_VM_HEADER_BYTES, payload) != out->checksum) {
        return OFC_E_MODEL_CHECKSUM;
    }
    out->rules_hash = rd32(data + 20);
    out->feature_set = rd32(data + 24);
    out->inputs = rd32(data + 28);
    out->players = rd32(data + 32);
    out->n_nets = rd32(data + 36);
    for (i = 48; i < OFC_VM_HEADER_BYTES; i++) {
        if (data[i] != 0) {
            return OFC_E_MODEL_SHAPE;
        }
    }
    if (out->n_nets < 1 || out->n_nets > OFC_VM_MAX_NETS || out->inputs < 1 ||
        out->inputs > OFC_VM_MAX_WIDTH || out->players == 1 || out->players > 4) {
        return OFC_E_MODEL_SHAPE;
    }
    memset(out->net_of, -1, sizeof out->net_of);
    out->reserved[0] = out->reserved[1] = 0;
    out->n_params = 0;
    at = OFC_VM_HEADER_BYTES;
    for (k = 0; k < out->n_nets; k++) {
        ofc_vm_net *net = &out->nets[k];
        size_t used;
        uint32_t count, j;
        int32_t st = parse_net(data + at, n - at, out->inputs, out->n_params, net, &used,
                               &count);
        if (st != OFC_OK) {
            return st;
        }
        if (out->net_of[net->cards] >= 0) {
            return OFC_E_MODEL_SHAPE;
        }
        out->net_of[net->cards] = (int8_t)k;
        at += used;
        for (j = 0; j < count; j++) {
            if (!isfinite(rdf(data + at + 4 * (size_t)j))) {
                return OFC_E_MODEL_VALUE;
            }
        }
        store_net(data + at, net, out->w + out->n_params);
        at += 4 * (size_t)count;
        out->n_params += count;
    }
    return at == n ? OFC_OK : OFC_E_MODEL_SHAPE;
}

/* One dense layer: b[j] = bias[j] + sum over nonzero a[i] of W^T[i][j] a[i], each sum
 * in input order, then a ReLU unless `last`; a[] gets the result.  The same
 * operations in the same order wherever it is compiled, so every instruction set
 * gives the same bits (no contraction to fused multiply-adds: the AVX2 copy below
 * does not enable FMA). */
static inline const float *dense(const float *w, uint32_t nin, uint32_t nout, int last,
                                 double *a, double *b)
{
    const float *bias = w + (size_t)nout * nin;
    uint32_t i, j;
    for (j = 0; j < nout; j++) {
        b[j] = bias[j];
    }
    for (i = 0; i < nin; i++) {
        const float *col = w + (size_t)i * nout;
        double ai = a[i];
        if (ai == 0.0) {
            continue;
        }
        for (j = 0; j < nout; j++) {
            b[j] += (double)col[j] * ai;
        }
    }
    for (j = 0; j < nout; j++) {
        a[j] = (!last && b[j] < 0) ? 0.0 : b[j];
    }
    return bias + nout;
}

/* The forward pass of one net from a[] (its inputs) to a[0]. */
static inline void forward(const ofc_vm_net *net, const float *w, double *a, double *b)
{
    uint32_t l;
    for (l = 0; l < net->layers; l++) {
        w = dense(w, net->width[l], net->width[l + 1], l + 1 == net->layers, a, b);
    }
}

/* x86-64 with GCC or Clang: a second copy of the forward pass for AVX2 (twice the
 * doubles a vector instruction holds), chosen when the CPU has it. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(OFC_NO_AVX2)
#define OFC_VM_AVX2 1
__attribute__((target("avx2"))) static void forward_avx2(const ofc_vm_net *net,
                                                         const float *w, double *a,
                                                         double *b)
{
    forward(net, w, a, b);
}
#endif

/* The forward pass with the widest instruction set the CPU has. */
static void forward_any(const ofc_vm_net *net, const float *w, double *a, double *b)
{
#ifdef OFC_VM_AVX2
    if (__builtin_cpu_supports("avx2")) {
        forward_avx2(net, w, a, b);
        return;
    }
#endif
    forward(net, w, a, b);
}

int32_t ofc_vm_eval(const ofc_vmodel *m, uint32_t cards, const float *x, double *out)
{
    double a[OFC_VM_MAX_WIDTH], b[OFC_VM_MAX_WIDTH];
    const ofc_vm_net *net;
    uint32_t i;
    if (m == NULL || x == NULL || out == NULL) {
        return OFC_E_VALUE;
    }
    if (cards > 13 || m->net_of[cards] < 0) {
        return OFC_E_MODEL_NO_NET;
    }
    net = &m->nets[m->net_of[cards]];
    for (i = 0; i < net->width[0]; i++) {
        a[i] = x[i];
    }
    forward_any(net, m->w + net->offset, a, b);
    *out = a[0];
    return OFC_OK;
}
