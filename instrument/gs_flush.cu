/* See gs_flush.h. */
#include "gs_flush.h"

#include <stdint.h>

#include "gs_stream.cuh"

namespace {

__global__ void read_all(const uint4 *p, size_t n, uint32_t *sink)
{
    gs_stream_read(p, n, sink);
}

/* a value that changes per call, so nothing can skip it */
__global__ void write_all(uint4 *p, size_t n, uint32_t v)
{
    gs_stream_write(p, n, v);
}

/* Drops every 128-byte line of the buffer from L2, dirty or not, without a write-back. */
__global__ void discard_all(uint8_t *p, size_t lines)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < lines; i += (size_t)gridDim.x * blockDim.x)
        asm volatile("discard.global.L2 [%0], 128;" ::"l"(p + 128 * i) : "memory");
}

} // namespace

/* The device's SM count, or 0 with *err set. */
static unsigned sm_count(int *err)
{
    int dev = 0, sms = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    *err = (int)e;
    return e == cudaSuccess && sms > 0 ? (unsigned)sms : 0u;
}

/* Blocks for a grid-stride pass over the buffer (4 per SM), or 0 with *err set. */
static unsigned flush_blocks(const gs_l2_flusher *f, int *err)
{
    if (!f || !f->buf) {
        *err = (int)cudaErrorInvalidValue;
        return 0u;
    }
    return 4u * sm_count(err);
}

extern "C" int gs_l2_flush_clean(const gs_l2_flusher *f, cudaStream_t s)
{
    int e;
    const unsigned blocks = flush_blocks(f, &e);
    if (!blocks)
        return e;
    read_all<<<blocks, 512, 0, s>>>((const uint4 *)f->buf, f->bytes / sizeof(uint4), NULL);
    return (int)cudaGetLastError();
}

extern "C" int gs_l2_flush_discard(const gs_l2_flusher *f, cudaStream_t s)
{
    static uint32_t calls = 0;
    int e;
    const unsigned blocks = flush_blocks(f, &e);
    if (!blocks)
        return e;
    write_all<<<blocks, 512, 0, s>>>((uint4 *)f->buf, f->bytes / sizeof(uint4), 0x5a5a0000u + ++calls);
    cudaError_t ce = cudaGetLastError();
    if (ce != cudaSuccess)
        return (int)ce;
    discard_all<<<blocks, 512, 0, s>>>((uint8_t *)f->buf, f->bytes / 128); /* no write-back */
    return (int)cudaGetLastError();
}
