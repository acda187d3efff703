#!/bin/bash
# How much does the GEMM's duration move from one process to the next, in our collector and
# under Nsight Compute?  Per shape, GS_SPREAD_ROUNDS rounds (default 6), each one process of
# ours (cupti-check --only-metrics) then one of ncu (its defaults, --clock-control none) on
# the same launch sequence, GS_SPREAD_REPS launches each (default 9).  Prints one line per
# round (both medians) and the pooled comparison (ncu-compare over all rounds).
# GPU and ncu required; run after 'make all'.
# usage: scripts/process-spread.sh [SHAPES...]   (default g2k1536 g2k4096)
set -u -o pipefail
m=gpu__time_duration.sum,gpc__cycles_elapsed.max
rounds=${GS_SPREAD_ROUNDS:-6} reps=${GS_SPREAD_REPS:-9}
dir=${GS_SPREAD_DIR:-reports/spread}
mkdir -p "$dir"
printf 'shape\tround\tours_us\tncu_us\tours_minus_ncu_pct\n' >"$dir/rounds.tsv"
for shape in ${*:-g2k1536 g2k4096}; do
    pairs=()
    for r in $(seq "$rounds"); do
        o=$dir/ours-$shape-$r.txt n=$dir/ncu-$shape-$r.csv
        build/cupti-check --shape "$shape" --metric-reps "$reps" --only-metrics "$m" >"$o" 2>&1
        ncu --clock-control none -k regex:nvfp4_gemm_kernel_prod --launch-skip 5 --launch-count "$reps" \
            --metrics "$m" --csv --print-units base \
            build/cupti-check --ncu --metric-reps "$reps" --shape "$shape" >"$n" 2>&1
        pairs+=("$o" "$n")
        build/ncu-compare "$o" "$n" | awk -v s="$shape" -v r="$r" '$1 == "gpu__time_duration.sum" {
            printf "%s\t%s\t%.3f\t%.3f\t%s\n", s, r, $3 / 1e3, $4 / 1e3, $5 }' | tee -a "$dir/rounds.tsv"
    done
    echo "-- $shape: all $rounds rounds pooled"
    build/ncu-compare "${pairs[@]}" | grep -vE "^metric "
done
