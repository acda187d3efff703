/* The gemmscope commands, one file each (builtin-<name>.c), and what they share (cli.c).
 * Every command takes its arguments after the command name and returns the exit status. */
#ifndef GS_BUILTIN_H
#define GS_BUILTIN_H

#include <stddef.h>

int cmd_record(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_plots(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_evidence(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_subjects(int argc, char **argv);
int cmd_shapes(int argc, char **argv);
int cmd_variants(int argc, char **argv);
int cmd_table(int argc, char **argv);
int cmd_import(int argc, char **argv);

/* One line "gemmscope: msg" on stderr; returns 1. */
int gs_die(const char *msg);
/* A run directory, or a folder whose `latest` link points at one. */
void gs_resolve_run(const char *in, char *out, size_t n);
/* The folder this program lives in (where gemmscope-record sits beside it). */
int gs_self_dir(char *out, size_t n);
/* Runs the recorder beside this program with `args` (NULL-terminated, without the program);
 * its exit status (2 when it is not built: one line on stderr, as for bad input), or -1 with one
 * line on stderr when it cannot be run. */
int gs_run_recorder(const char *const *args);
/* Analyses `run` and writes summary.json, report.md and plots into `out`; 0 or 1.  no_gnuplot
 * (may be NULL): set to 1 when the plots were not rendered for want of gnuplot. */
int gs_analyse(const char *run, const char *out, int quiet, int *no_gnuplot);
/* The command line's hint for a run whose plots gnuplot did not render: the folder to give
 * `make plots` (the report itself names none). */
void gs_plots_hint(const char *folder);

#endif
