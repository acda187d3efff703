/* gemmscope report RUN [-o OUT] */
#define _POSIX_C_SOURCE 200809L
#include "builtin.h"

#include <limits.h>
#include <string.h>

int cmd_report(int argc, char **argv)
{
    const char *run = NULL, *out = NULL;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "-o") && i + 1 < argc)
            out = argv[++i];
        else if (argv[i][0] == '-' || run)
            return gs_die("usage: gemmscope report RUN [-o OUT]");
        else
            run = argv[i];
    }
    if (!run)
        return gs_die("usage: gemmscope report RUN [-o OUT]");
    char dir[PATH_MAX];
    gs_resolve_run(run, dir, sizeof dir);
    return gs_analyse(dir, out ? out : dir, 0, NULL);
}
