#define _DEFAULT_SOURCE /* madvise */
#include "timeline.h"
#include "../instrument/gs_stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* malloc for an array about to be filled completely.  A large block gets
 * its pages mapped in one call, which costs about 40% less than taking one
 * fault per fresh page; if the call fails, only that gain is lost. */
static void *alloc_filled(size_t bytes)
{
    unsigned char *p = malloc(bytes ? bytes : 1);
#ifdef MADV_POPULATE_WRITE
    long page = sysconf(_SC_PAGESIZE);
    if (p && page > 0 && bytes >= (size_t)1 << 20) {
        uintptr_t lo = ((uintptr_t)p + (uintptr_t)page - 1) & ~((uintptr_t)page - 1);
        uintptr_t hi = ((uintptr_t)p + bytes) & ~((uintptr_t)page - 1);
        if (hi > lo)
            (void)madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE);
    }
#endif
    return p;
}

static int warp_ok(const gs_warp_header *w) { return (w->flags & GS_WARP_STARTED) != 0; }

/* The model between the knots around x (cycles from clk_ref); the end segments extend
 * beyond the first and last knot. */
static double interpolate(const gs_smfit *f, double x)
{
    int lo = 0, hi = f->knots - 1;
    if (x <= f->kx[0])
        hi = 1;
    else if (x >= f->kx[hi])
        lo = hi - 1;
    else
        while (hi - lo > 1) {
            int mid = (lo + hi) / 2;
            if (f->kx[mid] <= x)
                lo = mid;
            else
                hi = mid;
        }
    double dx = f->kx[hi] - f->kx[lo];
    return dx > 0 ? f->ky[lo] + (f->ky[hi] - f->ky[lo]) * (x - f->kx[lo]) / dx : f->ky[lo];
}

/* The SM's model at x cycles from its clk_ref: through the knots, or its line. */
static double model_at(const gs_smfit *f, double x)
{
    return f->knots >= 2 ? interpolate(f, x) : f->a_ns + f->b_ns_per_cycle * x;
}

double gs_timeline_ns(const gs_timeline *tl, int sm, uint64_t clk)
{
    const gs_smfit *f = &tl->fit[sm];
    /* signed cycle difference: records may precede the reference by a little */
    return model_at(f, (double)(int64_t)(clk - f->clk_ref));
}

typedef struct clock_pair {
    double x, y; /* cycles from the SM's clk_ref, ns from gt_origin */
} clock_pair;

static int cmp_pair(const void *a, const void *b)
{
    double x = ((const clock_pair *)a)->x, y = ((const clock_pair *)b)->x;
    return (x > y) - (x < y);
}

/* Candidate i of warp w's calibration pairs (0 its start pair, 1 its end pair, 2.. its
 * records): 1 with the pair in *gt, *clk where it is one (the end pair of a finished warp, a
 * GS_CLOCK_PAIR record), else 0.  The warp must have started (warp_ok). */
static int warp_pair(const gs_trace *t, size_t w, uint32_t i, uint64_t *gt, uint64_t *clk)
{
    const gs_warp_header *h = &t->warps[w];
    const gs_record *r = &t->records[t->first[w]];
    if (i == 0)
        *gt = h->gt_start, *clk = h->clk_start;
    else if (i == 1 && (h->flags & GS_WARP_FINISHED))
        *gt = h->gt_end, *clk = h->clk_end;
    else if (i >= 2 && r[i - 2].phase == GS_CLOCK_PAIR)
        *gt = r[i - 2].gt_begin, *clk = r[i - 2].clk_begin;
    else
        return 0;
    return 1;
}

/* Counts every SM's calibration pairs (fit[].points), and the clock sampler's pairs and their
 * widest bracket. */
