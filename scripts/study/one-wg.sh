#!/bin/bash
# Study (removed after its run): one consumer warpgroup per CTA on 256-token tiles (the grouped
# kernel's s3_w64_t256_ws_p_tmr[_sk]) on the dual benchmarks' stacked GEMMs (B1 and B2 as one
# N = 2n matrix), against the dual defaults, in alternating processes.  GPU required.
# usage: scripts/study/one-wg.sh OUT
set -u -o pipefail
out=${1:?usage: one-wg.sh OUT}
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader >"$out/device.txt"
{ time make -j16 build/nvfp4-bench build/nvfp4-selfcheck; } >"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
stacked='m=256;n=8192;k=7168,m=256;n=6144;k=4096,m=512;n=8192;k=7168,m=512;n=6144;k=7168'
timeout 300 build/nvfp4-selfcheck --variant s3_w64_t256_ws_p_tmr --shapes "$stacked" >"$out/selfcheck.txt" 2>&1
echo "selfcheck rc $?" >>"$out/selfcheck.txt"
timeout 300 build/nvfp4-selfcheck --variant s3_w64_t256_ws_p_tmr_sk --shapes "$stacked" >>"$out/selfcheck.txt" 2>&1
echo "selfcheck sk rc $?" >>"$out/selfcheck.txt"
tail -3 "$out/selfcheck.txt"
for r in 1 2; do
    build/nvfp4-bench --shapes "$stacked" --variants s3_w64_t256_ws_p_tmr,s3_w64_t256_ws_p_tmr_sk,s4_w64_t128_ws_p_tma \
        --reps 50 --tsv "$out/stacked-$r.tsv" >"$out/stacked-$r.log" 2>&1
    build/nvfp4-bench --dual --variants default --reps 50 --tsv "$out/dual-$r.tsv" >"$out/dual-$r.log" 2>&1
done
grep -v '^#' "$out"/stacked-*.tsv "$out"/dual-*.tsv | cut -f1-7
