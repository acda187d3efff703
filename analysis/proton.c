/* gemmscope import proton: a Proton instrumentation trace (chrome_trace) as a run directory.
 * The layout read here and every assumption of the conversion are in docs/proton.md. */
#define _POSIX_C_SOURCE 200809L
#include "proton.h"
#include "instrument/gs_rundir.h"

#include <ctype.h>
#include <jansson.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <zlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>

#define PT_MAX_SCOPES 256        /* Proton's scope id is 8 bits of the record's tag */
#define PT_MAX_CTAS (1u << 20)   /* far past the grids a host-side trace holds */
#define PT_MAX_STAMP_BYTES (4ull << 30) /* the stamp buffers the import builds, at most */
#define PT_MAX_UNITS 1e15        /* ts and dur x 1000 beyond 1000 s: no launch runs that long */
#define PT_GHZ_MIN 0.2           /* an SM clock outside this is a broken trace, not a GPU */
#define PT_GHZ_MAX 4.0

typedef struct pt_event {
    uint32_t cta, warp;
    int scope;   /* index into pt_trace.scopes */
    int64_t ts;  /* ts x 1000: the CTA's start (ns) plus cycles since its first record */
    int64_t dur; /* dur x 1000: SM cycles */
} pt_event;

typedef struct pt_cta {
    int seen, timed; /* timed: its records carry the writer's per-CTA globaltimer args */
    size_t events, timed_events;
    uint32_t sm;
    int64_t first;                       /* smallest ts x 1000: its start after the earliest CTA's (ns) */
    int64_t span;                        /* cycles from its first record's start to its last one's end */
    int64_t init, post_final, final_len; /* globaltimer args (ns) */
    double ghz;                          /* the clock its cycles are converted with */
    int64_t end_ns;                      /* its last record's end, ns after the earliest start */
} pt_cta;

typedef struct pt_scope {
    char name[128];
    int phase;        /* gemmscope phase id, or -1: skipped */
    const char *role; /* sub-phase role given with own:ROLE, or NULL */
    size_t count;
} pt_scope;

typedef struct pt_trace {
    char kernel[256];
    pt_event *ev;
    size_t n, cap;
    pt_cta *cta;
    uint32_t n_cta; /* highest CTA id + 1 */
    uint32_t warps; /* highest warp id + 1 */
    pt_scope scope[PT_MAX_SCOPES];
    int n_scopes;
    int timed;      /* every CTA carries the globaltimer args */
    int64_t origin; /* absolute globaltimer of time 0 when timed, else 0 */
    size_t skipped; /* events of other kinds (metadata, call paths, async links) */
} pt_trace;

static int fail(char *err, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, n, fmt, ap);
    va_end(ap);
    return -1;
}

static void trace_free(pt_trace *t)
{
    free(t->ev);
    free(t->cta);
    memset(t, 0, sizeof *t);
}

/* ---- one event ---- */

/* Decimal digits to a value below 2^32; NULL when there are none or they overflow. */
static const char *parse_u32(const char *s, uint32_t *out)
{
    uint64_t v = 0;
    if (!isdigit((unsigned char)*s))
        return NULL;
    while (isdigit((unsigned char)*s)) {
        v = v * 10 + (uint64_t)(*s++ - '0');
        if (v > UINT32_MAX)
            return NULL;
    }
    *out = (uint32_t)v;
    return s;
}

/* "<kernel> Core<SM> CTA<block>", optionally followed by " [...]" (older writers add the
 * clock note there).  The last " Core" counts: a kernel's name may hold the word. */
static int parse_pid(const char *pid, char *kernel, size_t kn, uint32_t *sm, uint32_t *cta)
{
    const char *at = NULL;
    for (const char *p = strstr(pid, " Core"); p; p = strstr(p + 1, " Core"))
        at = p;
    if (!at || at == pid || (size_t)(at - pid) >= kn)
        return -1;
    const char *s = parse_u32(at + 5, sm);
    if (!s || strncmp(s, " CTA", 4) || !(s = parse_u32(s + 4, cta)) || (*s && strncmp(s, " [", 2)))
        return -1;
    snprintf(kernel, kn, "%.*s", (int)(at - pid), pid);
    return 0;
}

/* "warp <N>", optionally followed by " (line <L>)" (the writer's lane for overlapping scopes). */
static int parse_tid(const char *tid, uint32_t *warp)
{
    const char *s;
    if (strncmp(tid, "warp ", 5) || !(s = parse_u32(tid + 5, warp)))
        return -1;
    return *s && strncmp(s, " (line ", 7) ? -1 : 0;
}

