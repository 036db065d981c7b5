#!/bin/sh
# sim-simgrid.sh - topo-sim's fair max-min solver (tk_mm_solve) against
# SimGrid's max-min solver on the same flows and links, in one run (issue
# 21: at least 5x faster).  Needs the two check programs of
# tests/cli/sim-simgrid.sh, which `make bench` builds: mm-solve (topokit's
# side, linked against libtopokit) and simgrid-maxmin (SimGrid 3.32 through
# its S4U API: links of latency 0, one comm per flow, network model CM02
# without cross traffic; see its head comment).  Without SimGrid (configure
# found no libsimgrid-dev) it says so and stops.
#
# Instances (every flow weight 1, every link capacity 1):
#   dragonfly   the Dragonfly of the unfairness paper (a=12 h=6 p=6: 73
#               groups, 876 routers, 5256 servers), a random server
#               permutation (-s 1) under dragonfly-min: 5256 flows of 2 to 5
#               links (injection, up to 3 arcs, ejection) among 25404
#               (arcs, injection and ejection links), written by
#               mm-solve -w from topo-sim's own system;
#   synthetic   5256 flows of 3 to 6 random links among 20000;
#   synthetic-big  52560 flows of 3 to 6 random links among 200000
#               (SIM_SIMGRID_BIG=0 leaves it out).
#
# What is timed (one core; SIM_SIMGRID_RUNS runs of each side, 5 by
# default, the two sides alternating so that a change of the machine's load
# reaches both; of each side's runs, the one with the best solve, and the
# median solve after the table; CPU seconds of the process for the phases,
# which a loaded machine inflates less than wall time; the file is read by
# the same code on both sides and is not counted):
#   solve       topokit: tk_mm_solve alone.  SimGrid: the simulated period
#               that holds its one max-min solve (from the moment every comm
#               has started until the driver wakes up: the lmm solve plus
#               SimGrid's bookkeeping of that step);
#   with set-up topokit: building the tk_mm arrays from the parsed file, then
#               the solve.  SimGrid: creating the platform (links, hosts,
#               routes), starting every comm (routes, lmm variables), then
#               the solve;
#   process     the whole process, wall clock (/usr/bin/time), reading and
#               loading the shared libraries included.
# Both sides' rates must agree to 1e-6 relative (SimGrid's precision);
# "agree" shows the largest relative difference.
set -eu
bd=$(dirname "$(command -v topo-dist)")
MM=$bd/tests/cli/mm-solve
SG=$bd/tests/cli/simgrid-maxmin
echo "topo-sim's max-min (fair) against SimGrid's max-min solver, same flows and links"
echo
if [ ! -x "$SG" ] || [ ! -x "$MM" ]; then
    echo "SimGrid cross-check not built (configure found no libsimgrid-dev, or run make bench): skipped"
    exit 0
fi
W=$(mktemp -d "${TMPDIR:-/tmp}/tk-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM

# synth SEED LINKS FLOWS: random flows of 3 to 6 distinct links of capacity 1
synth() {
    awk -v seed="$1" -v R="$2" -v F="$3" 'BEGIN {
        srand(seed)
        printf "# synthetic: %d flows of 3 to 6 random links among %d\n%d %d\n", F, R, R, F
        for (r = 0; r < R; r++)
            print 1
        for (v = 0; v < F; v++) {
            k = 3 + int(4 * rand())
            split("", used)
            line = "0 " k
            for (i = 0; i < k; i++) {
                do r = int(R * rand()); while (r in used)
                used[r] = 1
                line = line " " r
            }
            print line
        }
    }'
}

topo-gen dragonfly a=12 h=6 p=6 >"$W/df.topo"
"$MM" -w "$W/df.topo" dragonfly-min server-perm 1 >"$W/dragonfly.mm"
synth 1 20000 5256 >"$W/synthetic.mm"
list="dragonfly synthetic"
if [ "${SIM_SIMGRID_BIG:-1}" != 0 ]; then
    synth 2 200000 52560 >"$W/synthetic-big.mm"
    list="$list synthetic-big"
