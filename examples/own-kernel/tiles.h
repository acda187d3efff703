/* Index math of own-gemm, shared by the kernel, the host program (units and stamp sizing) and
 * the host self-check, which runs the kernel's fragment addressing against the PTX layouts of
 * ldmatrix and mma.sync (selfcheck.c). */
#ifndef OG_TILES_H
#define OG_TILES_H

#include "own_gemm.h"

#ifdef __CUDACC__
#define OG_HD static __host__ __device__ __forceinline__
#else
#define OG_HD static inline
#endif

/* ---- the schedule ---- */

OG_HD int og_tiles(int m, int n) { return (m / OG_BM) * (n / OG_BN); }

/* Tiles are numbered row block by row block: CTAs that run at the same time share rows of A. */
OG_HD int og_tile_row(int tile, int n) { return tile / (n / OG_BN) * OG_BM; }
OG_HD int og_tile_col(int tile, int n) { return tile % (n / OG_BN) * OG_BN; }

/* One CTA per SM, fewer when there are fewer tiles. */
OG_HD int og_grid(int tiles, int sms) { return tiles < sms ? tiles : sms; }

/* CTA c runs tiles c, c + grid, ... */
OG_HD int og_tile_cta(int tile, int grid) { return tile % grid; }
OG_HD int og_cta_tiles(int cta, int tiles, int grid) { return (tiles - cta + grid - 1) / grid; }

/* ---- the consumer warps ---- */

/* A consumer warp computes 32 rows x 64 columns of the tile: warpgroup warp / 4 takes 64 rows,
 * inside it warp bit 0 picks the 32-row half and bit 1 the 64-column half. */
OG_HD int og_warp_row(int warp) { return (warp >> 2) * 64 + (warp & 1) * 32; }
OG_HD int og_warp_col(int warp) { return (warp >> 1 & 1) * 64; }

/* The first warp of each warpgroup records the per-K-block sub-phases (detail twin). */
OG_HD int og_sub_warp(int warp) { return (warp & 3) == 0; }

/* Records a consumer warp writes per tile: MAINLOOP, EPILOGUE, STORE, and with the sub-phases
 * WAIT and MMA per K block. */
OG_HD int og_records_per_tile(int kblocks, int sub) { return 3 + (sub ? 2 * kblocks : 0); }

/* ---- fragments (PTX ISA: ldmatrix, mma.m16n8k16 with .f16 operands) ----
 * ldmatrix .x4: lanes 8i .. 8i + 7 give the row addresses of 8x8 matrix i, and register i of
 * lane l receives row l / 4, columns 2 (l % 4) and 2 (l % 4) + 1 of matrix i. */

/* Byte offset in a stage's A block of the row lane `lane` addresses for the A fragment of the
 * 16 rows from `row` and the 16 K columns of step kk: matrices (rows 0-7, k 0-7), (rows 8-15,
 * k 0-7), (rows 0-7, k 8-15), (rows 8-15, k 8-15) are registers a0..a3 of mma.m16n8k16. */
OG_HD uint32_t og_a_frag_offset(int lane, int row, int kk)
{
    const int mat = lane >> 3, r = row + (lane & 7) + (mat & 1) * 8, k = kk * 16 + (mat >> 1) * 8;
    return (uint32_t)(r * OG_ROW_PITCH + 2 * k);
}

/* The same for B (rows are N, K contiguous: the "col" operand), two n8 tiles from column `col`:
 * matrices (n 0-7, k 0-7), (n 0-7, k 8-15) are b0, b1 of the first n8 tile, (n 8-15, k 0-7),
 * (n 8-15, k 8-15) b0, b1 of the second. */
OG_HD uint32_t og_b_frag_offset(int lane, int col, int kk)
{
    const int mat = lane >> 3, n = col + (lane & 7) + (mat >> 1) * 8, k = kk * 16 + (mat & 1) * 8;
    return (uint32_t)(n * OG_ROW_PITCH + 2 * k);
}

/* Row and column in the 16 x 8 tile of accumulator register i (0..3) of lane `lane`. */
OG_HD int og_acc_row(int lane, int i) { return (lane >> 2) + (i >> 1) * 8; }
OG_HD int og_acc_col(int lane, int i) { return (lane & 3) * 2 + (i & 1); }

#endif
