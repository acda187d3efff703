#!/bin/bash
# Study (one call on the GPU machine): the sampler's 1 us period at this commit.  The overhead
# benchmark (scripts/overhead-bench.sh), check-gpu's calib and truth parts (the clock model
# against probes under a changing SM clock), the production points' selfchecks, and recordings
# (no metrics) for the clock model's placement check, each under what is left of the call.
set -u -o pipefail
export GS_NO_INSTALL=1
export GS_GIT_COMMIT=$(cat .gs-commit 2>/dev/null || echo unknown)
w=/tmp/verify && rm -rf "$w" && mkdir -p "$w" "${OUT:=/tmp/gs-out}"
budget=${GS_VERIFY_BUDGET:-570}
left() { echo $((budget - SECONDS)); }
{
    echo "== device"; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv
    echo "commit $GS_GIT_COMMIT"
    SECONDS=0
    make -j16 all >"$w/build.log" 2>&1 || { echo "build failed"; tail -20 "$w/build.log"; exit 1; }
    echo "built in ${SECONDS} s"
    timeout $(left) scripts/overhead-bench.sh "$w/overhead-twin.tsv" 3 100 2>"$w/overhead.log"
    echo "overhead rc $? (${SECONDS} s)"
    tar czf "$OUT/verify.tar.gz" -C "$w" .
    GS_CHECK_PARTS="calib truth" GS_CHECK_ROOT=/tmp/verify-check timeout $(left) scripts/check-gpu.sh >"$w/check-calib-truth.txt" 2>&1
    echo "calib+truth rc $?: $(tail -1 "$w/check-calib-truth.txt") (${SECONDS} s)"
    tar czf "$OUT/verify.tar.gz" -C "$w" .
    timeout $(( $(left) > 100 ? 100 : $(left) )) build/nvfp4-selfcheck --variant production >"$w/selfcheck.log" 2>&1
    echo "grouped selfcheck rc $? $(tail -1 "$w/selfcheck.log") (${SECONDS} s)"
    timeout $(( $(left) > 150 ? 150 : $(left) )) build/nvfp4-selfcheck --dual --variant production >"$w/selfcheck-dual.log" 2>&1
    echo "dual selfcheck rc $? $(tail -1 "$w/selfcheck-dual.log") (${SECONDS} s)"
    for s in g2k1536 'm=96;n=7168;k=2048' g2k4096 d512n3072k7168 d256n3072k4096; do
        [ "$(left)" -gt 25 ] || break
        timeout $(left) build/gemmscope record SHAPE="$s" METRICS=none --root reports/verify >"$w/rec.log" 2>&1
        rc=$? rep=$(sed -n 's/^gemmscope: report //p' "$w/rec.log")
        echo "$s rc $rc: $(grep -h 'clock model' "$rep" 2>/dev/null | tr '\n' ' ')"
    done
    echo "done in ${SECONDS} s"
} 2>&1 | tee "$w/verify.log"
tar czf "$OUT/verify.tar.gz" -C "$w" .
