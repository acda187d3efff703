#!/bin/bash
# (study) The split points of every point set on shapes where the dealt split cuts 256-token
# tiles in two (the ring-slot read) and on a few others: nvfp4-selfcheck --variant all (the
# evidence points built), then compute-sanitizer on the two-stage gate-1 split points, whose
# owners take the ring path with no slot held.  GPU required.
set -u -o pipefail
out=${OUT:-reports/evidence-split-check}
mkdir -p "$out"
{
nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader
echo "commit $(cat .gs-commit)"
t0=$(date +%s)
make -j16 nvfp4-evidence >"$out/make.log" 2>&1 || { echo "make failed"; tail -30 "$out/make.log"; exit 1; }
echo "built in $(( $(date +%s) - t0 )) s"
timeout -k 10 200 build/nvfp4-selfcheck --dual --variant all \
    --shapes "d512n3072k7168,dual:m=300;n=4096;k=2048,dual:m=512;n=3072;k=3072,dt7" >"$out/selfcheck-dual.out" 2>&1
echo "selfcheck dual rc $?: $(tail -1 "$out/selfcheck-dual.out")"
timeout -k 10 100 build/nvfp4-selfcheck --variant all --shapes "g8k2048,t0,m=512;n=3072;k=2048" >"$out/selfcheck.out" 2>&1
echo "selfcheck rc $?: $(tail -1 "$out/selfcheck.out")"
for tool in racecheck memcheck; do
    for v in s2_w64_t256_p_sk_g1 s2_w64_t256_ws_p_sk_g1; do
        timeout -k 10 90 compute-sanitizer --tool $tool --error-exitcode 99 build/nvfp4-selfcheck --dual --variant $v \
            --shapes "dual:m=300;n=4096;k=2048" >"$out/san-$tool-$v.log" 2>&1
        echo "sanitizer $tool $v rc $?: $(grep -E 'passed|ERROR SUMMARY' "$out/san-$tool-$v.log" | tail -2 | tr '\n' ' ')"
    done
done
echo "done in $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$out/check.log"
tar czf "$out/results.tar.gz" -C "$out" --exclude results.tar.gz .
