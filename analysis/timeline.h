/* The clock model and the nanosecond timeline every analysis uses.
 *
 * clock64 runs per SM and is not synchronised across SMs; %globaltimer is
 * global but ticks coarsely.  Per SM the (globaltimer, clock64) pairs every
 * warp took (at start and end, and the clock sampler's GS_CLOCK_PAIR records
 * in between) are merged into knots at least GS_KNOT_MIN_NS apart, and a record
 * is placed by interpolating its clock64 values between the knots around it:
 * the SM clock may change during the kernel (power limits), and a line through
 * the start and end pairs alone misplaces what happens in between.  Time 0 is
 * the earliest warp start (docs/method.md, "Clock model"). */
#ifndef GS_TIMELINE_H
#define GS_TIMELINE_H

#include <stddef.h>
#include <stdint.h>
#include "../instrument/gs_file.h"

#define GS_KNOT_MIN_NS 250.0

typedef struct gs_smfit {
    int points;          /* calibration pairs on this SM */
    int fallback;        /* 1: pairs spanning no time, slope borrowed from the other SMs */
    uint64_t clk_ref;    /* cycles origin of the fit */
    double a_ns, b_ns_per_cycle; /* least-squares line through the pairs (the SM's mean clock) */
    int knots;           /* >= 2: the piecewise-linear model through kx/ky is used */
    double *kx, *ky;     /* [knots] cycles from clk_ref (rising), ns on the timeline */
    double resid_max_ns; /* largest |globaltimer - model| over this SM's pairs */
    double heldout_max_ns; /* largest |knot - interpolation between its two neighbours|; NAN without
                            * an interior knot */
} gs_smfit;

typedef struct gs_event {
    double t0, t1;       /* ns on the common timeline */
    uint32_t cta;
    uint16_t warp, sm, tile, group;
    uint8_t phase, role;
} gs_event;

typedef struct gs_timeline {
    int n_sm;                 /* 1 + largest SM id seen */
    gs_smfit *fit;            /* [n_sm]; points == 0 for SMs not seen */
    double *knot_store;       /* the kx/ky arrays of every SM */
    int sms_used;
    double resid_max_ns;      /* worst over SMs */
    double heldout_max_ns;    /* worst over SMs; NAN when no SM has an interior knot */
    int heldout_knots;        /* interior knots it was measured on */
    int heldout_sms;          /* SMs that have an interior knot */
    int clock_pairs;          /* GS_CLOCK_PAIR records among the pairs */
    uint32_t clock_bracket_max; /* widest clock64 bracket of those pairs (their clk_dur), cycles */
    double knot_gap_ns;       /* median gap between neighbouring knots */
    double clock_ghz;         /* median over SMs of the mean SM clock (line slope) */
    double clock_ghz_lo, clock_ghz_hi; /* slowest and fastest SM clock over a run of knots at least
                                        * 1 us long; NAN when no SM has such a run */
    uint64_t gt_origin;       /* %globaltimer of time 0 */
    size_t n_warps;
    double *warp_t0, *warp_t1; /* [n_warps]; NaN for warps that did not start/finish */
    uint32_t ctas;
    double *cta_t0, *cta_t1;   /* [ctas] span of the CTA's warps; NaN if none finished */
    uint16_t *cta_sm;
    size_t *cta_first;         /* [ctas + 1]: CTA c's events are ev[cta_first[c] .. cta_first[c + 1]);
                                * NULL in a timeline made by hand: analyses then find the runs */
    double span_ns;           /* last warp end - first warp start */
    size_t n_events;
    gs_event *ev;             /* grouped by warp, in recording order */
    uint64_t dropped;         /* events beyond capacity */
    size_t warps_overflowed, warps_unfinished;
} gs_timeline;

/* Builds the timeline; -1 with one line in err if the trace has no usable warp. */
int gs_timeline_build(const gs_trace *t, gs_timeline *tl, char *err, size_t errlen);
void gs_timeline_free(gs_timeline *tl);
/* Cycles on SM `sm` to ns on the timeline. */
double gs_timeline_ns(const gs_timeline *tl, int sm, uint64_t clk);

#endif
