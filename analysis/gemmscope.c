/* gemmscope: record / report / check / plots over run directories
 * (docs/cli.md).  Recording runs the CUDA helper gemmscope-record that sits
 * beside this program; everything else is host-only and needs no GPU. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "checks.h"
#include "diff.h"
#include "evidence.h"
#include "plots.h"
#include "report.h"
#include "run.h"
#include "trace.h"
#include "instrument/gs_args.h"
#include "kernels/nvfp4/shapes.h"
#include "kernels/nvfp4/variants.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: gemmscope <command> [args]\n"
               "  record [SHAPE=]NAME [VARIANT=V] [DIST=D] [METRICS=default|sol|none] [DETAIL=0|1] [--reps N]\n"
               "         [--capacity-scale F] [--root DIR]\n"
               "                       profile NAME on the GPU into DIR/<shape>/<variant>/<run-id> (DIR: reports)\n"
               "  report RUN [-o OUT]  analyse a run directory; write summary.json, report.md, plots/ into OUT\n"
               "  check RUN...         known-answer checks of calibration runs; 'N passed, N failed'\n"
               "  plots RUN            render RUN/plots/*.gp with gnuplot\n"
               "  diff A B [-o FILE]   compare two runs: deltas of medians with bootstrap 95%% CIs\n"
               "  evidence PROPOSAL RUN [--ab OFF ON [--label TEXT]]... [--proposals FILE] [-o FILE]\n"
               "                       evidence page for a proposal (analysis/proposals.txt)\n"
               "  trace RUN [-o FILE]  Perfetto-compatible JSON trace of the run (default RUN/trace.json)\n"
               "  variants [SHAPE]     the NVFP4 kernel's knob points (and SHAPE's production default)\n");
}

static int die(const char *msg)
{
    fprintf(stderr, "gemmscope: %s\n", msg);
    return 1;
}

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* A run directory, or a folder whose `latest` link points at one. */
static void resolve_run(const char *in, char *out, size_t n)
{
    char latest[PATH_MAX];
    snprintf(latest, sizeof latest, "%s/latest", in);
    char meta[PATH_MAX + 16];
    snprintf(meta, sizeof meta, "%s/meta.txt", in);
    if (access(meta, F_OK) != 0 && is_dir(latest))
        snprintf(out, n, "%s", latest);
    else
        snprintf(out, n, "%s", in);
}

/* mkdir -p */
static int make_dirs(const char *path)
{
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s", path);
    for (char *s = p + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = 0;
        if (mkdir(p, 0755) != 0 && errno != EEXIST)
            return -1;
        *s = '/';
    }
    return mkdir(p, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

/* Analyses `run` and writes summary.json, report.md and plots into `out`. */
static int analyse(const char *run, const char *out, int quiet)
{
    char err[1024], path[PATH_MAX + 32];
    gs_rundata r;
    if (gs_rundata_load(&r, run, err, sizeof err))
        return die(err);
    int rc = 1;
    if (make_dirs(out) != 0) {
        snprintf(err, sizeof err, "cannot create %s: %s", out, strerror(errno));
        goto fail;
    }
    snprintf(path, sizeof path, "%s/summary.json", out);
    if (gs_summary_write(&r, path, err, sizeof err) || gs_plots_write(&r, out, err, sizeof err))
        goto fail;
    char note[PATH_MAX + 256];
    const char *plots_note = NULL;
    if (!gs_gnuplot_available()) {
        snprintf(note, sizeof note,
                 "Plots not rendered: gnuplot was not found. Scripts and data are in plots/; render them with "
                 "`make plots RUN=%s`.", out);
        plots_note = note;
    } else if (gs_plots_render(out, err, sizeof err)) {
        /* the report still stands without pictures: say why, do not fail */
        snprintf(note, sizeof note, "Plots not rendered: %s. Scripts and data are in plots/.", err);
        plots_note = note;
    }
    snprintf(path, sizeof path, "%s/report.md", out);
    if (gs_report_write(&r, path, plots_note, err, sizeof err))
        goto fail;
    if (!quiet) {
        printf("gemmscope: report %s/report.md\n", out);
        if (plots_note)
            printf("gemmscope: %s\n", plots_note);
    }
    rc = 0;
    goto done;
fail:
    die(err);
done:
    gs_rundata_free(&r);
    return rc;
}

static int cmd_report(int argc, char **argv)
{
    const char *run = NULL, *out = NULL;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "-o") && i + 1 < argc)
            out = argv[++i];
        else if (argv[i][0] == '-' || run)
            return die("usage: gemmscope report RUN [-o OUT]");
        else
            run = argv[i];
    }
    if (!run)
        return die("usage: gemmscope report RUN [-o OUT]");
    char dir[PATH_MAX];
    resolve_run(run, dir, sizeof dir);
    return analyse(dir, out ? out : dir, 0);
}

