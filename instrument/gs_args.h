/* Numeric command-line values, checked whole: "50x", "" and out-of-range numbers are
 * refused (atoi would read "50x" as 50).  Each program prints its own one-line error.
 * Header-only, for the recorder, cupti-check, nvfp4-bench and nvfp4-selfcheck. */
#ifndef GS_ARGS_H
#define GS_ARGS_H

#include <errno.h>
#include <string.h>
#include <stdlib.h>

/* The timing method's minimum number of repetitions (docs/method.md). */
#define GS_MIN_REPS 50
#define GS_MAX_REPS 1000000

/* A whole decimal number in [lo, hi] into *out: 0, or -1 (nothing written). */
static inline int gs_parse_long(const char *v, long lo, long hi, long *out)
{
    char *end = NULL;
    errno = 0;
    const long x = v ? strtol(v, &end, 10) : 0;
    if (!v || errno || end == v || *end || x < lo || x > hi)
        return -1;
    *out = x;
    return 0;
}

/* A non-negative whole number (decimal, or hex after 0x; a leading 0 is still decimal) into
 * *out: 0, or -1. */
static inline int gs_parse_u64(const char *v, unsigned long long *out)
{
    char *end = NULL;
    errno = 0;
    const char *d = v;
    while (d && (*d == ' ' || *d == '\t'))
        d++;
    const int hex = d && d[0] == '0' && (d[1] == 'x' || d[1] == 'X');
    const unsigned long long x = v ? strtoull(v, &end, hex ? 16 : 10) : 0;
    if (!v || errno || end == v || *end || strchr(v, '-')) /* strtoull negates " -3" */
        return -1;
    *out = x;
    return 0;
}

/* A number in (lo, hi] into *out: 0, or -1. */
static inline int gs_parse_double(const char *v, double lo, double hi, double *out)
{
    char *end = NULL;
    const double x = v ? strtod(v, &end) : 0;
    if (!v || end == v || *end || !(x > lo && x <= hi))
        return -1;
    *out = x;
    return 0;
}

#endif
