#define _POSIX_C_SOURCE 200809L
#include "gs_file.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <zlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* On-disk header, little-endian, 64 bytes. */
typedef struct gs_file_header {
    char magic[8];
    uint32_t version;
    uint32_t header_bytes;
    uint32_t warp_header_bytes;
    uint32_t record_bytes;
    uint32_t ctas;
    uint32_t warps_per_cta;
    uint32_t capacity;
    uint32_t crc32;      /* version 3: zlib crc32 of the whole file with this field 0 */
    uint64_t records;
    double timer_tick_ns;
    uint64_t reserved1;
} gs_file_header;

_Static_assert(sizeof(gs_file_header) == 64, "file header is 64 bytes");
_Static_assert(sizeof(gs_warp_header) == 64, "warp header is 64 bytes");
_Static_assert(sizeof(gs_record) == 32, "record is 32 bytes");

static int is_little_endian(void)
{
    const uint16_t one = 1;
    return *(const uint8_t *)&one == 1;
}

/* mkdir, where a folder already there is success and anything else there (a file) is ENOTDIR */
static int make_dir(const char *p)
{
    struct stat st;
    if (mkdir(p, 0755) == 0)
        return 0;
    if (errno != EEXIST)
        return -1;
    if (stat(p, &st) == 0 && S_ISDIR(st.st_mode))
        return 0;
    errno = ENOTDIR;
    return -1;
}

int gs_make_dirs(const char *path)
{
    char p[4096];
    if (snprintf(p, sizeof p, "%s", path) >= (int)sizeof p) {
        errno = ENAMETOOLONG;
        return -1;
    }
    for (char *s = p + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = 0;
        if (make_dir(p) != 0)
            return -1;
        *s = '/';
    }
    return make_dir(p);
}

int gs_write_atomic(const char *path, const void *data, size_t len, char *err, size_t errlen)
{
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid()) >= (int)sizeof tmp) {
        snprintf(err, errlen, "path too long: %s", path);
        return -1;
    }
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        snprintf(err, errlen, "cannot write %s: %s", tmp, strerror(errno));
        return -1;
    }
    int ok = fwrite(data, 1, len, f) == len;
    ok = (fclose(f) == 0) && ok;
    if (!ok || rename(tmp, path) != 0) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        unlink(tmp);
        return -1;
    }
    return 0;
}

int gs_file_write(const char *path, double timer_tick_ns, uint32_t ctas, uint32_t warps_per_cta,
                  uint32_t capacity, const gs_warp_header *warps, const gs_record *seg_records,
                  char *err, size_t errlen)
{
    if (!is_little_endian()) {
        snprintf(err, errlen, "stamp files are little-endian; this host is not");
        return -1;
    }
    size_t n_warps = (size_t)ctas * warps_per_cta, kept = 0;
    for (size_t w = 0; w < n_warps; w++)
        kept += warps[w].events < capacity ? warps[w].events : capacity;
    size_t len = sizeof(gs_file_header) + n_warps * sizeof(gs_warp_header) + kept * sizeof(gs_record);
    unsigned char *buf = malloc(len);
    if (!buf) {
        snprintf(err, errlen, "out of memory for a %zu-byte stamp file", len);
        return -1;
    }
    gs_file_header h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, GS_FILE_MAGIC, sizeof GS_FILE_MAGIC);
    h.version = GS_FILE_VERSION;
    h.header_bytes = sizeof h;
    h.warp_header_bytes = sizeof(gs_warp_header);
    h.record_bytes = sizeof(gs_record);
    h.ctas = ctas;
    h.warps_per_cta = warps_per_cta;
    h.capacity = capacity;
    h.records = kept;
    h.timer_tick_ns = timer_tick_ns;
    unsigned char *p = buf;
    memcpy(p, &h, sizeof h);
    p += sizeof h;
    memcpy(p, warps, n_warps * sizeof(gs_warp_header));
    p += n_warps * sizeof(gs_warp_header);
    for (size_t w = 0; w < n_warps; w++) {
        size_t k = warps[w].events < capacity ? warps[w].events : capacity;
        memcpy(p, seg_records + w * capacity, k * sizeof(gs_record));
        p += k * sizeof(gs_record);
    }
    /* the integrity check covers every byte; a reader recomputes it with the field 0 */
    const uint32_t crc = (uint32_t)crc32_z(crc32_z(0L, Z_NULL, 0), buf, len);
    memcpy(buf + offsetof(gs_file_header, crc32), &crc, sizeof crc);
    int rc = gs_write_atomic(path, buf, len, err, errlen);
    free(buf);
    return rc;
}

