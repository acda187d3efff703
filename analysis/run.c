#define _POSIX_C_SOURCE 200809L
#include "run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *gs_rundata_str(const gs_rundata *r, const char *key)
{
    const char *v = gs_meta_get(&r->meta, key);
    return v && *v ? v : "unknown";
}

const char *gs_rundata_phase(const gs_rundata *r, int p) { return gs_phase_name(&r->names, p); }

double gs_rundata_planned_bound(const gs_rundata *r, unsigned *slots)
{
    const gs_workload *w = &r->work;
    *slots = 0;
    if (!w->valid || w->widths != 1 || !(r->have & GS_NEED_SMTIME) || r->smt.ctas_per_sm_max > 1 || r->smt.sms <= 0)
        return NAN;
    *slots = w->ctas > (unsigned)r->smt.sms ? w->ctas : (unsigned)r->smt.sms;
    return gs_workload_bound(w, *slots);
}

/* The numbers the analyzers read from meta.txt, with the ranges a real run gives them: a value
 * outside (a negative ceiling, inf, a billion SMs) would become a confident absurd figure. */
static const struct {
    const char *key;
    double lo, hi; /* lo exclusive unless lo_incl */
    int lo_incl, integer;
} meta_numbers[] = {
    {"sm_count", 1, 65536, 1, 1},
    {"ctas_per_sm", 1, 64, 1, 1},
    {"ceiling_tflops", 0, 1e5, 0, 0},
    {"ceiling_gbps", 0, 1e7, 0, 0},
    {"flops", 0, 1e21, 0, 0},
    {"flops_computed", 0, 1e21, 0, 0},
    {"min_bytes", 0, 1e18, 0, 0},
    {"cublas.time_ms", 0, 1e7, 0, 0},
    {"harness.inputs", 1, 1 << 16, 1, 1},
    {"harness.time_ms", 0, 1e7, 0, 0},
    {"harness.cublas.time_ms", 0, 1e7, 0, 0},
    {"harness.correct", 0, 1, 1, 1},
    {"correct", 0, 1, 1, 1},
    {"units.k_block", 1, 1 << 20, 1, 1},
    {"timing.l2_flush_bytes", 0, 1e12, 1, 0},
    {"clock.sm_ghz", 0, 10, 0, 0},
    {"clock.sm_ghz_min", 0, 10, 0, 0},
    {"clock.sm_ghz_max", 0, 10, 0, 0},
};

static int check_meta_numbers(const gs_meta *m, const char *dir, char *err, size_t errlen)
{
    for (size_t i = 0; i < sizeof meta_numbers / sizeof meta_numbers[0]; i++) {
        const char *v = gs_meta_get(m, meta_numbers[i].key);
        if (!v)
            continue;
        const double x = gs_meta_num(m, meta_numbers[i].key, NAN), lo = meta_numbers[i].lo, hi = meta_numbers[i].hi;
        const int ok = isfinite(x) && (meta_numbers[i].lo_incl ? x >= lo : x > lo) && x <= hi &&
                       (!meta_numbers[i].integer || x == floor(x));
        if (!ok) {
            snprintf(err, errlen, "%s/meta.txt: %s = %.40s is not %s in %c%g, %g]", dir, meta_numbers[i].key, v,
                     meta_numbers[i].integer ? "a whole number" : "a number", meta_numbers[i].lo_incl ? '[' : '(',
                     lo, hi);
            return -1;
        }
    }
    return 0;
}

/* A run keeps its stamps plain or gzip'ed (the samples): NAME.gss, else NAME.gss.gz.  1 read,
 * 0 absent (and not required), -1 with one line in err. */
static int read_stamps(const char *dir, const char *name, int required, gs_trace *t, gs_timeline *tl, char *err,
                       size_t errlen)
{
    char path[2200], sub[512];
    snprintf(path, sizeof path, "%s/%s.gss", dir, name);
    if (access(path, F_OK) != 0)
        snprintf(path, sizeof path, "%s/%s.gss.gz", dir, name);
    if (!required && access(path, F_OK) != 0)
        return 0;
    if (gs_file_read(path, t, err, errlen))
        return -1;
    if (gs_timeline_build(t, tl, sub, sizeof sub)) {
        snprintf(err, errlen, "%s: %s", path, sub);
        return -1;
    }
    return 1;
}

