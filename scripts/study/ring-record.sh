#!/bin/bash
# (study) After the owners' partial sums through a ring slot (the B1/B2 pair's 256-token split):
# the production points' selfchecks, compute-sanitizer on that path, the dual defaults in four
# processes (both shape orders), the harness table's two processes, the overhead benchmark, and
# d512n3072k7168's sample (gpu-session.sh report).  GPU required.
set -u -o pipefail
out=${OUT:-reports/ring-record}
mkdir -p "$out/raw"
D=d256n4096k7168,d256n3072k4096,d512n4096k7168,d512n3072k7168
DR=d512n3072k7168,d512n4096k7168,d256n3072k4096,d256n4096k7168
{
nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader
echo "commit $(cat .gs-commit)"
t0=$(date +%s)
make -j16 build/nvfp4-bench build/nvfp4-selfcheck build/gemmscope build/gemmscope-record >"$out/make.log" 2>&1 || { echo "make failed"; tail -20 "$out/make.log"; exit 1; }
echo "built in $(( $(date +%s) - t0 )) s"
build/nvfp4-selfcheck --variant production >"$out/raw/selfcheck.out" 2>&1; echo "selfcheck rc $?: $(tail -1 "$out/raw/selfcheck.out")"
build/nvfp4-selfcheck --dual --variant production >"$out/raw/selfcheck-dual.out" 2>&1; echo "selfcheck dual rc $?: $(tail -1 "$out/raw/selfcheck-dual.out")"
for tool in racecheck memcheck synccheck; do
    for sh in "dual:m=300;n=4096;k=2048" "dual:m=512;n=3072;k=3072"; do
        timeout -k 30 300 compute-sanitizer --tool $tool --error-exitcode 99 build/nvfp4-selfcheck --dual \
            --variant s3_w64_t256_ws_p_tmr_sk_g1 --shapes "$sh" >"$out/raw/san-$tool-${sh//[;=:]/_}.log" 2>&1
        echo "sanitizer $tool $sh rc $?: $(grep -E 'passed|ERROR SUMMARY' "$out/raw/san-$tool-${sh//[;=:]/_}.log" | tail -2 | tr '\n' ' ')"
    done
done
i=0
for o in D DR D DR; do
    i=$((i + 1)); [ $o = D ] && sh=$D || sh=$DR
    build/nvfp4-bench --dual --reps 50 --variants default --shapes "$sh" --tsv "$out/raw/defaults-$i-$o.tsv" >"$out/raw/defaults-$i-$o.log" 2>&1
    echo "defaults round $i ($o) rc $?"
done
for n in 1 15; do
    build/nvfp4-bench --dual --variants default --reps 50 --inputs $n --tsv "$out/raw/harness-$n.tsv" >"$out/raw/harness-$n.log" 2>&1
    echo "harness inputs $n rc $?"
done
scripts/overhead-bench.sh "$out/raw/overhead-twin.tsv" 3 100 >"$out/raw/overhead.log" 2>&1; echo "overhead rc $?"
echo "steps done in $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$out/ring-record.log"
tar czf "$out/raw.tar.gz" -C "$out" raw ring-record.log
OUT=$out/gs GS_STEPS=report METRICS=sol DETAIL=1 scripts/gpu-session.sh d512n3072k7168 >"$out/gs.log" 2>&1
echo "report rc $?" | tee -a "$out/ring-record.log"
