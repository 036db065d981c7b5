# topo-route: path counts, lengths and weights of the routing models;
# hand counts, cross-checks with topo-paths, errors and exit codes.
. "$TK_SRCDIR/tests/cli/lib.sh"

T=$(printf '\t')
PHEAD="name${T}src${T}dst${T}paths${T}min_len${T}max_len${T}avg_len${T}walks"
SHEAD="name${T}routing${T}pairs${T}paths_min${T}paths_avg${T}paths_max${T}min_len${T}avg_len${T}max_len${T}walks_min${T}walks_avg${T}walks_max"

# --- min counts are sigma: cross-check with topo-paths -------------------------
for spec in "hypercube dim=4" "rrg n=30 d=4 -s 3" "torus sides=4,5"; do
    # shellcheck disable=SC2086
    topo-gen $spec >"$TMPD/g.topo"
    topo-route -r min --pairs "$TMPD/g.topo" | awk -F"$T" 'NR > 1 { print $2, $3, $4 }' >"$TMPD/a"
    topo-paths --pairs "$TMPD/g.topo" | awk -F"$T" 'NR > 1 { print $2, $3, $5 }' >"$TMPD/b"
    [ -s "$TMPD/a" ] && cmp -s "$TMPD/a" "$TMPD/b"
    ok $? "$spec: min path counts equal topo-paths sigma for every pair"
done

run sh -c 'topo-gen hypercube dim=12 | topo-route -r min --pair 0,4095'
expect_out "$PHEAD
hypercube dim=12${T}0${T}4095${T}479001600${T}12${T}12${T}12${T}479001600" "12-cube antipodes: 12! paths counted"

# --- Valiant on the 6-cycle, pair 0 -> 1 (hand count, see test_route.c),
# one path per draw (m, P1, P2): m = 0, 1: 0-1; m = 2: 0-1-2-1; m = 3:
# 0-1-2-3-2-1, 0-5-4-3-2-1 (1/12 each); m = 4: 0-5-4-3-2-1 again, 0-5-4-5-0-1
# (1/12 each); m = 5: 0-5-0-1.  via is m; phase2 the first hop of the second
# phase (m = s = 0: all of it; m = t = 1: none of it).
run sh -c 'topo-gen ring n=6 | topo-route -r valiant --pair 0,1 --paths'
expect_out "name${T}src${T}dst${T}index${T}weight${T}hops${T}path${T}via${T}phase2
ring n=6${T}0${T}1${T}0${T}0.16666666666666666${T}1${T}0-1${T}0${T}0
ring n=6${T}0${T}1${T}1${T}0.16666666666666666${T}1${T}0-1${T}1${T}1
ring n=6${T}0${T}1${T}2${T}0.16666666666666666${T}3${T}0-1-2-1${T}2${T}2
ring n=6${T}0${T}1${T}3${T}0.08333333333333333${T}5${T}0-1-2-3-2-1${T}3${T}3
ring n=6${T}0${T}1${T}4${T}0.16666666666666666${T}3${T}0-5-0-1${T}5${T}1
ring n=6${T}0${T}1${T}5${T}0.08333333333333333${T}5${T}0-5-4-3-2-1${T}3${T}3
ring n=6${T}0${T}1${T}6${T}0.08333333333333333${T}5${T}0-5-4-3-2-1${T}4${T}2
ring n=6${T}0${T}1${T}7${T}0.08333333333333333${T}5${T}0-5-4-5-0-1${T}4${T}2" \
    "C6 valiant 0->1: eight draws with their weights, intermediates and phases"
# MinFirst: the draws m = s and m = t travel wholly in the first phase.
run sh -c 'topo-gen ring n=6 | topo-route -r valiant,minfirst --pair 0,1 --paths | cut -f7-9'
expect_out "path${T}via${T}phase2
0-1${T}0${T}1
0-1${T}1${T}1
0-1-2-1${T}2${T}2
0-1-2-3-2-1${T}3${T}3
0-5-0-1${T}5${T}1
0-5-4-3-2-1${T}3${T}3
0-5-4-3-2-1${T}4${T}2
0-5-4-5-0-1${T}4${T}2" "C6 valiant,minfirst 0->1: m = s travels in the first phase"
run sh -c 'topo-gen ring n=6 | topo-route -r valiant --pair 0,1'
expect_out "$PHEAD
ring n=6${T}0${T}1${T}8${T}1${T}5${T}2.9999999999999996${T}6" "C6 valiant 0->1: 8 paths, 6 distinct walks"

