#!/bin/bash
# Study (one session): where the token pre-pass's time goes.  Nsight Compute on its launches in
# nvfp4-bench (the production point of each shape; caches flushed before each, clocks not
# locked), with the carried build/nvfp4-bench (scripts/study/evidence-head.sh unpacks it).
# Comes back: prepass-ncu.tgz (one text report per shape).
# usage: scripts/study/prepass-ncu.sh [SHAPE...]   (d... shapes run with --dual)
set -u
ret=${OUT:-/tmp/gs-out}
mkdir -p "$ret" /tmp/prepass
for s in ${*:-d512n3072k7168 d256n4096k7168 g8k7168}; do
    dual=
    case $s in d[0-9]*) dual=--dual ;; esac
    st=$(date +%s)
    timeout -k 5 150 ncu --kernel-name regex:nvfp4_tokens_kernel --launch-skip 2 --launch-count 2 \
        --cache-control all --clock-control none \
        --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats \
        --section SchedulerStats --section LaunchStats --section Occupancy \
        --metrics dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,lts__t_sectors_op_write.sum,smsp__inst_executed.sum,sm__cycles_elapsed.avg.per_second \
        build/nvfp4-bench $dual --variants default --shapes "$s" --reps 3 >"/tmp/prepass/$s.txt" 2>&1
    echo "== prepass-ncu $s: rc $?, $(($(date +%s) - st)) s"
done
tar czf "$ret/prepass-ncu.tgz" -C /tmp/prepass .
