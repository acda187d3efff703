#include "smtime.h"
#include "edges.h"
#include "../instrument/gs_stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* the fixed phases from the pipeline's end, then the kernel's own in id order */
const int GS_EXPOSE_ORDER[GS_NUM_PHASES - 1] = {
    GS_STORE, GS_EPILOGUE, GS_ACC_TO_REG, GS_PROLOGUE, 5, 6, 7, 8, 9, 10, 11,
};
_Static_assert(GS_NUM_PHASES == 12 && GS_NUM_FIXED_PHASES == 5, "GS_EXPOSE_ORDER lists every phase but MAINLOOP");

const char *gs_smt_category(const gs_phase_table *names, int c)
{
    if (c < GS_NUM_PHASES)
        return gs_phase_name(names, c);
    return c == GS_SMT_RESIDENT ? "resident" : "idle";
}

#define RES_KIND GS_NUM_PHASES

/* Where each CTA's events are: the run that starts at its first event
 * (events are grouped by warp and warps by CTA, so that run is all of them). */
typedef struct cta_index {
    size_t *first, *count; /* [ctas] */
    uint32_t *by_sm;       /* CTAs ordered by SM, then by index */
    size_t *sm_at;         /* [n_sm + 1]: SM s's CTAs are by_sm[sm_at[s] .. sm_at[s + 1]) */
} cta_index;

static void cta_index_free(cta_index *x)
{
    free(x->first), free(x->count), free(x->by_sm), free(x->sm_at);
}

static void find_runs(const gs_timeline *tl, cta_index *x)
{
    if (tl->cta_first) { /* the timeline's own index */
        for (uint32_t c = 0; c < tl->ctas; c++)
            x->first[c] = tl->cta_first[c], x->count[c] = tl->cta_first[c + 1] - tl->cta_first[c];
        return;
    }
    for (uint32_t c = 0; c < tl->ctas; c++)
        x->first[c] = SIZE_MAX, x->count[c] = 0;
    for (size_t i = 0, j; i < tl->n_events; i = j) {
        uint32_t c = tl->ev[i].cta;
        for (j = i + 1; j < tl->n_events && tl->ev[j].cta == c; j++) {
        }
        if (x->first[c] == SIZE_MAX)
            x->first[c] = i, x->count[c] = j - i;
    }
    for (uint32_t c = 0; c < tl->ctas; c++)
        if (x->first[c] == SIZE_MAX)
            x->first[c] = 0; /* no events: an empty range */
}

static int cta_index_build(const gs_timeline *tl, int n_sm, cta_index *x)
{
    x->first = malloc(((size_t)tl->ctas + 1) * sizeof(size_t));
    x->count = malloc(((size_t)tl->ctas + 1) * sizeof(size_t));
    x->by_sm = malloc(((size_t)tl->ctas + 1) * sizeof(uint32_t));
    x->sm_at = calloc((size_t)n_sm + 2, sizeof(size_t));
    if (!x->first || !x->count || !x->by_sm || !x->sm_at)
        return -1;
    find_runs(tl, x);
    for (uint32_t c = 0; c < tl->ctas; c++)
        x->sm_at[tl->cta_sm[c] + 1]++;
    for (int s = 0; s < n_sm; s++)
        x->sm_at[s + 1] += x->sm_at[s];
    size_t *put = calloc((size_t)n_sm + 1, sizeof(size_t));
    if (!put)
        return -1;
    for (uint32_t c = 0; c < tl->ctas; c++)
        x->by_sm[x->sm_at[tl->cta_sm[c]] + put[tl->cta_sm[c]]++] = c;
    free(put);
    return 0;
}

/* One SM's boundaries, in buffers reused from SM to SM. */
typedef struct sm_edges {
    gs_edge *e, *tmp;
    size_t n, cap;
    gs_unions u;
} sm_edges;

static int edges_room(sm_edges *b, size_t more)
{
    if (b->n + more <= b->cap)
        return 0;
    size_t cap = b->n + more > 2 * b->cap ? b->n + more : 2 * b->cap;
    gs_edge *e = realloc(b->e, cap * sizeof *e);
    if (!e)
        return -1;
    b->e = e;
    free(b->tmp);
    b->tmp = malloc(cap * sizeof *b->tmp);
    if (!b->tmp)
        return -1;
    b->cap = cap;
    return 0;
}

