#!/bin/bash
# A past study: needs cupti-check --evict and --only-metrics, removed since: run at commit 16da9bf
# (there it is scripts/process-spread.sh).
# How much does the GEMM's duration move from one process to the next, in our collector and
# under Nsight Compute?  Per shape, GS_SPREAD_ROUNDS rounds (default 6), each one process of
# ours per set-up of GS_SPREAD_EVICT (cupti-check --evict values, default "none"), then one
# of ncu (its defaults, --clock-control none) on the same launch sequence, GS_SPREAD_REPS
# launches each (default 9).  Prints one line per round and set-up (both medians) into
# reports/spread/rounds.tsv, and the pooled comparison per set-up (ncu-compare over all
# rounds).  GPU and ncu required; run after 'make all'.
# usage: scripts/study/process-spread.sh [SHAPES...]   (default g2k1536 g2k4096)
set -u -o pipefail
m=gpu__time_duration.sum,gpc__cycles_elapsed.max
rounds=${GS_SPREAD_ROUNDS:-6} reps=${GS_SPREAD_REPS:-9} evicts=${GS_SPREAD_EVICT:-none}
dir=${GS_SPREAD_DIR:-reports/spread}
mkdir -p "$dir"
printf 'shape\tround\tevict\tours_us\tncu_us\tours_minus_ncu_pct\n' >"$dir/rounds.tsv"
for shape in ${*:-g2k1536 g2k4096}; do
    declare -A pairs=()
    for r in $(seq "$rounds"); do
        n=$dir/ncu-$shape-$r.csv
        for ev in $evicts; do
            build/cupti-check --shape "$shape" --evict "$ev" --metric-reps "$reps" --only-metrics "$m" \
                >"$dir/ours-$shape-$ev-$r.txt" 2>&1
        done
        scripts/ncu-gemm.sh "$shape" "$reps" "$m" >"$n" 2>&1
        for ev in $evicts; do
            o=$dir/ours-$shape-$ev-$r.txt
            pairs[$ev]+=" $o $n"
            build/ncu-compare "$o" "$n" | awk -v s="$shape" -v r="$r" -v e="$ev" '$1 == "gpu__time_duration.sum" {
                printf "%s\t%s\t%s\t%.3f\t%.3f\t%s\n", s, r, e, $3 / 1e3, $4 / 1e3, $5 }' | tee -a "$dir/rounds.tsv"
        done
    done
    for ev in $evicts; do
        echo "-- $shape, ours with --evict $ev: all $rounds rounds pooled"
        build/ncu-compare ${pairs[$ev]} | grep -vE "^metric "
    done
    unset pairs
done
