#!/bin/bash
# Study (one session): the token pre-pass in three forms (tokens.cu as committed; GS_STUDY_TOKENS=1:
# 32-bit index arithmetic; =2: the same with two token blocks per thread block, both loads issued
# first), each linked into a production nvfp4-bench on the development machine and carried as
# build/carry/tk.txz; scripts/ab-rounds.sh on the four dual benchmarks and the four grouped ones.
# Comes back: tokens-ab.tgz (the rounds' tables and logs, with each process's pre-pass-alone line).
# usage: scripts/study/tokens-ab.sh [ROUNDS]
set -u
ret=${OUT:-/tmp/gs-out}
mkdir -p "$ret" /tmp/tk
tar xJf build/carry/tk.txz -C /tmp/tk || { echo "no carried programs"; exit 1; }
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv,noheader | tee /tmp/tk/device.txt
bins="base=/tmp/tk/tk0 lean=/tmp/tk/tk1 lean2=/tmp/tk/tk2"
GS_AB_BENCH_ARGS=--dual scripts/ab-rounds.sh /tmp/tk/dual "${1:-3}" d256n4096k7168,d256n3072k4096,d512n4096k7168,d512n3072k7168 default 100 $bins >/tmp/tk/dual.log 2>&1
tar czf "$ret/tokens-ab.tgz" -C /tmp/tk dual dual.log device.txt
scripts/ab-rounds.sh /tmp/tk/grouped "${1:-3}" g8k7168,g8k2048,g2k4096,g2k1536 default 100 $bins >/tmp/tk/grouped.log 2>&1
tar czf "$ret/tokens-ab.tgz" -C /tmp/tk dual dual.log grouped grouped.log device.txt
tail -30 /tmp/tk/dual.log /tmp/tk/grouped.log
