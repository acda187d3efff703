/* The parts of the NVFP4 grouped GEMM's subject (subject_nvfp4.c) that the gated dual GEMM's
 * subject (subject_dual.c) runs too: the same kernel, problem object and checks. */
#ifndef GS_SUBJECT_NVFP4_H
#define GS_SUBJECT_NVFP4_H

#include <stdio.h>

#include "subject.h"
#include "nvfp4/nvfp4.h"

typedef struct nvfp4_ctx {
    nvfp4_problem *p;
    const nvfp4_variant *v;
    nvfp4_shape shape;
    nvfp4_dist dist;
    unsigned long long seed;
    int detail_too; /* the detail twin's stamps recorded beside the twin's */
} nvfp4_ctx;

/* A subject's shapes and points: the grouped GEMM's or the dual GEMM's. */
typedef struct nvfp4_point_set {
    const char *subject; /* its name, for `gemmscope variants <subject>` in messages */
    int (*parse)(const char *spec, nvfp4_shape *out, char *err, size_t errlen);
    const nvfp4_variant *(*dflt)(const nvfp4_shape *s);
    const nvfp4_variant *(*find)(const char *name);
    int (*count)(void);
    const nvfp4_variant *(*at)(int i);
    int gate_column; /* 1: `variants` prints the gate knob (the dual GEMM's points) */
} nvfp4_point_set;

/* The grouped GEMM's points (subject_nvfp4.c). */
extern const nvfp4_point_set nvfp4_grouped_points;

/* `gemmscope variants SUBJECT [SHAPE]`: every point of set, the shape's default marked; 0, or
 * -1 with the shape's parse error in err. */
int nvfp4_subject_list_variants(const nvfp4_point_set *set, FILE *out, const char *shape, char *err, size_t n);

/* What both subjects' open_ do first: a->shape parsed by set, a->dist, a->variant ("default":
 * the shape's production point), the problem created; then the stamp geometry (nvfp4_subject_
 * geometry), the sub-phases' names and the units (`gemms` GEMMs per unit, `what` their text),
 * and the keys every NVFP4 run has (shape, variant, knobs, dist, seed, flops_computed).  The
 * ctx, or NULL with a message on stderr. */
nvfp4_ctx *nvfp4_subject_open(const gs_record_args *a, const nvfp4_point_set *set, int gemms, const char *what_fmt,
                              gs_rundir *rd, gs_subject_run *run);

/* gs_subject_run's callbacks on an nvfp4_ctx (nvfp4_launch and friends; verify checks every
 * build the run times on poisoned outputs and writes check.<build>.* and `correct`). */
int nvfp4_subject_launch(void *ctx, int build, gs_buffer b, cudaStream_t s);
int nvfp4_subject_prepare(void *ctx, cudaStream_t s);
int nvfp4_subject_launch_alone(void *ctx, cudaStream_t s);
int nvfp4_subject_verify(void *ctx, gs_meta *meta, gs_buffer stamps, cudaStream_t s);
void nvfp4_subject_close(void *ctx);

/* gs_subject_run's harness (subject_harness.c): the production build and the cuBLAS anchor (the
 * dual GEMM: each route) timed as GPU MODE's harness times, on NVFP4_HARNESS_INPUTS problems of
 * the shape (the run's, then seeds after its own) back to back after one flush per call. */
#define NVFP4_HARNESS_INPUTS 15
int nvfp4_subject_harness(void *ctx, gs_meta *meta, gs_timings *tim, const gs_l2_flusher *f, cudaStream_t s,
                          int warmup, int reps);

/* The main loop's sub-phases in the run: LOAD_WAIT (wait), DEQUANT (prep), MMA (mma). */
int nvfp4_subject_name_phases(gs_rundir *rd);
/* v's schedule on sh as the run's units (the kernel's GS_TILE tag is the unit's index), `gemms`
 * GEMMs per unit (the dual GEMM: 2) in its flops, `what` the units.what text; *computed gets
 * the flops the tiles compute, padding included.  0, or -1 with a message on stderr. */
int nvfp4_subject_write_units(const nvfp4_variant *v, const nvfp4_shape *sh, int sms, int gemms, const char *what,
                              gs_rundir *rd, double *computed);
/* The stamp geometry of v on the ctx's shape into run (twin, and the detail twin's records
 * when a->detail), with the launch geometry keys; 0, or -1 with a message on stderr. */
int nvfp4_subject_geometry(nvfp4_ctx *c, const gs_record_args *a, gs_subject_run *run, gs_meta *meta);

#endif
