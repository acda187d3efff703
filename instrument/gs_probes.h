/* Clock probes of a run (probes.tsv, docs/run-directory.md): (clock64, %globaltimer, clock64)
 * read back to back by the kernel at moments of its own, which the clock model never sees, so
 * that where the model places those clocks can be checked against the timer (a known answer
 * for the clock model; the clock calibration subject writes them). */
#ifndef GS_PROBES_H
#define GS_PROBES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GS_PROBES_VERSION 1

typedef struct gs_probe {
    uint32_t cta;
    uint64_t clk_before, gt, clk_after;
} gs_probe;

typedef struct gs_probes {
    size_t n, cap;
    gs_probe *p;
} gs_probes;

/* 0, or -1 with the reason (clk_after before clk_before, a bracket over a million cycles). */
int gs_probes_add(gs_probes *ps, const gs_probe *p, char *err, size_t errlen);
int gs_probes_write(const gs_probes *ps, const char *path, char *err, size_t errlen);
/* A missing file: no probes (n = 0, returns 0); anything else that is no probes file: -1
 * with "path:line: reason" in err. */
int gs_probes_read(gs_probes *ps, const char *path, char *err, size_t errlen);
void gs_probes_free(gs_probes *ps);

#ifdef __cplusplus
}
#endif

#endif
