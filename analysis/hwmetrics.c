#include "hwmetrics.h"
#include "json.h"
#include "../instrument/gs_sequence.h"
#include "../instrument/gs_sources.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double num(const gs_rundata *r, const char *key) { return gs_meta_num(&r->meta, key, NAN); }

static double metric(const gs_rundata *r, const char *name)
{
    char key[200];
    snprintf(key, sizeof key, "metric.%s", name);
    return num(r, key);
}

int gs_seed_line(const gs_rundata *r, char *buf, size_t len)
{
    double regs = num(r, "kernel.registers"), spill = num(r, "kernel.local_bytes_per_thread");
    if (isnan(regs) && !r->perf.valid)
        return -1;
    int n = snprintf(buf, len, "%.4f ms", r->time_ms);
    if (r->perf.valid)
        n += snprintf(buf + n, len - (size_t)n, " / %.1f TFLOPS", r->perf.tflops);
    if (!isnan(regs))
        n += snprintf(buf + n, len - (size_t)n, ", %.0f regs, %.0f spills", regs, spill);
    double l1 = metric(r, "l1tex__throughput.avg.pct_of_peak_sustained_active");
    double l2 = metric(r, "lts__throughput.avg.pct_of_peak_sustained_elapsed");
    double dram = metric(r, "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed");
    if (!isnan(l1) && !isnan(l2) && !isnan(dram)) {
        snprintf(buf + n, len - (size_t)n, ". L1 tex at %.0f%%, L2 at %.0f%%, DRAM at %.0f%%.", l1, l2, dram);
        return 0;
    }
    double b1 = metric(r, "l1tex__t_bytes.sum"), b2 = metric(r, "lts__t_bytes.sum"), b3 = metric(r, "dram__bytes.sum");
    if (!isnan(b1) && !isnan(b2) && !isnan(b3))
        snprintf(buf + n, len - (size_t)n, ". L1 tex %.1f MB, L2 %.1f MB, DRAM %.1f MB (METRICS=sol for %%).", b1 / 1e6,
                 b2 / 1e6, b3 / 1e6);
    else
        snprintf(buf + n, len - (size_t)n, ".");
    return 0;
}

int gs_theoretical_ctas(const gs_rundata *r, const char **limiter)
{
    double regs = num(r, "kernel.registers"), threads = num(r, "kernel.block_threads");
    double smem = num(r, "kernel.static_smem_bytes") + num(r, "kernel.dynamic_smem_bytes");
    double regs_sm = num(r, "regs_per_sm"), smem_sm = num(r, "smem_per_sm"), thr_sm = num(r, "threads_per_sm");
    double blk_sm = num(r, "blocks_per_sm"), reserve = gs_meta_num(&r->meta, "smem_reserved_per_block", 0);
    *limiter = "unknown";
    if (isnan(regs) || isnan(threads) || isnan(smem) || isnan(regs_sm) || isnan(smem_sm) || isnan(thr_sm) ||
        isnan(blk_sm) || threads <= 0)
        return 0;
    /* registers are allocated per warp in units of 256 */
    double warps = ceil(threads / 32), per_warp = ceil(regs * 32 / 256) * 256;
    double by_regs = per_warp > 0 ? floor(regs_sm / (per_warp * warps)) : blk_sm;
    double by_smem = smem + reserve > 0 ? floor(smem_sm / (smem + reserve)) : blk_sm;
    double by_thr = floor(thr_sm / (warps * 32));
    double best = blk_sm;
    *limiter = "blocks";
    if (by_regs < best)
        best = by_regs, *limiter = "registers";
    if (by_smem < best)
        best = by_smem, *limiter = "shared memory";
    if (by_thr < best)
        best = by_thr, *limiter = "threads";
    return (int)best;
}

