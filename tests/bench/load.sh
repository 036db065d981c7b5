#!/bin/sh
# load.sh - analytic link load (topo-load) of the switch-level all-to-all,
# one unit per ordered pair, against igraph's edge betweenness in one run.
# Needs topo-load and topo-gen on PATH (run.sh sets it); igraph through
# python3 (Debian: python3-igraph); a missing peer is shown as '-'.
#
# What is timed (wall clock):
#   topo-load min   the whole process (read the graph, every arc's load,
#                   print), --threads 1 and --threads 2, best of 2;
#   topo-load ecmp  the same with -r ecmp;
#   igraph          Graph.edge_betweenness() on the same graph, already
#                   built, one run (igraph is single-threaded).  Its
#                   largest value must equal topo-load min's max_load
#                   ("agree": undirected edge betweenness counts each
#                   unordered pair once and both directions together,
#                   which is the load of each direction, see
#                   tests/cli/crosscheck-load.py);
#   topo-load ksp:8 all-to-all on rrg n=1000 d=16, --threads 2.
# LOAD_N and LOAD_D change the big graph (default 10000, 16).
set -eu
N=${LOAD_N:-10000}
D=${LOAD_D:-16}
PY=
for p in "${PYTHON:-}" /usr/bin/python3 python3; do
    [ -n "$p" ] || continue
    if "$p" -c 'import igraph' >/dev/null 2>&1; then PY=$p; break; fi
done

W=$(mktemp -d "${TMPDIR:-/tmp}/tk-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM
topo-gen rrg n="$N" d="$D" -s 1 >"$W/big.topo"
topo-gen rrg n=1000 d=16 -s 1 >"$W/k.topo"
topo-conv -f edges "$W/big.topo" | grep -v '^#' >"$W/big.el"

# best CMD...: "wall cpu" of the run with the best wall time of 2 (cpu =
# user + system seconds, which a loaded machine inflates less than wall);
# last stdout in $W/out
best() {
    b=
    for _ in 1 2; do
        /usr/bin/time -f '%e %U %S' -o "$W/time" "$@" >"$W/out"
        b=$(awk -v b="$b" '{ w = $1; c = $2 + $3 } END { split(b, o, " ");
            if (b == "" || w < o[1]) printf "%.2f %.2f", w, c; else print b }' "$W/time")
    done
    echo "$b"
}
col() { awk -F '\t' -v k="$1" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } NR == 2 { print $(c[k]) }' "$W/out"; }

echo "switch-level all-to-all link load, rrg n=$N d=$D (one unit per ordered pair)"
echo
m1=$(best topo-load --threads 1 "$W/big.topo"); ml=$(col max_load)
m2=$(best topo-load --threads 2 "$W/big.topo")
e1=$(best topo-load -r ecmp --threads 1 "$W/big.topo")
e2=$(best topo-load -r ecmp --threads 2 "$W/big.topo"); el=$(col max_load)
ig="- -" igmax=- agree=-
if [ -n "$PY" ]; then
    set -- $("$PY" - "$W/big.el" <<'PYEOF'
import sys, time
import igraph as ig
g = ig.Graph.Read_Edgelist(sys.argv[1], directed=False)
t, c = time.perf_counter(), time.process_time()
b = g.edge_betweenness()
print("%.2f %.2f %.17g" % (time.perf_counter() - t, time.process_time() - c, max(b)))
PYEOF
)
    ig="$1 $2" igmax=$3
    agree=$(awk -v a="$ml" -v b="$igmax" 'BEGIN { d = a - b; if (d < 0) d = -d; print (d <= 1e-9 * b) ? "yes" : "NO" }')
fi
# ratio "A a" "B b": wall ratio A/B and cpu ratio a/b
ratio() {
    case "$1" in -*) echo "- | -"; return ;; esac
    echo "$1 $2" | awk '{ printf "%.1f | %.1f", $1 / $3, $2 / $4 }'
}
cell() { echo "$1" | awk '{ printf "%s | %s", $1, $2 }'; }
echo "Times in seconds: wall | cpu (user+system).  igraph is single-threaded."
echo
echo "| routing | topo-load 1t wall | 1t cpu | topo-load 2t wall | 2t cpu | igraph wall | igraph cpu | igraph/topo-load 2t wall | cpu | max_load | igraph max | agree |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
echo "| min | $(cell "$m1") | $(cell "$m2") | $(cell "$ig") | $(ratio "$ig" "$m2") | $ml | $igmax | $agree |"
echo "| ecmp | $(cell "$e1") | $(cell "$e2") | - | - | $(ratio "$ig" "$e2") | $el | - | - |"
echo
k2=$(best topo-load -r ksp:8 --threads 2 "$W/k.topo")
echo "ksp:8 all-to-all, rrg n=1000 d=16, 2 threads: wall | cpu $(cell "$k2") s (max_load $(col max_load))"
