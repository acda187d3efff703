/* Tile schedule (see schedule.h). */
#include "schedule.h"

#include <stdio.h>
#include <stdlib.h>

static int tile_cost_desc(const void *a, const void *b, const int *k, int tile_w, int split)
{
    const nvfp4_tile *x = a, *y = b;
    const long long cx = nvfp4_tile_cost(split, k[x->group], x->n_eff, tile_w),
                    cy = nvfp4_tile_cost(split, k[y->group], y->n_eff, tile_w);
    if (cx != cy)
        return cx > cy ? -1 : 1;
    if (x->group != y->group) /* stable, reproducible order among equal costs */
        return x->group < y->group ? -1 : 1;
    if (x->ttile != y->ttile)
        return x->ttile < y->ttile ? -1 : 1;
    return x->wtile < y->wtile ? -1 : (x->wtile > y->wtile);
}

/* qsort takes no context argument: a small stable merge sort that does. */
static void sort_tiles(nvfp4_tile *t, nvfp4_tile *tmp, int n, const int *k, int tile_w, int split)
{
    if (n < 2)
        return;
    int h = n / 2;
    sort_tiles(t, tmp, h, k, tile_w, split);
    sort_tiles(t + h, tmp, n - h, k, tile_w, split);
    int i = 0, j = h, o = 0;
    while (i < h && j < n)
        tmp[o++] = tile_cost_desc(&t[j], &t[i], k, tile_w, split) < 0 ? t[j++] : t[i++];
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
                    out[n] = (nvfp4_tile){(uint16_t)g, (uint16_t)tt, (uint16_t)wt, (uint16_t)n_eff, 0,
                                          (uint16_t)(s->k[g] / NVFP4_BK), 0, 1, 0, 0};
                n++;
            }
        }
    return n;
}

/* Longest-processing-time first: each whole tile (most expensive first) to the CTA with
 * the least work so far; owner[t] gets the CTA of sorted tile t. */
static void assign_lpt(const nvfp4_shape *s, const nvfp4_tile *sorted, int ntiles, int tile_w, int split,
                       int persistent, int grid, long long *load, int *owner)
{
    for (int t = 0; t < ntiles; t++) {
        int best = persistent ? 0 : t;
        for (int b = 1; persistent && b < grid; b++)
            if (load[b] < load[best])
                best = b;
        load[best] += nvfp4_tile_cost(split, s->k[sorted[t].group], sorted[t].n_eff, tile_w);
        owner[t] = best;
    }
}

/* Units [i, j) are the parts of one tile, the owner (K from 0) first: their part numbers, the
 * tile's flag slot and its parts' partial buffers (the counters advance).  -1 where the tile has
 * more parts than a unit's 8-bit fields hold (K far beyond any benchmark). */
static int number_parts(nvfp4_tile *units, int i, int j, int *slots, int *bufs)
{
    const int parts = j - i;
    if (parts > 255)
        return -1;
    for (int q = i; q < j; q++) {
        units[q].part = (uint8_t)(q - i);
        units[q].parts = (uint8_t)parts;
        units[q].slot = (uint16_t)(parts > 1 ? *slots : 0);
        units[q].pbuf = (uint32_t)(parts > 1 ? *bufs + (q > i ? q - i - 1 : 0) : 0);
    }
    if (parts > 1) {
        (*slots)++;
        *bufs += parts - 1;
    }
    return 0;
}

/* Split K at tile_t <= 128: deals the sorted tiles out to `grid` CTAs in order, CTA b taking K blocks until
 * the cost dealt so far reaches (b + 1) / grid of the total (cumulative bounds, so a CTA
 * closed early or late shifts work to its neighbour, never to the last CTA).  Writes the
 * units in CTA order into `units` (room for ntiles + grid: every CTA boundary cuts at
 * most one tile) and fills cta_first; returns the number of units. */
