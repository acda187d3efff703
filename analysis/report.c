#include "report.h"
#include "checks.h"
#include "hwmetrics.h"
#include "json.h"
#include "plots.h"
#include "verdicts.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One phase's figures, as summary.json's phases and warp roles give them. */
static void phase_stats_json(gs_json *j, const gs_phase_stats *s)
{
    gs_json_num(j, "busy_share", s->busy_share);
    gs_json_int(j, "instances", (long long)s->instances);
    gs_json_int(j, "ctas", (long long)s->ctas);
    gs_json_num(j, "cta_p50_us", s->cta_p50 / 1e3);
    gs_json_num(j, "cta_p90_us", s->cta_p90 / 1e3);
    gs_json_num(j, "cta_max_us", s->cta_max / 1e3);
    gs_json_num(j, "instance_p50_us", s->inst_p50 / 1e3);
    gs_json_num(j, "instance_p90_us", s->inst_p90 / 1e3);
    gs_json_num(j, "instance_max_us", s->inst_max / 1e3);
}

/* Main loop by unit width (analysis/widths.h); absent for runs without units. */
static void widths_json(gs_json *j, const gs_rundata *r)
{
    const gs_widths *w = &r->widths;
    if (!w->applies)
        return;
    gs_json_obj(j, "mainloop_by_width");
    gs_json_bool(j, "ok", w->ok);
    gs_json_str(j, "note", w->note);
    gs_json_int(j, "stamped_units", w->stamped_units);
    gs_json_int(j, "listed_units", w->listed_units);
    gs_json_num(j, "k_block", w->k_block > 0 ? w->k_block : NAN);
    gs_json_int(j, "sms", w->sms);
    gs_json_num(j, "ceiling_tflops", w->ceiling_tflops);
    gs_json_arr(j, "sub_phases");
    for (int s = 0; s < w->n_sub; s++)
        gs_json_str(j, NULL, gs_rundata_phase(r, w->sub[s]));
    gs_json_close(j);
    gs_json_arr(j, "widths");
    for (int i = 0; i < w->n; i++) {
        const gs_width_row *x = &w->row[i];
        gs_json_obj(j, NULL);
        gs_json_int(j, "width", x->width);
        gs_json_int(j, "units", x->units);
        gs_json_int(j, "whole_tiles", x->whole);
        gs_json_int(j, "parts", x->parts);
        gs_json_int(j, "k_blocks", x->kblocks);
        gs_json_num(j, "kb_p50_us", x->kb_p50_ns / 1e3);
        gs_json_num(j, "kb_p10_us", x->kb_p10_ns / 1e3);
        gs_json_num(j, "kb_p90_us", x->kb_p90_ns / 1e3);
        gs_json_num(j, "ns_per_kb_per_column", x->ns_per_column);
        gs_json_num(j, "floor_kb_us", x->floor_ns / 1e3);
        gs_json_num(j, "ceiling_share", x->ceiling_share);
        gs_json_num(j, "mainloop_share", x->main_share);
        gs_json_num(j, "steady_kb_us", x->steady_kb_ns / 1e3);
        gs_json_num(j, "above_steady_us", x->above_steady_ns / 1e3);
        gs_json_num(j, "above_steady_share", x->above_steady_share);
        gs_json_obj(j, "line");
        gs_json_int(j, "first_units", x->first_units);
        gs_json_int(j, "later_units", x->later_units);
        gs_json_int(j, "kb_min", x->kb_min);
        gs_json_int(j, "kb_max", x->kb_max);
        gs_json_num(j, "kb_us", x->fit_kb_ns / 1e3);
        gs_json_num(j, "start_first_us", x->fit_first_ns / 1e3);
        gs_json_num(j, "start_later_us", x->fit_later_ns / 1e3);
        gs_json_num(j, "residual_p90_us", x->fit_resid_p90_ns / 1e3);
        gs_json_close(j);
        if (w->n_sub) {
            gs_json_obj(j, "sub_phase_us");
            for (int s = 0; s < w->n_sub; s++)
                gs_json_num(j, gs_rundata_phase(r, w->sub[s]), x->sub_ns[w->sub[s]] / 1e3);
            gs_json_close(j);
        }
        gs_json_close(j);
    }
    gs_json_close(j);
    gs_json_close(j);
}

