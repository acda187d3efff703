/* gemmscope subjects | shapes SUBJECT | variants SUBJECT [SHAPE]: the subjects live in the
 * recorder (kernels/subjects.c), which lists them; this program knows none by name. */
#define _POSIX_C_SOURCE 200809L
#include "builtin.h"

#include <string.h>

int cmd_subjects(int argc, char **argv)
{
    (void)argv;
    if (argc != 0)
        return gs_die("usage: gemmscope subjects");
    const char *args[] = {"--subjects", NULL};
    const int rc = gs_run_recorder(args);
    return rc < 0 ? 1 : rc;
}

int cmd_shapes(int argc, char **argv)
{
    if (argc != 1 || argv[0][0] == '-')
        return gs_die("usage: gemmscope shapes SUBJECT (`gemmscope subjects` lists them)");
    const char *args[] = {"--shapes", argv[0], NULL};
    const int rc = gs_run_recorder(args);
    return rc < 0 ? 1 : rc;
}

int cmd_variants(int argc, char **argv)
{
    if (argc < 1 || argc > 2 || argv[0][0] == '-')
        return gs_die("usage: gemmscope variants SUBJECT [SHAPE] (`gemmscope subjects` lists them)");
    const char *args[] = {"--variants", argv[0], argc == 2 ? "--shape" : NULL, argc == 2 ? argv[1] : NULL, NULL};
    const int rc = gs_run_recorder(args);
    return rc < 0 ? 1 : rc;
}
