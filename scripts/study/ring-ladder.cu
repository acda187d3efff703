/* Study: where the 128-token dual stage's 230-330 cycles above the consumer's floor go
 * (docs/notebook/2026-12-02-probes-and-head.md).  The GEMM's main-loop stage at width 128 with
 * gate 1's layout (two consumer warpgroups, B1's and B2's 64 weight rows, one token tile), the
 * kernel's dequantisation, wgmmas and order (issue, fetch the next stage, wait_group 0, release),
 * on a four-slot ring fed by one thread of a producer warpgroup, rung by rung:
 *   0  no ring: the slots hold data written once, nobody waits or releases (nvfp4-mma-rate's
 *      stage, beside an idle producer warpgroup);
 *   1  the ring's barriers: the producer arrives on a slot's full barrier once it is released,
 *      with no data; the consumers wait for it and every thread releases the slot;
 *   2  as 1, one release per warp (lane 0 after __syncwarp);
 *   3  as 1 with the stage's bytes: six 1-D bulk copies, one per load of the kernel (two 16 KB
 *      token slabs, B1's and B2's 4 KB of weights, two 1 KB scale atoms; the kernel's tensor
 *      copies and their swizzle are not modelled) from a source that stays in L2;
 *   4  as 3, one 42 KB bulk copy;
 *   5  as 3, the weights and scales from a 262 MB source (DRAM), the tokens from L2 as in the
 *      kernel;
 *   6  as 3 with the twins' clock sampler in the producer warpgroup's second warp
 *      (%globaltimer polls with 64 ns sleeps, a bracketed edge pair every 1 us, until the
 *      consumer warps are done);
 *   7  as 6, the polls without the pairs;
 *   8  the kernel's own copies: the two token slabs and B1's and B2's weights as 2-D tensor copies
 *      with the kernel's boxes (64 fp16 x 128 rows, 128B swizzle; 64 B x 64 rows, no swizzle,
 *      L2 promotion 256 B) from a 256 x 7168 fp16 token matrix and an 8192-row weight matrix
 *      of K = 7168 (the CTA's tiles as d256n4096k7168's), the scale atoms by bulk copies;
 *   9  as 8, the weights by bulk copies (only the tokens by tensor copies);
 *  10  as 8, the tokens by bulk copies (only the weights by tensor copies).
 * Cycles per stage: clock64 of consumer thread 0 over the stages, median CTA, median of the
 * repetitions; ns the same with %globaltimer.  usage: ring-ladder [stages] [reps]
 * A study copy of nvfp4-mma-rate's stage (its data, issue and kernel tail): if the ladder earns a
 * place, its rungs become modes of kernels/nvfp4/mma_rate.cu sharing that stage; either way this
 * file goes once it has run. */
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#include <cudaTypedefs.h>
#include <stdint.h>

#include "dequant.cuh"
#include "ptx.cuh"

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); exit(1); } } while (0)

constexpr int N = 128, STAGES = 4, THREADS = 384;
constexpr int T_SLAB = N * 128;                       /* 128 token rows x 64 fp16 */
constexpr int O_W = 2 * T_SLAB, W_MAT = 64 * (NVFP4_BK / 2);
constexpr int O_SF = O_W + 2 * W_MAT, SF_ATOMS = 2 * 512;
constexpr int SLOT = O_SF + 2 * SF_ATOMS;             /* 43008 = 42 x 1024 */
constexpr int SMEM = STAGES * SLOT + 1024;
constexpr int SRC_SMALL = 16, SRC_BIG = 6096;         /* stages of source: 688 KB, 262 MB (both in one buffer) */
static_assert(SLOT % 1024 == 0, "slots must stay 1024-byte aligned for the 128B swizzle");

