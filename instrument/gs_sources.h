/* The kernel source a run's PC samples point into, copied into the run directory
 * (docs/run-directory.md, `sources/`).  The stall reasons' phases (analysis/stalls.c) are read
 * from that copy, so a report gives the phases of the source that was compiled, whatever the
 * working folder holds when the report is made. */
#ifndef GS_SOURCES_H
#define GS_SOURCES_H

#include <stddef.h>

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

/* A source file's text as the recording program was compiled from it: build/gs-embed writes the
 * recorder's table (instrument/gs_embed.c), so a run's copy is the text nvcc read, whatever the
 * working folder holds when the run is recorded. */
typedef struct {
    const char *name;          /* relative to the repository root, as the line tables name it */
    const unsigned char *text; /* len bytes */
    size_t len;
} gs_source_text;

/* The recorder's table (its build writes it with gs-embed) and the folder the compiler ran in,
 * to which the line tables' names are relative; not in libgemmscope. */
extern const gs_source_text gs_compiled_sources[];
extern const int gs_compiled_sources_count;
extern const char gs_compiled_sources_root[];

/* Writes the text of every file that the PC-sample table at pcsamp_path names and `texts` holds
 * into run_dir/sources/<name>.gz, gzipped, each under a temporary name and renamed.  Names
 * already written are left as they are; names that are not ok (absolute: system headers) are
 * skipped.  *copied: the files now in the run from this table, also when one fails (the others
 * are still written); *missing: ok names that `texts` does not hold (their samples get no
 * phase).  0, or -1 with the first failure in err (a path too long, a write that failed). */
int gs_sources_write(const char *run_dir, const char *pcsamp_path, const gs_source_text *texts, int ntexts,
                     int *copied, int *missing, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
