#define _POSIX_C_SOURCE 200809L
/* nvfp4-bench: every knob point on the benchmark shapes, one process, one table.
 * Per variant: a correctness check of the production build, then the production build, the
 * twin, the detail twin, the null twin (production's code compiled again under a launcher of
 * its own, launched as the twin is: the production points only) and the cuBLAS anchor timed in
 * one loop (gs_time_interleaved: warm-up, blocks of repetitions in a balanced order, L2 flushed
 * before each timed call, median); the null twin's null/x says how far a build's ratio can read
 * off production with no cost of its own (docs/method.md).  The tensor ceiling
 * (cuBLAS bf16 8192^3, its fastest repetition) once, last, as the recorder does: timed first,
 * its GEMMs lowered the clock the first shape then ran on, and an anchor timed apart once per
 * shape read 12-14% slower there than later in the process.  Still left: the first problem
 * of a process reads cuBLAS / ours 2-4% higher than the same shape later in it; the points of
 * a shape share its problem, so their A/B is not touched (docs/notebook/2026-11-26-bench-anchor.md).
 * Rows are printed as they are measured, the table with the share of the ceiling at the end.
 * A benchmark, not a test: it prints figures and fails only when something could not run or
 * was wrong.
 * With --dual the gated dual GEMM's benchmarks and points (dual.h); its cuBLAS figure is the
 * faster of its two routes (one GEMM on B1 and B2 stacked, or two GEMMs, each then the
 * SiLU-multiply kernel), both timed in the same repetitions and printed.
 *
 * With --inputs N (GPU MODE's harness takes 15) each shape gets N problems, their inputs drawn
 * from N seeds, and a timed call of a build (or an anchor route) is one L2 flush, then that build
 * on the N problems back to back, as that harness times them; the time per launch is the median
 * of those calls over N.  The harness itself takes the mean, repeated until its error is under 0.1%
 * (docs/notebook/2026-11-27-harness.md).  The token pre-pass line times the first problem's
 * pre-pass alone, one flush per launch, whatever N is.
 *
 * With --no-pdl every GEMM launches in plain stream order after its token pre-pass
 * (nvfp4_problem_set_pdl), its set-up no longer overlapping the pre-pass: what programmatic
 * dependent launch is worth to a point.
 *
 * Usage: nvfp4-bench [--dual] [--shapes a,b,..] [--variants all|production|default|a,b,..] [--reps N]
 *                    [--inputs N] [--no-pdl] [--tsv FILE]
 * --variants takes point names, the word "default" (each shape's production point), the word
 * "production" (every production point) or "all" (every point; the evidence points must be built
 * in: `make nvfp4-evidence`).  Without --variants: every point the program holds.
 * Output columns (docs/cli.md): shape variant prod_us tflops pct_ceiling cublas_over_ours
 * twin_over_prod detail_over_prod correct inputs pdl null_over_prod */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cuda_runtime_api.h>

#include "instrument/gs_args.h"
#include "instrument/gs_ceilings.h"
#include "instrument/gs_stamps.h"
#include "instrument/gs_run.h"
#include "instrument/gs_timing.h"
#include "kernels/nvfp4/inputs.h"
#include "kernels/nvfp4/nvfp4.h"
#include "kernels/nvfp4/nvfp4_internal.h"

#define BENCH_SHAPES "g8k7168,g8k2048,g2k4096,g2k1536"
#define DUAL_BENCH_SHAPES "d256n4096k7168,d256n3072k4096,d512n4096k7168,d512n3072k7168"
#define WARMUP 5
#define MAX_INPUTS NVFP4_MAX_INPUTS

typedef struct launch_arg {
    const nvfp4_variant *v;
    nvfp4_problem *p;
    int build;
    gs_buffer stamps;
} launch_arg;

static int launch_variant(void *arg, cudaStream_t s)
{
    launch_arg *a = arg;
    return nvfp4_launch(a->v, a->build, a->p, a->stamps, s);
}

