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

/* One try_wait on the phase with this parity of the mbarrier at bar, with semantics SEM
 * (a string literal: "" the default, acquire at CTA scope); done = 1 once it has completed. */
#define NVFP4_MBAR_TRY_WAIT(done, bar, parity, SEM)                                                       \
    asm volatile("{\n"                                                                                   \
                 ".reg .pred p;\n"                                                                       \
                 "mbarrier.try_wait.parity" SEM ".shared::cta.b64 p, [%1], %2;\n"                        \
                 "selp.u32 %0, 1, 0, p;\n"                                                               \
                 "}\n"                                                                                   \
                 : "=r"(done)                                                                            \
                 : "r"(bar), "r"(parity)                                                                 \
                 : "memory")

/* Spins until the phase with this parity has completed. */
static __device__ __forceinline__ void mbar_wait(uint32_t bar, uint32_t parity)
{
    uint32_t done;
    do {
        NVFP4_MBAR_TRY_WAIT(done, bar, parity, "");
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


/* ---- register-sourced wgmma: D[64 x N] (fp32) += A[64 x 16] (fp16, registers) * B[16 x N] ----
 * A fragment of thread (warp w of the warpgroup, lane l): a[0] = row 16w + l/4, k 2(l%4)..+1;
 * a[1] = row +8, same k; a[2] = row 16w + l/4, k 2(l%4)+8..+9; a[3] = row +8, k +8..+9.
 * B from shared memory through a descriptor, K-major.  D: N/2 fp32 per thread.
 * The operand lists below are spelled out because inline PTX needs literal operand numbers. */

#define WG_R16_0 "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15"
#define WG_R16_1 "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31"
#define WG_R16_2 "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47"
#define WG_R16_3 "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
#define WG_R16_4 "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79"
#define WG_R16_5 "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95"
#define WG_R16_6 "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111"
#define WG_R16_7 "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"

#define WG_F4(b) "+f"(d[(b)]), "+f"(d[(b) + 1]), "+f"(d[(b) + 2]), "+f"(d[(b) + 3])
#define WG_F16(b) WG_F4(b), WG_F4((b) + 4), WG_F4((b) + 8), WG_F4((b) + 12)

template <int N> struct wgmma_rs;

template <> struct wgmma_rs<32> {
    static __device__ __forceinline__ void run(float (&d)[16], const uint32_t (&a)[4], uint64_t desc_b)
    {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %21, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16 {" WG_R16_0 "}, "
                     "{%16, %17, %18, %19}, %20, p, 1, 1, 0;\n}\n"
                     : WG_F16(0)
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"(1)
                     : "memory");
    }
};

template <> struct wgmma_rs<64> {
    static __device__ __forceinline__ void run(float (&d)[32], const uint32_t (&a)[4], uint64_t desc_b)
    {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %37, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {" WG_R16_0 ", " WG_R16_1 "}, "
                     "{%32, %33, %34, %35}, %36, p, 1, 1, 0;\n}\n"
                     : WG_F16(0), WG_F16(16)
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"(1)
                     : "memory");
    }
};

template <> struct wgmma_rs<96> {
    static __device__ __forceinline__ void run(float (&d)[48], const uint32_t (&a)[4], uint64_t desc_b)
    {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %53, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n96k16.f32.f16.f16 {" WG_R16_0 ", " WG_R16_1 ", " WG_R16_2 "}, "
                     "{%48, %49, %50, %51}, %52, p, 1, 1, 0;\n}\n"
                     : WG_F16(0), WG_F16(16), WG_F16(32)
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"(1)
                     : "memory");
    }
};

template <> struct wgmma_rs<128> {
    static __device__ __forceinline__ void run(float (&d)[64], const uint32_t (&a)[4], uint64_t desc_b)
    {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %69, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {" WG_R16_0 ", " WG_R16_1 ", " WG_R16_2 ", " WG_R16_3 "}, "
                     "{%64, %65, %66, %67}, %68, p, 1, 1, 0;\n}\n"
                     : WG_F16(0), WG_F16(16), WG_F16(32), WG_F16(48)
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"(1)
                     : "memory");
    }
};