static int deal_equal(const nvfp4_shape *s, const nvfp4_tile *sorted, int ntiles, int tile_w, int grid,
                      nvfp4_tile *units, int *cta_first, int *split_tiles, int *partial_bufs)
{
    long long total = 0;
    for (int t = 0; t < ntiles; t++)
        total += nvfp4_tile_cost(NVFP4_SPLIT_DEAL, s->k[sorted[t].group], sorted[t].n_eff, tile_w);
    int b = 0, n = 0, slots = 0, bufs = 0;
    long long dealt = 0, bound = total / grid;
    cta_first[0] = 0;
#define NEXT_CTA() (cta_first[++b] = n, bound = total / grid * (b + 1) + total % grid * (b + 1) / grid)
    for (int t = 0; t < ntiles; t++) {
        const int nkb = s->k[sorted[t].group] / NVFP4_BK;
        const long long per = nvfp4_tile_cost(NVFP4_SPLIT_DEAL, NVFP4_BK, sorted[t].n_eff, tile_w); /* one K block */
        const int first_unit = n;
        int kb = 0;
        while (kb < nkb) {
            const int left = nkb - kb;
            int take = left;
            if (b < grid - 1) {
                const long long room = bound - dealt;
                take = room > 0 ? (int)((room + per / 2) / per) : 0; /* nearest whole K block */
                if (take >= left) {
                    take = left;
                } else if (left - take < NVFP4_MIN_PART_KB) {
                    /* the rest would be too small a part: all of it, or leave a minimal one */
                    const int alt = left - NVFP4_MIN_PART_KB;
                    const long long over = per * left - room, under = room - per * alt;
                    take = (alt >= NVFP4_MIN_PART_KB || (alt == 0 && cta_first[b] < n)) && under < over ? alt : left;
                } else if (take < NVFP4_MIN_PART_KB) {
                    /* too little room for a part: close this CTA, or overfill it with a minimal one */
                    take = left - NVFP4_MIN_PART_KB < NVFP4_MIN_PART_KB ? left : NVFP4_MIN_PART_KB;
                    const long long under = room, over = per * take - room;
                    if (cta_first[b] < n && under <= over)
                        take = 0;
                }
                if (take == 0) {
                    NEXT_CTA();
                    continue;
                }
            }
            nvfp4_tile u = sorted[t];
            u.kb0 = (uint16_t)kb;
            u.kb1 = (uint16_t)(kb + take);
            units[n++] = u;
            kb += take;
            dealt += per * take;
            if (b < grid - 1 && dealt + per / 2 >= bound) /* this CTA has its share */
                NEXT_CTA();
        }
        if (number_parts(units, first_unit, n, &slots, &bufs) < 0)
            return -1;
    }
#undef NEXT_CTA
    while (b < grid - 1) /* CTAs the deal did not reach run nothing */
        cta_first[++b] = n;
    cta_first[grid] = n;
    *split_tiles = slots;
    *partial_bufs = bufs;
    return n;
}

/* The dealt split K's fixed cost in the weighting's units (NVFP4_DEAL_FIXED_QKB quarter K blocks of
 * a tile whose K block costs `per`). */
static long long deal_fixed(long long per)
{
    return per * NVFP4_DEAL_FIXED_QKB / 4;
}

/* K blocks of a non-owning part that starts a CTA's list with `left` blocks of its tile to go:
 * all of them where they fit, else a middle part's */
static int deal_rest_take(long long T, long long per, int left)
{
    const long long f = deal_fixed(per);
    if (per * left + 3 * f <= T) /* its store, then the owner's read and epilogue */
        return left;
    const long long take = (T - 4 * f) / per; /* a middle part: the owner reads two */
    return take > 0 ? (int)take : 0;
}

/* The dealt split K's model of a CTA's time, in the weighting's units: each K block costs
 * its tile's `per`; a split part's partial-sum store, an owner's read of each other part's
 * partial sums, and the epilogue and store of an owner or a whole tile each cost
 * NVFP4_DEAL_FIXED_QKB / 4 K blocks of their tile (deal_fixed).  The owner reads only once the
 * parts it waits for have stored theirs, so a part that starts a CTA's list ends by the target
 * less the owner's read of it and epilogue, and a middle part (the whole of its CTA's list, with
 * more of its tile after it) less two reads and the epilogue (deal_rest_take).  One greedy pass
 * at target T: tiles in order, a tile whole while it fits the CTA's room, else its first K
 * blocks as the owner ending this CTA's list (room for its epilogue and a read per part the
 * rest will take), the rest starting the next CTAs' lists.  Writes the units in CTA order and
 * fills cta_first; returns the units written, 0 when the tiles do not fit on `grid` CTAs at T. */