run sh -c 'topo-gen ring n=6 | topo-route -r valiant,exclude --pair 0,1'
row=$(printf '%s\n' "$out" | tail -n 1 | cut -f4-)
[ "$rc" -eq 0 ] && [ "$(printf '%s\n' "$row" | cut -f1-3,5)" = "6${T}3${T}5${T}5" ] &&
    awk -v x="$(printf '%s\n' "$row" | cut -f4)" 'BEGIN { exit !(x > 3.999999 && x < 4.000001) }'
ok $? "C6 valiant,exclude 0->1: 6 paths, 5 walks, 3..5 hops, mean (3+5+5+3)/4 = 4" || diag "$out"
# A minimal model's paths have no intermediate.
run sh -c 'topo-gen ring n=6 | topo-route -r min --pair 0,3 --paths | cut -f8-'
expect_out "via${T}phase2
-${T}-
-${T}-" "min paths: no intermediate, no second phase"

# --- ECMP split fractions by hand: from 0 the next hops to 5 are 1 and 2;
# from 1 one path (1-3-5), from 2 two (2-3-5, 2-4-5): 1/2, 1/4, 1/4.
cat >"$TMPD/ecmp.topo" <<'EOF'
topokit-graph 1
switches 6
directed 0
links 7
0 1
0 2
1 3
2 3
2 4
3 5
4 5
end
EOF
run topo-route -r ecmp --pair 0,5 --paths "$TMPD/ecmp.topo"
[ "$rc" -eq 0 ] && [ "$(printf '%s\n' "$out" | awk -F"$T" 'NR > 1 { print $5, $7 }' | tr '\n' ' ')" = \
    "0.5 0-1-3-5 0.25 0-2-3-5 0.25 0-2-4-5 " ]
ok $? "ecmp: exact split fractions 1/2, 1/4, 1/4" || diag "$out"
run topo-route -r min --pair 0,5 --paths "$TMPD/ecmp.topo"
[ "$rc" -eq 0 ] && [ "$(printf '%s\n' "$out" | awk -F"$T" 'NR > 1 { print $5 }' | sort -u)" = "0.3333333333333333" ]
ok $? "min: 1/3 each on the same graph" || diag "$out"

# --- polarized on the 5-cycle, 0 -> 2: 0-1-2 and 0-4-3-2 -----------------------
run sh -c 'topo-gen ring n=5 | topo-route -r polarized --pair 0,2 --paths | cut -f5-7'
expect_out "weight${T}hops${T}path
0.5${T}2${T}0-1-2
0.5${T}3${T}0-4-3-2" "C5 polarized 0->2: one minimal and one 3-hop path"

# --- Dragonfly a=4 h=2 g=9 -----------------------------------------------------
topo-gen dragonfly a=4 h=2 >"$TMPD/df.topo"
# dragonfly-min: one path per pair; from a router, 3 pairs in its group (1
# hop); per other group B, 4 routers: 1 + [s does not hold the link to B] +
# [t does not]: 2 groups (the router's own links) give 2+2+2+1 = 7, the 6
# others 3+3+3+2 = 11: (3 + 14 + 66)/35 = 83/35.
run topo-route -r dragonfly-min "$TMPD/df.topo"
row=$(printf '%s\n' "$out" | tail -n 1 | cut -f2-)
[ "$rc" -eq 0 ] && [ "$(printf '%s\n' "$row" | cut -f1-6,8)" = "dragonfly-min${T}1260${T}1${T}1${T}1${T}1${T}3" ] &&
    awk -v x="$(printf '%s\n' "$row" | cut -f7)" 'BEGIN { exit !(x - 83/35 < 1e-12 && 83/35 - x < 1e-12) }'
ok $? "dragonfly a=4 h=2: 1260 pairs, 1 lgl path each, 1..3 hops, mean 83/35" || diag "$out"

# dragonfly-valiant 0 -> 4: 28 draws, 25 walks (tests/unit/test_route.c).
run topo-route -r dragonfly-valiant --pair 0,4 "$TMPD/df.topo"
[ "$rc" -eq 0 ] && [ "$(printf '%s\n' "$out" | tail -n 1 | cut -f4,8)" = "28${T}25" ] &&
    [ "$(printf '%s\n' "$out" | tail -n 1 | cut -f6)" -le 6 ]
