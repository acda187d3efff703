/* Synthetic stamp traces with known answers, for the host tests.
 * Events are given in true nanoseconds; each SM has its own cycle counter
 * (offset and rate), as on a real GPU, and the helper converts. */
#ifndef GS_SYNTH_H
#define GS_SYNTH_H

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "instrument/gs_file.h"

#define SYNTH_MAX_SM 256

/* The synthetic kernels' own phases; runs that need them named declare them in meta.txt
 * (phase.<id>.* keys, synth_name_phases). */
enum { SYN_WAIT = GS_PHASE_OWN(0), SYN_PREP = GS_PHASE_OWN(1), SYN_MMA = GS_PHASE_OWN(2), SYN_SEEN = GS_PHASE_OWN(3),
       SYN_POLL = GS_PHASE_OWN(4) };
#define SYNTH_GT_BASE 1700000000000000000ull /* a realistic %globaltimer origin */

typedef struct synth_ev {
    size_t warp;
    gs_record r;
} synth_ev;

typedef struct synth {
    uint32_t ctas, wpc, cap;
    double tick;
    uint64_t clk_off[SYNTH_MAX_SM];
    double ghz[SYNTH_MAX_SM];
    double slow_at[SYNTH_MAX_SM]; /* > 0: from this ns on the SM runs at ghz_after (a power limit) */
    double ghz_after[SYNTH_MAX_SM];
    gs_warp_header *w;
    synth_ev *ev;
    size_t n_ev, cap_ev;
} synth;

static inline void synth_init(synth *s, uint32_t ctas, uint32_t wpc, uint32_t cap)
{
    memset(s, 0, sizeof *s);
    s->ctas = ctas;
    s->wpc = wpc;
    s->cap = cap;
    s->tick = 32;
    for (int i = 0; i < SYNTH_MAX_SM; i++) {
        s->clk_off[i] = 1000000000ull * (uint64_t)(i + 1); /* every SM's counter started elsewhere */
        s->ghz[i] = 1.98;
    }
    s->w = calloc((size_t)ctas * wpc, sizeof(gs_warp_header));
}

static inline uint64_t synth_clk(const synth *s, int sm, double t_ns)
{
    double c = t_ns * s->ghz[sm];
    if (s->slow_at[sm] > 0 && t_ns > s->slow_at[sm])
        c = s->slow_at[sm] * s->ghz[sm] + (t_ns - s->slow_at[sm]) * s->ghz_after[sm];
    return s->clk_off[sm] + (uint64_t)llround(c);
}

/* A warp of `cta` on `sm`, alive from t0 to t1 ns (t1 < 0: never finished). */
static inline void synth_warp(synth *s, uint32_t cta, uint16_t warp, uint16_t sm, double t0, double t1)
{
    gs_warp_header *h = &s->w[(size_t)cta * s->wpc + warp];
    h->cta = cta;
    h->warp = warp;
    h->sm = sm;
    h->gt_start = SYNTH_GT_BASE + (uint64_t)llround(t0);
    h->clk_start = synth_clk(s, sm, t0);
    h->flags = GS_WARP_STARTED;
    if (t1 >= 0) {
        h->gt_end = SYNTH_GT_BASE + (uint64_t)llround(t1);
        h->clk_end = synth_clk(s, sm, t1);
        h->flags |= GS_WARP_FINISHED;
    }
}

/* One phase instance of a warp created with synth_warp. */
static inline void synth_event(synth *s, uint32_t cta, uint16_t warp, int phase, double t0, double t1, uint16_t tile)
{
    size_t w = (size_t)cta * s->wpc + warp;
    int sm = s->w[w].sm;
    if (s->n_ev == s->cap_ev) {
        s->cap_ev = s->cap_ev ? 2 * s->cap_ev : 64;
        s->ev = realloc(s->ev, s->cap_ev * sizeof *s->ev);
    }
    synth_ev *e = &s->ev[s->n_ev++];
    memset(e, 0, sizeof *e);
    e->warp = w;
    e->r.gt_begin = SYNTH_GT_BASE + (uint64_t)llround(t0);
    e->r.gt_dur = (uint32_t)llround(t1 - t0);
    e->r.clk_begin = synth_clk(s, sm, t0);
    e->r.clk_dur = (uint32_t)(synth_clk(s, sm, t1) - e->r.clk_begin);
    e->r.phase = (uint8_t)phase;
    e->r.sm = (uint16_t)sm;
    e->r.tile = tile;
    s->w[w].events++;
}

/* A clock sampler's (globaltimer, clock64) pair at t ns (a GS_CLOCK_PAIR record). */
static inline void synth_clock_pair(synth *s, uint32_t cta, uint16_t warp, double t)
{
    synth_event(s, cta, warp, 0, t, t, 0);
    synth_ev *e = &s->ev[s->n_ev - 1];
    e->r.phase = (uint8_t)GS_CLOCK_PAIR;
    e->r.gt_dur = 0;
}

static int synth_cmp(const void *a, const void *b)
{
    const synth_ev *x = a, *y = b;
    return (x->warp > y->warp) - (x->warp < y->warp);
}

/* Device-layout segments (capacity records per warp), as gs_file_write takes them. */
static inline gs_record *synth_segments(synth *s)
{
    size_t nw = (size_t)s->ctas * s->wpc;
    gs_record *seg = calloc(nw * s->cap, sizeof(gs_record));
    size_t *fill = calloc(nw, sizeof(size_t));
    for (size_t i = 0; i < s->n_ev; i++) {
        size_t w = s->ev[i].warp;
        if (fill[w] < s->cap)
            seg[w * s->cap + fill[w]++] = s->ev[i].r;
    }
    free(fill);
    return seg;
}

/* The trace as the reader would build it; the synth's buffers are handed over. */
static inline int synth_trace(synth *s, gs_trace *t)
{
    char err[256];
    size_t nw = (size_t)s->ctas * s->wpc, n = 0;
    qsort(s->ev, s->n_ev, sizeof *s->ev, synth_cmp); /* stable enough: events of a warp keep distinct times */
    gs_record *rec = calloc(s->n_ev + 1, sizeof(gs_record));
    size_t *fill = calloc(nw, sizeof(size_t));
    for (size_t i = 0; i < s->n_ev; i++) {
        size_t w = s->ev[i].warp;
        if (fill[w] < s->cap) {
            fill[w]++;
            rec[n++] = s->ev[i].r;
        }
    }
    free(fill);
    free(s->ev);
    s->ev = NULL;
    gs_warp_header *w = s->w;
    s->w = NULL;
    return gs_trace_from_arrays(t, s->ctas, s->wpc, s->cap, s->tick, w, rec, n, err, sizeof err);
}

#endif
