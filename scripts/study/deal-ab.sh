#!/bin/bash
# (study) The dealt split K with fixed costs (this tree) against the equal-share deal
# (NVFP4_STUDY_OLD_DEAL=1, the same kernels), alternating; the production points' selfchecks on
# this tree; one recording of d512n3072k7168 on this tree.  GPU required.  Writes to $OUT.
set -u -o pipefail
out=${OUT:-reports/deal-ab}
mkdir -p "$out"
log=$out/deal-ab.log
{
nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader
echo "commit $(cat .gs-commit 2>/dev/null || git rev-parse --short HEAD 2>/dev/null)"
t0=$(date +%s)
make -j16 build/nvfp4-bench build/nvfp4-selfcheck build/gemmscope build/gemmscope-record >"$out/make.log" 2>&1 || { echo "make failed"; tail -20 "$out/make.log"; exit 1; }
rm -rf build-old && cp -a build build-old && rm -f build-old/kernels/nvfp4/schedule.o
make BUILD=build-old CFLAGS="-std=c11 -O2 -g -Wall -Wextra -Werror -I. -DNVFP4_STUDY_OLD_DEAL=1" build-old/nvfp4-bench \
    >>"$out/make.log" 2>&1 || { echo "make old failed"; tail -20 "$out/make.log"; exit 1; }
echo "built in $(( $(date +%s) - t0 )) s"
build/nvfp4-selfcheck --variant all >"$out/selfcheck.out" 2>"$out/selfcheck.err"; echo "selfcheck rc $?: $(tail -1 "$out/selfcheck.out")"
build/nvfp4-selfcheck --dual --variant all >"$out/selfcheck-dual.out" 2>"$out/selfcheck-dual.err"; echo "selfcheck dual rc $?: $(tail -1 "$out/selfcheck-dual.out")"
GS_AB_BENCH_ARGS=--dual scripts/ab-rounds.sh "$out/ab-dual" 4 d512n3072k7168,d256n3072k4096,dual:m=384\;n=3008\;k=4096 default 100 \
    old=build-old/nvfp4-bench new=build/nvfp4-bench
scripts/ab-rounds.sh "$out/ab-grouped" 4 g8k2048 default 100 old=build-old/nvfp4-bench new=build/nvfp4-bench
build/gemmscope record d512n3072k7168 METRICS=default DETAIL=0 --root "$out/rec" >"$out/record.log" 2>&1; echo "record rc $?"
echo "done in $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$log"
tar czf "$out/results.tar.gz" -C "$out" --exclude results.tar.gz . 2>/dev/null
