#define _POSIX_C_SOURCE 200809L
#include "gs_probes.h"
#include "gs_run.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_BRACKET 1000000u /* cycles: a probe held up longer than that says nothing */

int gs_probes_add(gs_probes *ps, const gs_probe *p, char *err, size_t errlen)
{
    if (p->clk_after < p->clk_before || p->clk_after - p->clk_before > MAX_BRACKET) {
        snprintf(err, errlen, "probe of CTA %u: its clocks %" PRIu64 " and %" PRIu64 " bracket no timer read", p->cta,
                 p->clk_before, p->clk_after);
        return -1;
    }
    if (ps->n == ps->cap) {
        size_t cap = ps->cap ? 2 * ps->cap : 256;
        gs_probe *q = realloc(ps->p, cap * sizeof *q);
        if (!q) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        ps->p = q, ps->cap = cap;
    }
    ps->p[ps->n++] = *p;
    return 0;
}

int gs_probes_write(const gs_probes *ps, const char *path, char *err, size_t errlen)
{
    gs_buf b = {0};
    gs_buf_printf(&b, "# gemmscope-probes %d\ncta\tclk_before\tgt\tclk_after\n", GS_PROBES_VERSION);
    for (size_t i = 0; i < ps->n; i++)
        gs_buf_printf(&b, "%u\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\n", ps->p[i].cta, ps->p[i].clk_before, ps->p[i].gt,
                      ps->p[i].clk_after);
    int rc = gs_buf_write(&b, path, err, errlen);
    gs_buf_free(&b);
    return rc;
}

/* A whole decimal number of at most 64 bits, the whole field. */
static int field_u64(const char *s, uint64_t *out)
{
    if (*s < '0' || *s > '9')
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end)
        return -1;
    *out = v;
    return 0;
}

int gs_probes_read(gs_probes *ps, const char *path, char *err, size_t errlen)
{
    memset(ps, 0, sizeof *ps);
    FILE *f = fopen(path, "r");
    if (!f) {
        if (errno == ENOENT)
            return 0;
        snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    char line[256], sub[256];
    int version = 0, lineno = 1, rc = -1;
    if (!fgets(line, sizeof line, f) || sscanf(line, "# gemmscope-probes %d", &version) != 1 ||
        version != GS_PROBES_VERSION) {
        snprintf(err, errlen, "%s: not a gemmscope probes file of version %d", path, GS_PROBES_VERSION);
        goto out;
    }
    while (fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "\r\n")] = 0;
        if (lineno == 2 && !strncmp(line, "cta\t", 4))
            continue;
        char *fld[5], *save = NULL;
        int n = 0;
        for (char *t = strtok_r(line, "\t", &save); t && n < 5; t = strtok_r(NULL, "\t", &save))
            fld[n++] = t;
        uint64_t cta;
        gs_probe p;
        if (n != 4 || field_u64(fld[0], &cta) || cta > UINT32_MAX || field_u64(fld[1], &p.clk_before) ||
            field_u64(fld[2], &p.gt) || field_u64(fld[3], &p.clk_after)) {
            snprintf(err, errlen, "%s:%d: expected cta, clk_before, gt, clk_after (whole numbers)", path, lineno);
            goto out;
        }
        p.cta = (uint32_t)cta;
        if (gs_probes_add(ps, &p, sub, sizeof sub)) {
            snprintf(err, errlen, "%s:%d: %s", path, lineno, sub);
            goto out;
        }
    }
    rc = 0;
out:
    fclose(f);
    if (rc)
        gs_probes_free(ps);
    return rc;
}

void gs_probes_free(gs_probes *ps)
{
    free(ps->p);
    memset(ps, 0, sizeof *ps);
}
