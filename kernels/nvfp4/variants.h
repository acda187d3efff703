/* The knob space of the NVFP4 kernel: named points (points.h), lookup, the production
 * default per shape, and the stamp geometry of a point.  Pure C, no CUDA headers: the
 * host-only gemmscope lists the points with it. */
#ifndef NVFP4_VARIANTS_H
#define NVFP4_VARIANTS_H

#include <stddef.h>

#include "schedule.h"
#include "shapes.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct nvfp4_variant {
    const char *name;
    const char *description;
    int stages;     /* shared-memory pipeline stages (1 = load, then compute, in turn) */
    int tile_w;     /* weight rows (= output columns n) per CTA: 64 per consumer warpgroup */
    int tile_t;     /* token rows (= output rows m) per tile: the largest wgmma N */
    int warp_spec;  /* 1 = a producer warpgroup issues the loads */
    int persistent; /* 1 = one CTA per SM walks a precomputed share of the tiles */
    int tma_store;  /* epilogue through shared memory and TMA store: 1 = staging of its own,
                       2 = staged in the unit's last ring slot (warp_spec, stages >= 2) */
    int split_k;    /* (persistent) NVFP4_SPLIT_DEAL: equal shares dealt in order, tiles cut at K blocks;
                       NVFP4_SPLIT_REBALANCE: whole tiles, then K ranges moved off the most loaded
                       CTAs; NVFP4_SPLIT_PAIR: clusters of two CTAs, each half of every tile's K
                       blocks (schedule.h) */
    int evidence;   /* 1: an evidence point (points.h), built only by `make nvfp4-evidence` */
    int gate;       /* 0: the grouped GEMM; the gated dual GEMM (dual.h; tile_w then counts output
                       columns): 1 a B1 and a B2 warpgroup per 64 columns, 2 both accumulators in
                       each warpgroup (points.h) */
    int pingpong;   /* 1 (gate 2, tile_w 64): two consumer warpgroups run the CTA's units in turn */
} nvfp4_variant;

/* Number of points, production and evidence (points.h). */
int nvfp4_variant_count(void);
/* Point i (0 <= i < count) or NULL. */
const nvfp4_variant *nvfp4_variant_at(int i);
/* Point by name, or NULL. */
const nvfp4_variant *nvfp4_variant_find(const char *name);
/* The production point for a shape: the measured table in variants.c for the benchmark
 * shapes, a documented rule for every other shape. */
const nvfp4_variant *nvfp4_variant_default(const nvfp4_shape *s);
/* The dual GEMM's points (gate 1 or 2; points.h): count, point i, by name, and the production
 * point of a dual shape (the table in variants.c for the four benchmarks, a rule for any
 * other), as the functions above. */
int nvfp4_dual_variant_count(void);
const nvfp4_variant *nvfp4_dual_variant_at(int i);
const nvfp4_variant *nvfp4_dual_variant_find(const char *name);
const nvfp4_variant *nvfp4_dual_variant_default(const nvfp4_shape *s);

/* 1 when this program holds the evidence points (`make nvfp4-evidence` links
 * evidence_built.c), 0 when their launchers refuse (evidence_none.c). */
int nvfp4_evidence_built(void);

/* Consumer warpgroups per CTA: tile_w / 64, two with gate 1 (B1's and B2's) or ping-pong. */
int nvfp4_variant_consumers(const nvfp4_variant *v);
/* Consumer warpgroups that share one unit: all of them, one with ping-pong. */
int nvfp4_variant_unit_warpgroups(const nvfp4_variant *v);
/* 1 when consumer warpgroup `warpgroup` runs the unit at `position` (0 = the first) of its CTA's
 * list: every unit, or with ping-pong those at even positions (warpgroup 0) or odd ones (1). */
int nvfp4_variant_runs_unit(const nvfp4_variant *v, int position, int warpgroup);
/* Threads per CTA / 32: 4 per consumer warpgroup, +4 for the producer warpgroup. */
int nvfp4_variant_warps(const nvfp4_variant *v);
/* A range of a CTA's warps with one job, as gemm.cu lays them out: the consumer warpgroups first,
 * then the producer warpgroup (warp_spec). */
typedef struct nvfp4_warp_role {
    char name[64];
    int first, last; /* warps, inclusive */
} nvfp4_warp_role;
/* v's warp roles into out (at most max, 3 are enough for every point); their count, 0 for NULL. */
int nvfp4_variant_warp_roles(const nvfp4_variant *v, nvfp4_warp_role *out, int max);
/* Floats of one split-K partial-sum buffer: the accumulators of every warpgroup of a unit (gate 2:
 * two sets each) for tile_t tokens. */
long long nvfp4_variant_partial_floats(const nvfp4_variant *v);
/* Stamp records one consumer warp writes for one unit of `kblocks` K blocks: MAINLOOP,
 * ACC_TO_REG, EPILOGUE, STORE, and in the detail twin per K block LOAD_WAIT, DEQUANT and MMA
 * (gate 2: DEQUANT twice, B1's and B2's; one MMA for both sets of wgmmas). */
unsigned nvfp4_variant_unit_events(const nvfp4_variant *v, int kblocks, int detail);
/* DEQUANT records per K block in the detail twin: 1, or 2 with gate 2. */
int nvfp4_variant_dequants(const nvfp4_variant *v);

/* v's schedule on shape s with `sms` SMs (nvfp4_schedule_build with the point's tiling,
 * persistence and split K): 0, or -1 with the reason in err. */
int nvfp4_variant_schedule(const nvfp4_variant *v, const nvfp4_shape *s, int sms, nvfp4_schedule *sc, char *err,
                           size_t errlen);

/* 1 when v's launch on schedule sc runs v's one-width kernel: v is a gate-1 point (not the cluster
 * pair, whose only kernel has one width) and every unit of sc is at v's full tile height
 * (nvfp4_schedule_full_width with v's tile_t); else 0.  The launcher's kp.full_width. */
int nvfp4_variant_full_width(const nvfp4_variant *v, const nvfp4_schedule *sc);

/* 1 when the point's twins run the clock sampler: on the second warp of its producer
 * warpgroup, which only the first needs (gemm.cu). */
int nvfp4_variant_clock_sampler(const nvfp4_variant *v);
/* That warp: the producer warpgroup's second (its first issues the loads), after the
 * consumer warps; gemm.cu starts the sampler there and the checks look for its pairs there. */
#define NVFP4_SAMPLER_WARP(consumer_warps) ((consumer_warps) + 1)
/* The producer warpgroup's third warp: the split parts' publisher (gemm.cu, publish_parts). */
#define NVFP4_PUBLISHER_WARP(consumer_warps) ((consumer_warps) + 2)
/* The CTA's warp index of v's clock sampler, or -1 where its twins run none. */
int nvfp4_variant_sampler_warp(const nvfp4_variant *v);

/* Stamp geometry of one launch of v on shape s with `sms` SMs, twin (detail 0) or detail
 * twin (detail 1; there only the first warp of each consumer warpgroup records sub-phases):
 * CTAs, warps per CTA, and the records per warp (the most any warp writes: a consumer's
 * phases, or the clock sampler's GS_CLOCK_SAMPLES pairs where the point runs one).  0 ok, -1 if v cannot run s. */
int nvfp4_stamp_geometry(const nvfp4_variant *v, const nvfp4_shape *s, int sms, int detail, unsigned *ctas,
                         unsigned *warps_per_cta, unsigned *events_per_warp);

#ifdef __cplusplus
}
#endif
#endif
