/* The NVFP4 grouped GEMM subject: a shape (registry name or custom spec), a
 * distribution, a variant of the kernel's knob space; verified on poisoned
 * outputs in both builds, and timed next to cuBLAS and the two ceilings. */
#define _POSIX_C_SOURCE 200809L
#include "subject_nvfp4.h"
#include "nvfp4/schedule.h"
#include "../instrument/gs_ceilings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int nvfp4_subject_launch(void *ctx, int build, gs_buffer b, cudaStream_t s)
{
    nvfp4_ctx *c = ctx;
    return nvfp4_launch(c->v, build == GS_BUILD_DETAIL ? NVFP4_DETAIL : build ? NVFP4_TWIN : NVFP4_PROD, c->p, b, s);
}

int nvfp4_subject_prepare(void *ctx, cudaStream_t s)
{
    nvfp4_ctx *c = ctx;
    return nvfp4_prepare(c->v, c->p, s);
}

int nvfp4_subject_launch_alone(void *ctx, cudaStream_t s)
{
    nvfp4_ctx *c = ctx;
    return nvfp4_launch_gemm_alone(c->v, c->p, s);
}

void nvfp4_subject_close(void *ctx)
{
    nvfp4_ctx *c = ctx;
    nvfp4_problem_destroy(c->p);
    free(c);
}

static int check_build(nvfp4_ctx *c, int which, gs_buffer b, cudaStream_t s, gs_meta *meta)
{
    nvfp4_check k;
    const char *build = which == NVFP4_DETAIL ? "detail" : which ? "twin" : "production";
    char key[64];
    cudaError_t e;
    if (nvfp4_problem_poison(c->p, s) || nvfp4_launch(c->v, which, c->p, b, s) ||
        (e = cudaStreamSynchronize(s)) != cudaSuccess) {
        fprintf(stderr, "gemmscope-record: %s launch for verification failed: %s\n", build,
                cudaGetErrorString(cudaGetLastError()));
        return -1;
    }
    if (nvfp4_problem_verify(c->p, &k))
        return -1;
    const struct {
        const char *name;
        double v;
    } fig[] = {{"elements", (double)k.elements},       {"bad", (double)k.bad},
               {"unwritten", (double)k.unwritten},     {"cpu_checked", (double)k.cpu_checked},
               {"cpu_bad", (double)k.cpu_bad},         {"max_abs_err", k.max_abs_err}};
    for (size_t i = 0; i < sizeof fig / sizeof fig[0]; i++) {
        snprintf(key, sizeof key, "check.%s.%s", build, fig[i].name);
        gs_meta_set(meta, key, "%.10g", fig[i].v);
    }
    return nvfp4_check_ok(&k) ? 1 : 0;
}

/* Every build the run times: production, twin and, where recorded, the detail twin; `stamps`
 * holds the largest of their stamp buffers. */
int nvfp4_subject_verify(void *ctx, gs_meta *meta, gs_buffer stamps, cudaStream_t s)
{
    nvfp4_ctx *c = ctx;
    int prod = check_build(c, NVFP4_PROD, (gs_buffer){0}, s, meta);
    int twin = prod < 0 ? -1 : check_build(c, NVFP4_TWIN, stamps, s, meta);
    int detail = twin < 0 || !c->detail_too ? twin : check_build(c, NVFP4_DETAIL, stamps, s, meta);
    if (prod < 0 || twin < 0 || detail < 0)
        return -1;
    gs_meta_set(meta, "correct", "%d", prod && twin && detail);
    if (!(prod && twin && detail))
        fprintf(stderr, "gemmscope-record: WARNING: %s output out of tolerance or unwritten\n",
                !prod ? "production" : !twin ? "twin" : "detail twin");
    return 0;
}

/* The cuBLAS anchor (dequantise once, bf16 grouped GEMM) and the ceilings. */
static int anchors(void *ctx, gs_meta *meta, gs_timings *tim, const gs_l2_flusher *f, cudaStream_t s, int warmup,
                   int reps)
{
    nvfp4_ctx *c = ctx;
    nvfp4_cublas *cb = NULL;
    gs_timing t = {0};
    int rc = -1;
    long long bad = 0, elems = 0;
    if (nvfp4_cublas_create(c->p, &cb) || nvfp4_cublas_verify(cb, &bad, &elems))
        goto out;
    gs_meta_set(meta, "cublas.method", "%s", nvfp4_cublas_method(cb));
    gs_meta_set(meta, "cublas.what", "bf16 on the dequantised inputs");
    gs_meta_set(meta, "cublas.correct", "%d", bad == 0 && elems > 0);
    if (gs_time_launches(nvfp4_cublas_launch, cb, s, f, warmup, reps, &t) ||
        gs_timings_add(tim, "cublas", t.samples_ms, t.reps))
        goto out;
    gs_meta_set(meta, "cublas.time_ms", "%.6f", t.median_ms);
    rc = gs_ceilings_measure(meta, tim, f, s, warmup, reps);
out:
    gs_timing_free(&t);
    nvfp4_cublas_destroy(cb);
    return rc;
}

