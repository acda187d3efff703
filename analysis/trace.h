/* Perfetto-compatible trace (Chrome JSON trace format, docs/trace.md):
 * one process per SM, one thread per (resident-CTA slot, warp) named by its
 * role, a complete slice per phase instance with CTA/tile/group/warp in its
 * arguments, and an instant wherever a warp dropped records. */
#ifndef GS_TRACE_H
#define GS_TRACE_H

#include "run.h"

int gs_trace_write(const gs_rundata *r, const char *path, char *err, size_t errlen);

#endif
