/* nvfp4 selfcheck: for every test and benchmark shape and both input distributions,
 * create the problem (once: every variant runs on it, against one reference), and per
 * variant poison C, run the production build, verify; then poison
 * again, run each instrumented build (twin, detail twin) into a stamp buffer sized from
 * nvfp4_stamp_geometry,
 * verify again and check the stamps (every warp started and finished, the exact record
 * count and phase mix, group tags).  One table row per run, plus a negative control (a
 * poisoned, never-launched C must be flagged everywhere), then "N passed, N failed";
 * exit 1 on any failure.  With --dual the same for the gated dual GEMM (dual.h): its nine
 * tests and four benchmarks, whose M are all multiples of 256, and one shape whose last token
 * tile is partial (M = 300: widths 64 and 256 or 128), its points (gate 1 and 2), its references.
 *
 * Usage: nvfp4_selfcheck [--dual] [--variant NAME|all] [--shapes a,b,..] [--seed N] [--cublas]
 *   --cublas also checks the cuBLAS anchor once per shape (gpumode; --dual: both routes) and
 *   the ceiling GEMM.
 *
 * Build: make build/nvfp4-selfcheck (or make check-gpu, which runs it). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "instrument/gs_args.h"
#include "instrument/gs_ceilings.h"
#include "instrument/gs_stamps.h"
#include "kernels/nvfp4/nvfp4.h"
#include "kernels/nvfp4/schedule.h"

#define BENCH_AND_TESTS "t0,t1,t2,t3,t4,t5,t6,t7,t8,t9,g8k7168,g8k2048,g2k4096,g2k1536"
#define DUAL_BENCH_AND_TESTS                                                                                  \
    "dt0,dt1,dt2,dt3,dt4,dt5,dt6,dt7,dt8,d256n4096k7168,d256n3072k4096,d512n4096k7168,d512n3072k7168,"         \
    "dual:m=300;n=512;k=1024"

static int g_pass, g_fail, g_skipped;

/* 0 when v's tile cannot cut s's N (the dual GEMM's 128-column points on an N that is a
 * multiple of 64 only); 1 otherwise (any other refusal is the run's to report, and fail). */
static int tiles_shape(const nvfp4_variant *v, const nvfp4_shape *s)
{
    return !(s->dual && s->n[0] % v->tile_w != 0);
}

/* The problem the run checks: the grouped GEMM's or the dual GEMM's shapes and points. */
typedef struct subject_set {
    const char *shapes, *control;
    int (*parse)(const char *spec, nvfp4_shape *out, char *err, size_t errlen);
    int (*count)(void);
    const nvfp4_variant *(*at)(int i);
    const nvfp4_variant *(*find)(const char *name);
    const nvfp4_variant *(*dflt)(const nvfp4_shape *s);
} subject_set;
static const subject_set k_grouped = {BENCH_AND_TESTS,     "t8",
                                      nvfp4_shape_parse,   nvfp4_variant_count,
                                      nvfp4_variant_at,    nvfp4_variant_find,
                                      nvfp4_variant_default};
static const subject_set k_dual = {DUAL_BENCH_AND_TESTS,       "dt1",
                                   nvfp4_dual_shape_parse,     nvfp4_dual_variant_count,
                                   nvfp4_dual_variant_at,      nvfp4_dual_variant_find,
                                   nvfp4_dual_variant_default};

/* Next comma-separated token of *cur (modified in place), or NULL at the end. */
static char *next_token(char **cur)
{
    char *t = *cur, *c;
    if (!t || !*t)
        return NULL;
    c = strchr(t, ',');
    if (c) {
        *c = '\0';
        *cur = c + 1;
    } else {
        *cur = t + strlen(t);
    }
    return t;
}

static int cuda_ok(cudaError_t e, const char *what)
{
    if (e != cudaSuccess) {
        fprintf(stderr, "selfcheck: %s: %s\n", what, cudaGetErrorString(e));
        return 0;
    }
    return 1;
}

/* Checks one consumer warp's records against the tiles its warpgroup runs (all of its CTA's, or
 * with ping-pong every other one) in schedule order: per tile
 * MAINLOOP + ACC_TO_REG + EPILOGUE + STORE (+ LOAD_WAIT/DEQUANT/MMA per stage in the detail
 * twin, DEQUANT twice with gate 2), tagged with
 * the tile's schedule index and group, role as the variant's warps have. */
