/* tests/near.h, the assert_float_equal every test here uses: a NaN on either side fails, and so
 * does a distance that only float precision would hide; within epsilon passes.  Each case runs
 * the assertion in a child process of its own (a failed assertion ends a cmocka test), its
 * output discarded, and reads the child's exit status. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "near.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static double child_a, child_e, child_eps;

static void child_case(void **state)
{
    (void)state;
    assert_float_equal(child_a, child_e, child_eps);
}

/* 0 when the assertion held in the child, 1 when it failed, -1 when the child did not end */
static int near_in_child(double a, double e, double eps)
{
    fflush(stdout);
    fflush(stderr);
    const pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        const int null = open("/dev/null", O_WRONLY);
        if (null >= 0)
            dup2(null, 1), dup2(null, 2);
        child_a = a, child_e = e, child_eps = eps;
        const struct CMUnitTest t[] = {cmocka_unit_test(child_case)};
        _exit(cmocka_run_group_tests_name("near (child)", t, NULL, NULL) ? 1 : 0);
    }
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void a_nan_fails(void **state)
{
    (void)state;
    assert_int_equal(near_in_child(NAN, 1800, 1), 1);
    assert_int_equal(near_in_child(1800, NAN, 1), 1);
}

/* 1 + 1e-8 is 1 as a float: cmocka's own comparison passed it */
static void compared_in_double(void **state)
{
    (void)state;
    assert_int_equal(near_in_child(1 + 1e-8, 1, 1e-9), 1);
    assert_int_equal(near_in_child(1 + 1e-10, 1, 1e-9), 0);
}

static void epsilon_bounds_the_distance(void **state)
{
    (void)state;
    assert_int_equal(near_in_child(1800.5, 1800, 1), 0);
    assert_int_equal(near_in_child(1799.5, 1800, 1), 0);
    assert_int_equal(near_in_child(1802, 1800, 1), 1);
    assert_int_equal(near_in_child(-INFINITY, 1800, 1), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_nan_fails),
        cmocka_unit_test(compared_in_double),
        cmocka_unit_test(epsilon_bounds_the_distance),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