fi

RUNS=${SIM_SIMGRID_RUNS:-5}
# once NAME CMD...: one run; its stderr timing line and the process wall
# time appended to $W/NAME.lines, its rates to $W/out.NAME
once() {
    n=$1
    shift
    /usr/bin/time -f 'wall %e' -o "$W/time" "$@" >"$W/out.$n" 2>"$W/err"
    echo "$(cat "$W/err") $(cat "$W/time")" >>"$W/$n.lines"
}
# best NAME FIELD: the line of NAME with the smallest value in field FIELD
best() { awk -v f="$2" 'NF { if (best == "" || $f < v) { v = $f; best = $0 } } END { print best }' "$W/$1.lines"; }
# median NAME FIELD: the median of field FIELD over NAME's lines
median() { awk -v f="$2" 'NF { print $f }' "$W/$1.lines" | sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# field NAME LINE: the number after NAME
field() { echo "$2" | awk -v k="$1" '{ for (i = 1; i < NF; i++) if ($i == k) { print $(i + 1); exit } }'; }

echo "Seconds, one core, the run with the best solve of $RUNS: CPU for the phases, wall for the process.  ratio = SimGrid / topokit."
echo
echo "| instance | flows | links | topokit solve | SimGrid solve | ratio | topokit with set-up | SimGrid with set-up | ratio | topokit process | SimGrid process | ratio | agree |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for i in $list; do
    f=$W/$i.mm
    set -- $(awk '!/^#/ { print $1, $2; exit }' "$f")
    links=$1 flows=$2
    rm -f "$W/tk.lines" "$W/sg.lines"
    for _ in $(seq "$RUNS"); do
        once tk "$MM" -t "$f"
        once sg "$SG" -t "$f"
    done
    tk=$(best tk 6)
    sg=$(best sg 8)
    echo "$i $(median tk 6) $(median sg 8)" >>"$W/medians"
    agree=$(paste "$W/out.tk" "$W/out.sg" | awk '
        { d = $1 - $2; if (d < 0) d = -d; e = $1 > 0 ? d / $1 : d; if (e > w) w = e; n++ }
        END { printf "%.1e%s", w, (w <= 1e-6 && n > 0) ? "" : " NO" }')
    tks=$(field solve "$tk")
    tku=$(echo "$(field build "$tk") $tks" | awk '{ print $1 + $2 }')
    tkp=$(field wall "$tk")
    sgs=$(field solve "$sg")
    sgu=$(echo "$(field platform "$sg") $(field start "$sg") $sgs" | awk '{ print $1 + $2 + $3 }')
    sgp=$(field wall "$sg")
    echo "$i $flows $links $tks $sgs $tku $sgu $tkp $sgp $agree" | awk '
        function r(a, b) { return b > 0 ? sprintf("%.1f", a / b) : "-" }
        { printf "| %s | %d | %d | %.4f | %.4f | %s | %.4f | %.4f | %s | %.2f | %.2f | %s | %s |\n",
            $1, $2, $3, $4, $5, r($5, $4), $6, $7, r($7, $6), $8, $9, r($9, $8), $10 ($11 == "" ? "" : " " $11) }'
done
echo
echo "Median solve of the $RUNS runs of each side:"
echo
echo "| instance | topokit solve | SimGrid solve | ratio |"
echo "|---|---|---|---|"
awk '{ printf "| %s | %.4f | %.4f | %s |\n", $1, $2, $3, ($2 > 0 ? sprintf("%.1f", $3 / $2) : "-") }' "$W/medians"
echo
echo "SimGrid $(pkg-config --modversion simgrid 2>/dev/null || echo '?') (network/model:CM02, network/crosstraffic:0, otherwise its defaults: network/optim Lazy, maxmin/precision 1e-5)"
