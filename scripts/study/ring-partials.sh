#!/bin/bash
# (study) The owners' partial sums through the free ring slots (cp.async; NVFP4_STUDY_RING_PARTIALS
# 1, this tree) against the loads into registers (build/off, the same tree with the switch at 0):
# selfchecks and compute-sanitizer on this tree's split 256-token points, then alternating rounds.
set -u -o pipefail
out=${OUT:-reports/ring-partials}
mkdir -p "$out/raw"
{
nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader
echo "commit $(cat .gs-commit)"
t0=$(date +%s)
(GS_ALT_FRESH=1 GS_ALT_JOBS=8 scripts/study/build-twin-alt.sh build/off "" "-DNVFP4_STUDY_RING_PARTIALS=0" >"$out/raw/make-off.log" 2>&1) &
off=$!
make -j16 build/nvfp4-bench build/nvfp4-selfcheck >"$out/raw/make.log" 2>&1 || { echo "make failed"; tail -30 "$out/raw/make.log"; exit 1; }
wait $off || { echo "make off failed"; tail -20 "$out/raw/make-off.log"; exit 1; }
echo "built in $(( $(date +%s) - t0 )) s"
build/nvfp4-selfcheck --variant production >"$out/raw/selfcheck.out" 2>&1; echo "selfcheck rc $?: $(tail -1 "$out/raw/selfcheck.out")"
build/nvfp4-selfcheck --dual --variant production >"$out/raw/selfcheck-dual.out" 2>&1; echo "selfcheck dual rc $?: $(tail -1 "$out/raw/selfcheck-dual.out")"
for tool in racecheck memcheck synccheck; do
    for pt in "--dual|s3_w64_t256_ws_p_tmr_sk_g1|dual:m=512;n=3072;k=2048" "|s3_w128_t256_ws_p_tmr_skr|t0,m=200;n=512;k=4096" "|s3_w128_t256_ws_p_tmr_sk|m=512;n=3072;k=2048"; do
        IFS='|' read -r d v sh <<<"$pt"
        timeout -k 30 240 compute-sanitizer --tool $tool --error-exitcode 99 build/nvfp4-selfcheck $d --variant $v --shapes "$sh" \
            >"$out/raw/san-$tool-$v.log" 2>&1
        echo "sanitizer $tool $v $sh rc $?: $(grep -E 'passed|ERROR SUMMARY' "$out/raw/san-$tool-$v.log" | tail -2 | tr '\n' ' ')"
    done
done
echo "checks done in $(( $(date +%s) - t0 )) s"
GS_AB_BENCH_ARGS=--dual scripts/ab-rounds.sh "$out/raw/ab-dual" 4 d512n3072k7168,d512n4096k7168 default 100 \
    off=build/off/nvfp4-bench on=build/nvfp4-bench >/dev/null 2>&1; echo "ab dual rc $?"
scripts/ab-rounds.sh "$out/raw/ab-grouped" 4 g8k2048,g8k7168 default 100 off=build/off/nvfp4-bench on=build/nvfp4-bench \
    >/dev/null 2>&1; echo "ab grouped rc $?"
cat "$out/raw/ab-dual/summary.tsv" "$out/raw/ab-grouped/summary.tsv"
echo "done in $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$out/ring.log"
tar czf "$out/raw.tar.gz" -C "$out" raw ring.log
