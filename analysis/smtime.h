/* Where SM time goes.  SM-time = SMs x kernel span, split per SM along the
 * timeline into: main loop active (any MAINLOOP instance on that SM), each
 * other phase while no main loop runs there (its exposed time), CTAs resident
 * in no phase, and no CTA resident (idle).  Where non-main-loop phases
 * overlap, the segment goes to the first of them in GS_EXPOSE_ORDER
 * (docs/method.md); each phase's own exposed time, counted without that rule,
 * gives the Amdahl bound. */
#ifndef GS_SMTIME_H
#define GS_SMTIME_H

#include "timeline.h"
#include "../instrument/gs_phase_table.h"

/* decomposition categories after the phases */
#define GS_SMT_RESIDENT GS_NUM_PHASES       /* a CTA resident, no phase active */
#define GS_SMT_IDLE (GS_NUM_PHASES + 1)     /* no CTA resident */
#define GS_SMT_CATEGORIES (GS_NUM_PHASES + 2)

typedef struct gs_smtime {
    int sms;                 /* SMs counted: the device's, or those seen if unknown */
    double span_ns;
    double sm_time_ns;       /* sms * span */
    double share[GS_SMT_CATEGORIES];       /* decomposition; sums to 1 */
    double exposed_share[GS_NUM_PHASES];   /* phase active, no main loop, over SM-time (overlaps counted for each) */
    double amdahl_bound[GS_NUM_PHASES];    /* max over SMs of that exposed time, over the span */
    /* waves and occupancy */
    double waves;            /* CTAs / (SMs x resident CTAs per SM) */
    int resident_per_sm;     /* most CTAs seen resident at once on one SM */
    double ctas_per_sm_mean;
    int ctas_per_sm_max, ctas_per_sm_min;
    double tail_ns;          /* from the first SM that ran CTAs running out of work to the kernel end */
    double tail_share;       /* tail_ns / span */
    double spread_worst, spread_median; /* per SM: max / median CTA duration */
    /* balance: when each SM runs out of work (its last CTA's end, 0 for an SM that ran
     * none), from the span's start */
    double end_min_ns, end_median_ns, end_max_ns;
    double balance_bound; /* 1 - mean SM end / span: the most an even spread of the same work saves */
    /* SMs busy over time, for the plot */
    int n_busy;
    double *busy_t;          /* time of each change, ns */
    int *busy_n;             /* SMs with a CTA resident from busy_t[i] */
} gs_smtime;

/* sm_count: SMs on the device (0: use the SMs seen). */
int gs_smtime_compute(const gs_timeline *tl, int sm_count, gs_smtime *out);
void gs_smtime_free(gs_smtime *s);

/* Order in which overlapping non-main-loop phases claim exposed time. */
extern const int GS_EXPOSE_ORDER[GS_NUM_PHASES - 1];
/* A category's name: the phase's, "resident" or "idle". */
const char *gs_smt_category(const gs_phase_table *names, int c);

#endif
