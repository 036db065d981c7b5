# topo-vc: verdicts, VC counts, witnesses, certificates; the dependency
# graph in DOT against networkx (acyclicity, shortest cycle length);
# errors and exit codes.
. "$TK_SRCDIR/tests/cli/lib.sh"

T=$(printf '\t')
HEAD="name${T}routing${T}policy${T}verdict${T}basis${T}channels${T}deps${T}max_hops${T}vcs${T}vcs_class"

# --- exact rows --------------------------------------------------------------
run sh -c 'topo-gen ring n=4 | topo-vc -r min -v none --witness'
expect_out "$HEAD${T}witness
ring n=4${T}min${T}none${T}deadlock-prone${T}cdg-cyclic${T}8${T}8${T}2${T}1${T}-:1${T}0>1:0(0>2,hop=0) 1>2:0(1>3,hop=0) 2>3:0(2>0,hop=0) 3>0:0(3>1,hop=0)" \
    "ring n=4, min, one VC: cyclic, the witness goes round"
run sh -c 'topo-gen ring n=6 | topo-vc -r min -v dateline | cut -f3-5,9'
expect_out "policy${T}verdict${T}basis${T}vcs
dateline${T}deadlock-free${T}cdg-acyclic${T}2" "ring n=6, dateline: acyclic with 2 VCs"
run sh -c 'topo-gen hyperx sides=3,3 | topo-vc -r valiant,dor -v ladder --min-vcs | cut -f4,8,9,11'
expect_out "verdict${T}max_hops${T}vcs${T}min_vcs
deadlock-free${T}4${T}4${T}3" "2D HyperX, valiant,dor: Ladder uses 4 VCs, ladder,cap=3 suffices"
run sh -c 'topo-gen dragonfly a=4 h=2 | topo-vc -r dragonfly-valiant -v dfladder --min-vcs | cut -f4,10,11'
expect_out "verdict${T}vcs_class${T}min_vcs
deadlock-free${T}local:4,global:2${T}4/2" "Dragonfly Valiant, dfladder: 4 local + 2 global, none fewer"
run sh -c 'topo-gen dragonfly a=4 h=2 | topo-vc -r dragonfly-valiant -v ladder-reuse | cut -f4,5,9'
expect_out "verdict${T}basis${T}vcs
deadlock-free${T}duato-acyclic${T}6" "ladder-reuse: Duato's extended CDG, Ladder's 6 VCs"

# --- certificates ------------------------------------------------------------
topo-gen hyperx sides=3,3 >"$TMPD/hx.topo"
topo-vc -r valiant,dor -v 2phases,minlast --cert "$TMPD/cert" "$TMPD/hx.topo" >/dev/null
ok $? "certificate written"
run topo-vc -r valiant,dor -v 2phases,minlast --check "$TMPD/cert" "$TMPD/hx.topo"
expect_rc 0 "certificate verified"
awk -F"$T" 'BEGIN { OFS = FS } NR == 2 { $5 = 1000 } { print }' "$TMPD/cert" >"$TMPD/bad"
run topo-vc -r valiant,dor -v 2phases,minlast --check "$TMPD/bad" "$TMPD/hx.topo"
expect_fail 1 'does not increase the rank' "a tampered certificate fails"
run topo-vc -r valiant,dor -v 2phases,minfirst --check "$TMPD/cert" "$TMPD/hx.topo"
expect_rc 0 "minfirst's graph is a subgraph here: the same ranks hold"
run topo-vc -r valiant,dor -v none --cert "$TMPD/c2" "$TMPD/hx.topo"
expect_fail 1 'cyclic, no certificate' "--cert on a cyclic graph"
[ ! -e "$TMPD/c2" ]
ok $? "no certificate file left"

# --- networkx ------------------------------------------------------------------
PY=
for p in "${PYTHON:-}" /usr/bin/python3 python3; do
    [ -n "$p" ] || continue
    if "$p" -c 'import networkx' >/dev/null 2>&1; then
        PY=$p
        break
    fi
