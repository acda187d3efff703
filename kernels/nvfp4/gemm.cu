/* The NVFP4 grouped GEMM for Hopper (sm_90a): one knob space, compiled twice
 * (production, and with -DGS_TWIN=1 the instrumented twin; GS_SYM gives every
 * exported symbol a _prod / _twin suffix, everything else here is internal).
 *
 * Mapping (swap-AB): weights B_g (N rows) are the wgmma M side, tokens A_g (M_g rows)
 * the wgmma N side, so the accumulator is D[w][t] = C[t][w].
 *
 * Data path: the token pre-pass (tokens.cu, its block body in tokens.cuh) writes every A_g
 * as exact fp16 (value x scale) with K permuted inside each block of 128 (nvfp4_kperm);
 * this kernel is launched as its programmatic dependent and waits for it before the first
 * load (fused_tokens 0; the _ft and _fp points make T themselves, below).  Per stage of
 * K = 128 the producer brings, on one mbarrier: the raw FP4 weight rows of the tile (TMA),
 * the two scale atoms of their 128-row band (bulk copy) and two 64-wide slabs of fp16
 * tokens (TMA, 128B swizzle).  Each consumer warpgroup owns 64 weight rows: every thread
 * loads 16 bytes of each of its two rows, dequantises them straight into the register
 * fragments of eight k16 steps (the permutation makes those bytes exactly what the
 * fragments need) and issues eight register-sourced wgmmas against the token slabs.
 *
 * Knobs (template parameters, one instantiation per point listed at the bottom):
 *   STAGES     shared-memory ring depth (1 = load, then compute, strictly in turn)
 *   TILE_W     weight rows per CTA = 64 x consumer warpgroups (64 or 128)
 *   TILE_T     token rows per tile (wgmma N up to 256); each tile computes only
 *              n_eff = its valid rows rounded up to 32 (a switch picks the instruction)
 *   WARP_SPEC  1: an extra producer warpgroup (one thread of it issues every load) hands
 *              its registers to the consumers (setmaxnreg 40 / 232); 0: consumer thread 0
 *              issues the loads between its own stages
 *   PERSISTENT 1: one CTA per SM walks its share of the schedule (schedule.c)
 *   TMA_STORE  1: accumulators -> swizzled shared staging (stmatrix) -> TMA store;
 *              2: the same, staged in the token slabs of the unit's last ring slot, which
 *              the consumers release only once the TMA store has read it (no staging of its
 *              own: fits beside three 256-token stages; needs WARP_SPEC, MMA_DEPTH 1);
 *              0: straight from registers: one shuffle pairs neighbouring weight rows,
 *              then predicated 4-byte stores
 *   MMA_DEPTH  stages whose wgmmas are in flight: 1 (each stage waits for its own before
 *              the next is issued) or 2 (it waits only for the previous stage's); 2 compiles
 *              the widths TILE_T / 2 and TILE_T only (with more, ptxas serialised the
 *              wgmmas: docs/variants.md), and the schedule rounds tiles up to them
 * Split K (the `_sk` points) is not a template parameter: it lives in the schedule, whose
 * units carry a K range and a part number; every persistent instantiation runs either.
 * Fused tokens (the FUSED template parameter; the launch checks kp.fuse_tokens): 1 replaces the
 * pre-pass with dequantising warps in the producer warpgroup (the `_ft` points:
 * dequant_tokens below), 2 with a prologue in which every CTA dequantises its share of the
 * tokens before its first token load (the `_fp` points: token_prologue below).  A template
 * parameter, so that no other point carries their code: code added for either slowed
 * points that never ran it, three times (docs/variants.md).
 *
 * Stamps: the twin records the loading warp's PROLOGUE (from the CTA's set-up to the moment
 * its first token slabs may be loaded: the pre-pass kernel's completion, or the fused
 * prologue and every CTA's arrival), and MAINLOOP, ACC_TO_REG, EPILOGUE and STORE per tile (with
 * TMA_STORE 2 the EPILOGUE includes the barrier of both consumer warpgroups, and the STORE
 * that warp 0 stamps includes its thread 0's wait for the store's read of the slot); the detail
 * twin (GS_TWIN=2) also LOAD_WAIT, DEQUANT and MMA per stage (first warp of each consumer
 * warpgroup), which cost it up to 34% on the H100 (samples/variants.tsv, detail/x):
 * the main loop is issue-bound on the dequantisation, and every stamp is instructions.
 * With a producer warpgroup whose spare warps do not dequantise tokens (all but the _ft
 * points), its second warp runs the twins' clock sampler (gs_stamp.cuh): a (%globaltimer, clock64) pair every 500 ns.
 *
 * Exactness: e2m1 x e4m3 is exact in fp16 (<= 6 significant bits, 2^-10 <= |v s| <= 2688),
 * and so is v s 2^-14 (a multiple of 2^-24: subnormal when small), the form the weights take
 * here; the epilogue multiplies the fp32 accumulator by 2^14 (exact).  So both operands are
 * exact and the fp16 wgmma with fp32 accumulation differs from the reference only by
 * summation order.  Token rows past M_g are zeros (TMA fill), their
 * accumulator columns are never stored.  Weight tiles never pass N (N % TILE_W == 0). */
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <stdint.h>
#include <string.h>
#include <type_traits>

#include "../../instrument/gs_stamp.cuh"
#include "nvfp4_internal.h"
#include "points.h"
#include "dequant.cuh"
#include "ptx.cuh"
#include "tokens.cuh"

