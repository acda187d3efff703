/* cupti_check: runs the CUPTI collectors on the NVFP4 subject (the shape's production variant,
 * production build) and prints durations (CUPTI activity vs CUDA events),
 * resources, the default and sol metric sets with their pass counts, and the
 * stall-reason summary.  GPU required.
 *
 *   cupti_check [--shape S] [--reps N] [--warmup N] [--period N] [--pcsamp-tsv PATH] [--pcsamp-last]
 *   cupti_check --ncu [--shape S] [--warmup N] [--flush F] [--probe]   (run under ncu: no CUPTI)
 *   cupti_check --list-metrics                              (names for ncu --metrics)
 *   cupti_check --list-set default|sol                      (one set's names)
 *   cupti_check --truth [--ncu]       (our collector on probe kernels of known traffic: gs_probe.h;
 *                                      with --ncu the same launches for Nsight Compute)
 *   cupti_check --alone [--shape S] [--reps N] [--warmup N]
 *       (the GEMM by itself as every metrics pass runs it: set-up, wait, launch; timed by
 *       CUDA events and CUPTI activity)
 *   any of these with --no-pdl: the GEMM launches without programmatic dependent launch, and
 *   with --evict code|tlb|all: the set-up also replaces the instruction caches' code, the
 *   TLBs' translations or both (gs_flush.h), for studies of a cold start
 *   cupti_check --only-metrics LIST [--shape S] [--flush read|discard|none]
 *       [--replay user|kernel]
 *       (just those metrics, flushing L2 before every pass the given way: gs_flush.h; with
 *       --replay kernel CUPTI replays the launch and the flush runs once, before it)
 *
 * Every metric figure is the median of --metric-reps collections (default 5): one launch
 * differs from the next by a few percent.  Comparison with Nsight Compute on the same
 * launch sequence:
 *   m=$(cupti_check --list-metrics)
 *   ncu --clock-control none -k regex:nvfp4_gemm_kernel_prod --launch-skip 5 --launch-count 5 \
 *       --metrics $m --csv --print-units base cupti_check --ncu --shape g8k7168
 * ncu's default kernel replay flushes and invalidates L2 before every pass: the kernel
 * starts, as in every pass of our collector (token pre-pass, then an L2 flush that
 * writes and discards twice the L2), with none of its data in L2 and no dirty line.
 * (With --cache-control none ncu's own work before the launch changes what L2 holds:
 * scripts/gap-study.sh, docs/method.md.)  ncu-compare takes the median of ncu's launches
 * against the "metric" lines of a normal run (durations within 2%, percentages within 3
 * points); durations against a second ncu run given only $(cupti_check --list-set default)
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
               "       cupti_check --ncu [--shape S] [--warmup N] [--flush F] [--probe]\n"
               "       cupti_check --alone [--shape S] [--reps N] [--warmup N]\n"
               "       cupti_check --list-metrics | --list-set default|sol\n"
               "       cupti_check --only-metrics LIST [--shape S] [--flush F] [--replay user|kernel]\n"
               "       cupti_check --truth [--ncu] [--metric-reps N] [--setup inside|outside]\n"
               "       (--no-pdl with any: the GEMM launches in plain stream order; --evict code|tlb|all:\n"
               "       the set-up also evicts the instruction caches, the TLBs or both)\n");
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

/* Before every profiled pass: the token pre-pass (the GEMM's input), then an L2 flush
 * (gs_flush.h: by default writes then a discard, which leaves L2 empty; for the studies, a
 * clean read, which leaves it full of clean lines, or none). */
typedef enum { FLUSH_READ, FLUSH_DISCARD, FLUSH_NONE } flush_mode;
static int g_flush = FLUSH_DISCARD; /* a flush_mode */
/* --replay kernel: CUPTI's kernel replay (it saves and restores memory around every pass;
 * before_pass runs once, before it) in place of user replay; for comparing the two */
static int g_kernel_replay = 0;
/* --setup outside: the set-up runs before the range profiler starts each pass (the old
 * order; for comparing) instead of after it */
