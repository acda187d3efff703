#include "checks.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void add(gs_checklist *l, int pass, const char *name, const char *exp, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static void add(gs_checklist *l, int pass, const char *name, const char *exp, const char *fmt, ...)
{
    if (l->n >= (int)(sizeof l->row / sizeof l->row[0]))
        return;
    gs_check_row *r = &l->row[l->n++];
    snprintf(r->name, sizeof r->name, "%s", name);
    snprintf(r->expected, sizeof r->expected, "%s", exp);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->measured, sizeof r->measured, fmt, ap);
    va_end(ap);
    r->pass = pass;
}

int gs_release_compute(const gs_rundata *r, gs_release_stats *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    const char *seen_name = gs_meta_get(&r->meta, "expect.release.seen");
    const char *poll_name = gs_meta_get(&r->meta, "expect.release.polling");
    if (!seen_name && !poll_name)
        return 0;
    const int seen = seen_name ? gs_phase_find(&r->names, seen_name) : -1;
    const int polling = poll_name ? gs_phase_find(&r->names, poll_name) : -1;
    if (seen < 0 || polling < 0) {
        snprintf(err, errlen, "the run names no phase %s", seen < 0 ? (seen_name ? seen_name : "(seen: missing)")
                                                                    : (poll_name ? poll_name : "(polling: missing)"));
        return -1;
    }
    const gs_timeline *tl = &r->tl;
    double lo = INFINITY, hi = -INFINITY;
    double *poll = malloc((tl->n_events ? tl->n_events : 1) * sizeof(double));
    if (!poll) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < tl->n_events; i++) {
        const gs_event *e = &tl->ev[i];
        if (e->phase == polling && e->group > 0) { /* the group tag carries the poll count */
            double period = (e->t1 - e->t0) / e->group;
            out->period_max_ns = period > out->period_max_ns ? period : out->period_max_ns;
            continue;
        }
        if (e->phase != seen)
            continue;
        lo = e->t1 < lo ? e->t1 : lo;
        hi = e->t1 > hi ? e->t1 : hi;
        poll[out->ctas++] = e->t1 - e->t0;
    }
    if (out->ctas == 0) {
        free(poll);
        snprintf(err, errlen, "no %s records", seen_name);
        return -1;
    }
    out->spread_ns = hi - lo;
    out->poll_max_ns = gs_quantile(poll, out->ctas, 1.0);
    out->poll_median_ns = gs_quantile(poll, out->ctas, 0.5);
    free(poll);
    return 1;
}

double gs_clock_error_ns(const gs_timeline *tl)
{
    return isnan(tl->heldout_max_ns) ? tl->resid_max_ns : tl->heldout_max_ns;
}

int gs_probes_check(const gs_rundata *r, gs_probe_stats *out)
{
    memset(out, 0, sizeof *out);
    out->worst_excess_ns = -INFINITY;
    const gs_timeline *tl = &r->tl;
    if (!r->probes.n)
        return -1;
    const double claimed = gs_clock_error_ns(tl), tick = r->trace.timer_tick_ns;
    for (size_t i = 0; i < r->probes.n; i++) {
        const gs_probe *p = &r->probes.p[i];
        if (p->cta >= tl->ctas || tl->cta_sm[p->cta] >= tl->n_sm || p->gt < tl->gt_origin)
            continue;
        const int sm = tl->cta_sm[p->cta];
        const double mid = (double)p->clk_before + (double)(p->clk_after - p->clk_before) / 2;
        const double placed = gs_timeline_ns(tl, sm, (uint64_t)mid);
        const double timer = (double)(p->gt - tl->gt_origin) + tick / 2; /* the read: within a tick of its value */
        const double half_bracket = (double)(p->clk_after - p->clk_before) / 2 / (tl->clock_ghz > 0 ? tl->clock_ghz : 1);
        const double e = fabs(placed - timer), excess = e - (claimed + tick / 2 + half_bracket);
        out->probes++;
        out->worst_ns = e > out->worst_ns ? e : out->worst_ns;
        out->worst_excess_ns = excess > out->worst_excess_ns ? excess : out->worst_excess_ns;
        out->outside += excess > 0;
    }
    return out->probes ? 0 : -1;
}

/* The clock model's checks: placement within the bound the analyses need, the run's declared
 * known answer, and the probes it never saw. */
