#!/bin/bash
# One call: build, selfcheck (grouped and dual), then record each shape as the samples are recorded
# (make report SHAPE=... METRICS=sol DETAIL=1), packed after each shape in samples/<name>'s layout.
set -u -o pipefail
export GS_NO_INSTALL=1 GS_GIT_COMMIT=$(cat .gs-commit 2>/dev/null || echo unknown)
out=${OUT:-/tmp/out}; mkdir -p "$out"
exec > >(tee "$out/resample.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; echo "$GS_GIT_COMMIT"
t0=$(date +%s); el() { echo $(( $(date +%s) - t0 )); }
make -s -j16 build/gemmscope build/gemmscope-record build/nvfp4-selfcheck >/tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
echo "built in $(el) s"
build/nvfp4-selfcheck 2>&1 | tail -1
build/nvfp4-selfcheck --dual 2>&1 | tail -1
pack=/tmp/pack; rm -rf $pack; mkdir -p $pack
for s in "$@"; do
    [ $(el) -gt 540 ] && { echo "no time for $s"; continue; }
    timeout 100 make -s report SHAPE=$s METRICS=sol DETAIL=1 >/tmp/rec-$s.log 2>&1; echo "record $s rc $? at $(el) s"
    run=reports/$s/default/latest
    [ -f "$run/stamps.gss" ] || { tail -5 /tmp/rec-$s.log; continue; }
    mkdir -p "$pack/$s"; cp "$run/meta.txt" "$run/timings.tsv" "$pack/$s/"
    for f in units.tsv probes.tsv pcsamp.tsv pcsamp-twin.tsv; do [ -f "$run/$f" ] && cp "$run/$f" "$pack/$s/"; done
    gzip -9 -c "$run/stamps.gss" >"$pack/$s/stamps.gss.gz"
    [ -f "$run/stamps-detail.gss" ] && gzip -9 -c "$run/stamps-detail.gss" >"$pack/$s/stamps-detail.gss.gz"
    cp "$run/report.md" "$pack/$s.report.md"
    sed -n 3p "$run/report.md"; grep "FAIL\|clock model placement" "$run/report.md" | head -4
    tar cf "$out/samples.tar.tmp" -C "$pack" . && mv "$out/samples.tar.tmp" "$out/samples.tar"
done
echo "total $(el) s"
