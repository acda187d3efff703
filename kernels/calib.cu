/* Calibration kernels with known answers (docs/method.md, "Calibration").
 * Built twice: production (no stamps) and twin (-DGS_TWIN=1). */
#include "calib.h"
#include "../instrument/gs_stamp.cuh"

__device__ __forceinline__ unsigned long long calib_clock(void)
{
    unsigned long long c;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(c)::"memory");
    return c;
}

/* Spin until `cycles` SM cycles have passed since the call. */
__device__ __forceinline__ void spin(unsigned long long cycles)
{
    unsigned long long t0 = calib_clock();
    while (calib_clock() - t0 < cycles) {
    }
}

__global__ void __launch_bounds__(1024) GS_SYM(calib_kernel)(calib_config c, gs_buffer b)
{
    extern __shared__ unsigned char calib_smem[];
    gs_ctx gs;
    GS_INIT(gs, b, GS_ROLE_ALL);
    if (threadIdx.x == 0)
        calib_smem[0] = 0; /* the smem is there to bound residency, touch it once */
    for (unsigned t = 0; t < c.tiles; t++) {
        GS_TILE(gs, blockIdx.x * c.tiles + t, t);
        GS_BEGIN(gs, GS_MAINLOOP);
        for (unsigned k = 0; k < c.kiters; k++) {
            GS_BEGIN(gs, CALIB_LOAD_WAIT);
            spin(c.load_wait);
            GS_END(gs, CALIB_LOAD_WAIT);
            GS_BEGIN(gs, CALIB_DEQUANT);
            spin(c.dequant);
            GS_END(gs, CALIB_DEQUANT);
            GS_BEGIN(gs, CALIB_MMA);
            spin(c.mma);
            GS_END(gs, CALIB_MMA);
        }
        GS_END(gs, GS_MAINLOOP);
        GS_BEGIN(gs, GS_ACC_TO_REG);
        spin(c.acc_to_reg);
        GS_END(gs, GS_ACC_TO_REG);
        GS_BEGIN(gs, GS_EPILOGUE);
        spin(c.epilogue);
        GS_END(gs, GS_EPILOGUE);
        GS_BEGIN(gs, GS_STORE);
        spin(c.store);
        GS_END(gs, GS_STORE);
    }
    GS_FINISH(gs);
}

__device__ __forceinline__ unsigned poll_flag(const unsigned *flag)
{
    unsigned v;
    asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(flag) : "memory");
    return v;
}

/* Every CTA arrives, thread 0 of CTA 0 releases the flag once all have
 * arrived, and thread 0 of each CTA stamps the poll that saw it (RELEASE_SEEN): its
 * end is the release instant on that SM, its length the latency of one poll. */
__global__ void __launch_bounds__(1024) GS_SYM(release_kernel)(release_config c, gs_buffer b)
{
    extern __shared__ unsigned char release_smem[];
    gs_ctx gs;
    GS_INIT(gs, b, GS_ROLE_ALL);
    GS_TILE(gs, blockIdx.x, 0);
    GS_BEGIN(gs, GS_PROLOGUE);
    spin(c.before);
    GS_END(gs, GS_PROLOGUE);
    if (threadIdx.x == 0) {
        release_smem[0] = 0;
        atomicAdd(c.arrived, 1u);
        if (blockIdx.x == 0) {
            unsigned long long t0 = calib_clock();
            /* Bounded waits: a CTA that never became resident must not hang the GPU. */
            while (poll_flag(c.arrived) < gridDim.x && calib_clock() - t0 < (1ull << 32)) {
            }
            /* every CTA now polls for a while, so each measures its poll period on many polls */
            spin(c.hold);
            asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" ::"l"(c.flag), "r"(1u) : "memory");
        }
    }
    if (threadIdx.x < 32) {
        /* warp 0 polls; lane 0's load decides, the warp stays converged.  RELEASE_POLLING
         * spans all the polls and carries their count in its group tag: the poll period;
         * RELEASE_SEEN is the poll that saw the flag. */
        unsigned long long t0 = calib_clock();
        unsigned seen = 0, polls = 0;
        GS_BEGIN(gs, RELEASE_POLLING);
        while (!seen && calib_clock() - t0 < (1ull << 32)) {
            GS_BEGIN(gs, RELEASE_SEEN);
            seen = __shfl_sync(0xffffffffu, threadIdx.x == 0 ? poll_flag(c.flag) : 0u, 0);
            polls++;
            if (seen)
                GS_END(gs, RELEASE_SEEN);
        }
        GS_TILE(gs, blockIdx.x, polls < 65535u ? polls : 65535u);
        GS_END(gs, RELEASE_POLLING);
        GS_TILE(gs, blockIdx.x, 0);
    }
    __syncthreads();
    GS_BEGIN(gs, GS_EPILOGUE);
    spin(c.after);
    GS_END(gs, GS_EPILOGUE);
    GS_FINISH(gs);
}

/* A probe: the globaltimer bracketed by two clock64 reads, by lane 0 (the caller's test). */
__device__ __forceinline__ void clock_probe(unsigned long long *p)
{
    unsigned long long c0, g, c1;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(c0)::"memory");
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g)::"memory");
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(c1)::"memory");
    p[0] = c0;
    p[1] = g;
    p[2] = c1;
}