/* A number field as x 1000 (trace units), refused when absent, negative or implausible. */
static int get_units(json_t *e, const char *key, size_t i, int64_t *out, char *err, size_t n)
{
    json_t *v = json_object_get(e, key);
    if (!json_is_number(v))
        return fail(err, n, "event %zu has no '%s' number", i, key);
    const double x = json_number_value(v) * 1000.0;
    if (!isfinite(x))
        return fail(err, n, "event %zu: '%s' is not finite", i, key);
    if (x < 0)
        return fail(err, n, "event %zu: '%s' is %g, negative%s", i, key, json_number_value(v),
                    strcmp(key, "dur") ? "" : ": the scope ends before it starts");
    if (x > PT_MAX_UNITS)
        return fail(err, n, "event %zu: '%s' is %g us: no launch runs that long", i, key, json_number_value(v));
    *out = llround(x);
    return 0;
}

static const char *get_str(json_t *e, const char *key)
{
    json_t *v = json_object_get(e, key);
    return json_is_string(v) ? json_string_value(v) : NULL;
}

static int scope_index(pt_trace *t, const char *name, char *err, size_t n)
{
    for (int i = 0; i < t->n_scopes; i++)
        if (!strcmp(t->scope[i].name, name))
            return i;
    if (t->n_scopes == PT_MAX_SCOPES)
        return fail(err, n, "more than %d scope names: not one kernel's trace", PT_MAX_SCOPES);
    if (strlen(name) >= sizeof t->scope[0].name || strchr(name, '\n'))
        return fail(err, n, "scope name '%.40s...' is longer than %zu characters or spans lines", name,
                    sizeof t->scope[0].name - 1);
    snprintf(t->scope[t->n_scopes].name, sizeof t->scope[0].name, "%s", name);
    return t->n_scopes++;
}

static pt_cta *cta_slot(pt_trace *t, uint32_t cta, char *err, size_t n)
{
    if (cta >= PT_MAX_CTAS)
        return fail(err, n, "CTA %u: beyond %u CTAs, not a launch this import takes", cta, PT_MAX_CTAS), NULL;
    if (cta >= t->n_cta) {
        pt_cta *c = realloc(t->cta, (size_t)(cta + 1) * sizeof *c);
        if (!c)
            return fail(err, n, "out of memory"), NULL;
        memset(c + t->n_cta, 0, (size_t)(cta + 1 - t->n_cta) * sizeof *c);
        t->cta = c;
        t->n_cta = cta + 1;
    }
    return &t->cta[cta];
}

/* The writer's per-CTA globaltimer args: Triton 3.6's writer gives the finalize step's length
 * alone ("Finalization Time (ns)", beside "Frequency (MHz)"); newer ones add the init and
 * post-final times, which place the CTA in ns: all three or the first alone.  One value per CTA. */
static int read_times(pt_cta *c, uint32_t id, json_t *args, size_t i, char *err, size_t n)
{
    static const char *const keys[3] = {"Init Time (ns)", "Post Final Time (ns)", "Finalization Time (ns)"};
    json_t *v[3];
    for (int k = 0; k < 3; k++)
        v[k] = json_is_object(args) ? json_object_get(args, keys[k]) : NULL;
    if (!v[0] && !v[1])
        return 0;
    int64_t x[3];
    for (int k = 0; k < 3; k++) {
        if (!json_is_integer(v[k]) || json_integer_value(v[k]) < 0)
            return fail(err, n, "event %zu: args '%s' is %s", i, keys[k],
                        v[k] ? "not a non-negative integer (ns)" : "missing beside the other times");
        x[k] = json_integer_value(v[k]);
    }
    if (c->timed_events && (x[0] != c->init || x[1] != c->post_final || x[2] != c->final_len))
        return fail(err, n, "CTA %u carries two sets of init/final times: the trace holds more than one launch", id);
    c->init = x[0], c->post_final = x[1], c->final_len = x[2];
    c->timed_events++;
    return 0;
}

static int push_event(pt_trace *t, const pt_event *e, char *err, size_t n)
{
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 1024;
        pt_event *ev = realloc(t->ev, cap * sizeof *ev);
        if (!ev)
            return fail(err, n, "out of memory");
        t->ev = ev, t->cap = cap;
    }
    t->ev[t->n++] = *e;
    return 0;
}

/* Events that are not a warp's scope instance: metadata, the newest writers' call-path bars
 * and async-event slices and flows (their own kinds, docs/proton.md). */
static int other_kind(json_t *e)
{
    const char *ph = get_str(e, "ph"), *cat = get_str(e, "cat");
    return (ph && strcmp(ph, "X")) ||
           (cat && (!strcmp(cat, "call_path") || !strcmp(cat, "flow") || !strcmp(cat, "async")));
}

