#define _POSIX_C_SOURCE 200809L
#include "gs_run.h"
#include "gs_file.h"
#include "gs_stats.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void gs_buf_printf(gs_buf *b, const char *fmt, ...)
{
    if (b->oom)
        return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        size_t room = b->cap - b->len;
        int n = vsnprintf(b->s ? b->s + b->len : NULL, b->s ? room : 0, fmt, ap);
        va_end(ap);
        if (n < 0) {
            b->oom = 1;
            return;
        }
        if (b->s && (size_t)n < room) {
            b->len += (size_t)n;
            return;
        }
        size_t cap = b->cap ? b->cap * 2 : 4096;
        while (cap < b->len + (size_t)n + 1)
            cap *= 2;
        char *s = realloc(b->s, cap);
        if (!s) {
            b->oom = 1;
            return;
        }
        b->s = s;
        b->cap = cap;
    }
}

void gs_buf_free(gs_buf *b)
{
    free(b->s);
    memset(b, 0, sizeof *b);
}

int gs_buf_write(const gs_buf *b, const char *path, char *err, size_t errlen)
{
    if (b->oom) {
        snprintf(err, errlen, "out of memory while writing %s", path);
        return -1;
    }
    return gs_write_atomic(path, b->s ? b->s : "", b->len, err, errlen);
}

static char *dup_clean(const char *s)
{
    /* values are single-line: newlines and tabs become spaces */
    char *d = strdup(s);
    if (d)
        for (char *p = d; *p; p++)
            if (*p == '\n' || *p == '\r' || *p == '\t')
                *p = ' ';
    return d;
}

static int meta_put(gs_meta *m, const char *key, const char *val)
{
    for (int i = 0; i < m->n; i++) {
        if (strcmp(m->kv[i].key, key) == 0) {
            char *v = dup_clean(val);
            if (!v)
                return -1;
            free(m->kv[i].val);
            m->kv[i].val = v;
            return 0;
        }
    }
    if (m->n == m->cap) {
        int cap = m->cap ? m->cap * 2 : 32;
        gs_kv *kv = realloc(m->kv, (size_t)cap * sizeof *kv);
        if (!kv)
            return -1;
        m->kv = kv;
        m->cap = cap;
    }
    m->kv[m->n].key = dup_clean(key);
    m->kv[m->n].val = dup_clean(val);
    if (!m->kv[m->n].key || !m->kv[m->n].val)
        return -1;
    m->n++;
    return 0;
}

int gs_meta_set(gs_meta *m, const char *key, const char *fmt, ...)
{
    char val[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(val, sizeof val, fmt, ap);
    va_end(ap);
    return meta_put(m, key, val);
}

const char *gs_meta_get(const gs_meta *m, const char *key)
{
    for (int i = 0; i < m->n; i++)
        if (strcmp(m->kv[i].key, key) == 0)
            return m->kv[i].val;
    return NULL;
}

double gs_meta_num(const gs_meta *m, const char *key, double fallback)
{
    const char *v = gs_meta_get(m, key);
    if (!v || !*v)
        return fallback;
    char *end;
    double d = strtod(v, &end);
    return *end || !isfinite(d) ? fallback : d; /* inf and nan are no run's figures */
}

int gs_meta_write(const gs_meta *m, const char *path, char *err, size_t errlen)
{
    gs_buf b = {0};
    gs_buf_printf(&b, "gemmscope-meta %d\n", GS_META_VERSION);
    for (int i = 0; i < m->n; i++)
        gs_buf_printf(&b, "%s = %s\n", m->kv[i].key, m->kv[i].val);
    int rc = gs_buf_write(&b, path, err, errlen);
    gs_buf_free(&b);
    return rc;
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    char *e = s + strlen(s);
    while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r'))
        *--e = 0;
    return s;
}

int gs_meta_read(gs_meta *m, const char *path, char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    char line[4096];
    int version = 0, lineno = 0, rc = -1;
    if (!fgets(line, sizeof line, f) || sscanf(line, "gemmscope-meta %d", &version) != 1) {
        snprintf(err, errlen, "%s: not a gemmscope meta file (first line must be 'gemmscope-meta N')", path);
        goto out;
    }
    if (version != GS_META_VERSION) {
        snprintf(err, errlen, "%s: meta version %d, this gemmscope reads version %d%s", path, version,
                 GS_META_VERSION,
                 version == 1 ? " (a run of format 1 names no phases and lists no units: record it again)" : "");
        goto out;
    }
    lineno = 1;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        char *s = trim(line);
        if (!*s || *s == '#')
            continue;
        char *eq = strstr(s, " = ");
        if (!eq) {
            snprintf(err, errlen, "%s:%d: expected 'key = value'", path, lineno);
            goto out;
        }
        *eq = 0;
        if (meta_put(m, trim(s), trim(eq + 3))) {
            snprintf(err, errlen, "out of memory reading %s", path);
            goto out;
        }
    }
    rc = 0;
out:
    fclose(f);
    if (rc)
        gs_meta_free(m);
    return rc;
}

