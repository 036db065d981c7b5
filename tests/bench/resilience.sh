#!/bin/sh
# resilience.sh - issue 29's speed target: a 20-point x 30-sample sweep of
# random link failures (fractions 0 to 0.2) on rrg n=2000 d=16 with
# topo-resilience, --threads 2, target under 5 minutes on 2 cores.  Run
# only when BENCH names it (BENCH=resilience make bench): minutes.
#
# What is timed (wall clock and cpu = user + system, one run each):
#   loads     --no-bisection: per sample tk_fail_apply, the distance
#             summary and topo-load min's uniform throughput (the target);
#   all       the default: the same plus the spectral bisection bound.
# The load average before and after is printed: the machine may be shared.
# RESIL_N, RESIL_D, RESIL_POINTS, RESIL_SAMPLES change the sweep.
set -eu
N=${RESIL_N:-2000}
D=${RESIL_D:-16}
P=${RESIL_POINTS:-20}
S=${RESIL_SAMPLES:-30}
W=$(mktemp -d "${TMPDIR:-/tmp}/tk-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM
topo-gen rrg n="$N" d="$D" -s 1 >"$W/g.topo"

echo "topo-resilience: rrg n=$N d=$D, -F 0:0.2:$P -n $S (links), --threads 2"
echo
printf 'run\twall_s\tcpu_s\tload_before\tload_after\tthroughput.mean@0.2\tavg_distance.mean@0.2\n'
for run in loads all; do
    opt=
    [ $run = all ] || opt=--no-bisection
    before=$(cut -d' ' -f1 /proc/loadavg)
    # shellcheck disable=SC2086
    /usr/bin/time -f '%e %U %S' -o "$W/time" \
        topo-resilience -F "0:0.2:$P" -n "$S" --threads 2 $opt "$W/g.topo" >"$W/out"
    after=$(cut -d' ' -f1 /proc/loadavg)
    last=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } END { print $c["throughput.mean"] "\t" $c["avg_distance.mean"] }' "$W/out")
    awk -v r=$run -v b="$before" -v a="$after" -v l="$last" \
        '{ printf "%s\t%.1f\t%.1f\t%s\t%s\t%s\n", r, $1, $2 + $3, b, a, l }' "$W/time"
done
