/* Internals shared by problem.cu, gemm.cu (every build), tokens.cu, evidence_none.c and
 * cublas_anchor.cu.  Not part of the public API.  Plain C (+ CUDA headers). */
#ifndef NVFP4_INTERNAL_H
#define NVFP4_INTERNAL_H

#include <cuda.h> /* CUtensorMap only: nothing here links libcuda */
#include "nvfp4.h"
#include "schedule.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 16-byte units of A (one per thread) per block of the token pre-pass (tokens.cu). */
#define NVFP4_TOKEN_UNITS 256

/* Parameters of the token pre-pass (tokens.cu): A_g -> fp16 [M, K], scales applied, K permuted. */
typedef struct nvfp4_tparams {
    int block_start[NVFP4_MAX_GROUPS + 1]; /* first thread block of group g; [groups] = grid */
    int groups;
    int k[NVFP4_MAX_GROUPS];
    long long units[NVFP4_MAX_GROUPS]; /* 16-byte units (32 FP4) of A_g: M_g x K / 32 */
    const uint8_t *A[NVFP4_MAX_GROUPS];
    const uint8_t *SFA[NVFP4_MAX_GROUPS];
    uint16_t *T[NVFP4_MAX_GROUPS];
} nvfp4_tparams;

/* Kernel parameters of one (problem, tile shape, persistence, split K): passed by value as a
 * __grid_constant__ parameter (parameters above 4 KB need CUDA >= 12.1), or, for problems of
 * at most four groups, as a copy narrowed to them (gemm.cu, narrow_kparams).
 * Swap-AB naming: W = weights = B_g (the wgmma M side), T = tokens = A_g (the N side).
 * The dual GEMM (one group) fills two entries: entry 0 is its problem with B1, entry 1 the same
 * with B2 (tmW[1], sfW[1]), which the gate points read as entry g + 1; groups is then 2, the
 * entries in use (the narrow copy takes that many). */
typedef struct nvfp4_kparams {
    CUtensorMap tmW[NVFP4_MAX_GROUPS]; /* B_g bytes [N, K/2], box {64 B, tile_w rows}, no swizzle */
    CUtensorMap tmT[NVFP4_MAX_GROUPS]; /* dequantised tokens fp16 [M, K] (K permuted), box {64, t_box},
                                          128B swizzle; rows >= M read 0 */
    CUtensorMap tmC[NVFP4_MAX_GROUPS]; /* C_g fp16 [M, N], box {64, t_box}, 128B swizzle; rows >= M dropped */
    const uint8_t *sfW[NVFP4_MAX_GROUPS]; /* SFB_g, blocked */
    uint16_t *C[NVFP4_MAX_GROUPS];        /* fp16 bits [M, N] row-major */
    int m[NVFP4_MAX_GROUPS], n[NVFP4_MAX_GROUPS], k[NVFP4_MAX_GROUPS];
    int t_box[NVFP4_MAX_GROUPS];          /* token rows one TMA box of group g brings */
    const nvfp4_tile *tiles;              /* device copy of the schedule */
    const int *cta_first;                 /* device, grid + 1 entries */
    float *partials; /* split K: partial_bufs x tile_w x tile_t fp32 (schedule.h); else NULL */
    int *flags;      /* split K: split_tiles x consumer warpgroups arrival counters, 0 between launches */
    int groups, tile_w, tile_t, persistent, grid;
    int pdl; /* launch with programmatic dependent launch (the pre-pass may still run) */
    int full_width; /* run the point's one-width kernel (nvfp4_variant_full_width) */
} nvfp4_kparams;

/* Enqueue the token pre-pass.  0 or a CUDA error. */
int nvfp4_tokens_launch(const nvfp4_tparams *tp, cudaStream_t s);

/* Parameters for variant v's tile shape and persistence, built on first use (tensor maps
 * encoded through cudaGetDriverEntryPointByVersion, schedule uploaded) and cached in p.
 * NULL + message on stderr on failure. */
const nvfp4_kparams *nvfp4_problem_kparams(nvfp4_problem *p, const nvfp4_variant *v);

/* Device pointers of group g (pointers into p; do not free). */
typedef struct nvfp4_group_dev {
    const uint8_t *A, *B, *SFA, *SFB; /* A [M, K/2], B [N, K/2], scales blocked */
    const uint8_t *B2, *SFB2;         /* the dual GEMM's second B and its scales; else NULL */
    uint16_t *C;                      /* fp16 bits [M, N] */
    int M, N, K;
} nvfp4_group_dev;
int nvfp4_problem_group(const nvfp4_problem *p, int g, nvfp4_group_dev *out);

/* Runs the fp32 GPU reference of every group on s and returns the per-group float buffers
 * [M_g, N_g] (owned by p) in refs[0..groups) (the dual GEMM: silu(A B1^T) * (A B2^T), both
 * GEMMs accumulated in float64, then fp32).  0 or a CUDA error. */
int nvfp4_problem_reference(nvfp4_problem *p, cudaStream_t s, const float **refs);

/* Launchers of gemm.cu (the production points), one per build (GS_SYM: _prod / _twin /
 * _detail), and of gemm_evidence.cu and gemm_dual_evidence.cu (the evidence points of each
 * GEMM; evidence_none.c in a program built without them).  0 or a CUDA error; cudaErrorNotSupported for a knob point that the
 * launcher does not instantiate. */
int nvfp4_gemm_launch_prod(const nvfp4_variant *v, const nvfp4_kparams *kp, gs_buffer stamps,
                           cudaStream_t s);
int nvfp4_gemm_launch_twin(const nvfp4_variant *v, const nvfp4_kparams *kp, gs_buffer stamps,
                           cudaStream_t s);
int nvfp4_gemm_launch_detail(const nvfp4_variant *v, const nvfp4_kparams *kp, gs_buffer stamps,
                             cudaStream_t s);
/* gemm_null.cu (gemm.cu's production points compiled again as production): the null twin, production's code at
 * another address, launched as the twin is.  Linked into nvfp4-bench only, which registers it
 * (nvfp4_set_null_launcher); NVFP4_NULL launches it. */
int nvfp4_gemm_launch_null(const nvfp4_variant *v, const nvfp4_kparams *kp, gs_buffer stamps,
                           cudaStream_t s);
typedef int (*nvfp4_gemm_launcher)(const nvfp4_variant *, const nvfp4_kparams *, gs_buffer, cudaStream_t);
void nvfp4_set_null_launcher(nvfp4_gemm_launcher fn);
int nvfp4_gemm_evidence_launch_prod(const nvfp4_variant *v, const nvfp4_kparams *kp, gs_buffer stamps,
                                    cudaStream_t s);
int nvfp4_gemm_evidence_launch_twin(const nvfp4_variant *v, const nvfp4_kparams *kp, gs_buffer stamps,
                                    cudaStream_t s);
int nvfp4_gemm_evidence_launch_detail(const nvfp4_variant *v, const nvfp4_kparams *kp, gs_buffer stamps,
                                      cudaStream_t s);
int nvfp4_gemm_dual_evidence_launch_prod(const nvfp4_variant *v, const nvfp4_kparams *kp, gs_buffer stamps,
                                         cudaStream_t s);
int nvfp4_gemm_dual_evidence_launch_twin(const nvfp4_variant *v, const nvfp4_kparams *kp, gs_buffer stamps,
                                         cudaStream_t s);
int nvfp4_gemm_dual_evidence_launch_detail(const nvfp4_variant *v, const nvfp4_kparams *kp, gs_buffer stamps,
                                           cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif
