/* The knob space of the NVFP4 kernel (see variants.h). */
#include <stdio.h>
#include "variants.h"

#include <string.h>

#include "points.h"
#include "schedule.h"
#include "../../instrument/gs_format.h"

#define NVFP4_PRODUCTION(NAME, DESC, S, TW, TT, WS, P, TS, SK) {NAME, DESC, S, TW, TT, WS, P, TS, SK, 0, 0, 0},
#define NVFP4_EVIDENCE(NAME, DESC, S, TW, TT, WS, P, TS, SK) {NAME, DESC, S, TW, TT, WS, P, TS, SK, 1, 0, 0},
static const nvfp4_variant k_variants[] = {NVFP4_PRODUCTION_POINTS(NVFP4_PRODUCTION)
                                               NVFP4_EVIDENCE_POINTS(NVFP4_EVIDENCE)};
#undef NVFP4_PRODUCTION
#undef NVFP4_EVIDENCE
#define N_VARIANTS ((int)(sizeof k_variants / sizeof k_variants[0]))

#define NVFP4_DUAL_PRODUCTION(NAME, DESC, S, TW, TT, WS, P, TS, SK, GT, PP)                                   \
    {NAME, DESC, S, TW, TT, WS, P, TS, SK, 0, GT, PP},
#define NVFP4_DUAL_EVIDENCE(NAME, DESC, S, TW, TT, WS, P, TS, SK, GT, PP)                                     \
    {NAME, DESC, S, TW, TT, WS, P, TS, SK, 1, GT, PP},
static const nvfp4_variant k_dual_variants[] = {NVFP4_DUAL_PRODUCTION_POINTS(NVFP4_DUAL_PRODUCTION)
                                                    NVFP4_DUAL_EVIDENCE_POINTS(NVFP4_DUAL_EVIDENCE)};
#undef NVFP4_DUAL_PRODUCTION
#undef NVFP4_DUAL_EVIDENCE
#define N_DUAL_VARIANTS ((int)(sizeof k_dual_variants / sizeof k_dual_variants[0]))

int nvfp4_variant_count(void)
{
    return N_VARIANTS;
}

const nvfp4_variant *nvfp4_variant_at(int i)
{
    return (i >= 0 && i < N_VARIANTS) ? &k_variants[i] : NULL;
}

/* The point called name in tab[0..n), or NULL. */
static const nvfp4_variant *find_in(const nvfp4_variant *tab, int n, const char *name)
{
    for (int i = 0; name && i < n; i++)
        if (strcmp(tab[i].name, name) == 0)
            return &tab[i];
    return NULL;
}

const nvfp4_variant *nvfp4_variant_find(const char *name)
{
    return find_in(k_variants, N_VARIANTS, name);
}

/* A benchmark shape and the name of its production point. */
typedef struct shape_default {
    const char *shape, *variant;
} shape_default;

/* The point tab[0..n) names for shape s, by find; NULL where s is none of the table's shapes. */
static const nvfp4_variant *table_default(const shape_default *tab, size_t n, const nvfp4_shape *s,
                                          const nvfp4_variant *(*find)(const char *))
{
    for (size_t i = 0; s && i < n; i++)
        if (strcmp(s->name, tab[i].shape) == 0)
            return find(tab[i].variant);
    return NULL;
}

/* Production point per benchmark shape: the fastest point of `make bench-variants` on the
 * H100, confirmed by alternating A/B rounds where the sweep's margin is small
 * (docs/variants.md, "Production defaults", has the measurements the choice came from). */
static const shape_default k_defaults[] = {
    {"g8k7168", "s3_w128_t256_ws_p_tmr_skr"},
    {"g8k2048", "s3_w128_t256_ws_p_tmr_sk"},
    {"g2k4096", "s4_w128_t128_ws_p_tma"},
    {"g2k1536", "s4_w128_t128_ws_p_tma"},
};

const nvfp4_variant *nvfp4_variant_default(const nvfp4_shape *s)
{
    const nvfp4_variant *v = table_default(k_defaults, sizeof k_defaults / sizeof k_defaults[0], s,
                                           nvfp4_variant_find);
    if (v)
        return v;
    /* any other shape: the point that won most benchmark shapes, if N allows 128-row tiles */
    for (int g = 0; s && g < s->groups; g++)
        if (s->n[g] % 128)
            return nvfp4_variant_find("s4_w64_t128_ws_p_tma");
    return nvfp4_variant_find("s4_w128_t128_ws_p_tma");
}

