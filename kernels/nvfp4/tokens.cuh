/* One block of the token dequantisation: NVFP4_TOKEN_UNITS 16-byte units of A_g (32 FP4
 * values and their two scales each) become exact fp16 in T_g, K permuted inside each block
 * of NVFP4_BK by nvfp4_kperm.  Shared by the pre-pass kernel (tokens.cu: one thread block
 * per token block) and the GEMM's fused prologue (gemm.cu, fused_tokens 2: every CTA walks
 * token blocks with all its threads before its first load).
 *
 * A unit's 32 outputs are 16 fp16 pairs 16 bytes apart (the permutation interleaves the
 * four units of a 128-element block), so the block stages its output in shared memory and
 * writes it back as contiguous 16-byte vectors: the global stores are fully coalesced
 * instead of 4-byte scattered. */
#ifndef NVFP4_TOKENS_CUH
#define NVFP4_TOKENS_CUH

#include <stdint.h>

#include "nvfp4_internal.h"
#include "dequant.cuh"

constexpr int NVFP4_TOKEN_CHUNKS = 4 * NVFP4_TOKEN_UNITS; /* 16-byte output chunks per token block */

/* Unit u's pair m (0..15) is word c = u % 4 of output chunk 16 (u / 4) + m.  The chunk is
 * stored at a position XOR-swizzled by its 256-byte block so that the eight quads of a
 * warp writing the same m hit 32 different banks; 16-byte reads of 32 consecutive chunks
 * stay conflict-free (the swizzle permutes within groups of eight). */
static __device__ __forceinline__ int token_chunk_slot(int chunk)
{
    return chunk ^ ((chunk >> 4) & 7);
}

/* The threads of a token block meet twice: BAR 0 is the whole CTA (__syncthreads), any other
 * id a named barrier of the nthreads that call token_block. */
template <int BAR> static __device__ __forceinline__ void token_block_sync(int nthreads)
{
    if constexpr (BAR == 0) {
        (void)nthreads;
        __syncthreads();
    } else {
        asm volatile("bar.sync %0, %1;" ::"n"(BAR), "r"(nthreads) : "memory");
    }
}

/* Token block `block` (0 <= block < tp.block_start[tp.groups]; tp: an nvfp4_tparams, or the
 * GEMM's narrowed copy of one, gemm.cu) by nthreads >= NVFP4_TOKEN_UNITS
 * threads of the calling CTA (thread tid of them, 0 .. nthreads - 1); stage: NVFP4_TOKEN_CHUNKS x 16
 * bytes of shared memory.  All nthreads must call it (they meet twice on barrier BAR: the
 * staging is free again when it returns). */
template <int BAR, class TP>
static __device__ __forceinline__ void token_block(const TP &tp, int block, uint4 *stage, int tid, int nthreads)
{
    uint32_t *const words = reinterpret_cast<uint32_t *>(stage);
    int g = 0;
    while (g + 1 < tp.groups && block >= tp.block_start[g + 1])
        g++;
    const long long first = (long long)(block - tp.block_start[g]) * NVFP4_TOKEN_UNITS;
    const long long units =
        tp.units[g] - first < NVFP4_TOKEN_UNITS ? tp.units[g] - first : NVFP4_TOKEN_UNITS;
    const int K = tp.k[g], per_row = K / 32;

    const int u = tid;
    if (u < units) {
        const long long unit = first + u;
        const int row = (int)(unit / per_row), j = (int)(unit % per_row); /* K elements 32j .. 32j + 31 */
        const uint4 q = reinterpret_cast<const uint4 *>(tp.A[g])[unit];
        /* blocked scales of blocks 2j, 2j + 1: adjacent bytes (2j)%4, +1 of atom j/2 */
        const size_t sf_off = sf_atom_offset(row, K, j / 2) + 2 * (j & 1);
        const uint16_t s2 = *reinterpret_cast<const uint16_t *>(tp.SFA[g] + sf_off);
        const uint32_t sc = e4m3x2_to_f16x2(s2);
        const uint32_t s_lo = (sc & 0xFFFFu) * 0x10001u, s_hi = (sc >> 16) * 0x10001u;
        const uint32_t w[4] = {q.x, q.y, q.z, q.w};
        const int c = u & 3, base = 16 * (u >> 2);
#pragma unroll
        for (int i = 0; i < 4; i++)
#pragma unroll
            for (int p = 0; p < 4; p++) /* nibbles p, p + 4 of word i -> pair m = 4i + p (nvfp4_kperm) */
                words[4 * token_chunk_slot(base + 4 * i + p) + c] = dequant_nibbles(w[i], p, i < 2 ? s_lo : s_hi);
    }
    token_block_sync<BAR>(nthreads);
    uint4 *const out = reinterpret_cast<uint4 *>(tp.T[g]) + 4 * first;
    const int chunks = 4 * (int)units;
    for (int k = tid; k < chunks; k += nthreads)
        out[k] = stage[token_chunk_slot(k)];
    token_block_sync<BAR>(nthreads);
}

#endif
