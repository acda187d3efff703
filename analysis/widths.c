/* Main loop by tile width (see widths.h). */
#include "widths.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kernels/nvfp4/schedule.h"
#include "../kernels/nvfp4/shapes.h"
#include "../kernels/nvfp4/variants.h"
#include "phases.h"

static const int stage_phase[GS_WIDTH_STAGES] = {GS_LOAD_WAIT, GS_DEQUANT, GS_MMA};

/* A stamped unit, by the kernel's GS_TILE tag (the schedule's unit index): its CTA, group,
 * representative warp, that warp's MAINLOOP and its stages. */
typedef struct ustamp {
    int seen;
    uint32_t cta;
    uint16_t warp, group;
    double main_ns;
    int stages; /* that warp's LOAD_WAIT records of the unit: its K blocks in a detail run */
} ustamp;

/* What the table needs of a unit. */
typedef struct uwidth {
    int n_eff;
    int kb;    /* K blocks; -1 where not known */
    int whole; /* 1 whole tile, 0 part, -1 not known */
} uwidth;

/* The stamped units and what the schedule is rebuilt from. */
typedef struct wctx {
    nvfp4_shape shape;
    nvfp4_variant v;
    int n_step, sms;
    const char *commit;
    ustamp *u;
    uwidth *w;
    int nt; /* 1 + the largest stamped unit index */
} wctx;

/* printf into a fixed buffer, cut short where it does not fit (notes are for reading). */
__attribute__((format(printf, 3, 4))) static void put(char *buf, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, n, fmt, ap);
    va_end(ap);
}

/* The value of `key=N` in meta's knobs line, or dflt. */
static int knob(const char *knobs, const char *key, int dflt)
{
    const size_t n = strlen(key);
    for (const char *p = knobs; p && *p; p = strchr(p, ' ')) {
        while (*p == ' ')
            p++;
        if (strncmp(p, key, n) == 0 && p[n] == '=')
            return atoi(p + n + 1);
    }
    return dflt;
}

/* Shape and tiling of the run; 0, or -1 with the reason in out->note. */
static int config(const gs_meta *m, wctx *c, gs_widths *out)
{
    char err[400];
    const char *shape = gs_meta_get(m, "shape"), *name = gs_meta_get(m, "variant"), *knobs = gs_meta_get(m, "knobs");
    if (!shape || nvfp4_shape_parse(shape, &c->shape, err, sizeof err)) {
        put(out->note, sizeof out->note, "Left out: meta.txt names no shape the toolkit knows (%s).",
            shape ? shape : "none");
        return -1;
    }
    const nvfp4_variant *reg = nvfp4_variant_find(name);
    if (!reg && !knobs) {
        put(out->note, sizeof out->note, "Left out: variant %s is not a point of this build and meta.txt has no knobs.",
            name ? name : "(none)");
        return -1;
    }
    memset(&c->v, 0, sizeof c->v);
    if (reg)
        c->v = *reg;
    /* the recording's knobs win over today's definition of the point's name */
    c->v.tile_w = knob(knobs, "tile_w", c->v.tile_w);
    c->v.tile_t = knob(knobs, "tile_t", c->v.tile_t);
    c->v.persistent = knob(knobs, "persistent", c->v.persistent);
    c->v.split_k = knob(knobs, "split_k", c->v.split_k);
    c->v.mma_depth = knob(knobs, "mma_depth", c->v.mma_depth ? c->v.mma_depth : 1);
    c->n_step = nvfp4_variant_n_step(&c->v);
    if (c->v.tile_w <= 0 || c->v.tile_t <= 0 || c->v.tile_t > GS_WIDTHS_MAX * NVFP4_N_STEP || c->n_step <= 0 ||
        c->n_step % NVFP4_N_STEP || c->v.tile_t % c->n_step) {
        put(out->note, sizeof out->note, "Left out: the tiling in meta.txt (tile %dx%d) is not one the schedule makes.",
            c->v.tile_w, c->v.tile_t);
        return -1;
    }
    c->sms = (int)gs_meta_num(m, "sm_count", 0);
    c->commit = gs_meta_get(m, "git_commit");
    out->tile_w = c->v.tile_w;
    out->n_step = c->n_step;
    out->sms = c->sms;
    out->ceiling_tflops = gs_meta_num(m, "ceiling_tflops", NAN);
    return 0;
}

/* The stamped units; 0, or 1 with the reason in out->note where the stamps tag one unit in
 * two CTAs or groups, or twice on one warp. */
