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

/* GS_EVICT_CODE_BYTES of dependent integer multiply-adds (16 bytes of SASS each), written
 * out in one asm block: operands from the kernel's arguments, so ptxas can neither fold nor
 * shorten the chain (tests/test_ptx.c checks the cubin's size). */
#define GS_MAD1 "mad.lo.u32 %0, %0, %1, %2;\n\t"
#define GS_MAD4 GS_MAD1 GS_MAD1 GS_MAD1 GS_MAD1
#define GS_MAD16 GS_MAD4 GS_MAD4 GS_MAD4 GS_MAD4
#define GS_MAD64 GS_MAD16 GS_MAD16 GS_MAD16 GS_MAD16
#define GS_MAD256 GS_MAD64 GS_MAD64 GS_MAD64 GS_MAD64
#define GS_MAD1K GS_MAD256 GS_MAD256 GS_MAD256 GS_MAD256
#define GS_MAD4K GS_MAD1K GS_MAD1K GS_MAD1K GS_MAD1K
#define GS_MAD16K GS_MAD4K GS_MAD4K GS_MAD4K GS_MAD4K
static_assert(GS_EVICT_CODE_BYTES == 2u * 16384u * 16u, "gs_flush: the code eviction runs 32K instructions");

__global__ void evict_code(uint32_t a, uint32_t b, uint32_t *sink)
{
    uint32_t x = threadIdx.x;
    asm volatile(GS_MAD16K GS_MAD16K : "+r"(x) : "r"(a), "r"(b));
    if (sink && x == a) /* never for the arguments passed: keeps x live */
        *sink = x;
}

__global__ void evict_tlb(const uint32_t *p, size_t words, size_t stride, uint32_t *sink)
{
    uint32_t acc = 0;
    for (size_t i = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * stride; i < words;
         i += (size_t)gridDim.x * blockDim.x * stride)
        acc += __ldcg(p + i);
    if (sink && acc == 0x9e3779b9u)
        *sink = acc;
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

extern "C" int gs_evict_code(cudaStream_t s)
{
    int e;
    const unsigned sms = sm_count(&e);
    if (!sms)
        return e;
    evict_code<<<2 * sms, 128, 0, s>>>(3u, 1u, NULL);
    return (int)cudaGetLastError();
}

extern "C" int gs_evict_tlb(const void *buf, size_t bytes, cudaStream_t s)
{
    int e;
    const unsigned sms = sm_count(&e);
    if (!sms)
        return e;
    if (!buf)
        return (int)cudaErrorInvalidValue;
    evict_tlb<<<4 * sms, 256, 0, s>>>((const uint32_t *)buf, bytes / 4, 65536 / 4, NULL);
    return (int)cudaGetLastError();
}
