/* The text files of a run directory: meta.txt (key = value) and timings.tsv
 * (docs/run-directory.md).  Shared by the recorder (writes) and the analyzers (read). */
#ifndef GS_RUN_H
#define GS_RUN_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GS_META_VERSION 2
#define GS_TIMINGS_VERSION 1

typedef struct gs_kv {
    char *key, *val;
} gs_kv;

typedef struct gs_meta {
    gs_kv *kv;
    int n, cap;
} gs_meta;

int gs_meta_set(gs_meta *m, const char *key, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
const char *gs_meta_get(const gs_meta *m, const char *key);
/* The value as a number, or `fallback` when absent or not a number. */
double gs_meta_num(const gs_meta *m, const char *key, double fallback);
int gs_meta_write(const gs_meta *m, const char *path, char *err, size_t errlen);
int gs_meta_read(gs_meta *m, const char *path, char *err, size_t errlen);
void gs_meta_free(gs_meta *m);

/* Timings of the builds of one run: one sample list per build name. */
#define GS_MAX_BUILDS 16
typedef struct gs_timings {
    int n;
    char name[GS_MAX_BUILDS][32];
    int count[GS_MAX_BUILDS];
    double *ms[GS_MAX_BUILDS];
} gs_timings;

int gs_timings_add(gs_timings *t, const char *build, const double *ms, int count);
/* Index of the build or -1. */
int gs_timings_find(const gs_timings *t, const char *build);
double gs_timings_median(const gs_timings *t, int i);
double gs_timings_min(const gs_timings *t, int i);
double gs_timings_max(const gs_timings *t, int i);
int gs_timings_write(const gs_timings *t, const char *path, char *err, size_t errlen);
int gs_timings_read(gs_timings *t, const char *path, char *err, size_t errlen);
void gs_timings_free(gs_timings *t);

/* A growing string buffer, for files that are written in one go. */
typedef struct gs_buf {
    char *s;
    size_t len, cap;
    int oom;
} gs_buf;
void gs_buf_printf(gs_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void gs_buf_free(gs_buf *b);
int gs_buf_write(const gs_buf *b, const char *path, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
