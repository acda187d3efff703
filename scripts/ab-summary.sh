#!/bin/bash
# Medians over rounds of the A/B step (scripts/gpu-session.sh GS_STEPS=ab): reads
# DIR/<binary>-<round>.tsv (nvfp4-bench tables) and prints, per shape, variant and binary,
# the median production time and twin/production ratio and the rounds' times.
# usage: scripts/ab-summary.sh DIR
set -u -o pipefail
dir=${1:?usage: ab-summary.sh DIR}
ls "$dir"/*-[0-9]*.tsv >/dev/null 2>&1 || { echo "ab-summary: no <binary>-<round>.tsv in $dir" >&2; exit 1; }
for f in "$dir"/*-[0-9]*.tsv; do
    b=$(basename "$f" .tsv); b=${b%-*}
    awk -F'\t' -v b="$b" '!/^#/ && $1 != "shape" && $3 ~ /^[0-9.]+$/ { print $1 "\t" $2 "\t" b "\t" $3 "\t" $7 }' "$f"
done | sort -t$'\t' -k1,1 -k2,2 -k3,3 -k4,4g | awk -F'\t' '
function flush() {
    if (n == 0) return
    m = n % 2 ? t[(n + 1) / 2] : (t[n / 2] + t[n / 2 + 1]) / 2
    for (i = 2; i <= n; i++) # insertion sort: few rounds, and mawk has no asort
        for (j = i; j > 1 && r[j - 1] > r[j]; j--) { x = r[j]; r[j] = r[j - 1]; r[j - 1] = x }
    q = n % 2 ? r[(n + 1) / 2] : (r[n / 2] + r[n / 2 + 1]) / 2
    printf "%s\t%s\t%s\t%.2f\t%.4f\t%s\n", k1, k2, k3, m, q, all
    n = 0; all = ""; delete r
}
BEGIN { print "shape\tvariant\tbinary\tprod_us_median\ttwin_over_prod_median\tprod_us_rounds" }
{ if ($1 != k1 || $2 != k2 || $3 != k3) { flush(); k1 = $1; k2 = $2; k3 = $3 }
  t[++n] = $4; r[n] = $5; all = all (all == "" ? "" : " ") $4 }
END { flush() }'
