/* gemmscope NVFP4 grouped GEMM: shapes, problems (device data + verification),
 * kernel variants (the knob space), and the cuBLAS anchor.  Plain C header:
 * includable from gcc -std=c11 and from nvcc.
 *
 * The problem (see shared/notes/problem.md): for every group g
 *   C_g[m,n] = sum_k (A_g[m,k]*SFA_g[m,k/16]) * (B_g[n,k]*SFB_g[n,k/16])
 * A_g: M_g x K FP4 e2m1 (two per byte, low nibble first, K-major), B_g: N_g x K likewise,
 * SFA/SFB: e4m3 scales in the blocked 128x4 layout (format.h), C_g: M_g x N_g fp16 row-major. */
#ifndef NVFP4_H
#define NVFP4_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>
#include "../../instrument/gs_format.h"
#include "dual.h"
#include "shapes.h"
#include "variants.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Shapes and input distributions (pure C, no CUDA): see shapes.h. */

/* The main loop's sub-phases, stamped per K block by the detail twin; the subject names
 * them in the run (phase.<id>.* keys). */
enum nvfp4_phase {
    NVFP4_LOAD_WAIT = GS_PHASE_OWN(0), /* waiting for the stage's TMA loads */
    NVFP4_DEQUANT = GS_PHASE_OWN(1),   /* weights dequantised into the wgmma fragments */
    NVFP4_MMA = GS_PHASE_OWN(2)        /* the stage's wgmmas, issue to retire */
};

/* ---- problems: device data, poison, verification (problem.cu) ---- */

typedef struct nvfp4_problem nvfp4_problem; /* opaque */

/* Allocates every tensor (one cudaMalloc per group and tensor) and generates the inputs on
 * the current device from seed.  0, or -1 with a message on stderr (nothing leaked).
 * A dual shape (s->dual, dual.h) makes a gated dual GEMM problem: A, B1, B2, their scales and
 * C; gpumode then draws the scales from [0, 1) (rounded to e4m3), full as
 * nvfp4_dual_full_cap_code says; its GEMM runs the dual points only (gate 1 or 2), and its
 * references are silu(A B1^T) * (A B2^T) (the GPU one accumulating in float64: the product
 * amplifies each GEMM's rounding by the other's magnitude). */
int nvfp4_problem_create(const nvfp4_shape *s, nvfp4_dist d, uint64_t seed, nvfp4_problem **out);
/* 1 for a gated dual GEMM problem. */
int nvfp4_problem_is_dual(const nvfp4_problem *p);
/* Frees everything; NULL is fine. */
void nvfp4_problem_destroy(nvfp4_problem *p);
/* The shape the problem was created with. */
const nvfp4_shape *nvfp4_problem_shape(const nvfp4_problem *p);
/* Streaming multiprocessors of the device the problem lives on (persistent grids). */
int nvfp4_problem_sms(const nvfp4_problem *p);
/* Enqueue C := poison NaN (fp16 bits NVFP4_POISON_HALF) on stream s.  0 or a CUDA error. */
int nvfp4_problem_poison(nvfp4_problem *p, cudaStream_t s);
#define NVFP4_POISON_HALF 0x7D5Au /* a NaN no arithmetic produces: marks unwritten outputs */

typedef struct nvfp4_check {
    long long elements;  /* outputs compared (all of them) */
    long long bad;       /* outside tolerance of the fp32 GPU reference (unwritten included) */
    long long unwritten; /* still exactly the poison pattern where the reference is finite */
    long long cpu_checked, cpu_bad; /* float64 CPU sample: checked / failing (kernel or GPU ref) */
    double max_abs_err, max_rel_err; /* vs the GPU reference over finite pairs */
} nvfp4_check;

/* Synchronises the device and compares every output with the fp32 GPU reference, then
 * checks a sample against the float64 CPU reference.  The reference and the host copies of
 * the inputs are made on the first call and kept with the problem (nothing writes the
 * inputs; a kernel that did would fail every later check); each call reads C back.  0 if the
 * check could run (read the counts!), -1 on a CUDA/allocation error (message on stderr). */
int nvfp4_problem_verify(nvfp4_problem *p, nvfp4_check *out);
/* 1 when the check found nothing wrong (bad == unwritten == cpu_bad == 0, something checked). */
int nvfp4_check_ok(const nvfp4_check *c);

/* ---- kernel variants: the knob space (points.h, variants.h, variants.c, gemm.cu,
 * gemm_evidence.cu) ---- */

/* The three builds of the kernel source. */
#define NVFP4_PROD 0   /* no stamps */
#define NVFP4_TWIN 1   /* per-tile phases */
#define NVFP4_DETAIL 2 /* per-tile phases + per-stage sub-phases */
#define NVFP4_NULL 3   /* production's code under a launcher of its own (no stamps; production
                        * points only, where registered: nvfp4_internal.h), else
                        * cudaErrorNotSupported */

