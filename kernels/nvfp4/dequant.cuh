/* The FP4 -> fp16 dequantisation shared by the token pre-pass (tokens.cu) and the GEMM's
 * weight fragments (gemm.cu).  Static: every translation unit gets its own inline copy. */
#ifndef NVFP4_DEQUANT_CUH
#define NVFP4_DEQUANT_CUH

#include <stdint.h>

#include "ptx.cuh"
#include "schedule.h"

/* Two FP4 codes -> fp16x2 of value x scale x 2^-14, exact.  Nibbles p and p+4 of w (shifted
 * to the top of each 16-bit lane) get their sign at bit 15 and e1 e0 m at bits 11..9: an
 * fp16 equal to v * 2^-14 (0.5 becomes a subnormal).  Every product v x s of e2m1 and e4m3
 * is a multiple of 2^-10 with at most 6 significant bits and at most 2688, so v s 2^-14 is a
 * multiple of 2^-24 below 0.17: an fp16 (normal or subnormal) exactly, and mul.rn.f16x2
 * without .ftz returns it.  The GEMM's weights use this form (one multiply per pair) and
 * undo the 2^-14 on the fp32 accumulator. */
static __device__ __forceinline__ uint32_t dequant_nibbles_x2m14(uint32_t w, int p, uint32_t scale2)
{
    const uint32_t y = w << (4 * (3 - p));
    const uint32_t bits = (y & 0x80008000u) | ((y >> 3) & 0x0E000E00u);
    return hmul2_rn(bits, scale2);
}

/* Two FP4 codes -> fp16x2 of value x scale, exact (the tokens): x 2^14 restores v first
 * (scaling the scale instead would overflow fp16 for s > 4), then x scale. */
static __device__ __forceinline__ uint32_t dequant_nibbles(uint32_t w, int p, uint32_t scale2)
{
    const uint32_t v2 = dequant_nibbles_x2m14(w, p, 0x74007400u /* 2^14, 2^14 */);
    return hmul2_rn(v2, scale2);
}

/* Byte offset, in a blocked scale tensor (format.h) of K columns, of the 4 scales that token
 * or weight row `row` has in scale atom `atom` (64 K elements): band row/128, atom, then
 * (row%32)*16 + ((row%128)/32)*4. */
static __device__ __forceinline__ size_t sf_atom_offset(int row, int K, int atom)
{
    return (size_t)(row / 128) * (size_t)(K / 64) * 512u + (size_t)atom * 512u +
           (size_t)((row & 31) * 16 + ((row >> 5) & 3) * 4);
}

/* One stage's raw weight words and scales for this thread's two weight rows (row, row + 8),
 * from a stage's raw FP4 weights (rows of NVFP4_BK / 2 bytes at w_raw) and its two blocked
 * scale atoms (sf).  Thread quad lane c reads bytes 16c..16c+15 of each row: scale blocks 2c
 * (words 0, 1) and 2c + 1 (words 2, 3). */
struct weight_words {
    uint32_t w[2][4];            /* [row half h][word i] */
    uint32_t s_lo[2], s_hi[2];   /* [h]: the scale of words 0-1 and of words 2-3, in both halves */
};

static __device__ __forceinline__ void load_weight_words(weight_words &ww, uint32_t w_raw, uint32_t sf, int row,
                                                         int band_row, int c)
{
#pragma unroll
    for (int h = 0; h < 2; h++) {
        const int r = row + 8 * h, br = band_row + 8 * h;
        const uint4 q = lds128(w_raw + (uint32_t)(r * (NVFP4_BK / 2) + 16 * c));
        /* blocked layout: row i's 4 scales of an atom are bytes (i%32)*16 + ((i%128)/32)*4 + 0..3 */
        const uint16_t s2 = lds16(sf + (uint32_t)((c >> 1) * 512 + (br & 31) * 16 + (br >> 5) * 4 + 2 * (c & 1)));
        const uint32_t sc = e4m3x2_to_f16x2(s2);
        ww.s_lo[h] = (sc & 0xFFFFu) * 0x10001u;
        ww.s_hi[h] = (sc >> 16) * 0x10001u;
        ww.w[h][0] = q.x;
        ww.w[h][1] = q.y;
        ww.w[h][2] = q.z;
        ww.w[h][3] = q.w;
    }
}

/* The fragment of k16 step s (0..7): word i = s / 2, nibble pairs p = 2 (s % 2) and + 1
 * (nvfp4_kperm: word i, pair p feeds step 2i + p/2; half h of the fragment's registers is row
 * half h). */
static __device__ __forceinline__ void dequant_weight_step(uint32_t (&a)[4], const weight_words &ww, int s)
{
    const int i = s >> 1, p0 = 2 * (s & 1);
#pragma unroll
    for (int h = 0; h < 2; h++) {
        const uint32_t sc = i < 2 ? ww.s_lo[h] : ww.s_hi[h];
#pragma unroll
        for (int d = 0; d < 2; d++)
            a[2 * d + h] = dequant_nibbles_x2m14(ww.w[h][i], p0 + d, sc);
    }
}

/* The register fragments of one stage (eight k16 steps of K = NVFP4_BK).  Shared by the GEMM
 * and the wgmma-rate benchmark. */
static __device__ __forceinline__ void dequant_weight_stage(uint32_t (&a)[8][4], uint32_t w_raw, uint32_t sf, int row,
                                                            int band_row, int c)
{
    weight_words ww;
    load_weight_words(ww, w_raw, sf, row, band_row, c);
#pragma unroll
    for (int s = 0; s < 8; s++)
        dequant_weight_step(a[s], ww, s);
}

#endif
