/* gemmscope diff A B [-o FILE]: deltas of medians with bootstrap confidence intervals. */
#define _POSIX_C_SOURCE 200809L
#include "builtin.h"
#include "diff.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

int cmd_diff(int argc, char **argv)
{
    const char *runs[2] = {NULL, NULL}, *out = NULL;
    int n = 0, force = 0;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "-o") && i + 1 < argc)
            out = argv[++i];
        else if (!strcmp(argv[i], "--force"))
            force = 1;
        else if (argv[i][0] == '-' || n == 2)
            return gs_die("usage: gemmscope diff RUN_A RUN_B [--force] [-o FILE]");
        else
            runs[n++] = argv[i];
    }
    if (n != 2)
        return gs_die("usage: gemmscope diff RUN_A RUN_B [--force] [-o FILE]");
    gs_rundata r[2];
    char err[1024], dir[PATH_MAX];
    for (int i = 0; i < 2; i++) {
        gs_resolve_run(runs[i], dir, sizeof dir);
        if (gs_rundata_load(&r[i], dir, GS_NEED_PHASES | GS_NEED_SMTIME, err, sizeof err)) {
            if (i)
                gs_rundata_free(&r[0]);
            return gs_die(err);
        }
    }
    char why[256];
    if (!force && !gs_runs_comparable(&r[0], &r[1], why, sizeof why)) {
        snprintf(err, sizeof err, "the runs are not comparable (%s); --force compares them anyway", why);
        gs_rundata_free(&r[0]);
        gs_rundata_free(&r[1]);
        return gs_die(err);
    }
    gs_buf b = {0};
    int rc = gs_diff_write(&r[0], &r[1], &b);
    if (!rc && out)
        rc = gs_buf_write(&b, out, err, sizeof err);
    else if (!rc)
        fwrite(b.s, 1, b.len, stdout);
    gs_buf_free(&b);
    gs_rundata_free(&r[0]);
    gs_rundata_free(&r[1]);
    if (rc)
        return gs_die(out ? err : "out of memory");
    if (out)
        printf("gemmscope: diff %s\n", out);
    return 0;
}
