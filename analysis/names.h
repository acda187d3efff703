/* Printable names of phases and roles, as reports and summary.json spell them. */
#ifndef GS_NAMES_H
#define GS_NAMES_H

#include "../instrument/gs_format.h"

const char *gs_phase_name(int phase);
const char *gs_role_name(int role);
/* Phase id for a name, or -1. */
int gs_phase_from_name(const char *name);
/* The four phases every report leads with, in pipeline order. */
int gs_phase_is_top(int phase);
/* SM-time categories: phase names, then "resident" and "idle" (analysis/smtime.h). */
const char *gs_smt_category_name(int c);

#endif
