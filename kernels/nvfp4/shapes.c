/* Shape registry and the custom shape syntax (see nvfp4.h).
 *
 * Custom syntax:  m=M1,M2,...;n=N1,...;k=K1,...
 *   - the three keys in any order, each exactly once, separated by ';' (spaces allowed);
 *   - G = the longest list (1..16); a list of one value broadcasts to all groups,
 *     any other list must have exactly G values;
 *   - M >= 1 (any value: partial token tiles are masked),
 *     N a multiple of 128 (a weight tile of 128 rows never straddles the end, and the
 *     weights' scale tensors then have no padding rows),
 *     K a multiple of 256 (the kernels step K by 256 = four 512-byte scale atoms);
 *     each of M, N, K at most 65536. */
#include "shapes.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *name;
    int groups;
    int m[8], n[8], k[8];
} shape_entry;

/* Benchmarks and the ten correctness tests of problem.md, in its order. */
static const shape_entry k_shapes[] = {
    {"g8k7168", 8, {80, 176, 128, 72, 64, 248, 96, 160}, {4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096},
     {7168, 7168, 7168, 7168, 7168, 7168, 7168, 7168}},
    {"g8k2048", 8, {40, 76, 168, 72, 164, 148, 196, 160}, {7168, 7168, 7168, 7168, 7168, 7168, 7168, 7168},
     {2048, 2048, 2048, 2048, 2048, 2048, 2048, 2048}},
    {"g2k4096", 2, {192, 320}, {3072, 3072}, {4096, 4096}},
    {"g2k1536", 2, {128, 384}, {4096, 4096}, {1536, 1536}},
    {"t0", 2, {96, 128}, {128, 256}, {256, 512}},
    {"t1", 2, {256, 72}, {512, 384}, {256, 256}},
    {"t2", 2, {128, 128}, {128, 256}, {512, 256}},
    {"t3", 3, {80, 128, 256}, {384, 256, 128}, {256, 512, 256}},
    {"t4", 3, {64, 72, 96}, {128, 384, 512}, {512, 512, 256}},
    {"t5", 3, {64, 256, 128}, {768, 128, 256}, {512, 256, 512}},
    {"t6", 3, {128, 128, 64}, {256, 512, 512}, {768, 256, 768}},
    {"t7", 4, {128, 128, 128, 128}, {128, 128, 128, 128}, {512, 256, 512, 256}},
    {"t8", 4, {40, 56, 384, 512}, {512, 384, 256, 128}, {256, 256, 256, 256}},
    {"t9", 4, {512, 384, 256, 128}, {256, 256, 256, 256}, {512, 768, 512, 768}},
};
#define N_SHAPES ((int)(sizeof k_shapes / sizeof k_shapes[0]))

#define DIM_MAX 65536

int nvfp4_name_append(char *buf, size_t len, size_t *used, const char *name)
{
    const size_t need = strlen(name) + (*used ? 1u : 0u);
    if (*used + need >= len)
        return -1; /* only whole names */
    snprintf(buf + *used, len - *used, "%s%s", *used ? " " : "", name);
    *used += need;
    return 0;
}

void nvfp4_shape_names(char *buf, size_t len)
{
    size_t used = 0;
    if (!buf || len == 0)
        return;
    buf[0] = '\0';
    for (int i = 0; i < N_SHAPES && nvfp4_name_append(buf, len, &used, k_shapes[i].name) == 0; i++)
        ;
}

/* One line: what went wrong, then the names and the syntax. */
static void set_err(char *err, size_t errlen, const char *spec, const char *why)
{
    char names[256];
    if (!err || errlen == 0)
        return;
    nvfp4_shape_names(names, sizeof names);
    snprintf(err, errlen,
             "bad shape '%s': %s; valid names: %s; or custom 'm=M1,M2,..;n=N1,..;k=K1,..' "
             "(a single value broadcasts, 1..%d groups, M>=1, N multiple of 128, "
             "K multiple of 256, each <= %d)",
             spec ? spec : "(null)", why, names, NVFP4_MAX_GROUPS, DIM_MAX);
}

