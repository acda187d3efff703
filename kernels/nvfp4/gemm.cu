/* The NVFP4 grouped GEMM for Hopper (sm_90a): one knob space, compiled three times
 * (production; with -DGS_TWIN=1 the instrumented twin, with -DGS_TWIN=2 the detail twin;
 * GS_SYM gives every exported symbol a _prod / _twin / _detail suffix, everything else here
 * is internal).  This file instantiates the production points (points.h);
 * gemm_evidence.cu includes it with the evidence points.
 *
 * Mapping (swap-AB): weights B_g (N rows) are the wgmma M side, tokens A_g (M_g rows)
 * the wgmma N side, so the accumulator is D[w][t] = C[t][w].
 *
 * Data path: the token pre-pass (tokens.cu) writes every A_g as exact fp16 (value x scale)
 * with K permuted inside each block of 128 (nvfp4_kperm); this kernel is launched as its
 * programmatic dependent and waits for it before the first load.  Per stage of K = 128 the
 * producer brings, on one mbarrier: the raw FP4 weight rows of the tile (TMA), the two scale
 * atoms of their 128-row band (bulk copy) and two 64-wide slabs of fp16 tokens (TMA, 128B
 * swizzle).  Each consumer warpgroup owns 64 weight rows: every thread loads 16 bytes of each
 * of its two rows, dequantises them straight into the register fragments of eight k16 steps
 * (the permutation makes those bytes exactly what the fragments need) and issues eight
 * register-sourced wgmmas against the token slabs.
 *
 * Knobs: one config type Cfg per point (point_cfg below: the knobs of points.h, in its order),
 * the template parameter of everything that depends on them:
 *   STAGES     shared-memory ring depth (1 = load, then compute, strictly in turn)
 *   TILE_W     weight rows per CTA = 64 x consumer warpgroups (64 or 128)
 *   TILE_T     token rows per tile (wgmma N up to 256); each tile computes only
 *              n_eff = its valid rows rounded up to 32 (a switch picks the instruction;
 *              a gate-1 point's one-width kernel and the cluster pair's run every tile at
 *              TILE_T: one_width_of)
 *   WARP_SPEC  1: an extra producer warpgroup (one thread of it issues every load) hands
 *              its registers to the consumers (setmaxnreg 40 / 232), and (without PINGPONG)
 *              one lane of its third warp publishes split parts' partial sums
 *              (publish_parts); 0: consumer thread 0 issues the loads between its own stages
 *   PERSISTENT 1: one CTA per SM walks its share of the schedule (schedule.c)
 *   TMA_STORE  the epilogue's store: 0 straight from registers (store_simt), 1 through a
 *              swizzled shared staging of its own and a TMA store (store_tma_own), 2 the same
 *              staged in the token slabs of the unit's last ring slot (store_tma_ring)
 *   SPLIT_K    lives in the schedule, whose units carry a K range and a part number; every
 *              persistent kernel runs either form, so points that differ in it alone share
 *              one kernel (kernel_cfg).  NVFP4_SPLIT_PAIR (3; GATE 1, 256-token tiles,
 *              X_IN_RING) is a kernel of its own: clusters of two CTAs, each running half of a
 *              tile's K blocks, exchanging partial sums through each other's shared memory
 *              (load_tokens, store_pair_gate)
 *   GATE       0 the grouped GEMM.  The gated dual GEMM C = silu(A B1^T) * (A B2^T) (one group;
 *              B2 is entry g + 1 of the parameters) is this GEMM with two weight matrices whose
 *              output columns pair up: a stage brings B1's and B2's rows of the tile's columns
 *              beside one token tile that both use, and the epilogue forms silu(acc1) * acc2 in
 *              fp32 before the fp16 conversion and the stores.  1: a B1 and a B2 warpgroup per 64
 *              columns (TILE_W 64); the B2 warpgroup hands its fp32 accumulators to the B1 one
 *              through shared memory (an exchange buffer and its two mbarriers) and moves on to
 *              its next unit; where that buffer does not fit (three 256-token stages), the two
 *              exchange halves in the unit's last ring slot and each gates and stages its half
 *              (store_split_gate).  2: each warpgroup holds both accumulators of its 64 columns
 *              (TILE_T <= 128 for registers), B2's fragments dequantised while B1's wgmmas run.
 *              Every GATE 0 path compiles as it did before the knob (the knob's code is under
 *              `if constexpr`).
 *   PINGPONG   1 (GATE 2, TILE_W 64, producer warpgroup, persistent): two consumer warpgroups,
 *              each running whole units, the CTA's units in turn; a warpgroup starts a unit's
 *              main loop once the other has ended the previous unit's (a turn mbarrier each), so
 *              one's epilogue and store run beside the other's main loop (seed 002's ping-pong).
 *              Each counts the other's stages too (cc.j): the ring is one sequence.
 *
 * Stamps: the twin records the loading warp's PROLOGUE (from the CTA's set-up to the
 * pre-pass kernel's completion, when its first token slabs may be loaded), and MAINLOOP,
 * ACC_TO_REG, EPILOGUE and STORE per tile (with TMA_STORE 2 the EPILOGUE includes the
 * barrier of the storing warpgroups, and the STORE includes thread 0's wait for the store's
 * read of the slot: in warp 0's record where two warpgroups store, in every warp's where one
 * does or where gate 1's two share one store (store_split_gate), as they meet after it); the
 * detail twin (GS_TWIN=2) also LOAD_WAIT, DEQUANT and MMA per stage (first warp of each consumer warpgroup), which cost it up to 34%
 * on the H100 (samples/variants.tsv, detail/x): the main loop is issue-bound on the
 * dequantisation, and every stamp is instructions.  With a producer warpgroup, its second
 * warp runs the twins' clock sampler (gs_stamp.cuh): a (%globaltimer, clock64) pair every
 * 1 us.  The publisher's record closes before it publishes: a CTA whose last unit is a
 * non-owning part ends in the stamps before its last release (off the consumers' path, the
 * release made d256n3072k4096 3.2% faster: samples/studies/partials-publisher.tsv).
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
#include <stdio.h>
#include <string.h>
#include <type_traits>

#include "../../instrument/gs_stamp.cuh"
#include "nvfp4_internal.h"
#include "points.h"
#include "dequant.cuh"
#include "ptx.cuh"

/* The points this translation unit instantiates (the grouped GEMM's and the dual GEMM's), and
 * the name of its launcher. */
#ifndef NVFP4_POINT_LIST
#define NVFP4_POINT_LIST NVFP4_PRODUCTION_POINTS
#define NVFP4_DUAL_POINT_LIST NVFP4_DUAL_PRODUCTION_POINTS
#define NVFP4_LAUNCHER GS_SYM(nvfp4_gemm_launch)
#endif

