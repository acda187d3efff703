/* Speed against the ceilings measured in the same run: TFLOP/s, GB/s of the
 * minimum bytes, fractions of the tensor and copy ceilings, the ratio to
 * cuBLAS, padding waste, and which roof (if any) the run sits under. */
#ifndef GS_ROOFLINE_H
#define GS_ROOFLINE_H

#include "../instrument/gs_run.h"

typedef enum gs_bound { GS_BOUND_UNKNOWN, GS_BOUND_TENSOR, GS_BOUND_MEMORY, GS_BOUND_LATENCY } gs_bound;

#define GS_ROOF_NEAR 0.70 /* within this fraction of a roof: bound by it */

typedef struct gs_perf {
    int valid;                  /* the run has flops, bytes and ceilings */
    double flops, bytes;
    double tflops, gbps;
    double ceiling_tflops, ceiling_gbps;
    double ceiling_fraction;    /* tflops / ceiling_tflops */
    double bandwidth_fraction;  /* gbps / ceiling_gbps */
    double floor_ms;            /* max(flops / ceiling, bytes / bandwidth) */
    double intensity, ridge;    /* flop per byte: the run's and the ceilings' */
    double cublas_ms, cublas_ratio; /* cuBLAS time / our time (> 1: we are faster) */
    double padding;             /* 1 - useful flops / computed flops */
    int correct;                /* -1 unknown */
    gs_bound bound;
} gs_perf;

void gs_perf_compute(const gs_meta *meta, double time_ms, gs_perf *out);
const char *gs_bound_name(gs_bound b);

#endif
