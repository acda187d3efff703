/* See gs_probe.h. */
#include "gs_probe.h"

#include <stdint.h>
#include <string.h>

#include "gs_stream.cuh"

/* Global names (not in a namespace): the substrings gs_probe_kernel gives must be in the
 * name CUPTI and ncu see. */
__global__ void gs_probe_idle(unsigned long long ns)
{
    if (threadIdx.x != 0)
        return;
    unsigned long long t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    do
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    while (t - t0 < ns);
}

__global__ void gs_probe_read(const uint4 *p, size_t n, uint32_t *sink)
{
    gs_stream_read(p, n, sink);
}

__global__ void gs_probe_write(uint4 *p, size_t n, uint32_t v)
{
    gs_stream_write(p, n, v);
}

extern "C" int gs_probe_init(gs_probe *p, size_t bytes, unsigned long long idle_ns)
{
    memset(p, 0, sizeof *p);
    if (bytes == 0 || bytes % 16 || idle_ns == 0)
        return (int)cudaErrorInvalidValue;
    int dev = 0, l2 = 0, sms = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (e == cudaSuccess)
        e = cudaMalloc(&p->buf, bytes);
    if (e == cudaSuccess)
        e = cudaMemset(p->buf, 0, bytes);
    if (e != cudaSuccess) {
        gs_probe_free(p);
        return (int)e;
    }
    p->bytes = bytes;
    p->idle_ns = idle_ns;
    p->l2_bytes = (size_t)l2;
    p->sms = sms;
    return 0;
}

extern "C" void gs_probe_free(gs_probe *p)
{
    if (p->buf)
        cudaFree(p->buf);
    memset(p, 0, sizeof *p);
}

extern "C" int gs_probe_launch(const gs_probe *p, gs_probe_kind k, cudaStream_t s)
{
    static uint32_t calls = 0;
    const unsigned blocks = 4u * (unsigned)p->sms;
    switch (k) {
    case GS_PROBE_IDLE:
        gs_probe_idle<<<(unsigned)p->sms, 32, 0, s>>>(p->idle_ns);
        break;
    case GS_PROBE_READ:
        gs_probe_read<<<blocks, 512, 0, s>>>((const uint4 *)p->buf, p->bytes / 16, NULL);
        break;
    case GS_PROBE_WRITE:
        gs_probe_write<<<blocks, 512, 0, s>>>((uint4 *)p->buf, p->bytes / 16, 0x3c3c0000u + ++calls);
        break;
    default:
        return (int)cudaErrorInvalidValue;
    }
    return (int)cudaGetLastError();
}

extern "C" const char *gs_probe_name(gs_probe_kind k)
{
    static const char *const names[GS_PROBE_KINDS] = {"idle", "read", "write"};
    return (unsigned)k < GS_PROBE_KINDS ? names[k] : "?";
}

extern "C" const char *gs_probe_kernel(gs_probe_kind k)
{
    static const char *const names[GS_PROBE_KINDS] = {"gs_probe_idle", "gs_probe_read", "gs_probe_write"};
    return (unsigned)k < GS_PROBE_KINDS ? names[k] : "?";
}

/* Slack for what the probes themselves cannot avoid: instruction and parameter fetches,
 * and a few lines the driver touches around a launch. */
#define PROBE_SLACK_BYTES (256.0 * 1024.0)

extern "C" int gs_probe_truth(const gs_probe *p, gs_probe_kind k, const char *metric, double *lo, double *hi)
{
    const double b = (double)p->bytes, l2 = (double)p->l2_bytes;
    const int rd = !strcmp(metric, "dram__bytes_read.sum"), wr = !strcmp(metric, "dram__bytes_write.sum");
    if (k == GS_PROBE_IDLE && !strcmp(metric, "gpu__time_duration.sum")) {
        /* the spin, plus at most a few microseconds of launch and drain */
        *lo = (double)p->idle_ns;
        *hi = (double)p->idle_ns + 5000.0;
        return 0;
    }
    if ((k == GS_PROBE_IDLE && (rd || wr)) || (k == GS_PROBE_READ && wr) || (k == GS_PROBE_WRITE && rd)) {
        *lo = 0.0;
        *hi = PROBE_SLACK_BYTES;
        return 0;
    }
    if (k == GS_PROBE_READ && rd) { /* every line once, none of them in L2 */
        *lo = b;
        *hi = b + PROBE_SLACK_BYTES;
        return 0;
    }
    if (k == GS_PROBE_WRITE && wr) { /* all of it, less what L2 still holds dirty at the end */
        *lo = b - l2;
        *hi = b + PROBE_SLACK_BYTES;
        return 0;
    }
    return -1;
}
