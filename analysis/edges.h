/* Interval boundaries sorted by time, for the sweeps of the phase and SM-time
 * analyses: an LSD radix sort on integer keys (1/8 ns resolution), ends
 * before starts at the same instant, so touching intervals do not overlap. */
#ifndef GS_EDGES_H
#define GS_EDGES_H

#include <stddef.h>
#include <stdint.h>

typedef struct gs_edge {
    uint64_t key;  /* ((t - origin) * 8) << 1 | is_start */
    int32_t kind;  /* what starts or ends: a phase, residency, an SM ... */
    int32_t delta; /* +1 start, -1 end */
} gs_edge;

/* The key of a boundary at t ns, origin <= t. */
static inline uint64_t gs_edge_key(double t, double origin, int is_start)
{
    double x = (t - origin) * 8.0;
    uint64_t q = x > 0 ? (uint64_t)(x + 0.5) : 0;
    return q << 1 | (uint64_t)(is_start != 0);
}

static inline double gs_edge_time(uint64_t key, double origin) { return origin + (double)(key >> 1) / 8.0; }

/* Sorts e[0..n) by key; tmp holds n edges. */
void gs_edges_sort(gs_edge *e, gs_edge *tmp, size_t n);

/* k-th smallest of v[0..n) (0-based); reorders v. */
double gs_select(double *v, size_t n, size_t k);

#endif