static void clock_checks(const gs_rundata *r, const char *subject, gs_checklist *out)
{
    char name[64], exp[64];
    /* the bound the analyses need: placement within a percent of the span (checks.h) */
    const double err_ns = gs_clock_error_ns(&r->tl), bound = GS_PLACEMENT_SHARE * r->tl.span_ns;
    const int held = !isnan(r->tl.heldout_max_ns);
    snprintf(name, sizeof name, "%s: clock model placement", subject);
    snprintf(exp, sizeof exp, "<= %.0f ns (%.0f%% of the span)", bound, 100 * GS_PLACEMENT_SHARE);
    add(out, err_ns <= bound, name, exp, held ? "%.1f ns held out, worst of %d knots on %d SMs" : "%.1f ns to the line",
        err_ns, r->tl.heldout_knots, r->tl.heldout_sms);
    /* a known answer where the run declares one: the calibration kernels, whose SM clock does
     * not move under them, place every knot within timer ticks */
    const double ticks = gs_meta_num(&r->meta, "expect.clock_heldout_ticks", NAN);
    if (!isnan(ticks)) {
        const double tick = r->trace.timer_tick_ns;
        snprintf(name, sizeof name, held ? "%s: clock model held-out error" : "%s: clock pairs to their line",
                 subject);
        snprintf(exp, sizeof exp, "<= %.0f ns (%g tick%s)", ticks * tick, ticks, ticks == 1 ? "" : "s");
        add(out, err_ns <= ticks * tick, name, exp, "%.1f ns", err_ns);
    }

    /* where the run carries clock probes, the claimed error is itself checked */
    gs_probe_stats ps;
    if (r->probes.n) {
        snprintf(name, sizeof name, "%s: clock model against probes", subject);
        if (gs_probes_check(r, &ps) == 0)
            add(out, ps.outside == 0, name, "each within its allowance", "worst %.1f ns, %zu of %zu beyond",
                ps.worst_ns, ps.outside, ps.probes);
        else
            add(out, 0, name, "each within its allowance", "no probe lies in the timeline");
    }
}

void gs_checks_run(const gs_rundata *r, gs_checklist *out)
{
    char name[64], exp[64];
    memset(out, 0, sizeof *out);
    const char *subject = gs_rundata_str(r, "subject");

    for (int p = 0; p < GS_NUM_PHASES; p++) {
        char key[64];
        snprintf(key, sizeof key, "expect.%s", gs_rundata_phase(r, p));
        double e = gs_meta_num(&r->meta, key, NAN);
        if (isnan(e))
            continue;
        double m = r->phases.ph[p].busy_share;
        snprintf(name, sizeof name, "%s: %s share", subject, gs_rundata_phase(r, p));
        snprintf(exp, sizeof exp, "%.2f%% +- %.0f", 100 * e, 100 * GS_SHARE_TOLERANCE);
        add(out, fabs(m - e) <= GS_SHARE_TOLERANCE, name, exp, "%.2f%%", 100 * m);
    }

    /* a run whose stamps an importer converted to ns has no clock model to check */
    if (!r->clock_converted)
        clock_checks(r, subject, out);

    /* completeness is checkable only where the source counts its dropped records */
    if (!gs_meta_get(&r->meta, "stamps.dropped")) {
        snprintf(name, sizeof name, "%s: stamps complete", subject);
        add(out, r->tl.dropped == 0 && r->tl.warps_unfinished == 0, name, "0 dropped, 0 unfinished",
            "%llu dropped, %zu unfinished", (unsigned long long)r->tl.dropped, r->tl.warps_unfinished);
    }

    /* where the run names its warps' roles: they must be the warps that recorded */
    if (r->roles.n && r->roles.computed) {
        int silent = 0;
        for (int i = 0; i < r->roles.n; i++)
            silent += r->roles.role[i].warps_recording == 0;
        snprintf(name, sizeof name, "%s: warp roles", subject);
        add(out, r->roles.warps_outside == 0 && silent == 0, name, "every recording warp in a role, each role recorded",
            "%zu warps outside, %d of %d roles silent", r->roles.warps_outside, silent, r->roles.n);
    }

    gs_release_stats rs;
    char why[128];
    const int rel = gs_release_compute(r, &rs, why, sizeof why);
    snprintf(name, sizeof name, "%s: release spread", subject);
    if (rel < 0) {
        add(out, 0, name, "the run's release records", "%s", why);
    } else if (rel > 0) {
        /* a CTA sees the flag within one poll period of its release: the longest measured
         * period bounds the spread (the last poll's latency where the run has no records of
         * all the polls, as the release sample recorded before they were stamped) */
        const double bound = rs.period_max_ns > 0 ? rs.period_max_ns : rs.poll_max_ns;
        snprintf(exp, sizeof exp, "<= %.0f ns (1 poll%s)", bound, rs.period_max_ns > 0 ? " period" : "");
        add(out, rs.spread_ns <= bound && rs.ctas == r->tl.ctas, name, exp, "%.1f ns over %zu CTAs", rs.spread_ns,
            rs.ctas);
    }
}
