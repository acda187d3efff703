/* own-gemm: the example kernel's interface, shared by its CUDA file (compiled once per build)
 * and the C11 host program.
 *
 *   C[M,N] = A[M,K] * B[N,K]^T   fp16 in and out, fp32 accumulation, all row-major
 *                                (A and B K-major)
 *
 * One CTA per SM walks tiles blockIdx.x, += gridDim.x.  Per CTA: one producer warp copies each
 * K block of A and B into a ring of OG_STAGES shared-memory stages (cp.async.bulk, one
 * full/empty mbarrier pair per stage); two consumer warpgroups compute 64 rows of the
 * 128 x 128 tile each with mma.sync m16n8k16, then convert to fp16 and store. */
#ifndef OWN_GEMM_H
#define OWN_GEMM_H

#include <stdint.h>
#include <cuda_runtime_api.h>
#include <gemmscope/gs_format.h>

/* The tile a CTA computes at a time (one unit of the run), and the K block of one stage. */
#define OG_BM 128
#define OG_BN 128
#define OG_BK 64
#define OG_STAGES 4
/* Warps 0-7: the two consumer warpgroups (warpgroup w: tile rows 64w .. 64w + 63); warp 8:
 * the producer. */
#define OG_CONSUMER_WARPS 8
#define OG_WARPS (OG_CONSUMER_WARPS + 1)
#define OG_THREADS (32 * OG_WARPS)

/* Shared memory.  A stage holds BM rows of A then BN rows of B, each row one K block (128
 * bytes) padded to 144: the 8 row addresses of an ldmatrix phase then lie 36 words apart and
 * fall into 8 distinct 4-bank groups (no bank conflict).  The mbarriers follow the stages. */
#define OG_ROW_PITCH (2 * OG_BK + 16)
#define OG_A_BYTES (OG_BM * OG_ROW_PITCH)
#define OG_STAGE_BYTES (OG_A_BYTES + OG_BN * OG_ROW_PITCH)
#define OG_STAGE_TX_BYTES (2 * (OG_BM + OG_BN) * OG_BK) /* what the copies of one stage land */
#define OG_BARRIERS_OFFSET (OG_STAGES * OG_STAGE_BYTES)
#define OG_SMEM_BYTES (OG_BARRIERS_OFFSET + 2 * OG_STAGES * 8)

/* Largest M, N, K the host program accepts (and the tile tag of GS_TILE is 16 bits). */
#define OG_MAX_DIM 32768

/* The kernel's own phases: sub-phases of GS_MAINLOOP, stamped once per K block by the detail
 * twin (the run names them WAIT and MMA: run_meta.c). */
#define OG_PHASE_WAIT GS_PHASE_OWN(0)
#define OG_PHASE_MMA GS_PHASE_OWN(1)

typedef struct own_gemm_args {
    const uint16_t *a; /* fp16 bits, [m][k] */
    const uint16_t *b; /* fp16 bits, [n][k] */
    uint16_t *c;       /* fp16 bits, [m][n] */
    int m, n, k;       /* multiples of OG_BM, OG_BN, OG_BK */
    int grid;          /* CTAs: og_grid() */
} own_gemm_args;

#ifdef __cplusplus
extern "C" {
#endif

/* One launch of each build of own_gemm.cu on stream s (the production build ignores
 * `stamps`); 0 or a cudaError_t. */
int own_gemm_launch_prod(const own_gemm_args *p, gs_buffer stamps, cudaStream_t s);
int own_gemm_launch_twin(const own_gemm_args *p, gs_buffer stamps, cudaStream_t s);
int own_gemm_launch_detail(const own_gemm_args *p, gs_buffer stamps, cudaStream_t s);

#ifdef __cplusplus
}
#endif

#endif
