# topo-auto: group orders of known graphs, --iso, --orbits, --json, errors.
. "$TK_SRCDIR/tests/cli/lib.sh"

T=$(printf '\t')
HEADER="name${T}n${T}group_order${T}vertex_orbits${T}arc_orbits${T}vertex_transitive${T}arc_transitive${T}canonical_hash"

# field NAME: column NAME of the first data row of $out.
field() {
    printf '%s\n' "$out" | awk -F '\t' -v c="$1" 'NR == 1 { for (i = 1; i <= NF; i++) k[$i] = i; next }
        NR == 2 { print $k[c] }'
}

# Petersen: |Aut| = 120, vertex- and arc-transitive.
run topo-auto "$TK_SRCDIR/data/petersen.topo"
expect_rc 0 "Petersen"
[ "$(printf '%s\n' "$out" | head -n 1)" = "$HEADER" ]
ok $? "header line" || diag "$out"
[ "$(field group_order) $(field vertex_orbits) $(field arc_orbits) $(field vertex_transitive) $(field arc_transitive)" = "120 1 1 1 1" ]
ok $? "Petersen: |Aut| 120, one vertex orbit, one arc orbit" || diag "$out"
printf '%s\n' "$(field canonical_hash)" | grep -Eq '^[0-9a-f]{16}$'
ok $? "canonical hash is 16 hex digits" || diag "$out"

run topo-auto "$TK_SRCDIR/data/hoffman-singleton.g6"
[ "$(field group_order) $(field vertex_transitive) $(field arc_transitive)" = "252000 1 1" ]
ok $? "Hoffman-Singleton: |Aut| 252000, arc-transitive" || diag "$out"

# Closed forms through the generators.
check_order() { # SPEC... EXPECTED
    local want
    eval "want=\${$#}"
    set -- $(printf '%s\n' "$@" | sed '$d')
    run sh -c "topo-gen $* | topo-auto"
    [ "$rc" -eq 0 ] && [ "$(field group_order)" = "$want" ]
    ok $? "topo-gen $*: |Aut| = $want" || diag "rc=$rc" "$out" "$err"
}
check_order hypercube dim=6 46080               # 2^6 6!
check_order ring n=11 22                        # 2n
check_order complete n=8 40320                  # 8!
check_order complete n=20 2432902008176640000   # 20! < 2^64
check_order torus sides=7,7 392                 # 8 k^2
check_order hyperx sides=4,4,4 82944            # (4!)^3 3!
check_order kautz d=3 D=4 24                    # (d+1)!
check_order debruijn d=3 D=3 6                  # d!
# Beyond 64 bits: K_25, 25! = 1.5511210043330986e25.
run sh -c 'topo-gen complete n=25 | topo-auto'
printf '%s\n' "$(field group_order)" | grep -Eq '^1\.55112100433[0-9]*e\+25$'
ok $? "K_25: group order printed as mantissa e+25" || diag "$out"
# Complete bipartite K_{3,4} from an edge list: 3! 4!.
printf '0 3\n0 4\n0 5\n0 6\n1 3\n1 4\n1 5\n1 6\n2 3\n2 4\n2 5\n2 6\n' >"$TMPD/k34.edges"
run topo-auto "$TMPD/k34.edges"
[ "$(field group_order) $(field vertex_orbits) $(field arc_orbits)" = "144 2 2" ]
ok $? "K_{3,4}: |Aut| 144, 2 vertex orbits, 2 arc orbits (the two directions)" || diag "$out" "$err"

# Random regular graph: trivial group.
run sh -c 'topo-gen rrg n=500 d=6 -s 3 | topo-auto'
[ "$(field group_order) $(field vertex_orbits) $(field arc_orbits)" = "1 500 3000" ]
ok $? "rrg n=500 d=6: trivial group, every switch and arc its own orbit" || diag "$out"

# Servers differing per switch break the symmetry (native format).
cat >"$TMPD/c4s.topo" <<'EOF'
topokit-graph 1
switches 4
servers 0
switch 0 servers=1
links 4
0 1
1 2
2 3
3 0
end
EOF
run topo-auto "$TMPD/c4s.topo"
if [ "$rc" -eq 0 ]; then
    [ "$(field group_order) $(field vertex_orbits)" = "2 3" ]
    ok $? "C_4 with servers on one switch: |Aut| 2 (the reflection), 3 orbits" || diag "$out"
else
    ok 1 "native file with per-switch servers read" ; diag "$err"
fi

# --orbits: one row per switch, orbit = smallest switch of it.
run sh -c 'topo-gen debruijn d=2 D=3 | topo-auto --orbits'
[ "$(printf '%s\n' "$out" | head -n 1)" = "name${T}switch${T}orbit" ] &&
    [ "$(printf '%s\n' "$out" | sed 1d | wc -l)" -eq 8 ] &&
    [ "$(printf '%s\n' "$out" | sed 1d | cut -f3 | sort -u | wc -l)" -eq 4 ]
ok $? "--orbits: B(2,3) has 8 switches in 4 orbits (complementation)" || diag "$out"

# --json
run sh -c 'topo-gen ring n=5 | topo-auto --json'
printf '%s\n' "$out" | grep -q '"group_order":10,"vertex_orbits":1,"arc_orbits":1,"vertex_transitive":true,"arc_transitive":true'
ok $? "--json: C_5" || diag "$out"

