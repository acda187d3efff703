/* Main loop by unit width (see widths.h). */
#include "widths.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "phases.h"
#include "instrument/gs_stats.h"

/* A stamped unit, by its GS_TILE tag: CTA, group, representative warp, that warp's MAINLOOP,
 * and how many records of each phase that warp made for the unit. */
typedef struct ustamp {
    int seen;
    uint32_t cta;
    uint16_t warp, group;
    double main_t0, main_ns;
    const gs_unit *u; /* the run's entry */
    uint32_t count[GS_NUM_PHASES];
} ustamp;

/* printf into a fixed buffer, cut short where it does not fit (notes are for reading). */
__attribute__((format(printf, 3, 4))) static void put(char *buf, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, n, fmt, ap);
    va_end(ap);
}

/* The stamped units; 0, or 1 with the reason in out->note where the stamps tag one unit in
 * two CTAs or groups, or twice on one warp. */
static int gather(const gs_timeline *tl, ustamp *us, gs_widths *out)
{
    for (size_t i = 0; i < tl->n_events; i++) {
        const gs_event *e = &tl->ev[i];
        if (e->phase != GS_MAINLOOP)
            continue;
        ustamp *x = &us[e->tile];
        if (!x->seen) {
            x->seen = 1, x->cta = e->cta, x->warp = e->warp, x->group = e->group;
            x->main_t0 = e->t0, x->main_ns = e->t1 - e->t0;
            out->stamped_units++;
        } else if (x->cta != e->cta || x->group != e->group || x->warp == e->warp) {
            put(out->note, sizeof out->note,
                "Left out: the stamps tag unit %u twice (CTA %u warp %u group %u, CTA %u warp %u group %u).", e->tile,
                x->cta, x->warp, x->group, e->cta, e->warp, e->group);
            return 1;
        } else if (e->warp < x->warp) {
            x->warp = e->warp;
            x->main_t0 = e->t0, x->main_ns = e->t1 - e->t0;
        }
    }
    for (size_t i = 0; i < tl->n_events; i++) {
        const gs_event *e = &tl->ev[i];
        ustamp *x = &us[e->tile];
        if (x->seen && x->cta == e->cta && x->warp == e->warp && e->phase < GS_NUM_PHASES)
            x->count[e->phase]++;
    }
    return 0;
}

/* 1 when the run's units and the stamps agree: the same units, each on its CTA and in its
 * group, and (where the run names a phase stamped once per K block and every unit has it)
 * that many of them; else 0 with the first difference in why. */
static int agrees(const gs_units *units, ustamp *us, const gs_widths *out, int kb_phase, char *why, size_t n)
{
    if (units->n != (size_t)out->stamped_units) {
        put(why, n, "the run lists %zu units, the stamps have %d", units->n, out->stamped_units);
        return 0;
    }
    for (size_t i = 0; i < units->n; i++) {
        const gs_unit *u = &units->u[i];
        ustamp *x = &us[u->unit];
        if (!x->seen) {
            put(why, n, "unit %u of the run has no MAINLOOP in the stamps", u->unit);
            return 0;
        }
        if (x->cta != u->cta) {
            put(why, n, "unit %u ran on CTA %u, the run lists it on CTA %u", u->unit, x->cta, u->cta);
            return 0;
        }
        if (x->group != (uint16_t)u->group) {
            put(why, n, "unit %u is group %u in the stamps, %u in the run", u->unit, x->group, u->group);
            return 0;
        }
        x->u = u;
    }
    if (kb_phase >= 0)
        for (size_t i = 0; i < units->n; i++) {
            const gs_unit *u = &units->u[i];
            if (us[u->unit].count[kb_phase] != u->k1 - u->k0) {
                put(why, n, "unit %u recorded %u of its per-K-block phase, the run gives it %u K blocks", u->unit,
                    us[u->unit].count[kb_phase], u->k1 - u->k0);
                return 0;
            }
        }
    return 1;
}

/* A unit's place on its CTA: by CTA, then MAINLOOP start, then tag (ties broken the same way
 * every time, so each CTA has exactly one first unit). */
typedef struct ukey {
    uint32_t cta, unit;
    double t0;
    size_t i; /* index in the run's list */
} ukey;

