/* See workload.h. */
#include "workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int by_load_desc(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x < y) - (x > y);
}

/* Loads within this fraction of each other are one level (the flops of equal K ranges are
 * equal; this only absorbs rounding). */
#define SAME_LOAD 1e-9

int gs_workload_compute(const gs_units *us, unsigned ctas, gs_workload *out)
{
    memset(out, 0, sizeof *out);
    if (!us || us->n == 0 || ctas == 0)
        return 0;
    double *load = calloc(ctas, sizeof *load);
    if (!load)
        return -1;
    uint32_t seen[64];
    int nseen = 0;
    for (size_t i = 0; i < us->n; i++) {
        const gs_unit *u = &us->u[i];
        if (u->cta >= ctas) {
            snprintf(out->why, sizeof out->why, "unit %u is on CTA %u, and the run's stamps hold %u CTAs", u->unit,
                     u->cta, ctas);
            free(load);
            return 0;
        }
        load[u->cta] += u->flops;
        out->split_units += u->parts > 1;
        int j = 0;
        while (j < nseen && seen[j] != u->width)
            j++;
        if (j == nseen && nseen < (int)(sizeof seen / sizeof seen[0]))
            seen[nseen++] = u->width;
    }
    out->widths = nseen; /* "more than one" is what matters; past 64 it stops counting */
    out->units = us->n;
    out->ctas = ctas;
    for (unsigned c = 0; c < ctas; c++) {
        out->total_flops += load[c];
        out->idle_ctas += load[c] == 0;
    }
    qsort(load, ctas, sizeof *load, by_load_desc);
    out->max_flops = load[0];
    for (unsigned c = 0; c < ctas && load[c] > 0;) {
        unsigned e = c;
        while (e < ctas && load[e] > 0 && load[c] - load[e] <= SAME_LOAD * load[c])
            e++;
        if (out->nlevels < GS_WORKLOAD_LEVELS) {
            out->level_flops[out->nlevels] = load[c];
            out->level_ctas[out->nlevels++] = e - c;
        } else {
            out->other_ctas += e - c;
        }
        c = e;
    }
    out->valid = 1;
    free(load);
    return 0;
}

double gs_workload_bound(const gs_workload *w, unsigned slots)
{
    if (!w->valid || slots == 0 || w->max_flops <= 0)
        return 0;
    return 1 - w->total_flops / ((double)slots * w->max_flops);
}