static void count_pairs(const gs_trace *t, gs_timeline *tl)
{
    for (size_t w = 0; w < t->n_warps; w++) {
        if (!warp_ok(&t->warps[w]))
            continue;
        const gs_record *r = &t->records[t->first[w]];
        const uint32_t n = gs_kept(t, w);
        uint64_t gt, clk;
        for (uint32_t i = 0; i < n + 2; i++) {
            if (!warp_pair(t, w, i, &gt, &clk))
                continue;
            tl->fit[t->warps[w].sm].points++;
            if (i >= 2) {
                tl->clock_pairs++;
                if (r[i - 2].clk_dur > tl->clock_bracket_max)
                    tl->clock_bracket_max = r[i - 2].clk_dur;
            }
        }
    }
}

/* Stores every calibration pair at pairs[off[sm] + fill[sm]++], relative to its SM's clk_ref
 * and the global origin. */
static void store_pairs(const gs_trace *t, const gs_timeline *tl, const size_t *off, size_t *fill, clock_pair *pairs)
{
    for (size_t w = 0; w < t->n_warps; w++) {
        const gs_warp_header *h = &t->warps[w];
        if (!warp_ok(h))
            continue;
        const uint32_t n = gs_kept(t, w);
        uint64_t gt, clk;
        for (uint32_t i = 0; i < n + 2; i++) {
            if (!warp_pair(t, w, i, &gt, &clk))
                continue;
            clock_pair *q = &pairs[off[h->sm] + fill[h->sm]++];
            q->x = (double)(int64_t)(clk - tl->fit[h->sm].clk_ref);
            q->y = (double)(int64_t)(gt - tl->gt_origin);
        }
    }
}

/* Merges an SM's pairs (sorted by cycles) into knots at least GS_KNOT_MIN_NS apart: each knot
 * is the mean of a run of pairs, so pairs taken together (a CTA's warps starting) count once
 * and their read jitter averages out.  Returns the number of knots written to kx/ky. */
static int make_knots(const clock_pair *p, int n, double *kx, double *ky)
{
    int k = 0;
    for (int i = 0; i < n;) {
        double sx = 0, sy = 0;
        int j = i;
        for (; j < n && p[j].y - p[i].y < GS_KNOT_MIN_NS; j++)
            sx += p[j].x, sy += p[j].y;
        kx[k] = sx / (j - i);
        ky[k] = sy / (j - i);
        k++;
        i = j;
    }
    return k;
}

/* Per SM: the least-squares line through its pairs (mean clock, fallback) and the knots of
 * the piecewise-linear model; then residuals, held-out errors and the clock range.  gt values
 * are taken relative to the global origin so doubles keep sub-ns precision. */