static void add_residency(const gs_timeline *tl, uint32_t c, sm_edges *b)
{
    if (!isnan(tl->cta_t0[c]) && !isnan(tl->cta_t1[c])) {
        b->e[b->n++] = (gs_edge){gs_edge_key(tl->cta_t0[c], 0, 1), RES_KIND, +1};
        b->e[b->n++] = (gs_edge){gs_edge_key(tl->cta_t1[c], 0, 0), RES_KIND, -1};
    }
}

/* Every instance's boundaries: what the sweep counts, always. */
static int gather_instances(const gs_timeline *tl, const cta_index *x, int s, sm_edges *b)
{
    b->n = 0;
    for (size_t q = x->sm_at[s]; q < x->sm_at[s + 1]; q++) {
        uint32_t c = x->by_sm[q];
        if (edges_room(b, 2 * x->count[c] + 2))
            return -1;
        for (size_t i = x->first[c]; i < x->first[c] + x->count[c]; i++) {
            const gs_event *v = &tl->ev[i];
            b->e[b->n++] = (gs_edge){gs_edge_key(v->t0, 0, 1), v->phase, +1};
            b->e[b->n++] = (gs_edge){gs_edge_key(v->t1, 0, 0), v->phase, -1};
        }
        add_residency(tl, c, b);
    }
    return 0;
}

/* Each CTA's per-phase unions instead of its instances: the same instants
 * active, several times fewer boundaries.  1: some CTA needs the instances. */
static int gather_unions(const gs_timeline *tl, const cta_index *x, int s, sm_edges *b)
{
    b->n = 0;
    for (size_t q = x->sm_at[s]; q < x->sm_at[s + 1]; q++) {
        uint32_t c = x->by_sm[q];
        int rc = gs_cta_unions(tl->ev + x->first[c], x->count[c], 0, &b->u);
        if (rc)
            return rc;
        if (edges_room(b, 2 * x->count[c] + 2))
            return -1;
        for (unsigned m = b->u.present; m; m &= m - 1) {
            int p = __builtin_ctz(m);
            const gs_span *sp = b->u.span + b->u.at[p];
            for (size_t k = 0; k < b->u.n[p]; k++) {
                b->e[b->n++] = (gs_edge){sp[k].s << 1 | 1, p, +1};
                b->e[b->n++] = (gs_edge){sp[k].e << 1, p, -1};
            }
        }
        add_residency(tl, c, b);
    }
    return 0;
}

typedef struct smt_sums {
    double cat[GS_SMT_CATEGORIES], exposed[GS_NUM_PHASES], seen_sm_time;
} smt_sums;

/* Which category a stretch with these phases active goes to. */
static inline int category(unsigned mask, int resident)
{
    if (!resident && !(mask & 1u << GS_MAINLOOP)) /* a phase outside any CTA span counts as exposed */
        return mask ? __builtin_ctz(mask) : GS_SMT_IDLE;
    if (mask & 1u << GS_MAINLOOP)
        return GS_MAINLOOP;
    for (int k = 0; k < GS_NUM_PHASES - 1 && mask; k++)
        if (mask >> GS_EXPOSE_ORDER[k] & 1)
            return GS_EXPOSE_ORDER[k];
    return GS_SMT_RESIDENT;
}

/* Whether x + d is what adding the pieces of d one at a time gives, as a
 * sweep over every instance's boundaries would: the pieces lie on the 1/8 ns
 * grid (a piece ending at the span last), so no sum rounds before the last
 * one while x is on that grid too, or while the sums stay in x's binade. */
static int adds_exactly(double x, double d)
{
    double y = x + d;
    uint64_t bx, by;
    memcpy(&bx, &x, sizeof bx);
    memcpy(&by, &y, sizeof by);
    if (!(y < 0x1p50)) /* 1/8 ns no longer representable */
        return 0;
    if (bx >> 52 == by >> 52) /* same binade (the sums are never negative) */
        return 1;
    double g = x * 8.0;
    return g == (double)(int64_t)g;
}