static int g_setup_outside = 0;
/* --no-pdl: the GEMM launches in plain stream order (nvfp4_problem_set_pdl) */
static int g_no_pdl = 0;
#define COLLECT_FLAGS ((g_kernel_replay ? GS_CUPTI_KERNEL_REPLAY : 0u) | (g_setup_outside ? GS_CUPTI_SETUP_OUTSIDE : 0u))

typedef struct pass_setup {
    subject *a;
    const gs_l2_flusher *fl;
} pass_setup;

/* --evict code|tlb|all (a study of what else than L2 the set-up leaves warm; gs_flush.h):
 * after the pre-pass and before the flush, the instruction caches get other code, the
 * TLBs other translations (a read of one word every 64 KiB over g_tlb_bytes) */
enum { EVICT_CODE = 1, EVICT_TLB = 2 };
static int g_evict = 0; /* index into the --evict values: none, code, tlb, all = EVICT_* bits */
static void *g_tlb_buf = NULL;
static const size_t g_tlb_bytes = (size_t)16 << 30;

static void free_tlb_buf(void)
{
    if (g_tlb_buf && cudaFree(g_tlb_buf) != cudaSuccess)
        fprintf(stderr, "cupti_check: freeing the TLB eviction buffer failed\n");
    g_tlb_buf = NULL;
}

static int before_pass(void *arg, cudaStream_t s)
{
    const pass_setup *p = arg;
    int e = nvfp4_prepare(p->a->v, p->a->p, s);
    if (!e && (g_evict & EVICT_TLB))
        e = gs_evict_tlb(g_tlb_buf, g_tlb_bytes, s);
    if (!e && (g_evict & EVICT_CODE))
        e = gs_evict_code(s);
    if (e || g_flush == FLUSH_NONE)
        return e;
    return g_flush == FLUSH_DISCARD ? gs_l2_flush_discard(p->fl, s) : gs_l2_flush_clean(p->fl, s);
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
    int e = gs_cupti_metrics_collect_median(pr->launch, pr->arg, pr->before, pr->before_arg, COLLECT_FLAGS, s, names,
                                            n, pr->kernel, g_metric_reps, &mv, why, sizeof why);
    if (e && strstr(why, "MULTIPLE_SUBSCRIBERS")) {
        /* our own module-load subscription may hold the one subscriber slot */
        printf("metrics.%s: %s; retrying without our subscriber\n", set, why);
        gs_cupti_pcsamp_release();
        e = gs_cupti_metrics_collect_median(pr->launch, pr->arg, pr->before, pr->before_arg, COLLECT_FLAGS, s, names,
                                            n, pr->kernel, g_metric_reps, &mv, why, sizeof why);
    }
    if (e) {
        printf("metrics.%s: skipped: %s\n", set, why);
        return -1;
    }
    printf("metrics.%s passes %d (host API for GH100: %d), chip %s, %d range(s), range '%s', %s replay, set-up %s "
           "the profiler's start, median of %d collections\n",
           set, mv.passes, host_passes, mv.chip, mv.ranges, mv.range_name, mv.replay,
           g_setup_outside ? "before" : "after", mv.collections);
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

static void print_pcsamp(subject *a, cudaStream_t s, int period, const char *tsv, int have_cubins)
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
            return;
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
        if (gs_pcsamp_write_tsv(&r, tsv, why, sizeof why))
            printf("pcsamp tsv: %s\n", why);
        else
            printf("pcsamp tsv written to %s\n", tsv);
    }
    gs_pcsamp_result_free(&r);
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

/* The GEMM by itself, as every metrics pass runs it: the set-up (pre-pass, L2 flush), a
 * wait until the GPU is idle, then the launch between two events.  CUPTI activity gives
 * the kernel's own start and end; the events add the launch's latency. */
