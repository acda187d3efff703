/* Phase stamps for CUDA kernels.
 *
 *   gs_ctx gs;                         // one per thread
 *   GS_INIT(gs, buf, GS_ROLE_ALL);     // first thing in the kernel (buf: gs_buffer param)
 *   GS_TILE(gs, tile, group);          // tags the records that follow
 *   GS_BEGIN(gs, GS_MAINLOOP); ...  GS_END(gs, GS_MAINLOOP);
 *   GS_BATCH_FLUSH(gs);                // stores the records the warp still holds (the twin
 *                                      // batches them), before a stretch it records nothing in
 *   GS_FINISH(gs);                     // last thing every warp does (lane 0 alone may, once
 *                                      // the whole warp has called GS_BATCH_FLUSH)
 *
 * Optional clock sampler (a spare warp follows the SM clock, see below):
 *   GS_CLOCK_INIT(worker_warps);       // with the kernel's barrier set-up, before __syncthreads
 *   GS_CLOCK_SAMPLER(gs);              // the spare warp, then its GS_FINISH
 *   GS_CLOCK_DONE(gs);                 // every worker warp, before its GS_FINISH
 *
 * Compiled with -DGS_TWIN=1 (the instrumented twin) GS_INIT and GS_FINISH take a
 * (%globaltimer, clock64) pair at a timer edge, GS_BEGIN/GS_END read clock64 and lane 0
 * of the warp stores a record; without it
 * every macro is empty and the kernel's PTX has no timer read and no stamp store.
 * Phase arguments must be compile-time constants: the begin clocks then live in
 * registers, never in local memory.  Call the macros warp-uniformly. */
#ifndef GS_STAMP_CUH
#define GS_STAMP_CUH

#include "gs_format.h"

/* Kernel and launcher names get a suffix per build, so every build links into one program:
 * GS_TWIN=1 is the twin (GS_BEGIN/GS_END stamps), GS_TWIN=2 the detail twin, which also
 * records the GS_SUB_BEGIN/GS_SUB_END stamps that hot loops use for their sub-phases. */
#if defined(GS_TWIN) && GS_TWIN >= 2
#define GS_SYM(name) name##_detail
#elif defined(GS_TWIN) && GS_TWIN
#define GS_SYM(name) name##_twin
#else
#define GS_SYM(name) name##_prod
#endif

#if defined(GS_TWIN) && GS_TWIN

/* The twin stamps once per phase of a tile, so a warp carries between stamps only what
 * cannot be recomputed: the consumer main loops of the NVFP4 GEMM use every register they
 * are allowed, and each register the twin held through them cost a spill (docs/method.md,
 * "Twin overhead").  Buffer fields are the kernel parameter's (constant-bank operands, no
 * register); the warp's slot, lane and SM are read again where a record is stored.  The
 * detail twin stamps inside the main loops, where reading them again at every stamp costs
 * more than holding them (GS_HOLD_SLOT). */
#define GS_HOLD_SLOT (GS_TWIN >= 2)
/* The twin (GS_TWIN=1) stores its records in batches: GS_END keeps a finished phase in
 * the registers of one lane (record i of the batch in lane i, with its tile tag: four
 * registers a lane, whatever the batch size) and the warp writes the whole batch with one
 * pair of 16-byte stores per lane at the next GS_TILE or GS_SET_ROLE (every record of a batch
 * has the same role), at GS_FINISH, or when 32 are pending.  A tile's four phase records then
 * cost one store instruction pair, one address computation and one branch instead of four of
 * each, off the phases themselves.  The batch is not kept across GS_TILE: its registers would
 * then stay live through every main loop (docs/notebook/2026-11-21-twin-overhead.md).  The
 * detail twin, whose per-stage stamps sit inside the main loops, stores each record at its
 * GS_END: a batch would stay live through the loops. */
#define GS_BATCH (!GS_HOLD_SLOT) /* the two go together */
struct gs_ctx {
    gs_buffer b;
    uint32_t n;                   /* records this warp tried to store */
    uint32_t tag;                 /* tile | group << 16, set by GS_TILE */
    uint32_t flags;               /* role | GS_CTX_SUB (this warp records GS_SUB_* stamps) */
    uint32_t clk0[GS_NUM_PHASES]; /* low 32 bits of clock64 at GS_BEGIN */
#if GS_HOLD_SLOT
    gs_record *seg; /* the warp's records */
    uint16_t sm;
    bool writer; /* lane 0 */
#else
    uint32_t pending;                       /* records in the batch (warp-uniform) */
    uint32_t p_clk0, p_dur, p_tag, p_phase; /* this lane's record of the batch: begin clock (low
                                             * 32 bits), clock64 duration, tag, phase */
#endif
};
#define GS_CTX_SUB 0x100u