template <> struct wgmma_rs<160> {
    static __device__ __forceinline__ void run(float (&d)[80], const uint32_t (&a)[4], uint64_t desc_b)
    {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %85, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n160k16.f32.f16.f16 {" WG_R16_0 ", " WG_R16_1 ", " WG_R16_2 ", " WG_R16_3 ", " WG_R16_4 "}, "
                     "{%80, %81, %82, %83}, %84, p, 1, 1, 0;\n}\n"
                     : WG_F16(0), WG_F16(16), WG_F16(32), WG_F16(48), WG_F16(64)
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"(1)
                     : "memory");
    }
};

template <> struct wgmma_rs<192> {
    static __device__ __forceinline__ void run(float (&d)[96], const uint32_t (&a)[4], uint64_t desc_b)
    {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %101, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n192k16.f32.f16.f16 {" WG_R16_0 ", " WG_R16_1 ", " WG_R16_2 ", " WG_R16_3 ", " WG_R16_4 ", " WG_R16_5 "}, "
                     "{%96, %97, %98, %99}, %100, p, 1, 1, 0;\n}\n"
                     : WG_F16(0), WG_F16(16), WG_F16(32), WG_F16(48), WG_F16(64), WG_F16(80)
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"(1)
                     : "memory");
    }
};

template <> struct wgmma_rs<224> {
    static __device__ __forceinline__ void run(float (&d)[112], const uint32_t (&a)[4], uint64_t desc_b)
    {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %117, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n224k16.f32.f16.f16 {" WG_R16_0 ", " WG_R16_1 ", " WG_R16_2 ", " WG_R16_3 ", " WG_R16_4 ", " WG_R16_5 ", " WG_R16_6 "}, "
                     "{%112, %113, %114, %115}, %116, p, 1, 1, 0;\n}\n"
                     : WG_F16(0), WG_F16(16), WG_F16(32), WG_F16(48), WG_F16(64), WG_F16(80), WG_F16(96)
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"(1)
                     : "memory");
    }
};

template <> struct wgmma_rs<256> {
    static __device__ __forceinline__ void run(float (&d)[128], const uint32_t (&a)[4], uint64_t desc_b)
    {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %133, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {" WG_R16_0 ", " WG_R16_1 ", " WG_R16_2 ", " WG_R16_3 ", " WG_R16_4 ", " WG_R16_5 ", " WG_R16_6 ", " WG_R16_7 "}, "
                     "{%128, %129, %130, %131}, %132, p, 1, 1, 0;\n}\n"
                     : WG_F16(0), WG_F16(16), WG_F16(32), WG_F16(48), WG_F16(64), WG_F16(80), WG_F16(96), WG_F16(112)
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"(1)
                     : "memory");
    }
};

#undef WG_F16
#undef WG_F4

/* ---- epilogue helpers ---- */

/* Four 8x8 fp16 matrices (fragment layout: lane l holds row l/4, columns 2(l%4)..+1) stored
 * transposed: lane l gives the shared address of row l%8 of matrix l/8. */
static __device__ __forceinline__ void stmatrix_x4_trans(uint32_t addr, uint32_t r0, uint32_t r1, uint32_t r2,
                                                         uint32_t r3)
{
    asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(addr), "r"(r0),
                 "r"(r1), "r"(r2), "r"(r3)
                 : "memory");
}

/* 2-D tile store shared -> global through a tensor map (rows past the tensor are dropped). */
static __device__ __forceinline__ void tma_store_2d(const void *tmap, uint32_t src, int x, int y)
{
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%2, %3}], [%1];" ::"l"(
                     reinterpret_cast<uint64_t>(tmap)),
                 "r"(src), "r"(x), "r"(y)
                 : "memory");
}

static __device__ __forceinline__ void bulk_commit(void)
{
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
}

/* Waits until the committed bulk stores of this thread have read their shared-memory source. */
static __device__ __forceinline__ void bulk_wait_read0(void)
{
    asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
}