namespace {

constexpr int BK = NVFP4_BK;

/* A knob point (points.h) as the kernel's compile-time configuration; FW: the point's one-width
 * kernel (full_width_kernel_of). */
template <int S, int TW, int TT, int WS, int P, int TS, int SK, int GT = 0, int PP = 0, int FW = 0> struct point_cfg {
    static constexpr int STAGES = S, TILE_W = TW, TILE_T = TT, WARP_SPEC = WS, PERSISTENT = P, TMA_STORE = TS,
                         SPLIT_K = SK, GATE = GT, PINGPONG = PP, FULL_WIDTH = FW;
};
/* The kernel that runs point Cfg: the one of its knobs with SPLIT_K 0 (see above), except the
 * cluster pair's split (NVFP4_SPLIT_PAIR), a kernel of its own. */
template <class Cfg>
using kernel_cfg = point_cfg<Cfg::STAGES, Cfg::TILE_W, Cfg::TILE_T, Cfg::WARP_SPEC, Cfg::PERSISTENT, Cfg::TMA_STORE,
                             Cfg::SPLIT_K == NVFP4_SPLIT_PAIR ? NVFP4_SPLIT_PAIR : 0, Cfg::GATE, Cfg::PINGPONG,
                             Cfg::FULL_WIDTH>;
/* Point Cfg runs on clusters of two CTAs that split each tile's K blocks (schedule.h). */
template <class Cfg> __host__ __device__ constexpr bool pair_of()
{
    return Cfg::SPLIT_K == NVFP4_SPLIT_PAIR;
}
/* Every tile of Cfg's kernel runs at the wgmma width TILE_T: one width path instead of the
 * switch over n_eff, whose paths for the widths a launch never runs made the gate-1 dual points
 * 3-6% slower (docs/notebook/2026-12-02-one-width.md).  The cluster pair's kernel always; a gate-1
 * point's second kernel (FULL_WIDTH), which the launcher runs when every unit is at full height
 * (kp.full_width).  Not for the other gates: the grouped shapes' tiles vary in height, and the
 * gate-2 128-column point spills in that form. */
template <class Cfg> __host__ __device__ constexpr bool one_width_of()
{
    return pair_of<Cfg>() || Cfg::FULL_WIDTH;
}
/* The points that have a one-width kernel: the same rule as the host's nvfp4_variant_full_width
 * (variants.c), which says when a launch runs it. */
template <class Cfg> __host__ __device__ constexpr bool full_width_kernel_of()
{
    return Cfg::GATE == 1 && !pair_of<Cfg>() && !Cfg::FULL_WIDTH;
}
template <class Cfg>
using full_width_cfg = point_cfg<Cfg::STAGES, Cfg::TILE_W, Cfg::TILE_T, Cfg::WARP_SPEC, Cfg::PERSISTENT,
                                 Cfg::TMA_STORE, Cfg::SPLIT_K, Cfg::GATE, Cfg::PINGPONG, 1>;

/* Consumer warpgroups of a CTA (64 weight rows each: TILE_W / 64, GATE 1 a B1 and a B2 one,
 * PINGPONG two that take the CTA's units in turn), the warpgroups that share one unit (PINGPONG:
 * one), and the accumulator sets each holds (GATE 2: B1's and B2's). */
template <class Cfg> __host__ __device__ constexpr int consumers_of()
{
    return Cfg::PINGPONG || Cfg::GATE == 1 ? 2 : Cfg::TILE_W / 64;
}
template <class Cfg> __host__ __device__ constexpr int unit_warpgroups_of()
{
    return Cfg::PINGPONG ? 1 : consumers_of<Cfg>();
}
template <class Cfg> __host__ __device__ constexpr int acc_sets_of()
{
    return Cfg::GATE == 2 ? 2 : 1;
}

/* The kernel's parameter block.  A launch copies the whole block, and its time grows with
 * the size: an empty launch took 4.2 us with 64 bytes, 4.26 with 1920 and 4.50 with 7552
 * (samples/studies/narrow-params.tsv).  nvfp4_kparams, whose arrays hold NVFP4_MAX_GROUPS groups, is
 * several KB (CUtensorMap is 128 bytes).  Problems of at most NARROW_GROUPS groups (the g2
 * benchmarks, every test) get a copy narrowed to that many, laid out in the order a CTA
 * first reads it: the schedule, then the per-group fields, the tensor maps last. */
constexpr int NARROW_GROUPS = 4;

/* The fields of nvfp4_kparams the kernel reads, in that order: ONE(name) a single value,
 * GROUPS(name) an array of one entry per group.  This one list declares the narrow block
 * (types taken from nvfp4_kparams) and makes its copy (narrow), so a field can be neither
 * missing from the block (the kernel would not compile) nor left uncopied. */
#define NARROW_KPARAMS_LIST(ONE, GROUPS)                                                                      \
    ONE(cta_first) ONE(tiles) GROUPS(m) GROUPS(n) GROUPS(k) GROUPS(t_box) GROUPS(sfW) GROUPS(C) ONE(partials) \
    ONE(flags) GROUPS(tmW) GROUPS(tmT) GROUPS(tmC)
#define NARROW_ONE(name) decltype(nvfp4_kparams::name) name;
#define NARROW_GROUPS(name) std::remove_extent_t<decltype(nvfp4_kparams::name)> name[G];

template <int G> struct narrow_kparams { /* the fields of nvfp4_kparams the kernel reads, for G groups */
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
/* Named barriers: 0 the CTA, 1 + cw one consumer warpgroup, CONSUMERS_BAR both consumer
 * warpgroups (store_tma_ring, store_split_gate). */
constexpr int CONSUMERS_BAR = 4;

/* Shared memory: STAGES x {token slabs | raw weights | scale atoms}, then the TMA-store
 * staging (TMA_STORE 1: one [TILE_T][64] fp16 swizzled slab per 64 output columns; with 2
 * the same slabs lie in a ring slot's token slabs, which hold TILE_T x 256 bytes), then (GATE
 * 1, where it fits) the exchange buffer, then barriers.  The dual GEMM's stage holds B1's rows and atoms,
 * then B2's. */
template <class Cfg> struct smem_plan {
    static constexpr int T_SLAB = Cfg::TILE_T * 128; /* 64 fp16 of K per token row */
    static constexpr int o_t = 0;
    static constexpr int o_w = 2 * T_SLAB;           /* raw weights: TILE_W rows of 64 B (per matrix) */
    static constexpr int W_MAT = Cfg::TILE_W * (BK / 2);
    static constexpr int W_BYTES = (Cfg::GATE ? 2 : 1) * W_MAT;
    static constexpr int o_sf = o_w + W_BYTES;       /* 2 atoms x 512 B of the 128-row band (per matrix) */
    static constexpr int SF_ATOMS = 2 * 512;
    static constexpr int SF_BYTES = (Cfg::GATE ? 2 : 1) * SF_ATOMS;
    static constexpr int STAGE = o_sf + SF_BYTES;
    static constexpr int o_c = Cfg::STAGES * STAGE;
    static constexpr int C_SLABS = (Cfg::TILE_W / 64) * Cfg::TILE_T * 128; /* the staging of one tile */
    /* PINGPONG: each warpgroup stages its own unit */
    static constexpr int C_BYTES = Cfg::TMA_STORE == 1 ? (Cfg::PINGPONG ? 2 : 1) * C_SLABS : 0;
    /* GATE 1: the B2 warpgroup's fp32 accumulators, float4 [TILE_T / 8][128 threads], in a buffer
     * of their own where it fits beside the ring; else (X_IN_RING: three 256-token stages) the two
     * warpgroups exchange halves in the token slabs of the unit's last ring slot, which both hold
     * (store_split_gate) */
    static constexpr int o_x = o_c + C_BYTES;
    static constexpr int X_OWN = 64 * Cfg::TILE_T * 4;
    /* full[STAGES], empty[STAGES]; GATE 1: x_full, x_empty (X_IN_RING: the cluster pair's
     * pair_go and pair_full, else unused); PINGPONG:
     * turn[2]; PUBLISHER: per unit warpgroup, a count of the partial sums its threads have
     * stored (publish_parts) */
    static constexpr bool PUBLISHER = Cfg::WARP_SPEC && !Cfg::PINGPONG && !pair_of<Cfg>();
    static constexpr int MBAR_BYTES = 16 * Cfg::STAGES + (Cfg::GATE == 1 || Cfg::PINGPONG ? 16 : 0);
    static constexpr int BAR_BYTES = MBAR_BYTES + (PUBLISHER ? 8 * consumers_of<Cfg>() : 0);
    static constexpr int ALIGN_SLACK = 1024; /* to align the base to 1024 */
    static constexpr bool X_IN_RING = Cfg::GATE == 1 && o_x + X_OWN + BAR_BYTES + ALIGN_SLACK > SMEM_LIMIT;
    static constexpr int X_BYTES = Cfg::GATE == 1 && !X_IN_RING ? X_OWN : 0;
    static constexpr int o_bar = o_x + X_BYTES;
    static constexpr int bytes = o_bar + BAR_BYTES;
    static constexpr int dyn_bytes = bytes + ALIGN_SLACK;
    /* the mbarriers of ring slot `slot`: full (the producer's arrival + bytes) and empty (the
     * consumers' releases) */
    static __device__ __forceinline__ uint32_t full_bar(uint32_t base, uint32_t slot) { return base + o_bar + 8 * slot; }
    static __device__ __forceinline__ uint32_t empty_bar(uint32_t base, uint32_t slot)
    {
        return base + o_bar + 8 * (Cfg::STAGES + slot);
    }
    /* GATE 1's exchange: full (the B2 warpgroup's 128 threads have written it), empty (the B1
     * warpgroup's 128 threads have read it) */
    static __device__ __forceinline__ uint32_t x_full_bar(uint32_t base) { return base + o_bar + 16 * Cfg::STAGES; }
    static __device__ __forceinline__ uint32_t x_empty_bar(uint32_t base)
    {
        return base + o_bar + 16 * Cfg::STAGES + 8;
    }
    /* the cluster pair (in GATE 1's exchange slots, which X_IN_RING leaves unused): go (the other
     * CTA's thread 0 arrives once both its warpgroups are done with the unit's last slot: this
     * CTA may write its partial sums there), full (each of the other CTA's 256 consumer threads
     * arrives once it has written its partial sums into this CTA's last slot) */
    static __device__ __forceinline__ uint32_t pair_go_bar(uint32_t base) { return x_full_bar(base); }
    static __device__ __forceinline__ uint32_t pair_full_bar(uint32_t base) { return x_empty_bar(base); }
    /* PINGPONG: warpgroup cw's main loops done (each of its 128 threads arrives after one) */
    static __device__ __forceinline__ uint32_t turn_bar(uint32_t base, int cw)
    {
        return base + o_bar + 16 * Cfg::STAGES + 8 * (uint32_t)cw;
    }
    /* PUBLISHER: unit warpgroup uw's partial sums stored so far */
    static __device__ __forceinline__ uint32_t pub_count(uint32_t base, int uw)
    {
        return base + o_bar + MBAR_BYTES + 8 * (uint32_t)uw;
    }
    static_assert(STAGE % 1024 == 0 && T_SLAB % 1024 == 0, "swizzled slabs must stay 1024-byte aligned");
    static_assert(Cfg::TMA_STORE != 2 || C_SLABS <= 2 * T_SLAB, "nvfp4 gemm: the ring-staged store needs a slot's "
                                                                 "token slabs");
    static_assert(!X_IN_RING || (Cfg::WARP_SPEC && Cfg::STAGES >= 2 && Cfg::TMA_STORE == 2),
                  "nvfp4 gemm: the exchange in a ring slot needs a producer warpgroup (a consumer issuing loads "
                  "would wait for the slot it holds), 2+ stages and the ring-staged store (store_split_gate)");
    static_assert(dyn_bytes <= SMEM_LIMIT, "nvfp4 gemm: this (stages, tile, tma_store) point does not fit in "
                                           "227 KB of shared memory");
    static_assert(!pair_of<Cfg>() || (Cfg::GATE == 1 && X_IN_RING && Cfg::TILE_T == 256),
                  "nvfp4 gemm: the cluster pair's split K runs the 256-token B1/B2 pair whose last ring slot "
                  "carries the exchange (store_pair_gate)");
};

/* The weights enter the wgmmas as v s 2^-14 (dequant_nibbles_x2m14: one multiply per pair
 * instead of two), so every accumulator holds 2^-14 x its sum; x 2^14 in fp32 is exact. */
constexpr float ACC_UNSCALE = 16384.0f;

/* The dual GEMM's output from the accumulators g and u of its two GEMMs, in their scale:
 * silu(G) * U with G = 2^14 g, U = 2^14 u, in fp32; fp16 conversion (pack_half2 with
 * out_scale 1) leaves the one rounding.  silu(G) U = g u 2^28 / (1 + 2^(-G log2 e)), written
 * as (g u) / (2^-28 (1 + e)): every power of two folded into a multiply that is there anyway,
 * six instructions per output (this straight-line code runs once per tile and is fetched
 * cold: its length is its cost).  For G far below zero e overflows and the output is 0 (silu
 * is below 2^-120 there). */
__device__ __forceinline__ float gate_value(float g, float u)
{
    constexpr float NEG_LOG2E_2P14 = -1.4426950408889634f * ACC_UNSCALE, P2M28 = 1.0f / (ACC_UNSCALE * ACC_UNSCALE);
    float e, r;
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(e) : "f"(g * NEG_LOG2E_2P14));
    asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(fmaf(e, P2M28, P2M28)));
    return (g * u) * r;
}

/* What multiplies the values pack_half2 converts: the accumulators' 2^14, or 1 where the
 * dual GEMM's gate_value has already applied it. */
template <class Cfg> __host__ __device__ constexpr float out_scale()
{
    return Cfg::GATE ? 1.0f : ACC_UNSCALE;
}

/* Two output values times scale -> their fp16x2. */
__device__ __forceinline__ uint32_t pack_half2(float lo, float hi, float scale)
{
    __half2 h = __floats2half2_rn(scale * lo, scale * hi); /* round to nearest even, like torch's .half() */
    return *reinterpret_cast<uint32_t *>(&h);
}

/* Where the next load goes: the flattened (tile, K block) stream of this CTA. */
struct load_cursor {
    int t, kb;  /* schedule index, K block within that unit's range */
    uint32_t j; /* stages issued so far (ring position and parity) */
};

/* The cluster pair (NVFP4_SPLIT_PAIR): the halves of tile tl's token rows that load_tokens
 * loads, those that start below the group's M (1 or 2). */
template <class Cfg, class KP> __device__ __forceinline__ int pair_halves(const KP &kp, const nvfp4_tile &tl)
{
    return 1 + (tl.ttile * Cfg::TILE_T + Cfg::TILE_T / 2 < kp.m[tl.group]);
}

/* The loads of the cursor's stage into its ring slot, in two parts: the raw weights and their
 * scales, with the slot's whole transaction count, then the token slabs.  One thread. */
