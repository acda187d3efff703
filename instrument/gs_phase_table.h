/* The names of a run's phases.  The five fixed phases (gs_format.h) are named by the
 * format; the kernel's own ids are named by the run that recorded them, in meta.txt:
 *
 *   phase.<id>.name   = LOAD_WAIT   letters A-Z, digits and '_', at most 31
 *   phase.<id>.within = MAINLOOP    a fixed phase it nests inside; absent: a phase of its own
 *   phase.<id>.role   = wait        what a sub-phase of the main loop does (below); optional
 *
 * Analyses refer to fixed phases by id, to the kernel's by role or by the run's names
 * (docs/run-directory.md). */
#ifndef GS_PHASE_TABLE_H
#define GS_PHASE_TABLE_H

#include <stddef.h>
#include "gs_format.h"
#include "gs_run.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a sub-phase of the main loop does, for rules that hold for any kernel. */
typedef enum gs_phase_role {
    GS_PROLE_NONE = 0,
    GS_PROLE_WAIT = 1, /* waiting for operands to arrive (loads, a producer's signal) */
    GS_PROLE_PREP = 2, /* CUDA-core work on the operands (dequantisation, conversion, scaling) */
    GS_PROLE_MMA = 3,  /* the tensor-core work */
    GS_NUM_PROLES = 4
} gs_phase_role;

#define GS_PHASE_NAME_MAX 32

typedef struct gs_phase_info {
    char name[GS_PHASE_NAME_MAX];
    int named;  /* fixed, or named by the run (else the placeholder PHASE<id>) */
    int within; /* -1 a phase of its own; else the fixed phase it nests inside */
    gs_phase_role role;
} gs_phase_info;

typedef struct gs_phase_table {
    gs_phase_info p[GS_NUM_PHASES];
} gs_phase_table;

/* The fixed phases; the kernel's ids unnamed (PHASE5 ...), each a phase of its own. */
void gs_phase_table_init(gs_phase_table *t);
/* Names kernel phase `id` (GS_NUM_FIXED_PHASES <= id < GS_NUM_PHASES); within: a fixed phase
 * id or -1; role: "", "wait", "prep" or "mma" (NULL: none).  -1 with one line in err on a bad
 * id, name, parent or role, or a name already taken. */
int gs_phase_table_name(gs_phase_table *t, int id, const char *name, int within, const char *role, char *err,
                        size_t errlen);
/* The table a run's meta.txt declares; -1 with the key at fault in err. */
int gs_phase_table_from_meta(gs_phase_table *t, const gs_meta *m, char *err, size_t errlen);
/* The declarations of the named kernel phases into meta (phase.<id>.* keys). */
int gs_phase_table_to_meta(const gs_phase_table *t, gs_meta *m);

const char *gs_phase_name(const gs_phase_table *t, int phase);
/* Id of the phase so named in t, or -1. */
int gs_phase_find(const gs_phase_table *t, const char *name);
/* A phase that nests inside another (a sub-phase): not a phase of SM-time on its own. */
int gs_phase_is_sub(const gs_phase_table *t, int phase);
/* The four pipeline phases every report leads with (MAINLOOP ... STORE). */
int gs_phase_is_pipeline(int phase);
/* The sub-phases of the main loop (ids in `out`, at most GS_NUM_PHASES); their count. */
int gs_phase_main_subs(const gs_phase_table *t, int *out);

const char *gs_prole_name(gs_phase_role r);
/* The role so named, or -1. */
int gs_prole_from_name(const char *name);

const char *gs_role_name(int warp_role); /* warp roles of gs_format.h: all, producer, ... */

#ifdef __cplusplus
}
#endif

#endif
