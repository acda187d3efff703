__device__ __forceinline__ float helper(float x)
{
    return x * 2.0f;
}
__global__ void k(float *p)
{
    GS_BEGIN(gs, GS_MAINLOOP);
    p[0] = helper(p[1]);
    GS_BEGIN(gs, MYK_LOAD_WAIT);
    while (p[2] == 0) {}
    GS_END(gs, MYK_LOAD_WAIT);
    GS_END(gs, GS_MAINLOOP);
    GS_BEGIN(gs, GS_EPILOGUE);
    p[3] = 1.0f;
    GS_END(gs, GS_EPILOGUE);
    p[4] = 0.0f;
}
