#!/bin/bash
# Nsight Compute on the NVFP4 GEMM as every comparison with it runs it: cupti-check --ncu
# (the production point of SHAPE, the set-up of our collector's passes before each launch),
# ncu --clock-control none on the GEMM's kernel, past cupti-check's 5 warm-up launches, REPS
# launches profiled, CSV in base units on stdout.  NCU_OPTIONs go to ncu (e.g. --replay-mode
# application --cache-control none), the words after -- to cupti-check (e.g. --no-pdl).
# usage: scripts/ncu-gemm.sh SHAPE REPS METRICS [NCU_OPTION ...] [-- CUPTI_CHECK_OPTION ...]
set -u -o pipefail
[ $# -ge 3 ] || { echo "usage: ncu-gemm.sh SHAPE REPS METRICS [NCU_OPTION ...] [-- CUPTI_CHECK_OPTION ...]" >&2; exit 2; }
shape=$1 reps=$2 metrics=$3
shift 3
ncu_opts=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do
    ncu_opts+=("$1")
    shift
done
[ $# -gt 0 ] && shift # the --
exec ncu --clock-control none "${ncu_opts[@]}" -k regex:nvfp4_gemm_kernel_prod --launch-skip 5 \
    --launch-count "$reps" --metrics "$metrics" --csv --print-units base \
    build/cupti-check --ncu --metric-reps "$reps" --shape "$shape" "$@"
