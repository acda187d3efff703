/* The knob space of the NVFP4 kernel: named points, lookup, stamp geometry and the
 * dispatch to the production (_prod) or instrumented (_twin) build of gemm.cu.
 * Every entry here is instantiated in gemm.cu (NVFP4_POINT list); a later task adds
 * points by implementing the knob values that gemm.cu's static_asserts still reject. */
#include <string.h>

#include "nvfp4_internal.h"

static const nvfp4_variant k_variants[] = {
    {"base",
     "baseline: 1 CTA per 128x128 tile, 1 stage, serial TMA->dequant->wgmma, SIMT stores (Hopper analogue "
     "of the reference submission)",
     1, 128, 128, 0, 0, 0},
    {"base_t64", "baseline with 64-token tiles (less token padding for small M_g, 2x CTAs)", 1, 128, 64, 0, 0,
     0},
    {"base_w64", "baseline with 64-weight-row tiles (2x CTAs for the 2-group shapes)", 1, 64, 128, 0, 0, 0},
};
#define N_VARIANTS ((int)(sizeof k_variants / sizeof k_variants[0]))

int nvfp4_variant_count(void)
{
    return N_VARIANTS;
}

const nvfp4_variant *nvfp4_variant_at(int i)
{
    return (i >= 0 && i < N_VARIANTS) ? &k_variants[i] : NULL;
}

const nvfp4_variant *nvfp4_variant_find(const char *name)
{
    if (!name)
        return NULL;
    for (int i = 0; i < N_VARIANTS; i++)
        if (strcmp(k_variants[i].name, name) == 0)
            return &k_variants[i];
    return NULL;
}

int nvfp4_stamp_geometry(const nvfp4_variant *v, const nvfp4_problem *p, unsigned *ctas,
                         unsigned *warps_per_cta, unsigned *events_per_warp)
{
    const nvfp4_shape *s;
    unsigned ev = 0;
    if (!v || !p)
        return -1;
    s = nvfp4_problem_shape(p);
    for (int g = 0; g < s->groups; g++) {
        if (s->n[g] % v->tile_w)
            return -1;
        if (NVFP4_EVENTS_PER_WARP(s->k[g]) > ev)
            ev = NVFP4_EVENTS_PER_WARP(s->k[g]);
    }
    if (ctas)
        *ctas = (unsigned)nvfp4_count_tiles(s, v->tile_w, v->tile_t);
    if (warps_per_cta)
        *warps_per_cta = NVFP4_WARPS_PER_CTA;
    if (events_per_warp)
        *events_per_warp = ev;
    return 0;
}

int nvfp4_launch(const nvfp4_variant *v, int twin, nvfp4_problem *p, gs_buffer stamps, cudaStream_t s)
{
    const nvfp4_kparams *kp;
    if (!v || !p)
        return (int)cudaErrorInvalidValue;
    kp = nvfp4_problem_kparams(p, v->tile_w, v->tile_t); /* cached after the first call */
    if (!kp)
        return (int)cudaErrorInvalidValue;
    return twin ? nvfp4_gemm_launch_twin(v, kp, stamps, s) : nvfp4_gemm_launch_prod(v, kp, stamps, s);
}