static int index_warps(gs_trace *t, char *err, size_t errlen)
{
    t->first = malloc((t->n_warps + 1) * sizeof(size_t));
    if (!t->first) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    size_t at = 0;
    for (size_t w = 0; w < t->n_warps; w++) {
        t->first[w] = at;
        at += gs_kept(t, w);
    }
    t->first[t->n_warps] = at;
    if (at != t->n_records) {
        snprintf(err, errlen, "warp event counts add up to %zu records, the file holds %zu", at, t->n_records);
        return -1;
    }
    return 0;
}

int gs_trace_from_arrays(gs_trace *t, uint32_t ctas, uint32_t warps_per_cta, uint32_t capacity,
                         double tick_ns, gs_warp_header *warps, gs_record *records, size_t n_records,
                         char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    t->ctas = ctas;
    t->warps_per_cta = warps_per_cta;
    t->capacity = capacity;
    t->timer_tick_ns = tick_ns;
    t->n_warps = (size_t)ctas * warps_per_cta;
    t->warps = warps;
    t->records = records;
    t->n_records = n_records;
    if (index_warps(t, err, errlen)) {
        gs_trace_free(t);
        return -1;
    }
    return 0;
}

/* The whole file, inflated where it is gzip'ed (gzread reads plain files as they are):
 * every allocation follows bytes that exist, never a count a header claims. */
