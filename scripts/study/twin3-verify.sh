#!/bin/bash
# Study, one call: twins whose loading lane takes a clock pair after issuing a stage's loads when
# one is due (GS_STUDY_PAIR_AFTER), with the branch-free sub-phase stamps in the detail twin
# (GS_STUDY_SUB_FLAT) in build/, and the branchy detail twin in build/dbr; selfchecks, 3
# alternating rounds of each against production on 8 shapes, and a recording per shape
# (make report METRICS=none DETAIL=1) for the clock model's held-out check.
set -u -o pipefail
out=${OUT:-/tmp/out}; mkdir -p "$out"
w=/tmp/verify; rm -rf "$w"; mkdir -p "$w/runs"
exec > >(tee "$out/verify.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader
cat .gs-commit 2>/dev/null
t0=$(date +%s)
el() { echo $(( $(date +%s) - t0 )); }
make -s -j16 TWIN_FLAGS=-DGS_STUDY_PAIR_AFTER DETAIL_FLAGS="-DGS_STUDY_PAIR_AFTER -DGS_STUDY_SUB_FLAT" \
    build/gemmscope build/gemmscope-record build/nvfp4-bench build/nvfp4-selfcheck >/tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
echo "built in $(el) s"
d=build/dbr; rm -rf $d; mkdir -p $d; cp -a build/cuda build/instrument build/kernels $d/; rm -f $d/kernels/nvfp4/gemm*_detail.o
( make -s -j6 BUILD=$d DETAIL_FLAGS=-DGS_STUDY_PAIR_AFTER $d/nvfp4-bench >/tmp/dbr.log 2>&1; echo "dbr rc $?" >>/tmp/dbr.log ) &
pid=$!
build/nvfp4-selfcheck 2>&1 | tail -1
build/nvfp4-selfcheck --dual 2>&1 | tail -1
wait $pid
grep -v "ptxas warning" /tmp/dbr.log | tail -2
echo "selfchecks and dbr build done at $(el) s"
G=g8k7168,g8k2048,g2k4096,g2k1536 D=d256n4096k7168,d256n3072k4096,d512n4096k7168,d512n3072k7168
pack() { (cd "$w" && tar czf "$out/runs.tgz.tmp" runs *.tsv && mv "$out/runs.tgz.tmp" "$out/runs.tgz"); }
for r in 1 2 3; do
    for b in build build/dbr; do n=$(basename $b)
        $b/nvfp4-bench --shapes $G --variants default --reps 100 --tsv "$w/$n-g-$r.tsv" >/dev/null
        $b/nvfp4-bench --dual --shapes $D --variants default --reps 100 --tsv "$w/$n-d-$r.tsv" >/dev/null
    done
    echo "round $r done at $(el) s"; pack
done
for f in "$w"/*.tsv; do grep -v "^#" "$f" | grep -v "^shape" | cut -f1,3,7,8 | sed "s|^|$(basename $f .tsv) |"; done | sort -k2,2 -k1,1
for s in g2k4096 g2k1536 g8k7168 d256n4096k7168 d512n3072k7168 g8k2048 d256n3072k4096 d512n4096k7168; do
    [ $(el) -gt 530 ] && { echo "no time for $s"; continue; }
    timeout 80 make -s report SHAPE=$s METRICS=none DETAIL=1 >/tmp/rec-$s.log 2>&1; rc=$?
    d=$(readlink -f reports/$s/default/latest) && mkdir -p "$w/runs/$s" && cp -a "$d"/. "$w/runs/$s/" && rm -rf "$w/runs/$s/plots"
    echo "record $s rc $rc at $(el) s"; grep -i "clock model placement\|FAIL" "$w/runs/$s/report.md" 2>/dev/null | head -4
    pack
done
echo "total $(el) s"
