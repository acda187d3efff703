/* gemmscope-record: runs one subject on the GPU and writes the raw files of a
 * run directory (meta.txt, timings.tsv, stamps.gss).  `gemmscope record`
 * drives it and then analyses the directory. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <time.h>

#include <cuda_runtime_api.h>
#include <nvtx3/nvToolsExt.h>

#include "gs_args.h"
#include "gs_check.h"
#include "gs_cupti.h"
#include "gs_device.h"
#include "gs_file.h"
#include "gs_flush.h"
#include "gs_run.h"
#include "gs_rundir.h"
#include "gs_sources.h"
#include "gs_stamps.h"
#include "gs_timing.h"
#include "../kernels/subject.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: gemmscope-record --shape NAME --out DIR [--variant V] [--dist D] [--seed N] [--reps N]\n"
               "                        [--warmup N] [--capacity-scale F] [--command TEXT]\n"
               "                        [--metrics default|sol|none] [--detail 0|1] [--no-cupti]\n"
               "       gemmscope-record --subjects | --shapes SUBJECT | --variants SUBJECT [--shape NAME]\n"
               "subjects:");
    for (int i = 0; gs_subjects[i]; i++)
        fprintf(f, " %s", gs_subjects[i]->name);
    fprintf(f, "\n");
}

static const gs_subject *find_subject(const char *name)
{
    for (int i = 0; gs_subjects[i]; i++)
        if (strcmp(gs_subjects[i]->name, name) == 0)
            return gs_subjects[i];
    return NULL;
}

/* The subject that runs `shape`: the first that claims it; else NULL and one line in err
 * (the reasons of the subjects the name looked meant for). */
static const gs_subject *resolve(const char *shape, char *err, size_t n)
{
    char why[512];
    int used = snprintf(err, n, "no subject runs '%.100s'", shape);
    for (int i = 0; gs_subjects[i]; i++) {
        if (gs_subjects[i]->claims(shape, why, sizeof why))
            return gs_subjects[i];
        if (why[0] && used >= 0 && (size_t)used < n)
            used += snprintf(err + used, n - (size_t)used, "; %s: %s", gs_subjects[i]->name, why);
    }
    if (used >= 0 && (size_t)used < n)
        snprintf(err + used, n - (size_t)used,
                 " (`gemmscope subjects` lists the subjects, `gemmscope shapes SUBJECT` their shapes)");
    return NULL;
}

/* The listings the CLI forwards: 0, or 2 with one line on stderr. */
static int list(const char *what, const char *subject, const char *shape)
{
    if (!strcmp(what, "--subjects")) {
        for (int i = 0; gs_subjects[i]; i++)
            printf("%-10s %s\n", gs_subjects[i]->name, gs_subjects[i]->help);
        return 0;
    }
    const gs_subject *s = subject ? find_subject(subject) : NULL;
    if (!s) {
        fprintf(stderr, "gemmscope: unknown subject '%s' (`gemmscope subjects` lists them)\n",
                subject ? subject : "");
        return 2;
    }
    if (!strcmp(what, "--shapes")) {
        s->list_shapes(stdout);
        return 0;
    }
    char err[512];
    if (!s->list_variants) {
        if (shape && !s->claims(shape, err, sizeof err)) {
            fprintf(stderr, "gemmscope: %s has no shape '%s'\n", s->name, shape);
            return 2;
        }
        printf("default  the subject's one point%s\n", shape ? "  [default]" : "");
        return 0;
    }
    if (s->list_variants(stdout, shape, err, sizeof err)) {
        fprintf(stderr, "gemmscope: %s\n", err);
        return 2;
    }
    return 0;
}

typedef struct twin_arg {
    gs_subject_run *run;
    gs_buffer buf;
    int build; /* GS_BUILD_* */
} twin_arg;

/* Each launch inside an NVTX range named by its build, so that Nsight Systems and Nsight
 * Compute (--nvtx --nvtx-include "gemmscope twin/") can tell the builds apart. */
