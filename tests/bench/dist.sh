#!/bin/sh
# dist.sh - all-pairs distance summary: topo-dist against igraph and
# networkx on the same graphs, in one run.  Prints a table of wall-clock
# seconds and ratios.  Needs topo-dist and topo-gen on PATH (run.sh sets it)
# and python3 with networkx and igraph (Debian: python3-networkx,
# python3-igraph); a missing peer is shown as '-'.
#
# What is timed:
#   topo-dist  the whole process: read graph6, all-pairs BFS summary
#              (diameter, radius, average distance) and girth; best of 5.
#   igraph     Graph.diameter() + Graph.average_path_length() (two all-pairs
#              BFS passes in C), graph already built; one run.
#   networkx   all_pairs_shortest_path_length, folding max and sum as it
#              goes (diameter + average distance), graph already built.
set -eu
PY=
for p in "${PYTHON:-}" /usr/bin/python3 python3; do
    [ -n "$p" ] || continue
    if "$p" -c 'import networkx' >/dev/null 2>&1; then PY=$p; break; fi
done
[ -n "$PY" ] || { echo "dist.sh: no python3 with networkx; skipping"; exit 0; }

W=$(mktemp -d "${TMPDIR:-/tmp}/tk-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM

# The graphs (seed 1).  topo-gen writes graph6/digraph6 directly.
topo-gen rrg n=1024 d=24 -s 1 -f graph6 >"$W/rrg-1024-24.g6"
topo-gen rrg n=4096 d=16 -s 1 -f graph6 >"$W/rrg-4096-16.g6"
topo-gen rrg n=16384 d=16 -s 1 -f graph6 >"$W/rrg-16384-16.g6"
topo-gen kautz d=4 D=5 -f digraph6 >"$W/kautz-4-5.d6"

"$PY" - "$W" <<'PYEOF'
import os, subprocess, sys, time
W = sys.argv[1]
try:
    import networkx as nx
except ImportError:
    nx = None
try:
    import igraph as ig
except ImportError:
    ig = None

# (label, file, run networkx?)  networkx needs ~5 minutes on n=16384.
graphs = [("rrg n=1024 d=24", "rrg-1024-24.g6", True),
          ("rrg n=4096 d=16", "rrg-4096-16.g6", True),
          ("rrg n=16384 d=16", "rrg-16384-16.g6", False),
          ("kautz d=4 D=5", "kautz-4-5.d6", True)]

def digraph6(s):
    s = s[1:]
    if s[0] == 126:
        n = ((s[1] - 63) << 12) | ((s[2] - 63) << 6) | (s[3] - 63); s = s[4:]
    else:
        n = s[0] - 63; s = s[1:]
    bits = []
    for c in s:
        bits.extend(((c - 63) >> k) & 1 for k in range(5, -1, -1))
    g = nx.DiGraph(); g.add_nodes_from(range(n))
    g.add_edges_from((i, j) for i in range(n) for j in range(n) if bits[i * n + j])
    return g

def topo(path, threads):
    best = None
    for _ in range(5):
        t = time.perf_counter()
        r = subprocess.run(["topo-dist", "--threads", str(threads), path],
                           stdout=subprocess.PIPE, check=True)
        dt = time.perf_counter() - t
        best = dt if best is None or dt < best else best
    row = r.stdout.decode().splitlines()[1].split("\t")
    return best, int(row[5]), float(row[7]), int(row[1]), int(row[2])

def fmt(x):
    return "-" if x is None else "%.3f" % x

def ratio(a, b):
    return "-" if a is None or b is None else "%.0fx" % (a / b)

hdr = ["graph", "n", "arcs", "topo-dist 1t", "topo-dist 2t", "igraph", "networkx",
       "igraph/topo 1t", "networkx/topo 1t", "agree"]
print("| " + " | ".join(hdr) + " |")
print("|" + "---|" * len(hdr))
for label, f, run_nx in graphs:
    path = os.path.join(W, f)
    t1, diam, avg, n, arcs = topo(path, 1)
    t2, diam2, avg2, _, _ = topo(path, 2)
    agree = diam == diam2 and avg == avg2
    line = open(path, "rb").read().strip()
    directed = line.startswith(b"&")
    g = None
    if nx is not None:
        g = digraph6(line) if directed else nx.from_graph6_bytes(line)
    ti = None
    if ig is not None and g is not None:
        h = ig.Graph(n=g.number_of_nodes(), edges=list(g.edges()), directed=directed)
        t = time.perf_counter()
        d = h.diameter(directed=True)
        a = h.average_path_length(directed=True)
        ti = time.perf_counter() - t
        agree = agree and d == diam and abs(a - avg) <= 1e-12 * avg
    tn = None
    if run_nx and g is not None:
        t = time.perf_counter()
        dmax = 0; total = 0
        for s, dist in nx.all_pairs_shortest_path_length(g):
            dmax = max(dmax, max(dist.values())); total += sum(dist.values())
        tn = time.perf_counter() - t
        agree = agree and dmax == diam and abs(total / (n * (n - 1)) - avg) <= 1e-12 * avg
    print("| " + " | ".join([label, str(n), str(arcs), fmt(t1), fmt(t2), fmt(ti), fmt(tn),
                             ratio(ti, t1), ratio(tn, t1), "yes" if agree else "NO"]) + " |")
    sys.stdout.flush()
PYEOF

# ---------------------------------------------------------------------------
# Issue 3 targets, in the same run:
#  (a) all eccentricities + the distance histogram of rrg n=10000 d=16
#      (topo-dist --json --ecc --hist, whole process, best of 3) against
#      igraph's Graph.eccentricity() on the same graph (graph built before
#      the clock starts); peak memory of topo-dist from /usr/bin/time -v.
#  (b) every distance column of rrg n=100000 d=16 (1.6 M arcs) with
#      --threads 2: wall-clock and peak memory.
#  (c) orbit acceleration: tori, HyperX, hypercube, Kautz with and without
#      --no-symmetry (outputs compared byte for byte).
echo
echo "Issue 3 targets (rrg seed 1)"
topo-gen rrg n=10000 d=16 -s 1 -o "$W/rrg-10000-16.topo"
topo-gen rrg n=10000 d=16 -s 1 -f edges -o "$W/rrg-10000-16.edges"
topo-gen rrg n=100000 d=16 -s 1 -o "$W/rrg-100000-16.topo"
peak() { # peak RSS in MB and wall seconds of a command (stdout discarded)
    if [ -x /usr/bin/time ]; then
        /usr/bin/time -f '%e %M' "$@" 2>&1 >/dev/null | tail -n 1 |
            awk '{ printf "%.2f s, %.0f MB", $1, $2 / 1024 }'
    else
        echo "- (no /usr/bin/time)"
    fi
}
"$PY" - "$W" <<'PYEOF'
import subprocess, sys, time
W = sys.argv[1]
best = None
for _ in range(3):
    t = time.perf_counter()
    r = subprocess.run(["topo-dist", "--json", "--ecc", "--hist", W + "/rrg-10000-16.topo"],
                       stdout=subprocess.PIPE, check=True)
    dt = time.perf_counter() - t
    best = dt if best is None or dt < best else best
import json
obj = json.loads(r.stdout)
try:
    import igraph as ig
except ImportError:
    ig = None
ti = None
agree = "-"
if ig is not None:
    edges = [tuple(map(int, l.split()[:2])) for l in open(W + "/rrg-10000-16.edges")
             if l.strip() and not l.startswith("#")]
    g = ig.Graph(n=10000, edges=edges)
    t = time.perf_counter()
    ecc = g.eccentricity()
    ti = time.perf_counter() - t
    agree = "yes" if [int(e) for e in ecc] == obj["ecc"] else "NO"
print("| rrg n=10000 d=16, ecc+hist | topo-dist %.3f s | igraph eccentricity() %s | ratio %s | ecc agree %s |"
      % (best, "-" if ti is None else "%.3f s" % ti,
         "-" if ti is None else "%.0fx" % (ti / best), agree))
PYEOF
echo "| rrg n=10000 d=16 ecc+hist, peak | $(peak topo-dist --json --ecc --hist "$W/rrg-10000-16.topo") |"
echo "| rrg n=100000 d=16 all columns, 2 threads | $(peak topo-dist --threads 2 "$W/rrg-100000-16.topo") |"
echo "| rrg n=100000 d=16 all columns + ecc + hist, 2 threads | $(peak topo-dist --threads 2 --json --ecc --hist "$W/rrg-100000-16.topo") |"
echo
echo "| graph | with orbits | --no-symmetry | identical |"
echo "|---|---|---|---|"
for spec in "torus sides=100,100" "torus sides=30,30,30" "hypercube dim=14" "hyperx sides=16,16,16" "kautz d=4 D=6" "rrg n=10000 d=16 -s 1"; do
    topo-gen $spec -o "$W/sym.topo"
    a=$(peak topo-dist --json --ecc --hist "$W/sym.topo")
    b=$(peak topo-dist --json --ecc --hist --no-symmetry "$W/sym.topo")
    same=no
    if [ "$(topo-dist --json --ecc --hist "$W/sym.topo" | md5sum)" = \
         "$(topo-dist --json --ecc --hist --no-symmetry "$W/sym.topo" | md5sum)" ]; then same=yes; fi
    echo "| $spec | $a | $b | $same |"
done