static int cmd_check(int argc, char **argv)
{
    if (argc < 1)
        return die("usage: gemmscope check RUN...");
    int passed = 0, failed = 0;
    printf("%-36s %-28s %-28s %s\n", "check", "expected", "measured", "result");
    for (int i = 0; i < argc; i++) {
        char dir[PATH_MAX], err[1024];
        gs_rundata r;
        resolve_run(argv[i], dir, sizeof dir);
        if (gs_rundata_load(&r, dir, err, sizeof err)) {
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
        printf("%-36s twin/production = %.4f (twin %.4f ms, production %.4f ms)\n", gs_rundata_str(&r, "subject"),
               r.overhead_ratio, r.twin_ms, r.time_ms);
        gs_rundata_free(&r);
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}

static int cmd_plots(int argc, char **argv)
{
    if (argc != 1)
        return die("usage: gemmscope plots RUN");
    char dir[PATH_MAX], err[1024];
    resolve_run(argv[0], dir, sizeof dir);
    if (!gs_gnuplot_available())
        return die("gnuplot (with pngcairo and svg terminals) not found: apt-get install gnuplot-nox");
    if (gs_plots_render(dir, err, sizeof err))
        return die(err);
    printf("gemmscope: plots rendered in %s/plots\n", dir);
    return 0;
}

static int cmd_diff(int argc, char **argv)
{
    const char *runs[2] = {NULL, NULL}, *out = NULL;
    int n = 0;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "-o") && i + 1 < argc)
            out = argv[++i];
        else if (argv[i][0] == '-' || n == 2)
            return die("usage: gemmscope diff RUN_A RUN_B [-o FILE]");
        else
            runs[n++] = argv[i];
    }
    if (n != 2)
        return die("usage: gemmscope diff RUN_A RUN_B [-o FILE]");
    gs_rundata r[2];
    char err[1024], dir[PATH_MAX];
    for (int i = 0; i < 2; i++) {
        resolve_run(runs[i], dir, sizeof dir);
        if (gs_rundata_load(&r[i], dir, err, sizeof err)) {
            if (i)
                gs_rundata_free(&r[0]);
            return die(err);
        }
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
        return die(out ? err : "out of memory");
    if (out)
        printf("gemmscope: diff %s\n", out);
    return 0;
}

/* analysis/proposals.txt from the working folder, else next to the program's build folder */
static void default_proposals(const char *self, char *out, size_t n)
{
    if (access("analysis/proposals.txt", R_OK) == 0) {
        snprintf(out, n, "analysis/proposals.txt");
        return;
    }
    char copy[PATH_MAX];
    snprintf(copy, sizeof copy, "%s", self);
    snprintf(out, n, "%s/../analysis/proposals.txt", dirname(copy));
}