static int launch_build(void *arg, cudaStream_t s)
{
    static const char *const names[] = {"gemmscope production", "gemmscope twin", "gemmscope detail twin"};
    twin_arg *t = arg;
    nvtxRangePushA(names[t->build >= 0 && t->build <= 2 ? t->build : 0]);
    const int rc = t->run->launch(t->run->ctx, t->build, t->buf, s);
    nvtxRangePop();
    return rc;
}

/* A long step begins: its name on stderr with the time since the recorder started (when
 * stderr is a terminal), and an NVTX range around it (closed by step_end). */
static struct timespec start_time;
static int progress_open; /* a progress line without its newline yet */
static void step_begin(const char *what)
{
    if (progress_open)
        fputc('\n', stderr), progress_open = 0;
    if (isatty(2)) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        fprintf(stderr, "gemmscope-record [%6.1f s] %s\n",
                (double)(now.tv_sec - start_time.tv_sec) + 1e-9 * (double)(now.tv_nsec - start_time.tv_nsec), what);
    }
    nvtxRangePushA(what);
}

static void step_end(void)
{
    if (progress_open)
        fputc('\n', stderr), progress_open = 0;
    nvtxRangePop();
}

/* A metrics collection's progress, on one terminal line rewritten in place: "collection 2/5,
 * pass 3/9" (gs_cupti_set_progress). */
static void metrics_progress(int collection, int collections, int pass, int passes, void *arg)
{
    (void)arg;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    fprintf(stderr, "\rgemmscope-record [%6.1f s]   collection %d/%d, pass %d/%d ",
            (double)(now.tv_sec - start_time.tv_sec) + 1e-9 * (double)(now.tv_nsec - start_time.tv_nsec), collection,
            collections, pass, passes);
    progress_open = 1;
    if (collection == collections && pass == passes)
        fputc('\n', stderr), progress_open = 0;
}

/* One line per collector in meta: "ok" or "skipped: <reason>". */
static void collector(gs_meta *m, const char *name, int ok, const char *why)
{
    char key[64];
    snprintf(key, sizeof key, "collector.%s", name);
    if (ok)
        gs_meta_set(m, key, "ok");
    else
        gs_meta_set(m, key, "skipped: %s", why);
}

/* Stall reasons of one launch of a build (the kernel named with `suffix`) into
 * out/file, under meta keys key.*, before the build's kernel ever ran in this process
 * (CUPTI gives PC records only for modules loaded while sampling is on). */
static void collect_stalls(gs_meta *m, twin_arg *arg, cudaStream_t s, const char *out, const char *suffix,
                           const char *file, const char *key)
{
    gs_pcsamp_result pc;
    char why[512], path[4096], k[64];
    memset(&pc, 0, sizeof pc);
    if (gs_cupti_pcsamp_collect(launch_build, arg, s, suffix, 0, &pc, why, sizeof why) == 0) {
        snprintf(path, sizeof path, "%s/%s", out, file);
        /* names relative to the folder the kernels were compiled in, wherever this program runs:
         * the names its compiled-in sources go by */
        if (gs_pcsamp_write_tsv(&pc, gs_compiled_sources_root, path, why, sizeof why) == 0) {
            snprintf(k, sizeof k, "%s.samples", key);
            gs_meta_set(m, k, "%llu", pc.samples);
            snprintf(k, sizeof k, "%s.unmapped_samples", key);
            gs_meta_set(m, k, "%llu", pc.unmapped_samples);
            snprintf(k, sizeof k, "%s.period_log2", key);
            gs_meta_set(m, k, "%d", pc.sampling_period_log2);
            /* the source the samples point into goes with them (the phases are read from it):
             * the text this program was compiled from, not the working folder's */
            int copied = 0, missing = 0;
            const int rc = gs_sources_write(out, path, gs_compiled_sources, gs_compiled_sources_count, &copied,
                                            &missing, why, sizeof why);
            snprintf(k, sizeof k, "%s.sources", key);
            if (rc == 0)
                gs_meta_set(m, k, "%d", copied);
            else
                gs_meta_set(m, k, "%d, then failed: %s", copied, why);
            snprintf(k, sizeof k, "%s.sources_missing", key);
            gs_meta_set(m, k, "%d", missing);
            collector(m, key, 1, NULL);
        } else {
            collector(m, key, 0, why);
        }
    } else {
        collector(m, key, 0, why);
    }
    gs_pcsamp_result_free(&pc);
}