static int read_event(pt_trace *t, json_t *e, size_t i, char *err, size_t n)
{
    if (!json_is_object(e))
        return fail(err, n, "event %zu is not an object", i);
    if (!get_str(e, "ph"))
        return fail(err, n, "event %zu has no 'ph' string", i);
    if (other_kind(e))
        return t->skipped++, 0;
    static const char *const keys[3] = {"name", "pid", "tid"};
    for (int k = 0; k < 3; k++)
        if (!get_str(e, keys[k]))
            return fail(err, n, "event %zu has no '%s' string", i, keys[k]);
    char kernel[sizeof t->kernel];
    pt_event ev = {0};
    uint32_t sm;
    if (parse_pid(get_str(e, "pid"), kernel, sizeof kernel, &sm, &ev.cta))
        return fail(err, n, "event %zu: pid '%.80s' is not '<kernel> Core<SM> CTA<block>'", i, get_str(e, "pid"));
    if (parse_tid(get_str(e, "tid"), &ev.warp))
        return fail(err, n, "event %zu: tid '%.80s' is not 'warp <N> (line <L>)'", i, get_str(e, "tid"));
    if (!t->kernel[0])
        snprintf(t->kernel, sizeof t->kernel, "%s", kernel);
    else if (strcmp(t->kernel, kernel))
        return fail(err, n, "the trace holds kernels '%s' and '%s': record one launch of one kernel per trace",
                    t->kernel, kernel);
    if (get_units(e, "ts", i, &ev.ts, err, n) || get_units(e, "dur", i, &ev.dur, err, n) ||
        (ev.scope = scope_index(t, get_str(e, "name"), err, n)) < 0)
        return -1;
    pt_cta *c = cta_slot(t, ev.cta, err, n);
    if (!c)
        return -1;
    if (c->seen && c->sm != sm)
        return fail(err, n, "CTA %u ran on SM %u and SM %u: the trace holds more than one launch", ev.cta, c->sm, sm);
    if (read_times(c, ev.cta, json_object_get(e, "args"), i, err, n))
        return -1;
    c->seen = 1, c->sm = sm, c->events++;
    if (ev.warp >= t->warps)
        t->warps = ev.warp + 1;
    t->scope[ev.scope].count++;
    return push_event(t, &ev, err, n);
}

/* jansson's reader over zlib's: the trace plain or gzip'ed (gzread passes plain files through) */
static size_t gz_chunk(void *buf, size_t len, void *data)
{
    const int got = gzread((gzFile)data, buf, len > (1u << 30) ? 1u << 30 : (unsigned)len);
    return got < 0 ? (size_t)-1 : (size_t)got;
}

static int read_json(pt_trace *t, const char *path, char *err, size_t n)
{
    json_error_t je;
    gzFile f = gzopen(path, "rb");
    if (!f)
        return fail(err, n, "%s: %s", path, strerror(errno));
    json_t *root = json_load_callback(gz_chunk, f, 0, &je);
    gzclose(f);
    if (!root)
        return fail(err, n, "%s:%d:%d: not JSON: %s", path, je.line, je.column, je.text);
    json_t *events = json_is_object(root) ? json_object_get(root, "traceEvents") : NULL;
    int rc = 0;
    if (!json_is_array(events))
        rc = fail(err, n, "%s: no 'traceEvents' array: not a Proton chrome trace", path);
    for (size_t i = 0; !rc && i < json_array_size(events); i++)
        if (read_event(t, json_array_get(events, i), i, err, n)) {
            char line[1024];
            snprintf(line, sizeof line, "%s: %s", path, err);
            snprintf(err, n, "%s", line);
            rc = -1;
        }
    json_decref(root);
    if (!rc && t->n == 0)
        rc = fail(err, n, "%s: no scope records (Proton instrumentation mode, data=\"trace\", writes them)", path);
    return rc;
}

/* ---- what the records say per CTA ---- */

static int compare_events(const void *a, const void *b)
{
    const pt_event *x = a, *y = b;
    if (x->cta != y->cta)
        return x->cta < y->cta ? -1 : 1;
    if (x->warp != y->warp)
        return x->warp < y->warp ? -1 : 1;
    if (x->ts + x->dur != y->ts + y->dur) /* a warp's records in the order of their ends */
        return x->ts + x->dur < y->ts + y->dur ? -1 : 1;
    return (x->ts > y->ts) - (x->ts < y->ts);
}

/* Each CTA's start and cycle span; the per-CTA times agree with the starts (the writer puts
 * a CTA's first record at its init time after the earliest CTA's). */
static int cta_spans(pt_trace *t, const char *path, char *err, size_t n)
{
    for (uint32_t c = 0; c < t->n_cta; c++)
        t->cta[c].first = INT64_MAX;
    for (size_t i = 0; i < t->n; i++) {
        pt_cta *c = &t->cta[t->ev[i].cta];
        c->first = t->ev[i].ts < c->first ? t->ev[i].ts : c->first;
    }
    size_t timed = 0, seen = 0;
    for (size_t i = 0; i < t->n; i++) {
        pt_cta *c = &t->cta[t->ev[i].cta];
        const int64_t end = t->ev[i].ts + t->ev[i].dur - c->first;
        c->span = end > c->span ? end : c->span;
    }
    int64_t offset = -1;
    for (uint32_t id = 0; id < t->n_cta; id++) {
        pt_cta *c = &t->cta[id];
        if (!c->seen)
            continue;
        seen++;
        if (c->timed_events && c->timed_events != c->events)
            return fail(err, n, "%s: CTA %u carries init/final times on some records only", path, id);
        if (!(c->timed = c->timed_events > 0))
            continue;
        timed++;
        if (c->final_len > c->post_final || c->post_final - c->final_len <= c->init)
            return fail(err, n, "%s: CTA %u finalizes at %lld ns, not after its init at %lld ns: it ends before it "
                                "starts",
                        path, id, (long long)(c->post_final - c->final_len), (long long)c->init);
        /* init - first is the earliest init: one value for every CTA */
        if (offset < 0)
            offset = c->init - c->first;
        if (c->init - c->first != offset || offset < 0)
            return fail(err, n, "%s: CTA %u starts %lld ns after the earliest CTA but its Init Time says %lld: "
                                "not the trace layout this import reads",
                        path, id, (long long)c->first, (long long)(c->init - offset));
    }
    if (timed && timed != seen)
        return fail(err, n, "%s: %zu of %zu CTAs carry init/final times: one trace, one writer", path, timed, seen);
    t->timed = timed > 0;
    t->origin = t->timed ? offset : 0;
    return 0;
}

