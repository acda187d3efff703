/* libFuzzer: the run's copy of a kernel source (sources/k.cu.gz) replaced by the input, with a
 * pcsamp.tsv naming 64 of its lines, then the full analysis (the source's markers and device
 * functions give the samples their phases). */
#include "fuzz_run.h"
#include <zlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *run = fuzz_fixture_run();
    char path[256];
    snprintf(path, sizeof path, "%s/pcsamp.tsv", run);
    FILE *f = fopen(path, "w");
    if (!f)
        abort();
    fprintf(f, "# gemmscope-pcsamp 1\nfile\tline\treason\tsamples\n");
    for (int l = 1; l <= 64; l++)
        fprintf(f, "k.cu\t%d\tsmsp__pcsamp_warps_issue_stalled_%s\t%d\n", l, l % 3 ? "wait" : "barrier", l);
    fclose(f);
    snprintf(path, sizeof path, "%s/sources", run);
    mkdir(path, 0755);
    snprintf(path, sizeof path, "%s/sources/k.cu.gz", run);
    gzFile z = gzopen(path, "wb1");
    if (!z || (size && gzwrite(z, data, (unsigned)size) != (int)size) || gzclose(z) != Z_OK)
        abort();
    fuzz_analyse(run);
    return 0;
}
