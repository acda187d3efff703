/* gnuplot scripts and their data for a run's report (docs/report.md):
 * phase_shares (100% stacked bar), sm_timeline (per-SM CTAs coloured by
 * phase), phase_hist (instance durations per phase), and where the run has
 * it, kblocks (the K-block profile, widths.h).  Each script renders a PNG and
 * an SVG. */
#ifndef GS_PLOTS_H
#define GS_PLOTS_H

#include <stddef.h>
#include "run.h"

/* Writes plots/<name>.dat and plots/<name>.gp under outdir. */
int gs_plots_write(const gs_rundata *r, const char *outdir, char *err, size_t errlen);

/* 1 when a gnuplot with the pngcairo and svg terminals is on PATH. */
int gs_gnuplot_available(void);

/* Runs every script in dir/plots; 0 when all rendered, -1 with err otherwise. */
int gs_plots_render(const char *dir, char *err, size_t errlen);

/* Names of the plots every report embeds, NULL-terminated. */
extern const char *const gs_plot_names[];

/* 1 when the run has the K-block profile (widths.h), and so the plot kblocks, which only
 * such runs have. */
int gs_plots_have_kblocks(const gs_rundata *r);

#endif
