/* The gated dual GEMM subject (GPU MODE "nvfp4_dual_gemm", docs/dual.md): C = silu(A B1^T) *
 * (A B2^T), run by the NVFP4 kernel's gate points; a shape (registry name or custom spec), a
 * distribution, a point; verified on poisoned outputs in every build, timed next to two cuBLAS
 * routes and the two ceilings.  Launch, checks and phases are the NVFP4 subject's
 * (subject_nvfp4.h). */
#define _POSIX_C_SOURCE 200809L
#include "subject_nvfp4.h"
#include "nvfp4/schedule.h"
#include "../instrument/gs_ceilings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DUAL_SPEC_PREFIX "dual:"

static const nvfp4_point_set dual_points = {"dual",
                                            nvfp4_dual_shape_parse,
                                            nvfp4_dual_variant_default,
                                            nvfp4_dual_variant_find,
                                            nvfp4_dual_variant_count,
                                            nvfp4_dual_variant_at,
                                            1};

/* The cuBLAS anchors, both timed with the toolkit's method: one GEMM against B1 and B2 stacked,
 * and two GEMMs, each then the SiLU-multiply kernel; the faster is the run's cuBLAS figure,
 * both are in meta (cublas.cat.*, cublas.two.*); then the ceilings. */
static int anchors(void *ctx, gs_meta *meta, gs_timings *tim, const gs_l2_flusher *f, cudaStream_t s, int warmup,
                   int reps)
{
    static const char *const key[2] = {"cat", "two"};
    static const char *const what[2] = {"one GEMM on B1 and B2 stacked, then a SiLU-multiply kernel",
                                        "two GEMMs, then a SiLU-multiply kernel"};
    const gs_launch_fn fn[2] = {nvfp4_dual_cublas_launch_cat, nvfp4_dual_cublas_launch_two};
    nvfp4_ctx *c = ctx;
    nvfp4_dual_cublas *cb = NULL;
    gs_timing t[2];
    long long bad[2] = {-1, -1}, el[2] = {0, 0};
    int rc = -1;
    memset(t, 0, sizeof t);
    if (nvfp4_dual_cublas_create(c->p, &cb))
        goto out;
    for (int r = 0; r < 2; r++) {
        char k[64];
        if (nvfp4_dual_cublas_verify(cb, r, &bad[r], &el[r]) || gs_time_launches(fn[r], cb, s, f, warmup, reps, &t[r]))
            goto out;
        snprintf(k, sizeof k, "cublas.%s.time_ms", key[r]);
        gs_meta_set(meta, k, "%.6f", t[r].median_ms);
        snprintf(k, sizeof k, "cublas.%s.method", key[r]);
        gs_meta_set(meta, k, "%s", nvfp4_dual_cublas_method(cb, r));
        snprintf(k, sizeof k, "cublas.%s.correct", key[r]);
        gs_meta_set(meta, k, "%d", bad[r] == 0 && el[r] > 0);
    }
    const int best = t[NVFP4_DUAL_TWO].median_ms < t[NVFP4_DUAL_CAT].median_ms ? NVFP4_DUAL_TWO : NVFP4_DUAL_CAT;
    gs_meta_set(meta, "cublas.method", "%s", nvfp4_dual_cublas_method(cb, best));
    gs_meta_set(meta, "cublas.what", "bf16 on the dequantised inputs, %s (the faster of two routes)", what[best]);
    gs_meta_set(meta, "cublas.correct", "%d", bad[best] == 0 && el[best] > 0);
    gs_meta_set(meta, "cublas.time_ms", "%.6f", t[best].median_ms);
    if (gs_timings_add(tim, "cublas", t[best].samples_ms, t[best].reps))
        goto out;
    rc = gs_ceilings_measure(meta, tim, f, s, warmup, reps);
out:
    gs_timing_free(&t[0]);
    gs_timing_free(&t[1]);
    nvfp4_dual_cublas_destroy(cb);
    return rc;
}

static int open_(const gs_record_args *a, gs_rundir *rd, gs_subject_run *run)
{
    nvfp4_ctx *c = nvfp4_subject_open(a, &dual_points, 2,
                                      "an output tile of %d columns (B1's and B2's weight rows) by up to %d tokens, "
                                      "or a split-K part of one",
                                      rd, run);
    if (!c)
        return -1;
    const nvfp4_shape *sh = &c->shape;
    gs_meta *meta = &rd->meta;
    gs_meta_set(meta, "dual.m", "%d", sh->m[0]);
    gs_meta_set(meta, "dual.n", "%d", sh->n[0]);
    gs_meta_set(meta, "dual.k", "%d", sh->k[0]);
    gs_meta_set(meta, "flops", "%.0f", nvfp4_dual_flops(sh));
    gs_meta_set(meta, "min_bytes", "%.0f", nvfp4_dual_min_bytes(sh));
    gs_meta_set(meta, "padding.what", "token rows past M");
    gs_meta_set(meta, "epilogue.what", "silu(acc1) * acc2 in fp32, then fp16 (with gate 1 after the B2 warpgroup's "
                                       "accumulators arrive through shared memory)");
    run->anchors = anchors;
    return 0;
}

static int claims(const char *name, char *why, size_t n)
{
    nvfp4_shape s;
    why[0] = 0;
    if (nvfp4_dual_shape_parse(name, &s, why, n) == 0)
        return 1;
    /* a spec of ours, or a name shaped like ours (d<digit>, dt<digit>): the parser's reason */
    const int digit1 = name[0] && name[1] >= '0' && name[1] <= '9',
              dt_digit = name[0] && name[1] == 't' && name[2] >= '0' && name[2] <= '9';
    if (!(strncmp(name, DUAL_SPEC_PREFIX, strlen(DUAL_SPEC_PREFIX)) == 0 || (name[0] == 'd' && (digit1 || dt_digit))))
        why[0] = 0;
    return 0;
}

static void list_shapes(FILE *out)
{
    char names[256];
    nvfp4_dual_shape_names(names, sizeof names);
    for (char *save = NULL, *t = strtok_r(names, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        nvfp4_shape s;
        char err[512];
        if (nvfp4_dual_shape_parse(t, &s, err, sizeof err))
            continue;
        fprintf(out, "%-15s m=%d n=%d k=%d, %.1f GFLOP (two GEMMs)\n", t, s.m[0], s.n[0], s.k[0],
                nvfp4_dual_flops(&s) / 1e9);
    }
    fprintf(out, "%-15s a custom shape: " DUAL_SPEC_PREFIX "m=256;n=4096;k=7168 (N a multiple of %d, K of %d)\n",
            DUAL_SPEC_PREFIX "m=..;n=..;k=..", NVFP4_DUAL_N_STEP, NVFP4_DUAL_K_STEP);
}

static int list_variants(FILE *out, const char *shape, char *err, size_t n)
{
    return nvfp4_subject_list_variants(&dual_points, out, shape, err, n);
}

const gs_subject gs_subject_dual = {"dual",
                                    "NVFP4 gated dual GEMM silu(A B1^T) * (A B2^T) (shapes d256n4096k7168 ... dt8 or "
                                    "dual:m=..;n=..;k=..)",
                                    claims, list_shapes, list_variants, open_};
