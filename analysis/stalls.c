#define _POSIX_C_SOURCE 200809L
#include "stalls.h"
#include "../instrument/gs_sources.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

/* ---- source model: per file, the phase of every line from markers and functions ---- */
#define MAX_FILES GS_SOURCES_MAX /* as many as the recorder copies */
#define MAX_FUNCS 256

typedef struct func {
    char name[64];
    int file, first, last; /* body lines */
    int phase;             /* -1 unknown, GS_STALL_NONE mixed */
} func;

typedef struct srcfile {
    char path[512];
    int nlines;
    char **line;
    signed char *marker_phase; /* innermost GS_BEGIN/GS_END phase per line, -1 none */
} srcfile;

static srcfile files[MAX_FILES];
static int nfiles;
static func funcs[MAX_FUNCS];
static int nfuncs, model_built;

void gs_stalls_reset_sources(void)
{
    for (int i = 0; i < nfiles; i++) {
        for (int l = 0; l < files[i].nlines; l++)
            free(files[i].line[l]);
        free(files[i].line);
        free(files[i].marker_phase);
    }
    nfiles = nfuncs = model_built = 0;
}

/* The run's copy of a source file its samples name (instrument/gs_sources.h): never the working
 * folder's, which may hold another version of it.  Names with no copy (absolute: system headers)
 * are not read: their lines are attributed through call sites only if at all.  (gzopen also reads
 * a copy that is not compressed.) */
static gzFile open_source(const char *dir, const char *file)
{
    char path[4352];
    return gs_source_path(dir, file, path, sizeof path) == 0 ? gzopen(path, "rb") : NULL;
}

/* The next line of z, newline included, however long (lines past 64 KiB are cut there but still
 * count as one; a NUL byte inside one reads as a space, so it never hides the newline); NULL at
 * the end, or with *bad set on a read error or no memory.  *buf grows as needed. */
static char *next_line(gzFile z, char **buf, size_t *cap, int *bad)
{
    size_t n = 0;
    if (!*buf && !(*buf = malloc(*cap = 2048))) {
        *bad = 1;
        return NULL;
    }
    for (;;) {
        const z_off_t at = gztell(z);
        if (!gzgets(z, *buf + n, (int)(*cap - n))) {
            int e = Z_OK;
            gzerror(z, &e);
            if (e != Z_OK) /* a clean end reads Z_OK; a cut stream Z_BUF_ERROR, a bad check Z_DATA_ERROR */
                *bad = 1;
            return n && !*bad ? *buf : NULL;
        }
        const z_off_t got = gztell(z) - at; /* the bytes gzgets took, NULs among them */
        if (at < 0 || got <= 0 || (size_t)got >= *cap - n) {
            *bad = 1;
            return NULL;
        }
        for (size_t i = n; i < n + (size_t)got; i++)
            if ((*buf)[i] == 0)
                (*buf)[i] = ' ';
        n += (size_t)got;
        if ((*buf)[n - 1] == '\n' || gzeof(z)) /* a line, or the last one with no newline */
            return *buf;
        if (*cap >= 65536) { /* cut: skip to the line's end */
            int c;
            while ((c = gzgetc(z)) != -1 && c != '\n')
                ;
            return *buf;
        }
        char *b = realloc(*buf, *cap * 2);
        if (!b) {
            *bad = 1;
            return NULL;
        }
        *buf = b, *cap *= 2;
    }
}

/* The phase a marker's argument names: the run's phase of that name, or of the longest
 * name the identifier ends with after a '_' (GS_MAINLOOP, NVFP4_LOAD_WAIT); -1 none. */
static int marker_phase(const gs_phase_table *names, const char *ident)
{
    int best = -1;
    size_t best_len = 0, n = strlen(ident);
    for (int p = 0; p < GS_NUM_PHASES; p++) {
        const char *name = gs_phase_name(names, p);
        size_t k = strlen(name);
        if (!names->p[p].named || k > n || strcmp(ident + n - k, name) != 0)
            continue;
        if (k == n)
            return p;
        if (ident[n - k - 1] == '_' && k > best_len)
            best = p, best_len = k;
    }
    return best;
}

/* The model's index of file, or -1 when its copy was not read. */
static int file_index(const char *file)
{
    for (int i = 0; i < nfiles; i++)
        if (!strcmp(files[i].path, file))
            return i;
    return -1;
}

