#define _XOPEN_SOURCE 700
#include "gs_rundir.h"
#include "gs_file.h"

#include <ftw.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int gs_rundir_begin(gs_rundir *rd, const char *dir, char *err, size_t errlen)
{
    memset(rd, 0, sizeof *rd);
    gs_phase_table_init(&rd->phases);
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/')
        n--;
    if (n == 0 || n >= sizeof rd->dir) {
        snprintf(err, errlen, "run directory path empty or too long");
        return -1;
    }
    snprintf(rd->dir, sizeof rd->dir, "%.*s", (int)n, dir);
    if (access(rd->dir, F_OK) == 0) {
        snprintf(err, errlen, "%s exists: a run directory is written once", rd->dir);
        return -1;
    }
    const char *slash = strrchr(rd->dir, '/');
    const char *base = slash ? slash + 1 : rd->dir;
    if (!*base || !strcmp(base, ".") || !strcmp(base, "..")) {
        snprintf(err, errlen, "%s: not a folder name a run can take", rd->dir);
        return -1;
    }
    snprintf(rd->tmp, sizeof rd->tmp, "%.*s.%s.tmp.%ld", slash ? (int)(slash - rd->dir + 1) : 0, rd->dir, base,
             (long)getpid());
    char parent[2048];
    snprintf(parent, sizeof parent, "%.*s", slash ? (int)(slash - rd->dir) : 1, slash ? rd->dir : ".");
    if ((slash && slash != rd->dir && gs_make_dirs(parent) != 0) || mkdir(rd->tmp, 0755) != 0) {
        snprintf(err, errlen, "cannot create %s: %s", rd->tmp, strerror(errno));
        return -1;
    }
    return 0;
}

int gs_rundir_path(const gs_rundir *rd, const char *file, char *out, size_t n)
{
    return snprintf(out, n, "%s/%s", rd->tmp, file) >= (int)n ? -1 : 0;
}

int gs_rundir_phase(gs_rundir *rd, int id, const char *name, int within, const char *role, char *err,
                    size_t errlen)
{
    return gs_phase_table_name(&rd->phases, id, name, within, role, err, errlen);
}

int gs_rundir_unit(gs_rundir *rd, const gs_unit *u, char *err, size_t errlen)
{
    return gs_units_add(&rd->units, u, err, errlen);
}

int gs_rundir_timing(gs_rundir *rd, const char *build, const double *ms, int reps, char *err, size_t errlen)
{
    if (reps < 1) {
        snprintf(err, errlen, "timing '%s': no repetitions", build);
        return -1;
    }
    for (int i = 0; i < reps; i++)
        if (!isfinite(ms[i]) || !(ms[i] > 0)) {
            snprintf(err, errlen, "timing '%s': repetition %d is %g ms, not a time", build, i, ms[i]);
            return -1;
        }
    if (gs_timings_add(&rd->tim, build, ms, reps)) {
        snprintf(err, errlen, "timing '%s': more than %d builds, a name of 32 characters or more, or out of memory",
                 build, GS_MAX_BUILDS);
        return -1;
    }
    return 0;
}

int gs_rundir_stamps(gs_rundir *rd, double timer_tick_ns, uint32_t ctas, uint32_t warps_per_cta, uint32_t capacity,
                     const gs_warp_header *warps, const gs_record *records, char *err, size_t errlen)
{
    char path[2200];
    if (!(timer_tick_ns > 0) || !isfinite(timer_tick_ns)) {
        snprintf(err, errlen, "stamps: timer tick %g ns is not a tick", timer_tick_ns);
        return -1;
    }
    if (gs_rundir_path(rd, "stamps.gss", path, sizeof path) ||
        gs_file_write(path, timer_tick_ns, ctas, warps_per_cta, capacity, warps, records, err, errlen))
        return -1;
    gs_meta_set(&rd->meta, "timer_tick_ns", "%.1f", timer_tick_ns);
    gs_meta_set(&rd->meta, "stamps.capacity", "%u", capacity);
    if (!gs_meta_get(&rd->meta, "ctas"))
        gs_meta_set(&rd->meta, "ctas", "%u", ctas);
    rd->stamps_written = 1;
    return 0;
}

