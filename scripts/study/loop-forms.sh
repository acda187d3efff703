#!/bin/bash
# Study (no GPU): what the twin's code does to the consumers' main loops, read from cubins
# compiled here.  The 128-token grouped point alone (s4_w128_t128_ws_p_tma) in production, in
# production with a dead trap in the sampler warp's branch, in the twin, and in the twin with its
# pieces taken out by macro (the sampler, the records, all but one phase's record, the record
# count and tile tag held constant); then the 32 combinations of the record-form switches of
# gs_stamp.cuh (GS_STUDY_*: each stores the same data), by distinct machine code; then the whole
# gemm.cu, production against the twin and the two switch forms timed on the GPU.
# usage: scripts/study/loop-forms.sh OUT.tsv
set -eu -o pipefail
out=$1
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
nv() { nvcc -std=c++17 -O3 -lineinfo -gencode=arch=compute_90a,code=sm_90a -I. -I"$t" -cubin "$@"; }
cat >"$t/one.cu" <<'X'
#define NVFP4_POINT_LIST(X) X("s4_w128_t128_ws_p_tma", "study", 4, 128, 128, 1, 1, 1, 0)
#define NVFP4_DUAL_POINT_LIST(X)
#define NVFP4_LAUNCHER GS_SYM(nvfp4_gemm_study_launch)
#include "kernels/nvfp4/gemm.cu"
X
# form NAME TWIN LINES...: one.cu after gs_stamp.cuh and LINES (macro overrides)
form() {
    local n=$1 tw=$2
    shift 2
    { echo '#include "instrument/gs_stamp.cuh"'; printf '%s\n' "$@"; echo '#include "one.cu"'; } >"$t/$n.cu"
    nv ${tw:+-DGS_TWIN=$tw} "$t/$n.cu" -o "$t/$n.cubin"
}
nos=('#undef GS_CLOCK_SAMPLER' '#define GS_CLOCK_SAMPLER(c) ((void)(c))')
norec=('#undef GS_BEGIN' '#undef GS_END' '#define GS_BEGIN(c, ph) ((void)(c))' '#define GS_END(c, ph) ((void)(c))')
only() { # the records of phase $1 alone, one line each
    printf '%s\n' '#undef GS_BEGIN' '#undef GS_END' \
        "#define GS_BEGIN(c, ph) ((ph) != $1 ? (void)0 : (void)((c).clk0[ph] = (uint32_t)gs_clock()))" \
        "#define GS_END(c, ph) ((ph) != $1 ? (void)0 : gs_end((c), (uint8_t)(ph), (c).clk0[ph]))"
}
noml=('#undef GS_BEGIN' '#undef GS_END'
    '#define GS_BEGIN(c, ph) ((ph) == GS_MAINLOOP ? (void)0 : (void)((c).clk0[ph] = (uint32_t)gs_clock()))'
    '#define GS_END(c, ph) ((ph) == GS_MAINLOOP ? (void)0 : gs_end((c), (uint8_t)(ph), (c).clk0[ph]))')
# the record count never advanced and the tile tag 0: nothing of the stamp state changes through a unit
const=('__device__ __forceinline__ void gs_end_const(gs_ctx &c, uint8_t phase, uint32_t clk0)'
    '{ const uint32_t dur = (uint32_t)gs_clock() - clk0; const bool mine = gs_lane() == c.pending;'
    '  c.p_clk0 = mine ? clk0 : c.p_clk0; c.p_dur = mine ? dur : c.p_dur; c.p_tag = mine ? c.tag : c.p_tag;'
    '  c.p_phase = mine ? phase : c.p_phase; if (++c.pending == 32) gs_flush(c); }'
    '#undef GS_END' '#define GS_END(c, ph) gs_end_const((c), (uint8_t)(ph), (c).clk0[ph])'
    '#undef GS_TILE' '#define GS_TILE(c, t, g) (GS_BATCH_FLUSH(c), (c).tag = 0)')
form prod ''
form prod_deadtrap '' '#undef GS_CLOCK_SAMPLER' \
    '#define GS_CLOCK_SAMPLER(c) do { if (threadIdx.x == 1000) asm volatile("trap;"); } while (0)'
