/* cupti_check: runs the CUPTI collectors on the NVFP4 subject (the shape's production variant,
 * production build) and prints durations (CUPTI activity vs CUDA events),
 * resources, the default and sol metric sets with their pass counts, and the
 * stall-reason summary.  GPU required.
 *
 *   cupti_check [--shape S] [--reps N] [--warmup N] [--period N] [--pcsamp-tsv PATH] [--pcsamp-last]
 *   cupti_check --ncu [--shape S] [--warmup N] [--probe]   (run under ncu: no CUPTI)
 *   cupti_check --list-metrics                              (names for ncu --metrics)
 *   cupti_check --list-set default|sol                      (one set's names)
 *   cupti_check --metrics NAME,NAME,... [--shape S]          (only these metrics, as set "custom":
 *                                      a metric's breakdown beside ncu's, with ncu-compare)
 *   cupti_check --truth [--ncu]       (our collector on probe kernels of known traffic: gs_probe.h;
 *                                      with --ncu the same launches for Nsight Compute)
 *   any of these with --no-pdl: the GEMM launches without programmatic dependent launch
 *
 * Every metric figure is the median of --metric-reps collections (default 5): one launch
 * differs from the next by a few percent.  Comparison with Nsight Compute on the same
 * launch sequence:
 *   m=$(cupti_check --list-metrics)
 *   ncu --clock-control none --replay-mode application -k regex:nvfp4_gemm_kernel_prod \
 *       --launch-skip 5 --launch-count 5 --metrics $m --csv --print-units base cupti_check --ncu --shape g8k7168
 * ncu's default cache control flushes and invalidates L2 before every pass: the kernel
 * starts, as in every pass of our collector (token pre-pass, then an L2 flush that
 * writes and discards twice the L2), with none of its data in L2 and no dirty line.
 * (With --cache-control none ncu's own work before the launch changes what L2 holds, and
 * so does kernel replay's restore of the kernel's memory: docs/method.md.)  ncu-compare
 * takes the median of ncu's launches against the "metric" lines of a normal run (durations
 * within 2%, percentages within 3 points); durations against a second ncu run given only
 * $(cupti_check --list-set default)
 * (ncu-compare --durations): ncu's duration grows with what it collects beside it. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cuda_runtime_api.h>

#include "gs_args.h"
#include "gs_cupti.h"
#include "gs_flush.h"
#include "gs_probe.h"
#include "gs_stats.h"
#include "gs_timing.h"
#include "../kernels/nvfp4/nvfp4.h"

#define KERNEL "nvfp4_gemm_kernel_prod"

typedef struct subject {
    const nvfp4_variant *v;
    nvfp4_problem *p;
} subject;

static int launch(void *arg, cudaStream_t s)
{
    subject *a = arg;
    gs_buffer none;
    memset(&none, 0, sizeof none);
    return nvfp4_launch(a->v, 0, a->p, none, s);
}

static void usage(FILE *f)
{
    fprintf(f, "usage: cupti_check [--shape S] [--reps N] [--warmup N] [--period N] [--pcsamp-tsv PATH] "
               "[--pcsamp-last]\n"
               "       cupti_check --ncu [--shape S] [--warmup N] [--probe]\n"
               "       cupti_check --list-metrics | --list-set default|sol\n"
               "       cupti_check --metrics NAME,NAME,... [--shape S] [--metric-reps N]\n"
               "       cupti_check --truth [--ncu] [--metric-reps N]\n"
               "       (--no-pdl with any: the GEMM launches in plain stream order)\n");
}

static void list_metrics(void)
{
    const char *const *sets[2] = {gs_cupti_metrics_default, gs_cupti_metrics_sol};
    const char *seen[2 * GS_CUPTI_MAX_METRICS];
    int nseen = 0;
    for (int s = 0; s < 2; s++)
        for (int i = 0; sets[s][i]; i++) {
            int dup = 0;
            for (int j = 0; j < nseen; j++)
                dup |= strcmp(seen[j], sets[s][i]) == 0;
            if (!dup)
                seen[nseen++] = sets[s][i];
        }
    for (int j = 0; j < nseen; j++)
        printf("%s%s", j ? "," : "", seen[j]);
    printf("\n");
}

/* --no-pdl: the GEMM launches in plain stream order (nvfp4_problem_set_pdl) */
static int g_no_pdl = 0;