template <class Cfg, class KP>
__device__ __forceinline__ void load_weights(const KP &kp, const nvfp4_tile &tl, const load_cursor &cur,
                                             uint32_t sm_base)
{
    using L = smem_plan<Cfg>;
    const int g = tl.group;
    const uint32_t slot = cur.j % Cfg::STAGES, full = L::full_bar(sm_base, slot), st = sm_base + slot * L::STAGE;
    const int w0 = tl.wtile * Cfg::TILE_W, kb = tl.kb0 + cur.kb;
    /* the token slabs' bytes: two boxes of t_box tokens (the cluster pair: two per half it loads) */
    const int boxes = pair_of<Cfg>() ? 2 * pair_halves<Cfg>(kp, tl) : 2;
    mbar_arrive_expect_tx(full, (uint32_t)(L::W_BYTES + L::SF_BYTES + boxes * 128 * kp.t_box[g]));
    tma_load_2d(st + L::o_w, &kp.tmW[g], full, kb * (BK / 2), w0);
    const size_t band_bytes = (size_t)(kp.k[g] / 64) * 512u;
    bulk_load(st + L::o_sf, kp.sfW[g] + (size_t)(w0 / 128) * band_bytes + (size_t)kb * L::SF_ATOMS, L::SF_ATOMS,
              full);
    if constexpr (Cfg::GATE != 0) { /* B2's rows of the same output columns, on the same barrier */
        tma_load_2d(st + L::o_w + L::W_MAT, &kp.tmW[g + 1], full, kb * (BK / 2), w0);
        bulk_load(st + L::o_sf + L::SF_ATOMS, kp.sfW[g + 1] + (size_t)(w0 / 128) * band_bytes + (size_t)kb * L::SF_ATOMS,
                  L::SF_ATOMS, full);
    }
}

template <class Cfg, class KP>
__device__ __forceinline__ void load_tokens(const KP &kp, const nvfp4_tile &tl, const load_cursor &cur,
                                            uint32_t sm_base)
{
    using L = smem_plan<Cfg>;
    const int g = tl.group;
    const uint32_t slot = cur.j % Cfg::STAGES, full = L::full_bar(sm_base, slot), st = sm_base + slot * L::STAGE;
    const int t0 = tl.ttile * Cfg::TILE_T, kb = tl.kb0 + cur.kb;
    if constexpr (pair_of<Cfg>()) {
        /* the cluster pair: the token map's box is half a tile, and CTA r lays its own half of
         * the tokens (r) first, so that its accumulators [0, TILE_T / 4) hold them
         * (store_pair_gate); the 128-byte swizzle repeats every 8 rows, so each half keeps it.
         * A half that starts at or past M is not loaded (its rows' columns are never stored). */
        constexpr int HALF = Cfg::TILE_T / 2;
        const int halves = pair_halves<Cfg>(kp, tl);
#pragma unroll
        for (int h = 0; h < 2; h++) {
            if (h == halves)
                break;
            const uint32_t row = (uint32_t)((h ^ tl.part) * HALF) * 128u;
            tma_load_2d(st + L::o_t + row, &kp.tmT[g], full, kb * BK, t0 + h * HALF);
            tma_load_2d(st + L::o_t + L::T_SLAB + row, &kp.tmT[g], full, kb * BK + 64, t0 + h * HALF);
        }
        return;
    }
    tma_load_2d(st + L::o_t, &kp.tmT[g], full, kb * BK, t0);
    tma_load_2d(st + L::o_t + L::T_SLAB, &kp.tmT[g], full, kb * BK + 64, t0);
}

/* Issues the loads of the cursor's stage (after the slot's previous use was released) and
 * advances the cursor.  One thread. */
template <class Cfg, class KP>
__device__ __forceinline__ void load_stage(const KP &kp, load_cursor &cur, uint32_t sm_base)
{
    const nvfp4_tile tl = kp.tiles[cur.t];
    const uint32_t use = cur.j / Cfg::STAGES;
    if (use > 0)
        mbar_wait(smem_plan<Cfg>::empty_bar(sm_base, cur.j % Cfg::STAGES), (use - 1) & 1);
    load_weights<Cfg>(kp, tl, cur, sm_base);
    load_tokens<Cfg>(kp, tl, cur, sm_base);
    cur.j++;
    if (++cur.kb == tl.kb1 - tl.kb0) {
        cur.kb = 0;
        cur.t++;
    }
}

/* What a consumer thread needs to know about itself and the CTA. */
struct consumer_ctx {
    uint32_t sm_base;
    int cw, wq, lane, tid_wg; /* consumer warpgroup, warp in it, lane, thread in it */
    uint32_t j;               /* stages consumed so far, the CTA's (PINGPONG: both warpgroups') */
    uint32_t xs;              /* GATE 1: exchanges so far (the exchange barriers' phases) */
    int uw;                   /* the warpgroup among those that share a unit (PINGPONG: 0, else cw) */
    int last_unit;            /* the unit run now is the CTA's last: no load will refill the ring */
};

/* Where a consumer thread's two weight rows (row, row + 8) of one matrix lie in a stage: `row`
 * among its raw weight rows, `band_row` in the 128-row band of its scale atoms, `sf` the
 * offset of those atoms (the dual GEMM's B2 has its own rows and atoms). */
struct wrow {
    int row, band_row;
    uint32_t sf;
};

/* This thread's rows of matrix b (GATE 2: 0 = B1, 1 = B2) in the tile at weight row w0.
 * GATE 0: row 64 cw + ... of the tile.  GATE 1: the same rows, the B2 warpgroup's (rows
 * 64..127 of the stage) with B2's atoms.  GATE 2: B2's rows TILE_W further on. */
template <class Cfg> __device__ __forceinline__ wrow weight_rows(const consumer_ctx &cc, int w0, int b)
{
    const int row = 64 * cc.uw + 16 * cc.wq + (cc.lane >> 2);
    if constexpr (Cfg::GATE == 1)
        return {row, (w0 & 127) + (row & 63), (uint32_t)cc.cw * (uint32_t)smem_plan<Cfg>::SF_ATOMS};
    else if constexpr (Cfg::GATE == 2)
        return {row + b * Cfg::TILE_W, (w0 & 127) + row, (uint32_t)b * (uint32_t)smem_plan<Cfg>::SF_ATOMS};
    else
        return {row, (w0 & 127) + row, 0u}; /* run_tile builds this one itself (the same code as before the knob) */
}

/* Dequantises the rows w of the stage at st (already landed) into the fragments a (BEGUN: the
 * caller began the DEQUANT sub-phase). */
template <class Cfg, bool BEGUN = false>
__device__ __forceinline__ void dequant_rows(uint32_t (&a)[8][4], const consumer_ctx &cc, uint32_t st, const wrow &w,
                                             gs_ctx &gs)
{
    using L = smem_plan<Cfg>;
    if constexpr (!BEGUN)
        GS_SUB_BEGIN(gs, NVFP4_DEQUANT);
    dequant_weight_stage(a, st + L::o_w, st + L::o_sf + w.sf, w.row, w.band_row, cc.lane & 3);
    GS_SUB_END(gs, NVFP4_DEQUANT);
}

/* Waits for stage j's data and dequantises its weights into the fragments a. */
template <class Cfg>
__device__ __forceinline__ void fetch_stage(uint32_t (&a)[8][4], const consumer_ctx &cc, uint32_t j, const wrow &w,
                                            gs_ctx &gs)
{
    using L = smem_plan<Cfg>;
    const uint32_t slot = j % Cfg::STAGES;
    const uint32_t st = cc.sm_base + slot * L::STAGE;
    GS_SUB_BEGIN(gs, NVFP4_LOAD_WAIT);
    mbar_wait(L::full_bar(cc.sm_base, slot), (j / Cfg::STAGES) & 1);
    /* the detail twin: DEQUANT begins at LOAD_WAIT's end clock (a clock read fewer per stage) */
    GS_SUB_END_BEGIN(gs, NVFP4_LOAD_WAIT, NVFP4_DEQUANT);
    dequant_rows<Cfg, true>(a, cc, st, w, gs);
}

/* The eight wgmmas of a stage whose token slabs start at tok, one commit group. */
template <int N, class Cfg>
__device__ __forceinline__ void issue_stage(float (&acc)[N / 2], const uint32_t (&a)[8][4], uint32_t tok)
{
    wgmma_fence();
#pragma unroll
    for (int s = 0; s < 8; s++)
        wgmma_rs_step<N>(acc, a[s], tok, smem_plan<Cfg>::T_SLAB, s);
    wgmma_commit();
}

/* This thread is done with stage j's slot.  Every consumer thread releases the slot itself:
 * an arrival orders only its own thread's reads of the slot before the producer's next bulk
 * copy into it (one lane arriving for its warp after __syncwarp left the other lanes' scale
 * reads unordered for compute-sanitizer's racecheck). */
template <class Cfg> __device__ __forceinline__ void release_slot(const consumer_ctx &cc, uint32_t j)
{
    mbar_arrive(smem_plan<Cfg>::empty_bar(cc.sm_base, j % Cfg::STAGES));
}

/* The end of stage cc.j, after its wgmmas: without a producer warpgroup, consumer thread 0
 * issues the next load into the ring; with one stage, the next stage is fetched into `next` only
 * now that the slot it lands in is free; then on to the next stage. */
template <class Cfg, class KP>
__device__ __forceinline__ void end_stage(uint32_t (&next)[8][4], bool has_next, const KP &kp, consumer_ctx &cc,
                                          load_cursor &cur, int last, const wrow &w, gs_ctx &gs)
{
    if (!Cfg::WARP_SPEC && cc.cw == 0 && cc.tid_wg == 0 && cur.t < last)
        load_stage<Cfg>(kp, cur, cc.sm_base);
    if (Cfg::STAGES == 1 && has_next)
        fetch_stage<Cfg>(next, cc, cc.j + 1, w, gs);
    cc.j++;
}

/* The main loop's body, stage cc.j: issue its eight wgmmas from the fragments a; with two or
 * more stages, fetch the next stage into `next` while they run; wait for them and release the
 * slot (TMA_STORE 2: not the unit's last, whose token slabs stage the store: store_tma_ring;
 * GATE 1's B2 warpgroup stages nothing and releases it too; X_IN_RING: neither warpgroup
 * releases the unit's last, whose token slabs carry the exchange).
 * With one stage the slot must be released before the next stage can even be loaded into it. */
template <int N, class Cfg, class KP>
__device__ __forceinline__ void mma_stage(float (&acc)[N / 2], const uint32_t (&a)[8][4], uint32_t (&next)[8][4],
                                          bool has_next, const KP &kp, consumer_ctx &cc, load_cursor &cur, int last,
                                          const wrow &w, gs_ctx &gs)
{
    using L = smem_plan<Cfg>;
    /* the stage's addresses before the stamp (the detail twin's MMA sub-phase times the wgmmas) */
    const uint32_t slot = cc.j % Cfg::STAGES, tok = cc.sm_base + slot * L::STAGE + L::o_t,
                   empty = L::empty_bar(cc.sm_base, slot);
    GS_SUB_BEGIN(gs, NVFP4_MMA);
    issue_stage<N, Cfg>(acc, a, tok);
    if (Cfg::STAGES > 1 && has_next)
        fetch_stage<Cfg>(next, cc, cc.j + 1, w, gs);
    wgmma_wait<0>();
    fence_regs(acc);
    if (has_next || (!L::X_IN_RING && (Cfg::TMA_STORE != 2 || (Cfg::GATE == 1 && cc.cw == 1))))
        mbar_arrive(empty); /* release_slot(cc, cc.j) */
    GS_SUB_END(gs, NVFP4_MMA);
    end_stage<Cfg>(next, has_next, kp, cc, cur, last, w, gs);
}