/* Parses "v1,v2,..." up to the end of the segment [p, end). Returns count or -1. */
static int parse_list(const char *p, const char *end, int *vals, char *why, size_t whylen)
{
    int n = 0;
    for (;;) {
        char *stop;
        long v;
        while (p < end && isspace((unsigned char)*p))
            p++;
        if (p >= end || !(isdigit((unsigned char)*p) || *p == '-' || *p == '+')) {
            snprintf(why, whylen, "expected a number");
            return -1;
        }
        errno = 0;
        v = strtol(p, &stop, 10);
        if (stop > end || stop == p || errno) {
            snprintf(why, whylen, "bad number");
            return -1;
        }
        if (n >= NVFP4_MAX_GROUPS) {
            snprintf(why, whylen, "more than %d values in a list", NVFP4_MAX_GROUPS);
            return -1;
        }
        if (v < -1000000000L || v > 1000000000L) {
            snprintf(why, whylen, "number out of range");
            return -1;
        }
        vals[n++] = (int)v;
        p = stop;
        while (p < end && isspace((unsigned char)*p))
            p++;
        if (p == end)
            return n;
        if (*p != ',') {
            snprintf(why, whylen, "expected ',' between values");
            return -1;
        }
        p++;
    }
}

static int validate(const nvfp4_shape *s, char *why, size_t whylen)
{
    if (s->groups < 1 || s->groups > NVFP4_MAX_GROUPS) {
        snprintf(why, whylen, "group count %d not in 1..%d", s->groups, NVFP4_MAX_GROUPS);
        return -1;
    }
    for (int g = 0; g < s->groups; g++) {
        if (s->m[g] < 1 || s->m[g] > DIM_MAX) {
            snprintf(why, whylen, "group %d: M=%d not in 1..%d", g, s->m[g], DIM_MAX);
            return -1;
        }
        if (s->n[g] < 128 || s->n[g] > DIM_MAX || s->n[g] % 128) {
            snprintf(why, whylen,
                     "group %d: N=%d must be a multiple of 128 in 128..%d (weight tiles of 128 "
                     "rows must not straddle the end)",
                     g, s->n[g], DIM_MAX);
            return -1;
        }
        if (s->k[g] < 256 || s->k[g] > DIM_MAX || s->k[g] % 256) {
            snprintf(why, whylen,
                     "group %d: K=%d must be a multiple of 256 in 256..%d (the kernels step K by "
                     "256 = four 512-byte scale atoms)",
                     g, s->k[g], DIM_MAX);
            return -1;
        }
    }
    return 0;
}

static int parse_custom(const char *spec, nvfp4_shape *out, char *why, size_t whylen)
{
    int vals[3][NVFP4_MAX_GROUPS], cnt[3] = {0, 0, 0};
    const char *p = spec;
    int groups = 0;

    while (*p) {
        const char *seg_end = strchr(p, ';');
        const char *q = p;
        int key;
        if (!seg_end)
            seg_end = p + strlen(p);
        while (q < seg_end && isspace((unsigned char)*q))
            q++;
        if (q == seg_end) { /* empty segment, e.g. a trailing ';' */
            p = *seg_end ? seg_end + 1 : seg_end;
            continue;
        }
        switch (tolower((unsigned char)*q)) {
        case 'm': key = 0; break;
        case 'n': key = 1; break;
        case 'k': key = 2; break;
        default:
            snprintf(why, whylen, "unknown key (expected m=, n= or k=)");
            return -1;
        }
        q++;
        while (q < seg_end && isspace((unsigned char)*q))
            q++;
        if (q >= seg_end || *q != '=') {
            snprintf(why, whylen, "expected '=' after the key");
            return -1;
        }
        q++;
        if (cnt[key]) {
            snprintf(why, whylen, "key given twice");
            return -1;
        }
        cnt[key] = parse_list(q, seg_end, vals[key], why, whylen);
        if (cnt[key] < 0)
            return -1;
        p = *seg_end ? seg_end + 1 : seg_end;
    }
    for (int i = 0; i < 3; i++) {
        if (cnt[i] == 0) {
            snprintf(why, whylen, "each of m=, n=, k= is required");
            return -1;
        }
        if (cnt[i] > groups)
            groups = cnt[i];
    }
    for (int i = 0; i < 3; i++) {
        if (cnt[i] != 1 && cnt[i] != groups) {
            snprintf(why, whylen, "list lengths differ (%d, %d, %d); one value broadcasts",
                     cnt[0], cnt[1], cnt[2]);
            return -1;
        }
    }
    memset(out, 0, sizeof *out);
    out->groups = groups;
    for (int g = 0; g < groups; g++) {
        out->m[g] = vals[0][cnt[0] == 1 ? 0 : g];
        out->n[g] = vals[1][cnt[1] == 1 ? 0 : g];
        out->k[g] = vals[2][cnt[2] == 1 ? 0 : g];
    }
    if (strlen(spec) < sizeof out->name)
        snprintf(out->name, sizeof out->name, "%s", spec);
    else
        snprintf(out->name, sizeof out->name, "custom");
    return 0;
}

