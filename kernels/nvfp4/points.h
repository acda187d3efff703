/* The knob points of the NVFP4 kernel that are built: X-macro lists, so gemm.cu
 * (instantiation and dispatch) and variants.c (names, lookup) can never disagree.
 * X(name, description, stages, tile_w, tile_t, warp_spec, persistent, tma_store, split_k)
 * Names spell the knobs: s<stages>_w<tile_w>_t<tile_t>, then _ws (producer warpgroup),
 * _p (persistent CTAs), _tma (TMA-store epilogue), _tmr (tma_store = 2: the TMA-store
 * epilogue staged in the unit's last ring slot, which is released once the store has read
 * it; needs _ws and 2+ stages), _sk (split K, split_k = 1: every CTA gets the same share of
 * the work, tiles cut at K blocks where they overflow a share), _skr (split K, split_k = 2:
 * whole tiles first, then the most loaded CTAs hand K ranges of their last tile to the least
 * loaded; schedule.h).
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
    X("s3_w128_t256_ws_p_sk", "as s3_w128_t256_ws_p with split K (equal work per CTA)", 3, 128, 256, 1, 1, 0, 1)   \
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

#endif