static int cmp_ukey(const void *a, const void *b)
{
    const ukey *x = a, *y = b;
    if (x->cta != y->cta)
        return x->cta < y->cta ? -1 : 1;
    if (x->t0 != y->t0)
        return x->t0 < y->t0 ? -1 : 1;
    return x->unit < y->unit ? -1 : x->unit > y->unit;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* The main loop of a width's units as a line (widths.h): first[i] says whether unit i (of
 * those with this width, y their MAINLOOP ns, x their K blocks) is its CTA's first.  The slope
 * pools the two kinds' deviations from their own means, so each start is its kind's mean less
 * the slope times its mean K blocks; resid: scratch of n. */
static void fit_line(const double *x, const double *y, const unsigned char *first, size_t n, double *resid,
                     gs_width_row *r)
{
    double sx[2] = {0, 0}, sy[2] = {0, 0}, cnt[2] = {0, 0};
    for (size_t i = 0; i < n; i++)
        sx[first[i]] += x[i], sy[first[i]] += y[i], cnt[first[i]]++;
    double mx[2], my[2], sxy = 0, sxx = 0;
    for (int k = 0; k < 2; k++)
        mx[k] = cnt[k] ? sx[k] / cnt[k] : 0, my[k] = cnt[k] ? sy[k] / cnt[k] : 0;
    for (size_t i = 0; i < n; i++) {
        const double dx = x[i] - mx[first[i]];
        sxy += dx * (y[i] - my[first[i]]);
        sxx += dx * dx;
    }
    r->later_units = (int)cnt[0], r->first_units = (int)cnt[1];
    r->fit_kb_ns = r->fit_first_ns = r->fit_later_ns = r->fit_resid_p90_ns = NAN;
    if (!(sxx > 0)) /* K blocks constant within each kind: no slope to tell a start from */
        return;
    const double b = sxy / sxx;
    r->fit_kb_ns = b;
    if (cnt[1])
        r->fit_first_ns = my[1] - b * mx[1];
    if (cnt[0])
        r->fit_later_ns = my[0] - b * mx[0];
    for (size_t i = 0; i < n; i++)
        resid[i] = fabs(y[i] - ((first[i] ? r->fit_first_ns : r->fit_later_ns) + b * x[i]));
    r->fit_resid_p90_ns = gs_quantile(resid, n, 0.9);
}

/* A unit needs this many per-K-block records (3 intervals) for its steady cost: the median of
 * fewer would be the ramp's own intervals. */
#define STEADY_MIN_KB 4

/* The steady cost per K block of the width's units and what their MAINLOOP has above it
 * (widths.h), from the per-K-block phase kb_phase of each unit's representative warp.
 * slot: scratch of GS_MAX_UNITS; t: scratch of tl->n_events; per_tile, above, share: scratch of
 * units->n.  Leaves the row's figures NAN where no unit has enough records. */
static void steady_cost(const gs_timeline *tl, const gs_units *units, const ustamp *us, int kb_phase, gs_width_row *r,
                        int *slot, double *t, double *per_tile, double *above, double *share)
{
    r->steady_kb_ns = r->above_steady_ns = r->above_steady_share = NAN;
    r->kb_profile_n = 0;
    for (int j = 0; j < GS_KB_PROFILE; j++)
        r->kb_interval_ns[j] = NAN;
    if (kb_phase < 0)
        return;
    /* each unit of the width with enough records gets a segment of t as long as they are */
    size_t n = 0, used = 0;
    size_t *off = malloc((units->n + 1) * sizeof *off), *fill = calloc(units->n + 1, sizeof *fill);
    const gs_unit **tile = malloc((units->n + 1) * sizeof *tile);
    /* each unit's first GS_KB_PROFILE intervals, NAN past its last */
    double *prof = malloc((units->n + 1) * GS_KB_PROFILE * sizeof *prof);
    if (!off || !fill || !tile || !prof)
        goto done;
    for (size_t i = 0; i < units->n; i++) {
        const gs_unit *u = &units->u[i];
        if (u->width != (uint32_t)r->width || us[u->unit].count[kb_phase] < STEADY_MIN_KB)
            continue;
        slot[u->unit] = (int)n;
        tile[n] = u;
        off[n++] = used;
        used += us[u->unit].count[kb_phase];
    }
    for (size_t i = 0; i < tl->n_events; i++) {
        const gs_event *e = &tl->ev[i];
        const ustamp *x = &us[e->tile];
        if (e->phase != kb_phase || slot[e->tile] < 0 || x->cta != e->cta || x->warp != e->warp)
            continue;
        const size_t k = (size_t)slot[e->tile];
        t[off[k] + fill[k]++] = e->t0;
    }
    size_t m = 0, ms = 0;
    for (size_t k = 0; k < n; k++) {
        double *s = t + off[k];
        const size_t c = fill[k];
        slot[tile[k]->unit] = -1;
        if (c < 2) /* cannot happen: a unit's records match its K blocks (agrees()) */
            continue;
        qsort(s, c, sizeof *s, gs_cmp_double);
        for (size_t j = 0; j + 1 < c; j++) /* the intervals, in place */
            s[j] = s[j + 1] - s[j];
        for (size_t j = 0; j < GS_KB_PROFILE; j++) /* before the median reorders them */
            prof[m * GS_KB_PROFILE + j] = j + 1 < c ? s[j] : NAN;
        const double kb_ns = gs_quantile(s, c - 1, 0.5);
        const double main_ns = us[tile[k]->unit].main_ns;
        per_tile[m] = kb_ns;
        above[m] = main_ns - (double)(tile[k]->k1 - tile[k]->k0) * kb_ns;
        if (main_ns > 0)
            share[ms++] = above[m] / main_ns;
        m++;
    }
    r->steady_kb_ns = gs_quantile(per_tile, m, 0.5);
    r->above_steady_ns = gs_quantile(above, m, 0.5);
    r->above_steady_share = gs_quantile(share, ms, 0.5);
    for (int j = 0; j < GS_KB_PROFILE; j++) {
        size_t q = 0;
        for (size_t k = 0; k < m; k++)
            if (!isnan(prof[k * GS_KB_PROFILE + j]))
                per_tile[q++] = prof[k * GS_KB_PROFILE + j];
        if (!q) /* a unit with interval j has every one before it */
            break;
        r->kb_interval_ns[j] = gs_quantile(per_tile, q, 0.5);
        r->kb_profile_n = j + 1;
    }
done:
    free(off), free(fill), free(tile), free(prof);
}

