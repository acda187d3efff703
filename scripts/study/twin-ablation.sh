#!/bin/bash
# Study (one call): the twin's pieces taken out one by one, timed in blocks of repetitions
# (TWIN_FLAGS -DGS_STUDY_ABL=N, instrument/gs_stamp.cuh; production, detail and null twin the same
# in every build): a1 no phase records, a6 no clock sampler and no edge wait in the
# headers, a7 both, base as committed.  Binaries built on
# the development machine (build/study, carried as one archive).  scripts/ab-rounds.sh, 3 rounds
# of 100 on the twelve overhead shapes, two passes in opposite build orders while time allows.
# Writes abl-summary.log, abl-rounds.tsv and abl-logs.tgz to OUT.
set -u
out=${OUT:-/tmp/gs-out}
mkdir -p "$out" /tmp/logs
t0=$(date +%s)
left() { echo $((${GS_STUDY_BUDGET:-540} - ($(date +%s) - t0))); }
{
    nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv,noheader
    echo "commit $(cat .gs-commit 2>/dev/null)"
    b=build/study
    tar xJf $b/bins.txz -C $b || exit 1
    for x in base a1 a6 a7; do ! ldd $b/$x-bench | grep "not found" || exit 1; done
    pass=0
    for order in "base a1 a6 a7" "a7 a6 a1 base"; do
        pass=$((pass + 1))
        args=""; for x in $order; do args="$args $x=$b/$x-bench"; done
        for g in "grouped||g8k7168,g8k2048,g2k4096,g2k1536" "custom-grouped||m=320;n=3072;k=5120,m=96;n=7168;k=2048" \
            "dual|--dual|d256n4096k7168,d256n3072k4096,d512n4096k7168,d512n3072k7168" \
            "custom-dual|--dual|dual:m=384;n=3072;k=4096,dual:m=128;n=2048;k=7168"; do
            IFS='|' read -r name bargs shapes <<<"$g"
            [ "$(left)" -gt 70 ] || { echo "-- pass $pass $name not run: $(left) s left"; continue; }
            s=$(date +%s)
            GS_AB_TIMEOUT=60 GS_AB_BENCH_ARGS=$bargs scripts/ab-rounds.sh /tmp/logs/ab-$name-$pass 3 "$shapes" default 100 \
                $args >/tmp/logs/ab-$name-$pass.log 2>&1
            echo "-- pass $pass ($order) ab $name: rc $?, $(($(date +%s) - s)) s"
        done
    done
    echo "== done, $(($(date +%s) - t0)) s"
} 2>&1 | tee "$out/abl-summary.log"
for f in /tmp/logs/ab-*-[0-9]/*-[0-9]*.tsv; do
    [ -f "$f" ] || continue
    d=$(basename $(dirname $f)); x=$(basename $f .tsv)
    awk -F'\t' -v p=${d##*-} -v b=${x%-*} -v r=${x##*-} '!/^#/ && $1 != "shape" { print p "\t" b "\t" r "\t" $0 }' $f
done >"$out/abl-rounds.tsv"
tar czf "$out/abl-logs.tgz" -C /tmp/logs .