__device__ __forceinline__ uint32_t gen_word(int i)
{
    const uint32_t h = (uint32_t)i * 2654435761u;
    const int o = i % (SLOT / 4);
    if (o < O_W / 4)
        return (0x2C00u + ((h >> 7) & 0x3FFu)) | ((0x2C00u + ((h >> 19) & 0x3FFu)) << 16);
    if (o >= O_SF / 4)
        return (h & 0x10000u) ? 0x40384038u : 0x38403840u;
    return h & 0xBBBBBBBBu;
}

__global__ void fill(uint32_t *src, size_t words)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < words; i += (size_t)gridDim.x * blockDim.x)
        src[i] = gen_word((int)(i % (SLOT / 4)));
}

/* a tensor source: the words [lo, lo + span) of a slot's pattern, over and over */
__global__ void fill_region(uint32_t *dst, size_t words, int lo, int span)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < words; i += (size_t)gridDim.x * blockDim.x)
        dst[i] = gen_word(lo + (int)(i % span));
}

__device__ __forceinline__ void issue(float (&acc)[N / 2], const uint32_t (&a)[8][4], uint32_t tok)
{
    wgmma_fence();
#pragma unroll
    for (int s = 0; s < 8; s++)
        wgmma_rs_step<N>(acc, a[s], tok, T_SLAB, s);
    wgmma_commit();
}

template <int MODE>
__device__ __forceinline__ void stage(float (&acc)[N / 2], const uint32_t (&a)[8][4], uint32_t (&next)[8][4],
                                      uint32_t base, uint32_t bars, int j, int stages, int row, int band_row,
                                      uint32_t sf_off, int c, int lane)
{
    const uint32_t slot = (uint32_t)j % STAGES, st = base + slot * SLOT;
    issue(acc, a, st);
    if (j + 1 < stages) {
        const uint32_t ns = (uint32_t)(j + 1) % STAGES, nst = base + ns * SLOT;
        if (MODE > 0)
            mbar_wait(bars + 8 * ns, (uint32_t)((j + 1) / STAGES) & 1);
        dequant_weight_stage(next, nst + O_W, nst + O_SF + sf_off, row, band_row, c);
    }
    wgmma_wait<0>();
    fence_regs(acc);
    if (MODE == 2) {
        __syncwarp();
        if (lane == 0)
            mbar_arrive(bars + 8 * (STAGES + slot));
    } else if (MODE > 0) {
        mbar_arrive(bars + 8 * (STAGES + slot));
    }
}

__device__ __forceinline__ unsigned long long gtimer(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)::"memory");
    return t;
}

/* gs_stamp.cuh's clock sampler: polls every 64 ns, with PAIRS a bracketed edge pair every 1 us
 * stored as a 32-byte record (rec, 64 a CTA, reused in turn), until the consumer warps have
 * arrived on `done`; stores how many times it woke to a due time. */
template <bool PAIRS> __device__ __forceinline__ void sampler(uint32_t done, long long *count, ulonglong2 *rec)
{
    unsigned long long next = 0, acc = 0;
    long long n = 0;
    for (;;) {
        uint32_t ok;
        asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                     : "=r"(ok)
                     : "r"(done)
                     : "memory");
        if (ok)
            break;
        __nanosleep(64);
        if (gtimer() < next)
            continue;
        if (PAIRS) {
            const unsigned long long g0 = gtimer();
            for (int i = 0; i < 256; i++) {
                const long long c0 = clock64();
                const unsigned long long g = gtimer();
                const long long c1 = clock64();
                if (g != g0) {
                    acc += g + (unsigned long long)(c0 + c1);
                    rec[2 * (n & 63)] = make_ulonglong2(g, (unsigned long long)(c0 + c1) / 2);
                    rec[2 * (n & 63) + 1] = make_ulonglong2((unsigned long long)(c1 - c0), 0);
                    break;
                }
            }
        }
        next = gtimer() + 1000;
        n++;
    }
    *count = n + (acc == 1 ? 1 : 0);
}

constexpr int K_BLOCKS = 7168 / NVFP4_BK, T_ROWS = 256, W_ROWS = 8192;
struct maps {
    CUtensorMap tok, w;
};

