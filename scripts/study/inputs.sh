#!/bin/bash
# study (not kept): nvfp4-bench --inputs 1 against --inputs 15 (GPU MODE's harness), alternating processes, with power and clock polled
set -u
cd "$(dirname "$0")/../.."
R=$OUT/r; mkdir -p $R
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv,noheader > $R/gpu.txt
make -j16 build/nvfp4-bench > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "built $(( $(date +%s) - t0 )) s"
for kind in dual grouped; do
  a=""; [ $kind = dual ] && a=--dual
  for r in 1 2; do
    for n in 1 15; do
      nvidia-smi --query-gpu=timestamp,power.draw,clocks.sm,clocks_event_reasons.active --format=csv,noheader -lms 100 > $R/smi-$kind-$n-$r.csv &
      sp=$!
      timeout 250 build/nvfp4-bench $a --variants default --reps 50 --inputs $n --tsv $R/$kind-$n-$r.tsv > $R/$kind-$n-$r.log 2>&1
      echo "$kind inputs $n round $r rc $? at $(( $(date +%s) - t0 )) s"
      kill $sp
    done
  done
done
cd $OUT && tar czf r.tgz r && rm -rf r
