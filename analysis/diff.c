#include "diff.h"
#include "instrument/gs_stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* splitmix64: small, fast, and good enough for resampling indices */
static unsigned long long next_rand(unsigned long long *s)
{
    unsigned long long z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static double resampled_median(const double *v, size_t n, double *tmp, unsigned long long *s)
{
    for (size_t i = 0; i < n; i++)
        tmp[i] = v[next_rand(s) % n];
    return gs_sort_median(tmp, (int)n);
}

gs_delta gs_delta_of(const double *a, size_t na, const double *b, size_t nb, int resamples, unsigned long long seed)
{
    gs_delta d = {NAN, NAN, NAN, NAN, NAN, 0};
    if (!na || !nb)
        return d;
    size_t nmax = na > nb ? na : nb;
    double *tmp = malloc(nmax * sizeof(double)), *deltas = malloc((size_t)resamples * sizeof(double));
    if (!tmp || !deltas) {
        free(tmp), free(deltas);
        return d;
    }
    memcpy(tmp, a, na * sizeof(double));
    d.a = gs_sort_median(tmp, (int)na);
    memcpy(tmp, b, nb * sizeof(double));
    d.b = gs_sort_median(tmp, (int)nb);
    d.delta = d.b - d.a;
    unsigned long long s = seed;
    for (int i = 0; i < resamples; i++)
        deltas[i] = resampled_median(b, nb, tmp, &s) - resampled_median(a, na, tmp, &s);
    qsort(deltas, (size_t)resamples, sizeof(double), gs_cmp_double);
    d.lo = deltas[(int)floor(0.025 * (resamples - 1))];
    d.hi = deltas[(int)ceil(0.975 * (resamples - 1))];
    d.verdict = fabs(d.delta) < GS_MIN_EFFECT * fabs(d.a) ? 0 : d.hi < 0 ? -1 : d.lo > 0 ? 1 : 0;
    free(tmp);
    free(deltas);
    return d;
}

const char *gs_verdict_word(int v) { return v < 0 ? "faster" : v > 0 ? "slower" : "no significant change"; }

static void row(gs_buf *o, const char *name, const gs_delta *d, double scale, const char *unit)
{
    gs_buf_printf(o, "| %s | %.4f | %.4f | %+.4f (%+.1f%%) | [%+.4f, %+.4f] | %s |\n", name, d->a * scale, d->b * scale,
                  d->delta * scale, 100 * d->delta / d->a, d->lo * scale, d->hi * scale,
                  d->verdict < 0 ? "**faster**" : d->verdict > 0 ? "**slower**" : "no significant change");
    (void)unit;
}

/* The build the stamps came from; runs that do not say are the plain twin's. */
static const char *stamp_build(const gs_rundata *r)
{
    const char *v = gs_meta_get(&r->meta, "stamps.build");
    return v && *v ? v : "twin";
}

int gs_runs_comparable(const gs_rundata *a, const gs_rundata *b, char *why, size_t n)
{
    static const char *const keys[] = {"subject", "shape", "gpu"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (strcmp(gs_rundata_str(a, keys[i]), gs_rundata_str(b, keys[i])) != 0) {
            snprintf(why, n, "different %s: %.100s against %.100s", keys[i], gs_rundata_str(a, keys[i]),
                     gs_rundata_str(b, keys[i]));
            return 0;
        }
    if (strcmp(stamp_build(a), stamp_build(b)) != 0) {
        snprintf(why, n, "stamps from different builds: %s against %s", stamp_build(a), stamp_build(b));
        return 0;
    }
    return 1;
}

int gs_diff_write(const gs_rundata *a, const gs_rundata *b, gs_buf *o)
{
    int pa = gs_timings_find(&a->tim, "production"), pb = gs_timings_find(&b->tim, "production");
    gs_delta t = gs_delta_of(a->tim.ms[pa], (size_t)a->tim.count[pa], b->tim.ms[pb], (size_t)b->tim.count[pb],
                             GS_BOOTSTRAP_RESAMPLES, 1);
    gs_buf_printf(o, "# gemmscope diff\n\nA: `%s` (%s / %s, %s)\nB: `%s` (%s / %s, %s)\n\n", a->dir,
                  gs_rundata_str(a, "shape"), gs_rundata_str(a, "variant"), gs_rundata_str(a, "gpu"), b->dir,
                  gs_rundata_str(b, "shape"), gs_rundata_str(b, "variant"), gs_rundata_str(b, "gpu"));
    gs_buf_printf(o, "**B is %s A: production median %.4f -> %.4f ms (%+.1f%%, 95%% CI of the difference [%+.4f, "
                     "%+.4f] ms).**\n\n",
                  t.verdict < 0 ? "faster than" : t.verdict > 0 ? "slower than" : "not significantly different from", t.a, t.b,
                  100 * t.delta / t.a, t.lo, t.hi);
    char why[256];
    if (!gs_runs_comparable(a, b, why, sizeof why))
        gs_buf_printf(o, "> **Not comparable (compared on request, --force): %s.** The differences below mix "
                         "that with whatever changed.\n\n",
                      why);
    gs_buf_printf(o, "Differences of medians (B - A); 95%% percentile-bootstrap intervals from %d resamples; a "
                     "change is significant when its interval excludes 0 and it moves the median by at least %.1f%%. Phases: per-CTA busy time (us), "
                     "resampled over CTAs.\n\n",
                  GS_BOOTSTRAP_RESAMPLES, 100 * GS_MIN_EFFECT);
    gs_buf_printf(o, "| quantity | A | B | B - A | 95%% CI | verdict |\n|---|---:|---:|---:|---|---|\n");
    row(o, "production time (ms)", &t, 1, "ms");
    int ta = gs_timings_find(&a->tim, "twin"), tb = gs_timings_find(&b->tim, "twin");
    gs_delta tw = gs_delta_of(a->tim.ms[ta], (size_t)a->tim.count[ta], b->tim.ms[tb], (size_t)b->tim.count[tb],
                              GS_BOOTSTRAP_RESAMPLES, 2);
    row(o, "twin time (ms)", &tw, 1, "ms");
    for (int p = 0; p < GS_NUM_PHASES; p++) {
        const gs_phase_stats *x = &a->phases.ph[p], *y = &b->phases.ph[p];
        if (!x->ctas && !y->ctas)
            continue;
        char name[64];
        snprintf(name, sizeof name, "%s per CTA (us)", gs_rundata_phase(a, p));
        if (!x->ctas || !y->ctas) {
            gs_buf_printf(o, "| %s | %s | %s | - | - | only in %s |\n", name, x->ctas ? "yes" : "-",
                          y->ctas ? "yes" : "-", x->ctas ? "A" : "B");
            continue;
        }
        gs_delta d = gs_delta_of(x->cta_busy, x->ctas, y->cta_busy, y->ctas, GS_BOOTSTRAP_RESAMPLES, 3 + (unsigned)p);
        row(o, name, &d, 1e-3, "us");
    }
    gs_buf_printf(o, "\n| phase | busy share A | B | exposed share A | B |\n|---|---:|---:|---:|---:|\n");
    for (int p = 0; p < GS_NUM_PHASES; p++)
        if (a->phases.ph[p].ctas || b->phases.ph[p].ctas)
            gs_buf_printf(o, "| %s | %.2f%% | %.2f%% | %.2f%% | %.2f%% |\n", gs_rundata_phase(a, p),
                          100 * a->phases.ph[p].busy_share, 100 * b->phases.ph[p].busy_share,
                          100 * a->smt.exposed_share[p], 100 * b->smt.exposed_share[p]);
    return o->oom ? -1 : 0;
}