template <int MODE>
__global__ void __launch_bounds__(THREADS, 1) ladder(int stages, const uint8_t *src, long long *out, float *sink, ulonglong2 *rec,
                                                     const __grid_constant__ maps tm)
{
    extern __shared__ uint8_t smem_raw[];
    __shared__ __align__(8) unsigned long long bar_mem[2 * STAGES + 1]; /* full, empty, consumers done */
    const uint32_t base = (smem_u32(smem_raw) + 1023u) & ~1023u;
    uint8_t *gbase = smem_raw + (base - smem_u32(smem_raw));
    const uint32_t bars = smem_u32(bar_mem);
    for (int i = threadIdx.x; i < STAGES * SLOT / 4; i += THREADS)
        reinterpret_cast<uint32_t *>(gbase)[i] = gen_word(i);
    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; s++) {
            mbar_init(bars + 8 * s, 1);
            mbar_init(bars + 8 * (STAGES + s), MODE == 2 ? 8 : 256);
        }
        mbar_init(bars + 16 * STAGES, 8);
        mbar_fence_init();
    }
    fence_proxy_async_smem();
    __syncthreads();
    const int warp = __shfl_sync(0xffffffffu, (int)threadIdx.x >> 5, 0), lane = threadIdx.x & 31;
    if (warp >= 8) { /* the producer warpgroup: one thread feeds the ring */
        setmaxnreg_dec<40>();
        if (MODE >= 6 && threadIdx.x == 288)
            sampler<MODE == 6>(bars + 16 * STAGES, out + 2 * gridDim.x + blockIdx.x, rec + 128 * blockIdx.x);
        if (MODE == 0 || threadIdx.x != 256)
            return;
        const int big = MODE == 5 ? SRC_BIG : SRC_SMALL;
        for (int j = 0; j < stages; j++) {
            const uint32_t s = (uint32_t)j % STAGES, use = (uint32_t)j / STAGES, st = base + s * SLOT,
                           full = bars + 8 * s;
            if (use > 0)
                mbar_wait(bars + 8 * (STAGES + s), (use - 1) & 1);
            if (MODE <= 2) {
                mbar_arrive(full);
                continue;
            }
            /* tokens from the small source (L2); weights and scales from `big` stages of it */
            const uint8_t *g = src + (size_t)((j * 131 + (int)blockIdx.x * 7919) % big) * SLOT;
            const uint8_t *gt = src + (size_t)((j + (int)blockIdx.x) % SRC_SMALL) * SLOT;
            mbar_arrive_expect_tx(full, SLOT);
            const int kb = j % K_BLOCKS, t0 = 128 * ((int)blockIdx.x & 1), w0 = 64 * ((int)blockIdx.x >> 1);
            if (MODE >= 8) {
                if (MODE == 9) {
                    bulk_load(st + O_W, g + O_W, W_MAT, full);
                    bulk_load(st + O_W + W_MAT, g + O_W + W_MAT, W_MAT, full);
                } else {
                    tma_load_2d(st + O_W, &tm.w, full, kb * (NVFP4_BK / 2), w0);
                    tma_load_2d(st + O_W + W_MAT, &tm.w, full, kb * (NVFP4_BK / 2), W_ROWS / 2 + w0);
                }
                bulk_load(st + O_SF, g + O_SF, SF_ATOMS, full);
                bulk_load(st + O_SF + SF_ATOMS, g + O_SF + SF_ATOMS, SF_ATOMS, full);
                if (MODE == 10) {
                    bulk_load(st, gt, T_SLAB, full);
                    bulk_load(st + T_SLAB, gt + T_SLAB, T_SLAB, full);
                } else {
                    tma_load_2d(st, &tm.tok, full, kb * NVFP4_BK, t0);
                    tma_load_2d(st + T_SLAB, &tm.tok, full, kb * NVFP4_BK + 64, t0);
                }
            } else if (MODE == 4) {
                bulk_load(st, gt, SLOT, full);
            } else {
                bulk_load(st + O_W, g + O_W, W_MAT, full);
                bulk_load(st + O_SF, g + O_SF, SF_ATOMS, full);
                bulk_load(st + O_W + W_MAT, g + O_W + W_MAT, W_MAT, full);
                bulk_load(st + O_SF + SF_ATOMS, g + O_SF + SF_ATOMS, SF_ATOMS, full);
                bulk_load(st, gt, T_SLAB, full);
                bulk_load(st + T_SLAB, gt + T_SLAB, T_SLAB, full);
            }
        }
        return;
    }
    setmaxnreg_inc<232>();
    const int cw = warp >> 2, wq = warp & 3, c = lane & 3;
    const int row = 64 * cw + 16 * wq + (lane >> 2), band_row = row & 63;
    const uint32_t sf_off = (uint32_t)cw * SF_ATOMS;
    float acc[N / 2];