static int deal_pass(const nvfp4_shape *s, const nvfp4_tile *sorted, int ntiles, int tile_w, int grid,
                     long long T, nvfp4_tile *units, int *cta_first)
{
    int b = 0, n = 0, t = 0, kb = 0;
    long long used = 0;
    cta_first[0] = 0;
    while (t < ntiles) {
        if (b >= grid)
            return 0;
        const int nkb = s->k[sorted[t].group] / NVFP4_BK, left = nkb - kb;
        const long long per = nvfp4_tile_cost(NVFP4_SPLIT_DEAL, NVFP4_BK, sorted[t].n_eff, tile_w),
                        f = deal_fixed(per);
        int take, close = 0;
        if (kb > 0) { /* the rest of tile t, first on CTA b */
            take = deal_rest_take(T, per, left);
            if (take < left) {
                if (take < NVFP4_MIN_PART_KB || left - take < NVFP4_MIN_PART_KB)
                    return 0;
                close = 1;
            }
            used = per * take + f;
        } else if (per * nkb + f <= T - used) { /* whole */
            take = nkb;
            used += per * nkb + f;
        } else { /* the owner: its epilogue and a read for each part the rest takes */
            take = 0;
            for (int q = 1; q < 255; q++) { /* at most 255 parts */
                const long long room = T - used - f - q * f;
                take = room > 0 ? (int)(room / per) : 0;
                if (take > nkb - NVFP4_MIN_PART_KB)
                    take = nkb - NVFP4_MIN_PART_KB;
                if (take < NVFP4_MIN_PART_KB)
                    break;
                int rest = nkb - take, parts = 0;
                while (rest > 0 && parts <= q) {
                    const int c = deal_rest_take(T, per, rest);
                    if (c < NVFP4_MIN_PART_KB && c < rest)
                        return 0; /* the rest cannot be cut at T */
                    rest -= c;
                    parts++;
                }
                if (parts <= q)
                    break;
            }
            if (take < NVFP4_MIN_PART_KB) {
                if (n == cta_first[b])
                    return 0; /* not even an empty CTA holds a minimal owner at T */
                cta_first[++b] = n; /* start the tile on the next CTA */
                used = 0;
                continue;
            }
            close = 1;
        }
        nvfp4_tile u = sorted[t];
        u.kb0 = (uint16_t)kb;
        u.kb1 = (uint16_t)(kb + take);
        units[n++] = u;
        kb += take;
        if (kb == nkb) {
            kb = 0;
            t++;
        }
        if (close) {
            cta_first[++b] = n;
            used = 0;
        }
    }
    while (b < grid) /* CTAs the deal did not reach run nothing */
        cta_first[++b] = n;
    return n;
}

/* Split K, dealt: at tile_t <= 128 equal shares (deal_equal); above, a target T found by
 * bisection over the model's units at which one pass fits the tiles on `grid` CTAs, then that
 * pass (the pass is not monotone in T, so a smaller T may also fit: in a fuzz of random shapes
 * the T found was at most 0.9% above the smallest); part numbers, flag slots and partial buffers
 * follow from the units' order (a tile's parts are consecutive, the owner first).  Room in
 * `units` for ntiles + grid (every CTA boundary cuts at most one tile); returns the number of
 * units, or -1 where a tile would be cut into more than 255 parts. */
