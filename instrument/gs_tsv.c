/* The run directory's versioned tables, read one way (gs_tsv.h). */
#define _POSIX_C_SOURCE 200809L
#include "gs_tsv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int gs_tsv_open(gs_tsv *t, const char *path, const char *kind, int version, char *err, size_t errlen)
{
    char magic[64];
    int v = 0;
    memset(t, 0, sizeof *t);
    t->path = path;
    t->f = fopen(path, "r");
    if (!t->f) {
        if (errno == ENOENT)
            return 0;
        snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    t->lineno = 1;
    snprintf(magic, sizeof magic, "# gemmscope-%s %%d", kind);
    if (!fgets(t->line, sizeof t->line, t->f) || sscanf(t->line, magic, &v) != 1) {
        snprintf(err, errlen, "%s: not a gemmscope %s file", path, kind);
        gs_tsv_close(t);
        return -1;
    }
    if (v != version) {
        snprintf(err, errlen, "%s: %s version %d, this gemmscope reads version %d", path, kind, v, version);
        gs_tsv_close(t);
        return -1;
    }
    return 1;
}

int gs_tsv_row(gs_tsv *t, const char *columns, char **fld, int maxf, int *n, char *err, size_t errlen)
{
    for (;;) {
        if (!fgets(t->line, sizeof t->line, t->f))
            return 0;
        t->lineno++;
        if (!strchr(t->line, '\n') && !feof(t->f)) {
            snprintf(err, errlen, "%s:%d: line too long", t->path, t->lineno);
            return -1;
        }
        t->line[strcspn(t->line, "\r\n")] = 0;
        const size_t cl = strlen(columns);
        if (t->lineno == 2 && !strncmp(t->line, columns, cl) && t->line[cl] == '\t')
            continue;
        char *save = NULL;
        *n = 0;
        for (char *s = strtok_r(t->line, "\t", &save); s && *n <= maxf; s = strtok_r(NULL, "\t", &save)) {
            if (*n < maxf)
                fld[*n] = s;
            (*n)++;
        }
        return 1;
    }
}

void gs_tsv_close(gs_tsv *t)
{
    if (t->f)
        fclose(t->f);
    t->f = NULL;
}

int gs_tsv_uint(const char *s, uint64_t max, uint64_t *out)
{
    if (*s < '0' || *s > '9')
        return -1;
    char *end;
    errno = 0;
    const unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end || v > max)
        return -1;
    *out = v;
    return 0;
}