#pragma unroll
    for (int i = 0; i < N / 2; i++)
        acc[i] = 0.0f;
    uint32_t fa[8][4], fb[8][4];
    long long c0 = 0, g0 = 0;
    if (threadIdx.x == 0) {
        c0 = clock64();
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g0));
    }
    if (MODE > 0)
        mbar_wait(bars, 0);
    dequant_weight_stage(fa, base + O_W, base + O_SF + sf_off, row, band_row, c);
    for (int j = 0; j < stages; j += 2) {
        stage<MODE>(acc, fa, fb, base, bars, j, stages, row, band_row, sf_off, c, lane);
        stage<MODE>(acc, fb, fa, base, bars, j + 1, stages, row, band_row, sf_off, c, lane);
    }
    if (lane == 0)
        mbar_arrive(bars + 16 * STAGES); /* this consumer warp is done (the sampler stops) */
    if (threadIdx.x == 0) {
        long long g1;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g1));
        out[2 * blockIdx.x] = clock64() - c0;
        out[2 * blockIdx.x + 1] = g1 - g0;
    }
    float s = 0.0f;
#pragma unroll
    for (int i = 0; i < N / 2; i++)
        s += acc[i];
    if (s == 1234.5f)
        sink[blockIdx.x * THREADS + threadIdx.x] = s;
}

typedef void (*kfn)(int, const uint8_t *, long long *, float *, ulonglong2 *, maps);

static void encode(CUtensorMap *m, CUtensorMapDataType type, void *base, int elem, int cols, int rows, int box_cols,
                   int box_rows, CUtensorMapSwizzle sw)
{
    void *fn = nullptr;
    cudaDriverEntryPointQueryResult q;
    CK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &q));
    if (!fn || q != cudaDriverEntryPointSuccess) {
        fprintf(stderr, "ring-ladder: no cuTensorMapEncodeTiled\n");
        exit(1);
    }
    cuuint64_t dims[2] = {(cuuint64_t)cols, (cuuint64_t)rows}, strides[1] = {(cuuint64_t)cols * elem};
    cuuint32_t box[2] = {(cuuint32_t)box_cols, (cuuint32_t)box_rows}, estr[2] = {1, 1};
    CUresult r = ((PFN_cuTensorMapEncodeTiled_v12000)fn)(m, type, 2, base, dims, strides, box, estr,
                                                         CU_TENSOR_MAP_INTERLEAVE_NONE, sw,
                                                         CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                                                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) {
        fprintf(stderr, "ring-ladder: cuTensorMapEncodeTiled failed (%d)\n", (int)r);
        exit(1);
    }
}

