#define _POSIX_C_SOURCE 200809L
#include "gs_units.h"
#include "gs_tsv.h"
#include "gs_run.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int gs_units_add(gs_units *us, const gs_unit *u, char *err, size_t errlen)
{
    if (u->unit >= GS_MAX_UNITS || u->k0 >= u->k1 || u->width == 0 || u->parts == 0 || !isfinite(u->flops) ||
        !(u->flops > 0)) {
        snprintf(err, errlen,
                 "unit %u: not a unit a schedule makes (tag < %d, k0 < k1, width and parts > 0, flops finite and > 0)",
                 u->unit, GS_MAX_UNITS);
        return -1;
    }
    if (!us->given && !(us->given = calloc(GS_MAX_UNITS / 8, 1))) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (us->given[u->unit / 8] & (1u << (u->unit % 8))) {
        snprintf(err, errlen, "unit %u is given twice", u->unit);
        return -1;
    }
    if (us->n == us->cap) {
        size_t cap = us->cap ? 2 * us->cap : 256;
        gs_unit *p = realloc(us->u, cap * sizeof *p);
        if (!p) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        us->u = p;
        us->cap = cap;
    }
    us->u[us->n++] = *u;
    us->given[u->unit / 8] |= (uint8_t)(1u << (u->unit % 8));
    return 0;
}

int gs_units_write(const gs_units *us, const char *path, char *err, size_t errlen)
{
    gs_buf b = {0};
    gs_buf_printf(&b, "# gemmscope-units %d\nunit\tcta\tgroup\twidth\tk0\tk1\tparts\tflops\n", GS_UNITS_VERSION);
    for (size_t i = 0; i < us->n; i++) {
        const gs_unit *u = &us->u[i];
        gs_buf_printf(&b, "%u\t%u\t%u\t%u\t%u\t%u\t%u\t%.17g\n", u->unit, u->cta, u->group, u->width, u->k0, u->k1,
                      u->parts, u->flops);
    }
    int rc = gs_buf_write(&b, path, err, errlen);
    gs_buf_free(&b);
    return rc;
}

/* A whole decimal number that fits 32 bits, the whole field. */
static int field_u32(const char *s, uint32_t *out)
{
    uint64_t v;
    if (gs_tsv_uint(s, UINT32_MAX, &v))
        return -1;
    *out = (uint32_t)v;
    return 0;
}

int gs_units_read(gs_units *us, const char *path, char *err, size_t errlen)
{
    gs_tsv t;
    char *fld[8], sub[256];
    int n, r, rc = -1;
    memset(us, 0, sizeof *us);
    if ((r = gs_tsv_open(&t, path, "units", GS_UNITS_VERSION, err, errlen)) <= 0)
        return r;
    while ((r = gs_tsv_row(&t, "unit", fld, 8, &n, err, errlen)) == 1) {
        gs_unit u;
        char *end = NULL;
        if (n == 8) {
            errno = 0;
            u.flops = strtod(fld[7], &end);
        }
        if (n != 8 || field_u32(fld[0], &u.unit) || field_u32(fld[1], &u.cta) || field_u32(fld[2], &u.group) ||
            field_u32(fld[3], &u.width) || field_u32(fld[4], &u.k0) || field_u32(fld[5], &u.k1) ||
            field_u32(fld[6], &u.parts) || errno || !end || *end) {
            snprintf(err, errlen, "%s:%d: expected unit, cta, group, width, k0, k1, parts (whole numbers) and flops",
                     path, t.lineno);
            goto out;
        }
        if (gs_units_add(us, &u, sub, sizeof sub)) {
            snprintf(err, errlen, "%s:%d: %s", path, t.lineno, sub);
            goto out;
        }
    }
    rc = r; /* 0 at the end, -1 on a line too long */
out:
    gs_tsv_close(&t);
    if (rc)
        gs_units_free(us);
    return rc;
}

void gs_units_free(gs_units *us)
{
    free(us->u);
    free(us->given);
    memset(us, 0, sizeof *us);
}