/* Books a stretch of d ns with these phases active. */
static inline void book(smt_sums *sum, double *exp_sm, unsigned mask, int resident, double d)
{
    sum->cat[category(mask, resident)] += d;
    if (!(mask & 1u << GS_MAINLOOP))
        for (unsigned b = mask; b; b &= b - 1) {
            int p = __builtin_ctz(b);
            sum->exposed[p] += d;
            exp_sm[p] += d;
        }
    sum->seen_sm_time += d;
}

/* Whether booking d at once gives every sum what booking it piece by piece does. */
static int books_exactly(const smt_sums *sum, const double *exp_sm, unsigned mask, int resident, double d)
{
    if (!adds_exactly(sum->cat[category(mask, resident)], d) || !adds_exactly(sum->seen_sm_time, d))
        return 0;
    if (!(mask & 1u << GS_MAINLOOP))
        for (unsigned b = mask; b; b &= b - 1)
            if (!adds_exactly(sum->exposed[__builtin_ctz(b)], d) || !adds_exactly(exp_sm[__builtin_ctz(b)], d))
                return 0;
    return 1;
}

/* Whether a whole SM, which adds at most `span` to any sum, books exactly
 * what its instances' pieces would: then no stretch needs checking. */
static int sm_books_exactly(const smt_sums *sum, const double *exp_sm, double span)
{
    for (int c = 0; c < GS_SMT_CATEGORIES; c++)
        if (!adds_exactly(sum->cat[c], span))
            return 0;
    for (int p = 0; p < GS_NUM_PHASES; p++)
        if (!adds_exactly(sum->exposed[p], span) || !adds_exactly(exp_sm[p], span))
            return 0;
    return adds_exactly(sum->seen_sm_time, span);
}

/* Where the instances of one SM are, for stretches the unions merged. */
typedef struct sm_instances {
    const gs_timeline *tl;
    const cta_index *x;
    int s;
    double *t;   /* scratch: instance boundaries inside a stretch */
    size_t cap;
} sm_instances;

/* The instance boundaries strictly inside (lo, hi), sorted; -1 out of memory. */
static long boundaries_inside(sm_instances *in, double lo, double hi)
{
    size_t n = 0;
    for (size_t q = in->x->sm_at[in->s]; q < in->x->sm_at[in->s + 1]; q++) {
        uint32_t c = in->x->by_sm[q];
        for (size_t i = in->x->first[c]; i < in->x->first[c] + in->x->count[c]; i++) {
            double b[2] = {gs_edge_time(gs_edge_key(in->tl->ev[i].t0, 0, 1), 0),
                           gs_edge_time(gs_edge_key(in->tl->ev[i].t1, 0, 0), 0)};
            for (int k = 0; k < 2; k++) {
                if (!(b[k] > lo && b[k] < hi))
                    continue;
                if (n == in->cap) {
                    size_t cap = in->cap ? 2 * in->cap : 64;
                    double *t = realloc(in->t, cap * sizeof *t);
                    if (!t)
                        return -1;
                    in->t = t, in->cap = cap;
                }
                in->t[n++] = b[k];
            }
        }
    }
    if (n > 1)
        qsort(in->t, n, sizeof *in->t, gs_cmp_double);
    return (long)n;
}

/* Books the stretch (prev, t) in the pieces a sweep over the instances would. */
static int book_pieces(sm_instances *in, double prev, double t, smt_sums *sum, double *exp_sm, unsigned mask,
                       int resident)
{
    long n = boundaries_inside(in, prev, t);
    if (n < 0)
        return -1;
    for (long i = 0; i <= n; i++) {
        double u = i < n ? in->t[i] : t;
        if (u > prev)
            book(sum, exp_sm, mask, resident, u - prev);
        prev = u;
    }
    return 0;
}

/* Sweeps one SM's sorted boundaries up to the span; returns the most CTAs
 * resident at once, or -1 out of memory.  With `in`, the boundaries are the
 * CTAs' unions: a stretch whose sums could round differently from the
 * instances' pieces is booked in those pieces. */