__device__ __forceinline__ uint64_t gs_globaltimer(void)
{
    uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)::"memory");
    return t;
}

__device__ __forceinline__ uint64_t gs_clock(void)
{
    uint64_t c;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(c)::"memory");
    return c;
}

__device__ __forceinline__ uint32_t gs_smid(void)
{
    uint32_t s;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
    return s;
}

/* Special registers read where they are used (volatile: never hoisted to the kernel's start
 * and kept live through its loops). */
__device__ __forceinline__ uint32_t gs_lane(void)
{
    uint32_t l;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(l));
    return l;
}

/* Linear CTA index. */
__device__ __forceinline__ uint32_t gs_cta_index(void)
{
    uint32_t x, y, z, nx, ny;
    asm volatile("mov.u32 %0, %%ctaid.x;" : "=r"(x));
    asm volatile("mov.u32 %0, %%ctaid.y;" : "=r"(y));
    asm volatile("mov.u32 %0, %%ctaid.z;" : "=r"(z));
    asm volatile("mov.u32 %0, %%nctaid.x;" : "=r"(nx));
    asm volatile("mov.u32 %0, %%nctaid.y;" : "=r"(ny));
    return x + nx * (y + ny * z);
}

/* Warp index inside the CTA. */
__device__ __forceinline__ uint32_t gs_warp_index(void)
{
    uint32_t tid;
    asm volatile("mov.u32 %0, %%tid.x;" : "=r"(tid));
    return tid >> 5;
}

/* The calling warp's index in the buffer. */
__device__ __forceinline__ uint32_t gs_warp_slot(const gs_buffer &b)
{
    return gs_cta_index() * b.warps_per_cta + gs_warp_index();
}

/* A (globaltimer, clock64) pair at a timer tick edge.  The edge fell between the last read that
 * still saw the old value and the first that saw the new one, so its clock is the middle of the
 * clock64 reads around those two.  (The clock read after the new value alone came late by up to
 * one turn of the loop: up to 190 ns for a loading warp finishing beside busy consumers,
 * docs/notebook/2026-11-27-detail-stamps.md.) */
__device__ __forceinline__ void gs_edge_pair(uint64_t *gt, uint64_t *clk)
{
    uint64_t before = gs_clock(), g, after;
    const uint64_t g0 = gs_globaltimer();
    for (;;) {
        const uint64_t c = gs_clock();
        g = gs_globaltimer();
        after = gs_clock();
        if (g != g0)
            break;
        before = c;
    }
    *clk = before + (after - before) / 2;
    *gt = g;
}

__device__ __forceinline__ void gs_init(gs_ctx &c, const gs_buffer &b, uint8_t role)
{
    c.b = b;
    c.n = 0;
    c.tag = 0;
    c.flags = role | GS_CTX_SUB;
    const uint32_t cta = gs_cta_index(), warp = gs_warp_index(), slot = cta * b.warps_per_cta + warp;
#if GS_BATCH
    c.pending = c.p_clk0 = c.p_dur = c.p_tag = c.p_phase = 0;
#endif
#if GS_HOLD_SLOT
    c.seg = b.records + (uint64_t)slot * b.capacity;
    c.sm = (uint16_t)gs_smid();
    c.writer = gs_lane() == 0;
#endif
    if (gs_lane() == 0) {
        gs_warp_header *h = b.warps + slot;
        uint64_t gt, clk;
        gs_edge_pair(&gt, &clk);
        h->gt_start = gt;
        h->clk_start = clk;
        h->cta = cta;
        h->warp = (uint16_t)warp;
        h->sm = (uint16_t)gs_smid();
        h->flags = GS_WARP_STARTED;
    }
}

/* Records read clock64 alone: every read is work on the kernel's critical path (per-stage
 * stamps sit inside main loops), and the analyzers place every record from clk_begin
 * through the per-SM clock model of the warp headers' edge pairs and the clock sampler's
 * pairs (docs/method.md, "Clock model").  gt_begin and gt_dur
 * are written as 0 ("not sampled", docs/stamp-format.md).  The begin clock is kept as its
 * low 32 bits: a later clock64 less the 32-bit distance restores it exactly (phases and
 * batches are far shorter than 2^32 cycles). */
