/* Timing method shared by every subject: see gs_timing.h and docs/method.md. */
#include "gs_timing.h"
#include "gs_check.h"

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

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int flush_l2(const gs_l2_flusher *f, cudaStream_t s, unsigned rep)
{
    /* A different byte each time so no layer can skip the write. */
    if (f && f->buf)
        GS_CUDA_TRY(cudaMemsetAsync(f->buf, (int)(rep & 0xff), f->bytes, s));
    return 0;
}

int gs_time_launches(gs_launch_fn fn, void *arg, cudaStream_t s, const gs_l2_flusher *f,
                     int warmup, int reps, gs_timing *out)
{
    cudaEvent_t *ev = NULL;
    double *sorted = NULL;
    int rc = -1;

    memset(out, 0, sizeof *out);
    if (reps < 1) {
        fprintf(stderr, "gemmscope: timing needs at least one repetition\n");
        return -1;
    }
    for (int i = 0; i < warmup; i++) {
        if (flush_l2(f, s, (unsigned)i) || fn(arg, s))
            return -1;
    }
    GS_CUDA_TRY(cudaStreamSynchronize(s));
    GS_CUDA_TRY(cudaGetLastError());

    ev = calloc((size_t)reps * 2, sizeof *ev);
    out->samples_ms = calloc((size_t)reps, sizeof(double));
    sorted = calloc((size_t)reps, sizeof(double));
    if (!ev || !out->samples_ms || !sorted) {
        fprintf(stderr, "gemmscope: out of host memory\n");
        goto done;
    }
    for (int i = 0; i < reps * 2; i++) {
        if (cudaEventCreate(&ev[i]) != cudaSuccess) {
            fprintf(stderr, "gemmscope: cudaEventCreate failed\n");
            goto done;
        }
    }
    for (int i = 0; i < reps; i++) {
        if (flush_l2(f, s, (unsigned)(warmup + i)))
            goto done;
        if (cudaEventRecord(ev[2 * i], s) != cudaSuccess)
            goto cuda_fail;
        if (fn(arg, s))
            goto done;
        if (cudaEventRecord(ev[2 * i + 1], s) != cudaSuccess)
            goto cuda_fail;
    }
    if (cudaStreamSynchronize(s) != cudaSuccess || cudaGetLastError() != cudaSuccess)
        goto cuda_fail;
    for (int i = 0; i < reps; i++) {
        float ms = 0;
        if (cudaEventElapsedTime(&ms, ev[2 * i], ev[2 * i + 1]) != cudaSuccess)
            goto cuda_fail;
        out->samples_ms[i] = ms;
        sorted[i] = ms;
    }
    qsort(sorted, (size_t)reps, sizeof(double), cmp_double);
    out->reps = reps;
    out->min_ms = sorted[0];
    out->max_ms = sorted[reps - 1];
    out->median_ms = reps % 2 ? sorted[reps / 2] : 0.5 * (sorted[reps / 2 - 1] + sorted[reps / 2]);
    rc = 0;
    goto done;
cuda_fail:
    fprintf(stderr, "gemmscope: timing failed: %s\n", cudaGetErrorString(cudaGetLastError()));
done:
    if (ev)
        for (int i = 0; i < reps * 2; i++)
            if (ev[i])
                cudaEventDestroy(ev[i]);
    free(ev);
    free(sorted);
    if (rc)
        gs_timing_free(out);
    return rc;
}

void gs_timing_free(gs_timing *t)
{
    free(t->samples_ms);
    t->samples_ms = NULL;
}
