/* libFuzzer: a proposals file (docs/proposals.md) parsed, then every proposal it holds
 * decided and written as an evidence page on the fixture run. */
#include "fuzz_run.h"
#include "analysis/evidence.h"
#include "analysis/proposals.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static gs_rundata r;
    static int loaded;
    static gs_proposals ps;
    char err[1024];
    if (!loaded) {
        if (gs_rundata_load(&r, fuzz_fixture_run(), GS_NEED_ALL, err, sizeof err))
            abort();
        loaded = 1;
    }
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = 0;
    if (gs_proposals_parse(text, "fuzz.txt", &ps, err, sizeof err) == 0)
        for (int i = 0; i < ps.n; i++) {
            gs_buf b = {0};
            gs_evidence_write(&ps.p[i], &r, NULL, 0, &b, err, sizeof err);
            gs_buf_free(&b);
        }
    free(text);
    return 0;
}
