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

# Dragonfly+ as Cano et al. define its Valiant: intermediates among the
# leaves (valiant,servers), traffic between leaves only (--server-pairs):
# at most 6 hops (ugd-ugd), Ladder 6 VCs, 2Phases 2, minimal routing 1.
topo-gen dragonfly+ leaves=3 spines=3 h=3 p=2 >"$TMPD/dfp.topo"
run sh -c "for p in ladder 2phases,minfirst 2phases,minlast; do topo-vc -r valiant,servers -v \$p --server-pairs $TMPD/dfp.topo | tail -1 | cut -f3,4,8,9; done; topo-vc --server-pairs $TMPD/dfp.topo | tail -1 | cut -f2-4,8,9"
expect_out "ladder${T}deadlock-free${T}6${T}6
2phases,minfirst${T}deadlock-free${T}6${T}2
2phases,minlast${T}deadlock-free${T}6${T}2
min${T}none${T}deadlock-free${T}3${T}1" "Dragonfly+ Valiant over leaves: 6 hops, Ladder 6, 2Phases 2, min 1"
run sh -c "topo-vc -r valiant,servers -v 2phases $TMPD/dfp.topo | tail -1 | cut -f4,8"
expect_out "deadlock-prone${T}8" "Dragonfly+ with the spines' pairs too: 8 hops, 2Phases cyclic"

# escape: an adaptive set and a dimension-order escape (DAL's scheme on a
# HyperX): deadlock-free by Duato, with the escape's certificate; a
# minimal-routing escape is cyclic; so is dor as the escape of a torus.
run sh -c 'topo-gen hyperx sides=3,3 | topo-vc -r valiant,dor -v escape,vcs=2 | cut -f3-5,9'
expect_out "policy${T}verdict${T}basis${T}vcs
escape,vcs=2${T}deadlock-free${T}duato-acyclic${T}3" "escape over dor: deadlock-free with 2 + 1 VCs"
run sh -c 'topo-gen hyperx sides=3,3 | topo-vc -r valiant,dor -v escape --escape min | cut -f4,5'
expect_out "verdict${T}basis
deadlock-prone${T}duato-cyclic" "escape over min routing: cyclic"
run sh -c 'topo-gen torus sides=4,4 | topo-vc -r min -v escape --witness | cut -f4,11'
expect_out "verdict${T}witness
deadlock-prone${T}0>1:0(0>2,hop=0) 1>2:0(1>3,hop=0) 2>3:0(2>0,hop=0) 3>0:0(3>1,hop=0)" \
    "dor on a torus as the escape: the ring's cycle"
topo-gen hyperx sides=3,3 >"$TMPD/hx0.topo"
topo-vc -r valiant,dor -v escape --cert "$TMPD/ce" "$TMPD/hx0.topo" >/dev/null
run topo-vc -r valiant,dor -v escape --check "$TMPD/ce" "$TMPD/hx0.topo"
expect_rc 0 "escape certificate verified"
run topo-vc -v none --escape dor
expect_rc 2 "--escape without the escape policy"
run sh -c 'topo-gen ring n=5 | topo-vc -v escape'
expect_fail 1 'dor: the graph has no coordinates' "escape routing that does not apply"

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

# --- per-VC loads --------------------------------------------------------------
# (The 3x3 HyperX all-to-all: 9 units of traffic, each on 2 x 12/9 hops on
# average, so 24 in all, 12 per phase under MinBoth.)
# MinLast injects the draws m = s and m = t in the second phase: a share of
# the traffic of exactly 2/|pool| (all n switches for valiant), 0 when the
# pool leaves s and t out (valiant,exclude, dragonfly-valiant); MinBoth
# half of it.
topo-gen rrg n=12 d=3 >"$TMPD/r.topo"
topo-pattern all-to-all "$TMPD/r.topo" >"$TMPD/r.pat"
for x in "valiant 2phases,minlast 0.16666666666666666" "valiant 2phases,minboth 0.08333333333333333" \
    "valiant 2phases,minfirst 0" "valiant,exclude 2phases,minlast 0" "valiant ladder 0"; do
    set -- $x
    run topo-vc -r "$1" -v "$2" -P "$TMPD/r.pat" "$TMPD/r.topo"
    got=$(printf '%s\n' "$out" | cut -f11 | tail -1)
    [ "$got" = "$3" ]
    ok $? "rrg n=12, $1, $2: second-phase injection share $3" || diag "got $got"
