#!/bin/bash
# study (not kept): half the token slabs loaded (wrong results, timed anyway) against HEAD: is the kernel bound by its bytes from L2?
set -u
cd "$(dirname "$0")/../.."
R=$OUT/r; mkdir -p $R
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
rm -rf /tmp/half && mkdir -p /tmp/half && cp -a . /tmp/half/ && rm -rf /tmp/half/build
cp scripts/study/half/gemm.cu scripts/study/half/bench.c /tmp/half/kernels/nvfp4/
(cd /tmp/half && make -j8 build/nvfp4-bench > /tmp/half-build.log 2>&1; echo "half build rc $?" >> /tmp/half-build.log) &
make -j8 build/nvfp4-bench > $R/build.log 2>&1; echo "base build rc $?" >> $R/build.log
wait
cp /tmp/half-build.log $R/
echo "built at $(( $(date +%s) - t0 )) s; $(tail -1 $R/build.log); $(tail -1 $R/half-build.log)" | tee -a $R/log.txt
for n in 1 15; do
  GS_AB_BENCH_ARGS="--inputs $n" scripts/ab-rounds.sh $R/abg$n 2 g8k7168,g8k2048,g2k4096,g2k1536 default 30 base=build/nvfp4-bench half=/tmp/half/build/nvfp4-bench > $R/abg$n.log 2>&1
  echo "grouped $n at $(( $(date +%s) - t0 )) s" | tee -a $R/log.txt
done
GS_AB_BENCH_ARGS="--dual --inputs 1" scripts/ab-rounds.sh $R/abd1 2 d256n4096k7168,d256n3072k4096,d512n4096k7168,d512n3072k7168 default 30 base=build/nvfp4-bench half=/tmp/half/build/nvfp4-bench > $R/abd1.log 2>&1
echo "dual 1 at $(( $(date +%s) - t0 )) s" | tee -a $R/log.txt
GS_AB_TIMEOUT=150 GS_AB_BENCH_ARGS="--dual --inputs 15" scripts/ab-rounds.sh $R/abd15 1 d256n4096k7168,d256n3072k4096,d512n4096k7168,d512n3072k7168 default 30 base=build/nvfp4-bench half=/tmp/half/build/nvfp4-bench > $R/abd15.log 2>&1
echo "dual 15 at $(( $(date +%s) - t0 )) s" | tee -a $R/log.txt
cd $OUT && tar czf r.tgz r && rm -rf r