/* Barrier over `threads` threads (a multiple of 32) on hardware barrier `id` (1..15). */
static __device__ __forceinline__ void named_barrier(int id, int threads)
{
    asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

/* Programmatic dependent launch: the dependent grid may start early; griddep_wait blocks
 * until every prerequisite grid has finished and its writes are visible. */
static __device__ __forceinline__ void griddep_wait(void)
{
    asm volatile("griddepcontrol.wait;" ::: "memory");
}

static __device__ __forceinline__ void griddep_launch_dependents(void)
{
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
}

/* Warpgroup-wide register reallocation (every thread of the warpgroup executes it). */
template <int R> static __device__ __forceinline__ void setmaxnreg_dec(void)
{
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(R));
}

template <int R> static __device__ __forceinline__ void setmaxnreg_inc(void)
{
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(R));
}

/* One plain arrival on an mbarrier (the empty-slot barriers of the pipeline). */
static __device__ __forceinline__ void mbar_arrive(uint32_t bar)
{
    asm volatile("{\n.reg .b64 st;\nmbarrier.arrive.shared::cta.b64 st, [%0];\n}\n" ::"r"(bar) : "memory");
}

/* `count` arrivals at once on an mbarrier (one thread releasing a slot for its warpgroup). */
static __device__ __forceinline__ void mbar_arrive_n(uint32_t bar, uint32_t count)
{
    asm volatile("{\n.reg .b64 st;\nmbarrier.arrive.shared::cta.b64 st, [%0], %1;\n}\n" ::"r"(bar), "r"(count)
                 : "memory");
}

/* Shared-memory loads the compiler cannot reorder across the pipeline's barrier waits. */
static __device__ __forceinline__ uint4 lds128(uint32_t addr)
{
    uint4 v;
    asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "r"(addr));
    return v;
}

/* fp32 x4 into shared memory, ordered like lds128 (the dual GEMM's accumulator exchange). */
static __device__ __forceinline__ void sts128f(uint32_t addr, float a, float b, float c, float d)
{
    asm volatile("st.shared.v4.f32 [%0], {%1, %2, %3, %4};" ::"r"(addr), "f"(a), "f"(b), "f"(c), "f"(d) : "memory");
}

static __device__ __forceinline__ void sts32(uint32_t addr, uint32_t v)
{
    asm volatile("st.shared.u32 [%0], %1;" ::"r"(addr), "r"(v) : "memory");
}

static __device__ __forceinline__ uint16_t lds16(uint32_t addr)
{
    uint16_t v;
    asm volatile("ld.shared.u16 %0, [%1];" : "=h"(v) : "r"(addr));
    return v;
}

/* Split-K hand-off between CTAs (global memory, GPU scope).  The writer's threads store
 * their partial sums, meet at a barrier, then one thread publishes with a release add; the
 * reader's one thread spins on an acquire load, then its threads meet at a barrier and read. */
