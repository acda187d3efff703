/* Importing a Triton Proton intra-kernel trace (instrumentation backend, data="trace": the
 * <name>.chrome_trace file) as a gemmscope run directory, so that the analyzers read a
 * Triton kernel's scopes as they read the twin's stamps (docs/proton.md).
 *
 * What the trace gives per scope instance: the kernel's name, the CTA (linear block id), its
 * SM (%smid), the warp, the scope's name, its start in "ts" and its length in "dur".  Durations
 * are SM clock cycles divided by 1000; a CTA's start is its %globaltimer reading at kernel
 * entry (ns) after the earliest CTA's.  The import turns cycles into ns with a clock it is
 * told or that the trace's per-CTA end times give, and writes the records on a 1 GHz clock
 * (clk = ns) with warp pairs that say so; docs/proton.md has the whole conversion. */
#ifndef GS_PROTON_H
#define GS_PROTON_H

#include <stddef.h>

#define GS_PROTON_MAX_MAPS 64

typedef struct gs_proton_opts {
    const char *trace;                     /* the .chrome_trace file */
    const char *out;                       /* the run directory to write (must not exist) */
    const char *maps[GS_PROTON_MAX_MAPS];  /* "SCOPE=PHASE", see gs_proton_import */
    int n_maps;
    const char *timings;                   /* a gemmscope-timings file (production and twin rows) */
    const char *time_ms;                   /* production: "MS[,MS...]", a separate measurement */
    const char *twin_ms;                   /* the instrumented launch: "MS[,MS...]" */
    int sms;                               /* the GPU's SM count: the trace does not hold it */
    int ctas_per_sm;                       /* resident CTAs per SM where known, else 0 */
    double sm_clock_ghz;                   /* > 0: the SM clock to assume; 0: from the trace */
    double tick_ns;                        /* > 0: the globaltimer step; 0: inferred from the trace */
    double flops;                          /* > 0: the kernel's useful flops (speed, roofline) */
    const char *gpu;                       /* the device's name, or NULL */
    const char *variant;                   /* NULL: "proton" */
    const char *command;                   /* the command line, for meta.txt, or NULL */
} gs_proton_opts;

/* Reads o->trace and writes the run o->out through the library (gs_rundir_*): meta.txt,
 * timings.tsv, stamps.gss; nothing when it fails.  Scopes map to phases by name
 * (mainloop / main_loop -> MAINLOOP, acc_to_reg / drain -> ACC_TO_REG, epilogue, store,
 * prologue; any other name -> a phase of the run's own, inside MAINLOOP when every instance
 * lies inside one of its warp's MAINLOOP instances), and o->maps override that:
 * PHASE is MAINLOOP, ACC_TO_REG, EPILOGUE, STORE, PROLOGUE, own, own:wait|prep|mma (a
 * sub-phase role) or skip.  0, or -1 with one line in err. */
int gs_proton_import(const gs_proton_opts *o, char *err, size_t errlen);

#endif
