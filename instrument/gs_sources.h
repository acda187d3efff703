/* The kernel source a run's PC samples point into, copied into the run directory
 * (docs/run-directory.md, `sources/`).  The stall reasons' phases (analysis/stalls.c) are read
 * from that copy, so a report gives the phases of the source that was compiled, whatever the
 * working folder holds when the report is made. */
#ifndef GS_SOURCES_H
#define GS_SOURCES_H

#include <stddef.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 1 when a file name from a PC-sample table may have a copy in a run: relative, no ".."
 * component, no backslash or control character, shorter than 400 bytes.  A run directory is
 * user input: nothing outside its sources/ folder is ever read through such a name. */
int gs_source_name_ok(const char *name);

/* dir/sources/<name>.gz into out; -1 when the name is not ok or out is too small. */
int gs_source_path(const char *dir, const char *name, char *out, size_t n);

/* At most this many source files per PC-sample table are copied and read. */
#define GS_SOURCES_MAX 64

/* The distinct names of a PC-sample table's file column, in the table's order, at most
 * GS_SOURCES_MAX: their count, or -1 when the table cannot be opened. */
int gs_sources_table_names(const char *pcsamp_path, char (*names)[512]);

/* Copies every source file that the PC-sample table at pcsamp_path names and the working
 * folder holds (names as the table gives them, relative to it) into run_dir/sources/, gzipped,
 * each written under a temporary name and renamed.  Names already copied are left as they are;
 * names that are not ok (absolute: system headers) or not in the folder are skipped.  *copied:
 * the files now in the run from this table, also when one fails (the others are still copied);
 * *newer: how many of them were changed after `built` (the recording program's own time), whose
 * copy may not be the source that was compiled.  0, or -1 with the first failure in err (a file
 * there but unreadable, a path too long, a write that failed). */
int gs_sources_copy(const char *run_dir, const char *pcsamp_path, time_t built, int *copied, int *newer, char *err,
                    size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
