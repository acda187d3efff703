/* nvfp4-mma-rate: what the GEMM's consumer side can do per stage when nothing waits for
 * memory, for every wgmma width the kernel issues.  One CTA per SM with the kernel's two
 * consumer warpgroups (a 128-row weight tile) runs the main loop's compute on data that
 * never changes: per stage, the eight register-sourced m64nNk16 wgmmas of each warpgroup
 * (the kernel's wgmma_rs_step, ptx.cuh), and with `dequant` the next stage's weight
 * fragments made from shared memory by the kernel's own dequantisation (dequant.cuh),
 * overlapped as the kernel overlaps them.
 *   depth 1: wait for the stage's wgmmas before the next is issued (the kernel's
 *            MMA_DEPTH 1: dequantise the next stage, then wgmma.wait_group 0);
 *   depth 2: wait only for the previous stage's (wait_group 1), then dequantise;
 *   dequant 2 (depth 1): the next stage's fragments made between the wgmmas, one k16 step
 *            after each (interleaved), instead of after all eight; 3: four steps after
 *            each four wgmmas.
 * No loads from global memory, no barriers: the figures are the per-width floor of the
 * main loop's stage (a K block of 128 for a 128-row tile) against which the stamps' MAINLOOP
 * per K block is read (docs/variants.md, "The consumer's floor per width").
 *
 * Time: CUDA events around launches of I and 2I stages, the difference (so the launch
 * drops out), median of --reps pairs; cycles from clock64 of every CTA (median).
 * Usage: nvfp4-mma-rate [--reps N] [--stages I]
 * Prints: n  depth  dequant  ns_per_stage  cycles_per_stage  tensor_cycles  tensor_share
 *         tflops  sm_mhz
 * tensor_cycles = 16 wgmmas x n/2 cycles (m64nNk16 on H100: 16 x n x 16 FMA per sub-partition
 * at 512 FMA per cycle); tensor_share = tensor_cycles / cycles_per_stage. */
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern "C" {
#include "instrument/gs_args.h"
}
#include "dequant.cuh"
#include "ptx.cuh"

