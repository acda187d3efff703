/* Proposal evidence pages (`gemmscope evidence`): (1) the claim, (2) the bound
 * the profile allows, (3) measured A/B results where the variant exists,
 * (4) the go / no-go decision from the proposal's own rules. */
#ifndef GS_EVIDENCE_H
#define GS_EVIDENCE_H

#include "proposals.h"

#define GS_MAX_AB 4

typedef struct gs_ab {
    const gs_rundata *off, *on; /* proposal switched off / on */
    char label[128];
} gs_ab;

/* 0, or -1 with err (a metric the rules name is unknown, or no rule matched). */
int gs_evidence_write(const gs_proposal *p, const gs_rundata *profile, const gs_ab *ab, int n_ab, gs_buf *out,
                      char *err, size_t errlen);

#endif