int gs_summary_write(const gs_rundata *r, const char *path, char *err, size_t errlen)
{
    gs_buf b = {0};
    gs_json j;
    gs_json_begin(&j, &b);
    gs_json_str(&j, "format", "gemmscope-summary");
    gs_json_int(&j, "version", GS_SUMMARY_VERSION);
    gs_json_str(&j, "subject", gs_rundata_str(r, "subject"));
    gs_json_str(&j, "shape", gs_rundata_str(r, "shape"));
    gs_json_str(&j, "variant", gs_rundata_str(r, "variant"));
    gs_json_str(&j, "gpu", gs_rundata_str(r, "gpu"));
    gs_json_int(&j, "sm_count", (long long)gs_meta_num(&r->meta, "sm_count", 0));
    gs_json_num(&j, "time_ms", r->time_ms);
    gs_json_num(&j, "time_min_ms", r->time_min_ms);
    gs_json_num(&j, "time_max_ms", r->time_max_ms);
    gs_json_num(&j, "twin_time_ms", r->twin_ms);
    gs_json_num(&j, "overhead_ratio", r->overhead_ratio);
    gs_json_int(&j, "timing_reps", r->reps);
    gs_json_num(&j, "timer_tick_ns", r->trace.timer_tick_ns);
    gs_json_int(&j, "dropped_records", (long long)r->tl.dropped);
    gs_json_int(&j, "warps_overflowed", (long long)r->tl.warps_overflowed);
    gs_json_int(&j, "warps_unfinished", (long long)r->tl.warps_unfinished);
    gs_json_int(&j, "ctas", r->trace.ctas);
    gs_json_int(&j, "warps_per_cta", r->trace.warps_per_cta);
    gs_json_int(&j, "sms_used", r->tl.sms_used);
    gs_json_num(&j, "kernel_span_us", r->tl.span_ns / 1e3);
    gs_json_num(&j, "clock_fit_residual_ns", r->tl.resid_max_ns);
    gs_json_num(&j, "clock_model_heldout_ns", r->tl.heldout_max_ns);
    gs_json_int(&j, "clock_sampler_pairs", r->tl.clock_pairs);
    gs_json_num(&j, "sm_clock_ghz", r->tl.clock_ghz);
    gs_json_num(&j, "sm_clock_ghz_lo", r->tl.clock_ghz_lo);
    gs_json_num(&j, "sm_clock_ghz_hi", r->tl.clock_ghz_hi);
    if (r->bnd.n) {
        gs_json_obj(&j, "between_main_loops");
        gs_json_int(&j, "boundaries", (long long)r->bnd.n);
        gs_json_num(&j, "gap_mean_us", r->bnd.gap_mean_ns / 1e3);
        gs_json_num(&j, "gap_p90_us", r->bnd.gap_p90_ns / 1e3);
        gs_json_num(&j, "acc_to_reg_mean_us", r->bnd.acc_mean_ns / 1e3);
        gs_json_num(&j, "epilogue_mean_us", r->bnd.epi_mean_ns / 1e3);
        gs_json_num(&j, "store_mean_us", r->bnd.store_mean_ns / 1e3);
        gs_json_num(&j, "other_mean_us", r->bnd.other_mean_ns / 1e3);
        gs_json_close(&j);
    }
    gs_hwmetrics_json(r, &j);
    char seed[512];
    if (gs_seed_line(r, seed, sizeof seed) == 0)
        gs_json_str(&j, "seed_line", seed);
    const gs_perf *pf = &r->perf;
    if (gs_meta_get(&r->meta, "flops")) {
        gs_json_str(&j, "dist", gs_rundata_str(r, "dist"));
        gs_json_num(&j, "tflops", pf->tflops);
        gs_json_num(&j, "gbps", pf->gbps);
        gs_json_num(&j, "ceiling_tflops", pf->ceiling_tflops);
        gs_json_num(&j, "ceiling_gbps", pf->ceiling_gbps);
        gs_json_num(&j, "ceiling_fraction", pf->ceiling_fraction);
        gs_json_num(&j, "bandwidth_fraction", pf->bandwidth_fraction);
        gs_json_num(&j, "cublas_time_ms", pf->cublas_ms);
        gs_json_num(&j, "cublas_ratio", pf->cublas_ratio);
        gs_json_str(&j, "cublas_method", gs_rundata_str(r, "cublas.method"));
        gs_json_bool(&j, "correct", pf->correct == 1);
        if (gs_meta_get(&r->meta, "harness.time_ms")) { /* the subject's benchmark harness, where the run has it */
            const double hp = gs_meta_num(&r->meta, "harness.time_ms", NAN),
                         hc = gs_meta_num(&r->meta, "harness.cublas.time_ms", NAN);
            gs_json_obj(&j, "harness");
            gs_json_str(&j, "what", gs_rundata_str(r, "harness.what"));
            gs_json_num(&j, "inputs", gs_meta_num(&r->meta, "harness.inputs", NAN));
            gs_json_num(&j, "time_ms", hp);
            gs_json_num(&j, "cublas_time_ms", hc);
            gs_json_num(&j, "cublas_ratio", hc / hp);
            if (gs_meta_get(&r->meta, "harness.cublas.route"))
                gs_json_str(&j, "cublas_route", gs_rundata_str(r, "harness.cublas.route"));
            if (gs_meta_get(&r->meta, "harness.correct"))
                gs_json_bool(&j, "correct", gs_meta_num(&r->meta, "harness.correct", 0) == 1);
            else
                gs_json_num(&j, "correct", NAN); /* not checked: null */
            gs_json_close(&j);
        }
        gs_json_obj(&j, "roofline");
        gs_json_num(&j, "intensity_flop_per_byte", pf->intensity);
        gs_json_num(&j, "ridge_flop_per_byte", pf->ridge);
        gs_json_num(&j, "floor_ms", pf->floor_ms);
        gs_json_num(&j, "padding_waste", pf->padding);
        gs_json_str(&j, "bound", gs_bound_name(pf->bound));
        gs_json_close(&j);
    }
    gs_json_obj(&j, "phases");
    for (int p = 0; p < GS_NUM_PHASES; p++) {
        const gs_phase_stats *s = &r->phases.ph[p];
        if (!s->instances)
            continue;
        gs_json_obj(&j, gs_rundata_phase(r, p));
        phase_stats_json(&j, s);
        if (p != GS_MAINLOOP) {
            gs_json_num(&j, "exposed_share", r->smt.exposed_share[p]);
            gs_json_num(&j, "amdahl_bound", r->smt.amdahl_bound[p]);
        }
        gs_json_close(&j);
    }
    gs_json_close(&j);
    if (r->roles.n && r->roles.computed) {
        gs_json_arr(&j, "warp_roles");
        for (int i = 0; i < r->roles.n; i++) {
            const gs_warp_role *role = &r->roles.role[i];
            gs_json_obj(&j, NULL);
            gs_json_str(&j, "name", role->name);
            gs_json_int(&j, "first_warp", role->first);
            gs_json_int(&j, "last_warp", role->last);
            gs_json_obj(&j, "phases");
            for (int p = 0; p < GS_NUM_PHASES; p++) {
                const gs_phase_stats *s = &role->ph.ph[p];
                if (!s->instances)
                    continue;
                gs_json_obj(&j, gs_rundata_phase(r, p));
                phase_stats_json(&j, s);
                gs_json_close(&j);
            }
            gs_json_close(&j);
            gs_json_close(&j);
        }
        gs_json_close(&j);
    }
    widths_json(&j, r);
    gs_json_obj(&j, "sm_time");
    for (int c = 0; c < GS_SMT_CATEGORIES; c++)
        if (r->smt.share[c] > 0 || c >= GS_SMT_RESIDENT)
            gs_json_num(&j, gs_smt_category(&r->names, c), r->smt.share[c]);
    gs_json_close(&j);
    gs_json_obj(&j, "waves");
    gs_json_num(&j, "waves", r->smt.waves);
    gs_json_int(&j, "resident_ctas_per_sm", r->smt.resident_per_sm);
    gs_json_num(&j, "ctas_per_sm_mean", r->smt.ctas_per_sm_mean);
    gs_json_int(&j, "ctas_per_sm_min", r->smt.ctas_per_sm_min);
    gs_json_int(&j, "ctas_per_sm_max", r->smt.ctas_per_sm_max);
    gs_json_num(&j, "tail_us", r->smt.tail_ns / 1e3);
    gs_json_num(&j, "tail_share", r->smt.tail_share);
    gs_json_num(&j, "cta_duration_spread_worst", r->smt.spread_worst);
    gs_json_num(&j, "cta_duration_spread_median", r->smt.spread_median);
    gs_json_num(&j, "sm_end_min_us", r->smt.end_min_ns / 1e3);
    gs_json_num(&j, "sm_end_median_us", r->smt.end_median_ns / 1e3);
    gs_json_num(&j, "sm_end_max_us", r->smt.end_max_ns / 1e3);
    gs_json_num(&j, "balance_bound", r->smt.balance_bound);
    gs_json_close(&j);
    if (r->work.valid) {
        const gs_workload *w = &r->work;
        gs_json_obj(&j, "planned_work");
        gs_json_int(&j, "ctas", w->ctas);
        gs_json_int(&j, "idle_ctas", w->idle_ctas);
        gs_json_int(&j, "units", (long long)w->units);
        gs_json_int(&j, "split_units", (long long)w->split_units);
        gs_json_num(&j, "max_gflop", w->max_flops / 1e9);
        gs_json_num(&j, "total_gflop", w->total_flops / 1e9);
        gs_json_int(&j, "widths", w->widths);
        unsigned slots = 0;
        const double pb = gs_rundata_planned_bound(r, &slots);
        if (!isnan(pb))
            gs_json_num(&j, "balance_bound", pb);
        gs_json_close(&j);
    }
    gs_verdicts vd;
    gs_verdicts_compute(r, &vd);
    gs_json_arr(&j, "verdicts");
    for (int i = 0; i < vd.n; i++)
        gs_json_str(&j, NULL, vd.text[i]);
    gs_json_close(&j);
    gs_release_stats rs;
    char why[128];
    if (gs_release_compute(r, &rs, why, sizeof why) > 0) {
        gs_json_obj(&j, "release");
        gs_json_int(&j, "ctas", (long long)rs.ctas);
        gs_json_num(&j, "spread_ns", rs.spread_ns);
        gs_json_num(&j, "poll_max_ns", rs.poll_max_ns);
        gs_json_num(&j, "poll_median_ns", rs.poll_median_ns);
        gs_json_num(&j, "poll_period_max_ns", rs.period_max_ns);
        gs_json_close(&j);
    }
    gs_checklist cl;
    gs_checks_run(r, &cl);
    gs_json_arr(&j, "checks");
    for (int i = 0; i < cl.n; i++) {
        gs_json_obj(&j, NULL);
        gs_json_str(&j, "name", cl.row[i].name);
        gs_json_str(&j, "expected", cl.row[i].expected);
        gs_json_str(&j, "measured", cl.row[i].measured);
        gs_json_bool(&j, "pass", cl.row[i].pass);
        gs_json_close(&j);
    }
    gs_json_close(&j);
    gs_json_end(&j);
    int rc = gs_buf_write(&b, path, err, errlen);
    gs_buf_free(&b);
    return rc;
}

