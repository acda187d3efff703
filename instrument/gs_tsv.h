/* Reading the run directory's versioned tables (units.tsv, probes.tsv; docs/run-directory.md):
 * a first line "# gemmscope-<kind> <version>", an optional column line, then rows of
 * tab-separated fields.  One reader for all of them, so that each refuses bad input the same
 * way: a wrong kind or version, a line too long, a field that is not what it must be. */
#ifndef GS_TSV_H
#define GS_TSV_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct gs_tsv {
    FILE *f;
    const char *path;
    int lineno;
    char line[512];
} gs_tsv;

/* Opens path and checks its first line against kind and version.  1 when open; 0 when the
 * file does not exist (nothing opened: the table is absent); -1 with the reason in err
 * ("not a gemmscope <kind> file", "<kind> version V, this gemmscope reads version W"). */
int gs_tsv_open(gs_tsv *t, const char *path, const char *kind, int version, char *err, size_t errlen);
/* The next row, split on tabs into fld[0..*n) (at most maxf; a row with more fields gives
 * *n = maxf + 1, fields past it dropped).  The column line (line 2, first field `columns`) is
 * skipped.  1 a row, 0 the end, -1 with "path:line: line too long" in err. */
int gs_tsv_row(gs_tsv *t, const char *columns, char **fld, int maxf, int *n, char *err, size_t errlen);
void gs_tsv_close(gs_tsv *t);

/* A whole decimal number of at most max, the whole field (no sign, no space): 0, else -1. */
int gs_tsv_uint(const char *s, uint64_t max, uint64_t *out);

#endif
