/* What a run records of the device it ran on: name, compute capability, SMs and the
 * attributes the analyzers read (docs/run-directory.md, meta.txt), the CUDA driver and
 * runtime versions, and the date. */
#ifndef GS_DEVICE_H
#define GS_DEVICE_H

#include "gs_run.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes the device's keys into m; *sm_count gets its SMs (may be NULL).  0, or -1 with a
 * message on stderr. */
int gs_device_meta(gs_meta *m, int device, int *sm_count);

#ifdef __cplusplus
}
#endif

#endif