done
if [ -n "$PY" ]; then
    i=0
    while IFS="$T" read -r gen routing policy; do
        i=$((i + 1))
        # shellcheck disable=SC2086
        topo-gen $gen >"$TMPD/g$i.topo"
        topo-vc -r "$routing" -v "$policy" --witness --cdg "$TMPD/g$i.dot" "$TMPD/g$i.topo" |
            awk -F"$T" 'NR == 2 { n = split($11, s, " "); print $4, ($11 == "-" ? 0 : n) }' >"$TMPD/v$i"
        "$PY" - "$TMPD/g$i.dot" >"$TMPD/n$i" <<'PYEOF'
import re, sys
import networkx as nx
g = nx.DiGraph()
for line in open(sys.argv[1]):
    m = re.match(r'\s*c(\d+) -> c(\d+);', line)
    if m:
        g.add_edge(int(m.group(1)), int(m.group(2)))
    m = re.match(r'\s*c(\d+) \[', line)
    if m:
        g.add_node(int(m.group(1)))
if nx.is_directed_acyclic_graph(g):
    print("deadlock-free 0")
else:
    # shortest cycle: an arc u->v closed by a shortest path v ~> u; on the
    # smallest graphs also the shortest of simple_cycles (brute force)
    best = min(nx.shortest_path_length(g, v, u) + 1 for u, v in g.edges()
               if nx.has_path(g, v, u))
    if g.number_of_edges() <= 60:
        assert best == min(len(c) for c in nx.simple_cycles(g))
    print("deadlock-prone", best)
PYEOF
        [ -s "$TMPD/v$i" ] && cmp -s "$TMPD/v$i" "$TMPD/n$i"
        ok $? "networkx: $gen / $routing / $policy: verdict and shortest cycle ($(cat "$TMPD/n$i"))" ||
            diag "topo-vc: $(cat "$TMPD/v$i")"
    done <<'LIST'
ring n=5	min	none
ring n=6	valiant	dateline
ring n=7	ecmp	dateline
torus sides=3,4	dor	dateline
torus sides=3,4	min	dateline
hyperx sides=3,3	min	none
hyperx sides=3,3	dor	none
hyperx sides=3,3	valiant,dor	ladder,cap=2
rrg n=8 d=3	min	none
rrg n=8 d=3	min	ladder,cap=2
rrg n=10 d=3 -s 2	valiant	2phases,minboth
rrg n=10 d=3 -s 3	valiant,exclude	2phases,minlast
LIST
else
    ok 1 "# SKIP python3 with networkx not found"
fi

# --- errors ------------------------------------------------------------------
run sh -c 'topo-gen hyperx sides=3,3 | topo-vc -r min -v 2phases'
expect_fail 1 '2phases,minfirst: a path of pair 0,1 has no intermediate' "2phases without intermediates"
run sh -c 'topo-gen hyperx sides=4,4 | topo-vc -r dor -v dateline'
expect_fail 1 'not a ring step' "dateline on a HyperX of side 4"
run sh -c 'topo-gen rrg n=8 d=3 | topo-vc -v dateline'
expect_fail 1 'not a ring' "dateline on a random graph"
run sh -c 'topo-gen hyperx sides=3,3 | topo-vc -v dfladder'
expect_fail 1 "no link class 'global'" "dfladder without global links"
run sh -c 'topo-gen ring n=140 | topo-vc -v ladder'
expect_fail 1 'more than 64 VCs' "ladder past 64 VCs"
run topo-vc -v ladder,cap=65
expect_rc 2 "cap=65 is a usage error"
run topo-vc -v 'none,minlast'
expect_rc 2 "MODE on none is a usage error"
run topo-vc -v ladder-reuse --min-vcs
expect_rc 2 "--min-vcs on ladder-reuse is a usage error"
run topo-vc --cert a --check b
expect_rc 2 "--cert and --check exclude each other"
run sh -c 'topo-gen ring n=5 | topo-vc -r dor'
expect_fail 1 'dor: the graph has no coordinates' "dor needs coordinates"

done_testing
