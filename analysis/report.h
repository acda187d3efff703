/* summary.json and report.md of an analysed run (docs/report.md). */
#ifndef GS_REPORT_H
#define GS_REPORT_H

#include "run.h"

#define GS_SUMMARY_VERSION 4

int gs_summary_write(const gs_rundata *r, const char *path, char *err, size_t errlen);

/* plots_note: NULL when the plots were rendered, else the line telling how to render them. */
int gs_report_write(const gs_rundata *r, const char *path, const char *plots_note, char *err, size_t errlen);

#endif
