/* The parts of the NVFP4 grouped GEMM's subject (subject_nvfp4.c) that the gated dual GEMM's
 * subject (subject_dual.c) runs too: the same kernel, problem object and checks. */
#ifndef GS_SUBJECT_NVFP4_H
#define GS_SUBJECT_NVFP4_H

#include "subject.h"
#include "nvfp4/nvfp4.h"

typedef struct nvfp4_ctx {
    nvfp4_problem *p;
    const nvfp4_variant *v;
    nvfp4_shape shape;
    int detail_too; /* the detail twin's stamps recorded beside the twin's */
} nvfp4_ctx;

/* gs_subject_run's callbacks on an nvfp4_ctx (nvfp4_launch and friends; verify checks every
 * build the run times on poisoned outputs and writes check.<build>.* and `correct`). */
int nvfp4_subject_launch(void *ctx, int build, gs_buffer b, cudaStream_t s);
int nvfp4_subject_prepare(void *ctx, cudaStream_t s);
int nvfp4_subject_launch_alone(void *ctx, cudaStream_t s);
int nvfp4_subject_verify(void *ctx, gs_meta *meta, gs_buffer stamps, cudaStream_t s);
void nvfp4_subject_close(void *ctx);

/* The main loop's sub-phases in the run: LOAD_WAIT (wait), DEQUANT (prep), MMA (mma). */
int nvfp4_subject_name_phases(gs_rundir *rd);
/* v's schedule on sh as the run's units (the kernel's GS_TILE tag is the unit's index), `gemms`
 * GEMMs per unit (the dual GEMM: 2) in its flops, `what` the units.what text; *computed gets
 * the flops the tiles compute, padding included.  0, or -1 with a message on stderr. */
int nvfp4_subject_write_units(const nvfp4_variant *v, const nvfp4_shape *sh, int sms, int gemms, const char *what,
                              gs_rundir *rd, double *computed);
/* The stamp geometry of v on the ctx's shape into run (twin, and the detail twin's records
 * when a->detail), with the launch geometry keys; 0, or -1 with a message on stderr. */
int nvfp4_subject_geometry(nvfp4_ctx *c, const gs_record_args *a, gs_subject_run *run, gs_meta *meta);

#endif