static int time_alone(subject *a, const gs_l2_flusher *fl, cudaStream_t s, int warmup, int reps)
{
    char why[512];
    cudaEvent_t e0 = NULL, e1 = NULL;
    gs_timing ev = {0};
    ev.samples_ms = calloc((size_t)reps, sizeof *ev.samples_ms);
    pass_setup ps = {a, fl};
    int rc = 1, act = 1; /* act 0: CUPTI activity is on and must be ended */
    if (!ev.samples_ms || cudaEventCreate(&e0) != cudaSuccess || cudaEventCreate(&e1) != cudaSuccess) {
        fprintf(stderr, "cupti_check: events failed\n");
        goto done;
    }
    act = gs_cupti_activity_begin(why, sizeof why);
    if (act)
        printf("alone: CUPTI activity skipped: %s\n", why);
    for (int r = 0; r < warmup + reps; r++) {
        float ms = 0.0f;
        if (before_pass(&ps, s) || cudaStreamSynchronize(s) != cudaSuccess || cudaEventRecord(e0, s) != cudaSuccess ||
            launch_gemm(a, s) || cudaEventRecord(e1, s) != cudaSuccess || cudaStreamSynchronize(s) != cudaSuccess ||
            cudaEventElapsedTime(&ms, e0, e1) != cudaSuccess) {
            fprintf(stderr, "cupti_check: alone launch %d failed\n", r);
            goto done;
        }
        if (r >= warmup)
            ev.samples_ms[r - warmup] = ms;
    }
    if (gs_timing_summarise(&ev, reps))
        goto done;
    printf("alone.events_us median %.3f min %.3f max %.3f (%d reps after %d warm-up, pdl %s)\n", 1e3 * ev.median_ms,
           1e3 * ev.min_ms, 1e3 * ev.max_ms, reps, warmup, g_no_pdl ? "off" : "on");
    if (!act) {
        gs_kernel_durations d;
        memset(&d, 0, sizeof d);
        if (gs_cupti_activity_end(KERNEL, &d, why, sizeof why))
            printf("alone: CUPTI activity failed: %s\n", why);
        else {
            gs_kernel_durations_drop_first(&d, warmup);
            printf("alone.cupti_us median %.3f min %.3f max %.3f (%d launches, pdl %s)\n", 1e3 * d.median_ms,
                   1e3 * d.min_ms, 1e3 * d.max_ms, d.count, g_no_pdl ? "off" : "on");
            gs_kernel_durations_free(&d);
        }
    }
    rc = 0;
done:
    if (rc && !act) { /* a failed launch: activity still on */
        gs_kernel_durations d;
        memset(&d, 0, sizeof d);
        if (gs_cupti_activity_end(KERNEL, &d, why, sizeof why) == 0)
            gs_kernel_durations_free(&d);
    }
    if (e0)
        cudaEventDestroy(e0);
    if (e1)
        cudaEventDestroy(e1);
    gs_timing_free(&ev);
    return rc;
}

/* The options that pick one of a few values (the value's index goes to the variable).
 * 1: set; 0: o is none of them; -1, with a one-line error: v is not a value of o. */
