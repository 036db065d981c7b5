#!/usr/bin/env python3
"""crosscheck-exchange.py - topo-conv's exchange formats against peers.

  crosscheck-exchange.py TOPO_CONV WORKDIR [--no-igraph] TOPOLOGY...

For every topology: the GraphML and GML that topo-conv writes are read by
networkx (and igraph unless --no-igraph); their switches, servers, groups,
coordinates, links, classes and capacities must equal topo-conv's own edge
list; the peers write the graph again and topo-conv must read back the very
same topology (native output byte for byte).  For simple undirected graphs
the BookSim anynet and CAMINOS files are parsed here, independently, after
the formats' published descriptions (BookSim 2's anynet network reader,
CAMINOS's File topology), and must give the same graph.  Prints one TAP-ish
line per check: "ok DESC" or "not ok DESC: detail".
"""
import subprocess
import sys
from collections import Counter

import networkx as nx


def conv(tc, path, *args):
    return subprocess.run([tc, *args, path], check=True, capture_output=True, text=True).stdout


def reference(tc, path):
    """(n, directed, servers, groups, coords, Counter of links) from topo-conv."""
    native = conv(tc, path)
    n = directed = 0
    servers_uniform = 0
    servers, groups, coords = {}, {}, {}
    for line in native.splitlines():
        w = line.split()
        if not w:
            continue
        if w[0] == "switches":
            n = int(w[1])
        elif w[0] == "directed":
            directed = int(w[1])
        elif w[0] == "servers":
            servers_uniform = int(w[1])
        elif w[0] == "switch":
            u = int(w[1])
            for kv in w[2:]:
                k, v = kv.split("=")
                if k == "servers":
                    servers[u] = int(v)
                elif k == "group":
                    groups[u] = int(v)
                elif k == "coord":
                    coords[u] = tuple(int(x) for x in v.split(","))
    srv = [servers.get(u, servers_uniform) for u in range(n)]
    links = Counter()
    for line in conv(tc, path, "-f", "edges").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        w = line.split()
        u, v = int(w[0]), int(w[1])
        cls = w[2] if len(w) > 2 else "-"
        cap = float(w[3]) if len(w) > 3 else 1.0
        if not directed and u > v:
            u, v = v, u
        links[(u, v, cls, cap)] += 1
    return n, directed, srv, groups, coords, links


def check(desc, cond, detail=""):
    print(("ok " if cond else "not ok ") + desc + ("" if cond else ": " + detail))
    return cond


def peer_view(nodes, edges, directed):
    """nodes: list of (key, attrdict) in order; edges: (a, b, attrdict)."""
    index = {k: i for i, (k, _) in enumerate(nodes)}
    srv = [int(round(float(a.get("servers", 0)))) for _, a in nodes]
    groups = {i: int(round(float(a["group"]))) for i, (_, a) in enumerate(nodes) if "group" in a}
    coords = {}
    for i, (_, a) in enumerate(nodes):
        c = [int(round(float(a[k]))) for k in sorted((k for k in a if k.startswith("coord")),
                                                     key=lambda k: int(k[5:]))]
        if c:
            coords[i] = tuple(c)
    links = Counter()
    for a, b, d in edges:
        u, v = index[a], index[b]
        if not directed and u > v:
            u, v = v, u
        cls = d.get("class", "-") or "-"
        cap = float(d.get("capacity", 1.0))
        links[(u, v, cls, cap)] += 1
    return srv, groups, coords, links


def compare(desc, ref, view):
    n, directed, srv, groups, coords, links = ref
    vsrv, vgroups, vcoords, vlinks = view
    ok = check(desc + ": servers", vsrv == srv, "%s != %s" % (vsrv[:8], srv[:8]))
    ok &= check(desc + ": groups", vgroups == groups)
    ok &= check(desc + ": coordinates", vcoords == coords)
    ok &= check(desc + ": links", vlinks == links,
                "only peer %s, only topo-conv %s" % (list((vlinks - links).items())[:3],
                                                    list((links - vlinks).items())[:3]))
    return ok


def networkx_view(G):
    nodes = list(G.nodes(data=True))
    if G.is_multigraph():
        edges = [(a, b, d) for a, b, d in G.edges(data=True)]
    else:
        edges = list(G.edges(data=True))
    return peer_view(nodes, edges, G.is_directed())


def igraph_view(G):
    nodes = [(v.index, {k: x for k, x in v.attributes().items() if x == x and x is not None})
             for v in G.vs]
    edges = [(e.source, e.target,
              {k: x for k, x in e.attributes().items() if x == x and x is not None})
             for e in G.es]
    return peer_view(nodes, edges, G.is_directed())


