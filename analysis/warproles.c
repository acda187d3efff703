#include "warproles.h"
#include "../instrument/gs_tsv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* s[0..len) as a whole number of at most max (gs_tsv_uint on a copy); -1 when it is not. */
static long whole(const char *s, size_t len, uint64_t max)
{
    char buf[24];
    uint64_t v;
    if (len >= sizeof buf)
        return -1;
    memcpy(buf, s, len);
    buf[len] = 0;
    return gs_tsv_uint(buf, max, &v) ? -1 : (long)v;
}

/* "A-B" or "A" into first/last; -1 when malformed. */
static int parse_range(const char *s, unsigned *first, unsigned *last)
{
    const char *dash = strchr(s, '-');
    const long a = whole(s, dash ? (size_t)(dash - s) : strlen(s), GS_MAX_WARP_ROLES - 1),
               b = dash ? whole(dash + 1, strlen(dash + 1), GS_MAX_WARP_ROLES - 1) : a;
    if (a < 0 || b < a)
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
        const char *key = m->kv[k].key;
        if (strncmp(key, prefix, sizeof prefix - 1))
            continue;
        const char *idx = key + sizeof prefix - 1, *e = strchr(idx, '.');
        const long i = e ? whole(idx, (size_t)(e - idx), GS_MAX_WARP_ROLES) : -1;
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
    const long n = whole(count, strlen(count), GS_MAX_WARP_ROLES);
    if (n < 1) {
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

/* tl's events of role i's warps (role_of: each warp index's role, -1 for none) as a timeline of
 * their own: the same CTAs and spans, so busy shares stay shares of the whole CTA time. */
static int role_phases(const signed char *role_of, int i, const gs_timeline *tl, gs_phases *out)
{
    gs_timeline sub = *tl;
    sub.cta_first = NULL; /* the analyses find each CTA's run themselves */
    sub.ev = malloc((tl->n_events ? tl->n_events : 1) * sizeof *sub.ev);
    if (!sub.ev)
        return -1;
    sub.n_events = 0;
    for (size_t k = 0; k < tl->n_events; k++)
        if (tl->ev[k].warp < GS_MAX_WARP_ROLES && role_of[tl->ev[k].warp] == i)
            sub.ev[sub.n_events++] = tl->ev[k];
    const int rc = gs_phases_compute(&sub, out);
    free(sub.ev);
    return rc;
}

int gs_warp_roles_compute(gs_warp_roles *wr, const gs_phase_table *names, const gs_timeline *tl,
                          const gs_timeline *detail)
{
    /* by warp index in the CTA: the stamp format holds at most 32 warps a CTA (gs_file.c), as
     * many as roles may number */
    signed char role_of[GS_MAX_WARP_ROLES];
    memset(role_of, -1, sizeof role_of);
    for (int i = 0; i < wr->n; i++)
        for (unsigned w = wr->role[i].first; w <= wr->role[i].last; w++)
            role_of[w] = (signed char)i;
    /* the (CTA, warp) pairs that recorded, by role: events come grouped by warp */
    wr->warps_outside = 0;
    for (int i = 0; i < wr->n; i++)
        wr->role[i].warps_recording = 0;
    for (size_t k = 0; k < tl->n_events; k++) {
        const gs_event *e = &tl->ev[k];
        if (k && e->cta == tl->ev[k - 1].cta && e->warp == tl->ev[k - 1].warp)
            continue;
        const int r = e->warp < GS_MAX_WARP_ROLES ? role_of[e->warp] : -1;
        if (r < 0)
            wr->warps_outside++;
        else
            wr->role[r].warps_recording++;
    }
    for (int i = 0; i < wr->n; i++) {
        gs_warp_role *r = &wr->role[i];
        if (role_phases(role_of, i, tl, &r->ph) || (detail && role_phases(role_of, i, detail, &r->ph_detail)))
            return -1;
        if (detail)
            gs_phases_take_subs(names, &r->ph, &r->ph_detail);
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