static unsigned char *slurp(const char *path, size_t *len, char *err, size_t errlen)
{
    gzFile g = gzopen(path, "rb");
    if (!g) {
        snprintf(err, errlen, "cannot open %s: %s", path, errno ? strerror(errno) : "out of memory");
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    unsigned char *buf = malloc(cap);
    for (;;) {
        if (!buf)
            break;
        if (n == cap) {
            if (cap >= GS_FILE_MAX_BYTES) {
                snprintf(err, errlen, "%s: more than %llu bytes: not a stamp file this gemmscope reads", path,
                         (unsigned long long)GS_FILE_MAX_BYTES);
                free(buf);
                gzclose(g);
                return NULL;
            }
            unsigned char *b = realloc(buf, cap * 2);
            if (!b) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = b, cap *= 2;
        }
        const size_t want = cap - n > (1u << 30) ? (1u << 30) : cap - n;
        const int got = gzread(g, buf + n, (unsigned)want);
        if (got < 0) {
            int zerr;
            snprintf(err, errlen, "%s: unreadable (%s)", path, gzerror(g, &zerr));
            free(buf);
            gzclose(g);
            return NULL;
        }
        if (got == 0)
            break;
        n += (size_t)got;
    }
    gzclose(g);
    if (!buf)
        snprintf(err, errlen, "%s: out of memory", path);
    *len = n;
    return buf;
}

/* n * size + add without wrapping; SIZE_MAX when it would. */
static size_t mul_add(size_t n, size_t size, size_t add)
{
    if (size && n > (SIZE_MAX - add) / size)
        return SIZE_MAX;
    return n * size + add;
}

/* What a real run cannot produce, in a warp's header or its records: a header of another
 * slot, flags beyond started/finished, an end before its start, a record that begins before
 * its warp started or ends after it finished.  0, or -1 with the first in err. */
static int check_warps(const gs_trace *t, const char *path, int version, char *err, size_t errlen)
{
    uint64_t gt_lo = UINT64_MAX, gt_hi = 0;
    for (size_t w = 0; w < t->n_warps; w++) {
        const gs_warp_header *h = &t->warps[w];
        const int started = h->flags & GS_WARP_STARTED, finished = h->flags & GS_WARP_FINISHED;
        if (h->flags & ~(GS_WARP_STARTED | GS_WARP_FINISHED) || (finished && !started)) {
            snprintf(err, errlen, "%s: warp %zu has flags 0x%x, not a state a warp reaches", path, w, h->flags);
            return -1;
        }
        if (!started)
            continue;
        if (h->cta != w / t->warps_per_cta || h->warp != w % t->warps_per_cta) {
            snprintf(err, errlen, "%s: warp slot %zu holds CTA %u warp %u", path, w, h->cta, h->warp);
            return -1;
        }
        if (finished && (h->clk_end < h->clk_start || h->gt_end < h->gt_start)) {
            snprintf(err, errlen, "%s: warp %zu ends before it starts", path, w);
            return -1;
        }
        if (finished && (h->gt_end - h->gt_start > GS_SPAN_MAX_NS || h->clk_end - h->clk_start > GS_SPAN_MAX_CYCLES)) {
            snprintf(err, errlen, "%s: warp %zu runs %.3g ns (%.3g cycles): no launch runs that long", path, w,
                     (double)(h->gt_end - h->gt_start), (double)(h->clk_end - h->clk_start));
            return -1;
        }
        gt_lo = h->gt_start < gt_lo ? h->gt_start : gt_lo;
        gt_hi = h->gt_start > gt_hi ? h->gt_start : gt_hi;
        if (finished)
            gt_hi = h->gt_end > gt_hi ? h->gt_end : gt_hi;
        for (size_t i = t->first[w]; i < t->first[w + 1]; i++) {
            const gs_record *r = &t->records[i];
            const unsigned ph = r->phase;
            if ((ph >= GS_NUM_PHASES && !(ph == GS_CLOCK_PAIR && version >= 2)) || r->role >= GS_NUM_ROLES) {
                snprintf(err, errlen, "%s: record %zu has phase %u / role %u out of range", path, i, r->phase,
                         r->role);
                return -1;
            }
            /* a clock pair calibrates the SM's clock model: a malformed one would bend it silently */
            if (ph == GS_CLOCK_PAIR && (r->clk_dur > GS_CLOCK_BRACKET_MAX || r->gt_dur || r->tile || r->group)) {
                snprintf(err, errlen,
                         "%s: clock pair %zu is malformed (bracket %u cycles, at most %u; gt_dur %u, tile %u, group %u "
                         "must be 0)",
                         path, i, r->clk_dur, GS_CLOCK_BRACKET_MAX, r->gt_dur, r->tile, r->group);
                return -1;
            }
            if (r->clk_begin < h->clk_start || (finished && r->clk_begin + r->clk_dur > h->clk_end) ||
                r->clk_begin - h->clk_start > GS_SPAN_MAX_CYCLES) {
                snprintf(err, errlen, "%s: record %zu of warp %zu lies outside its warp's clock span", path, i, w);
                return -1;
            }
            /* a clock pair's timer reading lies in its warp's (the pairs bracket the timer read) */
            if (ph == GS_CLOCK_PAIR && (r->gt_begin < h->gt_start || (finished && r->gt_begin > h->gt_end))) {
                snprintf(err, errlen, "%s: clock pair %zu of warp %zu lies outside its warp's timer span", path, i, w);
                return -1;
            }
        }
    }
    if (gt_hi > gt_lo && gt_hi - gt_lo > GS_SPAN_MAX_NS) {
        snprintf(err, errlen, "%s: the warps start and end %.3g ns apart: no launch runs that long", path,
                 (double)(gt_hi - gt_lo));
        return -1;
    }
    return 0;
}

int gs_file_read(const char *path, gs_trace *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    size_t len = 0;
    unsigned char *buf = slurp(path, &len, err, errlen);
    if (!buf)
        return -1;
    gs_file_header h;
    int rc = -1;
    if (len < sizeof h) {
        snprintf(err, errlen, "%s: truncated stamp file (no complete header)", path);
        goto out;
    }
    memcpy(&h, buf, sizeof h);
    if (memcmp(h.magic, GS_FILE_MAGIC, sizeof GS_FILE_MAGIC) != 0) {
        snprintf(err, errlen, "%s: not a gemmscope stamp file (bad magic)", path);
        goto out;
    }
    if (h.version < GS_FILE_VERSION_MIN || h.version > GS_FILE_VERSION) {
        snprintf(err, errlen, "%s: stamp file version %u, this gemmscope reads versions %u to %u", path, h.version,
                 GS_FILE_VERSION_MIN, GS_FILE_VERSION);
        goto out;
    }
    if (h.header_bytes != sizeof h || h.warp_header_bytes != sizeof(gs_warp_header) ||
        h.record_bytes != sizeof(gs_record)) {
        snprintf(err, errlen, "%s: unexpected header/record sizes %u/%u/%u", path, h.header_bytes,
                 h.warp_header_bytes, h.record_bytes);
        goto out;
    }
    if (h.ctas == 0 || h.warps_per_cta == 0 || h.warps_per_cta > 32 || h.capacity == 0 ||
        !(h.timer_tick_ns > 0) || !(h.timer_tick_ns <= GS_TICK_MAX_NS)) {
        snprintf(err, errlen, "%s: implausible header (ctas %u, warps per CTA %u, capacity %u, tick %g ns)", path,
                 h.ctas, h.warps_per_cta, h.capacity, h.timer_tick_ns);
        goto out;
    }
    if (h.version >= 3) {
        uint32_t want = h.crc32, zero = 0;
        memcpy(buf + offsetof(gs_file_header, crc32), &zero, sizeof zero);
        const uint32_t got = (uint32_t)crc32_z(crc32_z(0L, Z_NULL, 0), buf, len);
        if (got != want) {
            snprintf(err, errlen, "%s: corrupted (crc32 %08x, the file says %08x)", path, got, want);
            goto out;
        }
    }
    const size_t n_warps = (size_t)h.ctas * h.warps_per_cta;
    const size_t need = mul_add(h.records, sizeof(gs_record), mul_add(n_warps, sizeof(gs_warp_header), sizeof h));
    if (h.records > SIZE_MAX / sizeof(gs_record) || need > len) {
        snprintf(err, errlen, "%s: truncated stamp file (header promises %zu warps and %llu records in %zu bytes)",
                 path, n_warps, (unsigned long long)h.records, len);
        goto out;
    }
    if (need < len) {
        snprintf(err, errlen, "%s: trailing bytes after %llu records", path, (unsigned long long)h.records);
        goto out;
    }
    out->ctas = h.ctas;
    out->warps_per_cta = h.warps_per_cta;
    out->capacity = h.capacity;
    out->timer_tick_ns = h.timer_tick_ns;
    out->n_warps = n_warps;
    out->n_records = (size_t)h.records;
    out->warps = malloc(n_warps * sizeof(gs_warp_header));
    out->records = malloc((out->n_records ? out->n_records : 1) * sizeof(gs_record));
    if (!out->warps || !out->records) {
        snprintf(err, errlen, "%s: out of memory for %zu records", path, out->n_records);
        goto out;
    }
    memcpy(out->warps, buf + sizeof h, n_warps * sizeof(gs_warp_header));
    memcpy(out->records, buf + sizeof h + n_warps * sizeof(gs_warp_header), out->n_records * sizeof(gs_record));
    if (index_warps(out, err, errlen) || check_warps(out, path, (int)h.version, err, errlen))
        goto out;
    rc = 0;
out:
    free(buf);
    if (rc)
        gs_trace_free(out);
    return rc;
}

void gs_trace_free(gs_trace *t)
{
    free(t->warps);
    free(t->records);
    free(t->first);
    memset(t, 0, sizeof *t);
}
