#!/bin/sh
# sim-dynamic.sh - topo-sim's dynamic mode: flow completions per minute
# (issue 21: at least 10^5 per minute on the Dragonfly of the unfairness
# paper at 50% load under dragonfly-min).  Needs topo-gen on PATH (run.sh
# sets it) and the driver tests/bench/sim-dynamic-bench, which `make bench`
# builds (one call of tk_sim_workload_poisson and one of tk_sim_dynamic, the
# library calls behind topo-sim's dynamic mode, timed; see its head
# comment for the columns).
#
# Instance: topo-gen dragonfly a=12 h=6 p=6 (73 groups, 876 routers, 5256
# servers), dragonfly-min, Poisson arrivals at every server at rho = 0.5 of
# its link speed (seed 1), destinations uniform over the other servers,
# sizes fixed:1 (every flow 1 byte, i.e. 1 time unit alone) and
# pareto:1.5:1 (heavy-tailed, mean 1), arrivals during SIM_DYN_HORIZON
# time units (default 40: about 105 000 flows), every flow run to its end.
#
# What is timed: tk_sim_dynamic as a whole (routes of every distinct switch
# pair, then the events), wall clock and process CPU time (the machine may
# be shared: CPU time is what the run itself costs), one run each, with 1
# and 2 threads (only the routes run in parallel; the counters must be the
# same).  "per min" is flows completed / time * 60.  The rows also show the
# locality of the re-solves: the mean number of flows re-solved per event
# (the bottleneck closure of tk_sim.h) against the mean number active, and
# on a shorter run (SIM_DYN_SHORT, default 2 time units) the same against
# the plain connected component (tk_sim_dyn_opts_t.connected; the target
# column is left empty for it: it is the comparison, not the mode).  Then
# topo-sim --poisson itself, the whole process, on the fixed:1 run.  With
# SIM_DYN_VERIFY=1 a last run checks every rate after every event against a
# from-scratch tk_mm_solve on a run of 1 time unit (minutes).
set -eu
H=${SIM_DYN_HORIZON:-40}
HS=${SIM_DYN_SHORT:-2}
bd=$(dirname "$(command -v topo-gen)")
B=$bd/tests/bench/sim-dynamic-bench
echo "topo-sim dynamic mode: completions per minute, dragonfly a=12 h=6 p=6, dragonfly-min, rho 0.5"
echo
if [ ! -x "$B" ]; then
    echo "tests/bench/sim-dynamic-bench not built (run make bench): skipped"
    exit 0
fi
W=$(mktemp -d "${TMPDIR:-/tmp}/tk-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM
topo-gen dragonfly a=12 h=6 p=6 >"$W/df.topo"

# row LABEL SIZES HORIZON THREADS [connected] [verify]: one markdown row
row() {
    label=$1 sizes=$2 hz=$3 th=$4
    shift 4
    "$B" "$W/df.topo" dragonfly-min 0.5 "$sizes" "$hz" 1 "$th" "$@" >"$W/out"
    awk -F '\t' -v l="$label" -v s="$sizes" -v h="$hz" -v t="$th" '
        NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
              l, s, h, t, $(c["flows"]), $(c["events"]), $(c["solves"]), $(c["expansions"]),
              $(c["comp_flows"]), $(c["mean_active"]), $(c["sim_s"]), $(c["cpu_s"]),
              $(c["per_min"]), $(c["per_min_cpu"]), (l != "closure" ? "-" : $(c["per_min"]) >= 100000 ? "yes" : "NO") }' "$W/out"
    awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { print $(c["events"]), $(c["solves"]), $(c["expansions"]), $(c["comp_flows"]) }' "$W/out" \
        >"$W/counters.$th"
}
echo "| re-solve | sizes | horizon | threads | flows | events | solves | expansions | flows per re-solve | mean active | wall s | cpu s | per min (wall) | per min (cpu) | >= 10^5 |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for sizes in fixed:1 pareto:1.5:1; do
    row closure "$sizes" "$H" 1
    row closure "$sizes" "$H" 2
    same=no
    cmp -s "$W/counters.1" "$W/counters.2" && same=yes
    echo "| ($sizes: 1 and 2 threads, same counters: $same) |||||||||||||||"
done
row closure fixed:1 "$HS" 1
row connected fixed:1 "$HS" 1 connected
# The tool: topo-sim --poisson, the whole process (reading the graph,
# the workload, routes, simulation, the bucket rows), --threads 1.
if topo-sim --help 2>/dev/null | grep -q -- --poisson; then
    /usr/bin/time -f '%e %U %S' -o "$W/time" topo-sim --poisson --rho 0.5 --sizes fixed:1 \
        --horizon "$H" -s 1 -r dragonfly-min --threads 1 "$W/df.topo" >"$W/tool"
    n=$(awk -F '\t' 'NR == 2 { print $6 }' "$W/tool")
    echo
    awk -v n="$n" -v h="$H" '{ printf "topo-sim --poisson --sizes fixed:1 --horizon %s --threads 1 (whole process): %d flows, %.2f s wall, %.2f s cpu: %.0f completions per minute (wall), %.0f per cpu minute\n",
        h, n, $1, $2 + $3, 60 * n / $1, 60 * n / ($2 + $3) }' "$W/time"
fi
if [ "${SIM_DYN_VERIFY:-0}" = 1 ]; then
    "$B" "$W/df.topo" dragonfly-min 0.5 fixed:1 1 1 1 verify >"$W/out"
    echo
    echo "verify (horizon 1, every rate after every event against tk_mm_solve):"
    awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { printf "%s rates compared, %s mismatches (relative 1e-12), largest byte error %s\n",
              $(c["verified"]), $(c["mismatches"]), $(c["bytes_err"]) }' "$W/out"
fi
