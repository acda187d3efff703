#define _POSIX_C_SOURCE 200809L
#include "proposals.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *gs_decision_name(gs_decision d) { return d == GS_GO ? "GO" : d == GS_CAUTION ? "CAUTION" : "NO-GO"; }

static int parse_expr(const char *s, gs_expr *e)
{
    memset(e, 0, sizeof *e);
    char buf[256];
    snprintf(buf, sizeof buf, "%s", s);
    for (char *save = NULL, *t = strtok_r(buf, "+", &save); t; t = strtok_r(NULL, "+", &save)) {
        if (e->n == GS_MAX_TERMS || strlen(t) >= sizeof e->term[0] || !*t)
            return -1;
        snprintf(e->term[e->n++], sizeof e->term[0], "%s", t);
    }
    return e->n ? 0 : -1;
}

void gs_expr_format(const gs_expr *e, char *buf, size_t len)
{
    buf[0] = 0;
    for (int i = 0; i < e->n; i++) {
        size_t at = strlen(buf);
        snprintf(buf + at, len - at, "%s%s", i ? " + " : "", e->term[i]);
    }
}

double gs_metric(const gs_rundata *r, const char *term, char *err, size_t errlen)
{
    /* min(X,Y): what overlapping two serial streams of work can save at most */
    size_t len = strlen(term);
    if (!strncmp(term, "min(", 4) && len > 5 && term[len - 1] == ')') {
        char a[32], b[32];
        const char *comma = strchr(term, ',');
        if (!comma) {
            snprintf(err, errlen, "min needs two metrics: '%s'", term);
            return NAN;
        }
        snprintf(a, sizeof a, "%.*s", (int)(comma - term - 4), term + 4);
        snprintf(b, sizeof b, "%.*s", (int)(term + len - 1 - comma - 1), comma + 1);
        double x = gs_metric(r, a, err, errlen), y = gs_metric(r, b, err, errlen);
        return isnan(x) || isnan(y) ? NAN : fmin(x, y);
    }
    const char *dot = strchr(term, '.');
    if (dot) {
        char kind[32];
        snprintf(kind, sizeof kind, "%.*s", (int)(dot - term), term);
        if (strcmp(kind, "busy") && strcmp(kind, "exposed") && strcmp(kind, "amdahl")) {
            snprintf(err, errlen, "unknown metric kind '%s' in '%s' (busy, exposed, amdahl)", kind, term);
            return NAN;
        }
        /* a role (wait, prep, mma): the main loop's sub-phases with that role, whatever the
         * kernel calls them; their busy shares summed */
        const int role = gs_prole_from_name(dot + 1);
        if (role > 0) {
            if (strcmp(kind, "busy")) {
                snprintf(err, errlen, "'%s': roles are sub-phases of the main loop, never exposed: use busy.%s", term,
                         dot + 1);
                return NAN;
            }
            int subs[GS_NUM_PHASES], recorded = 0;
            double sum = 0;
            const int ns = gs_phase_main_subs(&r->names, subs);
            for (int i = 0; i < ns; i++) {
                recorded += r->phases.ph[subs[i]].instances > 0;
                if ((int)r->names.p[subs[i]].role == role)
                    sum += r->phases.ph[subs[i]].busy_share;
            }
            /* the kernel names no sub-phase of its main loop, or names some and the stamps hold
             * none (a twin without the detail stamps): the run cannot say; some recorded, none of
             * this role: the kernel has no such work */
            if (!ns) {
                snprintf(err, errlen, "'%s': the kernel stamps no sub-phase of its main loop, so its share of %s "
                                      "cannot be known", term, dot + 1);
                return NAN;
            }
            if (!recorded) {
                snprintf(err, errlen, "'%s': this run's stamps record no sub-phase of the main loop (record the "
                                      "kernel's detail twin: DETAIL=1)", term);
                return NAN;
            }
            return sum;
        }
        int p = gs_phase_find(&r->names, dot + 1);
        if (p < 0) {
            snprintf(err, errlen, "unknown phase or role '%s' in '%s' (this run's phases, or wait, prep, mma)",
                     dot + 1, term);
            return NAN;
        }
        if (!strcmp(kind, "busy"))
            return r->phases.ph[p].busy_share;
        if (!strcmp(kind, "exposed"))
            return p == GS_MAINLOOP ? r->smt.share[GS_MAINLOOP] : r->smt.exposed_share[p];
        return r->smt.amdahl_bound[p];
    }
    if (!strcmp(term, "idle"))
        return r->smt.share[GS_SMT_IDLE];
    if (!strcmp(term, "resident"))
        return r->smt.share[GS_SMT_RESIDENT];
    if (!strcmp(term, "tail"))
        return r->smt.tail_share;
    if (!strcmp(term, "padding"))
        return isnan(r->perf.padding) ? 0.0 : r->perf.padding;
    if (!strcmp(term, "ceiling_fraction"))
        return r->perf.ceiling_fraction;
    if (!strcmp(term, "bandwidth_fraction"))
        return r->perf.bandwidth_fraction;
    snprintf(err, errlen,
             "unknown metric '%s' (busy.P, exposed.P, amdahl.P for a phase P, busy.wait, busy.prep, busy.mma, idle, "
             "resident, tail, padding, ceiling_fraction, bandwidth_fraction)",
             term);
    return NAN;
}

