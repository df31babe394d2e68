/* ofc_model.c -- the learned value model: file parser and forward pass (ofc_model.h). */
#include "ofc_model.h"

#include <math.h>
#include <string.h>

#include "ofc_ev_model.h" /* ofc_ev_counts_ok() */

/* No fused multiply-add in the forward pass (ofc_model.h): each product is rounded to
 * double, then added.  Clang contracts a * b + c within an expression by default
 * (-ffp-contract=on) wherever the target has FMA (every arm64 CPU, x86-64 with -mfma or
 * -march=native): the standard pragma turns that off.  GCC does not read that pragma
 * (-Wunknown-pragmas) and contracts across expressions in its GNU dialects
 * (-ffp-contract=fast, the default without -std=c99: a build of the sources by hand,
 * cgo), so its own pragma turns contraction off for every function below, whatever
 * the dialect. */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

/* OFC_VM_OPP_COUNTS is a literal (cffi reads it); it must be one count per row and
 * strength. */
typedef char ofc_vm_opp_counts_check[OFC_VM_OPP_COUNTS == OFC_ROWS * OFC_STRENGTH_TABLE_SIZE
                                         ? 1
                                         : -1];

static const uint8_t MAGIC[8] = {'O', 'F', 'C', 'V', 'A', 'L', 'U', 'E'};

#define VM_FNV_BASIS 0xcbf29ce484222325ULL

/* Version 3: the header checksum's offset, FNV-1a 64 of the header bytes before it. */
#define VM_HEADER_SUM 52

