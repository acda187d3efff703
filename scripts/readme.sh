#!/bin/bash
# The README's figures, rendered from the committed samples: each block between a marker line
# and the next "<!-- end -->" line is what its marker's command prints.
#   <!-- gemmscope table [--kind speed|smtime] RUN... -->    build/gemmscope table ... (a RUN holding
#                                                             import.args is imported first)
#   <!-- gemmscope report-section RUN HEADING -->             that section of RUN's report, fenced
#   <!-- gemmscope evidence-table SHAPE... -->                the seed proposals' pages, samples/evidence
#   <!-- gemmscope check-gpu FILE -->                          a recorded `make check-gpu`: its header lines
#                                                             and whether this tree's kernels/ and instrument/
#                                                             are those of the commit it names
#   <!-- gemmscope check-lines NAME RUN... -->                  each RUN's `gemmscope check` row whose text holds NAME
#   <!-- gemmscope defaults-table SUBJECT TSV SHAPE... -->      each shape's production point (gemmscope
#                                                             variants) and its rounds in an nvfp4-bench sweep
#   <!-- gemmscope harness-table SUBJECT TSV SHAPE... -->      the same point's rounds with one launch per L2 flush
#                                                             and with GPU MODE's harness (the inputs column)
#   <!-- gemmscope overhead-table TSV -->                      a recorded overhead benchmark: twin/x, detail/x and null twin/x
#   <!-- gemmscope overhead-runs [--build B] TSV... -->        per run of a study's overhead rounds (its call,
#                                                              build and run columns; --build: of the next TSV,
#                                                              build B's only),
#                                                              the shapes within the twins' targets
#                                                             per shape, each round and the medians
#   <!-- gemmscope stall-rows PHASE RUN... -->                  each RUN's row of PHASE in its report's stall reasons
#                                                             (PC sampling, phases from the run's copy of its source)
#   <!-- gemmscope report-lines RUN TEXT... -->                 for each TEXT, the first line of RUN's report that holds it,
#                                                             fenced (a TEXT no line holds: refused)
# usage: scripts/readme.sh [--check] [FILE]   (FILE: README.md)
#   rewrites FILE; with --check, rewrites nothing and exits 1 (with a diff) when FILE's blocks
#   differ from what the samples give (`make test` runs it so)
set -u -o pipefail
check=0
if [ "${1:-}" = --check ]; then
    check=1
    shift