static const char *unit_of(const char *name)
{
    if (strstr(name, ".pct"))
        return "%";
    if (strstr(name, "bytes"))
        return "bytes";
    if (strstr(name, "time_duration"))
        return "ns";
    if (strstr(name, ".ratio"))
        return "ratio";
    if (strstr(name, "cycles_elapsed.avg.per_second"))
        return "cycles/s";
    if (strstr(name, "cycles_elapsed"))
        return "cycles";
    return "";
}

/* meta.txt's cupti.before.<i>.<field>: the i-th kernel a launch ran before the production one. */
static const char *before_key(int i, const char *field, char *key, size_t n)
{
    snprintf(key, n, "cupti.before.%d.%s", i, field);
    return key;
}

static double before_num(const gs_rundata *r, int i, const char *field)
{
    char key[64];
    return num(r, before_key(i, field, key, sizeof key));
}

static const char *before_name(const gs_rundata *r, int i)
{
    char key[64];
    return gs_rundata_str(r, before_key(i, "name", key, sizeof key));
}

/* Kernels of the launch sequence in meta.txt whose figures are there (0: no sequence, as
 * in runs recorded before it was collected, or a kernel launched alone). */
static int sequence_shown(const gs_rundata *r)
{
    const double kernels = num(r, "cupti.sequence_kernels");
    char key[64];
    if (!(kernels >= 1) || isnan(num(r, "cupti.span_ms")))
        return 0;
    int shown = 0;
    while (shown < GS_SEQ_MAX_BEFORE && shown < kernels &&
           gs_meta_get(&r->meta, before_key(shown, "name", key, sizeof key)))
        shown++;
    return shown;
}

/* The kernels of one timed launch, in start order, ending with the production kernel. */
static void launch_sequence_markdown(const gs_rundata *r, gs_buf *b)
{
    const int shown = sequence_shown(r);
    if (!shown)
        return;
    char gemm[GS_SEQ_NAME_LEN];
    gs_kernel_short_name(gs_rundata_str(r, "cupti.kernel"), gemm, sizeof gemm);
    gs_buf_printf(b, "\n### Launch sequence (CUPTI activity, the same launches)\n\n"
                     "The kernels of one timed launch in start order, medians over the launches. Last column: "
                     "where each kernel ends relative to the GEMM's start (positive: the GEMM, a programmatic "
                     "dependent launch, started while it still ran); the GEMM's own row is its start.\n\n"
                     "| kernel | median duration us | ends / starts relative to the GEMM start us |\n"
                     "|---|---:|---:|\n");
    for (int i = 0; i < shown; i++) /* its end - the GEMM's start = -gap (0 - x: no "-0.00") */
        gs_buf_printf(b, "| `%s` | %.2f | %+.2f |\n", before_name(r, i), 1e3 * before_num(r, i, "time_ms"),
                      1e3 * (0.0 - before_num(r, i, "gap_ms")));
    gs_buf_printf(b, "| `%s` | %.2f | 0.00 |\n", gemm, 1e3 * num(r, "cupti.time_ms"));
    gs_buf_printf(b, "\nFrom the first kernel's start to the GEMM's end: %.2f us (median); the GEMM kernel alone: "
                     "%.2f us; CUDA events around the launch: %.2f us.",
                  1e3 * num(r, "cupti.span_ms"), 1e3 * num(r, "cupti.time_ms"), 1e3 * num(r, "cupti.events_time_ms"));
    const double kernels = num(r, "cupti.sequence_kernels"), odd = num(r, "cupti.sequence_mismatched");
    if (kernels > shown)
        gs_buf_printf(b, " %.0f kernels ran before the GEMM; the first %d are shown.", kernels, shown);
    if (odd > 0)
        gs_buf_printf(b, " %.0f of %s launches ran another sequence and are not in these medians.", odd,
                      gs_rundata_str(r, "cupti.launches"));
    gs_buf_printf(b, "\n");
}

