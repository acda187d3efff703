/* libFuzzer: an Nsight Compute CSV as ncu-compare reads it, against a fixed file of ours
 * (the program's own main, renamed, on the two files). */
#include "fuzz_run.h"
#define main ncu_compare_main
#include "instrument/ncu_compare.c"
#undef main

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char ours[128], ncu[128];
    if (!ours[0]) {
        snprintf(ours, sizeof ours, "%s/ours.txt", fuzz_scratch());
        snprintf(ncu, sizeof ncu, "%s/ncu.csv", fuzz_scratch());
        const char text[] = "metric default gpu__time_duration.sum 100000\n"
                            "metric sol sm__throughput.avg.pct_of_peak_sustained_elapsed 50\n"
                            "metric probe-read dram__bytes_read.sum 1e9 gs_probe_read\n"
                            "truth probe-read dram__bytes_read.sum 9e8 1.1e9\n";
        fuzz_write(ours, (const uint8_t *)text, sizeof text - 1);
    }
    fuzz_write(ncu, data, size);
    char *argv[] = {"ncu-compare", ours, ncu, NULL};
    ncu_compare_main(3, argv);
    return 0;
}
