/* gemmscope: the command table (docs/cli.md).  Each command is one file, builtin-<name>.c;
 * recording runs the CUDA helper gemmscope-record beside this program, which holds the
 * subjects; everything else reads run directories and needs no GPU. */
#include "builtin.h"

#include <stdio.h>
#include <string.h>

static const struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *usage;
} commands[] = {
    {"record", cmd_record,
     "record NAME [VARIANT=V] [DIST=D] [METRICS=default|sol|none] [DETAIL=0|1] [--reps N]\n"
     "         [--capacity-scale F] [--root DIR]\n"
     "                       profile shape NAME of the subject that claims it, on the GPU, into\n"
     "                       DIR/<shape>/<variant>/<run-id> (DIR: reports), and report it"},
    {"report", cmd_report, "report RUN [-o OUT]  analyse a run directory: summary.json, report.md, plots/ into OUT"},
    {"check", cmd_check, "check RUN...         known-answer checks of runs; 'N passed, N failed'"},
    {"plots", cmd_plots, "plots RUN            render RUN/plots/*.gp with gnuplot"},
    {"diff", cmd_diff, "diff A B [-o FILE]   compare two runs: deltas of medians with bootstrap 95% CIs"},
    {"evidence", cmd_evidence,
     "evidence PROPOSAL RUN [--ab OFF ON [--label TEXT]]... [--proposals FILE] [-o FILE]\n"
     "                       evidence page for a proposal (proposals.txt)"},
    {"trace", cmd_trace, "trace RUN [-o FILE]  Perfetto-compatible JSON trace of the run (default RUN/trace.json)"},
    {"table", cmd_table, "table [--kind speed|smtime] RUN...\n"
                         "                       one markdown row per run: speed against its anchors, or SM-time"},
    {"import", cmd_import,
     "import proton TRACE -o RUN --sms N [--map SCOPE=PHASE]... [--timings FILE | --time-ms MS[,MS...]]\n"
     "                       [--twin-ms MS] [--sm-clock-ghz F] [--tick-ns T] [--gpu NAME] [--variant V] [--flops F]\n"
     "                       a Triton Proton intra-kernel trace as a run directory (docs/proton.md)"},
    {"subjects", cmd_subjects, "subjects             the subjects record can profile"},
    {"shapes", cmd_shapes, "shapes SUBJECT       a subject's shapes"},
    {"variants", cmd_variants, "variants SUBJECT [SHAPE]\n"
                               "                       a subject's knob points (and SHAPE's production default)"},
};
#define N_COMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *f)
{
    fprintf(f, "usage: gemmscope <command> [args]\n");
    for (size_t i = 0; i < N_COMMANDS; i++)
        fprintf(f, "  %s\n", commands[i].usage);
}

int main(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 1 : 0;
    }
    for (size_t i = 0; i < N_COMMANDS; i++)
        if (!strcmp(argv[1], commands[i].name))
            return commands[i].run(argc - 2, argv + 2);
    fprintf(stderr, "gemmscope: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 1;
}
