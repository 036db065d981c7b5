# conv-exchange: topo-conv's exchange formats (GraphML, GML, BookSim anynet,
# CAMINOS): exact output on a small graph, round trips through every format,
# auto-detection, what each format cannot hold, and bad inputs (one line
# naming the file and line, exit 1, no output).  The peers' view is in
# crosscheck-exchange.sh.
. "$TK_SRCDIR/tests/cli/lib.sh"

RICH="$DATA/io-good-rich.topo"
DIR="$DATA/io-good-directed.topo"
PET="$TK_SRCDIR/data/petersen.topo"
T="$TMPD"

# A path of three switches, servers 1 2 0, one global link of capacity 2.
cat >"$T/p3.topo" <<'X'
topokit-graph 1
spec path3
switches 3
directed 0
classes global
switch 0 servers=1
switch 1 servers=2
switch 2 servers=0
links 2
0 1
1 2 global 2
end
X

run topo-conv -f graphml "$T/p3.topo"
expect_rc 0 "graphml written"
cat >"$T/want" <<'X'
<?xml version="1.0" encoding="UTF-8"?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">
  <key id="spec" for="graph" attr.name="spec" attr.type="string"/>
  <key id="servers" for="node" attr.name="servers" attr.type="int"/>
  <key id="class" for="edge" attr.name="class" attr.type="string"/>
  <key id="capacity" for="edge" attr.name="capacity" attr.type="double"/>
  <graph id="G" edgedefault="undirected">
    <data key="spec">path3</data>
    <node id="n0"><data key="servers">1</data></node>
    <node id="n1"><data key="servers">2</data></node>
    <node id="n2"><data key="servers">0</data></node>
    <edge source="n0" target="n1"><data key="class">-</data><data key="capacity">1</data></edge>
    <edge source="n1" target="n2"><data key="class">global</data><data key="capacity">2</data></edge>
  </graph>
</graphml>
X
expect_out "$(cat "$T/want")" "graphml of the 3-path exactly"

run topo-conv -f gml "$T/p3.topo"
cat >"$T/want" <<'X'
graph [
  directed 0
  spec "path3"
  node [
    id 0
    label "0"
    servers 1
  ]
  node [
    id 1
    label "1"
    servers 2
  ]
  node [
    id 2
    label "2"
    servers 0
  ]
  edge [
    source 0
    target 1
    class "-"
    capacity 1.0
  ]
  edge [
    source 1
    target 2
    class "global"
    capacity 2.0
  ]
]
X
expect_out "$(cat "$T/want")" "gml of the 3-path exactly"

run topo-conv -f anynet "$T/p3.topo"
expect_out "router 0 node 0 router 1
router 1 node 1 node 2 router 2
router 2" "anynet of the 3-path: servers numbered in switch order, each channel once"

run topo-conv -f caminos "$T/p3.topo"
expect_out "NODOS 3
GRADO 2
N 0
1
N 1
0 2
N 2
1" "CAMINOS of the 3-path: both ends list each link, GRADO the largest degree"

# Round trips: GraphML and GML keep everything (self-loops, parallel links,
# classes, capacities, groups, coordinates, directed graphs).
topo-gen dragonfly a=4 h=2 p=2 -o "$T/df.topo"
topo-gen rrg n=40 d=5 -p 2 -s 3 -o "$T/rrg.topo"
for f in graphml gml; do
    for g in "$RICH" "$DIR" "$PET" "$T/df.topo" "$T/p3.topo"; do
        topo-conv -f "$f" -o "$T/x.$f" "$g" && topo-conv "$T/x.$f" >"$T/back.topo" &&
            topo-conv "$g" | cmp -s - "$T/back.topo"
        ok $? "$f round trip of $(basename "$g") is exact (auto-detected on reading)"
    done
    topo-conv -f "$f" "$T/p3.topo" | topo-conv -i "$f" | cmp -s - "$T/p3.topo"
    ok $? "$f read with -i $f from standard input"
