#!/bin/sh
# crosscheck-palmtree.sh - topo-gen's Dragonfly arrangements palmtree and
# relative against link lists computed here, in Python, from their
# published definitions, and the isomorphism facts between them (networkx).
#  palmtree: Fuentes, Vallejo, Camarero, Beivide and Valero, "Network
#    Unfairness in Dragonfly Topologies" (after Garcia et al.), as the
#    authors' simulators wire it: global port k of router r in group j
#    reaches group j - (r*h + k) - 1 (mod g) at maximum size g = a*h + 1;
#    for trunked sizes (g - 1 divides a*h) the far end is router a-1-r,
#    port h-1-k, group j + 1 + (((a-1-r)*h + h-1-k) mod (g-1)).
#  relative: SST merlin's relative mode: port t = r*h + k of group j reaches
#    group j + (t mod (g-1)) + 1, port (t div (g-1))*(g-1) + g-2-(t mod (g-1)).
# Skipped without python3 and networkx.
. "$TK_SRCDIR/tests/cli/lib.sh"

PY=
for p in "${PYTHON:-}" /usr/bin/python3 python3; do
    [ -n "$p" ] || continue
    if "$p" -c 'import networkx' >/dev/null 2>&1; then
        PY=$p
        break
    fi
done
[ -n "$PY" ] || skip_all "python3 with networkx not found (apt-get install python3-networkx)"

cat >"$TMPD/check.py" <<'PYEOF'
import sys
import networkx as nx

def links(path):
    """Global links (multiset, sorted pairs) and the whole graph of a native file."""
    glob, G, n = [], nx.MultiGraph(), 0
    for line in open(path):
        f = line.split()
        if not f:
            continue
        if f[0] == "switches":
            n = int(f[1])
            G.add_nodes_from(range(n))
        elif f[0].isdigit() and len(f) >= 3:
            u, v = int(f[0]), int(f[1])
            G.add_edge(u, v)
            if f[2] == "global":
                glob.append((min(u, v), max(u, v)))
    return sorted(glob), G

def paper_full(a, h):
    g, out = a * h + 1, []
    for j in range(g):
        for r in range(a):
            for k in range(h):
                jj = (j - (r * h + k) - 1) % g
                # the far router: the one whose ports reach back to j
                rr = [x for x in range(a) for y in range(h) if (jj - (x * h + y) - 1) % g == j]
                assert len(rr) == 1
                out.append((j * a + r, jj * a + rr[0]))
    return out

def palmtree_trunked(a, h, g):
    out = []
    for j in range(g):
        for r in range(a):
            for k in range(h):
                r2, k2 = a - 1 - r, h - 1 - k
                jj = (j + 1 + ((r2 * h + k2) % (g - 1))) % g
                out.append((j * a + r, jj * a + r2))
    return out

def relative(a, h, g):
    out = []
    for j in range(g):
        for t in range(a * h):
            c, rho = t % (g - 1), t // (g - 1)
            jj = (j + c + 1) % g
            t2 = rho * (g - 1) + g - 2 - c
            out.append((j * a + t // h, jj * a + t2 // h))
    return out

def halve(arcs):
    """Each link is listed from both ends: check that, return one copy."""
    fwd = sorted((min(u, v), max(u, v)) for u, v in arcs)
    assert fwd[0::2] == fwd[1::2], "not an involution"
    return fwd[0::2]

def mirror(lst, a):
    m = lambda x: (x // a) * a + a - 1 - x % a
    return sorted((min(m(u), m(v)), max(m(u), m(v))) for u, v in lst)

tmp, n = sys.argv[1], 0
def ok(cond, msg):
    global n
    n += 1
    print(("ok %d - " if cond else "not ok %d - ") % n + msg)

# Sizes where g - 1 does not divide a*h (a partial round; the rule above is
# not an involution there): with one full round, palmtree is still relative
# with routers r -> a-1-r.
for a, h, g in [(3, 2, 5), (4, 3, 9)]:
    pt, Gp = links("%s/palmtree-%d-%d-%d.topo" % (tmp, a, h, g))
    rl, Gr = links("%s/relative-%d-%d-%d.topo" % (tmp, a, h, g))
    ok(mirror(rl, a) == pt and pt != rl,
       "a=%d h=%d g=%d (partial round): routers r -> a-1-r map relative onto palmtree" % (a, h, g))

for a, h, g in [(2, 2, 5), (4, 2, 9), (3, 3, 10), (4, 2, 3), (8, 4, 5), (2, 2, 3), (3, 2, 4), (4, 3, 7)]:
    full = g == a * h + 1
    pt, Gp = links("%s/palmtree-%d-%d-%d.topo" % (tmp, a, h, g))
    rl, Gr = links("%s/relative-%d-%d-%d.topo" % (tmp, a, h, g))
    want_p = halve(palmtree_trunked(a, h, g))
    ok(pt == want_p, "a=%d h=%d g=%d: palmtree = the authors' rule (%d links)" % (a, h, g, len(pt)))
    if full:
        ok(halve(paper_full(a, h)) == want_p,
           "a=%d h=%d: the paper's g-(r*h+k)-1 gives the same links" % (a, h))
    want_r = halve(relative(a, h, g))
    ok(rl == want_r, "a=%d h=%d g=%d: relative = SST merlin's relative rule" % (a, h, g))
    ok(pt != rl, "a=%d h=%d g=%d: palmtree and relative differ as link lists" % (a, h, g))
    if full:
        ok(mirror(rl, a) == pt, "a=%d h=%d: routers r -> a-1-r map relative onto palmtree" % (a, h))
    if (a, h, g) in [(4, 2, 3), (2, 2, 3)]:
        ok(not nx.is_isomorphic(nx.Graph(Gp), nx.Graph(Gr)),
           "a=%d h=%d g=%d: palmtree and relative are not isomorphic (networkx)" % (a, h, g))
    if (a, h, g) == (8, 4, 5):
        tp = sorted(nx.triangles(nx.Graph(Gp)).values())
        tr = sorted(nx.triangles(nx.Graph(Gr)).values())
        ok(tp != tr, "a=8 h=4 g=5: not isomorphic (triangle counts per switch differ)")
    if full and a * h <= 8:
        ok(nx.is_isomorphic(nx.Graph(Gp), nx.Graph(Gr)), "a=%d h=%d: isomorphic (networkx)" % (a, h))
print("1..%d" % n)
PYEOF

for s in 2,2,5 4,2,9 3,3,10 4,2,3 8,4,5 2,2,3 3,2,4 4,3,7 3,2,5 4,3,9; do
    IFS=, read -r a h g <<E
$s
E
    for arr in palmtree relative; do
        topo-gen dragonfly a=$a h=$h g=$g arrangement=$arr -o "$TMPD/$arr-$a-$h-$g.topo"
        ok $? "topo-gen dragonfly a=$a h=$h g=$g arrangement=$arr"
    done
done
"$PY" "$TMPD/check.py" "$TMPD" >"$TMPD/log" 2>&1
rc=$?
ok "$rc" "the Python check ran (exit $rc)"
[ "$rc" -eq 0 ] || sed 's/^/# /' "$TMPD/log"
while IFS= read -r line; do
    case $line in
    "ok "*) ok 0 "${line#ok [0-9]* - }" ;;
    "not ok "*) ok 1 "${line#not ok [0-9]* - }" ;;
    esac
done <"$TMPD/log"
done_testing
