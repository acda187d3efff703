#!/bin/bash
# Study (one call): the twin with its stamps read from %globaltimer and no clock sampler.  Three
# builds differ only in the twin: base (as committed), gt (GS_STUDY_GT=1: stamps from %globaltimer,
# no sampler) and gtd (GS_STUDY_GT=2: gt, the workers still arriving on the sampler's barrier).
# SASS of the twin objects and of production's; scripts/overhead-bench.sh (3 rounds of 100 on the
# twelve shapes) of base, gtd, gt, twice in turn.  Only the tables, the summary and one tarball go to $OUT.
set -u
out=${OUT:-/tmp/gs-out}
mkdir -p "$out" /tmp/logs
export GS_NO_INSTALL=1 GS_GIT_COMMIT=$(cat .gs-commit 2>/dev/null || echo unknown)
t0=$(date +%s)
{
    nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader
    s=$(date +%s)
    make -j6 BUILD=build-base all >/tmp/logs/build-base.log 2>&1 &
    make -j5 BUILD=build-gtd TWIN_FLAGS=-DGS_STUDY_GT=2 all >/tmp/logs/build-gtd.log 2>&1 &
    make -j5 BUILD=build-gt TWIN_FLAGS=-DGS_STUDY_GT=1 all >/tmp/logs/build-gt.log 2>&1 &
    wait
    for v in base gtd gt; do [ -x build-$v/nvfp4-bench ] || { echo "build $v failed"; tail -20 /tmp/logs/build-$v.log; }; done
    echo "-- builds: $(($(date +%s) - s)) s"
    for v in base gtd gt; do
        cuobjdump -sass build-$v/kernels/nvfp4/gemm_twin.o >/tmp/logs/sass-$v.txt 2>&1; [ $v = base ] && cuobjdump -sass build-base/kernels/nvfp4/gemm_prod.o >/tmp/logs/sass-prod.txt 2>&1
        echo "-- $v SASS: $(grep -cE '/\*[0-9a-f]{4,}\*/' /tmp/logs/sass-$v.txt) instructions, $(grep -c 'SR_CLOCKLO' /tmp/logs/sass-$v.txt) clock reads, $(grep -c 'SR_GLOBALTIMER' /tmp/logs/sass-$v.txt) timer reads"
    done
    s=$(date +%s)
    for r in 1 2; do
        for v in base gtd gt; do
            s=$(date +%s)
            BUILD=build-$v timeout 150 scripts/overhead-bench.sh "$out/overhead-$v-$r.tsv" 3 100 >/tmp/logs/bench-$v-$r.log 2>&1
            echo "-- $v $r: rc $?, $(($(date +%s) - s)) s"
        done
    done
    echo "== done, $(($(date +%s) - t0)) s"
} 2>&1 | tee "$out/summary.log"
tar czf "$out/logs.tgz" -C /tmp/logs .
