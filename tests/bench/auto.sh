#!/bin/sh
# auto.sh - topo-auto: automorphism groups of structured and random
# networks (whole process, wall-clock), against igraph's bliss-based
# canonical_permutation() on the same graphs where python3-igraph exists.
set -eu
W=$(mktemp -d "${TMPDIR:-/tmp}/tk-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM
PY=
for p in "${PYTHON:-}" /usr/bin/python3 python3; do
    [ -n "$p" ] || continue
    if "$p" -c 'import igraph' >/dev/null 2>&1; then PY=$p; break; fi
done
echo "topo-auto (nauty glue; random graphs settle by colour refinement)"
echo
echo "| graph | n | group_order | topo-auto s | igraph canonical_permutation s |"
echo "|---|---|---|---|---|"
for spec in "torus sides=100,100" "torus sides=30,30,30" "hypercube dim=14" "hyperx sides=16,16,16" \
    "kautz d=4 D=6" "rrg n=10000 d=16 -s 1" "rrg n=100000 d=16 -s 1" "rrg n=20000 d=3 -s 1"; do
    topo-gen $spec -o "$W/g.topo"
    t0=$(date +%s.%N)
    row=$(topo-auto "$W/g.topo" | tail -n 1)
    t1=$(date +%s.%N)
    ti=-
    if [ -n "$PY" ]; then
        topo-conv -f edges "$W/g.topo" >"$W/g.edges"
        ti=$("$PY" - "$W/g.edges" <<'PYEOF'
import sys, time, igraph as ig
head = open(sys.argv[1]).readline().split()
n = int(head[3]); directed = head[5] == "1"
edges = [tuple(map(int, l.split()[:2])) for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")]
g = ig.Graph(n=n, edges=edges, directed=directed)
t = time.perf_counter(); g.canonical_permutation(); print("%.3f" % (time.perf_counter() - t))
PYEOF
)
    fi
    echo "$row" | awk -F '\t' -v a="$t0" -v b="$t1" -v s="$spec" -v ti="$ti" \
        '{ printf "| %s | %s | %s | %.3f | %s |\n", s, $2, $3, b - a, ti }'
done
