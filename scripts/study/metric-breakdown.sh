#!/bin/bash
# A throughput metric taken apart, ours beside Nsight Compute's: ncu collects
# breakdown:METRIC on SHAPE's production launches (scripts/ncu-gemm.sh, ncu's default cache
# control), the sub-metric names come from its CSV, cupti-check --metrics collects the same
# names, and ncu-compare sets them side by side.  ROUNDS alternate ours and ncu's (each its
# own process); ncu-compare pools them.  GPU and ncu required.
# GS_BREAKDOWN_NCU adds options to ncu (e.g. "--replay-mode application"); GS_BREAKDOWN_DIR
# names the output folder.
# usage: scripts/study/metric-breakdown.sh SHAPE METRIC [ROUNDS [REPS]]
#   e.g. scripts/study/metric-breakdown.sh g2k4096 lts__throughput.avg.pct_of_peak_sustained_elapsed 2
# writes reports/breakdown/<SHAPE>/ or GS_BREAKDOWN_DIR (ncu-R.csv, ours-R.txt, compare.txt)
set -u -o pipefail
[ $# -ge 2 ] || { echo "usage: metric-breakdown.sh SHAPE METRIC [ROUNDS [REPS]]" >&2; exit 2; }
shape=$1 metric=$2 rounds=${3:-2} reps=${4:-9}
dir=${GS_BREAKDOWN_DIR:-reports/breakdown/$shape}
read -ra ncu_opts <<<"${GS_BREAKDOWN_NCU:-}"
mkdir -p "$dir"
rm -f "$dir"/*
pairs=()
for r in $(seq "$rounds"); do
    scripts/ncu-gemm.sh "$shape" "$reps" "breakdown:$metric,$metric" "${ncu_opts[@]}" >"$dir/ncu-$r.csv" 2>&1 ||
        { echo "metric-breakdown: ncu failed (see $dir/ncu-$r.csv)" >&2; exit 1; }
    names=$(build/ncu-compare --names "$dir/ncu-$r.csv") || exit 1
    echo "round $r: $(tr ',' '\n' <<<"$names" | wc -l) metrics"
    build/cupti-check --shape "$shape" --metric-reps "$reps" --metrics "$names" >"$dir/ours-$r.txt" 2>&1 ||
        { echo "metric-breakdown: cupti-check failed (see $dir/ours-$r.txt)" >&2; exit 1; }
    pairs+=("$dir/ours-$r.txt" "$dir/ncu-$r.csv")
done
build/ncu-compare "${pairs[@]}" | tee "$dir/compare.txt"
