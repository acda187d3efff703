/* Study: what makes a kernel's first pass over its code slow after an L2 flush?  Straight code
 * streams in at a few ns a 128-byte line; the GEMM's first main-loop stages take microseconds.
 * Each kernel runs 64 segments of 64 dependent FMAs (about 1 KB of SASS each), every segment
 * followed by: kind 0 nothing, 1 an mbarrier try_wait loop on a completed phase, 2 a warp vote
 * and a forward branch, 3 an mbarrier wait and a vote branch; kind 4 is kind 1's segments in a
 * rolled loop of 8 passes over 8 segments.  Warp 0 of each CTA stamps clock64 at the start,
 * after segment 8 (the loop: after each pass) and at the end.  Modes: cold (a 512 MB memset
 * before the launch), warm (the same kernel just before).
 * Part 2 (disturb): 15 worker warps run independent FMA streams (issue-bound) while warp 1 does,
 * every 1 us until they are done: mode 0 nothing (exits), 1 the twins' sampler (globaltimer
 * polls every 64 ns, a bracketed edge pair), 2 clock64 polls and the edge pair, 3 globaltimer
 * polls and no pair, 4 clock64 polls and one unbracketed (clock, globaltimer, clock) read,
 * 5 clock64 polls and two clock64 reads.  CTA time (clock64, median CTA) per mode.
 * usage: fetch-probe [reps] */
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); exit(1); } } while (0)

constexpr int SEGS = 64, FMAS = 64, STAMPS = 10;

__device__ __forceinline__ long long clk() { long long c; asm volatile("mov.u64 %0, %%clock64;" : "=l"(c)); return c; }

template <int KIND> __device__ __forceinline__ void seg(float &x, float a, float b, unsigned bar)
{
#pragma unroll
    for (int i = 0; i < FMAS; i++)
        asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(x) : "f"(a), "f"(b));
    if (KIND == 1 || KIND == 3 || KIND == 4)
        asm volatile("{ .reg .pred p; W%=: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0; @!p bra W%=; }" ::"r"(bar)
                     : "memory");
    if (KIND == 2 || KIND == 3) {
        if (__any_sync(0xffffffffu, x == 12345.0f)) {
#pragma unroll
            for (int i = 0; i < 8; i++)
                asm volatile("fma.rn.f32 %0, %0, %1, %0;" : "+f"(x) : "f"(b));
        }
    }
}

template <int KIND> __global__ void __launch_bounds__(128) probe(float *out, long long *st, float a, float b)
{
    __shared__ __align__(8) unsigned long long mb;
    const unsigned bar = (unsigned)__cvta_generic_to_shared(&mb);
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar));
        asm volatile("{ .reg .b64 s; mbarrier.arrive.shared::cta.b64 s, [%0]; }" ::"r"(bar) : "memory");
    }
    __syncthreads();
    long long t[STAMPS];
    float x = out[blockIdx.x * 128 + threadIdx.x];
    t[0] = clk();
    if (KIND == 4) {
#pragma unroll 1
        for (int p = 0; p < 8; p++) {
#pragma unroll
            for (int s = 0; s < 8; s++)
                seg<1>(x, a, b, bar);
            t[1 + p] = clk(); /* a rolled loop indexes t: local memory, the same cold and warm */
        }
        t[9] = t[8];
    } else {
#pragma unroll
        for (int s = 0; s < SEGS; s++) {
            seg<KIND>(x, a, b, bar);
            if (s == 7)
                t[1] = clk();
        }
        t[9] = clk();
    }
    out[blockIdx.x * 128 + threadIdx.x] = x;
    if (threadIdx.x == 0)
        for (int i = 0; i < STAMPS; i++)
            st[blockIdx.x * STAMPS + i] = t[i];
}

constexpr int WORKER_ITERS = 6000;

__device__ __forceinline__ unsigned long long gtimer() { unsigned long long t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)::"memory"); return t; }