/* The rows, by increasing width. */
static int aggregate(const gs_timeline *tl, const gs_units *units, const ustamp *us, int kb_phase, gs_widths *out)
{
    uint32_t w[GS_WIDTHS_MAX];
    int nw = 0;
    for (size_t i = 0; i < units->n; i++) {
        int k = 0;
        while (k < nw && w[k] != units->u[i].width)
            k++;
        if (k == nw) {
            if (nw == GS_WIDTHS_MAX) {
                put(out->note, sizeof out->note, "Left out: the units have more than %d widths.", GS_WIDTHS_MAX);
                out->ok = 0;
                return 0;
            }
            w[nw++] = units->u[i].width;
        }
    }
    qsort(w, (size_t)nw, sizeof w[0], cmp_u32);
    double main_total = 0;
    for (size_t i = 0; i < units->n; i++)
        main_total += us[units->u[i].unit].main_ns;
    const size_t scratch = tl->n_events > units->n ? tl->n_events : units->n, nu = units->n ? units->n : 1;
    double *v = malloc((scratch ? scratch : 1) * sizeof *v), *f = malloc(nu * sizeof *f),
           *lx = malloc(nu * sizeof *lx), *ly = malloc(nu * sizeof *ly), *lr = malloc(nu * sizeof *lr);
    unsigned char *lfirst = malloc(nu), *is_first = malloc(nu);
    ukey *key = malloc(nu * sizeof *key);
    int *slot = malloc((size_t)GS_MAX_UNITS * sizeof *slot);
    double *t = malloc((tl->n_events ? tl->n_events : 1) * sizeof *t);
    if (!v || !f || !lx || !ly || !lr || !lfirst || !is_first || !key || !slot || !t) {
        free(v), free(f), free(lx), free(ly), free(lr), free(lfirst), free(is_first), free(key), free(slot), free(t);
        return -1;
    }
    for (int i = 0; i < GS_MAX_UNITS; i++)
        slot[i] = -1;
    /* a CTA's first unit: the one whose MAINLOOP began first on it */
    for (size_t i = 0; i < units->n; i++)
        key[i] = (ukey){units->u[i].cta, units->u[i].unit, us[units->u[i].unit].main_t0, i};
    qsort(key, units->n, sizeof *key, cmp_ukey);
    for (size_t k = 0; k < units->n; k++)
        is_first[key[k].i] = k == 0 || key[k].cta != key[k - 1].cta;
    /* one SM's share of the measured ceiling (a CTA has its SM to itself), flop per ns */
    const double sm_rate = out->sms > 0 ? out->ceiling_tflops * 1e3 / out->sms : NAN;
    for (int k = 0; k < nw; k++) {
        gs_width_row *r = &out->row[out->n++];
        double main_ns = 0;
        size_t m = 0, mf = 0;
        r->width = (int)w[k];
        size_t nl = 0;
        for (size_t i = 0; i < units->n; i++) {
            const gs_unit *u = &units->u[i];
            if (u->width != w[k])
                continue;
            const uint32_t kb = u->k1 - u->k0;
            r->kb_min = r->units == 0 || kb < r->kb_min ? kb : r->kb_min;
            r->kb_max = kb > r->kb_max ? kb : r->kb_max;
            r->units++;
            r->kblocks += kb;
            main_ns += us[u->unit].main_ns;
            f[mf++] = u->flops / kb;
            lx[nl] = kb, ly[nl] = us[u->unit].main_ns, lfirst[nl++] = is_first[i];
            if (u->parts == 1) {
                /* whole tiles only: a part also pays the start of a main loop over fewer K blocks */
                r->whole++;
                v[m++] = us[u->unit].main_ns / kb;
            } else {
                r->parts++;
            }
        }
        r->main_share = main_total > 0 ? main_ns / main_total : NAN;
        fit_line(lx, ly, lfirst, nl, lr, r);
        r->kb_p50_ns = gs_quantile(v, m, 0.5);
        r->kb_p10_ns = gs_quantile(v, m, 0.1);
        r->kb_p90_ns = gs_quantile(v, m, 0.9);
        r->ns_per_column = r->kb_p50_ns / r->width;
        r->floor_ns = sm_rate > 0 ? gs_quantile(f, mf, 0.5) / sm_rate : NAN;
        r->ceiling_share = r->floor_ns / r->kb_p50_ns;
        for (int s = 0; s < out->n_sub; s++) {
            const int p = out->sub[s];
            m = 0;
            for (size_t i = 0; i < tl->n_events; i++) {
                const gs_event *e = &tl->ev[i];
                const ustamp *x = &us[e->tile];
                if (e->phase == p && x->u && x->cta == e->cta && x->warp == e->warp && x->u->width == w[k] &&
                    x->u->parts == 1)
                    v[m++] = e->t1 - e->t0;
            }
            r->sub_ns[p] = gs_quantile(v, m, 0.5);
        }
        steady_cost(tl, units, us, kb_phase, r, slot, t, lx, ly, lr);
    }
    free(v), free(f), free(lx), free(ly), free(lr), free(lfirst), free(is_first), free(key), free(slot), free(t);
    return 0;
}

