#!/usr/bin/env python3
"""Cross-check topo-paths and topo-ksp against networkx.

Graphs come from nauty-genrang / nauty-geng (graph6, sparse6 multigraphs
with loops, digraph6) and from topo-gen -f graph6/digraph6.  For every
graph and every ordered pair (s, t), s != t, the reference values are:

  sigma      len(list(nx.all_shortest_paths(G, s, t))) on the simple
             graph, each node path weighted by the product of the link
             multiplicities along it (parallel links are different paths);
  k shortest the first k of nx.shortest_simple_paths(G, s, t) (expanded by
             the same multiplicities), their lengths summed and binned;
  ALLPATH(H) the number of nx.all_simple_paths(G, s, t, cutoff=H)
             (weighted likewise).

Self-loops are dropped from the reference graph (they are never on a
simple path).  Prints TAP, one assertion per graph and quantity.  Exits 77
when networkx is missing.
"""
import itertools
import json
import os
import subprocess
import sys

try:
    import networkx as nx
except ImportError:
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


# --- readers: graph6, sparse6, digraph6 -> (n, directed, arc multiset) -------
def read_n(b):
    if b[0] == 126:
        if b[1] == 126:
            n = 0
            for c in b[2:8]:
                n = (n << 6) | (c - 63)
            return n, b[8:]
        return ((b[1] - 63) << 12) | ((b[2] - 63) << 6) | (b[3] - 63), b[4:]
    return b[0] - 63, b[1:]


def bits_of(b):
    for c in b:
        v = c - 63
        for k in range(5, -1, -1):
            yield (v >> k) & 1


def parse(line):
    """Return (n, directed, list of (u, v) links; undirected links once)."""
    b = line.strip()
    if b.startswith(b">>"):
        b = b[b.index(b"<<") + 2:]
    if b.startswith(b":"):  # sparse6 (may have loops and parallel links)
        M = nx.from_sparse6_bytes(b)
        return M.number_of_nodes(), False, [(u, v) for u, v in M.edges()]
    if b.startswith(b"&"):  # digraph6
        n, rest = read_n(b[1:])
        bits = list(bits_of(rest))
        return n, True, [(i, j) for i in range(n) for j in range(n) if bits[i * n + j]]
    G = nx.from_graph6_bytes(b)
    return G.number_of_nodes(), False, list(G.edges())


def build(n, directed, links):
    """Simple reference graph without loops, and link multiplicities."""
    G = nx.DiGraph() if directed else nx.Graph()
    G.add_nodes_from(range(n))
    mult = {}
    for u, v in links:
        if u == v:
            continue
        key = (u, v) if directed else (min(u, v), max(u, v))
        mult[key] = mult.get(key, 0) + 1
        G.add_edge(u, v)
    return G, mult


def weight(path, mult, directed):
    w = 1
    for u, v in zip(path, path[1:]):
        w *= mult[(u, v) if directed else (min(u, v), max(u, v))]
    return w


