# topo-fail: exact removal counts, seeds, the spec record, betweenness
# order against networkx, classes, switches with their servers, bridges and
# disconnection, removing nothing, every input format, bad input, usage.
. "$TK_SRCDIR/tests/cli/lib.sh"

topo-gen rrg n=20 d=4 -s 3 >"$TMPD/rrg.topo"
topo-gen ring n=6 >"$TMPD/ring.topo"
topo-gen dragonfly a=4 h=2 p=2 >"$TMPD/df.topo"
RRG="$TMPD/rrg.topo"
RING="$TMPD/ring.topo"
DF="$TMPD/df.topo"
# links FILE: the link lines of a native file ("u v [class]").
links() { sed -n '/^links /,/^end/p' "$1" | sed '1d;$d'; }
hdr() { grep "^$1 " "$2" | cut -d' ' -f2-; }

# ---------------------------------------------------------------------------
# Usage.
run topo-fail --help
expect_rc 0 "--help"
run topo-fail "$RRG"
expect_rc 2 "nothing says what to remove"
run topo-fail -k 1 -F 0.1 "$RRG"
expect_rc 2 "-k with -F"
run topo-fail -w -c global -k 1 "$DF"
expect_rc 2 "-c with -w"
run topo-fail -l 0-1 -t betweenness "$RRG"
expect_rc 2 "-l with -t"
run topo-fail -l 0x1 "$RRG"
expect_rc 2 "a list item that is not a link"
run topo-fail -F 1.5 "$RRG"
expect_rc 2 "-F above 1"
run topo-fail -t central -k 1 "$RRG"
expect_rc 2 "unknown order"
[ -z "$out" ]
ok $? "usage errors print nothing on stdout"

# ---------------------------------------------------------------------------
# Counts honoured exactly; the removed links are links of the input and the
# output is the input without them.
topo-fail -k 7 -s 11 "$RRG" >"$TMPD/k7.topo"
ok $? "-k 7 runs"
[ "$(hdr links "$TMPD/k7.topo")" = 33 ]
ok $? "-k 7 of 40 links leaves 33"
rem=$(hdr spec "$TMPD/k7.topo" | sed 's/.*removed=//' | tr ',' '\n' | tr '-' ' ')
[ "$(printf '%s\n' "$rem" | wc -l)" = 7 ]
ok $? "the spec records 7 removed links"
{ links "$TMPD/k7.topo"; printf '%s\n' "$rem"; } | sort >"$TMPD/union"
links "$RRG" | sort >"$TMPD/orig"
cmp -s "$TMPD/union" "$TMPD/orig"
ok $? "output links plus recorded removals are exactly the input links"
hdr spec "$TMPD/k7.topo" | grep -q '^rrg n=20 d=4 s=3 | fail links k=7 order=random s=11 removed='
ok $? "the spec keeps the input's spec and records the selector and seed"
topo-fail -F 0.25 -s 11 "$RRG" >"$TMPD/f.topo"
[ "$(hdr links "$TMPD/f.topo")" = 30 ]
ok $? "-F 0.25 of 40 links removes 10"
topo-fail -F 0.0125 "$RRG" | grep -q '^links 39$'
ok $? "-F 0.0125 of 40 links: round(0.5) removes 1"
topo-fail -k 40 "$RRG" 2>/dev/null | grep -q '^links 0$'
ok $? "-k of every link leaves none"
run topo-fail -k 41 "$RRG"
expect_fail 1 '^topo-fail: .*k=41: more than the 40 links eligible' "-k above the link count"

# Seeds: same seed same bytes at any thread count, another seed differs.
topo-fail -k 7 -s 11 --threads 2 "$RRG" | cmp -s - "$TMPD/k7.topo"
ok $? "same seed, 2 threads: same bytes"
topo-fail -k 7 -s 12 "$RRG" | cmp -s - "$TMPD/k7.topo"
[ $? -ne 0 ]
ok $? "another seed removes other links"