def anynet_view(text):
    """BookSim anynet: per line, the first (kind, id) pair is the head, every
    further pair connects to it; router-router pairs are bidirectional
    channels (sets), a node attaches to one router."""
    node_router, chans, routers = {}, set(), set()
    for line in text.splitlines():
        w = line.split()
        pairs = [(w[i], int(w[i + 1])) for i in range(0, len(w), 2)]
        if not pairs:
            continue
        (hk, hid), body = pairs[0], pairs[1:]
        if hk == "router":
            routers.add(hid)
        for bk, bid in body:
            if bk == "router":
                routers.add(bid)
            if hk == "router" and bk == "router":
                chans.add((min(hid, bid), max(hid, bid)))
            else:
                node, router = (bid, hid) if hk == "router" else (hid, bid)
                assert node_router.get(node, router) == router
                node_router[node] = router
    n = max(routers) + 1
    assert sorted(node_router) == list(range(len(node_router)))
    srv = [0] * n
    for r in node_router.values():
        srv[r] += 1
    return n, srv, Counter((u, v, "-", 1.0) for u, v in chans)


def caminos_view(text):
    """CAMINOS File topology: NODOS n, GRADO d, then 'N i' and a line with
    the neighbours of router i; every link listed from both ends."""
    lines = text.splitlines()
    n, adj, i = None, {}, 0
    while i < len(lines):
        w = lines[i].split()
        if w[0] == "NODOS":
            n = int(w[1])
        elif w[0] == "GRADO":
            pass
        elif w[0] == "N":
            adj[int(w[1])] = [int(x) for x in lines[i + 1].split()]
            i += 1
        else:
            raise ValueError("illegal word " + w[0])
        i += 1
    links = Counter()
    for u, nb in adj.items():
        for v in nb:
            assert u in adj[v]
            if u < v:
                links[(u, v, "-", 1.0)] += 1
    return n, links


def main():
    tc, work = sys.argv[1], sys.argv[2]
    args = sys.argv[3:]
    use_igraph = True
    if args and args[0] == "--no-igraph":
        use_igraph = False
        args = args[1:]
    if use_igraph:
        import igraph
    for k, path in enumerate(args):
        ref = reference(tc, path)
        n, directed, srv, groups, coords, links = ref
        native = conv(tc, path)
        name = path.rsplit("/", 1)[-1]
        for fmt in ("graphml", "gml"):
            f = "%s/x%d.%s" % (work, k, fmt)
            with open(f, "w") as fp:
                fp.write(conv(tc, path, "-f", fmt))
            if fmt == "graphml":
                G = nx.read_graphml(f)
            else:
                G = nx.read_gml(f, label="id")
            check("%s %s: networkx reads %d switches" % (name, fmt, n), G.number_of_nodes() == n)
            check("%s %s: networkx directedness" % (name, fmt), G.is_directed() == bool(directed))
            compare("%s %s networkx" % (name, fmt), ref, networkx_view(G))
            back = "%s/nx%d.%s" % (work, k, fmt)
            (nx.write_graphml if fmt == "graphml" else nx.write_gml)(G, back)
            check("%s %s: networkx's rewrite reads back identical" % (name, fmt),
                  conv(tc, back) == native)
            if use_igraph:
                I = (igraph.Graph.Read_GraphML if fmt == "graphml" else igraph.Graph.Read_GML)(f)
                check("%s %s: igraph reads %d switches" % (name, fmt, n), I.vcount() == n)
                compare("%s %s igraph" % (name, fmt), ref, igraph_view(I))
                back = "%s/ig%d.%s" % (work, k, fmt)
                (I.write_graphml if fmt == "graphml" else I.write_gml)(back)
                # igraph prints reals with 15 significant digits: capacities
                # such as 1/3 come back rounded, the rest must be identical.
                def rounded(r):
                    return r[:5] + (Counter({(u, v, c, float("%.12g" % x)): k
                                             for (u, v, c, x), k in r[5].items()}),)
                check("%s %s: igraph's rewrite reads back the same (reals to 12 digits)"
                      % (name, fmt), rounded(reference(tc, back)) == rounded(ref))
        simple = not directed and all(u != v and c == 1 for (u, v, _, _), c in links.items())
        simple = simple and len({(u, v) for u, v, _, _ in links}) == len(links)
        if not simple:
            continue
        plain = Counter((u, v, "-", 1.0) for (u, v, _, _), c in links.items() for _ in range(c))
        an_n, an_srv, an_links = anynet_view(conv(tc, path, "-f", "anynet"))
        check("%s anynet: routers, nodes and channels as described" % name,
              an_n == n and an_srv == srv and an_links == plain)
        ca_n, ca_links = caminos_view(conv(tc, path, "-f", "caminos"))
        check("%s caminos: routers and neighbour lists as described" % name,
              ca_n == n and ca_links == plain)


main()