namespace {

constexpr int BK = NVFP4_BK;

/* Ablations: experiments that skip one kind of work to see what the rest costs (the
 * results are wrong; nvfp4-bench --time-wrong times them).  Off in every real build;
 * docs/variants.md has what they measured.  Set one with KERNEL_FLAGS=-DNVFP4_ABLATE=n:
 *   1  no token slabs are loaded (the wgmmas read whatever the ring holds)
 *   2  no dequantisation: the raw weight words go into the fragments as they are
 *   3  no wgmma is issued (the commit and wait stay) */
#ifndef NVFP4_ABLATE
#define NVFP4_ABLATE 0
#endif
constexpr int ABLATE = NVFP4_ABLATE;
/* 1: with the pre-pass kernel too, the loading thread starts the ring's first stages'
 * weights before it waits for the tokens, as the fused points' do.  Off: on the H100 it
 * made the g8 defaults 0.6-1.5% slower and g2k4096's 1.3% faster (docs/variants.md). */
#ifndef NVFP4_WEIGHTS_EARLY
#define NVFP4_WEIGHTS_EARLY 0
#endif
/* The kernel's parameter block.  A launch copies the whole block, and its time grows with
 * the size: an empty launch took 4.2 us with 64 bytes, 4.26 with 1920 and 4.50 with 7552
 * (samples/narrow-params.tsv).  nvfp4_kparams, whose arrays hold NVFP4_MAX_GROUPS groups, is
 * 7552 bytes with CUDA 13's headers (CUtensorMap aligned to 128).  Problems of at most
 * NARROW_GROUPS groups (the g2 benchmarks, every test) get a copy narrowed to that many
 * (1920 bytes), laid out in the order a CTA first reads it: the fused prologue's token
 * tables, its counter and the schedule, then the per-group fields, the tensor maps last. */
constexpr int NARROW_GROUPS = 4;

template <int G> struct narrow_tparams {
    NVFP4_TPARAMS_FIELDS(G)
};

/* The fields of nvfp4_kparams the kernel reads (besides tp), in that order: ONE(name) a
 * single value, GROUPS(name) an array of one entry per group.  This one list declares the
 * narrow block (types taken from nvfp4_kparams) and makes its copy (narrow), so a field can
 * be neither missing from the block (the kernel would not compile) nor left uncopied. */
#define NARROW_KPARAMS_LIST(ONE, GROUPS)                                                                      \
    ONE(token_ready) ONE(tok_all) ONE(prologue_target) ONE(cta_first) ONE(tiles) ONE(groups) ONE(epoch)       \
    ONE(tok_items) ONE(tok_order) GROUPS(m) GROUPS(n) GROUPS(k) GROUPS(t_box) GROUPS(ready0) GROUPS(sfW)      \
    GROUPS(C) ONE(partials) ONE(flags) GROUPS(tmW) GROUPS(tmT) GROUPS(tmC)
#define NARROW_ONE(name) decltype(nvfp4_kparams::name) name;
#define NARROW_GROUPS(name) std::remove_extent_t<decltype(nvfp4_kparams::name)> name[G];

template <int G> struct narrow_kparams { /* the fields of nvfp4_kparams the kernel reads, for G groups */
    narrow_tparams<G> tp;
    NARROW_KPARAMS_LIST(NARROW_ONE, NARROW_GROUPS)
};
#undef NARROW_ONE
#undef NARROW_GROUPS

static_assert(sizeof(narrow_kparams<NARROW_GROUPS>) <= 2048, "nvfp4 gemm: the narrow parameter block outgrew 2 KB "
                                                               "(its point is a small launch)");

/* Groups a parameter block has room for (nvfp4_kparams or a narrow_kparams). */
template <class KP> __host__ __device__ constexpr int kp_groups()
{
    return (int)(sizeof(KP::m) / sizeof(int));
}

constexpr int SMEM_LIMIT = 232448; /* opt-in shared memory per block on sm_90 */
/* Named barriers: 0 the CTA, 1 + cw one consumer warpgroup, FT_BAR the _ft dequantisers,
 * CONSUMERS_BAR both consumer warpgroups (the ring-staged store), PROLOGUE_BAR every thread
 * but the loading warp's (the fused prologue beside weights_first). */
constexpr int FT_BAR = 3, CONSUMERS_BAR = 4, PROLOGUE_BAR = 5;

/* Shared memory: STAGES x {token slabs | raw weights | scale atoms}, then the TMA-store
 * staging (TMA_STORE 1: one [TILE_T][64] fp16 swizzled slab per consumer warpgroup; with 2
 * the same slabs lie in a ring slot's token slabs, which hold TILE_T x 256 bytes), then
 * barriers. */
template <int STAGES, int TILE_W, int TILE_T, int TMA_STORE> struct smem_plan {
    static constexpr int T_SLAB = TILE_T * 128;     /* 64 fp16 of K per token row */
    static constexpr int o_t = 0;
    static constexpr int o_w = 2 * T_SLAB;          /* raw weights: TILE_W rows of 64 B */
    static constexpr int W_BYTES = TILE_W * (BK / 2);
    static constexpr int o_sf = o_w + W_BYTES;      /* 2 atoms x 512 B of the 128-row band */
    static constexpr int SF_BYTES = 2 * 512;
    static constexpr int STAGE = o_sf + SF_BYTES;
    static constexpr int o_c = STAGES * STAGE;
    static constexpr int C_SLABS = (TILE_W / 64) * TILE_T * 128; /* the staging of one tile */
    static constexpr int C_BYTES = TMA_STORE == 1 ? C_SLABS : 0;
    static constexpr int o_bar = o_c + C_BYTES;     /* full[STAGES], empty[STAGES] */
    static constexpr int bytes = o_bar + 16 * STAGES;
    static constexpr int dyn_bytes = bytes + 1024;  /* slack to align the base to 1024 */
    /* the mbarriers of ring slot `slot`: full (the producer's arrival + bytes) and empty (the
     * consumers' releases) */
    static __device__ __forceinline__ uint32_t full_bar(uint32_t base, uint32_t slot) { return base + o_bar + 8 * slot; }
    static __device__ __forceinline__ uint32_t empty_bar(uint32_t base, uint32_t slot)
    {
        return base + o_bar + 8 * (STAGES + slot);
    }
    static_assert(STAGE % 1024 == 0 && T_SLAB % 1024 == 0, "swizzled slabs must stay 1024-byte aligned");
    static_assert(TMA_STORE != 2 || C_SLABS <= 2 * T_SLAB, "nvfp4 gemm: the ring-staged store needs a slot's token slabs");
    static_assert(dyn_bytes <= SMEM_LIMIT, "nvfp4 gemm: this (stages, tile, tma_store) point does not fit in "
                                           "227 KB of shared memory");
};

/* The weights enter the wgmmas as v s 2^-14 (dequant_nibbles_x2m14: one multiply per pair
 * instead of two), so every accumulator holds 2^-14 x its sum; x 2^14 in fp32 is exact. */
constexpr float ACC_UNSCALE = 16384.0f;

/* Two accumulators -> the fp16x2 of the output. */
__device__ __forceinline__ uint32_t pack_half2(float lo, float hi)
{
    __half2 h = __floats2half2_rn(ACC_UNSCALE * lo, ACC_UNSCALE * hi); /* round to nearest even, like torch's .half() */
    return *reinterpret_cast<uint32_t *>(&h);
}

/* ---- fused token dequantisation (the _ft points) ----
 * No pre-pass kernel: the producer warpgroup's three spare warps of every CTA turn the FP4
 * tokens into the fp16 T the TMA loads read, while the consumers run.  The work is a stream
 * of items, one item = 8 token rows of one (group, K block): a lane per 16-byte unit of A
 * (lane = 4 x row + unit), 512 bytes of FP4 a warp load.  The (group, K block) pairs come in
 * the order the schedule first loads them (nvfp4_token_order: K block 0 and every
 * handed-over split part's first K block first); item i of that stream goes to worker
 * (warp) i mod workers, so the first round of the workers already covers the blocks every
 * CTA's first stages wait for.  A worker finds its items' pairs in a table of each pair's
 * first item (kp.tok_order, copied to shared memory), four entries a step: a first form
 * walked the pairs one by one, and that walk, not the loads, took most of the kernel.
 * A worker keeps FT_ITEMS items' loads in flight (1 KB a warp; the producer warpgroup has 40
 * registers a thread), dequantises them like the pre-pass (lane c of a row's quad writes
 * word c of each of the block's 16 chunks: tokens.cuh) and releases them (ft_release): a
 * fence, then each item's valid rows added to the counter of its (group, K block) and to the
 * all-items counter.  The loading thread waits for a counter before the TMA of that K
 * block's token slabs.  Counters are never reset: launch e of the problem waits for e x M_g
 * (kp.epoch).  Still slower than the pre-pass on every benchmark shape: the three warps take
 * some 40 us to make what the pre-pass makes in 8 (docs/variants.md). */
constexpr int FT_WARPS = 3, FT_ROWS = NVFP4_FT_ROWS;
#ifndef NVFP4_FT_ITEMS
#define NVFP4_FT_ITEMS 2
#endif
#ifndef NVFP4_FT_RELEASE
#define NVFP4_FT_RELEASE 4
#endif
/* items in flight per worker: with 3 or 4 ptxas spilled (40 registers); 3, spilling, was no
 * faster (docs/variants.md) */
constexpr int FT_ITEMS = NVFP4_FT_ITEMS;
/* Batches per release after the first (which is released alone: its blocks are the ones
 * every CTA waits for).  The items waiting for their release are held one per lane.  4
 * against 1: g8k7168 131.3 against 133.0 us, g8k2048 (_tmr_sk_ft) 78.7 against 79.2 (H100,
 * docs/variants.md). */
constexpr int FT_RELEASE = NVFP4_FT_RELEASE;
static_assert(FT_ITEMS * FT_RELEASE <= 32, "nvfp4 gemm: a warp holds at most 32 unreleased items");

/* The pair of item i: advances pair (that of the worker's previous item: items only grow)
 * to the last pair whose first item is <= i, four table entries a step (the entries'
 * first items are their top 20 bits; the sentinels end every step).  Returns the item as
 * g << 24 | kb << 16 | row block.  Warp-uniform. */
__device__ __forceinline__ int ft_item(const uint32_t *table, int &pair, int i)
{
    const uint32_t lim = (uint32_t)i << 12 | 0xFFFu; /* entry <= lim: its first item <= i */
    for (;;) {
        const int n = (table[pair + 1] <= lim) + (table[pair + 2] <= lim) + (table[pair + 3] <= lim) +
                      (table[pair + 4] <= lim);
        pair += n;
        if (n < 4)
            break;
    }
    const uint32_t e = table[pair];
    return (int)((e & 0xFFFu) << 16) | (i - (int)(e >> 12));
}

/* Releases the warp's written items: every lane's writes, then each item's valid rows
 * added to its (group, K block) counter by the lane that holds it, after its own fence. */
template <class KP> __device__ __forceinline__ void ft_release(const KP &kp, int lane, int mine)
{
    fence_proxy_async_global(); /* these generic writes will be read by TMA loads */
    __syncwarp();
    unsigned rows = 0;
    if (mine >= 0) {
        const int g = mine >> 24, kb = (mine >> 16) & 255, row0 = FT_ROWS * (mine & 0xFFFF);
        rows = (unsigned)min(FT_ROWS, kp.m[g] - row0);
        fence_acq_rel_gpu(); /* with the meeting above: the warp's items, released */
        red_relaxed_gpu_add_u32(kp.token_ready + kp.ready0[g] + kb, rows);
    }
    /* the all-items counter: once it is full, loads stop checking */
    rows = __reduce_add_sync(0xFFFFFFFFu, rows);
    if (lane == 0 && rows)
        red_relaxed_gpu_add_u32(kp.token_ready + kp.tok_all, rows);
}

/* Worker `worker` of `workers` (a warp); ftid: this thread among the FT_WARPS x 32 of the CTA. */
template <class KP> __device__ __forceinline__ void dequant_tokens(const KP &kp, int worker, int workers, int ftid)
{
    __shared__ __align__(16) uint32_t table[NVFP4_FT_MAX_PAIRS + NVFP4_FT_SENTINELS];
    const int pairs = kp.tok_all; /* one counter per (group, K block) */
    for (int i = ftid; i < (pairs + NVFP4_FT_SENTINELS + 3) / 4; i += 32 * FT_WARPS)
        reinterpret_cast<uint4 *>(table)[i] = reinterpret_cast<const uint4 *>(kp.tok_order)[i];
    named_barrier(FT_BAR, 32 * FT_WARPS);
    const int items = (int)(table[pairs] >> 12), lane = ftid & 31, r = lane >> 2, c = lane & 3;
    int pair = 0, batch = 0, pending = 0, mine = -1; /* mine: lane j's unreleased item j */
    for (int i0 = worker; i0 < items; i0 += FT_ITEMS * workers) {
        int it[FT_ITEMS];
        uint4 q[FT_ITEMS];
        uint32_t s2[FT_ITEMS];
#pragma unroll
        for (int b = 0; b < FT_ITEMS; b++) {
            it[b] = i0 + b * workers < items ? ft_item(table, pair, i0 + b * workers) : -1;
            q[b] = make_uint4(0, 0, 0, 0);
            s2[b] = 0;
            if (it[b] >= 0) {
                const int g = it[b] >> 24, kb = (it[b] >> 16) & 255, row = FT_ROWS * (it[b] & 0xFFFF) + r;
                if (row < kp.m[g]) {
                    const int K = kp.k[g];
                    q[b] = ldg_nc_u4(kp.tp.A[g] + (size_t)row * (size_t)(K / 2) + (size_t)kb * (BK / 2) + 16 * c);
                    /* unit c of the block: scale blocks 2c, 2c + 1 = bytes 2 (c % 2), +1 of atom 2 kb + c / 2 */
                    s2[b] = ldg_nc_u16(kp.tp.SFA[g] + sf_atom_offset(row, K, 2 * kb + (c >> 1)) + 2 * (c & 1));
                }
            }
        }
#pragma unroll
        for (int b = 0; b < FT_ITEMS; b++) {
            if (it[b] < 0)
                continue;
            const int g = it[b] >> 24, kb = (it[b] >> 16) & 255, row = FT_ROWS * (it[b] & 0xFFFF) + r;
            if (row >= kp.m[g])
                continue;
            const uint32_t sc = e4m3x2_to_f16x2((uint16_t)s2[b]);
            const uint32_t s_lo = (sc & 0xFFFFu) * 0x10001u, s_hi = (sc >> 16) * 0x10001u;
            /* the row's 256 bytes of this K block: chunk 4i + p, word c (tokens.cuh) */
            uint8_t *const out = reinterpret_cast<uint8_t *>(kp.tp.T[g]) + ((size_t)row * (size_t)kp.k[g] +
                                                                             (size_t)kb * BK) * 2 + 4 * c;
            const uint32_t wd[4] = {q[b].x, q[b].y, q[b].z, q[b].w};
#pragma unroll
            for (int i = 0; i < 4; i++)
#pragma unroll
                for (int p = 0; p < 4; p++)
                    stg_u32(out + 16 * (4 * i + p), dequant_nibbles(wd[i], p, i < 2 ? s_lo : s_hi));
        }
#pragma unroll
        for (int b = 0; b < FT_ITEMS; b++) /* item b of this batch waits in lane pending */
            if (it[b] >= 0) {
                mine = lane == pending ? it[b] : mine;
                pending++;
            }
        if (++batch % FT_RELEASE == 1 % FT_RELEASE || i0 + FT_ITEMS * workers >= items) {
            ft_release(kp, lane, mine);
            pending = 0;
            mine = -1;
        }
    }
}

/* The loading thread: wait until every row of group g's K block kb is written (this
 * launch).  Once the all-items counter is full (*all_ready), nothing is checked any more:
 * every check costs the loop a round trip to L2 and the fences after it.  The spins are
 * relaxed (an acquire load invalidates L1, under the dequantising warps' feet); one acquire
 * load ends each wait. */
template <class KP> __device__ __forceinline__ void wait_tokens(const KP &kp, int g, int kb, int &all_ready)
{
    if (all_ready)
        return;
    const unsigned *const all = kp.token_ready + kp.tok_all;
    const unsigned all_target = kp.epoch * (unsigned)kp.tok_items;
    const unsigned *ready = kp.token_ready + kp.ready0[g] + kb;
    unsigned target = kp.epoch * (unsigned)kp.m[g];
    if ((int)(ld_relaxed_gpu_u32(all) - all_target) >= 0) {
        all_ready = 1;
        ready = all;
        target = all_target;
    }
    while ((int)(ld_relaxed_gpu_u32(ready) - target) < 0)
        __nanosleep(100);
    (void)ld_acquire_gpu_u32(ready);
    fence_proxy_async_global(); /* the acquired generic writes, before this thread's TMA loads */
}

/* ---- fused prologue (the _fp points) ----
 * No pre-pass kernel and no kernel boundary: every CTA of the (persistent, all resident)
 * grid first dequantises the token blocks blockIdx.x, + gridDim.x, ... exactly as the
 * pre-pass would (tokens.cuh), with the token slabs of its last ring slot as staging, then
 * arrives on the prologue counter.  The loading thread waits for every CTA's arrival before
 * its first token load: one grid-wide barrier instead of a kernel's completion, flush and
 * programmatic launch.  With a producer warpgroup the loading warp takes no part: it starts
 * the weights of the ring's first stages meanwhile (weights_first), and the other nthreads
 * (thread ptid of them) meet on PROLOGUE_BAR; without one, every thread does, on barrier 0. */
template <int BAR, class KP> __device__ __forceinline__ void token_prologue(const KP &kp, uint4 *stage, int ptid,
                                                                  int nthreads)
{
    const int blocks = kp.tp.block_start[kp.tp.groups];
    for (int b = (int)blockIdx.x; b < blocks; b += (int)gridDim.x)
        token_block<BAR>(kp.tp, b, stage, ptid, nthreads);
    fence_proxy_async_global(); /* this thread's generic writes of T will be read by TMA loads */
    fence_proxy_async_smem();   /* and its staging accesses come before the TMA writes into the ring */
    token_block_sync<BAR>(nthreads);
    if (ptid == 0) {
        fence_acq_rel_gpu(); /* with the barrier above: the whole CTA's writes, released */
        red_relaxed_gpu_add_u32(kp.token_ready + kp.tok_all + 1, 1u);
    }
}

/* The loading thread, before its first load: every token row is written.  Without fused
 * tokens the pre-pass kernel has completed (programmatic dependent launch); with the fused
 * prologue every CTA of this launch and of the earlier ones has arrived (the target is
 * cumulative, compared by difference); the _ft points wait per K block instead (load_stage). */
template <int FUSED, class KP> __device__ __forceinline__ void wait_tokens_written(const KP &kp)
{
    if constexpr (FUSED == 0) {
        griddep_wait();
    } else if constexpr (FUSED == 2) {
        const unsigned *const arrived = kp.token_ready + kp.tok_all + 1;
        while ((int)(ld_relaxed_gpu_u32(arrived) - kp.prologue_target) < 0)
            __nanosleep(64);
        (void)ld_acquire_gpu_u32(arrived);
        fence_proxy_async_global(); /* the acquired generic writes, before this thread's TMA loads */
    }
}

/* Where the next load goes: the flattened (tile, K block) stream of this CTA. */
struct load_cursor {
    int t, kb;     /* schedule index, K block within that unit's range */
    uint32_t j;    /* stages issued so far (ring position and parity) */
    int all_ready; /* fused tokens: every token row is known to be written */
};

/* The loads of the cursor's stage come in two parts: the raw weights and their scales
 * (with the slot's whole transaction count) and the token slabs.  The fused prologue
 * (fuse_tokens 2) issues the first part of the ring's first stages before the tokens exist
 * (weights_first) and the second once they do; every other stage takes both at once
 * (load_stage).  One thread. */
template <int STAGES, int TILE_W, int TILE_T, int TMA_STORE, class KP>
__device__ __forceinline__ void load_weights(const KP &kp, const nvfp4_tile &tl, const load_cursor &cur,
                                             uint32_t sm_base)
{
    using L = smem_plan<STAGES, TILE_W, TILE_T, TMA_STORE>;
    const int g = tl.group;
    const uint32_t slot = cur.j % STAGES, full = L::full_bar(sm_base, slot), st = sm_base + slot * L::STAGE;
    const int w0 = tl.wtile * TILE_W, kb = tl.kb0 + cur.kb;
    mbar_arrive_expect_tx(full, (uint32_t)(L::W_BYTES + L::SF_BYTES + (ABLATE == 1 ? 0 : 2 * 128 * kp.t_box[g])));
    tma_load_2d(st + L::o_w, &kp.tmW[g], full, kb * (BK / 2), w0);
    const size_t band_bytes = (size_t)(kp.k[g] / 64) * 512u;
    bulk_load(st + L::o_sf, kp.sfW[g] + (size_t)(w0 / 128) * band_bytes + (size_t)kb * L::SF_BYTES, L::SF_BYTES,
              full);
}

template <int STAGES, int TILE_W, int TILE_T, int TMA_STORE, class KP>
__device__ __forceinline__ void load_tokens(const KP &kp, const nvfp4_tile &tl, const load_cursor &cur,
                                            uint32_t sm_base)
{
    using L = smem_plan<STAGES, TILE_W, TILE_T, TMA_STORE>;
    const int g = tl.group;
    const uint32_t slot = cur.j % STAGES, full = L::full_bar(sm_base, slot), st = sm_base + slot * L::STAGE;
    const int t0 = tl.ttile * TILE_T, kb = tl.kb0 + cur.kb;
    if (ABLATE != 1) {
        tma_load_2d(st + L::o_t, &kp.tmT[g], full, kb * BK, t0);
        tma_load_2d(st + L::o_t + L::T_SLAB, &kp.tmT[g], full, kb * BK + 64, t0);
    }
}

/* The next stage of the CTA's (tile, K block) stream; tl is the cursor's unit. */
__device__ __forceinline__ void advance(const nvfp4_tile &tl, load_cursor &cur)
{
    cur.j++;
    if (++cur.kb == tl.kb1 - tl.kb0) {
        cur.kb = 0;
        cur.t++;
    }
}

/* Issues the loads of the cursor's stage into its ring slot (after the slot's previous use
 * was released) and advances the cursor.  One thread.  INLINE_TOKENS: the _ft points (only
 * with a producer warpgroup, whose loading warp passes it). */
template <int STAGES, int TILE_W, int TILE_T, int TMA_STORE, bool INLINE_TOKENS = false, class KP>
__device__ __forceinline__ void load_stage(const KP &kp, load_cursor &cur, uint32_t sm_base)
{
    using L = smem_plan<STAGES, TILE_W, TILE_T, TMA_STORE>;
    const nvfp4_tile tl = kp.tiles[cur.t];
    const uint32_t use = cur.j / STAGES;
    if constexpr (INLINE_TOKENS) /* before the slot wait: the check's latency hides behind it */
        wait_tokens(kp, tl.group, tl.kb0 + cur.kb, cur.all_ready);
    if (use > 0)
        mbar_wait(L::empty_bar(sm_base, cur.j % STAGES), (use - 1) & 1);
    load_weights<STAGES, TILE_W, TILE_T, TMA_STORE>(kp, tl, cur, sm_base);
    load_tokens<STAGES, TILE_W, TILE_T, TMA_STORE>(kp, tl, cur, sm_base);
    advance(tl, cur);
}

/* The fused prologue's loading thread, before the prologue: the weights and scales of the
 * ring's first stages (their slots are free), so that their DRAM latency passes while the
 * tokens are being made.  Returns how many stages it started; their token slabs follow once
 * the tokens are written (load_tokens). */
template <int STAGES, int TILE_W, int TILE_T, int TMA_STORE, class KP>
__device__ __forceinline__ int weights_first(const KP &kp, load_cursor cur, int last, uint32_t sm_base)
{
    int n = 0;
    for (; n < STAGES && cur.t < last; n++) {
        const nvfp4_tile tl = kp.tiles[cur.t];
        load_weights<STAGES, TILE_W, TILE_T, TMA_STORE>(kp, tl, cur, sm_base);
        advance(tl, cur);
    }
    return n;
}

/* What a consumer thread needs to know about itself and the CTA. */
struct consumer_ctx {
    uint32_t sm_base;
    int cw, wq, lane, tid_wg; /* consumer warpgroup, warp in it, lane, thread in it */
    uint32_t j;               /* stages consumed so far */
};

/* Waits for stage j's data and dequantises its weights into the fragments a. */
template <int STAGES, int TILE_W, int TILE_T, int TMA_STORE>
__device__ __forceinline__ void fetch_stage(uint32_t (&a)[8][4], const consumer_ctx &cc, uint32_t j, int row,
                                            int band_row, gs_ctx &gs)
{
    using L = smem_plan<STAGES, TILE_W, TILE_T, TMA_STORE>;
    const uint32_t slot = j % STAGES;
    const uint32_t st = cc.sm_base + slot * L::STAGE;
    GS_SUB_BEGIN(gs, NVFP4_LOAD_WAIT);
    mbar_wait(L::full_bar(cc.sm_base, slot), (j / STAGES) & 1);
    GS_SUB_END(gs, NVFP4_LOAD_WAIT);
    GS_SUB_BEGIN(gs, NVFP4_DEQUANT);
    dequant_weight_stage<ABLATE == 2>(a, st + L::o_w, st + L::o_sf, row, band_row, cc.lane & 3);
    GS_SUB_END(gs, NVFP4_DEQUANT);
}

/* The eight wgmmas of a stage whose token slabs start at tok, one commit group. */
template <int N, int STAGES, int TILE_W, int TILE_T, int TMA_STORE>
__device__ __forceinline__ void issue_stage(float (&acc)[N / 2], const uint32_t (&a)[8][4], uint32_t tok)
{
    using L = smem_plan<STAGES, TILE_W, TILE_T, TMA_STORE>;
    wgmma_fence();
#pragma unroll
    for (int s = 0; s < 8; s++)
        if (ABLATE != 3)
            wgmma_rs_step<N>(acc, a[s], tok, L::T_SLAB, s);
    wgmma_commit();
}

/* This thread is done with stage j's slot.  Every consumer thread releases the slot itself:
 * an arrival orders only its own thread's reads of the slot before the producer's next bulk
 * copy into it (one lane arriving for its warp after __syncwarp left the other lanes' scale
 * reads unordered for compute-sanitizer's racecheck). */
template <int STAGES, int TILE_W, int TILE_T, int TMA_STORE>
__device__ __forceinline__ void release_slot(const consumer_ctx &cc, uint32_t j)
{
    using L = smem_plan<STAGES, TILE_W, TILE_T, TMA_STORE>;
    mbar_arrive(L::empty_bar(cc.sm_base, j % STAGES));
}

/* Stage cc.j: issue its eight wgmmas from the fragments a, then
 * - MMA_DEPTH 1: (with two or more stages) fetch the next stage into `next` while they run,
 *   wait, release the slot (TMA_STORE 2: not the unit's last, whose token slabs stage the
 *   store); with one stage the slot must be released before the next stage can even be
 *   loaded into it;
 * - MMA_DEPTH 2: wait only for the previous stage's group (groups complete in order), release
 *   the previous stage's slot (none when `first`), dequantise the next stage into `next`, the
 *   set the previous stage read, while this stage's wgmmas run; the unit's last stage is
 *   waited for and released after the loop (run_tile, ACC_TO_REG). */
template <int N, int STAGES, int TILE_W, int TILE_T, int WARP_SPEC, int TMA_STORE, int MMA_DEPTH, class KP>
__device__ __forceinline__ void mma_stage(float (&acc)[N / 2], const uint32_t (&a)[8][4], uint32_t (&next)[8][4],
                                          bool has_next, bool first, const KP &kp, consumer_ctx &cc,
                                          load_cursor &cur, int last, int row, int band_row, gs_ctx &gs)
{
    using L = smem_plan<STAGES, TILE_W, TILE_T, TMA_STORE>;
    /* the stage's addresses before the stamp (the detail twin's MMA sub-phase times the wgmmas) */
    const uint32_t slot = cc.j % STAGES, tok = cc.sm_base + slot * L::STAGE + L::o_t,
                   empty = L::empty_bar(cc.sm_base, slot);
    GS_SUB_BEGIN(gs, NVFP4_MMA);
    issue_stage<N, STAGES, TILE_W, TILE_T, TMA_STORE>(acc, a, tok);
    if constexpr (MMA_DEPTH == 2) {
        wgmma_wait<1>();
        if (!first)
            release_slot<STAGES, TILE_W, TILE_T, TMA_STORE>(cc, cc.j - 1);
        GS_SUB_END(gs, NVFP4_MMA);
        if (has_next)
            fetch_stage<STAGES, TILE_W, TILE_T, TMA_STORE>(next, cc, cc.j + 1, row, band_row, gs);
    } else {
        if (STAGES > 1 && has_next)
            fetch_stage<STAGES, TILE_W, TILE_T, TMA_STORE>(next, cc, cc.j + 1, row, band_row, gs);
        wgmma_wait<0>();
        fence_regs(acc);
        if (TMA_STORE != 2 || has_next)
            mbar_arrive(empty); /* release_slot(cc, cc.j); TMA_STORE 2 keeps the unit's last slot (run_tile) */
        GS_SUB_END(gs, NVFP4_MMA);
        if (!WARP_SPEC && cc.cw == 0 && cc.tid_wg == 0 && cur.t < last)
            load_stage<STAGES, TILE_W, TILE_T, TMA_STORE>(kp, cur, cc.sm_base);
        if (STAGES == 1 && has_next)
            fetch_stage<STAGES, TILE_W, TILE_T, TMA_STORE>(next, cc, cc.j + 1, row, band_row, gs);
    }
    cc.j++;
}

/* Split K.  A warpgroup's share of a partial buffer holds its threads' accumulators as
 * float4 [N / 8][128 threads]: both sides address it with the fragment layout, so every
 * access is a coalesced 16-byte one and no shuffle is needed. */
template <int TILE_W, int TILE_T, class KP>
__device__ __forceinline__ float *partial_base(const KP &kp, uint32_t buf, int cw, int tid_wg)
{
    return kp.partials + (size_t)buf * (size_t)(TILE_W * TILE_T) + (size_t)cw * (size_t)(64 * TILE_T) +
           (size_t)tid_wg * 4u;
}

/* A non-owning part: store the partial sum, then (one thread, after the warpgroup's
 * barrier) publish it on the tile's flag with release semantics. */
template <int N, int TILE_W, int TILE_T, class KP>
__device__ __forceinline__ void store_partial(const float (&acc)[N / 2], const KP &kp,
                                              const nvfp4_tile &tl, const consumer_ctx &cc)
{
    float *const b = partial_base<TILE_W, TILE_T>(kp, tl.pbuf, cc.cw, cc.tid_wg);
#pragma unroll
    for (int i = 0; i < N / 8; i++)
        st_cg_f4(b + (size_t)i * 512u, acc[4 * i], acc[4 * i + 1], acc[4 * i + 2], acc[4 * i + 3]);
    named_barrier(1 + cc.cw, 128);
    if (cc.tid_wg == 0)
        red_release_gpu_add(kp.flags + (size_t)tl.slot * (TILE_W / 64) + cc.cw, 1);
}

/* The owning part (K blocks from 0): wait until the other parts have published, reset the
 * flag for the next launch, add their partial sums in part order (the result does not
 * depend on which CTA finished first). */
template <int N, int TILE_W, int TILE_T, class KP>
__device__ __forceinline__ void add_partials(float (&acc)[N / 2], const KP &kp, const nvfp4_tile &tl,
                                             const consumer_ctx &cc)
{
    int *const flag = kp.flags + (size_t)tl.slot * (TILE_W / 64) + cc.cw;
    if (cc.tid_wg == 0) {
        while (ld_acquire_gpu(flag) < tl.parts - 1) {
        }
        st_relaxed_gpu(flag, 0);
    }
    named_barrier(1 + cc.cw, 128);
    for (int q = 0; q < tl.parts - 1; q++) {
        const float *const b = partial_base<TILE_W, TILE_T>(kp, tl.pbuf + (uint32_t)q, cc.cw, cc.tid_wg);
#pragma unroll
        for (int i = 0; i < N / 8; i++) {
            const float4 v = ld_cg_f4(b + (size_t)i * 512u);
            acc[4 * i] += v.x;
            acc[4 * i + 1] += v.y;
            acc[4 * i + 2] += v.z;
            acc[4 * i + 3] += v.w;
        }
    }
}

/* One unit (a tile, or one K range of a split tile) with wgmma width N: main loop, drain,
 * epilogue, store. */
template <int N, int STAGES, int TILE_W, int TILE_T, int WARP_SPEC, int TMA_STORE, int MMA_DEPTH, class KP>
__device__ __forceinline__ void run_tile(const KP &kp, const nvfp4_tile &tl, consumer_ctx &cc,
                                         load_cursor &cur, int last, gs_ctx &gs)
{
    using L = smem_plan<STAGES, TILE_W, TILE_T, TMA_STORE>;
    constexpr int CW = TILE_W / 64;
    const int g = tl.group;
    const int w0 = tl.wtile * TILE_W, t0 = tl.ttile * TILE_T;
    const int row = 64 * cc.cw + 16 * cc.wq + (cc.lane >> 2), c = cc.lane & 3;
    const int band_row = (w0 & 127) + row;
    const int nkb = tl.kb1 - tl.kb0;

    float acc[N / 2];
#pragma unroll
    for (int i = 0; i < N / 2; i++)
        acc[i] = 0.0f;

    /* two fragment sets: the wgmmas of one stage read one while the next is dequantised into
     * the other (the loop is unrolled by two so both stay in registers) */
    uint32_t a0[8][4], a1[8][4];
    GS_BEGIN(gs, GS_MAINLOOP);
    fetch_stage<STAGES, TILE_W, TILE_T, TMA_STORE>(a0, cc, cc.j, row, band_row, gs);
    for (int kb = 0; kb < nkb; kb += 2) {
        mma_stage<N, STAGES, TILE_W, TILE_T, WARP_SPEC, TMA_STORE, MMA_DEPTH>(acc, a0, a1, kb + 1 < nkb, kb == 0, kp, cc,
                                                                              cur, last, row, band_row, gs);
        if (kb + 1 < nkb)
            mma_stage<N, STAGES, TILE_W, TILE_T, WARP_SPEC, TMA_STORE, MMA_DEPTH>(acc, a1, a0, kb + 2 < nkb, false, kp,
                                                                                  cc, cur, last, row, band_row, gs);
    }
    GS_END(gs, GS_MAINLOOP);

    /* With MMA_DEPTH 1 every stage already waited for its wgmmas: this is the (near-empty)
     * hand-off.  With 2 the last stage's wgmmas are still in flight: wait, release its slot. */
    GS_BEGIN(gs, GS_ACC_TO_REG);
    wgmma_wait<0>();
    fence_regs(acc);
    if (MMA_DEPTH == 2)
        release_slot<STAGES, TILE_W, TILE_T, TMA_STORE>(cc, cc.j - 1);
    GS_END(gs, GS_ACC_TO_REG);

    /* a part of a split tile that does not own it: hand the partial sum over, done */
    if (tl.parts > 1 && tl.part != 0) {
        if (TMA_STORE == 2) /* nothing to stage: give the held slot back at once */
            release_slot<STAGES, TILE_W, TILE_T, TMA_STORE>(cc, cc.j - 1);
        GS_BEGIN(gs, GS_EPILOGUE);
        GS_END(gs, GS_EPILOGUE);
        GS_BEGIN(gs, GS_STORE);
        store_partial<N, TILE_W, TILE_T>(acc, kp, tl, cc);
        GS_END(gs, GS_STORE);
        return;
    }

    /* accumulator i: weight row w0 + row + 8*((i>>1)&1), token t0 + 8*(i>>2) + 2c + (i&1) */
    const int M = kp.m[g], Nw = kp.n[g];
    if (TMA_STORE) {
        GS_BEGIN(gs, GS_EPILOGUE);
        if (tl.parts > 1)
            add_partials<N, TILE_W, TILE_T>(acc, kp, tl, cc);
        const uint32_t held = (cc.j - 1) % STAGES; /* TMA_STORE 2: the unit's last slot, not yet released */
        const uint32_t slab = cc.sm_base + (TMA_STORE == 1 ? L::o_c : held * L::STAGE + L::o_t) +
                              (uint32_t)cc.cw * (TILE_T * 128);
        if (TMA_STORE == 1) {
            if (cc.tid_wg == 0)
                bulk_wait_read0(); /* the previous tile's store has read the staging slab */
            named_barrier(1 + cc.cw, 128);
        } else {
            /* both warpgroups' wgmmas have read the slot's token slabs (wait_group 0 in each) */
            named_barrier(CW > 1 ? CONSUMERS_BAR : 1, 128 * CW);
        }
        const int mi = cc.lane >> 3, rr = cc.lane & 7;
#pragma unroll
        for (int jj = 0; jj < N / 16; jj++) {
            /* matrices (token block 2jj + m/2, weight half m%2); lane l addresses row l%8 of matrix l/8 */
            const int t = 8 * (2 * jj + (mi >> 1)) + rr, chunk = 2 * cc.wq + (mi & 1);
            const uint32_t addr = slab + (uint32_t)(t * 128 + ((chunk ^ (t & 7)) << 4));
            stmatrix_x4_trans(addr, pack_half2(acc[8 * jj + 0], acc[8 * jj + 1]),
                              pack_half2(acc[8 * jj + 2], acc[8 * jj + 3]),
                              pack_half2(acc[8 * jj + 4], acc[8 * jj + 5]),
                              pack_half2(acc[8 * jj + 6], acc[8 * jj + 7]));
        }
        fence_proxy_async_smem(); /* generic-proxy writes -> visible to the TMA store */
        named_barrier(1 + cc.cw, 128);
        GS_END(gs, GS_EPILOGUE);

        GS_BEGIN(gs, GS_STORE);
        if (cc.tid_wg == 0) {
            tma_store_2d(&kp.tmC[g], slab, w0 + 64 * cc.cw, t0);
            bulk_commit();
            if (TMA_STORE == 2) {
                /* the slot goes back to the producer once the store has read it: one arrival
                 * for the warpgroup, whose other accesses to the slot the barrier above ordered */
                bulk_wait_read0();
                mbar_arrive_n(L::empty_bar(cc.sm_base, held), 128);
            }
        }
        GS_END(gs, GS_STORE);
    } else {
        GS_BEGIN(gs, GS_EPILOGUE);
        if (tl.parts > 1)
            add_partials<N, TILE_W, TILE_T>(acc, kp, tl, cc);
        uint32_t packed[N / 4];
#pragma unroll
        for (int i = 0; i < N / 4; i++)
            packed[i] = pack_half2(acc[2 * i], acc[2 * i + 1]);
        /* packed[2j + h] holds tokens (8j + 2c, 8j + 2c + 1) of weight row `row + 8h`; C is
         * token-major, so those two values are Nw apart.  Lanes 4 apart hold neighbouring
         * weight rows (row, row ^ 1): swapping one half with that lane gives the even row's
         * lane two adjacent weights of token 8j + 2c and the odd row's lane two of token
         * 8j + 2c + 1, stored as one 4-byte word (half the store instructions; one shuffle
         * carries the halves of both h). */
        const int odd = row & 1;
        const int wl = w0 + row - odd;
        const int tvalid = M - (t0 + 2 * c) - odd; /* this lane's token offsets 8j below it are rows < M_g */
        uint16_t *const cg = kp.C[g] + (size_t)(t0 + 2 * c + odd) * (size_t)Nw + (size_t)wl;
        const unsigned send_sel = odd ? 0x5410u : 0x7632u; /* odd sends its low halves, even its high */
        const unsigned keep0 = odd ? 0x7610u : 0x5410u, keep1 = odd ? 0x7632u : 0x7610u;
#pragma unroll
        for (int j = 0; j < N / 8; j++) {
            const uint32_t p0 = packed[2 * j], p1 = packed[2 * j + 1];
            const uint32_t recv = __shfl_xor_sync(0xFFFFFFFFu, __byte_perm(p0, p1, send_sel), 4);
            /* even: (own low, partner's low) for row, row + 1; odd: (partner's high, own high) */
            packed[2 * j] = odd ? __byte_perm(recv, p0, keep0) : __byte_perm(p0, recv, keep0);
            packed[2 * j + 1] = odd ? __byte_perm(recv, p1, keep1) : __byte_perm(p1, recv, keep1);
        }
        GS_END(gs, GS_EPILOGUE);

        GS_BEGIN(gs, GS_STORE);
#pragma unroll
        for (int j = 0; j < N / 8; j++)
            if (8 * j < tvalid) {
                uint16_t *const p = cg + (size_t)(8 * j) * (size_t)Nw;
                *reinterpret_cast<uint32_t *>(p) = packed[2 * j];
                *reinterpret_cast<uint32_t *>(p + 8) = packed[2 * j + 1];
            }
        GS_END(gs, GS_STORE);
    }
}

/* Registers per thread after reallocation.  setmaxnreg.inc blocks until the CTA's own pool
 * (what its setmaxnreg.dec released) holds enough: two consumer warpgroups launched at 168
 * registers need 256 x (232 - 168) = 128 x (168 - 40), so the producer cannot keep more
 * than 40 while the consumers take 232 (with 48 the kernels hung on the H100:
 * docs/variants.md, inline tokens). */
constexpr int PRODUCER_REGS = 40, CONSUMER_REGS = 232;

template <int TILE_W, int WARP_SPEC> constexpr int threads_of()
{
    return (TILE_W / 64) * 128 + (WARP_SPEC ? 128 : 0);
}

} // namespace