# ---------------------------------------------------------------------------
# Removing nothing: the same graph, the same results (the name column
# carries the spec, which now records "k=0").
topo-fail -k 0 "$RRG" >"$TMPD/k0.topo"
diff <(grep -v '^spec' "$RRG") <(grep -v '^spec' "$TMPD/k0.topo") >/dev/null
ok $? "-k 0 writes the same topology"
for tool in "topo-dist" "topo-load" "topo-load -r ecmp"; do
    a=$($tool "$RRG" | cut -f2-)
    b=$($tool "$TMPD/k0.topo" | cut -f2-)
    [ -n "$a" ] && [ "$a" = "$b" ]
    ok $? "$tool on -k 0 output equals $tool on the input"
done

# ---------------------------------------------------------------------------
# Bridges: a ring without two links is a path and two pieces.
run topo-fail -l 0-1 "$RING"
expect_rc 0 "one link out of a ring"
[ -z "$err" ]
ok $? "a connected result gives no warning"
topo-fail -l 0-1 "$RING" | topo-fail -l 3-4 >"$TMPD/cut.topo" 2>"$TMPD/cut.err"
ok $? "a bridge out of the path: exit 0"
grep -q '^topo-fail: warning: <stdin>: graph 1: after the removals the graph is not connected' "$TMPD/cut.err"
ok $? "removing a bridge warns of disconnection"
hdr spec "$TMPD/cut.topo" | grep -qx 'ring n=6 | fail links k=1 order=list removed=0-1 | fail links k=1 order=list removed=3-4'
ok $? "a second run appends a second record"
run topo-load "$TMPD/cut.topo"
expect_fail 1 'not connected' "topo-load refuses the disconnected result"
run topo-dist "$TMPD/cut.topo"
[ "$rc" = 1 ] && printf '%s\n' "$out" | tail -1 | cut -f5 | grep -qx 0
ok $? "topo-dist reports connected 0 and exits 1"
run topo-fail -l 0-2 "$RING"
expect_fail 1 'list: no link 0-2' "a listed link that does not exist"
run topo-fail -l 0-1,1-0 "$RING"
expect_fail 1 'list: no link 1-0 \(left\)' "a link listed twice"

# ---------------------------------------------------------------------------
# Classes and switches on a Dragonfly.
ng=$(links "$DF" | grep -c ' global$')
nl=$(links "$DF" | grep -vc ' global$')
topo-fail -c global -k 3 -s 2 "$DF" >"$TMPD/dfg.topo"
[ "$(links "$TMPD/dfg.topo" | grep -c ' global$')" = $((ng - 3)) ] &&
    [ "$(links "$TMPD/dfg.topo" | grep -vc ' global$')" = "$nl" ]
ok $? "-c global removes 3 global links and no local one"
run topo-fail -c nosuch -k 1 "$DF"
expect_fail 1 'class=nosuch: no such link class' "unknown class"
topo-fail -w -l 0,5 "$DF" >"$TMPD/dfw.topo"
[ "$(hdr switches "$TMPD/dfw.topo")" = 34 ] && [ "$(hdr servers "$TMPD/dfw.topo")" = 2 ]
ok $? "two switches removed with their servers: 34 switches of 2 servers"
deg05=$(links "$DF" | awk '$1==0||$2==0||$1==5||$2==5' | wc -l)
[ "$(hdr links "$TMPD/dfw.topo")" = $(($(hdr links "$DF") - deg05)) ]
ok $? "switch removal takes exactly the links of those switches"
grep -q '^switch 0 group=0 coord=0,1$' "$TMPD/dfw.topo" && grep -q '^switch 3 group=1 coord=1,0$' "$TMPD/dfw.topo" && grep -q '^switch 4 group=1 coord=1,2$' "$TMPD/dfw.topo"
ok $? "survivors renumbered in order keep their groups and coordinates"
run topo-fail -w -l 36 "$DF"
expect_fail 1 'list: switch 36 out of range 0..35' "switch out of range"
run topo-load -r dragonfly-min "$TMPD/dfg.topo"
expect_fail 1 'dragonfly-min: no global link from group .* min and ksp route' \
    "dragonfly-min refuses a group pair without global links"
