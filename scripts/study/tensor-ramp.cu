/* Study: does a main loop's first stages run slow because its code is cold, or because the tensor
 * cores (or the SM clock) start from idle?  nvfp4-mma-rate's stage (width 128, two consumer
 * warpgroups, the kernel's dequantisation and wgmmas, no memory traffic) with thread 0 stamping
 * clock64 and %globaltimer after each of the first STAMPED stages.  Modes, each launch preceded by:
 *   warm:  the same launch (code in the SM's caches, tensor cores just busy);
 *   idle:  a 300 us kernel that sleeps on every SM (code in L2, tensor cores idle);
 *   flush: a 512 MB memset (code in DRAM, tensor cores idle);
 *   flush+warm: a 512 MB memset, then a 2-stage launch of the probe (code warm, tensor idle).
 * Prints per mode the median over CTAs and repetitions of each stage's cycles and ns.
 * usage: tensor-ramp [reps] */
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#include <stdint.h>

#include "dequant.cuh"
#include "ptx.cuh"

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); exit(1); } } while (0)

constexpr int THREADS = 256, N = 128, STAMPED = 32;
constexpr int TOK_SLAB = 256 * 128, W_STAGE = 128 * (NVFP4_BK / 2) + 2 * 512, W_SLOTS = 4;
constexpr int SMEM = 2 * TOK_SLAB + W_SLOTS * W_STAGE + 1024;

__device__ __forceinline__ unsigned long long gtimer() { unsigned long long t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)::"memory"); return t; }

__global__ void sleeper(int us)
{
    const unsigned long long end = gtimer() + 1000ull * (unsigned)us;
    while (gtimer() < end)
        __nanosleep(1000);
}

__global__ void __launch_bounds__(THREADS, 1) ramp(int stages, long long *out, float *sink)
{
    extern __shared__ uint8_t smem_raw[];
    __shared__ long long sc[STAMPED + 1], sg[STAMPED + 1];
    const uint32_t base = ((uint32_t)__cvta_generic_to_shared(smem_raw) + 1023u) & ~1023u;
    uint8_t *gbase = smem_raw + (base - (uint32_t)__cvta_generic_to_shared(smem_raw));
    for (int i = threadIdx.x; i < (2 * TOK_SLAB + W_SLOTS * W_STAGE) / 4; i += THREADS) {
        const uint32_t h = (uint32_t)i * 2654435761u;
        uint32_t v;
        if (i < 2 * TOK_SLAB / 4)
            v = (0x2C00u + ((h >> 7) & 0x3FFu)) | ((0x2C00u + ((h >> 19) & 0x3FFu)) << 16);
        else if ((i - 2 * TOK_SLAB / 4) % (W_STAGE / 4) >= 128 * (NVFP4_BK / 2) / 4)
            v = (h & 0x10000u) ? 0x40384038u : 0x38403840u;
        else
            v = h & 0xBBBBBBBBu;
        reinterpret_cast<uint32_t *>(gbase)[i] = v;
    }
    fence_proxy_async_smem();
    __syncthreads();
    const int wg = threadIdx.x / 128, tid = threadIdx.x % 128, lane = tid % 32;
    const int row = 64 * wg + 16 * (tid / 32) + lane / 4, c = lane & 3;
    const uint32_t tok = base, wbase = base + 2 * TOK_SLAB;
    float acc[N / 2];
#pragma unroll
    for (int i = 0; i < N / 2; i++)
        acc[i] = 0.0f;
    uint32_t fa[8][4], fb[8][4];
    if (threadIdx.x == 0) {
        sc[0] = clock64();
        sg[0] = (long long)gtimer();
    }
    dequant_weight_stage(fa, wbase, wbase + 128 * (NVFP4_BK / 2), row, row, c);
    for (int it = 0; it < stages; it += 2) {
#pragma unroll
        for (int h = 0; h < 2; h++) {
            uint32_t(&a)[8][4] = h ? fb : fa;
            uint32_t(&nx)[8][4] = h ? fa : fb;
            const int stage = it + h + 1;
            const uint32_t w = wbase + (uint32_t)(stage % W_SLOTS) * W_STAGE, sf = w + 128 * (NVFP4_BK / 2);
            wgmma_fence();
#pragma unroll
            for (int s = 0; s < 8; s++)
                wgmma_rs_step<N>(acc, a[s], tok, TOK_SLAB, s);
            wgmma_commit();
            dequant_weight_stage(nx, w, sf, row, row, c);
            wgmma_wait<0>();
            fence_regs(acc);
            if (threadIdx.x == 0 && it + h < STAMPED) {
                sc[it + h + 1] = clock64();
                sg[it + h + 1] = (long long)gtimer();
            }
        }
    }
    float s = 0.0f;
#pragma unroll
    for (int i = 0; i < N / 2; i++)
        s += acc[i];
    if (s == 1234.5f)
        sink[blockIdx.x * THREADS + threadIdx.x] = s;
    __syncthreads();
    if (threadIdx.x <= STAMPED) {
        out[(blockIdx.x * (STAMPED + 1) + threadIdx.x) * 2] = sc[threadIdx.x];
        out[(blockIdx.x * (STAMPED + 1) + threadIdx.x) * 2 + 1] = sg[threadIdx.x];
    }
}

int main(int argc, char **argv)
{
    const int reps = argc > 1 ? atoi(argv[1]) : 5, stages = 64;
    int sms;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    CK(cudaFuncSetAttribute(ramp, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM));
    long long *out;
    float *sink;
    char *flush;
    const size_t fb = 512ull << 20;
    CK(cudaMalloc(&out, sizeof(long long) * 2 * (STAMPED + 1) * sms));
    CK(cudaMalloc(&sink, sizeof(float) * THREADS * sms));
    CK(cudaMalloc(&flush, fb));
    std::vector<long long> h(2 * (STAMPED + 1) * sms);
    const char *names[4] = {"warm", "idle", "flush", "flush+warm"};
    std::vector<long long> cyc[4][STAMPED], ns[4][STAMPED];
    for (int r = 0; r < reps; r++)
        for (int m = 0; m < 4; m++) {
            if (m == 0)
                ramp<<<sms, THREADS, SMEM>>>(stages, out, sink);
            if (m == 1)
                sleeper<<<sms, 32>>>(300);
            if (m >= 2)
                CK(cudaMemsetAsync(flush, r & 0xff, fb));
            if (m == 3)
                ramp<<<sms, THREADS, SMEM>>>(2, out, sink);
            ramp<<<sms, THREADS, SMEM>>>(stages, out, sink);
            CK(cudaGetLastError());
            CK(cudaDeviceSynchronize());
            CK(cudaMemcpy(h.data(), out, h.size() * sizeof(long long), cudaMemcpyDeviceToHost));
            for (int b = 0; b < sms; b++)
                for (int s = 0; s < STAMPED; s++) {
                    const long long *p = &h[(size_t)(b * (STAMPED + 1) + s) * 2];
                    cyc[m][s].push_back(p[2] - p[0]);
                    ns[m][s].push_back(p[3] - p[1]);
                }
        }
    printf("stage");
    for (int m = 0; m < 4; m++)
        printf("\t%s_cyc\t%s_ns", names[m], names[m]);
    printf("\n");
    for (int s = 0; s < STAMPED; s++) {
        printf("%d", s);
        for (int m = 0; m < 4; m++) {
            auto &c = cyc[m][s], &n = ns[m][s];
            std::sort(c.begin(), c.end());
            std::sort(n.begin(), n.end());
            printf("\t%lld\t%lld", c[c.size() / 2], n[n.size() / 2]);
        }
        printf("\n");
    }
    return 0;
}