ok $? "dragonfly-valiant 0->4: 28 paths, 25 walks (hand count), at most 6 hops" || diag "$out"
run topo-route -r dragonfly-valiant --pair 0,4 --paths "$TMPD/df.topo"
[ "$rc" -eq 0 ] && awk -F"$T" 'NR > 1 { s += $5 } END { exit !(s > 0.999999999 && s < 1.000000001) }' <<EOF
$out
EOF
ok $? "dragonfly-valiant 0->4: weights sum to 1" || diag "$out"
# Canonical Dragonflies: a=8 h=4 g=33 has one global link per group pair,
# so each of the 264 - 16 = 248 intermediates outside the two groups gives
# one path; g=9 has 4 per pair: 4 x 4 paths per intermediate, 56 x 16.
census() { awk -F"$T" 'NR > 1 { n++; w[$5]; v[$8] } END { for (k in w) x = k; print n, length(w), x, length(v) }'; }
run sh -c 'topo-gen dragonfly a=8 h=4 p=4 g=33 | topo-route -r dragonfly-valiant --pair 0,8 --paths'
[ "$rc" -eq 0 ] && [ "$(printf '%s\n' "$out" | census)" = "248 1 0.004032258064516129 248" ]
ok $? "dfly(4,8,4,33) dragonfly-valiant 0->8: 248 paths of weight 1/248, 248 intermediates" || diag "$out"
run sh -c 'topo-gen dragonfly a=8 h=4 p=4 g=9 | topo-route -r dragonfly-valiant --pair 0,8 --paths'
[ "$rc" -eq 0 ] && [ "$(printf '%s\n' "$out" | census)" = "896 1 0.0011160714285714285 56" ]
ok $? "dfly(4,8,4,9) dragonfly-valiant 0->8: 896 paths of weight 1/896 through 56 intermediates" || diag "$out"

# Trunking: g=5 gives 2 global links per group pair, 2 paths per pair.
run sh -c 'topo-gen dragonfly a=4 h=2 g=5 | topo-route -r dragonfly-min --pair 0,4 --paths | cut -f5'
expect_out "weight
0.5
0.5" "trunked dragonfly: two lgl paths, 1/2 each"

# --- thread count does not change the output -----------------------------------
topo-gen rrg n=40 d=4 -s 2 >"$TMPD/rrg.topo"
for m in min ecmp ksp:4 ksp:4,spread allpath:6 valiant polarized; do
    a=$(topo-route --threads 1 -r "$m" "$TMPD/rrg.topo")
    b=$(topo-route --threads 2 -r "$m" "$TMPD/rrg.topo")
    [ -n "$a" ] && [ "$a" = "$b" ]
    ok $? "$m: same output with 1 and 2 threads"
done
run topo-route -r ksp:4 "$TMPD/rrg.topo"
[ "$(printf '%s\n' "$out" | head -n 1)" = "$SHEAD" ] &&
    [ "$(printf '%s\n' "$out" | tail -n 1 | cut -f3,4,6,10,12)" = "1560${T}4${T}4${T}4${T}4" ]
ok $? "ksp:4 on rrg n=40 d=4: 4 paths for each of the 1560 pairs" || diag "$out"
# spread picks other ties of the same lengths: the summary row (lengths)
# is that of ksp:4 but for the model's name
a=$(topo-route -r ksp:4 "$TMPD/rrg.topo" | tail -n 1 | cut -f3-)
b=$(topo-route -r ksp:4,spread "$TMPD/rrg.topo" | tail -n 1 | cut -f2-)
[ "$b" = "ksp:4,spread$T$a" ]
ok $? "ksp:4,spread: same path counts and lengths as ksp:4" || diag "$a / $b"
# rrg n=700 d=16: a pair at distance 4 with 82 shortest paths; ksp:7 takes
# the first 7 in depth-first order (one first hop), spread several
topo-gen rrg n=700 d=16 -s 1 >"$TMPD/r700.topo"
firsts() { topo-route -r "$1" --pair 140,53 --paths "$TMPD/r700.topo" | awk -F '\t' 'NR > 1 { split($7, v, "-"); f[v[2]] = 1 } END { print length(f) }'; }
[ "$(firsts ksp:7)" = 1 ] && [ "$(firsts ksp:7,spread)" -ge 3 ]
ok $? "rrg n=700 d=16 pair 140,53: ksp:7 leaves by 1 first hop, ksp:7,spread by $(firsts ksp:7,spread)"
run topo-route -r allpath:4 --pair 140,53 "$TMPD/r700.topo"
[ "$(printf '%s\n' "$out" | tail -n 1 | cut -f4,5,6)" = "82${T}4${T}4" ]
ok $? "rrg n=700 d=16 pair 140,53: 82 paths of 4 hops, none shorter" || diag "$out"
run topo-route -r ksp:3,spread,spread "$TMPD/rrg.topo"
expect_err_match "^topo-route: ksp:3,spread,spread: 'spread' given twice" "spread twice: message"
[ "$rc" -eq 2 ]
ok $? "spread twice: exit 2"
run topo-route -r min,spread "$TMPD/rrg.topo"
expect_err_match "^topo-route: min,spread: option 'spread' is for ksp" "spread on min: message"
[ "$rc" -eq 2 ]
ok $? "spread on min: exit 2"
run sh -c 'topo-gen hypercube dim=12 | topo-route -r ksp:1,spread --pair 0,4095'
expect_fail 1 "graph 1: pair 0,4095: more than 1000000 paths of one length to choose from .ksp spread.$" \
    "ksp spread with too many ties: exit 1"

