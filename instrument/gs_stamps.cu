#include "gs_stamps.h"
#include "gs_check.h"

#include <stdlib.h>
#include <string.h>

int gs_stamps_alloc(gs_stamps *st, uint32_t ctas, uint32_t warps_per_cta, uint32_t events_per_warp)
{
    memset(st, 0, sizeof *st);
    size_t warps = (size_t)ctas * warps_per_cta;
    if (warps == 0 || events_per_warp == 0) {
        fprintf(stderr, "gemmscope: stamp buffer needs ctas, warps and events per warp > 0\n");
        return -1;
    }
    st->ctas = ctas;
    st->dev.capacity = events_per_warp;
    st->dev.warps_per_cta = warps_per_cta;
    GS_CUDA_TRY(cudaMalloc((void **)&st->dev.warps, warps * sizeof(gs_warp_header)));
    GS_CUDA_TRY(cudaMalloc((void **)&st->dev.records, warps * events_per_warp * sizeof(gs_record)));
    st->warps = (gs_warp_header *)calloc(warps, sizeof(gs_warp_header));
    st->records = (gs_record *)malloc(warps * events_per_warp * sizeof(gs_record));
    if (!st->warps || !st->records) {
        fprintf(stderr, "gemmscope: out of host memory for %zu stamp records\n", warps * events_per_warp);
        return -1;
    }
    return 0;
}

int gs_stamps_reset(gs_stamps *st, cudaStream_t s)
{
    size_t warps = (size_t)st->ctas * st->dev.warps_per_cta;
    GS_CUDA_TRY(cudaMemsetAsync(st->dev.warps, 0, warps * sizeof(gs_warp_header), s));
    return 0;
}

int gs_stamps_download(gs_stamps *st)
{
    size_t warps = (size_t)st->ctas * st->dev.warps_per_cta;
    GS_CUDA_TRY(cudaMemcpy(st->warps, st->dev.warps, warps * sizeof(gs_warp_header), cudaMemcpyDeviceToHost));
    GS_CUDA_TRY(cudaMemcpy(st->records, st->dev.records, warps * st->dev.capacity * sizeof(gs_record),
                           cudaMemcpyDeviceToHost));
    return 0;
}

void gs_stamps_free(gs_stamps *st)
{
    if (st->dev.warps)
        cudaFree(st->dev.warps);
    if (st->dev.records)
        cudaFree(st->dev.records);
    free(st->warps);
    free(st->records);
    memset(st, 0, sizeof *st);
}

#define TICK_SAMPLES 4096

/* One thread reads %globaltimer back to back and keeps every change it sees. */
__global__ void gs_tick_kernel(unsigned long long *steps, int n)
{
    unsigned long long prev, now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(prev));
    for (int i = 0; i < n;) {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
        if (now != prev) {
            steps[i++] = now - prev;
            prev = now;
        }
    }
}

int gs_measure_timer_tick(double *tick_ns)
{
    unsigned long long *d = NULL, *h = NULL;
    int rc = -1;
    GS_CUDA_TRY(cudaMalloc((void **)&d, TICK_SAMPLES * sizeof *d));
    h = (unsigned long long *)malloc(TICK_SAMPLES * sizeof *h);
    if (!h)
        goto out;
    gs_tick_kernel<<<1, 1>>>(d, TICK_SAMPLES);
    if (cudaGetLastError() != cudaSuccess || cudaDeviceSynchronize() != cudaSuccess ||
        cudaMemcpy(h, d, TICK_SAMPLES * sizeof *h, cudaMemcpyDeviceToHost) != cudaSuccess) {
        fprintf(stderr, "gemmscope: timer tick kernel failed: %s\n", cudaGetErrorString(cudaGetLastError()));
        goto out;
    }
    {
        /* The first step is a partial one; the smallest of the rest is the tick. */
        unsigned long long best = ~0ull;
        for (int i = 1; i < TICK_SAMPLES; i++)
            if (h[i] && h[i] < best)
                best = h[i];
        *tick_ns = (double)best;
    }
    rc = 0;
out:
    free(h);
    cudaFree(d);
    return rc;
}