int main(int argc, char **argv)
{
    const int stages = argc > 1 ? atoi(argv[1]) : 2048, reps = argc > 2 ? atoi(argv[2]) : 7;
    if (stages < 8 || stages % 2 || reps < 1) {
        fprintf(stderr, "usage: ring-ladder [stages (even, >= 8)] [reps]\n");
        return 2;
    }
    int sms;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    constexpr int MODES = 11;
    const kfn k[MODES] = {ladder<0>, ladder<1>, ladder<2>, ladder<3>, ladder<4>, ladder<5>,
                          ladder<6>, ladder<7>, ladder<8>, ladder<9>, ladder<10>};
    const char *name[MODES] = {"no ring", "barriers", "barriers, a release per warp", "six bulk copies from L2",
                               "one bulk copy from L2", "six bulk copies from DRAM", "as 3, the clock sampler",
                               "as 3, the sampler's polls alone", "the kernel's tensor copies",
                               "tensor copies of the tokens only", "tensor copies of the weights only"};
    for (int m = 0; m < MODES; m++)
        CK(cudaFuncSetAttribute(k[m], cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM));
    uint8_t *src;
    long long *out;
    float *sink;
    ulonglong2 *rec;
    const size_t src_bytes = (size_t)SRC_BIG * SLOT;
    CK(cudaMalloc(&src, src_bytes));
    CK(cudaMalloc(&out, sizeof(long long) * 3 * sms));
    CK(cudaMalloc(&sink, sizeof(float) * THREADS * sms));
    CK(cudaMalloc(&rec, sizeof(ulonglong2) * 128 * sms));
    fill<<<4 * sms, 256>>>((uint32_t *)src, src_bytes / 4);
    CK(cudaGetLastError());
    /* the tensor sources: the token matrix from the slots' token words, the weights from their
     * weight words (the fill's pattern, so the wgmmas see the same kind of values) */
    uint8_t *tok, *wts;
    const size_t tok_bytes = (size_t)T_ROWS * 7168 * 2, w_bytes = (size_t)W_ROWS * 7168 / 2;
    CK(cudaMalloc(&tok, tok_bytes));
    CK(cudaMalloc(&wts, w_bytes));
    fill_region<<<4 * sms, 256>>>((uint32_t *)tok, tok_bytes / 4, 0, O_W / 4);
    fill_region<<<4 * sms, 256>>>((uint32_t *)wts, w_bytes / 4, O_W / 4, 2 * W_MAT / 4);
    CK(cudaGetLastError());
    maps tm;
    encode(&tm.tok, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, tok, 2, 7168, T_ROWS, 64, 128, CU_TENSOR_MAP_SWIZZLE_128B);
    encode(&tm.w, CU_TENSOR_MAP_DATA_TYPE_UINT8, wts, 1, 7168 / 2, W_ROWS, NVFP4_BK / 2, 64, CU_TENSOR_MAP_SWIZZLE_NONE);
    std::vector<long long> h(2 * sms);
    std::vector<double> cyc[MODES], ns[MODES];
    for (int r = 0; r < reps; r++)
        for (int m = 0; m < MODES; m++) {
            k[m]<<<sms, THREADS, SMEM>>>(stages, src, out, sink, rec, tm);
            CK(cudaGetLastError());
            CK(cudaDeviceSynchronize());
            CK(cudaMemcpy(h.data(), out, h.size() * sizeof(long long), cudaMemcpyDeviceToHost));
            std::vector<long long> c(sms), t(sms);
            for (int b = 0; b < sms; b++) {
                c[b] = h[2 * b];
                t[b] = h[2 * b + 1];
            }
            std::sort(c.begin(), c.end());
            std::sort(t.begin(), t.end());
            cyc[m].push_back((double)c[sms / 2] / stages);
            ns[m].push_back((double)t[sms / 2] / stages);
        }
    printf("mode\trung\tcycles_per_stage\tns_per_stage\tsm_mhz\n");
    for (int m = 0; m < MODES; m++) {
        std::sort(cyc[m].begin(), cyc[m].end());
        std::sort(ns[m].begin(), ns[m].end());
        const double cy = cyc[m][reps / 2], n = ns[m][reps / 2];
        printf("%d\t%s\t%.0f\t%.1f\t%.0f\n", m, name[m], cy, n, 1e3 * cy / n);
    }
    return 0;
}