done
# anynet keeps switches, links and servers; CAMINOS switches and links.
for g in "$PET" "$T/rrg.topo" "$T/df.topo"; do
    topo-conv -f edges "$g" | grep -v '^#' | cut -d' ' -f1,2 >"$T/links"
    topo-conv -f anynet "$g" | topo-conv -f edges | grep -v '^#' >"$T/an"
    cmp -s "$T/links" "$T/an"
    ok $? "anynet round trip of $(basename "$g"): same links"
    topo-conv -f anynet "$g" | topo-conv | grep '^servers\|servers=' >"$T/s1"
    topo-conv "$g" | grep '^servers\|servers=' >"$T/s2"
    cmp -s "$T/s1" "$T/s2"
    ok $? "anynet round trip of $(basename "$g"): same servers"
    topo-conv -f caminos "$g" | topo-conv -i caminos -f edges | grep -v '^#' >"$T/ca"
    cmp -s "$T/links" "$T/ca"
    ok $? "CAMINOS round trip of $(basename "$g"): same links"
done
# BookSim accepts channels stated from either end, and twice.
printf 'node 1 router 1\nrouter 1 router 0 node 2\nrouter 0 node 0 router 1\n' >"$T/loose.anynet"
run topo-conv -f edges "$T/loose.anynet"
expect_out "# topokit-edges switches 2 directed 0
0 1" "anynet: a channel stated twice is one link; 'node N router R' attaches"
run topo-conv "$T/loose.anynet"
printf '%s\n' "$out" | grep -q '^switch 1 servers=2$'
ok $? "anynet: nodes 1 and 2 are the servers of router 1"

# What the formats cannot hold.
run topo-conv -f anynet "$RICH"
expect_fail 1 "io-good-rich.topo: graph 1: anynet: cannot hold self-loops" "anynet refuses self-loops"
run topo-conv -f caminos "$DIR"
expect_fail 1 "io-good-directed.topo: graph 1: CAMINOS: needs an undirected graph" \
    "CAMINOS refuses a directed graph"
printf 'topokit-graph 1\nswitches 3\ndirected 0\nservers 0\nlinks 1\n0 1\nend\n' >"$T/iso.topo"
run topo-conv -f anynet "$T/iso.topo"
expect_fail 1 "anynet: switch 2 has neither links nor servers" "anynet refuses an invisible switch"
printf 'topokit-graph 1\nswitches 2\ndirected 0\nlinks 2\n0 1\n0 1\nend\n' >"$T/par.topo"
run topo-conv -f caminos "$T/par.topo"
expect_fail 1 "CAMINOS: cannot hold parallel links" "CAMINOS refuses parallel links"
cat "$PET" "$PET" >"$T/two.topo"
run topo-conv -f gml -o "$T/two.gml" "$T/two.topo"
expect_fail 1 "two.topo: graph 2: gml holds a single graph" "gml: one graph per file"
[ ! -e "$T/two.gml" ]
ok $? "gml: nothing written to -o FILE"

# Bad inputs: file and line, exit 1, nothing on stdout.
bad() { # NAME FORMAT CONTENT REGEX
    printf '%b' "$3" >"$T/$1"
    run topo-conv -i "$2" "$T/$1"
    expect_fail 1 "^topo-conv: .*$1:$4" "$1: $4"
}
bad b1.graphml graphml '<graphml>\n<graph edgedefault="undirected">\n<node id="a"/>\n<edge source="a" target="b"/>\n</graph>\n</graphml>\n' \
    "6: GraphML: edge 1 refers to undeclared node 'b'"
bad b2.graphml graphml '<graphml>\n<graph>\n<node id="a">\n</graph>\n' "4: GraphML: </graph> does not close <node>"
bad b3.graphml graphml '<graphml><key id="s" for="node" attr.name="servers"/>\n<graph><node id="a"><data key="s">-1</data></node></graph></graphml>\n' \
    "2: GraphML: servers '-1': not a whole number >= 0"
