/* Model files of the learned value model (ofc_value.h) written byte by byte, for the C
 * tests that need one: little-endian words, the 64-byte header (format 1, or format 3
 * with seal_v3()), the payload size and checksums. Static inline: a test uses the ones it needs. */
#ifndef OFC_TEST_MODEL_FILE_H
#define OFC_TEST_MODEL_FILE_H

#include <stdint.h>
#include <string.h>

#include "ofc_value.h"

/* v little-endian at p; returns 4. */
static inline size_t put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
    return 4;
}

/* The bits of f at p; returns 4. */
static inline size_t putf(uint8_t *p, float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return put32(p, u);
}

/* The header of a 2-player model file of `nets` nets (payload size and checksum
 * left to seal()); returns its size. */
static inline size_t put_header(uint8_t *f, uint32_t rules_hash, uint32_t nets)
{
    memset(f, 0, 64);
    memcpy(f, "OFCVALUE", 8);
    put32(f + 8, 1);
    put32(f + 12, 64);
    put32(f + 20, rules_hash);
    put32(f + 24, OFC_VF_SET);
    put32(f + 28, OFC_VF_N);
    put32(f + 32, 2);
    put32(f + 36, nets);
    return 64;
}

/* The checksum of a file of n bytes into its header. */
static inline void reseal(uint8_t *f, size_t n)
{
    uint64_t h = ofc_vm_checksum(f + 64, n - 64);
    put32(f + 40, (uint32_t)h);
    put32(f + 44, (uint32_t)(h >> 32));
}

/* The payload size and checksum of a file of n bytes into its header; returns n. */
static inline size_t seal(uint8_t *f, size_t n)
{
    put32(f + 16, (uint32_t)(n - 64));
    reseal(f, n);
    return n;
}

/* The sealed file of n bytes as format 3: its version, then its header checksum (FNV-1a
 * 64 of bytes 0..51, the payload checksum among them) at 52..59; returns n. */
static inline size_t seal_v3(uint8_t *f, size_t n)
{
    uint64_t h;
    put32(f + 8, 3);
    h = ofc_vm_checksum(f, 52);
    put32(f + 52, (uint32_t)h);
    put32(f + 56, (uint32_t)(h >> 32));
    return n;
}

#endif
