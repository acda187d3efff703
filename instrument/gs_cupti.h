/* CUPTI collectors: kernel durations and resources (Activity API), hardware
 * metrics (Range Profiler, kernel replay of one launch), stall reasons per
 * source line (PC Sampling).  Plain C header; the implementations are
 * gs_cupti_activity.c and gs_cupti_pcsamp.c (C11) and gs_cupti_metrics.cpp
 * (C-like C++17, because cupti_profiler_host.h includes <string>).
 *
 * Every function returns 0 on success or -1 with one line in `why` saying what
 * failed and the CUPTI/CUDA code by name (e.g. "cuptiActivityRegisterCallbacks
 * (...): CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED (39): another profiler
 * (ncu, nsys, cuda-gdb) or CUPTI client is attached", seen under ncu).  A
 * collector that cannot run is meant to be skipped with that line in the
 * report, not to fail the recording.
 *
 * Order in one process: gs_cupti_pcsamp_init() first thing (it captures cubins
 * as modules load), then gs_cupti_pcsamp_collect() before the sampled kernel's
 * first launch (see there), then the other collectors, one at a time (never
 * two enabled at once).  The range profiler and PC sampling re-run or
 * serialise the launch: never time inside them.  See instrument/cupti.mk for
 * building and the loader path. */
#ifndef GS_CUPTI_H
#define GS_CUPTI_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>
#include "gs_sequence.h"
#include "gs_timing.h"

