#include "edges.h"

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
