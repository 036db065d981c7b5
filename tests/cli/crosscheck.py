#!/usr/bin/env python3
"""Cross-check topo-dist against networkx (and igraph when present).

Graphs come from nauty-genrang / nauty-geng and from graph6 / digraph6
strings written here.  For each graph the reference values are computed
with networkx BFS (distances), and girth by an independent method: for an
undirected simple graph the shortest cycle through an edge u-v is 1 + the
distance from u to v without that edge; loops give 1, parallel links 2; for
a digraph the shortest cycle through an arc u->v is 1 + d(v, u).
Prints TAP, one assertion per graph (plus one per graph checked by igraph).
Exits 77 when networkx is missing (the shell wrapper turns it into a skip).
"""
import json
import os
import random
import subprocess
import sys

try:
    import networkx as nx
except ImportError:
    sys.exit(77)
try:
    import igraph as ig
except ImportError:
    ig = None

INF = "inf"
count = 0
failed = 0


def tap(cond, desc, diag=None):
    global count, failed
    count += 1
    if not cond:
        failed += 1
    print(("ok" if cond else "not ok") + " %d - %s" % (count, desc))
    if not cond and diag:
        for line in str(diag).splitlines():
            print("#   " + line)
    sys.stdout.flush()


# --- graph6 / digraph6 writers and the digraph6 reader ------------------------
def size_bytes(n):
    if n < 63:
        return bytes([n + 63])
    if n < 258048:
        return bytes([126, 63 + (n >> 12 & 63), 63 + (n >> 6 & 63), 63 + (n & 63)])
    raise ValueError("graph too large for this test")


def pack_bits(bits):
    while len(bits) % 6:
        bits.append(0)
    out = bytearray()
    for i in range(0, len(bits), 6):
        v = 0
        for b in bits[i:i + 6]:
            v = 2 * v + b
        out.append(63 + v)
    return bytes(out)


def to_graph6(n, edges):
    adj = set()
    for u, v in edges:
        adj.add((min(u, v), max(u, v)))
    bits = [1 if (i, j) in adj else 0 for j in range(1, n) for i in range(j)]
    return size_bytes(n) + pack_bits(bits)


def to_digraph6(n, arcs):
    a = set(arcs)
    bits = [1 if (i, j) in a else 0 for i in range(n) for j in range(n)]
    return b"&" + size_bytes(n) + pack_bits(bits)


def from_digraph6(line):
    s = line.strip()
    assert s[0:1] == b"&"
    s = s[1:]
    if s[0] == 126:
        n = ((s[1] - 63) << 12) | ((s[2] - 63) << 6) | (s[3] - 63)
        s = s[4:]
    else:
        n = s[0] - 63
        s = s[1:]
    bits = []
    for c in s:
        v = c - 63
        bits.extend((v >> k) & 1 for k in range(5, -1, -1))
    g = nx.DiGraph()
    g.add_nodes_from(range(n))
    for i in range(n):
        for j in range(n):
            if bits[i * n + j]:
                g.add_edge(i, j)
    return g


def parse_line(line):
    s = line.strip()
    if s.startswith(b"&"):
        return from_digraph6(s)
    if s.startswith(b":"):
        return nx.from_sparse6_bytes(s)
    return nx.from_graph6_bytes(s)


# --- reference values ---------------------------------------------------------
def reference(g):
    n = g.number_of_nodes()
    nodes = list(g.nodes())
    dist = {s: nx.single_source_shortest_path_length(g, s) for s in nodes}
    ecc = []
    total = 0
    reach = 0
    for s in nodes:
        d = dist[s]
        total += sum(d.values())
        reach += len(d) - 1
        ecc.append(max(d.values()) if len(d) == n else INF)
    finite = [e for e in ecc if e != INF]
    connected = reach == n * (n - 1)
    ref = {
        "n": n,
        "connected": connected,
        "diameter": max(ecc) if connected else INF,
        "radius": min(finite) if finite else INF,
        "dist_sum": total,
        "unreachable": n * (n - 1) - reach,
        "girth": girth(g, dist),
    }
    return ref