template <int STAGES, int TILE_W, int TILE_T, int WARP_SPEC, int PERSISTENT, int TMA_STORE, int MMA_DEPTH, int FUSED,
          class KP>
__global__ void __launch_bounds__(threads_of<TILE_W, WARP_SPEC>(), 1)
    GS_SYM(nvfp4_gemm_kernel)(const __grid_constant__ KP kp, const gs_buffer stamps)
{
    static_assert(STAGES >= 1 && STAGES <= 4, "nvfp4 gemm: stages must be 1..4");
    static_assert(TILE_W == 64 || TILE_W == 128, "nvfp4 gemm: tile_w must be 64 or 128 (64 rows per consumer "
                                                 "warpgroup, at most two)");
    static_assert(TILE_T % 64 == 0 && TILE_T >= 64 && TILE_T <= 256,
                  "nvfp4 gemm: tile_t must be 64, 128, 192 or 256 (wgmma N <= 256)");
    static_assert(MMA_DEPTH == 1 || (MMA_DEPTH == 2 && WARP_SPEC && STAGES >= 2),
                  "nvfp4 gemm: two stages of wgmmas in flight need a producer warpgroup and 2+ stages");
    static_assert(TMA_STORE != 2 || (WARP_SPEC && STAGES >= 2 && MMA_DEPTH == 1),
                  "nvfp4 gemm: the ring-staged store needs a producer warpgroup (a consumer issuing loads would "
                  "wait for the slot it holds), 2+ stages and one stage of wgmmas in flight");
    using L = smem_plan<STAGES, TILE_W, TILE_T, TMA_STORE>;
    constexpr int CW = TILE_W / 64;
    static_assert(NVFP4_TOKEN_CHUNKS * 16 <= 2 * L::T_SLAB,
                  "nvfp4 gemm: the fused prologue stages in the last ring slot's token slabs");
    /* the fused prologue's loading warp starts the weights instead of taking part: the
     * prologue's unit threads are the first NVFP4_TOKEN_UNITS, all consumers then */
    constexpr bool WEIGHTS_FIRST = WARP_SPEC && PERSISTENT && CW * 128 >= NVFP4_TOKEN_UNITS;
    /* fused tokens (a template parameter, so that no other point carries their code: the _ft
     * points' shared-memory table and loader code slowed the pre-pass points by 0.4-2.3%) */
    constexpr bool PROLOGUE = FUSED == 2, INLINE_TOKENS = FUSED == 1;
    static_assert(!PROLOGUE || PERSISTENT, "nvfp4 gemm: the fused prologue needs every CTA resident (persistent)");
    static_assert(!INLINE_TOKENS || (WARP_SPEC && PERSISTENT),
                  "nvfp4 gemm: fused tokens need the producer warpgroup's spare warps and every CTA resident");

    const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
    const bool producer = WARP_SPEC && warp >= 4 * CW;
    gs_ctx gs;
    GS_INIT(gs, stamps, producer ? GS_ROLE_PRODUCER : (WARP_SPEC ? GS_ROLE_CONSUMER : GS_ROLE_ALL));

    extern __shared__ uint8_t smem_dyn[];
    const uint32_t sm_base = (smem_u32(smem_dyn) + 1023u) & ~1023u;
    if (tid == 0) {
        for (int s = 0; s < STAGES; s++) {
            mbar_init(L::full_bar(sm_base, s), 1);          /* full: the producer's arrival + bytes */
            mbar_init(L::empty_bar(sm_base, s), 128 * CW);  /* empty: every consumer thread */
        }
        GS_CLOCK_INIT(4 * CW); /* the twin's clock sampler runs until every consumer warp is done */
        mbar_fence_init();
    }
    __syncthreads();

    /* the twins: how long the loading warp waits before its first token load (the pre-pass
     * kernel's completion, or this CTA's prologue and the other CTAs' arrivals) */
    int started = 0; /* fused prologue: stages whose weights are in flight, token slabs not yet */
    if constexpr (PROLOGUE) {
        const bool loader = producer && warp == 4 * CW;
        if (loader)
            GS_BEGIN(gs, GS_PROLOGUE);
        uint4 *const stage = reinterpret_cast<uint4 *>(smem_dyn + (sm_base - smem_u32(smem_dyn)) +
                                                       (STAGES - 1) * L::STAGE + L::o_t);
        if constexpr (WEIGHTS_FIRST) {
            constexpr int LOADER_TID = 128 * CW; /* the loading warp's first thread */
            if (loader) {
                if (lane == 0)
                    started = weights_first<STAGES, TILE_W, TILE_T, TMA_STORE>(
                        kp, load_cursor{kp.cta_first[blockIdx.x], 0, 0, 0}, kp.cta_first[blockIdx.x + 1], sm_base);
            } else {
                token_prologue<PROLOGUE_BAR>(kp, stage, tid < LOADER_TID ? tid : tid - 32, (int)blockDim.x - 32);
            }
        } else {
            token_prologue<0>(kp, stage, tid, (int)blockDim.x);
        }
    }

    const int first = kp.cta_first[blockIdx.x], last = kp.cta_first[blockIdx.x + 1];
    load_cursor cur = {first, 0, 0, 0};
    if (producer) {
        setmaxnreg_dec<PRODUCER_REGS>();
        if (warp == 4 * CW) {
            if constexpr (!PROLOGUE) {
                GS_BEGIN(gs, GS_PROLOGUE);
                /* the weights do not wait for the tokens made in this kernel: the first stages' start now */
                if ((NVFP4_WEIGHTS_EARLY || INLINE_TOKENS) && lane == 0)
                    started = weights_first<STAGES, TILE_W, TILE_T, TMA_STORE>(kp, cur, last, sm_base);
            }
            if (lane == 0)
                wait_tokens_written<FUSED>(kp);
            GS_END(gs, GS_PROLOGUE); /* lane 0's record: the lane that waited */
            if (lane == 0) {
                if constexpr (PROLOGUE || INLINE_TOKENS || NVFP4_WEIGHTS_EARLY)
                    for (; started > 0; started--) { /* their token slabs */
                        const nvfp4_tile tl = kp.tiles[cur.t];
                        if constexpr (INLINE_TOKENS)
                            wait_tokens(kp, tl.group, tl.kb0 + cur.kb, cur.all_ready);
                        load_tokens<STAGES, TILE_W, TILE_T, TMA_STORE>(kp, tl, cur, sm_base);
                        advance(tl, cur);
                    }
                while (cur.t < last)
                    load_stage<STAGES, TILE_W, TILE_T, TMA_STORE, INLINE_TOKENS>(kp, cur, sm_base);
            }
        } else if constexpr (INLINE_TOKENS) { /* the three spare warps, a worker each */
            const int ftw = warp - 4 * CW - 1;
            dequant_tokens(kp, FT_WARPS * (int)blockIdx.x + ftw, FT_WARPS * (int)gridDim.x, 32 * ftw + lane);
        } else if (warp == NVFP4_SAMPLER_WARP(4 * CW)) {
            GS_CLOCK_SAMPLER(gs); /* the twins: a spare warp follows the SM clock */
        }
        GS_FINISH(gs);
        return;
    }
    if (WARP_SPEC)
        setmaxnreg_inc<CONSUMER_REGS>();
    if (!WARP_SPEC && tid == 0) { /* fill the ring; run_tile keeps it full */
        wait_tokens_written<FUSED>(kp);
        for (int s = 0; s < STAGES && cur.t < last; s++)
            load_stage<STAGES, TILE_W, TILE_T, TMA_STORE>(kp, cur, sm_base);
    }

    consumer_ctx cc = {sm_base, warp >> 2, warp & 3, lane, tid & 127, 0};
    /* a warpgroup's four warps move in lockstep (every wgmma is warpgroup-wide): one of them
     * records the per-stage sub-phases for all four */
    GS_SUB_ENABLE(gs, cc.wq == 0);
    for (int t = first; t < last; t++) {
        const nvfp4_tile tl = kp.tiles[t];
        GS_TILE(gs, t, tl.group); /* the twin stores the previous tile's records here */
        switch (tl.n_eff) {
/* widths past TILE_T, and with MMA_DEPTH 2 all but TILE_T / 2 and TILE_T, are never scheduled
 * (the schedule rounds to nvfp4_variant_n_step; problem.cu keys its cached schedules by it) */
#define NVFP4_N_CASE(N)                                                                                      \
    case N:                                                                                                  \
        if constexpr (N <= TILE_T && (MMA_DEPTH == 1 || N == TILE_T || 2 * N == TILE_T))                     \
            run_tile<(N <= TILE_T ? N : 32), STAGES, TILE_W, TILE_T, WARP_SPEC, TMA_STORE, MMA_DEPTH>(       \
                kp, tl, cc, cur, last, gs);                                                                  \
        break;
            NVFP4_N_CASE(32)
            NVFP4_N_CASE(64)
            NVFP4_N_CASE(96)
            NVFP4_N_CASE(128)
            NVFP4_N_CASE(160)
            NVFP4_N_CASE(192)
            NVFP4_N_CASE(224)
            NVFP4_N_CASE(256)
#undef NVFP4_N_CASE
        default:
            break; /* schedule.c never produces another width */
        }
    }
    if (TMA_STORE && (tid & 127) == 0)
        bulk_wait_read0(); /* the last store has read shared memory before the CTA exits */
    GS_CLOCK_DONE(gs);
    GS_FINISH(gs);
}