void gs_hwmetrics_markdown(const gs_rundata *r, gs_buf *b)
{
    const gs_meta *m = &r->meta;
    gs_buf_printf(b, "\n## Hardware (CUPTI, production build)\n\n| collector | |\n|---|---|\n");
    int any = 0;
    for (int i = 0; i < m->n; i++)
        if (!strncmp(m->kv[i].key, "collector.", 10)) {
            gs_buf_printf(b, "| %s | %s |\n", m->kv[i].key + 10, m->kv[i].val);
            any = 1;
        }
    if (!any)
        gs_buf_printf(b, "| all | not run (recorded before the collectors existed, with --no-cupti, or imported) |\n");
    double regs = num(r, "kernel.registers");
    if (!isnan(regs)) {
        const char *lim;
        int ctas = gs_theoretical_ctas(r, &lim);
        double threads = num(r, "kernel.block_threads"), thr_sm = num(r, "threads_per_sm");
        gs_buf_printf(b, "\n| resource | |\n|---|---|\n| registers per thread | %.0f |\n| spills (local bytes per "
                         "thread) | %.0f |\n| shared memory per block | %.0f static + %.0f dynamic bytes |\n"
                         "| theoretical occupancy | %d CTAs per SM (limited by %s), %.1f%% of the SM's warps |\n",
                      regs, num(r, "kernel.local_bytes_per_thread"), num(r, "kernel.static_smem_bytes"),
                      num(r, "kernel.dynamic_smem_bytes"), ctas, lim,
                      thr_sm > 0 ? 100.0 * ctas * threads / thr_sm : 0.0);
        double ct = num(r, "cupti.time_ms"), ev = num(r, "cupti.events_time_ms");
        if (!isnan(ct))
            gs_buf_printf(b, "| kernel duration (CUPTI activity) | %.4f ms median (%.4f..%.4f) over %s launches; CUDA "
                             "events on the same launches %.4f ms: CUPTI / events = %.4f |\n",
                          ct, num(r, "cupti.time_min_ms"), num(r, "cupti.time_max_ms"), gs_rundata_str(r, "cupti.launches"),
                          ev, ct / ev);
    }
    any = 0;
    for (int i = 0; i < m->n; i++)
        if (!strncmp(m->kv[i].key, "metric.", 7)) {
            if (!any) {
                const char *coll = gs_meta_get(&r->meta, "metrics.collections");
                char how[64] = "one collection";
                if (coll)
                    snprintf(how, sizeof how, "medians of %s collections", coll);
                gs_buf_printf(b, "\nMetrics of the production kernel (Range Profiler, replay: %s; %s; clocks not "
                                 "locked: compare with `ncu --clock-control none`); passes: default %s, sol %s.\n\n"
                                 "| metric | value | unit |\n|---|---:|---|\n",
                              gs_rundata_str(r, "metrics.replay"), how, gs_rundata_str(r, "metrics.default.passes"),
                              gs_rundata_str(r, "metrics.sol.passes"));
            }
            any = 1;
            gs_buf_printf(b, "| `%s` | %s | %s |\n", m->kv[i].key + 7, m->kv[i].val, unit_of(m->kv[i].key + 7));
        }
    launch_sequence_markdown(r, b);
}

/* Samples of reason k in one phase (phase < 0: all phases). */
static double reason_samples(const gs_stalls *st, int phase, int k)
{
    if (phase >= 0)
        return st->by[phase][k];
    double v = 0;
    for (int p = 0; p <= GS_NUM_PHASES; p++)
        v += st->by[p][k];
    return v;
}

/* The `max` largest reasons of a phase (or all), largest first, as indices. */
static int top_reasons(const gs_stalls *st, int phase, int *idx, int max)
{
    int n = 0;
    for (int k = 0; k < st->nreasons; k++) {
        double v = reason_samples(st, phase, k);
        if (v <= 0)
            continue;
        int at = n;
        while (at > 0 && reason_samples(st, phase, idx[at - 1]) < v) {
            if (at < max)
                idx[at] = idx[at - 1];
            at--;
        }
        if (at < max)
            idx[at] = k;
        if (n < max)
            n++;
    }
    return n;
}

