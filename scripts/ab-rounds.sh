#!/bin/bash
# Times nvfp4-bench binaries against each other in alternation: each round runs every
# binary once, in turn, so drift between processes falls on all alike; then the medians
# over the rounds (scripts/ab-summary.sh).  Used by the A/B step of gpu-session.sh and by
# study/twin-overhead.sh.  GPU required.
# usage: scripts/ab-rounds.sh DIR ROUNDS SHAPES VARIANTS REPS NAME=BINARY [NAME=BINARY ...]
# GS_AB_BENCH_ARGS adds arguments to every nvfp4-bench call.
# writes DIR/<NAME>-<round>.tsv (earlier tables there are removed first) and DIR/summary.tsv
set -u -o pipefail
[ $# -ge 6 ] || { echo "usage: ab-rounds.sh DIR ROUNDS SHAPES VARIANTS REPS NAME=BINARY..." >&2; exit 2; }
dir=$1 rounds=$2 shapes=$3 variants=$4 reps=$5
shift 5
# every binary's tables go by its NAME: two alike would overwrite each other's rounds
names=$(for nb in "$@"; do echo "${nb%%=*}"; done | sort | uniq -d)
[ -z "$names" ] || { echo "ab-rounds.sh: two binaries named $(echo $names) (give them different NAMEs)" >&2; exit 2; }
mkdir -p "$dir"
rm -f "$dir"/*.tsv "$dir"/*.partial # never mix with an earlier call's rounds
read -ra extra <<<"${GS_AB_BENCH_ARGS:-}" # extra words for nvfp4-bench
failed=0
for r in $(seq "$rounds"); do
    for nb in "$@"; do
        name=${nb%%=*} bin=${nb#*=}
        echo "-- round $r: $name ($bin)"
        # GS_AB_TIMEOUT (seconds, default 600) ends a run that hangs; the rounds before it are
        # still summarised, the cut one is set aside as .partial
        timeout -k 30 "${GS_AB_TIMEOUT:-600}" "$bin" --shapes "$shapes" --variants "$variants" --reps "$reps" \
            --tsv "$dir/$name-$r.tsv" "${extra[@]}"
        rc=$?
        if [ $rc -ne 0 ]; then
            echo "ab-rounds: $name round $r failed (rc $rc; 124 = timed out after ${GS_AB_TIMEOUT:-600} s)" >&2
            [ -f "$dir/$name-$r.tsv" ] && mv "$dir/$name-$r.tsv" "$dir/$name-$r.tsv.partial"
            failed=1
            break 2
        fi
    done
done
# the summary under a temporary name first: a failed summary leaves no half-written table
if scripts/ab-summary.sh "$dir" >"$dir/summary.tsv.tmp"; then
    mv "$dir/summary.tsv.tmp" "$dir/summary.tsv" && cat "$dir/summary.tsv"
else
    rm -f "$dir/summary.tsv.tmp"
    failed=1
fi
exit $failed