int gs_rundir_stamps_detail(gs_rundir *rd, uint32_t ctas, uint32_t warps_per_cta, uint32_t capacity,
                            const gs_warp_header *warps, const gs_record *records, char *err, size_t errlen)
{
    char path[2200];
    const double tick = gs_meta_num(&rd->meta, "timer_tick_ns", NAN);
    if (!rd->stamps_written || !(tick > 0)) {
        snprintf(err, errlen, "stamps-detail: write the twin's stamps (gs_rundir_stamps) first");
        return -1;
    }
    if (gs_rundir_path(rd, "stamps-detail.gss", path, sizeof path) ||
        gs_file_write(path, tick, ctas, warps_per_cta, capacity, warps, records, err, errlen))
        return -1;
    gs_meta_set(&rd->meta, "stamps.detail.capacity", "%u", capacity);
    return 0;
}

static void free_parts(gs_rundir *rd)
{
    gs_meta_free(&rd->meta);
    gs_timings_free(&rd->tim);
    gs_units_free(&rd->units);
}

/* What every analyzer needs; the first thing missing, or NULL. */
static const char *missing(const gs_rundir *rd)
{
    static const char *const keys[] = {"subject", "shape", "variant", "sm_count"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (!gs_meta_get(&rd->meta, keys[i]))
            return keys[i];
    if (gs_timings_find(&rd->tim, "production") < 0)
        return "the production build's timings";
    if (gs_timings_find(&rd->tim, "twin") < 0)
        return "the twin's timings";
    if (!rd->stamps_written)
        return "the stamps";
    return NULL;
}

int gs_rundir_commit(gs_rundir *rd, char *err, size_t errlen)
{
    char path[2200];
    const char *m = missing(rd);
    int rc = -1;
    if (m) {
        snprintf(err, errlen, "%s: the run lacks %s", rd->dir, m);
        goto out;
    }
    const double ctas = gs_meta_num(&rd->meta, "ctas", 0);
    for (size_t i = 0; i < rd->units.n; i++)
        if (rd->units.u[i].cta >= ctas) {
            snprintf(err, errlen, "%s: unit %u runs on CTA %u, the launch has %.0f", rd->dir, rd->units.u[i].unit,
                     rd->units.u[i].cta, ctas);
            goto out;
        }
    if (gs_phase_table_to_meta(&rd->phases, &rd->meta)) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    if (gs_rundir_path(rd, "timings.tsv", path, sizeof path) || gs_timings_write(&rd->tim, path, err, errlen))
        goto out;
    if (rd->units.n &&
        (gs_rundir_path(rd, "units.tsv", path, sizeof path) || gs_units_write(&rd->units, path, err, errlen)))
        goto out;
    /* meta.txt last: a folder without it is not a run */
    if (gs_rundir_path(rd, "meta.txt", path, sizeof path) || gs_meta_write(&rd->meta, path, err, errlen))
        goto out;
    if (rename(rd->tmp, rd->dir) != 0) {
        snprintf(err, errlen, "cannot move %s to %s: %s", rd->tmp, rd->dir, strerror(errno));
        goto out;
    }
    rd->tmp[0] = 0;
    rc = 0;
out:
    free_parts(rd);
    return rc;
}

/* nftw's callback: every entry of the abandoned folder, deepest first */
static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

void gs_rundir_abort(gs_rundir *rd)
{
    free_parts(rd);
    if (!rd->tmp[0])
        return;
    /* the folder holds what this module and its caller wrote: plain files, and the PC samples'
     * copies of their source in sources/ (folders); links are removed, never followed */
    nftw(rd->tmp, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    rd->tmp[0] = 0;
}