int nvfp4_shape_parse_custom(const char *spec, nvfp4_shape *out, char *why, size_t whylen)
{
    if (!spec || !out) {
        snprintf(why, whylen, "no spec given");
        return -1;
    }
    return parse_custom(spec, out, why, whylen);
}

int nvfp4_shape_parse(const char *spec, nvfp4_shape *out, char *err, size_t errlen)
{
    char why[192];
    nvfp4_shape s;
    if (err && errlen)
        err[0] = '\0';
    if (!spec || !out) {
        set_err(err, errlen, spec, "no spec given");
        return -1;
    }
    for (int i = 0; i < N_SHAPES; i++) {
        if (strcmp(spec, k_shapes[i].name) == 0) {
            const shape_entry *e = &k_shapes[i];
            memset(&s, 0, sizeof s);
            snprintf(s.name, sizeof s.name, "%s", e->name);
            s.groups = e->groups;
            for (int g = 0; g < e->groups; g++) {
                s.m[g] = e->m[g];
                s.n[g] = e->n[g];
                s.k[g] = e->k[g];
            }
            *out = s;
            return 0;
        }
    }
    if (!strchr(spec, '=')) {
        set_err(err, errlen, spec, "unknown name");
        return -1;
    }
    if (parse_custom(spec, &s, why, sizeof why) != 0 || validate(&s, why, sizeof why) != 0) {
        set_err(err, errlen, spec, why);
        return -1;
    }
    *out = s;
    return 0;
}

double nvfp4_shape_flops(const nvfp4_shape *s)
{
    double f = 0.0;
    for (int g = 0; g < s->groups; g++)
        f += 2.0 * (double)s->m[g] * (double)s->n[g] * (double)s->k[g];
    return f;
}

double nvfp4_shape_min_bytes(const nvfp4_shape *s)
{
    double b = 0.0;
    for (int g = 0; g < s->groups; g++) {
        double M = s->m[g], N = s->n[g], K = s->k[g];
        double Mp = (double)((s->m[g] + 127) / 128 * 128), Np = (double)((s->n[g] + 127) / 128 * 128);
        b += M * K / 2.0 + N * K / 2.0; /* FP4 A and B */
        b += Mp * K / 16.0 + Np * K / 16.0; /* e4m3 scales incl. padding rows */
        b += M * N * 2.0;                   /* fp16 C once */
    }
    return b;
}

int nvfp4_dist_parse(const char *s, nvfp4_dist *out)
{
    if (!s || !out)
        return -1;
    if (strcmp(s, "gpumode") == 0) {
        *out = NVFP4_DIST_GPUMODE;
        return 0;
    }
    if (strcmp(s, "full") == 0) {
        *out = NVFP4_DIST_FULL;
        return 0;
    }
    return -1;
}

const char *nvfp4_dist_name(nvfp4_dist d)
{
    return d == NVFP4_DIST_GPUMODE ? "gpumode" : d == NVFP4_DIST_FULL ? "full" : "?";
}
