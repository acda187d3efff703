#!/bin/bash
# Study: the cluster pair with each CTA's own token half first: selfcheck, sanitizers, the dual
# defaults against it in alternating processes, and a recording of d256n4096k7168 on it.
# usage: scripts/study/pair3.sh OUT
set -u -o pipefail
out=${1:?usage: pair3.sh OUT}
mkdir -p "$out/rec"
nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader >"$out/device.txt"
{ time make -j16 build/nvfp4-bench build/nvfp4-selfcheck build/gemmscope build/gemmscope-record; } >"$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
p=s3_w64_t256_ws_p_tmr_skp_g1
timeout 300 build/nvfp4-selfcheck --dual --variant $p >"$out/selfcheck.txt" 2>&1
echo "selfcheck rc $?" | tee -a "$out/selfcheck.txt"; tail -2 "$out/selfcheck.txt"
for tool in racecheck memcheck; do
    timeout 240 compute-sanitizer --tool $tool --error-exitcode 3 build/nvfp4-selfcheck --dual --variant $p \
        --shapes 'dual:m=300;n=512;k=1024,dual:m=256;n=512;k=1024' >"$out/sanitizer-$tool.txt" 2>&1
    echo "sanitizer $tool rc $?"; tail -2 "$out/sanitizer-$tool.txt"
done
GS_AB_BENCH_ARGS=--dual scripts/ab-rounds.sh "$out/ab" 3 d256n4096k7168,d256n3072k4096,d512n4096k7168,d512n3072k7168 \
    default,$p 50 base=build/nvfp4-bench >"$out/ab.log" 2>&1
echo "ab rc $?"
grep -hv '^#' "$out"/ab/base-*.tsv | grep -v '^shape' | cut -f1-3,7
build/gemmscope record d256n4096k7168 VARIANT=$p METRICS=none DETAIL=1 --root "$out/rec" >"$out/rec.log" 2>&1
echo "record rc $?"
tar -C "$out" -czf "$out/all.tgz" rec ab && rm -rf "$out/rec" "$out/ab"
