/* assert_float_equal as these tests mean it: compared in double precision, and a NaN on either
 * side fails.  cmocka 1.1.5's casts both sides to float and fails only when their distance
 * exceeds epsilon, a comparison that is false for a NaN: a figure that turned into NaN passed.
 * Include after <cmocka.h>. */
#ifndef GS_TEST_NEAR_H
#define GS_TEST_NEAR_H

#include <math.h>

#undef assert_float_equal
#define assert_float_equal(a, e, eps) gs_assert_near((double)(a), (double)(e), (double)(eps), #a, __FILE__, __LINE__)

static inline void gs_assert_near(double a, double e, double eps, const char *what, const char *file, int line)
{
    if (!(fabs(a - e) <= eps)) { /* false for a NaN on either side, as for a distance over eps */
        print_error("%s is %.17g, expected %.17g within %g\n", what, a, e, eps);
        _fail(file, line);
    }
}

#endif
