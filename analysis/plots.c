#define _POSIX_C_SOURCE 200809L
#include "plots.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

const char *const gs_plot_names[] = {"phase_shares", "sm_time", "sm_timeline", "sms_busy", "phase_hist", NULL};

/* One colour per phase, the same in every plot. */
static const char *const phase_color[GS_NUM_PHASES] = {
    "#4C72B0", "#DD8452", "#55A868", "#C44E52", "#8172B3", "#937860",
    "#DA8BC3", "#8C8C8C", "#CCB974", "#64B5CD", "#2F4F4F", "#B8860B",
};

/* Sub-phases nest inside another phase: drawing them on the timeline would hide it. */
static int is_subphase(const gs_rundata *r, int p) { return gs_phase_is_sub(&r->names, p); }

/* What every title names: the run (shape / variant, commit), double quotes and backslashes
 * kept out of gnuplot's double-quoted title strings. */
static const char *run_label(const gs_rundata *r)
{
    static char label[256];
    snprintf(label, sizeof label, "%.80s / %.80s, commit %.40s", gs_rundata_str(r, "shape"), gs_rundata_str(r, "variant"),
             gs_rundata_str(r, "git_commit"));
    for (char *c = label; *c; c++)
        if (*c == '"' || *c == '\\')
            *c = '\'';
    return label;
}

static int write_pair(const char *outdir, const char *name, const gs_buf *dat, const gs_buf *gp, char *err,
                      size_t errlen)
{
    char path[2400];
    snprintf(path, sizeof path, "%s/plots/%s.dat", outdir, name);
    if (gs_buf_write(dat, path, err, errlen))
        return -1;
    snprintf(path, sizeof path, "%s/plots/%s.gp", outdir, name);
    return gs_buf_write(gp, path, err, errlen);
}

/* The script renders PNG, then SVG, from the same commands. */
static void script_head(gs_buf *gp, const char *name, int w, int h)
{
    gs_buf_printf(gp,
                  "# gemmscope plot script (docs/report.md); run from this folder: gnuplot %s.gp\n"
                  "set terminal pngcairo size %d,%d font 'sans,10' noenhanced\nset output '%s.png'\n",
                  name, w, h, name);
    for (int p = 0; p < GS_NUM_PHASES; p++)
        gs_buf_printf(gp, "set linetype %d lc rgb '%s'\n", p + 1, phase_color[p]);
    gs_buf_printf(gp, "set linetype %d lc rgb '#DDDDDD'\n", GS_NUM_PHASES + 1);
}

static void script_tail(gs_buf *gp, const char *name, int w, int h)
{
    gs_buf_printf(gp, "set terminal svg size %d,%d font 'sans,10' noenhanced\nset output '%s.svg'\nreplot\nunset output\n", w,
                  h, name);
}

/* The script's SVG half, then both files written and the buffers freed. */
static int finish_plot(const char *outdir, const char *name, int w, int h, gs_buf *dat, gs_buf *gp, char *err,
                       size_t errlen)
{
    script_tail(gp, name, w, h);
    const int rc = write_pair(outdir, name, dat, gp, err, errlen);
    gs_buf_free(dat);
    gs_buf_free(gp);
    return rc;
}

