#!/bin/bash
# Proposal evidence on the GPU machine: for each shape, record the knob points that switch
# one seed proposal on or off (at the baseline point and at a second point, the shape's production
# point or, for d256n4096k7168, its default before the cluster pair), then
# write one evidence page per proposal with both measured A/B pairs.  The profile that
# bounds each claim is the baseline point's, recorded with the detail twin: the state the
# seed documents' proposals were pitched against.
# The gated dual GEMM's shapes (d...) have their own baseline (s1_w128_t128_g2: one stage, no
# producer warpgroup, one CTA per tile, SIMT stores, both accumulators in each warpgroup) and
# partners.
# usage: scripts/evidence.sh [SHAPES...]      pages: reports/evidence/<shape>-<proposal>.md
set -u -o pipefail
gs=build/gemmscope
# the baselines and most A/B partners are evidence points (points.h): the recorder must have them
make -j"$(nproc)" --no-print-directory nvfp4-evidence >/dev/null || { echo "evidence: make nvfp4-evidence failed" >&2; exit 1; }
root=reports/ev
shapes=${*:-g8k7168 g2k1536}
# proposal  baseline-off  baseline-on  production-off  production-on: the baseline point with the
# proposal switched on, and the second point (the shape's production point in variants.c; for
# d256n4096k7168 its earlier one, s4_w64_t128_ws_p_tma_g1) with it switched off.  The
# dual shapes' warp specialisation adds seed 002's ping-pong: a 64-column point with one consumer
# warpgroup against the same with two taking its units in turn (pp-off pp-on), and the production
# point (two warpgroups sharing each unit) against that ping-pong point (prod pp-on), which also
# differs in columns per CTA, gate or store: the production design against seed 002's
pairs_for() {
    case $1 in
    g8k7168) # production point s3_w128_t256_ws_p_tmr_skr: the store staged in a ring slot needs
        # 2+ stages and the producer warpgroup, so "fewer stages" is 2 and the point without a
        # producer warpgroup also has SIMT stores (a second knob that changes with it)
        echo "pipeline-stages s1_w128_t128 s4_w128_t128 s2_w128_t256_ws_p_tmr_skr s3_w128_t256_ws_p_tmr_skr
tile-size s1_w128_t128 s1_w64_t128 s3_w128_t256_ws_p_tmr_skr s3_w128_t128_ws_p_tmr_skr
tma-store s1_w128_t128 s1_w128_t128_tma s3_w128_t256_ws_p_skr s3_w128_t256_ws_p_tmr_skr
warp-specialisation s1_w128_t128 s1_w128_t128_ws s3_w128_t256_p_skr s3_w128_t256_ws_p_tmr_skr" ;;
    # the gated dual GEMM: the baseline point with both accumulators per warpgroup; a store
    # staged in a ring slot needs the producer warpgroup, so the production point without one
    # also has SIMT stores (a second knob that changes with it)
    d256n4096k7168) # s4_w64_t128_ws_p_tma_g1 (a B1 and a B2 warpgroup; the default before the cluster pair); ping-pong
        # runs gate 2, so "production against ping-pong" changes the gate too
        echo "pipeline-stages s1_w128_t128_g2 s4_w128_t128_g2 s1_w64_t128_ws_p_tma_g1 s4_w64_t128_ws_p_tma_g1
tile-size s1_w128_t128_g2 s1_w64_t128_g2 s4_w64_t128_ws_p_tma_g1 s4_w64_t64_ws_p_tma_g1
tma-store s1_w128_t128_g2 s1_w128_t128_tma_g2 s4_w64_t128_ws_p_g1 s4_w64_t128_ws_p_tma_g1
warp-specialisation s1_w128_t128_g2 s1_w128_t128_ws_g2 s4_w64_t128_p_tma_g1 s4_w64_t128_ws_p_tma_g1 s4_w64_t128_ws_p_tma_g2 s4_w64_t128_ws_p_tma_pp_g2 s4_w64_t128_ws_p_tma_g1 s4_w64_t128_ws_p_tma_pp_g2" ;;
    d256n3072k4096) # production point s4_w64_t128_ws_p_tma_sk_g1 (a B1 and a B2 warpgroup)
        echo "pipeline-stages s1_w128_t128_g2 s4_w128_t128_g2 s1_w64_t128_ws_p_tma_sk_g1 s4_w64_t128_ws_p_tma_sk_g1
tile-size s1_w128_t128_g2 s1_w64_t128_g2 s4_w64_t128_ws_p_tma_sk_g1 s4_w64_t64_ws_p_tma_sk_g1
tma-store s1_w128_t128_g2 s1_w128_t128_tma_g2 s4_w64_t128_ws_p_sk_g1 s4_w64_t128_ws_p_tma_sk_g1
warp-specialisation s1_w128_t128_g2 s1_w128_t128_ws_g2 s4_w64_t128_p_tma_sk_g1 s4_w64_t128_ws_p_tma_sk_g1 s4_w64_t128_ws_p_tmr_sk_g2 s4_w64_t128_ws_p_tmr_sk_pp_g2 s4_w64_t128_ws_p_tma_sk_g1 s4_w64_t128_ws_p_tmr_sk_pp_g2" ;;
    # M = 512: the production point is a B1/B2 pair on 256-token tiles with 3 stages, where the
    # exchange shares the unit's last ring slot with the staged store: that needs the producer
    # warpgroup and the ring-staged store, so the points without either have 2 stages (and the
    # exchange in a buffer of its own), and the smaller tile has 4 (it fits): each of those pairs
    # changes the stages too
    d512n4096k7168) # production point s3_w64_t256_ws_p_tmr_g1
        echo "pipeline-stages s1_w128_t128_g2 s4_w128_t128_g2 s2_w64_t256_ws_p_tmr_g1 s3_w64_t256_ws_p_tmr_g1