__device__ __forceinline__ gs_record gs_pack_record(uint64_t clk_begin, uint32_t dur, uint32_t tag, uint8_t phase,
                                                    uint8_t role, uint16_t sm)
{
    gs_record r;
    r.gt_begin = 0;
    r.clk_begin = clk_begin;
    r.clk_dur = dur;
    r.gt_dur = 0;
    r.tile = (uint16_t)tag;
    r.group = (uint16_t)(tag >> 16);
    r.phase = phase;
    r.role = role;
    r.sm = sm;
    return r;
}

__device__ __forceinline__ void gs_store_record(gs_record *dst, uint64_t clk_begin, uint32_t dur, uint32_t tag,
                                                uint8_t phase, uint8_t role, uint16_t sm)
{
    const gs_record r = gs_pack_record(clk_begin, dur, tag, phase, role, sm);
    /* two 16-byte stores */
    const uint4 *src = reinterpret_cast<const uint4 *>(&r);
    uint4 *d = reinterpret_cast<uint4 *>(dst);
    d[0] = src[0];
    d[1] = src[1];
}

#if GS_BATCH
/* Writes the pending batch: lane i stores record n - pending + i (records past the
 * capacity are counted, not stored). */
__device__ __forceinline__ void gs_flush(gs_ctx &c)
{
    if (c.pending == 0)
        return;
    const uint32_t lane = gs_lane(), idx = c.n - c.pending + lane;
    if (lane < c.pending && idx < c.b.capacity) {
        const uint64_t now = gs_clock();
        gs_record *const rec = c.b.records + (uint64_t)gs_warp_slot(c.b) * c.b.capacity + idx;
        const uint16_t sm = (uint16_t)gs_smid();
        gs_store_record(rec, now - (uint32_t)((uint32_t)now - c.p_clk0), c.p_dur, c.p_tag, (uint8_t)c.p_phase,
                        (uint8_t)c.flags, sm);
    }
    /* constants again: nothing of the batch stays live through the code that follows */
    c.pending = c.p_clk0 = c.p_dur = c.p_tag = c.p_phase = 0;
}

__device__ __forceinline__ void gs_end(gs_ctx &c, uint8_t phase, uint32_t clk0)
{
    const uint32_t dur = (uint32_t)gs_clock() - clk0;
    const bool mine = gs_lane() == c.pending;
    c.p_clk0 = mine ? clk0 : c.p_clk0;
    c.p_dur = mine ? dur : c.p_dur;
    c.p_tag = mine ? c.tag : c.p_tag;
    c.p_phase = mine ? phase : c.p_phase;
    c.n++;
    if (++c.pending == 32)
        gs_flush(c);
}
#else
/* The detail twin: lane 0 stores each record at its GS_END, `on` for the per-stage sub-phases
 * whether this warp records them.  Every warp reads both clocks and the stores are predicated:
 * a branch around them split the main loop's blocks, and ptxas then scheduled the dequantisation
 * less densely (docs/notebook/2026-11-27-detail-stamps.md).  Inline PTX: ptxas branched around
 * a plain `if`. */
__device__ __forceinline__ uint32_t gs_end_if(gs_ctx &c, uint8_t phase, uint32_t clk0, uint32_t on)
{
    const uint64_t clk1 = gs_clock();
    const uint32_t dur = (uint32_t)clk1 - clk0;
    const uint32_t store = on && c.writer && c.n < c.b.capacity;
    const gs_record r = gs_pack_record(clk1 - dur, dur, c.tag, phase, (uint8_t)c.flags, c.sm);
    const uint4 *src = reinterpret_cast<const uint4 *>(&r);
    const gs_record *dst = c.seg + (store ? c.n : 0u);
    asm volatile("{\n"
                 ".reg .pred p;\n"
                 "setp.ne.u32 p, %0, 0;\n"
                 "@p st.global.v4.u32 [%1], {%2, %3, %4, %5};\n"
                 "@p st.global.v4.u32 [%1+16], {%6, %7, %8, %9};\n"
                 "}\n" ::"r"(store),
                 "l"(dst), "r"(src[0].x), "r"(src[0].y), "r"(src[0].z), "r"(src[0].w), "r"(src[1].x), "r"(src[1].y),
                 "r"(src[1].z), "r"(src[1].w)
                 : "memory");
    c.n += on;
    return (uint32_t)clk1; /* GS_SUB_END_BEGIN's next begin */
}

