/* Comparing two runs (`gemmscope diff A B`): the production time and each
 * phase's per-CTA busy time, as differences of medians (B - A) with 95%
 * bootstrap confidence intervals, and a verdict. */
#ifndef GS_DIFF_H
#define GS_DIFF_H

#include "run.h"

#define GS_BOOTSTRAP_RESAMPLES 2000
/* a change smaller than this fraction of A is reported as no significant change,
 * however tight its interval: clocks and placement move medians by that much */
#define GS_MIN_EFFECT 0.005

typedef struct gs_delta {
    double a, b;          /* medians */
    double delta;         /* b - a */
    double lo, hi;        /* 95% bootstrap interval of delta */
    int verdict;          /* -1 faster (B smaller), +1 slower, 0 no significant change */
} gs_delta;

/* Difference of medians of two samples with a percentile bootstrap (fixed seed: reproducible). */
gs_delta gs_delta_of(const double *a, size_t na, const double *b, size_t nb, int resamples, unsigned long long seed);
const char *gs_verdict_word(int v);

/* Writes the markdown comparison. */
int gs_diff_write(const gs_rundata *a, const gs_rundata *b, gs_buf *out);

/* Whether two runs measure the same thing, so that their difference is the change between
 * them: the same subject and shape, the same GPU, and stamps from the same build (the plain
 * twin against the detail twin would read the detail twin's own cost as a change).  1, or 0
 * with the first difference in why. */
int gs_runs_comparable(const gs_rundata *a, const gs_rundata *b, char *why, size_t n);

#endif