/* GATE 2's main-loop body, stage cc.j: B1's eight wgmmas into acc from the fragments a; B2's
 * fragments dequantised into b while they run; B2's eight into acc2 from b; with two or more
 * stages, once B1's are done (wait_group 1) the next stage's B1 fragments are fetched into a
 * while B2's run; both waited for before the slot is released (as mma_stage).  One MMA
 * sub-phase spans both sets, issue to retire; DEQUANT is stamped for each matrix. */
template <int N, class Cfg, class KP>
__device__ __forceinline__ void mma_stage_dual(float (&acc)[N / 2], float (&acc2)[N / 2], uint32_t (&a)[8][4],
                                               uint32_t (&b)[8][4], bool has_next, const KP &kp, consumer_ctx &cc,
                                               load_cursor &cur, int last, const wrow &w1, const wrow &w2, gs_ctx &gs)
{
    using L = smem_plan<Cfg>;
    const uint32_t slot = cc.j % Cfg::STAGES, st = cc.sm_base + slot * L::STAGE, tok = st + L::o_t,
                   empty = L::empty_bar(cc.sm_base, slot);
    GS_SUB_BEGIN(gs, NVFP4_MMA);
    issue_stage<N, Cfg>(acc, a, tok);
    dequant_rows<Cfg>(b, cc, st, w2, gs);
    issue_stage<N, Cfg>(acc2, b, tok);
    if (Cfg::STAGES > 1 && has_next) {
        wgmma_wait<1>(); /* B1's wgmmas have read a */
        fetch_stage<Cfg>(a, cc, cc.j + 1, w1, gs);
    }
    wgmma_wait<0>();
    fence_regs(acc);
    fence_regs(acc2);
    if (Cfg::TMA_STORE != 2 || has_next)
        mbar_arrive(empty); /* release_slot(cc, cc.j) */
    GS_SUB_END(gs, NVFP4_MMA);
    end_stage<Cfg>(a, has_next, kp, cc, cur, last, w1, gs);
}

/* Split K.  A warpgroup's share of a partial buffer holds its threads' accumulators as
 * float4 [N / 8][128 threads] (GATE 2: B1's set, then B2's, 64 x TILE_T floats apart): both
 * sides address it with the fragment layout, so every access is a coalesced 16-byte one and
 * no shuffle is needed. */
template <class Cfg> __host__ __device__ constexpr int part_floats()
{
    return unit_warpgroups_of<Cfg>() * acc_sets_of<Cfg>() * 64 * Cfg::TILE_T;
}
template <class Cfg, class KP>
__device__ __forceinline__ float *partial_base(const KP &kp, uint32_t buf, int cw, int tid_wg)
{
    return kp.partials + (size_t)buf * (size_t)part_floats<Cfg>() +
           (size_t)cw * (size_t)(acc_sets_of<Cfg>() * 64 * Cfg::TILE_T) + (size_t)tid_wg * 4u;
}

/* The flag on which split tile tl's parts publish unit warpgroup uw's partial sums. */
template <class Cfg, class KP> __device__ __forceinline__ int *part_flag(const KP &kp, const nvfp4_tile &tl, int uw)
{
    return kp.flags + (size_t)tl.slot * unit_warpgroups_of<Cfg>() + uw;
}

/* A non-owning part: store the partial sum (GATE 2: both); after the warpgroup's barrier one
 * thread publishes it on the tile's flag with release semantics, or (PUBLISHER) counts it for
 * the publisher, which does: the release waits until the stores have reached L2, and the
 * warpgroup goes on to its next unit meanwhile. */
template <int N, class Cfg, class KP>
__device__ __forceinline__ void store_partial(const float (&acc)[N / 2], const float (&acc2)[N / 2], const KP &kp,
                                              const nvfp4_tile &tl, const consumer_ctx &cc)
{
    float *const b = partial_base<Cfg>(kp, tl.pbuf, cc.uw, cc.tid_wg);
#pragma unroll
    for (int i = 0; i < N / 8; i++)
        st_cg_f4(b + (size_t)i * 512u, acc[4 * i], acc[4 * i + 1], acc[4 * i + 2], acc[4 * i + 3]);
    if constexpr (Cfg::GATE == 2) {
#pragma unroll
        for (int i = 0; i < N / 8; i++)
            st_cg_f4(b + (size_t)(64 * Cfg::TILE_T) + (size_t)i * 512u, acc2[4 * i], acc2[4 * i + 1], acc2[4 * i + 2],
                     acc2[4 * i + 3]);
    }
    named_barrier(1 + cc.cw, 128);
    if (cc.tid_wg == 0) {
        /* the barrier orders the warpgroup's stores before this thread's release; the
         * publisher's acquire of the count, then its own release, carry them to GPU scope */
        if constexpr (smem_plan<Cfg>::PUBLISHER)
            red_release_cta_shared_add(smem_plan<Cfg>::pub_count(cc.sm_base, cc.uw), 1);
        else
            red_release_gpu_add(part_flag<Cfg>(kp, tl, cc.uw), 1);
    }
}

/* PUBLISHER: one lane of a spare producer warp walks the CTA's units as the consumers do; for
 * each part that does not own its tile it waits until each unit warpgroup has counted its
 * partial sums (a count, not an mbarrier: the consumers may run any number of hand-offs ahead
 * and never wait for it) and publishes them on the tile's flag for that warpgroup.  Waiting
 * for the warpgroups in order cannot deadlock because schedule.c places every non-owning part
 * before any owning one on its CTA: no count waits behind an owner's wait for another CTA. */
template <class Cfg, class KP>
__device__ __forceinline__ void publish_parts(const KP &kp, int first, int last, uint32_t sm_base)
{
    uint32_t n = 0;
    for (int t = first; t < last; t++) {
        const nvfp4_tile tl = kp.tiles[t];
        if (tl.parts > 1 && tl.part != 0) {
            n++;
            for (int uw = 0; uw < unit_warpgroups_of<Cfg>(); uw++) {
                while (ld_acquire_cta_shared(smem_plan<Cfg>::pub_count(sm_base, uw)) < n) {
                }
                red_release_gpu_add(part_flag<Cfg>(kp, tl, uw), 1);
            }
        }
    }
}

/* acc[4k .. 4k + 3] += the float4 at addr + 2048 k, k < COUNT: a thread's share of a float4
 * [COUNT][128 threads] block in shared memory (partial sums a ring slot holds). */
template <int COUNT> __device__ __forceinline__ void add_smem_f4(float *acc, uint32_t addr)
{
#pragma unroll
    for (int k = 0; k < COUNT; k++) {
        const uint4 w = lds128(addr + (uint32_t)k * 2048u);
        acc[4 * k] += __uint_as_float(w.x);
        acc[4 * k + 1] += __uint_as_float(w.y);
        acc[4 * k + 2] += __uint_as_float(w.z);
        acc[4 * k + 3] += __uint_as_float(w.w);
    }
}

/* On the CTA's last unit, whose free ring slots no load will refill, each thread of unit
 * warpgroup uw of the B1/B2 pair at 256-token tiles copies its share of a two-part tile's other
 * part into ring slot (j + uw) % S, uw + 1 past the unit's last, with cp.async (no register
 * holds it in flight), then adds it from there.  A held last slot (the exchange in halves, a
 * staged store) is never taken (held: 3 stages); with none held (2 stages, SIMT stores) warpgroup
 * 1 takes the unit's last slot, which both warpgroups released after its wgmmas.  With it
 * d512n3072k7168 took 1.2% less time and its owners' EPILOGUE 4.16 us (median) against 4.50; the
 * grouped GEMM's 256-token split points 0.4% less on g8k2048 but 1.0% more on g8k7168, so they
 * load into registers (docs/notebook/2026-12-02-deal-fixed-costs.md). */
template <class Cfg> __host__ __device__ constexpr bool partials_via_ring()
{
    using L = smem_plan<Cfg>;
    constexpr int held = L::X_IN_RING || Cfg::TMA_STORE == 2 ? 1 : 0;
    return Cfg::GATE == 1 && Cfg::TILE_T == 256 && !pair_of<Cfg>() && Cfg::STAGES - held >= unit_warpgroups_of<Cfg>() &&
           L::STAGE >= 64 * Cfg::TILE_T * 4;
}

/* The owning part (K blocks from 0): wait until the other parts have published, reset the
 * flag for the next launch, add their partial sums in part order (the result does not
 * depend on which CTA finished first; GATE 2: B2's into acc2); partials_via_ring: through a ring slot. */
template <int N, class Cfg, class KP>
__device__ __forceinline__ void add_partials(float (&acc)[N / 2], float (&acc2)[N / 2], const KP &kp,
                                             const nvfp4_tile &tl, const consumer_ctx &cc)
{
    using L = smem_plan<Cfg>;
    constexpr int S = Cfg::STAGES;
    int *const flag = part_flag<Cfg>(kp, tl, cc.uw);
    const bool ring = partials_via_ring<Cfg>() && cc.last_unit && tl.parts == 2;
    /* the ring path's slot: its last stage s = j - S + uw (cc.j is past the unit's last stage,
     * whose slot is held), released by every consumer thread of both warpgroups */
    const int s = (int)cc.j - S + cc.uw;
    if (ring && s >= 0)
        mbar_wait(L::empty_bar(cc.sm_base, (uint32_t)(s % S)), (uint32_t)(s / S) & 1);
    if (cc.tid_wg == 0) {
        while (ld_acquire_gpu(flag) < tl.parts - 1) {
        }
        st_relaxed_gpu(flag, 0);
    }
    named_barrier(1 + cc.cw, 128);
    if constexpr (partials_via_ring<Cfg>()) {
        if (ring) {
            const uint32_t slot = (uint32_t)((s + S) % S),
                           x = cc.sm_base + slot * (uint32_t)L::STAGE + 16u * (uint32_t)cc.tid_wg;
            const float *const b = partial_base<Cfg>(kp, tl.pbuf, cc.uw, cc.tid_wg);
#pragma unroll
            for (int i = 0; i < N / 8; i++)
                cp_async_cg16(x + (uint32_t)i * 2048u, b + (size_t)i * 512u);
            cp_async_wait_all();
            add_smem_f4<N / 8>(acc, x);
            return;
        }
    }
    for (int q = 0; q < tl.parts - 1; q++) {
        const float *const b = partial_base<Cfg>(kp, tl.pbuf + (uint32_t)q, cc.uw, cc.tid_wg);
#pragma unroll
        for (int i = 0; i < N / 8; i++) {
            const float4 v = ld_cg_f4(b + (size_t)i * 512u);
            acc[4 * i] += v.x;
            acc[4 * i + 1] += v.y;
            acc[4 * i + 2] += v.z;
            acc[4 * i + 3] += v.w;
        }
        if constexpr (Cfg::GATE == 2) {
#pragma unroll
            for (int i = 0; i < N / 8; i++) {
                const float4 v = ld_cg_f4(b + (size_t)(64 * Cfg::TILE_T) + (size_t)i * 512u);
                acc2[4 * i] += v.x;
                acc2[4 * i + 1] += v.y;
                acc2[4 * i + 2] += v.z;
                acc2[4 * i + 3] += v.w;
            }
        }
    }
}

/* ---- GATE 1's exchange: the B2 warpgroup's accumulators to the B1 warpgroup, through
 * float4 [N / 8][128 threads] in shared memory (thread t of one warpgroup holds the same
 * output elements as thread t of the other), guarded by two mbarriers of 128 arrivals, each
 * thread arriving after its own accesses.  Both warpgroups walk the same units, so the k-th
 * exchange of one is the k-th of the other: the B1 warpgroup waits for phase k of x_full, the
 * B2 warpgroup (from its second exchange on) for phase k - 1 of x_empty before writing.
 * (X_IN_RING exchanges halves instead: store_split_gate.) ---- */

template <int N, class Cfg>
__device__ __forceinline__ void gate_send(const float (&acc)[N / 2], consumer_ctx &cc)
{
    using L = smem_plan<Cfg>;
    const uint32_t x = cc.sm_base + L::o_x + 16u * (uint32_t)cc.tid_wg;
    if (cc.xs > 0)
        mbar_wait(L::x_empty_bar(cc.sm_base), (cc.xs - 1) & 1);
#pragma unroll
    for (int i = 0; i < N / 8; i++)
        sts128f(x + (uint32_t)i * 2048u, acc[4 * i], acc[4 * i + 1], acc[4 * i + 2], acc[4 * i + 3]);
    mbar_arrive(L::x_full_bar(cc.sm_base));
    cc.xs++;
}

/* The B1 warpgroup: acc := its silu(acc) * the B2 warpgroup's accumulators (gate_value). */
template <int N, class Cfg>
__device__ __forceinline__ void gate_receive(float (&acc)[N / 2], consumer_ctx &cc)
{
    using L = smem_plan<Cfg>;
    const uint32_t x = cc.sm_base + L::o_x + 16u * (uint32_t)cc.tid_wg;
    mbar_wait(L::x_full_bar(cc.sm_base), cc.xs & 1);
#pragma unroll
    for (int i = 0; i < N / 8; i++) {
        const uint4 v = lds128(x + (uint32_t)i * 2048u);
        acc[4 * i] = gate_value(acc[4 * i], __uint_as_float(v.x));
        acc[4 * i + 1] = gate_value(acc[4 * i + 1], __uint_as_float(v.y));
        acc[4 * i + 2] = gate_value(acc[4 * i + 2], __uint_as_float(v.z));
        acc[4 * i + 3] = gate_value(acc[4 * i + 3], __uint_as_float(v.w));
    }
    mbar_arrive(L::x_empty_bar(cc.sm_base));
    cc.xs++;
}

/* The EPILOGUE's arithmetic before a store: the owner of a split tile adds the other parts'
 * partial sums; the dual GEMM then forms silu(acc1) * acc2 in acc (GATE 1: acc2 comes from
 * the B2 warpgroup; GATE 2: this warpgroup's own second set). */
template <int N, class Cfg, class KP>
__device__ __forceinline__ void epilogue_acc(float (&acc)[N / 2], float (&acc2)[N / 2], const KP &kp,
                                             const nvfp4_tile &tl, consumer_ctx &cc)
{
    if (tl.parts > 1)
        add_partials<N, Cfg>(acc, acc2, kp, tl, cc);
    if constexpr (Cfg::GATE == 1) {
        gate_receive<N, Cfg>(acc, cc);
    } else if constexpr (Cfg::GATE == 2) {
#pragma unroll
        for (int i = 0; i < N / 2; i++)
            acc[i] = gate_value(acc[i], acc2[i]);
    }
}

/* ---- the epilogue's stores: EPILOGUE (epilogue_acc, then the accumulators become fp16) and
 * STORE of the unit's tile of group g at weight row w0, token t0; this thread's accumulator i:
 * weight row w0 + row + 8*((i>>1)&1), token t0 + 8*(i>>2) + 2c + (i&1) (the dual GEMM: output
 * column; acc2 its second accumulators, unused elsewhere) ---- */

/* TMA_STORE 0: straight from registers. */
template <int N, class Cfg, class KP>
__device__ __forceinline__ void store_simt(float (&acc)[N / 2], float (&acc2)[N / 2], const KP &kp,
                                           const nvfp4_tile &tl, consumer_ctx &cc, int g, int w0, int t0, int row,
                                           int c, gs_ctx &gs)
{
    const int M = kp.m[g], Nw = kp.n[g];
    GS_BEGIN(gs, GS_EPILOGUE);
    epilogue_acc<N, Cfg>(acc, acc2, kp, tl, cc);
    uint32_t packed[N / 4];
#pragma unroll
    for (int i = 0; i < N / 4; i++)
        packed[i] = pack_half2(acc[2 * i], acc[2 * i + 1], out_scale<Cfg>());
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

/* NT tokens of the warpgroup's accumulators (in their fragment order, from token t_off of the
 * slab on) as fp16 into its swizzled [tokens][64] slab (stmatrix). */
template <int NT, class Cfg>
__device__ __forceinline__ void stage_tokens(const float (&acc)[NT / 2], uint32_t slab, const consumer_ctx &cc,
                                             int t_off)
{
    const int mi = cc.lane >> 3, rr = cc.lane & 7;
    constexpr float sc = out_scale<Cfg>();
#pragma unroll
    for (int jj = 0; jj < NT / 16; jj++) {
        /* matrices (token block 2jj + m/2, weight half m%2); lane l addresses row l%8 of matrix l/8 */
        const int t = t_off + 8 * (2 * jj + (mi >> 1)) + rr, chunk = 2 * cc.wq + (mi & 1);
        const uint32_t addr = slab + (uint32_t)(t * 128 + ((chunk ^ (t & 7)) << 4));
        stmatrix_x4_trans(addr, pack_half2(acc[8 * jj + 0], acc[8 * jj + 1], sc),
                          pack_half2(acc[8 * jj + 2], acc[8 * jj + 3], sc),
                          pack_half2(acc[8 * jj + 4], acc[8 * jj + 5], sc),
                          pack_half2(acc[8 * jj + 6], acc[8 * jj + 7], sc));
    }
}

/* The warpgroup's accumulators as fp16 into its swizzled [N][64] slab, visible to the TMA store
 * once the warpgroup has met. */
template <int N, class Cfg>
__device__ __forceinline__ void stage_slab(const float (&acc)[N / 2], uint32_t slab, const consumer_ctx &cc)
{
    stage_tokens<N, Cfg>(acc, slab, cc, 0);
    fence_proxy_async_smem(); /* generic-proxy writes -> visible to the TMA store */
    named_barrier(1 + cc.cw, 128);
}

/* The TMA store of the warpgroup's 64 weight columns of the tile from its slab (one thread). */
template <class KP>
__device__ __forceinline__ void tma_store_slab(const KP &kp, const consumer_ctx &cc, int g, int w0, int t0,
                                               uint32_t slab)
{
    tma_store_2d(&kp.tmC[g], slab, w0 + 64 * cc.uw, t0);
    bulk_commit();
}

/* TMA_STORE 1: a staging slab of the warpgroup's own (smem_plan::o_c), free again once the
 * previous tile's store has read it. */
template <int N, class Cfg, class KP>
__device__ __forceinline__ void store_tma_own(float (&acc)[N / 2], float (&acc2)[N / 2], const KP &kp,
                                              const nvfp4_tile &tl, consumer_ctx &cc, int g, int w0, int t0,
                                              gs_ctx &gs)
{
    GS_BEGIN(gs, GS_EPILOGUE);
    epilogue_acc<N, Cfg>(acc, acc2, kp, tl, cc);
    const uint32_t slab = cc.sm_base + smem_plan<Cfg>::o_c + (uint32_t)cc.cw * (Cfg::TILE_T * 128);
    if (cc.tid_wg == 0)
        bulk_wait_read0(); /* the previous tile's store has read the staging slab */
    named_barrier(1 + cc.cw, 128);
    stage_slab<N, Cfg>(acc, slab, cc);
    GS_END(gs, GS_EPILOGUE);

    GS_BEGIN(gs, GS_STORE);
    if (cc.tid_wg == 0)
        tma_store_slab(kp, cc, g, w0, t0, slab);
    GS_END(gs, GS_STORE);
}

/* TMA_STORE 2: staged in the token slabs of the unit's last ring slot, which mma_stage did not
 * release; it goes back to the producer once the store has read it (no staging of its own:
 * fits beside three 256-token stages; needs a producer warpgroup, as a consumer issuing loads
 * would wait for the slot it holds, and 2+ stages).  GATE 1: the B1 warpgroup alone; the B2
 * warpgroup released its share of the slot after its wgmmas, which precede its exchange. */
template <int N, class Cfg, class KP>
__device__ __forceinline__ void store_tma_ring(float (&acc)[N / 2], float (&acc2)[N / 2], const KP &kp,
                                               const nvfp4_tile &tl, consumer_ctx &cc, int g, int w0, int t0,
                                               gs_ctx &gs)
{
    using L = smem_plan<Cfg>;
    constexpr int CW = Cfg::TILE_W / 64; /* the warpgroups that store */
    GS_BEGIN(gs, GS_EPILOGUE);
    epilogue_acc<N, Cfg>(acc, acc2, kp, tl, cc);
    const uint32_t held = (cc.j - 1) % Cfg::STAGES; /* the unit's last slot, not yet released */
    const uint32_t slab = cc.sm_base + (held * L::STAGE + L::o_t) + (uint32_t)cc.uw * (Cfg::TILE_T * 128);
    /* both warpgroups' wgmmas have read the slot's token slabs (wait_group 0 in each); PINGPONG:
     * the slot is this warpgroup's alone, its barrier its own */
    named_barrier(CW > 1 ? CONSUMERS_BAR : 1 + cc.cw, 128 * CW);
    stage_slab<N, Cfg>(acc, slab, cc);
    GS_END(gs, GS_EPILOGUE);

    GS_BEGIN(gs, GS_STORE);
    /* the slot goes back to the producer once the store has read it */
    if constexpr (CW == 1) {
        /* one warpgroup stores: it meets once the store has read the slot, and each thread
         * releases it after its own reads (release_slot).  A single arrival of 128 for the
         * warpgroup left its other threads' scale reads unordered for racecheck where it runs
         * several units (the 64-column ring-staged points, ping-pong) */
        if (cc.tid_wg == 0) {
            tma_store_slab(kp, cc, g, w0, t0, slab);
            bulk_wait_read0();
        }
        named_barrier(1 + cc.cw, 128);
        release_slot<Cfg>(cc, held);
    } else if (cc.tid_wg == 0) {
        tma_store_slab(kp, cc, g, w0, t0, slab);
        /* one arrival per warpgroup, whose other accesses to the slot the barrier above ordered */
        bulk_wait_read0();
        mbar_arrive_n(L::empty_bar(cc.sm_base, held), 128);
    }
    GS_END(gs, GS_STORE);
}

/* The gate split between the B1 warpgroup (cw 0: g) and the B2 warpgroup (cw 1: u), whose
 * accumulators [0, 2Q) are on the same 4Q token rows of the slab, the first Q on rows [0, 2Q):
 * each hands the other its accumulators on the other's rows through the slab (thread t's
 * float4 [Q / 4][128]; the B2 warpgroup's Q / 4 x 2048 bytes in), forms silu(g) * u on its own
 * rows (the B1 warpgroup [0, 2Q), the B2 warpgroup [2Q, 4Q)) and stages them there
 * (stmatrix).  The caller has met the other warpgroup once both were done with the slab; the
 * staging is visible to the TMA store when this returns. */
template <int Q, class Cfg, int A>
__device__ __forceinline__ void gate_split_stage(const float (&acc)[A], uint32_t slab, const consumer_ctx &cc)
{
    static_assert(A >= 2 * Q && Q % 4 == 0, "nvfp4 gemm: the split gate takes 2Q accumulators a thread");
    const bool b2 = cc.cw == 1;
    const uint32_t qb = (uint32_t)(Q / 4) * 2048u, tid16 = 16u * (uint32_t)cc.tid_wg;
    const uint32_t out = slab + (b2 ? qb : 0u) + tid16, in = slab + (b2 ? 0u : qb) + tid16;
#pragma unroll
    for (int k = 0; k < Q / 4; k++) { /* B1: its g on B2's rows; B2: its u on B1's (selects, not indexing) */
        float v[4];
#pragma unroll
        for (int e = 0; e < 4; e++)
            v[e] = b2 ? acc[4 * k + e] : acc[Q + 4 * k + e];
        sts128f(out + (uint32_t)k * 2048u, v[0], v[1], v[2], v[3]);
    }
    named_barrier(CONSUMERS_BAR, 256);
    float res[Q]; /* silu(g) * u on this warpgroup's own rows */
#pragma unroll
    for (int k = 0; k < Q / 4; k++) {
        const uint4 w = lds128(in + (uint32_t)k * 2048u);
        const float o[4] = {__uint_as_float(w.x), __uint_as_float(w.y), __uint_as_float(w.z), __uint_as_float(w.w)};
#pragma unroll
        for (int e = 0; e < 4; e++) {
            const float own = b2 ? acc[Q + 4 * k + e] : acc[4 * k + e];
            res[4 * k + e] = gate_value(b2 ? o[e] : own, b2 ? own : o[e]);
        }
    }
    named_barrier(CONSUMERS_BAR, 256); /* both read before the staging overwrites them */
    stage_tokens<2 * Q, Cfg>(res, slab, cc, b2 ? 2 * Q : 0);
    fence_proxy_async_smem(); /* generic-proxy writes -> visible to the TMA store */
    named_barrier(CONSUMERS_BAR, 256);
}

/* STORE of a tile both consumer warpgroups staged in the unit's held ring slot (store_split_gate,
 * store_pair_gate): the B1 warpgroup's thread 0 stores it from token row t (where `store`) and
 * waits for the store's read of the slot; then both meet and each thread releases the slot. */
template <class Cfg, class KP>
__device__ __forceinline__ void store_held_slot(const KP &kp, consumer_ctx &cc, int g, int w0, int t, uint32_t slab,
                                                uint32_t held, bool store, gs_ctx &gs)
{
    GS_BEGIN(gs, GS_STORE);
    if (cc.cw != 1 && cc.tid_wg == 0 && store) { /* not the B2 warpgroup: the B1 one */
        tma_store_slab(kp, cc, g, w0, t, slab);
        bulk_wait_read0();
    }
    named_barrier(CONSUMERS_BAR, 256); /* the store has read the slot: each thread releases it */
    release_slot<Cfg>(cc, held);
    GS_END(gs, GS_STORE);
}

/* X_IN_RING (GATE 1 with three 256-token stages, no room for an exchange buffer): the unit's last
 * slot, which both warpgroups hold, carries the exchange, then the staging.  Each warpgroup hands
 * the other the half of its accumulators on the other's tokens (thread t's float4 [N / 16][128],
 * 128 N bytes from the slab's start times cw: the B1 warpgroup its g of tokens N/2..N-1, the B2
 * warpgroup its u of 0..N/2-1),
 * forms silu(g) * u on its own half (the gate's work and its MUFU issue split between both), and
 * stages that half in the first slab; one TMA store, and the slot goes back once it has read it.
 * The two meet on the consumers' named barrier: the slot's wgmmas done, the halves written, read,
 * staged, stored.  A thread's accumulator i lies on token 8 (i / 4) + ...: the first N / 4 on
 * tokens below N / 2. */
template <int N, class Cfg, class KP>
__device__ __forceinline__ void store_split_gate(float (&acc)[N / 2], const KP &kp, const nvfp4_tile &tl,
                                                 consumer_ctx &cc, int g, int w0, int t0, gs_ctx &gs)
{
    using L = smem_plan<Cfg>;
    constexpr int Q = N / 4; /* accumulators per thread on half the tokens */
    const uint32_t held = (cc.j - 1) % Cfg::STAGES, slab = cc.sm_base + held * L::STAGE + L::o_t;
    GS_BEGIN(gs, GS_EPILOGUE);
    if (tl.parts > 1)
        add_partials<N, Cfg>(acc, acc, kp, tl, cc);
    named_barrier(CONSUMERS_BAR, 256); /* both warpgroups' wgmmas are done with the slot */
    gate_split_stage<Q, Cfg>(acc, slab, cc);
    GS_END(gs, GS_EPILOGUE);
    store_held_slot<Cfg>(kp, cc, g, w0, t0, slab, held, true, gs);
}

/* NVFP4_SPLIT_PAIR: the two CTAs of a cluster have each run half of the tile's K blocks (part r
 * = the CTA's rank) at the tile's full width; CTA r owns the tile's tokens [r TILE_T / 2,
 * (r + 1) TILE_T / 2), which load_tokens laid first in its slabs: a thread's accumulators
 * [0, H) are on its own half, [H, 2 H) on the other CTA's.  Once both its warpgroups are done
 * with the unit's last slot (held: X_IN_RING), each CTA tells the other (pair_go); each thread
 * then writes its accumulators [H, 2 H) into the other CTA's slot (float4 [H / 4][128 threads]
 * per warpgroup, (H / 4) x 2048 bytes apart by warpgroup) and arrives on its pair_full; each adds what it
 * finds in its own slot to [0, H).  Then, as store_split_gate within the CTA on its half: the
 * B1 warpgroup gates the half's first quarter of the tile's tokens, the B2 warpgroup its second,
 * each handing the other its accumulators on the other's quarter; both stage into one slab and
 * one TMA store (the output map's box is half a tile) writes the half.  Token rows past the
 * group's M hold whatever the slot held (TMA fills loads past M with zeros, but a half past M
 * is not loaded at all): their columns are computed and clipped by the store, never read.  The
 * other CTA's generic-proxy writes into the slot precede the producer's next TMA load into it
 * as this CTA's own exchange writes do in store_split_gate: through the slot's release. */
template <int N, class Cfg, class KP>
__device__ __forceinline__ void store_pair_gate(float (&acc)[N / 2], const KP &kp, const nvfp4_tile &tl,
                                                consumer_ctx &cc, int g, int w0, int t0, gs_ctx &gs)
{
    static_assert(N == Cfg::TILE_T, "nvfp4 gemm: the cluster pair runs every tile at its full width");
    using L = smem_plan<Cfg>;
    constexpr int H = Cfg::TILE_T / 4, Q = H / 2; /* a thread's accumulators on half, a quarter of the tokens */
    const uint32_t held = (cc.j - 1) % Cfg::STAGES, slab = cc.sm_base + held * L::STAGE + L::o_t;
    const uint32_t tid16 = 16u * (uint32_t)cc.tid_wg, mine = slab + (uint32_t)cc.cw * (uint32_t)(H / 4) * 2048u + tid16;
    const uint32_t peer = tl.part ^ 1u;
    GS_BEGIN(gs, GS_EPILOGUE);
    named_barrier(CONSUMERS_BAR, 256); /* both warpgroups' wgmmas are done with the slot */
    if (cc.cw == 0 && cc.tid_wg == 0)
        mbar_arrive_cluster(cluster_map(L::pair_go_bar(cc.sm_base), peer));
    mbar_wait_cluster(L::pair_go_bar(cc.sm_base), cc.xs & 1); /* the other CTA's slot is free */
    const uint32_t theirs = cluster_map(mine, peer);
#pragma unroll
    for (int k = 0; k < H / 4; k++)
        st_cluster_f4(theirs + (uint32_t)k * 2048u, acc[H + 4 * k], acc[H + 4 * k + 1], acc[H + 4 * k + 2],
                      acc[H + 4 * k + 3]);
    mbar_arrive_cluster(cluster_map(L::pair_full_bar(cc.sm_base), peer));
    mbar_wait_cluster(L::pair_full_bar(cc.sm_base), cc.xs & 1); /* the other CTA's sums are in this slot */
    cc.xs++;
    add_smem_f4<H / 4>(acc, mine);
    named_barrier(CONSUMERS_BAR, 256); /* both warpgroups have read the slot */
    gate_split_stage<Q, Cfg>(acc, slab, cc); /* the CTA's half: 4Q tokens */
    GS_END(gs, GS_EPILOGUE);
    const int th = t0 + (int)tl.part * (Cfg::TILE_T / 2); /* a half past M has nothing to store */
    store_held_slot<Cfg>(kp, cc, g, w0, th, slab, held, th < kp.m[g], gs);
}

/* A unit after its main loop and ACC_TO_REG: a part of a split tile that does not own it hands
 * its partial sums over; otherwise the epilogue and the store of the point (acc2: GATE 2's
 * second accumulators, else acc itself, unused).  GATE 1's B2 warpgroup stores nothing: its
 * EPILOGUE is the owner's partial sums and the exchange, its STORE empty (X_IN_RING: both
 * warpgroups gate, stage and store, store_split_gate). */
template <int N, class Cfg, class KP>
__device__ __forceinline__ void finish_unit(float (&acc)[N / 2], float (&acc2)[N / 2], const KP &kp,
                                            const nvfp4_tile &tl, consumer_ctx &cc, int g, int w0, int t0, int row,
                                            int c, gs_ctx &gs)
{
    if constexpr (pair_of<Cfg>()) { /* both parts of the pair own half the tile */
        store_pair_gate<N, Cfg>(acc, kp, tl, cc, g, w0, t0, gs);
        return;
    }
    /* a part of a split tile that does not own it: hand the partial sum over, done */
    if (tl.parts > 1 && tl.part != 0) {
        /* nothing to stage: give the held slot back at once (GATE 1's B2 warpgroup holds none,
         * but for the exchange: X_IN_RING) */
        if (smem_plan<Cfg>::X_IN_RING || (Cfg::TMA_STORE == 2 && !(Cfg::GATE == 1 && cc.cw == 1)))
            release_slot<Cfg>(cc, cc.j - 1);
        GS_BEGIN(gs, GS_EPILOGUE);
        GS_END(gs, GS_EPILOGUE);
        GS_BEGIN(gs, GS_STORE);
        store_partial<N, Cfg>(acc, acc2, kp, tl, cc);
        GS_END(gs, GS_STORE);
        return;
    }

    if constexpr (smem_plan<Cfg>::X_IN_RING) {
        store_split_gate<N, Cfg>(acc, kp, tl, cc, g, w0, t0, gs);
    } else { /* (not instantiated there: the exchange buffer's code would address the barriers) */
        if constexpr (Cfg::GATE == 1) {
            if (cc.cw == 1) {
                GS_BEGIN(gs, GS_EPILOGUE);
                if (tl.parts > 1)
                    add_partials<N, Cfg>(acc, acc2, kp, tl, cc);
                gate_send<N, Cfg>(acc, cc);
                GS_END(gs, GS_EPILOGUE);
                GS_BEGIN(gs, GS_STORE);
                GS_END(gs, GS_STORE);
                return;
            }
        }

        if constexpr (Cfg::TMA_STORE == 0)
            store_simt<N, Cfg>(acc, acc2, kp, tl, cc, g, w0, t0, row, c, gs);
        else if constexpr (Cfg::TMA_STORE == 1)
            store_tma_own<N, Cfg>(acc, acc2, kp, tl, cc, g, w0, t0, gs);
        else
            store_tma_ring<N, Cfg>(acc, acc2, kp, tl, cc, g, w0, t0, gs);
    }
}

/* One unit (a tile, or one K range of a split tile) with wgmma width N: main loop, drain,
 * epilogue, store. */
template <int N, class Cfg, class KP>
__device__ __forceinline__ void run_tile(const KP &kp, const nvfp4_tile &tl, consumer_ctx &cc, load_cursor &cur,
                                         int last, gs_ctx &gs)
{
    const int g = tl.group;
    const int w0 = tl.wtile * Cfg::TILE_W, t0 = tl.ttile * Cfg::TILE_T;
    const int row = 64 * cc.uw + 16 * cc.wq + (cc.lane >> 2), c = cc.lane & 3;
    const int band_row = (w0 & 127) + row;
    const wrow w = Cfg::GATE == 0 ? wrow{row, band_row, 0u} : weight_rows<Cfg>(cc, w0, 0);
    const int nkb = tl.kb1 - tl.kb0;

    float acc[N / 2];
#pragma unroll
    for (int i = 0; i < N / 2; i++)
        acc[i] = 0.0f;

    if constexpr (Cfg::GATE == 2) {
        /* B1's fragments in a, B2's in b, every stage (mma_stage_dual) */
        float acc2[N / 2];
#pragma unroll
        for (int i = 0; i < N / 2; i++)
            acc2[i] = 0.0f;
        const wrow w2 = weight_rows<Cfg>(cc, w0, 1);
        uint32_t a[8][4], b[8][4];
        GS_BEGIN(gs, GS_MAINLOOP);
        fetch_stage<Cfg>(a, cc, cc.j, w, gs);
        for (int kb = 0; kb < nkb; kb++)
            mma_stage_dual<N, Cfg>(acc, acc2, a, b, kb + 1 < nkb, kp, cc, cur, last, w, w2, gs);
        GS_END(gs, GS_MAINLOOP);
        if constexpr (Cfg::PINGPONG) /* the other warpgroup's next main loop may start */
            mbar_arrive(smem_plan<Cfg>::turn_bar(cc.sm_base, cc.cw));

        GS_BEGIN(gs, GS_ACC_TO_REG);
        wgmma_wait<0>();
        fence_regs(acc);
        fence_regs(acc2);
        GS_END(gs, GS_ACC_TO_REG);
        finish_unit<N, Cfg>(acc, acc2, kp, tl, cc, g, w0, t0, row, c, gs);
    } else {
        /* two fragment sets: the wgmmas of one stage read one while the next is dequantised into
         * the other (the loop is unrolled by two so both stay in registers) */
        uint32_t a0[8][4], a1[8][4];
        GS_BEGIN(gs, GS_MAINLOOP);
        fetch_stage<Cfg>(a0, cc, cc.j, w, gs);
        for (int kb = 0; kb < nkb; kb += 2) {
            mma_stage<N, Cfg>(acc, a0, a1, kb + 1 < nkb, kp, cc, cur, last, w, gs);
            if (kb + 1 < nkb)
                mma_stage<N, Cfg>(acc, a1, a0, kb + 2 < nkb, kp, cc, cur, last, w, gs);
        }
        GS_END(gs, GS_MAINLOOP);

        /* every stage already waited for its wgmmas: this is the (near-empty) hand-off */
        GS_BEGIN(gs, GS_ACC_TO_REG);
        wgmma_wait<0>();
        fence_regs(acc);
        GS_END(gs, GS_ACC_TO_REG);
        finish_unit<N, Cfg>(acc, acc, kp, tl, cc, g, w0, t0, row, c, gs);
    }
}

/* Registers per thread after reallocation.  setmaxnreg.inc blocks until the CTA's own pool
 * (what its setmaxnreg.dec released) holds enough: two consumer warpgroups launched at 168
 * registers need 256 x (232 - 168) = 128 x (168 - 40), so the producer cannot keep more
 * than 40 while the consumers take 232 (with 48 the kernels hung on the H100:
 * docs/notebook/2026-11-21-inline-tokens.md). */
constexpr int PRODUCER_REGS = 40, CONSUMER_REGS = 232;

template <class Cfg> constexpr int threads_of()
{
    return consumers_of<Cfg>() * 128 + (Cfg::WARP_SPEC ? 128 : 0);
}

} // namespace

template <class Cfg, class KP>
__global__ void __launch_bounds__(threads_of<Cfg>(), 1)
    GS_SYM(nvfp4_gemm_kernel)(const __grid_constant__ KP kp, const gs_buffer stamps)
{
    static_assert(Cfg::STAGES >= 1 && Cfg::STAGES <= 4, "nvfp4 gemm: stages must be 1..4");
    static_assert(Cfg::TILE_W == 64 || Cfg::TILE_W == 128, "nvfp4 gemm: tile_w must be 64 or 128 (64 rows per "
                                                           "consumer warpgroup, at most two)");
    static_assert(Cfg::TILE_T % 64 == 0 && Cfg::TILE_T >= 64 && Cfg::TILE_T <= 256,
                  "nvfp4 gemm: tile_t must be 64, 128, 192 or 256 (wgmma N <= 256)");
    static_assert(Cfg::TMA_STORE != 2 || (Cfg::WARP_SPEC && Cfg::STAGES >= 2),
                  "nvfp4 gemm: the ring-staged store needs a producer warpgroup (a consumer issuing loads would "
                  "wait for the slot it holds) and 2+ stages");
    static_assert(Cfg::SPLIT_K == 0 || pair_of<Cfg>(), "nvfp4 gemm: one kernel runs every split K form but the "
                                                        "cluster pair's (kernel_cfg)");
    static_assert(Cfg::GATE >= 0 && Cfg::GATE <= 2, "nvfp4 gemm: gate is 0 (grouped), 1 or 2 (dual)");
    static_assert(Cfg::GATE != 1 || Cfg::TILE_W == 64, "nvfp4 gemm: gate 1 pairs a B1 and a B2 warpgroup on 64 "
                                                       "output columns (tile_w 64)");
    static_assert(Cfg::GATE != 2 || Cfg::TILE_T <= 128, "nvfp4 gemm: gate 2 holds two accumulators per thread "
                                                        "(tile_t <= 128)");
    static_assert(!Cfg::PINGPONG || (Cfg::GATE == 2 && Cfg::TILE_W == 64 && Cfg::WARP_SPEC && Cfg::PERSISTENT),
                  "nvfp4 gemm: ping-pong runs whole 64-column units of gate 2 on two warpgroups in turn, fed by a "
                  "producer warpgroup, on persistent CTAs");
    using L = smem_plan<Cfg>;
    constexpr int CW = consumers_of<Cfg>();

    /* the warp index broadcast from lane 0: ptxas then knows it is the same in every lane, so
     * the role branches below and the consumers' warpgroup indices are warp-uniform to it.  With
     * tid >> 5 it compiled the twins' loading lane and consumers with more vector registers for
     * uniform values (docs/notebook/2026-12-01-uniform-warp-index.md) */
    const int tid = threadIdx.x, warp = __shfl_sync(0xffffffffu, tid >> 5, 0), lane = tid & 31;
    const bool producer = Cfg::WARP_SPEC && warp >= 4 * CW;
    gs_ctx gs;
    GS_INIT(gs, stamps, producer ? GS_ROLE_PRODUCER : (Cfg::WARP_SPEC ? GS_ROLE_CONSUMER : GS_ROLE_ALL));

    extern __shared__ uint8_t smem_dyn[];
    const uint32_t sm_base = (smem_u32(smem_dyn) + 1023u) & ~1023u;
    if (tid == 0) {
        for (int s = 0; s < Cfg::STAGES; s++) {
            mbar_init(L::full_bar(sm_base, s), 1);          /* full: the producer's arrival + bytes */
            /* empty: every consumer thread of the unit's warpgroups */
            mbar_init(L::empty_bar(sm_base, s), 128 * unit_warpgroups_of<Cfg>());
        }
        if constexpr (pair_of<Cfg>()) { /* the pair: the other CTA's thread 0, its 256 consumer threads */
            mbar_init(L::pair_go_bar(sm_base), 1);
            mbar_init(L::pair_full_bar(sm_base), 256);
        } else if constexpr (Cfg::GATE == 1) { /* the exchange: one warpgroup's threads each */
            mbar_init(L::x_full_bar(sm_base), 128);
            mbar_init(L::x_empty_bar(sm_base), 128);
        }
        if constexpr (Cfg::PINGPONG) { /* the turns: one warpgroup's threads each */
            mbar_init(L::turn_bar(sm_base, 0), 128);
            mbar_init(L::turn_bar(sm_base, 1), 128);
        }
        if constexpr (L::PUBLISHER) {
            for (int uw = 0; uw < unit_warpgroups_of<Cfg>(); uw++)
                sts32(L::pub_count(sm_base, uw), 0);
        }
        GS_CLOCK_INIT(4 * CW); /* the twin's clock sampler runs until every consumer warp is done */
        mbar_fence_init();
    }
    if constexpr (pair_of<Cfg>())
        cluster_sync(); /* the other CTA's barriers are initialised before anything arrives on them */
    else
        __syncthreads();

    const int first = kp.cta_first[blockIdx.x], last = kp.cta_first[blockIdx.x + 1];
    load_cursor cur = {first, 0, 0};
    if (producer) {
        setmaxnreg_dec<PRODUCER_REGS>();
        if (warp == 4 * CW) {
            /* the twins: how long the loading warp waits before its first token load */
            GS_BEGIN(gs, GS_PROLOGUE);
            if (lane == 0)
                griddep_wait(); /* the token pre-pass has completed */
            GS_END(gs, GS_PROLOGUE); /* lane 0's record: the lane that waited */
            /* the twins hold no record through the loading loop, and the loading lane finishes
             * in its own branch: no twin code joins the loop's path after it, so ptxas forms the
             * copies' operands in uniform registers as in production */
            GS_BATCH_FLUSH(gs);
            if (lane == 0) {
                while (cur.t < last)
                    load_stage<Cfg>(kp, cur, sm_base);
                GS_FINISH(gs);
            }
            if constexpr (pair_of<Cfg>())
                cluster_arrive(); /* the cluster's last barrier (the end of the kernel) */
            return;
        } else if (warp == NVFP4_SAMPLER_WARP(4 * CW)) {
            GS_CLOCK_SAMPLER(gs); /* the twins: a spare warp follows the SM clock */
        } else if (L::PUBLISHER && warp == NVFP4_PUBLISHER_WARP(4 * CW)) {
            /* the twins: its record closes first, so that the stamp state is not held through
             * the publisher's loop in the producer's 40 registers */
            GS_FINISH(gs);
            if (lane == 0)
                publish_parts<Cfg>(kp, first, last, sm_base);
            return;
        }
        GS_FINISH(gs);
        if constexpr (pair_of<Cfg>())
            cluster_arrive();
        return;
    }
    if (Cfg::WARP_SPEC)
        setmaxnreg_inc<CONSUMER_REGS>();
    if (!Cfg::WARP_SPEC && tid == 0) { /* fill the ring; mma_stage keeps it full */
        griddep_wait();
        for (int s = 0; s < Cfg::STAGES && cur.t < last; s++)
            load_stage<Cfg>(kp, cur, sm_base);
    }

    consumer_ctx cc = {sm_base, warp >> 2, warp & 3, lane, tid & 127, 0, 0, Cfg::PINGPONG ? 0 : warp >> 2, 0};
    /* a warpgroup's four warps move in lockstep (every wgmma is warpgroup-wide): one of them
     * records the per-stage sub-phases for all four */
    GS_SUB_ENABLE(gs, cc.wq == 0);
    uint32_t turns = 0; /* PINGPONG: the other warpgroup's main loops waited for */
    for (int t = first; t < last; t++) {
        const nvfp4_tile tl = kp.tiles[t];
        cc.last_unit = t == last - 1;
        if constexpr (Cfg::PINGPONG) {
            /* the units alternate between the two warpgroups; the other's stages go by */
            if (((t - first) & 1) != cc.cw) {
                cc.j += (uint32_t)(tl.kb1 - tl.kb0);
                continue;
            }
            /* main loops in turn: once the unit before this one has ended its main loop, every
             * stage before this unit's first has landed, so a ring slot's full barrier is at most
             * one phase behind the stage this warpgroup waits for (its parity tells them apart) */
            if (t > first) {
                mbar_wait(L::turn_bar(sm_base, cc.cw ^ 1), turns & 1);
                turns++;
            }
        }
        GS_TILE(gs, t, tl.group); /* the twin stores the previous tile's records here */
        if constexpr (one_width_of<Cfg>()) { /* every tile at its full width (the pair: its halves) */
            run_tile<Cfg::TILE_T, Cfg>(kp, tl, cc, cur, last, gs);
        } else {
            switch (tl.n_eff) {
/* widths past TILE_T are never scheduled */
#define NVFP4_N_CASE(N)                                                                                      \
    case N:                                                                                                  \
        if constexpr (N <= Cfg::TILE_T)                                                                      \
            run_tile<(N <= Cfg::TILE_T ? N : 32), Cfg>(kp, tl, cc, cur, last, gs);                           \
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
    }
    if (Cfg::TMA_STORE && (tid & 127) == 0)
        bulk_wait_read0(); /* the last store has read shared memory before the CTA exits */
    GS_CLOCK_DONE(gs);
    GS_FINISH(gs);
    if constexpr (pair_of<Cfg>()) {
        /* neither CTA of the pair exits while the other may still write into its shared memory
         * (the pair's barriers already order it; the cluster barrier says so to the sanitizer) */
        cluster_arrive();
        cluster_wait();
    }
}

namespace {

/* The launch's copy of kp narrowed to G groups (kp->groups <= G, checked by the caller), made
 * from the same list that declares it. */
#define COPY_KP_ONE(name) d->name = kp->name;
#define COPY_KP_GROUPS(name) memcpy(d->name, kp->name, (size_t)kp->groups * sizeof(kp->name[0]));
template <int G> void narrow(const nvfp4_kparams *kp, narrow_kparams<G> *d)
{
    memset(d, 0, sizeof *d);
    NARROW_KPARAMS_LIST(COPY_KP_ONE, COPY_KP_GROUPS)
}
#undef COPY_KP_ONE
#undef COPY_KP_GROUPS

/* Launch the kernel of point Cfg with parameter block KP (nvfp4_kparams itself, or a
 * narrow_kparams built from it). */
template <class Cfg, class KP>
int launch_point(const nvfp4_kparams *kp, const KP &args, gs_buffer stamps, cudaStream_t s)
{
    if constexpr (full_width_kernel_of<Cfg>()) {
        if (kp->full_width)
            return launch_point<full_width_cfg<Cfg>>(kp, args, stamps, s);
    }
    using K = kernel_cfg<Cfg>;
    using L = smem_plan<K>;
    void (*kern)(const KP, const gs_buffer) = GS_SYM(nvfp4_gemm_kernel)<K, KP>;
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
    if (kp->grid <= 0 || kp->persistent != K::PERSISTENT || kp->groups > kp_groups<KP>())
        return (int)cudaErrorInvalidValue;
    /* programmatic dependent launch: CTAs start (barriers, register split) while the token
     * pre-pass finishes; the loading thread waits for it (griddep_wait) */
    cudaLaunchAttribute attr[2];
    unsigned na = 0;
    if (kp->pdl) {
        attr[na].id = cudaLaunchAttributeProgrammaticStreamSerialization;
        attr[na++].val.programmaticStreamSerializationAllowed = 1;
    }
    if constexpr (pair_of<K>()) { /* CTAs 2c and 2c + 1 share cluster c (schedule.h) */
        if (kp->grid % 2)
            return (int)cudaErrorInvalidValue;
        attr[na].id = cudaLaunchAttributeClusterDimension;
        attr[na].val.clusterDim.x = 2;
        attr[na].val.clusterDim.y = 1;
        attr[na++].val.clusterDim.z = 1;
    }
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3((unsigned)kp->grid);
    cfg.blockDim = dim3((unsigned)threads_of<K>());
    cfg.dynamicSmemBytes = (size_t)L::dyn_bytes;
    cfg.stream = s;
    cfg.attrs = attr;
    cfg.numAttrs = na;
    if constexpr (pair_of<K>()) {
        /* every cluster resident at once: the schedule assumes one pass of sms / 2 clusters */
        static int fits[32] = {0}; /* per device: 0 unknown, else max active clusters + 1 */
        int fit = dev < 32 ? fits[dev] - 1 : -1;
        if (fit < 0) {
            e = cudaOccupancyMaxActiveClusters(&fit, kern, &cfg);
            if (e != cudaSuccess)
                return (int)e;
            if (dev < 32)
                fits[dev] = fit + 1;
        }
        if (kp->grid / 2 > fit) {
            fprintf(stderr, "nvfp4: the cluster pair's schedule has %d clusters; the GPU holds %d at once\n",
                    kp->grid / 2, fit);
            return (int)cudaErrorInvalidConfiguration;
        }
    }
    /* cudaLaunchKernelEx reports this launch's own errors; cudaGetLastError here could
     * return an earlier call's, and the caller would undo a launch that was enqueued */
    return (int)cudaLaunchKernelEx(&cfg, kern, args, stamps);
}

/* A point with the narrow parameter block when the problem's groups fit in it (the dual GEMM's
 * two entries always do: its points are built for the narrow block alone). */
template <class Cfg> int launch_point(const nvfp4_kparams *kp, gs_buffer stamps, cudaStream_t s)
{
    static_assert(Cfg::SPLIT_K == 0 || Cfg::PERSISTENT, "nvfp4 gemm: split K needs persistent CTAs (schedule.h)");
    if constexpr (Cfg::GATE != 0) {
        if (kp->groups != 2)
            return (int)cudaErrorInvalidValue;
    } else if (kp->groups > NARROW_GROUPS) {
        return launch_point<Cfg>(kp, *kp, stamps, s);
    }
    narrow_kparams<NARROW_GROUPS> args;
    narrow(kp, &args);
    return launch_point<Cfg>(kp, args, stamps, s);
}

} // namespace

/* The knob points instantiated in this build; variants.c names the same ones. */
extern "C" int NVFP4_LAUNCHER(const nvfp4_variant *v, const nvfp4_kparams *kp, gs_buffer stamps, cudaStream_t s)
{
    if (!v || !kp || v->tile_w != kp->tile_w || v->tile_t != kp->tile_t)
        return (int)cudaErrorInvalidValue;
#if defined(GS_TWIN) && GS_TWIN
    if (!stamps.warps || !stamps.records || stamps.capacity == 0 ||
        stamps.warps_per_cta != (unsigned)nvfp4_variant_warps(v))
        return (int)cudaErrorInvalidValue;
#endif
#define NVFP4_POINT(NAME, DESC, S, TW, TT, WS, P, TS, SK)                                                    \
    if (v->gate == 0 && v->stages == S && v->tile_w == TW && v->tile_t == TT && v->warp_spec == WS &&         \
        v->persistent == P && v->tma_store == TS && v->split_k == SK)                                          \
        return launch_point<point_cfg<S, TW, TT, WS, P, TS, SK>>(kp, stamps, s);
    NVFP4_POINT_LIST(NVFP4_POINT)
#undef NVFP4_POINT
#define NVFP4_DUAL_POINT(NAME, DESC, S, TW, TT, WS, P, TS, SK, GT, PP)                                       \
    if (v->gate == GT && v->stages == S && v->tile_w == TW && v->tile_t == TT && v->warp_spec == WS &&        \
        v->persistent == P && v->tma_store == TS && v->split_k == SK && v->pingpong == PP)                     \
        return launch_point<point_cfg<S, TW, TT, WS, P, TS, SK, GT, PP>>(kp, stamps, s);
    NVFP4_DUAL_POINT_LIST(NVFP4_DUAL_POINT)
#undef NVFP4_DUAL_POINT
    return (int)cudaErrorNotSupported;
}
