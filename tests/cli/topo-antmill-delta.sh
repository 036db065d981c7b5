# topo-antmill, issue 28: delta 2 on the Ant Mill paper's representative RRG
# with d = 50 (one seed here; the six-seed timing is tests/bench/antmill.sh),
# checked by networkx path counts; the impossibility of delta 2 at d = 85
# confirmed by an independent longest-walk count in Python.
. "$TK_SRCDIR/tests/cli/lib.sh"

PY=
for p in python3 python; do
    if "$p" -c 'import networkx' >/dev/null 2>&1; then PY=$p; break; fi
done
[ -n "$PY" ] || skip_all "networkx not installed"

topo-gen rrg n=1224 d=50 -s 1 >"$TMPD/g50.topo"
topo-conv -f edgelist "$TMPD/g50.topo" >"$TMPD/g50.el"
run topo-antmill --delta 2 --budget 120 --no-uniform -o "$TMPD/h.cyc" "$TMPD/g50.topo"
expect_rc 0 "d=50: a cycle with delta >= 2"
run topo-antmill --verify "$TMPD/h.cyc" --no-uniform "$TMPD/g50.topo"
d=$(printf '%s\n' "$out" | awk -F '\t' 'NR == 2 { print $3 }')
[ "$d" = 2 ]
ok $? "d=50: --verify measures delta 2" || diag "$out"

"$PY" - "$TMPD/g50.el" "$TMPD/h.cyc" <<'PY'
import sys
import networkx as nx
g = nx.Graph()
for line in open(sys.argv[1]):
    if line.startswith('#') or not line.strip():
        continue
    a, b = map(int, line.split()[:2])
    g.add_edge(a, b)
cyc = [int(l) for l in open(sys.argv[2]) if l.strip() and not l.startswith('#')]
n = g.number_of_nodes()
assert sorted(cyc) == list(range(n)), "not a permutation"
for i in range(n):
    x, y, z = cyc[i], cyc[(i + 1) % n], cyc[(i + 2) % n]
    assert g.has_edge(x, y), (x, y)
    paths = list(nx.all_shortest_paths(g, x, z))
    assert len(paths) == 1 and len(paths[0]) == 3, (x, z, paths)
PY
ok $? "d=50: networkx: Hamiltonian, every window x_i, x_i+2 one shortest path of length 2"

topo-gen rrg n=1224 d=85 -s 1 >"$TMPD/g85.topo"
topo-conv -f edgelist "$TMPD/g85.topo" >"$TMPD/g85.el"
run topo-antmill --delta 2 --no-uniform "$TMPD/g85.topo"
expect_fail 1 'impossible: no walk of ([0-9]+) links has all its windows admissible' \
    "d=85: delta 2 proved impossible"
L=$(printf '%s\n' "$err" | sed -n 's/.*no walk of \([0-9]*\) links.*/\1/p')
"$PY" - "$TMPD/g85.el" "$L" <<'PY'
import sys
import networkx as nx
g = nx.Graph()
for line in open(sys.argv[1]):
    if line.startswith('#') or not line.strip():
        continue
    a, b = map(int, line.split()[:2])
    g.add_edge(a, b)
# admissible windows (a, v, b): a, b not linked, v their only common neighbour
win = []
for v in g:
    nb = sorted(g[v])
    for i, a in enumerate(nb):
        for b in nb[i + 1:]:
            if not g.has_edge(a, b) and len(set(g[a]) & set(g[b])) == 1:
                win += [(a, v, b), (b, v, a)]
ws = set(win)
h = nx.DiGraph()
h.add_nodes_from(win)
for (a, v, b) in win:
    for c in g[b]:
        if (v, b, c) in ws:
            h.add_edge((a, v, b), (v, b, c))
assert nx.is_directed_acyclic_graph(h)
longest = nx.dag_longest_path_length(h) + 2  # windows in a row -> links
assert longest + 1 == int(sys.argv[2]), (longest, sys.argv[2])
PY
ok $? "d=85: networkx: the window graph is acyclic, its longest walk has $((L - 1)) links"

run sh -c "topo-antmill --max-delta --no-uniform '$TMPD/g85.topo'"
printf '%s\n' "$err" | grep -q 'delta 2 impossible (no walk of'
ok $? "--max-delta: says delta 2 is impossible, with the proof" || diag "$err"

done_testing
