/* gs_proton_import where gemmscope was built without jansson (the Makefile picks this file
 * when <jansson.h> is missing): the command says what to install. */
#include "proton.h"

#include <stdio.h>

int gs_proton_import(const gs_proton_opts *o, char *err, size_t errlen)
{
    (void)o;
    snprintf(err, errlen, "this gemmscope was built without jansson: install libjansson-dev, then make");
    return -1;
}