__device__ __forceinline__ void gs_end(gs_ctx &c, uint8_t phase, uint32_t clk0)
{
    gs_end_if(c, phase, clk0, 1u);
}
#endif

__device__ __forceinline__ void gs_finish(gs_ctx &c)
{
#if GS_BATCH
    gs_flush(c);
#endif
    if (gs_lane() == 0) {
        gs_warp_header *h = c.b.warps + gs_warp_slot(c.b);
        uint64_t gt, clk;
        gs_edge_pair(&gt, &clk);
        h->gt_end = gt;
        h->clk_end = clk;
        h->events = c.n;
        h->flags = GS_WARP_STARTED | GS_WARP_FINISHED;
    }
}

/* ---- Clock sampler ----
 * The SM clock is not constant through a kernel: a power-limited GEMM starts near the boost
 * clock and settles lower, so a line through the warp headers' start and end pairs misplaces
 * records in between by hundreds of ns.  A warp with nothing else to do runs the sampler:
 * lane 0 stores a (%globaltimer, clock64) edge pair as a GS_CLOCK_PAIR record every
 * GS_CLOCK_PERIOD_NS until every worker warp has called GS_CLOCK_DONE, polling an mbarrier
 * with short sleeps in between (few issue slots taken from the workers; it sees the last
 * worker's arrival within a poll, so the CTA ends with its workers).  The analyzers interpolate between the
 * pairs (docs/method.md, "Clock model").  GS_CLOCK_INIT(workers) goes with the kernel's
 * other barrier initialisations, before the __syncthreads that follows them. */
static __shared__ uint64_t gs_clock_bar;

__device__ __forceinline__ uint32_t gs_clock_bar_addr(void)
{
    return (uint32_t)__cvta_generic_to_shared(&gs_clock_bar);
}

__device__ __forceinline__ void gs_clock_init(uint32_t workers)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(gs_clock_bar_addr()), "r"(workers) : "memory");
}

/* One arrival per worker warp (lane 0), after its last phase. */
__device__ __forceinline__ void gs_clock_done(void)
{
    if (gs_lane() == 0)
        asm volatile("{ .reg .b64 st; mbarrier.arrive.shared::cta.b64 st, [%0]; }" ::"r"(gs_clock_bar_addr())
                     : "memory");
}

/* Between samples the sampler polls with mbarrier.test_wait and sleeps GS_CLOCK_POLL_NS, so it
 * keeps to GS_CLOCK_PERIOD_NS (suspended in mbarrier.try_wait instead, it was woken after a time
 * of the hardware's own, about 4.5 us on the H100 whatever the hint: too sparse to follow the
 * clock).  The CTA ends up to a poll after its last worker: polls 4x sparser made the twin
 * slower, not faster; what the sampler costs is mostly its pairs (docs/method.md, "Twin overhead"). */
constexpr unsigned GS_CLOCK_POLL_NS = 64;

__device__ __forceinline__ uint32_t gs_clock_workers_done(void)
{
    uint32_t done;
    asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done)
                 : "r"(gs_clock_bar_addr())
                 : "memory");
    if (!done)
        __nanosleep(GS_CLOCK_POLL_NS);
    return done;
}

/* The sampler's pair: the globaltimer read that sees the tick change, bracketed by two clock64
 * reads.  The timer value was latched somewhere between them, so the pair's clock is the
 * bracket's middle and its width (stored as clk_dur) bounds the pair's error; a bracket wider
 * than GS_CLOCK_BRACKET_MAX cycles (the warp was held up between the reads) is refused. */
__device__ __forceinline__ bool gs_bracketed_edge_pair(uint64_t *gt, uint64_t *clk, uint32_t *width)
{
    const uint64_t g0 = gs_globaltimer();
    for (int i = 0; i < 256; i++) {
        const uint64_t c0 = gs_clock(), g = gs_globaltimer(), c1 = gs_clock();
        if (g != g0) {
            *gt = g;
            *width = (uint32_t)(c1 - c0);
            *clk = c0 + *width / 2;
            return *width <= GS_CLOCK_BRACKET_MAX;
        }
    }
    return false;
}