static int gather(const gs_timeline *tl, wctx *c, gs_widths *out)
{
    for (size_t i = 0; i < tl->n_events; i++) {
        const gs_event *e = &tl->ev[i];
        if (e->phase != GS_MAINLOOP)
            continue;
        ustamp *x = &c->u[e->tile];
        if (!x->seen) {
            *x = (ustamp){1, e->cta, e->warp, e->group, e->t1 - e->t0, 0};
            out->stamped_units++;
            c->nt = e->tile >= c->nt ? e->tile + 1 : c->nt;
        } else if (x->cta != e->cta || x->group != e->group || x->warp == e->warp) {
            put(out->note, sizeof out->note,
                "Left out: the stamps tag unit %u twice (CTA %u warp %u group %u, CTA %u warp %u group %u).", e->tile,
                x->cta, x->warp, x->group, e->cta, e->warp, e->group);
            return 1;
        } else if (e->warp < x->warp) {
            x->warp = e->warp;
            x->main_ns = e->t1 - e->t0;
        }
    }
    for (size_t i = 0; i < tl->n_events; i++) {
        const gs_event *e = &tl->ev[i];
        ustamp *x = &c->u[e->tile];
        if (e->phase == GS_LOAD_WAIT && x->seen && x->cta == e->cta && x->warp == e->warp)
            x->stages++;
    }
    /* a detail run: every unit's warp recorded its stages */
    out->detail = out->stamped_units > 0;
    for (int t = 0; t < c->nt; t++)
        if (c->u[t].seen && !c->u[t].stages)
            out->detail = 0;
    return 0;
}

/* 1 when the schedule agrees with every stamped unit: the same units, each in the stamped
 * group and CTA, and in a detail run with as many stages as it has K blocks; else 0 with
 * the first difference in why. */
static int agrees(const nvfp4_schedule *sc, const wctx *c, const gs_widths *out, char *why, size_t n)
{
    if (sc->ntiles != out->stamped_units || c->nt > sc->ntiles) {
        put(why, n, "the schedule rebuilt from meta.txt has %d units where the stamps have %d", sc->ntiles,
            out->stamped_units);
        return 0;
    }
    for (int b = 0; b < sc->grid; b++)
        for (int t = sc->cta_first[b]; t < sc->cta_first[b + 1]; t++) {
            const nvfp4_tile *s = &sc->tiles[t];
            const ustamp *x = &c->u[t];
            if (x->group != s->group) {
                put(why, n, "unit %d is group %u in the stamps, %u in the schedule rebuilt from meta.txt", t, x->group,
                    s->group);
                return 0;
            }
            if (x->cta != (uint32_t)b) {
                put(why, n, "unit %d ran on CTA %u, the schedule rebuilt from meta.txt puts it on CTA %d", t, x->cta,
                    b);
                return 0;
            }
            if (out->detail && x->stages != s->kb1 - s->kb0) {
                put(why, n, "unit %d ran %d stages, the schedule rebuilt from meta.txt gives it %d K blocks", t,
                    x->stages, s->kb1 - s->kb0);
                return 0;
            }
        }
    return 1;
}

/* Without the schedule, group by group from the shape.  A group's width is known when all its
 * token tiles have one width (a single token tile, or M a multiple of tile_t): every unit of
 * the group has it, whatever the schedule did with K.  Its units' K blocks: in a detail run
 * each unit's stamped stages (a part has fewer than the group's K blocks, a whole tile all of
 * them); in a plain twin only where the group has as many units as tiles (none split, each
 * unit whole), because its stamps do not tell a split tile's owner from a whole tile.  The
 * K blocks of those other groups are still known in all (open_kb, by width).  1 with c->w
 * filled, 0 with the reason in why. */