# --- running the tools ---------------------------------------------------------
def tool(args, data):
    r = subprocess.run(args, input=data, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if r.returncode != 0:
        raise RuntimeError("%s: exit %d: %s" % (" ".join(args), r.returncode,
                                                 r.stderr.decode().strip()))
    return r.stdout.decode()


def check(label, line, k, H):
    n, directed, links = parse(line)
    G, mult = build(n, directed, links)
    data = line.strip() + b"\n"
    desc = "%s (n=%d, %s)" % (label, n, "directed" if directed else "undirected")
    connected = nx.is_strongly_connected(G) if directed else nx.is_connected(G)
    ksp_args = ["topo-ksp", "--json", "-k", str(k), "--allpath", str(H)]
    if not connected:
        # topokit(7)'s policy: a pair tool whose result would be infinite
        # stops with exit 1 and one line naming two switches.
        r = subprocess.run(ksp_args, input=data, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        err = r.stderr.decode().strip().splitlines()
        tap(r.returncode == 1 and not r.stdout and len(err) == 1 and "cannot reach" in err[0],
            desc + ": disconnected: topo-ksp exit 1, one line, no output",
            "exit %d: %s" % (r.returncode, r.stderr.decode()))
    try:
        sig_out = tool(["topo-paths", "--pairs"], data)
        ksp_out = tool(ksp_args, data) if connected else None
    except RuntimeError as e:
        tap(False, desc + ": tools ran", e)
        tap(False, desc + ": k shortest")
        tap(False, desc + ": allpath")
        return
    # sigma per pair
    got = {}
    for row in sig_out.splitlines()[1:]:
        f = row.split("\t")
        got[(int(f[1]), int(f[2]))] = (f[3], int(f[4]))
    bad = []
    hist = {}
    lsum = paths = short = 0
    amin, amax, asum = None, 0, 0
    for s, t in itertools.permutations(range(n), 2):
        if nx.has_path(G, s, t):
            sp = list(nx.all_shortest_paths(G, s, t))
            want = (str(len(sp[0]) - 1), sum(weight(p, mult, directed) for p in sp))
            # k shortest: expand each node path by its multiplicity
            lens = []
            for p in nx.shortest_simple_paths(G, s, t):
                lens.extend([len(p) - 1] * weight(p, mult, directed))
                if len(lens) >= k:
                    break
            lens = lens[:k]
            ap = sum(weight(p, mult, directed)
                     for p in nx.all_simple_paths(G, s, t, cutoff=H))
        else:
            want = ("inf", 0)
            lens = []
            ap = 0
        if got.get((s, t)) != want:
            bad.append("sigma(%d,%d): got %s want %s" % (s, t, got.get((s, t)), want))
        if len(lens) < k:
            short += 1
        for L in lens:
            hist[L] = hist.get(L, 0) + 1
        lsum += sum(lens)
        paths += len(lens)
        amin = ap if amin is None or ap < amin else amin
        amax = max(amax, ap)
        asum += ap
    tap(not bad and len(got) == n * (n - 1), desc + ": sigma of every pair", "\n".join(bad))
    if ksp_out is None:
        return
    j = json.loads(ksp_out)
    wh = [hist.get(L, 0) for L in range(max(hist) + 1)] if hist else []
    cond = (j["paths"] == paths and j["length_sum"] == lsum and j["short_pairs"] == short
            and j["length_paths"] == wh and j["pairs"] == n * (n - 1))
    tap(cond, desc + ": %d shortest simple paths (sum %d over %d paths)" % (k, lsum, paths),
        "got %s\nwant paths %d sum %d short %d hist %s" % (ksp_out, paths, lsum, short, wh))
    cond = (j["allpath_min"] == amin and j["allpath_max"] == amax and j["allpath_sum"] == asum)
    tap(cond, desc + ": simple paths of at most %d hops (min %d, sum %d, max %d)"
        % (H, amin, asum, amax), "got %s" % ksp_out)


def lines_of(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=True)
    return [l for l in r.stdout.splitlines() if l.strip()]


def main():
    cases = []
    for i, l in enumerate(lines_of(["nauty-genrang", "-g", "-S7", "-P3/10", "9", "6"])):
        cases.append(("genrang -P3/10 9 #%d" % (i + 1), l, 5, 4))
    for i, l in enumerate(lines_of(["nauty-genrang", "-g", "-S3", "-r3", "10", "4"])):
        cases.append(("genrang -r3 10 #%d" % (i + 1), l, 8, 4))
    for i, l in enumerate(lines_of(["nauty-genrang", "-S5", "-m3", "-l1", "-r4", "8", "4"])):
        cases.append(("genrang multigraph -m3 -l1 -r4 8 #%d" % (i + 1), l, 6, 3))
    for i, l in enumerate(lines_of(["nauty-genrang", "-z", "-S11", "-P2/5", "8", "6"])):
        cases.append(("genrang -z digraph 8 #%d" % (i + 1), l, 4, 4))
    for i, l in enumerate(lines_of(["nauty-geng", "-q", "-c", "5"])[::3]):
        cases.append(("geng -c 5 #%d" % (3 * i + 1), l, 3, 3))
    for spec, fmt, k, H in [("hypercube dim=3", "graph6", 6, 3),
                            ("torus sides=3,4", "graph6", 5, 3),
                            ("mesh sides=3,3", "graph6", 4, 4),
                            ("complete n=5", "graph6", 10, 3),
                            ("ring n=7", "graph6", 3, 6),
                            ("gdbg n=10 r=3", "digraph6", 5, 3),
                            ("kautz d=2 D=2", "digraph6", 4, 3),
                            ("imase-itoh n=9 d=2", "digraph6", 3, 4)]:
        out = lines_of(["topo-gen"] + spec.split() + ["-f", fmt])
        cases.append((spec, out[0], k, H))
    for label, line, k, H in cases:
        check(label, line, k, H)
    print("1..%d" % count)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
