#!/bin/bash
# Study (removed after its run): the gate-1 points' one-width kernels and the cluster pair as
# d256n4096k7168's default.  Builds everything, checks every dual production point (also under racecheck and memcheck on a shape of full tiles,
# where the gate-1 points run their one-width kernels), then the dual defaults' rounds (4 processes, the
# shapes in both orders), the harness round (inputs 1, 15) and the overhead
# benchmark.  usage: scripts/study/one-width.sh OUT   (OUT/all.tgz holds everything)
set -u -o pipefail
out=${1:?usage: one-width.sh OUT}
mkdir -p "$out/w"
w=$out/w
nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader >"$w/device.txt"
pack() { tar czf "$out/all.tgz" -C "$w" . 2>/dev/null; }
trap pack EXIT
{ time make -j16 build/nvfp4-selfcheck build/nvfp4-bench; } >"$w/build.log" 2>&1 || { tail -40 "$w/build.log"; exit 1; }
grep real "$w/build.log"
timeout 240 build/nvfp4-selfcheck --dual --variant production >"$w/selfcheck.txt" 2>&1
echo "selfcheck rc $?"; tail -1 "$w/selfcheck.txt"
for tool in racecheck memcheck; do
    timeout 100 compute-sanitizer --tool $tool --error-exitcode 3 build/nvfp4-selfcheck --dual \
        --variant production --shapes 'dual:m=256;n=512;k=1024' >"$w/$tool.txt" 2>&1
    echo "$tool rc $?"; tail -2 "$w/$tool.txt"
done
D=d256n4096k7168,d256n3072k4096,d512n4096k7168,d512n3072k7168
DR=d512n3072k7168,d512n4096k7168,d256n3072k4096,d256n4096k7168
for r in 1 2 3 4; do
    [ $((r % 2)) = 1 ] && s=$D o=D || s=$DR o=DR
    timeout 120 build/nvfp4-bench --dual --reps 50 --variants default --shapes $s --tsv "$w/def-$r-$o.tsv" >"$w/def-$r-$o.log" 2>&1
    echo "defaults $r $o rc $?"
done
for r in 1; do
    for n in 1 15; do
        timeout 150 build/nvfp4-bench --dual --variants default --reps 50 --inputs $n --tsv "$w/harness-$r-$n.tsv" >"$w/harness-$r-$n.log" 2>&1
        echo "harness $r inputs $n rc $?"
    done
done
timeout 300 scripts/overhead-bench.sh "$w/overhead-twin.tsv" 3 100 >"$w/overhead.log" 2>&1
echo "overhead rc $?"