#ifdef __cplusplus
extern "C" {
#endif

/* "CUPTI_ERROR_xxx" for a CUptiResult (cuptiGetResultString), "?" if unknown. */
const char *gs_cupti_result_name(int code);
/* printf into why (when given); returns -1.  Shared by the collectors. */
int gs_cupti_failf(char *why, size_t n, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Enqueues fn on s and waits for it: the launch's error, else the stream's. */
cudaError_t gs_cupti_launch_and_wait(gs_launch_fn fn, void *arg, cudaStream_t s);
/* Formats "call: NAME (code): what it usually means" into why; returns -1. */
int gs_cupti_fail(char *why, size_t n, const char *call, int code);
/* Loads libnvperf_host.so from the directory libcupti was loaded from, so that
 * libcupti's own dlopen of it finds it whatever the loader path (the metrics
 * collectors call it; harmless to repeat).  0 or -1 with why. */
int gs_cupti_preload_nvperf(char *why, size_t n);
/* The current CUDA context (the primary one is made current first), as a
 * CUcontext cast to void*.  0 or -1 with why. */
int gs_cupti_current_context(void **ctx, char *why, size_t n);

/* ---------------------------------------------------------------- durations (Activity API) */

typedef struct gs_kernel_durations {
    int count;                      /* launches whose name matched */
    double median_ms, min_ms, max_ms;
    double *samples_ms;             /* count durations (end - start), in launch order; owned */
    char name[512];                 /* the first matching kernel's (mangled) name */
    int registers_per_thread;
    int static_smem_bytes;          /* per block */
    int dynamic_smem_bytes;         /* per block */
    unsigned local_mem_per_thread;  /* bytes of local memory per thread: > 0 = spills or local arrays */
    int grid[3], block[3];
    int other_kernels;              /* kernel records that did not match */
    unsigned long long dropped;     /* records CUPTI reported dropped */
    gs_sequence seq;                /* per matching launch, the kernels before it (gs_sequence.h); owned */
} gs_kernel_durations;

/* Enables CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL and forgets earlier records.
 * Call before the launches to measure (ideally before their module loads, and
 * before the warm-up). */
int gs_cupti_activity_begin(char *why, size_t n);
/* Synchronises the device, flushes, disables the kind and returns every
 * launch whose name contains kernel_substring (NULL or "" = every kernel), and in
 * out->seq the kernels each of them ran after (gs_sequence.h: the records between it and
 * the previous match).  -1 also when nothing matched. */
int gs_cupti_activity_end(const char *kernel_substring, gs_kernel_durations *out, char *why, size_t n);
/* Drops the first k samples and launch sequences (e.g. the warm-up launches) and
 * recomputes the statistics. */
void gs_kernel_durations_drop_first(gs_kernel_durations *d, int k);
void gs_kernel_durations_free(gs_kernel_durations *d);

/* ---------------------------------------------------------------- metrics (Range Profiler) */

#define GS_CUPTI_MAX_METRICS 64
/* Most collections gs_cupti_metrics_collect_median takes the median of. */
#define GS_CUPTI_MAX_COLLECTIONS 64

typedef struct gs_metric_values {
    int n;
    const char *names[GS_CUPTI_MAX_METRICS]; /* the caller's strings */
    double values[GS_CUPTI_MAX_METRICS];     /* GPU values; percentages are 0..100, durations ns */
    int passes;                              /* replay passes the configuration needed */
    int ranges;                              /* ranges (kernels) seen in the profiled launch */
    char chip[32];                           /* e.g. "GH100" */
    char range_name[512];                    /* the range evaluated */
    char replay[40];                         /* "user (before_pass each pass)" or "kernel" */
    int collections;                         /* values are medians of this many collections */
    double lo[GS_CUPTI_MAX_METRICS];         /* smallest and largest value over them */
    double hi[GS_CUPTI_MAX_METRICS];
} gs_metric_values;

/* Collections a metric figure is the median of: one launch differs from the next by a
 * few percent, so one launch is no figure to report or to compare with Nsight Compute. */
#define GS_CUPTI_METRIC_REPS 5

/* The two sets (NULL-terminated): "default" (1-2 passes on GH100) and "sol"
 * (Nsight Compute's speed-of-light header, 9 passes on GH100). */
extern const char *const gs_cupti_metrics_default[];
extern const char *const gs_cupti_metrics_sol[];
/* Set by name ("default" or "sol"); NULL when unknown. *n = its length. */
const char *const *gs_cupti_metric_set(const char *name, int *n);

/* Pure host, no GPU: checks every name for `chip` (e.g. "GH100") with the
 * Profiler Host API and returns the passes the list needs in *passes.  A bad
 * name gives -1 and a line such as "unknown metric 'sm__bogus.sum' for GH100
 * (CUPTI_ERROR_INVALID_METRIC_NAME)". */
int gs_cupti_metrics_validate(const char *chip, const char *const *names, int n, int *passes, char *why,
                              size_t wn);

/* Profiles ONE launch of fn (auto range; untimed).  fn may launch helper kernels before
 * the one measured, which must come last: auto ranges are named by index ("0", "1", ...
 * seen on H100), so kernel_substring only selects a range whose name contains it and
 * otherwise the LAST range is evaluated.
 * With before_pass: user replay: before_pass(before_arg)
 * runs before every pass (an L2 flush, the helper kernels fn depends on), then fn once per
 * pass; fn must be idempotent.  Without it kernel replay (CUPTI re-runs each kernel once per
 * pass and restores memory; the caches carry over from pass to pass), with before_pass,
 * when given, run once before the launch.  If the driver refuses user replay, kernel
 * replay is used; out->replay says which ran.  Needs root or CAP_SYS_ADMIN
 * (CUPTI_ERROR_INSUFFICIENT_PRIVILEGES otherwise).
 * before_pass runs after cuptiRangeProfilerStart (its kernels are ranges of the pass): that
 * makes the L2 state the profiled kernel meets the one before_pass left, as starting the
 * range profiler leaves dirty lines in L2 that the kernel would otherwise write back
 * (docs/method.md, "Metric truth"). */
/* Optional report of a collection's progress, for a user watching a long recording: called
 * before every pass (pass of passes, 1-based) of every collection (collection of
 * collections; 1 of 1 outside gs_cupti_metrics_collect_median).  NULL: no report. */
typedef void (*gs_cupti_progress_fn)(int collection, int collections, int pass, int passes, void *arg);
void gs_cupti_set_progress(gs_cupti_progress_fn fn, void *arg);

int gs_cupti_metrics_collect(gs_launch_fn fn, void *arg, gs_launch_fn before_pass, void *before_arg,
                             cudaStream_t s, const char *const *names, int n,
                             const char *kernel_substring, gs_metric_values *out, char *why, size_t wn);

/* gs_cupti_metrics_collect `reps` times (1..64); out->values are the medians (the mean of
 * the middle two for an even count), out->lo and out->hi the extremes, out->collections =
 * reps.  Fails as soon as one collection does. */
int gs_cupti_metrics_collect_median(gs_launch_fn fn, void *arg, gs_launch_fn before_pass, void *before_arg,
                                    cudaStream_t s, const char *const *names, int n,
                                    const char *kernel_substring, int reps, gs_metric_values *out, char *why,
                                    size_t wn);

/* cuptiProfilerDeInitialize if gs_cupti_metrics_collect initialised the
 * profiler (it stays initialised between collections otherwise). */
void gs_cupti_metrics_shutdown(void);

/* ---------------------------------------------------------------- stall reasons (PC Sampling) */

typedef struct gs_pcsamp_reason {
    char name[128];            /* e.g. "smsp__pcsamp_warps_issue_stalled_long_scoreboard" */
    unsigned index;            /* CUPTI's index of the reason */
    int not_issued;            /* 1 for the "_not_issued" sub-counts (not added to totals) */
    unsigned long long samples;
} gs_pcsamp_reason;

typedef struct gs_pcsamp_line {
    char file[512];            /* dir/file as the line table names it; "?" when unknown */
    unsigned line;             /* 0 when the PC has no line */
    unsigned long long samples;    /* over the reasons that are not "_not_issued" */
    unsigned long long *by_reason; /* nreasons counts, indexed like gs_pcsamp_result.reasons */
} gs_pcsamp_line;

typedef struct gs_pcsamp_result {
    unsigned long long samples;          /* over matched PCs, reasons without "_not_issued" */
    unsigned long long cupti_total;      /* CUPTI's totalSamples (every kernel, every reason, dropped) */
    unsigned long long non_user_samples; /* CUPTI's nonUsrKernelsTotalSamples: samples it gives no PC records for */
    unsigned long long dropped;          /* dropped by the hardware */
    unsigned long long other_samples;    /* PCs of kernels whose name did not match */
    unsigned long long unmapped_samples; /* matched PCs with no source line (no cubin or no line info) */
    int hardware_buffer_full;
    int pcs;                             /* distinct PC records of the matched kernel */
    int sampling_period_log2;            /* samples every 2^n cycles per SM */
    int nreasons;
    gs_pcsamp_reason *reasons;           /* CUPTI order */
    int nlines;
    gs_pcsamp_line *lines;               /* most samples first */
    char function[512];                  /* the matched function (mangled) */
} gs_pcsamp_result;

/* Subscribes to module loads so the cubins of later-loaded modules are kept
 * for PC -> line correlation.  Call once, first thing, before the module of the
 * sampled kernel loads (i.e. before its first launch).  Fails with
 * CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED under ncu/nsys/cuda-gdb. */
int gs_cupti_pcsamp_init(char *why, size_t n);
/* Unsubscribes (keeps the cubins already captured): frees the one CUPTI
 * subscriber slot for another client. */
void gs_cupti_pcsamp_release(void);
/* Cubins kept so far. */
int gs_cupti_pcsamp_cubin_count(void);
/* Adds a cubin from a file (e.g. `cuobjdump -xelf all` output) for correlation,
 * for kernels whose module loaded before gs_cupti_pcsamp_init. */
int gs_cupti_pcsamp_add_cubin_file(const char *path, char *why, size_t n);
/* Samples ONE launch of fn (KERNEL_SERIALIZED, start/stop control) every
 * 2^period_log2 cycles (5..31; 0 = 6) and attributes the samples of the kernel
 * whose name contains kernel_substring to source lines.
 *
 * ORDER MATTERS (seen on H100, CUPTI 13.0): when the kernel had already been
 * launched in the process before this call (its module loaded before
 * cuptiPCSamplingEnable), CUPTI counted ~3 M samples for the launch but
 * returned no PC record at all.  The likely cause is that PC records are only
 * produced for modules loaded while PC sampling is enabled, so call this
 * before the kernel's first launch (lazy module loading then loads its module
 * inside the sampled launch); not yet verified on a GPU.  With no PC record it
 * returns -1 and says how many samples CUPTI counted. */
int gs_cupti_pcsamp_collect(gs_launch_fn fn, void *arg, cudaStream_t s, const char *kernel_substring,
                            int period_log2, gs_pcsamp_result *out, char *why, size_t n);
/* Writes "# gemmscope-pcsamp 1" then rows: file, line, reason, samples (tab-separated); file
 * names under root (the folder the kernels were compiled in; NULL: the working folder) are
 * written relative to it. */
int gs_pcsamp_write_tsv(const gs_pcsamp_result *r, const char *root, const char *path, char *why, size_t n);
void gs_pcsamp_result_free(gs_pcsamp_result *r);

#ifdef __cplusplus
}
#endif
#endif