/* Median (or, with fastest set, the fastest repetition's) time of fn in ms, or NAN
 * (message on stderr). */
static double time_ms(gs_launch_fn fn, void *arg, const gs_l2_flusher *f, int reps, int fastest)
{
    gs_timing t;
    if (gs_time_launches(fn, arg, 0, f, WARMUP, reps, &t))
        return NAN;
    double m = fastest ? t.min_ms : t.median_ms;
    gs_timing_free(&t);
    return m;
}

/* Whether the table can go to path: not a folder, and its folder writable (nothing is created:
 * the table is written at the end, through a temporary name, gs_buf_write). */
static int tsv_writable(const char *path)
{
    struct stat st;
    if (!*path || path[strlen(path) - 1] == '/' || (stat(path, &st) == 0 && S_ISDIR(st.st_mode)))
        return 0;
    char dir[1024];
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else
        snprintf(dir, sizeof dir, "%.*s", slash == path ? 1 : (int)(slash - path), path);
    return access(dir, W_OK | X_OK) == 0;
}

/* One measured row (the share of the ceiling is known only at the end). */
typedef struct bench_row {
    char shape[64];
    const char *variant;
    double prod_ms, twin_ms, detail_ms, null_ms, cublas_ms, flops; /* null_ms NAN: not timed */
    int ok, is_default;
} bench_row;

/* A stamp buffer sized for one launch of v on p (twin or detail twin). */
static int alloc_stamps(const nvfp4_variant *v, nvfp4_problem *p, int detail, gs_stamps *st)
{
    unsigned ctas, wpc, ev;
    memset(st, 0, sizeof *st);
    if (nvfp4_stamp_geometry(v, nvfp4_problem_shape(p), nvfp4_problem_sms(p), detail, &ctas, &wpc, &ev))
        return -1;
    return gs_stamps_alloc(st, ctas, wpc, ev);
}

/* Whether the comma-separated list names `name` (a word of it, whole). */
static int in_list(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; (p = strstr(p, name)) != NULL; p += n)
        if ((p == list || p[-1] == ',') && (p[n] == ',' || p[n] == '\0'))
            return 1;
    return 0;
}

static int wanted(const char *list, const nvfp4_variant *v, int is_default)
{
    return !strcmp(list, "all") || in_list(list, v->name) || (is_default && in_list(list, "default")) ||
           (!v->evidence && in_list(list, "production"));
}

