#!/bin/sh
# Renders the recorded run samples/<shape> into reports/samples/<shape>
# (the no-GPU path of `make report`).  Samples keep their stamps gzip'ed; a sample of another
# tool's trace holds the trace and import.args, the `gemmscope import` arguments (format first) that turn it
# into a run (paths relative to the sample).
# usage: scripts/render-sample.sh SHAPE
set -e
shape=$1
case $shape in */* | .* | '') shape=.invalid ;; esac # a sample's own folder, nothing above it
src=samples/$shape
dst=reports/samples/$shape
if { [ ! -f "$src/meta.txt" ] || [ ! -f "$src/stamps.gss.gz" ]; } && [ ! -f "$src/import.args" ]; then
    names=$(for d in samples/*/; do [ -f "$d/stamps.gss.gz" ] || [ -f "$d/import.args" ] && basename "$d"; done | tr '\n' ' ')
    echo "gemmscope: no GPU here and no recorded sample for SHAPE=$1; samples: $names" >&2
    exit 1
fi
gpu=$(sed -n 's/^gpu = //p' "$src/meta.txt" 2>/dev/null || true) # the device it was recorded on
echo "gemmscope: no GPU here; rendering the recorded sample $src${gpu:+ (recorded on an $gpu)}"
tmp=$dst.tmp.$$
rm -rf "$tmp"
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
if [ -f "$src/import.args" ]; then
    # the importer writes the run itself, into a folder that must not exist yet
    rmdir "$tmp"
    gs=$(pwd)/build/gemmscope out=$(pwd)/$tmp
    (cd "$src" && { tr '\n' ' ' <import.args; printf " -o '%s'\n" "$out"; } | xargs "$gs" import >/dev/null)
else
    cp "$src/meta.txt" "$src/timings.tsv" "$tmp/"
    for f in units.tsv probes.tsv pcsamp.tsv pcsamp-twin.tsv; do
        if [ -f "$src/$f" ]; then cp "$src/$f" "$tmp/"; fi
    done
    gzip -dc "$src/stamps.gss.gz" > "$tmp/stamps.gss"
    if [ -f "$src/stamps-detail.gss.gz" ]; then cp "$src/stamps-detail.gss.gz" "$tmp/"; fi
    # the kernel source the PC samples point into (the stall reasons' phases are read from it)
    if [ -d "$src/sources" ]; then cp -r "$src/sources" "$tmp/"; fi
fi
build/gemmscope report "$tmp" >/dev/null
rm -rf "$dst"
mv "$tmp" "$dst"
trap - EXIT
echo "gemmscope: report $dst/report.md"
grep -q 'Plots not rendered' "$dst/report.md" && echo "gemmscope: plots not rendered (no gnuplot); render them with: make plots RUN=$dst"
exit 0
