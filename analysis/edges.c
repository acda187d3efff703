#include "edges.h"

#include <stdlib.h>
#include <string.h>

/* Small arrays (one CTA's boundaries) sort fastest with 8-bit digits, large
 * ones (one SM's) with 11-bit digits; a pass whose digit is the same for every
 * key is skipped. */
static void radix(gs_edge *e, gs_edge *tmp, size_t n, uint64_t max, int bits)
{
    const unsigned buckets = 1u << bits, mask = buckets - 1;
    size_t count[1u << 11];
    gs_edge *src = e, *dst = tmp;
    for (int shift = 0; shift < 64 && (max >> shift); shift += bits) {
        memset(count, 0, buckets * sizeof count[0]);
        for (size_t i = 0; i < n; i++)
            count[(src[i].key >> shift) & mask]++;
        if (count[(src[0].key >> shift) & mask] == n)
            continue;
        size_t at = 0;
        for (unsigned b = 0; b < buckets; b++) {
            size_t c = count[b];
            count[b] = at;
            at += c;
        }
        for (size_t i = 0; i < n; i++)
            dst[count[(src[i].key >> shift) & mask]++] = src[i];
        gs_edge *t = src;
        src = dst;
        dst = t;
    }
    if (src != e)
        memcpy(e, src, n * sizeof *e);
}

void gs_edges_sort(gs_edge *e, gs_edge *tmp, size_t n)
{
    if (n < 2)
        return;
    if (n < 64) { /* insertion sort: cheaper than any histogram */
        for (size_t i = 1; i < n; i++) {
            gs_edge x = e[i];
            size_t j = i;
            while (j > 0 && e[j - 1].key > x.key) {
                e[j] = e[j - 1];
                j--;
            }
            e[j] = x;
        }
        return;
    }
    uint64_t max = 0;
    for (size_t i = 0; i < n; i++)
        max |= e[i].key;
    radix(e, tmp, n, max, n < 8192 ? 8 : 11);
}

double gs_select(double *v, size_t n, size_t k)
{
    size_t lo = 0, hi = n - 1;
    while (lo < hi) {
        /* median of three as pivot */
        size_t mid = lo + (hi - lo) / 2;
        double a = v[lo], b = v[mid], c = v[hi];
        double p = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));
        size_t i = lo, j = hi;
        while (i <= j) {
            while (v[i] < p)
                i++;
            while (v[j] > p)
                j--;
            if (i <= j) {
                double t = v[i];
                v[i] = v[j];
                v[j] = t;
                i++;
                if (j == 0)
                    break;
                j--;
            }
        }
        if (k <= j)
            hi = j;
        else if (k >= i)
            lo = i;
        else
            return v[k];
    }
    return v[k];
}

void gs_unions_free(gs_unions *u)
{
    free(u->span);
    free(u->tmp);
    memset(u, 0, sizeof *u);
}

static int unions_reserve(gs_unions *u, size_t n)
{
    if (n <= u->cap)
        return 0;
    size_t cap = n > 2 * u->cap ? n : 2 * u->cap;
    gs_span *a = realloc(u->span, cap * sizeof *a);
    if (!a)
        return -1;
    u->span = a;
    gs_span *b = realloc(u->tmp, cap * sizeof *b);
    if (!b)
        return -1;
    u->tmp = b;
    u->cap = cap;
    return 0;
}

/* How a CTA's instances of each phase are laid out before sorting.  Warps of
 * a CTA mostly run in step, so when every warp that has phase p has the same
 * number of instances, placing the m-th instance of all those warps together
 * (m major, warp minor) leaves p's spans nearly sorted by start. */
typedef struct span_layout {
    size_t count[GS_NUM_PHASES];
    uint32_t warps[GS_NUM_PHASES];    /* warps (runs of one warp id) with phase p */
    uint32_t per_warp[GS_NUM_PHASES]; /* instances per warp, if the same for all */
    unsigned ragged;                  /* bit p: warps differ in their count of p */
} span_layout;

static void close_warp(span_layout *l, uint32_t *cur, unsigned *seen)
{
    for (unsigned b = *seen; b; b &= b - 1) {
        int p = __builtin_ctz(b);
        if (l->warps[p] == 0)
            l->per_warp[p] = cur[p];
        else if (cur[p] != l->per_warp[p])
            l->ragged |= 1u << p;
        l->warps[p]++;
        cur[p] = 0;
    }
    *seen = 0;
}

