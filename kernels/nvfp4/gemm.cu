/* The NVFP4 grouped GEMM for Hopper (sm_90a): one knob space, compiled twice
 * (production, and with -DGS_TWIN=1 the instrumented twin; GS_SYM gives every
 * exported symbol a _prod / _twin suffix, everything else here is internal).
 *
 * Mapping (swap-AB): weights B_g (N rows) are the wgmma M side, tokens A_g (M_g rows)
 * the wgmma N side, so the accumulator is D[w][t] = C[t][w].
 *
 * Baseline point (stages=1, not persistent, no warp roles, SIMT stores): one CTA of one
 * warpgroup per TILE_W x TILE_T output tile; per K block of 256, strictly serial:
 *   thread 0 issues TMA (raw FP4 of both operands) + bulk copies (scale atoms) on one mbarrier
 *   -> all wait -> every thread dequantises whole rows into 128B-swizzled fp16 tiles
 *   -> fence.proxy.async + barrier -> 16 x (TILE_W/64) SS wgmmas -> commit -> wait.
 * Epilogue: fp32 -> fp16, scalar predicated stores (token rows >= M_g never written).
 *
 * Exactness: e2m1 x e4m3 is exact in fp16 (<= 6 significant bits, 2^-10 <= |v s| <= 2688),
 * so each operand is dequantised to fp16 exactly and the fp16 wgmma with fp32 accumulation
 * differs from the reference only by fp32 summation order.  Token rows past M_g read zeros
 * (TMA out-of-bounds fill) times junk scales (maybe NaN): that only reaches accumulator
 * columns t >= M_g, which are never stored.  Weight tiles never pass N (N % TILE_W == 0). */
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <stdint.h>

#include "../../instrument/gs_stamp.cuh"
#include "nvfp4_internal.h"
#include "ptx.cuh"

namespace {

constexpr int BK = NVFP4_BK; /* K elements per block: 4 scale atoms of 64 */
constexpr int THREADS = 128; /* one warpgroup */

/* Shared memory of one stage.  fp16 tiles: BK/64 slabs, each ROWS x 128 B (64 fp16 per row),
 * 128B-swizzled; raw tiles: ROWS x BK/2 bytes, plain row-major as TMA writes them (no swizzle);
 * scale tiles: the 4 atoms (2 KB) of the 128-row band for this K block, as stored. */
template <int TILE_W, int TILE_T> struct smem_layout {
    static constexpr int W_H = TILE_W * BK * 2;
    static constexpr int T_H = TILE_T * BK * 2;
    static constexpr int W_Q = TILE_W * BK / 2;
    static constexpr int T_Q = TILE_T * BK / 2;
    static constexpr int SF = 128 * BK / 16;
    static constexpr int o_wh = 0;
    static constexpr int o_th = o_wh + W_H;
    static constexpr int o_wq = o_th + T_H;
    static constexpr int o_tq = o_wq + W_Q;
    static constexpr int o_wsf = o_tq + T_Q;
    static constexpr int o_tsf = o_wsf + SF;
    static constexpr int o_bar = o_tsf + SF;
    static constexpr int bytes = o_bar + 8;
    static constexpr int dyn_bytes = bytes + 1024; /* slack to align the base to 1024 (swizzle atoms) */
    static constexpr uint32_t tx_bytes = W_Q + T_Q + 2 * SF; /* what one K block's copies deliver */
    static_assert(W_H % 1024 == 0 && T_H % 1024 == 0 && W_Q % 1024 == 0 && T_Q % 1024 == 0,
                  "swizzled fp16 slabs and TMA destinations must stay 1024-byte aligned");
};

/* Two FP4 codes (byte i of w: low nibble = even element) -> fp16x2 of value * scale, exact.
 * Placing sign at bit 15 and e1 e0 m at bits 11..9 gives an fp16 equal to v * 2^-14 (0.5
 * becomes a subnormal); the multiply by 2^14 restores v exactly, the multiply by the scale is
 * exact too.  mul.rn.f16x2 without .ftz keeps the subnormal input; wgmma only sees normals. */
__device__ __forceinline__ uint32_t dequant_pair(uint32_t w, int i, uint32_t scale2)
{
    const uint32_t b = w >> (8 * i);
    const uint32_t y = ((b << 12) & 0x0000F000u) | ((b << 24) & 0xF0000000u);
    const uint32_t bits = (y & 0x80008000u) | ((y & 0x70007000u) >> 3);
    return hmul2_rn(hmul2_rn(bits, 0x74007400u /* 2^14, 2^14 */), scale2);
}

/* Dequantise row r (BK FP4 values) of a raw tile into the swizzled fp16 tile of ROWS rows.
 * band_row: the row's index inside its 128-row scale band. */
template <int ROWS>
__device__ __forceinline__ void dequant_row(const uint8_t *raw, const uint8_t *sf, int band_row, uint8_t *dst,
                                            int r)
{
    const uint8_t *rp = raw + r * (BK / 2);
    /* blocked layout: row i's 4 scales of an atom are bytes (i%32)*16 + ((i%128)/32)*4 + 0..3 */
    const uint8_t *sp = sf + (band_row % 32) * 16 + (band_row / 32) * 4;
    uint8_t *dp = dst + r * 128;
    const int sw = r & 7; /* 128B swizzle: 16-byte chunk index ^= row % 8 */
#pragma unroll
    for (int c = 0; c < BK / 32; c++) {
        /* chunk cc = 16 raw bytes = 32 FP4 = 2 scale blocks.  Rows start the chunk loop at
         * different chunks so 8 neighbouring threads hit 8 different bank groups. */
        const int cc = (c + r) & (BK / 32 - 1);
        const uint4 q = *reinterpret_cast<const uint4 *>(rp + cc * 16);
        const uint16_t s2 = *reinterpret_cast<const uint16_t *>(sp + (cc >> 1) * 512 + (cc & 1) * 2);
        const uint32_t sc = e4m3x2_to_f16x2(s2);
        const uint32_t s_lo = (sc & 0xFFFFu) * 0x10001u, s_hi = (sc >> 16) * 0x10001u;
        const uint32_t words[4] = {q.x, q.y, q.z, q.w};
#pragma unroll
        for (int wi = 0; wi < 4; wi++) {
            const uint32_t s = wi < 2 ? s_lo : s_hi;
            uint4 o;
            o.x = dequant_pair(words[wi], 0, s);
            o.y = dequant_pair(words[wi], 1, s);
            o.z = dequant_pair(words[wi], 2, s);
            o.w = dequant_pair(words[wi], 3, s);
            /* fp16 elements 32cc + 8wi .. +7: slab cc/2, 16-byte chunk 4*(cc&1) + wi of the row */
            const int chunk = 4 * (cc & 1) + wi;
            *reinterpret_cast<uint4 *>(dp + (cc >> 1) * (ROWS * 128) + ((chunk ^ sw) << 4)) = o;
        }
    }
}

__device__ __forceinline__ uint32_t pack_half2(float lo, float hi)
{
    __half2 h = __floats2half2_rn(lo, hi); /* round to nearest even, like torch's .half() */
    return *reinterpret_cast<uint32_t *>(&h);
}

} // namespace

