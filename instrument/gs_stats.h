/* The one median of the project: sort, then the middle value (the mean of the middle two
 * for an even count).  Header-only, so every program that needs it (timing, the CUPTI
 * collectors, cupti-check, ncu-compare, gemmscope diff) gets it without a link dependency;
 * C and C++. */
#ifndef GS_STATS_H
#define GS_STATS_H

#include <stdlib.h>

static inline int gs_cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Sorts v[0..n) ascending in place and returns its median; v[0] and v[n - 1] are then the
 * extremes.  n >= 1. */
static inline double gs_sort_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, gs_cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

#endif
