/* Known-answer checks of a run (docs/method.md, "Calibration"): recovered phase shares
 * against the expect.<PHASE> keys of meta.txt, the clock fit's residual against the timer
 * tick, complete stamps, and where the run declares one (expect.release.seen and
 * expect.release.polling: the phases of the poll that saw a flag, and of all the polls), the
 * spread of the instants the CTAs saw one released flag against one poll period. */
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
    size_t ctas;            /* CTAs that stamped the poll that saw the flag */
    double spread_ns;       /* latest - earliest release instant */
    double poll_max_ns, poll_median_ns; /* latency of the poll that saw the flag */
    double period_max_ns;               /* longest per-CTA mean poll period (all polls / their count) */
} gs_release_stats;

/* 1 and stats when the run declares a release check and has its records; 0 when it declares
 * none; -1 when it declares one its phases cannot give (why in err), or out of memory. */
int gs_release_compute(const gs_rundata *r, gs_release_stats *out, char *err, size_t errlen);

void gs_checks_run(const gs_rundata *r, gs_checklist *out);

#endif