static int by_groups(const gs_timeline *tl, wctx *c, const gs_widths *out, long long *open_kb, char *open_groups,
                     size_t gn, char *why, size_t n)
{
    const nvfp4_shape *s = &c->shape;
    const int tile_t = c->v.tile_t, step = c->n_step;
    int width[NVFP4_MAX_GROUPS], last_w[NVFP4_MAX_GROUPS], tiles[NVFP4_MAX_GROUPS], kbs[NVFP4_MAX_GROUPS];
    int units[NVFP4_MAX_GROUPS] = {0};
    long long staged[NVFP4_MAX_GROUPS] = {0};
    if (tl->dropped || tl->warps_unfinished) {
        put(why, n, "the stamps are incomplete (records dropped or warps unfinished)");
        return 0;
    }
    for (int g = 0; g < s->groups; g++) {
        const int tt = (s->m[g] + tile_t - 1) / tile_t;
        last_w[g] = (s->m[g] - (tt - 1) * tile_t + step - 1) / step * step;
        width[g] = tt == 1 || last_w[g] == tile_t ? last_w[g] : -1;
        tiles[g] = tt * (s->n[g] / c->v.tile_w);
        kbs[g] = s->k[g] / NVFP4_BK;
    }
    for (int t = 0; t < c->nt; t++) {
        const ustamp *x = &c->u[t];
        if (!x->seen)
            continue;
        const int g = x->group;
        if (g >= s->groups) {
            put(why, n, "unit %d is tagged group %d, the shape has %d groups", t, g, s->groups);
            return 0;
        }
        if (width[g] < 0) {
            put(why, n, "group %d (M = %d) has token tiles of two widths (%d and %d)", g, s->m[g], tile_t, last_w[g]);
            return 0;
        }
        if (out->detail && x->stages > kbs[g]) {
            put(why, n, "unit %d ran %d stages, its group has %d K blocks", t, x->stages, kbs[g]);
            return 0;
        }
        units[g]++;
        staged[g] += x->stages;
    }
    for (int g = 0; g < s->groups; g++) {
        if (units[g] < tiles[g]) {
            put(why, n, "group %d has %d units in the stamps, fewer than its %d tiles", g, units[g], tiles[g]);
            return 0;
        }
        /* every K block of every tile runs once, however the tiles were cut */
        if (out->detail && staged[g] != (long long)tiles[g] * kbs[g]) {
            put(why, n, "group %d's units ran %lld stages, its tiles have %lld K blocks", g, staged[g],
                (long long)tiles[g] * kbs[g]);
            return 0;
        }
    }
    size_t used = 0;
    for (int g = 0; g < s->groups; g++)
        if (!out->detail && units[g] > tiles[g]) {
            open_kb[width[g] / NVFP4_N_STEP - 1] += (long long)tiles[g] * kbs[g];
            int k = snprintf(open_groups + used, gn - used, "%s%d", used ? ", " : "", g);
            used = k < 0 || used + (size_t)k >= gn ? gn - 1 : used + (size_t)k;
        }
    for (int t = 0; t < c->nt; t++) {
        const ustamp *x = &c->u[t];
        if (!x->seen)
            continue;
        const int g = x->group;
        if (out->detail)
            c->w[t] = (uwidth){width[g], x->stages, x->stages == kbs[g]};
        else if (units[g] == tiles[g])
            c->w[t] = (uwidth){width[g], kbs[g], 1};
        else
            c->w[t] = (uwidth){width[g], -1, -1};
    }
    return 1;
}

/* The rows from the units' widths and K blocks. */
static int aggregate(const gs_timeline *tl, const wctx *c, const long long *open_kb, gs_widths *out)
{
    int units[GS_WIDTHS_MAX] = {0}, whole[GS_WIDTHS_MAX] = {0}, open[GS_WIDTHS_MAX] = {0};
    long long kb[GS_WIDTHS_MAX] = {0};
    double main_ns[GS_WIDTHS_MAX] = {0}, main_total = 0;
    for (int t = 0; t < c->nt; t++) {
        if (!c->u[t].seen)
            continue;
        const int i = c->w[t].n_eff / NVFP4_N_STEP - 1;
        units[i]++;
        main_ns[i] += c->u[t].main_ns;
        main_total += c->u[t].main_ns;
        if (c->w[t].kb < 0)
            open[i]++;
        else
            kb[i] += c->w[t].kb, whole[i] += c->w[t].whole == 1;
    }
    const size_t scratch = tl->n_events > (size_t)c->nt ? tl->n_events : (size_t)c->nt;
    double *v = malloc((scratch ? scratch : 1) * sizeof *v);
    if (!v)
        return -1;
    /* one SM's share of the measured ceiling (a CTA has its SM to itself), flop per ns */
    const double sm_rate = out->sms > 0 ? out->ceiling_tflops * 1e3 / out->sms : NAN;
    for (int i = 0; i < GS_WIDTHS_MAX; i++) {
        if (!units[i])
            continue;
        gs_width_row *r = &out->row[out->n++];
        r->n_eff = (i + 1) * NVFP4_N_STEP;
        r->units = units[i];
        r->resolved = open[i] == 0;
        r->whole = r->resolved ? whole[i] : -1;
        r->parts = r->resolved ? units[i] - whole[i] : -1;
        r->kblocks = kb[i] + open_kb[i];
        r->main_share = main_total > 0 ? main_ns[i] / main_total : NAN;
        /* whole tiles only: a part also pays the start of a main loop over fewer K blocks; and
         * none where some units of the width are not known to be whole or parts */
        size_t m = 0;
        for (int t = 0; r->resolved && t < c->nt; t++)
            if (c->u[t].seen && c->w[t].n_eff == r->n_eff && c->w[t].whole == 1)
                v[m++] = c->u[t].main_ns / c->w[t].kb;
        r->kb_p50_ns = gs_quantile(v, m, 0.5);
        r->kb_p10_ns = gs_quantile(v, m, 0.1);
        r->kb_p90_ns = gs_quantile(v, m, 0.9);
        r->ns_per_token = r->kb_p50_ns / r->n_eff;
        r->floor_ns = sm_rate > 0 ? 2.0 * out->tile_w * r->n_eff * NVFP4_BK / sm_rate : NAN;
        r->ceiling_share = r->floor_ns / r->kb_p50_ns;
        for (int p = 0; p < GS_WIDTH_STAGES; p++) {
            m = 0;
            for (size_t k = 0; out->detail && r->resolved && k < tl->n_events; k++) {
                const gs_event *e = &tl->ev[k];
                const ustamp *x = &c->u[e->tile];
                if (e->phase == stage_phase[p] && x->seen && x->cta == e->cta && x->warp == e->warp &&
                    c->w[e->tile].n_eff == r->n_eff && c->w[e->tile].whole == 1)
                    v[m++] = e->t1 - e->t0;
            }
            r->stage_ns[p] = gs_quantile(v, m, 0.5);
        }
    }
    free(v);
    return 0;
}