static int compare_doubles(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, compare_doubles);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The clock each CTA's cycles are turned into ns with: the one given, or the CTA's own cycles
 * over its init-to-pre-finalize time. */
static int cta_clocks(pt_trace *t, double ghz, const char *path, char *err, size_t n)
{
    if (!(ghz > 0) && !t->timed)
        return fail(err, n, "%s: the trace gives each CTA's start but not its end (Proton without the per-CTA "
                            "final times), so its cycles cannot be turned into ns: pass --sm-clock-ghz F, the SM "
                            "clock during the run (scripts/proton/proton_gemm.py measures it)",
                    path);
    for (uint32_t id = 0; id < t->n_cta; id++) {
        pt_cta *c = &t->cta[id];
        if (!c->seen)
            continue;
        if (ghz > 0) {
            c->ghz = ghz;
        } else {
            const int64_t dt = c->post_final - c->final_len - c->init; /* > 0: cta_spans checked it */
            c->ghz = (double)c->span / (double)dt;
            if (c->ghz < PT_GHZ_MIN || c->ghz > PT_GHZ_MAX)
                return fail(err, n, "%s: CTA %u: %lld cycles in %lld ns is %.3f GHz, no SM's clock: pass "
                                    "--sm-clock-ghz",
                            path, id, (long long)c->span, (long long)dt, c->ghz);
        }
        c->end_ns = llround((double)c->first + (double)c->span / c->ghz);
    }
    return 0;
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t r = a % b;
        a = b, b = r;
    }
    return a;
}

/* The globaltimer step: every reading in the trace (CTA starts, finalize times) differs from
 * the earliest by a multiple of it, so it divides their GCD. */
static int timer_tick(const pt_trace *t, double given, double *tick, char *err, size_t n)
{
    if (given > 0)
        return *tick = given, 0;
    uint64_t g = 0;
    for (uint32_t id = 0; id < t->n_cta; id++) {
        const pt_cta *c = &t->cta[id];
        if (!c->seen)
            continue;
        g = gcd(g, (uint64_t)c->first);
        if (c->timed)
            g = gcd(gcd(g, (uint64_t)(c->post_final - t->origin)),
                    (uint64_t)(c->post_final - c->final_len - t->origin));
    }
    if (g == 0)
        return fail(err, n, "one globaltimer reading cannot show the timer's step: pass --tick-ns");
    if (g > 1000000)
        return fail(err, n, "the globaltimer readings are %llu ns apart at the finest, over 1 ms: pass --tick-ns",
                    (unsigned long long)g);
    *tick = (double)g;
    return 0;
}

/* ---- scopes to phases ---- */

/* Lower-case letters and digits only: "Main_Loop", "main-loop" and "MAINLOOP" read alike. */
static void squash(const char *s, char *out, size_t n)
{
    size_t k = 0;
    for (; *s && k + 1 < n; s++)
        if (isalnum((unsigned char)*s))
            out[k++] = (char)tolower((unsigned char)*s);
    out[k] = 0;
}

static int fixed_phase(const char *name)
{
    static const struct {
        const char *squashed;
        int phase;
    } names[] = {{"mainloop", GS_MAINLOOP}, {"acctoreg", GS_ACC_TO_REG}, {"drain", GS_ACC_TO_REG},
                 {"accdrain", GS_ACC_TO_REG}, {"epilogue", GS_EPILOGUE}, {"store", GS_STORE},
                 {"prologue", GS_PROLOGUE}};
    char s[128];
    squash(name, s, sizeof s);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(s, names[i].squashed))
            return names[i].phase;
    return -1;
}

enum { PT_OWN = -2, PT_SKIP = -3 };

/* PHASE of --map: a fixed phase's name, own, own:ROLE or skip. */
static int map_phase(const char *phase, const char **role)
{
    *role = NULL;
    if (!strcasecmp(phase, "skip"))
        return PT_SKIP;
    if (!strcasecmp(phase, "own"))
        return PT_OWN;
    if (!strncasecmp(phase, "own:", 4)) {
        static const char *const roles[] = {"wait", "prep", "mma"};
        for (int i = 0; i < 3; i++)
            if (!strcasecmp(phase + 4, roles[i]))
                return *role = roles[i], PT_OWN;
        return -1;
    }
    const int p = fixed_phase(phase);
    return p >= 0 && strlen(phase) < 32 ? p : -1;
}

