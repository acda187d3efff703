#!/bin/bash
# The production points' no-spill flags must fail a build that spills, and pass one that does not:
# one kernel compiled with them twice: 64 accumulators live through a loop, under a 32-register
# cap (__maxnreg__(32): it spills) and with registers to spare (it does not).
# usage: tests/no-spill.sh NVCC ARCH NO_SPILL_FLAGS
set -u
nvcc=$1 arch=$2 flags=$3
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
cat >"$dir/k.cu" <<'CU'
__global__ void BOUNDS many(const float *in, float *out, int n)
{
    float acc[64];
#pragma unroll
    for (int i = 0; i < 64; i++)
        acc[i] = 0.0f;
    for (int k = 0; k < n; k++) {
        const float x = in[k * 128 + threadIdx.x];
#pragma unroll
        for (int i = 0; i < 64; i++)
            acc[i] = fmaf(acc[i], x, (float)i);
    }
#pragma unroll
    for (int i = 0; i < 64; i++)
        out[i * 128 + threadIdx.x] = acc[i];
}
CU
pass=0 fail=0
# shellcheck disable=SC2086 # the flags are words
if "$nvcc" $arch $flags "-DBOUNDS=__maxnreg__(32)" -c "$dir/k.cu" -o "$dir/k.o" >"$dir/spill.log" 2>&1; then
    echo "FAIL: a kernel that spills built under '$flags'"; fail=$((fail + 1))
elif ! grep -q "spill" "$dir/spill.log"; then
    echo "FAIL: the build failed, but not on a spill:"; cat "$dir/spill.log"; fail=$((fail + 1))
else
    echo "pass: a spilling kernel is refused"; pass=$((pass + 1))
fi
# shellcheck disable=SC2086
if "$nvcc" $arch $flags -DBOUNDS= -c "$dir/k.cu" -o "$dir/k.o" >"$dir/ok.log" 2>&1; then
    echo "pass: the same kernel with registers to spare builds"; pass=$((pass + 1))
else
    echo "FAIL: a kernel that does not spill was refused:"; cat "$dir/ok.log"; fail=$((fail + 1))
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