static int check_consumer(const nvfp4_variant *v, const nvfp4_schedule *sc, int b, int warpgroup, int detail,
                          const gs_record *rec, unsigned n, unsigned role, char *why, size_t whylen)
{
    unsigned i = 0;
    for (int t = sc->cta_first[b]; t < sc->cta_first[b + 1]; t++) {
        if (!nvfp4_variant_runs_unit(v, t - sc->cta_first[b], warpgroup))
            continue;
        const int g = sc->tiles[t].group, kblocks = sc->tiles[t].kb1 - sc->tiles[t].kb0;
        const unsigned nk = detail ? (unsigned)kblocks : 0u, want = nvfp4_variant_unit_events(v, kblocks, detail);
        unsigned count[GS_NUM_PHASES] = {0};
        for (unsigned e = 0; e < want; e++, i++) {
            if (i >= n) {
                snprintf(why, whylen, "tile %d: only %u records", t, n);
                return 0;
            }
            if (rec[i].phase >= GS_NUM_PHASES || rec[i].group != (unsigned)g || rec[i].tile != (uint16_t)t ||
                rec[i].role != role) {
                snprintf(why, whylen, "record %u: phase %u group %u tile %u role %u, expected tile %d group %d", i,
                         rec[i].phase, rec[i].group, rec[i].tile, rec[i].role, t, g);
                return 0;
            }
            count[rec[i].phase]++;
        }
        if (count[GS_MAINLOOP] != 1 || count[NVFP4_LOAD_WAIT] != nk ||
            count[NVFP4_DEQUANT] != nk * (unsigned)nvfp4_variant_dequants(v) ||
            count[NVFP4_MMA] != nk || count[GS_ACC_TO_REG] != 1 || count[GS_EPILOGUE] != 1 || count[GS_STORE] != 1) {
            snprintf(why, whylen, "tile %d: wrong phase mix", t);
            return 0;
        }
    }
    if (i != n) {
        snprintf(why, whylen, "%u records, the schedule gives %u", n, i);
        return 0;
    }
    return 1;
}

/* The clock sampler's records (the second producer warp): at least one pair, every record a
 * GS_CLOCK_PAIR, both clocks rising, every pair inside the warp's own start and end. */
static int check_clock_pairs(const gs_warp_header *wh, const gs_record *rec, uint32_t capacity, char *why,
                             size_t whylen)
{
    if (wh->events < 1 || wh->events > capacity) {
        snprintf(why, whylen, "clock sampler stored %u pairs (capacity %u)", wh->events, capacity);
        return 0;
    }
    for (uint32_t i = 0; i < wh->events; i++) {
        const gs_record *r = &rec[i];
        if (r->phase != GS_CLOCK_PAIR || r->clk_dur > GS_CLOCK_BRACKET_MAX || r->gt_dur != 0) {
            snprintf(why, whylen, "clock sampler record %u is not a clock pair (phase %u)", i, (unsigned)r->phase);
            return 0;
        }
        if (r->gt_begin < wh->gt_start || r->gt_begin > wh->gt_end ||
            (i > 0 && (r->gt_begin <= rec[i - 1].gt_begin || r->clk_begin <= rec[i - 1].clk_begin))) {
            snprintf(why, whylen, "clock pair %u out of order or outside the warp's life", i);
            return 0;
        }
    }
    return 1;
}

