/* gemmscope plots RUN: renders the gnuplot scripts a report wrote. */
#define _POSIX_C_SOURCE 200809L
#include "builtin.h"
#include "plots.h"

#include <limits.h>
#include <stdio.h>

int cmd_plots(int argc, char **argv)
{
    if (argc != 1)
        return gs_die("usage: gemmscope plots RUN");
    char dir[PATH_MAX], err[1024];
    gs_resolve_run(argv[0], dir, sizeof dir);
    if (!gs_gnuplot_available())
        return gs_die("gnuplot (with pngcairo and svg terminals) not found: apt-get install gnuplot-nox");
    if (gs_plots_render(dir, err, sizeof err))
        return gs_die(err);
    printf("gemmscope: plots rendered in %s/plots\n", dir);
    return 0;
}
