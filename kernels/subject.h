/* A subject is something `gemmscope record` can profile: a kernel (production
 * build and instrumented twin from one source) plus its inputs and checks. */
#ifndef GS_SUBJECT_H
#define GS_SUBJECT_H

#include <cuda_runtime_api.h>
#include "../instrument/gs_format.h"
#include "../instrument/gs_run.h"
#include "../instrument/gs_timing.h"

typedef struct gs_record_args {
    const char *subject, *shape, *variant, *dist;
    unsigned long long seed;
    int reps, warmup;
    double capacity_scale; /* < 1 shrinks stamp buffers: exercises overflow reporting */
    int sm_count;
} gs_record_args;

typedef struct gs_subject_run {
    unsigned ctas, warps_per_cta, events_per_warp; /* stamp geometry of one twin launch */
    int (*launch)(void *ctx, int twin, gs_buffer b, cudaStream_t s);
    /* optional: runs each build once on poisoned outputs and checks them (the twin into
     * `stamps`); adds keys to meta; 0 = the check ran (its verdict is in meta) */
    int (*verify)(void *ctx, gs_meta *meta, gs_buffer stamps, cudaStream_t s);
    /* optional: times reference points with the same method (cuBLAS, ceilings) into tim
     * and meta; 0 = ran */
    int (*anchors)(void *ctx, gs_meta *meta, gs_timings *tim, const gs_l2_flusher *f, cudaStream_t s,
                   int warmup, int reps);
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
