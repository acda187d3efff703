/* The example's kernel (own_gemm.h says what it computes and how).  The Makefile compiles this
 * one file three times: production (no GS_TWIN: every stamp macro is empty), the twin
 * (-DGS_TWIN=1: MAINLOOP, EPILOGUE and STORE per tile) and the detail twin (-DGS_TWIN=2: also
 * WAIT and MMA per K block, GS_SUB_BEGIN/GS_SUB_END).  GS_SYM gives each build's kernel and
 * launcher their own names, so the three link into one program. */
#include <cuda_fp16.h>
#include <gemmscope/gs_stamp.cuh>

#include "own_gemm.h"
#include "tiles.h"

/* ---- PTX wrappers ---- */

static __device__ __forceinline__ uint32_t smem_addr(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }

static __device__ __forceinline__ void mbar_init(uint32_t bar, uint32_t count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}

/* Makes the barriers' initialisation visible to the copy engine (async proxy). */
static __device__ __forceinline__ void mbar_fence_init(void)
{
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

static __device__ __forceinline__ void mbar_arrive(uint32_t bar)
{
    asm volatile("{ .reg .b64 st; mbarrier.arrive.shared::cta.b64 st, [%0]; }" ::"r"(bar) : "memory");
}

/* One arrival that also announces the bytes still to land in this phase. */
static __device__ __forceinline__ void mbar_arrive_expect_tx(uint32_t bar, uint32_t bytes)
{
    asm volatile("{ .reg .b64 st; mbarrier.arrive.expect_tx.shared::cta.b64 st, [%0], %1; }" ::"r"(bar), "r"(bytes)
                 : "memory");
}

/* Waits until the phase of the barrier with this parity has completed; the warp leaves
 * converged (ldmatrix and mma.sync that follow are .aligned). */
static __device__ __forceinline__ void mbar_wait(uint32_t bar, uint32_t parity)
{
    uint32_t done = 0;
    while (!done)
        asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                     : "=r"(done)
                     : "r"(bar), "r"(parity)
                     : "memory");
    __syncwarp();
}

/* Copies `bytes` (a multiple of 16, both addresses 16-byte aligned) from global to shared
 * memory; their arrival completes that many transaction bytes on `bar`. */
static __device__ __forceinline__ void bulk_load(uint32_t dst, const void *src, uint32_t bytes, uint32_t bar)
{
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(dst),
                 "l"(reinterpret_cast<uint64_t>(src)), "r"(bytes), "r"(bar)
                 : "memory");
}

static __device__ __forceinline__ void ldmatrix_x4(uint32_t addr, uint32_t r[4])
{
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(addr)
                 : "memory");
}

/* d += a * b on one 16 x 8 x 16 block, fp16 in, fp32 accumulators. */
static __device__ __forceinline__ void mma_16816(float d[4], const uint32_t a[4], const uint32_t b[2])
{
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
                 "{%0, %1, %2, %3};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

/* ---- the ring of stages ---- */

static __device__ __forceinline__ uint32_t full_bar(uint32_t smem, uint32_t stage)
{
    return smem + OG_BARRIERS_OFFSET + 8 * stage;
}

static __device__ __forceinline__ uint32_t empty_bar(uint32_t smem, uint32_t stage)
{
    return smem + OG_BARRIERS_OFFSET + 8 * (OG_STAGES + stage);
}

/* Producer and consumers walk the same sequence of stages: (tile, K block) in order. */
typedef struct og_ring {
    uint32_t stage, parity; /* parity: of the stage's current round */
} og_ring;

static __device__ __forceinline__ void ring_next(og_ring *r)
{
    if (++r->stage == OG_STAGES) {
        r->stage = 0;
        r->parity ^= 1;
    }
}

/* ---- producer ---- */

/* Fills the stages for every K block of this CTA's tiles: waits until the consumers have
 * released a stage, announces its bytes, and copies its rows (lane l: rows l, l + 32, ...). */
static __device__ __forceinline__ void produce(const own_gemm_args &p, uint32_t smem, int lane)
{
    const int tiles = og_tiles(p.m, p.n), kblocks = p.k / OG_BK;
    og_ring r = {0, 0};
    for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        const int m0 = og_tile_row(tile, p.n), n0 = og_tile_col(tile, p.n);
        for (int kb = 0; kb < kblocks; kb++, ring_next(&r)) {
            /* round 0 passes at once: parity 1 names the phase before the first */
            mbar_wait(empty_bar(smem, r.stage), r.parity ^ 1);
            const uint32_t full = full_bar(smem, r.stage), a_dst = smem + r.stage * OG_STAGE_BYTES,
                           b_dst = a_dst + OG_A_BYTES;
            if (lane == 0)
                mbar_arrive_expect_tx(full, OG_STAGE_TX_BYTES);
            __syncwarp(); /* the bytes are announced before any copy can complete them */
            const size_t k0 = (size_t)kb * OG_BK;
            for (int row = lane; row < OG_BM; row += 32)
                bulk_load(a_dst + row * OG_ROW_PITCH, p.a + (size_t)(m0 + row) * p.k + k0, 2 * OG_BK, full);
            for (int row = lane; row < OG_BN; row += 32)
                bulk_load(b_dst + row * OG_ROW_PITCH, p.b + (size_t)(n0 + row) * p.k + k0, 2 * OG_BK, full);
        }
    }
}

