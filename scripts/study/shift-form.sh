#!/bin/bash
# Study (one call): the dequantisation's shifts in a form ptxas cannot re-select, so production
# and both twins compile the same main loops: rotates (dr: NVFP4_STUDY_SHIFT=1, SHF) or
# multiplies by constant-bank values (dm: NVFP4_STUDY_SHIFT=2, IMAD), each with the descriptor
# step (NVFP4_STUDY_DESC=1), against production as committed (base).  Binaries built on the
# development machine (build/study, carried as one archive).  Each build's production, twin and
# detail twin timed interleaved on the twelve overhead shapes (scripts/ab-rounds.sh, 3 rounds of
# 100); passes while time allows (each pass a different build order); then the selfchecks of dr
# and dm (production points, grouped and dual).  Summaries to $OUT as they are made.
set -u
out=${OUT:-/tmp/gs-out}
mkdir -p "$out" /tmp/logs
t0=$(date +%s)
left() { echo $((${GS_STUDY_BUDGET:-540} - ($(date +%s) - t0))); }
{
    nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv,noheader
    b=build/study
    tar xJf $b/bins.txz -C $b || exit 1
    for x in base dr dm; do ! ldd $b/$x-bench | grep "not found" || exit 1; done
    pass=0
    for order in "base dr dm" "dm base dr" "dr dm base"; do
        pass=$((pass + 1))
        [ "$(left)" -gt 170 ] || { echo "-- pass $pass not run: $(left) s left"; break; }
        args=""; for x in $order; do args="$args $x=$b/$x-bench"; done
        for g in "grouped||g8k7168,g8k2048,g2k4096,g2k1536" "custom-grouped||m=320;n=3072;k=5120,m=96;n=7168;k=2048" \
            "dual|--dual|d256n4096k7168,d256n3072k4096,d512n4096k7168,d512n3072k7168" \
            "custom-dual|--dual|dual:m=384;n=3072;k=4096,dual:m=128;n=2048;k=7168"; do
            IFS='|' read -r name bargs shapes <<<"$g"
            s=$(date +%s)
            GS_AB_TIMEOUT=60 GS_AB_BENCH_ARGS=$bargs scripts/ab-rounds.sh /tmp/logs/ab-$name-$pass 3 "$shapes" default 100 \
                $args >/tmp/logs/ab-$name-$pass.log 2>&1
            echo "-- pass $pass ($order) ab $name: rc $?, $(($(date +%s) - s)) s"
        done
    done
    for x in dr dm; do
        for d in "" "--dual"; do
            [ "$(left)" -gt 60 ] || { echo "-- $x selfcheck $d not run: $(left) s left"; continue; }
            s=$(date +%s)
            timeout 55 $b/$x-selfcheck $d --variant production >/tmp/logs/selfcheck-$x$d.out 2>&1
            echo "-- $x selfcheck $d: rc $?, $(tail -1 /tmp/logs/selfcheck-$x$d.out), $(($(date +%s) - s)) s"
        done
    done
    echo "== done, $(($(date +%s) - t0)) s"
} 2>&1 | tee "$out/summary.log"
# every round's row: pass, build, round, then nvfp4-bench's columns
for f in /tmp/logs/ab-*-[0-9]/*-[0-9]*.tsv; do
    [ -f "$f" ] || continue
    d=$(basename $(dirname $f)); x=$(basename $f .tsv)
    awk -F'\t' -v p=${d##*-} -v b=${x%-*} -v r=${x##*-} '!/^#/ && $1 != "shape" { print p "\t" b "\t" r "\t" $0 }' $f
done >"$out/rounds.tsv"
tar czf "$out/logs.tgz" -C /tmp/logs --exclude='*.o' .
