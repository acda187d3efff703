#!/bin/bash
# Study (one call): the warp headers without their edge pairs (GS_STUDY_NH=1 in both twins: clock64
# alone at GS_INIT and GS_FINISH, the clock sampler's pairs only).  Builds base and nh; SASS of the
# twin objects; scripts/overhead-bench.sh (3 rounds of 100, twelve shapes) of base, nh, base, nh;
# then base's prod/twin/detail on the 128-token grouped shapes under --inputs 15 (one flush per 15
# launches: the kernel's code warm after the first), 3 rounds of 20.  Tables, summary, one tarball.
set -u
out=${OUT:-/tmp/gs-out}
mkdir -p "$out" /tmp/logs
export GS_NO_INSTALL=1 GS_GIT_COMMIT=$(cat .gs-commit 2>/dev/null || echo unknown)
t0=$(date +%s)
{
    nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader
    s=$(date +%s)
    make -j8 BUILD=build-base all >/tmp/logs/build-base.log 2>&1 &
    make -j8 BUILD=build-nh TWIN_FLAGS=-DGS_STUDY_NH=1 DETAIL_FLAGS=-DGS_STUDY_NH=1 all >/tmp/logs/build-nh.log 2>&1 &
    wait
    for v in base nh; do [ -x build-$v/nvfp4-bench ] || { echo "build $v failed"; tail -20 /tmp/logs/build-$v.log; }; done
    echo "-- builds: $(($(date +%s) - s)) s"
    for v in base nh; do
        cuobjdump -sass build-$v/kernels/nvfp4/gemm_twin.o >/tmp/logs/sass-$v.txt 2>&1
        echo "-- $v SASS: $(grep -cE '/\*[0-9a-f]{4,}\*/' /tmp/logs/sass-$v.txt) instructions, $(grep -c 'SR_CLOCKLO' /tmp/logs/sass-$v.txt) clock reads, $(grep -c 'SR_GLOBALTIMER' /tmp/logs/sass-$v.txt) timer reads"
    done
    for r in 1 2; do
        for v in base nh; do
            s=$(date +%s)
            BUILD=build-$v timeout 150 scripts/overhead-bench.sh "$out/overhead-$v-$r.tsv" 3 100 >/tmp/logs/bench-$v-$r.log 2>&1
            echo "-- $v $r: rc $?, $(($(date +%s) - s)) s"
        done
    done
    s=$(date +%s)
    GS_AB_BENCH_ARGS="--inputs 15" timeout 200 scripts/ab-rounds.sh /tmp/logs/warm 3 "g2k4096,g2k1536,m=320;n=3072;k=5120,m=96;n=7168;k=2048" default 20 bench=build-base/nvfp4-bench >/tmp/logs/warm.log 2>&1
    echo "-- warm: rc $?, $(($(date +%s) - s)) s"
    cat /tmp/logs/warm/bench-*.tsv > "$out/warm.tsv" 2>/dev/null
    echo "== done, $(($(date +%s) - t0)) s"
} 2>&1 | tee "$out/summary.log"
tar czf "$out/logs.tgz" -C /tmp/logs .