int gs_widths_compute(const gs_timeline *tl, const gs_meta *meta, const gs_phase_table *names,
                      const gs_units *units, gs_widths *out)
{
    memset(out, 0, sizeof *out);
    if (!units->n)
        return 0;
    out->applies = 1;
    out->listed_units = (int)units->n;
    out->sms = (int)gs_meta_num(meta, "sm_count", 0);
    out->ceiling_tflops = gs_meta_num(meta, "ceiling_tflops", NAN);
    out->k_block = (int)gs_meta_num(meta, "units.k_block", 0);
    /* indexed by the 16-bit unit tag */
    ustamp *us = calloc((size_t)GS_MAX_UNITS, sizeof *us);
    if (!us)
        return -1;
    int rc = 0;
    if (gather(tl, us, out))
        goto done;
    if (!out->stamped_units) {
        put(out->note, sizeof out->note, "Left out: no unit recorded a MAINLOOP.");
        goto done;
    }
    /* the main loop's sub-phases every unit's representative recorded */
    int subs[GS_NUM_PHASES];
    const int ns = gs_phase_main_subs(names, subs);
    for (int s = 0; s < ns; s++) {
        int all = 1;
        for (size_t i = 0; i < units->n && all; i++)
            all = us[units->u[i].unit].count[subs[s]] > 0;
        if (all)
            out->sub[out->n_sub++] = subs[s];
    }
    const char *kb_name = gs_meta_get(meta, "units.kblock_phase");
    int kb_phase = kb_name ? gs_phase_find(names, kb_name) : -1;
    if (kb_phase >= 0) {
        int have = 0;
        for (int s = 0; s < out->n_sub; s++)
            have |= out->sub[s] == kb_phase;
        kb_phase = have ? kb_phase : -1; /* a twin without the per-K-block stamps */
    }
    char why[256];
    if (!agrees(units, us, out, kb_phase, why, sizeof why)) {
        put(out->note, sizeof out->note, "Left out: the stamps and the run's units disagree: %s.", why);
        goto done;
    }
    out->ok = 1;
    rc = aggregate(tl, units, us, kb_phase, out);
done:
    free(us);
    if (rc || !out->ok)
        memset(out->row, 0, sizeof out->row), out->n = 0;
    return rc;
}