template <int MODE> __global__ void __launch_bounds__(512) disturb(float *out, long long *st, unsigned long long *pairs)
{
    __shared__ __align__(8) unsigned long long done;
    __shared__ long long t_begin, t_end;
    const unsigned bar = (unsigned)__cvta_generic_to_shared(&done);
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 15;" ::"r"(bar));
        t_begin = 0x7fffffffffffffffll;
        t_end = 0;
    }
    __syncthreads();
    if (warp == 1) {
        if (MODE == 0 || lane != 0)
            return;
        unsigned long long n = 0, acc = 0, next_gt = 0;
        long long next_clk = 0;
        for (;;) {
            unsigned ok;
            asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                         : "=r"(ok) : "r"(bar) : "memory");
            if (ok)
                break;
            __nanosleep(64);
            bool due;
            if (MODE == 1 || MODE == 3)
                due = gtimer() >= next_gt;
            else
                due = clk() >= next_clk;
            if (!due)
                continue;
            if (MODE == 1 || MODE == 2) { /* the edge pair */
                const unsigned long long g0 = gtimer();
                for (int i = 0; i < 256; i++) {
                    const long long c0 = clk();
                    const unsigned long long g = gtimer();
                    const long long c1 = clk();
                    if (g != g0) {
                        acc += g + (unsigned long long)(c0 + c1);
                        next_gt = g + 1000;
                        break;
                    }
                }
            } else if (MODE == 3) {
                next_gt = gtimer() + 1000;
            } else if (MODE == 4) {
                const long long c0 = clk();
                const unsigned long long g = gtimer();
                const long long c1 = clk();
                acc += g + (unsigned long long)(c0 + c1);
            } else {
                acc += (unsigned long long)(clk() + clk());
            }
            next_clk = clk() + 1800; /* about 1 us */
            n++;
        }
        pairs[blockIdx.x * 2] = n;
        pairs[blockIdx.x * 2 + 1] = acc;
        return;
    }
    const long long t0 = clk();
    float x0 = out[threadIdx.x], x1 = x0 + 1, x2 = x0 + 2, x3 = x0 + 3;
#pragma unroll 4
    for (int i = 0; i < WORKER_ITERS; i++) {
        asm volatile("fma.rn.f32 %0, %0, %1, %1;" : "+f"(x0) : "f"(0.999f));
        asm volatile("fma.rn.f32 %0, %0, %1, %1;" : "+f"(x1) : "f"(0.999f));
        asm volatile("fma.rn.f32 %0, %0, %1, %1;" : "+f"(x2) : "f"(0.999f));
        asm volatile("fma.rn.f32 %0, %0, %1, %1;" : "+f"(x3) : "f"(0.999f));
    }
    const long long t1 = clk();
    out[blockIdx.x * 512 + threadIdx.x] = x0 + x1 + x2 + x3;
    atomicMin(&t_begin, t0);
    atomicMax(&t_end, t1);
    __syncwarp();
    if (lane == 0)
        asm volatile("{ .reg .b64 s; mbarrier.arrive.shared::cta.b64 s, [%0]; }" ::"r"(bar) : "memory");
    asm volatile("bar.sync 1, 480;" ::: "memory"); /* the 15 worker warps */
    if (threadIdx.x == 0)
        st[blockIdx.x] = t_end - t_begin;
}

typedef void (*kfn)(float *, long long *, float, float);

