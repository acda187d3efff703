/* gemmscope trace RUN [-o FILE]: the timeline as a Perfetto trace (needs no analysis). */
#define _POSIX_C_SOURCE 200809L
#include "builtin.h"
#include "trace.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

int cmd_trace(int argc, char **argv)
{
    const char *run = NULL, *out = NULL;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "-o") && i + 1 < argc)
            out = argv[++i];
        else if (argv[i][0] == '-' || run)
            return gs_die("usage: gemmscope trace RUN [-o FILE]");
        else
            run = argv[i];
    }
    if (!run)
        return gs_die("usage: gemmscope trace RUN [-o FILE]");
    char dir[PATH_MAX], path[PATH_MAX + 16], err[1024];
    gs_resolve_run(run, dir, sizeof dir);
    snprintf(path, sizeof path, "%s/trace.json", dir);
    gs_rundata r;
    if (gs_rundata_load(&r, dir, 0, err, sizeof err))
        return gs_die(err);
    int rc = gs_trace_write(&r, out ? out : path, err, sizeof err);
    gs_rundata_free(&r);
    if (rc)
        return gs_die(err);
    printf("gemmscope: trace %s (open it in ui.perfetto.dev)\n", out ? out : path);
    return 0;
}