/* Both stall collectors skipped, for one reason. */
static void stalls_skipped(gs_meta *m, const char *why)
{
    collector(m, "stalls", 0, why);
    collector(m, "stalls_twin", 0, why);
}

/* The production launch's stall reasons (pcsamp.tsv), then the twin's (pcsamp-twin.tsv:
 * where the twin's extra time goes, docs/method.md "What the profile says"). */
static void collect_all_stalls(gs_meta *m, const gs_record_args *a, gs_subject_run *run, cudaStream_t s,
                               const char *out)
{
    twin_arg prod = {run, {0}, GS_BUILD_PROD};
    collect_stalls(m, &prod, s, out, "_prod", "pcsamp.tsv", "stalls");
    gs_stamps st = {0};
    unsigned cap = (unsigned)(run->events_per_warp * a->capacity_scale);
    if (gs_stamps_alloc(&st, run->ctas, run->warps_per_cta, cap < 1 ? 1 : cap) || gs_stamps_reset(&st, s)) {
        gs_stamps_free(&st);
        collector(m, "stalls_twin", 0, "no device memory for the twin's stamps");
    } else {
        twin_arg twin = {run, st.dev, GS_BUILD_TWIN};
        collect_stalls(m, &twin, s, out, "_twin", "pcsamp-twin.tsv", "stalls_twin");
        gs_stamps_free(&st);
    }
    gs_cupti_pcsamp_release();
}

/* The kernels each launch ran before the production kernel (the NVFP4 token pre-pass):
 * nothing when it runs alone. */
static void sequence_meta(gs_meta *m, const gs_sequence *q)
{
    char key[64];
    if (q->kernels <= 0)
        return;
    gs_meta_set(m, "cupti.sequence_kernels", "%d", q->kernels);
    gs_meta_set(m, "cupti.sequence_mismatched", "%d", q->mismatched);
    gs_meta_set(m, "cupti.span_ms", "%.6f", q->span_ms);
    for (int i = 0; i < q->shown; i++) {
        snprintf(key, sizeof key, "cupti.before.%d.name", i);
        gs_meta_set(m, key, "%s", q->name[i]);
        snprintf(key, sizeof key, "cupti.before.%d.time_ms", i);
        gs_meta_set(m, key, "%.6f", q->time_ms[i]);
        snprintf(key, sizeof key, "cupti.before.%d.gap_ms", i);
        gs_meta_set(m, key, "%.6f", q->gap_ms[i]);
    }
}

/* CUPTI's kernel durations over their own timed repetitions (the clean event
 * timing above stays free of CUPTI), beside the events of the same launches. */
