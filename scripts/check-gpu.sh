#!/bin/sh
# `make check-gpu`: known-answer checks on the GPU.  Records the calibration
# subjects and checks what the analyzer recovers; prints a table and a final
# 'N passed, N failed' line.  GS_CHECK_ROOT chooses where the runs go.
set -u
root=${GS_CHECK_ROOT:-reports/check-gpu}
gs=build/gemmscope
if ! scripts/has-gpu.sh; then
    echo "gemmscope: check-gpu needs a CUDA GPU (nvidia-smi lists none)" >&2
    exit 1
fi
mkdir -p "$root"
runs=""
for s in calib release; do
    if $gs record SHAPE=$s --root "$root" >"$root/$s.log" 2>&1; then
        runs="$runs $root/$s/default/latest"
    else
        echo "gemmscope: recording $s failed:" >&2
        cat "$root/$s.log" >&2
        runs="$runs $root/$s/default/missing"
    fi
done
$gs check $runs
