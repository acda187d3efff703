/* The launch sequence: the kernels one timed launch runs before its main kernel (the
 * NVFP4 token pre-pass before the GEMM, which may start early as a programmatic dependent
 * launch), from kernel records {start, end, name}.  Pure C, no CUPTI: the Activity
 * collector (gs_cupti_activity.c) feeds it, the tests feed it synthetic records.
 *
 * Rule: in start order, every record between two consecutive main records (name contains
 * the main substring) belongs to the following main record's launch; records before the
 * first main record belong to the first, records after the last one to none.  Records
 * whose name contains GS_SEQ_IGNORE (an L2 flush done by a kernel) are skipped: the
 * recorder flushes with a memset, which has no kernel record, but a flush kernel must not
 * pass for a kernel of the launch. */
#ifndef GS_SEQUENCE_H
#define GS_SEQUENCE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GS_SEQ_IGNORE "gs_l2_flush"
/* Kernels before the main one whose figures are kept (the first ones, in start order). */
#define GS_SEQ_MAX_BEFORE 4
#define GS_SEQ_NAME_LEN 256

typedef struct gs_seq_rec {
    uint64_t start, end; /* ns, one clock */
    const char *name;    /* demangled or raw, as the source gives it; identity is this string */
} gs_seq_rec;

/* One launch: its main kernel and the kernels before it. */
typedef struct gs_seq_launch {
    int before;                         /* kernels before the main one (all of them) */
    int name_id[GS_SEQ_MAX_BEFORE];     /* index into gs_sequence.names, first `before` (at most 4) */
    double span_ms;                     /* main end - earliest start of the launch's records */
    double time_ms[GS_SEQ_MAX_BEFORE];  /* end - start of kernel i */
    double gap_ms[GS_SEQ_MAX_BEFORE];   /* main start - end of kernel i: < 0 when the main kernel started first */
} gs_seq_launch;

typedef struct gs_sequence {
    int launches;          /* main records (launches), in start order */
    gs_seq_launch *per;    /* launches entries; owned */
    double *scratch;       /* room for one value per launch (the medians); owned */
    int nnames;
    char **names;          /* distinct raw names of the kernels before; owned */
    /* Medians over the launches of the most common shape (count of kernels before the
     * main one, and their names): set by gs_sequence_summarise. */
    int kernels;           /* that count (0: the main kernel runs alone) */
    int shown;             /* min(kernels, GS_SEQ_MAX_BEFORE): entries of the arrays below */
    int used;              /* launches of that shape */
    int mismatched;        /* launches - used */
    double span_ms;
    char name[GS_SEQ_MAX_BEFORE][GS_SEQ_NAME_LEN]; /* short names (gs_kernel_short_name) */
    double time_ms[GS_SEQ_MAX_BEFORE];
    double gap_ms[GS_SEQ_MAX_BEFORE];
} gs_sequence;

/* Splits recs (n records sorted by start) into launches at the records whose name contains
 * main_substring (NULL or "": every record is a main one) and summarises them.  0, or -1
 * out of memory (out is then empty). */
int gs_sequence_build(const gs_seq_rec *recs, size_t n, const char *main_substring, gs_sequence *out);
/* Forgets the first k launches (the warm-up) and summarises again. */
void gs_sequence_drop_first(gs_sequence *s, int k);
/* Recomputes the medians from s->per (gs_sequence_build and drop_first call it). */
void gs_sequence_summarise(gs_sequence *s);
void gs_sequence_free(gs_sequence *s);

/* The kernel's qualified name without return type, template arguments or parameters:
 * "void (anonymous namespace)::k<3>(p)" -> "(anonymous namespace)::k"; mangled names
 * ("_Z...") are read as far as their name: "_ZN12_GLOBAL__N_11kE..." ->
 * "(anonymous namespace)::k".  Anything else is kept as is. */
void gs_kernel_short_name(const char *name, char *out, size_t n);

#ifdef __cplusplus
}
#endif
#endif