topo-load -r min "$TMPD/dfg.topo" >/dev/null
ok $? "min routes the same damaged Dragonfly"
topo-fail -l 0-1 "$DF" | topo-load -r dragonfly-min >/dev/null
ok $? "dragonfly-min routes around a failed local link"

# ---------------------------------------------------------------------------
# Input formats and bad input.
for f in graphml gml anynet caminos edges sparse6; do
    topo-conv -f "$f" "$RRG" >"$TMPD/in.$f"
    a=$(topo-fail -k 5 -s 4 -f graph6 "$TMPD/in.$f")
    b=$(topo-fail -k 5 -s 4 -f graph6 "$RRG")
    [ -n "$a" ] && [ "$a" = "$b" ]
    ok $? "reads $f: the same links removed as from native"
done
run sh -c 'topo-gen kautz d=2 D=2 | topo-fail -k 1'
expect_fail 1 'undirected topologies only' "a directed topology is refused"
printf 'topokit-graph 1\nswitches x\n' >"$TMPD/bad.topo"
run topo-fail -k 1 "$TMPD/bad.topo"
expect_fail 1 "^topo-fail: .*bad.topo:2:" "bad input names file and line"
run topo-fail -k 1 -o "$TMPD/never.topo" "$TMPD/bad.topo"
[ ! -e "$TMPD/never.topo" ]
ok $? "-o writes nothing on error"

# ---------------------------------------------------------------------------
# Betweenness order against networkx's edge betweenness: once, and
# recomputed after every removal (ties to the lowest link).
if python3 -c 'import networkx' 2>/dev/null; then
    for order in betweenness-once betweenness; do
        got=$(topo-fail -t "$order" -k 6 "$RRG" | hdr spec /dev/stdin | sed 's/.*removed=//')
        want=$(links "$RRG" | python3 -c '
import sys, networkx as nx
G = nx.Graph()
G.add_edges_from(tuple(map(int, l.split()[:2])) for l in sys.stdin)
once = sys.argv[1] == "betweenness-once"
bw = nx.edge_betweenness_centrality(G, normalized=False)
out = []
for _ in range(6):
    if not once:
        bw = nx.edge_betweenness_centrality(G, normalized=False)
    cand = [(min(e), max(e)) for e in G.edges()]
    top = max(bw[e] if e in bw else bw[(e[1], e[0])] for e in cand)
    e = min(e for e in cand if (bw[e] if e in bw else bw[(e[1], e[0])]) >= top - 1e-9 * top)
    out.append("%d-%d" % e)
    G.remove_edge(*e)
print(",".join(out))' "$order")
        [ -n "$got" ] && [ "$got" = "$want" ]
        ok $? "-t $order picks the links networkx ranks first" || diag "got $got" "want $want"
    done
    got=$(topo-fail -w -t betweenness -k 3 "$RRG" | hdr spec /dev/stdin | sed 's/.*removed=//')
    want=$(links "$RRG" | python3 -c '
import sys, networkx as nx
G = nx.Graph()
G.add_edges_from(tuple(map(int, l.split()[:2])) for l in sys.stdin)
out = []
for _ in range(3):
    bw = nx.betweenness_centrality(G, normalized=False)
    top = max(bw.values())
    v = min(v for v in G if bw[v] >= top - 1e-9 * top)
    out.append(str(v))
    G.remove_node(v)
print(",".join(out))')
    [ -n "$got" ] && [ "$got" = "$want" ]
    ok $? "-w -t betweenness picks the switches networkx ranks first" || diag "got $got" "want $want"
else
    ok 0 "# SKIP networkx missing"
fi

done_testing
