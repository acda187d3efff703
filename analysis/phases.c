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

/* Per-phase lists that grow as CTAs are added. */
typedef struct dlist {
    double *v;
    size_t n, cap;
} dlist;

static int dlist_reserve(dlist *d, size_t more)
{
    if (d->n + more <= d->cap)
        return 0;
    size_t cap = d->n + more > 2 * d->cap ? d->n + more : 2 * d->cap;
    double *v = realloc(d->v, (cap ? cap : 1) * sizeof *v);
    if (!v)
        return -1;
    d->v = v;
    d->cap = cap;
    return 0;
}

/* One phase's instance durations as distinct values with counts.  Durations
 * repeat (cycle counts through one clock fit per SM), so this stays small
 * where a list of every instance would be as long as the trace.  Past
 * DMAP_MAX_CAP slots, or on a NaN or -0 (whose place gs_select leaves to the
 * input order), the phase's quantiles come from the full list instead. */
#define DMAP_EMPTY UINT64_MAX /* a NaN pattern: never a key */
#define DMAP_MAX_CAP ((size_t)1 << 17)

typedef struct dmap {
    uint64_t *key; /* bit patterns of the durations; DMAP_EMPTY: free slot */
    size_t *cnt;
    size_t cap, used, total;
    uint64_t last; /* the previous key and its slot: equal durations come in runs */
    size_t last_slot;
    int listed;    /* quantiles from the full list */
} dmap;

static uint64_t dbits(double d)
{
    uint64_t k;
    memcpy(&k, &d, sizeof k);
    return k;
}

static size_t dmap_home(const dmap *m, uint64_t k)
{
    return (size_t)((k * 0x9E3779B97F4A7C15ull) >> 32) & (m->cap - 1);
}

static size_t dmap_find(const dmap *m, uint64_t k)
{
    size_t i = dmap_home(m, k);
    while (m->key[i] != k && m->key[i] != DMAP_EMPTY)
        i = (i + 1) & (m->cap - 1);
    return i;
}

static void dmap_drop(dmap *m)
{
    free(m->key), free(m->cnt);
    m->key = NULL, m->cnt = NULL;
    m->cap = m->used = 0;
    m->last = DMAP_EMPTY;
}

/* Doubles the table; past DMAP_MAX_CAP the phase goes to the full list. */
static int dmap_grow(dmap *m)
{
    size_t cap = m->cap ? 2 * m->cap : 64;
    if (cap > DMAP_MAX_CAP) {
        m->listed = 1;
        dmap_drop(m);
        return 0;
    }
    dmap g = {.cap = cap, .used = m->used, .total = m->total, .last = DMAP_EMPTY};
    g.key = malloc(cap * sizeof *g.key);
    g.cnt = malloc(cap * sizeof *g.cnt);
    if (!g.key || !g.cnt) {
        free(g.key), free(g.cnt);
        return -1;
    }
    memset(g.key, 0xff, cap * sizeof *g.key);
    for (size_t i = 0; i < m->cap; i++)
        if (m->key[i] != DMAP_EMPTY) {
            size_t j = dmap_find(&g, m->key[i]);
            g.key[j] = m->key[i];
            g.cnt[j] = m->cnt[i];
        }
    dmap_drop(m);
    *m = g;
    return 0;
}

static int dmap_add(dmap *m, double d)
{
    uint64_t k = dbits(d);
    m->total++;
    if (m->listed)
        return 0;
    if (isnan(d) || k == dbits(-0.0)) {
        m->listed = 1;
        dmap_drop(m);
        return 0;
    }
    if (k == m->last) {
        m->cnt[m->last_slot]++;
        return 0;
    }
    if (2 * (m->used + 1) > m->cap) {
        if (dmap_grow(m))
            return -1;
        if (m->listed)
            return 0;
    }
    size_t i = dmap_find(m, k);
    if (m->key[i] == DMAP_EMPTY) {
        m->key[i] = k;
        m->cnt[i] = 0;
        m->used++;
    }
    m->cnt[i]++;
    m->last = k;
    m->last_slot = i;
    return 0;
}

typedef struct dcount {
    double v;
    size_t n;
} dcount;

static int cmp_dcount(const void *a, const void *b)
{
    double x = ((const dcount *)a)->v, y = ((const dcount *)b)->v;
    return (x > y) - (x < y);
}

/* The r-th smallest (0-based) of the multiset. */
static double dcount_rank(const dcount *v, size_t nv, size_t r)
{
    size_t below = 0;
    for (size_t i = 0; i < nv; i++) {
        below += v[i].n;
        if (r < below)
            return v[i].v;
    }
    return NAN;
}

/* gs_quantile's definition over a multiset sorted by value. */
static double dcount_quantile(const dcount *v, size_t nv, size_t n, double q)
{
    if (n == 0)
        return NAN;
    double pos = q * (double)(n - 1);
    size_t i = (size_t)pos;
    double a = dcount_rank(v, nv, i);
    if (i >= n - 1 || pos == (double)i)
        return a;
    double b = dcount_rank(v, nv, i + 1);
    return a + (pos - (double)i) * (b - a);
}

