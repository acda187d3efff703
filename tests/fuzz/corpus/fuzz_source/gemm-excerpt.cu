    uint32_t j;               /* stages consumed so far, the CTA's (PINGPONG: both warpgroups') */
    uint32_t xs;              /* GATE 1: exchanges so far (the exchange barriers' phases) */
    int uw;                   /* the warpgroup among those that share a unit (PINGPONG: 0, else cw) */
};

/* Where a consumer thread's two weight rows (row, row + 8) of one matrix lie in a stage: `row`
 * among its raw weight rows, `band_row` in the 128-row band of its scale atoms, `sf` the
 * offset of those atoms (the dual GEMM's B2 has its own rows and atoms). */
struct wrow {
    int row, band_row;
    uint32_t sf;
};

/* This thread's rows of matrix b (GATE 2: 0 = B1, 1 = B2) in the tile at weight row w0.
 * GATE 0: row 64 cw + ... of the tile.  GATE 1: the same rows, the B2 warpgroup's (rows
 * 64..127 of the stage) with B2's atoms.  GATE 2: B2's rows TILE_W further on. */
template <class Cfg> __device__ __forceinline__ wrow weight_rows(const consumer_ctx &cc, int w0, int b)
{
    const int row = 64 * cc.uw + 16 * cc.wq + (cc.lane >> 2);
    if constexpr (Cfg::GATE == 1)
        return {row, (w0 & 127) + (row & 63), (uint32_t)cc.cw * (uint32_t)smem_plan<Cfg>::SF_ATOMS};
    else if constexpr (Cfg::GATE == 2)
        return {row + b * Cfg::TILE_W, (w0 & 127) + row, (uint32_t)b * (uint32_t)smem_plan<Cfg>::SF_ATOMS};
    else
        return {row, (w0 & 127) + row, 0u}; /* run_tile builds this one itself (the same code as before the knob) */
}

/* Dequantises the rows w of the stage at st (already landed) into the fragments a. */
template <class Cfg>
__device__ __forceinline__ void dequant_rows(uint32_t (&a)[8][4], const consumer_ctx &cc, uint32_t st, const wrow &w,
                                             gs_ctx &gs)
{
    using L = smem_plan<Cfg>;
    GS_SUB_BEGIN(gs, NVFP4_DEQUANT);
    dequant_weight_stage(a, st + L::o_w, st + L::o_sf + w.sf, w.row, w.band_row, cc.lane & 3);
    GS_SUB_END(gs, NVFP4_DEQUANT);
}

/* Waits for stage j's data and dequantises its weights into the fragments a. */
template <class Cfg>
__device__ __forceinline__ void fetch_stage(uint32_t (&a)[8][4], const consumer_ctx &cc, uint32_t j, const wrow &w,
                                            gs_ctx &gs)
{
    using L = smem_plan<Cfg>;
    const uint32_t slot = j % Cfg::STAGES;
    const uint32_t st = cc.sm_base + slot * L::STAGE;
    GS_SUB_BEGIN(gs, NVFP4_LOAD_WAIT);
    mbar_wait(L::full_bar(cc.sm_base, slot), (j / Cfg::STAGES) & 1);
    GS_SUB_END(gs, NVFP4_LOAD_WAIT);
    dequant_rows<Cfg>(a, cc, st, w, gs);
}

/* The eight wgmmas of a stage whose token slabs start at tok, one commit group. */
template <int N, class Cfg>
__device__ __forceinline__ void issue_stage(float (&acc)[N / 2], const uint32_t (&a)[8][4], uint32_t tok)
{
    wgmma_fence();
#pragma unroll
    for (int s = 0; s < 8; s++)
        wgmma_rs_step<N>(acc, a[s], tok, smem_plan<Cfg>::T_SLAB, s);
    wgmma_commit();
}

/* This thread is done with stage j's slot.  Every consumer thread releases the slot itself:
 * an arrival orders only its own thread's reads of the slot before the producer's next bulk
 * copy into it (one lane arriving for its warp after __syncwarp left the other lanes' scale
 * reads unordered for compute-sanitizer's racecheck). */
template <class Cfg> __device__ __forceinline__ void release_slot(const consumer_ctx &cc, uint32_t j)
{
    mbar_arrive(smem_plan<Cfg>::empty_bar(cc.sm_base, j % Cfg::STAGES));
}