/* Enqueue one GEMM of p with v on s: the token pre-pass, then build `build` (NVFP4_PROD:
 * stamps ignored; NVFP4_TWIN / NVFP4_DETAIL: stamps sized from nvfp4_stamp_geometry with
 * nvfp4_problem_sms(p) and detail = (build == NVFP4_DETAIL)).  0 or a CUDA error. */
int nvfp4_launch(const nvfp4_variant *v, int build, nvfp4_problem *p, gs_buffer stamps,
                 cudaStream_t s);

/* Enqueue the GEMM of p with v alone, production build, on the token buffers the last
 * pre-pass wrote (nvfp4_prepare must have run before).  0 or a CUDA error. */
int nvfp4_launch_gemm_alone(const nvfp4_variant *v, nvfp4_problem *p, cudaStream_t s);

/* Whether p's GEMM launches use programmatic dependent launch (on by default): the GEMM's
 * CTAs start while the token pre-pass finishes.  Off: plain stream order, for measuring
 * what the attribute itself costs.  0 or a CUDA error. */
int nvfp4_problem_set_pdl(nvfp4_problem *p, int on);

/* Enqueue what nvfp4_launch_gemm_alone needs before it: the token pre-pass.  0 or a CUDA
 * error. */
int nvfp4_prepare(const nvfp4_variant *v, nvfp4_problem *p, cudaStream_t s);

/* Enqueue the token pre-pass of p alone (a gs_launch_fn: `problem` is an nvfp4_problem *),
 * so its share of nvfp4_launch can be timed.  0 or a CUDA error. */
int nvfp4_tokens_only(void *problem, cudaStream_t s);

/* ---- cuBLAS anchor (cublas_anchor.cu); the ceilings are instrument/gs_ceilings.h ---- */

typedef struct nvfp4_cublas nvfp4_cublas;
/* Dequantises A and B of every group to bf16 on the GPU (once, untimed) and prepares a
 * grouped bf16 GEMM into a private bf16 output.  0, or -1 with a message on stderr. */
int nvfp4_cublas_create(nvfp4_problem *p, nvfp4_cublas **out);
/* Which cuBLAS route the launch takes (grouped API or a loop of cublasGemmEx). */
const char *nvfp4_cublas_method(const nvfp4_cublas *c);
/* gs_launch_fn: enqueue the grouped GEMM on s.  0 or a CUDA/cuBLAS error code. */
int nvfp4_cublas_launch(void *cublas, cudaStream_t s);
/* Runs one launch and compares its bf16 output with the fp32 GPU reference, tolerance
 * 1e-2 + 1e-2*|ref| (bf16 output rounding); *bad = failures.  0 if it could run. */
int nvfp4_cublas_verify(nvfp4_cublas *c, long long *bad, long long *elements);
void nvfp4_cublas_destroy(nvfp4_cublas *c);

/* ---- the dual GEMM's cuBLAS anchors (dual_anchor.cu) ----
 * What a user without a fused kernel would run on Hopper: A, B1 and B2 dequantised to bf16
 * once (untimed), then either route, each ending in the same elementwise kernel that reads the
 * two bf16 GEMM outputs and writes fp16 silu(g) * u (computed in fp32) into a private C:
 *   NVFP4_DUAL_CAT: one cublasGemmEx against B1 and B2 stacked into 2N rows (M x 2N bf16);
 *   NVFP4_DUAL_TWO: two cublasGemmEx, one per B (two M x N bf16). */
enum { NVFP4_DUAL_CAT = 0, NVFP4_DUAL_TWO = 1 };
typedef struct nvfp4_dual_cublas nvfp4_dual_cublas;
/* p must be a dual problem.  0, or -1 with a message on stderr. */
int nvfp4_dual_cublas_create(nvfp4_problem *p, nvfp4_dual_cublas **out);
/* A line naming the route's calls. */
const char *nvfp4_dual_cublas_method(const nvfp4_dual_cublas *c, int route);
/* gs_launch_fns: enqueue one route on s.  0 or a CUDA/cuBLAS error code. */
int nvfp4_dual_cublas_launch_cat(void *c, cudaStream_t s);
int nvfp4_dual_cublas_launch_two(void *c, cudaStream_t s);
/* Runs the route once and compares its fp16 output with the problem's GPU reference, tolerance
 * 1e-2 + 1e-2*|ref| plus what the route's bf16 rounding of g and u moves the element
 * (dual_anchor.cu); *bad = failures.  0 if it could run. */
int nvfp4_dual_cublas_verify(nvfp4_dual_cublas *c, int route, long long *bad, long long *elements);
void nvfp4_dual_cublas_destroy(nvfp4_dual_cublas *c);


#ifdef __cplusplus
}
#endif
#endif
