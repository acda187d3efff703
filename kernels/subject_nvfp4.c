/* The NVFP4 grouped GEMM subject: a shape (registry name or custom spec), a
 * distribution, a variant of the kernel's knob space; verified on poisoned
 * outputs in both builds, and timed next to cuBLAS and the two ceilings. */
#include "subject.h"
#include "nvfp4/nvfp4.h"
#include "nvfp4/schedule.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Ceilings measured in the same process: a large device-to-device copy
 * (bytes read + written) and a large bf16 cuBLAS GEMM. */
#define COPY_BYTES (1ull << 30)
#define CEILING_GEMM_N 8192

typedef struct nvfp4_ctx {
    nvfp4_problem *p;
    const nvfp4_variant *v;
    nvfp4_shape shape;
    int stamp_build; /* NVFP4_TWIN or NVFP4_DETAIL */
} nvfp4_ctx;


static int launch(void *ctx, int build, gs_buffer b, cudaStream_t s)
{
    nvfp4_ctx *c = ctx;
    return nvfp4_launch(c->v, build == GS_BUILD_DETAIL ? NVFP4_DETAIL : build ? NVFP4_TWIN : NVFP4_PROD, c->p, b, s);
}

static int prepare(void *ctx, cudaStream_t s)
{
    nvfp4_ctx *c = ctx;
    return nvfp4_prepare(c->v, c->p, s);
}

static int launch_alone(void *ctx, cudaStream_t s)
{
    nvfp4_ctx *c = ctx;
    return nvfp4_launch_gemm_alone(c->v, c->p, s);
}

static void close_ctx(void *ctx)
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

static int verify(void *ctx, gs_meta *meta, gs_buffer stamps, cudaStream_t s)
{
    nvfp4_ctx *c = ctx;
    int prod = check_build(c, 0, (gs_buffer){0}, s, meta);
    int twin = prod < 0 ? -1 : check_build(c, c->stamp_build, stamps, s, meta);
    if (prod < 0 || twin < 0)
        return -1;
    gs_meta_set(meta, "correct", "%d", prod && twin);
    if (!(prod && twin))
        fprintf(stderr, "gemmscope-record: WARNING: %s output out of tolerance or unwritten\n",
                !prod ? "production" : c->stamp_build == NVFP4_DETAIL ? "detail twin" : "twin");
    return 0;
}

typedef struct copy_arg {
    void *src, *dst;
    size_t bytes;
} copy_arg;

static int copy_launch(void *arg, cudaStream_t s)
{
    copy_arg *c = arg;
    return (int)cudaMemcpyAsync(c->dst, c->src, c->bytes, cudaMemcpyDeviceToDevice, s);
}

/* Times fn into tim's rows named build; *median and *fastest (ms) for the caller. */
static int time_into(gs_timings *tim, const char *build, gs_launch_fn fn, void *arg, const gs_l2_flusher *f,
                     cudaStream_t s, int warmup, int reps, double *median, double *fastest)
{
    gs_timing t;
    if (gs_time_launches(fn, arg, s, f, warmup, reps, &t))
        return -1;
    gs_timings_add(tim, build, t.samples_ms, t.reps);
    *median = t.median_ms;
    *fastest = t.min_ms;
    gs_timing_free(&t);
    return 0;
}

static int anchors(void *ctx, gs_meta *meta, gs_timings *tim, const gs_l2_flusher *f, cudaStream_t s, int warmup,
                   int reps)
{
    nvfp4_ctx *c = ctx;
    nvfp4_cublas *cb = NULL;
    nvfp4_ceiling_gemm *g = NULL;
    copy_arg cp = {NULL, NULL, COPY_BYTES};
    double ms, fastest;
    int rc = -1;

    if (nvfp4_cublas_create(c->p, &cb))
        goto out;
    long long bad = 0, elems = 0;
    if (nvfp4_cublas_verify(cb, &bad, &elems))
        goto out;
    gs_meta_set(meta, "cublas.method", "%s", nvfp4_cublas_method(cb));
    gs_meta_set(meta, "cublas.correct", "%d", bad == 0 && elems > 0);
    if (time_into(tim, "cublas", nvfp4_cublas_launch, cb, f, s, warmup, reps, &ms, &fastest))
        goto out;
    gs_meta_set(meta, "cublas.time_ms", "%.6f", ms);

    if (nvfp4_ceiling_gemm_create(CEILING_GEMM_N, &g) ||
        time_into(tim, "ceiling_gemm", nvfp4_ceiling_gemm_launch, g, f, s, warmup, reps, &ms, &fastest))
        goto out;
    /* A ceiling is the best rate the GPU sustains: the fastest repetition.  The median is
     * not: under this GEMM the H100 lowers its clock after some tens of repetitions (805 ->
     * 700 TFLOP/s within one run), so a median depends on when that happened. */
    gs_meta_set(meta, "ceiling.gemm", "cuBLAS bf16 %dx%dx%d, fp32 compute", CEILING_GEMM_N, CEILING_GEMM_N,
                CEILING_GEMM_N);
    gs_meta_set(meta, "ceiling.rule", "fastest of %d repetitions", reps);
    gs_meta_set(meta, "ceiling_tflops", "%.2f", nvfp4_ceiling_gemm_flops(g) / (fastest * 1e-3) / 1e12);
    gs_meta_set(meta, "ceiling_tflops_median", "%.2f", nvfp4_ceiling_gemm_flops(g) / (ms * 1e-3) / 1e12);

    if (cudaMalloc(&cp.src, COPY_BYTES) != cudaSuccess || cudaMalloc(&cp.dst, COPY_BYTES) != cudaSuccess ||
        cudaMemsetAsync(cp.src, 1, COPY_BYTES, s) != cudaSuccess) {
        fprintf(stderr, "gemmscope-record: cannot allocate the copy ceiling's 2 GiB\n");
        goto out;
    }
    if (time_into(tim, "ceiling_copy", copy_launch, &cp, f, s, warmup, reps, &ms, &fastest))
        goto out;
    gs_meta_set(meta, "ceiling.copy", "cudaMemcpyAsync device to device, %llu MiB, bytes read + written",
                (unsigned long long)(COPY_BYTES >> 20));
    gs_meta_set(meta, "ceiling_gbps", "%.1f", 2.0 * COPY_BYTES / (fastest * 1e-3) / 1e9);
    gs_meta_set(meta, "ceiling_gbps_median", "%.1f", 2.0 * COPY_BYTES / (ms * 1e-3) / 1e9);
    rc = 0;
out:
    if (cp.src)
        cudaFree(cp.src);
    if (cp.dst)
        cudaFree(cp.dst);
    nvfp4_ceiling_gemm_destroy(g);
    nvfp4_cublas_destroy(cb);
    return rc;
}