# --iso: relabelled copies (awk permutes the edge list) and non-isomorphic
# pairs with equal degree sequences.
topo-gen hypercube dim=5 -f edges >"$TMPD/q5.edges"
awk '/^#/ { next } { printf "%d %d\n", ($1 * 7 + 3) % 32, ($2 * 7 + 3) % 32 }' "$TMPD/q5.edges" >"$TMPD/q5b.edges"
run topo-auto --iso "$TMPD/q5.edges" "$TMPD/q5b.edges"
expect_out "isomorphic" "--iso: Q_5 and a relabelled copy"
expect_rc 0 "--iso isomorphic"
# C_6 vs two triangles (2-regular, 6 switches).
printf '0 1\n1 2\n2 3\n3 4\n4 5\n5 0\n' >"$TMPD/c6.edges"
printf '0 1\n1 2\n2 0\n3 4\n4 5\n5 3\n' >"$TMPD/tt.edges"
run topo-auto --iso "$TMPD/c6.edges" "$TMPD/tt.edges"
expect_out "not isomorphic" "--iso: C_6 vs two triangles"
expect_rc 0 "--iso prints the verdict and exits 0 either way"
run topo-auto --iso -q "$TMPD/c6.edges" "$TMPD/tt.edges"
[ "$rc" -eq 1 ] && [ -z "$out" ]
ok $? "--iso -q: not isomorphic is exit 1, no output" || diag "rc=$rc"
run topo-auto --iso -q "$TMPD/q5.edges" "$TMPD/q5b.edges"
[ "$rc" -eq 0 ] && [ -z "$out" ]
ok $? "--iso -q: isomorphic is exit 0" || diag "rc=$rc"
# Same hash for relabelled copies, different for non-isomorphic ones.
h1=$(topo-auto "$TMPD/q5.edges" | cut -f8 | tail -n 1)
h2=$(topo-auto "$TMPD/q5b.edges" | cut -f8 | tail -n 1)
h3=$(topo-auto "$TMPD/c6.edges" | cut -f8 | tail -n 1)
h4=$(topo-auto "$TMPD/tt.edges" | cut -f8 | tail -n 1)
[ "$h1" = "$h2" ] && [ "$h3" != "$h4" ]
ok $? "canonical hash: equal on relabelled copies, different on C_6 / 2 C_3" || diag "$h1 $h2 $h3 $h4"
# Shrikhande graph vs the 4x4 rook's graph: both strongly regular
# (16,6,2,2), cospectral, not isomorphic.  Rook's graph K_4 x K_4 =
# hyperx 4,4; Shrikhande = Cayley graph of Z4 x Z4 with +-(1,0), +-(0,1),
# +-(1,1).
awk 'BEGIN { for (x = 0; x < 4; x++) for (y = 0; y < 4; y++) {
        u = 4 * x + y
        split("1 0 0 1 1 1", d, " ")
        for (k = 1; k <= 6; k += 2) { v = 4 * ((x + d[k]) % 4) + (y + d[k + 1]) % 4; print u, v } } }' >"$TMPD/shrikhande.edges"
topo-gen hyperx sides=4,4 -f edges >"$TMPD/rook.edges"
run topo-auto --iso "$TMPD/shrikhande.edges" "$TMPD/rook.edges"
expect_out "not isomorphic" "--iso: Shrikhande vs 4x4 rook's graph (cospectral SRGs)"
run sh -c "topo-auto '$TMPD/shrikhande.edges' '$TMPD/rook.edges' | cut -f3 | sed 1d | tr '\n' ' '"
expect_out "192 1152 " "Shrikhande |Aut| 192, rook's graph |Aut| 2 (4!)^2 = 1152"

# Capped search reports unknown with a warning, exit 0.
run sh -c 'topo-gen hypercube dim=7 | topo-auto --max-nodes 2'
[ "$rc" -eq 0 ] && [ "$(field group_order)" = "unknown" ] && printf '%s\n' "$err" | grep -q "capped"
ok $? "--max-nodes 2: unknown, warning on stderr" || diag "rc=$rc" "$out" "$err"

# -o writes the file.
run topo-auto -o "$TMPD/out.tsv" "$TK_SRCDIR/data/petersen.topo"
[ "$rc" -eq 0 ] && [ -z "$out" ] && grep -q "^petersen${T}10${T}120${T}" "$TMPD/out.tsv"
ok $? "-o FILE" || diag "rc=$rc" "$err"

# Errors.
# usage_fail RE DESC: exit 2, nothing on stdout, first stderr line matches.
usage_fail() {
    [ "$rc" -eq 2 ] && [ -z "$out" ] && printf '%s\n' "$err" | head -n 1 | grep -Eq -- "$1"
    ok $? "$2" || diag "rc=$rc" "$err"
}
run topo-auto --iso "$TMPD/c6.edges"
usage_fail "^topo-auto: --iso needs exactly two files" "--iso with one file is a usage error"
run topo-auto -q "$TMPD/c6.edges"
usage_fail "^topo-auto: -q is only meaningful with --iso" "-q without --iso is a usage error"
run topo-auto --max-nodes -1 "$TMPD/c6.edges"
usage_fail "^topo-auto: --max-nodes -1: must be between 0 and 2147483647$" "--max-nodes -1 refused"
run topo-auto --iso --json "$TMPD/c6.edges" "$TMPD/c6.edges"
usage_fail "^topo-auto: --iso cannot be combined" "--iso --json is a usage error"
printf 'topokit-graph 1\nswitches 2\nlinks 1\n0 5\n' >"$TMPD/bad.topo"
run topo-auto -o "$TMPD/bad.out" "$TMPD/bad.topo"
expect_fail 1 "bad.topo:4:" "bad input: one line naming file and line, exit 1"
[ ! -e "$TMPD/bad.out" ]
ok $? "no file left behind with -o on error"
run topo-auto --iso "$TMPD/c6.edges" "$TMPD/bad.topo"
expect_fail 1 "bad.topo:4:" "--iso with a bad second file: exit 1"

done_testing
