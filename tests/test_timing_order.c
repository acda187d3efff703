/* The order of gs_time_interleaved's repetitions (instrument/gs_order.h): over one cycle of
 * the design every function runs at every position equally often and follows every other
 * function, inside a repetition, equally often.  The checker is also fed the fixed order the
 * timing loop used before, which it must refuse. */
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(design_balanced),
        cmocka_unit_test(design_pairs_once_or_twice),
        cmocka_unit_test(fixed_and_rotated_orders_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