/* The detail twin's sub-phase columns into the width rows of the plain twin's table. */
static void take_detail_widths(gs_widths *w, const gs_widths *d)
{
    if (!w->ok || !d->ok)
        return;
    w->n_sub = d->n_sub;
    memcpy(w->sub, d->sub, sizeof w->sub);
    for (int i = 0; i < w->n; i++) {
        for (int p = 0; p < GS_NUM_PHASES; p++)
            w->row[i].sub_ns[p] = NAN;
        w->row[i].steady_kb_ns = w->row[i].above_steady_ns = w->row[i].above_steady_share = NAN;
        w->row[i].kb_profile_n = 0;
        for (int k = 0; k < d->n; k++)
            if (d->row[k].width == w->row[i].width) {
                memcpy(w->row[i].sub_ns, d->row[k].sub_ns, sizeof w->row[i].sub_ns);
                w->row[i].steady_kb_ns = d->row[k].steady_kb_ns;
                w->row[i].above_steady_ns = d->row[k].above_steady_ns;
                w->row[i].above_steady_share = d->row[k].above_steady_share;
                memcpy(w->row[i].kb_interval_ns, d->row[k].kb_interval_ns, sizeof w->row[i].kb_interval_ns);
                w->row[i].kb_profile_n = d->row[k].kb_profile_n;
            }
    }
}

int gs_rundata_load(gs_rundata *r, const char *dir, unsigned need, char *err, size_t errlen)
{
    char path[2200], sub[512];
    memset(r, 0, sizeof *r);
    snprintf(r->dir, sizeof r->dir, "%s", dir);
    snprintf(path, sizeof path, "%s/meta.txt", dir);
    if (gs_meta_read(&r->meta, path, err, errlen))
        goto fail;
    /* what every run says of itself (gs_rundir_commit refuses a run without them) */
    static const char *const required[] = {"subject", "shape", "variant", "sm_count"};
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
        if (!gs_meta_get(&r->meta, required[i])) {
            snprintf(err, errlen, "%s/meta.txt: no %s: not a run's meta.txt", dir, required[i]);
            goto fail;
        }
    if (check_meta_numbers(&r->meta, dir, err, errlen))
        goto fail;
    if (gs_phase_table_from_meta(&r->names, &r->meta, sub, sizeof sub)) {
        snprintf(err, errlen, "%s/%s", dir, sub);
        goto fail;
    }
    snprintf(path, sizeof path, "%s/units.tsv", dir);
    if (gs_units_read(&r->units, path, err, errlen))
        goto fail;
    snprintf(path, sizeof path, "%s/probes.tsv", dir);
    if (gs_probes_read(&r->probes, path, err, errlen))
        goto fail;
    snprintf(path, sizeof path, "%s/timings.tsv", dir);
    if (gs_timings_read(&r->tim, path, err, errlen))
        goto fail;
    if (read_stamps(dir, "stamps", 1, &r->trace, &r->tl, err, errlen) < 0)
        goto fail;
    const int detail = read_stamps(dir, "stamps-detail", 0, &r->trace_detail, &r->tl_detail, err, errlen);
    if (detail < 0)
        goto fail;
    r->has_detail = detail;
    if (gs_warp_roles_parse(&r->meta, r->trace.warps_per_cta, &r->roles, sub, sizeof sub)) {
        snprintf(err, errlen, "%s/%s", dir, sub);
        goto fail;
    }
    if (gs_workload_compute(&r->units, r->tl.ctas, &r->work)) {
        snprintf(err, errlen, "out of memory analysing %s", dir);
        goto fail;
    }
    r->clock_converted = gs_meta_get(&r->meta, "clock.converted") != NULL;
    if (r->clock_converted) {
        r->tl.heldout_max_ns = r->tl.resid_max_ns = NAN;
        r->tl.heldout_knots = 0;
        r->tl.clock_ghz = gs_meta_num(&r->meta, "clock.sm_ghz", NAN);
        r->tl.clock_ghz_lo = gs_meta_num(&r->meta, "clock.sm_ghz_min", NAN);
        r->tl.clock_ghz_hi = gs_meta_num(&r->meta, "clock.sm_ghz_max", NAN);
    }
    int p = gs_timings_find(&r->tim, "production"), t = gs_timings_find(&r->tim, "twin");
    if (p < 0 || t < 0) {
        snprintf(err, errlen, "%s/timings.tsv: needs both 'production' and 'twin' rows", dir);
        goto fail;
    }
    r->reps = r->tim.count[p];
    r->time_ms = gs_timings_median(&r->tim, p);
    r->time_min_ms = gs_timings_min(&r->tim, p);
    r->time_max_ms = gs_timings_max(&r->tim, p);
    r->twin_ms = gs_timings_median(&r->tim, t);
    r->twin_min_ms = gs_timings_min(&r->tim, t);
    r->twin_max_ms = gs_timings_max(&r->tim, t);
    /* a ratio of like with like only: both rows timed the same way (absent: the toolkit's) */
    const char *pm = gs_meta_get(&r->meta, "timing.production_method"), *tm = gs_meta_get(&r->meta, "timing.twin_method");
    const int same_method = !strcmp(pm ? pm : "cuda-events", tm ? tm : "cuda-events");
    r->overhead_ratio = r->time_ms > 0 && same_method ? r->twin_ms / r->time_ms : NAN;
    gs_perf_compute(&r->meta, r->time_ms, &r->perf);
    if (gs_rundata_need(r, need, err, errlen))
        goto fail;
    return 0;
fail:
    gs_rundata_free(r);
    return -1;
}

