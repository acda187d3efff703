#define _POSIX_C_SOURCE 200809L
#include "gs_sources.h"
#include "gs_file.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

int gs_source_name_ok(const char *name)
{
    size_t n = name ? strlen(name) : 0;
    if (n == 0 || n >= 400 || name[0] == '/')
        return 0;
    for (const char *c = name; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f || *c == '\\')
            return 0;
    for (const char *p = name; p; p = strchr(p, '/') ? strchr(p, '/') + 1 : NULL) {
        size_t k = strcspn(p, "/");
        if (k == 0 || (k == 2 && p[0] == '.' && p[1] == '.')) /* "a//b", "../x", "a/.." */
            return 0;
    }
    return 1;
}

int gs_source_path(const char *dir, const char *name, char *out, size_t n)
{
    if (!gs_source_name_ok(name))
        return -1;
    int k = snprintf(out, n, "%s/sources/%s.gz", dir, name);
    return k < 0 || (size_t)k >= n ? -1 : 0;
}

/* One file's text gzipped into the run (gs_write_atomic: a temporary name, then renamed). */
static int write_one(const gs_source_text *t, const char *dest, char *err, size_t errlen)
{
    char dirs[4352];
    snprintf(dirs, sizeof dirs, "%s", dest);
    char *slash = strrchr(dirs, '/');
    if (slash)
        *slash = 0;
    if (gs_make_dirs(dirs) != 0) {
        snprintf(err, errlen, "cannot make %s: %s", dirs, strerror(errno));
        return -1;
    }
    /* gzip (windowBits 15 + 16) in one pass into a buffer deflateBound says is enough */
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    if (deflateInit2(&zs, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
        snprintf(err, errlen, "cannot compress %s", dest);
        return -1;
    }
    const uLong cap = deflateBound(&zs, (uLong)t->len) + 32; /* + the gzip header and trailer */
    unsigned char *gz = malloc(cap);
    int rc = -1;
    zs.next_in = (unsigned char *)(uintptr_t)t->text;
    zs.avail_in = (uInt)t->len;
    zs.next_out = gz;
    zs.avail_out = (uInt)cap;
    if (!gz || deflate(&zs, Z_FINISH) != Z_STREAM_END)
        snprintf(err, errlen, "cannot compress %s", dest);
    else
        rc = gs_write_atomic(dest, gz, (size_t)zs.total_out, err, errlen);
    deflateEnd(&zs);
    free(gz);
    return rc;
}

int gs_sources_table_names(const char *pcsamp_path, char (*names)[512])
{
    FILE *f = fopen(pcsamp_path, "r");
    if (!f)
        return -1;
    int nn = 0;
    char line[4096], name[512];
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || !strncmp(line, "file\t", 5) || sscanf(line, "%511[^\t\n]", name) != 1)
            continue;
        int seen = 0;
        for (int i = 0; i < nn && !seen; i++)
            seen = !strcmp(names[i], name);
        if (!seen && nn < GS_SOURCES_MAX)
            snprintf(names[nn++], 512, "%s", name);
    }
    fclose(f);
    return nn;
}

int gs_sources_write(const char *run_dir, const char *pcsamp_path, const gs_source_text *texts, int ntexts,
                     int *copied, int *missing, char *err, size_t errlen)
{
    *copied = *missing = 0;
    static char names[GS_SOURCES_MAX][512];
    int nn = gs_sources_table_names(pcsamp_path, names);
    if (nn < 0) {
        snprintf(err, errlen, "cannot open %s: %s", pcsamp_path, strerror(errno));
        return -1;
    }
    /* a file that fails is reported (the first), the others are still written */
    int rc = 0;
    char why[4608];
    for (int i = 0; i < nn; i++) {
        char dest[4352];
        struct stat st;
        if (!gs_source_name_ok(names[i])) /* absolute (system headers) or not a name we copy */
            continue;
        const gs_source_text *t = NULL;
        for (int j = 0; j < ntexts && !t; j++)
            t = strcmp(texts[j].name, names[i]) == 0 ? &texts[j] : NULL;
        if (!t) {
            (*missing)++;
            continue;
        }
        int r;
        if (gs_source_path(run_dir, names[i], dest, sizeof dest) != 0) {
            snprintf(why, sizeof why, "%.2048s/sources/%.400s.gz: path too long", run_dir, names[i]);
            r = -1;
        } else if (stat(dest, &st) == 0) { /* written from the other build's table */
            r = 0;
        } else {
            r = write_one(t, dest, why, sizeof why);
        }
        if (r < 0 && rc == 0)
            snprintf(err, errlen, "%s", why), rc = -1;
        *copied += r == 0;
    }
    return rc;
}