form twin 1
form twin_nosampler 1 "${nos[@]}"
form twin_norecords 1 "${norec[@]}"
form twin_headers 1 "${norec[@]}" "${nos[@]}"
form twin_no_mainloop_record 1 "${noml[@]}"
form twin_nosampler_tag_count_constant 1 "${nos[@]}" "${const[@]}"
for ph in GS_ACC_TO_REG GS_EPILOGUE GS_STORE; do
    mapfile -t o < <(only $ph)
    form "twin_nosampler_only_$ph" 1 "${nos[@]}" "${o[@]}"
done
echo -e "form\tkernel\tloop\tlen_prod\tlen_form\tsim_opcode\tsim_opcode_control\tsim_words\tloops_in_form" >"$t/out.tsv"
for f in prod_deadtrap twin twin_nosampler twin_norecords twin_headers twin_no_mainloop_record \
    twin_nosampler_tag_count_constant twin_nosampler_only_GS_ACC_TO_REG twin_nosampler_only_GS_EPILOGUE \
    twin_nosampler_only_GS_STORE; do
    python3 scripts/study/loop-forms.py "$t/prod.cubin" "$f" "$t/$f.cubin" >>"$t/out.tsv"
done
# the switch forms: which compile to the same kernels
for v in $(seq 0 31); do
    nv -DGS_TWIN=1 -DGS_STUDY_CLK32=$((v & 1)) -DGS_STUDY_LANE_REV=$((v >> 1 & 1)) -DGS_STUDY_SEL_IF=$((v >> 2 & 1)) \
        -DGS_STUDY_FLUSH_END=$((v >> 3 & 1)) -DGS_STUDY_NINC=$((v >> 4 & 1)) "$t/one.cu" -o "$t/s$v.cubin"
    h=$(python3 - "$t/s$v.cubin" <<'Y'
import hashlib, sys
exec(open('scripts/study/loop-forms.py').read().split('base, form, other')[0])
k = sections(sys.argv[1])
code, sched = hashlib.sha1(), hashlib.sha1()
for name in sorted(k):
    for lo, hi in k[name]:
        code.update(lo.to_bytes(8, 'little') + hi.to_bytes(8, 'little'))
    for l in loops(k[name]):
        for lo, hi in l:
            sched.update(((lo & 0xFFF) | (hi >> 41) << 12).to_bytes(8, 'little'))
print('kernels %s, main loops (opcodes and controls) %s' % (code.hexdigest()[:12], sched.hexdigest()[:12]))
Y
)
    echo -e "# switch form $v (clk32 $((v & 1)) lane_rev $((v >> 1 & 1)) sel_if $((v >> 2 & 1)) flush_end $((v >> 3 & 1)) ninc $((v >> 4 & 1))): $h" >>"$t/forms.txt"
done
for v in 0 8 16 24; do
    python3 scripts/study/loop-forms.py "$t/prod.cubin" "switches_$v" "$t/s$v.cubin" >>"$t/out.tsv"
done
# the whole translation unit: production, the twin and the two forms timed (twin-flush.tsv)
nv kernels/nvfp4/gemm.cu -o "$t/all_prod.cubin"
for f in base: fe:-DGS_STUDY_FLUSH_END=1 ni:-DGS_STUDY_NINC=1; do
    nv -DGS_TWIN=1 ${f#*:} kernels/nvfp4/gemm.cu -o "$t/all_${f%%:*}.cubin"
    python3 scripts/study/loop-forms.py "$t/all_prod.cubin" "gemm.cu_twin_${f%%:*}" "$t/all_${f%%:*}.cubin" >>"$t/out.tsv"
done
{
    echo "# The consumers' main loops of each form against production's, read from cubins compiled on the development machine (nvcc $(nvcc --version | sed -n 's/.*release \([0-9.]*\).*/\1/p'), sm_90a); scripts/study/loop-forms.sh and loop-forms.py of the study commit named in docs/notebook/2026-12-03-twin-loop-draws.md. Loops: innermost loops holding HGMMAs, under 900 instructions, in address order; sim_*: difflib ratios (1 = the same sequence) of opcodes, of opcodes with their scheduling controls, of whole instruction words (registers included)."
    cat "$t/forms.txt"
    cat "$t/out.tsv"
} >"$out.tmp" && mv "$out.tmp" "$out"