/* Before every profiled pass: the token pre-pass (the GEMM's input), then an L2 flush that
 * writes then discards (gs_flush.h): L2 is left empty, as Nsight Compute's default cache
 * control leaves it. */
typedef struct pass_setup {
    subject *a;
    const gs_l2_flusher *fl;
} pass_setup;

static int before_pass(void *arg, cudaStream_t s)
{
    const pass_setup *p = arg;
    const int e = nvfp4_prepare(p->a->v, p->a->p, s);
    return e ? e : gs_l2_flush_discard(p->fl, s);
}

static int launch_gemm(void *arg, cudaStream_t s)
{
    subject *a = arg;
    return nvfp4_launch_gemm_alone(a->v, a->p, s);
}

/* What one metric collection profiles: a launch, the set-up before each of its passes, and
 * the kernel (a name substring) whose range is read. */
typedef struct profiled {
    gs_launch_fn launch, before;
    void *arg, *before_arg;
    const char *kernel;
} profiled;

/* Collects `names` g_metric_reps times and prints, per metric, the median ("metric SET NAME
 * VALUE", with the kernel substring after it when it is not the GEMM's) and the range.
 * Medians go to med[] when it is not NULL.  0, or -1 when the collector could not run. */
static int g_metric_reps = GS_CUPTI_METRIC_REPS;
static int print_metrics(const char *set, const char *const *names, int n, const profiled *pr, cudaStream_t s,
                         double *med)
{
    int host_passes = -1;
    char why[512];
    static gs_metric_values mv;
    if (gs_cupti_metrics_validate("GH100", names, n, &host_passes, why, sizeof why))
        printf("metrics.%s host check (GH100) failed: %s\n", set, why);
    int e = gs_cupti_metrics_collect_median(pr->launch, pr->arg, pr->before, pr->before_arg, s, names, n,
                                            pr->kernel, g_metric_reps, &mv, why, sizeof why);
    if (e && strstr(why, "MULTIPLE_SUBSCRIBERS")) {
        /* our own module-load subscription may hold the one subscriber slot */
        printf("metrics.%s: %s; retrying without our subscriber\n", set, why);
        gs_cupti_pcsamp_release();
        e = gs_cupti_metrics_collect_median(pr->launch, pr->arg, pr->before, pr->before_arg, s, names, n,
                                            pr->kernel, g_metric_reps, &mv, why, sizeof why);
    }
    if (e) {
        printf("metrics.%s: skipped: %s\n", set, why);
        return -1;
    }
    printf("metrics.%s passes %d (host API for GH100: %d), chip %s, %d range(s), range '%s', %s replay, set-up after "
           "the profiler's start, median of %d collections\n",
           set, mv.passes, host_passes, mv.chip, mv.ranges, mv.range_name, mv.replay, mv.collections);
    const int gemm = !strcmp(pr->kernel, KERNEL);
    for (int i = 0; i < mv.n; i++) {
        if (med)
            med[i] = mv.values[i];
        printf("metric %s %s %.6g%s%s\n", set, mv.names[i], mv.values[i], gemm ? "" : " ", gemm ? "" : pr->kernel);
        printf("metric.range %s %s %.6g %.6g\n", set, mv.names[i], mv.lo[i], mv.hi[i]);
    }
    return 0;
}

/* ---- probes: kernels whose DRAM traffic is known (gs_probe.h) ---- */
typedef struct probe_arg {
    const gs_probe *p;
    gs_probe_kind k;
} probe_arg;

static int probe_launch(void *arg, cudaStream_t s)
{
    const probe_arg *a = arg;
    return gs_probe_launch(a->p, a->k, s);
}

static int probe_before(void *arg, cudaStream_t s)
{
    return gs_l2_flush_discard(arg, s); /* no dirty line and no probe line left in L2 */
}

static const char *const probe_metrics[] = {"gpu__time_duration.sum", "dram__bytes_read.sum",
                                            "dram__bytes_write.sum"};
#define PROBE_METRICS 3