static void collect_durations(gs_meta *m, twin_arg *prod, cudaStream_t s, const gs_l2_flusher *fl, int warmup,
                              int reps)
{
    char why[512];
    gs_kernel_durations d;
    gs_timing ev;
    memset(&d, 0, sizeof d);
    if (gs_cupti_activity_begin(why, sizeof why)) {
        collector(m, "durations", 0, why);
        return;
    }
    if (gs_time_launches(launch_build, prod, s, fl, warmup, reps, &ev)) {
        gs_cupti_activity_end("_prod", &d, why, sizeof why);
        gs_kernel_durations_free(&d);
        collector(m, "durations", 0, "the timed launches failed");
        return;
    }
    if (gs_cupti_activity_end("_prod", &d, why, sizeof why)) {
        collector(m, "durations", 0, why);
    } else {
        gs_kernel_durations_drop_first(&d, warmup);
        gs_meta_set(m, "cupti.kernel", "%s", d.name);
        gs_meta_set(m, "cupti.launches", "%d", d.count);
        gs_meta_set(m, "cupti.time_ms", "%.6f", d.median_ms);
        gs_meta_set(m, "cupti.time_min_ms", "%.6f", d.min_ms);
        gs_meta_set(m, "cupti.time_max_ms", "%.6f", d.max_ms);
        gs_meta_set(m, "cupti.events_time_ms", "%.6f", ev.median_ms);
        sequence_meta(m, &d.seq);
        gs_meta_set(m, "kernel.registers", "%d", d.registers_per_thread);
        gs_meta_set(m, "kernel.static_smem_bytes", "%d", d.static_smem_bytes);
        gs_meta_set(m, "kernel.dynamic_smem_bytes", "%d", d.dynamic_smem_bytes);
        gs_meta_set(m, "kernel.local_bytes_per_thread", "%u", d.local_mem_per_thread);
        gs_meta_set(m, "kernel.block_threads", "%d", d.block[0] * d.block[1] * d.block[2]);
        gs_meta_set(m, "kernel.grid", "%d", d.grid[0] * d.grid[1] * d.grid[2]);
        collector(m, "durations", 1, NULL);
    }
    gs_timing_free(&ev);
    gs_kernel_durations_free(&d);
}

/* What runs before every profiled pass: the subject's helper kernels (if it can launch
 * its kernel alone), then an L2 flush that leaves L2 empty (gs_flush.h: writes, then a
 * discard), so every pass starts from the state Nsight Compute's default cache control
 * gives (docs/method.md). */
typedef struct pass_setup {
    const gs_subject_run *run;
    const gs_l2_flusher *fl;
} pass_setup;

static int before_pass(void *arg, cudaStream_t s)
{
    const pass_setup *p = arg;
    if (p->run->prepare && p->run->launch_alone) {
        int e = p->run->prepare(p->run->ctx, s);
        if (e)
            return e;
    }
    return gs_l2_flush_discard(p->fl, s);
}

static int launch_alone(void *arg, cudaStream_t s)
{
    const gs_subject_run *run = arg;
    return run->launch_alone(run->ctx, s);
}

/* Hardware metrics of the production launch (user replay, L2 flushed before every pass;
 * untimed), medians of GS_CUPTI_METRIC_REPS collections.  A subject that can launch its
 * kernel alone has only that kernel profiled. */
static void collect_metrics(gs_meta *m, twin_arg *prod, cudaStream_t s, const gs_l2_flusher *fl, const char *set)
{
    char why[512], key[160];
    int n = 0;
    const char *const *names = gs_cupti_metric_set(set, &n);
    gs_metric_values v;
    pass_setup ps = {prod->run, fl};
    const int alone = prod->run->prepare && prod->run->launch_alone;
    memset(&v, 0, sizeof v);
    snprintf(key, sizeof key, "metrics_%s", set);
    if (!names) {
        collector(m, key, 0, "unknown metric set");
        return;
    }
    if (gs_cupti_metrics_collect_median(alone ? launch_alone : launch_build, alone ? (void *)prod->run : (void *)prod,
                                        before_pass, &ps, s, names, n, "_prod", GS_CUPTI_METRIC_REPS, &v, why,
                                        sizeof why)) {
        collector(m, key, 0, why);
        return;
    }
    for (int i = 0; i < v.n; i++) {
        snprintf(key, sizeof key, "metric.%s", v.names[i]);
        gs_meta_set(m, key, "%.6g", v.values[i]);
    }
    snprintf(key, sizeof key, "metrics.%s.passes", set);
    gs_meta_set(m, key, "%d", v.passes);
    gs_meta_set(m, "metrics.chip", "%s", v.chip);
    gs_meta_set(m, "metrics.collections", "%d", v.collections);
    gs_meta_set(m, "metrics.replay", "%s%s", v.replay,
                strcmp(v.replay, "user") == 0 ? " (L2 emptied before every pass)" : " (caches carry over between passes)");
    gs_meta_set(m, "metrics.profiled", "%s", alone ? "the production kernel alone (helper kernels run before each pass)"
                                                   : "the production launch");
    snprintf(key, sizeof key, "metrics_%s", set);
    collector(m, key, 1, NULL);
}

