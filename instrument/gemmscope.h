/* gemmscope's library for programs of your own (docs/library.md): time the production build
 * and the twin of your kernel the toolkit's way, take the twin's stamps, measure the
 * ceilings, and write a run directory that `gemmscope report` reads.  Host code; the kernel
 * side is gs_stamp.cuh.  Link with -lgemmscope -lcublas -lcudart. */
#ifndef GEMMSCOPE_H
#define GEMMSCOPE_H

#include "gs_format.h"
#include "gs_run.h"
#include "gs_phase_table.h"
#include "gs_units.h"
#include "gs_rundir.h"
#include "gs_stamps.h"
#include "gs_timing.h"
#include "gs_device.h"
#include "gs_ceilings.h"

#endif
