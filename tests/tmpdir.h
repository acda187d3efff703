/* A scratch folder per test program, made in the group setup and removed in
 * the group teardown. */
#ifndef GS_TMPDIR_H
#define GS_TMPDIR_H

#include <stdio.h>
#include <stdlib.h>

char *mkdtemp(char *tmpl);

static char dir[64];

static int tmpdir_setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/gemmscope-test-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int tmpdir_teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd);
}

#endif