/* The FNV-1a hash h carried over n more bytes. */
static uint64_t vm_fnv(uint64_t h, const uint8_t *data, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) {
        h ^= data[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

uint64_t ofc_vm_checksum(const uint8_t *data, size_t n)
{
    if (data == NULL && n > 0) {
        return 0; /* no bytes to read (ofc_model.h: no status to return) */
    }
    return vm_fnv(VM_FNV_BASIS, data, n);
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

/* The payload, read once (ofc_fast.h, Threads): vm_take() copies its next bytes to a
 * local buffer and hashes the copy, which alone is checked and used, so the checksum
 * is of the bytes the model is made of. */
typedef struct vm_reader {
    const uint8_t *p; /* the payload's next byte */
    size_t left;      /* bytes not read yet */
    uint64_t hash;    /* of the bytes read so far */
} vm_reader;

/* The next n (<= left) bytes into dst. */
static void vm_take(vm_reader *r, uint8_t *dst, size_t n)
{
    ofc_copy_cards(dst, r->p, n);
    r->hash = vm_fnv(r->hash, dst, n);
    r->p += n;
    r->left -= n;
}

/* The status of a parse that stops with `st`: the rest of the payload is hashed, and a
 * checksum that does not match comes first (a damaged file is a damaged file). */
static int32_t vm_end(vm_reader *r, uint64_t checksum, int32_t st)
{
    uint8_t buf[1024];
    while (r->left > 0) {
        vm_take(r, buf, r->left < sizeof buf ? r->left : sizeof buf);
    }
    return r->hash != checksum ? OFC_E_MODEL_CHECKSUM : st;
}

/* One net's shape (the reader at it): into *net; *params = its parameters. */
static int32_t parse_net(vm_reader *r, uint32_t inputs, uint32_t offset, ofc_vm_net *net,
                         uint32_t *params)
{
    uint8_t head[4 * (OFC_VM_MAX_LAYERS + 1)];
    uint32_t l, count = 0;
    if (r->left < 8) {
        return OFC_E_MODEL_SHAPE;
    }
    vm_take(r, head, 8);
    net->cards = rd32(head);
    net->layers = rd32(head + 4);
    if (net->cards < 5 || net->cards > 12 || net->layers < 1 || /* 5..12: the format */
        net->layers > OFC_VM_MAX_LAYERS) {
        return OFC_E_MODEL_SHAPE;
    }
    if (r->left < 4 * (size_t)(net->layers + 1)) {
        return OFC_E_MODEL_SHAPE;
    }
    vm_take(r, head, 4 * (size_t)(net->layers + 1));
    for (l = 0; l <= net->layers; l++) {
        net->width[l] = rd32(head + 4 * l);
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
    if (count > OFC_VM_MAX_PARAMS - offset || r->left < 4 * (size_t)count) {
        return OFC_E_MODEL_SHAPE;
    }
    net->offset = offset;
    *params = count;
    return OFC_OK;
}

/* n parameters (the reader at them) into w at stride `stride` (1, or a layer's outputs
 * to transpose); OFC_E_MODEL_VALUE for one that is not finite or too large. */
static int32_t take_params(vm_reader *r, uint32_t n, size_t stride, float *w)
{
    uint8_t buf[4 * OFC_VM_MAX_WIDTH];
    uint32_t i;
    vm_take(r, buf, 4 * (size_t)n);
    for (i = 0; i < n; i++) {
        float f = rdf(buf + 4 * i);
        if (!(fabsf(f) <= (float)OFC_VM_MAX_WEIGHT)) {
            return OFC_E_MODEL_VALUE;
        }
        w[i * stride] = f;
    }
    return OFC_OK;
}

/* A net's parameters from the file (per layer W[out][in] then b) into w, each layer's
 * weights transposed (W^T[in][out], then b): the forward pass runs over outputs
 * innermost, contiguous and independent (vectorised), and skips zero inputs. */
static int32_t store_net(vm_reader *r, const ofc_vm_net *net, float *w)
{
    uint32_t l, j;
    int32_t st = OFC_OK;
    for (l = 0; l < net->layers && st == OFC_OK; l++) {
        uint32_t nin = net->width[l], nout = net->width[l + 1];
        for (j = 0; j < nout && st == OFC_OK; j++) {
            st = take_params(r, nin, nout, w + j);
        }
        if (st == OFC_OK) {
            st = take_params(r, nout, 1, w + (size_t)nin * nout);
        }
        w += (size_t)nout * (nin + 1);
    }
    return st;
}

/* The rest of the payload after the nets: the opponent rows when the header announces
 * them, else nothing. */
static int32_t parse_opponent(vm_reader *r, ofc_vmodel *out)
{
    size_t i;
    memset(out->opp, 0, sizeof out->opp);
    if (!out->opponent) {
        return r->left == 0 ? OFC_OK : OFC_E_MODEL_SHAPE;
    }
    if (r->left != sizeof out->opp) {
        return OFC_E_MODEL_SHAPE;
    }
    vm_take(r, (uint8_t *)out->opp, sizeof out->opp); /* little-endian: decoded in place */
    for (i = 0; i < OFC_VM_OPP_COUNTS; i++) {
        out->opp[i] = rd32((const uint8_t *)&out->opp[i]);
    }
    return ofc_ev_counts_ok(out->opp) ? OFC_OK : OFC_E_MODEL_SHAPE;
}

/* The payload after the header's fields (read): the nets, then the opponent rows. */
static int32_t parse_payload(vm_reader *r, ofc_vmodel *out)
{
    uint32_t k;
    int32_t st;
    if (out->opponent > 1) {
        return OFC_E_MODEL_SHAPE;
    }
    if (out->n_nets < 1 || out->n_nets > OFC_VM_MAX_NETS || out->inputs < 1 ||
        out->inputs > OFC_VM_MAX_WIDTH || out->players == 1 || out->players > 4) {
        return OFC_E_MODEL_SHAPE;
    }
    memset(out->net_of, -1, sizeof out->net_of);
    out->reserved[0] = out->reserved[1] = 0;
    out->n_params = 0;
    for (k = 0; k < out->n_nets; k++) {
        ofc_vm_net *net = &out->nets[k];
        uint32_t count;
        st = parse_net(r, out->inputs, out->n_params, net, &count);
        if (st != OFC_OK) {
            return st;
        }
        if (out->net_of[net->cards] >= 0) {
            return OFC_E_MODEL_SHAPE;
        }
        out->net_of[net->cards] = (int8_t)k;
        st = store_net(r, net, out->w + out->n_params);
        if (st != OFC_OK) {
            return st;
        }
        out->n_params += count;
    }
    return parse_opponent(r, out);
}

int32_t ofc_vm_parse(const uint8_t *data, size_t n, ofc_vmodel *out)
{
    uint8_t header[OFC_VM_HEADER_BYTES];
    vm_reader r;
    size_t reserved;
    int32_t st = OFC_OK;
    if (out == NULL || ofc_bytes_overlap(out, sizeof *out, data, n)) {
        return OFC_E_VALUE; /* out untouched: its writes would change the bytes read */
    }
    if (data == NULL || n < OFC_VM_HEADER_BYTES) {
        return OFC_E_MODEL_TRUNCATED;
    }
    ofc_copy_cards(header, data, OFC_VM_HEADER_BYTES); /* read once, as the payload */
    if (memcmp(header, MAGIC, 8) != 0) {
        return OFC_E_MODEL_MAGIC;
    }
    out->version = rd32(header + 8);
    if (out->version < 1 || out->version > OFC_VM_VERSION ||
        rd32(header + 12) != OFC_VM_HEADER_BYTES) {
        return OFC_E_MODEL_VERSION;
    }
    if (out->version >= 3 && rd64(header + VM_HEADER_SUM) !=
                                 vm_fnv(VM_FNV_BASIS, header, VM_HEADER_SUM)) {
        return OFC_E_MODEL_CHECKSUM; /* every field below may be damaged, its size too */
    }
    if (n != OFC_VM_HEADER_BYTES + (size_t)rd32(header + 16)) {
        return OFC_E_MODEL_TRUNCATED;
    }
    out->checksum = rd64(header + 40);
    out->rules_hash = rd32(header + 20);
    out->feature_set = rd32(header + 24);
    out->inputs = rd32(header + 28);
    out->players = rd32(header + 32);
    out->n_nets = rd32(header + 36);
    out->opponent = out->version >= 2 ? rd32(header + 48) : 0;
    reserved = out->version >= 3 ? VM_HEADER_SUM + 8 : out->version >= 2 ? 52 : 48;
    if (!ofc_reserved_zero(header + reserved, OFC_VM_HEADER_BYTES - reserved)) {
        st = OFC_E_MODEL_SHAPE;
    }
    r.p = data + OFC_VM_HEADER_BYTES;
    r.left = n - OFC_VM_HEADER_BYTES;
    r.hash = VM_FNV_BASIS;
    return vm_end(&r, out->checksum, st == OFC_OK ? parse_payload(&r, out) : st);
}

/* The forward pass is inlined into each instruction set's copy of it (below). */
#if defined(__GNUC__) || defined(__clang__)
#define OFC_VM_INLINE static inline __attribute__((always_inline))
#else
#define OFC_VM_INLINE static inline
#endif

/* Outputs a block of dense() sums at once, in registers: 16 doubles, four AVX2 vectors. */
#define OFC_VM_BLOCK 16

/* A block's sums, b[j + k] = bias[j + k] + W^T[nz[0]][j + k] a[nz[0]] + ... over the n
 * listed inputs in order, for k < OFC_VM_BLOCK. */
typedef void (*vm_block_fn)(const float *w, const float *bias, uint32_t nout, uint32_t j,
                            const uint32_t *nz, uint32_t n, const double *a, double *b);

/* The block in plain C (every compiler). */
OFC_VM_INLINE void block_plain(const float *w, const float *bias, uint32_t nout,
                               uint32_t j, const uint32_t *nz, uint32_t n, const double *a,
                               double *b)
{
    double acc[OFC_VM_BLOCK];
    uint32_t i, k;
    for (k = 0; k < OFC_VM_BLOCK; k++) {
        acc[k] = bias[j + k];
    }
    for (i = 0; i < n; i++) {
        const float *col = w + (size_t)nz[i] * nout + j;
        double ai = a[nz[i]];
        for (k = 0; k < OFC_VM_BLOCK; k++) {
            acc[k] += (double)col[k] * ai;
        }
    }
    for (k = 0; k < OFC_VM_BLOCK; k++) {
        b[j + k] = acc[k];
    }
}

/* One dense layer: b[j] = bias[j] + sum over nonzero a[i] of W^T[i][j] a[i], each sum
 * in input order, then a ReLU unless `last`; a[] gets the result.  The nonzero inputs
 * are listed once; blocks of OFC_VM_BLOCK outputs run through them (`block`), the
 * last nout % OFC_VM_BLOCK outputs one by one.  The same operations in the same order
 * wherever it is compiled, so every instruction set gives the same bits (a product,
 * rounded, then a sum: no fused multiply-add). */
OFC_VM_INLINE const float *dense(const float *w, uint32_t nin, uint32_t nout, int last,
                                 double *a, double *b, vm_block_fn block)
{
    const float *bias = w + (size_t)nout * nin;
    uint32_t nz[OFC_VM_MAX_WIDTH], n = 0, i, j;
    for (i = 0; i < nin; i++) { /* no branch: which inputs are 0 is data */
        nz[n] = i;
        n += a[i] != 0.0;
    }
    for (j = 0; j + OFC_VM_BLOCK <= nout; j += OFC_VM_BLOCK) {
        block(w, bias, nout, j, nz, n, a, b);
    }
    for (; j < nout; j++) { /* the tail, one output at a time (block_plain with a
                             * variable width measured 1.6 times slower here) */
        double sum = bias[j];
        for (i = 0; i < n; i++) {
            sum += (double)w[(size_t)nz[i] * nout + j] * a[nz[i]];
        }
        b[j] = sum;
    }
    for (j = 0; j < nout; j++) {
        a[j] = (!last && b[j] < 0) ? 0.0 : b[j];
    }
    return bias + nout;
}

/* The forward pass of one net from a[] (its inputs) to a[0]. */
OFC_VM_INLINE void forward(const ofc_vm_net *net, const float *w, double *a, double *b,
                           vm_block_fn block)
{
    uint32_t l;
    for (l = 0; l < net->layers; l++) {
        w = dense(w, net->width[l], net->width[l + 1], l + 1 == net->layers, a, b, block);
    }
}

/* x86-64 with GCC or Clang: a second copy of the forward pass whose blocks are four
 * AVX2 vectors of 4 doubles (product then sum, as block_plain: no FMA), chosen when
 * the CPU has AVX2. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(OFC_NO_AVX2)
#define OFC_VM_AVX2 1
#include <immintrin.h>

__attribute__((target("avx2"))) static inline void
block_avx2(const float *w, const float *bias, uint32_t nout, uint32_t j, const uint32_t *nz,
           uint32_t n, const double *a, double *b)
{
    __m256d s[OFC_VM_BLOCK / 4];
    uint32_t i, k;
    for (k = 0; k < OFC_VM_BLOCK / 4; k++) {
        s[k] = _mm256_cvtps_pd(_mm_loadu_ps(bias + j + 4 * k));
    }
    for (i = 0; i < n; i++) {
        const float *col = w + (size_t)nz[i] * nout + j;
        __m256d x = _mm256_set1_pd(a[nz[i]]);
        for (k = 0; k < OFC_VM_BLOCK / 4; k++) {
            __m256d wk = _mm256_cvtps_pd(_mm_loadu_ps(col + 4 * k));
            s[k] = _mm256_add_pd(s[k], _mm256_mul_pd(wk, x));
        }
    }
    for (k = 0; k < OFC_VM_BLOCK / 4; k++) {
        _mm256_storeu_pd(b + j + 4 * k, s[k]);
    }
}

__attribute__((target("avx2"))) static void forward_avx2(const ofc_vm_net *net,
                                                         const float *w, double *a,
                                                         double *b)
{
    forward(net, w, a, b, block_avx2);
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
    forward(net, w, a, b, block_plain);
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
