#!/bin/bash
# (study) After the dealt split's fixed costs: the production points' selfchecks, the dual
# defaults in four processes (both shape orders), the harness table's two processes, the
# overhead benchmark, and d512n3072k7168's sample (gpu-session.sh report).  GPU required.
set -u -o pipefail
out=${OUT:-reports/deal-record}
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
} 2>&1 | tee "$out/deal-record.log"
tar czf "$out/raw.tar.gz" -C "$out" raw deal-record.log
OUT=$out/gs GS_STEPS=report METRICS=sol DETAIL=1 scripts/gpu-session.sh d512n3072k7168 >"$out/gs.log" 2>&1
echo "report rc $?" | tee -a "$out/deal-record.log"