int main(int argc, char **argv)
{
    const char *shapes = NULL, *variants = NULL, *tsv = NULL;
    setvbuf(stdout, NULL, _IOLBF, 0); /* each line as it is done: a log shows how far a run got */
    nvfp4_set_null_launcher(nvfp4_gemm_launch_null);
    int reps = 50, inputs = 1, failures = 0, dual = 0, pdl = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--dual"))
            dual = 1;
        else if (!strcmp(argv[i], "--no-pdl"))
            pdl = 0;
        else if (!strcmp(argv[i], "--shapes") && i + 1 < argc)
            shapes = argv[++i];
        else if (!strcmp(argv[i], "--variants") && i + 1 < argc)
            variants = argv[++i];
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc) {
            long r = 0;
            reps = gs_parse_long(argv[++i], 1, 100000, &r) ? 0 : (int)r;
        } else if (!strcmp(argv[i], "--inputs") && i + 1 < argc) {
            long n = 0;
            inputs = gs_parse_long(argv[++i], 1, MAX_INPUTS, &n) ? 0 : (int)n;
        } else if (!strcmp(argv[i], "--tsv") && i + 1 < argc)
            tsv = argv[++i];
        else {
            fprintf(stderr, "usage: %s [--dual] [--shapes a,b,..] [--variants all|production|default|a,b,..] [--reps N] "
                            "[--inputs N] [--no-pdl] [--tsv FILE]\n",
                    argv[0]);
            return 2;
        }
    }
    if (!shapes)
        shapes = dual ? DUAL_BENCH_SHAPES : BENCH_SHAPES;
    if (!variants) /* every point this program holds */
        variants = nvfp4_evidence_built() ? "all" : "production";
    if (!strcmp(variants, "all") && !nvfp4_evidence_built()) {
        fprintf(stderr, "nvfp4-bench: --variants all takes the evidence points too, and this program was built without "
                        "them: `make nvfp4-evidence` builds them, --variants production times the others\n");
        return 2;
    }
    if (reps < 1) {
        fprintf(stderr, "nvfp4-bench: --reps must be a whole number from 1 to 100000\n");
        return 2;
    }
    if (inputs < 1) {
        fprintf(stderr, "nvfp4-bench: --inputs must be a whole number from 1 to %d\n", MAX_INPUTS);
        return 2;
    }
    if (tsv && !tsv_writable(tsv)) { /* refused now, not after the run: the table is written at the end */
        fprintf(stderr, "nvfp4-bench: cannot write %s (--tsv: a file, not a folder, in a writable folder)\n", tsv);
        return 2;
    }
    gs_l2_flusher fl;
    if (gs_l2_flusher_init(&fl, 0))
        return 1;
    bench_row *rows = NULL;
    int nrows = 0;
    printf("%-8s %-25s %9s %8s %8s %8s  %s\n", "shape", "variant", "prod_us", "TFLOP/s", "cuBLAS/x", "twin/x",
           "detail/x  correct");

    char list[512], *cur = list, *tok;
    snprintf(list, sizeof list, "%s", shapes);
    while ((tok = strtok_r(cur, ",", &cur)) != NULL) {
        nvfp4_shape s;
        char err[512];
        if ((dual ? nvfp4_dual_shape_parse : nvfp4_shape_parse)(tok, &s, err, sizeof err)) {
            fprintf(stderr, "nvfp4-bench: %s\n", err);
            failures++;
            continue;
        }
        /* the shape's problems, one seed each (the first is the seed a single input always had),
         * with their anchors: without them the builds are timed alone, the ratio NAN (a failure) */
        static nvfp4_inputs in;
        if (nvfp4_inputs_create(&in, &s, NVFP4_DIST_GPUMODE, 20250101ull, inputs, NULL, 1)) {
            failures++;
            continue;
        }
        nvfp4_problem *const *p = in.p;
        int pdl_off_failed = 0;
        for (int i = 0; i < inputs && !pdl; i++)
            pdl_off_failed |= nvfp4_problem_set_pdl(p[i], 0) != 0;
        if (pdl_off_failed) { /* as a shape whose inputs could not be made: counted, the next one */
            fprintf(stderr, "nvfp4-bench: %s: cannot turn programmatic dependent launch off\n", s.name);
            nvfp4_inputs_destroy(&in);
            failures++;
            continue;
        }
        const int routes = in.an[0].routes;
        /* the pre-pass every variant's time includes (its overlap with the GEMM's set-up aside) */
        printf("%-8s token pre-pass alone: %.2f us\n", s.name, 1e3 * time_ms(nvfp4_tokens_only, p[0], &fl, reps, 0));
        const double flops = dual ? nvfp4_dual_flops(&s) : nvfp4_shape_flops(&s);
        const nvfp4_variant *dv = dual ? nvfp4_dual_variant_default(&s) : nvfp4_variant_default(&s);
        const int count = dual ? nvfp4_dual_variant_count() : nvfp4_variant_count();
        for (int vi = 0; vi < count; vi++) {
            const nvfp4_variant *v = dual ? nvfp4_dual_variant_at(vi) : nvfp4_variant_at(vi);
            if (!wanted(variants, v, v == dv))
                continue;
            /* a timed call per build and anchor route: the N problems back to back */
            launch_arg prod[MAX_INPUTS], twin[MAX_INPUTS], detl[MAX_INPUTS], null[MAX_INPUTS];
            /* production, twin, detail twin, the null twin (production points: not an evidence
             * point's code), then the anchor's routes */
            const int builds = v->evidence ? 3 : 4;
            gs_batch b[6];
            memset(b, 0, sizeof b);
            int ok;
            gs_stamps st_twin, st_detl;
            memset(&st_twin, 0, sizeof st_twin);
            memset(&st_detl, 0, sizeof st_detl);
            for (int i = 0; i < inputs; i++)
                prod[i] = (launch_arg){v, p[i], NVFP4_PROD, {0}};
            /* every problem's production output checked (stamp buffers are sized alike for each) */
            ok = nvfp4_inputs_check(&in, v, 0) == 1;
            double pm = NAN, tm = NAN, dm = NAN, nm = NAN, route_ms[2] = {NAN, NAN};
            if (ok && alloc_stamps(v, p[0], 0, &st_twin) == 0 && alloc_stamps(v, p[0], 1, &st_detl) == 0) {
                for (int i = 0; i < inputs; i++) {
                    twin[i] = (launch_arg){v, p[i], NVFP4_TWIN, st_twin.dev};
                    detl[i] = (launch_arg){v, p[i], NVFP4_DETAIL, st_detl.dev};
                    null[i] = (launch_arg){v, p[i], NVFP4_NULL, st_twin.dev};
                    b[0].args[i] = &prod[i];
                    b[1].args[i] = &twin[i];
                    b[2].args[i] = &detl[i];
                    b[3].args[i] = &null[i];
                }
                for (int k = 0; k < builds; k++) {
                    b[k].fn = launch_variant;
                    b[k].n = inputs;
                }
                for (int r = 0; r < routes; r++)
                    nvfp4_inputs_anchor_batch(&in, r, &b[builds + r]);
                /* the builds and the anchor's routes in one loop */
                const gs_launch_fn fns[6] = {gs_launch_batch, gs_launch_batch, gs_launch_batch,
                                             gs_launch_batch, gs_launch_batch, gs_launch_batch};
                void *const args[6] = {&b[0], &b[1], &b[2], &b[3], &b[4], &b[5]};
                const int n = builds + routes;
                gs_timing t[6];
                if (gs_time_interleaved(fns, args, n, 0, &fl, WARMUP, reps, t) == 0) {
                    pm = t[0].median_ms / inputs;
                    tm = t[1].median_ms / inputs;
                    dm = t[2].median_ms / inputs;
                    if (builds == 4)
                        nm = t[3].median_ms / inputs;
                    for (int r = 0; r < routes; r++)
                        route_ms[r] = t[builds + r].median_ms / inputs;
                    for (int k = 0; k < n; k++)
                        gs_timing_free(&t[k]);
                }
            }
            gs_stamps_free(&st_twin);
            gs_stamps_free(&st_detl);
            const int best = nvfp4_anchor_best(&in.an[0], route_ms);
            const double tf = flops / (pm * 1e-3) / 1e12, cublas_ms = best >= 0 ? route_ms[best] : NAN;
            printf("%-8s %-25s %9.2f %8.1f %8.3f %8.4f %8.4f %8.4f  %s%s\n", s.name, v->name, 1e3 * pm, tf,
                   cublas_ms / pm, tm / pm, dm / pm, nm / pm, ok ? "yes" : "NO", v == dv ? "  (default)" : "");
            if (routes == 2)
                printf("%-8s   cuBLAS in the same repetitions: one GEMM on B1 and B2 stacked %.2f us, two GEMMs %.2f us "
                       "(each + SiLU-multiply)\n",
                       s.name, 1e3 * route_ms[0], 1e3 * route_ms[1]);
            else if (routes == 1)
                printf("%-8s   cuBLAS in the same repetitions: %.2f us\n", s.name, 1e3 * route_ms[0]);
            bench_row *grown = realloc(rows, (size_t)(nrows + 1) * sizeof *rows);
            if (!grown) {
                fprintf(stderr, "nvfp4-bench: out of host memory\n");
                failures++;
            } else {
                rows = grown;
                bench_row *r = &rows[nrows++];
                snprintf(r->shape, sizeof r->shape, "%s", s.name);
                r->variant = v->name;
                r->prod_ms = pm, r->twin_ms = tm, r->detail_ms = dm, r->null_ms = nm, r->cublas_ms = cublas_ms;
                r->flops = flops;
                r->ok = ok, r->is_default = v == dv;
            }
            if (!ok || isnan(pm) || isnan(tm) || isnan(dm) || (builds == 4 && isnan(nm)) || isnan(cublas_ms))
                failures++;
        }
        nvfp4_inputs_destroy(&in);
    }

    /* the ceiling last, as the recorder times it: its fastest repetition, before the GPU lowers its
     * clock under that GEMM's own load (docs/method.md) */
    gs_ceiling_gemm *cg = NULL;
    double ceil_tf = NAN;
    if (gs_ceiling_gemm_create(GS_CEILING_GEMM_N, &cg) == 0)
        ceil_tf = gs_ceiling_gemm_flops(cg) / (time_ms(gs_ceiling_gemm_launch, cg, &fl, reps, 1) * 1e-3) / 1e12;
    gs_ceiling_gemm_destroy(cg);
    gs_l2_flusher_free(&fl);
    printf("\ntensor ceiling (cuBLAS bf16 %d^3, fastest of %d, timed last): %.1f TFLOP/s\n", GS_CEILING_GEMM_N, reps,
           ceil_tf);
    printf("%-8s %-25s %9s %8s %7s %8s %8s %8s %8s  %s\n", "shape", "variant", "prod_us", "TFLOP/s", "%ceil",
           "cuBLAS/x", "twin/x", "detail/x", "null/x", "correct");
    gs_buf table = {0};
    gs_buf_printf(&table, "# gemmscope nvfp4-bench v5\nshape\tvariant\tprod_us\ttflops\tpct_ceiling\tcublas_over_ours\t"
                          "twin_over_prod\tdetail_over_prod\tcorrect\tinputs\tpdl\tnull_over_prod\n");
    for (int i = 0; i < nrows; i++) {
        const bench_row *r = &rows[i];
        const double tf = r->flops / (r->prod_ms * 1e-3) / 1e12, pct = 100.0 * tf / ceil_tf,
                     cx = r->cublas_ms / r->prod_ms, tx = r->twin_ms / r->prod_ms, dx = r->detail_ms / r->prod_ms,
                     nx = r->null_ms / r->prod_ms;
        char null_x[16] = "-"; /* an evidence point has no null twin */
        if (!isnan(nx))
            snprintf(null_x, sizeof null_x, "%.4f", nx);
        printf("%-8s %-25s %9.2f %8.1f %6.1f%% %8.3f %8.4f %8.4f %8s  %s%s\n", r->shape, r->variant, 1e3 * r->prod_ms,
               tf, pct, cx, tx, dx, null_x, r->ok ? "yes" : "NO", r->is_default ? "  (default)" : "");
        gs_buf_printf(&table, "%s\t%s\t%.3f\t%.2f\t%.2f\t%.4f\t%.4f\t%.4f\t%d\t%d\t%d\t%s\n", r->shape, r->variant,
                      1e3 * r->prod_ms, tf, pct, cx, tx, dx, r->ok, inputs, pdl, null_x);
    }
    if (isnan(ceil_tf))
        failures++;
    char err[512];
    const int unwritten = tsv && gs_buf_write(&table, tsv, err, sizeof err) != 0;
    if (unwritten)
        fprintf(stderr, "nvfp4-bench: %s\n", err);
    gs_buf_free(&table);
    free(rows);
    if (unwritten)
        return 1;
    if (failures)
        printf("nvfp4-bench: some points failed (see above)\n");
    else
        printf("nvfp4-bench: all points ran and were correct\n");
    return failures ? 1 : 0;
}
