#!/usr/bin/env python3
"""Cross-check topo-load against networkx and igraph.

For the switch-level all-to-all with one unit per ordered pair under
min (uniform over shortest paths), the load of arc u->v is

    load(u->v) = sum over ordered pairs (s,t) of sigma_st(u->v) / sigma_st.

networkx's edge_betweenness_centrality(G, normalized=False) on an
undirected graph counts every unordered pair {s,t} once and both
traversal directions of the edge together (it halves the ordered sum).
Reversing a shortest path maps (s,t) on u->v to (t,s) on v->u, so
load(u->v) = load(v->u) = nx value of {u,v}: the factor is exactly 1 per
direction (2 for the two arcs together).  igraph's edge_betweenness on an
undirected graph is the same quantity.  On a digraph both count ordered
pairs, and the value of arc (u,v) is load(u->v).

ecmp is checked against a plain recursion: the flow at u towards t splits
evenly over the arcs to neighbours one hop closer (networkx distances).

Prints TAP; exits 77 when neither library is importable.
"""
import os
import subprocess
import sys

try:
    import networkx as nx
except ImportError:
    nx = None
try:
    import igraph as ig
except ImportError:
    ig = None
if nx is None and ig is None:
    sys.exit(77)

count = 0
failed = 0


def tap(cond, desc, diag=None):
    global count, failed
    count += 1
    if not cond:
        failed += 1
    print(("ok" if cond else "not ok") + " %d - %s" % (count, desc))
    if not cond and diag:
        for line in str(diag).splitlines()[:20]:
            print("#   " + line)
    sys.stdout.flush()


def skip(desc, why):
    global count
    count += 1
    print("ok %d - %s # SKIP %s" % (count, desc, why))


def sh(cmd, data=None):
    return subprocess.run(cmd, input=data, stdout=subprocess.PIPE, check=True).stdout


def graph_edges(topo):
    """(n, directed, edge list) from topo-conv -f edges."""
    txt = sh(["topo-conv", "-f", "edges"], topo).decode()
    n, directed, edges = 0, False, []
    for line in txt.splitlines():
        if line.startswith("#"):
            w = line.split()
            if "switches" in w:
                n = int(w[w.index("switches") + 1])
            if "directed" in w:
                directed = w[w.index("directed") + 1] == "1"
            continue
        if line.strip():
            u, v = line.split()[:2]
            edges.append((int(u), int(v)))
    return n, directed, edges


def loads(topo, routing):
    """{(u, v): load} of every arc from topo-load --top, in pairs: topo-load
    prints link-capacity units at offered load 1 per server, p/(n-1) per
    ordered switch pair with p servers on each of the n switches."""
    out = sh(["topo-load", "-r", routing, "--top", "100000000"], topo).decode()
    n = p = None
    for line in topo.decode().splitlines():
        w = line.split()
        if len(w) == 2 and w[0] == "switches":
            n = int(w[1])
        elif len(w) == 2 and w[0] == "servers":
            p = int(w[1])
    scale = (n - 1) / p if n and p else 1.0
    res = {}
    for line in out.splitlines()[1:]:
        f = line.split("\t")
        res[(int(f[1]), int(f[2]))] = float(f[4]) * scale
    return res


def close(a, b):
    return abs(a - b) <= 1e-9 * (1 + abs(b))


def check(name, gen):
    if isinstance(gen, str):
        with open(gen, "rb") as f:
            topo = f.read()
    else:
        topo = sh(["topo-gen"] + gen)
    n, directed, edges = graph_edges(topo)
    got = loads(topo, "min")
    arcs = set(edges) | (set() if directed else {(v, u) for u, v in edges})
    tap(set(got) == arcs, "%s: topo-load lists every arc once" % name)
    if nx is not None:
        G = nx.DiGraph() if directed else nx.Graph()
        G.add_nodes_from(range(n))
        G.add_edges_from(edges)
        eb = nx.edge_betweenness_centrality(G, normalized=False)
        bad = []
        for (u, v), x in eb.items():
            for a in ([(u, v)] if directed else [(u, v), (v, u)]):
                if not close(got.get(a, -1), x):
                    bad.append((a, got.get(a), x))
        tap(not bad, "%s: min load = networkx edge betweenness (per direction, factor 1)"
            % name, bad[:5])
        # ecmp by recursion over networkx distances
        dist = dict(nx.all_pairs_shortest_path_length(G))
        ref = {a: 0.0 for a in arcs}
        succ = {u: list(G.successors(u)) if directed else list(G.neighbors(u)) for u in G}
        for t in range(n):
            # flow at every switch towards t, farthest first
            flow = {s: (1.0 if s != t else 0.0) for s in range(n)}
            for u in sorted(range(n), key=lambda x: -dist[x][t]):
                if u == t:
                    continue
                nxt = [v for v in succ[u] if dist[v][t] == dist[u][t] - 1]
                for v in nxt:
                    ref[(u, v)] += flow[u] / len(nxt)
                    flow[v] += flow[u] / len(nxt)
        ge = loads(topo, "ecmp")
        bad = [(a, ge.get(a), x) for a, x in ref.items() if not close(ge.get(a, -1), x)]
        tap(not bad, "%s: ecmp load = even-split recursion over networkx distances" % name,
            bad[:5])
    else:
        skip("%s: networkx edge betweenness" % name, "networkx not importable")
    if ig is not None:
        H = ig.Graph(n=n, edges=edges, directed=directed)
        eb = H.edge_betweenness(directed=directed)
        bad = []
        for (u, v), x in zip(edges, eb):
            for a in ([(u, v)] if directed else [(u, v), (v, u)]):
                if not close(got.get(a, -1), x):
                    bad.append((a, got.get(a), x))
        tap(not bad, "%s: min load = igraph edge_betweenness (per direction)" % name, bad[:5])
    else:
        skip("%s: igraph edge_betweenness" % name, "igraph not importable")


check("petersen", os.path.join(os.environ.get("TK_SRCDIR", "."), "data", "petersen.topo"))
check("rrg n=60 d=5", ["rrg", "n=60", "d=5", "-s", "4"])
check("torus 5x6", ["torus", "sides=5,6"])
check("hypercube dim=5", ["hypercube", "dim=5"])
check("dragonfly a=4 h=2", ["dragonfly", "a=4", "h=2"])
check("kautz d=2 D=3 (digraph)", ["kautz", "d=2", "D=3"])
check("imase-itoh n=30 d=3 (digraph)", ["imase-itoh", "n=30", "d=3"])

print("1..%d" % count)
sys.exit(1 if failed else 0)
