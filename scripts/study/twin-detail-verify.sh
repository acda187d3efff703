#!/bin/bash
# Study, one call: the twin of this commit (clock pairs from the loading lane while it would wait)
# built, selfchecked, timed against production (3 alternating rounds, 8 benchmark shapes), and
# detail twins that stamp the main loop's sub-phases on one stage in N (N = 1000000: only the
# first, the static cost of the stamps' code), timed the same way (2 rounds each), then each
# shape recorded (make report METRICS=none DETAIL=1) for the clock model's held-out check.
set -u -o pipefail
out=${OUT:-/tmp/out}; mkdir -p "$out"
w=/tmp/verify; mkdir -p "$w/runs"
exec > >(tee "$out/verify.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader
cat .gs-commit 2>/dev/null
t0=$(date +%s)
el() { echo $(( $(date +%s) - t0 )); }
make -s -j16 build/gemmscope build/gemmscope-record build/nvfp4-bench build/nvfp4-selfcheck >/tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
echo "built in $(el) s"
EVERY="1000000 4 8"
pids=""
for n in $EVERY; do
    d=build/ds$n; rm -rf $d; mkdir -p $d; cp -a build/cuda build/instrument build/kernels $d/
    rm -f $d/kernels/nvfp4/gemm*_detail.o
    ( make -s -j5 BUILD=$d DETAIL_FLAGS=-DNVFP4_STUDY_SUB_EVERY=$n $d/nvfp4-bench >/tmp/ds$n.log 2>&1; echo "ds$n rc $?" >>/tmp/ds$n.log ) &
    pids="$pids $!"
done
[ "${SKIP_SELFCHECK:-0}" = 1 ] || build/nvfp4-selfcheck 2>&1 | tail -1
[ "${SKIP_SELFCHECK:-0}" = 1 ] || build/nvfp4-selfcheck --dual 2>&1 | tail -1
wait $pids # (a bare wait would wait for the tee above too)
for n in $EVERY; do grep -v "ptxas warning" /tmp/ds$n.log | tail -2; done
echo "selfcheck and detail builds done at $(el) s"
G=g8k7168,g8k2048,g2k4096,g2k1536 D=d256n4096k7168,d256n3072k4096,d512n4096k7168,d512n3072k7168
pack() { (cd "$w" && tar czf "$out/runs.tgz.tmp" runs *.tsv && mv "$out/runs.tgz.tmp" "$out/runs.tgz"); }
for r in 1 2 3; do
    build/nvfp4-bench --shapes $G --variants default --reps 100 --tsv "$w/ovh-g-$r.tsv" >/dev/null
    build/nvfp4-bench --dual --shapes $D --variants default --reps 100 --tsv "$w/ovh-d-$r.tsv" >/dev/null
    if [ $r -le 2 ]; then for n in $EVERY; do
        build/ds$n/nvfp4-bench --shapes $G --variants default --reps 100 --tsv "$w/ds$n-g-$r.tsv" >/dev/null
        build/ds$n/nvfp4-bench --dual --shapes $D --variants default --reps 100 --tsv "$w/ds$n-d-$r.tsv" >/dev/null
    done; fi
    echo "round $r done at $(el) s"; pack
done
for f in "$w"/*.tsv; do grep -v "^#" "$f" | grep -v "^shape" | cut -f1,3,7,8 | sed "s|^|$(basename $f .tsv) |"; done | sort -k2,2 -k1,1
for s in g8k7168 d256n4096k7168 g2k1536 d512n3072k7168 g8k2048 g2k4096 d256n3072k4096 d512n4096k7168; do
    [ $(el) -gt 520 ] && { echo "no time for $s"; continue; }
    timeout 90 make -s report SHAPE=$s METRICS=none DETAIL=1 >/tmp/rec-$s.log 2>&1; rc=$?
    d=$(readlink -f reports/$s/default/latest) && mkdir -p "$w/runs/$s" && cp -a "$d"/. "$w/runs/$s/" && rm -rf "$w/runs/$s/plots"
    echo "record $s rc $rc at $(el) s"; grep -i -A12 "^## Checks" "$w/runs/$s/report.md" 2>/dev/null | grep -i "clock\|held\|FAIL" | head -4
    pack
done
echo "total $(el) s"
