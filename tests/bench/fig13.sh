#!/bin/sh
# fig13.sh - Figure 13 of Faizian et al., "Random Regular Graph and
# Generalized De Bruijn Graph with k-shortest Path Routing", as a
# pipeline: compute-node (server) level random permutation and random
# shift on RRG(150, 8) and GDBG(150, 8) with
# 1..10 servers per switch; GDBG with ALLPATH(3), RRG with k-shortest paths,
# k = ceil(A), A the average number of ALLPATH(3) paths per pair on the GDBG.
# Metric: topo-mcf's exact path-restricted maximum concurrent flow with each
# server's injection and ejection limit 1, i.e. the per-flow throughput
# normalised to the link speed.  Each point averages random samples (a new
# pattern, and for RRG a new graph, per sample) until the 95% confidence
# interval is under 1% of the mean (at least FIG_MIN = 20 samples; FIG_MAX,
# default 100000, caps them: FIG_MAX=200 is the paper's cap).  GDBG's random
# shift is exact instead, its mean over all 150p-1 server offsets
# (FIG_GDBG_SHIFT=sample samples it): server j of switch v is endpoint
# p v + j, and GDBG's automorphism v -> 149-v (fig14.sh) with j -> p-1-j
# maps endpoint x to 150p-1-x, hence shift a onto shift 150p-a.
# Knobs: FIG13_P (servers per switch), FIG_KINDS (server-perm and/or random-
# shift), FIG_SERIES (gdbg and/or rrg), FIG_MIN, FIG_MAX, FIG_GDBG_SHIFT,
# FIG_RRG_LP (topo-mcf --lp of the RRG series; default simplex on shifts,
# auto on permutations, as measured faster); FIG_SPREAD=1 routes RRG with
# ksp:k,spread (topokit(7)) instead of ksp:k.  FIG_KEEP=DIR keeps each
# sampled point's numbers in DIR/fig13-SERIES-P-KIND.samples (seed i on line
# i) and resumes from them: a rerun extends the same samples (fig-lib.inc).
set -eu
W=$(mktemp -d "${TMPDIR:-/tmp}/tk-fig13.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM
MIN=${FIG_MIN:-20} MAX=${FIG_MAX:-100000}
SERIES=${FIG_SERIES:-gdbg rrg}
FIG=fig13
SPREAD=
[ "${FIG_SPREAD:-0}" = 1 ] && SPREAD=,spread

. "$(dirname "$0")/fig-lib.inc"
gdbg_one() { # KIND P SEED
    topo-mcf --method exact -r allpath:3 -m "$1" -s "$3" "$W/gdbg-$2.topo" | awk -F '\t' 'NR == 2 { print $4 }'
}
gdbg_shifts() { # P 'A1 A2 ...': theta of each server-level shift offset
    shifts_theta "$W/gdbg-$1.topo" server "$2"
}
rrg_one() { # KIND P K SEED
    # the simplex with row generation on shifts, the barrier on
    # permutations (tests/bench/RESULTS.md, "row generation in the path
    # LP's simplex")
    rl=${FIG_RRG_LP:-auto}
    case "${FIG_RRG_LP:-}/$1" in /random-shift*) rl=simplex ;; esac
    topo-gen rrg n=150 d=8 -p "$2" -s "$4" | topo-mcf --method exact --lp "$rl" -r ksp:"$3$SPREAD" -m "$1" -s "$4" | awk -F '\t' 'NR == 2 { print $4 }'
}

echo "## Faizian et al. Figure 13: server-level patterns, N = 150, r = 8 (per-flow throughput)"
echo
echo "| servers/switch | pattern | GDBG ALLPATH(3) mean ± 95% | samples | RRG KSP(k)$SPREAD mean ± 95% | samples | GDBG/RRG |"
echo "|---|---|---|---|---|---|---|"
topo-gen gdbg n=150 r=8 >"$W/gdbg.topo"
A=$(topo-route -r allpath:3 "$W/gdbg.topo" | awk -F '\t' 'NR == 2 { print $5 }')
K=$(awk -v a="$A" 'BEGIN { k = int(a); if (k < a) k++; print k }')
echo "(A = $A paths per pair on GDBG(150, 8) with ALLPATH(3): RRG uses KSP($K))"
echo
for P in ${FIG13_P:-1 2 3 4 5 6 7 8 9 10}; do
    topo-gen gdbg n=150 r=8 -p "$P" >"$W/gdbg-$P.topo"
    for kind in ${FIG_KINDS:-server-perm random-shift}; do
        [ "$kind" = random-shift ] && kind="random-shift level=server"
        series_point "$kind" "$P" $((150 * P))
        echo "| $P | ${kind%% *} | $gm ± $gh | $gn | $rm_ ± $rh | $rn | $(awk -v a="$gm" -v b="$rm_" 'BEGIN { if (a == "-" || b == "-") print "-"; else printf "%.2f", a / b }') |"
    done
done