int gs_rundata_need(gs_rundata *r, unsigned need, char *err, size_t errlen)
{
    const unsigned todo = need & ~r->have;
    int oom = 0;
    if (todo & GS_NEED_PHASES) {
        oom = oom || gs_phases_compute(&r->tl, &r->phases);
        if (r->has_detail && !oom) {
            oom = gs_phases_compute(&r->tl_detail, &r->phases_detail);
            if (!oom)
                gs_phases_take_subs(&r->names, &r->phases, &r->phases_detail);
        }
        oom = oom || gs_warp_roles_compute(&r->roles, &r->names, &r->tl, r->has_detail ? &r->tl_detail : NULL);
    }
    if (todo & GS_NEED_SMTIME)
        oom = oom || gs_smtime_compute(&r->tl, (int)gs_meta_num(&r->meta, "sm_count", 0), &r->smt);
    if (todo & GS_NEED_BOUNDARIES)
        oom = oom || gs_boundaries_compute(&r->tl, &r->bnd);
    if (todo & GS_NEED_WIDTHS) {
        oom = oom || gs_widths_compute(&r->tl, &r->meta, &r->names, &r->units, &r->widths);
        if (r->has_detail && !oom) {
            gs_widths *d = malloc(sizeof *d);
            oom = !d || gs_widths_compute(&r->tl_detail, &r->meta, &r->names, &r->units, d);
            if (!oom)
                take_detail_widths(&r->widths, d);
            free(d);
        }
    }
    if (oom) {
        snprintf(err, errlen, "out of memory analysing %s", r->dir);
        return -1;
    }
    if ((todo & GS_NEED_STALLS) &&
        (gs_stalls_load(r->dir, "pcsamp.tsv", &r->names, &r->stalls, err, errlen) ||
         gs_stalls_load(r->dir, "pcsamp-twin.tsv", &r->names, &r->stalls_twin, err, errlen)))
        return -1;
    r->have |= need;
    return 0;
}

void gs_rundata_free(gs_rundata *r)
{
    gs_meta_free(&r->meta);
    gs_units_free(&r->units);
    gs_probes_free(&r->probes);
    gs_timings_free(&r->tim);
    gs_trace_free(&r->trace);
    gs_timeline_free(&r->tl);
    gs_trace_free(&r->trace_detail);
    gs_timeline_free(&r->tl_detail);
    gs_phases_free(&r->phases_detail);
    gs_warp_roles_free(&r->roles);
    gs_smtime_free(&r->smt);
    gs_phases_free(&r->phases);
}
