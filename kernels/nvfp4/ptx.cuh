/* Tiny inline-PTX wrappers for sm_90a: mbarrier, TMA, wgmma, shared-memory matrix
 * descriptors, exact fp16x2 multiply.  All static: both builds of gemm.cu may
 * include this without symbol clashes. */
#ifndef NVFP4_PTX_CUH
#define NVFP4_PTX_CUH

#include <stdint.h>

/* 32-bit shared-window address of a generic pointer to shared memory. */
static __device__ __forceinline__ uint32_t smem_u32(const void *p)
{
    return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

/* ---- mbarrier ---- */

static __device__ __forceinline__ void mbar_init(uint32_t bar, uint32_t count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}

/* Makes the initialisation visible to the async proxy (TMA) before first use. */
static __device__ __forceinline__ void mbar_fence_init(void)
{
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

/* One arrival that also announces `bytes` of transactions still to land on this phase. */
static __device__ __forceinline__ void mbar_arrive_expect_tx(uint32_t bar, uint32_t bytes)
{
    asm volatile("{\n"
                 ".reg .b64 st;\n"
                 "mbarrier.arrive.expect_tx.shared::cta.b64 st, [%0], %1;\n"
                 "}\n" ::"r"(bar),
                 "r"(bytes)
                 : "memory");
}

/* Spins until the phase with this parity has completed. */
static __device__ __forceinline__ void mbar_wait(uint32_t bar, uint32_t parity)
{
    uint32_t done;
    do {
        asm volatile("{\n"
                     ".reg .pred p;\n"
                     "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                     "selp.u32 %0, 1, 0, p;\n"
                     "}\n"
                     : "=r"(done)
                     : "r"(bar), "r"(parity)
                     : "memory");
    } while (!done);
}

/* ---- TMA / bulk copies (global -> shared, completion counted on an mbarrier) ---- */

/* 2-D tile load; x = innermost coordinate (bytes here), y = row.  tmap: generic address of a
 * __grid_constant__ CUtensorMap. */
static __device__ __forceinline__ void tma_load_2d(uint32_t dst, const void *tmap, uint32_t bar, int x, int y)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%3, %4}], [%2];" ::"r"(dst),
                 "l"(reinterpret_cast<uint64_t>(tmap)), "r"(bar), "r"(x), "r"(y)
                 : "memory");
}

/* Contiguous bulk load: bytes multiple of 16, both addresses 16-byte aligned. */
static __device__ __forceinline__ void bulk_load(uint32_t dst, const void *src, uint32_t bytes, uint32_t bar)
{
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                     dst),
                 "l"(reinterpret_cast<uint64_t>(src)), "r"(bytes), "r"(bar)
                 : "memory");
}

/* Generic-proxy shared-memory writes -> visible to the async proxy (wgmma, TMA store). */
static __device__ __forceinline__ void fence_proxy_async_smem(void)
{
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

/* ---- exact fp16x2 multiply (round-to-nearest, subnormals kept: no .ftz) ---- */

static __device__ __forceinline__ uint32_t hmul2_rn(uint32_t a, uint32_t b)
{
    uint32_t d;
    asm("mul.rn.f16x2 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
    return d;
}

/* Two e4m3 codes (low byte -> low half) to two fp16 values; exact, NaN codes -> NaN. */
static __device__ __forceinline__ uint32_t e4m3x2_to_f16x2(uint16_t two)
{
    uint32_t d;
    asm("cvt.rn.f16x2.e4m3x2 %0, %1;" : "=r"(d) : "h"(two));
    return d;
}

/* ---- wgmma ---- */

/* Shared-memory matrix descriptor, K-major operand with the 128-byte swizzle: rows of 64 fp16
 * (128 B) are stored contiguously, 8-row core-matrix groups 1024 B apart (stride byte
 * offset), the 16-byte chunk index XOR-ed with (row & 7).  Bits: [0,14) address>>4,
 * [16,30) leading byte offset>>4 (unused for swizzled K-major, set to 1), [32,46) stride
 * byte offset>>4, [49,52) base offset (0: atoms are 1024-byte aligned), [62,64) layout
 * (1 = 128B swizzle).  Stepping K by 16 inside a swizzle atom adds 32 B to the address. */
static __device__ __forceinline__ uint64_t smem_desc_sw128(uint32_t saddr)
{
    uint64_t d = 0;
    d |= (uint64_t)((saddr & 0x3FFFFu) >> 4);
    d |= (uint64_t)1u << 16;
    d |= (uint64_t)(1024u >> 4) << 32;
    d |= (uint64_t)1u << 62;
    return d;
}

/* Orders register/smem accesses of this thread before the wgmmas that follow. */
static __device__ __forceinline__ void wgmma_fence(void)
{
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
}

static __device__ __forceinline__ void wgmma_commit(void)
{
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
}

/* Waits until at most N committed wgmma groups of this warpgroup are pending. */
template <int N> static __device__ __forceinline__ void wgmma_wait(void)
{
    asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(N) : "memory");
}

/* The accumulators are written asynchronously: after wgmma_wait, tie every accumulator
 * register to a volatile asm so the compiler cannot move reads of them above the wait. */
template <int R> static __device__ __forceinline__ void fence_regs(float (&d)[R])
{
#pragma unroll
    for (int i = 0; i < R; i++)
        asm volatile("" : "+f"(d[i])::"memory");
}

/* D[64 x 64] (fp32, 32 regs/thread) += A[64 x 16] * B[16 x 64], fp16 inputs, both
 * operands in shared memory (descriptors), both K-major (no transpose). */
static __device__ __forceinline__ void wgmma_m64n64k16_f32_f16_ss(float (&d)[32], uint64_t desc_a,
                                                                   uint64_t desc_b)
{
    asm volatile(
        "{\n"
        ".reg .pred p;\n"
        "setp.ne.b32 p, %34, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16\n"
        "{"
        "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"
        "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31"
        "},\n"
        " %32, %33, p, 1, 1, 0, 0;\n"
        "}\n"
        :
          "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
          "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
          "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
          "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
        : "l"(desc_a), "l"(desc_b), "r"(1)
        : "memory");
}

/* D[64 x 128] (fp32, 64 regs/thread) += A[64 x 16] * B[16 x 128], fp16 inputs, both
 * operands in shared memory (descriptors), both K-major (no transpose). */
static __device__ __forceinline__ void wgmma_m64n128k16_f32_f16_ss(float (&d)[64], uint64_t desc_a,
                                                                   uint64_t desc_b)
{
    asm volatile(
        "{\n"
        ".reg .pred p;\n"
        "setp.ne.b32 p, %66, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16\n"
        "{"
        "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"
        "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31,"
        "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47,"
        "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
        "},\n"
        " %64, %65, p, 1, 1, 0, 0;\n"
        "}\n"
        :
          "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
          "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
          "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
          "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
          "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
          "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
          "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
          "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
        : "l"(desc_a), "l"(desc_b), "r"(1)
        : "memory");
}

/* wgmma_ss<N>: the m64nNk16 instruction for the tile width in use. */
template <int N> struct wgmma_ss;
template <> struct wgmma_ss<64> {
    static __device__ __forceinline__ void run(float (&d)[32], uint64_t a, uint64_t b)
    {
        wgmma_m64n64k16_f32_f16_ss(d, a, b);
    }
};
template <> struct wgmma_ss<128> {
    static __device__ __forceinline__ void run(float (&d)[64], uint64_t a, uint64_t b)
    {
        wgmma_m64n128k16_f32_f16_ss(d, a, b);
    }
};

#endif
