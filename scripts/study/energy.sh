#!/bin/bash
# study (not kept): energy and clocks of back-to-back launches; SASS of the production and twin objects
set -u
cd "$(dirname "$0")/../.."
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv,noheader > $R/gpu.txt
make -j16 build/nvfp4-bench > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
gcc -std=c11 -O2 -Wall -I. -I/usr/local/cuda/include -c scripts/study/energy.c -o /tmp/energy.o && \
  nvcc -gencode=arch=compute_90a,code=sm_90a /tmp/energy.o $(cat scripts/study/objs.txt) -L/usr/local/cuda/lib64 -lcudart -lcublas -lm -lz -ldl -o /tmp/energy || exit 1
/tmp/energy d512n3072k7168 d256n4096k7168 d512n4096k7168 d256n3072k4096 2>&1 | tee $R/energy.tsv
for b in prod twin; do cuobjdump -sass build/kernels/nvfp4/gemm_$b.o | gzip > $R/sass-$b.txt.gz; done
cd $OUT && tar czf r.tgz r && rm -rf r
