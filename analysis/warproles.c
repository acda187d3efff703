#include "warproles.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A whole number 0..4096 at s; its end in *end; -1 when none. */
static long parse_index(const char *s, const char **end)
{
    if (*s < '0' || *s > '9')
        return -1;
    errno = 0;
    char *e;
    const long v = strtol(s, &e, 10);
    if (errno || v > 4096)
        return -1;
    *end = e;
    return v;
}

/* "A-B" or "A" into first/last; -1 when malformed. */
static int parse_range(const char *s, unsigned *first, unsigned *last)
{
    const char *e;
    const long a = parse_index(s, &e);
    if (a < 0)
        return -1;
    long b = a;
    if (*e == '-') {
        b = parse_index(e + 1, &e);
        if (b < 0)
            return -1;
    }
    if (*e || b < a)
        return -1;
    *first = (unsigned)a;
    *last = (unsigned)b;
    return 0;
}

/* Every warp_role.* key must be `warp_role.<i>.name` or `.warps` with i below the count n (0 when
 * the run declares none): a key past it is a writer's mistake, not a role to drop in silence. */
static int stray_keys(const gs_meta *m, long n, char *err, size_t errlen)
{
    static const char prefix[] = "warp_role.";
    for (int k = 0; k < m->n; k++) {
        const char *key = m->kv[k].key, *e;
        if (strncmp(key, prefix, sizeof prefix - 1))
            continue;
        const long i = parse_index(key + sizeof prefix - 1, &e);
        if (i < 0 || i >= n || (strcmp(e, ".name") && strcmp(e, ".warps"))) {
            snprintf(err, errlen, "meta.txt: %.60s is not a key of one of the run's %ld warp roles (warp_roles)", key,
                     n);
            return -1;
        }
    }
    return 0;
}

int gs_warp_roles_parse(const gs_meta *m, unsigned warps_per_cta, gs_warp_roles *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    const char *count = gs_meta_get(m, "warp_roles");
    if (!count)
        return stray_keys(m, 0, err, errlen);
    const char *e;
    const long n = parse_index(count, &e);
    if (n < 1 || n > GS_MAX_WARP_ROLES || *e) {
        snprintf(err, errlen, "meta.txt: warp_roles = %.40s is not a whole number in [1, %d]", count,
                 GS_MAX_WARP_ROLES);
        return -1;
    }
    if (stray_keys(m, n, err, errlen))
        return -1;
    for (int i = 0; i < (int)n; i++) {
        gs_warp_role *r = &out->role[i];
        char key[64];
        snprintf(key, sizeof key, "warp_role.%d.name", i);
        const char *name = gs_meta_get(m, key);
        if (!name || !*name || strlen(name) >= GS_WARP_ROLE_NAME || strpbrk(name, "|`\t")) {
            snprintf(err, errlen, "meta.txt: %s %s", key,
                     !name ? "missing" : "must be 1..63 characters without '|', '`' or tabs");
            return -1;
        }
        snprintf(r->name, sizeof r->name, "%s", name);
        for (int j = 0; j < i; j++)
            if (!strcmp(out->role[j].name, r->name)) {
                snprintf(err, errlen, "meta.txt: warp_role.%d.name repeats warp_role.%d's (%.40s)", i, j, r->name);
                return -1;
            }
        snprintf(key, sizeof key, "warp_role.%d.warps", i);
        const char *warps = gs_meta_get(m, key);
        if (!warps || parse_range(warps, &r->first, &r->last) || r->last >= warps_per_cta) {
            snprintf(err, errlen, "meta.txt: %s = %.40s is not a range A-B of the CTA's %u warps", key,
                     warps ? warps : "(missing)", warps_per_cta);
            return -1;
        }
        for (int j = 0; j < i; j++)
            if (r->first <= out->role[j].last && out->role[j].first <= r->last) {
                snprintf(err, errlen, "meta.txt: warp_role.%d.warps (%u-%u) overlaps warp_role.%d's (%u-%u)", i,
                         r->first, r->last, j, out->role[j].first, out->role[j].last);
                return -1;
            }
    }
    out->n = (int)n;
    return 0;
}

/* The index of the role holding warp w, or -1. */
static int role_of(const gs_warp_roles *wr, unsigned w)
{
    for (int i = 0; i < wr->n; i++)
        if (w >= wr->role[i].first && w <= wr->role[i].last)
            return i;
    return -1;
}

/* tl's events of role i's warps as a timeline of their own (the same CTAs and spans: busy
 * shares stay shares of the whole CTA time); *recording: (CTA, warp) pairs among them. */
static int role_phases(const gs_warp_roles *wr, int i, const gs_timeline *tl, gs_phases *out, size_t *recording,
                       size_t *outside)
{
    gs_timeline sub = *tl;
    sub.cta_first = NULL; /* the analyses find each CTA's run themselves */
    sub.ev = malloc((tl->n_events ? tl->n_events : 1) * sizeof *sub.ev);
    if (!sub.ev)
        return -1;
    size_t n = 0, rec = 0, out_w = 0;
    for (size_t k = 0; k < tl->n_events; k++) {
        const gs_event *e = &tl->ev[k];
        /* events come grouped by warp: a new (CTA, warp) starts where either changes */
        const int first_of_warp = k == 0 || e->cta != tl->ev[k - 1].cta || e->warp != tl->ev[k - 1].warp;
        const int r = role_of(wr, e->warp);
        if (r == i) {
            sub.ev[n++] = *e;
            rec += first_of_warp;
        } else if (r < 0) {
            out_w += first_of_warp;
        }
    }
    sub.n_events = n;
    const int rc = gs_phases_compute(&sub, out);
    free(sub.ev);
    if (recording)
        *recording = rec;
    if (outside)
        *outside = out_w;
    return rc;
}

int gs_warp_roles_compute(gs_warp_roles *wr, const gs_timeline *tl, const gs_timeline *detail)
{
    for (int i = 0; i < wr->n; i++) {
        gs_warp_role *r = &wr->role[i];
        if (role_phases(wr, i, tl, &r->ph, &r->warps_recording, &wr->warps_outside) ||
            (detail && role_phases(wr, i, detail, &r->ph_detail, NULL, NULL)))
            return -1;
    }
    wr->computed = 1;
    return 0;
}

void gs_warp_roles_free(gs_warp_roles *wr)
{
    for (int i = 0; i < wr->n; i++) {
        gs_phases_free(&wr->role[i].ph);
        gs_phases_free(&wr->role[i].ph_detail);
    }
    wr->computed = 0;
}