static int apply_maps(pt_trace *t, int *want, const gs_proton_opts *o, char *err, size_t n)
{
    for (int s = 0; s < t->n_scopes; s++) {
        const int p = fixed_phase(t->scope[s].name);
        want[s] = p >= 0 ? p : PT_OWN;
    }
    for (int m = 0; m < o->n_maps; m++) {
        const char *eq = strrchr(o->maps[m], '=');
        if (!eq || eq == o->maps[m])
            return fail(err, n, "--map %s: expected SCOPE=PHASE", o->maps[m]);
        int s = 0;
        while (s < t->n_scopes && (strlen(t->scope[s].name) != (size_t)(eq - o->maps[m]) ||
                                   strncmp(t->scope[s].name, o->maps[m], (size_t)(eq - o->maps[m]))))
            s++;
        if (s == t->n_scopes)
            return fail(err, n, "--map %s: the trace has no scope '%.*s'", o->maps[m], (int)(eq - o->maps[m]),
                        o->maps[m]);
        const int p = map_phase(eq + 1, &t->scope[s].role);
        if (p == -1)
            return fail(err, n, "--map %s: '%s' is not a phase (MAINLOOP, ACC_TO_REG, EPILOGUE, STORE, PROLOGUE, "
                                "own, own:wait|prep|mma, skip)",
                        o->maps[m], eq + 1);
        want[s] = p;
    }
    return 0;
}

/* The run's name for a scope of its own: A-Z, 0-9 and '_', a letter first, at most 31. */
static void own_name(const char *scope, char *out, size_t n)
{
    size_t k = 0;
    if (!isalpha((unsigned char)scope[0]))
        k = (size_t)snprintf(out, n, "S_");
    for (; *scope && k + 1 < n && k < GS_PHASE_NAME_MAX - 1; scope++)
        out[k++] = isalnum((unsigned char)*scope) ? (char)toupper((unsigned char)*scope) : '_';
    out[k] = 0;
}

/* Every instance of scope s lies inside a MAINLOOP instance of its warp (events sorted by warp). */
static int inside_mainloop(const pt_trace *t, int s)
{
    size_t w0 = 0;
    for (size_t i = 0; i < t->n; i++) {
        if (i && (t->ev[i].cta != t->ev[i - 1].cta || t->ev[i].warp != t->ev[i - 1].warp))
            w0 = i;
        if (t->ev[i].scope != s)
            continue;
        int inside = 0;
        for (size_t j = w0; j < t->n && t->ev[j].cta == t->ev[i].cta && t->ev[j].warp == t->ev[i].warp; j++)
            inside |= t->scope[t->ev[j].scope].phase == GS_MAINLOOP && t->ev[j].ts <= t->ev[i].ts &&
                      t->ev[i].ts + t->ev[i].dur <= t->ev[j].ts + t->ev[j].dur;
        if (!inside)
            return 0;
    }
    return 1;
}

/* Gives each scope its phase id and names the run's own phases. */
static int map_scopes(pt_trace *t, gs_rundir *rd, const gs_proton_opts *o, char *err, size_t n)
{
    int want[PT_MAX_SCOPES], next_own = 0;
    char names[PT_MAX_SCOPES][GS_PHASE_NAME_MAX];
    if (apply_maps(t, want, o, err, n))
        return -1;
    for (int s = 0; s < t->n_scopes; s++) {
        t->scope[s].phase = want[s] >= 0 ? want[s] : -1;
        if (want[s] != PT_OWN)
            continue;
        own_name(t->scope[s].name, names[s], sizeof names[s]);
        for (int r = 0; r < s; r++)
            if (want[r] == PT_OWN && !strcmp(names[r], names[s]))
                return fail(err, n, "scopes '%s' and '%s' both make phase %s: --map one of them", t->scope[r].name,
                            t->scope[s].name, names[s]);
        if (next_own == GS_NUM_OWN_PHASES)
            return fail(err, n, "more than %d scopes need a phase of their own (scope '%s'): --map the others to a "
                                "phase, or skip them",
                        GS_NUM_OWN_PHASES, t->scope[s].name);
        t->scope[s].phase = GS_PHASE_OWN(next_own++);
    }
    for (int s = 0; s < t->n_scopes; s++) {
        if (want[s] != PT_OWN)
            continue;
        const int within = inside_mainloop(t, s) ? GS_MAINLOOP : -1;
        char why[256];
        if (gs_rundir_phase(rd, t->scope[s].phase, names[s], within, t->scope[s].role, why, sizeof why))
            return fail(err, n, "scope '%s' as phase %s: %s", t->scope[s].name, names[s], why);
    }
    return 0;
}

