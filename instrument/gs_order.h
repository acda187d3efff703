/* The order in which gs_time_interleaved runs its n launch functions in each repetition
 * (pure C, no CUDA: tests/test_timing_order.c checks it).  A fixed order lets a function's
 * position, and what ran just before it, bias its time: production's own code in the twin's
 * slot read 4.5% faster than production on one shape in the fixed order, 0.8% in this one
 * (docs/notebook/2026-12-03-twin-ablation.md, which also names the bias an order cannot
 * remove).  So the repetitions cycle through a
 * Williams design: over every `gs_order_rows(n)` repetitions each function runs at each
 * position equally often and follows each other function, inside a repetition, equally often
 * (once each for even n, twice for odd n). */
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

#endif