static int plot_shares(const gs_rundata *r, const char *outdir, char *err, size_t errlen)
{
    gs_buf dat = {0}, gp = {0};
    const gs_phases *ph = &r->phases;
    double other = 1.0;
    gs_buf_printf(&dat, "# gemmscope phase_shares 1: percent of CTA time per top-level phase\nrun");
    for (int p = GS_MAINLOOP; p <= GS_STORE; p++)
        gs_buf_printf(&dat, "\t%s", gs_rundata_phase(r, p));
    gs_buf_printf(&dat, "\toutside\n\"%s/%s\"", gs_rundata_str(r, "shape"), gs_rundata_str(r, "variant"));
    for (int p = GS_MAINLOOP; p <= GS_STORE; p++) {
        gs_buf_printf(&dat, "\t%.4f", 100 * ph->ph[p].busy_share);
        other -= ph->ph[p].busy_share;
    }
    gs_buf_printf(&dat, "\t%.4f\n", other > 0 ? 100 * other : 0.0);

    script_head(&gp, "phase_shares", 760, 420);
    /* each segment's share in its key entry: a segment of 0.2% is too thin to read, its number is not */
    gs_buf_printf(&gp,
                  "set title \"Share of CTA time per phase\\n%s\"\nset ylabel '%% of CTA time'\nset yrange [0:100]\n"
                  "set style data histograms\nset style histogram rowstacked\nset style fill solid 1.0 border "
                  "-1\nset boxwidth 0.5\nset key outside right\nset datafile separator '\\t'\nplot ",
                  run_label(r));
    for (int p = GS_MAINLOOP; p <= GS_STORE + 1; p++) {
        const double v = p <= GS_STORE ? 100 * ph->ph[p].busy_share : (other > 0 ? 100 * other : 0.0);
        gs_buf_printf(&gp, "%s'phase_shares.dat' using %d:xtic(1) title '%s %.1f%%' lt %d", p ? ", " : "", p + 2,
                      p <= GS_STORE ? gs_rundata_phase(r, p) : "outside", v, p <= GS_STORE ? p + 1 : GS_NUM_PHASES + 1);
    }
    gs_buf_printf(&gp, "\n");
    return finish_plot(outdir, "phase_shares", 760, 420, &dat, &gp, err, errlen);
}

static int plot_timeline(const gs_rundata *r, const char *outdir, char *err, size_t errlen)
{
    gs_buf dat = {0}, gp = {0};
    const gs_timeline *tl = &r->tl;
    int blocks[GS_NUM_PHASES], nb = 0;
    gs_buf_printf(&dat, "# gemmscope sm_timeline 1: one block per phase; t0_us t1_us sm cta warp tile\n");
    for (int p = 0; p < GS_NUM_PHASES; p++) {
        if (is_subphase(r, p) || r->phases.ph[p].instances == 0)
            continue;
        if (nb)
            gs_buf_printf(&dat, "\n\n");
        gs_buf_printf(&dat, "# phase %s\n", gs_rundata_phase(r, p));
        for (size_t i = 0; i < tl->n_events; i++) {
            const gs_event *e = &tl->ev[i];
            if (e->phase == p)
                gs_buf_printf(&dat, "%.4f %.4f %u %u %u %u\n", e->t0 / 1e3, e->t1 / 1e3, e->sm, e->cta, e->warp,
                              e->tile);
        }
        blocks[nb++] = p;
    }
    script_head(&gp, "sm_timeline", 1200, 700);
    gs_buf_printf(&gp,
                  "set title \"Per-SM timeline (every warp record, coloured by phase)\\n%s\"\nset xlabel 'time since "
                  "first CTA start (us)'\nset ylabel 'SM'\nset yrange [-1:%d]\nset style fill solid 1.0 "
                  "noborder\nset key outside right\nplot ",
                  run_label(r), tl->n_sm);
    for (int b = 0; b < nb; b++)
        gs_buf_printf(&gp,
                      "%s'sm_timeline.dat' index %d using (($1+$2)/2):3:1:2:($3-0.4):($3+0.4) with boxxyerror "
                      "lt %d title '%s'",
                      b ? ", \\\n     " : "", b, blocks[b] + 1, gs_rundata_phase(r, blocks[b]));
    if (!nb)
        gs_buf_printf(&gp, "NaN title 'no records'");
    gs_buf_printf(&gp, "\n");
    return finish_plot(outdir, "sm_timeline", 1200, 700, &dat, &gp, err, errlen);
}

#define HIST_BINS 40

/* The plot commands of the histogram's blocks (the PNG's and again the SVG's: a multiplot cannot
 * be replotted). */
static void hist_plots(gs_buf *gp, const gs_rundata *r, const int *blocks, const int *from_detail, int nb)
{
    for (int b = 0; b < nb; b++)
        gs_buf_printf(gp, "set title '%s%s'\nplot 'phase_hist.dat' index %d using 1:2 with boxes lt %d\n",
                      gs_rundata_phase(r, blocks[b]), from_detail[b] ? " (detail twin)" : "", b, blocks[b] + 1);
    if (!nb)
        gs_buf_printf(gp, "plot NaN\n");
}

