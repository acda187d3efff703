/* Tile schedule (see schedule.h). */
#include "schedule.h"

#include <stdio.h>
#include <stdlib.h>

static int tile_cost_desc(const void *a, const void *b, const int *k, int tile_w)
{
    const nvfp4_tile *x = a, *y = b;
    const long long cx = nvfp4_tile_cost(k[x->group], x->n_eff, tile_w),
                    cy = nvfp4_tile_cost(k[y->group], y->n_eff, tile_w);
    if (cx != cy)
        return cx > cy ? -1 : 1;
    if (x->group != y->group) /* stable, reproducible order among equal costs */
        return x->group < y->group ? -1 : 1;
    if (x->ttile != y->ttile)
        return x->ttile < y->ttile ? -1 : 1;
    return x->wtile < y->wtile ? -1 : (x->wtile > y->wtile);
}

/* qsort takes no context argument: a small stable merge sort that does. */
static void sort_tiles(nvfp4_tile *t, nvfp4_tile *tmp, int n, const int *k, int tile_w)
{
    if (n < 2)
        return;
    int h = n / 2;
    sort_tiles(t, tmp, h, k, tile_w);
    sort_tiles(t + h, tmp, n - h, k, tile_w);
    int i = 0, j = h, o = 0;
    while (i < h && j < n)
        tmp[o++] = tile_cost_desc(&t[j], &t[i], k, tile_w) < 0 ? t[j++] : t[i++];
    while (i < h)
        tmp[o++] = t[i++];
    while (j < n)
        tmp[o++] = t[j++];
    for (i = 0; i < n; i++)
        t[i] = tmp[i];
}

static int enumerate(const nvfp4_shape *s, int tile_w, int tile_t, nvfp4_tile *out)
{
    int n = 0;
    for (int g = 0; g < s->groups; g++)
        for (int tt = 0; tt * tile_t < s->m[g]; tt++) {
            int valid = s->m[g] - tt * tile_t;
            if (valid > tile_t)
                valid = tile_t;
            const int n_eff = (valid + NVFP4_N_STEP - 1) / NVFP4_N_STEP * NVFP4_N_STEP;
            for (int wt = 0; wt < s->n[g] / tile_w; wt++) {
                if (out)
                    out[n] = (nvfp4_tile){(uint16_t)g, (uint16_t)tt, (uint16_t)wt, (uint16_t)n_eff};
                n++;
            }
        }
    return n;
}

int nvfp4_schedule_build(const nvfp4_shape *s, int tile_w, int tile_t, int persistent, int sms,
                         nvfp4_schedule *out, char *err, size_t errlen)
{
    nvfp4_schedule sc = {0, 0, NULL, NULL};
    if (!s || !out || tile_w <= 0 || tile_t <= 0 || tile_t % NVFP4_N_STEP || (persistent && sms <= 0)) {
        snprintf(err, errlen, "schedule: bad arguments (tile %dx%d, sms %d)", tile_w, tile_t, sms);
        return -1;
    }
    for (int g = 0; g < s->groups; g++)
        if (s->n[g] % tile_w || s->k[g] % NVFP4_BK || s->n[g] / tile_w > 65535 ||
            (s->m[g] + tile_t - 1) / tile_t > 65535) {
            snprintf(err, errlen, "schedule: group %d (M=%d N=%d K=%d) does not tile by %dx%d", g, s->m[g],
                     s->n[g], s->k[g], tile_w, tile_t);
            return -1;
        }
    sc.ntiles = enumerate(s, tile_w, tile_t, NULL);
    sc.grid = persistent ? (sc.ntiles < sms ? sc.ntiles : sms) : sc.ntiles;
    nvfp4_tile *sorted = malloc((size_t)sc.ntiles * sizeof *sorted);
    nvfp4_tile *tmp = malloc((size_t)sc.ntiles * sizeof *tmp);
    long long *load = calloc((size_t)sc.grid, sizeof *load);
    int *owner = malloc((size_t)sc.ntiles * sizeof *owner);
    sc.tiles = malloc((size_t)sc.ntiles * sizeof *sc.tiles);
    sc.cta_first = calloc((size_t)sc.grid + 1, sizeof *sc.cta_first);
    if (!sorted || !tmp || !load || !owner || !sc.tiles || !sc.cta_first) {
        snprintf(err, errlen, "schedule: out of host memory");
        free(sorted), free(tmp), free(load), free(owner), free(sc.tiles), free(sc.cta_first);
        return -1;
    }
    enumerate(s, tile_w, tile_t, sorted);
    sort_tiles(sorted, tmp, sc.ntiles, s->k, tile_w);
    /* each tile (most expensive first) to the CTA with the least work so far */
    for (int t = 0; t < sc.ntiles; t++) {
        int best = persistent ? 0 : t;
        for (int b = 1; persistent && b < sc.grid; b++)
            if (load[b] < load[best])
                best = b;
        load[best] += nvfp4_tile_cost(s->k[sorted[t].group], sorted[t].n_eff, tile_w);
        owner[t] = best;
        sc.cta_first[best + 1]++;
    }
    for (int b = 0; b < sc.grid; b++)
        sc.cta_first[b + 1] += sc.cta_first[b];
    for (int b = 0; b < sc.grid; b++) /* load[] reused as the fill cursor */
        load[b] = sc.cta_first[b];
    for (int t = 0; t < sc.ntiles; t++)
        sc.tiles[load[owner[t]]++] = sorted[t];
    free(sorted), free(tmp), free(load), free(owner);
    *out = sc;
    return 0;
}

void nvfp4_schedule_free(nvfp4_schedule *sc)
{
    if (!sc)
        return;
    free(sc->tiles);
    free(sc->cta_first);
    sc->tiles = NULL;
    sc->cta_first = NULL;
    sc->ntiles = sc->grid = 0;
}
