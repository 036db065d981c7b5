#!/bin/sh
# sim.sh - topo-sim's steady-state solve against its targets (issue 21),
# measured in one run:
#   1. the fair solve of a random server permutation on the Dragonfly of
#      Fuentes et al., "Network Unfairness in Dragonfly Topologies" (topo-gen
#      dragonfly a=12 h=6 p=6: 5256 servers) under dragonfly-valiant, on one
#      core (target: under 2 s), with the time to build the system beside it;
#   2. rrg n=10000 d=16 p=8 (80 000 servers), a random server permutation
#      under ksp:8: the solve (target under 2 s once the paths are
#      computed) and the whole run against topo-load's on the same pattern
#      (target: at most 1.5 times topo-load's wall clock; path computation
#      dominates both); SIM_RRG_N changes n (e.g. 2000 for a quick look);
#   3. the rr and transit solves of (1) under dragonfly-min with the
#      adversarial ADV+1 pattern (the unfairness paper's case);
#   4. rr and transit where their fixed-point iteration works hardest:
#      the uniform pattern under valiant on dragonfly a=4 h=2 p=2 (about
#      150 coefficients per flow, many equilibria), aggregated and with
#      --no-aggregate (the same sweeps: topokit(7)), and transit under
#      ksp:3 on rrg n=32 d=4 p=2 with a server permutation (a stiff system:
#      the damping must fall to 1/64); sweeps and milliseconds per sweep.
# The build and solve times are topo-sim's own --progress lines (wall
# clock); whole runs are timed with /usr/bin/time's wall clock.
set -eu
W=$(mktemp -d "${TMPDIR:-/tmp}/tk-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM
N=${SIM_RRG_N:-10000}
# In a build directory the tools are libtool wrapper scripts, whose start-up
# (a shell) would be timed too: run the binaries behind them.
for t in topo-sim topo-load; do
    d=$(dirname "$(command -v $t)")
    if [ -x "$d/.libs/$t" ]; then
        eval "$(echo $t | tr - _)=\"$d/.libs/$t\""
        LD_LIBRARY_PATH="$d/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
        export LD_LIBRARY_PATH
    else
        eval "$(echo $t | tr - _)=$t"
    fi
done

wall() { # wall-clock seconds of a command, its output to $W/out
    /usr/bin/time -f %e -o "$W/time" "$@" >"$W/out" 2>"$W/err"
    cat "$W/time"
}
phases() { # "build solve" seconds from a --progress log
    awk '/built in/ {for (i = 1; i <= NF; i++) if ($i == "in") b = $(i + 1)}
         /solved in/ {for (i = 1; i <= NF; i++) if ($i == "in") s = $(i + 1)}
         END {printf "%s\t%s", b, s}' "$W/err"
}

echo "## topo-sim steady state (issue 21 targets)"
printf 'instance\trouting\tarbitration\tthreads\tvariables\tbuild_s\tsolve_s\twhole_s\ttopo-load_s\tratio\n'

topo-gen dragonfly a=12 h=6 p=6 >"$W/df.topo"
topo-pattern server-perm -s 1 "$W/df.topo" >"$W/df-perm.pat"
topo-pattern adv i=1 "$W/df.topo" >"$W/df-adv.pat"
t=$(wall "$topo_sim" --progress --threads 1 -r dragonfly-valiant -P "$W/df-perm.pat" "$W/df.topo")
v=$(sed -n 's/.*graph 1: \([0-9]*\) variables.*/\1/p' "$W/err")
printf 'dfly h=6 server-perm\tdragonfly-valiant\tfair\t1\t%s\t%s\t%s\t-\t-\n' "$v" "$(phases)" "$t"
for arb in fair rr transit; do
    t=$(wall "$topo_sim" --progress --threads 1 -a $arb -r dragonfly-min -P "$W/df-adv.pat" "$W/df.topo")
    v=$(sed -n 's/.*graph 1: \([0-9]*\) variables.*/\1/p' "$W/err")
    printf 'dfly h=6 adv i=1\tdragonfly-min\t%s\t1\t%s\t%s\t%s\t-\t-\n' $arb "$v" "$(phases)" "$t"
done

topo-gen rrg n="$N" d=16 -p 8 -s 1 >"$W/rrg.topo"
topo-pattern server-perm -s 1 "$W/rrg.topo" >"$W/rrg-perm.pat"
for th in 1 2; do
    tl=$(wall "$topo_load" --threads $th -r ksp:8 -P "$W/rrg-perm.pat" "$W/rrg.topo")
    t=$(wall "$topo_sim" --progress --threads $th -r ksp:8 -P "$W/rrg-perm.pat" "$W/rrg.topo")
    v=$(sed -n 's/.*graph 1: \([0-9]*\) variables.*/\1/p' "$W/err")
    r=$(awk -v a="$t" -v b="$tl" 'BEGIN {printf "%.2f", a / b}')
    printf 'rrg n=%s d=16 p=8 server-perm\tksp:8\tfair\t%s\t%s\t%s\t%s\t%s\t%s\n' "$N" $th "$v" \
        "$(phases)" "$t" "$tl" "$r"
done

echo
echo "## topo-sim rr and transit: the Jacobi sweeps"
printf 'instance\trouting\tarbitration\tvariables\tcoefficients\tsweeps\tsolve_s\tms_per_sweep\n'
sweeps() { # label routing arbitration: a row from $W/out and $W/err
    v=$(sed -n 's/.*graph 1: \([0-9]*\) variables.*/\1/p' "$W/err")
    c=$(sed -n 's/.*variables, \([0-9]*\) coefficients.*/\1/p' "$W/err")
    n=$(awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "iterations") k = i; next }
        { print $k }' "$W/out")
    s=$(phases | cut -f 2)
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$v" "$c" "$n" "$s" \
        "$(awk -v s="$s" -v n="$n" 'BEGIN { printf "%.2f", 1000 * s / n }')"
}
topo-gen dragonfly a=4 h=2 p=2 >"$W/df4.topo"
for arb in rr transit; do
    for agg in "" --no-aggregate; do
        wall "$topo_sim" --progress --threads 1 -r valiant -a $arb $agg "$W/df4.topo" >/dev/null
        sweeps "dfly a=4 h=2 p=2 uniform${agg:+ $agg}" valiant $arb
    done
done
topo-gen rrg n=32 d=4 -p 2 -s 1 >"$W/rrg32.topo"
topo-pattern server-perm -s 5 "$W/rrg32.topo" >"$W/rrg32-perm.pat"
wall "$topo_sim" --progress --threads 1 -r ksp:3 -a transit -P "$W/rrg32-perm.pat" "$W/rrg32.topo" >/dev/null
sweeps "rrg n=32 d=4 p=2 server-perm" ksp:3 transit