static int dmap_quantiles(const dmap *m, gs_phase_stats *s)
{
    dcount *v = malloc((m->used ? m->used : 1) * sizeof *v);
    if (!v)
        return -1;
    size_t nv = 0;
    for (size_t i = 0; i < m->cap; i++)
        if (m->key[i] != DMAP_EMPTY) {
            memcpy(&v[nv].v, &m->key[i], sizeof(double));
            v[nv++].n = m->cnt[i];
        }
    qsort(v, nv, sizeof *v, cmp_dcount);
    s->inst_p50 = dcount_quantile(v, nv, m->total, 0.5);
    s->inst_p90 = dcount_quantile(v, nv, m->total, 0.9);
    s->inst_max = dcount_quantile(v, nv, m->total, 1.0);
    free(v);
    return 0;
}

/* Phases the tables gave up on: every duration, in event order as before,
 * gathered in one pass for all of them. */
static int list_quantiles(const gs_timeline *tl, const dmap *inst, gs_phases *out)
{
    dlist v[GS_NUM_PHASES] = {{0}};
    int rc = -1;
    for (int p = 0; p < GS_NUM_PHASES; p++)
        if (inst[p].listed && dlist_reserve(&v[p], inst[p].total))
            goto out;
    for (size_t i = 0; i < tl->n_events; i++) {
        const gs_event *e = &tl->ev[i];
        if (inst[e->phase].listed)
            v[e->phase].v[v[e->phase].n++] = e->t1 - e->t0;
    }
    for (int p = 0; p < GS_NUM_PHASES; p++)
        if (inst[p].listed) {
            gs_phase_stats *s = &out->ph[p];
            s->inst_p50 = gs_quantile(v[p].v, v[p].n, 0.5);
            s->inst_p90 = gs_quantile(v[p].v, v[p].n, 0.9);
            s->inst_max = gs_quantile(v[p].v, v[p].n, 1.0);
        }
    rc = 0;
out:
    for (int p = 0; p < GS_NUM_PHASES; p++)
        free(v[p].v);
    return rc;
}

/* Scratch reused from CTA to CTA. */
typedef struct cta_scratch {
    gs_unions u;
    gs_edge *e, *tmp; /* the edge sweep, for CTAs the unions cannot take */
    size_t cap;
} cta_scratch;

/* Events are grouped by warp and warps by CTA, so each CTA is one run. */
static size_t cta_run_end(const gs_timeline *tl, size_t i)
{
    if (tl->cta_first)
        return tl->cta_first[tl->ev[i].cta + 1];
    size_t j = i;
    while (j < tl->n_events && tl->ev[j].cta == tl->ev[i].cta)
        j++;
    return j;
}

/* The run's earliest start (the origin of its keys) while counting durations. */
static int scan_run(const gs_event *ev, size_t n, dmap *inst, double *origin)
{
    double o = ev[0].t0;
    for (size_t k = 0; k < n; k++) {
        o = ev[k].t0 < o ? ev[k].t0 : o;
        if (dmap_add(&inst[ev[k].phase], ev[k].t1 - ev[k].t0))
            return -1;
    }
    *origin = o;
    return 0;
}

/* The union per phase by one sweep over the run's boundaries, in 1/8 ns. */
static int union_by_edges(const gs_event *ev, size_t n, double origin, cta_scratch *cs, uint64_t *uni)
{
    if (2 * n + 1 > cs->cap) {
        free(cs->e), free(cs->tmp);
        cs->cap = 2 * n + 1;
        cs->e = malloc(cs->cap * sizeof *cs->e);
        cs->tmp = malloc(cs->cap * sizeof *cs->tmp);
        if (!cs->e || !cs->tmp)
            return -1;
    }
    gs_edge *e = cs->e;
    size_t m = 0;
    for (size_t k = 0; k < n; k++) {
        e[m++] = (gs_edge){gs_edge_key(ev[k].t0, origin, 1), ev[k].phase, +1};
        e[m++] = (gs_edge){gs_edge_key(ev[k].t1, origin, 0), ev[k].phase, -1};
    }
    gs_edges_sort(e, cs->tmp, m);
    int active[GS_NUM_PHASES] = {0};
    unsigned mask = 0;
    uint64_t prev = 0;
    for (size_t k = 0; k < m; k++) {
        uint64_t t = e[k].key >> 1;
        if (mask && t > prev)
            for (unsigned b = mask; b; b &= b - 1)
                uni[__builtin_ctz(b)] += t - prev;
        prev = t;
        int p = e[k].kind;
        active[p] += e[k].delta;
        mask = active[p] > 0 ? mask | 1u << p : mask & ~(1u << p);
    }
    return 0;
}

