/* Uses every stamp macro around one ordinary store, so test_ptx can check
 * that the production build keeps that store and nothing else. */
#include "instrument/gs_stamp.cuh"

__global__ void GS_SYM(probe_kernel)(float *out, gs_buffer b)
{
    gs_ctx gs;
    GS_INIT(gs, b, GS_ROLE_CONSUMER);
    GS_SET_ROLE(gs, GS_ROLE_EPILOGUE);
    GS_TILE(gs, blockIdx.x, 0);
    for (int p = 0; p < 1; p++) {
        GS_BEGIN(gs, GS_MAINLOOP);
        GS_BEGIN(gs, GS_PHASE_OWN(0));
        GS_END(gs, GS_PHASE_OWN(0));
        GS_END(gs, GS_MAINLOOP);
        GS_BEGIN(gs, GS_STORE);
        out[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;
        GS_END(gs, GS_STORE);
    }
    GS_FINISH(gs);
}
