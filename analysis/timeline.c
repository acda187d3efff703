#define _DEFAULT_SOURCE /* madvise */
#include "timeline.h"

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

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int warp_ok(const gs_warp_header *w) { return (w->flags & GS_WARP_STARTED) != 0; }

double gs_timeline_ns(const gs_timeline *tl, int sm, uint64_t clk)
{
    const gs_smfit *f = &tl->fit[sm];
    /* signed cycle difference: records may precede the reference by a little */
    double dc = (double)(int64_t)(clk - f->clk_ref);
    return f->a_ns + f->b_ns_per_cycle * dc;
}

/* Least-squares fit per SM over the warps' calibration pairs.  gt values are
 * taken relative to the global origin so doubles keep sub-ns precision. */
static int fit_sms(const gs_trace *t, gs_timeline *tl)
{
    int n_sm = 0;
    for (size_t w = 0; w < t->n_warps; w++)
        if (warp_ok(&t->warps[w]) && t->warps[w].sm + 1 > n_sm)
            n_sm = t->warps[w].sm + 1;
    tl->n_sm = n_sm;
    tl->fit = calloc((size_t)(n_sm ? n_sm : 1), sizeof(gs_smfit));
    double *sx = calloc((size_t)n_sm + 1, sizeof(double)), *sy = calloc((size_t)n_sm + 1, sizeof(double));
    double *sxx = calloc((size_t)n_sm + 1, sizeof(double)), *sxy = calloc((size_t)n_sm + 1, sizeof(double));
    if (!tl->fit || !sx || !sy || !sxx || !sxy) {
        free(sx), free(sy), free(sxx), free(sxy);
        return -1;
    }
    /* reference cycle per SM: the first start pair seen */
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
    for (size_t w = 0; w < t->n_warps; w++) {
        const gs_warp_header *h = &t->warps[w];
        if (!warp_ok(h))
            continue;
        int s = h->sm;
        gs_smfit *f = &tl->fit[s];
        for (int e = 0; e < 2; e++) {
            if (e == 1 && !(h->flags & GS_WARP_FINISHED))
                continue;
            double x = (double)(int64_t)((e ? h->clk_end : h->clk_start) - f->clk_ref);
            double y = (double)(int64_t)((e ? h->gt_end : h->gt_start) - tl->gt_origin);
            sx[s] += x, sy[s] += y, sxx[s] += x * x, sxy[s] += x * y;
            f->points++;
        }
    }
    double *slopes = malloc((size_t)(n_sm ? n_sm : 1) * sizeof(double));
    int n_slopes = 0;
    for (int s = 0; s < n_sm; s++) {
        gs_smfit *f = &tl->fit[s];
        if (f->points == 0)
            continue;
        double n = f->points, mx = sx[s] / n, my = sy[s] / n;
        double vxx = sxx[s] / n - mx * mx;
        if (f->points >= 2 && vxx > 1.0) {
            f->b_ns_per_cycle = (sxy[s] / n - mx * my) / vxx;
            f->a_ns = my - f->b_ns_per_cycle * mx;
            if (slopes && f->b_ns_per_cycle > 0)
                slopes[n_slopes++] = f->b_ns_per_cycle;
        } else {
            f->fallback = 1;
            f->a_ns = my; /* slope filled in below */
            f->b_ns_per_cycle = mx; /* keep mean x for now */
        }
    }
    double b_med = 0.5; /* 2 GHz if nothing better is known */
    if (n_slopes) {
        qsort(slopes, (size_t)n_slopes, sizeof(double), cmp_double);
        b_med = slopes[n_slopes / 2];
    }
    tl->clock_ghz = 1.0 / b_med;
    for (int s = 0; s < n_sm; s++) {
        gs_smfit *f = &tl->fit[s];
        if (f->points && f->fallback) {
            double mx = f->b_ns_per_cycle, my = f->a_ns;
            f->b_ns_per_cycle = b_med;
            f->a_ns = my - b_med * mx;
        }
    }
    free(slopes);
    free(sx), free(sy), free(sxx), free(sxy);
    /* residuals */
    for (size_t w = 0; w < t->n_warps; w++) {
        const gs_warp_header *h = &t->warps[w];
        if (!warp_ok(h))
            continue;
        gs_smfit *f = &tl->fit[h->sm];
        for (int e = 0; e < 2; e++) {
            if (e == 1 && !(h->flags & GS_WARP_FINISHED))
                continue;
            double y = (double)(int64_t)((e ? h->gt_end : h->gt_start) - tl->gt_origin);
            double r = fabs(y - gs_timeline_ns(tl, h->sm, e ? h->clk_end : h->clk_start));
            if (r > f->resid_max_ns)
                f->resid_max_ns = r;
        }
    }
    for (int s = 0; s < n_sm; s++) {
        if (tl->fit[s].points) {
            tl->sms_used++;
            if (tl->fit[s].resid_max_ns > tl->resid_max_ns)
                tl->resid_max_ns = tl->fit[s].resid_max_ns;
        }
    }
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

/* The warp's kept records as events from ev[k]; returns the next free index. */
static size_t place_events(const gs_trace *t, size_t w, gs_timeline *tl, size_t k, double *end_max)
{
    const gs_warp_header *h = &t->warps[w];
    const gs_smfit *f = &tl->fit[h->sm];
    const gs_record *r = &t->records[t->first[w]];
    uint32_t cta = (uint32_t)(w / t->warps_per_cta), n = gs_kept(t, w);
    double a = f->a_ns, b = f->b_ns_per_cycle, m = *end_max;
    for (uint32_t i = 0; i < n; i++) {
        gs_event *e = &tl->ev[k++];
        double dc = (double)(int64_t)(r[i].clk_begin - f->clk_ref);
        e->t0 = a + b * dc;
        e->t1 = e->t0 + b * r[i].clk_dur;
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
    for (int s = 0; s < tl->n_sm; s++)
        tl->fit[s].a_ns -= t_min;
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
    free(tl->warp_t0);
    free(tl->warp_t1);
    free(tl->cta_t0);
    free(tl->cta_t1);
    free(tl->cta_sm);
    free(tl->cta_first);
    free(tl->ev);
    memset(tl, 0, sizeof *tl);
}
