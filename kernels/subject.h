/* A subject is something `gemmscope record` can profile: a kernel (production
 * build and instrumented twin from one source) plus its inputs and checks. */
#ifndef GS_SUBJECT_H
#define GS_SUBJECT_H

#include <cuda_runtime_api.h>
#include "../instrument/gs_format.h"
#include "../instrument/gs_run.h"
#include "../instrument/gs_timing.h"

#define GS_BUILD_PROD 0
#define GS_BUILD_TWIN 1
#define GS_BUILD_DETAIL 2

typedef struct gs_record_args {
    const char *subject, *shape, *variant, *dist;
    unsigned long long seed;
    int reps, warmup;
    double capacity_scale; /* < 1 shrinks stamp buffers: exercises overflow reporting */
    int detail;            /* 1: stamps come from the detail twin (per-stage sub-phases), if any */
    int sm_count;
} gs_record_args;

typedef struct gs_subject_run {
    unsigned ctas, warps_per_cta, events_per_warp; /* stamp geometry of the stamp build's launch */
    /* build: GS_BUILD_PROD, GS_BUILD_TWIN or GS_BUILD_DETAIL (a subject without a detail twin
     * runs its twin for it) */
    int (*launch)(void *ctx, int build, gs_buffer b, cudaStream_t s);
    int stamp_build; /* the build whose stamps are recorded: GS_BUILD_TWIN or GS_BUILD_DETAIL */
    /* optional: runs each build once on poisoned outputs and checks them (the twin into
     * `stamps`); adds keys to meta; 0 = the check ran (its verdict is in meta) */
    int (*verify)(void *ctx, gs_meta *meta, gs_buffer stamps, cudaStream_t s);
    /* optional: times reference points with the same method (cuBLAS, ceilings) into tim
     * and meta; 0 = ran */
    int (*anchors)(void *ctx, gs_meta *meta, gs_timings *tim, const gs_l2_flusher *f, cudaStream_t s,
                   int warmup, int reps);
    /* optional, both or neither: `prepare` enqueues the helper kernels whose output the
     * production kernel reads (a pre-pass), `launch_alone` the production kernel by itself
     * on that output.  Hardware metrics then profile the one kernel, each pass after
     * prepare and an L2 flush (as Nsight Compute does by default); without them, every
     * pass profiles `launch` after the flush. */
    int (*prepare)(void *ctx, cudaStream_t s);
    int (*launch_alone)(void *ctx, cudaStream_t s);
    void (*close)(void *ctx);
    void *ctx;
} gs_subject_run;

typedef struct gs_subject {
    const char *name;
    const char *help;
    /* Builds inputs and configuration; writes the subject's keys (shape, expectations) into meta. */
    int (*open)(const gs_record_args *a, gs_meta *meta, gs_subject_run *run);
} gs_subject;

extern const gs_subject gs_subject_calib;
extern const gs_subject gs_subject_release;
extern const gs_subject gs_subject_nvfp4;

#endif
