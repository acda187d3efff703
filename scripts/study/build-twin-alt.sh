#!/bin/bash
# Experiments beside the kept kernel (runs at this commit).  The study switches it was written for
# (gs_stamp.cuh's GS_STAMP_ABLATE ..., the kernel's NVFP4_ABLATE) exist at commit 16da9bf.
# Builds DIR/nvfp4-bench and DIR/nvfp4-selfcheck with the twin compiled with other flags
# (TWIN_FLAGS, e.g. -DGS_STAMP_ABLATE=1) and, when KERNEL_FLAGS is given, all three builds
# of the GEMM with those too (an experiment on the kernel itself, e.g. -DNVFP4_ABLATE=1).
# DIR starts from a copy of build/'s objects (same objects, same times), so make
# recompiles only the GEMM objects that change.  Run after 'make all'; or with
# GS_ALT_FRESH=1 DIR is built from nothing, so it can run beside 'make all' (gpu-session's
# exp step starts its builds that way, the GEMM objects of both compiling at once).
# The binaries have the production points (points.h), the evidence points too with
# NVFP4_POINT_SET=all in the environment.
# usage: scripts/study/build-twin-alt.sh DIR TWIN_FLAGS [KERNEL_FLAGS]
set -u -o pipefail
[ $# -eq 2 ] || [ $# -eq 3 ] || { echo "usage: build-twin-alt.sh DIR TWIN_FLAGS [KERNEL_FLAGS]" >&2; exit 2; }
dir=$1 flags=$2 kflags=${3:-}
# DIR is removed first: only a folder of its own under build/, never build/ or one of its parts
name=${dir#build/}
if [ "$name" = "$dir" ] || ! [[ $name =~ ^[A-Za-z0-9_-]+(/[A-Za-z0-9_-]+)*$ ]] ||
    [[ $name =~ ^(cuda|instrument|kernels|analysis|tests|cupti)(/|$) ]]; then
    echo "build-twin-alt.sh: DIR must be build/<name>[/<name>...] (letters, digits, '-', '_'), not '$dir'" >&2
    exit 2
fi
rm -rf "$dir" && mkdir -p "$dir" || exit 1
if [ "${GS_ALT_FRESH:-0}" != 1 ]; then
    cp -a build/cuda build/instrument build/kernels "$dir/" || exit 1
    rm -f "$dir"/kernels/nvfp4/gemm*_twin.o
    [ -n "$kflags" ] && rm -f "$dir"/kernels/nvfp4/gemm*_prod.o "$dir"/kernels/nvfp4/gemm*_detail.o
fi
make -s -j${GS_ALT_JOBS:-4} BUILD="$dir" NVFP4_POINT_SET="${NVFP4_POINT_SET:-production}" TWIN_FLAGS="$flags" KERNEL_FLAGS="$kflags" "$dir/nvfp4-bench" "$dir/nvfp4-selfcheck"