static int load_file(const char *dir, const char *file, const gs_phase_table *names)
{
    const int known = file_index(file);
    if (known >= 0)
        return known;
    if (nfiles == MAX_FILES)
        return -1;
    gzFile z = open_source(dir, file);
    if (!z)
        return -1;
    srcfile *s = &files[nfiles];
    memset(s, 0, sizeof *s);
    snprintf(s->path, sizeof s->path, "%.500s", file);
    char *buf = NULL, *l;
    size_t bufcap = 0;
    int cap = 0, bad = 0;
    while (!bad && (l = next_line(z, &buf, &bufcap, &bad)) != NULL) {
        if (s->nlines == cap) {
            char **grown = realloc(s->line, (size_t)(2 * cap + 256 + 1) * sizeof(char *));
            if (!grown) {
                bad = 1;
                break;
            }
            s->line = grown, cap = 2 * cap + 256;
        }
        if (!(s->line[s->nlines] = strdup(l)))
            bad = 1;
        else
            s->nlines++;
    }
    free(buf);
    bad |= gzclose(z) != Z_OK;
    if (!bad)
        s->marker_phase = malloc((size_t)s->nlines + 1);
    if (bad || !s->marker_phase) { /* a damaged copy gives no line a phase, rather than wrong ones */
        for (int i = 0; i < s->nlines; i++)
            free(s->line[i]);
        free(s->line);
        memset(s, 0, sizeof *s);
        return -1;
    }
    int stack[32], depth = 0;
    for (int l = 0; l < s->nlines; l++) {
        const char *b = strstr(s->line[l], "GS_BEGIN("), *e = strstr(s->line[l], "GS_END(");
        s->marker_phase[l] = (signed char)(depth ? stack[depth - 1] : -1);
        const char *m = b ? b : e;
        if (m) {
            const char *comma = strchr(m, ',');
            char name[64] = "";
            if (comma && sscanf(comma + 1, " %63[A-Za-z0-9_]", name) == 1) {
                int p = marker_phase(names, name);
                if (p >= 0 && b && depth < 32)
                    stack[depth++] = p;
                else if (p >= 0 && e && depth && stack[depth - 1] == p)
                    depth--;
            }
        }
    }
    return nfiles++;
}

/* Device function definitions: "__device__ ... name(" then the body's braces. */
static void find_functions(int fi)
{
    srcfile *s = &files[fi];
    for (int l = 0; l < s->nlines && nfuncs < MAX_FUNCS; l++) {
        const char *d = strstr(s->line[l], "__device__");
        if (!d || strstr(s->line[l], "__global__"))
            continue;
        const char *paren = strchr(d, '(');
        if (!paren)
            continue;
        const char *q = paren;
        while (q > d && isspace((unsigned char)q[-1]))
            q--;
        const char *st = q;
        while (st > d && (isalnum((unsigned char)st[-1]) || st[-1] == '_'))
            st--;
        if (st == q || q - st >= 63)
            continue;
        int depth = 0, started = 0, last = -1;
        for (int k = l; k < s->nlines && last < 0; k++)
            for (const char *c = k == l ? paren : s->line[k]; *c; c++) {
                if (*c == '{')
                    depth++, started = 1;
                else if (*c == '}' && --depth == 0 && started) {
                    last = k;
                    break;
                } else if (*c == ';' && !started && depth == 0) {
                    last = -2; /* a declaration */
                    break;
                }
            }
        if (last < 0)
            continue;
        func *fn = &funcs[nfuncs++];
        snprintf(fn->name, sizeof fn->name, "%.*s", (int)(q - st), st);
        fn->file = fi;
        fn->first = l;
        fn->last = last;
        fn->phase = -1;
        l = last;
    }
}

static int func_at(int fi, int l)
{
    for (int i = 0; i < nfuncs; i++)
        if (funcs[i].file == fi && l >= funcs[i].first && l <= funcs[i].last)
            return i;
    return -1;
}

/* Phase of a line: its markers, else its function's phase. */
static int line_phase(int fi, int l)
{
    if (files[fi].marker_phase[l] >= 0)
        return files[fi].marker_phase[l];
    int f = func_at(fi, l);
    return f >= 0 && funcs[f].phase >= 0 && funcs[f].phase != GS_STALL_NONE ? funcs[f].phase : -1;
}

static int is_call(const char *line, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = strstr(line, name); p; p = strstr(p + 1, name)) {
        int before = p == line || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
        const char *a = p + n;
        while (*a == ' ')
            a++;
        if (before && (*a == '(' || *a == '<'))
            return 1;
    }
    return 0;
}

