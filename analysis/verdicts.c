#include "verdicts.h"
#include "names.h"

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
        if (p == GS_MAINLOOP || !ph->ph[p].instances || p == GS_LOAD_WAIT || p == GS_DEQUANT || p == GS_MMA)
            continue;
        double busy = ph->ph[p].busy_share, exp = t->exposed_share[p];
        if (exp < GS_SHADOW_EXPOSED && busy > GS_SHADOW_BUSY)
            say(out, "K-loop bound for %s: it completes in the main loop's shadow (busy %.1f%% of CTA time, exposed "
                     "%.2f%% of SM-time); speeding it up cannot gain more than %.2f%%.",
                gs_phase_name(p), 100 * busy, 100 * exp, 100 * t->amdahl_bound[p]);
        else if (exp >= GS_EXPOSED_LARGE)
            say(out, "%s is exposed: %.1f%% of SM-time runs it with no main loop on the SM; making it free saves at "
                     "most %.1f%% of kernel time.",
                gs_phase_name(p), 100 * exp, 100 * t->amdahl_bound[p]);
    }
    /* what the main loop spends its time on, when it says */
    int subs[] = {GS_LOAD_WAIT, GS_DEQUANT, GS_MMA}, top = -1;
    for (int i = 0; i < 3; i++) {
        if (ph->ph[subs[i]].instances && (top < 0 || ph->ph[subs[i]].busy_share > ph->ph[top].busy_share))
            top = subs[i];
    }
    if (top >= 0 && has_main && ph->ph[top].busy_share > 0.5 * ph->ph[GS_MAINLOOP].busy_share)
        say(out, "The main loop is dominated by %s: %.0f%% of CTA time (LOAD_WAIT %.0f%%, DEQUANT %.0f%%, MMA %.0f%%).",
            gs_phase_name(top), 100 * ph->ph[top].busy_share, 100 * ph->ph[GS_LOAD_WAIT].busy_share,
            100 * ph->ph[GS_DEQUANT].busy_share, 100 * ph->ph[GS_MMA].busy_share);
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
    if (t->waves >= 1.0 && t->balance_bound >= GS_BALANCE_BOUND)
        say(out, "Unbalanced: SMs run out of work between %.1f and %.1f us; spread evenly, the same work would end "
                 "%.1f%% sooner at most.",
            t->end_min_ns / 1e3, t->end_max_ns / 1e3, 100 * t->balance_bound);
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
            say(out, "Padding: %.0f%% of the computed flops are tile padding (rows past each group's M).",
                100 * pf->padding);
    }
    if (t->tail_share >= GS_TAIL_BOUND)
        say(out, "Tail-bound: the first SM runs out of work %.1f us before the end (%.0f%% of the span).",
            t->tail_ns / 1e3, 100 * t->tail_share);
}