static int plot_hist(const gs_rundata *r, const char *outdir, char *err, size_t errlen)
{
    gs_buf dat = {0}, gp = {0};
    int blocks[GS_NUM_PHASES], from_detail[GS_NUM_PHASES], nb = 0;
    /* each phase's instances from the stamps its figures come from: the main loop's sub-phases
     * from the detail twin's where the run has them (run.c, gs_phases_take_subs) */
    int subs[GS_NUM_PHASES], is_sub[GS_NUM_PHASES] = {0};
    const int ns = gs_phase_main_subs(&r->names, subs);
    for (int i = 0; i < ns; i++)
        is_sub[subs[i]] = 1;
    gs_buf_printf(&dat, "# gemmscope phase_hist 1: one block per phase; bin_center_us count\n");
    for (int p = 0; p < GS_NUM_PHASES; p++) {
        if (r->phases.ph[p].instances == 0)
            continue;
        const int detail = r->has_detail && is_sub[p];
        const gs_timeline *tl = detail ? &r->tl_detail : &r->tl;
        double lo = INFINITY, hi = -INFINITY;
        for (size_t i = 0; i < tl->n_events; i++)
            if (tl->ev[i].phase == p) {
                double d = (tl->ev[i].t1 - tl->ev[i].t0) / 1e3;
                lo = d < lo ? d : lo;
                hi = d > hi ? d : hi;
            }
        if (!(lo <= hi))
            continue; /* no instance in these stamps: nothing to draw */
        double w = hi > lo ? (hi - lo) / HIST_BINS : (lo > 0 ? lo * 0.01 : 0.001);
        long counts[HIST_BINS] = {0};
        for (size_t i = 0; i < tl->n_events; i++)
            if (tl->ev[i].phase == p) {
                int b = (int)(((tl->ev[i].t1 - tl->ev[i].t0) / 1e3 - lo) / w);
                counts[b < 0 ? 0 : b >= HIST_BINS ? HIST_BINS - 1 : b]++;
            }
        if (nb)
            gs_buf_printf(&dat, "\n\n");
        gs_buf_printf(&dat, "# phase %s bin_width_us %.6f%s\n", gs_rundata_phase(r, p), w,
                      detail ? " (detail twin)" : "");
        for (int b = 0; b < HIST_BINS; b++)
            gs_buf_printf(&dat, "%.6f %ld\n", lo + (b + 0.5) * w, counts[b]);
        from_detail[nb] = detail;
        blocks[nb++] = p;
    }
    int cols = nb > 4 ? 4 : (nb ? nb : 1), rows = nb ? (nb + cols - 1) / cols : 1;
    script_head(&gp, "phase_hist", 300 * cols + 100, 260 * rows + 40);
    gs_buf_printf(&gp, "set multiplot layout %d,%d title \"Duration of each phase instance: %s\"\n"
                       "set style fill solid 0.8 noborder\nset xlabel 'us'\nset ylabel 'instances'\nunset key\n",
                  rows, cols, run_label(r));
    hist_plots(&gp, r, blocks, from_detail, nb);
    gs_buf_printf(&gp, "unset multiplot\n");
    gs_buf_printf(&gp, "set terminal svg size %d,%d font 'sans,10' noenhanced\nset output 'phase_hist.svg'\n",
                  300 * cols + 100, 260 * rows + 40);
    gs_buf_printf(&gp, "set multiplot layout %d,%d title \"Duration of each phase instance: %s\"\n", rows, cols,
                  run_label(r));
    hist_plots(&gp, r, blocks, from_detail, nb);
    gs_buf_printf(&gp, "unset multiplot\nunset output\n");
    int rc = write_pair(outdir, "phase_hist", &dat, &gp, err, errlen);
    gs_buf_free(&dat);
    gs_buf_free(&gp);
    return rc;
}