def girth(g, dist):
    if nx.number_of_selfloops(g) > 0:
        return 1
    if g.is_directed():
        best = INF
        for u, v in g.edges():
            d = dist[v].get(u)
            if d is not None and (best == INF or d + 1 < best):
                best = d + 1
        return best
    if g.is_multigraph():
        for u, v in g.edges():
            if g.number_of_edges(u, v) > 1:
                return 2
        g = nx.Graph(g)
    best = INF
    h = g.copy()
    for u, v in list(g.edges()):
        h.remove_edge(u, v)
        try:
            d = nx.shortest_path_length(h, u, v)
            if best == INF or d + 1 < best:
                best = d + 1
        except nx.NetworkXNoPath:
            pass
        h.add_edge(u, v)
    return best


# --- inputs -------------------------------------------------------------------
def nauty(*args):
    r = subprocess.run(list(args), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=True)
    return [l for l in r.stdout.splitlines() if l.strip() and not l.startswith(b">>")]


def inputs():
    """List of (description, graph6/sparse6/digraph6 line)."""
    out = []
    rnd = random.Random(20261121)

    def add(desc, lines):
        for i, l in enumerate(lines):
            out.append(("%s #%d" % (desc, i + 1) if len(lines) > 1 else desc, l))

    # Random graphs G(n, p), connected or not; random regular graphs.
    for n, p, num, seed in ((12, 4, 6, 1), (25, 8, 6, 2), (40, 12, 5, 3), (70, 20, 4, 4),
                            (130, 40, 3, 5), (200, 90, 2, 6)):
        add("genrang n=%d p=1/%d" % (n, p),
            nauty("nauty-genrang", "-g", "-P%d" % p, "-S%d" % seed, str(n), str(num)))
    # (-r samples exactly and gets very slow for larger degrees: -d there.)
    for d, n, seed in ((3, 20, 7), (3, 64, 8), (4, 65, 9), (5, 130, 10), (8, 150, 11)):
        opt = "-r%d" % d if d <= 5 else "-d%d" % d
        add("genrang %s n=%d" % (opt, n), nauty("nauty-genrang", opt, "-S%d" % seed, str(n), "3"))
    # Multigraphs with loops (sparse6).
    add("genrang 4-regular multigraph n=15",
        nauty("nauty-genrang", "-l1", "-m2", "-r4", "-S12", "15", "3"))
    add("genrang graph with loops n=15", nauty("nauty-genrang", "-l1", "-P3", "-S13", "15", "2"))
    add("genrang spanning tree n=50", nauty("nauty-genrang", "-t", "-g", "-S13", "50", "3"))
    # Every connected graph on 6 vertices.
    add("geng -c 6", nauty("nauty-geng", "-c", "6"))
    # Structured graphs written here.
    for n in (3, 5, 8, 63, 64, 100):
        add("cycle C_%d" % n, [to_graph6(n, [(i, (i + 1) % n) for i in range(n)])])
    for k in (3, 6, 7):
        n = 1 << k
        add("hypercube Q_%d" % k,
            [to_graph6(n, [(u, u ^ (1 << i)) for u in range(n) for i in range(k)
                           if u < u ^ (1 << i)])])
    for a, b in ((5, 7), (9, 9)):
        e = []
        for x in range(a):
            for y in range(b):
                e.append((x * b + y, ((x + 1) % a) * b + y))
                e.append((x * b + y, x * b + (y + 1) % b))
        add("torus %dx%d" % (a, b), [to_graph6(a * b, e)])
    for n in (1, 2, 90):
        add("path P_%d" % n, [to_graph6(n, [(i, i + 1) for i in range(n - 1)])])
    # Directed graphs.
    for n, p, num, seed in ((10, 3, 6, 21), (30, 8, 5, 22), (70, 25, 3, 23), (140, 50, 2, 24)):
        add("genrang -z n=%d p=1/%d" % (n, p),
            nauty("nauty-genrang", "-z", "-P%d" % p, "-S%d" % seed, str(n), str(num)))
    add("tournament n=20", nauty("nauty-genrang", "-T", "-S25", "20", "3"))
    for n in (2, 7, 65):
        add("directed cycle C_%d" % n, [to_digraph6(n, [(i, (i + 1) % n) for i in range(n)])])
    for n, m in ((40, 80), (100, 250), (130, 130)):
        arcs = set()
        while len(arcs) < m:
            arcs.add((rnd.randrange(n), rnd.randrange(n)))
        add("random digraph n=%d m=%d (loops allowed)" % (n, m), [to_digraph6(n, sorted(arcs))])
    # Kautz-like line digraph: de Bruijn B(2,5) has loops.
    n = 32
    add("de Bruijn B(2,5)", [to_digraph6(n, [(x, (2 * x + y) % n) for x in range(n)
                                             for y in range(2)])])
    return out


