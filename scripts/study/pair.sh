#!/bin/bash
# Study: the cluster pair's split K (s3_w64_t256_ws_p_tmr_skp_g1) on the GPU: selfcheck of every
# dual shape in the three builds, compute-sanitizer on small shapes, then the dual defaults
# against it on the four dual benchmarks in alternating processes.  usage: scripts/study/pair.sh OUT
set -u -o pipefail
out=${1:?usage: pair.sh OUT}
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader >"$out/device.txt"
{ time make -j16 build/nvfp4-bench build/nvfp4-selfcheck; } >"$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
p=s3_w64_t256_ws_p_tmr_skp_g1
timeout 300 build/nvfp4-selfcheck --dual --variant $p >"$out/selfcheck.txt" 2>&1
echo "selfcheck rc $?" | tee -a "$out/selfcheck.txt"
grep -i "fail\|passed" "$out/selfcheck.txt" | tail -8
for tool in memcheck racecheck synccheck; do
    timeout 240 compute-sanitizer --tool $tool --error-exitcode 3 build/nvfp4-selfcheck --dual --variant $p \
        --shapes 'dual:m=300;n=512;k=1024,dual:m=256;n=512;k=1024' >"$out/sanitizer-$tool.txt" 2>&1
    echo "sanitizer $tool rc $?" | tee -a "$out/selfcheck.txt"
    tail -3 "$out/sanitizer-$tool.txt"
done
GS_AB_BENCH_ARGS=--dual scripts/ab-rounds.sh "$out/ab" 3 d256n4096k7168,d256n3072k4096,d512n4096k7168,d512n3072k7168 \
    default,$p 50 base=build/nvfp4-bench >"$out/ab.log" 2>&1
echo "ab rc $?"
grep -v '^#' "$out"/ab/base-*.tsv | cut -f1-7,10