static int cmd_evidence(int argc, char **argv, const char *self)
{
    const char *name = NULL, *run = NULL, *out = NULL, *pfile = NULL;
    const char *ab_path[GS_MAX_AB][2];
    char labels[GS_MAX_AB][128];
    int n_ab = 0;
    const char *usage_line = "usage: gemmscope evidence PROPOSAL RUN [--ab OFF ON [--label TEXT]]... [--proposals FILE] [-o FILE]";
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "-o") && i + 1 < argc)
            out = argv[++i];
        else if (!strcmp(argv[i], "--proposals") && i + 1 < argc)
            pfile = argv[++i];
        else if (!strcmp(argv[i], "--ab") && i + 2 < argc && n_ab < GS_MAX_AB) {
            ab_path[n_ab][0] = argv[i + 1];
            ab_path[n_ab][1] = argv[i + 2];
            snprintf(labels[n_ab], sizeof labels[0], "A/B %d", n_ab + 1);
            n_ab++;
            i += 2;
        } else if (!strcmp(argv[i], "--label") && i + 1 < argc && n_ab)
            snprintf(labels[n_ab - 1], sizeof labels[0], "%s", argv[++i]);
        else if (argv[i][0] == '-')
            return die(usage_line);
        else if (!name)
            name = argv[i];
        else if (!run)
            run = argv[i];
        else
            return die(usage_line);
    }
    if (!name || !run)
        return die(usage_line);
    char ppath[PATH_MAX], err[PATH_MAX + 2048], dir[PATH_MAX];
    if (!pfile) {
        default_proposals(self, ppath, sizeof ppath);
        pfile = ppath;
    }
    static gs_proposals ps;
    if (gs_proposals_read(pfile, &ps, err, sizeof err))
        return die(err);
    const gs_proposal *p = gs_proposal_find(&ps, name);
    if (!p) {
        char names[1024] = "";
        for (int i = 0; i < ps.n; i++) {
            strncat(names, " ", sizeof names - strlen(names) - 1);
            strncat(names, ps.p[i].name, sizeof names - strlen(names) - 1);
        }
        snprintf(err, sizeof err, "unknown proposal '%.64s'; %s has:%s", name, pfile, names);
        return die(err);
    }
    gs_rundata *rd = calloc(1 + 2 * (size_t)n_ab, sizeof *rd);
    gs_ab ab[GS_MAX_AB];
    int loaded = 0, rc = 1;
    if (!rd)
        return die("out of memory");
    const char *paths[1 + 2 * GS_MAX_AB];
    paths[0] = run;
    for (int i = 0; i < n_ab; i++)
        paths[1 + 2 * i] = ab_path[i][0], paths[2 + 2 * i] = ab_path[i][1];
    for (; loaded < 1 + 2 * n_ab; loaded++) {
        resolve_run(paths[loaded], dir, sizeof dir);
        if (gs_rundata_load(&rd[loaded], dir, err, sizeof err))
            goto done;
    }
    for (int i = 0; i < n_ab; i++) {
        ab[i].off = &rd[1 + 2 * i];
        ab[i].on = &rd[2 + 2 * i];
        snprintf(ab[i].label, sizeof ab[i].label, "%s", labels[i]);
    }
    gs_buf b = {0};
    if (gs_evidence_write(p, &rd[0], ab, n_ab, &b, err, sizeof err) == 0) {
        if (out) {
            if (gs_buf_write(&b, out, err, sizeof err) == 0) {
                printf("gemmscope: evidence %s\n", out);
                rc = 0;
            }
        } else {
            fwrite(b.s, 1, b.len, stdout);
            rc = 0;
        }
    }
    gs_buf_free(&b);
done:
    for (int i = 0; i < loaded; i++)
        gs_rundata_free(&rd[i]);
    free(rd);
    if (rc)
        die(err);
    return rc;
}

static int cmd_trace(int argc, char **argv)
{
    const char *run = NULL, *out = NULL;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "-o") && i + 1 < argc)
            out = argv[++i];
        else if (argv[i][0] == '-' || run)
            return die("usage: gemmscope trace RUN [-o FILE]");
        else
            run = argv[i];
    }
    if (!run)
        return die("usage: gemmscope trace RUN [-o FILE]");
    char dir[PATH_MAX], path[PATH_MAX + 16], err[1024];
    resolve_run(run, dir, sizeof dir);
    snprintf(path, sizeof path, "%s/trace.json", dir);
    gs_rundata r;
    if (gs_rundata_load(&r, dir, err, sizeof err))
        return die(err);
    int rc = gs_trace_write(&r, out ? out : path, err, sizeof err);
    gs_rundata_free(&r);
    if (rc)
        return die(err);
    printf("gemmscope: trace %s (open it in ui.perfetto.dev)\n", out ? out : path);
    return 0;
}

/* Names that are their own subject; anything else is an NVFP4 shape. */
static const char *subject_for(const char *shape)
{
    if (!strcmp(shape, "calib") || !strcmp(shape, "release"))
        return shape;
    return "nvfp4";
}