int nvfp4_dual_variant_count(void)
{
    return N_DUAL_VARIANTS;
}

const nvfp4_variant *nvfp4_dual_variant_at(int i)
{
    return (i >= 0 && i < N_DUAL_VARIANTS) ? &k_dual_variants[i] : NULL;
}

const nvfp4_variant *nvfp4_dual_variant_find(const char *name)
{
    return find_in(k_dual_variants, N_DUAL_VARIANTS, name);
}

/* The dual benchmarks' production points: d256n3072k4096's the fastest of every point in two
 * processes of `nvfp4-bench --dual --variants all` on the H100 after the gate arithmetic was cut
 * (samples/dual-variants-49-points.tsv; within 0.3% of the fastest); d256n4096k7168's the cluster
 * pair, 5.8% less time than that sweep's winner (s4_w64_t128_ws_p_tma_g1) in alternating rounds on
 * an H200 (samples/studies/pair-pdl-h200.tsv; not measured on an H100); at M = 512 the 256-token
 * B1/B2 pair with three stages, 7-8% less time than those in three processes (samples/dual-t256.tsv;
 * docs/dual.md, "Production defaults").
 * Any other shape: where N allows 128 columns per CTA, the rebalanced split K point of 128
 * columns, which spreads any tile count over the SMs (d256n4096k7168's default until a3aeeaa; not
 * measured on other shapes), else the B1/B2 warpgroup pair on 64 columns (every N the dual shapes
 * allow). */
static const shape_default k_dual_defaults[] = {
    {"d256n4096k7168", "s3_w64_t256_ws_p_tmr_skp_g1"},
    {"d256n3072k4096", "s4_w64_t128_ws_p_tma_sk_g1"},
    {"d512n4096k7168", "s3_w64_t256_ws_p_tmr_g1"},
    {"d512n3072k7168", "s3_w64_t256_ws_p_tmr_sk_g1"},
};

const nvfp4_variant *nvfp4_dual_variant_default(const nvfp4_shape *s)
{
    const nvfp4_variant *v = table_default(k_dual_defaults, sizeof k_dual_defaults / sizeof k_dual_defaults[0], s,
                                           nvfp4_dual_variant_find);
    if (v)
        return v;
    if (s && s->n[0] % 128 == 0)
        return nvfp4_dual_variant_find("s4_w128_t128_ws_p_tmr_skr_g2");
    return nvfp4_dual_variant_find("s4_w64_t128_ws_p_tma_sk_g1");
}

int nvfp4_variant_consumers(const nvfp4_variant *v)
{
    return !v ? 0 : v->pingpong || v->gate == 1 ? 2 : v->tile_w / 64;
}

int nvfp4_variant_unit_warpgroups(const nvfp4_variant *v)
{
    return !v ? 0 : v->pingpong ? 1 : nvfp4_variant_consumers(v);
}

int nvfp4_variant_runs_unit(const nvfp4_variant *v, int position, int warpgroup)
{
    return v && (!v->pingpong || (position & 1) == warpgroup);
}

int nvfp4_variant_warps(const nvfp4_variant *v)
{
    return v ? nvfp4_variant_consumers(v) * 4 + (v->warp_spec ? 4 : 0) : 0;
}