/* Functions take the phase shared by all their call sites, until nothing changes. */
static void resolve_functions(void)
{
    for (int round = 0; round < 8; round++) {
        int changed = 0;
        for (int i = 0; i < nfuncs; i++) {
            if (funcs[i].phase >= 0)
                continue;
            int phase = -1, calls = 0, unknown = 0;
            for (int fi = 0; fi < nfiles; fi++)
                for (int l = 0; l < files[fi].nlines; l++) {
                    if (fi == funcs[i].file && l == funcs[i].first)
                        continue;
                    if (!is_call(files[fi].line[l], funcs[i].name))
                        continue;
                    calls++;
                    int p = line_phase(fi, l);
                    if (p < 0)
                        unknown++;
                    else if (phase < 0)
                        phase = p;
                    else if (phase != p)
                        phase = GS_STALL_NONE;
                }
            if (calls && !unknown && phase >= 0) {
                funcs[i].phase = phase;
                changed = 1;
            }
        }
        if (!changed)
            break;
    }
}

static void build_model(const char *dir, char (*paths)[512], int n, const gs_phase_table *names)
{
    for (int i = 0; i < n; i++)
        load_file(dir, paths[i], names);
    /* headers the sampled files include from the same folders are scanned too */
    for (int i = 0; i < nfiles; i++)
        find_functions(i);
    resolve_functions();
    model_built = 1;
}

int gs_stalls_phase_of(const char *file, unsigned line)
{
    const int i = file_index(file);
    if (i < 0 || line < 1 || (int)line > files[i].nlines)
        return GS_STALL_NONE;
    const int p = line_phase(i, (int)line - 1);
    return p >= 0 ? p : GS_STALL_NONE;
}

/* ---- pcsamp.tsv ---- */
static const char *short_reason(const char *r)
{
    const char *pre = "smsp__pcsamp_warps_issue_stalled_";
    return !strncmp(r, pre, strlen(pre)) ? r + strlen(pre) : r;
}

int gs_stalls_reason_index(const gs_stalls *st, const char *name)
{
    for (int k = 0; k < st->nreasons; k++)
        if (!strcmp(st->reason[k], name))
            return k;
    return -1;
}

/* The twin's stamp code: lines of instrument/gs_stamp.cuh, wherever the run was recorded. */
static int is_stamp_code(const char *file)
{
    const char *name = "gs_stamp.cuh", *base = strrchr(file, '/');
    return !strcmp(base ? base + 1 : file, name);
}

int gs_stalls_load(const char *dir, const char *file_name, const gs_phase_table *names, gs_stalls *out, char *err,
                   size_t errlen)
{
    char path[2200], line[2048];
    memset(out, 0, sizeof *out);
    snprintf(path, sizeof path, "%s/%s", dir, file_name);
    FILE *f = fopen(path, "r");
    if (!f)
        return errno == ENOENT ? 0 : (snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno)), -1);
    if (!fgets(line, sizeof line, f) || strncmp(line, "# gemmscope-pcsamp 1", 20) != 0) {
        fclose(f);
        snprintf(err, errlen, "%s: not a gemmscope-pcsamp 1 file", path);
        return -1;
    }
    /* the source files named, each read from the run's copy */
    static char paths[MAX_FILES][512];
    const int np = gs_sources_table_names(path, paths);
    gs_stalls_reset_sources();
    char sources[2200];
    struct stat sst;
    snprintf(sources, sizeof sources, "%s/sources", dir);
    out->no_sources = stat(sources, &sst) != 0 || !S_ISDIR(sst.st_mode);
    build_model(dir, paths, np < 0 ? 0 : np, names);
    int lineno = 1;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        char file[512], reason[160];
        unsigned ln;
        double samples;
        if (line[0] == '#' || !strncmp(line, "file\t", 5))
            continue;
        if (sscanf(line, "%511[^\t]\t%u\t%159[^\t]\t%lf", file, &ln, reason, &samples) != 4) {
            fclose(f);
            snprintf(err, errlen, "%s:%d: expected file, line, reason, samples", path, lineno);
            return -1;
        }
        if (strstr(reason, "_not_issued"))
            continue; /* sub-counts of the issued reasons: not added to totals */
        const char *r = short_reason(reason);
        int k = 0;
        while (k < out->nreasons && strcmp(out->reason[k], r))
            k++;
        if (k == out->nreasons) {
            if (k == GS_MAX_REASONS)
                continue;
            snprintf(out->reason[out->nreasons++], sizeof out->reason[0], "%.90s", r);
        }
        int p = gs_stalls_phase_of(file, ln);
        if (!out->no_sources && gs_source_name_ok(file) && file_index(file) < 0)
            out->no_copy += samples; /* a file the run should hold a copy of, and does not */
        out->by[p][k] += samples;
        out->phase_total[p] += samples;
        out->total += samples;
        if (is_stamp_code(file)) {
            out->stamp_code += samples;
            out->stamp_by[k] += samples;
        }
    }
    fclose(f);
    out->present = out->total > 0;
    return 0;
}
