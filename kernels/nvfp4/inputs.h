/* A shape's problems from consecutive seeds, each with its cuBLAS anchor: what a benchmark
 * harness times back to back (GPU MODE's: 15 problems after one L2 flush).  Used by
 * `nvfp4-bench --inputs` and the recorder's harness timing (kernels/subject_harness.c).
 * C with CUDA headers, for C callers only (no C++ linkage block). */
#ifndef NVFP4_INPUTS_H
#define NVFP4_INPUTS_H

#include "nvfp4.h"
#include "../../instrument/gs_timing.h"

#define NVFP4_MAX_INPUTS GS_BATCH_MAX

/* The cuBLAS anchor of a problem: one route (the grouped GEMM), or the dual GEMM's two (one
 * GEMM on B1 and B2 stacked, two GEMMs; each then the SiLU-multiply kernel). */
typedef struct nvfp4_anchor {
    nvfp4_cublas *one;
    nvfp4_dual_cublas *dual;
    int routes;
    gs_launch_fn fn[2];
    void *arg[2];
} nvfp4_anchor;

/* 0, or -1 (a message on stderr) with nothing kept. */
int nvfp4_anchor_create(nvfp4_problem *p, nvfp4_anchor *a);
void nvfp4_anchor_destroy(nvfp4_anchor *a); /* a zeroed anchor is fine */

typedef struct nvfp4_inputs {
    int n;
    int anchored; /* 1: an[i] holds problem i's anchor; 0: none does */
    int borrowed; /* 1: p[0] is the caller's, not destroyed here */
    nvfp4_problem *p[NVFP4_MAX_INPUTS];
    nvfp4_anchor an[NVFP4_MAX_INPUTS];
} nvfp4_inputs;

/* n (1..NVFP4_MAX_INPUTS) problems of s from seeds seed, seed + 1, ...; the first is `first`
 * where given (its seed is `seed`; borrowed).  With anchors, every problem's anchor, or none
 * (anchored 0, a line on stderr) when one cannot be made.  0, or -1 when a problem could not
 * be made (nothing kept). */
int nvfp4_inputs_create(nvfp4_inputs *in, const nvfp4_shape *s, nvfp4_dist d, uint64_t seed, int n,
                        nvfp4_problem *first, int anchors);
void nvfp4_inputs_destroy(nvfp4_inputs *in);

/* Every problem's production output with v, each on a poisoned C: 1 all right, 0 one wrong,
 * -1 a launch or a check could not run. */
int nvfp4_inputs_check(nvfp4_inputs *in, const nvfp4_variant *v, cudaStream_t s);

/* The timed call of anchor route r (< an[0].routes) over every input (a gs_launch_batch). */
void nvfp4_inputs_anchor_batch(const nvfp4_inputs *in, int r, gs_batch *b);

/* The faster route from the routes' times (a NAN loses): its index, or -1 when every time is NAN. */
int nvfp4_anchor_best(const nvfp4_anchor *a, const double *route_ms);

#endif
