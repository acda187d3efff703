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
    free(u->seq_phase);
    free(u->seq_at);
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

static void close_warp(gs_span_layout *l, uint32_t *cur, unsigned *seen)
{
    for (unsigned b = *seen; b; b &= b - 1) {
        int p = __builtin_ctz(b);
        if (l->warps[p] == 0)
            l->per_warp[p] = cur[p];
        else if (cur[p] != l->per_warp[p])
            l->ragged |= 1u << p;
        l->count[p] += cur[p];
        l->warps[p]++;
        cur[p] = 0;
    }
    *seen = 0;
}

static int same_layout(const gs_span_layout *a, const gs_span_layout *b)
{
    return a->ragged == b->ragged && !memcmp(a->count, b->count, sizeof a->count) &&
           !memcmp(a->warps, b->warps, sizeof a->warps) && !memcmp(a->per_warp, b->per_warp, sizeof a->per_warp);
}

static void set_offsets(const gs_span_layout *l, gs_unions *u)
{
    size_t at = 0;
    u->present = 0;
    for (int p = 0; p < GS_NUM_PHASES; p++) {
        u->at[p] = at;
        u->n[p] = 0;
        at += l->count[p];
        if (l->count[p])
            u->present |= 1u << p;
    }
}

/* Keys every instance and puts it where the layout `plan` says, while
 * measuring the actual layout into `got`; a slot outside the plan is not
 * written (the caller places again with the actual layout).  Returns 1 if
 * an instance ends before it starts. */
