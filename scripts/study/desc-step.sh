#!/bin/bash
# Study (one call): each wgmma's shared-memory descriptor as the stage's descriptor plus the step's
# offset (NVFP4_STUDY_DESC=1) against the descriptor formed from each step's address (base).
# Binaries base and desc (built on the development machine with make, carried in build/study as
# one archive); every build of both timed interleaved on the twelve overhead shapes
# (scripts/ab-rounds.sh, 3 rounds of 100, each shape's production point); then the production
# points' selfcheck of desc, grouped and dual.  Summaries to $OUT as
# they are made.
set -u
out=${OUT:-/tmp/gs-out}
mkdir -p "$out" /tmp/logs
export GS_NO_INSTALL=1 GS_GIT_COMMIT=$(cat .gs-commit 2>/dev/null || echo unknown)
t0=$(date +%s)
{
    nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader
    # the binaries built on the development machine (build/study, carried), or here if they do not run
    b=build/study
    tar xJf $b/bins.txz -C $b && for f in base-bench desc-bench desc-selfcheck; do mv $b/$f.s $b/$f; done
    if ! $b/base-bench --help >/dev/null 2>&1 && ldd $b/base-bench | grep -q "not found"; then
        s=$(date +%s)
        make -j8 BUILD=build-base build-base/nvfp4-bench >/tmp/logs/build-base.log 2>&1 &
        make -j8 BUILD=build-desc KERNEL_FLAGS=-DNVFP4_STUDY_DESC=1 build-desc/nvfp4-bench build-desc/nvfp4-selfcheck >/tmp/logs/build-desc.log 2>&1 &
        wait
        cp build-base/nvfp4-bench $b/base-bench; cp build-desc/nvfp4-bench $b/desc-bench; cp build-desc/nvfp4-selfcheck $b/desc-selfcheck
        echo "-- built here: $(($(date +%s) - s)) s"
    fi
    for pass in 1 2; do
        # the second pass starts each round with desc: order within a round falls on both alike
        order="base=$b/base-bench desc=$b/desc-bench"; [ $pass = 2 ] && order="desc=$b/desc-bench base=$b/base-bench"
        for g in "grouped||g8k7168,g8k2048,g2k4096,g2k1536" "custom-grouped||m=320;n=3072;k=5120,m=96;n=7168;k=2048" \
            "dual|--dual|d256n4096k7168,d256n3072k4096,d512n4096k7168,d512n3072k7168" \
            "custom-dual|--dual|dual:m=384;n=3072;k=4096,dual:m=128;n=2048;k=7168"; do
            IFS='|' read -r name args shapes <<<"$g"
            s=$(date +%s)
            GS_AB_BENCH_ARGS=$args timeout 60 scripts/ab-rounds.sh /tmp/logs/ab-$name-$pass 3 "$shapes" default 100 \
                $order >/tmp/logs/ab-$name-$pass.log 2>&1
            echo "-- pass $pass ab $name: rc $?, $(($(date +%s) - s)) s"
        done
    done
    s=$(date +%s)
    timeout 40 $b/desc-selfcheck --variant production >/tmp/logs/selfcheck-desc.out 2>&1
    echo "-- desc selfcheck: rc $?, $(tail -1 /tmp/logs/selfcheck-desc.out), $(($(date +%s) - s)) s"
    s=$(date +%s)
    timeout 50 $b/desc-selfcheck --dual --variant production >/tmp/logs/selfcheck-desc-dual.out 2>&1
    echo "-- desc dual selfcheck: rc $?, $(tail -1 /tmp/logs/selfcheck-desc-dual.out), $(($(date +%s) - s)) s"
    echo "== done, $(($(date +%s) - t0)) s"
} 2>&1 | tee "$out/summary.log"
# every round's row: pass, binary, round, then nvfp4-bench's columns
for f in /tmp/logs/ab-*-[12]/*-[0-9]*.tsv; do
    d=$(basename $(dirname $f)); b=$(basename $f .tsv)
    awk -F'\t' -v p=${d##*-} -v b=${b%-*} -v r=${b##*-} '!/^#/ && $1 != "shape" { print p "\t" b "\t" r "\t" $0 }' $f
done >"$out/rounds.tsv"
tar czf "$out/logs.tgz" -C /tmp/logs --exclude='*.o' .