done
python3 -c 'print(2 / 12, 1 / 12)' | grep -q '^0.16666666666666666 0.08333333333333333$'
ok $? "the shares are the doubles nearest 2/12 and 1/12"
topo-gen dragonfly a=4 h=2 >"$TMPD/df.topo"
topo-pattern all-to-all "$TMPD/df.topo" >"$TMPD/df.pat"
run topo-vc -r dragonfly-valiant -v dfladder,minlast -P "$TMPD/df.pat" "$TMPD/df.topo"
[ "$(printf '%s\n' "$out" | cut -f11 | tail -1)" = 0 ]
ok $? "dragonfly-valiant: no draw through s or t, share 0"
# the VC loads of every arc add up to topo-load's load on it, bit for bit
topo-pattern all-to-all "$TMPD/hx.topo" >"$TMPD/hx.pat"
for pol in ladder ladder-reuse 2phases,minboth; do
    topo-vc -r valiant,dor -v $pol -P "$TMPD/hx.pat" --vc-loads "$TMPD/vl" "$TMPD/hx.topo" >/dev/null &&
        awk -F"$T" 'NR > 1 { s[$1 " " $2] += $5 } END { for (k in s) printf "%s %.17g\n", k, s[k] }' "$TMPD/vl" |
        sort >"$TMPD/la"
    topo-load -r valiant,dor -P "$TMPD/hx.pat" --top 1000 "$TMPD/hx.topo" |
        awk -F"$T" 'NR > 1 { printf "%s %s %.17g\n", $2, $3, $5 }' | sort >"$TMPD/lb"
    [ -s "$TMPD/la" ] && cmp -s "$TMPD/la" "$TMPD/lb"
    ok $? "$pol: per-VC loads add up to topo-load's arc loads exactly"
done
# the shares are integer sums on the parallel driver: 1 and 3 threads
# give the same --vc-loads bytes
for th in 1 3; do
    topo-vc -r valiant,dor -v ladder-reuse -P "$TMPD/hx.pat" --threads $th --vc-loads "$TMPD/vl$th" \
        "$TMPD/hx.topo" >"$TMPD/row$th" || break
done
cmp -s "$TMPD/vl1" "$TMPD/vl3" && cmp -s "$TMPD/row1" "$TMPD/row3" && [ "$(wc -l <"$TMPD/vl1")" -gt 100 ]
ok $? "ladder-reuse: the per-VC loads at 1 and 3 threads are the same bytes"
run topo-vc -r valiant,dor -v 2phases,minboth -P "$TMPD/hx.pat" "$TMPD/hx.topo"
expect_out "$HEAD${T}inject2${T}vc_load${T}imbalance${T}cov
hyperx sides=3,3${T}valiant,dor${T}2phases,minboth${T}deadlock-free${T}cdg-acyclic${T}72${T}216${T}4${T}2${T}-:2${T}0.1111111111111111${T}-:12/12${T}-:1${T}-:0" \
    "MinBoth balances the two phases on the HyperX all-to-all"
run sh -c 'topo-gen hyperx sides=3,3 | topo-vc -r valiant,dor -v 2phases --table3 hyperx2d | cut -f9,11'
expect_out "vcs${T}table3
2${T}2+2" "--table3: the paper allocated 2+2 where 2 suffice"
run topo-vc --table3 torus
expect_rc 2 "--table3 with an unknown topology"
run topo-vc --vc-loads x
expect_rc 2 "--vc-loads without -P is a usage error"

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
