/* gemmscope evidence PROPOSAL RUN [--ab OFF ON [--label TEXT]]...: a proposal's go / no-go
 * page from a run's profile, with measured A/Bs beside it. */
#define _POSIX_C_SOURCE 200809L
#include "builtin.h"
#include "diff.h"
#include "evidence.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* proposals.txt: analysis/ of the working folder (a checkout), else the installed copy
 * (share/gemmscope beside bin/), else analysis/ beside the build folder. */
static void default_proposals(char *out, size_t n)
{
    char dir[PATH_MAX];
    if (access("analysis/proposals.txt", R_OK) == 0 || gs_self_dir(dir, sizeof dir)) {
        snprintf(out, n, "analysis/proposals.txt");
        return;
    }
    snprintf(out, n, "%s/../share/gemmscope/proposals.txt", dir);
    if (access(out, R_OK) != 0)
        snprintf(out, n, "%s/../analysis/proposals.txt", dir);
}

int cmd_evidence(int argc, char **argv)
{
    const char *name = NULL, *run = NULL, *out = NULL, *pfile = NULL;
    const char *ab_path[GS_MAX_AB][2];
    char labels[GS_MAX_AB][128];
    int n_ab = 0;
    const char *usage_line =
        "usage: gemmscope evidence PROPOSAL RUN [--ab OFF ON [--label TEXT]]... [--proposals FILE] [-o FILE]";
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
            return gs_die(usage_line);
        else if (!name)
            name = argv[i];
        else if (!run)
            run = argv[i];
        else
            return gs_die(usage_line);
    }
    if (!name || !run)
        return gs_die(usage_line);
    char ppath[PATH_MAX + 64], err[PATH_MAX + 2048], dir[PATH_MAX];
    if (!pfile) {
        default_proposals(ppath, sizeof ppath);
        pfile = ppath;
    }
    static gs_proposals ps;
    if (gs_proposals_read(pfile, &ps, err, sizeof err))
        return gs_die(err);
    const gs_proposal *p = gs_proposal_find(&ps, name);
    if (!p) {
        char names[1024] = "";
        for (int i = 0; i < ps.n; i++) {
            strncat(names, " ", sizeof names - strlen(names) - 1);
            strncat(names, ps.p[i].name, sizeof names - strlen(names) - 1);
        }
        snprintf(err, sizeof err, "unknown proposal '%.64s'; %s has:%s", name, pfile, names);
        return gs_die(err);
    }
    gs_rundata *rd = calloc(1 + 2 * (size_t)n_ab, sizeof *rd);
    gs_ab ab[GS_MAX_AB];
    int loaded = 0, rc = 1;
    if (!rd)
        return gs_die("out of memory");
    const char *paths[1 + 2 * GS_MAX_AB];
    paths[0] = run;
    for (int i = 0; i < n_ab; i++)
        paths[1 + 2 * i] = ab_path[i][0], paths[2 + 2 * i] = ab_path[i][1];
    for (; loaded < 1 + 2 * n_ab; loaded++) {
        gs_resolve_run(paths[loaded], dir, sizeof dir);
        if (gs_rundata_load(&rd[loaded], dir, GS_NEED_PHASES | GS_NEED_SMTIME, err, sizeof err))
            goto done;
    }
    for (int i = 0; i < n_ab; i++) {
        ab[i].off = &rd[1 + 2 * i];
        ab[i].on = &rd[2 + 2 * i];
        snprintf(ab[i].label, sizeof ab[i].label, "%.127s", labels[i]);
        /* an A/B pair measures one knob: the same subject, shape, GPU and stamp build on both
         * sides, and the profile of the same subject and shape */
        char why[256];
        if (!gs_runs_comparable(ab[i].off, ab[i].on, why, sizeof why)) {
            snprintf(err, sizeof err, "A/B %d: the off and on runs are not comparable (%s)", i + 1, why);
            goto done;
        }
        if (strcmp(gs_rundata_str(&rd[0], "subject"), gs_rundata_str(ab[i].off, "subject")) ||
            strcmp(gs_rundata_str(&rd[0], "shape"), gs_rundata_str(ab[i].off, "shape"))) {
            snprintf(err, sizeof err, "A/B %d: a run of %.60s / %.60s beside a profile of %.60s / %.60s", i + 1,
                     gs_rundata_str(ab[i].off, "subject"), gs_rundata_str(ab[i].off, "shape"),
                     gs_rundata_str(&rd[0], "subject"), gs_rundata_str(&rd[0], "shape"));
            goto done;
        }
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
        gs_die(err);
    return rc;
}