int main(int argc, char **argv)
{
    const int reps = argc > 1 ? atoi(argv[1]) : 10, blocks = 132;
    const kfn k[5] = {probe<0>, probe<1>, probe<2>, probe<3>, probe<4>};
    const char *kname[5] = {"straight", "mbar-wait", "vote-branch", "wait+vote", "rolled-loop"};
    float *out;
    long long *st;
    char *flush;
    const size_t fb = 512ull << 20;
    CK(cudaMalloc(&out, blocks * 128 * sizeof(float)));
    CK(cudaMemset(out, 0, blocks * 128 * sizeof(float)));
    CK(cudaMalloc(&st, blocks * STAMPS * sizeof(long long)));
    CK(cudaMalloc(&flush, fb));
    int clock_khz;
    CK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
    std::vector<long long> h(blocks * STAMPS);
    printf("kind\tmode\trep\tfirst8_cyc\trest56_cyc\ttotal_cyc\tpass_cyc(loop: passes 1..8)\n");
    for (int r = 0; r < reps; r++)
        for (int kind = 0; kind < 5; kind++)
            for (int m = 0; m < 2; m++) { /* 0 cold, 1 warm */
                if (m == 0)
                    CK(cudaMemsetAsync(flush, r & 0xff, fb));
                else
                    k[kind]<<<blocks, 128>>>(out, st, 1.0f, 0.0f);
                k[kind]<<<blocks, 128>>>(out, st, 1.0f, 0.0f);
                CK(cudaGetLastError());
                CK(cudaDeviceSynchronize());
                CK(cudaMemcpy(h.data(), st, h.size() * sizeof(long long), cudaMemcpyDeviceToHost));
                std::vector<long long> f8, rest, tot, pass[8];
                for (int b = 0; b < blocks; b++) {
                    const long long *t = &h[b * STAMPS];
                    f8.push_back(t[1] - t[0]);
                    rest.push_back(t[9] - t[1]);
                    tot.push_back(t[9] - t[0]);
                    for (int p = 0; p < 8; p++)
                        pass[p].push_back(t[1 + p] - (p ? t[p] : t[0]));
                }
                auto med = [](std::vector<long long> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; };
                printf("%s\t%s\t%d\t%lld\t%lld\t%lld\t", kname[kind], m ? "warm" : "cold", r, med(f8), med(rest), med(tot));
                if (kind == 4)
                    for (int p = 0; p < 8; p++)
                        printf("%lld%s", med(pass[p]), p < 7 ? "," : "");
                printf("\n");
            }
    printf("# SM clock attribute %d kHz\n", clock_khz);
    /* part 2 */
    typedef void (*dfn)(float *, long long *, unsigned long long *);
    const dfn d[6] = {disturb<0>, disturb<1>, disturb<2>, disturb<3>, disturb<4>, disturb<5>};
    float *out2;
    unsigned long long *pairs;
    CK(cudaMalloc(&out2, blocks * 512 * sizeof(float)));
    CK(cudaMemset(out2, 0, blocks * 512 * sizeof(float)));
    CK(cudaMalloc(&pairs, blocks * 2 * sizeof(unsigned long long)));
    std::vector<long long> hd(blocks);
    std::vector<unsigned long long> hp(blocks * 2);
    std::vector<long long> per[6];
    printf("mode\trep\tcta_cyc_median\tactions_median\n");
    for (int r = 0; r < 3 * reps; r++)
        for (int m = 0; m < 6; m++) {
            CK(cudaMemset(pairs, 0, blocks * 2 * sizeof(unsigned long long)));
            d[m]<<<blocks, 512>>>(out2, st, pairs);
            CK(cudaGetLastError());
            CK(cudaDeviceSynchronize());
            CK(cudaMemcpy(hd.data(), st, blocks * sizeof(long long), cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(hp.data(), pairs, hp.size() * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
            std::vector<long long> v(hd.begin(), hd.end()), a;
            for (int b = 0; b < blocks; b++)
                a.push_back((long long)hp[2 * b]);
            std::sort(v.begin(), v.end());
            std::sort(a.begin(), a.end());
            per[m].push_back(v[blocks / 2]);
            printf("%d\t%d\t%lld\t%lld\n", m, r, v[blocks / 2], a[blocks / 2]);
        }
    for (int m = 0; m < 6; m++) {
        std::sort(per[m].begin(), per[m].end());
        printf("# mode %d: median over reps %lld cycles (x%.4f of mode 0)\n", m, per[m][per[m].size() / 2],
               (double)per[m][per[m].size() / 2] / (double)per[0][per[0].size() / 2]);
    }
    return 0;
}
