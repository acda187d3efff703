/* The token pre-pass: every A_g (M_g x K FP4 with blocked e4m3 scales) becomes exact fp16
 * values (value x scale) in [M_g, K], with K permuted inside each block of NVFP4_BK by
 * nvfp4_kperm, so the GEMM can TMA the tokens straight into its wgmma B tiles.  Runs once
 * per GEMM, before it, on the same stream; memory-bound (reads K/2 + K/16 bytes per token
 * row, writes 2K).  One thread block per token block of NVFP4_TOKEN_UNITS 16-byte units of
 * A (32 FP4 values and their two scales each): one thread per unit, a 16-byte vector load
 * and one 16-bit scale load each.
 *
 * A unit's 32 outputs are 16 fp16 pairs 16 bytes apart (the permutation interleaves the
 * four units of a 128-element block), so the block stages its output in shared memory and
 * writes it back as contiguous 16-byte vectors: the global stores are fully coalesced
 * instead of 4-byte scattered. */
#include <cuda_runtime.h>
#include <stdint.h>

#include "nvfp4_internal.h"
#include "dequant.cuh"
#include "ptx.cuh"

namespace {

constexpr int TOKEN_CHUNKS = 4 * NVFP4_TOKEN_UNITS; /* 16-byte output chunks per token block */

/* Unit u's pair m (0..15) is word c = u % 4 of output chunk 16 (u / 4) + m.  The chunk is
 * stored at a position XOR-swizzled by its 256-byte block so that the eight quads of a
 * warp writing the same m hit 32 different banks; 16-byte reads of 32 consecutive chunks
 * stay conflict-free (the swizzle permutes within groups of eight). */
__device__ __forceinline__ int token_chunk_slot(int chunk)
{
    return chunk ^ ((chunk >> 4) & 7);
}

/* Token block `block` (0 <= block < tp.block_start[tp.groups]), thread tid of its
 * NVFP4_TOKEN_UNITS; stage: TOKEN_CHUNKS x 16 bytes of shared memory. */
__device__ __forceinline__ void token_block(const nvfp4_tparams &tp, int block, uint4 *stage, int tid)
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
    __syncthreads();
    uint4 *const out = reinterpret_cast<uint4 *>(tp.T[g]) + 4 * first;
    const int chunks = 4 * (int)units;
    for (int k = tid; k < chunks; k += NVFP4_TOKEN_UNITS)
        out[k] = stage[token_chunk_slot(k)];
    __syncthreads();
}

__global__ void __launch_bounds__(NVFP4_TOKEN_UNITS) nvfp4_tokens_kernel(const __grid_constant__ nvfp4_tparams tp)
{
    griddep_launch_dependents(); /* the GEMM may start its set-up now; it waits before reading T */
    __shared__ uint4 stage[TOKEN_CHUNKS];
    token_block(tp, (int)blockIdx.x, stage, (int)threadIdx.x);
}

} // namespace

extern "C" int nvfp4_tokens_launch(const nvfp4_tparams *tp, cudaStream_t s)
{
    const int blocks = tp->block_start[tp->groups];
    if (blocks < 1)
        return (int)cudaErrorInvalidValue;
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3((unsigned)blocks);
    cfg.blockDim = dim3(NVFP4_TOKEN_UNITS);
    cfg.stream = s;
    /* this launch's own error (cudaGetLastError could return an earlier call's) */
    return (int)cudaLaunchKernelEx(&cfg, nvfp4_tokens_kernel, *tp);
}