static int join(char *out, size_t n, const char *dir, const char *file)
{
    return snprintf(out, n, "%s/%s", dir, file) >= (int)n ? -1 : 0;
}

/* Stall reasons come from a child process.  PC sampling must subscribe to CUPTI before
 * the kernels' modules load, and a process with CUPTI attached times launches differently
 * (a programmatic dependent launch loses its overlap with its primary): the parent, which
 * does all the timing, loads no CUPTI until its timings are taken.  The child writes
 * pcsamp.tsv and its meta keys; the parent merges them. */
static void stalls_in_child(const gs_subject *subj, gs_record_args a, const char *out, gs_meta *meta)
{
    char path[4096], err[512];
    if (join(path, sizeof path, out, ".stalls.meta")) {
        collector(meta, "stalls", 0, "output path too long");
        return;
    }
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        collector(meta, "stalls", 0, "fork failed");
        return;
    }
    if (pid == 0) {
        gs_meta cm = {0};
        gs_rundir scratch; /* what open() writes of the run is the parent's to keep */
        gs_subject_run run = {0};
        memset(&scratch, 0, sizeof scratch);
        gs_phase_table_init(&scratch.phases);
        cudaStream_t s = NULL;
        char why[512];
        if (gs_cupti_pcsamp_init(why, sizeof why)) {
            stalls_skipped(&cm, why);
        } else if (cudaSetDevice(0) != cudaSuccess ||
                   cudaDeviceGetAttribute(&a.sm_count, cudaDevAttrMultiProcessorCount, 0) != cudaSuccess ||
                   subj->open(&a, &scratch, &run) || cudaStreamCreate(&s) != cudaSuccess) {
            stalls_skipped(&cm, "the sampling process could not set up the subject");
        } else {
            collect_all_stalls(&cm, &a, &run, s, out);
        }
        if (run.close)
            run.close(run.ctx);
        if (s)
            cudaStreamDestroy(s);
        int rc = gs_meta_write(&cm, path, err, sizeof err) ? 1 : 0;
        if (rc)
            fprintf(stderr, "gemmscope-record: %s\n", err);
        gs_meta_free(&cm);
        gs_rundir_abort(&scratch);
        fflush(stdout);
        fflush(stderr);
        _exit(rc);
    }
    int status = 0;
    gs_meta cm = {0};
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0 ||
        gs_meta_read(&cm, path, err, sizeof err)) {
        stalls_skipped(meta, "the PC-sampling process failed");
    } else {
        for (int i = 0; i < cm.n; i++)
            gs_meta_set(meta, cm.kv[i].key, "%s", cm.kv[i].val);
    }
    gs_meta_free(&cm);
    remove(path);
}

