/* The CUPTI figures of a run (meta.txt keys metric.*, kernel.*, cupti.*,
 * collector.*): the seed-style first line, the metrics table, resources and
 * theoretical occupancy. */
#ifndef GS_HWMETRICS_H
#define GS_HWMETRICS_H

#include "run.h"

/* Writes "<ms> ms / <TFLOP/s> TFLOPS, <regs> regs, <spill> spills. L1 tex at a%, L2 at b%, DRAM at c%."
 * (percentages with the sol set, bytes with the default set); returns 0 if anything was known. */
int gs_seed_line(const gs_rundata *r, char *buf, size_t len);

/* Theoretical resident CTAs per SM from registers, shared memory, threads and
 * the block limit (NaN-free: 0 when unknown); *limiter names the binding one. */
int gs_theoretical_ctas(const gs_rundata *r, const char **limiter);

/* Markdown: collectors, resources, metrics table with units, and the launch sequence
 * (cupti.sequence_kernels, cupti.before.<i>.*) when recorded. */
void gs_hwmetrics_markdown(const gs_rundata *r, gs_buf *b);

/* JSON fields: regs, spill_bytes, smem_bytes, occupancy, metrics{}, collectors{}, cupti durations,
 * launch_sequence{} when recorded. */
/* Markdown: stall reasons overall and per phase (nothing when not sampled). */
void gs_stalls_markdown(const gs_rundata *r, gs_buf *b);
/* The twin's PC samples against production's, by reason (pcsamp-twin.tsv; nothing without it). */
void gs_twin_stalls_markdown(const gs_rundata *r, gs_buf *b);

struct gs_json;
void gs_hwmetrics_json(const gs_rundata *r, struct gs_json *j);

#endif
