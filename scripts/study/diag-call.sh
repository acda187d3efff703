#!/bin/bash
# Study (one session): the code-fetch and timer-read probe (scripts/study/fetch-probe.cu), the
# consumer's floor on this GPU (nvfp4-mma-rate), the 128-token dual point recorded on 128, 64
# and 16 CTAs, check-gpu's example, calib and truth parts, and the twins' overhead benchmark.
# usage: scripts/study/diag-call.sh        (GPU machine, repository root; results under $OUT)
set -u
out=${OUT:-/tmp/gs-out}
mkdir -p "$out"
t0=$(date +%s)
budget=${GS_DIAG_BUDGET:-570}
left() { echo $((budget - ($(date +%s) - t0))); }
export GS_NO_INSTALL=1
export GS_GIT_COMMIT=$(cat .gs-commit 2>/dev/null || echo unknown)
{
    echo "== commit $GS_GIT_COMMIT"
    nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv
    mkdir -p build/study
    nvcc -O3 -arch=sm_90a -std=c++17 -o build/study/fetch-probe scripts/study/fetch-probe.cu >"$out/probe-build.log" 2>&1 &
    pp=$!
    (time make -j16 all) >"$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
    wait $pp || { cat "$out/probe-build.log"; exit 1; }
    echo "== build: $(($(date +%s) - t0)) s"
    timeout 120 build/study/fetch-probe 10 >"$out/fetch-probe.tsv" 2>&1
    echo "== probe rc $?: $(($(date +%s) - t0)) s"; grep '^#' "$out/fetch-probe.tsv"
    timeout 90 build/nvfp4-mma-rate >"$out/mma-rate.txt" 2>&1
    echo "== mma-rate rc $?: $(($(date +%s) - t0)) s"; cat "$out/mma-rate.txt" | tail -12
    for shape in d256n4096k7168 'dual:m=128;n=4096;k=7168' 'dual:m=128;n=1024;k=7168'; do
        timeout 90 build/gemmscope record SHAPE="$shape" VARIANT=s4_w64_t128_ws_p_tma_g1 METRICS=none DETAIL=1 \
            --root reports/diag 2>&1 | tail -1
    done
    find reports/diag -name report.md | while read -r f; do cp "$f" "$out/$(echo "$f" | tr '/;=:' '____')"; done
    echo "== records: $(($(date +%s) - t0)) s"
    for p in example calib truth; do
        l=$(left)
        s=$(date +%s)
        timeout -k 5 "$l" env GS_CHECK_PARTS="$p" scripts/check-gpu.sh >"$out/check-$p.log" 2>&1
        echo "== part $p: rc $?, $(($(date +%s) - s)) s: $(grep -E '^[0-9]+ passed, [0-9]+ failed' "$out/check-$p.log" | tail -1)"
    done
    l=$(left)
    echo "== overhead ($l s left)"
    timeout -k 5 "$((l - 5))" scripts/overhead-bench.sh "$out/overhead-twin.tsv" 3 100 >"$out/overhead.log" 2>&1
    echo "== overhead rc $?: $(($(date +%s) - t0)) s"
    tail -3 "$out/overhead.log"
} 2>&1 | tee "$out/diag.log"
