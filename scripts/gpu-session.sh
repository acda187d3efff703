#!/bin/bash
# One call on the GPU machine: build, then the steps asked for, and pack everything
# that must come back into $OUT/results.tar.gz.
# usage (from the repository root on the GPU machine):
#   [GS_STEPS="check bench report"] scripts/gpu-session.sh [SHAPES...]
# steps: quick   selfcheck of the variants in GS_QUICK_VARIANTS (default all) on a few
#                small shapes (GS_QUICK_SHAPES), for fast feedback; with each build of
#                GS_QUICK_BUILDS (default build; e.g. "build build/NAME" for an experiment)
#        check   make check-gpu (everything, with its final 'N passed, N failed' line)
#        ncu     only check-gpu's comparison of the CUPTI collectors with Nsight Compute
#        sanitizer only check-gpu's compute-sanitizer part
#        bench   make bench-variants (every knob point on the benchmark shapes; it builds the
#                evidence points, `make nvfp4-evidence`, as check and evidence do)
#        report  make report SHAPE=<each shape argument> METRICS=${METRICS:-sol} DETAIL=${DETAIL:-1}
#        example examples/own-kernel against `make install`: its known-answer check (check.sh), then
#                one recording of its default shape, packed as samples/own-kernel
#        dual    the gated dual GEMM: nvfp4-selfcheck --dual (GS_DUAL_CHECK points, default all with
#                GS_DUAL_EVIDENCE=1, which builds the evidence points, else production; its tests and
#                benchmarks, both distributions, both cuBLAS routes), then GS_DUAL_ROUNDS processes of
#                nvfp4-bench --dual (GS_DUAL_VARIANTS, the same default)
#        cupti   build/cupti-check on GS_CUPTI_SHAPE (default g2k1536) and its exit status
#        evidence scripts/evidence.sh (proposal pages for GS_EVIDENCE_SHAPES, default g8k7168 and g2k1536)
#        alt     builds build/alt/nvfp4-bench with the twin compiled with GS_ALT_TWIN_FLAGS and
#                every GEMM build with GS_ALT_KERNEL_FLAGS (an experiment's -D switch), for the
#                ab step (GS_AB_BINS=build/alt/nvfp4-bench; scripts/study/build-twin-alt.sh)
#        exp     kernel experiments, built side by side: GS_EXPERIMENTS holds NAME=FLAG words,
#                each built as build/NAME/nvfp4-bench with every GEMM build compiled with FLAG,
#                for the ab step.  Their builds start from nothing beside the main build (the
#                GEMM objects are the long pole of both); the step waits for them
#        relink  builds build/base/nvfp4-bench from this build's objects, with every host C file
#                that .gs-base/ holds compiled in place of its own: .gs-base/ has an earlier
#                commit's versions of the changed files at their paths (git archive COMMIT FILES),
#                carried along; an A/B of a host-only change (the schedule) without building the
#                kernels twice (then GS_AB_BINS=build/base/nvfp4-bench)
#        sass    cuobjdump SASS and resource usage of the production and twin kernels, the
#                evidence points' too where built (and of the builds named in
#                GS_SASS_BUILDS="NAME=BUILD_DIR ..."); GS_SASS_FILTER (an awk regex on the
#                mangled names, e.g. point_cfgILi3ELi128ELi256ELi1ELi1ELi2ELi0E) keeps only the
#                functions it matches (the whole dump is too large to come back)
#        icache  scripts/study/icache-study.sh: ncu's instruction-cache misses and instruction stalls of
#                the production and twin launches, this build's and those of GS_ICACHE_BINS
#                ("NAME=BINARY ..."), on GS_ICACHE_SHAPES (default g8k7168,g2k1536)
#        mmarate build/nvfp4-mma-rate: the consumer's per-stage floor per wgmma width (no memory
#                traffic), into mma-rate.tsv
#        launch  build/launch-cost: an empty launch's time (the toolkit's timing) against its
#                parameter size (the GEMM's parameters: 7552 bytes, 1920 with at most four groups)
#        ab      times other nvfp4-bench binaries (GS_AB_BINS, e.g. built from an earlier
#                commit and carried along) and this build's, alternating for GS_AB_ROUNDS
#                rounds so drift falls on all alike; tables in reports/ab/<folder>-<binary>-<round>.tsv,
#                medians over the rounds in reports/ab/summary.tsv (scripts/ab-summary.sh);
#                points GS_AB_VARIANTS (default "default": each shape's production point; a
#                binary built before nvfp4-bench knew that word needs the names)
# The study steps flush, gap, spread, setup and twin are gone: their scripts (scripts/study/) need
# cupti-check options or gs_stamp.cuh switches that were removed; run this script at commit
# 16da9bf for them (docs/notebook/2026-11-26-lab-out-of-production.md).
# Comes back, packed after every step (the evidence step: after every shape), so that a call
# stopped by its time limit keeps what its finished steps made: results.tar.gz (reports/ without
# stamp files), samples.tar (per reported
# shape: meta.txt, timings.tsv, pcsamp.tsv, stamps.gss.gz, stamps-detail.gss.gz, the layout of
# samples/<name>).
set -u -o pipefail
export GS_NO_INSTALL=1
# the copy on the GPU machine has no .git: the commit comes along in .gs-commit
export GS_GIT_COMMIT=$(cat .gs-commit 2>/dev/null || echo unknown)
out=${OUT:-/tmp/gs-out}
steps=${GS_STEPS:-check report}
mkdir -p "$out" reports
log="$out/session.log"
# Packs what must come back: run after every step (a call stopped by its time limit still
# brings back what its finished steps made) and once more at the end.
pack_results() {
    local pack s run f rc
    # written under temporary names, then renamed: a call stopped mid-pack keeps the last whole one
    # (tar's 1: a file changed while it was read, the archive still whole)
    tar czf "$out/.results.tar.gz" --exclude='*.gss' --exclude='*.gss.gz' reports
    rc=$?
    if [ $rc -le 1 ]; then mv "$out/.results.tar.gz" "$out/results.tar.gz"; else echo "gpu-session: packing reports/ failed ($rc)"; fi
    pack=$(mktemp -d) || { echo "gpu-session: no temporary folder to pack samples in"; return; }
    for s in "$@" own-kernel; do # own-kernel: the example step's recording
        run=reports/$s/default/latest
        [ -f "$run/stamps.gss" ] || continue
        mkdir -p "$pack/$s"
        cp "$run/meta.txt" "$run/timings.tsv" "$pack/$s/"
        for f in units.tsv probes.tsv pcsamp.tsv pcsamp-twin.tsv; do
            if [ -f "$run/$f" ]; then cp "$run/$f" "$pack/$s/"; fi
        done
        if [ -d "$run/sources" ]; then cp -r "$run/sources" "$pack/$s/"; fi # the PC samples' source
        gzip -9 -c "$run/stamps.gss" >"$pack/$s/stamps.gss.gz"
        if [ -f "$run/stamps-detail.gss" ]; then gzip -9 -c "$run/stamps-detail.gss" >"$pack/$s/stamps-detail.gss.gz"; fi
    done
    tar cf "$out/.samples.tar" -C "$pack" . && mv "$out/.samples.tar" "$out/samples.tar"
    rm -rf "$pack"
}
{
    echo "== device"; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv
    # the experiments' builds, from nothing, beside the main one (the exp step waits for them)
    exp_pids=() exp_names=()
    if [[ " $steps " == *" exp "* ]]; then
        for e in ${GS_EXPERIMENTS:-}; do
            [[ $e =~ ^[A-Za-z0-9_-]+=.+ ]] || { echo "gpu-session: experiment '$e' is not NAME=FLAG"; continue; }
            # each build's output in its own log: parallel builds would interleave
            (time GS_ALT_FRESH=1 GS_ALT_JOBS=8 scripts/study/build-twin-alt.sh "build/${e%%=*}" "" "${e#*=}") \
                >"$out/exp-${e%%=*}.log" 2>&1 &
            exp_pids+=($!) exp_names+=("${e%%=*}")
        done
    fi
    echo "== build"; time make -j16 all
    for step in $steps; do
        case $step in
        quick) echo "== quick selfcheck"
            for qb in ${GS_QUICK_BUILDS:-build}; do
                for v in ${GS_QUICK_VARIANTS:-all}; do
                    echo "-- $qb/nvfp4-selfcheck --variant $v"
                    time timeout ${GS_QUICK_TIMEOUT:-150} "$qb/nvfp4-selfcheck" --variant "$v" \
                        --shapes "${GS_QUICK_SHAPES:-t0,t3,t8,g2k1536,m=200;n=512;k=4096}"
                done
            done ;;
        check) echo "== check-gpu"; time make check-gpu ;;
        ncu) echo "== check-gpu (ncu part)"; time GS_CHECK_PARTS=ncu scripts/check-gpu.sh ;;
        sanitizer) echo "== check-gpu (sanitizer part)"; time GS_CHECK_PARTS=sanitizer scripts/check-gpu.sh ;;
        bench) echo "== bench-variants"; time make bench-variants ;;
        report)
            for s in "$@"; do
                echo "== report $s"; time make report SHAPE="$s" METRICS=${METRICS:-sol} DETAIL=${DETAIL:-1}
                pack_results "$@"
            done ;;
        dual) echo "== dual GEMM selfcheck"
            dual_points=production
            [ -n "${GS_DUAL_EVIDENCE:-}" ] && make --no-print-directory -j16 nvfp4-evidence >/dev/null && dual_points=all
            time timeout ${GS_DUAL_TIMEOUT:-300} build/nvfp4-selfcheck --dual --variant "${GS_DUAL_CHECK:-$dual_points}" \
                --cublas ${GS_DUAL_SHAPES:+--shapes "$GS_DUAL_SHAPES"}
            # GS_DUAL_ROUNDS processes, one after the other (what drifts between them shows)
            for r in $(seq 1 "${GS_DUAL_ROUNDS:-1}"); do
                echo "== dual GEMM bench, round $r"
                time timeout ${GS_DUAL_TIMEOUT:-300} build/nvfp4-bench --dual --reps "${GS_DUAL_REPS:-50}" \
                    --variants "${GS_DUAL_VARIANTS:-$dual_points}" --tsv "$out/dual-bench-$r.tsv"
            done ;;
        cupti) echo "== cupti-check"
            timeout 300 build/cupti-check --shape "${GS_CUPTI_SHAPE:-g2k1536}"; echo "cupti-check exit $?" ;;
        evidence) echo "== evidence" # it builds the evidence points; packed after each shape's pages
            for s in ${GS_EVIDENCE_SHAPES:-g8k7168 g2k1536}; do
                time scripts/evidence.sh "$s"
                pack_results "$@"
            done ;;
        example) echo "== examples/own-kernel"
            prefix=$(pwd)/build/install
            make --no-print-directory install PREFIX="$prefix" >/dev/null &&
                time examples/own-kernel/check.sh "$prefix"
            run=reports/own-kernel/default/$(date -u +%Y%m%d-%H%M%S)
            make --no-print-directory -C examples/own-kernel GEMMSCOPE="$prefix" RUN="../../$run" run &&
                ln -sfn "$(basename "$run")" reports/own-kernel/default/latest
            ;;
        alt) echo "== build/alt: twin with ${GS_ALT_TWIN_FLAGS:-}, every GEMM build with ${GS_ALT_KERNEL_FLAGS:-}"
            time scripts/study/build-twin-alt.sh build/alt "${GS_ALT_TWIN_FLAGS:-}" "${GS_ALT_KERNEL_FLAGS:-}" ;;
        exp) echo "== kernel experiments: ${GS_EXPERIMENTS:-}"
            for i in "${!exp_pids[@]}"; do
                wait "${exp_pids[$i]}" ||
                    echo "gpu-session: experiment ${exp_names[$i]}'s build failed (exp-${exp_names[$i]}.log)"
            done ;;
        relink) echo "== build/base/nvfp4-bench: this build with the host C files of .gs-base/"
            mkdir -p build/base/objs
            vars=$(make -s -f Makefile -f <(printf 'print-%%:\n\t@echo $(%s)\n' '$*') \
                print-NVFP4_BENCH_OBJS print-NVFP4_LIBS print-CUDA_LIB print-NVCC print-ARCH print-CC print-CFLAGS)
            { read -r objs; read -r libs; read -r cudalib; read -r nvcc; read -r arch; read -r cc; read -r cflags; } <<<"$vars"
            linked=() ok=1
            for o in $objs; do
                case $o in *.o | *.a) ;; *) continue ;; esac # not the point-set marker
                src=.gs-base/${o#build/}
                src=${src%.o}.c
                if [ -f "$src" ]; then
                    b=build/base/objs/$(basename "$o")
                    # its own folder first (the earlier headers next to it), then the current ones
                    $cc $cflags -I"$(dirname "${src#.gs-base/}")" -c "$src" -o "$b" || ok=0
                    echo "relink: $src"
                    linked+=("$b")
                else
                    linked+=("$o")
                fi
            done
            [ $ok = 1 ] && $nvcc $arch "${linked[@]}" -L"$cudalib" -lcudart $libs -lz -lm -o build/base/nvfp4-bench \
                || echo "gpu-session: relink failed" ;;
        launch) echo "== launch cost against parameter size"; build/launch-cost --reps "${GS_LAUNCH_REPS:-200}" ;;
        icache) echo "== instruction fetch: production and twin"
            time scripts/study/icache-study.sh "${GS_ICACHE_SHAPES:-g8k7168,g2k1536}" build=build/nvfp4-bench ${GS_ICACHE_BINS:-} ;;
        mmarate) echo "== wgmma rate per width"; build/nvfp4-mma-rate | tee "$out/mma-rate.tsv" ;;
        sass) echo "== sass"
            # this build into sass/, and each NAME=BUILD_DIR of GS_SASS_BUILDS (e.g. an earlier
            # commit's build folder) into sass-NAME/, for a side-by-side reading
            for nb in "=build" ${GS_SASS_BUILDS:-}; do
                name=${nb%%=*} dir=${nb#*=} dest=$out/sass${name:+-$name}
                mkdir -p "$dest"
                for b in gemm_prod gemm_twin gemm_evidence_prod gemm_evidence_twin; do
                    [ -f "$dir/kernels/nvfp4/$b.o" ] || continue
                    cuobjdump -res-usage "$dir/kernels/nvfp4/$b.o" >"$dest/res-${b#gemm_}.txt" 2>&1
                    cuobjdump -sass "$dir/kernels/nvfp4/$b.o" |
                        awk -v re="${GS_SASS_FILTER:-}" 'BEGIN { keep = (re == "") } /Function : / { keep = (re == "" || $0 ~ re) } keep' |
                        gzip -9 >"$dest/$b.sass.gz"
                done
            done ;;
        ab) echo "== A/B timing: ${GS_AB_BINS:-} and this build, alternating"
            bins=()
            for b in ${GS_AB_BINS:-} build/nvfp4-bench; do
                # tables named by the binary's folder and name: build/nvfp4-bench -> build-nvfp4-bench
                # (ab-rounds.sh refuses two alike: put another build's binary in a folder of its own)
                bins+=("$(basename "$(dirname "$b")")-$(basename "$b")=$b")
            done
            scripts/ab-rounds.sh reports/ab "${GS_AB_ROUNDS:-3}" "${GS_AB_SHAPES:-g8k7168,g8k2048,g2k4096,g2k1536}" \
                "${GS_AB_VARIANTS:-default}" \
                "${GS_AB_REPS:-100}" "${bins[@]}" ;;
        *) echo "gpu-session: unknown step '$step'" ;;
        esac
        case $step in report | evidence) ;; *) pack_results "$@" ;; esac # those two pack as they go
    done
} 2>&1 | tee "$log"
[ -f "$out/results.tar.gz" ] || pack_results "$@" # no step packed (none given)
echo "packed: $(du -h "$out/results.tar.gz" "$out/samples.tar" | tr '\n' ' ')"
