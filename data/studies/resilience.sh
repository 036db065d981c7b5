#!/bin/sh
# resilience.sh - how four families degrade under random failures at equal
# switch count and radix: saturation throughput (uniform traffic, minimal
# routing, topo-load's analytic model) and probability of disconnection
# against the fraction of links (and of switches) removed, with 95%
# Student t confidence intervals, by topo-resilience(1).
#
#   sh resilience.sh [--size 50|98] [--samples N] [--points P] [--max F]
#                    [--seed S] [--jobs N] [--plot FILE.svg|.png] [--switches]
#
# --jobs N: sweeps at a time (default 2; a positive integer, else exit 2),
# each starting as soon as one before it ends.
#
# Topologies (README.md says why these): --size 50 (default), 50 switches
# of network radix 7 and 4 servers per switch (200 servers) wherever the
# family allows it:
#   RRG        topo-gen rrg n=50 d=7 -s 1
#   Slim Fly   topo-gen slimfly q=5 (the MMS graph: 2q^2 = 50, radix 7)
#   Dragonfly  topo-gen dragonfly a=5 h=3 g=10 (10 groups of 5 routers,
#              radix a-1+h = 7; 15 global links per group over 9 other
#              groups, so some pairs of groups are joined twice)
#   HyperX     topo-gen hyperx sides=4,4,3 (48 switches, radix 8: the
#              nearest HyperX; 50 = 5x10 or 2x5x5 has radix 13 or 9)
# --size 98: 98 switches of radix 11, 6 servers each: rrg n=98 d=11,
# slimfly q=7, dragonfly a=7 h=5 g=14, hyperx sides=4,4,6 (96, radix 11).
# One table on standard output: family fraction removed samples
# p_disconnected throughput.mean throughput.lo throughput.hi
# throughput.min throughput.max avg_distance.mean diameter.max
# bisection_lb.mean; progress on standard error.
set -eu
SAMPLES=30
POINTS=7
MAX=0.3
SEED=1
JOBS=2
PLOT=
UNIT=
SIZE=50
while [ $# -gt 0 ]; do
    case $1 in
    --samples) SAMPLES=$2; shift 2 ;;
    --points) POINTS=$2; shift 2 ;;
    --max) MAX=$2; shift 2 ;;
    --seed) SEED=$2; shift 2 ;;
    --jobs) JOBS=$2; shift 2 ;;
    --plot) PLOT=$2; shift 2 ;;
    --switches) UNIT=-w; shift ;;
    --size) SIZE=$2; shift 2 ;;
    -h | --help) sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "resilience.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
case $JOBS in
'' | *[!0-9]* | 0*) echo "resilience.sh: --jobs '$JOBS': a positive integer" >&2; exit 2 ;;
esac
command -v topo-resilience >/dev/null 2>&1 || PATH=$(pwd):$PATH
command -v topo-resilience >/dev/null 2>&1 || {
    echo "resilience.sh: topo-resilience not found: put the tools on PATH" >&2
    exit 2
}
export LC_ALL=C
W=$(mktemp -d "${TMPDIR:-/tmp}/tk-resil.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM

fam="rrg slimfly dragonfly hyperx"
case $SIZE in
50) P=4 ;;
98) P=6 ;;
*) echo "resilience.sh: --size 50 or 98" >&2; exit 2 ;;
esac
spec() {
    case $SIZE.$1 in
    50.rrg) echo "rrg n=50 d=7 -s 1" ;;
    50.slimfly) echo "slimfly q=5" ;;
    50.dragonfly) echo "dragonfly a=5 h=3 g=10" ;;
    50.hyperx) echo "hyperx sides=4,4,3" ;;
    98.rrg) echo "rrg n=98 d=11 -s 1" ;;
    98.slimfly) echo "slimfly q=7" ;;
    98.dragonfly) echo "dragonfly a=7 h=5 g=14" ;;
    98.hyperx) echo "hyperx sides=4,4,6" ;;
    esac
}
t0=$(date +%s)
for f in $fam; do
    # shellcheck disable=SC2046
    topo-gen -p $P $(spec $f) >"$W/$f.topo"
done
# The four sweeps, each single-threaded (the samples of one sweep could
# use the threads instead: the bytes are the same), in a pool of JOBS
# slots: a FIFO holds one line per free slot, a sweep takes one before it
# starts and gives it back when it ends (failed or not: a failed sweep
# leaves no table, which the check below reports), so a slow sweep holds
# up only its own slot.
sweep() {
    echo "resilience.sh: $1: $(spec "$1") p=$P: $POINTS points x $SAMPLES samples" >&2
    # shellcheck disable=SC2086
    topo-resilience $UNIT -F "0:$MAX:$POINTS" -n "$SAMPLES" -s "$SEED" --threads 1 \
        -o "$W/$1.tsv" "$W/$1.topo"
}
mkfifo "$W/.slots"
exec 3<>"$W/.slots"
rm -f "$W/.slots"
i=0
while [ "$i" -lt "$JOBS" ]; do echo >&3; i=$((i + 1)); done
for f in $fam; do
    read -r _ <&3
    { sweep "$f" || :; echo >&3; } &
done
wait
exec 3>&-
for f in $fam; do
    [ -s "$W/$f.tsv" ] || { echo "resilience.sh: $f failed" >&2; exit 1; }
done
# The table: one row per family and fraction.
for f in $fam; do
    awk -F'\t' -v fam=$f 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i
            if (!printed) print "family\tunit\tfraction\tremoved\tsamples\tp_disconnected\tthroughput.mean\tthroughput.lo\tthroughput.hi\tthroughput.min\tthroughput.max\tavg_distance.mean\tdiameter.max\tbisection_lb.mean"
            next }
        { print fam "\t" $c["unit"] "\t" $c["fraction"] "\t" $c["removed"] "\t" $c["samples"] "\t" \
            $c["p_disconnected"] "\t" $c["throughput.mean"] "\t" $c["throughput.lo"] "\t" \
            $c["throughput.hi"] "\t" $c["throughput.min"] "\t" $c["throughput.max"] "\t" \
            $c["avg_distance.mean"] "\t" $c["diameter.max"] "\t" $c["bisection_lb.mean"] }' \
        printed=$([ $f = rrg ] && echo 0 || echo 1) "$W/$f.tsv"
done
if [ -n "$PLOT" ]; then
    # topo-plot draws throughput.mean with its interval, one line per
    # family: the name column is the family.
    for f in $fam; do
        awk -F'\t' -v fam=$f 'BEGIN { OFS = "\t" } FNR == 1 && fam != "rrg" { next }
            FNR > 1 { $1 = fam } { print }' "$W/$f.tsv"
    done >"$W/all.tsv"
    unit=links
    [ -z "$UNIT" ] || unit=switches
    if [ "$SIZE" = 50 ]; then what="50 switches, radix 7 (HyperX 48, 8), p=4"; else what="98 switches, radix 11 (HyperX 96), p=6"; fi
    topo-plot --title "throughput vs failed $unit: $what, min routing" \
        --caption "data/studies/resilience.sh: $SAMPLES samples per point, 95% t intervals" \
        -o "$PLOT" "$W/all.tsv" >&2 || echo "resilience.sh: no plot (gnuplot?)" >&2
fi
echo "resilience.sh: $(($(date +%s) - t0)) s" >&2
