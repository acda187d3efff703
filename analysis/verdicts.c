#include "verdicts.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void say(gs_verdicts *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void say(gs_verdicts *v, const char *fmt, ...)
{
    if (v->n >= GS_MAX_VERDICTS)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v->text[v->n++], sizeof v->text[0], fmt, ap);
    va_end(ap);
}

void gs_verdicts_compute(const gs_rundata *r, gs_verdicts *out)
{
    memset(out, 0, sizeof *out);
    const gs_smtime *t = &r->smt;
    const gs_phases *ph = &r->phases;
    if (t->sm_time_ns <= 0)
        return;
    int has_main = ph->ph[GS_MAINLOOP].instances > 0;
    for (int p = 0; p < GS_NUM_PHASES && has_main; p++) {
        if (p == GS_MAINLOOP || !ph->ph[p].instances || r->names.p[p].within == GS_MAINLOOP)
            continue;
        double busy = ph->ph[p].busy_share, exp = t->exposed_share[p];
        if (exp < GS_SHADOW_EXPOSED && busy > GS_SHADOW_BUSY)
            say(out, "K-loop bound for %s: it completes in the main loop's shadow (busy %.1f%% of CTA time, exposed "
                     "%.2f%% of SM-time); speeding it up cannot gain more than %.2f%%.",
                gs_rundata_phase(r, p), 100 * busy, 100 * exp, 100 * t->amdahl_bound[p]);
        else if (exp >= GS_EXPOSED_LARGE)
            say(out, "%s is exposed: %.1f%% of SM-time runs it with no main loop on the SM; making it free saves at "
                     "most %.1f%% of kernel time.",
                gs_rundata_phase(r, p), 100 * exp, 100 * t->amdahl_bound[p]);
    }
    /* an exposed phase whose warps mostly wait for their next instruction: straight-line code
     * run once per tile is fetched cold, and its length, not its arithmetic, is its cost */
    const gs_stalls *st = &r->stalls;
    const int ni = st->present && st->total > 0 ? gs_stalls_reason_index(st, "no_instructions") : -1;
    for (int p = 0; p < GS_NUM_PHASES && ni >= 0; p++) {
        const double n = st->phase_total[p];
        if (p == GS_MAINLOOP || t->exposed_share[p] < GS_EXPOSED_LARGE || n < GS_FETCH_MIN * st->total ||
            st->by[p][ni] < GS_FETCH_SHARE * n)
            continue;
        say(out, "%s waits on instruction fetch: no_instructions is %.0f%% of its PC samples (production build). "
                 "Code run once per tile is fetched cold: fewer instructions there help, faster ones do not.",
            gs_rundata_phase(r, p), 100 * st->by[p][ni] / n);
    }
    /* what the main loop spends its time on, when its sub-phases say */
    int subs[GS_NUM_PHASES], top = -1;
    const int ns = gs_phase_main_subs(&r->names, subs);
    for (int i = 0; i < ns; i++)
        if (ph->ph[subs[i]].instances && (top < 0 || ph->ph[subs[i]].busy_share > ph->ph[top].busy_share))
            top = subs[i];
    if (top >= 0 && has_main && ph->ph[top].busy_share > 0.5 * ph->ph[GS_MAINLOOP].busy_share) {
        char list[256] = "";
        size_t used = 0;
        for (int i = 0; i < ns; i++)
            if (ph->ph[subs[i]].instances && used < sizeof list) {
                int k = snprintf(list + used, sizeof list - used, "%s%s %.0f%%", used ? ", " : "",
                                 gs_rundata_phase(r, subs[i]), 100 * ph->ph[subs[i]].busy_share);
                used += k > 0 ? (size_t)k : 0;
            }
        say(out, "The main loop is dominated by %s: %.0f%% of CTA time (%s).", gs_rundata_phase(r, top),
            100 * ph->ph[top].busy_share, list);
    }
    if (t->waves > 0 && t->waves < 1.0)
        say(out, "Under one wave: %u CTAs fill %.0f%% of the %d SMs x %d resident slots; %.1f%% of SM-time is idle.",
            r->tl.ctas, 100 * t->waves, t->sms, t->resident_per_sm, 100 * t->share[GS_SMT_IDLE]);
    else if (t->waves > 1.0) {
        double frac = t->waves - floor(t->waves);
        if (frac > 1e-9 && frac <= GS_WAVE_FILL)
            say(out, "Wave-quantised: %.2f waves, the last one %.0f%% full; %.1f%% of SM-time is idle.", t->waves,
                100 * frac, 100 * t->share[GS_SMT_IDLE]);
    }
    /* under one wave the idle SMs say it already */
    if (t->waves >= 1.0 && t->balance_bound >= GS_BALANCE_BOUND) {
        char plan[96] = "";
        unsigned slots = 0;
        const double pb = gs_rundata_planned_bound(r, &slots);
        if (!isnan(pb))
            snprintf(plan, sizeof plan, " The schedule's main loops alone: %.1f%%%s.", 100 * pb,
                     pb >= t->balance_bound - GS_PLAN_MARGIN ? " (the imbalance is planned)" : "");
        say(out, "Unbalanced: SMs run out of work between %.1f and %.1f us; spread evenly, the same work would end "
                 "%.1f%% sooner at most.%s",
            t->end_min_ns / 1e3, t->end_max_ns / 1e3, 100 * t->balance_bound, plan);
    }
    const gs_perf *pf = &r->perf;
    if (pf->valid) {
        if (pf->bound == GS_BOUND_LATENCY)
            say(out, "Under neither roof: %.0f%% of the measured tensor ceiling and %.0f%% of the copy ceiling; "
                     "x%.1f off the floor of %.4f ms. Time goes to latency, issue or occupancy, not to a saturated unit.",
                100 * pf->ceiling_fraction, 100 * pf->bandwidth_fraction, r->time_ms / pf->floor_ms, pf->floor_ms);
        else
            say(out, "%s: %.0f%% of the measured tensor ceiling, %.0f%% of the copy ceiling.", gs_bound_name(pf->bound),
                100 * pf->ceiling_fraction, 100 * pf->bandwidth_fraction);
        if (pf->padding > 0.10)
            say(out, "Padding: %.0f%% of the computed flops are tile padding (%s).", 100 * pf->padding,
                gs_rundata_str(r, "padding.what"));
    }
    /* the main loop as a line (widths.h): a CTA's first unit against its later ones, at the width
     * with the most first units where both starts were fitted; in one wave (each CTA pays its first
     * start once), from enough units of each kind, a positive cost per K block, and a gap the
     * line's own residual does not cover */
    const gs_widths *w = &r->widths;
    const gs_width_row *sw = NULL;
    for (int i = 0; w->ok && i < w->n; i++) {
        const gs_width_row *x = &w->row[i];
        if (!isnan(x->fit_first_ns) && !isnan(x->fit_later_ns) && (!sw || x->first_units > sw->first_units))
            sw = x;
    }
    const double gap = sw ? sw->fit_first_ns - sw->fit_later_ns : NAN;
    if (sw && t->span_ns > 0 && t->waves <= 1.0 && sw->first_units >= GS_START_UNITS &&
        sw->later_units >= GS_START_UNITS && sw->fit_kb_ns > 0 && gap > 2 * sw->fit_resid_p90_ns &&
        gap / t->span_ns >= GS_START_BOUND)
        say(out, "Slow start: a CTA's first unit spends %.1f us more on its main loop than a later one of as many K "
                 "blocks (width %d: starts %.2f and %.2f us), its first loads, what they wait for and its code's "
                 "first fetch: %.1f%% of the %.1f us span at most.",
            gap / 1e3, sw->width, sw->fit_first_ns / 1e3, sw->fit_later_ns / 1e3, 100 * gap / t->span_ns,
            t->span_ns / 1e3);
    /* the main loop above its steady K blocks (widths.h), at the width with the most main-loop
     * time that has the figure: the part of it a cheaper K block leaves as it is */
    const gs_width_row *sr = NULL;
    for (int i = 0; w->ok && i < w->n; i++) {
        const gs_width_row *x = &w->row[i];
        if (isfinite(x->above_steady_share) && (!sr || x->main_share > sr->main_share))
            sr = x;
    }
    if (sr && sr->above_steady_share >= GS_ABOVE_STEADY)
        say(out, "Main loop above its steady K blocks: at width %d a unit's main loop runs %.2f us (%.0f%% of it) "
                 "longer than its K blocks at the steady %.3f us each (%s twin): its first stages and its end, which "
                 "a cheaper K block would not shorten.",
            sr->width, sr->above_steady_ns / 1e3, 100 * sr->above_steady_share, sr->steady_kb_ns / 1e3,
            r->has_detail ? "detail" : "plain");
    if (t->tail_share >= GS_TAIL_BOUND)
        say(out, "Tail-bound: the first SM runs out of work %.1f us before the end (%.0f%% of the span).",
            t->tail_ns / 1e3, 100 * t->tail_share);
}