static void us(gs_buf *b, double ns)
{
    if (isnan(ns))
        gs_buf_printf(b, " - |");
    else if (ns < 10e3)
        gs_buf_printf(b, " %.2f |", ns / 1e3);
    else
        gs_buf_printf(b, " %.1f |", ns / 1e3);
}

/* Per group (the group tag of GS_TILE): instances and mean instance length of
 * the top-level phases, and the share of all main-loop time; shown when a
 * kernel tags more than one group (grouped GEMMs). */
static void per_group_table(gs_buf *b, const gs_rundata *r)
{
    const gs_timeline *tl = &r->tl;
    int max_group = 0;
    for (size_t i = 0; i < tl->n_events; i++)
        max_group = tl->ev[i].group > max_group ? tl->ev[i].group : max_group;
    if (max_group == 0 || max_group > 4096)
        return;
    size_t ng = (size_t)max_group + 1;
    double *sum = calloc(ng * 4, sizeof(double));
    size_t *cnt = calloc(ng * 4, sizeof(size_t));
    if (!sum || !cnt) {
        free(sum), free(cnt);
        return;
    }
    double main_total = 0;
    for (size_t i = 0; i < tl->n_events; i++) {
        const gs_event *e = &tl->ev[i];
        if (e->phase > GS_STORE)
            continue;
        sum[e->group * 4 + e->phase] += e->t1 - e->t0;
        cnt[e->group * 4 + e->phase]++;
        if (e->phase == GS_MAINLOOP)
            main_total += e->t1 - e->t0;
    }
    gs_buf_printf(b, "\n### Per group\n\nMean length of one instance (us) of each phase, over the warps that "
                     "recorded it; share of all main-loop time.\n\n| group | MAINLOOP instances | MAINLOOP us | "
                     "ACC_TO_REG us | EPILOGUE us | STORE us | share of main-loop time |\n"
                     "|---:|---:|---:|---:|---:|---:|---:|\n");
    for (size_t g = 0; g < ng; g++) {
        if (!cnt[g * 4])
            continue;
        gs_buf_printf(b, "| %zu | %zu |", g, cnt[g * 4]);
        for (int p = 0; p < 4; p++)
            if (cnt[g * 4 + p])
                gs_buf_printf(b, " %.2f |", sum[g * 4 + p] / cnt[g * 4 + p] / 1e3);
            else
                gs_buf_printf(b, " - |");
        gs_buf_printf(b, " %.1f%% |\n", main_total > 0 ? 100 * sum[g * 4] / main_total : 0.0);
    }
    free(sum);
    free(cnt);
}

/* A phase's cells in the Phases table and the warp-role one: "| [  ]NAME | share | per-CTA p50, p90,
 * max | instances | per-instance p50, max |" (indented: not one of the four pipeline phases). */
static void phase_cells(gs_buf *b, const gs_rundata *r, int p, const gs_phase_stats *s)
{
    gs_buf_printf(b, " %s%s | %.2f%% |", gs_phase_is_pipeline(p) ? "" : "  ", gs_rundata_phase(r, p), 100 * s->busy_share);
    us(b, s->cta_p50);
    us(b, s->cta_p90);
    us(b, s->cta_max);
    gs_buf_printf(b, " %zu |", s->instances);
    us(b, s->inst_p50);
    us(b, s->inst_max);
    gs_buf_printf(b, "\n");
}

/* Per warp role the run names (warproles.h): each phase its warps recorded, as in the phases
 * table but over the role's warps only. */
