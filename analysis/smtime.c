#include "smtime.h"
#include "edges.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const int GS_EXPOSE_ORDER[GS_NUM_PHASES - 1] = {
    GS_STORE, GS_EPILOGUE, GS_ACC_TO_REG, GS_LOAD_WAIT, GS_DEQUANT, GS_MMA,
    GS_PROLOGUE, GS_USER0, GS_USER1, GS_USER2, GS_USER3,
};

static int cmp_key(const void *a, const void *b)
{
    const gs_edge *x = a, *y = b;
    return (x->key > y->key) - (x->key < y->key);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#define RES_KIND GS_NUM_PHASES

int gs_smtime_compute(const gs_timeline *tl, int sm_count, gs_smtime *out)
{
    memset(out, 0, sizeof *out);
    int n_sm = tl->n_sm;
    out->span_ns = tl->span_ns;
    out->sms = sm_count > 0 ? sm_count : tl->sms_used;
    out->sm_time_ns = out->sms * out->span_ns;
    if (out->sm_time_ns <= 0)
        return 0;

    /* Edges per SM, gathered CTA by CTA (each CTA's events are contiguous):
     * sequential reads and writes instead of a scatter over SMs. */
    size_t *cnt = calloc((size_t)n_sm + 1, sizeof(size_t));
    size_t *at = calloc((size_t)n_sm + 1, sizeof(size_t));
    size_t *cta_first = malloc(((size_t)tl->ctas + 1) * sizeof(size_t));
    uint32_t *by_sm = malloc(((size_t)tl->ctas + 1) * sizeof(uint32_t));
    size_t *sm_ctas = calloc((size_t)n_sm + 2, sizeof(size_t));
    if (!cnt || !at || !cta_first || !by_sm || !sm_ctas) {
        free(cta_first), free(by_sm), free(sm_ctas);
        goto oom;
    }
    for (uint32_t c = 0; c <= tl->ctas; c++)
        cta_first[c] = tl->n_events;
    for (size_t i = tl->n_events; i-- > 0;)
        cta_first[tl->ev[i].cta] = i;
    for (uint32_t c = tl->ctas; c-- > 0;) /* CTAs without events start where the next one does */
        if (cta_first[c] > cta_first[c + 1])
            cta_first[c] = cta_first[c + 1];
    for (uint32_t c = 0; c < tl->ctas; c++) {
        size_t ne = 0;
        for (size_t i = cta_first[c]; i < tl->n_events && tl->ev[i].cta == c; i++)
            ne++;
        cnt[tl->cta_sm[c]] += 2 * ne + 2;
        sm_ctas[tl->cta_sm[c] + 1]++;
    }
    for (int s2 = 0; s2 < n_sm; s2++)
        sm_ctas[s2 + 1] += sm_ctas[s2];
    {
        size_t *put = calloc((size_t)n_sm + 1, sizeof(size_t));
        if (!put) {
            free(cta_first), free(by_sm), free(sm_ctas);
            goto oom;
        }
        for (uint32_t c = 0; c < tl->ctas; c++)
            by_sm[sm_ctas[tl->cta_sm[c]] + put[tl->cta_sm[c]]++] = c;
        free(put);
    }
    /* one SM at a time through one buffer: fresh pages cost more than the sort */
    size_t max_cnt = 0;
    for (int s2 = 0; s2 < n_sm; s2++)
        max_cnt = cnt[s2] > max_cnt ? cnt[s2] : max_cnt;
    gs_edge *e = malloc((max_cnt ? max_cnt : 1) * sizeof(gs_edge));
    gs_edge *tmp = malloc((max_cnt ? max_cnt : 1) * sizeof(gs_edge));
    double *exp_sm = calloc((size_t)(n_sm ? n_sm : 1) * GS_NUM_PHASES, sizeof(double));
    if (!e || !exp_sm || !tmp) {
        free(e), free(exp_sm), free(tmp), free(cta_first), free(by_sm), free(sm_ctas);
        goto oom;
    }
    double cat[GS_SMT_CATEGORIES] = {0}, exposed[GS_NUM_PHASES] = {0};

    double seen_sm_time = 0;
    for (int s = 0; s < n_sm; s++) {
        if (!cnt[s])
            continue;
        gs_edge *E = e;
        size_t n = 0;
        for (size_t q = sm_ctas[s]; q < sm_ctas[s + 1]; q++) {
            uint32_t c = by_sm[q];
            for (size_t i = cta_first[c]; i < tl->n_events && tl->ev[i].cta == c; i++) {
                const gs_event *v = &tl->ev[i];
                E[n++] = (gs_edge){gs_edge_key(v->t0, 0, 1), v->phase, +1};
                E[n++] = (gs_edge){gs_edge_key(v->t1, 0, 0), v->phase, -1};
            }
            if (!isnan(tl->cta_t0[c]) && !isnan(tl->cta_t1[c])) {
                E[n++] = (gs_edge){gs_edge_key(tl->cta_t0[c], 0, 1), RES_KIND, +1};
                E[n++] = (gs_edge){gs_edge_key(tl->cta_t1[c], 0, 0), RES_KIND, -1};
            }
        }
        gs_edges_sort(E, tmp, n);
        int active[GS_NUM_PHASES + 1] = {0};
        unsigned mask = 0; /* phases active now */
        int resident_now = 0;
        double prev = 0;
        for (size_t i = 0; i <= n; i++) {
            double t = i < n ? gs_edge_time(E[i].key, 0) : out->span_ns;
            if (t > out->span_ns)
                t = out->span_ns;
            double d = t - prev;
            if (d > 0) {
                int c;
                if (active[RES_KIND] <= 0 && !(mask & 1u << GS_MAINLOOP)) {
                    /* a phase outside any CTA span counts as exposed */
                    c = mask ? __builtin_ctz(mask) : GS_SMT_IDLE;
                } else if (mask & 1u << GS_MAINLOOP) {
                    c = GS_MAINLOOP;
                } else {
                    c = GS_SMT_RESIDENT;
                    for (int k = 0; k < GS_NUM_PHASES - 1 && mask; k++)
                        if (mask >> GS_EXPOSE_ORDER[k] & 1) {
                            c = GS_EXPOSE_ORDER[k];
                            break;
                        }
                }
                cat[c] += d;
                if (!(mask & 1u << GS_MAINLOOP))
                    for (unsigned b = mask; b; b &= b - 1) {
                        int p = __builtin_ctz(b);
                        exposed[p] += d;
                        exp_sm[(size_t)s * GS_NUM_PHASES + p] += d;
                    }
                seen_sm_time += d;
            }
            if (i < n) {
                int k = E[i].kind;
                active[k] += E[i].delta;
                if (k == RES_KIND) {
                    if (active[RES_KIND] > resident_now)
                        resident_now = active[RES_KIND];
                } else {
                    mask = active[k] > 0 ? mask | 1u << k : mask & ~(1u << k);
                }
                prev = t;
            }
        }
        if (resident_now > out->resident_per_sm)
            out->resident_per_sm = resident_now;
    }
    /* SMs that ran nothing are idle for the whole span */
    cat[GS_SMT_IDLE] += out->sm_time_ns - seen_sm_time;
    for (int c = 0; c < GS_SMT_CATEGORIES; c++)
        out->share[c] = cat[c] / out->sm_time_ns;
    for (int p = 0; p < GS_NUM_PHASES; p++) {
        out->exposed_share[p] = exposed[p] / out->sm_time_ns;
        double worst = 0;
        for (int s = 0; s < n_sm; s++)
            worst = fmax(worst, exp_sm[(size_t)s * GS_NUM_PHASES + p]);
        out->amdahl_bound[p] = worst / out->span_ns;
    }
    free(e);
    free(tmp);
    free(exp_sm);
    free(cta_first), free(by_sm), free(sm_ctas);

    /* CTAs per SM, waves, tail, per-SM duration spread */
    int *per_sm = calloc((size_t)n_sm + 1, sizeof(int));
    double *last_end = malloc(((size_t)n_sm + 1) * sizeof(double));
    double *dur = malloc((tl->ctas ? tl->ctas : 1) * sizeof(double));
    double *spreads = malloc(((size_t)n_sm + 1) * sizeof(double));
    if (!per_sm || !last_end || !dur || !spreads) {
        free(per_sm), free(last_end), free(dur), free(spreads);
        goto oom;
    }
    for (int s = 0; s < n_sm; s++)
        last_end[s] = -1;
    int used = 0;
    for (uint32_t c = 0; c < tl->ctas; c++) {
        if (isnan(tl->cta_t0[c]) || isnan(tl->cta_t1[c]))
            continue;
        int s = tl->cta_sm[c];
        per_sm[s]++;
        last_end[s] = fmax(last_end[s], tl->cta_t1[c]);
    }
    out->ctas_per_sm_min = 1 << 30;
    double first_out = INFINITY;
    int n_spread = 0;
    for (int s = 0; s < n_sm; s++) {
        if (!per_sm[s])
            continue;
        used++;
        out->ctas_per_sm_max = per_sm[s] > out->ctas_per_sm_max ? per_sm[s] : out->ctas_per_sm_max;
        out->ctas_per_sm_min = per_sm[s] < out->ctas_per_sm_min ? per_sm[s] : out->ctas_per_sm_min;
        first_out = fmin(first_out, last_end[s]);
        int m = 0;
        for (uint32_t c = 0; c < tl->ctas; c++)
            if (tl->cta_sm[c] == s && !isnan(tl->cta_t0[c]) && !isnan(tl->cta_t1[c]))
                dur[m++] = tl->cta_t1[c] - tl->cta_t0[c];
        qsort(dur, (size_t)m, sizeof(double), cmp_double);
        double med = m % 2 ? dur[m / 2] : 0.5 * (dur[m / 2 - 1] + dur[m / 2]);
        if (med > 0)
            spreads[n_spread++] = dur[m - 1] / med;
    }
    /* An SM that never got a CTA shows as idle (and as "under one wave"), not as
     * a tail: the tail starts when the first SM that ran CTAs has no more. */
    if (out->sms > used)
        out->ctas_per_sm_min = 0;
    if (!used)
        out->ctas_per_sm_min = 0;
    out->ctas_per_sm_mean = out->sms ? (double)tl->ctas / out->sms : 0;
    out->waves = out->resident_per_sm && out->sms ? (double)tl->ctas / ((double)out->sms * out->resident_per_sm) : 0;
    out->tail_ns = isfinite(first_out) ? out->span_ns - first_out : 0;
    out->tail_share = out->tail_ns / out->span_ns;
    if (n_spread) {
        qsort(spreads, (size_t)n_spread, sizeof(double), cmp_double);
        out->spread_worst = spreads[n_spread - 1];
        out->spread_median = spreads[n_spread / 2];
    }
    free(per_sm), free(last_end), free(dur), free(spreads);

    /* SMs busy over time: +1 at each SM's first CTA start... counted per residency change */
    {
        size_t m = 0;
        gs_edge *b = malloc((2 * (size_t)tl->ctas + 1) * sizeof(gs_edge));
        int *res = calloc((size_t)n_sm + 1, sizeof(int));
        if (!b || !res) {
            free(b), free(res);
            goto oom;
        }
        for (uint32_t c = 0; c < tl->ctas; c++)
            if (!isnan(tl->cta_t0[c]) && !isnan(tl->cta_t1[c])) {
                b[m++] = (gs_edge){gs_edge_key(tl->cta_t0[c], 0, 1), tl->cta_sm[c], +1};
                b[m++] = (gs_edge){gs_edge_key(tl->cta_t1[c], 0, 0), tl->cta_sm[c], -1};
            }
        qsort(b, m, sizeof *b, cmp_key);
        out->busy_t = malloc((m + 1) * sizeof(double));
        out->busy_n = malloc((m + 1) * sizeof(int));
        if (!out->busy_t || !out->busy_n) {
            free(b), free(res);
            goto oom;
        }
        int busy = 0;
        for (size_t i = 0; i < m; i++) {
            int s = b[i].kind;
            double bt = gs_edge_time(b[i].key, 0);
            int before = res[s] > 0;
            res[s] += b[i].delta;
            busy += (res[s] > 0) - before;
            if (out->n_busy && out->busy_t[out->n_busy - 1] == bt)
                out->busy_n[out->n_busy - 1] = busy;
            else {
                out->busy_t[out->n_busy] = bt;
                out->busy_n[out->n_busy++] = busy;
            }
        }
        free(b), free(res);
    }
    free(cnt), free(at);
    return 0;
oom:
    free(cnt), free(at);
    gs_smtime_free(out);
    return -1;
}

void gs_smtime_free(gs_smtime *s)
{
    free(s->busy_t);
    free(s->busy_n);
    s->busy_t = NULL;
    s->busy_n = NULL;
    s->n_busy = 0;
}