static void plan_layout(const gs_event *ev, size_t n, span_layout *l)
{
    uint32_t cur[GS_NUM_PHASES] = {0};
    unsigned seen = 0;
    memset(l, 0, sizeof *l);
    for (size_t i = 0; i < n; i++) {
        if (i && ev[i].warp != ev[i - 1].warp)
            close_warp(l, cur, &seen);
        int p = ev[i].phase;
        cur[p]++;
        l->count[p]++;
        seen |= 1u << p;
    }
    close_warp(l, cur, &seen);
}

/* Keys every instance and puts it where plan_layout says; 1 if one ends before it starts. */
static int place_spans(const gs_event *ev, size_t n, double origin, const span_layout *l, gs_unions *u)
{
    uint32_t m[GS_NUM_PHASES] = {0}, rank[GS_NUM_PHASES] = {0};
    size_t fill[GS_NUM_PHASES] = {0};
    unsigned seen = 0;
    uint64_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        if (i && ev[i].warp != ev[i - 1].warp) {
            for (unsigned b = seen; b; b &= b - 1) {
                int p = __builtin_ctz(b);
                rank[p]++;
                m[p] = 0;
            }
            seen = 0;
        }
        int p = ev[i].phase;
        uint64_t s = gs_edge_key(ev[i].t0, origin, 0) >> 1, e = gs_edge_key(ev[i].t1, origin, 0) >> 1;
        bad |= e < s;
        size_t slot = l->ragged >> p & 1 ? fill[p]++ : (size_t)m[p] * l->warps[p] + rank[p];
        u->span[u->at[p] + slot] = (gs_span){s, e};
        m[p]++;
        seen |= 1u << p;
    }
    return bad != 0;
}

/* Bottom-up merge sort by start; tmp holds n spans. */
static void merge_sort_spans(gs_span *a, gs_span *tmp, size_t n)
{
    gs_span *src = a, *dst = tmp;
    for (size_t w = 1; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                dst[k++] = src[j].s < src[i].s ? src[j++] : src[i++];
            while (i < mid)
                dst[k++] = src[i++];
            while (j < hi)
                dst[k++] = src[j++];
        }
        gs_span *t = src;
        src = dst;
        dst = t;
    }
    if (src != a)
        memcpy(a, src, n * sizeof *a);
}

/* Sorts by start: insertion sort while the input is nearly sorted (the usual
 * case after place_spans), merge sort once it proves not to be. */
static void sort_spans(gs_span *a, gs_span *tmp, size_t n)
{
    size_t budget = 4 * n + 64;
    for (size_t i = 1; i < n; i++) {
        if (a[i].s >= a[i - 1].s)
            continue;
        gs_span x = a[i];
        size_t j = i;
        while (j > 0 && a[j - 1].s > x.s) {
            a[j] = a[j - 1];
            j--;
        }
        a[j] = x;
        if (i - j >= budget) {
            merge_sort_spans(a, tmp, n);
            return;
        }
        budget -= i - j;
    }
}

/* Spans sorted by start to their union, in place; empty spans cover nothing. */
static size_t union_sorted(gs_span *a, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (a[i].e <= a[i].s)
            continue;
        if (k && a[i].s <= a[k - 1].e) {
            if (a[i].e > a[k - 1].e)
                a[k - 1].e = a[i].e;
        } else {
            a[k++] = a[i];
        }
    }
    return k;
}

int gs_cta_unions(const gs_event *ev, size_t n, double origin, gs_unions *u)
{
    if (unions_reserve(u, n ? n : 1))
        return -1;
    span_layout l;
    plan_layout(ev, n, &l);
    size_t at = 0;
    u->present = 0;
    for (int p = 0; p < GS_NUM_PHASES; p++) {
        u->at[p] = at;
        u->n[p] = 0;
        at += l.count[p];
        if (l.count[p])
            u->present |= 1u << p;
    }
    if (place_spans(ev, n, origin, &l, u))
        return 1;
    for (unsigned b = u->present; b; b &= b - 1) {
        int p = __builtin_ctz(b);
        sort_spans(u->span + u->at[p], u->tmp, l.count[p]);
        u->n[p] = union_sorted(u->span + u->at[p], l.count[p]);
    }
    return 0;
}
