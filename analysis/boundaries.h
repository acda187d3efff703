/* Between main loops: on each warp that runs two or more units, what lies between the end of
 * one unit's MAINLOOP and the start of the next one's.  That gap is where a persistent kernel's
 * tensor work stops for the epilogue, so its parts say which one to attack: the drain
 * (ACC_TO_REG), the EPILOGUE, the STORE of the earlier unit, and the rest (waiting for the next
 * unit's first data, the stamps' own stores). */
#ifndef GS_BOUNDARIES_H
#define GS_BOUNDARIES_H

#include <stddef.h>

#include "timeline.h"

typedef struct gs_boundaries {
    size_t n;           /* boundaries: pairs of consecutive MAINLOOP instances of one warp */
    size_t warps;       /* warps with at least one */
    double gap_mean_ns, gap_p50_ns, gap_p90_ns; /* next MAINLOOP start - this MAINLOOP end */
    double acc_mean_ns, epi_mean_ns, store_mean_ns; /* those phases' time inside the gaps, per gap */
    double other_mean_ns;                           /* the rest of the gap */
} gs_boundaries;

/* 0, or -1 out of memory.  With no boundary every figure is 0 and n is 0. */
int gs_boundaries_compute(const gs_timeline *tl, gs_boundaries *out);

#endif
