/* gemmscope check RUN...: the known-answer checks each run declares, as a table. */
#define _POSIX_C_SOURCE 200809L
#include "builtin.h"
#include "checks.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>

int cmd_check(int argc, char **argv)
{
    if (argc < 1)
        return gs_die("usage: gemmscope check RUN...");
    int passed = 0, failed = 0;
    printf("%-36s %-28s %-28s %s\n", "check", "expected", "measured", "result");
    for (int i = 0; i < argc; i++) {
        char dir[PATH_MAX], err[1024];
        gs_rundata r;
        gs_resolve_run(argv[i], dir, sizeof dir);
        if (gs_rundata_load(&r, dir, GS_NEED_PHASES, err, sizeof err)) {
            printf("%-36s %-28s %-28s %s\n", argv[i], "a readable run", "unreadable", "FAIL");
            fprintf(stderr, "gemmscope: %s\n", err);
            failed++;
            continue;
        }
        gs_checklist cl;
        gs_checks_run(&r, &cl);
        for (int k = 0; k < cl.n; k++) {
            printf("%-36s %-28s %-28s %s\n", cl.row[k].name, cl.row[k].expected, cl.row[k].measured,
                   cl.row[k].pass ? "pass" : "FAIL");
            cl.row[k].pass ? passed++ : failed++;
        }
        if (isnan(r.overhead_ratio))
            printf("%-36s twin and production timed differently (twin %.4f ms, production %.4f ms)\n",
                   gs_rundata_str(&r, "subject"), r.twin_ms, r.time_ms);
        else
            printf("%-36s twin/production = %.4f (twin %.4f ms, production %.4f ms)\n", gs_rundata_str(&r, "subject"),
                   r.overhead_ratio, r.twin_ms, r.time_ms);
        gs_rundata_free(&r);
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