namespace {

constexpr int THREADS = 256;         /* two consumer warpgroups, as in the GEMM */
constexpr int TOK_SLAB = 256 * 128;  /* 256 token rows x 64 fp16: the widest tile's slab */
constexpr int W_STAGE = 128 * (NVFP4_BK / 2) + 2 * 512; /* raw weights + two scale atoms */
constexpr int W_SLOTS = 4;           /* stages of weights cycled through (the ring) */
constexpr int SMEM = 2 * TOK_SLAB + W_SLOTS * W_STAGE + 1024;

#define CK(call)                                                                                         \
    do {                                                                                                 \
        cudaError_t e_ = (call);                                                                         \
        if (e_ != cudaSuccess) {                                                                         \
            fprintf(stderr, "nvfp4-mma-rate: %s: %s\n", #call, cudaGetErrorString(e_));                  \
            return 1;                                                                                    \
        }                                                                                                \
    } while (0)

/* Eight wgmmas of one stage from fragments a against the token slabs at tok (gemm.cu's
 * issue_stage with TILE_T 256). */
template <int N> __device__ __forceinline__ void issue(float (&acc)[N / 2], const uint32_t (&a)[8][4], uint32_t tok)
{
    wgmma_fence();
#pragma unroll
    for (int s = 0; s < 8; s++)
        wgmma_rs_step<N>(acc, a[s], tok, TOK_SLAB, s);
    wgmma_commit();
}

/* The same with the next stage's fragments (next) made between the wgmmas from the weights at
 * w (scales at sf): CH k16 steps after every CH wgmmas. */
template <int N, int CH>
__device__ __forceinline__ void issue_interleaved(float (&acc)[N / 2], const uint32_t (&a)[8][4], uint32_t tok,
                                                  uint32_t (&next)[8][4], uint32_t w, uint32_t sf, int row, int c)
{
    weight_words ww;
    load_weight_words(ww, w, sf, row, row, c);
    wgmma_fence();
#pragma unroll
    for (int s0 = 0; s0 < 8; s0 += CH) {
#pragma unroll
        for (int s = s0; s < s0 + CH; s++)
            wgmma_rs_step<N>(acc, a[s], tok, TOK_SLAB, s);
#pragma unroll
        for (int s = s0; s < s0 + CH; s++)
            dequant_weight_step(next[s], ww, s);
    }
    wgmma_commit();
}

/* One stage: its wgmmas from a; with dequant, the fragments of stage `stage` (the weight ring
 * of W_SLOTS) made into next (1: after the issue, as the kernel does; 2, 3: between the
 * wgmmas); the wait as DEPTH says (2: the previous stage's wgmmas only, before the
 * dequantisation overwrites the set they read). */
template <int N, int DEPTH, int DEQ>
__device__ __forceinline__ void one_stage(float (&acc)[N / 2], const uint32_t (&a)[8][4], uint32_t (&next)[8][4],
                                          uint32_t tok, uint32_t wbase, int stage, int row, int c)
{
    const uint32_t w = wbase + (uint32_t)(stage % W_SLOTS) * W_STAGE, sf = w + 128 * (NVFP4_BK / 2);
    if constexpr (DEQ >= 2) { /* depth 1 only */
        issue_interleaved<N, DEQ == 2 ? 1 : 4>(acc, a, tok, next, w, sf, row, c);
        wgmma_wait<0>();
    } else {
        issue<N>(acc, a, tok);
        if (DEPTH == 2)
            wgmma_wait<1>();
        if (DEQ == 1)
            dequant_weight_stage(next, w, sf, row, row, c);
        if (DEPTH == 1)
            wgmma_wait<0>();
    }
}

/* One stage per iteration, the fragment sets alternating as in the GEMM's main loop. */
template <int N, int DEPTH, int DEQ>
__global__ void __launch_bounds__(THREADS, 1) rate_kernel(int stages, unsigned long long *clk, float *sink)
{
    extern __shared__ uint8_t smem_raw[];
    const uint32_t base = ((uint32_t)__cvta_generic_to_shared(smem_raw) + 1023u) & ~1023u;
    uint8_t *gbase = smem_raw + (base - (uint32_t)__cvta_generic_to_shared(smem_raw));
    /* data: fp16 tokens 2^-4 x small integers, raw FP4 bytes, e4m3 scales 1 and 2 */
    for (int i = threadIdx.x; i < (2 * TOK_SLAB + W_SLOTS * W_STAGE) / 4; i += THREADS) {
        const uint32_t h = (uint32_t)i * 2654435761u;
        uint32_t v;
        if (i < 2 * TOK_SLAB / 4)
            v = (0x2C00u + ((h >> 7) & 0x3FFu)) | ((0x2C00u + ((h >> 19) & 0x3FFu)) << 16);
        else if ((i - 2 * TOK_SLAB / 4) % (W_STAGE / 4) >= 128 * (NVFP4_BK / 2) / 4)
            v = (h & 0x10000u) ? 0x40384038u : 0x38403840u;
        else
            v = h & 0xBBBBBBBBu; /* the harness's nibbles: |v| <= 1.5 */
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
    dequant_weight_stage(fa, wbase, wbase + 128 * (NVFP4_BK / 2), row, row, c);
    dequant_weight_stage(fb, wbase + W_STAGE, wbase + W_STAGE + 128 * (NVFP4_BK / 2), row, row, c);

    unsigned long long t0 = 0, c0 = 0;
    if (threadIdx.x == 0) {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
        c0 = clock64();
    }
    for (int it = 0; it < stages; it += 2) {
        one_stage<N, DEPTH, DEQ>(acc, fa, fb, tok, wbase, it + 1, row, c);
        one_stage<N, DEPTH, DEQ>(acc, fb, fa, tok, wbase, it + 2, row, c);
    }
    wgmma_wait<0>();
    fence_regs(acc);
    if (threadIdx.x == 0) {
        unsigned long long t1;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
        clk[2 * blockIdx.x] = clock64() - c0;
        clk[2 * blockIdx.x + 1] = t1 - t0;
    }
    float s = 0.0f;
#pragma unroll
    for (int i = 0; i < N / 2; i++)
        s += acc[i];
    if (s == 1234.5f) /* never: keeps the accumulators live */
        sink[blockIdx.x * THREADS + threadIdx.x] = s;
}

struct dev_ctx {
    int sms;
    unsigned long long *clk;
    float *sink;
    cudaEvent_t e[3];
};

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int cmp_u64(const void *a, const void *b)
{
    const unsigned long long x = *(const unsigned long long *)a, y = *(const unsigned long long *)b;
    return (x > y) - (x < y);
}

/* One row of the table: ns per stage (difference of I and 2I stages, median over reps),
 * cycles per stage (median over the CTAs of the last 2I launch). */
template <int N, int DEPTH, int DEQ> int row(dev_ctx &d, int stages, int reps)
{
    auto k = rate_kernel<N, DEPTH, DEQ>;
    CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM));
    k<<<d.sms, THREADS, SMEM>>>(stages, d.clk, d.sink); /* warm-up */
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    double *ns = (double *)malloc(sizeof(double) * (size_t)reps);
    unsigned long long *cyc = (unsigned long long *)malloc(sizeof(unsigned long long) * (size_t)d.sms * 4);
    if (!ns || !cyc) {
        free(ns);
        free(cyc);
        fprintf(stderr, "nvfp4-mma-rate: out of memory\n");
        return 1;
    }
    int bad = 0;
    for (int r = 0; r < reps && !bad; r++) {
        float t1 = 0.0f, t2 = 0.0f;
        bad = cudaEventRecord(d.e[0]) != cudaSuccess;
        k<<<d.sms, THREADS, SMEM>>>(stages, d.clk, d.sink);
        bad = bad || cudaGetLastError() != cudaSuccess || cudaEventRecord(d.e[1]) != cudaSuccess;
        k<<<d.sms, THREADS, SMEM>>>(2 * stages, d.clk, d.sink);
        bad = bad || cudaGetLastError() != cudaSuccess || cudaEventRecord(d.e[2]) != cudaSuccess ||
              cudaEventSynchronize(d.e[2]) != cudaSuccess || cudaEventElapsedTime(&t1, d.e[0], d.e[1]) != cudaSuccess ||
              cudaEventElapsedTime(&t2, d.e[1], d.e[2]) != cudaSuccess;
        ns[r] = 1e6 * ((double)t2 - (double)t1) / stages;
    }
    if (!bad)
        bad = cudaMemcpy(cyc, d.clk, sizeof(unsigned long long) * (size_t)d.sms * 2, cudaMemcpyDeviceToHost) !=
              cudaSuccess;
    if (bad) {
        fprintf(stderr, "nvfp4-mma-rate: n=%d depth=%d dequant=%d: %s\n", N, DEPTH, DEQ,
                cudaGetErrorString(cudaGetLastError()));
        free(ns);
        free(cyc);
        return 1;
    }
    qsort(ns, (size_t)reps, sizeof(double), cmp_double);
    /* the last launch (2I stages): each CTA's cycles and ns, medians of each */
    const int n = d.sms;
    unsigned long long *c = cyc + 2 * n, *t = cyc + 3 * n;
    for (int i = 0; i < n; i++) {
        c[i] = cyc[2 * i];
        t[i] = cyc[2 * i + 1];
    }
    qsort(c, (size_t)n, sizeof *c, cmp_u64);
    qsort(t, (size_t)n, sizeof *t, cmp_u64);
    const double med_ns = ns[reps / 2];
    const double cyc_stage = (double)c[n / 2] / (2.0 * stages);
    const double mhz = 1e3 * (double)c[n / 2] / (double)t[n / 2];
    const double tensor = 16.0 * N / 2.0;
    const double tflops = 2.0 * 128.0 * N * NVFP4_BK * d.sms / med_ns * 1e-3;
    printf("%d\t%d\t%d\t%.1f\t%.0f\t%.0f\t%.3f\t%.1f\t%.0f\n", N, DEPTH, DEQ, med_ns, cyc_stage, tensor,
           tensor / cyc_stage, tflops, mhz);
    fflush(stdout);
    free(ns);
    free(cyc);
    return 0;
}

template <int N> int width_rows(dev_ctx &d, int stages, int reps)
{
    return row<N, 1, 0>(d, stages, reps) || row<N, 1, 1>(d, stages, reps) || row<N, 2, 0>(d, stages, reps) ||
           row<N, 2, 1>(d, stages, reps) || row<N, 1, 2>(d, stages, reps) || row<N, 1, 3>(d, stages, reps);
}

} // namespace

