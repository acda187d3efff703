/* Stall reasons per phase (docs/method.md, "Stall reasons"): the sampled PCs
 * of pcsamp.tsv (source file, line, reason, samples) attributed to phases
 * through the kernel source: a line between GS_BEGIN(.., P) and GS_END(.., P)
 * belongs to the innermost such P (P the run's phase name, or an identifier ending in
 * _<name>: GS_EPILOGUE, NVFP4_LOAD_WAIT); a line inside a device function whose every
 * call site belongs to P belongs to P too (inlined helpers). */
#ifndef GS_STALLS_H
#define GS_STALLS_H

#include "../instrument/gs_format.h"
#include "../instrument/gs_phase_table.h"
#include <stddef.h>

#define GS_MAX_REASONS 64
#define GS_STALL_NONE GS_NUM_PHASES /* not attributable */

typedef struct gs_stalls {
    int present;
    int no_sources;                        /* the run has no sources/ folder: no line has a phase */
    double no_copy;                        /* samples on relatively named files sources/ lacks or
                                            * could not read (damaged): they have no phase */
    int nreasons;
    char reason[GS_MAX_REASONS][96];       /* without the smsp__pcsamp_warps_issue_stalled_ prefix */
    double total;                          /* samples over every reason */
    double by[GS_NUM_PHASES + 1][GS_MAX_REASONS]; /* [phase or NONE][reason] */
    double phase_total[GS_NUM_PHASES + 1];
    double stamp_code;                     /* samples at lines of gs_stamp.cuh: the twin's own code */
    double stamp_by[GS_MAX_REASONS];
} gs_stalls;

/* Reads dir/file (pcsamp.tsv: the production launch; pcsamp-twin.tsv: the twin's), absent:
 * present = 0, return 0.  Source files are read from the run's copy (dir/sources/, never the
 * working folder), and their markers' phase arguments by the run's phase names.  -1 with err
 * on a bad file. */
int gs_stalls_load(const char *dir, const char *file, const gs_phase_table *names, gs_stalls *out, char *err,
                   size_t errlen);
/* Index of reason `name` in st, or -1. */
int gs_stalls_reason_index(const gs_stalls *st, const char *name);

/* Phase of (file, line) by the rule above, or GS_STALL_NONE. Exposed for tests. */
int gs_stalls_phase_of(const char *file, unsigned line);
void gs_stalls_reset_sources(void);

#endif
