#define _POSIX_C_SOURCE 200809L
#include "gs_probes.h"
#include "gs_run.h"
#include "gs_tsv.h"

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

int gs_probes_read(gs_probes *ps, const char *path, char *err, size_t errlen)
{
    gs_tsv t;
    char *fld[4], sub[256];
    int n, r, rc = -1;
    memset(ps, 0, sizeof *ps);
    if ((r = gs_tsv_open(&t, path, "probes", GS_PROBES_VERSION, err, errlen)) <= 0)
        return r;
    while ((r = gs_tsv_row(&t, "cta", fld, 4, &n, err, errlen)) == 1) {
        uint64_t cta;
        gs_probe p;
        if (n != 4 || gs_tsv_uint(fld[0], UINT32_MAX, &cta) || gs_tsv_uint(fld[1], UINT64_MAX, &p.clk_before) ||
            gs_tsv_uint(fld[2], UINT64_MAX, &p.gt) || gs_tsv_uint(fld[3], UINT64_MAX, &p.clk_after)) {
            snprintf(err, errlen, "%s:%d: expected cta, clk_before, gt, clk_after (whole numbers)", path, t.lineno);
            goto out;
        }
        p.cta = (uint32_t)cta;
        if (gs_probes_add(ps, &p, sub, sizeof sub)) {
            snprintf(err, errlen, "%s:%d: %s", path, t.lineno, sub);
            goto out;
        }
    }
    rc = r; /* 0 at the end, -1 on a line too long */
out:
    gs_tsv_close(&t);
    if (rc)
        gs_probes_free(ps);
    return rc;
}

void gs_probes_free(gs_probes *ps)
{
    free(ps->p);
    memset(ps, 0, sizeof *ps);
}
