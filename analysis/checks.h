/* Known-answer checks of a run (docs/method.md, "Calibration"): recovered phase shares
 * against the expect.<PHASE> keys of meta.txt, the clock fit's residual against the timer
 * tick, complete stamps, and where the run declares one (expect.release.seen and
 * expect.release.polling: the phases of the poll that saw a flag, and of all the polls), the
 * spread of the instants the CTAs saw one released flag against one poll period. */
#ifndef GS_CHECKS_H
#define GS_CHECKS_H

#include "run.h"

#define GS_SHARE_TOLERANCE 0.01 /* absolute, as a fraction of CTA time */
/* The clock model places a record on the common timeline within its held-out error (each
 * knot predicted from its neighbours: a conservative bound for records between knots).  What
 * that can move: when SMs run out of work (tail, balance, the SM end times) and where the
 * timeline and trace draw each record across SMs, by at most that error; the per-SM figures
 * (busy and exposed shares, SM-time) compare records on one SM's model and move only with its
 * slope.  The figures are read to a percent of the span: that is the bound checked. */
#define GS_PLACEMENT_SHARE 0.01

/* The clock model's error bound, ns: the held-out error, or without an interior knot the
 * pairs' residual against their line. */
double gs_clock_error_ns(const gs_timeline *tl);

typedef struct gs_check_row {
    char name[64];
    char expected[64], measured[64];
    int pass;
} gs_check_row;

typedef struct gs_checklist {
    int n;
    gs_check_row row[32];
} gs_checklist;

typedef struct gs_release_stats {
    size_t ctas;            /* CTAs that stamped the poll that saw the flag */
    double spread_ns;       /* latest - earliest release instant */
    double poll_max_ns, poll_median_ns; /* latency of the poll that saw the flag */
    double period_max_ns;               /* longest per-CTA mean poll period (all polls / their count) */
} gs_release_stats;

/* 1 and stats when the run declares a release check and has its records; 0 when it declares
 * none; -1 when it declares one its phases cannot give (why in err), or out of memory. */
int gs_release_compute(const gs_rundata *r, gs_release_stats *out, char *err, size_t errlen);

/* The clock model against the run's probes (probes.tsv): each probe's clock (its bracket's
 * middle) placed by the model against its %globaltimer reading.  A probe's read lies within a
 * tick after the timer's value and within its bracket, so the model may be off by its claimed
 * error (gs_clock_error_ns) plus half a tick plus half the bracket.  0 with stats, or -1 when the
 * run has no probes. */
typedef struct gs_probe_stats {
    size_t probes, outside;     /* probes placed, those beyond their allowance */
    double worst_ns;            /* largest |placed - timer| */
    double worst_excess_ns;     /* largest error beyond the allowance (<= 0: every probe within) */
} gs_probe_stats;
int gs_probes_check(const gs_rundata *r, gs_probe_stats *out);

void gs_checks_run(const gs_rundata *r, gs_checklist *out);

#endif