template <int STAGES, int TILE_W, int TILE_T, int WARP_SPEC, int PERSISTENT, int TMA_STORE>
__global__ void __launch_bounds__(THREADS, 1)
    GS_SYM(nvfp4_gemm_kernel)(const __grid_constant__ nvfp4_kparams kp, const gs_buffer stamps)
{
    static_assert(STAGES == 1, "nvfp4 gemm: only stages=1 (serial load -> dequant -> mma) is implemented");
    static_assert(WARP_SPEC == 0, "nvfp4 gemm: warp specialisation (warp_spec=1) is not implemented yet");
    static_assert(PERSISTENT == 0, "nvfp4 gemm: persistent CTAs (persistent=1) are not implemented yet");
    static_assert(TMA_STORE == 0, "nvfp4 gemm: the TMA-store epilogue (tma_store=1) is not implemented yet");
    static_assert(TILE_W == 64 || TILE_W == 128,
                  "nvfp4 gemm: tile_w must be 64 or 128 (one warpgroup issues tile_w/64 m64 wgmmas)");
    static_assert(TILE_T == 64 || TILE_T == 128,
                  "nvfp4 gemm: tile_t must be 64 or 128 (wgmma n64/n128 wrappers; 2x n128 fp32 fills "
                  "the register file)");
    using L = smem_layout<TILE_W, TILE_T>;
    constexpr int MW = TILE_W / 64; /* m64 wgmmas per k16 step */
    constexpr int ACC = TILE_T / 2; /* fp32 accumulators per thread per m64 block */
    constexpr int ROWS = TILE_W + TILE_T;
    constexpr int ROW_ITERS = (ROWS + THREADS - 1) / THREADS;

    gs_ctx gs;
    GS_INIT(gs, stamps, GS_ROLE_ALL);

    extern __shared__ uint8_t smem_dyn[];
    uint8_t *sm = smem_dyn + ((1024u - (smem_u32(smem_dyn) & 1023u)) & 1023u);
    const uint32_t bar = smem_u32(sm + L::o_bar);
    const uint32_t wh_addr = smem_u32(sm + L::o_wh), th_addr = smem_u32(sm + L::o_th);

    /* which tile: groups are laid out one after another, token tiles fastest */
    const int bid = blockIdx.x;
    int g = 0;
    while (g + 1 < kp.groups && bid >= kp.tile_start[g + 1])
        g++;
    const int M = kp.m[g], N = kp.n[g], K = kp.k[g];
    const int nt_t = (M + TILE_T - 1) / TILE_T;
    const int local = bid - kp.tile_start[g];
    const int w0 = (local / nt_t) * TILE_W;
    const int t0 = (local % nt_t) * TILE_T;
    GS_TILE(gs, bid, g);

    const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
    if (tid == 0) {
        mbar_init(bar, 1);
        mbar_fence_init();
    }
    __syncthreads();

    const size_t band_bytes = (size_t)(K / 64) * 512u; /* one 128-row band of a scale tensor */
    const uint8_t *sfw = kp.sfW[g] + (size_t)(w0 / 128) * band_bytes;
    const uint8_t *sft = kp.sfT[g] + (size_t)(t0 / 128) * band_bytes;
    const CUtensorMap *tmw = &kp.tmW[g];
    const CUtensorMap *tmt = &kp.tmT[g];

    float acc[MW][ACC];
#pragma unroll
    for (int mw = 0; mw < MW; mw++)
#pragma unroll
        for (int i = 0; i < ACC; i++)
            acc[mw][i] = 0.0f;

    const int nkb = K / BK;
    GS_BEGIN(gs, GS_MAINLOOP);
    for (int kb = 0; kb < nkb; kb++) {
        if (tid == 0) {
            mbar_arrive_expect_tx(bar, L::tx_bytes);
            tma_load_2d(smem_u32(sm + L::o_wq), tmw, bar, kb * (BK / 2), w0);
            tma_load_2d(smem_u32(sm + L::o_tq), tmt, bar, kb * (BK / 2), t0);
            bulk_load(smem_u32(sm + L::o_wsf), sfw + (size_t)kb * L::SF, L::SF, bar);
            bulk_load(smem_u32(sm + L::o_tsf), sft + (size_t)kb * L::SF, L::SF, bar);
        }
        GS_BEGIN(gs, GS_LOAD_WAIT);
        mbar_wait(bar, (uint32_t)(kb & 1));
        GS_END(gs, GS_LOAD_WAIT);

        GS_BEGIN(gs, GS_DEQUANT);
#pragma unroll
        for (int it = 0; it < ROW_ITERS; it++) {
            const int r = tid + it * THREADS; /* warp-uniform choice of operand */
            if (r < TILE_W)
                dequant_row<TILE_W>(sm + L::o_wq, sm + L::o_wsf, (w0 % 128) + r, sm + L::o_wh, r);
            else if (r < ROWS)
                dequant_row<TILE_T>(sm + L::o_tq, sm + L::o_tsf, (t0 % 128) + (r - TILE_W), sm + L::o_th,
                                    r - TILE_W);
        }
        fence_proxy_async_smem(); /* my generic-proxy writes -> visible to wgmma (async proxy) */
        __syncthreads();
        GS_END(gs, GS_DEQUANT);

        GS_BEGIN(gs, GS_MMA);
        wgmma_fence();
#pragma unroll
        for (int kq = 0; kq < BK / 16; kq++) {
            /* k16 step kq: slab kq/4, +32 bytes per step inside the 128-byte swizzle row */
            const uint32_t koff = (uint32_t)(kq % 4) * 32u;
            const uint64_t db = smem_desc_sw128(th_addr + (uint32_t)(kq / 4) * (TILE_T * 128) + koff);
#pragma unroll
            for (int mw = 0; mw < MW; mw++) {
                const uint64_t da =
                    smem_desc_sw128(wh_addr + (uint32_t)(kq / 4) * (TILE_W * 128) + (uint32_t)mw * (64 * 128) + koff);
                wgmma_ss<TILE_T>::run(acc[mw], da, db);
            }
        }
        wgmma_commit();
        wgmma_wait<0>();
#pragma unroll
        for (int mw = 0; mw < MW; mw++)
            fence_regs(acc[mw]);
        __syncthreads(); /* fp16 and raw tiles free for the next K block */
        GS_END(gs, GS_MMA);
    }
    GS_END(gs, GS_MAINLOOP);

    /* In this serial point every K block already waited: this phase is the (near-empty)
     * hand-off; it becomes real once the loop leaves its last wgmma group in flight. */
    GS_BEGIN(gs, GS_ACC_TO_REG);
    wgmma_wait<0>();
#pragma unroll
    for (int mw = 0; mw < MW; mw++)
        fence_regs(acc[mw]);
    GS_END(gs, GS_ACC_TO_REG);

    /* accumulator i of m64 block mw: weight row w0 + 64mw + 16warp + lane/4 + 8*((i>>1)&1),
     * token t0 + 8*(i>>2) + 2*(lane&3) + (i&1).  packed[mw][2j+h] = tokens (+0, +1) of row +8h. */
    GS_BEGIN(gs, GS_EPILOGUE);
    uint32_t packed[MW][ACC / 2];
#pragma unroll
    for (int mw = 0; mw < MW; mw++)
#pragma unroll
        for (int i = 0; i < ACC / 2; i++)
            packed[mw][i] = pack_half2(acc[mw][2 * i], acc[mw][2 * i + 1]);
    const int wl = w0 + 16 * warp + (lane >> 2);
    const int tl = t0 + 2 * (lane & 3);
    const int tvalid = M - tl; /* token offsets 8j+e below this are rows < M_g */
    uint16_t *const cg = kp.C[g];
    GS_END(gs, GS_EPILOGUE);

    GS_BEGIN(gs, GS_STORE);
#pragma unroll
    for (int j = 0; j < TILE_T / 8; j++)
#pragma unroll
        for (int e = 0; e < 2; e++)
            if (8 * j + e < tvalid) {
                const size_t row = (size_t)(tl + 8 * j + e) * (size_t)N + (size_t)wl;
#pragma unroll
                for (int mw = 0; mw < MW; mw++)
#pragma unroll
                    for (int h = 0; h < 2; h++)
                        cg[row + (size_t)(64 * mw + 8 * h)] = (uint16_t)(packed[mw][2 * j + h] >> (16 * e));
            }
    GS_END(gs, GS_STORE);
    GS_FINISH(gs);
}

