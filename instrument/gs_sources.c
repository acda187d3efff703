#define _POSIX_C_SOURCE 200809L
#include "gs_sources.h"
#include "gs_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#define MAX_SOURCE_BYTES (64u << 20) /* a source file of 64 MiB or more is not a kernel's */

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

/* The whole file at path into a new buffer (*len bytes); NULL when it cannot be read. */
static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    int bad = !buf;
    while (!bad) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
        if (n == cap) {
            char *b = cap < MAX_SOURCE_BYTES ? realloc(buf, cap * 2) : NULL;
            bad = !b;
            if (b)
                buf = b, cap *= 2;
        }
    }
    bad |= ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

/* Writes len bytes and closes z (always): 1 when both succeeded. */
static int write_and_close(gzFile z, const char *data, size_t len)
{
    int wrote = len == 0 || gzwrite(z, data, (unsigned)len) == (int)len;
    int closed = gzclose(z) == Z_OK;
    return wrote && closed;
}

/* One source file gzipped into the run: written to path.tmp, then renamed. */
static int copy_one(const char *name, const char *dest, char *err, size_t errlen)
{
    size_t len = 0;
    errno = 0;
    char *data = read_all(name, &len);
    if (!data && errno == ENOENT)
        return 1; /* not in the working folder: skipped */
    if (!data) {
        snprintf(err, errlen, "cannot read %.400s: %s", name, errno ? strerror(errno) : "larger than 64 MiB");
        return -1;
    }
    char tmp[4368], dirs[4352];
    snprintf(tmp, sizeof tmp, "%s.tmp", dest);
    snprintf(dirs, sizeof dirs, "%s", dest);
    char *slash = strrchr(dirs, '/');
    if (slash)
        *slash = 0;
    int rc = -1;
    gzFile z = NULL;
    if (gs_make_dirs(dirs) != 0) {
        snprintf(err, errlen, "cannot make %s: %s", dirs, strerror(errno));
    } else if (!(z = gzopen(tmp, "wb9"))) {
        snprintf(err, errlen, "cannot write %s: %s", tmp, strerror(errno));
    } else if (!write_and_close(z, data, len)) {
        snprintf(err, errlen, "cannot write %s", tmp);
        remove(tmp);
    } else if (rename(tmp, dest) != 0) {
        snprintf(err, errlen, "cannot rename %s: %s", tmp, strerror(errno));
        remove(tmp);
    } else {
        rc = 0;
    }
    free(data);
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

int gs_sources_copy(const char *run_dir, const char *pcsamp_path, time_t built, int *copied, int *newer, char *err,
                    size_t errlen)
{
    *copied = *newer = 0;
    static char names[GS_SOURCES_MAX][512];
    int nn = gs_sources_table_names(pcsamp_path, names);
    if (nn < 0) {
        snprintf(err, errlen, "cannot open %s: %s", pcsamp_path, strerror(errno));
        return -1;
    }
    /* a file that fails is reported (the first), the others are still copied */
    int rc = 0;
    char why[4608];
    for (int i = 0; i < nn; i++) {
        char dest[4352];
        struct stat st;
        if (!gs_source_name_ok(names[i])) /* absolute (system headers) or not a name we copy */
            continue;
        if (stat(names[i], &st) == 0 && st.st_mtime > built)
            (*newer)++;
        int r;
        if (gs_source_path(run_dir, names[i], dest, sizeof dest) != 0) {
            snprintf(why, sizeof why, "%.2048s/sources/%.400s.gz: path too long", run_dir, names[i]);
            r = -1;
        } else if (stat(dest, &st) == 0) { /* copied from the other build's table */
            r = 0;
        } else {
            r = copy_one(names[i], dest, why, sizeof why);
        }
        if (r < 0 && rc == 0)
            snprintf(err, errlen, "%s", why), rc = -1;
        *copied += r == 0;
    }
    return rc;
}