namespace {

/* The launch's copy of kp narrowed to G groups (kp->groups <= G, checked by the caller), made
 * from the same lists that declare it. */
#define COPY_ONE(dst, src, groups) (dst) = (src);
#define COPY_GROUPS(dst, src, groups) memcpy((dst), (src), (size_t)(groups) * sizeof((src)[0]));
#define COPY_GROUPS_END(dst, src, groups) memcpy((dst), (src), (size_t)((groups) + 1) * sizeof((src)[0]));
#define COPY_TP_FIELD(kind, type, name, G) COPY_##kind(d->tp.name, kp->tp.name, kp->tp.groups)
#define COPY_KP_ONE(name) COPY_ONE(d->name, kp->name, kp->groups)
#define COPY_KP_GROUPS(name) COPY_GROUPS(d->name, kp->name, kp->groups)
template <int G> void narrow(const nvfp4_kparams *kp, narrow_kparams<G> *d)
{
    memset(d, 0, sizeof *d);
    NVFP4_TPARAMS_LIST(COPY_TP_FIELD, G)
    NARROW_KPARAMS_LIST(COPY_KP_ONE, COPY_KP_GROUPS)
}
#undef COPY_ONE
#undef COPY_GROUPS
#undef COPY_GROUPS_END
#undef COPY_TP_FIELD
#undef COPY_KP_ONE
#undef COPY_KP_GROUPS

/* Launch one instantiated knob point with parameter block KP (nvfp4_kparams itself, or a
 * narrow_kparams built from it). */
template <int S, int TW, int TT, int WS, int P, int TS, int MD, int FT, class KP>
int launch_point(const nvfp4_kparams *kp, const KP &args, gs_buffer stamps, cudaStream_t s)
{
    using L = smem_plan<S, TW, TT, TS>;
    void (*kern)(const KP, const gs_buffer) = GS_SYM(nvfp4_gemm_kernel)<S, TW, TT, WS, P, TS, MD, FT, KP>;
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
    if (kp->grid <= 0 || kp->persistent != P || kp->groups > kp_groups<KP>())
        return (int)cudaErrorInvalidValue;
    /* fused tokens: the problem's set-up must be the point's (the kernel's static_asserts keep
     * FT 1 to producer-warpgroup persistent points); both forms need the counters, the _ft
     * points their table (tok_kblocks 0: this problem has none), the prologue a thread per
     * unit of a token block (token_block) */
    if (kp->fuse_tokens != FT || (FT != 0 && !kp->token_ready) || (FT == 1 && kp->tok_kblocks < 1) ||
        (FT == 2 && threads_of<TW, WS>() < NVFP4_TOKEN_UNITS))
        return (int)cudaErrorInvalidValue;
    /* programmatic dependent launch: CTAs start (barriers, register split) while the token
     * pre-pass finishes; the loading thread waits for it (griddep_wait).  With fused tokens
     * there is no pre-pass, and the launch keeps full stream order. */
    cudaLaunchAttribute attr;
    attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr.val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3((unsigned)kp->grid);
    cfg.blockDim = dim3((unsigned)threads_of<TW, WS>());
    cfg.dynamicSmemBytes = (size_t)L::dyn_bytes;
    cfg.stream = s;
    cfg.attrs = &attr;
    cfg.numAttrs = kp->pdl && !kp->fuse_tokens ? 1 : 0;
    /* cudaLaunchKernelEx reports this launch's own errors; cudaGetLastError here could
     * return an earlier call's, and the caller would undo a launch that was enqueued */
    return (int)cudaLaunchKernelEx(&cfg, kern, args, stamps);
}

/* A point with the narrow parameter block when the problem's groups fit in it. */
template <int S, int TW, int TT, int WS, int P, int TS, int MD, int FT>
int launch_point(const nvfp4_kparams *kp, gs_buffer stamps, cudaStream_t s)
{
    if (kp->groups > NARROW_GROUPS || kp->tp.groups > NARROW_GROUPS)
        return launch_point<S, TW, TT, WS, P, TS, MD, FT>(kp, *kp, stamps, s);
    narrow_kparams<NARROW_GROUPS> args;
    narrow(kp, &args);
    return launch_point<S, TW, TT, WS, P, TS, MD, FT>(kp, args, stamps, s);
}

} // namespace

