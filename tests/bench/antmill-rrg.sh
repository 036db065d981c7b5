#!/bin/sh
# antmill-rrg.sh - the RRG study of the Ant Mill paper (an adverse traffic
# pattern for networks built on random regular graphs) as a pipeline of
# topokit tools.
#
# For each k in AM_KS (default 2.2 2.5 2.8 3.1 3.4 3.7): d = round((2 n ln n)^(1/k))
# on n = AM_N switches (default 1224, the paper's representative RRG), the
# medoid of AM_SAMPLES (100) random d-regular graphs in the plane (average
# distance, link use) [topo-medoid], p = round(d / avg_distance) servers per
# switch as Remark 1 sets them, the largest delta found within AM_BUDGET
# seconds (60) [topo-antmill --max-delta], and the minimal-routing
# saturation throughput per server [topo-load -r min] of
#   (H,delta)-Ant-mill, uniform (switch level: every switch spreads its p
#   servers' traffic evenly over the other switches; the server-level file
#   would have (n p)^2 demands), a random server permutation, a switch
#   permutation at distance delta and one at distance radius (topo-pattern
#   perm-distance; longest-matching when no permutation at distance radius
#   exists).
# Prints one TSV row per k and the ratios the paper reports.
#   AM_N=1224 AM_SAMPLES=100 AM_BUDGET=60 AM_KS='2.2 3.7' sh antmill-rrg.sh
set -eu
N=${AM_N:-1224}
SAMPLES=${AM_SAMPLES:-100}
BUDGET=${AM_BUDGET:-60}
KS=${AM_KS:-2.2 2.5 2.8 3.1 3.4 3.7}
W=$(mktemp -d "${TMPDIR:-/tmp}/tk-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM

thr() { # thr PATTERN GRAPH: min-routing throughput per server
    topo-load -r min -P "$1" "$2" | awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "throughput") c = i } NR == 2 { print $c }'
}

echo "# antmill-rrg: Ant Mill paper RRG study, n=$N, $SAMPLES samples per k, budget ${BUDGET}s"
printf 'k\tn\td\tp\tdelta\tradius\tdiameter\tavg_distance\tantmill\tuniform\tserver_perm\tperm_delta\tperm_radius\tslowdown_uniform\tslowdown_server_perm\tloss\tmedoid_s\tsearch_s\n'
for k in $KS; do
    d=$(awk -v n="$N" -v k="$k" 'BEGIN { printf "%d", exp(log(2 * n * log(n)) / k) + 0.5 }')
    [ $((N * d % 2)) -eq 0 ] || d=$((d + 1))
    t0=$(date +%s.%N)
    topo-medoid rrg n="$N" d="$d" --samples "$SAMPLES" -s 1 --table "$W/t.tsv" -o "$W/m.topo"
    t1=$(date +%s.%N)
    seed=$(awk -F '\t' 'NR > 1 && $8 == 1 { print $2 }' "$W/t.tsv")
    avg=$(awk -F '\t' 'NR > 1 && $8 == 1 { print $3 }' "$W/t.tsv")
    p=$(awk -v d="$d" -v a="$avg" 'BEGIN { p = int(d / a + 0.5); print p < 1 ? 1 : p }')
    topo-gen rrg n="$N" d="$d" -s "$seed" -p "$p" -o "$W/g.topo"
    t2=$(date +%s.%N)
    topo-antmill --max-delta --budget "$BUDGET" --no-uniform -o "$W/h.cyc" -P "$W/am.pat" "$W/g.topo" >"$W/row"
    t3=$(date +%s.%N)
    delta=$(awk -F '\t' 'NR == 2 { print $3 }' "$W/row")
    radius=$(awk -F '\t' 'NR == 2 { print $5 }' "$W/row")
    diam=$(awk -F '\t' 'NR == 2 { print $6 }' "$W/row")
    topo-pattern uniform level=switch -o "$W/u.pat" "$W/g.topo"
    topo-pattern server-perm -s 1 -o "$W/sp.pat" "$W/g.topo"
    topo-pattern perm-distance lambda="$delta" level=server -s 1 -o "$W/pd.pat" "$W/g.topo"
    if ! topo-pattern perm-distance lambda="$radius" level=server -s 1 -o "$W/pr.pat" "$W/g.topo" 2>/dev/null; then
        topo-pattern longest-matching level=server -o "$W/pr.pat" "$W/g.topo"
    fi
    am=$(thr "$W/am.pat" "$W/g.topo")
    un=$(thr "$W/u.pat" "$W/g.topo")
    sp=$(thr "$W/sp.pat" "$W/g.topo")
    pd=$(thr "$W/pd.pat" "$W/g.topo")
    pr=$(thr "$W/pr.pat" "$W/g.topo")
    awk -v k="$k" -v n="$N" -v d="$d" -v p="$p" -v de="$delta" -v r="$radius" -v D="$diam" \
        -v a="$avg" -v am="$am" -v un="$un" -v sp="$sp" -v pd="$pd" -v pr="$pr" \
        -v tm="$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')" \
        -v ts="$(awk -v a="$t2" -v b="$t3" 'BEGIN { printf "%.1f", b - a }')" \
        'BEGIN { printf "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%.4f\t%.5f\t%.5f\t%.5f\t%.5f\t%.5f\t%.2f\t%.2f\t%.1f%%\t%s\t%s\n",
                 k, n, d, p, de, r, D, a, am, un, sp, pd, pr, un / am, sp / am, 100 * (1 - am / un), tm, ts }'
done
