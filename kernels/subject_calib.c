/* The calibration subjects: `calib` (phases of known length, 2.5 waves) and
 * `release` (one wave, all CTAs wait on one flag). */
#include "subject.h"
#include "calib.h"
#include "../instrument/gs_probes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Per tile: MAINLOOP 80% (kiters x (10% load wait + 20% dequant + 70% mma)),
 * ACC_TO_REG 5%, EPILOGUE 10%, STORE 5% of 200k cycles (~100 us at 2 GHz),
 * long enough that stamp costs stay far below the 1% the check allows. */
#define CALIB_TILE_CYCLES 200000ull
#define CALIB_KITERS 4u

static int calib_launch(void *ctx, int twin, gs_buffer b, cudaStream_t s)
{
    const calib_config *c = ctx;
    return twin ? calib_launch_twin(c, b, s) : calib_launch_prod(c, b, s);
}

static void free_ctx(void *ctx) { free(ctx); }

/* One name each: the subjects' own shape. */
static int claims_calib(const char *name, char *why, size_t n)
{
    (void)n;
    why[0] = 0;
    return strcmp(name, "calib") == 0;
}

static int claims_release(const char *name, char *why, size_t n)
{
    (void)n;
    why[0] = 0;
    return strcmp(name, "release") == 0;
}

static void shapes_calib(FILE *out)
{
    fprintf(out, "%-10s phases spinning for known cycle counts, 2.5 waves of one CTA per SM\n", "calib");
}

static void shapes_release(FILE *out)
{
    fprintf(out, "%-10s one wave of CTAs released by one flag\n", "release");
}

static int calib_open(const gs_record_args *a, gs_rundir *rd, gs_subject_run *run)
{
    gs_meta *meta = &rd->meta;
    char err[256];
    if (gs_rundir_phase(rd, CALIB_LOAD_WAIT, "LOAD_WAIT", GS_MAINLOOP, "wait", err, sizeof err) ||
        gs_rundir_phase(rd, CALIB_DEQUANT, "DEQUANT", GS_MAINLOOP, "prep", err, sizeof err) ||
        gs_rundir_phase(rd, CALIB_MMA, "MMA", GS_MAINLOOP, "mma", err, sizeof err)) {
        fprintf(stderr, "gemmscope-record: %s\n", err);
        return -1;
    }
    calib_config *c = calloc(1, sizeof *c);
    if (!c)
        return -1;
    unsigned long long main = CALIB_TILE_CYCLES * 80 / 100 / CALIB_KITERS;
    c->ctas = (unsigned)(a->sm_count * 5 / 2); /* 2.5 waves at one CTA per SM */
    c->threads = 128;
    c->smem_bytes = 160 * 1024; /* two CTAs cannot share an SM */
    c->tiles = 2;
    c->kiters = CALIB_KITERS;
    c->load_wait = main * 10 / 100;
    c->dequant = main * 20 / 100;
    c->mma = main * 70 / 100;
    c->acc_to_reg = CALIB_TILE_CYCLES * 5 / 100;
    c->epilogue = CALIB_TILE_CYCLES * 10 / 100;
    c->store = CALIB_TILE_CYCLES * 5 / 100;

    double total = (double)c->kiters * (c->load_wait + c->dequant + c->mma) + c->acc_to_reg + c->epilogue + c->store;
    gs_meta_set(meta, "shape", "calib");
    gs_meta_set(meta, "variant", "default");
    gs_meta_set(meta, "ctas", "%u", c->ctas);
    gs_meta_set(meta, "threads_per_cta", "%u", c->threads);
    gs_meta_set(meta, "smem_bytes", "%u", c->smem_bytes);
    gs_meta_set(meta, "ctas_per_sm", "1");
    gs_meta_set(meta, "calib.tiles_per_cta", "%u", c->tiles);
    gs_meta_set(meta, "calib.cycles_per_tile", "%.0f", total);
    gs_meta_set(meta, "expect.MAINLOOP", "%.6f", c->kiters * (double)(c->load_wait + c->dequant + c->mma) / total);
    gs_meta_set(meta, "expect.LOAD_WAIT", "%.6f", c->kiters * (double)c->load_wait / total);
    gs_meta_set(meta, "expect.DEQUANT", "%.6f", c->kiters * (double)c->dequant / total);
    gs_meta_set(meta, "expect.MMA", "%.6f", c->kiters * (double)c->mma / total);
    gs_meta_set(meta, "expect.ACC_TO_REG", "%.6f", c->acc_to_reg / total);
    gs_meta_set(meta, "expect.EPILOGUE", "%.6f", c->epilogue / total);
    gs_meta_set(meta, "expect.STORE", "%.6f", c->store / total);
    /* its spins do not move the SM clock: the model places every knot within a timer tick */
    gs_meta_set(meta, "expect.clock_heldout_ticks", "1");

    run->ctas = c->ctas;
    run->warps_per_cta = c->threads / 32;
    run->events_per_warp = calib_events_per_warp(c);
    run->launch = calib_launch;
    run->stamp_build = GS_BUILD_TWIN;
    run->verify = NULL;
    run->close = free_ctx;
    run->ctx = c;
    return 0;
}

