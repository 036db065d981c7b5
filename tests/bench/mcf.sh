#!/bin/sh
# mcf.sh - maximum concurrent flow (topo-mcf) against glpsol on the textbook
# source-aggregated MathProg model of the same LP (tests/data/mcf.mod, data
# from tests/cli/mcf-dat.awk), uniform all-to-all, unrestricted; then the
# issue's size targets.  Needs topo-gen, topo-conv, topo-pattern, topo-mcf on
# PATH (run.sh sets it) and glpsol (glpk-utils); GNU time for memory.
#
# What is timed (wall clock, one run each, same machine, same run):
#   topo-mcf exact   the whole process: read, build, column generation
#   glpsol           the whole process: MathProg translation + simplex
#   approx           topo-mcf --method approx --eps 0.01 (certified gap)
#   exact, --lp L    the exact LP by the simplex or the certified barrier
# MCF_BIG=1 adds rrg n=64 d=8 against glpsol (about 35 s of glpsol) and the
# simplex on rrg n=200 d=10 (about 6 minutes).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
W=$(mktemp -d "${TMPDIR:-/tmp}/tk-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM

now() { date +%s.%N; }
el() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

echo "## topo-mcf: maximum concurrent flow, uniform all-to-all ($(nproc) cores)"
echo
echo "| graph | topo-mcf exact s | glpsol s | speed-up | theta (topo-mcf) | theta (glpsol) |"
echo "|---|---|---|---|---|---|"
sizes="49:8"
[ "${MCF_BIG:-0}" = 1 ] && sizes="$sizes 64:8"
for nd in $sizes; do
    n=${nd%:*} d=${nd#*:}
    topo-gen rrg n=$n d=$d -s 1 >"$W/g.topo"
    t0=$(now)
    mine=$(topo-mcf --method exact "$W/g.topo" | awk -F '\t' 'NR == 2 { print $4 }')
    t1=$(now)
    if command -v glpsol >/dev/null 2>&1; then
        topo-conv -f edges "$W/g.topo" >"$W/e"
        topo-pattern all-to-all "$W/g.topo" >"$W/p"
        awk -v p=1 -f "$src/tests/cli/mcf-dat.awk" "$W/e" "$W/p" >"$W/d.dat"
        t2=$(now)
        ref=$(glpsol --math "$src/tests/data/mcf.mod" --data "$W/d.dat" | awk '$1 == "THETA" { print $2 }')
        t3=$(now)
        sp=$(awk -v a="$(el "$t0" "$t1")" -v b="$(el "$t2" "$t3")" 'BEGIN { printf "%.1fx", b / (a > 0 ? a : 0.01) }')
        echo "| rrg n=$n d=$d | $(el "$t0" "$t1") | $(el "$t2" "$t3") | $sp | $mine | $ref |"
    else
        echo "| rrg n=$n d=$d | $(el "$t0" "$t1") | - | - | $mine | - |"
    fi
done
echo
echo "| graph | method | lp | s | MB | theta | upper_bound | gap |"
echo "|---|---|---|---|---|---|---|---|"
run_one() { # GRAPH-ARGS METHOD [LP]
    topo-gen $1 -s 1 >"$W/g.topo"
    t0=$(now)
    if [ -x /usr/bin/time ]; then
        /usr/bin/time -f '%M' -o "$W/mem" topo-mcf --method "$2" --lp "${3:-auto}" --eps 0.01 \
            --json "$W/g.topo" >"$W/out"
        m=$(awk '{ printf "%.0f", $1 / 1024 }' "$W/mem")
    else
        topo-mcf --method "$2" --lp "${3:-auto}" --eps 0.01 --json "$W/g.topo" >"$W/out"
        m=-
    fi
    t1=$(now)
    # the JSON's theta, upper_bound, gap and lp (which LP algorithm answered)
    row=$(sed 's/.*"theta":\([^,]*\),.*"upper_bound":\([^,]*\),"gap":\([^,]*\),.*/\1 | \2 | \3/' "$W/out")
    lp=$(sed -n 's/.*"lp":"\([a-z]*\)".*/\1/p' "$W/out")
    echo "| $1 | $2 | ${lp:--} | $(el "$t0" "$t1") | $m | $row |"
}
run_one "rrg n=100 d=8" exact simplex
run_one "rrg n=100 d=8" exact barrier
run_one "rrg n=100 d=8" approx
run_one "rrg n=200 d=10" exact
[ "${MCF_BIG:-0}" = 1 ] && run_one "rrg n=200 d=10" exact simplex
run_one "rrg n=200 d=10" approx
run_one "rrg n=300 d=16" exact
run_one "rrg n=1000 d=16" approx
