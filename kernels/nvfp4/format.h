/* NVFP4 number formats and the blocked scale layout.  Pure C11, host only.
 * (Device code has its own, independently written decoders: the CPU and GPU
 * references then check each other.) */
#ifndef NVFP4_FORMAT_H
#define NVFP4_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* FP4 e2m1: code 0..15 (bit 3 sign, bits 2-1 exponent bias 1, bit 0 mantissa)
 * -> +-{0, 0.5, 1, 1.5, 2, 3, 4, 6}; code 8 is -0.0.  Only the low 4 bits are used. */
double nvfp4_e2m1_decode(unsigned code);

/* FP8 e4m3fn (float8_e4m3fn): bit 7 sign, bits 6-3 exponent bias 7, bits 2-0 mantissa;
 * no infinities, 0x7F/0xFF are NaN, max finite 448, subnormals m*2^-9. */
double nvfp4_e4m3_decode(unsigned code);

/* IEEE binary16 bits -> double (exact; NaN and infinities preserved). */
double nvfp4_half_to_double(uint16_t h);

/* Scale rows as stored: rows rounded up to a multiple of 128. */
int nvfp4_pad_rows(int rows);

/* Bytes of one blocked scale tensor: pad_rows(rows) * K/16. */
size_t nvfp4_sf_bytes(int rows, int K);

/* Byte offset of the scale of (row i, scale column j = k/16) in the blocked 128x4 layout,
 * rest_k = K/64:  (i/128)*rest_k*512 + (j/4)*512 + (i%32)*16 + ((i%128)/32)*4 + (j%4). */
size_t nvfp4_sf_offset(int i, int j, int K);

#ifdef __cplusplus
}
#endif
#endif