/* The kernel's sub-phases, as the run names them: each stamped once per K block by the
 * detail twin's first consumer warp of each warpgroup (the dual GEMM's gate 2: DEQUANT twice). */
int nvfp4_subject_name_phases(gs_rundir *rd)
{
    char err[256];
    if (gs_rundir_phase(rd, NVFP4_LOAD_WAIT, "LOAD_WAIT", GS_MAINLOOP, "wait", err, sizeof err) ||
        gs_rundir_phase(rd, NVFP4_DEQUANT, "DEQUANT", GS_MAINLOOP, "prep", err, sizeof err) ||
        gs_rundir_phase(rd, NVFP4_MMA, "MMA", GS_MAINLOOP, "mma", err, sizeof err)) {
        fprintf(stderr, "gemmscope-record: %s\n", err);
        return -1;
    }
    return 0;
}

/* The point's schedule as the run's units (the kernel's GS_TILE tag is the unit's index),
 * and what a unit is; *computed gets the flops the tiles compute, padding included. */
int nvfp4_subject_write_units(const nvfp4_variant *v, const nvfp4_shape *sh, int sms, int gemms, const char *what,
                              gs_rundir *rd, double *computed)
{
    nvfp4_schedule sc;
    char why[256];
    if (nvfp4_variant_schedule(v, sh, sms, &sc, why, sizeof why)) {
        fprintf(stderr, "gemmscope-record: %s\n", why);
        return -1;
    }
    int rc = 0;
    *computed = 0;
    for (int b = 0; b < sc.grid && !rc; b++)
        for (int t = sc.cta_first[b]; t < sc.cta_first[b + 1] && !rc; t++) {
            const nvfp4_tile *x = &sc.tiles[t];
            gs_unit u = {(uint32_t)t, (uint32_t)b, x->group, x->n_eff, x->kb0, x->kb1, x->parts,
                         2.0 * gemms * v->tile_w * x->n_eff * NVFP4_BK * (x->kb1 - x->kb0)};
            *computed += u.flops;
            if (gs_rundir_unit(rd, &u, why, sizeof why)) {
                fprintf(stderr, "gemmscope-record: %s\n", why);
                rc = -1;
            }
        }
    nvfp4_schedule_free(&sc);
    gs_meta *m = &rd->meta;
    gs_meta_set(m, "units.what", "%s", what);
    gs_meta_set(m, "units.width", "token columns the wgmmas compute (n_eff): the tile's valid tokens rounded up to %d",
                NVFP4_N_STEP);
    gs_meta_set(m, "units.k_block", "%d", NVFP4_BK);
    gs_meta_set(m, "units.kblock_phase", "LOAD_WAIT");
    return rc;
}

const nvfp4_point_set nvfp4_grouped_points = {"nvfp4",           nvfp4_shape_parse, nvfp4_variant_default,
                                               nvfp4_variant_find, nvfp4_variant_count, nvfp4_variant_at,
                                               0};