/* Our collector against each probe's known traffic: prints the measured medians in the
 * "metric" format (for ncu-compare), the truths ("truth SET NAME LO HI") and a judged table
 * ending in 'N passed, N failed'.  Returns the failures (or -1 when nothing ran). */
static int run_probes(const gs_probe *pb, const gs_l2_flusher *fl, cudaStream_t s)
{
    int pass = 0, fail = 0;
    char rows[GS_PROBE_KINDS * PROBE_METRICS][256];
    int nrows = 0;
    printf("probes: buffer %.1f MB, idle spin %llu ns, L2 %.1f MB, %d SMs; L2 emptied (writes + discard) before "
           "every pass\n",
           (double)pb->bytes / 1e6, pb->idle_ns, (double)pb->l2_bytes / 1e6, pb->sms);
    for (int k = 0; k < GS_PROBE_KINDS; k++) {
        probe_arg a = {pb, (gs_probe_kind)k};
        profiled pr = {probe_launch, probe_before, &a, (void *)fl, gs_probe_kernel((gs_probe_kind)k)};
        char set[32];
        double med[PROBE_METRICS];
        snprintf(set, sizeof set, "probe-%s", gs_probe_name((gs_probe_kind)k));
        for (int i = 0; i < 3; i++) /* first launches (module load) outside the profiled ones */
            if (probe_launch(&a, s) || cudaStreamSynchronize(s) != cudaSuccess) {
                printf("probes: %s launch failed\n", set);
                return -1;
            }
        if (print_metrics(set, probe_metrics, PROBE_METRICS, &pr, s, med))
            return -1;
        for (int i = 0; i < PROBE_METRICS; i++) {
            double lo, hi;
            if (gs_probe_truth(pb, (gs_probe_kind)k, probe_metrics[i], &lo, &hi))
                continue;
            printf("truth %s %s %.6g %.6g\n", set, probe_metrics[i], lo, hi);
            const int ok = med[i] >= lo && med[i] <= hi;
            snprintf(rows[nrows++], sizeof rows[0], "%-12s %-24s %14.6g %14.6g %14.6g %s", set, probe_metrics[i], lo,
                     hi, med[i], ok ? "pass" : "FAIL");
            ok ? pass++ : fail++;
        }
    }
    printf("%-12s %-24s %14s %14s %14s %s\n", "probe", "metric", "truth from", "truth to", "ours", "result");
    for (int i = 0; i < nrows; i++)
        printf("%s\n", rows[i]);
    printf("%d passed, %d failed\n", pass, fail);
    return fail;
}

static int cmp_reason(const void *a, const void *b)
{
    const gs_pcsamp_reason *x = *(const gs_pcsamp_reason *const *)a, *y = *(const gs_pcsamp_reason *const *)b;
    return (x->samples < y->samples) - (x->samples > y->samples);
}

