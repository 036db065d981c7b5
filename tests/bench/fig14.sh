#!/bin/sh
# fig14.sh - Figure 14 of Faizian et al., "Random Regular Graph and
# Generalized De Bruijn Graph with k-shortest Path Routing", as a
# pipeline: switch-level random permutation and random shift,
# N = 100..1000, r = 16; GDBG(N, 16) with
# ALLPATH(3) against RRG(N, 16) with k-shortest paths, k = ceil(A), A the
# average number of ALLPATH(3) paths per pair on the GDBG (topo-route).
# Metric: topo-mcf's exact path-restricted maximum concurrent flow theta
# (switch level: no injection limit, so theta is the per-flow throughput in
# link speeds).  Each point averages random samples (a new pattern, and for
# RRG a new graph, per sample) until the 95% confidence interval is under
# 1% of the mean (at least FIG_MIN = 20 samples; FIG_MAX, default 100000,
# caps them: FIG_MAX=200 is the paper's cap), with the Student t interval of
# topo-stats (fig-lib.inc).
# GDBG's random shift is not sampled: its mean over all N-1 offsets is
# computed exactly (FIG_GDBG_SHIFT=sample samples it instead).  GDBG(N, d),
# arcs v -> d v + j mod N (j < d), has the automorphism v -> N-1-v (the
# arcs of N-1-v go to -d v - d + j' = N-1-(d v + j) for j' = d-1-j), which
# maps shift a onto shift N-a, so offsets 1..N/2 suffice (tested in
# tests/cli/topo-mcf.sh).
# Knobs: FIG14_N (sizes), FIG_KINDS (switch-perm and/or random-shift),
# FIG_SERIES (gdbg and/or rrg; a missing one prints "-"), FIG_MIN, FIG_MAX,
# FIG_GDBG_SHIFT, FIG_RRG_LP (topo-mcf --lp of the RRG series; default
# simplex from N = 500, barrier below, as measured faster: --lp auto's
# split rule picks the simplex at N = 400, where the barrier is 1.0-1.8x
# faster); FIG_SPREAD=1
# routes RRG with ksp:k,spread (ties at the k-th length chosen pseudo-
# randomly among all of them, topokit(7)) instead of ksp:k.  FIG_KEEP=DIR
# keeps each sampled point's numbers in DIR/fig14-SERIES-N-KIND.samples
# (seed i on line i) and resumes from them: a rerun extends the same
# samples (fig-lib.inc).  Prints a Markdown table.
set -eu
W=$(mktemp -d "${TMPDIR:-/tmp}/tk-fig14.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM
MIN=${FIG_MIN:-20} MAX=${FIG_MAX:-100000}
SERIES=${FIG_SERIES:-gdbg rrg}
FIG=fig14
SPREAD=
[ "${FIG_SPREAD:-0}" = 1 ] && SPREAD=,spread

. "$(dirname "$0")/fig-lib.inc"
gdbg_one() { # KIND N SEED
    topo-mcf --method exact -r allpath:3 -m "$1" -s "$3" "$W/gdbg-$2.topo" | awk -F '\t' 'NR == 2 { print $4 }'
}
gdbg_shifts() { # N 'A1 A2 ...': theta of each switch-level shift offset
    shifts_theta "$W/gdbg-$1.topo" switch "$2"
}
rrg_one() { # KIND N K SEED
    # the simplex with row generation from N = 500, the barrier below
    # (tests/bench/RESULTS.md, "row generation in the path LP's simplex")
    rl=${FIG_RRG_LP:-barrier}
    [ -z "${FIG_RRG_LP:-}" ] && [ "$2" -ge 500 ] && rl=simplex
    topo-gen rrg n="$2" d=16 -s "$4" | topo-mcf --method exact --lp "$rl" -r ksp:"$3$SPREAD" -m "$1" -s "$4" | awk -F '\t' 'NR == 2 { print $4 }'
}

echo "## Faizian et al. Figure 14: switch-level patterns, r = 16 (per-flow throughput = theta)"
echo
echo "| N | k = ceil(A) | pattern | GDBG ALLPATH(3) mean ± 95% | samples | RRG KSP(k)$SPREAD mean ± 95% | samples | GDBG/RRG |"
echo "|---|---|---|---|---|---|---|---|"
for N in ${FIG14_N:-100 200 300 400 500 600 700 800 900 1000}; do
    topo-gen gdbg n="$N" r=16 >"$W/gdbg-$N.topo"
    A=$(topo-route -r allpath:3 "$W/gdbg-$N.topo" | awk -F '\t' 'NR == 2 { print $5 }')
    K=$(awk -v a="$A" 'BEGIN { k = int(a); if (k < a) k++; print k }')
    for kind in ${FIG_KINDS:-switch-perm random-shift}; do
        kind="$kind level=switch"
        series_point "$kind" "$N" "$N"
        echo "| $N | $K (A=$A) | ${kind%% *} | $gm ± $gh | $gn | $rm_ ± $rh | $rn | $(awk -v a="$gm" -v b="$rm_" 'BEGIN { if (a == "-" || b == "-") print "-"; else printf "%.2f", a / b }') |"
    done
done