/* The knob points instantiated in this build; variants.c names the same ones. */
extern "C" int GS_SYM(nvfp4_gemm_launch)(const nvfp4_variant *v, const nvfp4_kparams *kp, gs_buffer stamps,
                                          cudaStream_t s)
{
    if (!v || !kp || v->tile_w != kp->tile_w || v->tile_t != kp->tile_t)
        return (int)cudaErrorInvalidValue;
#if defined(GS_TWIN) && GS_TWIN
    if (!stamps.warps || !stamps.records || stamps.capacity == 0 ||
        stamps.warps_per_cta != (unsigned)nvfp4_variant_warps(v))
        return (int)cudaErrorInvalidValue;
#endif
#define NVFP4_POINT(NAME, DESC, S, TW, TT, WS, P, TS, SK, FT, MD)                                            \
    if (v->stages == S && v->tile_w == TW && v->tile_t == TT && v->warp_spec == WS && v->persistent == P &&   \
        v->tma_store == TS && v->split_k == SK && v->fused_tokens == FT && v->mma_depth == MD)               \
        return launch_point<S, TW, TT, WS, P, TS, MD, FT>(kp, stamps, s);
    NVFP4_POINTS(NVFP4_POINT)
#undef NVFP4_POINT
    return (int)cudaErrorNotSupported;
}
