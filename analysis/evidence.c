#include "evidence.h"
#include "diff.h"
#include "verdicts.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The value of the proposal's knob in the run's `knobs` line (key=value words), or NULL. */
static const char *knob_value(const gs_rundata *r, const char *knob, char *buf, size_t n)
{
    const char *knobs = gs_meta_get(&r->meta, "knobs");
    const size_t k = strlen(knob);
    for (const char *w = knobs; w && *w && k; w = strchr(w, ' ')) {
        while (*w == ' ')
            w++;
        if (!strncmp(w, knob, k) && w[k] == '=') {
            snprintf(buf, n, "%.*s", (int)strcspn(w + k + 1, " "), w + k + 1);
            return buf;
        }
    }
    return NULL;
}

int gs_evidence_write(const gs_proposal *p, const gs_rundata *r, const gs_ab *ab, int n_ab, gs_buf *o, char *err,
                      size_t errlen)
{
    int k = gs_proposal_decide(r, p, err, errlen);
    if (k < 0)
        return -1;
    const gs_rule *u = &p->rule[k];
    char expr[256], bound_expr[256];
    double bound = gs_expr_eval(r, &p->bound, err, errlen);
    if (isnan(bound))
        return -1;
    double max_speedup = bound < 1 ? 1.0 / (1.0 - bound) : INFINITY;
    double needed = isnan(p->claimed_speedup) ? NAN : 1.0 - 1.0 / p->claimed_speedup;

    gs_buf_printf(o, "# Evidence: %s\n\nProfile: %s / %s on %s (`%s`, recorded %s, commit %s)\n\n", p->title,
                  gs_rundata_str(r, "shape"), gs_rundata_str(r, "variant"), gs_rundata_str(r, "gpu"), r->dir,
                  gs_rundata_str(r, "date"), gs_rundata_str(r, "git_commit"));
    gs_buf_printf(o, "**Decision: %s** — %s (rule %d of `%s`).\n\n", gs_decision_name(u->decision), u->reason, k + 1,
                  p->name);
    /* only a knob with an off value is a switch: a size (tile_t) is never "on" */
    char kv[32];
    const char *on = p->knob_off[0] ? knob_value(r, p->knob, kv, sizeof kv) : NULL;
    if (on && strcmp(on, p->knob_off) != 0)
        gs_buf_printf(o, "> **The profile's point already has the proposal on** (`%s=%s`): the bound below is what is "
                         "left of the proposal's target with it on, not what switching it on would save; profile the "
                         "point without it for that.\n\n",
                      p->knob, on);

    gs_buf_printf(o, "## 1. The claim\n\n| | |\n|---|---|\n| proposal | %s (`%s`) |\n| source | %s |\n"
                     "| targets | %s |\n| claim | %s |\n",
                  p->title, p->name, p->source, p->targets, p->claim);
    if (!isnan(needed))
        gs_buf_printf(o, "| what the claim needs | x%.3f faster = %.1f%% of the kernel's time removed |\n",
                      p->claimed_speedup, 100 * needed);

    gs_expr_format(&p->bound, bound_expr, sizeof bound_expr);
    gs_buf_printf(o, "\n## 2. What the profile allows\n\nThe most this proposal can remove is `%s` = **%.2f%%** of the "
                     "time, so at most **x%.3f** faster.",
                  bound_expr, 100 * bound, max_speedup);
    if (!isnan(needed))
        gs_buf_printf(o, " The claim needs %.1f%%: %s\n\n", 100 * needed,
                      needed > bound ? "**the claim exceeds what the profile allows.**"
                                     : "the claim is within what the profile allows.");
    else
        gs_buf_printf(o, "\n\n");
    gs_buf_printf(o, "| figure | value |\n|---|---:|\n");
    gs_buf_printf(o, "| production time | %.4f ms |\n", r->time_ms);
    for (int i = 0; i < p->bound.n; i++) {
        char e2[128];
        gs_buf_printf(o, "| `%s` | %.2f%% |\n", p->bound.term[i], 100 * gs_metric(r, p->bound.term[i], e2, sizeof e2));
    }
    for (int i = 0; i < p->n_rules; i++)
        for (int t = 0; t < p->rule[i].expr.n; t++) {
            int seen = 0;
            for (int b = 0; b < p->bound.n; b++)
                seen |= !strcmp(p->bound.term[b], p->rule[i].expr.term[t]);
            for (int j = 0; j < i && !seen; j++)
                for (int s = 0; s < p->rule[j].expr.n; s++)
                    seen |= !strcmp(p->rule[j].expr.term[s], p->rule[i].expr.term[t]);
            for (int s = 0; s < t && !seen; s++)
                seen |= !strcmp(p->rule[i].expr.term[s], p->rule[i].expr.term[t]);
            if (!seen) {
                char e2[128];
                gs_buf_printf(o, "| `%s` | %.2f%% |\n", p->rule[i].expr.term[t],
                              100 * gs_metric(r, p->rule[i].expr.term[t], e2, sizeof e2));
            }
        }
    gs_buf_printf(o, "| waves | %.2f |\n| idle share of SM-time | %.2f%% |\n| padding waste | %.1f%% |\n",
                  r->smt.waves, 100 * r->smt.share[GS_SMT_IDLE], 100 * (isnan(r->perf.padding) ? 0 : r->perf.padding));
    if (r->perf.valid)
        gs_buf_printf(o, "| roofline | %s (%.0f%% of tensor ceiling, %.0f%% of copy ceiling) |\n",
                      gs_bound_name(r->perf.bound), 100 * r->perf.ceiling_fraction, 100 * r->perf.bandwidth_fraction);
    gs_verdicts vd;
    gs_verdicts_compute(r, &vd);
    if (vd.n) {
        gs_buf_printf(o, "\nThe profile's verdicts:\n\n");
        for (int i = 0; i < vd.n; i++)
            gs_buf_printf(o, "- %s\n", vd.text[i]);
    }

    gs_buf_printf(o, "\n## 3. Measured A/B\n\n");
    if (!n_ab)
        gs_buf_printf(o, "Not measured: no run with the proposal switched on was given (knob `%s`). The decision "
                         "below rests on the profile alone.\n\n",
                      p->knob[0] ? p->knob : "-");
    for (int i = 0; i < n_ab; i++) {
        int pa = gs_timings_find(&ab[i].off->tim, "production"), pb = gs_timings_find(&ab[i].on->tim, "production");
        gs_delta d = gs_delta_of(ab[i].off->tim.ms[pa], (size_t)ab[i].off->tim.count[pa], ab[i].on->tim.ms[pb],
                                 (size_t)ab[i].on->tim.count[pb], GS_BOOTSTRAP_RESAMPLES, 11);
        double speedup = d.a / d.b;
        gs_buf_printf(o, "### %s\n\n| | off (`%s`) | on (`%s`) |\n|---|---:|---:|\n| production median ms | %.4f | %.4f |\n"
                         "| twin overhead | x%.3f | x%.3f |\n\n",
                      ab[i].label, gs_rundata_str(ab[i].off, "variant"), gs_rundata_str(ab[i].on, "variant"), d.a, d.b,
                      ab[i].off->overhead_ratio, ab[i].on->overhead_ratio);
        gs_buf_printf(o, "Measured: **x%.3f** (%+.1f%% time, 95%% CI of the difference [%+.4f, %+.4f] ms): **%s**.",
                      speedup, 100 * d.delta / d.a, d.lo, d.hi, gs_verdict_word(d.verdict));
        if (!isnan(p->claimed_speedup))
            gs_buf_printf(o, " Claimed x%.3f; the profile allowed at most x%.3f.", p->claimed_speedup, max_speedup);
        /* The pair's own bound where its "off" run has stamps: the profile above is one point,
         * and the time a proposal targets differs from point to point (a production point may
         * expose far more epilogue than the baseline). */
        double pair_max = max_speedup;
        const char *whose = "the profile's";
        if (ab[i].off->tl.n_events > 0) {
            char e2[256];
            const double pb = gs_expr_eval(ab[i].off, &p->bound, e2, sizeof e2);
            if (!isnan(pb)) {
                pair_max = pb < 1 ? 1.0 / (1.0 - pb) : INFINITY;
                whose = "the off point's";
                gs_buf_printf(o, " In the off point's own stamps `%s` = %.2f%%: at most x%.3f.", bound_expr, 100 * pb,
                              pair_max);
            } /* unknown there (the plain twin has no per-stage sub-phases): the profile's stands */
        }
        /* the slowest speedup the interval allows, a / (a + hi), still beyond the bound: the
         * change moved more than the time the proposal targets */
        if (d.a + d.hi > 0 && d.a / (d.a + d.hi) > pair_max)
            gs_buf_printf(o, " **Beyond %s bound** (x%.3f even at the interval's slow end): the change "
                             "removed more than `%s`, the time this proposal targets; the rest came from something "
                             "the knob also changes, so the proposal's own mechanism does not explain this speedup.",
                          whose, d.a / (d.a + d.hi), bound_expr);
        gs_buf_printf(o, "\n\n");
    }

    gs_buf_printf(o, "## 4. Decision\n\nRules of `%s`, tried in order; the first that holds decides.\n\n| # | rule | "
                     "value | decision | |\n|---|---|---:|---|---|\n",
                  p->name);
    for (int i = 0; i < p->n_rules; i++) {
        const gs_rule *x = &p->rule[i];
        if (x->always) {
            gs_buf_printf(o, "| %d | always | - | %s | %s%s |\n", i + 1, gs_decision_name(x->decision), x->reason,
                          i == k ? " **<- decides**" : "");
            continue;
        }
        char e2[128];
        gs_expr_format(&x->expr, expr, sizeof expr);
        gs_buf_printf(o, "| %d | `%s %s %.3g` | %.4f | %s | %s%s |\n", i + 1, expr, x->op, x->threshold,
                      gs_expr_eval(r, &x->expr, e2, sizeof e2), gs_decision_name(x->decision), x->reason,
                      i == k ? " **<- decides**" : "");
    }
    return o->oom ? -1 : 0;
}
