/* The order of gs_time_interleaved's calls (instrument/gs_order.h): over one cycle of the
 * design every function runs at every position equally often and follows every other function,
 * inside a round, equally often; the schedule runs each repetition of each function once, in
 * blocks of one function's repetitions back to back, the blocks in the design's order.  The
 * checkers are also fed the orders the timing loop used before (one fixed order; every
 * repetition interleaved) and a schedule with the blocks in one fixed order, which they must
 * refuse. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "instrument/gs_order.h"

#define MAX_N 9

typedef int (*order_fn)(int n, unsigned rep, int j);

static int fixed_order(int n, unsigned rep, int j)
{
    (void)n, (void)rep;
    return j;
}

/* Rotation: every position, but the same function before each (but at the wrap). */
static int rotated_order(int n, unsigned rep, int j)
{
    return (int)((unsigned)j + rep) % n;
}

/* 1 when reps repetitions of order are permutations, with every function rows/n times at every
 * position and every ordered pair of two functions adjacent equally often. */
static int balanced(order_fn order, int n, int reps)
{
    int at[MAX_N][MAX_N], after[MAX_N][MAX_N];
    memset(at, 0, sizeof at);
    memset(after, 0, sizeof after);
    for (int r = 0; r < reps; r++) {
        int seen[MAX_N] = {0};
        for (int j = 0; j < n; j++) {
            const int k = order(n, (unsigned)r, j);
            if (k < 0 || k >= n || seen[k]++)
                return 0;
            at[k][j]++;
            if (j > 0)
                after[order(n, (unsigned)r, j - 1)][k]++;
        }
    }
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++) {
            if (at[a][b] != reps / n)
                return 0;
            if (a != b && after[a][b] != after[n > 1 ? 0 : a][n > 1 ? 1 : b])
                return 0;
        }
    return 1;
}

static void design_balanced(void **state)
{
    (void)state;
    for (int n = 1; n <= MAX_N; n++) {
        const int rows = gs_order_rows(n);
        assert_int_equal(rows, n % 2 ? 2 * n : n);
        assert_true(balanced(gs_order_at, n, rows));
        assert_true(balanced(gs_order_at, n, 5 * rows)); /* and so every whole cycle */
    }
}

static void design_pairs_once_or_twice(void **state)
{
    (void)state;
    /* n = 4: rows 0 3 1 2, 1 0 2 3, 2 1 3 0, 3 2 0 1 */
    const int want[4][4] = {{0, 3, 1, 2}, {1, 0, 2, 3}, {2, 1, 3, 0}, {3, 2, 0, 1}};
    for (int r = 0; r < 4; r++)
        for (int j = 0; j < 4; j++)
            assert_int_equal(gs_order_at(4, (unsigned)r, j), want[r][j]);
    /* n = 3: rows 0 2 1, 1 0 2, 2 1 0, then the same reversed */
    const int want3[6][3] = {{0, 2, 1}, {1, 0, 2}, {2, 1, 0}, {1, 2, 0}, {2, 0, 1}, {0, 1, 2}};
    for (int r = 0; r < 6; r++)
        for (int j = 0; j < 3; j++)
            assert_int_equal(gs_order_at(3, (unsigned)r, j), want3[r][j]);
    assert_int_equal(gs_order_at(3, 6u, 1), want3[0][1]); /* the cycle repeats */
}

static void fixed_and_rotated_orders_refused(void **state)
{
    (void)state;
    for (int n = 2; n <= MAX_N; n++) {
        assert_false(balanced(fixed_order, n, gs_order_rows(n)));
        if (n > 2) /* for two functions a rotation is the design */
            assert_false(balanced(rotated_order, n, gs_order_rows(n)));
    }
}

#define MAX_REPS 100

/* Call t runs function fn[t]'s repetition rep[t]; 1 when every (function, repetition) runs
 * once, each function's repetitions run in blocks of blk back to back (the last block may be
 * short), and block b's functions take their turns in the design's row b. */
