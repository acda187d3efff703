#!/bin/bash
# A past study: needs cupti-check --only-metrics, --flush and --replay, removed since: run at
# commit 16da9bf (there it is scripts/flush-study.sh).
# Why do our collector's DRAM bytes and duration differ from Nsight Compute's on the same
# kernel?  Per shape, the same metrics (duration, DRAM reads and writes, L2 misses):
#   ours:  user replay (the token pre-pass, then an L2 flush before every pass: read = 2x L2
#          of clean reads, discard = 2x L2 of writes then discard.global.L2, none), and
#          CUPTI's kernel replay (the set-up once, CUPTI saves and restores memory per pass);
#   ncu:   kernel replay with --cache-control all (its default) and none, and application
#          replay with none, whose profiled launch follows the same pre-pass and flush as
#          ours (it sees our L2 state).
# GPU and ncu required.
# usage: scripts/study/flush-study.sh [SHAPES...]   (default: g2k1536 g8k2048)
set -u -o pipefail
m=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_lookup_miss.sum,gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed
shapes=${*:-g2k1536 g8k2048}
for shape in $shapes; do
    for mode in ${GS_FLUSH_MODES:-user:read user:discard user:none kernel:read}; do
        echo "== $shape: ours, replay ${mode%%:*}, flush ${mode#*:}"
        build/cupti-check --shape "$shape" --replay "${mode%%:*}" --flush "${mode#*:}" --only-metrics "$m" |
            grep -E '^(metric|metrics\.|flush)'
    done
    for mode in "kernel all" "kernel none" "application none"; do
        set -- $mode
        echo "== $shape: ncu --replay-mode $1 --cache-control $2"
        scripts/ncu-gemm.sh "$shape" 1 "$m" --replay-mode "$1" --cache-control "$2" |
            grep -E '"(gpu__|dram__|lts__)' | awk -F'","' '{print "ncu", $(NF-2), $NF}' | tr -d '"'
    done
done