nvfp4_ctx *nvfp4_subject_open(const gs_record_args *a, const nvfp4_point_set *set, int gemms, const char *what_fmt,
                              gs_rundir *rd, gs_subject_run *run)
{
    char err[512], what[200];
    nvfp4_dist dist;
    gs_meta *meta = &rd->meta;
    nvfp4_ctx *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    if (!a->shape || set->parse(a->shape, &c->shape, err, sizeof err)) {
        fprintf(stderr, "gemmscope-record: %s\n", a->shape ? err : "--shape is required");
        free(c);
        return NULL;
    }
    if (nvfp4_dist_parse(a->dist, &dist)) {
        fprintf(stderr, "gemmscope-record: unknown distribution '%s' (gpumode, full)\n", a->dist);
        free(c);
        return NULL;
    }
    const nvfp4_variant *dv = set->dflt(&c->shape);
    const char *vname = strcmp(a->variant, "default") == 0 ? (dv ? dv->name : "?") : a->variant;
    c->v = set->find(vname);
    if (!c->v) {
        fprintf(stderr, "gemmscope-record: unknown variant '%s'; `gemmscope variants %s` lists them\n", vname,
                set->subject);
        free(c);
        return NULL;
    }
    c->dist = dist;
    c->seed = a->seed;
    if (nvfp4_problem_create(&c->shape, dist, a->seed, &c->p)) {
        free(c);
        return NULL;
    }
    double computed = 0;
    snprintf(what, sizeof what, what_fmt, c->v->tile_w, c->v->tile_t);
    if (nvfp4_subject_geometry(c, a, run, meta) || nvfp4_subject_name_phases(rd) ||
        nvfp4_subject_write_units(c->v, &c->shape, nvfp4_problem_sms(c->p), gemms, what, rd, &computed)) {
        nvfp4_subject_close(c);
        return NULL;
    }
    gs_meta_set(meta, "shape", "%s", a->shape);
    gs_meta_set(meta, "variant", "%s", c->v->name);
    gs_meta_set(meta, "variant_requested", "%s", a->variant);
    gs_meta_set(meta, "variant.description", "%s", c->v->description);
    if (c->v->gate)
        gs_meta_set(meta, "knobs",
                    "stages=%d tile_w=%d tile_t=%d warp_spec=%d persistent=%d tma_store=%d split_k=%d gate=%d "
                    "pingpong=%d",
                    c->v->stages, c->v->tile_w, c->v->tile_t, c->v->warp_spec, c->v->persistent, c->v->tma_store,
                    c->v->split_k, c->v->gate, c->v->pingpong);
    else
        gs_meta_set(meta, "knobs", "stages=%d tile_w=%d tile_t=%d warp_spec=%d persistent=%d tma_store=%d split_k=%d",
                    c->v->stages, c->v->tile_w, c->v->tile_t, c->v->warp_spec, c->v->persistent, c->v->tma_store,
                    c->v->split_k);
    gs_meta_set(meta, "dist", "%s", nvfp4_dist_name(dist));
    gs_meta_set(meta, "seed", "%llu", a->seed);
    gs_meta_set(meta, "flops_computed", "%.0f", computed);
    run->verify = nvfp4_subject_verify;
    run->harness = nvfp4_subject_harness;
    run->close = nvfp4_subject_close;
    run->ctx = c;
    return c;
}

static int open_(const gs_record_args *a, gs_rundir *rd, gs_subject_run *run)
{
    nvfp4_ctx *c = nvfp4_subject_open(a, &nvfp4_grouped_points, 1,
                                      "an output tile of %d weight rows by up to %d tokens, or a split-K part of one",
                                      rd, run);
    if (!c)
        return -1;
    const nvfp4_shape *sh = &c->shape;
    gs_meta *meta = &rd->meta;
    gs_meta_set(meta, "groups", "%d", sh->groups);
    gs_meta_set(meta, "flops", "%.0f", nvfp4_shape_flops(sh));
    gs_meta_set(meta, "min_bytes", "%.0f", nvfp4_shape_min_bytes(sh));
    gs_meta_set(meta, "padding.what", "token rows past each group's M");
    run->anchors = anchors;
    return 0;
}

int nvfp4_subject_geometry(nvfp4_ctx *c, const gs_record_args *a, gs_subject_run *run, gs_meta *meta)
{
    unsigned ctas, wpc, epw, dctas = 0, dwpc = 0, depw = 0;
    const int sms = nvfp4_problem_sms(c->p);
    nvfp4_schedule sc;
    char why[256];
    c->detail_too = a->detail;
    if (nvfp4_variant_schedule(c->v, &c->shape, sms, &sc, why, sizeof why)) { /* the reason, where there is one */
        fprintf(stderr, "gemmscope-record: variant %s cannot run shape %s: %s\n", c->v->name, a->shape, why);
        return -1;
    }
    nvfp4_schedule_free(&sc);
    if (nvfp4_stamp_geometry(c->v, &c->shape, sms, 0, &ctas, &wpc, &epw) ||
        (a->detail && (nvfp4_stamp_geometry(c->v, &c->shape, sms, 1, &dctas, &dwpc, &depw) || dctas != ctas ||
                       dwpc != wpc))) {
        fprintf(stderr, "gemmscope-record: variant %s cannot run shape %s\n", c->v->name, a->shape);
        return -1;
    }
    gs_meta_set(meta, "ctas", "%u", ctas);
    gs_meta_set(meta, "threads_per_cta", "%u", wpc * 32);
    nvfp4_warp_role roles[4];
    const int nr = nvfp4_variant_warp_roles(c->v, roles, 4);
    gs_meta_set(meta, "warp_roles", "%d", nr);
    for (int i = 0; i < nr; i++) {
        char key[64];
        snprintf(key, sizeof key, "warp_role.%d.name", i);
        gs_meta_set(meta, key, "%s", roles[i].name);
        snprintf(key, sizeof key, "warp_role.%d.warps", i);
        gs_meta_set(meta, key, "%d-%d", roles[i].first, roles[i].last);
    }
    run->ctas = ctas;
    run->warps_per_cta = wpc;
    run->events_per_warp = epw;
    run->launch = nvfp4_subject_launch;
    /* the twin's stamps give every figure; with DETAIL=1 the detail twin's give the main loop's
     * sub-phases (stamps-detail.gss) */
    run->stamp_build = GS_BUILD_TWIN;
    run->events_per_warp_detail = a->detail ? depw : 0;
    gs_meta_set(meta, "stamps.build", "twin");
    run->prepare = nvfp4_subject_prepare;
    run->launch_alone = nvfp4_subject_launch_alone;
    return 0;
}

