#!/bin/bash
# Study, one call: the detail twin's branch-free sub-phase stamps (this commit, build/) against
# aebf883's branchy ones (a copy of the tree with aebf883's gs_stamp.cuh, /tmp/old/build/):
# selfchecks of this commit, then 3 alternating rounds of nvfp4-bench on 8 shapes (each process
# times production, twin and detail twin interleaved), then 3 recordings with DETAIL=1.
set -u -o pipefail
out=${OUT:-/tmp/out}; mkdir -p "$out"
w=/tmp/ab; rm -rf "$w"; mkdir -p "$w/runs"
exec > >(tee "$out/ab.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader
cat .gs-commit 2>/dev/null
t0=$(date +%s)
el() { echo $(( $(date +%s) - t0 )); }
rm -rf /tmp/old && mkdir -p /tmp/old && tar cf - --exclude=./build --exclude=./reports . | tar xf - -C /tmp/old &&
    cp scripts/study/gs_stamp-aebf883.cuh /tmp/old/instrument/gs_stamp.cuh || exit 1
( make -C /tmp/old -s -j8 build/nvfp4-bench >/tmp/old.log 2>&1; echo "old rc $?" >>/tmp/old.log ) &
pid=$!
make -s -j8 build/gemmscope build/gemmscope-record build/nvfp4-bench build/nvfp4-selfcheck >/tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
echo "built in $(el) s"
build/nvfp4-selfcheck 2>&1 | tail -1
build/nvfp4-selfcheck --dual 2>&1 | tail -1
wait $pid
grep -v "ptxas warning" /tmp/old.log | tail -2
echo "selfchecks and old build done at $(el) s"
G=g8k7168,g8k2048,g2k4096,g2k1536 D=d256n4096k7168,d256n3072k4096,d512n4096k7168,d512n3072k7168
pack() { (cd "$w" && tar czf "$out/ab.tgz.tmp" runs *.tsv && mv "$out/ab.tgz.tmp" "$out/ab.tgz"); }
for r in 1 2 3; do
    for b in build /tmp/old/build; do n=$([ $b = build ] && echo new || echo old)
        $b/nvfp4-bench --shapes $G --variants default --reps 100 --tsv "$w/$n-g-$r.tsv" >/dev/null
        $b/nvfp4-bench --dual --shapes $D --variants default --reps 100 --tsv "$w/$n-d-$r.tsv" >/dev/null
    done
    echo "round $r done at $(el) s"; pack
done
for f in "$w"/*.tsv; do grep -v "^#" "$f" | grep -v "^shape" | cut -f1,3,7,8 | sed "s|^|$(basename $f .tsv) |"; done | sort -k2,2 -k1,1
for s in g8k7168 g2k1536 d256n4096k7168; do
    timeout 80 make -s report SHAPE=$s METRICS=none DETAIL=1 >/tmp/rec-$s.log 2>&1; rc=$?
    d=$(readlink -f reports/$s/default/latest) && mkdir -p "$w/runs/$s" && cp -a "$d"/. "$w/runs/$s/" && rm -rf "$w/runs/$s/plots"
    echo "record $s rc $rc at $(el) s"; grep "FAIL\|passed" "$w/runs/$s/report.md" | head -5
    pack
done
echo "total $(el) s"
