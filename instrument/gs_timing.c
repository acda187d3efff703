/* Timing method shared by every subject: see gs_timing.h and docs/method.md. */
#include "gs_timing.h"
#include "gs_check.h"
#include "gs_order.h"
#include "gs_stats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int gs_l2_flusher_init(gs_l2_flusher *f, int device)
{
    int l2 = 0;
    memset(f, 0, sizeof *f);
    GS_CUDA_TRY(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
    if (l2 <= 0)
        l2 = 64 << 20;
    f->bytes = (size_t)l2 * 2;
    GS_CUDA_TRY(cudaMalloc(&f->buf, f->bytes));
    return 0;
}

void gs_l2_flusher_free(gs_l2_flusher *f)
{
    if (f->buf)
        cudaFree(f->buf);
    f->buf = NULL;
}

static int flush_l2(const gs_l2_flusher *f, cudaStream_t s, unsigned rep)
{
    /* A different byte each time so no layer can skip the write. */
    if (f && f->buf)
        GS_CUDA_TRY(cudaMemsetAsync(f->buf, (int)(rep & 0xff), f->bytes, s));
    return 0;
}

int gs_l2_flush(const gs_l2_flusher *f, cudaStream_t s)
{
    static unsigned calls;
    return flush_l2(f, s, 0x5a + calls++);
}

int gs_timing_summarise(gs_timing *t, int reps)
{
    double *sorted = malloc((size_t)reps * sizeof *sorted);
    if (!sorted) {
        fprintf(stderr, "gemmscope: out of host memory\n");
        return -1;
    }
    memcpy(sorted, t->samples_ms, (size_t)reps * sizeof *sorted);
    t->reps = reps;
    t->median_ms = gs_sort_median(sorted, reps);
    t->min_ms = sorted[0];
    t->max_ms = sorted[reps - 1];
    free(sorted);
    return 0;
}

int gs_time_interleaved(const gs_launch_fn *fns, void *const *args, int n, cudaStream_t s, const gs_l2_flusher *f,
                        int warmup, int reps, gs_timing *outs)
{
    cudaEvent_t *ev = NULL;
    int *sched_fn = NULL, *sched_rep = NULL;
    int rc = -1;
    const size_t nev = (size_t)reps * (size_t)n * 2;

    for (int k = 0; k < n; k++)
        memset(&outs[k], 0, sizeof outs[k]);
    if (reps < 1 || n < 1) {
        fprintf(stderr, "gemmscope: timing needs at least one launch function and one repetition\n");
        return -1;
    }
    for (int i = 0; i < warmup; i++)
        for (int k = 0; k < n; k++)
            if (flush_l2(f, s, (unsigned)i) || fns[k](args[k], s))
                return -1;
    GS_CUDA_TRY(cudaStreamSynchronize(s));
    GS_CUDA_TRY(cudaGetLastError());

    ev = calloc(nev, sizeof *ev);
    sched_fn = malloc((size_t)reps * (size_t)n * sizeof *sched_fn);
    sched_rep = malloc((size_t)reps * (size_t)n * sizeof *sched_rep);
    if (!ev || !sched_fn || !sched_rep)
        goto oom;
    for (int k = 0; k < n; k++)
        if (!(outs[k].samples_ms = calloc((size_t)reps, sizeof(double))))
            goto oom;
    for (size_t i = 0; i < nev; i++) {
        if (cudaEventCreate(&ev[i]) != cudaSuccess) {
            fprintf(stderr, "gemmscope: cudaEventCreate failed\n");
            goto done;
        }
    }
    /* blocks of GS_ORDER_BLOCK repetitions per function, the blocks in the design's order
     * (gs_order.h): each call finds its own code in the instruction caches but after a turn,
     * and clock and thermal drift over the run, and what ran just before a block, fall on
     * every function alike, so their ratios stay fair; event pair e belongs to function k of
     * repetition i */
    gs_order_schedule(n, reps, GS_ORDER_BLOCK, sched_fn, sched_rep);
    for (int t = 0; t < n * reps; t++) {
        const int k = sched_fn[t], i = sched_rep[t];
        const size_t e = 2 * ((size_t)i * (size_t)n + (size_t)k);
        if (flush_l2(f, s, (unsigned)(warmup + t)))
            goto done;
        if (cudaEventRecord(ev[e], s) != cudaSuccess)
            goto cuda_fail;
        if (fns[k](args[k], s))
            goto done;
        if (cudaEventRecord(ev[e + 1], s) != cudaSuccess)
            goto cuda_fail;
    }
    if (cudaStreamSynchronize(s) != cudaSuccess || cudaGetLastError() != cudaSuccess)
        goto cuda_fail;
    for (int i = 0; i < reps; i++)
        for (int k = 0; k < n; k++) {
            const size_t e = 2 * ((size_t)i * (size_t)n + (size_t)k);
            float ms = 0;
            if (cudaEventElapsedTime(&ms, ev[e], ev[e + 1]) != cudaSuccess)
                goto cuda_fail;
            outs[k].samples_ms[i] = ms;
        }
    for (int k = 0; k < n; k++)
        if (gs_timing_summarise(&outs[k], reps))
            goto done;
    rc = 0;
    goto done;
oom:
    fprintf(stderr, "gemmscope: out of host memory\n");
    goto done;
cuda_fail:
    fprintf(stderr, "gemmscope: timing failed: %s\n", cudaGetErrorString(cudaGetLastError()));
done:
    if (ev)
        for (size_t i = 0; i < nev; i++)
            if (ev[i])
                cudaEventDestroy(ev[i]);
    free(ev);
    free(sched_fn);
    free(sched_rep);
    if (rc)
        for (int k = 0; k < n; k++)
            gs_timing_free(&outs[k]);
    return rc;
}

int gs_launch_batch(void *batch, cudaStream_t s)
{
    const gs_batch *b = batch;
    if (b->n < 1 || b->n > GS_BATCH_MAX)
        return (int)cudaErrorInvalidValue;
    for (int i = 0; i < b->n; i++) {
        const int e = b->fn(b->args[i], s);
        if (e)
            return e;
    }
    return 0;
}

int gs_time_launches(gs_launch_fn fn, void *arg, cudaStream_t s, const gs_l2_flusher *f,
                     int warmup, int reps, gs_timing *out)
{
    void *args[1] = {arg};
    return gs_time_interleaved(&fn, args, 1, s, f, warmup, reps, out);
}

void gs_timing_free(gs_timing *t)
{
    free(t->samples_ms);
    t->samples_ms = NULL;
}