static int claims(const char *name, char *why, size_t n)
{
    nvfp4_shape s;
    why[0] = 0;
    if (nvfp4_shape_parse(name, &s, why, n) == 0)
        return 1;
    /* a registry-like name or a spec: the parser's reason is the useful one (the dual GEMM's
     * specs are its subject's) */
    if (!(strchr(name, '=') || ((name[0] == 'g' || name[0] == 't') && name[1] >= '0' && name[1] <= '9')) ||
        !strncmp(name, "dual:", 5))
        why[0] = 0;
    return 0;
}

static void list_shapes(FILE *out)
{
    char names[512];
    nvfp4_shape_names(names, sizeof names);
    for (char *save = NULL, *t = strtok_r(names, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        nvfp4_shape s;
        char err[256];
        if (nvfp4_shape_parse(t, &s, err, sizeof err))
            continue;
        fprintf(out, "%-10s %d group%s, %.1f GFLOP", t, s.groups, s.groups > 1 ? "s" : "", nvfp4_shape_flops(&s) / 1e9);
        for (int g = 0; g < s.groups && g < 3; g++)
            fprintf(out, "%s m=%d n=%d k=%d", g ? ";" : ":", s.m[g], s.n[g], s.k[g]);
        fprintf(out, "%s\n", s.groups > 3 ? " ..." : "");
    }
    fprintf(out, "%-10s a custom shape: m=96,128;n=128,256;k=256,512 (one value broadcasts)\n", "m=..;n=..;k=..");
}

int nvfp4_subject_list_variants(const nvfp4_point_set *set, FILE *out, const char *shape, char *err, size_t n)
{
    const nvfp4_variant *dflt = NULL;
    if (shape) {
        nvfp4_shape s;
        if (set->parse(shape, &s, err, n))
            return -1;
        dflt = set->dflt(&s);
    }
    /* set: prod points are in every build, evid points only after `make nvfp4-evidence` */
    fprintf(out, "%-31s %6s %6s %6s %4s %4s %4s %4s ", "variant", "stages", "tile_w", "tile_t", "ws", "pers", "tma",
            "sk");
    if (set->gate_column)
        fprintf(out, "%4s %4s ", "gate", "pp");
    fprintf(out, "%4s  %s\n", "set", "description");
    for (int i = 0; i < set->count(); i++) {
        const nvfp4_variant *v = set->at(i);
        fprintf(out, "%-31s %6d %6d %6d %4d %4d %4d %4d ", v->name, v->stages, v->tile_w, v->tile_t, v->warp_spec,
                v->persistent, v->tma_store, v->split_k);
        if (set->gate_column)
            fprintf(out, "%4d %4d ", v->gate, v->pingpong);
        fprintf(out, "%4s  %s%s\n", v->evidence ? "evid" : "prod", v->description, v == dflt ? "  [default]" : "");
    }
    return 0;
}

static int list_variants(FILE *out, const char *shape, char *err, size_t n)
{
    return nvfp4_subject_list_variants(&nvfp4_grouped_points, out, shape, err, n);
}

const gs_subject gs_subject_nvfp4 = {"nvfp4", "NVFP4 grouped GEMM (shapes g8k7168 ... t9 or m=..;n=..;k=..)", claims,
                                     list_shapes, list_variants, open_};
