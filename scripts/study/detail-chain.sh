#!/bin/bash
# Study (one call): DEQUANT begun at LOAD_WAIT's end clock in the detail twin.  Three builds differ
# only in the detail twin: chain (as committed), nochain (GS_STUDY_NOCHAIN=1, the stamps before)
# and defer (GS_STUDY_DEFER=1: chain, LOAD_WAIT's record stored with DEQUANT's after the
# dequantisation).  SASS instruction counts of the detail objects; the production points'
# selfcheck (records checked) of chain and defer; scripts/overhead-bench.sh (3 rounds of 100 on
# the twelve shapes) of nochain, chain, defer, twice in turn.  Only the tables, the summary and one tarball of logs go
# to $OUT.
set -u
out=${OUT:-/tmp/gs-out}
mkdir -p "$out" /tmp/logs
export GS_NO_INSTALL=1 GS_GIT_COMMIT=$(cat .gs-commit 2>/dev/null || echo unknown)
t0=$(date +%s)
{
    nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader
    s=$(date +%s)
    make -j6 BUILD=build-chain all >/tmp/logs/build-chain.log 2>&1 &
    make -j5 BUILD=build-nochain DETAIL_FLAGS=-DGS_STUDY_NOCHAIN=1 all >/tmp/logs/build-nochain.log 2>&1 &
    make -j5 BUILD=build-defer DETAIL_FLAGS=-DGS_STUDY_DEFER=1 all >/tmp/logs/build-defer.log 2>&1 &
    wait
    for v in chain nochain defer; do [ -x build-$v/nvfp4-bench ] || { echo "build $v failed"; tail -20 /tmp/logs/build-$v.log; }; done
    echo "-- builds: $(($(date +%s) - s)) s"
    for v in chain nochain defer; do
        cuobjdump -sass build-$v/kernels/nvfp4/gemm_detail.o >/tmp/logs/sass-$v.txt 2>&1
        echo "-- $v SASS: $(grep -cE '^\s+/\*[0-9a-f]{4}\*/' /tmp/logs/sass-$v.txt) instructions, $(grep -c 'SR_CLOCKLO' /tmp/logs/sass-$v.txt) clock reads"
    done
    for v in chain defer; do
        for d in "" --dual; do
            s=$(date +%s)
            timeout 200 build-$v/nvfp4-selfcheck $d --variant production >/tmp/logs/selfcheck-$v$d.out 2>&1
            echo "-- $v selfcheck $d: rc $?, $(tail -1 /tmp/logs/selfcheck-$v$d.out), $(($(date +%s) - s)) s"
        done
    done
    for r in 1 2; do
        for v in nochain chain defer; do
            s=$(date +%s)
            BUILD=build-$v timeout 150 scripts/overhead-bench.sh "$out/overhead-$v-$r.tsv" 3 100 >/tmp/logs/bench-$v-$r.log 2>&1
            echo "-- $v $r: rc $?, $(($(date +%s) - s)) s"
        done
    done
    echo "== done, $(($(date +%s) - t0)) s"
} 2>&1 | tee "$out/summary.log"
tar czf "$out/logs.tgz" -C /tmp/logs .