static int sweep_sm(const gs_edge *E, size_t n, double span, smt_sums *sum, double *exp_sm, sm_instances *in)
{
    int active[GS_NUM_PHASES + 1] = {0};
    unsigned mask = 0; /* phases active now */
    int resident_now = 0;
    double prev = 0;
    for (size_t i = 0; i <= n; i++) {
        double t = i < n ? gs_edge_time(E[i].key, 0) : span;
        if (t > span)
            t = span;
        double d = t - prev;
        if (d > 0) {
            int resident = active[RES_KIND] > 0;
            if (!in || books_exactly(sum, exp_sm, mask, resident, d))
                book(sum, exp_sm, mask, resident, d);
            else if (book_pieces(in, prev, t, sum, exp_sm, mask, resident))
                return -1;
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
    return resident_now;
}

/* One SM swept over its CTAs' unions, or over its instances where a CTA needs them. */
static int sweep_one_sm(const gs_timeline *tl, const cta_index *x, int s, sm_edges *b, smt_sums *sum,
                        double *exp_sm, double span)
{
    sm_instances in = {tl, x, s, NULL, 0};
    int rc = gather_unions(tl, x, s, b), unions = rc == 0;
    if (rc == 1)
        rc = gather_instances(tl, x, s, b);
    if (rc)
        return -1;
    gs_edges_sort(b->e, b->tmp, b->n);
    int check = unions && !sm_books_exactly(sum, exp_sm, span);
    rc = sweep_sm(b->e, b->n, span, sum, exp_sm, check ? &in : NULL);
    free(in.t);
    return rc;
}

/* The decomposition, one SM at a time through one set of buffers. */
static int decompose(const gs_timeline *tl, const cta_index *x, gs_smtime *out)
{
    sm_edges b;
    smt_sums sum;
    memset(&b, 0, sizeof b);
    memset(&sum, 0, sizeof sum);
    double *exp_sm = calloc((size_t)(tl->n_sm ? tl->n_sm : 1) * GS_NUM_PHASES, sizeof(double));
    int rc = exp_sm ? 0 : -1;
    for (int s = 0; s < tl->n_sm && !rc; s++) {
        if (x->sm_at[s] == x->sm_at[s + 1])
            continue;
        int res = sweep_one_sm(tl, x, s, &b, &sum, exp_sm + (size_t)s * GS_NUM_PHASES, out->span_ns);
        if (res < 0)
            rc = -1;
        else if (res > out->resident_per_sm)
            out->resident_per_sm = res;
    }
    if (!rc) {
        /* SMs that ran nothing are idle for the whole span */
        sum.cat[GS_SMT_IDLE] += out->sm_time_ns - sum.seen_sm_time;
        for (int c = 0; c < GS_SMT_CATEGORIES; c++)
            out->share[c] = sum.cat[c] / out->sm_time_ns;
        for (int p = 0; p < GS_NUM_PHASES; p++) {
            out->exposed_share[p] = sum.exposed[p] / out->sm_time_ns;
            double worst = 0;
            for (int s = 0; s < tl->n_sm; s++)
                worst = fmax(worst, exp_sm[(size_t)s * GS_NUM_PHASES + p]);
            out->amdahl_bound[p] = worst / out->span_ns;
        }
    }
    free(exp_sm);
    free(b.e), free(b.tmp);
    gs_unions_free(&b.u);
    return rc;
}

/* One SM's CTAs with a span: their count, latest end and max / median
 * duration (NaN when the median is not positive). */
static int sm_ctas(const gs_timeline *tl, const cta_index *x, int s, double *dur, double *last_end, double *spread)
{
    int m = 0;
    *last_end = -1;
    for (size_t q = x->sm_at[s]; q < x->sm_at[s + 1]; q++) {
        uint32_t c = x->by_sm[q];
        if (isnan(tl->cta_t0[c]) || isnan(tl->cta_t1[c]))
            continue;
        *last_end = fmax(*last_end, tl->cta_t1[c]);
        dur[m++] = tl->cta_t1[c] - tl->cta_t0[c];
    }
    *spread = NAN;
    if (m) {
        const double med = gs_sort_median(dur, m); /* dur[m - 1]: the longest */
        if (med > 0)
            *spread = dur[m - 1] / med;
    }
    return m;
}

/* CTAs per SM, waves, tail, per-SM duration spread. */
static int occupancy(const gs_timeline *tl, const cta_index *x, gs_smtime *out)
{
    double *dur = malloc((tl->ctas ? tl->ctas : 1) * sizeof(double));
    double *spreads = malloc(((size_t)tl->n_sm + 1) * sizeof(double));
    const int n_ends = out->sms > tl->n_sm ? out->sms : tl->n_sm;
    double *ends = calloc((size_t)(n_ends ? n_ends : 1), sizeof(double)); /* 0: ran nothing */
    if (!dur || !spreads || !ends) {
        free(dur), free(spreads), free(ends);
        return -1;
    }
    int used = 0, n_spread = 0;
    double first_out = INFINITY;
    out->ctas_per_sm_min = 1 << 30;
    for (int s = 0; s < tl->n_sm; s++) {
        double last_end, spread;
        int m = sm_ctas(tl, x, s, dur, &last_end, &spread);
        if (!m)
            continue;
        used++;
        out->ctas_per_sm_max = m > out->ctas_per_sm_max ? m : out->ctas_per_sm_max;
        out->ctas_per_sm_min = m < out->ctas_per_sm_min ? m : out->ctas_per_sm_min;
        first_out = fmin(first_out, last_end);
        ends[s] = last_end;
        if (!isnan(spread))
            spreads[n_spread++] = spread;
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
        out->spread_median = gs_sort_median(spreads, n_spread); /* sorts spreads */
        out->spread_worst = spreads[n_spread - 1];
    }
    /* an even spread of the same work would end every SM at their mean end (start offsets,
     * and whatever cannot be cut, make the real gain smaller) */
    if (used && out->span_ns > 0) {
        double sum = 0;
        for (int s = 0; s < n_ends; s++)
            sum += ends[s];
        out->end_median_ns = gs_sort_median(ends, n_ends); /* sorts ends */
        out->end_min_ns = ends[0];
        out->end_max_ns = ends[n_ends - 1];
        out->balance_bound = fmax(0, 1 - sum / n_ends / out->span_ns);
    }
    free(dur), free(spreads), free(ends);
    return 0;
}

/* SMs with a CTA resident over time, one entry per instant that changes it. */
static int busy_over_time(const gs_timeline *tl, gs_smtime *out)
{
    size_t m = 0;
    gs_edge *b = malloc((2 * (size_t)tl->ctas + 1) * sizeof(gs_edge));
    gs_edge *tmp = malloc((2 * (size_t)tl->ctas + 1) * sizeof(gs_edge));
    int *res = calloc((size_t)tl->n_sm + 1, sizeof(int));
    out->busy_t = malloc((2 * (size_t)tl->ctas + 1) * sizeof(double));
    out->busy_n = malloc((2 * (size_t)tl->ctas + 1) * sizeof(int));
    if (!b || !tmp || !res || !out->busy_t || !out->busy_n) {
        free(b), free(tmp), free(res);
        return -1;
    }
    for (uint32_t c = 0; c < tl->ctas; c++)
        if (!isnan(tl->cta_t0[c]) && !isnan(tl->cta_t1[c])) {
            b[m++] = (gs_edge){gs_edge_key(tl->cta_t0[c], 0, 1), tl->cta_sm[c], +1};
            b[m++] = (gs_edge){gs_edge_key(tl->cta_t1[c], 0, 0), tl->cta_sm[c], -1};
        }
    /* the count after each instant does not depend on the order within it */
    gs_edges_sort(b, tmp, m);
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
    free(b), free(tmp), free(res);
    return 0;
}

int gs_smtime_compute(const gs_timeline *tl, int sm_count, gs_smtime *out)
{
    memset(out, 0, sizeof *out);
    out->span_ns = tl->span_ns;
    out->sms = sm_count > 0 ? sm_count : tl->sms_used;
    out->sm_time_ns = out->sms * out->span_ns;
    if (out->sm_time_ns <= 0)
        return 0;
    cta_index x;
    memset(&x, 0, sizeof x);
    int rc = cta_index_build(tl, tl->n_sm, &x);
    if (!rc)
        rc = decompose(tl, &x, out);
    if (!rc)
        rc = occupancy(tl, &x, out);
    if (!rc)
        rc = busy_over_time(tl, out);
    cta_index_free(&x);
    if (rc)
        gs_smtime_free(out);
    return rc;
}

void gs_smtime_free(gs_smtime *s)
{
    free(s->busy_t);
    free(s->busy_n);
    s->busy_t = NULL;
    s->busy_n = NULL;
    s->n_busy = 0;
}
