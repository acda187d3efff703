#include "phases.h"
#include "edges.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double gs_quantile(double *v, size_t n, double q)
{
    if (n == 0)
        return NAN;
    double pos = q * (double)(n - 1);
    size_t i = (size_t)pos;
    double a = gs_select(v, n, i);
    if (i >= n - 1 || pos == (double)i)
        return a;
    /* after selection everything past i is >= a: the next order statistic is their minimum */
    double b = v[i + 1];
    for (size_t k = i + 2; k < n; k++)
        b = v[k] < b ? v[k] : b;
    return a + (pos - (double)i) * (b - a);
}

int gs_phases_compute(const gs_timeline *tl, gs_phases *out)
{
    memset(out, 0, sizeof *out);
    size_t count[GS_NUM_PHASES] = {0};
    double *inst[GS_NUM_PHASES] = {0}, *per_cta[GS_NUM_PHASES] = {0};
    size_t max_run = 0;
    int rc = -1;
    for (size_t i = 0; i < tl->n_events; i++)
        count[tl->ev[i].phase]++;
    /* events are grouped by warp and warps by CTA, so each CTA is one run */
    for (size_t i = 0, j; i < tl->n_events; i = j) {
        for (j = i; j < tl->n_events && tl->ev[j].cta == tl->ev[i].cta; j++) {
        }
        max_run = j - i > max_run ? j - i : max_run;
    }
    gs_edge *e = malloc((2 * max_run + 1) * sizeof *e), *tmp = malloc((2 * max_run + 1) * sizeof *tmp);
    if (!e || !tmp)
        goto out;
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
    for (size_t i = 0, j; i < tl->n_events; i = j) {
        /* one sweep over the CTA's boundaries: union per phase = time it is active */
        double origin = tl->ev[i].t0;
        for (j = i; j < tl->n_events && tl->ev[j].cta == tl->ev[i].cta; j++)
            origin = tl->ev[j].t0 < origin ? tl->ev[j].t0 : origin;
        size_t m = 0;
        for (size_t k = i; k < j; k++) {
            const gs_event *v = &tl->ev[k];
            inst[v->phase][out->ph[v->phase].instances++] = v->t1 - v->t0;
            e[m++] = (gs_edge){gs_edge_key(v->t0, origin, 1), v->phase, +1};
            e[m++] = (gs_edge){gs_edge_key(v->t1, origin, 0), v->phase, -1};
        }
        gs_edges_sort(e, tmp, m);
        int active[GS_NUM_PHASES] = {0};
        unsigned mask = 0, present = 0;
        uint64_t prev = 0;
        double uni[GS_NUM_PHASES] = {0};
        for (size_t k = 0; k < m; k++) {
            uint64_t t = e[k].key >> 1;
            if (mask && t > prev)
                for (unsigned b = mask; b; b &= b - 1)
                    uni[__builtin_ctz(b)] += (double)(t - prev);
            prev = t;
            int p = e[k].kind;
            present |= 1u << p;
            active[p] += e[k].delta;
            mask = active[p] > 0 ? mask | 1u << p : mask & ~(1u << p);
        }
        for (int p = 0; p < GS_NUM_PHASES; p++)
            if (present >> p & 1) {
                double u = uni[p] / 8.0;
                out->ph[p].busy_ns += u;
                per_cta[p][out->ph[p].ctas++] = u;
            }
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
        s->cta_busy = per_cta[p];
        per_cta[p] = NULL;
    }
    rc = 0;
out:
    for (int p = 0; p < GS_NUM_PHASES; p++) {
        free(inst[p]);
        free(per_cta[p]);
    }
    free(e);
    free(tmp);
    return rc;
}

void gs_phases_free(gs_phases *p)
{
    for (int i = 0; i < GS_NUM_PHASES; i++)
        free(p->ph[i].cta_busy);
    memset(p, 0, sizeof *p);
}
