#include "roofline.h"

#include <math.h>
#include <string.h>

const char *gs_bound_name(gs_bound b)
{
    switch (b) {
    case GS_BOUND_TENSOR: return "tensor-bound";
    case GS_BOUND_MEMORY: return "memory-bound";
    case GS_BOUND_LATENCY: return "latency/occupancy-bound";
    default: return "unknown";
    }
}

void gs_perf_compute(const gs_meta *m, double time_ms, gs_perf *p)
{
    memset(p, 0, sizeof *p);
    p->flops = gs_meta_num(m, "flops", NAN);
    p->bytes = gs_meta_num(m, "min_bytes", NAN);
    p->ceiling_tflops = gs_meta_num(m, "ceiling_tflops", NAN);
    p->ceiling_gbps = gs_meta_num(m, "ceiling_gbps", NAN);
    p->cublas_ms = gs_meta_num(m, "cublas.time_ms", NAN);
    p->correct = (int)gs_meta_num(m, "correct", -1);
    double computed = gs_meta_num(m, "flops_computed", NAN);
    p->padding = computed > 0 ? 1.0 - p->flops / computed : NAN;
    double s = time_ms * 1e-3;
    p->tflops = p->flops / s / 1e12;
    p->gbps = p->bytes / s / 1e9;
    p->ceiling_fraction = p->tflops / p->ceiling_tflops;
    p->bandwidth_fraction = p->gbps / p->ceiling_gbps;
    p->cublas_ratio = p->cublas_ms / time_ms;
    p->intensity = p->flops / p->bytes;
    p->ridge = p->ceiling_tflops * 1e12 / (p->ceiling_gbps * 1e9);
    p->floor_ms = 1e3 * fmax(p->flops / (p->ceiling_tflops * 1e12), p->bytes / (p->ceiling_gbps * 1e9));
    p->valid = isfinite(p->tflops) && isfinite(p->ceiling_fraction) && isfinite(p->bandwidth_fraction);
    if (!p->valid)
        p->bound = GS_BOUND_UNKNOWN;
    else if (p->ceiling_fraction >= GS_ROOF_NEAR)
        p->bound = GS_BOUND_TENSOR;
    else if (p->bandwidth_fraction >= GS_ROOF_NEAR)
        p->bound = GS_BOUND_MEMORY;
    else
        p->bound = GS_BOUND_LATENCY;
}