__device__ __forceinline__ void gs_clock_sampler(gs_ctx &c)
{
    if (gs_lane() != 0)
        return;
    gs_record *const seg = c.b.records + (uint64_t)gs_warp_slot(c.b) * c.b.capacity;
    const uint16_t sm = (uint16_t)gs_smid();
    const uint32_t cap = c.b.capacity < GS_CLOCK_SAMPLES ? c.b.capacity : GS_CLOCK_SAMPLES;
    uint64_t next = 0;
    /* the first pair before the first check (a CTA with no work still stores one) */
    int tries = 64;
    do {
        if (c.n < cap && gs_globaltimer() >= next) {
            uint64_t gt, clk;
            uint32_t width;
            bool ok = gs_bracketed_edge_pair(&gt, &clk, &width);
            while (!ok && c.n == 0 && --tries > 0)
                ok = gs_bracketed_edge_pair(&gt, &clk, &width);
            if (!ok)
                continue; /* try again at the next poll */
            gs_record r = {};
            r.gt_begin = gt;
            r.clk_begin = clk;
            r.clk_dur = width;
            r.phase = (uint8_t)GS_CLOCK_PAIR;
            r.role = (uint8_t)c.flags;
            r.sm = sm;
            seg[c.n++] = r;
            next = gt + GS_CLOCK_PERIOD_NS;
        }
    } while (!gs_clock_workers_done());
}

#define GS_INIT(c, buf, role) gs_init((c), (buf), (role))
#if GS_BATCH
#define GS_BATCH_FLUSH(c) gs_flush(c)
#else
#define GS_BATCH_FLUSH(c) ((void)(c))
#endif
#define GS_SET_ROLE(c, r) (GS_BATCH_FLUSH(c), (c).flags = ((c).flags & ~0xFFu) | (uint8_t)(r))
#define GS_TILE(c, t, g) (GS_BATCH_FLUSH(c), (c).tag = (uint32_t)(uint16_t)(t) | (uint32_t)(uint16_t)(g) << 16)
#define GS_FINISH(c) gs_finish(c)
#define GS_CLOCK_INIT(workers) gs_clock_init(workers)
#define GS_CLOCK_DONE(c) ((void)(c), gs_clock_done())
#define GS_CLOCK_SAMPLER(c) gs_clock_sampler(c)
#define GS_BEGIN(c, ph) ((void)((c).clk0[ph] = (uint32_t)gs_clock()))
#define GS_END(c, ph) gs_end((c), (uint8_t)(ph), (c).clk0[ph])
#if GS_TWIN >= 2
#define GS_SUB_ENABLE(c, on) ((c).flags = (on) ? (c).flags | GS_CTX_SUB : (c).flags & ~GS_CTX_SUB)
#define GS_SUB_BEGIN(c, ph) GS_BEGIN(c, ph)
#define GS_SUB_ON(c) (((c).flags & GS_CTX_SUB) ? 1u : 0u)
#define GS_SUB_END(c, ph) ((void)gs_end_if((c), (uint8_t)(ph), (c).clk0[ph], GS_SUB_ON(c)))
/* Ends sub-phase ph and begins nx at the same clock read: one read fewer where two sub-phases
 * follow each other (nx then also holds ph's record store, a few instructions) */
#define GS_SUB_END_BEGIN(c, ph, nx) ((c).clk0[nx] = gs_end_if((c), (uint8_t)(ph), (c).clk0[ph], GS_SUB_ON(c)))
#else
#define GS_SUB_ENABLE(c, on) ((void)(c), (void)(on))
#define GS_SUB_BEGIN(c, ph) ((void)(c))
#define GS_SUB_END(c, ph) ((void)(c))
#define GS_SUB_END_BEGIN(c, ph, nx) ((void)(c))
#endif

#else /* production build: nothing at all */

struct gs_ctx {
};
#define GS_INIT(c, buf, role) ((void)(c), (void)(buf), (void)(role))
#define GS_SET_ROLE(c, r) ((void)(c), (void)(r))
#define GS_TILE(c, t, g) ((void)(c), (void)(t), (void)(g))
#define GS_BEGIN(c, ph) ((void)(c))
#define GS_END(c, ph) ((void)(c))
#define GS_FINISH(c) ((void)(c))
#define GS_BATCH_FLUSH(c) ((void)(c))
#define GS_CLOCK_INIT(workers) ((void)(workers))
#define GS_CLOCK_DONE(c) ((void)(c))
#define GS_CLOCK_SAMPLER(c) ((void)(c))
#define GS_SUB_ENABLE(c, on) ((void)(c), (void)(on))
#define GS_SUB_BEGIN(c, ph) ((void)(c))
#define GS_SUB_END(c, ph) ((void)(c))
#define GS_SUB_END_BEGIN(c, ph, nx) ((void)(c))

#endif
#endif
