#include "gs_device.h"
#include "gs_check.h"

#include <stdio.h>
#include <time.h>

#include <cuda_runtime_api.h>

/* Device attributes written to meta.txt under these keys. */
static const struct {
    const char *key;
    enum cudaDeviceAttr attr;
} device_attrs[] = {
    {"sm_count", cudaDevAttrMultiProcessorCount},
    {"sm_clock_max_khz", cudaDevAttrClockRate},
    {"mem_clock_max_khz", cudaDevAttrMemoryClockRate},
    {"l2_bytes", cudaDevAttrL2CacheSize},
    {"smem_per_block_optin", cudaDevAttrMaxSharedMemoryPerBlockOptin},
    {"smem_per_sm", cudaDevAttrMaxSharedMemoryPerMultiprocessor},
    {"regs_per_sm", cudaDevAttrMaxRegistersPerMultiprocessor},
    {"threads_per_sm", cudaDevAttrMaxThreadsPerMultiProcessor},
    {"blocks_per_sm", cudaDevAttrMaxBlocksPerMultiprocessor},
    {"smem_reserved_per_block", cudaDevAttrReservedSharedMemoryPerBlock},
};

int gs_device_meta(gs_meta *m, int dev, int *sm_count)
{
    struct cudaDeviceProp p;
    int drv = 0, rt = 0;
    GS_CUDA_TRY(cudaGetDeviceProperties(&p, dev));
    gs_meta_set(m, "gpu", "%s", p.name);
    gs_meta_set(m, "compute_capability", "%d.%d", p.major, p.minor);
    gs_meta_set(m, "global_mem_bytes", "%zu", p.totalGlobalMem);
    for (size_t i = 0; i < sizeof device_attrs / sizeof device_attrs[0]; i++) {
        int v = 0;
        GS_CUDA_TRY(cudaDeviceGetAttribute(&v, device_attrs[i].attr, dev));
        gs_meta_set(m, device_attrs[i].key, "%d", v);
        if (device_attrs[i].attr == cudaDevAttrMultiProcessorCount && sm_count)
            *sm_count = v;
    }
    GS_CUDA_TRY(cudaDriverGetVersion(&drv));
    GS_CUDA_TRY(cudaRuntimeGetVersion(&rt));
    gs_meta_set(m, "driver_cuda_version", "%d.%d", drv / 1000, (drv % 1000) / 10);
    gs_meta_set(m, "runtime_cuda_version", "%d.%d", rt / 1000, (rt % 1000) / 10);
    time_t now = time(NULL);
    char date[64];
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    gs_meta_set(m, "date", "%s", date);
    return 0;
}