/* 100% stacked bar of SM-time: one row per run, so runs compare at a glance. */
static int plot_sm_time(const gs_rundata *r, const char *outdir, char *err, size_t errlen)
{
    gs_buf dat = {0}, gp = {0};
    gs_buf_printf(&dat, "# gemmscope sm_time 1: percent of SM-time per category\nrun");
    for (int c = 0; c < GS_SMT_CATEGORIES; c++)
        gs_buf_printf(&dat, "\t%s", gs_smt_category(&r->names, c));
    gs_buf_printf(&dat, "\n\"%s/%s\"", gs_rundata_str(r, "shape"), gs_rundata_str(r, "variant"));
    for (int c = 0; c < GS_SMT_CATEGORIES; c++)
        gs_buf_printf(&dat, "\t%.4f", 100 * r->smt.share[c]);
    gs_buf_printf(&dat, "\n");
    script_head(&gp, "sm_time", 760, 420);
    gs_buf_printf(&gp,
                  "set linetype %d lc rgb '#BBBBBB'\nset linetype %d lc rgb '#F2F2F2'\n"
                  "set title \"Where SM time goes (SMs x span)\\n%s\"\nset ylabel '%% of SM-time'\nset yrange [0:100]\n"
                  "set style data histograms\nset style histogram rowstacked\nset style fill solid 1.0 border -1\n"
                  "set boxwidth 0.5\nset key outside right\nset datafile separator '\\t'\nplot ",
                  GS_SMT_RESIDENT + 1, GS_SMT_IDLE + 1, run_label(r));
    /* only the categories that occur, so the key stays readable */
    int first = 1;
    for (int c = 0; c < GS_SMT_CATEGORIES; c++)
        if (r->smt.share[c] > 0 || c == GS_SMT_IDLE) {
            gs_buf_printf(&gp, "%s'sm_time.dat' using %d:xtic(1) title '%s %.2f%%' lt %d", first ? "" : ", ", c + 2,
                          gs_smt_category(&r->names, c), 100 * r->smt.share[c], c + 1);
            first = 0;
        }
    gs_buf_printf(&gp, "\n");
    return finish_plot(outdir, "sm_time", 760, 420, &dat, &gp, err, errlen);
}

/* Number of SMs with at least one CTA resident, over time. */
static int plot_sms_busy(const gs_rundata *r, const char *outdir, char *err, size_t errlen)
{
    gs_buf dat = {0}, gp = {0};
    gs_buf_printf(&dat, "# gemmscope sms_busy 1: t_us sms_busy (step: holds until the next row)\n0 0\n");
    for (int i = 0; i < r->smt.n_busy; i++)
        gs_buf_printf(&dat, "%.4f %d\n", r->smt.busy_t[i] / 1e3, r->smt.busy_n[i]);
    gs_buf_printf(&dat, "%.4f 0\n", r->tl.span_ns / 1e3);
    script_head(&gp, "sms_busy", 900, 360);
    gs_buf_printf(&gp,
                  "set title \"SMs with a CTA resident\\n%s\"\nset xlabel 'time since first CTA start (us)'\nset ylabel "
                  "'SMs'\nset yrange [0:%d]\nunset key\nplot 'sms_busy.dat' using 1:2 with steps lw 2 lt 1\n",
                  run_label(r), r->smt.sms + 2);
    return finish_plot(outdir, "sms_busy", 900, 360, &dat, &gp, err, errlen);
}

int gs_plots_have_kblocks(const gs_rundata *r)
{
    for (int i = 0; r->widths.ok && i < r->widths.n; i++)
        if (r->widths.row[i].kb_profile_n > 0)
            return 1;
    return 0;
}