/* ---- the stamps ---- */

/* Records on a 1 GHz clock: clk = ns since the earliest CTA start (plus the absolute
 * globaltimer origin where the trace has it), warp pairs gt = clk at the CTA's start and end. */
static int write_stamps(const pt_trace *t, gs_rundir *rd, double tick, char *err, size_t n)
{
    const uint32_t wpc = t->warps;
    if (wpc == 0 || wpc > 32)
        return fail(err, n, "warp ids up to %u: a CTA holds at most 32 warps", wpc ? wpc - 1 : 0);
    const size_t n_warps = (size_t)t->n_cta * wpc;
    uint32_t *count = calloc(n_warps, sizeof *count), capacity = 1;
    int rc = -1;
    if (!count)
        return fail(err, n, "out of memory");
    for (size_t i = 0; i < t->n; i++)
        if (t->scope[t->ev[i].scope].phase >= 0) {
            uint32_t k = ++count[(size_t)t->ev[i].cta * wpc + t->ev[i].warp];
            capacity = k > capacity ? k : capacity;
        }
    if ((n_warps * sizeof(gs_warp_header) + n_warps * capacity * sizeof(gs_record)) > PT_MAX_STAMP_BYTES) {
        free(count);
        return fail(err, n, "%u CTAs x %u warps x %u records: over %llu GiB of stamps, not one launch's trace",
                    t->n_cta, wpc, capacity, PT_MAX_STAMP_BYTES >> 30);
    }
    gs_warp_header *warps = calloc(n_warps, sizeof *warps);
    gs_record *rec = calloc(n_warps * capacity, sizeof *rec);
    if (!warps || !rec) {
        fail(err, n, "out of memory for %zu warps of %u records", n_warps, capacity);
        goto out;
    }
    memset(count, 0, n_warps * sizeof *count);
    for (size_t i = 0; i < t->n; i++) {
        const pt_event *e = &t->ev[i];
        const pt_cta *c = &t->cta[e->cta];
        const size_t w = (size_t)e->cta * wpc + e->warp;
        const uint64_t start = (uint64_t)(t->origin + c->first), end = (uint64_t)(t->origin + c->end_ns);
        warps[w] = (gs_warp_header){.gt_start = start, .clk_start = start, .gt_end = end, .clk_end = end,
                                    .cta = e->cta, .warp = (uint16_t)e->warp, .sm = (uint16_t)c->sm,
                                    .events = count[w], .flags = GS_WARP_STARTED | GS_WARP_FINISHED};
        const int phase = t->scope[e->scope].phase;
        if (phase < 0)
            continue;
        const int64_t b = llround((double)c->first + (double)(e->ts - c->first) / c->ghz);
        const int64_t f = llround((double)c->first + (double)(e->ts + e->dur - c->first) / c->ghz);
        if (f - b > (int64_t)UINT32_MAX) {
            fail(err, n, "CTA %u warp %u: a scope of %lld ns, longer than a record holds", e->cta, e->warp,
                 (long long)(f - b));
            goto out;
        }
        rec[w * capacity + count[w]] = (gs_record){.clk_begin = (uint64_t)(t->origin + b),
                                                   .clk_dur = (uint32_t)(f - b), .phase = (uint8_t)phase,
                                                   .role = GS_ROLE_ALL, .sm = (uint16_t)c->sm};
        warps[w].events = ++count[w];
    }
    rc = gs_rundir_stamps(rd, tick, t->n_cta, wpc, capacity, warps, rec, err, n);
    if (!rc)
        gs_meta_set(&rd->meta, "stamps.events_per_warp_declared", "%u", capacity);
out:
    free(count);
    free(warps);
    free(rec);
    return rc;
}

/* ---- timings ---- */

/* "MS[,MS...]": repetitions in ms, each finite and positive. */
static int parse_ms(const char *list, const char *opt, double **out, int *reps, char *err, size_t n)
{
    *reps = 0;
    *out = NULL;
    for (const char *s = list;;) {
        char *end;
        const double v = strtod(s, &end);
        if (end == s || (*end && *end != ',') || !isfinite(v) || !(v > 0)) {
            free(*out);
            return fail(err, n, "%s %s: expected MS[,MS...], each a time in ms above 0", opt, list);
        }
        double *grown = realloc(*out, (size_t)(*reps + 1) * sizeof *grown);
        if (!grown)
            return free(*out), fail(err, n, "out of memory");
        (*out = grown)[(*reps)++] = v;
        if (!*end)
            return 0;
        s = end + 1;
    }
}

static int timing_list(gs_rundir *rd, const char *build, const char *list, const char *opt, char *err, size_t n)
{
    double *ms;
    int reps;
    if (parse_ms(list, opt, &ms, &reps, err, n))
        return -1;
    const int rc = gs_rundir_timing(rd, build, ms, reps, err, n);
    free(ms);
    return rc;
}

/* The instrumented launch's own length, from the trace: earliest CTA init to latest
 * post-finalize time (globaltimer); only traces with the per-CTA times have it. */
