// Study: the %globaltimer's update step on this GPU, with and without a CUPTI-free process.
#include <cstdio>
#include <cstdint>
__global__ void k(uint64_t *out, int n)
{
    uint64_t prev, g;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(prev));
    int i = 0;
    while (i < n) {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g));
        if (g != prev) { out[i++] = g - prev; prev = g; }
    }
}
int main()
{
    const int n = 4096;
    uint64_t *d, h[n];
    if (cudaMalloc(&d, n * 8) != cudaSuccess) return 1;
    k<<<1, 1>>>(d, n);
    if (cudaMemcpy(h, d, n * 8, cudaMemcpyDeviceToHost) != cudaSuccess) return 1;
    uint64_t mn = ~0ull, mx = 0, sum = 0;
    for (int i = 1; i < n; i++) { mn = h[i] < mn ? h[i] : mn; mx = h[i] > mx ? h[i] : mx; sum += h[i]; }
    printf("globaltimer step: min %llu max %llu mean %.1f ns over %d steps\n", (unsigned long long)mn,
           (unsigned long long)mx, (double)sum / (n - 1), n - 1);
    return 0;
}