/* Union time per phase of one CTA, in 1/8 ns; returns the phases present, or -1. */
static long cta_unions(const gs_event *ev, size_t n, double origin, cta_scratch *cs, uint64_t *uni)
{
    int rc = gs_cta_unions(ev, n, origin, &cs->u);
    if (rc < 0)
        return -1;
    if (rc == 1)
        return union_by_edges(ev, n, origin, cs, uni) ? -1 : (long)cs->u.present;
    for (unsigned b = cs->u.present; b; b &= b - 1) {
        int p = __builtin_ctz(b);
        const gs_span *sp = cs->u.span + cs->u.at[p];
        for (size_t k = 0; k < cs->u.n[p]; k++)
            uni[p] += sp[k].e - sp[k].s;
    }
    return (long)cs->u.present;
}

static int add_cta(const gs_event *ev, size_t n, cta_scratch *cs, dmap *inst, dlist *per_cta, gs_phases *out)
{
    uint64_t uni[GS_NUM_PHASES] = {0};
    double origin;
    if (scan_run(ev, n, inst, &origin))
        return -1;
    long present = cta_unions(ev, n, origin, cs, uni);
    if (present < 0)
        return -1;
    for (unsigned b = (unsigned)present; b; b &= b - 1) {
        int p = __builtin_ctz(b);
        double u = (double)uni[p] / 8.0;
        if (dlist_reserve(&per_cta[p], 1))
            return -1;
        out->ph[p].busy_ns += u;
        per_cta[p].v[per_cta[p].n++] = u;
    }
    return 0;
}

static int finish_stats(const gs_timeline *tl, gs_phases *out, const dmap *inst, dlist *per_cta)
{
    int listed = 0;
    for (int p = 0; p < GS_NUM_PHASES; p++) {
        gs_phase_stats *s = &out->ph[p];
        s->instances = inst[p].total;
        s->ctas = per_cta[p].n;
        s->busy_share = out->cta_time_ns > 0 ? s->busy_ns / out->cta_time_ns : 0;
        s->cta_p50 = gs_quantile(per_cta[p].v, s->ctas, 0.5);
        s->cta_p90 = gs_quantile(per_cta[p].v, s->ctas, 0.9);
        s->cta_max = gs_quantile(per_cta[p].v, s->ctas, 1.0);
        listed |= inst[p].listed;
        if (!inst[p].listed && dmap_quantiles(&inst[p], s))
            return -1;
    }
    return listed ? list_quantiles(tl, inst, out) : 0;
}

/* One pass, CTA by CTA: instance durations, then each phase's union of the
 * CTA's instances (quantised to 1/8 ns from the CTA's earliest start). */
int gs_phases_compute(const gs_timeline *tl, gs_phases *out)
{
    memset(out, 0, sizeof *out);
    dmap inst[GS_NUM_PHASES];
    dlist per_cta[GS_NUM_PHASES] = {{0}};
    cta_scratch cs;
    memset(&cs, 0, sizeof cs);
    memset(inst, 0, sizeof inst);
    for (int p = 0; p < GS_NUM_PHASES; p++)
        inst[p].last = DMAP_EMPTY;
    int rc = -1;
    for (uint32_t c = 0; c < tl->ctas; c++)
        if (!isnan(tl->cta_t0[c]) && !isnan(tl->cta_t1[c])) {
            out->cta_time_ns += tl->cta_t1[c] - tl->cta_t0[c];
            out->ctas_counted++;
        }
    for (size_t i = 0, j; i < tl->n_events; i = j) {
        j = cta_run_end(tl, i);
        if (add_cta(tl->ev + i, j - i, &cs, inst, per_cta, out))
            goto out;
    }
    if (finish_stats(tl, out, inst, per_cta))
        goto out;
    for (int p = 0; p < GS_NUM_PHASES; p++) {
        /* an array for every phase, as before: callers may read cta_busy[0..ctas) */
        if (dlist_reserve(&per_cta[p], 1))
            goto out;
        out->ph[p].cta_busy = per_cta[p].v;
        per_cta[p].v = NULL;
    }
    rc = 0;
out:
    for (int p = 0; p < GS_NUM_PHASES; p++) {
        dmap_drop(&inst[p]);
        free(per_cta[p].v);
    }
    gs_unions_free(&cs.u);
    free(cs.e);
    free(cs.tmp);
    if (rc)
        gs_phases_free(out);
    return rc;
}

void gs_phases_take_subs(const gs_phase_table *names, gs_phases *twin, gs_phases *detail)
{
    int subs[GS_NUM_PHASES];
    const int n = gs_phase_main_subs(names, subs);
    for (int i = 0; i < n; i++) {
        const gs_phase_stats t = twin->ph[subs[i]];
        twin->ph[subs[i]] = detail->ph[subs[i]];
        detail->ph[subs[i]] = t;
    }
}

void gs_phases_free(gs_phases *p)
{
    for (int i = 0; i < GS_NUM_PHASES; i++)
        free(p->ph[i].cta_busy);
    memset(p, 0, sizeof *p);
}
