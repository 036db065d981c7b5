#!/bin/sh
# sim-adaptive.sh - topo-sim's adaptive rules against the targets of issue
# 22, measured in one run:
#   1. one adaptive steady state (the whole fixed-point iteration) on
#      dfly(4,8,4,33) of Chaulagain and Yuan, "Enhanced UGAL Routing
#      Schemes for Dragonfly Networks" (absolute arrangement, 1056 servers)
#      under the group shift at offered load 0.45, for ugal-l, ugal-le and
#      ugal-g, on one thread and on two (target: under 5 s);
#   2. the Dragonfly of Fuentes et al., "Network Unfairness in Dragonfly
#      Topologies" (a=12 h=6 p=6: 5256 servers), a random server
#      permutation under ugal-le: the time to build the candidates and of
#      SIM_ADAPT_ITER iterations (default 5), whence the time per
#      iteration (target: a steady state under 60 s); with SIM_ADAPT_FULL=1
#      also the whole steady state (minutes: CPU seconds, wall clock and
#      resident memory from /usr/bin/time, iterations and residual);
#   3. the rules of that paper (src-*, in-transit-*) on its Dragonfly at
#      h=3 (a=6 p=3, 342 servers, palmtree; the default size of
#      data/studies/dfly-unfairness.sh) under ADVc at 0.4: build and
#      SIM_ADAPT_ITER iterations under fair and under transit arbitration,
#      whence the time per iteration (no target: the study's running
#      time).
# Times are topo-sim's own --progress lines (wall clock) and, for whole
# runs, /usr/bin/time's; iterations are the row's own count.
set -eu
W=$(mktemp -d "${TMPDIR:-/tmp}/tk-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM
IT=${SIM_ADAPT_ITER:-5}
d=$(dirname "$(command -v topo-sim)")
if [ -x "$d/.libs/topo-sim" ]; then
    sim="$d/.libs/topo-sim"
    LD_LIBRARY_PATH="$d/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    export LD_LIBRARY_PATH
else
    sim=topo-sim
fi
phases() { # "build solve" seconds from a --progress log
    awk '/built in/ {for (i = 1; i <= NF; i++) if ($i == "in") b = $(i + 1)}
         /solved in/ {for (i = 1; i <= NF; i++) if ($i == "in") s = $(i + 1)}
         END {print b, s}' "$1"
}
col() { # column NAME of the first data row of TSV file FILE
    awk -F '\t' -v k="$2" 'NR == 1 {for (i = 1; i <= NF; i++) c[$i] = i; next} NR == 2 {print $(c[k])}' "$1"
}

echo "## adaptive steady state, dfly(4,8,4,33) absolute, shift, rho 0.45 (target < 5 s)"
topo-gen dragonfly p=4 a=8 h=4 g=33 arrangement=absolute >"$W/df33"
printf 'rule\tthreads\tbuild_s\tsolve_s\titerations\tconverged_residual\taccepted\n'
for r in ugal-l ugal-le ugal-g; do
    for t in 1 2; do
        "$sim" -r $r -m 'shift offset=32' --rho 0.45 --threads $t --progress "$W/df33" >"$W/o" 2>"$W/e"
        set -- $(phases "$W/e")
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' $r $t "$1" "$2" "$(col "$W/o" iterations)" \
            "$(col "$W/o" residual)" "$(col "$W/o" accepted)"
    done
done

echo "## dragonfly a=12 h=6 p=6 (5256 servers), server permutation, ugal-le, $IT iterations"
topo-gen dragonfly a=12 h=6 p=6 >"$W/big"
"$sim" -r ugal-le,iter=$IT -m server-perm --rho 0.5 --threads 1 --progress "$W/big" >"$W/o" 2>"$W/e" || true
set -- $(phases "$W/e")
awk -v b="$1" -v s="$2" -v n="$IT" 'BEGIN {printf "build %s s, %s iterations %s s, %.2f s per iteration\n", b, n, s, s / n}'
if [ "${SIM_ADAPT_FULL:-0}" = 1 ]; then
    /usr/bin/time -f '%U %S %e %M' -o "$W/t" "$sim" -r ugal-le -m server-perm --rho 0.5 --threads 1 \
        "$W/big" >"$W/o" 2>/dev/null || true
    read -r u sy wall kb <"$W/t"
    printf 'whole steady state: %s iterations, residual %s, accepted %s; %s s user + %s s system, %s s wall, %s MB resident\n' \
        "$(col "$W/o" iterations)" "$(col "$W/o" residual)" "$(col "$W/o" accepted)" "$u" "$sy" "$wall" \
        $((kb / 1024))
fi

echo "## dragonfly a=6 h=3 p=3 palmtree (342 servers), ADVc 0.4, $IT iterations"
topo-gen dragonfly a=6 h=3 p=3 arrangement=palmtree >"$W/h3"
printf 'rule\tarbitration\tbuild_s\tsolve_s\ts_per_iteration\n'
for r in src-rrg src-crg in-transit-crg in-transit-rrg in-transit-mm; do
    for a in fair transit; do
        "$sim" -r $r,iter=$IT -a $a -m advc --rho 0.4 --threads 1 --progress "$W/h3" >"$W/o" 2>"$W/e" || true
        set -- $(phases "$W/e")
        awk -v r=$r -v a=$a -v b="$1" -v s="$2" -v n="$IT" 'BEGIN {printf "%s\t%s\t%s\t%s\t%.3f\n", r, a, b, s, s / n}'
    done
done
