/* The token pre-pass: every A_g (M_g x K FP4 with blocked e4m3 scales) becomes exact fp16
 * values (value x scale) in [M_g, K], with K permuted inside each block of NVFP4_BK by
 * nvfp4_kperm, so the GEMM can TMA the tokens straight into its wgmma B tiles.  Runs once
 * per GEMM, before it, on the same stream; memory-bound (reads K/2 + K/16 bytes per token
 * row, writes 2K).  One thread block per token block (tokens.cuh): one thread per 16-byte
 * unit of A, a 16-byte vector load and one 16-bit scale load each. */
#include <cuda_runtime.h>
#include <stdint.h>

#include "nvfp4_internal.h"
#include "ptx.cuh"
#include "tokens.cuh"

namespace {

__global__ void __launch_bounds__(NVFP4_TOKEN_UNITS) nvfp4_tokens_kernel(const __grid_constant__ nvfp4_tparams tp)
{
    griddep_launch_dependents(); /* the GEMM may start its set-up now; it waits before reading T */
    __shared__ uint4 stage[NVFP4_TOKEN_CHUNKS];
    token_block<0>(tp, (int)blockIdx.x, stage, (int)threadIdx.x, NVFP4_TOKEN_UNITS);
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