/* Tensor-core work for `cycles` SM cycles: dependent m16n8k16 fp16 MMAs, 8 between clock reads. */
__device__ __forceinline__ float heavy(unsigned long long cycles, float seed)
{
    float d0 = seed, d1 = seed, d2 = seed, d3 = seed;
    const unsigned a = 0x3c003c00u, b = 0x3c003c00u; /* fp16 pairs of 1.0 */
    const unsigned long long t0 = calib_clock();
    while (calib_clock() - t0 < cycles)
        for (int i = 0; i < 8; i++)
            asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                         "{%0,%1,%2,%3};"
                         : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
                         : "r"(a), "r"(a), "r"(a), "r"(a), "r"(b), "r"(b));
    return d0 + d1 + d2 + d3;
}

/* A nap of about `ns` nanoseconds by the globaltimer (its length does not follow the clock). */
__device__ __forceinline__ void light(unsigned ns)
{
    unsigned long long g0, g;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g0)::"memory");
    do {
        __nanosleep(1000);
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g)::"memory");
    } while (g - g0 < ns);
}

__global__ void __launch_bounds__(1024) GS_SYM(clock_kernel)(clock_config c, gs_buffer b)
{
    extern __shared__ unsigned char clock_smem[];
    gs_ctx gs;
    const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    GS_INIT(gs, b, GS_ROLE_ALL);
    if (threadIdx.x == 0) {
        clock_smem[0] = 0; /* the smem is there to bound residency, touch it once */
        GS_CLOCK_INIT(CLOCK_WORKERS);
    }
    __syncthreads();
    if (warp == CLOCK_WORKERS) { /* the twin's spare warp follows the SM clock until the workers are done */
        GS_CLOCK_SAMPLER(gs);
        GS_FINISH(gs);
        return;
    }
    unsigned long long *probe = c.probes + (size_t)blockIdx.x * (2 * c.rounds + 1) * CLOCK_PROBE_WORDS;
    const int prober = warp == 0 && lane == 0;
    float acc = 0;
    GS_TILE(gs, blockIdx.x, 0);
    for (unsigned r = 0; r < c.rounds; r++) {
        if (prober)
            clock_probe(probe + (2 * r) * CLOCK_PROBE_WORDS);
        GS_BEGIN(gs, CLOCK_HEAVY);
        acc += heavy(c.heavy_cycles, acc);
        GS_END(gs, CLOCK_HEAVY);
        if (prober)
            clock_probe(probe + (2 * r + 1) * CLOCK_PROBE_WORDS);
        GS_BEGIN(gs, CLOCK_LIGHT);
        light(c.light_ns);
        GS_END(gs, CLOCK_LIGHT);
    }
    if (prober)
        clock_probe(probe + (2 * c.rounds) * CLOCK_PROBE_WORDS);
    if (acc == -1.0f) /* never: the bursts' results stay live */
        c.sink[threadIdx.x] = acc;
    GS_CLOCK_DONE(gs);
    GS_FINISH(gs);
}

template <typename Cfg>
static int launch_checked(void (*k)(Cfg, gs_buffer), const Cfg *c, unsigned ctas, unsigned threads,
                          unsigned smem, gs_buffer b, cudaStream_t s)
{
    cudaError_t e = cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    if (e != cudaSuccess)
        return (int)e;
    k<<<ctas, threads, smem, s>>>(*c, b);
    return (int)cudaGetLastError();
}

extern "C" int GS_SYM(calib_launch)(const calib_config *c, gs_buffer b, cudaStream_t s)
{
    return launch_checked(GS_SYM(calib_kernel), c, c->ctas, c->threads, c->smem_bytes, b, s);
}

extern "C" int GS_SYM(release_launch)(const release_config *c, gs_buffer b, cudaStream_t s)
{
    cudaError_t e = cudaMemsetAsync(c->arrived, 0, sizeof(unsigned), s);
    if (e == cudaSuccess)
        e = cudaMemsetAsync(c->flag, 0, sizeof(unsigned), s);
    if (e != cudaSuccess)
        return (int)e;
    return launch_checked(GS_SYM(release_kernel), c, c->ctas, c->threads, c->smem_bytes, b, s);
}

extern "C" int GS_SYM(clock_launch)(const clock_config *c, gs_buffer b, cudaStream_t s)
{
    return launch_checked(GS_SYM(clock_kernel), c, c->ctas, c->threads, c->smem_bytes, b, s);
}

#if !(defined(GS_TWIN) && GS_TWIN)
/* Event counts (built once, with the production object). */
extern "C" unsigned calib_events_per_warp(const calib_config *c)
{
    return c->tiles * (1 + 3 * c->kiters + 3);
}

extern "C" unsigned release_events_per_warp(const release_config *c)
{
    (void)c;
    return 4; /* PROLOGUE, RELEASE_SEEN and RELEASE_POLLING (warp 0 only), EPILOGUE */
}

extern "C" unsigned clock_events_per_warp(const clock_config *c)
{
    /* a worker: two phases a round; the sampler: up to GS_CLOCK_SAMPLES pairs */
    return 2 * c->rounds > GS_CLOCK_SAMPLES ? 2 * c->rounds : GS_CLOCK_SAMPLES;
}
#endif