static int deal_split(const nvfp4_shape *s, const nvfp4_tile *sorted, int ntiles, int tile_w, int tile_t,
                      int grid, nvfp4_tile *units, int *cta_first, int *split_tiles, int *partial_bufs)
{
    if (tile_t <= 128)
        return deal_equal(s, sorted, ntiles, tile_w, grid, units, cta_first, split_tiles, partial_bufs);
    long long total = 0;
    for (int t = 0; t < ntiles; t++) {
        const long long per = nvfp4_tile_cost(NVFP4_SPLIT_DEAL, NVFP4_BK, sorted[t].n_eff, tile_w);
        total += per * (s->k[sorted[t].group] / NVFP4_BK) + deal_fixed(per);
    }
    /* at `hi` every tile fits whole on CTA 0 */
    long long lo = total / grid, hi = total;
    while (lo + 1 < hi) {
        const long long mid = lo + (hi - lo) / 2;
        if (deal_pass(s, sorted, ntiles, tile_w, grid, mid, units, cta_first) > 0)
            hi = mid;
        else
            lo = mid;
    }
    const int n = deal_pass(s, sorted, ntiles, tile_w, grid, hi, units, cta_first);
    int slots = 0, bufs = 0;
    for (int i = 0; i < n;) {
        int j = i + 1;
        while (j < n && units[j].kb0 > 0 && units[j].group == units[i].group && units[j].ttile == units[i].ttile &&
               units[j].wtile == units[i].wtile)
            j++;
        if (number_parts(units, i, j, &slots, &bufs) < 0)
            return -1;
        i = j;
    }
    *split_tiles = slots;
    *partial_bufs = bufs;
    return n;
}

/* Split K on top of the whole-tile schedule: LPT first (load, owner), then each CTA whose
 * load exceeds the mean by more than half a minimal part, most loaded first, hands K
 * blocks from the end of its last tile to the least-loaded CTA, until every CTA is within
 * that margin or a move would no longer lower the most loaded one (the taker pays the new
 * part's NVFP4_PART_NS too).  It keeps K blocks from 0 (part 0, the owner, still last on its list); the
 * handed-over ranges become parts 1.. in K order, each placed before any whole tile on
 * the CTA that takes it, so an owner only ever waits for parts that run first on their
 * CTAs.  Few tiles are cut: only where whole tiles cannot balance.  Writes the units in
 * CTA order into `units` (room for 2 x (ntiles + grid)) and fills cta_first; returns the
 * number of units, -1 out of host memory, or -2 where a tile would be cut into more than
 * 255 parts (a unit's part fields are 8 bits). */
