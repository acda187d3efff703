/* A subject is something `gemmscope record` can profile: a kernel (production build and
 * instrumented twins from one source) plus its inputs, checks and anchors.  Subjects are
 * plug-ins: kernels/subjects.c lists them, each resolves and lists its own names, and the
 * recorder (instrument/record_main.c) and the CLI know none by name. */
#ifndef GS_SUBJECT_H
#define GS_SUBJECT_H

#include <stdio.h>
#include <cuda_runtime_api.h>
#include "../instrument/gs_format.h"
#include "../instrument/gs_run.h"
#include "../instrument/gs_rundir.h"
#include "../instrument/gs_timing.h"

#define GS_BUILD_PROD 0
#define GS_BUILD_TWIN 1
#define GS_BUILD_DETAIL 2

typedef struct gs_record_args {
    const char *shape, *variant, *dist;
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
    /* > 0: the detail twin's stamps are recorded too (stamps-detail.gss), from a launch of their
     * own, with this many records per warp (same CTAs and warps); stamp_build is then the twin */
    unsigned events_per_warp_detail;
    /* optional: runs each build once on poisoned outputs and checks them (the twins into
     * `stamps`, sized for the largest); adds keys to meta; 0 = the check ran (its verdict is in meta) */
    int (*verify)(void *ctx, gs_meta *meta, gs_buffer stamps, cudaStream_t s);
    /* optional: times reference points with the same method (a library's GEMM) into tim and
     * meta; 0 = ran.  The ceilings are the recorder's (instrument/gs_ceilings.h). */
    int (*anchors)(void *ctx, gs_meta *meta, gs_timings *tim, const gs_l2_flusher *f, cudaStream_t s,
                   int warmup, int reps);
    /* optional: times the production build and its anchor as the subject's benchmark harness
     * does (several inputs of the shape back to back after one flush per timed call) into tim
     * (harness.* rows, per launch) and meta (harness.* keys, docs/run-directory.md); 0 = ran,
     * else the run goes on without it (harness.skipped says why) */
    int (*harness)(void *ctx, gs_meta *meta, gs_timings *tim, const gs_l2_flusher *f, cudaStream_t s,
                   int warmup, int reps);
    /* optional, both or neither: `prepare` enqueues the helper kernels whose output the
     * production kernel reads (a pre-pass), `launch_alone` the production kernel by itself
     * on that output.  Hardware metrics then profile the one kernel, each pass after
     * prepare and an L2 flush (as Nsight Compute does by default); without them, every
     * pass profiles `launch` after the flush. */
    int (*prepare)(void *ctx, cudaStream_t s);
    int (*launch_alone)(void *ctx, cudaStream_t s);
    /* optional: right after the stamp build's recorded launch, writes what the subject keeps of
     * that launch beside its stamps (gs_rundir_path: the clock subject's probes.tsv); 0 = written */
    int (*after_stamps)(void *ctx, gs_rundir *rd, cudaStream_t s);
    void (*close)(void *ctx);
    void *ctx;
} gs_subject_run;

typedef struct gs_subject {
    const char *name;
    const char *help;
    /* 1 when `name` is one of this subject's shapes (a registered name or a custom spec);
     * else 0 and, where the name looks meant for it, why not in `why` (else why[0] = 0). */
    int (*claims)(const char *name, char *why, size_t n);
    /* Its shapes, one line each: name, then a description; custom syntax last. */
    void (*list_shapes)(FILE *out);
    /* Its knob points, one line each, `shape`'s default marked (shape may be NULL); 0, or -1
     * with the reason in err.  NULL: the subject has one point, "default". */
    int (*list_variants)(FILE *out, const char *shape, char *err, size_t n);
    /* Builds inputs and configuration for a->shape; writes what ran into the run: meta keys
     * (shape, variant, flops, expectations), the names of its own phases, its work units. */
    int (*open)(const gs_record_args *a, gs_rundir *rd, gs_subject_run *run);
} gs_subject;

/* Every subject, NULL-terminated (kernels/subjects.c). */
extern const gs_subject *const gs_subjects[];

#endif