/* 1 when `shape` names something record can run; else 0 and a one-line reason. */
static int shape_known(const char *shape, char *why, size_t n)
{
    if (strcmp(subject_for(shape), "nvfp4") != 0)
        return 1;
    nvfp4_shape s;
    char err[768];
    if (nvfp4_shape_parse(shape, &s, err, sizeof err) == 0)
        return 1;
    snprintf(why, n, "%s (calibration subjects: calib release)", err);
    return 0;
}

static int safe_name(const char *s)
{
    if (!*s || !strcmp(s, ".") || !strcmp(s, ".."))
        return 0;
    for (; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '-' || *s == '_' || *s == '.'))
            return 0;
    return 1;
}

static void remove_tree(const char *dir)
{
    /* only our own temporary run folder, whose files have plain names */
    char cmd[PATH_MAX + 32];
    if (strchr(dir, '\''))
        return;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "gemmscope: could not remove %s\n", dir);
}

/* The knob points of the NVFP4 kernel, one line each; with a shape, its production default. */
static int cmd_variants(int argc, char **argv)
{
    const nvfp4_variant *dflt = NULL;
    if (argc > 1)
        return die("usage: gemmscope variants [SHAPE]");
    if (argc == 1) {
        nvfp4_shape s;
        char err[512];
        if (nvfp4_shape_parse(argv[0], &s, err, sizeof err))
            return die(err);
        dflt = nvfp4_variant_default(&s);
    }
    printf("%-31s %6s %6s %6s %4s %4s %4s %4s %4s %4s  %s\n", "variant", "stages", "tile_w", "tile_t", "ws", "pers",
           "tma", "sk", "ft", "mma", "description");
    for (int i = 0; i < nvfp4_variant_count(); i++) {
        const nvfp4_variant *v = nvfp4_variant_at(i);
        printf("%-31s %6d %6d %6d %4d %4d %4d %4d %4d %4d  %s%s\n", v->name, v->stages, v->tile_w, v->tile_t,
               v->warp_spec, v->persistent, v->tma_store, v->split_k, v->fused_tokens, v->mma_depth, v->description,
               v == dflt ? "  [default]" : "");
    }
    return 0;
}

