/* What the commands share: errors, run folders, the recorder beside the program. */
#define _POSIX_C_SOURCE 200809L
#include "builtin.h"
#include "plots.h"
#include "report.h"
#include "run.h"
#include "instrument/gs_file.h"

#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

int gs_die(const char *msg)
{
    fprintf(stderr, "gemmscope: %s\n", msg);
    return 1;
}

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

void gs_resolve_run(const char *in, char *out, size_t n)
{
    char latest[PATH_MAX], meta[PATH_MAX + 16];
    snprintf(latest, sizeof latest, "%s/latest", in);
    snprintf(meta, sizeof meta, "%s/meta.txt", in);
    if (access(meta, F_OK) != 0 && is_dir(latest))
        snprintf(out, n, "%s", latest);
    else
        snprintf(out, n, "%s", in);
}

int gs_self_dir(char *out, size_t n)
{
    char self[PATH_MAX];
    ssize_t k = readlink("/proc/self/exe", self, sizeof self - 1);
    if (k <= 0)
        return -1;
    self[k] = 0;
    snprintf(out, n, "%s", dirname(self));
    return 0;
}

int gs_run_recorder(const char *const *args)
{
    char dir[PATH_MAX], helper[PATH_MAX + 32];
    const char *argv[64];
    int n = 0;
    if (gs_self_dir(dir, sizeof dir))
        return gs_die("cannot find my own path"), -1;
    snprintf(helper, sizeof helper, "%s/gemmscope-record", dir);
    if (access(helper, X_OK) != 0) {
        fprintf(stderr, "gemmscope: %s not found: subjects live in the recorder; build it with 'make' (needs nvcc)\n",
                helper);
        return 2; /* said, in one line, as the recorder says bad input */
    }
    argv[n++] = helper;
    for (int i = 0; args[i] && n < 63; i++)
        argv[n++] = args[i];
    argv[n] = NULL;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        execv(helper, (char *const *)argv);
        perror("gemmscope: exec gemmscope-record");
        _exit(127);
    }
    int st = 0;
    if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st))
        return gs_die("the recorder did not run to its end"), -1;
    return WEXITSTATUS(st);
}

/* Removes a staging folder: its files, and those of its folders one level down. */
static void remove_stage(const char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        char path[8192];
        for (struct dirent *e; (e = readdir(d));) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                continue;
            snprintf(path, sizeof path, "%.4000s/%.255s", dir, e->d_name);
            if (unlink(path) != 0 && errno == EISDIR) {
                DIR *sub = opendir(path);
                char inner[8192];
                for (struct dirent *f; sub && (f = readdir(sub));) {
                    snprintf(inner, sizeof inner, "%.4300s/%.255s", path, f->d_name);
                    if (strcmp(f->d_name, ".") && strcmp(f->d_name, ".."))
                        unlink(inner);
                }
                if (sub)
                    closedir(sub);
                rmdir(path);
            }
        }
        closedir(d);
    }
    rmdir(dir);
}

/* The staged outputs into `out`: plots/ replaced whole, then summary.json, then report.md
 * last (a folder whose report.md is new has all its outputs new). */
static int publish(const char *stage, const char *out, char *err, size_t errlen)
{
    char from[8192], to[8192], old[8192];
    snprintf(from, sizeof from, "%.4000s/plots", stage);
    snprintf(to, sizeof to, "%.4000s/plots", out);
    snprintf(old, sizeof old, "%.4000s/.plots.old.%ld", out, (long)getpid());
    if (access(to, F_OK) == 0 && rename(to, old) != 0) {
        snprintf(err, errlen, "cannot replace %.900s: %s", to, strerror(errno));
        return -1;
    }
    if (rename(from, to) != 0) {
        snprintf(err, errlen, "cannot move %.400s to %.400s: %s", from, to, strerror(errno));
        rename(old, to);
        return -1;
    }
    remove_stage(old);
    static const char *const files[] = {"summary.json", "report.md"};
    for (int i = 0; i < 2; i++) {
        snprintf(from, sizeof from, "%.4000s/%s", stage, files[i]);
        snprintf(to, sizeof to, "%.4000s/%s", out, files[i]);
        if (rename(from, to) != 0) {
            snprintf(err, errlen, "cannot move %.400s to %.400s: %s", from, to, strerror(errno));
            return -1;
        }
    }
    return 0;
}

void gs_plots_hint(const char *folder)
{
    printf("gemmscope: plots not rendered (no gnuplot): make plots RUN=%s\n", folder);
}

int gs_analyse(const char *run, const char *out, int quiet, int *no_gnuplot_out)
{
    char err[1024], path[8192], stage[8192];
    gs_rundata r;
    if (gs_rundata_load(&r, run, GS_NEED_ALL, err, sizeof err))
        return gs_die(err);
    int rc = 1;
    /* every output is written into a staging folder inside `out` and moved into place only
     * when all of them were written: a failure (a full disk) leaves the earlier outputs whole */
    snprintf(stage, sizeof stage, "%.4000s/.report.tmp.%ld", out, (long)getpid());
    if (gs_make_dirs(stage) != 0) {
        snprintf(err, sizeof err, "cannot create %.900s: %s", stage, strerror(errno));
        goto fail;
    }
    snprintf(path, sizeof path, "%.4000s/summary.json", stage);
    if (gs_summary_write(&r, path, err, sizeof err) || gs_plots_write(&r, stage, err, sizeof err))
        goto fail;
    char note[PATH_MAX + 256];
    const char *plots_note = NULL;
    const int no_gnuplot = !gs_gnuplot_available();
    if (no_gnuplot) {
        /* no path here: the recorder writes the report before it moves the run into place, and
         * runs are copied (samples); the command line names the folder */
        snprintf(note, sizeof note,
                 "Plots not rendered: gnuplot was not found. Scripts and data are in plots/ beside this report; "
                 "`make plots RUN=<this report's folder>` renders them.");
        plots_note = note;
    } else if (gs_plots_render(stage, err, sizeof err)) {
        /* the report still stands without pictures: say why, do not fail */
        snprintf(note, sizeof note, "Plots not rendered: %s. Scripts and data are in plots/.", err);
        plots_note = note;
    }
    snprintf(path, sizeof path, "%.4000s/report.md", stage);
    if (gs_report_write(&r, path, plots_note, err, sizeof err) || publish(stage, out, err, sizeof err))
        goto fail;
    if (!quiet) {
        printf("gemmscope: report %s/report.md\n", out);
        if (no_gnuplot)
            gs_plots_hint(out);
        else if (plots_note)
            printf("gemmscope: %s\n", plots_note);
    }
    if (no_gnuplot_out)
        *no_gnuplot_out = no_gnuplot;
    rc = 0;
    goto done;
fail:
    gs_die(err);
done:
    remove_stage(stage);
    gs_rundata_free(&r);
    return rc;
}