/* Each width's K-block profile (widths.h): K block j's interval against its steady one. */
static int plot_kblocks(const gs_rundata *r, const char *outdir, char *err, size_t errlen)
{
    if (!gs_plots_have_kblocks(r))
        return 0;
    const gs_widths *w = &r->widths;
    const char *build = r->has_detail ? "the detail twin's stamps" : "the twin's stamps";
    gs_buf dat = {0}, gp = {0};
    gs_buf_printf(&dat, "# gemmscope kblocks 1: one block per width (blocks separated by two blank lines); "
                        "k_block interval_us steady_us; from %s\n",
                  build);
    script_head(&gp, "kblocks", 900, 420);
    gs_buf_printf(&gp,
                  "set title \"K block intervals: the start of one %s record to the next, median over the units "
                  "(%s)\\n%s\"\nset xlabel 'K block of the unit'\nset ylabel 'us'\nset yrange [0:*]\nset key top "
                  "right\nplot",
                  gs_rundata_str(r, "units.kblock_phase"), build, run_label(r));
    int block = 0;
    for (int i = 0; i < w->n; i++) {
        const gs_width_row *x = &w->row[i];
        if (x->kb_profile_n <= 0)
            continue;
        gs_buf_printf(&dat, "%s# width %d\n", block ? "\n\n" : "", x->width);
        for (int j = 0; j < x->kb_profile_n; j++)
            gs_buf_printf(&dat, "%d %.4f %.4f\n", j + 1, x->kb_interval_ns[j] / 1e3, x->steady_kb_ns / 1e3);
        gs_buf_printf(&gp,
                      "%s 'kblocks.dat' index %d using 1:2 with linespoints lw 2 lt %d title 'width %d', "
                      "'kblocks.dat' index %d using 1:3 with lines dt 2 lt %d title 'width %d steady'",
                      block ? "," : "", block, 1 + block % GS_NUM_PHASES, x->width, block, 1 + block % GS_NUM_PHASES,
                      x->width);
        block++;
    }
    gs_buf_printf(&gp, "\n");
    return finish_plot(outdir, "kblocks", 900, 420, &dat, &gp, err, errlen);
}

int gs_plots_write(const gs_rundata *r, const char *outdir, char *err, size_t errlen)
{
    char path[2200];
    snprintf(path, sizeof path, "%s/plots", outdir);
    if (mkdir(path, 0755) != 0 && errno != EEXIST) {
        snprintf(err, errlen, "cannot create %s: %s", path, strerror(errno));
        return -1;
    }
    if (plot_shares(r, outdir, err, errlen) || plot_sm_time(r, outdir, err, errlen) ||
        plot_sms_busy(r, outdir, err, errlen) || plot_timeline(r, outdir, err, errlen) ||
        plot_hist(r, outdir, err, errlen) || plot_kblocks(r, outdir, err, errlen))
        return -1;
    return 0;
}

int gs_gnuplot_available(void)
{
    return system("gnuplot -e \"set terminal pngcairo; set terminal svg\" >/dev/null 2>&1") == 0;
}

int gs_plots_render(const char *dir, char *err, size_t errlen)
{
    char cmd[4600], plots[2200];
    if (strchr(dir, '\'')) {
        snprintf(err, errlen, "cannot render plots in a path with a single quote: %s", dir);
        return -1;
    }
    snprintf(plots, sizeof plots, "%s/plots", dir);
    DIR *d = opendir(plots);
    if (!d) {
        snprintf(err, errlen, "no plots folder in %s: %s", dir, strerror(errno));
        return -1;
    }
    int n = 0, rc = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        size_t len = strlen(de->d_name);
        if (len < 4 || strcmp(de->d_name + len - 3, ".gp") != 0 || strchr(de->d_name, '\''))
            continue;
        snprintf(cmd, sizeof cmd, "cd '%s' && gnuplot '%s' 2>&1", plots, de->d_name);
        FILE *p = popen(cmd, "r");
        char line[512], first[512] = "";
        while (p && fgets(line, sizeof line, p))
            if (!first[0])
                snprintf(first, sizeof first, "%s", line);
        int st = p ? pclose(p) : -1;
        if (st != 0) {
            first[strcspn(first, "\n")] = 0;
            snprintf(err, errlen, "gnuplot failed on %s/%s: %s", plots, de->d_name, first);
            rc = -1;
            break;
        }
        n++;
    }
    closedir(d);
    if (!rc && n == 0) {
        snprintf(err, errlen, "no plot scripts in %s", plots);
        rc = -1;
    }
    return rc;
}
