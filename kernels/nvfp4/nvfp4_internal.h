/* Internals shared by problem.cu, gemm.cu (both builds), variants.c and
 * cublas_anchor.cu.  Not part of the public API.  Plain C (+ CUDA headers). */
#ifndef NVFP4_INTERNAL_H
#define NVFP4_INTERNAL_H

#include <cuda.h> /* CUtensorMap only: nothing here links libcuda */
#include "nvfp4.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Kernel parameters of one (problem, tile shape): passed by value as a __grid_constant__
 * parameter (about 4.9 KB; kernels params above 4 KB need CUDA >= 12.1, sm_70+).
 * Swap-AB naming: W = weights = B_g (the wgmma M side), T = tokens = A_g (the N side). */
typedef struct nvfp4_kparams {
    CUtensorMap tmW[NVFP4_MAX_GROUPS]; /* B_g bytes [N, K/2], box {128 B, tile_w rows}, no swizzle */
    CUtensorMap tmT[NVFP4_MAX_GROUPS]; /* A_g bytes [M, K/2], box {128 B, tile_t rows}; rows >= M read 0 */
    const uint8_t *sfW[NVFP4_MAX_GROUPS]; /* SFB_g, blocked */
    const uint8_t *sfT[NVFP4_MAX_GROUPS]; /* SFA_g, blocked */
    uint16_t *C[NVFP4_MAX_GROUPS];        /* fp16 bits [M, N] row-major */
    int m[NVFP4_MAX_GROUPS], n[NVFP4_MAX_GROUPS], k[NVFP4_MAX_GROUPS];
    int tile_start[NVFP4_MAX_GROUPS + 1]; /* first CTA of group g; tile_start[groups] = grid */
    int groups, tile_w, tile_t;
} nvfp4_kparams;

/* Output tiles of shape (tile_w x tile_t) over all groups: sum_g N_g/tile_w * ceil(M_g/tile_t). */
int nvfp4_count_tiles(const nvfp4_shape *s, int tile_w, int tile_t);

/* Parameters for tile shape (tile_w, tile_t), built on first use (tensor maps encoded through
 * cudaGetDriverEntryPointByVersion) and cached in p.  NULL + message on stderr on failure. */
const nvfp4_kparams *nvfp4_problem_kparams(nvfp4_problem *p, int tile_w, int tile_t);

/* Device pointers of group g (pointers into p; do not free). */
typedef struct nvfp4_group_dev {
    const uint8_t *A, *B, *SFA, *SFB; /* A [M, K/2], B [N, K/2], scales blocked */
    uint16_t *C;                      /* fp16 bits [M, N] */
    int M, N, K;
} nvfp4_group_dev;
int nvfp4_problem_group(const nvfp4_problem *p, int g, nvfp4_group_dev *out);

/* Runs the fp32 GPU reference of every group on s and returns the per-group float buffers
 * [M_g, N_g] (owned by p) in refs[0..groups).  0 or a CUDA error. */
int nvfp4_problem_reference(nvfp4_problem *p, cudaStream_t s, const float **refs);

/* Launchers of gemm.cu, one per build (GS_SYM: _prod / _twin).  0 or a CUDA error;
 * cudaErrorNotSupported for a knob point that is not instantiated. */
int nvfp4_gemm_launch_prod(const nvfp4_variant *v, const nvfp4_kparams *kp, gs_buffer stamps,
                           cudaStream_t s);
int nvfp4_gemm_launch_twin(const nvfp4_variant *v, const nvfp4_kparams *kp, gs_buffer stamps,
                           cudaStream_t s);

/* Stamp records one warp of the baseline kernel writes for a group with this K:
 * MAINLOOP + 3 per K block (LOAD_WAIT, DEQUANT, MMA) + ACC_TO_REG + EPILOGUE + STORE. */
#define NVFP4_BK 256
#define NVFP4_EVENTS_PER_WARP(K) (4u + 3u * (unsigned)((K) / NVFP4_BK))
#define NVFP4_WARPS_PER_CTA 4u

#ifdef __cplusplus
}
#endif
#endif
