/* Warp roles: the run names ranges of each CTA's warps (meta.txt `warp_roles`,
 * `warp_role.<i>.name`, `warp_role.<i>.warps`; docs/run-directory.md), and each role gets the
 * phase statistics of its own warps: which warps' main loop or epilogue is the long one, where a
 * kernel gives its warps different jobs (a producer, one consumer per GEMM, ping-pong turns).
 * The analyzer knows only the ranges and names the run carries. */
#ifndef GS_WARPROLES_H
#define GS_WARPROLES_H

#include "../instrument/gs_run.h"
#include "phases.h"
#include "timeline.h"

#define GS_MAX_WARP_ROLES 32
#define GS_WARP_ROLE_NAME 64

typedef struct gs_warp_role {
    char name[GS_WARP_ROLE_NAME];
    unsigned first, last; /* warp indices in the CTA, inclusive */
    gs_phases ph;         /* its warps' records in the twin's stamps, the main loop's sub-phases
                           * from the detail twin's where the run has them (gs_phases_take_subs) */
    gs_phases ph_detail;  /* the detail twin's, after that swap (zeroed without one) */
    size_t warps_recording; /* warps of the role, over all CTAs, with at least one phase record */
} gs_warp_role;

typedef struct gs_warp_roles {
    int n; /* 0: the run names none */
    int computed;
    gs_warp_role role[GS_MAX_WARP_ROLES];
    size_t warps_outside; /* warps with phase records in no role, over all CTAs */
} gs_warp_roles;

/* Reads the roles from meta: 0 (n = 0 when the run names none), or -1 with one line in err for
 * a count, name or range no real run writes (not 1..32, empty, repeated, past warps_per_cta,
 * overlapping) or a warp_role.* key that is not one of the declared roles' two. */
int gs_warp_roles_parse(const gs_meta *m, unsigned warps_per_cta, gs_warp_roles *out, char *err, size_t errlen);
/* Each role's phases from tl (and the main loop's sub-phases from detail, may be NULL; names: the
 * run's phase table); -1 out of memory. */
int gs_warp_roles_compute(gs_warp_roles *wr, const gs_phase_table *names, const gs_timeline *tl,
                          const gs_timeline *detail);
void gs_warp_roles_free(gs_warp_roles *wr);

#endif
