/* A shape's inputs for a benchmark harness's timing (inputs.h). */
#include "inputs.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int nvfp4_anchor_create(nvfp4_problem *p, nvfp4_anchor *a)
{
    memset(a, 0, sizeof *a);
    if (!nvfp4_problem_is_dual(p)) {
        if (nvfp4_cublas_create(p, &a->one))
            return -1;
        a->routes = 1;
        a->fn[0] = nvfp4_cublas_launch, a->arg[0] = a->one;
        return 0;
    }
    if (nvfp4_dual_cublas_create(p, &a->dual))
        return -1;
    a->routes = 2;
    a->fn[0] = nvfp4_dual_cublas_launch_cat, a->arg[0] = a->dual;
    a->fn[1] = nvfp4_dual_cublas_launch_two, a->arg[1] = a->dual;
    return 0;
}

void nvfp4_anchor_destroy(nvfp4_anchor *a)
{
    nvfp4_cublas_destroy(a->one);
    nvfp4_dual_cublas_destroy(a->dual);
    memset(a, 0, sizeof *a);
}

int nvfp4_anchor_best(const nvfp4_anchor *a, const double *route_ms)
{
    int best = -1;
    for (int r = 0; r < a->routes; r++)
        if (!isnan(route_ms[r]) && (best < 0 || route_ms[r] < route_ms[best]))
            best = r;
    return best;
}

int nvfp4_inputs_create(nvfp4_inputs *in, const nvfp4_shape *s, nvfp4_dist d, uint64_t seed, int n,
                        nvfp4_problem *first, int anchors)
{
    memset(in, 0, sizeof *in);
    if (n < 1 || n > NVFP4_MAX_INPUTS)
        return -1;
    in->borrowed = first != NULL;
    in->p[0] = first;
    for (int i = first ? 1 : 0; i < n; i++)
        if (nvfp4_problem_create(s, d, seed + (uint64_t)i, &in->p[i])) {
            nvfp4_inputs_destroy(in);
            return -1;
        }
    in->n = n;
    in->anchored = anchors;
    for (int i = 0; i < n && in->anchored; i++)
        in->anchored = nvfp4_anchor_create(in->p[i], &in->an[i]) == 0;
    if (anchors && !in->anchored) {
        fprintf(stderr, "nvfp4: %s: no cuBLAS anchor for one of its %d inputs\n", s->name, n);
        for (int i = 0; i < n; i++)
            nvfp4_anchor_destroy(&in->an[i]);
    }
    return 0;
}

void nvfp4_inputs_destroy(nvfp4_inputs *in)
{
    for (int i = 0; i < NVFP4_MAX_INPUTS; i++) {
        nvfp4_anchor_destroy(&in->an[i]);
        if (in->p[i] && !(i == 0 && in->borrowed))
            nvfp4_problem_destroy(in->p[i]);
    }
    memset(in, 0, sizeof *in);
}

int nvfp4_inputs_check(nvfp4_inputs *in, const nvfp4_variant *v, cudaStream_t s)
{
    gs_buffer none;
    memset(&none, 0, sizeof none);
    int all = 1;
    for (int i = 0; i < in->n; i++) {
        nvfp4_check chk;
        memset(&chk, 0, sizeof chk);
        if (nvfp4_problem_poison(in->p[i], s) || nvfp4_launch(v, NVFP4_PROD, in->p[i], none, s) ||
            nvfp4_problem_verify(in->p[i], &chk))
            return -1;
        all = all && nvfp4_check_ok(&chk);
    }
    return all;
}

void nvfp4_inputs_anchor_batch(const nvfp4_inputs *in, int r, gs_batch *b)
{
    memset(b, 0, sizeof *b);
    b->fn = in->an[0].fn[r];
    b->n = in->n;
    for (int i = 0; i < in->n; i++)
        b->args[i] = in->an[i].arg[r];
}