/* The schedule disagrees (why): units by group where the shape allows, with the note. */
static int groups_path(const gs_timeline *tl, wctx *c, const char *why, gs_widths *out)
{
    long long open_kb[GS_WIDTHS_MAX] = {0};
    char open_groups[96] = "", fail[256];
    const char *commit = c->commit ? c->commit : "unknown";
    if (!by_groups(tl, c, out, open_kb, open_groups, sizeof open_groups, fail, sizeof fail)) {
        put(out->note, sizeof out->note,
            "Left out: %s (the run was recorded at commit %s), and the shape does not give the units' widths "
            "and K blocks either: %s.",
            why, commit, fail);
        return 0;
    }
    out->from = GS_UNITS_GROUPS;
    char tail[320];
    if (out->detail)
        put(tail, sizeof tail, "K blocks from each unit's stamped stages.");
    else if (!open_groups[0])
        put(tail, sizeof tail, "K blocks from the groups' K (no group has more units than tiles: none was split).");
    else
        put(tail, sizeof tail,
            "K blocks from the groups' K. Tiles of groups %s were split, and a plain twin's stamps do not tell a "
            "split tile's owner from a whole tile: their widths show units, K blocks and share only.",
            open_groups);
    put(out->note, sizeof out->note,
        "Units mapped to widths by group, not by the schedule: %s (the run was recorded at commit %s). Every "
        "group's token tiles have one width; %s",
        why, commit, tail);
    return aggregate(tl, c, open_kb, out);
}

int gs_widths_compute(const gs_timeline *tl, const gs_meta *meta, gs_widths *out)
{
    memset(out, 0, sizeof *out);
    const char *subject = gs_meta_get(meta, "subject");
    if (!subject || strcmp(subject, "nvfp4") != 0)
        return 0;
    out->applies = 1;
    out->schedule_units = -1;
    wctx c;
    memset(&c, 0, sizeof c);
    if (config(meta, &c, out))
        return 0;
    char why[256];
    nvfp4_schedule sc;
    int rc = -1;
    /* indexed by the 16-bit unit tag */
    c.u = calloc((size_t)UINT16_MAX + 1, sizeof *c.u);
    c.w = calloc((size_t)UINT16_MAX + 1, sizeof *c.w);
    if (!c.u || !c.w)
        goto done;
    rc = 0;
    if (gather(tl, &c, out))
        goto done;
    if (!out->stamped_units) {
        put(out->note, sizeof out->note, "Left out: no unit recorded a MAINLOOP.");
        goto done;
    }
    if (nvfp4_variant_schedule(&c.v, &c.shape, c.sms, &sc, why, sizeof why) == 0) {
        out->schedule_units = sc.ntiles;
        const int ok = agrees(&sc, &c, out, why, sizeof why);
        for (int t = 0; ok && t < sc.ntiles; t++)
            c.w[t] = (uwidth){sc.tiles[t].n_eff, sc.tiles[t].kb1 - sc.tiles[t].kb0, sc.tiles[t].parts == 1};
        nvfp4_schedule_free(&sc);
        if (ok) {
            const long long none[GS_WIDTHS_MAX] = {0};
            out->from = GS_UNITS_SCHEDULE;
            rc = aggregate(tl, &c, none, out);
            goto done;
        }
    } else {
        char err[256];
        put(err, sizeof err, "%s", why);
        put(why, sizeof why, "the schedule cannot be rebuilt from meta.txt (%s)", err);
    }
    rc = groups_path(tl, &c, why, out);
done:
    free(c.u);
    free(c.w);
    if (rc)
        memset(out->row, 0, sizeof out->row), out->n = 0;
    return rc;
}