int main(int argc, char **argv)
{
    gs_record_args a = {0};
    const char *out = NULL, *command = "", *metrics = "default", *listing = NULL, *list_subject = NULL;
    int cupti = 1;
    a.reps = 50;
    a.warmup = 5;
    a.seed = 1;
    a.capacity_scale = 1.0;
    a.variant = "default";
    a.dist = "gpumode";
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
            usage(stdout);
            return 0;
        }
        if (!strcmp(o, "--no-cupti")) {
            cupti = 0;
            continue;
        }
        if (!strcmp(o, "--subjects")) {
            listing = o;
            continue;
        }
        if (!v) {
            fprintf(stderr, "gemmscope-record: %s needs a value\n", o);
            return 2;
        }
        i++;
        if (!strcmp(o, "--shapes") || !strcmp(o, "--variants"))
            listing = o, list_subject = v;
        else if (!strcmp(o, "--out"))
            out = v;
        else if (!strcmp(o, "--shape"))
            a.shape = v;
        else if (!strcmp(o, "--variant"))
            a.variant = v;
        else if (!strcmp(o, "--dist"))
            a.dist = v;
        else if (!strcmp(o, "--seed")) {
            if (gs_parse_u64(v, &a.seed)) {
                fprintf(stderr, "gemmscope-record: --seed takes a non-negative whole number, not '%s'\n", v);
                return 2;
            }
        } else if (!strcmp(o, "--reps") || !strcmp(o, "--warmup")) {
            /* at least GS_MIN_REPS repetitions: the timing method's minimum (docs/method.md) */
            const int reps = !strcmp(o, "--reps");
            long x = 0;
            if (gs_parse_long(v, reps ? GS_MIN_REPS : 0, GS_MAX_REPS, &x)) {
                fprintf(stderr, "gemmscope-record: %s takes a whole number in [%d, %d], not '%s'\n", o,
                        reps ? GS_MIN_REPS : 0, GS_MAX_REPS, v);
                return 2;
            }
            *(reps ? &a.reps : &a.warmup) = (int)x;
        } else if (!strcmp(o, "--capacity-scale")) {
            if (gs_parse_double(v, 0.0, 1.0, &a.capacity_scale)) {
                fprintf(stderr, "gemmscope-record: --capacity-scale takes a number in (0, 1], not '%s'\n", v);
                return 2;
            }
        } else if (!strcmp(o, "--command"))
            command = v;
        else if (!strcmp(o, "--metrics"))
            metrics = v;
        else if (!strcmp(o, "--detail") && (!strcmp(v, "0") || !strcmp(v, "1")))
            a.detail = v[0] == '1';
        else {
            fprintf(stderr, "gemmscope-record: unknown option %s\n", o);
            usage(stderr);
            return 2;
        }
    }
    if (listing)
        return list(listing, list_subject, a.shape);
    if (!a.shape || !out) {
        fprintf(stderr, "gemmscope-record: %s\n", !out ? "--out DIR is required" : "--shape NAME is required");
        return 2;
    }
    char err[1024];
    const gs_subject *subj = resolve(a.shape, err, sizeof err);
    if (!subj) {
        fprintf(stderr, "gemmscope: %s\n", err);
        return 2;
    }
    if (strcmp(metrics, "default") && strcmp(metrics, "sol") && strcmp(metrics, "none")) {
        fprintf(stderr, "gemmscope-record: --metrics takes default, sol or none\n");
        return 2;
    }
    clock_gettime(CLOCK_MONOTONIC, &start_time);
    gs_rundir rd;
    if (gs_rundir_begin(&rd, out, err, sizeof err)) {
        fprintf(stderr, "gemmscope-record: %s\n", err);
        return 1;
    }
    gs_meta *meta = &rd.meta;
    /* stall reasons first, in a child process, before this one touches CUDA: a process
     * that has initialised CUDA cannot hand it to a child it forks */
    if (!cupti) {
        stalls_skipped(meta, "--no-cupti");
    } else {
        step_begin("stall reasons: PC sampling of one production and one twin launch (child process)");
        stalls_in_child(subj, a, rd.tmp, meta);
        step_end();
    }
    int ndev = 0;
    cudaError_t e = cudaGetDeviceCount(&ndev);
    if (e != cudaSuccess || ndev == 0) {
        fprintf(stderr, "gemmscope-record: no CUDA device (%s)\n",
                e != cudaSuccess ? cudaGetErrorString(e) : "none found");
        gs_rundir_abort(&rd);
        return 3;
    }

    int rc = 1;
    gs_stamps st = {0}, st_detail = {0};
    gs_subject_run run = {0};
    gs_l2_flusher fl = {0};
    gs_timing tp = {0}, tt = {0};
    cudaStream_t s = NULL;
    double tick = 0;

    if (cudaSetDevice(0) != cudaSuccess || gs_device_meta(meta, 0, &a.sm_count))
        goto done;
    if (gs_measure_timer_tick(&tick))
        goto done;
    gs_meta_set(meta, "subject", "%s", subj->name);
    gs_meta_set(meta, "variant", "%s", a.variant);
    gs_meta_set(meta, "command", "%s", command);
    gs_meta_set(meta, "git_commit", "%s", getenv("GS_GIT_COMMIT") ? getenv("GS_GIT_COMMIT") : "unknown");
    gs_meta_set(meta, "timing.reps", "%d", a.reps);
    gs_meta_set(meta, "timing.warmup", "%d", a.warmup);
    if (subj->open(&a, &rd, &run)) {
        fprintf(stderr, "gemmscope-record: cannot set up subject %s\n", subj->name);
        goto done;
    }
    {
        unsigned cap = (unsigned)(run.events_per_warp * a.capacity_scale);
        if (cap < 1)
            cap = 1;
        gs_meta_set(meta, "stamps.events_per_warp_declared", "%u", run.events_per_warp);
        if (gs_stamps_alloc(&st, run.ctas, run.warps_per_cta, cap))
            goto done;
        if (run.events_per_warp_detail) {
            unsigned dcap = (unsigned)(run.events_per_warp_detail * a.capacity_scale);
            gs_meta_set(meta, "stamps.detail.events_per_warp_declared", "%u", run.events_per_warp_detail);
            if (gs_stamps_alloc(&st_detail, run.ctas, run.warps_per_cta, dcap < 1 ? 1 : dcap))
                goto done;
        }
    }
    if (cudaStreamCreate(&s) != cudaSuccess || gs_l2_flusher_init(&fl, 0))
        goto done;
    gs_meta_set(meta, "timing.l2_flush_bytes", "%zu", fl.bytes);

    /* Production build, then twin, each with the same method. */
    const int detail_too = run.events_per_warp_detail > 0;
    twin_arg prod = {&run, {0}, GS_BUILD_PROD}, twin = {&run, st.dev, GS_BUILD_TWIN},
             detail = {&run, detail_too ? st_detail.dev : st.dev, GS_BUILD_DETAIL};
    twin_arg *stamped = run.stamp_build == GS_BUILD_DETAIL ? &detail : &twin;
    /* every timing before CUPTI is loaded into this process */
    {
        /* the builds in one loop, blocks of repetitions in a balanced order (drift falls on all alike) */
        const gs_launch_fn fns[3] = {launch_build, launch_build, launch_build};
        void *const args[3] = {&prod, &twin, &detail};
        gs_timing t[3];
        const int n = stamped == &detail || detail_too ? 3 : 2;
        char what[128];
        snprintf(what, sizeof what, "timing: %d builds in blocks, %d warm-up and %d timed repetitions", n, a.warmup,
                 a.reps);
        step_begin(what);
        const int bad_timing = gs_time_interleaved(fns, args, n, s, &fl, a.warmup, a.reps, t);
        step_end();
        if (bad_timing)
            goto done;
        tp = t[0];
        tt = t[1];
        int bad = gs_rundir_timing(&rd, "production", tp.samples_ms, tp.reps, err, sizeof err) ||
                  gs_rundir_timing(&rd, "twin", tt.samples_ms, tt.reps, err, sizeof err);
        if (n == 3) { /* the detail twin's own cost, same loop */
            bad = bad || gs_rundir_timing(&rd, "detail", t[2].samples_ms, t[2].reps, err, sizeof err);
            gs_timing_free(&t[2]);
        }
        if (bad)
            goto fail_msg;
    }

    step_begin("anchors and ceilings");
    const int bad_anchors = run.anchors && run.anchors(run.ctx, meta, &rd.tim, &fl, s, a.warmup, a.reps);
    step_end();
    if (bad_anchors) {
        fprintf(stderr, "gemmscope-record: reference timings failed\n");
        goto done;
    }
    if (run.harness) { /* optional, as a collector: a harness that cannot run leaves a note */
        step_begin("the subject's benchmark harness: inputs back to back");
        if (run.harness(run.ctx, meta, &rd.tim, &fl, s, a.warmup, a.reps) && !gs_meta_get(meta, "harness.skipped"))
            gs_meta_set(meta, "harness.skipped", "the harness timing failed (see the recorder's log)");
        step_end();
    }
    if (cupti) {
        step_begin("durations: CUPTI activity over the timed launches");
        collect_durations(meta, &prod, s, &fl, a.warmup, a.reps);
        step_end();
    } else {
        collector(meta, "durations", 0, "--no-cupti");
    }
    step_begin("verification of every build's output");
    const int bad_verify = run.verify && run.verify(run.ctx, meta, detail_too ? detail.buf : stamped->buf, s);
    step_end();
    if (bad_verify) {
        fprintf(stderr, "gemmscope-record: verification could not run\n");
        goto done;
    }
    if (cupti && strcmp(metrics, "none") != 0) {
        step_begin("hardware metrics: the default set");
        if (isatty(2))
            gs_cupti_set_progress(metrics_progress, NULL);
        collect_metrics(meta, &prod, s, &fl, "default");
        step_end();
        if (!strcmp(metrics, "sol")) {
            step_begin("hardware metrics: the sol set");
            collect_metrics(meta, &prod, s, &fl, "sol");
            step_end();
        }
        gs_cupti_metrics_shutdown();
    }
    gs_meta_set(meta, "metrics.requested", "%s", cupti ? metrics : "none");
    /* The stamps analysed come from one more twin launch after a fresh reset and flush. */
    step_begin("stamps: one launch of the stamped build");
    const int bad_capture = gs_stamps_reset(&st, s) || gs_l2_flush(&fl, s) || launch_build(stamped, s) ||
                            cudaStreamSynchronize(s) != cudaSuccess || gs_stamps_download(&st);
    step_end();
    if (bad_capture) {
        fprintf(stderr, "gemmscope-record: stamp capture failed: %s\n", cudaGetErrorString(cudaGetLastError()));
        goto done;
    }
    if (run.after_stamps && run.after_stamps(run.ctx, &rd, s)) {
        fprintf(stderr, "gemmscope-record: %s could not keep what it records of the stamped launch\n", subj->name);
        goto done;
    }
    if (gs_rundir_stamps(&rd, tick, st.ctas, st.dev.warps_per_cta, st.dev.capacity, st.warps, st.records, err,
                         sizeof err))
        goto fail_msg;
    if (detail_too) {
        /* the main loop's sub-phases, from the detail twin's own launch */
        step_begin("stamps: one launch of the detail twin");
        const int bad_detail = gs_stamps_reset(&st_detail, s) || gs_l2_flush(&fl, s) || launch_build(&detail, s) ||
                               cudaStreamSynchronize(s) != cudaSuccess || gs_stamps_download(&st_detail);
        step_end();
        if (bad_detail) {
            fprintf(stderr, "gemmscope-record: detail stamp capture failed: %s\n",
                    cudaGetErrorString(cudaGetLastError()));
            goto done;
        }
        if (gs_rundir_stamps_detail(&rd, st_detail.ctas, st_detail.dev.warps_per_cta, st_detail.dev.capacity,
                                    st_detail.warps, st_detail.records, err, sizeof err))
            goto fail_msg;
    }
    if (gs_rundir_commit(&rd, err, sizeof err))
        goto fail_msg;
    printf("gemmscope-record: %s: production %.4f ms, twin %.4f ms (median of %d)\n", subj->name, tp.median_ms,
           tt.median_ms, a.reps);
    rc = 0;
    goto done;
fail_msg:
    fprintf(stderr, "gemmscope-record: %s\n", err);
done:
    if (rc)
        gs_rundir_abort(&rd);
    if (run.close)
        run.close(run.ctx);
    gs_timing_free(&tp);
    gs_timing_free(&tt);
    gs_stamps_free(&st);
    gs_stamps_free(&st_detail);
    gs_l2_flusher_free(&fl);
    if (s)
        cudaStreamDestroy(s);
    return rc;
}