static const char *phase_label(const gs_rundata *r, int p)
{
    return p == GS_STALL_NONE ? "(unattributed)" : gs_rundata_phase(r, p);
}

void gs_stalls_markdown(const gs_rundata *r, gs_buf *b)
{
    const gs_stalls *st = &r->stalls;
    if (!st->present)
        return;
    int idx[5];
    gs_buf_printf(b, "\n### Stall reasons (PC sampling, production build)\n\n%.0f samples (every 2^%s cycles per SM).",
                  st->total, gs_rundata_str(r, "stalls.period_log2"));
    if (st->no_sources) /* a run recorded without a copy of its source: no phase can be read */
        gs_buf_printf(b, " The run carries no copy of the kernel source they point into (`sources/`, "
                         "docs/run-directory.md), so no sample is given a phase: the source in the working folder "
                         "may not be the one that was compiled.");
    else
        gs_buf_printf(b, " Sampled lines are given a phase through the kernel source: the innermost "
                         "GS_BEGIN/GS_END pair around the line, or the phase every call site of its device function "
                         "is in. %.1f%% of the samples could not be attributed: lines outside every pair and in "
                         "functions called from more than one phase (the kernel's set-up and its producer and "
                         "scheduling code, which no phase marker brackets, and helpers shared by phases). The phase "
                         "rows below share only the attributed samples; the unattributed row is as real a cost, just "
                         "not one a phase owns.",
                      st->total > 0 ? 100 * st->phase_total[GS_STALL_NONE] / st->total : 0.0);
    if (st->no_copy > 0)
        gs_buf_printf(b, " %.1f%% of the samples are on source files the run holds no readable copy of "
                         "(`sources/`, docs/run-directory.md): they are among the unattributed.",
                      100 * st->no_copy / st->total);
    char *end;
    const char *nv = gs_rundata_str(r, "stalls.sources_newer");
    const long newer = strtol(nv, &end, 10);
    if (!st->no_sources && end != nv && !*end && newer > 0 && newer <= GS_SOURCES_MAX)
        gs_buf_printf(b, " **%d of the source files were changed after the recording program was built**: their "
                         "copy may not be the source that was compiled, and neither may their phases.",
                      (int)newer);
    gs_buf_printf(b, "\n\n| phase | share of samples | top stall reasons (share within the phase) |\n|---|---:|---|\n");
    for (int p = -1; p <= (st->no_sources ? -1 : GS_NUM_PHASES); p++) {
        double tot = p < 0 ? st->total : st->phase_total[p];
        if (tot <= 0)
            continue;
        int n = top_reasons(st, p, idx, 5);
        gs_buf_printf(b, "| %s | %.1f%% |", p < 0 ? "all" : phase_label(r, p), 100 * tot / st->total);
        for (int i = 0; i < n; i++)
            gs_buf_printf(b, "%s %s %.1f%%", i ? "," : "", st->reason[idx[i]],
                          100 * reason_samples(st, p, idx[i]) / tot);
        gs_buf_printf(b, " |\n");
    }
}

/* The twin's launch and production's can be set side by side: both PC-sampled, at the same
 * period (each scheduler's samples then count the same cycles in both). */
static int twin_comparable(const gs_rundata *r)
{
    const char *pp = gs_rundata_str(r, "stalls.period_log2"), *pt = gs_rundata_str(r, "stalls_twin.period_log2");
    return r->stalls.present && r->stalls_twin.present && !strcmp(pp, pt);
}

static double reason_total(const gs_stalls *st, const char *name)
{
    int k = gs_stalls_reason_index(st, name);
    return k < 0 ? 0 : reason_samples(st, -1, k);
}

