/* Reading and writing the stamp file (stamps.gss, docs/stamp-format.md). */
#ifndef GS_FILE_H
#define GS_FILE_H

#include <stddef.h>
#include <stdint.h>
#include "gs_format.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GS_FILE_MAGIC "GSSTAMP"
#define GS_FILE_VERSION 3u     /* written; 2 added GS_CLOCK_PAIR records, 3 the crc32 */
#define GS_FILE_VERSION_MIN 1u /* oldest read: version 1 is version 2 without clock pairs */
#define GS_FILE_MAX_BYTES (16ull << 30) /* the most a stamp file may hold, inflated */
#define GS_TICK_MAX_NS 1e6              /* a %globaltimer step longer than 1 ms is no timer's */
#define GS_SPAN_MAX_NS 1000000000000ull  /* 1000 s: no profiled launch runs longer */
#define GS_SPAN_MAX_CYCLES 10000000000000ull /* 1000 s at 10 GHz */

/* A stamp file in memory.  Records are stored warp after warp; warp w's kept
 * records are records[first[w] .. first[w] + kept(w)). */
typedef struct gs_trace {
    uint32_t ctas, warps_per_cta, capacity;
    double timer_tick_ns;
    size_t n_warps;
    gs_warp_header *warps;
    size_t n_records;
    gs_record *records;
    size_t *first;
} gs_trace;

static inline uint32_t gs_kept(const gs_trace *t, size_t w)
{
    uint32_t e = t->warps[w].events;
    return e < t->capacity ? e : t->capacity;
}

/* Writes to path (through a temporary name, then rename).  seg_records holds
 * n_warps segments of `capacity` records each, as the device wrote them. */
int gs_file_write(const char *path, double timer_tick_ns, uint32_t ctas, uint32_t warps_per_cta,
                  uint32_t capacity, const gs_warp_header *warps, const gs_record *seg_records,
                  char *err, size_t errlen);

/* Reads (plain, or gzip'ed as the samples keep them) and validates: sizes against the bytes
 * there, the crc32 of version 3, and what no real run produces (gs_file.c, check_warps);
 * on error returns -1 with one line in err. */
int gs_file_read(const char *path, gs_trace *out, char *err, size_t errlen);

/* Builds a trace from compact arrays (tests and synthetic traces); takes ownership. */
int gs_trace_from_arrays(gs_trace *t, uint32_t ctas, uint32_t warps_per_cta, uint32_t capacity,
                         double tick_ns, gs_warp_header *warps, gs_record *records, size_t n_records,
                         char *err, size_t errlen);

void gs_trace_free(gs_trace *t);

/* mkdir -p: the folder and those above it; 0, or -1 with errno set (ENOTDIR where a file
 * stands in the way). */
int gs_make_dirs(const char *path);

/* Writes via path.tmp.<pid> then renames; helper for every output file. */
int gs_write_atomic(const char *path, const void *data, size_t len, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
