#!/bin/sh
# antmill-study.sh - the Ant Mill analysis of one topology, end to end, after
# the Ant Mill paper (an adverse traffic pattern for networks built on random
# regular graphs: every server of switch x_i of a Hamiltonian cycle whose
# windows of length delta have unique shortest paths sends to x_{i+lambda}).
#
#   sh antmill-study.sh [FAMILY KEY=VALUE ... [-p SERVERS] [-s SEED]]
#
# Default: the 1224-switch random regular graph of degree 24 with 9 servers
# per switch (k = 3.07 in d^k = 2 n ln n, servers ~ d / average distance, as
# the Ant Mill paper sets them).  Steps: generate the topology (topo-gen),
# its distance summary (topo-dist), the Hamiltonian cycle with unique shortest paths up to
# the largest delta found (topo-antmill --max-delta) and a plain Hamiltonian
# cycle (--hat), then the saturation throughput under each routing of the
# patterns the paper compares (topo-pattern, topo-load): uniform, random
# server permutation, switch permutations at distance delta and at the
# radius (longest matching), (H-hat, delta)- and (H, delta)-Ant-mill.
# Prints two TSV tables on standard output: the graph row of topo-antmill
# and one row per (routing, pattern) with the slowdown against uniform.
# Uses the topo-* tools found on PATH; work files go to a temporary
# directory that is removed on exit.
set -eu

ROUTINGS=${ROUTINGS:-"min ksp:8"}
if [ $# -eq 0 ]; then
    set -- rrg n=1224 d=24 -p 9 -s 1
fi

# STUDY_DIR (environment): keep the work files there (antmill-report.sh
# reads them), with the printed tables as dist.tsv, row.tsv, throughput.tsv.
if [ -n "${STUDY_DIR:-}" ]; then
    work=$STUDY_DIR
    mkdir -p "$work"
else
    work=$(mktemp -d "${TMPDIR:-/tmp}/antmill-study.XXXXXX")
    trap 'rm -rf "$work"' EXIT INT TERM
fi

topo-gen "$@" -o "$work/g.topo"
echo "# topology: $(sed -n 's/^spec //p' "$work/g.topo" | head -n 1)"
topo-dist "$work/g.topo" >"$work/dist.tsv"
cat "$work/dist.tsv"
echo
topo-antmill --max-delta --budget 30 -o "$work/h.cyc" -P "$work/h.pat" \
    "$work/g.topo" >"$work/row.tsv"
cat "$work/row.tsv"
echo
delta=$(awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "delta") c = i }
                     NR == 2 { print $c }' "$work/row.tsv")
radius=$(awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "radius") c = i }
                      NR == 2 { print $c }' "$work/row.tsv")
topo-antmill --hat --lambda "$delta" --no-uniform -P "$work/hhat.pat" \
    "$work/g.topo" >/dev/null
topo-pattern server-perm -s 1 -o "$work/sperm.pat" "$work/g.topo"
topo-pattern perm-distance lambda="$delta" -s 1 -o "$work/pd.pat" "$work/g.topo"
topo-pattern longest-matching -o "$work/lm.pat" "$work/g.topo"

# throughput ROUTING [PATTERN]: the throughput column of topo-load
throughput() {
    r=$1
    shift
    topo-load -r "$r" "$@" "$work/g.topo" |
        awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "throughput") c = i }
                     NR == 2 { print $c }'
}

{
printf 'routing\tpattern\tthroughput\tslowdown_vs_uniform\n'
for r in $ROUTINGS; do
    u=$(throughput "$r")
    for p in "uniform:" "server-perm:sperm" "perm-distance-$delta:pd" \
        "longest-matching-r$radius:lm" "hhat-antmill-$delta:hhat" \
        "antmill-$delta:h"; do
        name=${p%%:*}
        file=${p#*:}
        if [ -z "$file" ]; then
            t=$u
        else
            t=$(throughput "$r" -P "$work/$file.pat")
        fi
        printf '%s\t%s\t%s\t%s\n' "$r" "$name" "$t" \
            "$(awk -v u="$u" -v t="$t" 'BEGIN { printf "%.4g", u / t }')"
    done
done
} >"$work/throughput.tsv"
cat "$work/throughput.tsv"
