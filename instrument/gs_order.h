/* The order in which gs_time_interleaved runs its n launch functions (pure C, no CUDA:
 * tests/test_timing_order.c checks it).  Two things bias a function's time besides its own
 * code: its position, and what ran just before it.  With one fixed order, production's own code
 * in the twin's slot read 4.5% faster than production on one shape; with the repetitions in a
 * balanced order, still 0.970-1.022 on some shapes, because every call then found another
 * kernel's code in the SMs' instruction caches (an L2 flush does not reach them).  So each
 * function runs GS_ORDER_BLOCK repetitions back to back (every call but a block's first finds
 * its own code there, as in a loop of launches; the null twin then reads 0.998-1.003), and the
 * blocks cycle through a Williams design: over every `gs_order_rows(n)` blocks each function
 * runs at each position equally often and follows each other function, inside a round of
 * blocks, equally often (once each for even n, twice for odd n).
 * docs/notebook/2026-12-03-twin-ablation.md, docs/notebook/2026-12-03-slot-bias.md. */
#ifndef GS_ORDER_H
#define GS_ORDER_H

/* Repetitions after which the design repeats: n for even n, 2n for odd n (the rows and their
 * mirror images). */
static inline int gs_order_rows(int n)
{
    return n % 2 ? 2 * n : n;
}

/* The function that runs at position j (0 <= j < n) of repetition rep.  Row 0 is
 * 0, n-1, 1, n-2, 2, ...; row r adds r (mod n); for odd n rows n..2n-1 are rows 0..n-1
 * reversed. */
static inline int gs_order_at(int n, unsigned rep, int j)
{
    const unsigned r = rep % (unsigned)gs_order_rows(n);
    const int jj = r >= (unsigned)n ? n - 1 - j : j;
    const int base = jj % 2 == 0 ? jj / 2 : n - (jj + 1) / 2;
    return (base + (int)(r % (unsigned)n)) % n;
}

/* Repetitions a function runs back to back before the next function's turn. */
#define GS_ORDER_BLOCK 10

/* The launch schedule of reps repetitions of n functions in blocks of blk (blk >= 1): call t
 * (0 <= t < n * reps) runs function fn[t] for its repetition rep[t].  Block b holds repetitions
 * b*blk .. min((b+1)*blk, reps)-1; in block b the functions take their turns in the order of
 * design row b (gs_order_at), each running the block's repetitions back to back. */
static inline void gs_order_schedule(int n, int reps, int blk, int *fn, int *rep)
{
    int t = 0;
    for (int b = 0; b * blk < reps; b++) {
        const int first = b * blk, last = first + blk < reps ? first + blk : reps;
        for (int j = 0; j < n; j++) {
            const int k = gs_order_at(n, (unsigned)b, j);
            for (int i = first; i < last; i++, t++) {
                fn[t] = k;
                rep[t] = i;
            }
        }
    }
}

#endif