/* Reasons of either build by decreasing |twin - production|, at most max. */
static int extra_order(const gs_rundata *r, const char **names, int max)
{
    const gs_stalls *p = &r->stalls, *t = &r->stalls_twin;
    const char *all[2 * GS_MAX_REASONS];
    double d[2 * GS_MAX_REASONS];
    int n = 0;
    for (int k = 0; k < t->nreasons; k++)
        all[n++] = t->reason[k];
    for (int k = 0; k < p->nreasons; k++)
        if (gs_stalls_reason_index(t, p->reason[k]) < 0)
            all[n++] = p->reason[k];
    for (int i = 0; i < n; i++)
        d[i] = fabs(reason_total(t, all[i]) - reason_total(p, all[i]));
    for (int i = 1; i < n; i++) /* insertion sort, largest first; ties keep the twin's order */
        for (int j = i; j > 0 && d[j - 1] < d[j]; j--) {
            const char *x = all[j];
            all[j] = all[j - 1];
            all[j - 1] = x;
            const double y = d[j];
            d[j] = d[j - 1];
            d[j - 1] = y;
        }
    for (int i = 0; i < n && i < max; i++)
        names[i] = all[i];
    return n < max ? n : max;
}

/* Per reason, the samples of each build and the twin's extra, the 8 largest differences
 * first; the `all` row sums every reason, shown or not. */
void gs_twin_stalls_markdown(const gs_rundata *r, gs_buf *b)
{
    if (!r->stalls.present || !r->stalls_twin.present)
        return;
    const gs_stalls *p = &r->stalls, *t = &r->stalls_twin;
    gs_buf_printf(b, "\n### What the twin costs, by stall reason (PC sampling, one launch of each build)\n\n");
    if (!twin_comparable(r)) {
        gs_buf_printf(b, "The two builds were sampled at different periods (2^%s and 2^%s cycles): not compared.\n",
                      gs_rundata_str(r, "stalls.period_log2"), gs_rundata_str(r, "stalls_twin.period_log2"));
        return;
    }
    const double extra = t->total - p->total;
    gs_buf_printf(b, "The twin's launch drew %.0f samples, production's %.0f: x%.3f (the timings say x%.3f). "
                     "Each warp scheduler samples one of its resident warps per period, so the counts measure "
                     "scheduler time shared among the warps: the twin's longer run adds samples, and a warp that "
                     "runs only in the twin (the clock sampler: its samples fall on the twin's own code and in "
                     "`sleeping`) takes a share of its scheduler's. %.0f samples (%.1f%% of the twin's) fell on "
                     "the twin's own code (`gs_stamp.cuh`).\n\n| reason | production | twin | "
                     "twin - production | on stamp code |\n|---|---:|---:|---:|---:|\n",
                  t->total, p->total, p->total > 0 ? t->total / p->total : NAN, r->overhead_ratio, t->stamp_code,
                  t->total > 0 ? 100 * t->stamp_code / t->total : 0.0);
    const char *names[8];
    const int n = extra_order(r, names, 8);
    for (int i = 0; i < n; i++) {
        const double vp = reason_total(p, names[i]), vt = reason_total(t, names[i]);
        const int kt = gs_stalls_reason_index(t, names[i]);
        gs_buf_printf(b, "| %s | %.0f | %.0f | %+.0f | %.0f |\n", names[i], vp, vt, vt - vp,
                      kt < 0 ? 0.0 : t->stamp_by[kt]);
    }
    gs_buf_printf(b, "| all | %.0f | %.0f | %+.0f | %.0f |\n", p->total, t->total, extra, t->stamp_code);
}