/* Checks every warp header and record of a twin run (downloaded).  1 when all is as designed. */
static int check_stamps(const nvfp4_variant *v, const nvfp4_shape *s, int sms, int detail, const gs_stamps *st,
                        char *why, size_t whylen)
{
    const gs_buffer b = st->dev;
    nvfp4_schedule sc = {0, 0, NULL, NULL, 0, 0};
    int ok = 1;
    const unsigned consumers = (unsigned)nvfp4_variant_consumers(v) * 4u;
    if (nvfp4_variant_schedule(v, s, sms, &sc, why, whylen))
        return 0;
    if ((unsigned)sc.grid != st->ctas) {
        snprintf(why, whylen, "schedule has %d CTAs, geometry says %u", sc.grid, st->ctas);
        ok = 0;
    }
    for (unsigned cta = 0; ok && cta < st->ctas; cta++) {
        for (unsigned w = 0; ok && w < b.warps_per_cta; w++) {
            const gs_warp_header *wh = &st->warps[(size_t)cta * b.warps_per_cta + w];
            const gs_record *rec = &st->records[((size_t)cta * b.warps_per_cta + w) * b.capacity];
            char sub[200] = "";
            if (wh->flags != (GS_WARP_STARTED | GS_WARP_FINISHED) || wh->cta != cta || wh->warp != w) {
                snprintf(why, whylen, "cta %u warp %u: flags %u cta %u warp %u", cta, w, wh->flags, wh->cta,
                         (unsigned)wh->warp);
                ok = 0;
            } else if (wh->gt_end < wh->gt_start) {
                snprintf(why, whylen, "cta %u warp %u: globaltimer went backwards", cta, w);
                ok = 0;
            } else if ((int)w == nvfp4_variant_sampler_warp(v)) { /* the clock sampler */
                ok = check_clock_pairs(wh, rec, b.capacity, sub, sizeof sub);
                if (!ok)
                    snprintf(why, whylen, "cta %u warp %u: %s", cta, w, sub);
            } else if (v->warp_spec && w == consumers) { /* the loading warp: its wait for the tokens */
                if (wh->events != 1 || b.capacity < 1 || rec[0].phase != GS_PROLOGUE ||
                    rec[0].role != GS_ROLE_PRODUCER) {
                    snprintf(why, whylen, "cta %u loading warp: %u records (first phase %u), expected one PROLOGUE",
                             cta, wh->events, wh->events && b.capacity ? (unsigned)rec[0].phase : 0u);
                    ok = 0;
                }
            } else if (w >= consumers) { /* the other producer warps record no phases */
                if (wh->events != 0) {
                    snprintf(why, whylen, "cta %u producer warp: %u records, expected none", cta, wh->events);
                    ok = 0;
                }
            } else if (wh->events > b.capacity ||
                       !check_consumer(v, &sc, (int)cta, (int)(w / 4), detail && w % 4 == 0, rec, wh->events,
                                       v->warp_spec ? GS_ROLE_CONSUMER : GS_ROLE_ALL, sub, sizeof sub)) {
                snprintf(why, whylen, "cta %u warp %u: %s", cta, w,
                         wh->events > b.capacity ? "more records than capacity" : sub);
                ok = 0;
            }
        }
    }
    nvfp4_schedule_free(&sc);
    return ok;
}

static void print_row(const char *shape, const char *dist, const char *variant, const char *build,
                      const nvfp4_check *c, double us, const char *stamps, int pass)
{
    printf("%-8s %-7s %-25s %-4s %10lld %6lld %6lld %7lld %6lld %10.3g %10.3g %9.1f  %-6s %s\n", shape, dist, variant,
           build, c->elements, c->bad, c->unwritten, c->cpu_checked, c->cpu_bad, c->max_abs_err, c->max_rel_err, us,
           stamps, pass ? "PASS" : "FAIL");
    fflush(stdout);
    if (pass)
        g_pass++;
    else
        g_fail++;
}

/* One launch timed with events after one warm-up launch (information only, not a benchmark). */
static double one_shot_us(const nvfp4_variant *v, int build, nvfp4_problem *p, gs_buffer st)
{
    cudaEvent_t a, b;
    float ms = 0.0f;
    if (!cuda_ok(cudaEventCreate(&a), "event") || !cuda_ok(cudaEventCreate(&b), "event"))
        return NAN;
    if (nvfp4_launch(v, build, p, st, 0) != 0 || !cuda_ok(cudaEventRecord(a, 0), "record") ||
        nvfp4_launch(v, build, p, st, 0) != 0 || !cuda_ok(cudaEventRecord(b, 0), "record") ||
        !cuda_ok(cudaEventSynchronize(b), "sync") || !cuda_ok(cudaEventElapsedTime(&ms, a, b), "elapsed"))
        ms = NAN;
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    return 1000.0 * ms;
}

