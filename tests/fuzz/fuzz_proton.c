/* libFuzzer: a Proton chrome trace imported (analysis/proton.c), with the clock from the trace
 * and, where the trace has none, an assumed one; every run the import writes then goes through
 * the full analysis.  The import must refuse bad traces with an error, never crash or leave a
 * half-written run. */
#include "fuzz_run.h"
#include "analysis/proton.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void remove_run(const char *run)
{
    nftw(run, fuzz_unlink, 16, FTW_DEPTH | FTW_PHYS);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char trace[128], run[128], err[1024];
    snprintf(trace, sizeof trace, "%s/gemm.chrome_trace", fuzz_scratch());
    snprintf(run, sizeof run, "%s/proton-run", fuzz_scratch());
    fuzz_write(trace, data, size);
    const double clocks[] = {0, 1.755};
    for (int i = 0; i < 2; i++) {
        remove_run(run);
        gs_proton_opts o = {.trace = trace, .out = run, .sms = 132, .time_ms = "0.0201,0.0199", .sm_clock_ghz = clocks[i]};
        if (gs_proton_import(&o, err, sizeof err) == 0) {
            fuzz_analyse(run);
            break;
        }
        struct stat st;
        if (stat(run, &st) == 0) /* a refused import leaves nothing behind */
            abort();
    }
    remove_run(run);
    return 0;
}