static double trace_span_ms(const pt_trace *t)
{
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (uint32_t id = 0; id < t->n_cta; id++)
        if (t->cta[id].seen && t->cta[id].timed) {
            lo = t->cta[id].init < lo ? t->cta[id].init : lo;
            hi = t->cta[id].post_final > hi ? t->cta[id].post_final : hi;
        }
    return hi > lo ? (double)(hi - lo) / 1e6 : NAN;
}

static int add_timings(gs_rundir *rd, const pt_trace *t, const gs_proton_opts *o, char *err, size_t n)
{
    if (o->timings && (o->time_ms || o->twin_ms))
        return fail(err, n, "--timings and --time-ms / --twin-ms both give times: pass one of them");
    if (o->timings) {
        gs_timings tim;
        if (gs_timings_read(&tim, o->timings, err, n))
            return -1;
        const int p = gs_timings_find(&tim, "production"), w = gs_timings_find(&tim, "twin");
        int rc = p < 0 || w < 0 ? fail(err, n, "%s: needs 'production' (plain) and 'twin' (Proton) rows", o->timings)
                                : 0;
        if (!rc)
            rc = gs_rundir_timing(rd, "production", tim.ms[p], tim.count[p], err, n) ||
                 gs_rundir_timing(rd, "twin", tim.ms[w], tim.count[w], err, n);
        gs_timings_free(&tim);
        gs_meta_set(&rd->meta, "timing.production_source", "%s: the plain kernel's rows", o->timings);
        gs_meta_set(&rd->meta, "timing.twin_source", "%s: the Proton-instrumented kernel's rows", o->timings);
        gs_meta_set(&rd->meta, "timing.production_method", "timings-file");
        gs_meta_set(&rd->meta, "timing.twin_method", "timings-file");
        return rc ? -1 : 0;
    }
    if (!o->time_ms)
        return fail(err, n, "the trace holds no production time (Proton times only its instrumented launch): "
                            "pass --time-ms MS or --timings FILE (scripts/proton/proton_gemm.py writes one)");
    if (timing_list(rd, "production", o->time_ms, "--time-ms", err, n))
        return -1;
    gs_meta_set(&rd->meta, "timing.production_source", "--time-ms: a separate measurement");
    gs_meta_set(&rd->meta, "timing.production_method", "given");
    if (o->twin_ms) {
        gs_meta_set(&rd->meta, "timing.twin_source", "--twin-ms: a separate measurement");
        gs_meta_set(&rd->meta, "timing.twin_method", "given");
        return timing_list(rd, "twin", o->twin_ms, "--twin-ms", err, n);
    }
    const double span = trace_span_ms(t);
    if (!isfinite(span))
        return fail(err, n, "the trace has no per-CTA final times, so no length of the instrumented launch: pass "
                            "--twin-ms MS or --timings FILE");
    gs_meta_set(&rd->meta, "timing.twin_source",
                "the trace: earliest CTA init to latest CTA post-finalize (globaltimer), not CUDA events");
    gs_meta_set(&rd->meta, "timing.twin_method", "in-kernel-span");
    return gs_rundir_timing(rd, "twin", &span, 1, err, n);
}

/* ---- meta ---- */

static void clock_meta(gs_meta *m, const pt_trace *t, double given)
{
    double *v = malloc(((size_t)t->n_cta + 1) * sizeof *v), lo = INFINITY, hi = 0;
    size_t k = 0;
    for (uint32_t id = 0; v && id < t->n_cta; id++)
        if (t->cta[id].seen) {
            v[k++] = t->cta[id].ghz;
            lo = fmin(lo, t->cta[id].ghz), hi = fmax(hi, t->cta[id].ghz);
        }
    if (given > 0)
        gs_meta_set(m, "clock.converted", "Proton cycles to ns by --sm-clock-ghz %.6g, assumed on every SM for the whole launch", given);
    else
        gs_meta_set(m, "clock.converted", "Proton cycles to ns per CTA: its cycles from first record start to last record end "
                                         "over its globaltimer init to pre-finalize time (trace args)");
    if (k) {
        gs_meta_set(m, "clock.sm_ghz", "%.4f", median(v, k));
        gs_meta_set(m, "clock.sm_ghz_min", "%.4f", lo);
        gs_meta_set(m, "clock.sm_ghz_max", "%.4f", hi);
    }
    free(v);
}

static void scopes_meta(gs_meta *m, const pt_trace *t, const gs_rundir *rd)
{
    char line[4096] = "";
    size_t used = 0;
    for (int s = 0; s < t->n_scopes && used < sizeof line; s++) {
        const int p = t->scope[s].phase;
        used += (size_t)snprintf(line + used, sizeof line - used, "%s%s=%s (%zu)", s ? "; " : "", t->scope[s].name,
                                 p < 0 ? "skip" : gs_phase_name(&rd->phases, p), t->scope[s].count);
    }
    gs_meta_set(m, "import.scopes", "%s", line);
}

