/* The work units of a run (units.tsv, docs/run-directory.md): what each GS_TILE tag of the
 * kernel stands for, written by whoever launched the kernel (it knows its schedule), so
 * that no analyzer rebuilds a kernel's schedule.  A unit is one main loop's work: a whole
 * tile, or a part of a tile that the schedule split along K. */
#ifndef GS_UNITS_H
#define GS_UNITS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GS_UNITS_VERSION 1
#define GS_MAX_UNITS 65536 /* the 16-bit tile tag */

typedef struct gs_unit {
    uint32_t unit;   /* the tile tag the kernel stamps (GS_TILE) */
    uint32_t cta;    /* the CTA that runs it */
    uint32_t group;  /* the group tag it is stamped with */
    uint32_t width;  /* the columns its main loop computes (the MMA's N: tile or fitted width) */
    uint32_t k0, k1; /* its K blocks, [k0, k1) */
    uint32_t parts;  /* the parts its tile was cut into along K (1: a whole tile) */
    double flops;    /* what its main loop computes, padding included */
} gs_unit;

typedef struct gs_units {
    size_t n, cap;
    gs_unit *u;
    uint8_t *given; /* GS_MAX_UNITS bits: the tags added */
} gs_units;

/* 0, or -1 with the reason in err (a value no schedule produces: k0 >= k1, width or parts 0,
 * flops not finite and positive, a unit tag of 16 bits or more, a tag given twice). */
int gs_units_add(gs_units *us, const gs_unit *u, char *err, size_t errlen);
int gs_units_write(const gs_units *us, const char *path, char *err, size_t errlen);
/* Reads path; a missing file is a run without units (n = 0, returns 0).  -1 with
 * "path:line: reason" in err on anything else that is not a units file. */
int gs_units_read(gs_units *us, const char *path, char *err, size_t errlen);
void gs_units_free(gs_units *us);

#ifdef __cplusplus
}
#endif

#endif