static void launch_sequence_json(const gs_rundata *r, gs_json *j)
{
    const int shown = sequence_shown(r);
    if (!shown)
        return;
    gs_json_obj(j, "launch_sequence");
    gs_json_int(j, "kernels_before", (long long)num(r, "cupti.sequence_kernels"));
    gs_json_int(j, "mismatched_launches", (long long)gs_meta_num(&r->meta, "cupti.sequence_mismatched", 0));
    gs_json_num(j, "span_ms", num(r, "cupti.span_ms"));
    gs_json_arr(j, "before");
    for (int i = 0; i < shown; i++) {
        gs_json_obj(j, NULL);
        gs_json_str(j, "name", before_name(r, i));
        gs_json_num(j, "time_ms", before_num(r, i, "time_ms"));
        gs_json_num(j, "gap_ms", before_num(r, i, "gap_ms"));
        gs_json_close(j);
    }
    gs_json_close(j);
    gs_json_close(j);
}

void gs_hwmetrics_json(const gs_rundata *r, gs_json *j)
{
    const gs_stalls *st = &r->stalls;
    if (st->present) {
        int idx[8];
        gs_json_obj(j, "stalls");
        gs_json_num(j, "samples", st->total);
        gs_json_num(j, "phases_from_source", st->no_sources ? 0 : 1); /* 0: the run has no copy of its source */
        gs_json_num(j, "no_copy_share", st->no_copy / st->total);
        gs_json_num(j, "unattributed_share", st->phase_total[GS_STALL_NONE] / st->total);
        for (int p = -1; p <= GS_NUM_PHASES; p++) {
            double tot = p < 0 ? st->total : st->phase_total[p];
            if (tot <= 0)
                continue;
            gs_json_obj(j, p < 0 ? "ALL" : p == GS_STALL_NONE ? "UNATTRIBUTED" : gs_rundata_phase(r, p));
            gs_json_num(j, "share_of_samples", tot / st->total);
            gs_json_obj(j, "reasons");
            int n = top_reasons(st, p, idx, 8);
            for (int i = 0; i < n; i++)
                gs_json_num(j, st->reason[idx[i]], reason_samples(st, p, idx[i]) / tot);
            gs_json_close(j);
            gs_json_close(j);
        }
        gs_json_close(j);
    }
    if (twin_comparable(r)) {
        const gs_stalls *p = &r->stalls, *t = &r->stalls_twin;
        const char *names[8];
        gs_json_obj(j, "stalls_twin");
        gs_json_num(j, "samples", t->total);
        gs_json_num(j, "production_samples", p->total);
        gs_json_num(j, "stamp_code_samples", t->stamp_code);
        gs_json_obj(j, "extra_by_reason");
        const int n = extra_order(r, names, 8);
        for (int i = 0; i < n; i++)
            gs_json_num(j, names[i], reason_total(t, names[i]) - reason_total(p, names[i]));
        gs_json_close(j);
        gs_json_close(j);
    }
    const gs_meta *m = &r->meta;
    gs_json_num(j, "regs", num(r, "kernel.registers"));
    gs_json_num(j, "spill_bytes", num(r, "kernel.local_bytes_per_thread"));
    gs_json_num(j, "smem_bytes", num(r, "kernel.static_smem_bytes") + num(r, "kernel.dynamic_smem_bytes"));
    const char *lim;
    gs_json_int(j, "theoretical_ctas_per_sm", gs_theoretical_ctas(r, &lim));
    gs_json_num(j, "cupti_time_ms", num(r, "cupti.time_ms"));
    gs_json_num(j, "cupti_events_ratio", num(r, "cupti.time_ms") / num(r, "cupti.events_time_ms"));
    launch_sequence_json(r, j);
    gs_json_obj(j, "metrics");
    for (int i = 0; i < m->n; i++)
        if (!strncmp(m->kv[i].key, "metric.", 7))
            gs_json_num(j, m->kv[i].key + 7, gs_meta_num(m, m->kv[i].key, NAN));
    gs_json_close(j);
    gs_json_obj(j, "collectors");
    for (int i = 0; i < m->n; i++)
        if (!strncmp(m->kv[i].key, "collector.", 10))
            gs_json_str(j, m->kv[i].key + 10, m->kv[i].val);
    gs_json_close(j);
}