/* Variant v on problem p (distribution d): production build, then the twins. */
static void run_one(const nvfp4_variant *v, nvfp4_problem *p, nvfp4_dist d)
{
    const nvfp4_shape *s = nvfp4_problem_shape(p);
    nvfp4_check c;
    gs_buffer none;
    gs_stamps st;
    unsigned ctas = 0, wpc = 0, ev = 0;
    const char *dn = nvfp4_dist_name(d);
    int rc;
    double us;
    char why[256] = "";
    memset(&none, 0, sizeof none);
    memset(&st, 0, sizeof st);
    memset(&c, 0, sizeof c);

    /* production build */
    rc = nvfp4_problem_poison(p, 0);
    if (rc == 0)
        rc = nvfp4_launch(v, 0, p, none, 0);
    if (rc != 0) {
        fprintf(stderr, "selfcheck: %s %s %s prod launch: %s\n", s->name, dn, v->name,
                cudaGetErrorString((cudaError_t)rc));
        print_row(s->name, dn, v->name, "prod", &c, NAN, "-", 0);
    } else if (nvfp4_problem_verify(p, &c) != 0) {
        print_row(s->name, dn, v->name, "prod", &c, NAN, "-", 0);
    } else {
        us = one_shot_us(v, 0, p, none);
        print_row(s->name, dn, v->name, "prod", &c, us, "-", nvfp4_check_ok(&c));
    }

    /* the two instrumented builds */
    for (int build = NVFP4_TWIN; build <= NVFP4_DETAIL; build++) {
        const char *bn = build == NVFP4_TWIN ? "twin" : "detl";
        const int detail = build == NVFP4_DETAIL;
        memset(&c, 0, sizeof c);
        memset(&st, 0, sizeof st);
        if (nvfp4_stamp_geometry(v, s, nvfp4_problem_sms(p), detail, &ctas, &wpc, &ev) != 0) {
            fprintf(stderr, "selfcheck: no stamp geometry for %s on %s\n", v->name, s->name);
            print_row(s->name, dn, v->name, bn, &c, NAN, "-", 0);
            continue;
        }
        if (gs_stamps_alloc(&st, ctas, wpc, ev) || gs_stamps_reset(&st, 0)) {
            print_row(s->name, dn, v->name, bn, &c, NAN, "-", 0);
        } else {
            rc = nvfp4_problem_poison(p, 0);
            if (rc == 0)
                rc = nvfp4_launch(v, build, p, st.dev, 0);
            if (rc != 0) {
                fprintf(stderr, "selfcheck: %s %s %s %s launch: %s\n", s->name, dn, v->name, bn,
                        cudaGetErrorString((cudaError_t)rc));
                print_row(s->name, dn, v->name, bn, &c, NAN, "-", 0);
            } else if (nvfp4_problem_verify(p, &c) != 0) {
                print_row(s->name, dn, v->name, bn, &c, NAN, "-", 0);
            } else {
                int sok = gs_stamps_download(&st) == 0 &&
                          check_stamps(v, s, nvfp4_problem_sms(p), detail, &st, why, sizeof why);
                if (!sok)
                    fprintf(stderr, "selfcheck: %s %s %s %s stamps: %s\n", s->name, dn, v->name, bn, why);
                us = one_shot_us(v, build, p, st.dev);
                print_row(s->name, dn, v->name, bn, &c, us, sok ? "ok" : "BAD", nvfp4_check_ok(&c) && sok);
            }
        }
        gs_stamps_free(&st);
    }
}

/* Negative control: a poisoned C that no kernel wrote must fail verification everywhere
 * (shows the check can fail).  PASS means every element was flagged. */
static void run_control(const subject_set *set, unsigned long long seed)
{
    nvfp4_shape s;
    nvfp4_problem *p = NULL;
    nvfp4_check c;
    char err[512];
    int ok = 0;
    memset(&c, 0, sizeof c);
    if (set->parse(set->control, &s, err, sizeof err) == 0 && nvfp4_problem_create(&s, NVFP4_DIST_FULL, seed, &p) == 0 &&
        nvfp4_problem_poison(p, 0) == 0 && nvfp4_problem_verify(p, &c) == 0)
        ok = !nvfp4_check_ok(&c) && c.elements > 0 && c.bad == c.elements && c.unwritten == c.elements &&
             c.cpu_bad == c.cpu_checked;
    printf("control  %s never launched: %lld/%lld bad, %lld unwritten, %lld/%lld cpu bad  %s\n", set->control, c.bad,
           c.elements, c.unwritten, c.cpu_bad, c.cpu_checked, ok ? "PASS (all flagged)" : "FAIL");
    if (ok)
        g_pass++;
    else
        g_fail++;
    nvfp4_problem_destroy(p);
}