/* ---- consumers ---- */

typedef struct og_acc {
    float v[2][8][4]; /* [16-row block][8-column block][mma accumulator register] */
} og_acc;

typedef struct og_packed {
    uint32_t h[2][8][2]; /* fp16 pairs: [16-row block][8-column block][upper 8 rows] */
} og_packed;

static __device__ __forceinline__ void acc_zero(og_acc *acc)
{
#pragma unroll
    for (int mi = 0; mi < 2; mi++)
#pragma unroll
        for (int nj = 0; nj < 8; nj++)
#pragma unroll
            for (int i = 0; i < 4; i++)
                acc->v[mi][nj][i] = 0.0f;
}

/* One stage (one K block) into the warp's 32 x 64 accumulators, 16 K columns a step. */
static __device__ __forceinline__ void mma_stage(og_acc *acc, uint32_t a_stage, uint32_t b_stage, int lane, int row,
                                                 int col)
{
#pragma unroll
    for (int kk = 0; kk < OG_BK / 16; kk++) {
        uint32_t a[2][4], b[8][2];
#pragma unroll
        for (int mi = 0; mi < 2; mi++)
            ldmatrix_x4(a_stage + og_a_frag_offset(lane, row + 16 * mi, kk), a[mi]);
#pragma unroll
        for (int nj = 0; nj < 8; nj += 2) {
            uint32_t r[4];
            ldmatrix_x4(b_stage + og_b_frag_offset(lane, col + 8 * nj, kk), r);
            b[nj][0] = r[0];
            b[nj][1] = r[1];
            b[nj + 1][0] = r[2];
            b[nj + 1][1] = r[3];
        }
#pragma unroll
        for (int mi = 0; mi < 2; mi++)
#pragma unroll
            for (int nj = 0; nj < 8; nj++)
                mma_16816(acc->v[mi][nj], a[mi], b[nj]);
    }
}

/* Gives the stage back to the producer: one arrival per warp, after every lane's mma has
 * consumed what its ldmatrix read. */
static __device__ __forceinline__ void release_stage(uint32_t bar, int lane)
{
    __syncwarp();
    if (lane == 0)
        mbar_arrive(bar);
}

static __device__ __forceinline__ uint32_t pack_half2(float lo, float hi)
{
    const __half2_raw h = __floats2half2_rn(lo, hi);
    return (uint32_t)h.x | (uint32_t)h.y << 16;
}

/* The epilogue's conversion: accumulator registers (0, 1) and (2, 3) are column pairs. */
static __device__ __forceinline__ void convert(const og_acc *acc, og_packed *out)
{
#pragma unroll
    for (int mi = 0; mi < 2; mi++)
#pragma unroll
        for (int nj = 0; nj < 8; nj++)
#pragma unroll
            for (int h = 0; h < 2; h++)
                out->h[mi][nj][h] = pack_half2(acc->v[mi][nj][2 * h], acc->v[mi][nj][2 * h + 1]);
}

/* Stores the warp's 32 x 64 outputs whose first element is C[row][col]. */
static __device__ __forceinline__ void store(const og_packed *out, uint16_t *c, int n, int row, int col, int lane)
{
#pragma unroll
    for (int mi = 0; mi < 2; mi++)
#pragma unroll
        for (int nj = 0; nj < 8; nj++)
#pragma unroll
            for (int h = 0; h < 2; h++) {
                const size_t r = (size_t)(row + 16 * mi + og_acc_row(lane, 2 * h));
                const int cc = col + 8 * nj + og_acc_col(lane, 2 * h);
                *reinterpret_cast<uint32_t *>(c + r * n + cc) = out->h[mi][nj][h];
            }
}