tile-size s1_w128_t128_g2 s1_w64_t128_g2 s3_w64_t256_ws_p_tmr_g1 s4_w64_t128_ws_p_tmr_g1
tma-store s1_w128_t128_g2 s1_w128_t128_tma_g2 s2_w64_t256_ws_p_g1 s3_w64_t256_ws_p_tmr_g1
warp-specialisation s1_w128_t128_g2 s1_w128_t128_ws_g2 s2_w64_t256_p_g1 s3_w64_t256_ws_p_tmr_g1 s4_w64_t128_ws_p_tma_g2 s4_w64_t128_ws_p_tma_pp_g2 s3_w64_t256_ws_p_tmr_g1 s4_w64_t128_ws_p_tma_pp_g2" ;;
    d512n3072k7168) # production point s3_w64_t256_ws_p_tmr_sk_g1
        echo "pipeline-stages s1_w128_t128_g2 s4_w128_t128_g2 s2_w64_t256_ws_p_tmr_sk_g1 s3_w64_t256_ws_p_tmr_sk_g1
tile-size s1_w128_t128_g2 s1_w64_t128_g2 s3_w64_t256_ws_p_tmr_sk_g1 s4_w64_t128_ws_p_tmr_sk_g1
tma-store s1_w128_t128_g2 s1_w128_t128_tma_g2 s2_w64_t256_ws_p_sk_g1 s3_w64_t256_ws_p_tmr_sk_g1
warp-specialisation s1_w128_t128_g2 s1_w128_t128_ws_g2 s2_w64_t256_p_sk_g1 s3_w64_t256_ws_p_tmr_sk_g1 s4_w64_t128_ws_p_tmr_sk_g2 s4_w64_t128_ws_p_tmr_sk_pp_g2 s3_w64_t256_ws_p_tmr_sk_g1 s4_w64_t128_ws_p_tmr_sk_pp_g2" ;;
    *) # production point s4_w128_t128_ws_p_tma
        echo "pipeline-stages s1_w128_t128 s4_w128_t128 s1_w128_t128_ws_p_tma s4_w128_t128_ws_p_tma
tile-size s1_w128_t128 s1_w64_t128 s4_w128_t128_ws_p_tma s4_w64_t128_ws_p_tma
tma-store s1_w128_t128 s1_w128_t128_tma s4_w128_t128_ws_p s4_w128_t128_ws_p_tma
warp-specialisation s1_w128_t128 s1_w128_t128_ws s4_w128_t128_p_tma s4_w128_t128_ws_p_tma" ;;
    esac
}
mkdir -p reports/evidence
for shape in $shapes; do
    pairs=$(pairs_for "$shape")
    # every pair above has the production point on one side; it must still be the default
    subject=nvfp4 base=s1_w128_t128
    case $shape in d[0-9]* | dual:*) subject=dual base=s1_w128_t128_g2 ;; esac
    prod=$($gs variants "$subject" "$shape" | awk '/\[default\]$/ { print $1 }')
    # d256n4096k7168's default, the cluster pair, has none of the four switches (its stages,
    # tile, store and producer warpgroup are fixed): its pairs take the default it replaced.
    # Tied to the pair by name, so that a new default fails here instead of going unnoticed
    second=$prod
    if [ "$shape" = d256n4096k7168 ] && [ "$prod" = s3_w64_t256_ws_p_tmr_skp_g1 ]; then
        second=s4_w64_t128_ws_p_tma_g1
    fi
    if [ -z "$prod" ] || echo "$pairs" | awk -v p="$second" '$4 != p && $5 != p { bad = 1 } END { exit !bad }'; then
        echo "evidence: $shape: the pairs' production point is not the shape's default ('${prod:-none}'): update pairs_for" >&2
        exit 1
    fi
    rm -rf "$root/$shape" "reports/ev-profile/$shape" # never mix with an earlier session's runs
    # every point once (twin), then the baseline again with the detail twin (the profile)
    for v in $(echo "$pairs" | awk '{ for (i = 2; i <= NF; i++) print $i }' | sort -u); do
        $gs record SHAPE="$shape" VARIANT="$v" METRICS=none DETAIL=0 --root "$root" >/dev/null ||
            echo "evidence: recording $shape $v failed" >&2
    done
    prof=reports/ev-profile
    $gs record SHAPE="$shape" VARIANT=$base METRICS=none DETAIL=1 --root "$prof" >/dev/null ||
        echo "evidence: recording the $shape profile failed" >&2
    echo "$pairs" | while read -r prop b0 b1 p0 p1 q0 q1 c0 c1; do
        r() { echo "$root/$shape/$1/latest"; }
        more=()
        [ -n "$q1" ] && more+=(--ab "$(r $q0)" "$(r $q1)" --label "ping-pong: $q0 -> $q1")
        [ -n "$c1" ] && more+=(--ab "$(r $c0)" "$(r $c1)" --label "production point against ping-pong: $c0 -> $c1")
        $gs evidence "$prop" "$prof/$shape/$base/latest" \
            --ab "$(r $b0)" "$(r $b1)" --label "baseline point: $b0 -> $b1" \
            --ab "$(r $p0)" "$(r $p1)" --label "production point: $p0 -> $p1" "${more[@]}" \
            -o "reports/evidence/$shape-$prop.md"
    done
done