static void roles_table(gs_buf *b, const gs_rundata *r)
{
    const gs_warp_roles *wr = &r->roles;
    if (!wr->n || !wr->computed)
        return;
    gs_buf_printf(b, "\n### Phases by warp role\n\nThe run names its warps' roles (meta.txt `warp_role.<i>.*`). "
                     "For each role, each phase its warps recorded: the union of the phase's intervals over the "
                     "role's warps in each CTA, summed over CTAs, as a share of the same CTA time as above; the "
                     "per-CTA columns are that union per CTA. Rows indented as in the Phases table.%s\n\n",
                  r->has_detail ? " The main loop's sub-phases from the detail twin's stamps, over its own CTA time." : "");
    gs_buf_printf(b, "| role | warps | phase | busy share | per CTA p50 us | p90 us | max us | instances | per "
                     "instance p50 us | max us |\n|---|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
    for (int i = 0; i < wr->n; i++) {
        const gs_warp_role *role = &wr->role[i];
        int rows = 0;
        for (int p = 0; p < GS_NUM_PHASES; p++) {
            const gs_phase_stats *s = &role->ph.ph[p];
            if (!s->instances)
                continue;
            gs_buf_printf(b, "| %s | %u-%u |", role->name, role->first, role->last);
            phase_cells(b, r, p, s);
            rows++;
        }
        if (!rows)
            gs_buf_printf(b, "| %s | %u-%u | (no phase records) | - | - | - | - | 0 | - | - |\n", role->name,
                          role->first, role->last);
    }
}

/* A table cell: v in fmt (" ... |"), or "-" where v is not a number. */
static void cell(gs_buf *b, const char *fmt, double v)
{
    if (isnan(v))
        gs_buf_printf(b, " - |");
    else
        gs_buf_printf(b, fmt, v);
}

/* The main loop as a line per width (widths.h), where some width's K blocks vary. */
static void line_table(gs_buf *b, const gs_widths *w)
{
    int fitted = 0;
    for (int i = 0; i < w->n; i++)
        fitted |= !isnan(w->row[i].fit_kb_ns);
    if (!fitted) {
        gs_buf_printf(b, "\nThe main loop as a line (a start and a cost per K block): not fitted, the K blocks of a "
                         "width's units do not vary.\n");
        return;
    }
    gs_buf_printf(b, "\nThe main loop as a line: over every unit of a width, whole tiles and parts, MAINLOOP = start + "
                     "K blocks x cost per K block (least squares, one cost, a start for a CTA's first unit, which also "
                     "waits for the kernel's first loads, and one for its later units); residual: a unit's distance from the line, "
                     "p90 over the units. `-` where a width's K blocks do not vary within either kind of unit, or "
                     "it has no unit of that kind.\n\n");
    gs_buf_printf(b, "| width | units: first on their CTA / later | K blocks per unit | us per K block | start, first unit "
                     "us | start, later unit us | residual p90 us |\n|---:|---:|---:|---:|---:|---:|---:|\n");
    for (int i = 0; i < w->n; i++) {
        const gs_width_row *x = &w->row[i];
        gs_buf_printf(b, "| %d | %d / %d | ", x->width, x->first_units, x->later_units);
        if (x->kb_min == x->kb_max)
            gs_buf_printf(b, "%u |", x->kb_min);
        else
            gs_buf_printf(b, "%u-%u |", x->kb_min, x->kb_max);
        cell(b, " %.3f |", x->fit_kb_ns / 1e3);
        cell(b, " %.2f |", x->fit_first_ns / 1e3);
        cell(b, " %.2f |", x->fit_later_ns / 1e3);
        cell(b, " %.2f |", x->fit_resid_p90_ns / 1e3);
        gs_buf_printf(b, "\n");
    }
}

/* Main loop by unit width (analysis/widths.h): the table, or the note why not. */
static void widths_table(gs_buf *b, const gs_rundata *r)
{
    const gs_widths *w = &r->widths;
    if (!w->applies)
        return;
    gs_buf_printf(b, "\n### Main loop by unit width\n\n");
    if (!w->ok) {
        gs_buf_printf(b, "%s\n", w->note);
        return;
    }
    char kb[64] = "";
    if (w->k_block > 0)
        snprintf(kb, sizeof kb, " of %d", w->k_block);
    gs_buf_printf(b, "A unit is %s; its width is the %s. Per K block%s: the MAINLOOP of the unit's first warp "
                     "over its K blocks, quantiles over whole tiles only (a part also pays a main loop's start); per "
                     "column: p50 / width.",
                  gs_rundata_str(r, "units.what"), gs_rundata_str(r, "units.width"), kb);
    if (isfinite(w->ceiling_tflops) && w->sms > 0)
        gs_buf_printf(b, " Floor: a K block's flops at one SM's share of the tensor ceiling (%.1f TFLOP/s / %d SMs); "
                         "of ceiling: floor / p50.",
                      w->ceiling_tflops, w->sms);
    if (w->n_sub)
        gs_buf_printf(b, " Sub-phases: median per record over the first warp's records of the whole tiles%s.",
                      r->has_detail ? ", from the detail twin (the other columns from the twin)" : "");
    int steady = 0;
    for (int i = 0; i < w->n; i++)
        steady = steady || isfinite(w->row[i].steady_kb_ns);
    if (steady)
        gs_buf_printf(b, " Steady: in each unit of 4 or more K blocks (whole tiles and parts), the median interval "
                         "between the starts of successive %s records (one a K block; %s); above steady: that unit's "
                         "MAINLOOP, in the same launch, less its K blocks at that interval (its first stages and its "
                         "end), in us and as a share of that MAINLOOP; medians over those units. The per-K-block "
                         "quantiles divide the whole MAINLOOP, so they carry what is above steady.",
                      gs_rundata_str(r, "units.kblock_phase"),
                      r->has_detail ? "the detail twin's, its per-stage stamps included: it compares with the twin's "
                                      "quantiles only through the detail twin's overhead, the share more directly"
                                    : "the twin's");
    gs_buf_printf(b, " Units: as the run lists them (units.tsv), as stamped (%d units).\n\n", w->stamped_units);
    gs_buf_printf(b, "| width | whole tiles | parts | K blocks | us per K block p50 | p10 | p90 | ns per K block per "
                     "column | floor us | of ceiling | share of MAINLOOP time |");
    for (int s = 0; s < w->n_sub; s++)
        gs_buf_printf(b, " %s us |", gs_rundata_phase(r, w->sub[s]));
    if (steady)
        gs_buf_printf(b, " steady us per K block | above steady us | above steady, of MAINLOOP |");
    gs_buf_printf(b, "\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (int s = 0; s < w->n_sub + 3 * steady; s++)
        gs_buf_printf(b, "---:|");
    gs_buf_printf(b, "\n");
    for (int i = 0; i < w->n; i++) {
        const gs_width_row *x = &w->row[i];
        gs_buf_printf(b, "| %d | %d | %d | %lld |", x->width, x->whole, x->parts, x->kblocks);
        cell(b, " %.3f |", x->kb_p50_ns / 1e3);
        cell(b, " %.3f |", x->kb_p10_ns / 1e3);
        cell(b, " %.3f |", x->kb_p90_ns / 1e3);
        cell(b, " %.2f |", x->ns_per_column);
        cell(b, " %.3f |", x->floor_ns / 1e3);
        cell(b, " %.1f%% |", 100 * x->ceiling_share);
        cell(b, " %.1f%% |", 100 * x->main_share);
        for (int s = 0; s < w->n_sub; s++)
            cell(b, " %.3f |", x->sub_ns[w->sub[s]] / 1e3);
        if (steady) {
            cell(b, " %.3f |", x->steady_kb_ns / 1e3);
            cell(b, " %.2f |", x->above_steady_ns / 1e3);
            cell(b, " %.1f%% |", 100 * x->above_steady_share);
        }
        gs_buf_printf(b, "\n");
    }
    line_table(b, w);
}

/* Planned main-loop work per CTA (workload.h), after the measured balance it explains or not. */
static void workload_text(gs_buf *b, const gs_rundata *r)
{
    const gs_workload *w = &r->work;
    if (!w->valid) {
        if (w->why[0])
            gs_buf_printf(b, "Planned main-loop work per CTA: left out (%s).\n\n", w->why);
        return;
    }
    gs_buf_printf(b, "Planned main-loop work per CTA (the units' flops, units.tsv: the launcher's schedule): %u CTAs, "
                     "%zu units (%zu of them parts of tiles split along K);",
                  w->ctas, w->units, w->split_units);
    for (int i = 0; i < w->nlevels; i++)
        gs_buf_printf(b, "%s %u at %.3g GFLOP%s", i ? "," : "", w->level_ctas[i], w->level_flops[i] / 1e9,
                      i ? "" : " (the most)");
    if (w->other_ctas)
        gs_buf_printf(b, ", %u at smaller loads", w->other_ctas);
    if (w->idle_ctas)
        gs_buf_printf(b, ", %u with none", w->idle_ctas);
    unsigned slots = 0;
    const double plan = gs_rundata_planned_bound(r, &slots);
    if (w->widths > 1)
        gs_buf_printf(b, ". Its units run at %d widths, and a flop costs another time at each: this is a spread of "
                         "work, not of time.\n\n",
                      w->widths);
    else if (isnan(plan))
        gs_buf_printf(b, ". Spread evenly over the CTAs, it would end %.1f%% sooner.\n\n",
                      100 * gs_workload_bound(w, w->ctas));
    else {
        const double m = r->smt.balance_bound;
        gs_buf_printf(b, ". Spread evenly over the %u SMs, it would end %.1f%% sooner", slots, 100 * plan);
        if (r->smt.end_max_ns > 0 && m >= GS_BALANCE_BOUND)
            gs_buf_printf(b, plan >= m - GS_PLAN_MARGIN
                                 ? ": the measured %.1f%% above is planned, the schedule gives the SMs unequal main loops"
                                 : "; the measured %.1f%% above is more: the rest is in what the units' flops do not "
                                   "count (epilogues, split-K partial sums) or in equal work running at different speeds",
                          100 * m);
        gs_buf_printf(b, ".\n\n");
    }
}

/* Between main loops: shown when warps run two or more units (persistent kernels). */
static void between_main_loops(gs_buf *b, const gs_rundata *r)
{
    const gs_boundaries *x = &r->bnd;
    if (!x->n)
        return;
    gs_buf_printf(b, "\n### Between main loops\n\n%zu times a warp ended one unit's MAINLOOP and later began the "
                     "next one's (%zu warps). The gap, and what the earlier unit's phases take of it (means per gap; "
                     "the rest: waiting for the next unit's first data, the stamps' own stores):\n\n"
                     "| gap p50 us | gap p90 us | gap mean us | ACC_TO_REG us | EPILOGUE us | STORE us | rest us |\n"
                     "|---:|---:|---:|---:|---:|---:|---:|\n|",
                  x->n, x->warps);
    us(b, x->gap_p50_ns);
    us(b, x->gap_p90_ns);
    us(b, x->gap_mean_ns);
    us(b, x->acc_mean_ns);
    us(b, x->epi_mean_ns);
    us(b, x->store_mean_ns);
    us(b, x->other_mean_ns);
    gs_buf_printf(b, "\n");
}

/* The run's timing under a benchmark harness of its subject's (harness.*: inputs back to back),
 * where it has one: runs recorded before it have none. */
static void harness_row(const gs_rundata *r, gs_buf *b)
{
    if (!gs_meta_get(&r->meta, "harness.time_ms")) {
        if (gs_meta_get(&r->meta, "harness.skipped"))
            gs_buf_printf(b, "| harness timing | skipped: %s |\n", gs_rundata_str(r, "harness.skipped"));
        return;
    }
    const double hp = gs_meta_num(&r->meta, "harness.time_ms", NAN);
    gs_buf_printf(b, "| harness timing (%s) | %.4f ms per launch", gs_rundata_str(r, "harness.what"), hp);
    if (gs_meta_get(&r->meta, "harness.cublas.time_ms")) {
        const double hc = gs_meta_num(&r->meta, "harness.cublas.time_ms", NAN);
        gs_buf_printf(b, "; cuBLAS %.4f ms", hc);
        if (gs_meta_get(&r->meta, "harness.cublas.route"))
            gs_buf_printf(b, " (route %s)", gs_rundata_str(r, "harness.cublas.route"));
        gs_buf_printf(b, ": cuBLAS time / ours = %.2f", hc / hp);
    }
    gs_buf_printf(b, "; outputs %s |\n",
                  gs_meta_num(&r->meta, "harness.correct", -1) == 1   ? "correct"
                  : gs_meta_num(&r->meta, "harness.correct", -1) == 0 ? "**NOT all correct**"
                                                                        : "not checked");
}

int gs_report_write(const gs_rundata *r, const char *path, const char *plots_note, char *err, size_t errlen)
{
    gs_buf b = {0};
    const gs_timeline *tl = &r->tl;
    const gs_phases *ph = &r->phases;

    gs_buf_printf(&b, "# gemmscope: %s / %s\n\n", gs_rundata_str(r, "shape"), gs_rundata_str(r, "variant"));
    /* one line of speed: against the ceiling and the anchor where the run has them, then the
     * resources and memory figures the seeds quote (gs_seed_line), each figure once */
    char seed[512];
    const int has_seed = gs_seed_line(r, seed, sizeof seed) == 0;
    const char *hw = has_seed ? strchr(seed, ',') : NULL; /* the seed line past its time and TFLOPS */
    if (r->perf.valid)
        gs_buf_printf(&b, "%.4f ms / %.1f TFLOPS, %.1f%% of the measured tensor ceiling, x%.2f vs cuBLAS; %s%s%s\n\n",
                      r->time_ms, r->perf.tflops, 100 * r->perf.ceiling_fraction, r->perf.cublas_ratio,
                      r->perf.correct == 1 ? "output correct" : "**output NOT verified correct**", hw ? ";" : ".",
                      hw ? hw + 1 : "");
    else if (has_seed)
        gs_buf_printf(&b, "%s\n\n", seed);
    gs_buf_printf(&b, "**%s on %s: %.4f ms (twin %.4f ms, ", gs_rundata_str(r, "subject"), gs_rundata_str(r, "gpu"),
                  r->time_ms, r->twin_ms);
    if (isnan(r->overhead_ratio))
        gs_buf_printf(&b, "timed another way: no overhead);");
    else
        gs_buf_printf(&b, "overhead x%.3f);", r->overhead_ratio);
    int first = 1;
    for (int p = 0; p < GS_NUM_PHASES; p++)
        if (gs_phase_is_pipeline(p) && ph->ph[p].instances) {
            gs_buf_printf(&b, "%s %s %.1f%%", first ? "" : ",", gs_rundata_phase(r, p), 100 * ph->ph[p].busy_share);
            first = 0;
        }
    /* an importer whose source keeps no count says so (meta stamps.dropped) */
    const char *dropped_note = gs_meta_get(&r->meta, "stamps.dropped");
    if (dropped_note)
        gs_buf_printf(&b, "%s; dropped records not counted.**\n\n", first ? " no pipeline phases recorded" : " of CTA time");
    else
        gs_buf_printf(&b, "%s; %llu records dropped.**\n\n", first ? " no pipeline phases recorded" : " of CTA time",
                      (unsigned long long)tl->dropped);
    if (tl->dropped || tl->warps_unfinished)
        gs_buf_printf(&b,
                      "> **WARNING: incomplete stamps.** %llu records were dropped in %zu warps (each warp's "
                      "buffer held %u records; the kernel declared %s) and %zu warps never reached GS_FINISH. "
                      "Shares below undercount the dropped phases.\n\n",
                      (unsigned long long)tl->dropped, tl->warps_overflowed, r->trace.capacity,
                      gs_rundata_str(r, "stamps.events_per_warp_declared"), tl->warps_unfinished);

    gs_buf_printf(&b, "## Run\n\n| | |\n|---|---|\n");
    gs_buf_printf(&b, "| GPU | %s, %s SMs, CUDA driver %s / runtime %s |\n", gs_rundata_str(r, "gpu"),
                  gs_rundata_str(r, "sm_count"), gs_rundata_str(r, "driver_cuda_version"),
                  gs_rundata_str(r, "runtime_cuda_version"));
    gs_buf_printf(&b, "| CTAs | %u x %u warps on %d SMs |\n", r->trace.ctas, r->trace.warps_per_cta, tl->sms_used);
    gs_buf_printf(&b, "| kernel span (twin, stamps) | %.1f us |\n", tl->span_ns / 1e3);
    const char *tick_source = gs_meta_get(&r->meta, "timer_tick_source");
    gs_buf_printf(&b, "| timer tick | %.0f ns%s%s |\n", r->trace.timer_tick_ns, tick_source ? "; " : "",
                  tick_source ? tick_source : "");
    if (r->clock_converted) {
        /* no clock model: the stamps arrived in ns, converted by the clock the importer names */
        if (isnan(tl->clock_ghz))
            gs_buf_printf(&b, "| SM clock | not given |\n");
        else if (isnan(tl->clock_ghz_lo) || isnan(tl->clock_ghz_hi))
            gs_buf_printf(&b, "| SM clock | %.3f GHz |\n", tl->clock_ghz);
        else
            gs_buf_printf(&b, "| SM clock | %.3f GHz median; %.3f to %.3f GHz over CTAs |\n", tl->clock_ghz,
                          tl->clock_ghz_lo, tl->clock_ghz_hi);
        gs_buf_printf(&b, "| clock model | none: %s |\n", gs_rundata_str(r, "clock.converted"));
        gs_buf_printf(&b, "| clock model held-out error | not applicable (no clock model); placement error unknown |\n");
    } else if (isnan(tl->clock_ghz_lo))
        gs_buf_printf(&b, "| SM clock (fitted) | %.3f GHz mean |\n", tl->clock_ghz);
    else
        gs_buf_printf(&b, "| SM clock (fitted) | %.3f GHz mean; %.3f to %.3f GHz over 1 us or more between knots |\n",
                      tl->clock_ghz, tl->clock_ghz_lo, tl->clock_ghz_hi);
    if (r->clock_converted)
        ;
    else if (tl->clock_pairs)
        gs_buf_printf(&b,
                      "| clock model | piecewise linear, knots a median %.0f ns apart; %d clock-sampler pairs, each "
                      "bracketed by clock reads at most %u cycles apart |\n",
                      tl->knot_gap_ns, tl->clock_pairs, tl->clock_bracket_max);
    else
        gs_buf_printf(&b, "| clock model | piecewise linear, knots a median %.0f ns apart; the warps' own pairs "
                          "only (no clock sampler) |\n",
                      tl->knot_gap_ns);
    if (r->clock_converted)
        ;
    else if (isnan(tl->heldout_max_ns))
        gs_buf_printf(&b, "| clock model held-out error | no interior knot to check with |\n");
    else
        gs_buf_printf(&b, "| clock model held-out error | %.1f ns (worst of %d knots, each predicted from its two "
                          "neighbours): how far across SMs a record may be misplaced (tail, balance, timeline) |\n",
                      tl->heldout_max_ns, tl->heldout_knots);
    if (!r->clock_converted)
        gs_buf_printf(&b, "| clock-pair residual | %.1f ns (worst pair against the model) |\n", tl->resid_max_ns);
    if (dropped_note)
        gs_buf_printf(&b, "| records | %zu kept; dropped: %s |\n", tl->n_events, dropped_note);
    else
        gs_buf_printf(&b, "| records | %zu kept, %llu dropped |\n", tl->n_events, (unsigned long long)tl->dropped);
    /* what an importer says of its source, and what the run lacks */
    for (int i = 0; i < r->meta.n; i++)
        if (!strncmp(r->meta.kv[i].key, "import.", 7))
            gs_buf_printf(&b, "| %s | %s |\n", r->meta.kv[i].key + 7, r->meta.kv[i].val);
    if (gs_meta_get(&r->meta, "missing"))
        gs_buf_printf(&b, "| not in this run | %s |\n", gs_rundata_str(r, "missing"));
    gs_buf_printf(&b, "| recorded | %s, commit %s |\n", gs_rundata_str(r, "date"), gs_rundata_str(r, "git_commit"));
    gs_buf_printf(&b, "| command | `%s` |\n\n", gs_rundata_str(r, "command"));

    const char *psrc = gs_meta_get(&r->meta, "timing.production_source"), *tsrc = gs_meta_get(&r->meta, "timing.twin_source");
    if (psrc || tsrc)
        gs_buf_printf(&b, "## Time\n\nMedians of %d repetitions. Production: %s. Twin: %s.\n\n", r->reps,
                      psrc ? psrc : "the toolkit's timing", tsrc ? tsrc : "the toolkit's timing");
    else
        gs_buf_printf(&b, "## Time\n\nMedian of %d repetitions after %s warm-up launches, L2 flushed between "
                          "repetitions (%.0f MB written), CUDA events.\n\n",
                      r->reps, gs_rundata_str(r, "timing.warmup"), gs_meta_num(&r->meta, "timing.l2_flush_bytes", 0) / 1e6);
    gs_buf_printf(&b, "| build | median ms | min ms | max ms |\n|---|---:|---:|---:|\n");
    gs_buf_printf(&b, "| production | %.4f | %.4f | %.4f |\n", r->time_ms, r->time_min_ms, r->time_max_ms);
    gs_buf_printf(&b, "| twin | %.4f | %.4f | %.4f |\n", r->twin_ms, r->twin_min_ms, r->twin_max_ms);
    const int det = gs_timings_find(&r->tim, "detail");
    if (det >= 0)
        gs_buf_printf(&b, "| detail twin | %.4f | %.4f | %.4f |\n", gs_timings_median(&r->tim, det),
                      gs_timings_min(&r->tim, det), gs_timings_max(&r->tim, det));
    if (isnan(r->overhead_ratio))
        gs_buf_printf(&b, "\nTwin overhead: none given; the two rows were timed differently (production: %s; twin: %s), "
                          "so their ratio is not the instrumentation's cost.",
                      gs_rundata_str(r, "timing.production_method"), gs_rundata_str(r, "timing.twin_method"));
    else
        gs_buf_printf(&b, "\nTwin overhead: x%.4f (twin median / production median).", r->overhead_ratio);
    const char *build = gs_meta_get(&r->meta, "stamps.build");
    if (r->has_detail && det >= 0)
        gs_buf_printf(&b, " The phases, SM time, exposed shares, bounds and balance below come from the twin's stamps; "
                          "only the main loop's sub-phases come from the detail twin's, a launch of their own, "
                          "which costs x%.4f: their durations are stretched by about that much.",
                      gs_timings_median(&r->tim, det) / r->time_ms);
    else if (det >= 0 && build && !strcmp(build, "detail"))
        gs_buf_printf(&b, " The stamps below come from the detail twin (per-stage sub-phases), which costs "
                          "x%.4f: its phase durations are stretched by about that much.",
                      gs_timings_median(&r->tim, det) / r->time_ms);
    gs_buf_printf(&b, "\n\n");

    const gs_perf *pf = &r->perf;
    if (pf->valid) {
        gs_buf_printf(&b, "## Speed and roofline\n\nMeasured in the same process: tensor ceiling %s: %.1f TFLOP/s; "
                          "copy ceiling %s: %.0f GB/s.\n\n",
                      gs_rundata_str(r, "ceiling.gemm"), pf->ceiling_tflops, gs_rundata_str(r, "ceiling.copy"),
                      pf->ceiling_gbps);
        gs_buf_printf(&b, "| | |\n|---|---|\n");
        gs_buf_printf(&b, "| output | %s (%s distribution, %s elements checked in each build) |\n",
                      pf->correct == 1 ? "correct" : pf->correct == 0 ? "**WRONG**" : "not checked",
                      gs_rundata_str(r, "dist"), gs_rundata_str(r, "check.production.elements"));
        gs_buf_printf(&b, "| time | %.4f ms, %.1f TFLOP/s |\n", r->time_ms, pf->tflops);
        gs_buf_printf(&b, "| fraction of the tensor ceiling | %.1f%% |\n", 100 * pf->ceiling_fraction);
        gs_buf_printf(&b, "| minimum bytes moved | %.1f MB: %.0f GB/s, %.1f%% of the copy ceiling |\n", pf->bytes / 1e6,
                      pf->gbps, 100 * pf->bandwidth_fraction);
        gs_buf_printf(&b, "| floor (max of flops / tensor ceiling, bytes / copy ceiling) | %.4f ms: this run takes "
                          "x%.2f of it |\n",
                      pf->floor_ms, r->time_ms / pf->floor_ms);
        gs_buf_printf(&b, "| cuBLAS (%s, %s) | %.4f ms: cuBLAS time / ours = %.2f |\n", gs_rundata_str(r, "cublas.what"),
                      gs_rundata_str(r, "cublas.method"), pf->cublas_ms, pf->cublas_ratio);
        harness_row(r, &b);
        gs_buf_printf(&b, "| padding waste | %.1f%% of computed flops are padding (%s) |\n", 100 * pf->padding,
                      gs_rundata_str(r, "padding.what"));
        gs_buf_printf(&b, "| roofline | intensity %.0f flop/B, ridge %.0f flop/B: **%s** (%.0f%% of the tensor roof, "
                          "%.0f%% of the memory roof) |\n\n",
                      pf->intensity, pf->ridge, gs_bound_name(pf->bound), 100 * pf->ceiling_fraction,
                      100 * pf->bandwidth_fraction);
    }

    gs_buf_printf(&b, "## Phases\n\nBusy share: for each CTA, the union of the phase's intervals over its warps, "
                      "summed over CTAs, over the summed CTA spans (%zu CTAs, %.1f us of CTA time). Per-CTA "
                      "columns: that union per CTA; per-instance columns: one record each.%s\n\n",
                  ph->ctas_counted, ph->cta_time_ns / 1e3,
                  r->has_detail ? " From the twin's stamps; the indented sub-phases from the detail twin's (their "
                                  "shares of its own CTA time)." : "");
    gs_buf_printf(&b, "| phase | busy share | per CTA p50 us | p90 us | max us | instances | per instance p50 us "
                      "| max us |\n|---|---:|---:|---:|---:|---:|---:|---:|\n");
    for (int p = 0; p < GS_NUM_PHASES; p++) {
        const gs_phase_stats *s = &ph->ph[p];
        if (!s->instances)
            continue;
        gs_buf_printf(&b, "|");
        phase_cells(&b, r, p, s);
    }

    int subs = 0;
    for (int p = 0; p < GS_NUM_PHASES; p++)
        subs += gs_phase_is_sub(&r->names, p) && ph->ph[p].instances;
    if (subs)
        gs_buf_printf(&b, "\nIndented rows are sub-phases: each nests inside the phase it belongs to (meta.txt "
                          "`phase.<id>.within`), and sub-phases may overlap one another (an MMA in flight while the "
                          "next stage loads), so their shares do not add up to their phase's.\n");
    roles_table(&b, r);
    per_group_table(&b, r);
    widths_table(&b, r);
    between_main_loops(&b, r);

    const gs_smtime *t = &r->smt;
    gs_buf_printf(&b, "\n## Where SM time goes\n\nSM-time = %d SMs x %.1f us span. Each SM's timeline is split into: main "
                      "loop active; each other phase while no main loop runs on that SM (exposed; overlaps go to the "
                      "first of STORE, EPILOGUE, ACC_TO_REG, ...); a CTA resident in no phase; no CTA resident "
                      "(idle).\n\n",
                  t->sms, t->span_ns / 1e3);
    gs_buf_printf(&b, "| category | share of SM-time |\n|---|---:|\n");
    for (int c = 0; c < GS_SMT_CATEGORIES; c++)
        if (t->share[c] > 0 || c >= GS_SMT_RESIDENT)
            gs_buf_printf(&b, "| %s | %.2f%% |\n", gs_smt_category(&r->names, c), 100 * t->share[c]);
    gs_buf_printf(&b, "\n| phase | busy (CTA time) | exposed (SM-time) | Amdahl bound: making it free saves at most |\n"
                      "|---|---:|---:|---:|\n");
    for (int p = 0; p < GS_NUM_PHASES; p++)
        if (p != GS_MAINLOOP && ph->ph[p].instances)
            gs_buf_printf(&b, "| %s | %.2f%% | %.2f%% | %.2f%% of kernel time |\n", gs_rundata_phase(r, p),
                          100 * ph->ph[p].busy_share, 100 * t->exposed_share[p], 100 * t->amdahl_bound[p]);
    /* the figures the clock model's placement can move, with that error beside them */
    const double clock_err_us = gs_clock_error_ns(&r->tl) / 1e3;
    char pm[64];
    if (isnan(clock_err_us))
        snprintf(pm, sizeof pm, "+- unknown");
    else
        snprintf(pm, sizeof pm, "+- %.2f", clock_err_us);
    gs_buf_printf(&b, "\nWaves: %.2f (%u CTAs, %d SMs, up to %d resident per SM); CTAs per SM %d..%d; tail %.1f us "
                      "%s (%.1f%% of the span); CTA duration spread per SM (max/median) %.3f worst, %.3f median.\n\n",
                  t->waves, r->tl.ctas, t->sms, t->resident_per_sm, t->ctas_per_sm_min, t->ctas_per_sm_max,
                  t->tail_ns / 1e3, pm, 100 * t->tail_share, t->spread_worst, t->spread_median);
    if (t->end_max_ns > 0)
        gs_buf_printf(&b, "Balance: SMs run out of work between %.1f and %.1f us (median %.1f us; each %s us, the "
                          "clock model's placement); the same work spread evenly over the %d SMs would end at their "
                          "mean, at most %.1f%% sooner.\n\n",
                      t->end_min_ns / 1e3, t->end_max_ns / 1e3, t->end_median_ns / 1e3, pm, t->sms,
                      100 * t->balance_bound);
    workload_text(&b, r);
    gs_verdicts vd;
    gs_verdicts_compute(r, &vd);
    if (vd.n) {
        gs_buf_printf(&b, "Verdicts:\n\n");
        for (int i = 0; i < vd.n; i++)
            gs_buf_printf(&b, "- %s\n", vd.text[i]);
    }

    gs_hwmetrics_markdown(r, &b);
    gs_stalls_markdown(r, &b);
    gs_twin_stalls_markdown(r, &b);

    gs_checklist cl;
    gs_checks_run(r, &cl);
    if (cl.n == 0)
        gs_buf_printf(&b, "\n## Checks\n\nNone applies: the run declares no known answer, and its source counts "
                          "no dropped records and fits no clock model.\n");
    else
        gs_buf_printf(&b, "\n## Checks\n\n| check | expected | measured | |\n|---|---|---|---|\n");
    for (int i = 0; i < cl.n; i++)
        gs_buf_printf(&b, "| %s | %s | %s | %s |\n", cl.row[i].name, cl.row[i].expected, cl.row[i].measured,
                      cl.row[i].pass ? "pass" : "**FAIL**");

    gs_buf_printf(&b, "\n## Plots\n\n");
    if (plots_note)
        gs_buf_printf(&b, "%s\n\n", plots_note);
    for (int i = 0; gs_plot_names[i]; i++)
        gs_buf_printf(&b, "![%s](plots/%s.png)\n\n", gs_plot_names[i], gs_plot_names[i]);
    if (gs_plots_have_kblocks(r))
        gs_buf_printf(&b, "![kblocks](plots/kblocks.png)\n\n");
    gs_buf_printf(&b, "Data and gnuplot scripts: `plots/*.dat`, `plots/*.gp`; machine-readable figures: "
                      "`summary.json`.\n");
    int rc = gs_buf_write(&b, path, err, errlen);
    gs_buf_free(&b);
    return rc;
}