/* ---- the kernel ---- */

__global__ void __launch_bounds__(OG_THREADS, 1) GS_SYM(own_gemm_kernel)(const own_gemm_args p, const gs_buffer stamps)
{
    extern __shared__ __align__(128) uint8_t smem_buf[];
    const uint32_t smem = smem_addr(smem_buf);
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    const bool producer = warp == OG_CONSUMER_WARPS;
    gs_ctx gs;
    GS_INIT(gs, stamps, producer ? GS_ROLE_PRODUCER : GS_ROLE_CONSUMER);
    if (threadIdx.x == 0) {
        for (int s = 0; s < OG_STAGES; s++) {
            mbar_init(full_bar(smem, s), 1);                  /* the producer's arrive.expect_tx */
            mbar_init(empty_bar(smem, s), OG_CONSUMER_WARPS); /* one arrival per consumer warp */
        }
        mbar_fence_init();
    }
    __syncthreads();

    if (producer) {
        produce(p, smem, lane);
        GS_FINISH(gs);
        return;
    }
    const int tiles = og_tiles(p.m, p.n), kblocks = p.k / OG_BK;
    const int row = og_warp_row(warp), col = og_warp_col(warp);
    /* the four warps of a warpgroup go through the K blocks alike: one records WAIT and MMA */
    GS_SUB_ENABLE(gs, og_sub_warp(warp));
    og_ring r = {0, 0};
    for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        GS_TILE(gs, tile, 0); /* unit = tile index, group 0 (run_meta.c lists the same) */
        og_acc acc;
        acc_zero(&acc);
        GS_BEGIN(gs, GS_MAINLOOP);
        for (int kb = 0; kb < kblocks; kb++, ring_next(&r)) {
            GS_SUB_BEGIN(gs, OG_PHASE_WAIT);
            mbar_wait(full_bar(smem, r.stage), r.parity);
            GS_SUB_END(gs, OG_PHASE_WAIT);
            GS_SUB_BEGIN(gs, OG_PHASE_MMA);
            const uint32_t a_stage = smem + r.stage * OG_STAGE_BYTES;
            mma_stage(&acc, a_stage, a_stage + OG_A_BYTES, lane, row, col);
            GS_SUB_END(gs, OG_PHASE_MMA);
            release_stage(empty_bar(smem, r.stage), lane);
        }
        GS_END(gs, GS_MAINLOOP);
        og_packed out;
        GS_BEGIN(gs, GS_EPILOGUE);
        convert(&acc, &out);
        GS_END(gs, GS_EPILOGUE);
        GS_BEGIN(gs, GS_STORE);
        store(&out, p.c, p.n, og_tile_row(tile, p.n) + row, og_tile_col(tile, p.n) + col, lane);
        GS_END(gs, GS_STORE);
    }
    GS_FINISH(gs);
}

/* ---- the launcher, C-callable ---- */

extern "C" int GS_SYM(own_gemm_launch)(const own_gemm_args *p, gs_buffer stamps, cudaStream_t s)
{
    /* the shared-memory opt-in is a property of the kernel on the current device: this program
     * uses one device, so once is enough */
    static int smem_opted_in;
    if (!p || p->grid < 1 || p->m % OG_BM || p->n % OG_BN || p->k % OG_BK || p->m < OG_BM || p->n < OG_BN ||
        p->k < OG_BK)
        return (int)cudaErrorInvalidValue;
    if (!smem_opted_in) {
        const cudaError_t e =
            cudaFuncSetAttribute(GS_SYM(own_gemm_kernel), cudaFuncAttributeMaxDynamicSharedMemorySize, OG_SMEM_BYTES);
        if (e != cudaSuccess)
            return (int)e;
        smem_opted_in = 1;
    }
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3((unsigned)p->grid);
    cfg.blockDim = dim3(OG_THREADS);
    cfg.dynamicSmemBytes = OG_SMEM_BYTES;
    cfg.stream = s;
    /* cudaLaunchKernelEx returns this launch's own error, not an earlier call's */
    return (int)cudaLaunchKernelEx(&cfg, GS_SYM(own_gemm_kernel), *p, stamps);
}