fi
file=${1:-README.md}
gs=${GEMMSCOPE:-build/gemmscope} # GEMMSCOPE: another build of it (the tests run one without a recorder beside it)
[ -x "$gs" ] || { echo "readme.sh: $gs not built" >&2; exit 2; }
[ -f "$file" ] || { echo "readme.sh: no file $file" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# RUN's report, rendered once per rendering of the file: its folder into the variable out.
report_of() {
    out=$tmp/report-$(echo "$1" | tr '/' '_')
    [ -f "$out/report.md" ] || "$gs" report "$1" -o "$out" >/dev/null
}

# A section of a run's report: from the heading line to the next heading of its level or above.
report_section() {
    local run=$1 heading=$2 out
    report_of "$run" || return 1
    local level=${heading%%[!#]*}
    echo '```'
    awk -v h="$heading" -v n=${#level} '
        $0 == h { on = 1; print; next }
        on && /^#+ / { m = match($0, /^#+/); if (RLENGTH <= n) exit }
        on { print }' "$out/report.md" | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
    echo '```'
}

# One line per seed proposal: what the seeds claimed, the profile's bound and the measured
# A/Bs (baseline point, production point) of each shape's page.
evidence_table() {
    local shapes=("$@") head="| proposal | the seeds predicted | bound from the profile" sep="|---|---|---"
    head="$head ($(
        IFS=/
        echo "${shapes[*]}"
    )) |"
    sep="$sep|"
    for s in "${shapes[@]}"; do
        head="$head measured on $s: baseline, production |"
        sep="$sep---|"
    done
    echo "$head"
    echo "$sep"
    for p in pipeline-stages tile-size tma-store warp-specialisation; do
        local title claim bounds="" cells=""
        for s in "${shapes[@]}"; do
            local page=samples/evidence/$s-$p.md
            [ -f "$page" ] || { echo "readme.sh: no page $page" >&2; return 1; }
            title=$(sed -n 's/^# Evidence: \(.*\)$/\1/p' "$page")
            claim=$(sed -n 's/^| what the claim needs | x\([0-9.]*\) faster.*/x\1/p' "$page")
            bounds="$bounds${bounds:+ / }$(grep -o 'at most \*\*x[0-9.]*\*\* faster' "$page" | head -n 1 | grep -o 'x[0-9.]*')"
            cells="$cells $(grep -o '^Measured: \*\*x[0-9.]*\*\*' "$page" | grep -o 'x[0-9.]*' | paste -sd, - | sed 's/,/, /g') |"
        done
        echo "| $title | ${claim:--} | $bounds |$cells"
    done
}

# The twins' overhead targets (docs/method.md, "Twin overhead"), judged on the medians before
# rounding, and an awk function med(S): the median of the numbers in the string S (insertion sort:
# few rounds, and mawk has no asort).
TWIN_MAX=1.02 DETAIL_MAX=1.08
AWK_MEDIAN='
function med(s,   n, a, i, j, t) {
    n = split(s, a, " ")
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}'

# A recorded overhead benchmark (round, shape, variant, ..., twin_over_prod, detail_over_prod,
# null_over_prod columns, by name): per shape in the file's order, its point, each round's twin/x,
# detail/x and null twin/x and their medians, the range of the medians over the shapes, and the
# count within the targets.
overhead_table() {
    local tsv=$1
    [ -f "$tsv" ] || { echo "readme.sh: no file $tsv" >&2; return 2; }
    awk -F'\t' -v TWIN_MAX=$TWIN_MAX -v DETAIL_MAX=$DETAIL_MAX "$AWK_MEDIAN"'
        /^#/ { next }
        !hdr { for (i = 1; i <= NF; i++) col[$i] = i; hdr = 1
               if (!col["shape"] || !col["variant"] || !col["twin_over_prod"] || !col["detail_over_prod"] || !col["null_over_prod"]) { bad = 1; exit }
               next }
        { sh = $col["shape"]
          if (!(sh in seen)) { seen[sh] = 1; order[++n] = sh; var[sh] = $col["variant"] }
          tw[sh] = tw[sh] " " $col["twin_over_prod"]; de[sh] = de[sh] " " $col["detail_over_prod"]; nu[sh] = nu[sh] " " $col["null_over_prod"] }
        END {
            if (bad) { print "readme.sh: " FILENAME ": no shape, variant, twin_over_prod, detail_over_prod or null_over_prod column" > "/dev/stderr"; exit 2 }
            if (!n) { print "readme.sh: " FILENAME ": no rounds" > "/dev/stderr"; exit 2 }
            print "| shape | production point | twin/x, each round | median | detail/x, each round | median | null twin/x, each round | median |"
            print "|---|---|---|---:|---|---:|---|---:|"
            for (i = 1; i <= n; i++) {
                sh = order[i]; mt = med(tw[sh]); md = med(de[sh]); mn = med(nu[sh])
                printf "| `%s` | `%s` |%s | %.3f |%s | %.3f |%s | %.3f |\n", sh, var[sh], tw[sh], mt, de[sh], md, nu[sh], mn
                if (i == 1 || mt < tlo) tlo = mt; if (i == 1 || mt > thi) thi = mt
                if (i == 1 || md < dlo) dlo = md; if (i == 1 || md > dhi) dhi = md
                if (i == 1 || mn < nlo) nlo = mn; if (i == 1 || mn > nhi) nhi = mn
                tin += (mt + 0 <= TWIN_MAX); din += (md + 0 <= DETAIL_MAX)
            }
            printf "\nMedians over the %d shapes: twin x%.3f-%.3f, detail twin x%.3f-%.3f, null twin x%.3f-%.3f.\n", n, tlo, thi, dlo, dhi, nlo, nhi
            printf "Within the targets (twin x%.2f, detail twin x%.2f): %d and %d of the %d shapes.\n", TWIN_MAX, DETAIL_MAX, tin, din, n
        }' "$tsv"
}

# Per run of a study's overhead rounds (TSV with build and run columns, and call where the study
# made several calls; --build B before a TSV keeps its build B only), the medians of its rounds per shape counted
# against the targets (TWIN_MAX, DETAIL_MAX): how far the count moves between runs of one code.
overhead_runs() {
    local tsv build=
    echo "| rounds | call | build | run | shapes | twin within x$TWIN_MAX | detail twin within x$DETAIL_MAX |"
    echo "|---|---|---|---:|---:|---:|---:|"
    while [ $# -gt 0 ]; do
        if [ "$1" = --build ]; then
            [ $# -ge 3 ] || { echo "readme.sh: overhead-runs: --build takes a build, then a TSV" >&2; return 2; }
            build=$2
            shift 2
        fi
        tsv=$1
        shift
        [ -f "$tsv" ] || { echo "readme.sh: no file $tsv" >&2; return 2; }
        awk -F'\t' -v TWIN_MAX=$TWIN_MAX -v DETAIL_MAX=$DETAIL_MAX -v want="$build" -v name="$tsv" "$AWK_MEDIAN"'
            /^#/ { next }
            !hdr { for (i = 1; i <= NF; i++) col[$i] = i; hdr = 1
                   if (!col["build"] || !col["run"] || !col["shape"] || !col["twin_over_prod"] || !col["detail_over_prod"]) { bad = 1; exit }
                   next }
            want != "" && $col["build"] != want { next }
            { k = (col["call"] ? $col["call"] : "-") SUBSEP $col["build"] SUBSEP $col["run"]
              if (!(k in seen)) { seen[k] = 1; order[++n] = k }
              ks = k SUBSEP $col["shape"]
              if (!(ks in tw)) shapes[k] = shapes[k] SUBSEP $col["shape"]
              tw[ks] = tw[ks] " " $col["twin_over_prod"]; de[ks] = de[ks] " " $col["detail_over_prod"] }
            END {
                if (bad) { print "readme.sh: " name ": no build, run, shape, twin_over_prod or detail_over_prod column" > "/dev/stderr"; exit 2 }
                if (!n) { print "readme.sh: " name ": no rounds" (want != "" ? " of build " want : "") > "/dev/stderr"; exit 2 }
                for (i = 1; i <= n; i++) {
                    k = order[i]; split(k, f, SUBSEP); m = split(shapes[k], sh, SUBSEP); tin = din = 0
                    for (j = 2; j <= m; j++) { tin += (med(tw[k SUBSEP sh[j]]) + 0 <= TWIN_MAX); din += (med(de[k SUBSEP sh[j]]) + 0 <= DETAIL_MAX) }
                    printf "| `%s` | %s | %s | %s | %d | %d | %d |\n", name, f[1], f[2], f[3], m - 1, tin, din
                }
            }' "$tsv" || return 2
        build=
    done
}

# Each run's row of one phase in its report's "Stall reasons" table (production build), as one
# table: the run, the phase's share of the samples, its top reasons.  A run whose report has no
# such row (no PC samples, no copy of its source, no sample in the phase) is refused.
stall_rows() {
    local phase=$1 run row out
    shift
    echo "| run | $phase's share of the samples | top stall reasons (share within $phase) |"
    echo "|---|---:|---|"
    for run in "$@"; do
        report_of "$run" || return 1
        row=$(awk -v p="$phase" -v r="$run" '/^### Stall reasons/ { on = 1; next } on && /^#/ { exit }
                  on && index($0, "| " p " | ") == 1 { print "| `" r "` |" substr($0, length(p) + 5); exit }' "$out/report.md")
        [ -n "$row" ] || { echo "readme.sh: $run's report has no stall-reason row for $phase" >&2; return 1; }
        echo "$row"
    done
}

# For each TEXT, the first line of RUN's report holding it (a fixed string), in one fenced block.
report_lines() {
    local run=$1 text line out
    shift
    report_of "$run" || return 1
    [ $# -gt 0 ] || { echo "readme.sh: report-lines $run: no text to look for" >&2; return 1; }
    echo '```'
    for text in "$@"; do
        line=$(grep -F -m 1 -- "$text" "$out/report.md")
        [ -n "$line" ] || { echo "readme.sh: $run's report has no line holding '$text'" >&2; return 1; }
        # a fence or a marker line would end the block early when the page is read again
        case $line in '```'* | '<!-- end -->' | '<!-- gemmscope '*)
            echo "readme.sh: $run's report line holding '$text' would break the page: $line" >&2; return 1 ;;
        esac
        printf '%s\n' "$line"
    done
    echo '```'
}

# Each run's row of one check (`gemmscope check RUN`, the row holding NAME), fenced.
check_lines() {
    local name=$1 run line
    shift
    echo '```'
    for run in "$@"; do
        line=$("$gs" check "$run" 2>/dev/null | grep -F -- "$name" | head -n 1)
        [ -n "$line" ] || { echo "readme.sh: $run has no check '$name'" >&2; return 1; }
        printf '%-24s %s\n' "$run" "$line"
    done
    echo '```'
}

# Per shape, its production point as the program names it (gemmscope variants), then one table
# row: what the awk program PROG prints from TSV's rows, given the shape s and the point v.
rounds_table() {
    local subject=$1 tsv=$2 head=$3 prog=$4
    shift 4
    [ -f "$tsv" ] || { echo "readme.sh: no file $tsv" >&2; return 1; }
    echo "$head"
    echo "|---|---|---|---|"
    for s in "$@"; do
        local v
        v=$("$gs" variants "$subject" "$s" | awk '/\[default\]$/ { print $1 }')
        [ -n "$v" ] || { echo "readme.sh: no default for $subject $s" >&2; return 1; }
        awk -F'\t' -v s="$s" -v v="$v" "$prog" "$tsv" || return 1
    done
}

# Each shape's production point and its time and cuBLAS ratio in every round of a sweep
# (nvfp4-bench --tsv tables with a leading round column, '#' lines skipped).
defaults_table() {
    local subject=$1 tsv=$2
    shift 2
    rounds_table "$subject" "$tsv" "| shape | production point | each round (us) | cuBLAS / ours |" '
        /^#/ { next }
        !hdr { for (i = 1; i <= NF; i++) col[$i] = i; hdr = 1; next }
        $col["shape"] == s && $col["variant"] == v {
            t = t (n ? " " : "") sprintf("%.2f", $col["prod_us"])
            c = c (n ? " " : "") sprintf("x%.2f", $col["cublas_over_ours"]); n++ }
        END { if (!n) { print "readme.sh: " s " " v " not in the sweep" > "/dev/stderr"; exit 1 }
              printf "| %s | `%s` | %s | %s |\n", s, v, t, c }' "$@"
}

# Each shape's production point, its time per call and cuBLAS ratio in every round, with one
# launch per L2 flush (inputs 1) and with N problems back to back after one (the table's other
# inputs count: GPU MODE's harness takes 15).
harness_table() {
    local subject=$1 tsv=$2
    shift 2
    rounds_table "$subject" "$tsv" \
        "| shape | production point | one launch per flush: us, cuBLAS / ours | back to back: us, cuBLAS / ours |" '
        /^#/ { next }
        !hdr { for (i = 1; i <= NF; i++) col[$i] = i; hdr = 1
               if (!("inputs" in col)) { print "readme.sh: no inputs column" > "/dev/stderr"; bad = 1; exit 1 }; next }
        $col["shape"] == s && $col["variant"] == v {
            k = $col["inputs"] == 1 ? 1 : 2
            if (k == 2) { if (nb && $col["inputs"] != nb) { print "readme.sh: two back-to-back counts" > "/dev/stderr"; bad = 1; exit 1 }
                          nb = $col["inputs"] }
            t[k] = t[k] (n[k] ? " " : "") sprintf("%.2f", $col["prod_us"])
            c[k] = c[k] (n[k] ? " " : "") sprintf("x%.2f", $col["cublas_over_ours"]); n[k]++ }
        END { if (bad) exit 1
              if (!n[1] || !n[2]) { print "readme.sh: " s " " v " lacks a harness" > "/dev/stderr"; exit 1 }
              printf "| %s | `%s` | %s; %s | %s; %s (%d inputs) |\n", s, v, t[1], c[1], t[2], c[2], nb }' "$@"
}

awk '
    /^<!-- gemmscope .* -->$/ { print; cmd = $0; sub(/^<!-- gemmscope /, "", cmd); sub(/ -->$/, "", cmd);
                                print "@@RENDER " cmd; skip = 1; next }
    /^<!-- end -->$/ { skip = 0; print; next }
    !skip { print }' "$file" >"$tmp/skeleton"

: >"$tmp/new"
# The k-th block's lines as the file has them (between its marker and its end line).
original_block() {
    awk -v k="$1" '/^<!-- gemmscope .* -->$/ { n++; on = (n == k); next } /^<!-- end -->$/ { on = 0 } on' "$file"
}
# Blocks whose rendering asks the recorder for each shape's production point (gemmscope
# variants): with no recorder (built only where nvcc is), --check leaves them as they are
# and says so.
rec=$(dirname "$gs")/gemmscope-record
block=0 unchecked=0 needs=""
# A recorded check-gpu run is compared with this tree's kernels/ and instrument/ by the commit its
# header names ("... at <commit> ..."); where that commit is not in this clone's history (a shallow
# clone, a tarball) --check leaves the block as it is and says so.
cg_commit() { sed -n '1s/.* at \([0-9a-f]\{7,40\}\)[ ,(].*/\1/p' "$1"; }
cg_known() { local c; c=$(cg_commit "$1"); [ -n "$c" ] && git rev-parse -q --verify "$c^{commit}" >/dev/null 2>&1; }
while IFS= read -r line; do
    if [[ $line == "@@RENDER "* ]]; then
        block=$((block + 1))
        eval "set -- ${line#@@RENDER }"
        if [ $check = 1 ] && [ ! -x "$rec" ] && { [ "$1" = defaults-table ] || [ "$1" = harness-table ]; }; then
            original_block $block >>"$tmp/new"
            unchecked=$((unchecked + 1)) needs="$needs; $rec (built where nvcc is)"
            continue
        fi
        if [ $check = 1 ] && [ "$1" = check-gpu ] && [ -f "${2:-}" ] && ! cg_known "$2"; then
            original_block $block >>"$tmp/new"
            unchecked=$((unchecked + 1)) needs="$needs; the commit $2 names in this clone's history"
            continue
        fi
        case $1 in
        table) # a sample of another tool's trace (import.args) is imported into a run first
            args=()
            for a in "$@"; do
                if [ -f "$a/import.args" ]; then
                    run=$tmp/import-$(echo "$a" | tr '/' '_')
                    [ -d "$run" ] || (cd "$a" && { tr '\n' ' ' <import.args; printf " -o '%s'\n" "$run"; } |
                        xargs "$(cd "$OLDPWD" && pwd)/$gs" import >/dev/null) || exit 2
                    a=$run
                fi
                args+=("$a")
            done
            "$gs" "${args[@]}" ;;
        report-section) report_section "$2" "$3" ;;
        evidence-table) shift; evidence_table "$@" ;;
        defaults-table) shift; defaults_table "$@" ;;
        harness-table) shift; harness_table "$@" ;;
        check-lines) shift; check_lines "$@" ;;
        overhead-table) overhead_table "$2" ;;
        overhead-runs) shift; overhead_runs "$@" ;;
        stall-rows) shift; stall_rows "$@" ;;
        report-lines) shift; report_lines "$@" ;;
        check-gpu) # the recorded run's own header: commit, device, calls and their result lines
            [ -f "$2" ] || { echo "readme.sh: no file $2" >&2; exit 2; }
            # the header's total must be the sum of the parts' totals in the logs below it (each
            # part's first result line after its "== total")
            want=$(awk '/^== total$/ { t = 1; next } t && /^[0-9]+ passed, [0-9]+ failed$/ { p += $1; f += $3; n++; t = 0 }
                        END { if (n) printf "%d passed, %d failed", p, f }' "$2")
            have=$(sed -n 's/^# in all: //p' "$2")
            if [ -z "$want" ] || [ "$have" != "$want" ]; then
                echo "readme.sh: $2: the header's total ('${have:-none}') is not the sum of its parts' logs ('${want:-no part}')" >&2
                exit 2
            fi
            c=$(cg_commit "$2")
            cg_known "$2" || { echo "readme.sh: $2 names commit '${c:-none}', which this clone's history lacks: its kernels cannot be compared" >&2; exit 2; }
            echo '```'
            sed -n 's/^# //p' "$2"
            echo '```'
            echo
            # what the log is of: this tree's kernels and instrumentation, or others
            if git diff --quiet "$c" -- kernels instrument; then
                echo "Its kernels/ and instrument/ are this tree's."
            else
                echo "This tree's kernels/ or instrument/ differ from those of $c: the log is not of these kernels."
            fi ;;
        *) echo "readme.sh: unknown block '$1'" >&2; exit 2 ;;
        esac >>"$tmp/new" || { echo "readme.sh: rendering '${line#@@RENDER }' failed" >&2; exit 2; }
    else
        printf '%s\n' "$line" >>"$tmp/new"
    fi
done <"$tmp/skeleton"

if [ $check = 1 ]; then
    if ! diff -u "$file" "$tmp/new" >"$tmp/diff"; then
        echo "readme.sh: $file quotes figures the samples do not give (make readme rewrites it):" >&2
        head -n 60 "$tmp/diff" >&2
        exit 1
    fi
    if [ $unchecked -gt 0 ]; then
        echo "readme.sh: every rendered block of $file matches the samples but $unchecked, not checked: they need ${needs#; }"
    else
        echo "readme.sh: every rendered block of $file matches the samples"
    fi
    exit 0
fi
cp "$tmp/new" "$file"
echo "readme.sh: $file rendered from the samples"
