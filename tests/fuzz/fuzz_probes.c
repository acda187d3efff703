/* libFuzzer: probes.tsv (clock probes) of a whole run replaced by the input, then the full
 * analysis with its checks. */
#include "fuzz_run.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *run = fuzz_fixture_run();
    char path[256];
    snprintf(path, sizeof path, "%s/probes.tsv", run);
    fuzz_write(path, data, size);
    fuzz_analyse(run);
    return 0;
}
