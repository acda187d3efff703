#!/bin/bash
# Every committed recorded run renders with no GPU, as `make report SHAPE=<name>` renders it
# (scripts/render-sample.sh: its files copied, the stamps unpacked, `gemmscope report`), and
# its report has its phase table; a copy of one with its stamps cut short must not render.
# usage: tests/samples-render.sh   (from the repository root, build/gemmscope built)
set -u -o pipefail
gs=build/gemmscope
[ -x "$gs" ] || { echo "samples-render: $gs not built" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
row() { printf '%-52s %s\n' "$1" "$2"; if [ "$2" = pass ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi; }

# the run folder of sample $1 in $2, as render-sample.sh lays it out
unpack() {
    local src=samples/$1 dst=$2
    mkdir -p "$dst" && cp "$src/meta.txt" "$src/timings.tsv" "$dst/" || return 1
    for f in units.tsv probes.tsv pcsamp.tsv pcsamp-twin.tsv stamps-detail.gss.gz; do
        if [ -f "$src/$f" ]; then cp "$src/$f" "$dst/" || return 1; fi
    done
    if [ -d "$src/sources" ]; then cp -r "$src/sources" "$dst/" || return 1; fi
    gzip -dc "$src/stamps.gss.gz" >"$dst/stamps.gss"
}

# the source files a run's PC samples name by a relative path (those it keeps a copy of)
sampled_names() {
    cat "$1"/pcsamp*.tsv 2>/dev/null | awk -F'\t' '!/^#/ && $1 != "file" && $1 !~ /^\// { print $1 }' | sort -u
}

# every source file a run's PC samples name by a relative path has its copy in sources/ (else
# the report gives none of them a phase)
sources_complete() {
    local run=$1 name
    for name in $(sampled_names "$run"); do
        [ -f "$run/sources/$name.gz" ] || return 1
    done
}

# the share of a run's PC samples that fall on blank or comment lines of its source copies: a copy
# of another version of a file puts some there (studies/g8k7168-tmr-skr given its meta commit's
# files instead of those of the tree it was built from: 1.9%); the right one none (0.0% in every
# sample): more than 0.5% fails
off_code_share() {
    local run=$1 name
    for name in $(sampled_names "$run"); do
        gzip -dc "$run/sources/$name.gz" | awk -F'\t' -v f="$name" '
            FILENAME == "-" { t = $0; gsub(/^[ \t]+|[ \t]+$/, "", t); off[FNR] = (t == "" || t ~ /^(\/\/|\/\*|\*([ \/]|$))/); next }
            !/^#/ && $1 == f && $3 !~ /_not_issued$/ { print ($2 in off ? off[$2] : 1) * $4, $4 }' - "$run/pcsamp.tsv"
    done | awk '{ o += $1; a += $2 } END { printf "%.1f", a ? 100 * o / a : 0 }'
}

# plot data holds no value a run cannot have (inf, nan)
finite_plots() { ! grep -qiwE -- 'inf|nan' "$1"/*.dat; }

n=0
for d in samples/*/; do
    name=$(basename "$d")
    [ -f "$d/meta.txt" ] && [ -f "$d/stamps.gss.gz" ] || continue
    n=$((n + 1))
    run=$tmp/$name
    if unpack "$name" "$run" && "$gs" report "$run" >/dev/null 2>"$tmp/$name.err" && grep -q '^## Phases$' "$run/report.md"; then
        row "sample $name renders" pass
        if finite_plots "$run/plots"; then
            row "sample $name plot data finite" pass
        else
            row "sample $name plot data finite" FAIL
            grep -liwE -- 'inf|nan' "$run"/plots/*.dat | head -n 3
        fi
    else
        row "sample $name renders" FAIL
        head -n 3 "$tmp/$name.err"
    fi
done
[ $n -ge 10 ] && row "samples found ($n)" pass || row "samples found ($n, expected 10 or more)" FAIL

# the case that must fail: the first dual sample with its stamps cut in half
bad=$tmp/bad
if unpack d512n4096k7168 "$bad"; then
    size=$(stat -c %s "$bad/stamps.gss")
    truncate -s $((size / 2)) "$bad/stamps.gss"
    if "$gs" report "$bad" >/dev/null 2>&1; then
        row "stamps cut short: refused" FAIL
    else
        row "stamps cut short: refused" pass
    fi
else
    row "stamps cut short: refused (no sample to cut)" FAIL
fi
# every sample with PC samples carries their sources; a sample missing one copy is caught
nps=0 nbad=""
for d in $(find samples -name pcsamp.tsv -printf '%h\n' | sort); do
    nps=$((nps + 1))
    sources_complete "$d" || nbad="$nbad $d"
done
[ $nps -ge 10 ] && [ -z "$nbad" ] && row "PC-sampled sources copied in every sample ($nps)" pass ||
    row "PC-sampled sources copied in every sample ($nps;${nbad:- none missing})" FAIL
nworst=0 worst=""
for d in $(find samples -name pcsamp.tsv -printf '%h\n' | sort); do
    sh=$(off_code_share "$d")
    awk -v a="$sh" -v b="$nworst" 'BEGIN { exit !(a > b) }' && nworst=$sh worst=$d
done
awk -v a="$nworst" 'BEGIN { exit !(a <= 0.5) }' && row "PC samples on code lines of each copy (worst $nworst%)" pass ||
    row "PC samples on code lines of each copy (worst $nworst%, $worst)" FAIL
# another version of gemm.cu, from the tree itself (no git history needed): an older sample's copy
mkdir -p "$tmp/oldsrc" && cp -r samples/studies/ramp-d256/base/. "$tmp/oldsrc/" &&
    cp samples/studies/twin-stalls-2026-11-22/g2k1536/sources/kernels/nvfp4/gemm.cu.gz "$tmp/oldsrc/sources/kernels/nvfp4/"
sh=$(off_code_share "$tmp/oldsrc")
awk -v a="$sh" 'BEGIN { exit !(a > 0.5) }' && row "a copy of another version of the source: caught ($sh%)" pass ||
    row "a copy of another version of the source: caught ($sh%)" FAIL
# an empty copy is no copy of the file: every sampled line falls outside it
mkdir -p "$tmp/emptysrc" && cp -r samples/g2k1536/. "$tmp/emptysrc/" && : | gzip >"$tmp/emptysrc/sources/kernels/nvfp4/gemm.cu.gz"
sh=$(off_code_share "$tmp/emptysrc")
awk -v a="$sh" 'BEGIN { exit !(a > 0.5) }' && row "an empty copy of the source: caught ($sh%)" pass ||
    row "an empty copy of the source: caught ($sh%)" FAIL
mkdir -p "$tmp/nosrc" && cp -r samples/g2k1536/. "$tmp/nosrc/" && rm -f "$tmp/nosrc/sources/kernels/nvfp4/ptx.cuh.gz"
sources_complete "$tmp/nosrc" && row "a sample missing one source copy: caught" FAIL || row "a sample missing one source copy: caught" pass
# the case the finite check must refuse: a rendered sample's histogram with a bin at inf
if [ -d "$tmp/d512n4096k7168/plots" ]; then
    cp -r "$tmp/d512n4096k7168/plots" "$tmp/inf-plots"
    echo "inf 0" >>"$tmp/inf-plots/phase_hist.dat"
    finite_plots "$tmp/inf-plots" && row "plot data with inf: refused" FAIL || row "plot data with inf: refused" pass
else
    row "plot data with inf: refused (no rendered sample)" FAIL
fi
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