double gs_expr_eval(const gs_rundata *r, const gs_expr *e, char *err, size_t errlen)
{
    double v = 0;
    for (int i = 0; i < e->n; i++)
        v += gs_metric(r, e->term[i], err, errlen);
    return v;
}

static int holds(double v, const char *op, double t)
{
    if (!strcmp(op, "<"))
        return v < t;
    if (!strcmp(op, "<="))
        return v <= t;
    if (!strcmp(op, ">"))
        return v > t;
    return v >= t;
}

int gs_proposal_decide(const gs_rundata *r, const gs_proposal *p, char *err, size_t errlen)
{
    for (int i = 0; i < p->n_rules; i++) {
        const gs_rule *u = &p->rule[i];
        if (u->always)
            return i;
        double v = gs_expr_eval(r, &u->expr, err, errlen);
        if (isnan(v))
            return -1;
        if (holds(v, u->op, u->threshold))
            return i;
    }
    snprintf(err, errlen, "no rule of proposal '%s' matched (end it with an 'always' rule)", p->name);
    return -1;
}

const gs_proposal *gs_proposal_find(const gs_proposals *ps, const char *name)
{
    for (int i = 0; i < ps->n; i++)
        if (!strcmp(ps->p[i].name, name))
            return &ps->p[i];
    return NULL;
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    char *e = s + strlen(s);
    while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' || e[-1] == '\n'))
        *--e = 0;
    return s;
}

/* rule EXPR OP NUM DECISION "REASON"  |  rule always DECISION "REASON" */
static int parse_rule(char *s, gs_rule *u, char *why, size_t n)
{
    memset(u, 0, sizeof *u);
    char *q = strchr(s, '"');
    char *q2 = q ? strrchr(s, '"') : NULL;
    if (!q || q2 == q) {
        snprintf(why, n, "rule needs a reason in double quotes");
        return -1;
    }
    *q2 = 0;
    snprintf(u->reason, sizeof u->reason, "%s", q + 1);
    *q = 0;
    char *w[6];
    int nw = 0;
    for (char *save = NULL, *t = strtok_r(s, " \t", &save); t && nw < 6; t = strtok_r(NULL, " \t", &save))
        w[nw++] = t;
    const char *dec;
    if (nw == 2 && !strcmp(w[0], "always")) {
        u->always = 1;
        dec = w[1];
    } else if (nw == 4) {
        if (parse_expr(w[0], &u->expr)) {
            snprintf(why, n, "bad metric expression '%s'", w[0]);
            return -1;
        }
        if (strcmp(w[1], "<") && strcmp(w[1], "<=") && strcmp(w[1], ">") && strcmp(w[1], ">=")) {
            snprintf(why, n, "bad comparison '%s' (<, <=, >, >=)", w[1]);
            return -1;
        }
        snprintf(u->op, sizeof u->op, "%s", w[1]);
        char *end;
        errno = 0;
        u->threshold = strtod(w[2], &end);
        if (!*end && !isfinite(u->threshold))
            end = w[2]; /* inf and nan compare as no real metric does */
        if (*end || errno) {
            snprintf(why, n, "bad threshold '%s'", w[2]);
            return -1;
        }
        dec = w[3];
    } else {
        snprintf(why, n, "expected: rule EXPR OP NUMBER DECISION \"reason\" or rule always DECISION \"reason\"");
        return -1;
    }
    if (!strcmp(dec, "go"))
        u->decision = GS_GO;
    else if (!strcmp(dec, "no-go"))
        u->decision = GS_NO_GO;
    else if (!strcmp(dec, "caution"))
        u->decision = GS_CAUTION;
    else {
        snprintf(why, n, "bad decision '%s' (go, caution, no-go)", dec);
        return -1;
    }
    return 0;
}

