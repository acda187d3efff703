/* gemmscope stamp layout, shared by device code, the recorder and the analyzers.
 * Plain C: included from CUDA and from C11 host code.  The on-disk format built
 * from these structs is documented in docs/stamp-format.md. */
#ifndef GS_FORMAT_H
#define GS_FORMAT_H

#include <stdint.h>

/* Phase ids.  The five fixed phases are the mission's: every report knows them by id.
 * Ids GS_NUM_FIXED_PHASES .. GS_NUM_PHASES - 1 belong to the kernel: a sub-phase of a fixed
 * phase (the main loop's load wait, dequantisation, MMA) or a phase of its own.  The run
 * that records them names them (meta.txt `phase.<id>.name`, `.within`, `.role`:
 * docs/run-directory.md); GS_PHASE_OWN(i) is the kernel's i-th own id. */
enum gs_phase {
    GS_MAINLOOP = 0,
    GS_ACC_TO_REG = 1,
    GS_EPILOGUE = 2,
    GS_STORE = 3,
    GS_PROLOGUE = 4,
    GS_NUM_FIXED_PHASES = 5,
    GS_NUM_PHASES = 12
};
#define GS_PHASE_OWN(i) (GS_NUM_FIXED_PHASES + (i))
#define GS_NUM_OWN_PHASES (GS_NUM_PHASES - GS_NUM_FIXED_PHASES)

/* Not a phase: a record whose phase is GS_CLOCK_PAIR is a (%globaltimer, clock64) pair
 * taken right after a timer tick edge (gt_begin, clk_begin; clk_dur the bracket width
 * below, gt_dur 0), written by
 * the clock sampler (GS_CLOCK_SAMPLER in gs_stamp.cuh) between the warp headers' pairs, so
 * the analyzers can follow an SM clock that changes during the kernel. */
#define GS_CLOCK_PAIR 255u
/* What the sampler aims for: one pair per GS_CLOCK_PERIOD_NS, at most GS_CLOCK_SAMPLES per
 * warp (and never more than the warp's capacity: kernels that run a sampler declare at
 * least this many events per warp).  Each pair costs the twin time; at 1 us the clock model
 * keeps within its placement bound, at 2 us it did not (docs/notebook/2026-12-01-sampler-period.md). */
#define GS_CLOCK_PERIOD_NS 1000u
#define GS_CLOCK_SAMPLES 512u
/* A clock pair's clk_dur: the width in cycles of the two clock64 reads around its globaltimer
 * read (the pair's clock is their middle); wider brackets are not stored. */
#define GS_CLOCK_BRACKET_MAX 256u

/* Warp roles, set per warp at GS_INIT and changeable with GS_SET_ROLE. */
enum gs_role {
    GS_ROLE_ALL = 0,      /* a warp that does every phase itself */
    GS_ROLE_PRODUCER = 1, /* issues loads (TMA warp) */
    GS_ROLE_CONSUMER = 2, /* math warp(group) */
    GS_ROLE_EPILOGUE = 3, /* epilogue-only warp */
    GS_NUM_ROLES = 4
};

/* One finished phase instance, written by lane 0 of a warp at GS_END. 32 bytes. */
typedef struct gs_record {
    uint64_t gt_begin;  /* %globaltimer at begin, ns */
    uint64_t clk_begin; /* clock64 at begin, SM cycles */
    uint32_t clk_dur;   /* clock64 end - begin */
    uint32_t gt_dur;    /* %globaltimer end - begin */
    uint16_t tile;      /* tile index set by GS_TILE (per CTA or global, kernel's choice) */
    uint16_t group;     /* group index set by GS_TILE */
    uint8_t phase;      /* enum gs_phase */
    uint8_t role;       /* enum gs_role */
    uint16_t sm;        /* %smid */
} gs_record;

/* One per warp: identity, clock calibration pairs, event count.  64 bytes.
 * The (globaltimer, clock64) pairs are taken just after a globaltimer tick edge,
 * so the globaltimer value is exact to the read latency. */
typedef struct gs_warp_header {
    uint64_t gt_start, clk_start; /* pair at GS_INIT */
    uint64_t gt_end, clk_end;     /* pair at GS_FINISH */
    uint32_t cta;                 /* linear block index */
    uint16_t warp;                /* warp index inside the CTA */
    uint16_t sm;                  /* %smid at GS_INIT */
    uint32_t events;              /* events the warp tried to record (kept + dropped) */
    uint32_t flags;               /* GS_WARP_* bits */
    uint64_t reserved[2];
} gs_warp_header;

#define GS_WARP_STARTED 1u  /* GS_INIT ran */
#define GS_WARP_FINISHED 2u /* GS_FINISH ran */

/* Passed by value to every kernel (production builds ignore it). */
typedef struct gs_buffer {
    gs_warp_header *warps; /* [ctas * warps_per_cta] */
    gs_record *records;    /* [ctas * warps_per_cta * capacity] */
    uint32_t capacity;     /* records per warp, declared by the kernel */
    uint32_t warps_per_cta;
} gs_buffer;

#endif
