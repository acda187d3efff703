/* Grid-stride passes over a buffer of 16-byte words, shared by the L2 flushes
 * (gs_flush.cu) and the metric-truth probes (gs_probe.cu), whose kernels must keep
 * names of their own. */
#ifndef GS_STREAM_CUH
#define GS_STREAM_CUH

#include <stddef.h>
#include <stdint.h>

/* Reads every word; the xor of all goes to `sink` only when it equals an impossible value,
 * so the loads stay and nothing is written. */
__device__ __forceinline__ void gs_stream_read(const uint4 *p, size_t n, uint32_t *sink)
{
    uint32_t acc = 0;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        const uint4 v = p[i];
        acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (acc == 0x9e3779b9u && sink)
        *sink = acc;
}

/* Writes every word with v. */
__device__ __forceinline__ void gs_stream_write(uint4 *p, size_t n, uint32_t v)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        p[i] = make_uint4(v, v, v, v);
}

#endif
