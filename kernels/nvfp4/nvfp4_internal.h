/* Internals shared by problem.cu, gemm.cu (every build), tokens.cu/.cuh, variants.c and
 * cublas_anchor.cu.  Not part of the public API.  Plain C (+ CUDA headers). */
#ifndef NVFP4_INTERNAL_H
#define NVFP4_INTERNAL_H

#include <cuda.h> /* CUtensorMap only: nothing here links libcuda */
#include "nvfp4.h"
#include "schedule.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 16-byte units of A (one per thread) per token block: a pre-pass thread block, or one
 * step of the fused prologue (tokens.cuh). */
#define NVFP4_TOKEN_UNITS 256

/* Parameters of the token dequantisation (tokens.cuh: the pre-pass and the fused prologue): A_g -> fp16 [M, K], scales applied, K permuted. */
/* Its fields, in the order a token block first reads them, as one list X(kind, type, name, G)
 * that declares both this struct (G = NVFP4_MAX_GROUPS) and the GEMM's copy narrowed to fewer
 * groups, and makes that copy (gemm.cu, narrow_tparams): kind ONE is a single value, GROUPS
 * one entry per group, GROUPS_END one per group and one after the last. */
#define NVFP4_TPARAMS_LIST(X, G)                                                                   \
    X(GROUPS_END, int, block_start, G) /* first thread block of group g; [groups] = grid */       \
    X(ONE, int, groups, G)                                                                         \
    X(GROUPS, int, k, G)                                                                           \
    X(GROUPS, long long, units, G) /* 16-byte units (32 FP4) of A_g: M_g x K / 32 */               \
    X(GROUPS, const uint8_t *, A, G)                                                               \
    X(GROUPS, const uint8_t *, SFA, G)                                                             \
    X(GROUPS, uint16_t *, T, G)
#define NVFP4_DIM_ONE(G)
#define NVFP4_DIM_GROUPS(G) [G]
#define NVFP4_DIM_GROUPS_END(G) [(G) + 1]
#define NVFP4_DECLARE_FIELD(kind, type, name, G) type name NVFP4_DIM_##kind(G);
#define NVFP4_TPARAMS_FIELDS(G) NVFP4_TPARAMS_LIST(NVFP4_DECLARE_FIELD, G)
typedef struct nvfp4_tparams {
    NVFP4_TPARAMS_FIELDS(NVFP4_MAX_GROUPS)
} nvfp4_tparams;

/* Kernel parameters of one (problem, tile shape, persistence): passed by value as a
 * __grid_constant__ parameter (7552 bytes with CUDA 13's headers; parameters above 4 KB need CUDA >= 12.1), or, for
 * problems of at most four groups, as a copy narrowed to them (gemm.cu, narrow_kparams).
 * The tokens' pointers (A, SFA, T) are tp's.
 * Swap-AB naming: W = weights = B_g (the wgmma M side), T = tokens = A_g (the N side). */
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
    /* fused tokens (set per launch by problem.cu): 0 the pre-pass kernel, 1 the _ft points,
     * 2 the _fp points (below) */
    int fuse_tokens;
    int pdl;        /* launch with programmatic dependent launch (the pre-pass may still run) */
    unsigned epoch;                        /* _ft launches of this problem so far, this one included */
    unsigned *token_ready;                 /* device: rows done per (group, K block), cumulative over launches */
    int ready0[NVFP4_MAX_GROUPS];          /* counter of (g, K block kb): token_ready[ready0[g] + kb] */
    int tok_kblocks; /* K blocks of the longest group; 0: the _ft points cannot run this problem */
    int tok_items;   /* token rows x K blocks over all groups (the work of one launch) */
    int tok_all;     /* index of the all-items counter in token_ready (after the per-block ones) = the
                      * number of (group, K block) pairs */
    const uint32_t *tok_order; /* device: the pairs in the order the schedule first loads them, each
                                * with its first item (schedule.h, NVFP4_FT_SENTINELS) */
    /* fused prologue (the _fp points, fuse_tokens 2): every CTA dequantises token blocks
     * b = blockIdx.x, + grid, ... (tp, as the pre-pass would), then adds one to
     * token_ready[tok_all + 1]; the loads wait until it reaches prologue_target, the
     * cumulative count of CTAs of every _fp launch of this problem so far, this one's
     * included (nothing is reset between launches; so a launch that was enqueued but did not
     * run to its end leaves every later _fp launch of the problem waiting: make a new problem).
     * Every CTA must be resident at once (persistent grid, nothing else on the GPU); the
     * launch does not ask the driver to guarantee it. */
    nvfp4_tparams tp;
    unsigned prologue_target;
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
    uint16_t *C;                      /* fp16 bits [M, N] */
    int M, N, K;
} nvfp4_group_dev;
int nvfp4_problem_group(const nvfp4_problem *p, int g, nvfp4_group_dev *out);

/* Runs the fp32 GPU reference of every group on s and returns the per-group float buffers
 * [M_g, N_g] (owned by p) in refs[0..groups).  0 or a CUDA error. */
int nvfp4_problem_reference(nvfp4_problem *p, cudaStream_t s, const float **refs);

/* Launchers of gemm.cu, one per build (GS_SYM: _prod / _twin / _detail).  0 or a CUDA error;
 * cudaErrorNotSupported for a knob point that is not instantiated. */
int nvfp4_gemm_launch_prod(const nvfp4_variant *v, const nvfp4_kparams *kp, gs_buffer stamps,
                           cudaStream_t s);
int nvfp4_gemm_launch_twin(const nvfp4_variant *v, const nvfp4_kparams *kp, gs_buffer stamps,
                           cudaStream_t s);
int nvfp4_gemm_launch_detail(const nvfp4_variant *v, const nvfp4_kparams *kp, gs_buffer stamps,
                             cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif
