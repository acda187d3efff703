/* The knob points of the NVFP4 kernel that are built: X-macro lists, so gemm.cu
 * (instantiation and dispatch) and variants.c (names, lookup) can never disagree.
 * X(name, description, stages, tile_w, tile_t, warp_spec, persistent, tma_store, split_k)
 * Names spell the knobs: s<stages>_w<tile_w>_t<tile_t>, then _ws (producer warpgroup),
 * _p (persistent CTAs), _tma (TMA-store epilogue), _tmr (tma_store = 2: the TMA-store
 * epilogue staged in the unit's last ring slot, which is released once the store has read
 * it; needs _ws and 2+ stages), _sk (split K, split_k = 1: every CTA gets the same share of
 * the work, tiles cut at K blocks where they overflow a share), _skr (split K, split_k = 2:
 * whole tiles first, then the most loaded CTAs hand K ranges of their last tile to the least
 * loaded; schedule.h), _skp (split K, split_k = 3: clusters of two CTAs, each running half of
 * every tile's K blocks and exchanging partial sums through the other's shared memory; the
 * 256-token B1/B2 pair only, gemm.cu's store_pair_gate).
 *
 * NVFP4_PRODUCTION_POINTS: each benchmark shape's default and what the rule for every other
 * shape can pick (variants.c, nvfp4_variant_default); gemm.cu compiles them into every
 * program.  NVFP4_EVIDENCE_POINTS: the rest, there to be measured: the seed proposals'
 * baselines and their A/B partners (scripts/evidence.sh), the sweep of `make bench-variants`
 * and the checks (make check-gpu); gemm_evidence.cu compiles them, only for
 * `make nvfp4-evidence` (the Makefile). */
#ifndef NVFP4_POINTS_H
#define NVFP4_POINTS_H

#define NVFP4_PRODUCTION_POINTS(X)                                                                              \
    X("s4_w128_t128_ws_p_tma", "4 stages, producer warpgroup, persistent, TMA-store epilogue", 4, 128, 128, 1, 1,  \
      1, 0)                                                                                                        \
    X("s4_w64_t128_ws_p_tma", "as s4_w128_t128_ws_p_tma with 64 weight rows per CTA", 4, 64, 128, 1, 1, 1, 0)      \
    X("s3_w128_t256_ws_p_tmr_skr", "as s3_w128_t256_ws_p_skr with the TMA-store epilogue staged in the last "      \
      "ring slot", 3, 128, 256, 1, 1, 2, 2)                                                                         \
    X("s3_w128_t256_ws_p_tmr_sk", "as s3_w128_t256_ws_p_sk with the TMA-store epilogue staged in the last "        \
      "ring slot", 3, 128, 256, 1, 1, 2, 1)

#define NVFP4_EVIDENCE_POINTS(X)                                                                                 \
    X("s1_w128_t128", "baseline: 1 stage (load, then compute), one CTA per tile, SIMT stores", 1, 128, 128, 0, 0,  \
      0, 0)                                                                                                        \
    X("s1_w64_t128", "baseline with 64 weight rows per CTA (smaller tiles)", 1, 64, 128, 0, 0, 0, 0)               \
    X("s1_w128_t128_tma", "baseline with the TMA-store epilogue", 1, 128, 128, 0, 0, 1, 0)                         \
    X("s1_w128_t128_ws", "baseline with a producer warpgroup", 1, 128, 128, 1, 0, 0, 0)                            \
    X("s2_w128_t128", "2-stage ring, loads issued by a consumer thread", 2, 128, 128, 0, 0, 0, 0)                  \
    X("s4_w128_t128", "4-stage ring, loads issued by a consumer thread", 4, 128, 128, 0, 0, 0, 0)                  \
    X("s4_w128_t128_ws", "4 stages, producer warpgroup", 4, 128, 128, 1, 0, 0, 0)                                  \
    X("s4_w128_t128_ws_p", "4 stages, producer warpgroup, persistent CTAs", 4, 128, 128, 1, 1, 0, 0)               \
    X("s1_w128_t128_ws_p_tma", "as s4_w128_t128_ws_p_tma with 1 stage", 1, 128, 128, 1, 1, 1, 0)                   \
    X("s4_w128_t128_p_tma", "as s4_w128_t128_ws_p_tma without the producer warpgroup", 4, 128, 128, 0, 1, 1, 0)    \
    X("s4_w128_t64_ws_p_tma", "as s4_w128_t128_ws_p_tma with 64-token tiles", 4, 128, 64, 1, 1, 1, 0)              \
    X("s3_w128_t256_ws_p", "3 stages, 256-token tiles, producer warpgroup, persistent", 3, 128, 256, 1, 1, 0, 0)   \
    X("s2_w128_t256_ws_p_tma", "2 stages, 256-token tiles, producer warpgroup, persistent, TMA store", 2, 128,     \
      256, 1, 1, 1, 0)                                                                                             \
    X("s1_w128_t256_ws_p", "as s3_w128_t256_ws_p with 1 stage", 1, 128, 256, 1, 1, 0, 0)                           \
    X("s3_w128_t256_p", "as s3_w128_t256_ws_p without the producer warpgroup", 3, 128, 256, 0, 1, 0, 0)            \
    X("s3_w128_t128_ws_p", "as s3_w128_t256_ws_p with 128-token tiles", 3, 128, 128, 1, 1, 0, 0)                   \
    X("s4_w128_t128_ws_p_tma_sk", "as s4_w128_t128_ws_p_tma with split K (equal work per CTA)", 4, 128, 128, 1, 1, \
      1, 1)                                                                                                        \
    X("s3_w128_t256_ws_p_sk", "as s3_w128_t256_ws_p with split K (dealt, its fixed costs counted)", 3, 128, 256, 1, \
      1, 0, 1)                                                                                                       \
    X("s3_w128_t256_ws_p_skr", "as s3_w128_t256_ws_p with split K where whole tiles leave a CTA over the mean",    \
      3, 128, 256, 1, 1, 0, 2)                                                                                     \
    X("s1_w128_t256_ws_p_skr", "as s3_w128_t256_ws_p_skr with 1 stage", 1, 128, 256, 1, 1, 0, 2)                   \
    X("s3_w128_t128_ws_p_skr", "as s3_w128_t256_ws_p_skr with 128-token tiles", 3, 128, 128, 1, 1, 0, 2)           \
    X("s2_w128_t256_ws_p_tma_skr", "as s3_w128_t256_ws_p_skr with the TMA-store epilogue (2 stages fit)", 2, 128,  \
      256, 1, 1, 1, 2)                                                                                             \
    X("s3_w128_t256_p_skr", "as s3_w128_t256_ws_p_skr without the producer warpgroup", 3, 128, 256, 0, 1, 0, 2)    \
    X("s4_w128_t128_ws_p_tmr", "as s4_w128_t128_ws_p_tma with the store staged in the last ring slot", 4, 128,     \
      128, 1, 1, 2, 0)                                                                                             \
    X("s2_w128_t256_ws_p_tmr_skr", "as s3_w128_t256_ws_p_tmr_skr with 2 stages", 2, 128, 256, 1, 1, 2, 2)          \
    X("s3_w128_t128_ws_p_tmr_skr", "as s3_w128_t256_ws_p_tmr_skr with 128-token tiles", 3, 128, 128, 1, 1, 2, 2)

/* The gated dual GEMM (dual.h) is the same kernel with one more knob, gate (points of their own,
 * never run on a grouped shape): X(name, description, stages, tile_w, tile_t, warp_spec,
 * persistent, tma_store, split_k, gate, pingpong).  tile_w counts output columns per CTA; gate 1 pairs a
 * B1 and a B2 warpgroup on the same 64 columns (tile_w 64; the B2 warpgroup hands its fp32
 * accumulators to the B1 warpgroup through shared memory, which forms silu(acc1) * acc2 and
 * stores; where that buffer does not fit, three 256-token stages, the two exchange halves
 * in the unit's last ring slot and each forms and stages its half: needs _tmr), gate 2 gives
 * each warpgroup both accumulators of its 64 columns (tile_t <= 128 for registers).  pingpong 1 (_pp; gate 2, 64 columns, producer warpgroup, persistent): two consumer
 * warpgroups each run whole units, the CTA's units in turn, their main loops one after the other, so
 * one's epilogue and store run beside the other's main loop (seed 002's ping-pong).  Names spell the
 * knobs as above, then _pp, then _g1 or _g2.
 * NVFP4_DUAL_PRODUCTION_POINTS: each dual benchmark's default and the rule's (variants.c,
 * nvfp4_dual_variant_default), in every program; NVFP4_DUAL_EVIDENCE_POINTS: the seed
 * proposals' switches on the dual GEMM (docs/dual.md), only for `make nvfp4-evidence`. */
#define NVFP4_DUAL_PRODUCTION_POINTS(X)                                                                              \
    X("s4_w128_t128_ws_p_tmr_skr_g2", "dual, both accumulators per warpgroup: 4 stages, 128 columns per CTA, "       \
      "producer warpgroup, persistent, store staged in the last ring slot, split K where whole tiles leave a CTA "   \
      "over the mean", 4, 128, 128, 1, 1, 2, 2, 2, 0)                                                                \
    X("s4_w64_t128_ws_p_tma_sk_g1", "dual, B1/B2 warpgroup pair on 64 columns: 4 stages, producer warpgroup, "       \
      "persistent, TMA-store epilogue, split K (equal work per CTA)", 4, 64, 128, 1, 1, 1, 1, 1, 0)                  \
    X("s3_w64_t256_ws_p_tmr_g1", "dual, B1/B2 warpgroup pair on 64 columns: 3 stages, 256-token tiles, producer "    \
      "warpgroup, persistent, store staged in the last ring slot, which also carries the two warpgroups' exchange "  \
      "of halves (no room for a buffer of its own)", 3, 64, 256, 1, 1, 2, 0, 1, 0)                                   \
    X("s3_w64_t256_ws_p_tmr_sk_g1", "as s3_w64_t256_ws_p_tmr_g1 with split K (dealt, its fixed costs counted)",      \
      3, 64, 256, 1, 1, 2, 1, 1, 0)                                                                                  \
    X("s3_w64_t256_ws_p_tmr_skp_g1", "as s3_w64_t256_ws_p_tmr_g1 with split K across a cluster pair: two CTAs each "  \
      "run half of a tile's K blocks and exchange their partial sums through each other's shared memory",           \
      3, 64, 256, 1, 1, 2, 3, 1, 0)

#define NVFP4_DUAL_EVIDENCE_POINTS(X)                                                                                \
    X("s4_w64_t128_ws_p_tma_g1", "as s4_w64_t128_ws_p_tma_skr_g1 without split K", 4, 64, 128, 1, 1, 1, 0, 1, 0)     \
    X("s4_w128_t128_ws_p_tmr_sk_g2", "as s4_w128_t128_ws_p_tmr_skr_g2 with split K (equal work per CTA)",            \
      4, 128, 128, 1, 1, 2, 1, 2, 0)                                                                                 \
    X("s3_w128_t128_ws_p_tma_g2", "as s4_w128_t128_ws_p_tmr_g2 with the TMA-store epilogue's own staging (3 "        \
      "stages fit)",                                                                                                 \
      3, 128, 128, 1, 1, 1, 0, 2, 0)                                                                                 \
    X("s4_w128_t128_ws_p_g2", "as s4_w128_t128_ws_p_tmr_skr_g2 with SIMT stores and whole tiles",                    \
      4, 128, 128, 1, 1, 0, 0, 2, 0)                                                                                 \
    X("s4_w64_t128_ws_p_tma_skr_g1", "as s4_w64_t128_ws_p_tma_sk_g1 with split K where whole tiles leave a CTA over " \
      "the mean", 4, 64, 128, 1, 1, 1, 2, 1, 0)                                                                      \
    X("s1_w64_t128_ws_p_tma_sk_g1", "as s4_w64_t128_ws_p_tma_sk_g1 with 1 stage", 1, 64, 128, 1, 1, 1, 1, 1, 0)      \
    X("s4_w64_t64_ws_p_tma_sk_g1", "as s4_w64_t128_ws_p_tma_sk_g1 with 64-token tiles", 4, 64, 64, 1, 1, 1, 1, 1, 0) \
    X("s4_w64_t128_ws_p_sk_g1", "as s4_w64_t128_ws_p_tma_sk_g1 with SIMT stores", 4, 64, 128, 1, 1, 0, 1, 1, 0)      \
    X("s4_w64_t128_p_tma_sk_g1", "as s4_w64_t128_ws_p_tma_sk_g1 without the producer warpgroup",                     \
      4, 64, 128, 0, 1, 1, 1, 1, 0)                                                                                  \
    X("s1_w128_t128_ws_p_g2", "as s4_w128_t128_ws_p_g2 with 1 stage", 1, 128, 128, 1, 1, 0, 0, 2, 0)                 \
    X("s4_w64_t128_ws_p_g2", "as s4_w128_t128_ws_p_g2 with 64 columns per CTA", 4, 64, 128, 1, 1, 0, 0, 2, 0)        \
    X("s4_w128_t128_p_g2", "as s4_w128_t128_ws_p_g2 without the producer warpgroup", 4, 128, 128, 0, 1, 0, 0, 2, 0)  \
    X("s2_w128_t128_ws_p_tmr_sk_g2", "as s4_w128_t128_ws_p_tmr_sk_g2 with 2 stages", 2, 128, 128, 1, 1, 2, 1, 2, 0)  \
    X("s4_w64_t128_ws_p_tmr_sk_g2", "as s4_w128_t128_ws_p_tmr_sk_g2 with 64 columns per CTA",                        \
      4, 64, 128, 1, 1, 2, 1, 2, 0)                                                                                  \
    X("s4_w128_t128_ws_p_sk_g2", "as s4_w128_t128_ws_p_tmr_sk_g2 with SIMT stores", 4, 128, 128, 1, 1, 0, 1, 2, 0)   \
    X("s4_w128_t128_p_sk_g2", "as s4_w128_t128_ws_p_sk_g2 without the producer warpgroup", 4, 128, 128, 0, 1, 0, 1, 2, 0) \
    X("s2_w64_t256_ws_p_tmr_g1", "dual, B1/B2 warpgroup pair: 2 stages, 256-token tiles, store staged in the last "  \
      "ring slot", 2, 64, 256, 1, 1, 2, 0, 1, 0)                                                                     \
    X("s4_w128_t128_ws_p_tmr_g2", "as s4_w128_t128_ws_p_tmr_skr_g2 without split K", 4, 128, 128, 1, 1, 2, 0, 2, 0)  \
    X("s1_w64_t128_g1", "dual baseline: 1 stage (load, then compute), one CTA per tile, SIMT stores",                \
      1, 64, 128, 0, 0, 0, 0, 1, 0)                                                                                  \
    X("s4_w64_t128_g1", "dual baseline with a 4-stage ring (loads issued by a consumer thread)",                     \
      4, 64, 128, 0, 0, 0, 0, 1, 0)                                                                                  \
    X("s1_w64_t64_g1", "dual baseline with 64-token tiles (smaller tiles)", 1, 64, 64, 0, 0, 0, 0, 1, 0)             \
    X("s1_w64_t128_tma_g1", "dual baseline with the TMA-store epilogue", 1, 64, 128, 0, 0, 1, 0, 1, 0)               \
    X("s1_w64_t128_ws_g1", "dual baseline with a producer warpgroup", 1, 64, 128, 1, 0, 0, 0, 1, 0)                  \
    X("s4_w64_t128_ws_g1", "dual: 4 stages, producer warpgroup, one CTA per tile", 4, 64, 128, 1, 0, 0, 0, 1, 0)     \
    X("s4_w64_t128_ws_p_g1", "as s4_w64_t128_ws_g1 with persistent CTAs (SIMT stores)", 4, 64, 128, 1, 1, 0, 0, 1, 0) \
    X("s1_w64_t128_ws_p_tma_g1", "as s4_w64_t128_ws_p_tma_g1 with 1 stage", 1, 64, 128, 1, 1, 1, 0, 1, 0)            \
    X("s4_w64_t128_p_tma_g1", "as s4_w64_t128_ws_p_tma_g1 without the producer warpgroup",                           \
      4, 64, 128, 0, 1, 1, 0, 1, 0)                                                                                  \
    X("s4_w64_t64_ws_p_tma_g1", "as s4_w64_t128_ws_p_tma_g1 with 64-token tiles", 4, 64, 64, 1, 1, 1, 0, 1, 0)       \
    X("s4_w64_t128_ws_p_tmr_g1", "as s4_w64_t128_ws_p_tma_g1 with the store staged in the last ring slot",           \
      4, 64, 128, 1, 1, 2, 0, 1, 0)                                                                                  \
    X("s2_w64_t256_ws_p_tmr_skr_g1", "as s2_w64_t256_ws_p_tmr_g1 with split K where whole tiles leave a CTA over "   \
      "the mean",                                                                                                    \
      2, 64, 256, 1, 1, 2, 2, 1, 0)                                                                                  \
    X("s3_w64_t256_ws_p_tmr_skr_g1", "as s3_w64_t256_ws_p_tmr_g1 with split K where whole tiles leave a CTA over "   \
      "the mean", 3, 64, 256, 1, 1, 2, 2, 1, 0)                                                                      \
    X("s2_w64_t256_ws_p_tmr_sk_g1", "as s3_w64_t256_ws_p_tmr_sk_g1 with 2 stages (the exchange in a buffer of its "  \
      "own)", 2, 64, 256, 1, 1, 2, 1, 1, 0)                                                                          \
    X("s2_w64_t256_ws_p_g1", "as s2_w64_t256_ws_p_tmr_g1 with SIMT stores", 2, 64, 256, 1, 1, 0, 0, 1, 0)            \
    X("s2_w64_t256_ws_p_sk_g1", "as s2_w64_t256_ws_p_tmr_sk_g1 with SIMT stores", 2, 64, 256, 1, 1, 0, 1, 1, 0)      \
    X("s2_w64_t256_p_g1", "as s2_w64_t256_ws_p_g1 without the producer warpgroup", 2, 64, 256, 0, 1, 0, 0, 1, 0)     \
    X("s2_w64_t256_p_sk_g1", "as s2_w64_t256_ws_p_sk_g1 without the producer warpgroup",                             \
      2, 64, 256, 0, 1, 0, 1, 1, 0)                                                                                  \
    X("s4_w64_t128_ws_p_tmr_sk_g1", "as s4_w64_t128_ws_p_tmr_g1 with split K (equal work per CTA)",                  \
      4, 64, 128, 1, 1, 2, 1, 1, 0)                                                                                  \
    X("s1_w64_t128_g2", "dual baseline with both accumulators per warpgroup (one consumer warpgroup)",               \
      1, 64, 128, 0, 0, 0, 0, 2, 0)                                                                                  \
    X("s1_w128_t128_g2", "as s1_w64_t128_g2 with 128 columns per CTA (two consumer warpgroups)",                     \
      1, 128, 128, 0, 0, 0, 0, 2, 0)                                                                                 \
    X("s4_w64_t128_ws_p_tma_g2", "as s4_w64_t128_ws_p_tma_g1 with both accumulators in one warpgroup",               \
      4, 64, 128, 1, 1, 1, 0, 2, 0)                                                                                  \
    X("s4_w64_t128_ws_p_tmr_g2", "as s4_w128_t128_ws_p_tmr_g2 with 64 columns per CTA", 4, 64, 128, 1, 1, 2, 0, 2, 0) \
    X("s1_w128_t128_ws_p_tma_g2", "as s3_w128_t128_ws_p_tma_g2 with 1 stage", 1, 128, 128, 1, 1, 1, 0, 2, 0)         \
    X("s3_w128_t128_p_tma_g2", "as s3_w128_t128_ws_p_tma_g2 without the producer warpgroup",                         \
      3, 128, 128, 0, 1, 1, 0, 2, 0)                                                                                 \
    X("s2_w128_t128_ws_p_tmr_skr_g2", "as s4_w128_t128_ws_p_tmr_skr_g2 with 2 stages", 2, 128, 128, 1, 1, 2, 2, 2, 0) \
    X("s4_w64_t128_ws_p_tmr_skr_g2", "as s4_w128_t128_ws_p_tmr_skr_g2 with 64 columns per CTA (smaller tiles)",      \
      4, 64, 128, 1, 1, 2, 2, 2, 0)                                                                                  \
    X("s4_w128_t128_ws_p_skr_g2", "as s4_w128_t128_ws_p_tmr_skr_g2 with SIMT stores", 4, 128, 128, 1, 1, 0, 2, 2, 0) \
    X("s4_w128_t128_p_skr_g2", "as s4_w128_t128_ws_p_skr_g2 without the producer warpgroup (a consumer thread "      \
      "issues the loads)",                                                                                           \
      4, 128, 128, 0, 1, 0, 2, 2, 0)                                                                                 \
    X("s4_w128_t128_g2", "as s1_w128_t128_g2 with a 4-stage ring (loads issued by a consumer thread)",               \
      4, 128, 128, 0, 0, 0, 0, 2, 0)                                                                                 \
    X("s1_w128_t128_tma_g2", "as s1_w128_t128_g2 with the TMA-store epilogue", 1, 128, 128, 0, 0, 1, 0, 2, 0)        \
    X("s1_w128_t128_ws_g2", "as s1_w128_t128_g2 with a producer warpgroup", 1, 128, 128, 1, 0, 0, 0, 2, 0)           \
    X("s4_w64_t128_ws_p_pp_g2", "as s4_w64_t128_ws_p_g2 with two consumer warpgroups taking the units in turn "      \
      "(ping-pong)", 4, 64, 128, 1, 1, 0, 0, 2, 1)                                                                   \
    X("s4_w64_t128_ws_p_tma_pp_g2", "as s4_w64_t128_ws_p_tma_g2 with ping-pong", 4, 64, 128, 1, 1, 1, 0, 2, 1)       \
    X("s4_w64_t128_ws_p_tmr_skr_pp_g2", "as s4_w64_t128_ws_p_tmr_skr_g2 with ping-pong", 4, 64, 128, 1, 1, 2, 2, 2,  \
      1)                                                                                                             \
    X("s4_w64_t128_ws_p_tmr_sk_pp_g2", "as s4_w64_t128_ws_p_tmr_sk_g2 with ping-pong", 4, 64, 128, 1, 1, 2, 1, 2, 1)

#endif