typedef struct release_ctx {
    release_config c;
    unsigned *words;
} release_ctx;

static int release_launch(void *ctx, int twin, gs_buffer b, cudaStream_t s)
{
    const release_ctx *r = ctx;
    return twin ? release_launch_twin(&r->c, b, s) : release_launch_prod(&r->c, b, s);
}

static void release_close(void *ctx)
{
    release_ctx *r = ctx;
    if (r->words)
        cudaFree(r->words);
    free(r);
}

static int release_open(const gs_record_args *a, gs_rundir *rd, gs_subject_run *run)
{
    gs_meta *meta = &rd->meta;
    char err[256];
    if (gs_rundir_phase(rd, RELEASE_SEEN, "SEEN", -1, NULL, err, sizeof err) ||
        gs_rundir_phase(rd, RELEASE_POLLING, "POLLING", -1, NULL, err, sizeof err)) {
        fprintf(stderr, "gemmscope-record: %s\n", err);
        return -1;
    }
    release_ctx *r = calloc(1, sizeof *r);
    if (!r)
        return -1;
    cudaError_t e = cudaMalloc((void **)&r->words, 2 * sizeof(unsigned));
    if (e != cudaSuccess) {
        fprintf(stderr, "gemmscope: cudaMalloc failed: %s\n", cudaGetErrorString(e));
        free(r);
        return -1;
    }
    r->c.ctas = (unsigned)a->sm_count; /* one wave: every CTA resident at once */
    r->c.threads = 128;
    r->c.smem_bytes = 160 * 1024;
    r->c.before = 100000; /* ~50 us each side: a long baseline for the clock fit */
    r->c.after = 100000;
    r->c.hold = 10000; /* ~5 us: some 20 polls per CTA before the flag flips */
    r->c.arrived = r->words;
    r->c.flag = r->words + 1;
    gs_meta_set(meta, "shape", "release");
    gs_meta_set(meta, "variant", "default");
    /* the known answer: every CTA's SEEN poll ends within one POLLING period of the others */
    gs_meta_set(meta, "expect.release.seen", "SEEN");
    gs_meta_set(meta, "expect.release.polling", "POLLING");
    gs_meta_set(meta, "expect.clock_heldout_ticks", "1");
    gs_meta_set(meta, "ctas", "%u", r->c.ctas);
    gs_meta_set(meta, "threads_per_cta", "%u", r->c.threads);
    gs_meta_set(meta, "smem_bytes", "%u", r->c.smem_bytes);
    gs_meta_set(meta, "ctas_per_sm", "1");
    run->ctas = r->c.ctas;
    run->warps_per_cta = r->c.threads / 32;
    run->events_per_warp = release_events_per_warp(&r->c);
    run->launch = release_launch;
    run->stamp_build = GS_BUILD_TWIN;
    run->verify = NULL;
    run->close = release_close;
    run->ctx = r;
    return 0;
}

/* ---- the clock model under a moving SM clock ---- */

/* About 250 us: ten rounds of a 15 us tensor-core burst and a 10 us nap, within the 512 pairs
 * (500 ns apart) the clock sampler stores. */
#define CLOCK_ROUNDS 10u
#define CLOCK_HEAVY_CYCLES 28000ull
#define CLOCK_LIGHT_NS 10000u

typedef struct clock_ctx {
    clock_config c;
    size_t probe_words;
} clock_ctx;

static int clock_launch(void *ctx, int twin, gs_buffer b, cudaStream_t s)
{
    const clock_ctx *k = ctx;
    return twin ? clock_launch_twin(&k->c, b, s) : clock_launch_prod(&k->c, b, s);
}

static void clock_close(void *ctx)
{
    clock_ctx *k = ctx;
    if (k->c.probes)
        cudaFree(k->c.probes);
    if (k->c.sink)
        cudaFree(k->c.sink);
    free(k);
}

