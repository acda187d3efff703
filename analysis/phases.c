#include "phases.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double gs_quantile(double *v, size_t n, double q)
{
    if (n == 0)
        return NAN;
    qsort(v, n, sizeof(double), cmp_double);
    double pos = q * (double)(n - 1);
    size_t i = (size_t)pos;
    if (i >= n - 1)
        return v[n - 1];
    return v[i] + (pos - (double)i) * (v[i + 1] - v[i]);
}

typedef struct span {
    double t0, t1;
} span;

static int cmp_span(const void *a, const void *b)
{
    const span *x = a, *y = b;
    return (x->t0 > y->t0) - (x->t0 < y->t0);
}

/* Length of the union of n intervals (sorted in place). */
static double union_len(span *s, size_t n)
{
    if (n == 0)
        return 0;
    qsort(s, n, sizeof *s, cmp_span);
    double total = 0, a = s[0].t0, b = s[0].t1;
    for (size_t i = 1; i < n; i++) {
        if (s[i].t0 > b) {
            total += b - a;
            a = s[i].t0;
            b = s[i].t1;
        } else if (s[i].t1 > b) {
            b = s[i].t1;
        }
    }
    return total + (b - a);
}

int gs_phases_compute(const gs_timeline *tl, gs_phases *out)
{
    memset(out, 0, sizeof *out);
    /* events are grouped by warp and warps by CTA, so each CTA is one run */
    size_t *count = calloc(GS_NUM_PHASES, sizeof(size_t));
    double *inst[GS_NUM_PHASES] = {0}, *per_cta[GS_NUM_PHASES] = {0};
    span *buf = malloc((tl->n_events ? tl->n_events : 1) * sizeof(span));
    int rc = -1;
    if (!count || !buf)
        goto out;
    for (size_t i = 0; i < tl->n_events; i++)
        count[tl->ev[i].phase]++;
    for (int p = 0; p < GS_NUM_PHASES; p++) {
        inst[p] = malloc((count[p] ? count[p] : 1) * sizeof(double));
        per_cta[p] = malloc((tl->ctas ? tl->ctas : 1) * sizeof(double));
        if (!inst[p] || !per_cta[p])
            goto out;
    }
    for (uint32_t c = 0; c < tl->ctas; c++)
        if (!isnan(tl->cta_t0[c]) && !isnan(tl->cta_t1[c])) {
            out->cta_time_ns += tl->cta_t1[c] - tl->cta_t0[c];
            out->ctas_counted++;
        }
    size_t i = 0;
    while (i < tl->n_events) {
        uint32_t cta = tl->ev[i].cta;
        size_t j = i;
        while (j < tl->n_events && tl->ev[j].cta == cta)
            j++;
        for (int p = 0; p < GS_NUM_PHASES; p++) {
            size_t n = 0;
            for (size_t k = i; k < j; k++)
                if (tl->ev[k].phase == p) {
                    buf[n].t0 = tl->ev[k].t0;
                    buf[n].t1 = tl->ev[k].t1;
                    inst[p][out->ph[p].instances++] = tl->ev[k].t1 - tl->ev[k].t0;
                    n++;
                }
            if (n) {
                double u = union_len(buf, n);
                out->ph[p].busy_ns += u;
                per_cta[p][out->ph[p].ctas++] = u;
            }
        }
        i = j;
    }
    for (int p = 0; p < GS_NUM_PHASES; p++) {
        gs_phase_stats *s = &out->ph[p];
        s->busy_share = out->cta_time_ns > 0 ? s->busy_ns / out->cta_time_ns : 0;
        s->cta_p50 = gs_quantile(per_cta[p], s->ctas, 0.5);
        s->cta_p90 = gs_quantile(per_cta[p], s->ctas, 0.9);
        s->cta_max = gs_quantile(per_cta[p], s->ctas, 1.0);
        s->inst_p50 = gs_quantile(inst[p], s->instances, 0.5);
        s->inst_p90 = gs_quantile(inst[p], s->instances, 0.9);
        s->inst_max = gs_quantile(inst[p], s->instances, 1.0);
    }
    for (int p = 0; p < GS_NUM_PHASES; p++) {
        out->ph[p].cta_busy = per_cta[p]; /* sorted by gs_quantile above */
        per_cta[p] = NULL;
    }
    rc = 0;
out:
    for (int p = 0; p < GS_NUM_PHASES; p++) {
        free(inst[p]);
        free(per_cta[p]);
    }
    free(count);
    free(buf);
    return rc;
}

void gs_phases_free(gs_phases *p)
{
    for (int i = 0; i < GS_NUM_PHASES; i++)
        free(p->ph[i].cta_busy);
    memset(p, 0, sizeof *p);
}