static int open_(const gs_record_args *a, gs_meta *meta, gs_subject_run *run)
{
    char err[512];
    nvfp4_dist dist;
    nvfp4_ctx *c = calloc(1, sizeof *c);
    if (!c)
        return -1;
    if (!a->shape || nvfp4_shape_parse(a->shape, &c->shape, err, sizeof err)) {
        fprintf(stderr, "gemmscope-record: %s\n", a->shape ? err : "--shape is required");
        free(c);
        return -1;
    }
    if (nvfp4_dist_parse(a->dist, &dist)) {
        fprintf(stderr, "gemmscope-record: unknown distribution '%s' (gpumode, full)\n", a->dist);
        free(c);
        return -1;
    }
    const nvfp4_variant *dv = nvfp4_variant_default(&c->shape);
    const char *vname = strcmp(a->variant, "default") == 0 ? (dv ? dv->name : "?") : a->variant;
    c->v = nvfp4_variant_find(vname);
    if (!c->v) {
        fprintf(stderr, "gemmscope-record: unknown variant '%s'; variants:", vname);
        for (int i = 0; i < nvfp4_variant_count(); i++)
            fprintf(stderr, " %s", nvfp4_variant_at(i)->name);
        fprintf(stderr, "\n");
        free(c);
        return -1;
    }
    if (nvfp4_problem_create(&c->shape, dist, a->seed, &c->p)) {
        free(c);
        return -1;
    }
    unsigned ctas, wpc, epw;
    c->stamp_build = a->detail ? NVFP4_DETAIL : NVFP4_TWIN;
    if (nvfp4_stamp_geometry(c->v, &c->shape, nvfp4_problem_sms(c->p), a->detail, &ctas, &wpc, &epw)) {
        fprintf(stderr, "gemmscope-record: variant %s cannot run shape %s\n", c->v->name, a->shape);
        close_ctx(c);
        return -1;
    }
    const nvfp4_shape *sh = &c->shape;
    double flops = nvfp4_shape_flops(sh), computed = 0;
    nvfp4_schedule sc; /* the tiles the kernel runs, each n_eff token columns wide */
    char why[200];
    if (nvfp4_schedule_build(sh, c->v->tile_w, c->v->tile_t, nvfp4_variant_n_step(c->v), 0, 0, 1, &sc, why,
                             sizeof why)) {
        fprintf(stderr, "gemmscope-record: %s\n", why);
        close_ctx(c);
        return -1;
    }
    for (int t = 0; t < sc.ntiles; t++)
        computed += 2.0 * sc.tiles[t].n_eff * c->v->tile_w * sh->k[sc.tiles[t].group];
    nvfp4_schedule_free(&sc);
    gs_meta_set(meta, "shape", "%s", a->shape);
    gs_meta_set(meta, "variant", "%s", c->v->name);
    gs_meta_set(meta, "variant_requested", "%s", a->variant);
    gs_meta_set(meta, "variant.description", "%s", c->v->description);
    gs_meta_set(meta, "knobs",
                "stages=%d tile_w=%d tile_t=%d warp_spec=%d persistent=%d tma_store=%d split_k=%d fused_tokens=%d "
                "mma_depth=%d",
                c->v->stages, c->v->tile_w, c->v->tile_t, c->v->warp_spec, c->v->persistent, c->v->tma_store,
                c->v->split_k, c->v->fused_tokens, c->v->mma_depth);
    gs_meta_set(meta, "dist", "%s", nvfp4_dist_name(dist));
    gs_meta_set(meta, "seed", "%llu", a->seed);
    gs_meta_set(meta, "groups", "%d", sh->groups);
    gs_meta_set(meta, "flops", "%.0f", flops);
    gs_meta_set(meta, "min_bytes", "%.0f", nvfp4_shape_min_bytes(sh));
    gs_meta_set(meta, "flops_computed", "%.0f", computed);
    gs_meta_set(meta, "ctas", "%u", ctas);
    gs_meta_set(meta, "threads_per_cta", "%u", wpc * 32);
    c->shape = *sh;
    run->ctas = ctas;
    run->warps_per_cta = wpc;
    run->events_per_warp = epw;
    run->launch = launch;
    run->stamp_build = a->detail ? GS_BUILD_DETAIL : GS_BUILD_TWIN;
    gs_meta_set(meta, "stamps.build", "%s", a->detail ? "detail" : "twin");
    run->verify = verify;
    run->anchors = anchors;
    run->prepare = prepare;
    run->launch_alone = launch_alone;
    run->close = close_ctx;
    run->ctx = c;
    return 0;
}

const gs_subject gs_subject_nvfp4 = {"nvfp4", "NVFP4 grouped GEMM (--shape, --variant, --dist)", open_};