bad b4.graphml graphml '<graphml><graph><node id="a"/><node id="a"/></graph></graphml>\n' \
    "1: GraphML: node id 'a' declared twice"
bad b5.graphml graphml '<graphml><graph edgedefault="undirected"><node id="a"/>\n' \
    "1: GraphML: input ends before </graphml>"
bad b1.gml gml 'graph [\n node [ id 0 ]\n edge [ source 0 target 3 ]\n]\n' \
    "4: GML: edge 1 refers to undeclared node 3"
bad b2.gml gml 'graph [\n node [ label "x" ]\n]\n' "2: GML: node without an id"
bad b3.gml gml 'graph [\n node [ id 0 ]\n edge [ source 0 target 0 capacity -2 ]\n]\n' \
    "3: GML: capacity '-2': not a finite number > 0"
bad b4.gml gml 'graph [\n node [ id 0 ]\n' "2: GML: input ends inside the graph"
bad b1.anynet anynet 'router 0 node 0\nrouter 1 node 0\n' \
    "2: anynet: node 0 attached to routers 0 and 1"
bad b2.anynet anynet 'router 0 node 1\n' "1: anynet: node ids must be 0..1 \\(node 0 is missing\\)"
bad b3.anynet anynet 'router 0 switch 1\n' "1: anynet: 'switch': expected 'router' or 'node'"
bad b4.anynet anynet 'node 0 node 1\n' "1: anynet: node 0 connected to node 1"
# issue 27's fuzz finds: ids that would stand for millions of unnamed
# routers are refused, not built (it took > 1 GiB, or > 10 s)
bad b5.anynet anynet 'router 0 router 2\n' "1: anynet: router ids must be 0..2 \\(router 1 is missing\\)"
bad b6.anynet anynet 'router 22222222\n' "1: anynet: router ids must be 0..22222222 \\(router 0 is missing\\)"
printf 'router 22222222\n' >"$T/b7.anynet"
TOPOKIT_MEMORY_LIMIT=64M run topo-conv -i anynet "$T/b7.anynet"
expect_fail 1 "b7.anynet:1: router id: graph would need .* above the memory limit" \
    "anynet: a router id beyond the memory limit is refused before allocating"
bad b5.caminos caminos 'NODOS 999915\n' "1: CAMINOS: router 0 of NODOS 999915 has no 'N 0' line"
bad b6.caminos caminos 'NODOS 3\nGRADO 1\nN 0\n1\nN 1\n0\n' "6: CAMINOS: router 2 of NODOS 3 has no 'N 2' line"
bad b1.caminos caminos 'NODOS 2\nGRADO 1\nN 0\n1\nN 1\n\n' \
    "6: CAMINOS: router 0 lists 1 but 1 does not list 0 \\(lists must be symmetric\\)"
bad b2.caminos caminos 'GRADO 1\n' "1: CAMINOS: GRADO before NODOS"
bad b3.caminos caminos 'NODOS 2\nGRADO 1\nN 2\n0\n' "3: CAMINOS: N needs one router number in 0..1"
bad b4.caminos caminos 'NODOS 2\nGRADO 1\nVECINOS 0\n' "3: CAMINOS: 'VECINOS': expected NODOS, GRADO or N"
# A line of other white space (CR, VT) is blank: it read an unset router id
# before (UBSan; fuzz find).
printf 'router 0 router 1\n\v\r\nrouter 1 router 0\n' >"$T/ws.anynet"
run topo-conv -f edges "$T/ws.anynet"
[ "$rc" -eq 0 ] && printf '%s\n' "$out" | grep -v '^#' | grep -qx '0 1'
ok $? "anynet: a line of CR and VT is a blank line" || diag "$out" "$err"
done_testing