static int fit_sms(const gs_trace *t, gs_timeline *tl)
{
    int n_sm = 0;
    for (size_t w = 0; w < t->n_warps; w++)
        if (warp_ok(&t->warps[w]) && t->warps[w].sm + 1 > n_sm)
            n_sm = t->warps[w].sm + 1;
    tl->n_sm = n_sm;
    tl->fit = calloc((size_t)(n_sm ? n_sm : 1), sizeof(gs_smfit));
    size_t *off = calloc((size_t)n_sm + 1, sizeof(size_t));
    if (!tl->fit || !off) {
        free(off);
        return -1;
    }
    /* reference cycle per SM: the earliest start pair */
    for (size_t w = 0; w < t->n_warps; w++) {
        const gs_warp_header *h = &t->warps[w];
        if (!warp_ok(h))
            continue;
        gs_smfit *f = &tl->fit[h->sm];
        if (f->points == 0 || (int64_t)(h->clk_start - f->clk_ref) < 0)
            f->clk_ref = h->clk_start;
        f->points = 1;
    }
    for (int s = 0; s < n_sm; s++)
        tl->fit[s].points = 0;
    count_pairs(t, tl);
    size_t total = 0;
    for (int s = 0; s < n_sm; s++) {
        off[s] = total;
        total += (size_t)tl->fit[s].points;
    }
    off[n_sm] = total;
    clock_pair *pairs = malloc((total ? total : 1) * sizeof *pairs);
    tl->knot_store = malloc(2 * (total ? total : 1) * sizeof(double));
    double *slopes = malloc((size_t)(n_sm ? n_sm : 1) * sizeof(double));
    size_t *fill = calloc((size_t)n_sm + 1, sizeof(size_t));
    if (!pairs || !tl->knot_store || !slopes || !fill) {
        free(pairs), free(slopes), free(fill), free(off);
        return -1;
    }
    store_pairs(t, tl, off, fill, pairs);
    free(fill);

    int n_slopes = 0;
    for (int s = 0; s < n_sm; s++) {
        gs_smfit *f = &tl->fit[s];
        if (f->points == 0)
            continue;
        clock_pair *p = &pairs[off[s]];
        double sx = 0, sy = 0, sxx = 0, sxy = 0, n = f->points;
        for (int i = 0; i < f->points; i++)
            sx += p[i].x, sy += p[i].y, sxx += p[i].x * p[i].x, sxy += p[i].x * p[i].y;
        double mx = sx / n, my = sy / n, vxx = sxx / n - mx * mx;
        if (f->points >= 2 && vxx > 1.0) {
            f->b_ns_per_cycle = (sxy / n - mx * my) / vxx;
            f->a_ns = my - f->b_ns_per_cycle * mx;
            if (f->b_ns_per_cycle > 0)
                slopes[n_slopes++] = f->b_ns_per_cycle;
        } else {
            f->fallback = 1;
            f->a_ns = my;           /* slope filled in below */
            f->b_ns_per_cycle = mx; /* keep mean x for now */
        }
        qsort(p, (size_t)f->points, sizeof *p, cmp_pair);
        f->kx = tl->knot_store + 2 * off[s];
        f->ky = f->kx + f->points;
        f->knots = make_knots(p, f->points, f->kx, f->ky);
        if (f->knots < 2)
            f->knots = 0; /* one knot: the SM's line (the median slope when its pairs span no time) */
    }
    double b_med = 0.5; /* 2 GHz if nothing better is known */
    if (n_slopes) {
        b_med = gs_sort_median(slopes, n_slopes);
    }
    free(slopes);
    tl->clock_ghz = 1.0 / b_med;
    for (int s = 0; s < n_sm; s++) {
        gs_smfit *f = &tl->fit[s];
        if (f->points && f->fallback) {
            double mx = f->b_ns_per_cycle, my = f->a_ns;
            f->b_ns_per_cycle = b_med;
            f->a_ns = my - b_med * mx;
        }
    }
    /* residuals of every pair; held-out errors; clock range; knot gaps */
    tl->heldout_max_ns = tl->clock_ghz_lo = tl->clock_ghz_hi = NAN;
    size_t n_gaps = 0;
    double *gaps = malloc((total ? total : 1) * sizeof(double));
    if (!gaps) {
        free(pairs), free(off);
        return -1;
    }
    for (int s = 0; s < n_sm; s++) {
        gs_smfit *f = &tl->fit[s];
        f->heldout_max_ns = NAN;
        if (f->points == 0)
            continue;
        tl->sms_used++;
        const clock_pair *p = &pairs[off[s]];
        for (int i = 0; i < f->points; i++) {
            const double m = model_at(f, p[i].x);
            if (fabs(p[i].y - m) > f->resid_max_ns)
                f->resid_max_ns = fabs(p[i].y - m);
        }
        if (f->resid_max_ns > tl->resid_max_ns)
            tl->resid_max_ns = f->resid_max_ns;
        for (int i = 0, j = 0; i + 1 < f->knots; i++) {
            gaps[n_gaps++] = f->ky[i + 1] - f->ky[i];
            /* the clock over the shortest run of knots at least 1 us long from knot i */
            if (j <= i)
                j = i + 1;
            while (j + 1 < f->knots && f->ky[j] - f->ky[i] < 1000.0)
                j++;
            double dy = f->ky[j] - f->ky[i], dx = f->kx[j] - f->kx[i];
            if (dy >= 1000.0 && dx > 0) {
                double ghz = dx / dy;
                if (isnan(tl->clock_ghz_lo) || ghz < tl->clock_ghz_lo)
                    tl->clock_ghz_lo = ghz;
                if (isnan(tl->clock_ghz_hi) || ghz > tl->clock_ghz_hi)
                    tl->clock_ghz_hi = ghz;
            }
        }
        for (int i = 1; i + 1 < f->knots; i++) {
            double u = (f->kx[i] - f->kx[i - 1]) / (f->kx[i + 1] - f->kx[i - 1]);
            double e = fabs(f->ky[i] - (f->ky[i - 1] + u * (f->ky[i + 1] - f->ky[i - 1])));
            if (isnan(f->heldout_max_ns) || e > f->heldout_max_ns)
                f->heldout_max_ns = e;
            tl->heldout_knots++;
        }
        if (f->knots >= 3)
            tl->heldout_sms++;
        if (!isnan(f->heldout_max_ns) && (isnan(tl->heldout_max_ns) || f->heldout_max_ns > tl->heldout_max_ns))
            tl->heldout_max_ns = f->heldout_max_ns;
    }
    if (n_gaps) {
        tl->knot_gap_ns = gs_sort_median(gaps, (int)n_gaps);
    }
    free(gaps);
    free(pairs);
    free(off);
    return 0;
}