namespace {

/* Launch one instantiated knob point. */
template <int S, int TW, int TT, int WS, int P, int TS>
int launch_point(const nvfp4_kparams *kp, gs_buffer stamps, cudaStream_t s)
{
    using L = smem_layout<TW, TT>;
    void (*kern)(const nvfp4_kparams, const gs_buffer) = GS_SYM(nvfp4_gemm_kernel)<S, TW, TT, WS, P, TS>;
    static unsigned attr_done = 0; /* bit per device: the opt-in smem size is a per-device setting */
    int dev = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e != cudaSuccess)
        return (int)e;
    if (dev >= 32 || !(attr_done & (1u << dev))) {
        e = cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, L::dyn_bytes);
        if (e != cudaSuccess)
            return (int)e;
        if (dev < 32)
            attr_done |= 1u << dev;
    }
    const int grid = kp->tile_start[kp->groups];
    if (grid <= 0)
        return (int)cudaErrorInvalidValue;
    kern<<<grid, THREADS, L::dyn_bytes, s>>>(*kp, stamps);
    return (int)cudaGetLastError();
}

} // namespace

/* The knob points instantiated in this build; variants.c lists the same ones. */
extern "C" int GS_SYM(nvfp4_gemm_launch)(const nvfp4_variant *v, const nvfp4_kparams *kp, gs_buffer stamps,
                                          cudaStream_t s)
{
    if (!v || !kp || v->tile_w != kp->tile_w || v->tile_t != kp->tile_t)
        return (int)cudaErrorInvalidValue;
#if defined(GS_TWIN) && GS_TWIN
    if (!stamps.warps || !stamps.records || stamps.capacity == 0 || stamps.warps_per_cta != NVFP4_WARPS_PER_CTA)
        return (int)cudaErrorInvalidValue;
#endif
#define NVFP4_POINT(S, TW, TT, WS, P, TS)                                                                    \
    if (v->stages == S && v->tile_w == TW && v->tile_t == TT && v->warp_spec == WS && v->persistent == P &&   \
        v->tma_store == TS)                                                                                  \
        return launch_point<S, TW, TT, WS, P, TS>(kp, stamps, s);
    NVFP4_POINT(1, 128, 128, 0, 0, 0)
    NVFP4_POINT(1, 128, 64, 0, 0, 0)
    NVFP4_POINT(1, 64, 128, 0, 0, 0)
#undef NVFP4_POINT
    return (int)cudaErrorNotSupported;
}
