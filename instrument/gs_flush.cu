/* See gs_flush.h. */
#include "gs_flush.h"

#include <stdint.h>

namespace {

/* Reads every 16-byte word; the sum goes to `sink` only when it equals an impossible
 * value, so the loads stay but nothing is written. */
__global__ void read_all(const uint4 *p, size_t n, uint32_t *sink)
{
    uint32_t acc = 0;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        const uint4 v = p[i];
        acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (acc == 0x9e3779b9u && sink)
        *sink = acc;
}

} // namespace

extern "C" int gs_l2_flush_clean(const gs_l2_flusher *f, cudaStream_t s)
{
    if (!f || !f->buf)
        return (int)cudaErrorInvalidValue;
    int dev = 0, sms = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (e != cudaSuccess)
        return (int)e;
    read_all<<<(unsigned)(4 * sms), 512, 0, s>>>((const uint4 *)f->buf, f->bytes / sizeof(uint4), NULL);
    return (int)cudaGetLastError();
}