static void set_meta(gs_rundir *rd, const pt_trace *t, const gs_proton_opts *o)
{
    gs_meta *m = &rd->meta;
    const char *base = strrchr(o->trace, '/');
    size_t seen = 0;
    for (uint32_t id = 0; id < t->n_cta; id++)
        seen += t->cta[id].seen;
    gs_meta_set(m, "subject", "proton");
    gs_meta_set(m, "shape", "%s", t->kernel);
    gs_meta_set(m, "variant", "%s", o->variant ? o->variant : "proton");
    gs_meta_set(m, "sm_count", "%d", o->sms);
    if (o->gpu)
        gs_meta_set(m, "gpu", "%s", o->gpu);
    if (o->ctas_per_sm > 0)
        gs_meta_set(m, "ctas_per_sm", "%d", o->ctas_per_sm);
    if (o->flops > 0)
        gs_meta_set(m, "flops", "%.17g", o->flops);
    if (o->command)
        gs_meta_set(m, "command", "%s", o->command);
    struct stat st;
    char date[32];
    if (stat(o->trace, &st) == 0 && strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&st.st_mtime)))
        gs_meta_set(m, "date", "%s (the trace file's modification time)", date);
    gs_meta_set(m, "import.trace", "%s", base ? base + 1 : o->trace);
    gs_meta_set(m, "import.layout", "%s", t->timed ? "per-CTA init and finalize times in args"
                                                   : "CTA starts only (no per-CTA final times)");
    gs_meta_set(m, "import.ctas_seen", "%zu", seen);
    gs_meta_set(m, "import.warps_seen", "%u", t->warps);
    gs_meta_set(m, "import.skipped_events", "%zu", t->skipped);
    gs_meta_set(m, "timer_tick_source", "%s", o->tick_ns > 0 ? "--tick-ns"
                                                            : "inferred: the GCD of the trace's globaltimer "
                                                              "differences (the timer's step divides it)");
    gs_meta_set(m, "stamps.dropped", "unknown: Proton drops a full buffer's earliest records and says so only on "
                                     "stderr when it parses the buffer; the trace keeps no count");
    gs_meta_set(m, "missing", "units.tsv (no tile tags), per-record globaltimer, clock-sampler pairs, dropped-record "
                              "counts, PC samples, ceilings, cuBLAS anchor");
    clock_meta(m, t, o->sm_clock_ghz);
    scopes_meta(m, t, rd);
}

/* ---- the command ---- */

static int check_opts(const gs_proton_opts *o, char *err, size_t n)
{
    if (!o->trace || !o->out)
        return fail(err, n, "usage: gemmscope import proton TRACE -o RUN");
    if (o->sms <= 0)
        return fail(err, n, "the trace does not say how many SMs the GPU has: pass --sms N");
    if (o->sm_clock_ghz < 0 || o->sm_clock_ghz > 10 || !isfinite(o->sm_clock_ghz))
        return fail(err, n, "--sm-clock-ghz %g: not an SM clock", o->sm_clock_ghz);
    if (o->tick_ns < 0 || o->tick_ns > 1e6 || !isfinite(o->tick_ns))
        return fail(err, n, "--tick-ns %g: not a globaltimer step (0, 1 ms]", o->tick_ns);
    return 0;
}

static int check_sms(const pt_trace *t, int sms, char *err, size_t n)
{
    for (uint32_t id = 0; id < t->n_cta; id++)
        if (t->cta[id].seen && t->cta[id].sm >= (uint32_t)sms)
            return fail(err, n, "CTA %u ran on SM %u, and --sms says the GPU has %d", id, t->cta[id].sm, sms);
    if (strchr(t->kernel, '\n'))
        return fail(err, n, "the kernel's name spans lines");
    return 0;
}

int gs_proton_import(const gs_proton_opts *o, char *err, size_t errlen)
{
    pt_trace *t = calloc(1, sizeof *t);
    gs_rundir rd;
    double tick = 0;
    int rc = -1, begun = 0;
    if (!t)
        return fail(err, errlen, "out of memory");
    if (check_opts(o, err, errlen) || read_json(t, o->trace, err, errlen) ||
        cta_spans(t, o->trace, err, errlen) || check_sms(t, o->sms, err, errlen) ||
        cta_clocks(t, o->sm_clock_ghz, o->trace, err, errlen) || timer_tick(t, o->tick_ns, &tick, err, errlen))
        goto out;
    qsort(t->ev, t->n, sizeof *t->ev, compare_events);
    if (gs_rundir_begin(&rd, o->out, err, errlen))
        goto out;
    begun = 1;
    if (map_scopes(t, &rd, o, err, errlen) || add_timings(&rd, t, o, err, errlen) ||
        write_stamps(t, &rd, tick, err, errlen))
        goto out;
    set_meta(&rd, t, o);
    if (gs_rundir_commit(&rd, err, errlen))
        goto out;
    begun = 0;
    rc = 0;
out:
    if (begun)
        gs_rundir_abort(&rd);
    trace_free(t);
    free(t);
    return rc;
}