static void run_cublas(const nvfp4_shape *s, unsigned long long seed)
{
    nvfp4_problem *p = NULL;
    nvfp4_cublas *c = NULL;
    long long bad = -1, el = 0;
    int ok = 0;
    if (nvfp4_problem_create(s, NVFP4_DIST_GPUMODE, seed, &p) == 0 && nvfp4_cublas_create(p, &c) == 0 &&
        nvfp4_cublas_verify(c, &bad, &el) == 0)
        ok = bad == 0 && el > 0;
    printf("cublas   %-8s %lld/%lld bad  %s  [%s]\n", s->name, bad, el, ok ? "PASS" : "FAIL",
           c ? nvfp4_cublas_method(c) : "not created");
    if (ok)
        g_pass++;
    else
        g_fail++;
    nvfp4_cublas_destroy(c);
    nvfp4_problem_destroy(p);
}

/* Both dual routes, each against the GPU reference (gpumode). */
static void run_dual_cublas(const nvfp4_shape *s, unsigned long long seed)
{
    nvfp4_problem *p = NULL;
    nvfp4_dual_cublas *c = NULL;
    const int made = nvfp4_problem_create(s, NVFP4_DIST_GPUMODE, seed, &p) == 0 && nvfp4_dual_cublas_create(p, &c) == 0;
    for (int r = NVFP4_DUAL_CAT; r <= NVFP4_DUAL_TWO; r++) {
        long long bad = -1, el = 0;
        const int ok = made && nvfp4_dual_cublas_verify(c, r, &bad, &el) == 0 && bad == 0 && el > 0;
        printf("cublas   %-8s %lld/%lld bad  %s  [%s]\n", s->name, bad, el, ok ? "PASS" : "FAIL",
               c ? nvfp4_dual_cublas_method(c, r) : "not created");
        if (ok)
            g_pass++;
        else
            g_fail++;
    }
    nvfp4_dual_cublas_destroy(c);
    nvfp4_problem_destroy(p);
}

static void run_ceiling(void)
{
    gs_ceiling_gemm *g = NULL;
    int ok = 0;
    double us = NAN;
    if (gs_ceiling_gemm_create(8192, &g) == 0) {
        cudaEvent_t a, b;
        float ms = 0;
        if (cuda_ok(cudaEventCreate(&a), "event") && cuda_ok(cudaEventCreate(&b), "event")) {
            ok = gs_ceiling_gemm_launch(g, 0) == 0 && cuda_ok(cudaEventRecord(a, 0), "record") &&
                 gs_ceiling_gemm_launch(g, 0) == 0 && cuda_ok(cudaEventRecord(b, 0), "record") &&
                 cuda_ok(cudaEventSynchronize(b), "sync") && cuda_ok(cudaEventElapsedTime(&ms, a, b), "elapsed");
            us = 1000.0 * ms;
            cudaEventDestroy(a);
            cudaEventDestroy(b);
        }
    }
    printf("ceiling  8192^3 bf16  %.1f us one-shot  %.0f TFLOP/s  %s\n", us,
           g ? gs_ceiling_gemm_flops(g) / (us * 1e-6) / 1e12 : 0.0, ok ? "PASS" : "FAIL");
    if (ok)
        g_pass++;
    else
        g_fail++;
    gs_ceiling_gemm_destroy(g);
}