static int split_rebalance(const nvfp4_shape *s, const nvfp4_tile *sorted, int ntiles, int tile_w, int grid,
                           long long *load, const int *owner, nvfp4_tile *units, int *cta_first, int *split_tiles,
                           int *partial_bufs)
{
    long long total = 0;
    for (int b = 0; b < grid; b++)
        total += load[b];
    /* the mean the moves aim at counts the parts they will add: one for each CTA below it
     * (a fixed point; the count settles within a few rounds) */
    long long mean = (total + grid - 1) / grid;
    for (int i = 0; i < 4; i++) {
        long long below = 0;
        for (int b = 0; b < grid; b++)
            below += load[b] < mean;
        mean = (total + below * NVFP4_PART_NS + grid - 1) / grid;
    }
    int *last = malloc((size_t)grid * sizeof *last), *keep = malloc((size_t)ntiles * sizeof *keep),
        *done = calloc((size_t)grid, sizeof *done);
    /* handed-over ranges: tile (sorted index), first K block, end, taking CTA */
    const int cap = ntiles + 2 * grid;
    int *mv_t = malloc((size_t)cap * sizeof *mv_t), *mv_kb0 = malloc((size_t)cap * sizeof *mv_kb0),
        *mv_kb1 = malloc((size_t)cap * sizeof *mv_kb1), *mv_b = malloc((size_t)cap * sizeof *mv_b);
    int moves = 0, n = 0, slots = 0, bufs = 0, rc = -1;
    if (!last || !keep || !done || !mv_t || !mv_kb0 || !mv_kb1 || !mv_b)
        goto out;
    for (int b = 0; b < grid; b++)
        last[b] = -1;
    for (int t = 0; t < ntiles; t++) {
        keep[t] = s->k[sorted[t].group] / NVFP4_BK;
        last[owner[t]] = t;
    }
    /* the most loaded CTA hands over, until each is within the margin or can gain no more */
    while (moves < cap) {
        int b = -1;
        for (int c = 0; c < grid; c++)
            if (!done[c] && (b < 0 || load[c] > load[b]))
                b = c;
        if (b < 0)
            break;
        const int t = last[b];
        const long long per = t < 0 ? 0 : nvfp4_tile_cost(NVFP4_SPLIT_REBALANCE, NVFP4_BK, sorted[t].n_eff, tile_w);
        if (t < 0 || load[b] - mean <= per * NVFP4_MIN_PART_KB / 2 || keep[t] < 2 * NVFP4_MIN_PART_KB) {
            done[b] = 1;
            continue;
        }
        int j = b == 0 ? 1 : 0;
        for (int c = 0; c < grid; c++)
            if (c != b && load[c] < load[j])
                j = c;
        /* the taker also pays the new part's own cost (its partial store, its main loop's start) */
        const long long room = mean - load[j] - NVFP4_PART_NS, excess = load[b] - mean;
        int take = (int)(((room < excess ? room : excess) + per / 2) / per);
        if (take < NVFP4_MIN_PART_KB)
            take = NVFP4_MIN_PART_KB;
        if (take > keep[t] - NVFP4_MIN_PART_KB)
            take = keep[t] - NVFP4_MIN_PART_KB;
        if (load[j] + per * take + NVFP4_PART_NS >= load[b]) { /* would not lower the most loaded: stop here */
            done[b] = 1;
            continue;
        }
        mv_t[moves] = t, mv_kb1[moves] = keep[t], mv_kb0[moves] = keep[t] - take, mv_b[moves] = j;
        moves++;
        keep[t] -= take;
        load[b] -= per * take;
        load[j] += per * take + NVFP4_PART_NS;
    }
    /* parts and buffers: a cut tile's handed-over ranges were recorded from its end down */
    int *part_of = malloc((size_t)(moves + 1) * sizeof *part_of), *tile_slot = malloc((size_t)ntiles * sizeof *tile_slot),
        *tile_parts = calloc((size_t)ntiles, sizeof *tile_parts), *pbuf0 = calloc((size_t)ntiles, sizeof *pbuf0);
    if (!part_of || !tile_slot || !tile_parts || !pbuf0) {
        free(part_of), free(tile_slot), free(tile_parts), free(pbuf0);
        goto out;
    }
    for (int m = 0; m < moves; m++)
        tile_parts[mv_t[m]]++;
    for (int t = 0; t < ntiles; t++) {
        tile_slot[t] = tile_parts[t] ? slots++ : 0;
        tile_parts[t]++; /* + the owner's part */
        if (tile_parts[t] > 255) {
            free(part_of), free(tile_slot), free(tile_parts), free(pbuf0);
            rc = -2;
            goto out;
        }
    }
    for (int t = 0; t < ntiles; t++)
        if (tile_parts[t] > 1) {
            pbuf0[t] = bufs;
            bufs += tile_parts[t] - 1;
        }
    for (int m = 0; m < moves; m++) { /* part number = 1 + handed-over ranges of the tile below it */
        int below = 0;
        for (int q = 0; q < moves; q++)
            if (mv_t[q] == mv_t[m] && mv_kb0[q] < mv_kb0[m])
                below++;
        part_of[m] = 1 + below;
    }
    for (int b = 0; b < grid; b++) {
        cta_first[b] = n;
        for (int m = 0; m < moves; m++) /* handed-over ranges first */
            if (mv_b[m] == b) {
                nvfp4_tile u = sorted[mv_t[m]];
                u.kb0 = (uint16_t)mv_kb0[m];
                u.kb1 = (uint16_t)mv_kb1[m];
                u.part = (uint8_t)part_of[m];
                u.parts = (uint8_t)tile_parts[mv_t[m]];
                u.slot = (uint16_t)tile_slot[mv_t[m]];
                u.pbuf = (uint32_t)(pbuf0[mv_t[m]] + part_of[m] - 1);
                units[n++] = u;
            }
        for (int t = 0; t < ntiles; t++)
            if (owner[t] == b) {
                nvfp4_tile u = sorted[t];
                u.parts = (uint8_t)tile_parts[t];
                if (u.parts > 1) { /* the owner: K from 0, last on this CTA */
                    u.kb1 = (uint16_t)keep[t];
                    u.slot = (uint16_t)tile_slot[t];
                    u.pbuf = (uint32_t)pbuf0[t];
                }
                units[n++] = u;
            }
    }
    cta_first[grid] = n;
    *split_tiles = slots;
    *partial_bufs = bufs;
    rc = n;
    free(part_of), free(tile_slot), free(tile_parts), free(pbuf0);
out:
    free(last), free(keep), free(done), free(mv_t), free(mv_kb0), free(mv_kb1), free(mv_b);
    return rc;
}

