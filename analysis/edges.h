/* Interval boundaries sorted by time, for the sweeps of the phase and SM-time
 * analyses: an LSD radix sort on integer keys (1/8 ns resolution), ends
 * before starts at the same instant, so touching intervals do not overlap.
 * Also each CTA's per-phase unions on those keys, which stand in for the
 * CTA's instances in both sweeps. */
#ifndef GS_EDGES_H
#define GS_EDGES_H

#include <stddef.h>
#include <stdint.h>
#include "timeline.h"

typedef struct gs_edge {
    uint64_t key;  /* ((t - origin) * 8) << 1 | is_start */
    int32_t kind;  /* what starts or ends: a phase, residency, an SM ... */
    int32_t delta; /* +1 start, -1 end */
} gs_edge;

/* The key of a boundary at t ns, origin <= t. */
static inline uint64_t gs_edge_key(double t, double origin, int is_start)
{
    double x = (t - origin) * 8.0;
    /* timelines are bounded (the reader refuses spans over 1000 s, 2^53 eighths); the clamp
     * keeps the conversion defined whatever a clock model extrapolates */
    uint64_t q = x > 0 ? (x < 0x1p62 ? (uint64_t)(x + 0.5) : (uint64_t)1 << 62) : 0;
    return q << 1 | (uint64_t)(is_start != 0);
}

static inline double gs_edge_time(uint64_t key, double origin) { return origin + (double)(key >> 1) / 8.0; }

/* Sorts e[0..n) by key; tmp holds n edges. */
void gs_edges_sort(gs_edge *e, gs_edge *tmp, size_t n);

/* k-th smallest of v[0..n) (0-based); reorders v. */
double gs_select(double *v, size_t n, size_t k);

/* [s, e): a boundary pair in gs_edge_key units without the start bit
 * (gs_edge_key(t, origin, 0) >> 1), so the sweeps' keys are s << 1 | 1 and e << 1. */
typedef struct gs_span {
    uint64_t s, e;
} gs_span;

/* How a CTA's instances of each phase are laid out before sorting.  Warps of
 * a CTA mostly run in step, so when every warp that has phase p has the same
 * number of instances, placing the m-th instance of all those warps together
 * (m major, warp minor) leaves p's spans nearly sorted by start. */
typedef struct gs_span_layout {
    size_t count[GS_NUM_PHASES];
    uint32_t warps[GS_NUM_PHASES];    /* warps (runs of one warp id) with phase p */
    uint32_t per_warp[GS_NUM_PHASES]; /* the first such warp's instances of p */
    unsigned ragged;                  /* bit p: warps differ in their count of p */
} gs_span_layout;

/* Per-phase unions of one CTA's instances, and the scratch that makes them;
 * reused from CTA to CTA.  Zero-initialise; release with gs_unions_free. */
typedef struct gs_unions {
    gs_span *span;                    /* phase p's union: span[at[p] .. at[p] + n[p]) */
    size_t at[GS_NUM_PHASES], n[GS_NUM_PHASES];
    unsigned present;                 /* bit p: the CTA has an instance of p (empty ones too) */
    gs_span *tmp;                     /* scratch */
    size_t cap;                       /* spans that span and tmp hold */
    gs_span_layout layout;            /* the last CTA's */
    /* When every warp of the last CTA recorded the same phase sequence (the
     * usual case): the j-th event of its r-th warp went to span[seq_at[j] + r]. */
    size_t seq_len, seq_warps, seq_cap;
    uint8_t *seq_phase;
    size_t *seq_at;
    int seq_tried;                    /* the sequence was sought for this layout */
} gs_unions;

/* For the events ev[0..n) of one CTA (grouped by warp, as the timeline keeps
 * them), each phase's union as sorted, disjoint, non-empty spans, boundaries
 * keyed as gs_edge_key(t, origin, .) keys them.  The union covers exactly the
 * instants where the edge sweep counts the phase active, so sweeps may use it
 * in place of the instances.  Returns 0; 1 if an instance ends before it
 * starts (counts then go negative in the sweep, which a union cannot mimic:
 * callers sweep the instances themselves); -1 out of memory. */
int gs_cta_unions(const gs_event *ev, size_t n, double origin, gs_unions *u);
void gs_unions_free(gs_unions *u);

#endif
