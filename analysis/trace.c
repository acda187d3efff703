#include "trace.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct cta_ref {
    double t0, t1;
    uint32_t cta;
} cta_ref;

static int cmp_start(const void *a, const void *b)
{
    const cta_ref *x = a, *y = b;
    return (x->t0 > y->t0) - (x->t0 < y->t0);
}

/* Gives every CTA the lowest slot free on its SM when it starts, so CTAs
 * resident together land on different tracks and slices never cross. */
static int assign_slots(const gs_timeline *tl, int *slot, int *max_slot)
{
    cta_ref *c = malloc((tl->ctas ? tl->ctas : 1) * sizeof *c);
    double *busy_until = calloc((size_t)tl->n_sm * 64 + 1, sizeof(double));
    if (!c || !busy_until) {
        free(c), free(busy_until);
        return -1;
    }
    size_t n = 0;
    for (uint32_t i = 0; i < tl->ctas; i++) {
        slot[i] = 0;
        if (!isnan(tl->cta_t0[i]))
            c[n++] = (cta_ref){tl->cta_t0[i], isnan(tl->cta_t1[i]) ? tl->span_ns : tl->cta_t1[i], i};
    }
    qsort(c, n, sizeof *c, cmp_start);
    *max_slot = 0;
    for (size_t i = 0; i < n; i++) {
        double *b = busy_until + (size_t)tl->cta_sm[c[i].cta] * 64;
        int s = 0;
        while (s < 63 && b[s] > c[i].t0)
            s++;
        b[s] = c[i].t1;
        slot[c[i].cta] = s;
        if (s > *max_slot)
            *max_slot = s;
    }
    free(c);
    free(busy_until);
    return 0;
}

int gs_trace_write(const gs_rundata *r, const char *path, char *err, size_t errlen)
{
    const gs_timeline *tl = &r->tl;
    const gs_trace *t = &r->trace;
    int *slot = malloc((tl->ctas ? tl->ctas : 1) * sizeof(int)), max_slot = 0;
    if (!slot || assign_slots(tl, slot, &max_slot)) {
        free(slot);
        snprintf(err, errlen, "out of memory writing %s", path);
        return -1;
    }
    gs_buf b = {0};
    gs_buf_printf(&b, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"gemmscope_trace\":1,\"shape\":\"%s\",\"variant\":"
                      "\"%s\",\"gpu\":\"%s\"},\n\"traceEvents\":[\n",
                  gs_rundata_str(r, "shape"), gs_rundata_str(r, "variant"), gs_rundata_str(r, "gpu"));
    int first = 1;
#define SEP (first ? (first = 0, "") : ",\n")
    /* names: processes per SM, threads per (slot, warp) with the warp's role */
    for (int s = 0; s < tl->n_sm; s++)
        if (tl->fit[s].points)
            gs_buf_printf(&b, "%s{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%d,\"args\":{\"name\":\"SM %d\"}}", SEP,
                          s, s);
    for (size_t w = 0; w < t->n_warps; w++) {
        const gs_warp_header *h = &t->warps[w];
        if (!(h->flags & GS_WARP_STARTED))
            continue;
        uint32_t cta = (uint32_t)(w / t->warps_per_cta);
        int role = gs_kept(t, w) ? t->records[t->first[w]].role : GS_ROLE_ALL;
        int tid = slot[cta] * 64 + h->warp;
        gs_buf_printf(&b,
                      "%s{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%u,\"tid\":%d,\"args\":{\"name\":\"slot %d "
                      "warp %u (%s)\"}}",
                      SEP, h->sm, tid, slot[cta], h->warp, gs_role_name(role));
        gs_buf_printf(&b, "%s{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":%u,\"tid\":%d,\"args\":{\"sort_index\":%d}}",
                      SEP, h->sm, tid, tid);
    }
    /* slices, warp by warp (each warp's records are in recording order) */
    for (size_t i = 0; i < tl->n_events; i++) {
        const gs_event *e = &tl->ev[i];
        gs_buf_printf(&b,
                      "%s{\"ph\":\"X\",\"name\":\"%s\",\"cat\":\"%s\",\"pid\":%u,\"tid\":%d,\"ts\":%.3f,\"dur\":%.3f,"
                      "\"args\":{\"cta\":%u,\"warp\":%u,\"tile\":%u,\"group\":%u}}",
                      SEP, gs_rundata_phase(r, e->phase), gs_role_name(e->role), e->sm, slot[e->cta] * 64 + e->warp,
                      e->t0 / 1e3, (e->t1 - e->t0) / 1e3, e->cta, e->warp, e->tile, e->group);
    }
    /* dropped records: an instant at the warp's end (or its last record) */
    for (size_t w = 0; w < t->n_warps; w++) {
        const gs_warp_header *h = &t->warps[w];
        if (!(h->flags & GS_WARP_STARTED) || h->events <= t->capacity)
            continue;
        uint32_t cta = (uint32_t)(w / t->warps_per_cta);
        double at = !isnan(tl->warp_t1[w]) ? tl->warp_t1[w] : tl->warp_t0[w];
        gs_buf_printf(&b,
                      "%s{\"ph\":\"i\",\"s\":\"t\",\"name\":\"dropped %u records\",\"pid\":%u,\"tid\":%d,\"ts\":%.3f,"
                      "\"args\":{\"cta\":%u,\"warp\":%u,\"dropped\":%u}}",
                      SEP, h->events - t->capacity, h->sm, slot[cta] * 64 + h->warp, at / 1e3, cta, h->warp,
                      h->events - t->capacity);
    }
#undef SEP
    gs_buf_printf(&b, "\n]}\n");
    free(slot);
    int rc = gs_buf_write(&b, path, err, errlen);
    gs_buf_free(&b);
    return rc;
}