/* 0, or -1 when the collection did not run (said on stdout) */
static int print_pcsamp(subject *a, cudaStream_t s, int period, const char *tsv, int have_cubins)
{
    char why[512];
    gs_pcsamp_result r;
    struct timespec t0, t1;
    printf("pcsamp cubins captured %d\n", gs_cupti_pcsamp_cubin_count());
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (gs_cupti_pcsamp_collect(launch, a, s, KERNEL, period, &r, why, sizeof why)) {
        /* the range profiler stays initialised between collections: retry without it */
        printf("pcsamp: %s; retrying after cuptiProfilerDeInitialize\n", why);
        gs_cupti_metrics_shutdown();
        clock_gettime(CLOCK_MONOTONIC, &t0);
        if (gs_cupti_pcsamp_collect(launch, a, s, KERNEL, period, &r, why, sizeof why)) {
            printf("pcsamp: skipped: %s\n", why);
            return -1;
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("pcsamp collection took %.3f s (sampling + line correlation)\n",
           (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
    printf("pcsamp samples %llu (CUPTI total %llu, non-user %llu, dropped %llu, other kernels %llu, hw buffer "
           "full %d), %d PCs, period 2^%d cycles, unmapped %llu%s\n",
           r.samples, r.cupti_total, r.non_user_samples, r.dropped, r.other_samples, r.hardware_buffer_full, r.pcs,
           r.sampling_period_log2, r.unmapped_samples,
           have_cubins ? "" : " (no cubins captured: lines unknown)");
    printf("pcsamp function %s\n", r.function);
    const gs_pcsamp_reason **order = malloc((size_t)r.nreasons * sizeof *order);
    if (order) {
        for (int i = 0; i < r.nreasons; i++)
            order[i] = &r.reasons[i];
        qsort(order, (size_t)r.nreasons, sizeof *order, cmp_reason);
        printf("pcsamp reasons: %d names from CUPTI\n", r.nreasons);
        for (int i = 0, shown = 0; i < r.nreasons && shown < 12; i++) {
            if (order[i]->not_issued || !order[i]->samples)
                continue;
            printf("pcsamp reason %-58s %10llu %6.2f%%\n", order[i]->name, order[i]->samples,
                   r.samples ? 100.0 * (double)order[i]->samples / (double)r.samples : 0.0);
            shown++;
        }
        free(order);
    }
    for (int i = 0; i < r.nlines && i < 20; i++) {
        const gs_pcsamp_line *l = &r.lines[i];
        int top = -1;
        for (int k = 0; k < r.nreasons; k++)
            if (!r.reasons[k].not_issued && (top < 0 || l->by_reason[k] > l->by_reason[top]))
                top = k;
        const char *base = strrchr(l->file, '/');
        printf("pcsamp line %s:%u %llu %.2f%% top %s\n", base ? base + 1 : l->file, l->line, l->samples,
               r.samples ? 100.0 * (double)l->samples / (double)r.samples : 0.0,
               top >= 0 ? r.reasons[top].name : "?");
    }
    printf("pcsamp lines %d\n", r.nlines);
    if (tsv) {
        if (gs_pcsamp_write_tsv(&r, NULL, tsv, why, sizeof why))
            printf("pcsamp tsv: %s\n", why);
        else
            printf("pcsamp tsv written to %s\n", tsv);
    }
    gs_pcsamp_result_free(&r);
    return 0;
}

/* --truth: our collector on the probes (judged against what they must measure), or with
 * --ncu the same launches for Nsight Compute to profile. */
static int truth_main(int ncu)
{
    cudaStream_t s = NULL;
    gs_l2_flusher fl;
    gs_probe pb;
    memset(&fl, 0, sizeof fl);
    memset(&pb, 0, sizeof pb);
    /* 1 GiB: what L2 may still hold dirty at the end is under 5% of the write probe's
     * writes; 100 us of idle spin, about an 8-group GEMM's time */
    int e = (int)cudaStreamCreate(&s);
    if (!e)
        e = gs_l2_flusher_init(&fl, 0) ? -1 : 0;
    if (!e)
        e = gs_probe_init(&pb, (size_t)1 << 30, 100000ull);
    if (e) {
        fprintf(stderr, "cupti_check: probe set-up failed (%d)\n", e);
        return 1;
    }
    int rc = 0;
    if (ncu) {
        /* warm-up launches of every probe first (ncu --launch-skip 9), then the profiled ones,
         * each after the L2 emptying that precedes our collector's passes */
        for (int w = 0; w < 2 && !rc; w++)
            for (int k = 0; k < GS_PROBE_KINDS && !rc; k++)
                for (int r = 0; r < (w ? g_metric_reps : 3) && !rc; r++)
                    if ((w && probe_before(&fl, s)) || gs_probe_launch(&pb, (gs_probe_kind)k, s) ||
                        cudaStreamSynchronize(s) != cudaSuccess)
                        rc = 1;
        if (rc)
            fprintf(stderr, "cupti_check: probe launch failed\n");
        else
            printf("ncu-target probes kernel regex:gs_probe_ launch-skip %d launch-count %d\n", 3 * GS_PROBE_KINDS,
                   GS_PROBE_KINDS * g_metric_reps);
    } else {
        rc = run_probes(&pb, &fl, s) ? 1 : 0;
    }
    gs_probe_free(&pb);
    gs_l2_flusher_free(&fl);
    cudaStreamDestroy(s);
    return rc;
}

/* --metrics: the comma-separated names copied into list (NUL-separated there), pointers in
 * names[]; their count, or -1 for an empty name, too many names or a list too long. */
#define MAX_CUSTOM 64
static int split_names(const char *csv, char *list, size_t size, const char **names)
{
    if (strlen(csv) >= size)
        return -1;
    memcpy(list, csv, strlen(csv) + 1);
    int n = 0;
    for (char *p = list;; p++) {
        char *end = strchr(p, ',');
        if (end)
            *end = '\0';
        if (!*p || n == MAX_CUSTOM)
            return -1;
        names[n++] = p;
        if (!end)
            return n;
        p = end;
    }
}

int main(int argc, char **argv)
{
    const char *shape_name = "g8k7168", *tsv = NULL, *custom = NULL, *custom_names[MAX_CUSTOM];
    static char custom_list[4096];
    int n_custom = 0;
    setvbuf(stdout, NULL, _IOLBF, 0); /* keep what was printed if a collector crashes */
    int reps = 50, warmup = 5, period = 0, ncu = 0, probe = 0, pcsamp_last = 0, truth = 0;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        const struct {
            const char *name;
            int *on;
        } flags[] = {{"--ncu", &ncu},
                     {"--probe", &probe},
                     {"--truth", &truth},
                     {"--no-pdl", &g_no_pdl},
                     {"--pcsamp-last", &pcsamp_last}};
        int flag = 0;
        for (size_t k = 0; k < sizeof flags / sizeof flags[0] && !flag; k++)
            if (!strcmp(o, flags[k].name))
                flag = *flags[k].on = 1;
        if (flag)
            continue;
        if (!strcmp(o, "--list-metrics")) {
            list_metrics();
            return 0;
        }
        if (!strcmp(o, "--list-set") && v) { /* one set's names (the durations run of check-gpu) */
            const char *const *set = !strcmp(v, "default") ? gs_cupti_metrics_default
                                     : !strcmp(v, "sol")   ? gs_cupti_metrics_sol
                                                           : NULL;
            if (!set) {
                fprintf(stderr, "cupti_check: --list-set takes default or sol, not '%s'\n", v);
                return 2;
            }
            for (int k = 0; set[k]; k++)
                printf("%s%s", k ? "," : "", set[k]);
            printf("\n");
            return 0;
        }
        if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
            usage(stdout);
            return 0;
        }
        if (!v) {
            usage(stderr);
            return 2;
        }
        i++;
        const struct {
            const char *name;
            int *target, lo, hi;
        } nums[] = {{"--reps", &reps, 1, 100000},
                    {"--warmup", &warmup, 0, 100000},
                    {"--period", &period, 0, 31},
                    {"--metric-reps", &g_metric_reps, 1, GS_CUPTI_MAX_COLLECTIONS}};
        int num = 0;
        for (size_t k = 0; k < sizeof nums / sizeof nums[0] && !num; k++)
            if (!strcmp(o, nums[k].name)) {
                long x = 0;
                if (gs_parse_long(v, nums[k].lo, nums[k].hi, &x)) {
                    fprintf(stderr, "cupti_check: %s takes a whole number %d..%d, not '%s'\n", o, nums[k].lo,
                            nums[k].hi, v);
                    return 2;
                }
                *nums[k].target = (int)x;
                num = 1;
            }
        if (num)
            continue;
        if (!strcmp(o, "--shape"))
            shape_name = v;
        else if (!strcmp(o, "--pcsamp-tsv"))
            tsv = v;
        else if (!strcmp(o, "--metrics")) {
            custom = v;
            n_custom = split_names(v, custom_list, sizeof custom_list, custom_names);
            if (n_custom <= 0) {
                fprintf(stderr, "cupti_check: --metrics takes 1..%d comma-separated metric names, not '%s'\n",
                        MAX_CUSTOM, v);
                return 2;
            }
        }
        else {
            usage(stderr);
            return 2;
        }
    }

    if (period > 0 && period < 5) {
        fprintf(stderr, "cupti_check: --period takes 0 (the default, 2^6 cycles) or 5..31, not %d\n", period);
        return 2;
    }

    char why[512];
    int pcs_ready = 0;
    /* first, before any module loads: keeps the cubins for PC -> line */
    if (!ncu && !truth) {
        if (gs_cupti_pcsamp_init(why, sizeof why))
            printf("pcsamp.init: %s (stall reasons will have no lines)\n", why);
        else
            pcs_ready = 1;
    }

    nvfp4_shape shape;
    if (nvfp4_shape_parse(shape_name, &shape, why, sizeof why)) {
        fprintf(stderr, "cupti_check: %s\n", why);
        return 2;
    }
    if (cudaSetDevice(0) != cudaSuccess) {
        fprintf(stderr, "cupti_check: no CUDA device\n");
        return 3;
    }
    struct cudaDeviceProp prop;
    if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) {
        fprintf(stderr, "cupti_check: cudaGetDeviceProperties failed\n");
        return 3;
    }
    if (truth)
        return truth_main(ncu);
    subject a = {nvfp4_variant_default(&shape), NULL}; /* the production point of the shape */
    if (!a.v || nvfp4_problem_create(&shape, NVFP4_DIST_GPUMODE, 1, &a.p)) {
        fprintf(stderr, "cupti_check: cannot set up the NVFP4 problem\n");
        return 1;
    }
    if (g_no_pdl && nvfp4_problem_set_pdl(a.p, 0)) {
        fprintf(stderr, "cupti_check: cannot turn programmatic dependent launch off\n");
        return 1;
    }
    cudaStream_t s = NULL;
    gs_l2_flusher fl;
    memset(&fl, 0, sizeof fl);
    if (cudaStreamCreate(&s) != cudaSuccess || gs_l2_flusher_init(&fl, 0)) {
        fprintf(stderr, "cupti_check: stream or flush buffer failed\n");
        return 1;
    }

    if (ncu) {
        /* warmup launches, then the one ncu profiles (--launch-skip warmup --launch-count 1) */
        for (int i = 0; i < warmup; i++)
            if (launch(&a, s)) {
                fprintf(stderr, "cupti_check: launch failed\n");
                return 1;
            }
        /* the profiled launches (as many as our collector's collections) follow the same
         * set-up as every pass of our collector (before_pass); ncu's default cache control
         * then empties L2 before each of its passes */
        pass_setup ps = {&a, &fl};
        for (int r = 0; r < g_metric_reps; r++)
            if (before_pass(&ps, s) || launch_gemm(&a, s) || cudaStreamSynchronize(s) != cudaSuccess) {
                fprintf(stderr, "cupti_check: profiled launch failed\n");
                return 1;
            }
        printf("ncu-target shape %s kernel regex:%s launch-skip %d launch-count %d\n", shape_name, KERNEL,
               warmup, g_metric_reps);
        if (probe) { /* what our collectors say with ncu attached */
            int r1 = gs_cupti_pcsamp_init(why, sizeof why);
            printf("probe pcsamp_init: %s\n", r1 ? why : "ok");
            int r2 = gs_cupti_activity_begin(why, sizeof why);
            printf("probe activity_begin: %s\n", r2 ? why : "ok");
            if (!r2) {
                gs_kernel_durations d;
                if (!gs_cupti_activity_end(KERNEL, &d, why, sizeof why))
                    gs_kernel_durations_free(&d);
            }
        }
        nvfp4_problem_destroy(a.p);
        return 0;
    }

    if (custom) {
        pass_setup ps = {&a, &fl};
        profiled pr = {launch_gemm, before_pass, &a, &ps, KERNEL};
        const int e = print_metrics("custom", custom_names, n_custom, &pr, s, NULL);
        nvfp4_problem_destroy(a.p);
        gs_l2_flusher_free(&fl);
        cudaStreamDestroy(s);
        return e ? 1 : 0;
    }

    printf("== cupti_check nvfp4 %s variant %s on %s (%d SMs)%s\n", shape_name, a.v->name, prop.name,
           prop.multiProcessorCount, g_no_pdl ? ", no programmatic dependent launch" : "");
    int skipped = 0; /* a collector that did not run: the exit status says so */
    /* ---- stall reasons first: the kernel's module must load while PC sampling is enabled ---- */
    if (!pcsamp_last) {
        if (gs_l2_flush_clean(&fl, s) || cudaStreamSynchronize(s) != cudaSuccess)
            printf("pcsamp: L2 flush failed\n");
        skipped |= print_pcsamp(&a, s, period, tsv, pcs_ready) != 0;
    }

    /* ---- durations: CUPTI activity vs CUDA events on the same launches ---- */
    gs_timing ev, plain;
    memset(&ev, 0, sizeof ev);
    memset(&plain, 0, sizeof plain);
    int act = gs_cupti_activity_begin(why, sizeof why);
    skipped |= act != 0;
    if (act)
        printf("durations: CUPTI skipped: %s\n", why);
    if (gs_time_launches(launch, &a, s, &fl, warmup, reps, &ev)) {
        fprintf(stderr, "cupti_check: timed launches failed\n");
        return 1;
    }
    gs_kernel_durations d;
    memset(&d, 0, sizeof d);
    if (!act && gs_cupti_activity_end(KERNEL, &d, why, sizeof why)) {
        printf("durations: CUPTI failed: %s\n", why);
        act = -1;
        skipped = 1;
    }
    if (gs_time_launches(launch, &a, s, &fl, warmup, reps, &plain)) {
        fprintf(stderr, "cupti_check: timed launches failed\n");
        return 1;
    }
    printf("durations.events_ms median %.6f min %.6f max %.6f (%d reps, CUPTI activity on)\n", ev.median_ms,
           ev.min_ms, ev.max_ms, ev.reps);
    printf("durations.events_plain_ms median %.6f min %.6f max %.6f (%d reps, CUPTI off)\n", plain.median_ms,
           plain.min_ms, plain.max_ms, plain.reps);
    if (!act) {
        int total = d.count;
        gs_kernel_durations_drop_first(&d, warmup);
        printf("durations.cupti_ms median %.6f min %.6f max %.6f (%d of %d launches after %d warm-up; %d other "
               "kernels, %llu dropped)\n",
               d.median_ms, d.min_ms, d.max_ms, d.count, total, warmup, d.other_kernels, d.dropped);
        printf("durations.ratio cupti/events %.4f cupti/events_plain %.4f\n",
               ev.median_ms > 0 ? d.median_ms / ev.median_ms : 0.0,
               plain.median_ms > 0 ? d.median_ms / plain.median_ms : 0.0);
        if (d.count == ev.reps) {
            double *diff = malloc((size_t)d.count * sizeof *diff);
            if (diff) {
                for (int i = 0; i < d.count; i++)
                    diff[i] = (ev.samples_ms[i] - d.samples_ms[i]) * 1e3;
                const double med = gs_sort_median(diff, d.count);
                printf("durations.events_minus_cupti_us median %.2f min %.2f max %.2f (per launch)\n", med, diff[0],
                       diff[d.count - 1]);
                free(diff);
            }
        }
        printf("resources kernel %s\n", d.name);
        printf("resources regs_per_thread %d static_smem %d dynamic_smem %d local_per_thread %u grid %dx%dx%d "
               "block %dx%dx%d\n",
               d.registers_per_thread, d.static_smem_bytes, d.dynamic_smem_bytes, d.local_mem_per_thread,
               d.grid[0], d.grid[1], d.grid[2], d.block[0], d.block[1], d.block[2]);
        gs_kernel_durations_free(&d);
    }
    gs_timing_free(&ev);
    gs_timing_free(&plain);

    /* ---- hardware metrics: medians of g_metric_reps collections (user replay: before_pass before every pass) ---- */
    for (int k = 0; k < 2; k++) {
        const char *set = k ? "sol" : "default";
        int n = 0;
        const char *const *names = gs_cupti_metric_set(set, &n);
        pass_setup ps = {&a, &fl};
        profiled pr = {launch_gemm, before_pass, &a, &ps, KERNEL};
        skipped |= print_metrics(set, names, n, &pr, s, NULL) != 0;
    }

    /* ---- stall reasons last (--pcsamp-last: the order that gave no PC records on H100) ---- */
    if (pcsamp_last)
        skipped |= print_pcsamp(&a, s, period, tsv, pcs_ready) != 0;

    nvfp4_problem_destroy(a.p);
    gs_l2_flusher_free(&fl);
    cudaStreamDestroy(s);
    if (skipped)
        fprintf(stderr, "cupti_check: a collector did not run (the lines above say which)\n");
    return skipped ? 1 : 0;
}
