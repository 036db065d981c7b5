#!/bin/sh
# gen.sh - topo-gen on ~100 000-switch instances of the catalogue families
# (dragonfly, dragonfly+, slimfly, projective ER_q and Levi, fattree,
# hyperx), wall-clock seconds of the whole process (generation + writing),
# written as sparse6 and as the native format to a file; and one peer:
# networkx building the same HyperX (cartesian product of complete graphs)
# on a smaller instance, next to topo-gen.  Needs topo-gen on PATH (run.sh
# sets it); python3 with networkx for the peer ('-' when absent).
set -eu
W=$(mktemp -d "${TMPDIR:-/tmp}/tk-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM

secs() { # secs CMD...: wall-clock seconds of CMD
    s=$(date +%s.%N)
    "$@" >/dev/null
    e=$(date +%s.%N)
    awk -v s="$s" -v e="$e" 'BEGIN { printf "%.2f", e - s }'
}

echo "## topo-gen catalogue, ~100 000 switches (seconds, whole process)"
echo
echo "| instance | switches | links | sparse6 | native |"
echo "|---|---|---|---|---|"
while IFS='|' read -r args; do
    [ -n "$args" ] || continue
    t1=$(secs topo-gen $args -f sparse6 -o "$W/g.s6")
    t2=$(secs topo-gen $args -o "$W/g.topo")
    n=$(sed -n 's/^switches //p' "$W/g.topo" | head -n 1)
    l=$(sed -n 's/^links //p' "$W/g.topo" | head -n 1)
    echo "| $args | $n | $l | $t1 | $t2 |"
    rm -f "$W/g.s6" "$W/g.topo"
done <<'EOF2'
dragonfly a=64 h=32 p=32 g=1563
dragonfly a=64 h=32 g=1563 arrangement=random
dragonfly+ leaves=32 spines=32 h=48
slimfly q=223
projective q=317
projective q=223 levi=1
fattree k=282
hyperx sides=47,47,47
EOF2

PY=
for p in "${PYTHON:-}" /usr/bin/python3 python3; do
    [ -n "$p" ] || continue
    if "$p" -c 'import networkx' >/dev/null 2>&1; then PY=$p; break; fi
done
echo
echo "## HyperX sides=22,22,22 (10648 switches): topo-gen vs networkx"
echo
t=$(secs topo-gen hyperx sides=22,22,22 -f sparse6 -o "$W/h.s6")
if [ -n "$PY" ]; then
    nx=$("$PY" -c '
import time, networkx as nx
t = time.time()
g = nx.complete_graph(22)
h = nx.cartesian_product(nx.cartesian_product(g, g), g)
assert h.number_of_nodes() == 10648 and h.number_of_edges() == 10648 * 63 // 2
print("%.2f" % (time.time() - t))')
else
    nx=-
fi
echo "| tool | seconds |"
echo "|---|---|"
echo "| topo-gen (process, sparse6 to a file) | $t |"
echo "| networkx cartesian_product (in memory, no output) | $nx |"
