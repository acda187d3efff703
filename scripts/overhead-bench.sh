#!/bin/bash
# The twins' overhead benchmark (GPU): each shape's production point timed as production, twin,
# detail twin and null twin (production's code under another launcher: what the timing
# resolves) in one nvfp4-bench process, ROUNDS rounds (scripts/ab-rounds.sh), on the eight
# benchmark shapes and four custom ones.  Writes one TSV (round, shape, variant, prod_us,
# twin_over_prod, detail_over_prod, null_over_prod) whose header names the device, the commit and
# the command; README.md and docs/method.md render samples/overhead-twin.tsv, its committed run.
# Every build must be correct in every round, or nothing is written.
# usage: scripts/overhead-bench.sh OUT.tsv [ROUNDS [REPS]]     (`make overhead` writes reports/)
set -u -o pipefail
[ $# -ge 1 ] && [ $# -le 3 ] || { echo "usage: overhead-bench.sh OUT.tsv [ROUNDS [REPS]]" >&2; exit 2; }
out=$1 rounds=${2:-3} reps=${3:-100}
[[ $rounds =~ ^[1-9][0-9]?$ ]] || { echo "overhead-bench.sh: ROUNDS takes 1-99, not '$rounds'" >&2; exit 2; }
[[ $reps =~ ^[1-9][0-9]{0,3}$ ]] || { echo "overhead-bench.sh: REPS takes 1-9999, not '$reps'" >&2; exit 2; }
bench=${BUILD:-build}/nvfp4-bench
[ -x "$bench" ] || { echo "overhead-bench.sh: no $bench (make all)" >&2; exit 2; }
work=$(mktemp -d) || exit 1
tmp=$out.tmp.$$
trap 'rm -rf "$work" "$tmp"' EXIT # a table only when complete
# NAME, extra nvfp4-bench arguments, shapes: in this order in the table
groups=("grouped||g8k7168,g8k2048,g2k4096,g2k1536"
    "dual|--dual|d256n4096k7168,d256n3072k4096,d512n4096k7168,d512n3072k7168"
    "custom-grouped||m=320;n=3072;k=5120,m=96;n=7168;k=2048"
    "custom-dual|--dual|dual:m=384;n=3072;k=4096,dual:m=128;n=2048;k=7168")
for g in "${groups[@]}"; do
    IFS='|' read -r name args shapes <<<"$g"
    GS_AB_BENCH_ARGS=$args scripts/ab-rounds.sh "$work/$name" "$rounds" "$shapes" default "$reps" bench="$bench" >&2 ||
        { echo "overhead-bench.sh: the $name rounds failed" >&2; exit 1; }
done
gpu=$(nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader 2>/dev/null | head -1)
commit=${GS_GIT_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}
{
    echo "# The twin's and the detail twin's overhead on the production point of each shape: the eight benchmark shapes and four custom ones; device: ${gpu:-unknown} (name, driver, power limit); commit $commit."
    echo "# scripts/overhead-bench.sh OUT $rounds $reps"
    echo "# $rounds rounds, one process each; each round times production, twin, detail twin and null twin in one loop, $reps repetitions each (blocks of ten back to back, the blocks in a balanced order), L2 flushed before each; twin_over_prod, detail_over_prod and null_over_prod: medians / production median. Every build correct in every round."
    printf 'round\tshape\tvariant\tprod_us\ttwin_over_prod\tdetail_over_prod\tnull_over_prod\n'
    for r in $(seq "$rounds"); do
        for g in "${groups[@]}"; do
            awk -F'\t' -v r="$r" '
                /^#/ { next }
                !hdr { for (i = 1; i <= NF; i++) col[$i] = i; hdr = 1; next }
                $col["correct"] != 1 || !col["null_over_prod"] || $col["null_over_prod"] !~ /^[0-9]+\.[0-9]+$/ { bad = 1; exit }
                { printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r, $col["shape"], $col["variant"], $col["prod_us"], $col["twin_over_prod"], $col["detail_over_prod"], $col["null_over_prod"]; n++ }
                END { if (bad || !n) exit 1 }' "$work/${g%%|*}/bench-$r.tsv" ||
                { echo "overhead-bench.sh: ${g%%|*} round $r: a build was not correct, no null twin, or no rows" >&2; exit 1; }
        done
    done
} >"$tmp" || exit 1
mv "$tmp" "$out" && echo "overhead-bench.sh: wrote $out" >&2