int nvfp4_variant_warp_roles(const nvfp4_variant *v, nvfp4_warp_role *out, int max)
{
    if (!v)
        return 0;
    const int cw = nvfp4_variant_consumers(v);
    int n = 0;
    for (int g = 0; g < cw && n < max; g++, n++) {
        /* without a producer warpgroup, thread 0 of consumer warpgroup 0 issues the loads */
        const char *loads = !v->warp_spec && g == 0 ? "; issues the loads" : "";
        nvfp4_warp_role *r = &out[n];
        char name[128]; /* every name here is under 63 characters; the bound is for the compiler */
        r->first = 4 * g;
        r->last = 4 * g + 3;
        if (v->gate == 1)
            snprintf(name, sizeof name, "%s warpgroup (GEMM%d%s)", g ? "B2" : "B1", g + 1, loads);
        else if (v->pingpong)
            snprintf(name, sizeof name, "ping-pong warpgroup %d (%s units%s)", g, g ? "odd" : "even", loads);
        else if (v->gate == 2)
            snprintf(name, sizeof name, "B1+B2 warpgroup %d (both GEMMs, rows %d-%d%s)", g, 64 * g, 64 * g + 63,
                     loads);
        else
            snprintf(name, sizeof name, "consumer warpgroup %d (rows %d-%d%s)", g, 64 * g, 64 * g + 63, loads);
        snprintf(r->name, sizeof r->name, "%.63s", name);
    }
    if (v->warp_spec && n < max) {
        snprintf(out[n].name, sizeof out[n].name, "producer warpgroup (loads)");
        out[n].first = 4 * cw;
        out[n].last = 4 * cw + 3;
        n++;
    }
    return n;
}

long long nvfp4_variant_partial_floats(const nvfp4_variant *v)
{
    return v ? (long long)nvfp4_variant_unit_warpgroups(v) * (v->gate == 2 ? 2 : 1) * 64 * v->tile_t : 0;
}

int nvfp4_variant_dequants(const nvfp4_variant *v)
{
    return v && v->gate == 2 ? 2 : 1;
}

unsigned nvfp4_variant_unit_events(const nvfp4_variant *v, int kblocks, int detail)
{
    return 4u + (detail ? (unsigned)(2 + nvfp4_variant_dequants(v)) * (unsigned)kblocks : 0u);
}

int nvfp4_variant_schedule(const nvfp4_variant *v, const nvfp4_shape *s, int sms, nvfp4_schedule *sc, char *err,
                           size_t errlen)
{
    return nvfp4_schedule_build(s, v->tile_w, v->tile_t, v->persistent, v->split_k, sms, sc, err, errlen);
}

int nvfp4_variant_clock_sampler(const nvfp4_variant *v)
{
    return v && v->warp_spec;
}

int nvfp4_variant_sampler_warp(const nvfp4_variant *v)
{
    return nvfp4_variant_clock_sampler(v) ? NVFP4_SAMPLER_WARP(nvfp4_variant_consumers(v) * 4) : -1;
}

int nvfp4_stamp_geometry(const nvfp4_variant *v, const nvfp4_shape *s, int sms, int detail, unsigned *ctas,
                         unsigned *warps_per_cta, unsigned *events_per_warp)
{
    nvfp4_schedule sc;
    char err[160];
    unsigned most = 0;
    if (!v || !s || nvfp4_variant_schedule(v, s, sms, &sc, err, sizeof err))
        return -1;
    for (int b = 0; b < sc.grid; b++)
        for (int wg = 0; wg < nvfp4_variant_consumers(v); wg++) { /* ping-pong: each its own units */
            unsigned ev = 0;
            for (int t = sc.cta_first[b]; t < sc.cta_first[b + 1]; t++)
                if (nvfp4_variant_runs_unit(v, t - sc.cta_first[b], wg))
                    ev += nvfp4_variant_unit_events(v, sc.tiles[t].kb1 - sc.tiles[t].kb0, detail);
            if (ev > most)
                most = ev;
        }
    if (ctas)
        *ctas = (unsigned)sc.grid;
    if (warps_per_cta)
        *warps_per_cta = (unsigned)nvfp4_variant_warps(v);
    /* the loading warp of a producer warpgroup stores its PROLOGUE, even in a CTA without tiles */
    if (v->warp_spec && most < 1)
        most = 1;
    /* the twins' clock sampler (a spare producer warp) stores up to GS_CLOCK_SAMPLES pairs */
    if (nvfp4_variant_clock_sampler(v) && most < GS_CLOCK_SAMPLES)
        most = GS_CLOCK_SAMPLES;
    if (events_per_warp)
        *events_per_warp = most;
    nvfp4_schedule_free(&sc);
    return 0;
}

int nvfp4_variant_full_width(const nvfp4_variant *v, const nvfp4_schedule *sc)
{
    return v && v->gate == 1 && v->split_k != NVFP4_SPLIT_PAIR && nvfp4_schedule_full_width(sc, v->tile_t);
}
