/* The token pre-pass: every A_g (M_g x K FP4 with blocked e4m3 scales) becomes exact fp16
 * values (value x scale) in [M_g, K], with K permuted inside each block of NVFP4_BK by
 * nvfp4_kperm, so the GEMM can TMA the tokens straight into its wgmma B tiles.  Runs once
 * per GEMM, before it, on the same stream; memory-bound (reads K/2 + K/16 bytes per token
 * row, writes 2K). */
#include <cuda_runtime.h>
#include <stdint.h>

#include "nvfp4_internal.h"
#include "dequant.cuh"
#include "ptx.cuh"

namespace {

/* One thread per 32-bit word (8 FP4 of one row, one scale block), grid-stride over all groups. */
__global__ void __launch_bounds__(256) nvfp4_tokens_kernel(const __grid_constant__ nvfp4_tparams tp)
{
    griddep_launch_dependents(); /* the GEMM may start its set-up now; it waits before reading T */
    const long long total = tp.word_start[tp.groups];
    for (long long w = (long long)blockIdx.x * blockDim.x + threadIdx.x; w < total;
         w += (long long)gridDim.x * blockDim.x) {
        int g = 0;
        while (g + 1 < tp.groups && w >= tp.word_start[g + 1])
            g++;
        const int K = tp.k[g];
        const long long local = w - tp.word_start[g];
        const int row = (int)(local / (K / 8)), P = (int)(local % (K / 8)) * 8;
        const uint32_t q = reinterpret_cast<const uint32_t *>(tp.A[g])[local];
        /* blocked scales: band row/128, atom P/64, byte (row%32)*16 + (row%128/32)*4 + (P/16)%4 */
        const int j = P / 16;
        const size_t sf_off = (size_t)(row / 128) * (size_t)(K / 64) * 512u + (size_t)(j / 4) * 512u +
                              (size_t)((row & 31) * 16 + ((row >> 5) & 3) * 4 + (j & 3));
        const uint8_t s = tp.SFA[g][sf_off];
        const uint32_t sc = e4m3x2_to_f16x2((uint16_t)s) & 0xFFFFu;
        const uint32_t s2 = sc * 0x10001u;
        uint32_t *const out = reinterpret_cast<uint32_t *>(tp.T[g] + (size_t)row * (size_t)K);
#pragma unroll
        for (int p = 0; p < 4; p++) /* physical P+p, P+p+4 -> logical kperm(P+p), +1 */
            out[nvfp4_kperm(P + p) / 2] = dequant_nibbles(q, p, s2);
    }
}

} // namespace

extern "C" int nvfp4_tokens_launch(const nvfp4_tparams *tp, cudaStream_t s)
{
    int dev = 0, sms = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (e != cudaSuccess)
        return (int)e;
    const long long total = tp->word_start[tp->groups];
    long long blocks = (total + 255) / 256;
    if (blocks > 8LL * sms)
        blocks = 8LL * sms;
    if (blocks < 1)
        blocks = 1;
    nvfp4_tokens_kernel<<<(unsigned)blocks, 256, 0, s>>>(*tp);
    return (int)cudaGetLastError();
}
