/* gemmscope record: the recorder (gemmscope-record, with the subjects) writes the run into a
 * temporary folder; it is analysed there and renamed into place only when both succeeded. */
#define _POSIX_C_SOURCE 200809L
#include "builtin.h"
#include "instrument/gs_args.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int safe_name(const char *s)
{
    if (!*s || s[0] == '.')
        return 0;
    for (; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '-' || *s == '_' || *s == '.'))
            return 0;
    return 1;
}

static void remove_tree(const char *dir)
{
    /* only our own temporary run folder, whose files have plain names */
    char cmd[PATH_MAX + 128];
    if (strchr(dir, '\'') || strlen(dir) >= PATH_MAX)
        return;
    snprintf(cmd, sizeof cmd, "rm -rf '%.4095s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "gemmscope: could not remove %s\n", dir);
}

/* The commit of the tree that was built, for meta.txt; GS_GIT_COMMIT where the tree has no
 * .git (a copy on a GPU machine). */
static void find_commit(char *commit, size_t n)
{
    const char *env = getenv("GS_GIT_COMMIT");
    snprintf(commit, n, "unknown");
    if (env && *env) {
        snprintf(commit, n, "%s", env);
        return;
    }
    FILE *g = popen("git rev-parse --short HEAD 2>/dev/null", "r");
    if (!g)
        return;
    if (fgets(commit, (int)n, g))
        commit[strcspn(commit, "\n")] = 0;
    if (pclose(g) != 0 || !commit[0])
        snprintf(commit, n, "unknown");
}

int cmd_record(int argc, char **argv)
{
    const char *shape = NULL, *variant = "default", *root = "reports", *reps = "50", *cap = "1", *dist = "gpumode";
    const char *metrics = "default", *detail = "0";
    const char *usage_line = "usage: gemmscope record NAME [VARIANT=V] [DIST=D] [METRICS=default|sol|none] "
                             "[DETAIL=0|1] [--reps N] [--capacity-scale F] [--root DIR]";
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strncmp(a, "SHAPE=", 6))
            shape = a + 6;
        else if (!strncmp(a, "DETAIL=", 7))
            detail = a + 7;
        else if (!strncmp(a, "VARIANT=", 8))
            variant = a + 8;
        else if (!strncmp(a, "DIST=", 5))
            dist = a + 5;
        else if (!strncmp(a, "METRICS=", 8))
            metrics = a + 8;
        else if (!strcmp(a, "--variant") && next)
            variant = argv[++i];
        else if (!strcmp(a, "--reps") && next)
            reps = argv[++i];
        else if (!strcmp(a, "--capacity-scale") && next)
            cap = argv[++i];
        else if (!strcmp(a, "--root") && next)
            root = argv[++i];
        else if (!strcmp(a, "--dist") && next)
            dist = argv[++i];
        else if (a[0] != '-' && !shape)
            shape = a;
        else
            return gs_die(usage_line);
    }
    if (!shape || !*shape)
        return gs_die(usage_line);
    if (!safe_name(variant))
        return gs_die("variant names use letters, digits, '-', '_' and '.' only, not starting with '.'");
    if (strcmp(detail, "0") && strcmp(detail, "1"))
        return gs_die("DETAIL takes 0 or 1");
    /* checked here, before any folder is made (the recorder checks them again) */
    long reps_n = 0;
    double cap_f = 0;
    char bad[256];
    if (gs_parse_long(reps, GS_MIN_REPS, GS_MAX_REPS, &reps_n)) {
        snprintf(bad, sizeof bad, "--reps takes a whole number in [%d, %d], not '%.100s'", GS_MIN_REPS, GS_MAX_REPS,
                 reps);
        return gs_die(bad);
    }
    if (gs_parse_double(cap, 0.0, 1.0, &cap_f)) {
        snprintf(bad, sizeof bad, "--capacity-scale takes a number in (0, 1], not '%.100s'", cap);
        return gs_die(bad);
    }
    /* custom shapes contain '=' and ';': stored under a sanitised folder name, never '.' or '..' */
    char shape_dir[128];
    snprintf(shape_dir, sizeof shape_dir, "%s", shape);
    for (char *p = shape_dir; *p; p++)
        if (!(isalnum((unsigned char)*p) || *p == '-' || *p == '_' || (*p == '.' && p != shape_dir)))
            *p = '_';

    char base[PATH_MAX], shape_base[PATH_MAX], run_id[64], tmp[PATH_MAX + 80], final[PATH_MAX + 80];
    if (strlen(root) + strlen(variant) > 3000)
        return gs_die("--root and VARIANT make too long a path");
    snprintf(shape_base, sizeof shape_base, "%s/%s", root, shape_dir);
    snprintf(base, sizeof base, "%.3200s/%.300s", shape_base, variant);
    time_t now = time(NULL);
    strftime(run_id, sizeof run_id, "%Y%m%d-%H%M%S", gmtime(&now));
    snprintf(final, sizeof final, "%s/%s", base, run_id);
    for (int k = 2; access(final, F_OK) == 0; k++) {
        char id2[64];
        snprintf(id2, sizeof id2, "%.40s-%d", run_id, k);
        snprintf(run_id, sizeof run_id, "%s", id2);
        snprintf(final, sizeof final, "%s/%s", base, run_id);
    }
    snprintf(tmp, sizeof tmp, "%s/.%s.tmp", base, run_id);

    char commit[64], cmdline[2048] = "gemmscope record";
    find_commit(commit, sizeof commit);
    setenv("GS_GIT_COMMIT", commit, 1);
    for (int i = 0; i < argc; i++) {
        strncat(cmdline, " ", sizeof cmdline - strlen(cmdline) - 1);
        strncat(cmdline, argv[i], sizeof cmdline - strlen(cmdline) - 1);
    }
    const char *args[] = {"--shape", shape, "--variant", variant, "--dist", dist, "--reps", reps, "--capacity-scale",
                          cap, "--metrics", metrics, "--detail", detail, "--out", tmp, "--command", cmdline, NULL};
    const int rc = gs_run_recorder(args);
    if (rc != 0) {
        /* the recorder removed its own folder; the ones above it go where they are empty */
        rmdir(base);
        rmdir(shape_base);
        if (rc == 2) /* bad input: the recorder said what, in one line */
            return 1;
        if (rc == 3)
            return gs_die("no GPU here, nothing was written; `make report` renders the recorded sample instead");
        return gs_die("recording failed; nothing was written");
    }
    int no_gnuplot = 0;
    if (gs_analyse(tmp, tmp, 1, &no_gnuplot)) {
        remove_tree(tmp);
        return gs_die("analysis of the new run failed; nothing was written");
    }
    if (rename(tmp, final) != 0) {
        remove_tree(tmp);
        return gs_die("cannot move the run into place");
    }
    char link_tmp[PATH_MAX + 96], link[PATH_MAX + 16];
    snprintf(link_tmp, sizeof link_tmp, "%s/.latest.%ld", base, (long)getpid());
    snprintf(link, sizeof link, "%s/latest", base);
    unlink(link_tmp);
    if (symlink(run_id, link_tmp) != 0 || rename(link_tmp, link) != 0)
        fprintf(stderr, "gemmscope: could not update %s\n", link);
    printf("gemmscope: run %s\ngemmscope: report %s/report.md\n", final, final);
    if (no_gnuplot)
        gs_plots_hint(final);
    return 0;
}
