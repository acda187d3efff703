#!/bin/bash
# Study (one session): the grouped one-width kernels' A/B, then make check-gpu's parts at this
# commit, in three calls on one warm machine.  Each step runs under what is left of the call's
# time, so what finished comes back even when a later step is cut.
# usage: scripts/study/verify-head.sh N     (the call's number)
#   1: build (and build-base/: -DNVFP4_STUDY_NO_FW0, gate 1 alone), the A/B, the evidence build,
#      parts nvfp4 example calib truth
#   2: part dual, the SASS of the dual 256-token gate-1 point's two kernels
#   3: parts sanitizer ncu, then the twins' overhead benchmark while time is left
set -u
out=${OUT:-/tmp/gs-out}
mkdir -p "$out"
t0=$(date +%s)
budget=${GS_VERIFY_BUDGET:-585}
left() { echo $((budget - ($(date +%s) - t0))); }
export GS_NO_INSTALL=1
export GS_GIT_COMMIT=$(cat .gs-commit 2>/dev/null || echo unknown)
log=$out/run-$1.log
part() { # PART
    local l s rc
    l=$(left)
    if [ "$l" -lt 40 ]; then
        echo "== part $1: not run ($l s left)"
        return
    fi
    s=$(date +%s)
    timeout -k 5 "$l" env GS_CHECK_PARTS="$1" scripts/check-gpu.sh >"$out/check-$1.log" 2>&1
    rc=$?
    echo "== part $1: rc $rc, $(($(date +%s) - s)) s: $(grep -E '^[0-9]+ passed, [0-9]+ failed' "$out/check-$1.log" | tail -1)"
}
{
    echo "== commit $GS_GIT_COMMIT, call $1"
    nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv
    echo "== build"
    s=$(date +%s)
    (time make -j16 all) >"$out/build-$1.log" 2>&1 || { tail -40 "$out/build-$1.log"; exit 1; }
    echo "-- all: $(($(date +%s) - s)) s"
    case $1 in
    1)
        s=$(date +%s)
        make -j16 BUILD=build-base KERNEL_FLAGS=-DNVFP4_STUDY_NO_FW0 build-base/nvfp4-bench >"$out/build-base.log" 2>&1 ||
            { tail -40 "$out/build-base.log"; exit 1; }
        echo "-- build-base: $(($(date +%s) - s)) s"
        echo "== A/B: gate-1 one-width kernels only (base) against gate 0 at <= 128 tokens too (fw0)"
        GS_AB_TIMEOUT=$(($(left) - 200)) scripts/ab-rounds.sh reports/ab-fw0 3 \
            'g2k1536,m=256;n=7168;k=4096,m=512;n=4096;k=2048,g2k4096' default 100 \
            base=build-base/nvfp4-bench fw0=build/nvfp4-bench >"$out/ab-fw0.log" 2>&1
        echo "-- A/B: rc $?, $(left) s left"
        cp -r reports/ab-fw0 "$out/"
        s=$(date +%s)
        (time make -j16 nvfp4-evidence) >>"$out/build-$1.log" 2>&1 || { tail -40 "$out/build-$1.log"; exit 1; }
        echo "-- nvfp4-evidence: $(($(date +%s) - s)) s"
        for p in nvfp4 example calib truth; do part $p; done
        ;;
    2)
        make -j16 nvfp4-evidence >>"$out/build-$1.log" 2>&1 || { tail -40 "$out/build-$1.log"; exit 1; }
        part dual
        mkdir -p "$out/sass"
        # the 256-token gate-1 point s3_w64_t256_ws_p_tmr_g1: its switch kernel and its one-width one
        cuobjdump -sass build/kernels/nvfp4/gemm_prod.o |
            awk '/Function : / { keep = ($0 ~ /point_cfgILi3ELi64ELi256ELi1ELi1ELi2ELi0ELi1ELi0ELi[01]EE/) } keep' |
            gzip -9 >"$out/sass/g1-t256-prod.sass.gz"
        cuobjdump -res-usage build/kernels/nvfp4/gemm_prod.o >"$out/sass/res-prod.txt" 2>&1
        ;;
    3)
        make -j16 nvfp4-evidence >>"$out/build-$1.log" 2>&1 || { tail -40 "$out/build-$1.log"; exit 1; }
        part sanitizer
        part ncu
        l=$(left)
        if [ "$l" -gt 200 ]; then
            echo "== overhead benchmark ($l s left)"
            GS_AB_TIMEOUT=$((l - 20)) timeout -k 5 $((l - 10)) scripts/overhead-bench.sh "$out/overhead" 3 100 >"$out/overhead.log" 2>&1
            echo "-- overhead: rc $?"
        fi
        ;;
    esac
    echo "== done, $(($(date +%s) - t0)) s"
} 2>&1 | tee "$log"
tar czf "$out/logs.tgz" -C "$out" --exclude=logs.tgz . 2>/dev/null
