/* Known-answer checks of a run (docs/method.md, "Calibration"): recovered
 * phase shares against the expect.<PHASE> keys of meta.txt, the clock fit's
 * residual against the timer tick, the flag-release spread against one poll's
 * latency, and complete stamps. */
#ifndef GS_CHECKS_H
#define GS_CHECKS_H

#include "run.h"

#define GS_SHARE_TOLERANCE 0.01 /* absolute, as a fraction of CTA time */

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
    size_t ctas;            /* CTAs that stamped the releasing poll (USER0) */
    double spread_ns;       /* latest - earliest release instant */
    double poll_max_ns, poll_median_ns; /* latency of the poll that saw the flag */
    double period_max_ns;               /* longest per-CTA mean poll period (USER1 / its poll count) */
} gs_release_stats;

/* 0 and stats when the run has USER0 (release) records, else -1. */
int gs_release_compute(const gs_timeline *tl, gs_release_stats *out);

void gs_checks_run(const gs_rundata *r, gs_checklist *out);

#endif
