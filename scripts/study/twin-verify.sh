#!/bin/bash
# One call: build, selfcheck, the twins' overhead in alternating processes, a recording of each
# benchmark shape (make report SHAPE=... METRICS=sol DETAIL=1), and the evidence points without a
# producer warpgroup (their consumers take the clock pairs) checked from a build of their own.
set -u -o pipefail
out=${OUT:-/tmp/out}; mkdir -p "$out"
w=/tmp/verify; mkdir -p "$w/runs"
exec > >(tee "$out/verify.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader
cat .gs-commit 2>/dev/null
t0=$(date +%s)
make -s -j16 build/gemmscope build/gemmscope-record build/nvfp4-bench build/nvfp4-selfcheck >/tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
echo "built in $(( $(date +%s) - t0 )) s"
( nice -n 10 make -s -j12 BUILD=build/ev NVFP4_POINT_SET=all build/ev/nvfp4-selfcheck >/tmp/ev.log 2>&1; echo "evidence build rc $?" >>/tmp/ev.log ) &
build/nvfp4-selfcheck 2>&1 | tail -1
build/nvfp4-selfcheck --dual 2>&1 | tail -1
echo "selfcheck done at $(( $(date +%s) - t0 )) s"
for r in 1 2 3; do
    build/nvfp4-bench --shapes g8k7168,g8k2048,g2k4096,g2k1536 --variants default --reps 100 --tsv "$w/ovh-g-$r.tsv" >/dev/null
    build/nvfp4-bench --dual --shapes d256n4096k7168,d256n3072k4096,d512n4096k7168,d512n3072k7168 --variants default --reps 100 --tsv "$w/ovh-d-$r.tsv" >/dev/null
done
echo "overhead rounds done at $(( $(date +%s) - t0 )) s"
cat "$w"/ovh-*.tsv | grep -v "^#" | grep -v "^shape" | cut -f1,3,7,8 | sort
pack() { (cd "$w" && tar czf "$out/runs.tgz.tmp" runs ovh-*.tsv && mv "$out/runs.tgz.tmp" "$out/runs.tgz"); }
pack
for s in g8k7168 d256n4096k7168 g2k1536 g8k2048 g2k4096 d256n3072k4096 d512n4096k7168 d512n3072k7168; do
    timeout 200 make -s report SHAPE=$s METRICS=sol DETAIL=1 >/tmp/rec-$s.log 2>&1; rc=$?
    d=$(readlink -f reports/$s/default/latest) && mkdir -p "$w/runs/$s" && cp -a "$d"/. "$w/runs/$s/" && rm -rf "$w/runs/$s/plots"
    echo "record $s rc $rc at $(( $(date +%s) - t0 )) s"; pack
done
wait
tail -2 /tmp/ev.log
if [ -x build/ev/nvfp4-selfcheck ]; then
    for v in s1_w128_t128 s4_w128_t128_p_tma; do
        timeout 60 build/ev/nvfp4-selfcheck --variant $v --shapes g2k1536 2>&1 | tail -1 | sed "s/^/$v: /"; done
    for v in s1_w64_t128_g1 s4_w128_t128_g2; do
        timeout 60 build/ev/nvfp4-selfcheck --dual --variant $v --shapes dt1 2>&1 | tail -1 | sed "s/^/$v: /"; done
fi
echo "total $(( $(date +%s) - t0 )) s"