int main(int argc, char **argv)
{
    const char *vname = "default", *shapes = NULL;
    unsigned long long seed = 20250101ull;
    int with_cublas = 0;
    const subject_set *set = &k_grouped;
    char list[1024], err[512];
    setvbuf(stdout, NULL, _IOLBF, 0); /* each line as it is done: a log shows where a run stopped */

    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--dual"))
            set = &k_dual;
        else if (!strcmp(argv[i], "--variant") && i + 1 < argc)
            vname = argv[++i];
        else if (!strcmp(argv[i], "--shapes") && i + 1 < argc)
            shapes = argv[++i];
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
            if (gs_parse_u64(argv[++i], &seed)) {
                fprintf(stderr, "nvfp4-selfcheck: --seed takes a non-negative whole number, not '%s'\n", argv[i]);
                return 2;
            }
        } else if (!strcmp(argv[i], "--cublas"))
            with_cublas = 1;
        else {
            fprintf(stderr, "usage: %s [--dual] [--variant NAME|all|production|default] [--shapes a,b,..] [--seed N] [--cublas]\n",
                    argv[0]);
            return 2;
        }
    }
    if (!shapes)
        shapes = set->shapes;
    const int all = !strcmp(vname, "all"), dflt = !strcmp(vname, "default"), prod = !strcmp(vname, "production");
    if (all && !nvfp4_evidence_built()) {
        fprintf(stderr, "selfcheck: --variant all takes the evidence points too, and this program was built without "
                        "them: `make nvfp4-evidence` builds them, --variant production checks the others\n");
        return 2;
    }
    if (!all && !dflt && !prod && !set->find(vname)) {
        fprintf(stderr, "selfcheck: unknown %svariant '%s'; known:", set == &k_dual ? "dual " : "", vname);
        for (int i = 0; i < set->count(); i++)
            fprintf(stderr, " %s", set->at(i)->name);
        fprintf(stderr, "\n");
        return 2;
    }
    printf("%-8s %-7s %-25s %-4s %10s %6s %6s %7s %6s %10s %10s %9s  %-6s %s\n", "shape", "dist", "variant", "build",
           "elements", "bad", "unwrit", "cpu_chk", "cpubad", "max_abs", "max_rel", "1shot_us", "stamps", "result");
    /* per shape and distribution one problem (inputs and reference made once), on which every
     * named point runs in turn, or the shape's production default */
    snprintf(list, sizeof list, "%s", shapes);
    char *tok, *cur = list;
    while ((tok = next_token(&cur)) != NULL) {
        nvfp4_shape s;
        if (set->parse(tok, &s, err, sizeof err) != 0) {
            fprintf(stderr, "selfcheck: %s\n", err);
            g_fail++;
            continue;
        }
        for (int di = 0; di < 2; di++) {
            const nvfp4_dist d = di ? NVFP4_DIST_FULL : NVFP4_DIST_GPUMODE;
            nvfp4_problem *p = NULL;
            const int made = nvfp4_problem_create(&s, d, seed + (unsigned long long)di, &p) == 0;
            for (int vi = 0; vi < (dflt ? 1 : set->count()); vi++) {
                const nvfp4_variant *v = dflt ? set->dflt(&s) : set->at(vi);
                if (prod ? v->evidence : !all && !dflt && strcmp(vname, v->name))
                    continue;
                if (made && all && !tiles_shape(v, &s)) {
                    /* --variant all meets points whose tile the shape's N does not divide (128
                     * columns per CTA on N = 320): not run, not counted, listed */
                    printf("%-8s %-7s %-25s skipped: N=%d is not a multiple of its %d columns per CTA\n", s.name,
                           nvfp4_dist_name(d), v->name, s.n[0], v->tile_w);
                    g_skipped++;
                } else if (made) {
                    run_one(v, p, d);
                } else {
                    nvfp4_check none;
                    memset(&none, 0, sizeof none);
                    print_row(s.name, nvfp4_dist_name(d), v->name, "-", &none, NAN, "-", 0);
                }
            }
            nvfp4_problem_destroy(p);
        }
    }
    run_control(set, seed);
    if (with_cublas) {
        cur = list;
        snprintf(list, sizeof list, "%s", shapes);
        while ((tok = next_token(&cur)) != NULL) {
            nvfp4_shape s;
            if (set->parse(tok, &s, err, sizeof err) == 0) {
                if (s.dual)
                    run_dual_cublas(&s, seed);
                else
                    run_cublas(&s, seed);
            }
        }
        run_ceiling();
    }
    if (g_skipped)
        printf("%d runs skipped (a point whose columns per CTA the shape's N does not divide)\n", g_skipped);
    printf("%d passed, %d failed\n", g_pass, g_fail);
    return g_fail ? 1 : 0;
}