static int blocked_schedule(const int *fn, const int *rep, int n, int reps, int blk)
{
    static int seen[MAX_N][MAX_REPS];
    memset(seen, 0, sizeof seen);
    for (int t = 0; t < n * reps; t++) {
        if (fn[t] < 0 || fn[t] >= n || rep[t] < 0 || rep[t] >= reps || seen[fn[t]][rep[t]]++)
            return 0;
        const int b = rep[t] / blk, first = b * blk, len = first + blk < reps ? blk : reps - first;
        const int turn = (t - first * n) / len; /* the turn this call is in, within block b */
        if (t < first * n || turn >= n || fn[t] != gs_order_at(n, (unsigned)b, turn) ||
            rep[t] != first + (t - first * n) % len)
            return 0;
    }
    return 1;
}

/* The share of calls that follow a call of the same function (what finds its code warm). */
static double own_predecessor_share(const int *fn, int calls)
{
    int own = 0;
    for (int t = 1; t < calls; t++)
        own += fn[t] == fn[t - 1];
    return (double)own / calls;
}

static void schedule_blocks_in_design_order(void **state)
{
    (void)state;
    static int fn[MAX_N * MAX_REPS], rep[MAX_N * MAX_REPS];
    const int reps_cases[] = {100, 95, 9, 1, 10};
    for (int n = 1; n <= MAX_N; n++)
        for (size_t c = 0; c < sizeof reps_cases / sizeof *reps_cases; c++) {
            const int reps = reps_cases[c];
            gs_order_schedule(n, reps, GS_ORDER_BLOCK, fn, rep);
            assert_true(blocked_schedule(fn, rep, n, reps, GS_ORDER_BLOCK));
        }
    /* 5 functions, 100 repetitions: 10 blocks (one design cycle), 9 of 10 calls after their own */
    gs_order_schedule(5, 100, GS_ORDER_BLOCK, fn, rep);
    assert_true(own_predecessor_share(fn, 500) >= 0.89);
    /* block 1 of n = 4 is design row 1 (1 0 2 3): function 1's repetitions 10..19 first */
    gs_order_schedule(4, 100, GS_ORDER_BLOCK, fn, rep);
    assert_int_equal(fn[40], 1);
    assert_int_equal(rep[40], 10);
    assert_int_equal(fn[49], 1);
    assert_int_equal(rep[49], 19);
    assert_int_equal(fn[50], 0);
    assert_int_equal(rep[50], 10);
}

static void interleaved_and_fixed_block_schedules_refused(void **state)
{
    (void)state;
    static int fn[MAX_N * MAX_REPS], rep[MAX_N * MAX_REPS];
    const int n = 5, reps = 100;
    /* every repetition interleaved (blocks of one): no call finds its own code */
    gs_order_schedule(n, reps, 1, fn, rep);
    assert_false(blocked_schedule(fn, rep, n, reps, GS_ORDER_BLOCK));
    assert_true(own_predecessor_share(fn, n * reps) < 0.05);
    /* the blocks in one fixed order: refused */
    gs_order_schedule(n, reps, GS_ORDER_BLOCK, fn, rep);
    for (int t = 0; t < n * reps; t++) {
        const int b = rep[t] / GS_ORDER_BLOCK, turn = (t - b * GS_ORDER_BLOCK * n) / GS_ORDER_BLOCK;
        fn[t] = turn;
    }
    assert_false(blocked_schedule(fn, rep, n, reps, GS_ORDER_BLOCK));
    /* a repetition run twice, another never: refused */
    gs_order_schedule(n, reps, GS_ORDER_BLOCK, fn, rep);
    rep[3] = rep[4];
    assert_false(blocked_schedule(fn, rep, n, reps, GS_ORDER_BLOCK));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(design_balanced),
        cmocka_unit_test(design_pairs_once_or_twice),
        cmocka_unit_test(fixed_and_rotated_orders_refused),
        cmocka_unit_test(schedule_blocks_in_design_order),
        cmocka_unit_test(interleaved_and_fixed_block_schedules_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