# --- errors -----------------------------------------------------------------
topo-gen ring n=6 >"$TMPD/ring.topo"
run topo-route -r dragonfly-min "$TMPD/ring.topo"
expect_fail 1 "^topo-route: .*ring.topo: graph 1: dragonfly-min: the graph has no groups" \
    "dragonfly-min without groups: exit 1"
run topo-route -r min,global=2 "$TMPD/ring.topo"
expect_fail 1 "^topo-route: .*graph 1: min,global=2: the graph has no link class 'global'" \
    "hop length for a missing class: exit 1"
run topo-route --pair 0,6 "$TMPD/ring.topo"
expect_fail 1 "^topo-route: .*graph 1: --pair 0,6: switch ids are 0..5" "pair out of range: exit 1"
run topo-route -r allpath:2 "$TMPD/ring.topo"
expect_fail 1 "graph 1: allpath:2: no path from .* within 2 hops" "allpath beyond H: exit 1"
run sh -c 'topo-gen hypercube dim=12 | topo-route --pair 0,4095 --paths --max-paths 1000'
expect_fail 1 "graph 1: pair 0,4095: .*more than 1000" "too many paths: exit 1"
printf 'topokit-graph 1\nswitches 4\ndirected 0\nlinks 2\n0 1\n2 3\nend\n' >"$TMPD/two.topo"
run topo-route "$TMPD/two.topo"
expect_fail 1 "graph 1: min: the graph is not connected" "disconnected graph: exit 1"
run topo-route -r foo "$TMPD/ring.topo"
expect_err_match "^topo-route: foo: unknown routing model" "unknown model: message"
[ "$rc" -eq 2 ] && [ -z "$out" ]
ok $? "unknown model: exit 2"
run topo-route -r ksp:0 "$TMPD/ring.topo"
expect_err_match "^topo-route: ksp:0: K must be" "ksp:0: usage error"
[ "$rc" -eq 2 ]
ok $? "ksp:0: exit 2"
run topo-route -r min,exclude "$TMPD/ring.topo"
[ "$rc" -eq 2 ] && [ -z "$out" ]
ok $? "valiant option on min: exit 2"
run topo-route --paths "$TMPD/ring.topo"
[ "$rc" -eq 2 ] && [ -z "$out" ]
ok $? "--paths without --pair: exit 2"
run topo-route --pair 1 "$TMPD/ring.topo"
[ "$rc" -eq 2 ] && printf '%s\n' "$err" | grep -q -- "--pair"
ok $? "--pair 1: exit 2 naming the option"
run topo-route --pair 0,1 --pairs "$TMPD/ring.topo"
[ "$rc" -eq 2 ] && [ -z "$out" ]
ok $? "--pair with --pairs: exit 2"
run topo-route -r dragonfly-min -o "$TMPD/out.tsv" "$TMPD/ring.topo"
[ "$rc" -eq 1 ] && [ ! -e "$TMPD/out.tsv" ]
ok $? "-o: no file left after an error"
run topo-route -o "$TMPD/out.tsv" "$TMPD/ring.topo"
[ "$rc" -eq 0 ] && [ -z "$out" ] && [ "$(head -n 1 "$TMPD/out.tsv")" = "$SHEAD" ]
ok $? "-o FILE written on success"

# --json: the same names and values as the TSV, one object per row.
for mode in "" "--pair 0,3" "--pair 0,3 --paths" "--pairs"; do
    topo-route -r valiant $mode "$TMPD/ring.topo" >"$TMPD/t.tsv"
    topo-route -r valiant $mode --json "$TMPD/ring.topo" >"$TMPD/t.json"
    /usr/bin/python3 - "$TMPD/t.tsv" "$TMPD/t.json" <<'PY'
import json, sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
objs = [json.loads(l) for l in open(sys.argv[2])]
head = rows[0]
assert len(objs) == len(rows) - 1 and len(objs) > 0
for r, o in zip(rows[1:], objs):
    assert list(o) == head, (list(o), head)
    for k, v in zip(head, r):
        assert str(o[k]) == v or float(o[k]) == float(v), (k, o[k], v)
PY
    ok $? "--json $mode: same columns and values as the TSV"
done

done_testing
