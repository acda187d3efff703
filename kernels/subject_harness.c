/* The NVFP4 subjects' harness timing (subject_nvfp4.h): GPU MODE times a benchmark as 15
 * problems of its shape back to back after one L2 flush; one launch after each flush, as every
 * other timing here, reads short launches differently (a library route of two kernels most:
 * docs/method.md).  The production build and the anchor's routes are timed interleaved, call
 * by call; each input's production output is checked first.  A harness that cannot run (15
 * problems and anchors may not fit where one does) leaves harness.skipped and the run goes on. */
#define _POSIX_C_SOURCE 200809L
#include "subject_nvfp4.h"
#include "nvfp4/inputs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct harness_input {
    const nvfp4_variant *v;
    nvfp4_problem *p;
} harness_input;

static int launch_input(void *arg, cudaStream_t s)
{
    const harness_input *in = arg;
    gs_buffer none;
    memset(&none, 0, sizeof none);
    return nvfp4_launch(in->v, NVFP4_PROD, in->p, none, s);
}

/* Per-launch samples of a timing of n-launch calls, as a timings row. */
static int add_per_launch(gs_timings *tim, const char *row, const gs_timing *t, int n)
{
    double *ms = malloc((size_t)t->reps * sizeof *ms);
    if (!ms)
        return -1;
    for (int i = 0; i < t->reps; i++)
        ms[i] = t->samples_ms[i] / n;
    const int rc = gs_timings_add(tim, row, ms, t->reps);
    free(ms);
    return rc;
}

/* Why the harness did not run, in meta (the run goes on without it) and on stderr. */
static int skipped(gs_meta *meta, const char *why)
{
    fprintf(stderr, "gemmscope-record: harness timing skipped: %s\n", why);
    gs_meta_set(meta, "harness.skipped", "%s", why);
    return -1;
}

int nvfp4_subject_harness(void *ctx, gs_meta *meta, gs_timings *tim, const gs_l2_flusher *f, cudaStream_t s,
                          int warmup, int reps)
{
    enum { N = NVFP4_HARNESS_INPUTS };
    nvfp4_ctx *c = ctx;
    nvfp4_inputs in; /* the run's problem first, then seeds after its own (about 4 KB) */
    harness_input hi[N];
    gs_batch b[3];
    gs_timing t[3];
    int rc = -1;
    memset(b, 0, sizeof b);
    memset(t, 0, sizeof t);
    if (nvfp4_inputs_create(&in, &c->shape, c->dist, c->seed, N, c->p, 1))
        return skipped(meta, "could not create the harness's inputs (device memory?)");
    const int routes = in.an[0].routes, correct = in.anchored ? nvfp4_inputs_check(&in, c->v, s) : -1;
    if (!in.anchored) {
        rc = skipped(meta, "could not create the cuBLAS anchor of every input (device memory?)");
        goto out;
    }
    if (correct < 0) {
        rc = skipped(meta, "an input's production launch or its check failed");
        goto out;
    }
    for (int i = 0; i < N; i++) {
        hi[i] = (harness_input){c->v, in.p[i]};
        b[0].args[i] = &hi[i];
    }
    b[0].fn = launch_input;
    b[0].n = N;
    for (int r = 0; r < routes; r++)
        nvfp4_inputs_anchor_batch(&in, r, &b[1 + r]);
    const gs_launch_fn fns[3] = {gs_launch_batch, gs_launch_batch, gs_launch_batch};
    void *const args[3] = {&b[0], &b[1], &b[2]};
    if (gs_time_interleaved(fns, args, 1 + routes, s, f, warmup, reps, t)) {
        rc = skipped(meta, "the timed calls failed");
        goto out;
    }
    const double route_ms[2] = {t[1].median_ms, routes == 2 ? t[2].median_ms : NAN};
    const int best = 1 + (nvfp4_anchor_best(&in.an[0], route_ms) == 1); /* a NAN route loses */
    if (add_per_launch(tim, "harness.production", &t[0], N) || add_per_launch(tim, "harness.cublas", &t[best], N)) {
        rc = skipped(meta, "no room for its timing rows");
        goto out;
    }
    gs_meta_set(meta, "harness.inputs", "%d", N);
    gs_meta_set(meta, "harness.what",
                "GPU MODE's harness: %d problems of the shape (seeds %llu..%llu) back to back after one L2 flush per "
                "timed call; medians per launch",
                N, c->seed, c->seed + N - 1);
    gs_meta_set(meta, "harness.correct", "%d", correct);
    gs_meta_set(meta, "harness.time_ms", "%.6f", t[0].median_ms / N);
    gs_meta_set(meta, "harness.cublas.time_ms", "%.6f", t[best].median_ms / N);
    if (routes == 2)
        gs_meta_set(meta, "harness.cublas.route", "%s", best == 2 ? "two" : "cat");
    if (!correct)
        fprintf(stderr, "gemmscope-record: WARNING: a harness input's production output is out of tolerance\n");
    rc = 0;
out:
    for (int k = 0; k < 3; k++)
        gs_timing_free(&t[k]);
    nvfp4_inputs_destroy(&in); /* the run's own problem stays the ctx's */
    return rc;
}