static __device__ __forceinline__ void red_release_gpu_add(int *p, int v)
{
    asm volatile("red.release.gpu.global.add.s32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

/* A count in shared memory handed from one thread of the CTA to another (the split parts'
 * publisher): the writer's release add, the reader's acquire load (CTA scope). */
static __device__ __forceinline__ void red_release_cta_shared_add(uint32_t addr, uint32_t v)
{
    asm volatile("red.release.cta.shared::cta.add.u32 [%0], %1;" ::"r"(addr), "r"(v) : "memory");
}

static __device__ __forceinline__ uint32_t ld_acquire_cta_shared(uint32_t addr)
{
    uint32_t v;
    asm volatile("ld.acquire.cta.shared::cta.u32 %0, [%1];" : "=r"(v) : "r"(addr) : "memory");
    return v;
}

static __device__ __forceinline__ int ld_acquire_gpu(const int *p)
{
    int v;
    asm volatile("ld.acquire.gpu.global.s32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

static __device__ __forceinline__ void st_relaxed_gpu(int *p, int v)
{
    asm volatile("st.relaxed.gpu.global.s32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

/* fp32 x4 through L2 only (another SM wrote or will read it; nothing to keep in L1). */
static __device__ __forceinline__ void st_cg_f4(float *p, float a, float b, float c, float d)
{
    asm volatile("st.global.cg.v4.f32 [%0], {%1, %2, %3, %4};" ::"l"(p), "f"(a), "f"(b), "f"(c), "f"(d)
                 : "memory");
}

static __device__ __forceinline__ float4 ld_cg_f4(const float *p)
{
    float4 v;
    asm volatile("ld.global.cg.v4.f32 {%0, %1, %2, %3}, [%4];"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                 : "l"(p)
                 : "memory");
    return v;
}

/* 16 bytes global -> shared through L2 only, asynchronously (no register holds them), and the
 * wait for this thread's copies: its own later reads of them see the data. */
static __device__ __forceinline__ void cp_async_cg16(uint32_t smem_dst, const float *src)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(smem_dst), "l"(src) : "memory");
}

static __device__ __forceinline__ void cp_async_wait_all(void)
{
    asm volatile("cp.async.wait_all;" ::: "memory");
}

/* ---- Clusters (the cluster pair's split K, gemm.cu): the same shared-memory address in
 * another CTA of the cluster, stores and mbarrier arrivals there,
 * the wait that acquires them, and the barrier of every thread of the cluster. ---- */
static __device__ __forceinline__ uint32_t cluster_map(uint32_t addr, uint32_t rank)
{
    uint32_t d;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(d) : "r"(addr), "r"(rank));
    return d;
}

static __device__ __forceinline__ void st_cluster_f4(uint32_t addr, float a, float b, float c, float d)
{
    asm volatile("st.shared::cluster.v4.f32 [%0], {%1, %2, %3, %4};" ::"r"(addr), "f"(a), "f"(b), "f"(c), "f"(d)
                 : "memory");
}

/* One arrival on a cluster CTA's mbarrier (address from cluster_map), releasing this thread's
 * earlier writes at cluster scope. */
static __device__ __forceinline__ void mbar_arrive_cluster(uint32_t remote_bar)
{
    asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" ::"r"(remote_bar) : "memory");
}

/* mbar_wait acquiring at cluster scope: what the arriving threads of other CTAs wrote before
 * their arrivals is visible after it. */
static __device__ __forceinline__ void mbar_wait_cluster(uint32_t bar, uint32_t parity)
{
    uint32_t done;
    do {
        NVFP4_MBAR_TRY_WAIT(done, bar, parity, ".acquire.cluster");
    } while (!done);
}

/* The same barrier in two halves, for threads that leave at different points: an arrival that
 * does not wait (a thread may exit after it), and the wait of a thread that arrived. */
static __device__ __forceinline__ void cluster_arrive(void)
{
    asm volatile("barrier.cluster.arrive.release;" ::: "memory");
}

static __device__ __forceinline__ void cluster_wait(void)
{
    asm volatile("barrier.cluster.wait.acquire;" ::: "memory");
}

static __device__ __forceinline__ void cluster_sync(void)
{
    asm volatile("barrier.cluster.arrive.release.aligned;\n"
                 "barrier.cluster.wait.acquire.aligned;" ::
                     : "memory");
}

/* k16 step s (0..7) of a stage of K = 128 against its token slabs (two 64-wide slabs of fp16,
 * 128B swizzle, the first at tok, `slab` bytes apart): slab s/4, +32 bytes per step inside the
 * swizzle row.  The GEMM's main loop and the wgmma-rate benchmark issue the same steps. */
template <int N>
static __device__ __forceinline__ void wgmma_rs_step(float (&acc)[N / 2], const uint32_t (&a)[4], uint32_t tok,
                                                     uint32_t slab, int s)
{
    wgmma_rs<N>::run(acc, a, smem_desc_sw128(tok + (uint32_t)(s >> 2) * slab + (uint32_t)(s & 3) * 32u));
}

#endif