static int alloc_arrays(const gs_trace *t, gs_timeline *tl)
{
    tl->n_warps = t->n_warps;
    tl->ctas = t->ctas;
    tl->warp_t0 = malloc(t->n_warps * sizeof(double));
    tl->warp_t1 = malloc(t->n_warps * sizeof(double));
    tl->cta_t0 = malloc(t->ctas * sizeof(double));
    tl->cta_t1 = malloc(t->ctas * sizeof(double));
    tl->cta_sm = calloc(t->ctas, sizeof(uint16_t));
    tl->cta_first = malloc(((size_t)t->ctas + 1) * sizeof(size_t));
    tl->ev = alloc_filled(t->n_records * sizeof(gs_event));
    if (!tl->warp_t0 || !tl->warp_t1 || !tl->cta_t0 || !tl->cta_t1 || !tl->cta_sm || !tl->cta_first || !tl->ev)
        return -1;
    for (uint32_t c = 0; c < t->ctas; c++)
        tl->cta_t0[c] = tl->cta_t1[c] = NAN;
    return 0;
}

/* A started warp's span, its CTA's span and SM, the overflow count. */
static void place_warp(const gs_trace *t, size_t w, gs_timeline *tl, double *end_max)
{
    const gs_warp_header *h = &t->warps[w];
    uint32_t cta = (uint32_t)(w / t->warps_per_cta);
    if (h->events > t->capacity) {
        tl->dropped += h->events - t->capacity;
        tl->warps_overflowed++;
    }
    tl->warp_t0[w] = gs_timeline_ns(tl, h->sm, h->clk_start);
    tl->warp_t1[w] = NAN;
    if (h->flags & GS_WARP_FINISHED)
        tl->warp_t1[w] = gs_timeline_ns(tl, h->sm, h->clk_end);
    else
        tl->warps_unfinished++;
    tl->cta_sm[cta] = h->sm;
    if (isnan(tl->cta_t0[cta]) || tl->warp_t0[w] < tl->cta_t0[cta])
        tl->cta_t0[cta] = tl->warp_t0[w];
    if (!isnan(tl->warp_t1[w]) && (isnan(tl->cta_t1[cta]) || tl->warp_t1[w] > tl->cta_t1[cta]))
        tl->cta_t1[cta] = tl->warp_t1[w];
    if (tl->warp_t1[w] > *end_max)
        *end_max = tl->warp_t1[w];
}

