/* gemmscope import proton TRACE -o RUN [...]: a Triton Proton intra-kernel trace as a run
 * directory that `gemmscope report` reads (analysis/proton.h, docs/proton.md). */
#define _POSIX_C_SOURCE 200809L
#include "builtin.h"
#include "proton.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#define USAGE                                                                                                      \
    "usage: gemmscope import proton TRACE -o RUN --sms N [--map SCOPE=PHASE]... [--timings FILE | --time-ms "  \
    "MS[,MS...] [--twin-ms MS[,MS...]]] [--sm-clock-ghz F] [--tick-ns T] [--gpu NAME] [--variant V] [--flops F] " \
    "[--ctas-per-sm N]"

static int number(const char *s, double *out)
{
    char *end;
    *out = strtod(s, &end);
    return end != s && !*end && isfinite(*out) && *out > 0 ? 0 : -1;
}

/* One option with its value into o; -1 on an unknown option or a bad value. */
static int option(gs_proton_opts *o, const char *opt, const char *val, char *err, size_t n)
{
    double x = 0;
    const char *const text[] = {"-o", "--timings", "--time-ms", "--twin-ms", "--gpu", "--variant"};
    const char **slot[] = {&o->out, &o->timings, &o->time_ms, &o->twin_ms, &o->gpu, &o->variant};
    for (size_t i = 0; i < sizeof text / sizeof text[0]; i++)
        if (!strcmp(opt, text[i]))
            return *slot[i] = val, 0;
    if (!strcmp(opt, "--map")) {
        if (o->n_maps == GS_PROTON_MAX_MAPS)
            return snprintf(err, n, "more than %d --map options", GS_PROTON_MAX_MAPS), -1;
        o->maps[o->n_maps++] = val;
        return 0;
    }
    if (number(val, &x))
        return snprintf(err, n, "%s %s: expected a number above 0", opt, val), -1;
    if (!strcmp(opt, "--sms") || !strcmp(opt, "--ctas-per-sm")) {
        if (x != floor(x) || x > 65535)
            return snprintf(err, n, "%s %s: expected a count", opt, val), -1;
        *(!strcmp(opt, "--sms") ? &o->sms : &o->ctas_per_sm) = (int)x;
    } else if (!strcmp(opt, "--sm-clock-ghz")) {
        o->sm_clock_ghz = x;
    } else if (!strcmp(opt, "--tick-ns")) {
        o->tick_ns = x;
    } else if (!strcmp(opt, "--flops")) {
        o->flops = x;
    } else {
        return snprintf(err, n, "unknown option %s; %s", opt, USAGE), -1;
    }
    return 0;
}

static void command_line(int argc, char **argv, char *out, size_t n)
{
    size_t used = (size_t)snprintf(out, n, "gemmscope import");
    for (int i = 0; i < argc && used < n; i++) /* quoted where a shell would split it */
        used += (size_t)snprintf(out + used, n - used, strpbrk(argv[i], " \t'\"") ? " '%s'" : " %s", argv[i]);
}

int cmd_import(int argc, char **argv)
{
    gs_proton_opts o = {0};
    char err[2048], command[4096];
    if (argc < 1 || strcmp(argv[0], "proton"))
        return gs_die(USAGE " (proton is the one format it imports)");
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] != '-') {
            if (o.trace)
                return gs_die(USAGE);
            o.trace = argv[i];
        } else if (i + 1 >= argc) {
            return gs_die(USAGE);
        } else if (option(&o, argv[i], argv[i + 1], err, sizeof err)) {
            return gs_die(err);
        } else {
            i++;
        }
    }
    command_line(argc, argv, command, sizeof command);
    o.command = command;
    if (gs_proton_import(&o, err, sizeof err))
        return gs_die(err);
    printf("gemmscope: %s -> %s; next: gemmscope report %s\n", o.trace, o.out, o.out);
    return 0;
}
