#!/bin/sh
# Renders the recorded run samples/<shape> into reports/samples/<shape>
# (the no-GPU path of `make report`).  Samples keep their stamps gzip'ed.
# usage: scripts/render-sample.sh SHAPE
set -e
shape=$1
src=samples/$shape
dst=reports/samples/$shape
if [ ! -f "$src/meta.txt" ]; then
    echo "gemmscope: no GPU here and no recorded sample for SHAPE=$shape; samples: $(ls -d samples/*/ | xargs -n1 basename | tr '\n' ' ')" >&2
    exit 1
fi
echo "gemmscope: no GPU here; rendering the recorded H100 sample $src"
tmp=$dst.tmp.$$
rm -rf "$tmp"
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
cp "$src/meta.txt" "$src/timings.tsv" "$tmp/"
[ -f "$src/pcsamp.tsv" ] && cp "$src/pcsamp.tsv" "$tmp/"
gzip -dc "$src/stamps.gss.gz" > "$tmp/stamps.gss"
build/gemmscope report "$tmp" >/dev/null
rm -rf "$dst"
mv "$tmp" "$dst"
trap - EXIT
echo "gemmscope: report $dst/report.md"
grep -q 'Plots not rendered' "$dst/report.md" && echo "gemmscope: plots not rendered (no gnuplot); render them with: make plots RUN=$dst"
exit 0
