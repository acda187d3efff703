#!/bin/bash
# A past study (runs at this commit).
# Does the twin lose its time to instruction fetch?  Runs Nsight Compute over nvfp4-bench
# binaries (each shape's production point, whose production and twin launches it
# interleaves) and collects, per launch, the duration, the SM instruction cache's requests
# and misses and the warps' stalls waiting for instructions; then the median of each metric
# per binary, shape and build (prod, twin) into DIR/summary.tsv.  GPU and ncu required.
# GS_ICACHE_METRICS replaces the metric list; GS_ICACHE_LAUNCHES (default 16) is how many
# GEMM launches ncu profiles per binary and shape, after GS_ICACHE_SKIP (default 6).
# usage: scripts/study/icache-study.sh SHAPES NAME=BINARY [NAME=BINARY ...]   (SHAPES: a,b,..)
# writes reports/icache/<NAME>-<shape>.csv (ncu's) and reports/icache/summary.tsv; exits 1 if any ncu run failed
set -u -o pipefail
[ $# -ge 2 ] || { echo "usage: icache-study.sh SHAPES NAME=BINARY [NAME=BINARY ...]" >&2; exit 2; }
m=${GS_ICACHE_METRICS:-gpu__time_duration.sum,sm__icc_requests.sum,sm__icc_requests_lookup_miss.sum,smsp__warps_issue_stalled_no_instruction.sum,smsp__warps_issue_stalled_imc_miss.sum,smsp__warps_issue_stalled_branch_resolving.sum,smsp__inst_executed.sum,smsp__warps_active.sum}
shapes=$1
shift
dir=reports/icache
mkdir -p "$dir"
rm -f "$dir"/*.csv "$dir"/summary.tsv
failed=0
for nb in "$@"; do
    [[ $nb =~ ^[A-Za-z0-9_-]+=.+ ]] || { echo "icache-study: '$nb' is not NAME=BINARY" >&2; exit 2; }
    name=${nb%%=*} bin=${nb#*=}
    for shape in ${shapes//,/ }; do
        echo "-- $name ($bin), $shape"
        ncu --clock-control none -k regex:'nvfp4_gemm_kernel_(prod|twin)' --launch-skip "${GS_ICACHE_SKIP:-6}" \
            --launch-count "${GS_ICACHE_LAUNCHES:-16}" --metrics "$m" --csv --print-units base \
            "$bin" --shapes "$shape" --variants default --reps 20 >"$dir/$name-$shape.csv.tmp" 2>&1 ||
            { echo "icache-study: ncu failed on $name $shape (its output: $dir/$name-$shape.csv)"; failed=1; }
        mv "$dir/$name-$shape.csv.tmp" "$dir/$name-$shape.csv"
    done
done
# medians per (binary, shape, build, metric); the CSV's fields are quoted, names hold commas
for f in "$dir"/*.csv; do
    b=$(basename "$f" .csv)
    awk -v tag="$b" '/^"[0-9]+","/ {
        line = substr($0, 2, length($0) - 2); n = split(line, x, "\",\"")
        kind = x[5] ~ /_twin/ ? "twin" : (x[5] ~ /_prod/ ? "prod" : "")
        gsub(",", "", x[n])
        if (kind != "" && x[n] ~ /^[0-9.e+-]+$/) print tag "\t" kind "\t" x[n - 2] "\t" x[n]
    }' "$f"
done | sort -t$'\t' -k1,1 -k2,2 -k3,3 -k4,4g | awk -F'\t' '
function flush() { if (n) printf "%s\t%s\t%s\t%s\t%d\n", k1, k2, k3, n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2, n; n = 0 }
BEGIN { print "binary-shape\tbuild\tmetric\tmedian\tlaunches" }
{ if ($1 != k1 || $2 != k2 || $3 != k3) { flush(); k1 = $1; k2 = $2; k3 = $3 } v[++n] = $4 }
END { flush() }' >"$dir/summary.tsv.tmp" && mv "$dir/summary.tsv.tmp" "$dir/summary.tsv"
cat "$dir/summary.tsv"
exit $failed
