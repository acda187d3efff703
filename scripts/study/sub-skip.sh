#!/bin/bash
# Study (one call): what the DEQUANT sub-phase's stamps cost the detail twin.  Two builds
# differ only in the detail twin (GS_STUDY_SUB_SKIP compiles out the sub-phases of its bits: 2
# DEQUANT, 4 MMA); 0 and 2 each run scripts/overhead-bench.sh (3 rounds of 100 on the twelve shapes),
# in turn.  Only the tables, the summary and one tarball of logs go to $OUT.
set -u
out=${OUT:-/tmp/gs-out}
mkdir -p "$out" /tmp/logs
export GS_NO_INSTALL=1 GS_GIT_COMMIT=$(cat .gs-commit 2>/dev/null || echo unknown)
t0=$(date +%s)
{
    nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader
    s=$(date +%s)
    for m in 0 2; do
        make -j8 BUILD=build-m$m DETAIL_FLAGS=-DGS_STUDY_SUB_SKIP=$m all >/tmp/logs/build-m$m.log 2>&1 &
    done
    wait
    for m in 0 2; do [ -x build-m$m/nvfp4-bench ] || { echo "build m$m failed"; tail -20 /tmp/logs/build-m$m.log; }; done
    echo "-- builds: $(($(date +%s) - s)) s"
    for m in 0 2; do
        s=$(date +%s)
        BUILD=build-m$m timeout 150 scripts/overhead-bench.sh "$out/overhead-m$m.tsv" 3 100 >/tmp/logs/bench-m$m.log 2>&1
        echo "-- mask $m: rc $?, $(($(date +%s) - s)) s"
    done
    echo "== done, $(($(date +%s) - t0)) s"
} 2>&1 | tee "$out/summary.log"
tar czf "$out/logs.tgz" -C /tmp/logs .