int gs_proposals_parse(const char *text, const char *name, gs_proposals *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    char *copy = strdup(text), why[256] = "";
    if (!copy) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    gs_proposal *cur = NULL;
    int lineno = 0, rc = -1, version = 0;
    for (char *line = copy, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = 0;
        lineno++;
        char *s = trim(line);
        if (!version) {
            if (sscanf(s, "# gemmscope proposals, format %d", &version) != 1 || version != 1) {
                snprintf(why, sizeof why, "first line must be '# gemmscope proposals, format 1'");
                goto bad;
            }
            continue;
        }
        if (!*s || *s == '#')
            continue;
        char key[32] = "";
        int klen = 0;
        sscanf(s, "%31s%n", key, &klen);
        char *val = trim(s + klen);
        if (!cur) {
            if (strcmp(key, "proposal") || !*val || strlen(val) >= sizeof out->p[0].name) {
                snprintf(why, sizeof why, "expected 'proposal NAME'");
                goto bad;
            }
            if (out->n == GS_MAX_PROPOSALS) {
                snprintf(why, sizeof why, "more than %d proposals", GS_MAX_PROPOSALS);
                goto bad;
            }
            cur = &out->p[out->n++];
            memset(cur, 0, sizeof *cur);
            snprintf(cur->name, sizeof cur->name, "%s", val);
            cur->claimed_speedup = NAN;
            continue;
        }
        if (!strcmp(key, "end")) {
            if (!cur->n_rules || !cur->bound.n) {
                snprintf(why, sizeof why, "proposal '%s' needs a bound and at least one rule", cur->name);
                goto bad;
            }
            if (!cur->rule[cur->n_rules - 1].always) {
                snprintf(why, sizeof why, "the last rule of '%s' must be 'rule always ...'", cur->name);
                goto bad;
            }
            cur = NULL;
        } else if (!strcmp(key, "title"))
            snprintf(cur->title, sizeof cur->title, "%s", val);
        else if (!strcmp(key, "source"))
            snprintf(cur->source, sizeof cur->source, "%s", val);
        else if (!strcmp(key, "targets"))
            snprintf(cur->targets, sizeof cur->targets, "%s", val);
        else if (!strcmp(key, "claim"))
            snprintf(cur->claim, sizeof cur->claim, "%s", val);
        else if (!strcmp(key, "knob"))
            snprintf(cur->knob, sizeof cur->knob, "%s", val);
        else if (!strcmp(key, "knob_off"))
            snprintf(cur->knob_off, sizeof cur->knob_off, "%s", val);
        else if (!strcmp(key, "claimed_speedup")) {
            char *end;
            cur->claimed_speedup = strtod(val, &end);
            if (*end || !(cur->claimed_speedup > 0) || !isfinite(cur->claimed_speedup)) {
                snprintf(why, sizeof why, "claimed_speedup must be a positive finite number");
                goto bad;
            }
        } else if (!strcmp(key, "bound")) {
            if (parse_expr(val, &cur->bound)) {
                snprintf(why, sizeof why, "bad bound expression '%s'", val);
                goto bad;
            }
        } else if (!strcmp(key, "rule")) {
            if (cur->n_rules == GS_MAX_RULES) {
                snprintf(why, sizeof why, "more than %d rules", GS_MAX_RULES);
                goto bad;
            }
            if (parse_rule(val, &cur->rule[cur->n_rules], why, sizeof why))
                goto bad;
            cur->n_rules++;
        } else {
            snprintf(why, sizeof why, "unknown key '%s'", key);
            goto bad;
        }
    }
    if (!version) {
        snprintf(err, errlen, "%s: empty proposals file", name);
        goto out;
    }
    if (cur) {
        snprintf(err, errlen, "%s: proposal '%s' has no 'end'", name, cur->name);
        goto out;
    }
    rc = 0;
    goto out;
bad:
    snprintf(err, errlen, "%s:%d: %s", name, lineno, why);
out:
    free(copy);
    return rc;
}

int gs_proposals_read(const char *path, gs_proposals *out, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    static char text[1 << 18];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    return gs_proposals_parse(text, path, out, err, errlen);
}
