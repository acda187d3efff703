#!/bin/bash
# (study) The dealt split K with the measured fixed costs and the scanned target (this tree)
# against the deal of .gs-base/ (an earlier commit's schedule.c and schedule.h, the same kernels),
# alternating; selfchecks and compute-sanitizer of the 256-token split points on shapes whose
# tiles the new deal cuts in two to four; then a recording of d512n3072k7168 on this tree.
# GPU required.  Writes to $OUT.
set -u -o pipefail
out=${OUT:-reports/deal-costs}
mkdir -p "$out"
t0=$(date +%s)
budget=${GS_STUDY_BUDGET:-580}
left() { echo $((budget - ($(date +%s) - t0))); }
export GS_GIT_COMMIT=$(cat .gs-commit 2>/dev/null || echo unknown)
export GS_NO_INSTALL=1
dual_sk=s3_w64_t256_ws_p_tmr_sk_g1 grouped_sk=s3_w128_t256_ws_p_tmr_sk
dual_shapes='d512n3072k7168,dual:m=512;n=2560;k=7168,dual:m=512;n=3584;k=4096,dual:m=512;n=3072;k=2048'
grouped_shapes='g8k2048,m=768;n=2048;k=4096,m=640;n=2048;k=7168'
{
nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader
echo "commit $GS_GIT_COMMIT"
make -j16 all >"$out/make.log" 2>&1 || { echo "make failed"; tail -20 "$out/make.log"; exit 1; }
# the base: this build's objects, schedule.c from .gs-base/ (gpu-session's relink step)
OUT="$out/relink" GS_STEPS=relink scripts/gpu-session.sh >"$out/relink.log" 2>&1
[ -x build/base/nvfp4-bench ] || { echo "base build failed"; tail -20 "$out/relink.log"; exit 1; }
grep "relink:" "$out/relink.log"
echo "built in $(($(date +%s) - t0)) s"
build/nvfp4-selfcheck --variant production >"$out/selfcheck.out" 2>&1; echo "selfcheck grouped production rc $?: $(tail -1 "$out/selfcheck.out")"
build/nvfp4-selfcheck --dual --variant production >"$out/selfcheck-dual.out" 2>&1; echo "selfcheck dual production rc $?: $(tail -1 "$out/selfcheck-dual.out")"
build/nvfp4-selfcheck --dual --variant $dual_sk --shapes "$dual_shapes,dual:m=512;n=1024;k=2048,dual:m=300;n=2048;k=4096,dual:m=300;n=4096;k=2048" \
    >"$out/selfcheck-dual-sk.out" 2>&1; echo "selfcheck dual $dual_sk rc $?: $(tail -1 "$out/selfcheck-dual-sk.out")"
build/nvfp4-selfcheck --variant $grouped_sk --shapes "$grouped_shapes,m=512;n=3072;k=5120" \
    >"$out/selfcheck-sk.out" 2>&1; echo "selfcheck grouped $grouped_sk rc $?: $(tail -1 "$out/selfcheck-sk.out")"
GS_CHECK_PARTS=sanitizer GS_CHECK_ROOT="$out/check" \
    GS_SANITIZER_POINTS="dual:$dual_sk|dual:m=512;n=1024;k=2048,dual:m=300;n=2048;k=4096 $grouped_sk|m=768;n=2048;k=4096" \
    timeout -k 5 150 scripts/check-gpu.sh >"$out/sanitizer.out" 2>&1
echo "sanitizer rc $?: $(tail -1 "$out/sanitizer.out")"
echo "== A/B ($(left) s left)"
GS_AB_TIMEOUT=120 GS_AB_BENCH_ARGS=--dual scripts/ab-rounds.sh "$out/ab-dual" 4 "$dual_shapes" $dual_sk 100 \
    base=build/base/nvfp4-bench new=build/nvfp4-bench >"$out/ab-dual.log" 2>&1
echo "ab dual rc $?"; cat "$out/ab-dual/summary.tsv"
GS_AB_TIMEOUT=120 scripts/ab-rounds.sh "$out/ab-grouped" 4 "$grouped_shapes" $grouped_sk 100 \
    base=build/base/nvfp4-bench new=build/nvfp4-bench >"$out/ab-grouped.log" 2>&1
echo "ab grouped rc $?"; cat "$out/ab-grouped/summary.tsv"
l=$(left)
if [ "$l" -gt 90 ]; then
    echo "== recording d512n3072k7168 ($l s left)"
    OUT="$out/rec" GS_STEPS=report METRICS=sol DETAIL=1 timeout -k 5 $((l - 10)) scripts/gpu-session.sh d512n3072k7168 >"$out/record.log" 2>&1
    echo "record rc $?"
fi
echo "done in $(($(date +%s) - t0)) s"
} 2>&1 | tee "$out/deal-costs.log"
tar czf "$out/results.tar.gz" -C "$out" --exclude results.tar.gz --exclude rec --exclude check --exclude relink . 2>/dev/null