void gs_meta_free(gs_meta *m)
{
    for (int i = 0; i < m->n; i++) {
        free(m->kv[i].key);
        free(m->kv[i].val);
    }
    free(m->kv);
    memset(m, 0, sizeof *m);
}

int gs_timings_find(const gs_timings *t, const char *build)
{
    for (int i = 0; i < t->n; i++)
        if (strcmp(t->name[i], build) == 0)
            return i;
    return -1;
}

int gs_timings_add(gs_timings *t, const char *build, const double *ms, int count)
{
    int i = gs_timings_find(t, build);
    if (i < 0) {
        if (t->n == GS_MAX_BUILDS || strlen(build) >= sizeof t->name[0])
            return -1;
        i = t->n++;
        snprintf(t->name[i], sizeof t->name[i], "%s", build);
        t->count[i] = 0;
        t->ms[i] = NULL;
    }
    double *p = realloc(t->ms[i], (size_t)(t->count[i] + count) * sizeof(double));
    if (!p)
        return -1;
    memcpy(p + t->count[i], ms, (size_t)count * sizeof(double));
    t->ms[i] = p;
    t->count[i] += count;
    return 0;
}

static double quantile_sorted(const double *v, int n, double q)
{
    double pos = q * (n - 1);
    int i = (int)pos;
    if (i >= n - 1)
        return v[n - 1];
    return v[i] + (pos - i) * (v[i + 1] - v[i]);
}

static double timings_q(const gs_timings *t, int i, double q)
{
    if (i < 0 || i >= t->n || t->count[i] == 0)
        return 0.0 / 0.0;
    double *v = malloc((size_t)t->count[i] * sizeof(double));
    if (!v)
        return 0.0 / 0.0;
    memcpy(v, t->ms[i], (size_t)t->count[i] * sizeof(double));
    qsort(v, (size_t)t->count[i], sizeof(double), gs_cmp_double);
    double r = quantile_sorted(v, t->count[i], q);
    free(v);
    return r;
}

double gs_timings_median(const gs_timings *t, int i) { return timings_q(t, i, 0.5); }
double gs_timings_min(const gs_timings *t, int i) { return timings_q(t, i, 0.0); }
double gs_timings_max(const gs_timings *t, int i) { return timings_q(t, i, 1.0); }

int gs_timings_write(const gs_timings *t, const char *path, char *err, size_t errlen)
{
    gs_buf b = {0};
    gs_buf_printf(&b, "# gemmscope-timings %d\nbuild\trep\tms\n", GS_TIMINGS_VERSION);
    for (int i = 0; i < t->n; i++)
        for (int r = 0; r < t->count[i]; r++)
            gs_buf_printf(&b, "%s\t%d\t%.6f\n", t->name[i], r, t->ms[i][r]);
    int rc = gs_buf_write(&b, path, err, errlen);
    gs_buf_free(&b);
    return rc;
}

int gs_timings_read(gs_timings *t, const char *path, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    char line[512];
    int version = 0, lineno = 0, rc = -1;
    if (!fgets(line, sizeof line, f) || sscanf(line, "# gemmscope-timings %d", &version) != 1) {
        snprintf(err, errlen, "%s: not a gemmscope timings file", path);
        goto out;
    }
    if (version != GS_TIMINGS_VERSION) {
        snprintf(err, errlen, "%s: timings version %d, this gemmscope reads version %d", path, version,
                 GS_TIMINGS_VERSION);
        goto out;
    }
    lineno = 1;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        char build[64];
        int rep;
        double ms;
        if (lineno == 2 && strncmp(line, "build\t", 6) == 0)
            continue;
        if (sscanf(line, "%63s %d %lf", build, &rep, &ms) != 3) {
            snprintf(err, errlen, "%s:%d: expected 'build<TAB>rep<TAB>ms'", path, lineno);
            goto out;
        }
        if (!(ms > 0) || !isfinite(ms)) { /* a repetition takes time */
            snprintf(err, errlen, "%s:%d: %g ms is not a time", path, lineno, ms);
            goto out;
        }
        if (gs_timings_add(t, build, &ms, 1)) {
            snprintf(err, errlen, "%s:%d: too many builds or out of memory", path, lineno);
            goto out;
        }
    }
    rc = 0;
out:
    fclose(f);
    if (rc)
        gs_timings_free(t);
    return rc;
}

void gs_timings_free(gs_timings *t)
{
    for (int i = 0; i < t->n; i++)
        free(t->ms[i]);
    memset(t, 0, sizeof *t);
}
