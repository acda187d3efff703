/* Writing a run directory (docs/run-directory.md) from any program: the recorder of the
 * built-in subjects, or your own host program around your own kernel (docs/library.md).
 *
 *   gs_rundir rd;
 *   gs_rundir_begin(&rd, "runs/my_gemm", err, sizeof err);     // files go to a temporary folder
 *   gs_meta_set(&rd.meta, "subject", "my_gemm"); ...           // what ran: subject, shape, variant
 *   gs_rundir_phase(&rd, GS_PHASE_OWN(0), "LOAD_WAIT", GS_MAINLOOP, "wait", err, sizeof err);
 *   gs_rundir_unit(&rd, &unit, err, sizeof err);               // one per GS_TILE tag (optional)
 *   gs_rundir_timing(&rd, "production", ms, reps, err, sizeof err);
 *   gs_rundir_timing(&rd, "twin", ms_twin, reps, err, sizeof err);
 *   gs_rundir_stamps(&rd, tick, ctas, warps_per_cta, capacity, warps, records, err, sizeof err);
 *   gs_rundir_commit(&rd, err, sizeof err);                    // checks, writes, renames into place
 *
 * Plain C, no CUDA: gs_device.h fills the device keys, gs_stamps.h downloads the stamps. */
#ifndef GS_RUNDIR_H
#define GS_RUNDIR_H

#include <stddef.h>
#include <stdint.h>
#include "gs_format.h"
#include "gs_phase_table.h"
#include "gs_run.h"
#include "gs_units.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gs_rundir {
    char dir[2048];  /* where the run lands at gs_rundir_commit */
    char tmp[2112];  /* where its files are until then */
    gs_meta meta;    /* meta.txt: set keys with gs_meta_set */
    gs_timings tim;  /* timings.tsv */
    gs_phase_table phases;
    gs_units units;  /* units.tsv (written when not empty) */
    int stamps_written;
} gs_rundir;

/* Starts a run that will land in `dir`, which must not exist yet (its parent folders are
 * made).  -1 with one line in err. */
int gs_rundir_begin(gs_rundir *rd, const char *dir, char *err, size_t errlen);
/* The path of `file` inside the run's temporary folder, for files a program writes itself
 * (pcsamp.tsv); -1 when it does not fit. */
int gs_rundir_path(const gs_rundir *rd, const char *file, char *out, size_t n);
/* Names the kernel's phase `id` (see gs_phase_table.h): within a fixed phase id or -1,
 * role "wait", "prep", "mma" or NULL. */
int gs_rundir_phase(gs_rundir *rd, int id, const char *name, int within, const char *role, char *err,
                    size_t errlen);
/* One work unit (gs_units.h). */
int gs_rundir_unit(gs_rundir *rd, const gs_unit *u, char *err, size_t errlen);
/* One build's timed repetitions in run order, ms each ("production", "twin", "detail", or an
 * anchor's name).  Refuses values no timing produces (not finite, not positive). */
int gs_rundir_timing(gs_rundir *rd, const char *build, const double *ms, int reps, char *err, size_t errlen);
/* The twin's stamp buffers as the device wrote them (warp headers; per-warp segments of
 * `capacity` records): stamps.gss, and the stamp geometry in meta. */
int gs_rundir_stamps(gs_rundir *rd, double timer_tick_ns, uint32_t ctas, uint32_t warps_per_cta, uint32_t capacity,
                     const gs_warp_header *warps, const gs_record *records, char *err, size_t errlen);
/* The detail twin's stamps beside the twin's (stamps-detail.gss; a launch of its own): the
 * analyzers take the main loop's sub-phases from them and every other figure from stamps.gss.
 * The same timer tick as gs_rundir_stamps. */
int gs_rundir_stamps_detail(gs_rundir *rd, uint32_t ctas, uint32_t warps_per_cta, uint32_t capacity,
                            const gs_warp_header *warps, const gs_record *records, char *err, size_t errlen);
/* Checks that the run is whole (meta names subject, shape, variant and sm_count; timings
 * have production and twin; stamps were written; every unit's CTA is in the launch), writes
 * meta.txt, timings.tsv and units.tsv, and renames the folder into place.  On failure the
 * temporary folder stays until gs_rundir_abort.  Frees what the run held either way. */
int gs_rundir_commit(gs_rundir *rd, char *err, size_t errlen);
/* Removes the temporary folder and frees everything; safe after a failed commit. */
void gs_rundir_abort(gs_rundir *rd);

#ifdef __cplusplus
}
#endif

#endif