/* The warp's kept records as events from ev[k] (clock pairs are calibration, not events);
 * returns the next free index. */
static size_t place_events(const gs_trace *t, size_t w, gs_timeline *tl, size_t k, double *end_max)
{
    const gs_warp_header *h = &t->warps[w];
    const gs_record *r = &t->records[t->first[w]];
    uint32_t cta = (uint32_t)(w / t->warps_per_cta), n = gs_kept(t, w);
    double m = *end_max;
    for (uint32_t i = 0; i < n; i++) {
        if (r[i].phase == GS_CLOCK_PAIR)
            continue;
        gs_event *e = &tl->ev[k++];
        e->t0 = gs_timeline_ns(tl, h->sm, r[i].clk_begin);
        e->t1 = gs_timeline_ns(tl, h->sm, r[i].clk_begin + r[i].clk_dur);
        e->cta = cta;
        e->warp = h->warp;
        e->sm = h->sm;
        e->tile = r[i].tile;
        e->group = r[i].group;
        e->phase = r[i].phase;
        e->role = r[i].role;
        if (e->t1 > m)
            m = e->t1;
    }
    *end_max = m;
    return k;
}

int gs_timeline_build(const gs_trace *t, gs_timeline *tl, char *err, size_t errlen)
{
    memset(tl, 0, sizeof *tl);
    int any = 0;
    for (size_t w = 0; w < t->n_warps; w++) {
        const gs_warp_header *h = &t->warps[w];
        if (!warp_ok(h))
            continue;
        if (!any || (int64_t)(h->gt_start - tl->gt_origin) < 0)
            tl->gt_origin = h->gt_start;
        any = 1;
    }
    if (!any) {
        snprintf(err, errlen, "no warp recorded a start: the kernel did not run its GS_INIT");
        return -1;
    }
    if (fit_sms(t, tl)) {
        snprintf(err, errlen, "out of memory fitting clocks");
        goto oom;
    }
    /* origin: shift so the earliest fitted warp start is 0 */
    double t_min = INFINITY;
    for (size_t w = 0; w < t->n_warps; w++)
        if (warp_ok(&t->warps[w])) {
            double x = gs_timeline_ns(tl, t->warps[w].sm, t->warps[w].clk_start);
            if (x < t_min)
                t_min = x;
        }
    for (int s = 0; s < tl->n_sm; s++) {
        tl->fit[s].a_ns -= t_min;
        for (int i = 0; i < tl->fit[s].knots; i++)
            tl->fit[s].ky[i] -= t_min;
    }
    tl->gt_origin += (uint64_t)(int64_t)llround(t_min);

    if (alloc_arrays(t, tl)) {
        snprintf(err, errlen, "out of memory for %zu events", t->n_records);
        goto oom;
    }
    double end_max = 0;
    size_t k = 0;
    for (size_t w = 0; w < t->n_warps; w++) {
        if (w % t->warps_per_cta == 0)
            tl->cta_first[w / t->warps_per_cta] = k;
        if (!warp_ok(&t->warps[w])) {
            tl->warp_t0[w] = tl->warp_t1[w] = NAN;
            continue;
        }
        place_warp(t, w, tl, &end_max);
        k = place_events(t, w, tl, k, &end_max);
    }
    tl->cta_first[t->ctas] = k;
    tl->n_events = k;
    tl->span_ns = end_max;
    return 0;
oom:
    gs_timeline_free(tl);
    return -1;
}

void gs_timeline_free(gs_timeline *tl)
{
    free(tl->fit);
    free(tl->knot_store);
    free(tl->warp_t0);
    free(tl->warp_t1);
    free(tl->cta_t0);
    free(tl->cta_t1);
    free(tl->cta_sm);
    free(tl->cta_first);
    free(tl->ev);
    memset(tl, 0, sizeof *tl);
}
