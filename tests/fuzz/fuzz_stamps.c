/* libFuzzer: the stamp file of a whole run replaced by the input, then the full analysis. */
#include "fuzz_run.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *run = fuzz_fixture_run();
    char path[256];
    snprintf(path, sizeof path, "%s/stamps.gss", run);
    fuzz_write(path, data, size);
    fuzz_analyse(run);
    return 0;
}