/* NVFP4_SPLIT_PAIR (schedule.h): each cluster's tiles (owner[t], the whole-tile assignment over
 * grid / 2 clusters) twice over, once per CTA of the pair, each CTA with its half of every
 * tile's K blocks.  Returns the units written (2 ntiles). */
static int pair_units(const nvfp4_tile *sorted, int ntiles, const int *owner, int grid, nvfp4_tile *units,
                      int *cta_first)
{
    int n = 0;
    for (int b = 0; b < grid; b++) {
        cta_first[b] = n;
        for (int t = 0; t < ntiles; t++)
            if (owner[t] == b / 2) {
                nvfp4_tile u = sorted[t];
                const int half = (u.kb1 - u.kb0) / 2;
                u.part = (uint8_t)(b & 1);
                u.parts = 2;
                u.kb1 = (uint16_t)(b & 1 ? u.kb1 : u.kb0 + half);
                u.kb0 = (uint16_t)(b & 1 ? u.kb0 + half : u.kb0);
                units[n++] = u;
            }
    }
    cta_first[grid] = n;
    return n;
}

int nvfp4_schedule_build(const nvfp4_shape *s, int tile_w, int tile_t, int persistent, int split, int sms,
                         nvfp4_schedule *out, char *err, size_t errlen)
{
    nvfp4_schedule sc = {0, 0, NULL, NULL, 0, 0};
    if (!s || !out || tile_w <= 0 || tile_t <= 0 || tile_t % NVFP4_N_STEP || (persistent && sms <= 0) ||
        split < NVFP4_SPLIT_NONE || split > NVFP4_SPLIT_PAIR || (split && !persistent) || sms > 65535 ||
        (split == NVFP4_SPLIT_PAIR && sms < 2)) {
        snprintf(err, errlen, "schedule: bad arguments (tile %dx%d, persistent %d, split %d, sms %d)", tile_w, tile_t,
                 persistent, split, sms);
        return -1;
    }
    for (int g = 0; g < s->groups; g++)
        if (s->n[g] % tile_w || s->k[g] % NVFP4_BK || s->n[g] / tile_w > 65535 ||
            (s->m[g] + tile_t - 1) / tile_t > 65535 || s->k[g] / NVFP4_BK > 65535) {
            snprintf(err, errlen, "schedule: group %d (M=%d N=%d K=%d) does not tile by %dx%d", g, s->m[g],
                     s->n[g], s->k[g], tile_w, tile_t);
            return -1;
        }
    /* the pair's two CTAs run the same number of stages per unit, so that their ring positions
     * (the slot each holds for the exchange) stay equal: an even count of 2 or more K blocks */
    for (int g = 0; split == NVFP4_SPLIT_PAIR && g < s->groups; g++)
        if (s->k[g] < 2 * NVFP4_BK || (s->k[g] / NVFP4_BK) % 2) {
            snprintf(err, errlen, "schedule: group %d (K=%d) is not an even number of 2 or more K blocks for a "
                     "cluster pair to halve", g, s->k[g]);
            return -1;
        }
    const int ntiles = enumerate(s, tile_w, tile_t, NULL);
    if (split == NVFP4_SPLIT_PAIR) /* clusters of two CTAs, at most sms / 2 */
        sc.grid = 2 * (ntiles < sms / 2 ? ntiles : sms / 2);
    else
        sc.grid = persistent ? (split ? sms : (ntiles < sms ? ntiles : sms)) : ntiles;
    const int room = split == NVFP4_SPLIT_PAIR ? 2 * ntiles : split ? 2 * (ntiles + sc.grid) : ntiles;
    nvfp4_tile *sorted = malloc((size_t)ntiles * sizeof *sorted);
    nvfp4_tile *tmp = malloc((size_t)ntiles * sizeof *tmp);
    long long *load = calloc((size_t)sc.grid, sizeof *load);
    int *owner = malloc((size_t)ntiles * sizeof *owner);
    sc.tiles = malloc((size_t)room * sizeof *sc.tiles);
    sc.cta_first = calloc((size_t)sc.grid + 1, sizeof *sc.cta_first);
    if (!sorted || !tmp || !load || !owner || !sc.tiles || !sc.cta_first) {
        snprintf(err, errlen, "schedule: out of host memory");
        free(sorted), free(tmp), free(load), free(owner), free(sc.tiles), free(sc.cta_first);
        return -1;
    }
    enumerate(s, tile_w, tile_t, sorted);
    sort_tiles(sorted, tmp, ntiles, s->k, tile_w, split);
    if (split == NVFP4_SPLIT_DEAL) {
        sc.ntiles = deal_split(s, sorted, ntiles, tile_w, tile_t, sc.grid, sc.tiles, sc.cta_first, &sc.split_tiles,
                               &sc.partial_bufs);
        if (sc.ntiles < 0) {
            snprintf(err, errlen, "schedule: split K would cut a tile into more than 255 parts");
            free(sorted), free(tmp), free(load), free(owner), free(sc.tiles), free(sc.cta_first);
            return -1;
        }
    } else if (split == NVFP4_SPLIT_REBALANCE) {
        assign_lpt(s, sorted, ntiles, tile_w, split, persistent, sc.grid, load, owner);
        sc.ntiles = split_rebalance(s, sorted, ntiles, tile_w, sc.grid, load, owner, sc.tiles, sc.cta_first,
                                    &sc.split_tiles, &sc.partial_bufs);
        if (sc.ntiles < 0) {
            snprintf(err, errlen, sc.ntiles == -2 ? "schedule: split K would cut a tile into more than 255 parts"
                                                  : "schedule: out of host memory");
            free(sorted), free(tmp), free(load), free(owner), free(sc.tiles), free(sc.cta_first);
            return -1;
        }
    } else if (split == NVFP4_SPLIT_PAIR) {
        assign_lpt(s, sorted, ntiles, tile_w, split, persistent, sc.grid / 2, load, owner);
        sc.ntiles = pair_units(sorted, ntiles, owner, sc.grid, sc.tiles, sc.cta_first);
    } else {
        assign_lpt(s, sorted, ntiles, tile_w, split, persistent, sc.grid, load, owner);
        sc.ntiles = ntiles;
        for (int t = 0; t < ntiles; t++)
            sc.cta_first[owner[t] + 1]++;
        for (int b = 0; b < sc.grid; b++)
            sc.cta_first[b + 1] += sc.cta_first[b];
        for (int b = 0; b < sc.grid; b++) /* load[] reused as the fill cursor */
            load[b] = sc.cta_first[b];
        for (int t = 0; t < ntiles; t++)
            sc.tiles[load[owner[t]]++] = sorted[t];
    }
    free(sorted), free(tmp), free(load), free(owner);
    *out = sc;
    return 0;
}

int nvfp4_schedule_full_width(const nvfp4_schedule *sc, int tile_t)
{
    if (!sc || sc->ntiles < 1)
        return 0;
    for (int i = 0; i < sc->ntiles; i++)
        if (sc->tiles[i].n_eff != tile_t)
            return 0;
    return 1;
}

void nvfp4_schedule_free(nvfp4_schedule *sc)
{
    if (!sc)
        return;
    free(sc->tiles);
    free(sc->cta_first);
    sc->tiles = NULL;
    sc->cta_first = NULL;
    sc->ntiles = sc->grid = sc->split_tiles = sc->partial_bufs = 0;
}