# --- main ---------------------------------------------------------------------
def main():
    prog = os.environ.get("TOPO_DIST", "topo-dist")
    cases = inputs()
    data = b"".join(l + b"\n" for _, l in cases)
    r = subprocess.run([prog, "--json", "--hist", "--ecc", "--allow-disconnected"],
                       input=data, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    rows = [json.loads(l) for l in r.stdout.splitlines() if l.strip()]
    tap(r.returncode == 0 and len(rows) == len(cases),
        "topo-dist read all %d graphs (exit 0)" % len(cases),
        "exit %d, %d rows\n%s" % (r.returncode, len(rows), r.stderr.decode(errors="replace")))
    if len(rows) != len(cases):
        print("1..%d" % count)
        return 1
    for (desc, line), row in zip(cases, rows):
        g = parse_line(line)
        ref = reference(g)
        hist = row.get("hist", [])
        got = {
            "n": row["n"],
            "connected": row["connected"],
            "diameter": row["diameter"],
            "radius": row["radius"],
            "dist_sum": sum(k * h for k, h in enumerate(hist)),
            "unreachable": row["unreachable"],
            "girth": row["girth"],
        }
        good = got == ref
        n = ref["n"]
        if ref["connected"]:
            want_avg = ref["dist_sum"] / (n * (n - 1)) if n > 1 else 0.0
            good = good and abs(row["avg_distance"] - want_avg) <= 1e-12 * max(1.0, want_avg)
        else:
            good = good and row["avg_distance"] == INF
        kind = "directed" if g.is_directed() else "undirected"
        tap(good, "%s (%s, n=%d): diameter %s radius %s sum %d girth %s" %
            (desc, kind, n, ref["diameter"], ref["radius"], ref["dist_sum"], ref["girth"]),
            "got  %s avg %s\nwant %s" % (got, row["avg_distance"], ref))
        # igraph as a second opinion on connected simple undirected graphs.
        if ig is not None and not g.is_directed() and not g.is_multigraph() \
                and ref["connected"] and n > 1 and nx.number_of_selfloops(g) == 0:
            h = ig.Graph(n=n, edges=list(g.edges()))
            gi = h.girth()
            # igraph reports an acyclic graph as 0 or as float infinity.
            gi = INF if gi == 0 or gi == float("inf") else int(gi)
            same = (h.diameter() == row["diameter"] and gi == row["girth"] and
                    abs(h.average_path_length() - row["avg_distance"]) <= 1e-12 *
                    max(1.0, row["avg_distance"]))
            tap(same, "%s: igraph agrees (diameter, average_path_length, girth)" % desc,
                "igraph: %s %s %s" % (h.diameter(), h.average_path_length(), gi))
    print("1..%d" % count)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