static int cmd_record(int argc, char **argv, const char *self)
{
    const char *shape = NULL, *variant = "default", *root = "reports", *reps = "50", *cap = "1", *dist = "gpumode";
    const char *metrics = "default", *detail = "0";
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
        else {
            usage(stderr);
            return 1;
        }
    }
    if (!shape || !*shape)
        shape = "calib";
    char why[1024];
    if (!shape_known(shape, why, sizeof why))
        return die(why);
    if (!safe_name(variant))
        return die("variant names use letters, digits, '-', '_' and '.' only");
    /* checked here, before any folder is made (the recorder checks them again) */
    long reps_n = 0;
    double cap_f = 0;
    char bad[256];
    if (gs_parse_long(reps, GS_MIN_REPS, GS_MAX_REPS, &reps_n)) {
        snprintf(bad, sizeof bad, "--reps takes a whole number in [%d, %d], not '%.100s'", GS_MIN_REPS, GS_MAX_REPS,
                 reps);
        return die(bad);
    }
    if (gs_parse_double(cap, 0.0, 1.0, &cap_f)) {
        snprintf(bad, sizeof bad, "--capacity-scale takes a number in (0, 1], not '%.100s'", cap);
        return die(bad);
    }
    /* custom NVFP4 shapes contain '=' and ';': store them under a sanitised folder name */
    char shape_dir[128];
    snprintf(shape_dir, sizeof shape_dir, "%s", shape);
    for (char *p = shape_dir; *p; p++)
        if (!(isalnum((unsigned char)*p) || *p == '-' || *p == '_' || *p == '.'))
            *p = '_';

    char helper[PATH_MAX], selfcopy[PATH_MAX];
    snprintf(selfcopy, sizeof selfcopy, "%s", self);
    snprintf(helper, sizeof helper, "%s/gemmscope-record", dirname(selfcopy));
    if (access(helper, X_OK) != 0) {
        fprintf(stderr, "gemmscope: %s not found: build it with 'make' (needs nvcc)\n", helper);
        return 1;
    }

    char base[PATH_MAX], run_id[64], tmp[PATH_MAX + 80], final[PATH_MAX + 80];
    snprintf(base, sizeof base, "%s/%s/%s", root, shape_dir, variant);
    char mk[PATH_MAX + 32];
    snprintf(mk, sizeof mk, "mkdir -p '%s'", base);
    if (strchr(base, '\'') || system(mk) != 0)
        return die("cannot create the run folder");
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
    if (mkdir(tmp, 0755) != 0)
        return die("cannot create the temporary run folder");

    /* GS_GIT_COMMIT names the commit where the tree has no .git (a copy on a GPU machine) */
    char commit[64] = "unknown";
    const char *env_commit = getenv("GS_GIT_COMMIT");
    FILE *g = env_commit && *env_commit ? NULL : popen("git rev-parse --short HEAD 2>/dev/null", "r");
    if (env_commit && *env_commit)
        snprintf(commit, sizeof commit, "%s", env_commit);
    if (g) {
        if (fgets(commit, sizeof commit, g))
            commit[strcspn(commit, "\n")] = 0;
        if (pclose(g) != 0 || !commit[0])
            snprintf(commit, sizeof commit, "unknown");
    }
    setenv("GS_GIT_COMMIT", commit, 1);
    char cmdline[2048] = "gemmscope record";
    for (int i = 0; i < argc; i++) {
        strncat(cmdline, " ", sizeof cmdline - strlen(cmdline) - 1);
        strncat(cmdline, argv[i], sizeof cmdline - strlen(cmdline) - 1);
    }
    const char *subject = subject_for(shape);
    pid_t pid = fork();
    if (pid == 0) {
        execl(helper, helper, "--subject", subject, "--shape", shape, "--variant", variant, "--dist", dist, "--reps",
              reps, "--capacity-scale", cap, "--metrics", metrics, "--detail", detail, "--out", tmp, "--command",
              cmdline, (char *)NULL);
        perror("gemmscope: exec gemmscope-record");
        _exit(127);
    }
    int st = 0;
    if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        remove_tree(tmp);
        if (WIFEXITED(st) && WEXITSTATUS(st) == 3)
            fprintf(stderr, "gemmscope: no GPU here; `make report` renders the recorded sample instead\n");
        return die("recording failed; nothing was written");
    }
    if (analyse(tmp, tmp, 1)) {
        remove_tree(tmp);
        return die("analysis of the new run failed; nothing was written");
    }
    if (rename(tmp, final) != 0) {
        remove_tree(tmp);
        return die("cannot move the run into place");
    }
    char link_tmp[PATH_MAX + 96], link[PATH_MAX + 16];
    snprintf(link_tmp, sizeof link_tmp, "%s/.latest.%ld", base, (long)getpid());
    snprintf(link, sizeof link, "%s/latest", base);
    unlink(link_tmp);
    if (symlink(run_id, link_tmp) != 0 || rename(link_tmp, link) != 0)
        fprintf(stderr, "gemmscope: could not update %s\n", link);
    printf("gemmscope: run %s\ngemmscope: report %s/report.md\n", final, final);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 1 : 0;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "record")) {
        char self[PATH_MAX];
        ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
        if (n <= 0)
            return die("cannot find my own path");
        self[n] = 0;
        return cmd_record(argc - 2, argv + 2, self);
    }
    if (!strcmp(cmd, "report"))
        return cmd_report(argc - 2, argv + 2);
    if (!strcmp(cmd, "evidence")) {
        char self[PATH_MAX];
        ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
        self[n > 0 ? n : 0] = 0;
        return cmd_evidence(argc - 2, argv + 2, self);
    }
    if (!strcmp(cmd, "check"))
        return cmd_check(argc - 2, argv + 2);
    if (!strcmp(cmd, "diff"))
        return cmd_diff(argc - 2, argv + 2);
    if (!strcmp(cmd, "trace"))
        return cmd_trace(argc - 2, argv + 2);
    if (!strcmp(cmd, "variants"))
        return cmd_variants(argc - 2, argv + 2);
    if (!strcmp(cmd, "plots"))
        return cmd_plots(argc - 2, argv + 2);
    fprintf(stderr, "gemmscope: unknown command '%s'\n", cmd);
    usage(stderr);
    return 1;
}
