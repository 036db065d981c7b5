#!/bin/sh
# ksp.sh - k shortest simple paths over all ordered pairs: topo-ksp against
# igraph's Graph.get_k_shortest_paths in one run; and shortest-path counts
# (topo-paths) against networkx.  Needs topo-ksp, topo-paths and topo-gen on
# PATH (run.sh sets it) and python3 with igraph / networkx (Debian:
# python3-igraph, python3-networkx); a missing peer is shown as '-'.
#
# What is timed:
#   topo-ksp    the whole process (read, all-pairs 8-shortest average);
#               best of 3, with --threads 1 and --threads 2.
#   igraph      get_k_shortest_paths(s, t, k=8) for every ordered pair,
#               graph already built; one run.  Its average length must
#               equal topo-ksp's ("agree").
#   topo-paths  the whole process: sigma(s,t) of all pairs by distance.
#   networkx    len(list(all_shortest_paths(G, s, t))) for every pair.
set -eu
PY=
for p in "${PYTHON:-}" /usr/bin/python3 python3; do
    [ -n "$p" ] || continue
    if "$p" -c 'import igraph, networkx' >/dev/null 2>&1; then PY=$p; break; fi
done
[ -n "$PY" ] || { echo "ksp.sh: no python3 with igraph and networkx; skipping"; exit 0; }

W=$(mktemp -d "${TMPDIR:-/tmp}/tk-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM
topo-gen rrg n=200 d=10 -s 1 -f graph6 >"$W/rrg-200-10.g6"
topo-gen rrg n=1000 d=16 -s 1 -f graph6 >"$W/rrg-1000-16.g6"
topo-gen gdbg n=3000 r=40 >"$W/gdbg-3000-40.topo"

"$PY" - "$W" <<'PYEOF'
import os, subprocess, sys, time
W = sys.argv[1]
import igraph as ig
import networkx as nx

def best(cmd, reps=3):
    b = None
    for _ in range(reps):
        t = time.perf_counter()
        r = subprocess.run(cmd, stdout=subprocess.PIPE, check=True)
        dt = time.perf_counter() - t
        b = dt if b is None or dt < b else b
    return b, r.stdout.decode().splitlines()

def fmt(x):
    return "-" if x is None else "%.3f" % x

print("k shortest simple paths, k = 8, all ordered pairs")
print()
hdr = ["graph", "pairs", "topo-ksp 1t", "topo-ksp 2t", "igraph", "igraph/topo 1t",
       "avg length", "agree"]
print("| " + " | ".join(hdr) + " |")
print("|" + "---|" * len(hdr))
for label, f, run_ig in [("rrg n=200 d=10", "rrg-200-10.g6", True),
                         ("rrg n=1000 d=16", "rrg-1000-16.g6", False)]:
    path = os.path.join(W, f)
    t1, o1 = best(["topo-ksp", "-k", "8", "--threads", "1", path])
    t2, o2 = best(["topo-ksp", "-k", "8", "--threads", "2", path])
    row = o1[1].split("\t")
    avg = float(row[3])
    agree = o1 == o2
    ti = None
    if run_ig:
        n = int(row[1])
        line = open(path, "rb").read().strip()
        G = nx.from_graph6_bytes(line)
        h = ig.Graph(n=n, edges=list(G.edges()))
        t = time.perf_counter()
        total = cnt = 0
        for s in range(n):
            for d in range(n):
                if s == d:
                    continue
                for p in h.get_k_shortest_paths(s, d, k=8, mode="out", output="vpath"):
                    total += len(p) - 1
                    cnt += 1
        ti = time.perf_counter() - t
        agree = agree and total == round(avg * cnt) and abs(total / cnt - avg) < 1e-12
    print("| " + " | ".join([label, row[5], fmt(t1), fmt(t2), fmt(ti),
                             "-" if ti is None else "%.0fx" % (ti / t1),
                             row[3], "yes" if agree else "NO"]) + " |")
    sys.stdout.flush()

print()
print("ALLPATH(3) on GDBG(3000, 40), all 8997000 ordered pairs")
print()
print("| mode | topo-ksp 1t | topo-ksp 2t | min | avg | max |")
print("|---|---|---|---|---|---|")
path = os.path.join(W, "gdbg-3000-40.topo")
for mode in ([], ["--raw"]):
    t1, o1 = best(["topo-ksp", "--allpath", "3", "--threads", "1"] + mode + [path])
    t2, o2 = best(["topo-ksp", "--allpath", "3", "--threads", "2"] + mode + [path])
    r = o1[1].split("\t")
    print("| %s | %s | %s | %s | %s | %s |" % ("raw paths" if mode else "simple paths",
                                             fmt(t1), fmt(t2), r[11], r[12], r[13]))

if True:
    print()
    print("shortest-path counts sigma(s,t), all ordered pairs")
    print()
    print("| graph | topo-paths 1t | networkx | networkx/topo | agree |")
    print("|---|---|---|---|---|")
    path = os.path.join(W, "rrg-200-10.g6")
    t1, o1 = best(["topo-paths", "--threads", "1", path])
    G = nx.from_graph6_bytes(open(path, "rb").read().strip())
    t = time.perf_counter()
    tot = 0
    for s in G:
        for d in G:
            if s != d:
                tot += len(list(nx.all_shortest_paths(G, s, d)))
    tn = time.perf_counter() - t
    allrow = [l for l in o1 if "\tall\t" in l][0].split("\t")
    agree = abs(float(allrow[4]) * int(allrow[2]) - tot) < 1e-6 * tot
    print("| rrg n=200 d=10 | %s | %s | %.0fx | %s |" % (fmt(t1), fmt(tn), tn / t1,
                                                      "yes" if agree else "NO"))
PYEOF
