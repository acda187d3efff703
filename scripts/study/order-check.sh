#!/bin/bash
# Study (one call): the balanced order of gs_time_interleaved (gs_order.h) against the same
# code in the twin's slot: fix (as committed) and f15 (its twin without any twin code,
# TWIN_FLAGS=-DGS_STUDY_ABL=15), timed interleaved on the twelve overhead shapes, two passes
# in opposite orders, the overhead benchmark with fix between them.  Binaries built on the development
# machine (build/study/bins2.txz).
set -u
out=${OUT:-/tmp/gs-out}
mkdir -p "$out" /tmp/logs
export GS_GIT_COMMIT=$(cat .gs-commit 2>/dev/null || echo unknown)
t0=$(date +%s)
left() { echo $((${GS_STUDY_BUDGET:-250} - ($(date +%s) - t0))); }
{
    nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv,noheader
    b=build/study
    tar xJf $b/bins2.txz -C $b || exit 1
    for x in fix f15; do ! ldd $b/$x-bench | grep "not found" || exit 1; done
    pass=0
    for order in "fix f15" "f15 fix"; do
        pass=$((pass + 1))
        if [ $pass = 2 ]; then # the overhead benchmark between the two passes
            mkdir -p /tmp/ob && cp $b/fix-bench /tmp/ob/nvfp4-bench
            s=$(date +%s)
            [ "$(left)" -gt 60 ] && BUILD=/tmp/ob timeout "$(left)" scripts/overhead-bench.sh "$out/overhead-twin.tsv" 3 100 >/tmp/logs/overhead.log 2>&1
            echo "-- overhead-bench: rc $?, $(($(date +%s) - s)) s"
        fi
        args=""; for x in $order; do args="$args $x=$b/$x-bench"; done
        for g in "grouped||g8k7168,g8k2048,g2k4096,g2k1536" "custom-grouped||m=320;n=3072;k=5120,m=96;n=7168;k=2048" \
            "dual|--dual|d256n4096k7168,d256n3072k4096,d512n4096k7168,d512n3072k7168" \
            "custom-dual|--dual|dual:m=384;n=3072;k=4096,dual:m=128;n=2048;k=7168"; do
            IFS='|' read -r name bargs shapes <<<"$g"
            [ "$(left)" -gt 50 ] || { echo "-- pass $pass $name not run: $(left) s left"; continue; }
            s=$(date +%s)
            GS_AB_TIMEOUT=60 GS_AB_BENCH_ARGS=$bargs scripts/ab-rounds.sh /tmp/logs/ab-$name-$pass 3 "$shapes" default 100 \
                $args >/tmp/logs/ab-$name-$pass.log 2>&1
            echo "-- pass $pass ($order) ab $name: rc $?, $(($(date +%s) - s)) s"
        done
    done
    echo "== done, $(($(date +%s) - t0)) s"
} 2>&1 | tee "$out/summary.log"
for f in /tmp/logs/ab-*-[0-9]/*-[0-9]*.tsv; do
    [ -f "$f" ] || continue
    d=$(basename $(dirname $f)); x=$(basename $f .tsv)
    awk -F'\t' -v p=${d##*-} -v b=${x%-*} -v r=${x##*-} '!/^#/ && $1 != "shape" { print p "\t" b "\t" r "\t" $0 }' $f
done >"$out/rounds.tsv"
tar czf "$out/logs.tgz" -C /tmp/logs --exclude='*.o' .