static int place_spans(const gs_event *ev, size_t n, double origin, const gs_span_layout *plan,
                       gs_span_layout *got, gs_unions *u, int *misfit)
{
    uint32_t cur[GS_NUM_PHASES] = {0};
    size_t fill[GS_NUM_PHASES] = {0};
    unsigned seen = 0;
    uint64_t bad = 0;
    int out = 0;
    memset(got, 0, sizeof *got);
    for (size_t i = 0; i < n; i++) {
        if (i && ev[i].warp != ev[i - 1].warp)
            close_warp(got, cur, &seen);
        int p = ev[i].phase;
        uint64_t s = gs_edge_key(ev[i].t0, origin, 0) >> 1, e = gs_edge_key(ev[i].t1, origin, 0) >> 1;
        bad |= e < s;
        /* got->warps[p]: this warp's rank among the warps with phase p */
        size_t slot = plan->ragged >> p & 1 ? fill[p]++ : (size_t)cur[p] * plan->warps[p] + got->warps[p];
        if (slot < plan->count[p])
            u->span[u->at[p] + slot] = (gs_span){s, e};
        else
            out = 1;
        cur[p]++;
        seen |= 1u << p;
    }
    close_warp(got, cur, &seen);
    *misfit = out || !same_layout(plan, got);
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

/* The union of a[0..n), sorted by start, in a[0..k); returns k.  Stops
 * early at a span that starts before the one before it: *stop = its index,
 * and a[0..k) is the union of what came before. */
static size_t union_run(gs_span *a, size_t n, size_t *stop)
{
    uint64_t prev = 0;
    size_t k = 0, i;
    for (i = 0; i < n; i++) {
        gs_span x = a[i];
        if (x.s < prev)
            break;
        prev = x.s;
        if (x.e <= x.s) /* empty: covers nothing */
            continue;
        if (k && x.s <= a[k - 1].e) {
            if (x.e > a[k - 1].e)
                a[k - 1].e = x.e;
        } else {
            a[k++] = x;
        }
    }
    *stop = i;
    return k;
}

/* The union of a[0..n) in a[0..k), sorted and disjoint; returns k.  Usually
 * the spans arrive sorted and one pass does; otherwise what is left is sorted
 * after the union so far and merged in. */
static size_t union_spans(gs_span *a, gs_span *tmp, size_t n)
{
    size_t stop, k = union_run(a, n, &stop);
    if (stop == n)
        return k;
    memmove(a + k, a + stop, (n - stop) * sizeof *a);
    n = k + n - stop;
    sort_spans(a, tmp, n);
    return union_run(a, n, &stop);
}

/* Whether every warp (run of one warp id) of ev[0..n) has the same phase
 * sequence; returns how many warps, 0 if not. */
static size_t uniform_warps(const gs_event *ev, size_t n)
{
    size_t warps = 1;
    for (size_t i = 1; i < n; i++)
        warps += ev[i].warp != ev[i - 1].warp;
    size_t len = n / warps;
    if (!n || len * warps != n)
        return 0;
    for (size_t r = 0; r < warps; r++) {
        const gs_event *w = ev + r * len;
        for (size_t j = 0; j < len; j++)
            if (w[j].phase != ev[j].phase || w[j].warp != w[0].warp)
                return 0;
    }
    return warps;
}

/* Records the CTA's phase sequence and where each of its events goes, if
 * all its warps share it; the layout in u must be this CTA's. */
static int plan_sequence(const gs_event *ev, size_t n, gs_unions *u)
{
    u->seq_len = 0;
    u->seq_tried = 1;
    size_t warps = uniform_warps(ev, n);
    if (!warps)
        return 0;
    size_t len = n / warps;
    if (len > u->seq_cap) {
        uint8_t *ph = realloc(u->seq_phase, len);
        if (ph)
            u->seq_phase = ph;
        size_t *at = realloc(u->seq_at, len * sizeof *at);
        if (at)
            u->seq_at = at;
        if (!ph || !at)
            return -1;
        u->seq_cap = len;
    }
    uint32_t m[GS_NUM_PHASES] = {0};
    for (size_t j = 0; j < len; j++) {
        int p = ev[j].phase;
        u->seq_phase[j] = (uint8_t)p;
        u->seq_at[j] = u->at[p] + m[p]++ * warps;
    }
    u->seq_len = len;
    u->seq_warps = warps;
    return 0;
}

/* place_spans for a CTA with the recorded sequence: no counting, a check
 * per event.  *misfit when the CTA does not follow it. */
static int place_sequence(const gs_event *ev, double origin, gs_unions *u, int *misfit)
{
    uint64_t bad = 0;
    size_t len = u->seq_len;
    *misfit = 1;
    for (size_t r = 0; r < u->seq_warps; r++) {
        const gs_event *w = ev + r * len;
        if (r && w[0].warp == w[-1].warp)
            return 0;
        for (size_t j = 0; j < len; j++) {
            if (w[j].phase != u->seq_phase[j] || w[j].warp != w[0].warp)
                return 0;
            uint64_t s = gs_edge_key(w[j].t0, origin, 0) >> 1, e = gs_edge_key(w[j].t1, origin, 0) >> 1;
            bad |= e < s;
            u->span[u->seq_at[j] + r] = (gs_span){s, e};
        }
    }
    *misfit = 0;
    return bad != 0;
}

/* Places by the last CTA's layout, and again by this one's when it differs. */
static int place_by_layout(const gs_event *ev, size_t n, double origin, gs_unions *u)
{
    gs_span_layout got;
    int misfit, bad;
    set_offsets(&u->layout, u);
    bad = place_spans(ev, n, origin, &u->layout, &got, u, &misfit);
    if (misfit) {
        u->layout = got;
        u->seq_tried = 0;
        set_offsets(&u->layout, u);
        bad = place_spans(ev, n, origin, &u->layout, &got, u, &misfit);
    }
    return bad;
}

int gs_cta_unions(const gs_event *ev, size_t n, double origin, gs_unions *u)
{
    size_t planned = 0;
    for (int p = 0; p < GS_NUM_PHASES; p++)
        planned += u->layout.count[p];
    if (unions_reserve(u, (n > planned ? n : planned) + 1))
        return -1;
    /* CTAs of one kernel mostly share their layout, and their warps one
     * phase sequence: place by what the last CTA had */
    int misfit = 1, bad = 0;
    if (u->seq_len && n == u->seq_len * u->seq_warps) {
        set_offsets(&u->layout, u);
        bad = place_sequence(ev, origin, u, &misfit);
    }
    if (misfit) {
        bad = place_by_layout(ev, n, origin, u);
        if (!u->seq_tried && plan_sequence(ev, n, u))
            return -1;
    }
    if (bad)
        return 1;
    for (unsigned b = u->present; b; b &= b - 1) {
        int p = __builtin_ctz(b);
        u->n[p] = union_spans(u->span + u->at[p], u->tmp, u->layout.count[p]);
    }
    return 0;
}