int main(int argc, char **argv)
{
    long reps = 21, stages = 2048;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--reps") && i + 1 < argc && !gs_parse_long(argv[i + 1], 1, 10000, &reps)) {
            i++;
        } else if (!strcmp(argv[i], "--stages") && i + 1 < argc &&
                   !gs_parse_long(argv[i + 1], 2, 1 << 20, &stages) && stages % 2 == 0) {
            i++;
        } else {
            fprintf(stderr, "usage: %s [--reps N] [--stages I]  (N 1..10000, I even, 2..1048576)\n", argv[0]);
            return 2;
        }
    }
    dev_ctx d;
    int dev = 0;
    memset(&d, 0, sizeof d);
    CK(cudaGetDevice(&dev));
    CK(cudaDeviceGetAttribute(&d.sms, cudaDevAttrMultiProcessorCount, dev));
    CK(cudaMalloc(&d.clk, sizeof(unsigned long long) * 2 * (size_t)d.sms));
    CK(cudaMalloc(&d.sink, sizeof(float) * THREADS * (size_t)d.sms));
    for (int i = 0; i < 3; i++)
        CK(cudaEventCreate(&d.e[i]));
    printf("n\tdepth\tdequant\tns_per_stage\tcycles_per_stage\ttensor_cycles\ttensor_share\ttflops\tsm_mhz\n");
    const int s = (int)stages, r = (int)reps;
    int bad = width_rows<32>(d, s, r) || width_rows<64>(d, s, r) || width_rows<96>(d, s, r) ||
              width_rows<128>(d, s, r) || width_rows<160>(d, s, r) || width_rows<192>(d, s, r) ||
              width_rows<224>(d, s, r) || width_rows<256>(d, s, r);
    for (int i = 0; i < 3; i++)
        cudaEventDestroy(d.e[i]);
    cudaFree(d.clk);
    cudaFree(d.sink);
    return bad;
}
