#!/bin/bash
# Which L2 state before a metrics pass makes our collector agree with Nsight Compute's
# default cache control?  Per shape: our collector (cupti-check --only-metrics) with each
# way of flushing L2 before every pass (read: 2x L2 of clean reads; read2: that twice;
# discard: 2x L2 of writes, then discard.global.L2 of those lines; evict: 2x L2 of reads at
# L2 evict_last priority, then discard; read-dropc: discard C's lines, then read; none),
# then ncu with --cache-control all
# and none, the same metrics on the same launch sequence.  GPU and ncu required.
# usage: scripts/flush-study.sh [SHAPES...]   (default: g2k1536 g8k2048)
set -u -o pipefail
m=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_lookup_miss.sum,gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed
shapes=${*:-g2k1536 g8k2048}
for shape in $shapes; do
    for fl in ${GS_FLUSH_MODES:-read read2 discard evict read-dropc none}; do
        echo "== $shape: ours, flush $fl"
        build/cupti-check --shape "$shape" --flush "$fl" --only-metrics "$m" | grep -E '^(metric|metrics\.|flush)'
    done
    for cc in all none; do
        echo "== $shape: ncu --cache-control $cc"
        ncu --clock-control none --cache-control "$cc" -k regex:nvfp4_gemm_kernel_prod --launch-skip 5 \
            --launch-count 1 --metrics "$m" --csv --print-units base build/cupti-check --ncu --shape "$shape" |
            grep -E '"(gpu__|dram__|lts__)' | awk -F'","' '{print "ncu", $(NF-2), $NF}' | tr -d '"'
    done
done