static int set_choice(const char *o, const char *v)
{
    static const char *const replay[] = {"user", "kernel", NULL}, *const setup[] = {"inside", "outside", NULL},
                             *const flush[] = {"read", "discard", "none", NULL}, /* flush_mode order */
        *const evict[] = {"none", "code", "tlb", "all", NULL};                       /* EVICT_* bits */
    const struct {
        const char *name;
        const char *const *values;
        int *target;
    } opts[] = {{"--replay", replay, &g_kernel_replay},
                {"--setup", setup, &g_setup_outside},
                {"--flush", flush, &g_flush},
                {"--evict", evict, &g_evict}};
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++) {
        if (strcmp(o, opts[i].name))
            continue;
        for (int k = 0; opts[i].values[k]; k++)
            if (!strcmp(v, opts[i].values[k])) {
                *opts[i].target = k;
                return 1;
            }
        fprintf(stderr, "cupti_check: %s takes", o);
        for (int k = 0; opts[i].values[k]; k++)
            fprintf(stderr, " %s", opts[i].values[k]);
        fprintf(stderr, ", not '%s'\n", v);
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *shape_name = "g8k7168", *tsv = NULL, *only = NULL;
    setvbuf(stdout, NULL, _IOLBF, 0); /* keep what was printed if a collector crashes */
    int reps = 50, warmup = 5, period = 0, ncu = 0, probe = 0, pcsamp_last = 0, truth = 0, alone = 0;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        const struct {
            const char *name;
            int *on;
        } flags[] = {{"--ncu", &ncu},     {"--probe", &probe},      {"--truth", &truth},
                     {"--alone", &alone}, {"--no-pdl", &g_no_pdl}, {"--pcsamp-last", &pcsamp_last}};
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
        else if (!strcmp(o, "--only-metrics"))
            only = v;
        else {
            const int c = set_choice(o, v);
            if (c <= 0) {
                if (c == 0)
                    usage(stderr);
                return 2;
            }
        }
    }

    if (period > 0 && period < 5) {
        fprintf(stderr, "cupti_check: --period takes 0 (the default, 2^6 cycles) or 5..31, not %d\n", period);
        return 2;
    }

    char why[512];
    int pcs_ready = 0;
    /* first, before any module loads: keeps the cubins for PC -> line */
    if (!ncu && !only && !truth && !alone) {
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
    if ((g_evict & EVICT_TLB) && cudaMalloc(&g_tlb_buf, g_tlb_bytes) != cudaSuccess) {
        fprintf(stderr, "cupti_check: --evict %s needs %zu GiB of device memory\n", g_evict == EVICT_TLB ? "tlb" : "all",
                g_tlb_bytes >> 30);
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

    printf("== cupti_check nvfp4 %s variant %s on %s (%d SMs)%s\n", shape_name, a.v->name, prop.name,
           prop.multiProcessorCount, g_no_pdl ? ", no programmatic dependent launch" : "");
    if (alone) {
        int rc = time_alone(&a, &fl, s, warmup, reps);
        nvfp4_problem_destroy(a.p);
        gs_l2_flusher_free(&fl);
        free_tlb_buf();
        cudaStreamDestroy(s);
        return rc;
    }
    if (only) { /* a comma-separated list, one set "custom" */
        char *copy = strdup(only), *save = NULL;
        const char *names[GS_CUPTI_MAX_METRICS];
        int n = 0;
        if (!copy) {
            fprintf(stderr, "cupti_check: out of memory\n");
            return 1;
        }
        for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
            if (n == GS_CUPTI_MAX_METRICS) {
                fprintf(stderr, "cupti_check: --only-metrics takes at most %d names\n", GS_CUPTI_MAX_METRICS);
                return 2;
            }
            names[n++] = t;
        }
        if (n == 0) {
            fprintf(stderr, "cupti_check: --only-metrics needs at least one name\n");
            return 2;
        }
        static const char *const flush_names[] = {"read", "discard", "none"};
        static const char *const evict_names[] = {"none", "code", "tlb", "all"};
        printf("flush before every pass: %s, evict: %s\n", flush_names[g_flush], evict_names[g_evict]);
        for (int i = 0; i < 3; i++) /* a launch or two first, as ncu's --launch-skip does */
            if (launch(&a, s) || cudaStreamSynchronize(s) != cudaSuccess) {
                fprintf(stderr, "cupti_check: launch failed\n");
                return 1;
            }
        pass_setup ps = {&a, &fl};
        profiled pr = {launch_gemm, before_pass, &a, &ps, KERNEL};
        print_metrics("custom", names, n, &pr, s, NULL);
        free(copy);
        nvfp4_problem_destroy(a.p);
        gs_l2_flusher_free(&fl);
        free_tlb_buf();
        cudaStreamDestroy(s);
        return 0;
    }

    /* ---- stall reasons first: the kernel's module must load while PC sampling is enabled ---- */
    if (!pcsamp_last) {
        if (gs_l2_flush_clean(&fl, s) || cudaStreamSynchronize(s) != cudaSuccess)
            printf("pcsamp: L2 flush failed\n");
        print_pcsamp(&a, s, period, tsv, pcs_ready);
    }

    /* ---- durations: CUPTI activity vs CUDA events on the same launches ---- */
    gs_timing ev, plain;
    memset(&ev, 0, sizeof ev);
    memset(&plain, 0, sizeof plain);
    int act = gs_cupti_activity_begin(why, sizeof why);
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
        print_metrics(set, names, n, &pr, s, NULL);
    }

    /* ---- stall reasons last (--pcsamp-last: the order that gave no PC records on H100) ---- */
    if (pcsamp_last)
        print_pcsamp(&a, s, period, tsv, pcs_ready);

    nvfp4_problem_destroy(a.p);
    gs_l2_flusher_free(&fl);
    free_tlb_buf();
    cudaStreamDestroy(s);
    return 0;
}
