/* A test's whole text file (a report, a plot script) in one static buffer, at most 64 KB;
 * include after <cmocka.h>.  The buffer is reused by the next call. */
#ifndef GS_TEST_SLURP_H
#define GS_TEST_SLURP_H

#include <stdio.h>

static const char *slurp(const char *path)
{
    static char text[1 << 16];
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    const size_t n = fread(text, 1, sizeof text - 1, f);
    assert_true(n < sizeof text - 1); /* a file this long would be cut: make the buffer larger */
    text[n] = 0;
    fclose(f);
    return text;
}

#endif