/* The probes of the stamped launch into probes.tsv. */
static int clock_after_stamps(void *ctx, gs_rundir *rd, cudaStream_t s)
{
    const clock_ctx *k = ctx;
    char path[2400], err[256];
    int rc = -1;
    gs_probes ps = {0};
    unsigned long long *h = malloc(k->probe_words * sizeof *h);
    if (!h || cudaStreamSynchronize(s) != cudaSuccess ||
        cudaMemcpy(h, k->c.probes, k->probe_words * sizeof *h, cudaMemcpyDeviceToHost) != cudaSuccess) {
        fprintf(stderr, "gemmscope-record: cannot read the clock probes back: %s\n",
                cudaGetErrorString(cudaGetLastError()));
        goto out;
    }
    const size_t per_cta = (2 * k->c.rounds + 1) * CLOCK_PROBE_WORDS;
    for (unsigned b = 0; b < k->c.ctas; b++)
        for (size_t i = 0; i < per_cta; i += CLOCK_PROBE_WORDS) {
            const unsigned long long *w = h + b * per_cta + i;
            const gs_probe p = {b, w[0], w[1], w[2]};
            if (gs_probes_add(&ps, &p, err, sizeof err)) {
                fprintf(stderr, "gemmscope-record: %s\n", err);
                goto out;
            }
        }
    if (gs_rundir_path(rd, "probes.tsv", path, sizeof path) || gs_probes_write(&ps, path, err, sizeof err)) {
        fprintf(stderr, "gemmscope-record: %s\n", err);
        goto out;
    }
    rc = 0;
out:
    gs_probes_free(&ps);
    free(h);
    return rc;
}

static int claims_clock(const char *name, char *why, size_t n)
{
    (void)n;
    why[0] = 0;
    return strcmp(name, "clock") == 0;
}

static void shapes_clock(FILE *out)
{
    fprintf(out, "%-10s tensor-core bursts and naps, one CTA per SM, the clock sampler on, clock probes\n", "clock");
}

static int clock_open(const gs_record_args *a, gs_rundir *rd, gs_subject_run *run)
{
    gs_meta *meta = &rd->meta;
    char err[256];
    if (gs_rundir_phase(rd, CLOCK_HEAVY, "HEAVY", -1, NULL, err, sizeof err) ||
        gs_rundir_phase(rd, CLOCK_LIGHT, "LIGHT", -1, NULL, err, sizeof err)) {
        fprintf(stderr, "gemmscope-record: %s\n", err);
        return -1;
    }
    clock_ctx *k = calloc(1, sizeof *k);
    if (!k)
        return -1;
    k->c.ctas = (unsigned)a->sm_count; /* one wave: every SM's clock model is exercised */
    k->c.threads = 32 * (CLOCK_WORKERS + 1);
    k->c.smem_bytes = 160 * 1024;
    k->c.rounds = CLOCK_ROUNDS;
    k->c.heavy_cycles = CLOCK_HEAVY_CYCLES;
    k->c.light_ns = CLOCK_LIGHT_NS;
    k->probe_words = (size_t)k->c.ctas * (2 * k->c.rounds + 1) * CLOCK_PROBE_WORDS;
    cudaError_t e = cudaMalloc((void **)&k->c.probes, k->probe_words * sizeof(unsigned long long));
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&k->c.sink, k->c.threads * sizeof(float));
    if (e != cudaSuccess) {
        fprintf(stderr, "gemmscope: cudaMalloc failed: %s\n", cudaGetErrorString(e));
        clock_close(k);
        return -1;
    }
    gs_meta_set(meta, "shape", "clock");
    gs_meta_set(meta, "variant", "default");
    gs_meta_set(meta, "ctas", "%u", k->c.ctas);
    gs_meta_set(meta, "threads_per_cta", "%u", k->c.threads);
    gs_meta_set(meta, "smem_bytes", "%u", k->c.smem_bytes);
    gs_meta_set(meta, "ctas_per_sm", "1");
    gs_meta_set(meta, "clock.rounds", "%u", k->c.rounds);
    gs_meta_set(meta, "clock.heavy_cycles", "%llu", k->c.heavy_cycles);
    gs_meta_set(meta, "clock.light_ns", "%u", k->c.light_ns);
    run->ctas = k->c.ctas;
    run->warps_per_cta = k->c.threads / 32;
    run->events_per_warp = clock_events_per_warp(&k->c);
    run->launch = clock_launch;
    run->stamp_build = GS_BUILD_TWIN;
    run->after_stamps = clock_after_stamps;
    run->close = clock_close;
    run->ctx = k;
    return 0;
}

const gs_subject gs_subject_clock = {"clock", "known-answer calibration: the clock model against probes under load",
                                     claims_clock, shapes_clock, NULL, clock_open};

const gs_subject gs_subject_calib = {"calib", "known-answer calibration: phases of known length", claims_calib,
                                     shapes_calib, NULL, calib_open};
const gs_subject gs_subject_release = {"release", "known-answer calibration: one flag released to every CTA",
                                       claims_release, shapes_release, NULL, release_open};
