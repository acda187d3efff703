/* The clock model and the nanosecond timeline every analysis uses.
 *
 * clock64 runs per SM and is not synchronised across SMs; %globaltimer is
 * global but ticks coarsely.  Per SM we fit ns = a + b * cycles to the
 * (globaltimer, clock64) pairs each warp took at start and end, then place
 * every record by its clock64 values.  Time 0 is the earliest warp start. */
#ifndef GS_TIMELINE_H
#define GS_TIMELINE_H

#include <stddef.h>
#include <stdint.h>
#include "../instrument/gs_file.h"

typedef struct gs_smfit {
    int points;          /* calibration pairs on this SM */
    int fallback;        /* 1: too few distinct points, slope borrowed from other SMs */
    uint64_t clk_ref;    /* cycles origin of the fit */
    double a_ns, b_ns_per_cycle;
    double resid_max_ns; /* largest |globaltimer - fit| over this SM's pairs */
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
    int sms_used;
    double resid_max_ns;      /* worst over SMs */
    double clock_ghz;         /* median fitted SM clock */
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
