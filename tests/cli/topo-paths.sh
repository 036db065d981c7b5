# topo-paths: shortest-path counts by distance and per pair; values of known
# graphs, parallel links, overflow, errors and exit codes.
. "$TK_SRCDIR/tests/cli/lib.sh"

T=$(printf '\t')
HEADER="name${T}distance${T}pairs${T}sigma_min${T}sigma_avg${T}sigma_max${T}unique_fraction"
# graph6 strings derived by hand in tests/cli/topo-dist.sh.
PETERSEN='IheA@GUAo'
C6='EhEG'
TWOEDGES='C`'
DC3='&BP_'

# --- known graphs -----------------------------------------------------------
echo "$PETERSEN" >"$TMPD/petersen.g6"
run_in "$TMPD/petersen.g6" topo-paths
expect_rc 0 "Petersen"
expect_out "$HEADER
<stdin>#1${T}1${T}30${T}1${T}1${T}1${T}1
<stdin>#1${T}2${T}60${T}1${T}1${T}1${T}1
<stdin>#1${T}all${T}90${T}1${T}1${T}1${T}1" \
    "Petersen (girth 5): every shortest path unique at distances 1 and 2"

# Q_4: 16 * C(4,d) ordered pairs at distance d, each with d! shortest paths;
# all: sum 16*(4*1 + 6*2 + 4*6 + 1*24) / 240 = 64/15, unique 64/240.
run sh -c 'topo-gen hypercube dim=4 | topo-paths'
expect_out "$HEADER
hypercube dim=4${T}1${T}64${T}1${T}1${T}1${T}1
hypercube dim=4${T}2${T}96${T}2${T}2${T}2${T}0
hypercube dim=4${T}3${T}64${T}6${T}6${T}6${T}0
hypercube dim=4${T}4${T}16${T}24${T}24${T}24${T}0
hypercube dim=4${T}all${T}240${T}1${T}4.266666666666667${T}24${T}0.26666666666666666" \
    "Q_4: sigma = d!, pairs 16*C(4,d)"

# Q_12: 12! = 479001600 between antipodes.
row=$(topo-gen hypercube dim=12 | topo-paths --threads 2 | awk -F"$T" '$2 == 12')
[ "$row" = "hypercube dim=12${T}12${T}4096${T}479001600${T}479001600${T}479001600${T}0" ]
ok $? "Q_12: 12! shortest paths between antipodes" || diag "$row"

printf '%s\n' "$C6" >"$TMPD/c6.g6"
run_in "$TMPD/c6.g6" topo-paths
expect_out "$HEADER
<stdin>#1${T}1${T}12${T}1${T}1${T}1${T}1
<stdin>#1${T}2${T}12${T}1${T}1${T}1${T}1
<stdin>#1${T}3${T}6${T}2${T}2${T}2${T}0
<stdin>#1${T}all${T}30${T}1${T}1.2${T}2${T}0.8" "C_6: antipodal pairs have 2 shortest paths"

# 4 x 5 mesh: from the corner (0,0) to (i,j) C(i+j, i) paths; the largest
# count, between opposite corners, is C(7,3) = 35.
run sh -c 'topo-gen mesh sides=4,5 | topo-paths | awk -F"\t" "\$2 == 7"'
[ "$(printf '%s\n' "$out" | cut -f3,4,6)" = "4${T}35${T}35" ]
ok $? "4x5 mesh: 4 ordered pairs at distance 7 (corners), C(7,3) = 35 paths" || diag "$out"

run sh -c 'topo-gen complete n=6 | topo-paths | tail -n 1'
expect_out "complete n=6${T}all${T}30${T}1${T}1${T}1${T}1" "K_6: unique everywhere"

echo "$DC3" >"$TMPD/dc3.d6"
run_in "$TMPD/dc3.d6" topo-paths
expect_out "$HEADER
<stdin>#1${T}1${T}3${T}1${T}1${T}1${T}1
<stdin>#1${T}2${T}3${T}1${T}1${T}1${T}1
<stdin>#1${T}all${T}6${T}1${T}1${T}1${T}1" "directed 3-cycle: distances 1 and 2, unique"

# --- parallel links and self-loops -------------------------------------------
# C_4 0-1-2-3-0 with the link 0-1 doubled and a self-loop at 2: from 0,
# sigma(0,1) = 2, sigma(0,2) = 2 (via 1) + 1 (via 3) = 3, sigma(0,3) = 1.
cat >"$TMPD/multi.topo" <<'EOF'
topokit-graph 1
switches 4
directed 0
links 6
0 1
0 1
1 2
2 3
3 0
2 2
end
EOF
run topo-paths --pairs "$TMPD/multi.topo"
expect_rc 0 "--pairs on a multigraph"
first=$(printf '%s\n' "$out" | sed -n 2,4p | cut -f2-)
[ "$first" = "0${T}1${T}1${T}2
0${T}2${T}2${T}3
0${T}3${T}1${T}1" ]
ok $? "parallel links are different paths; self-loops are on none" || diag "$out"
rows=$(printf '%s\n' "$out" | sed 1d | wc -l)
[ "$rows" -eq 12 ]
ok $? "--pairs: n(n-1) = 12 rows" || diag "$rows"
[ "$(printf '%s\n' "$out" | head -n 1)" = "name${T}src${T}dst${T}distance${T}sigma" ]
ok $? "--pairs header"

# 3^80 fits in 128 bits, 3^81 does not: a path of 81 (82) switches with
# every link tripled.
if command -v bc >/dev/null 2>&1; then
    tripled_path 81 >"$TMPD/t81.topo"
    tripled_path 82 >"$TMPD/t82.topo"
    want=$(echo '3^80' | BC_LINE_LENGTH=0 bc)
    run topo-paths "$TMPD/t81.topo"
    got=$(printf '%s\n' "$out" | awk -F"$T" '$2 == 80 { print $4 }')
    [ "$rc" -eq 0 ] && [ "$got" = "$want" ]
    ok $? "3^80 shortest paths printed exactly (bc: $want)" || diag "got $got"
    run topo-paths "$TMPD/t82.topo"
    expect_fail 1 "^topo-paths: $TMPD/t82.topo: graph 1: .*exceeds 2\^128-1" \
        "3^81 > 2^128-1: refused with a one-line error"
fi

# --- disconnected, JSON, threads -----------------------------------------------
echo "$TWOEDGES" >"$TMPD/two-edges.g6"
run_in "$TMPD/two-edges.g6" topo-paths
expect_rc 0 "disconnected graph"
expect_out "$HEADER
<stdin>#1${T}1${T}4${T}1${T}1${T}1${T}1
<stdin>#1${T}all${T}4${T}1${T}1${T}1${T}1
<stdin>#1${T}inf${T}8${T}0${T}0${T}0${T}0" "unreachable pairs in an inf row"
run_in "$TMPD/two-edges.g6" topo-paths --pairs
printf '%s\n' "$out" | grep -q "^<stdin>#1${T}0${T}2${T}inf${T}0\$"
ok $? "--pairs: unreachable pair has distance inf, sigma 0"

if command -v python3 >/dev/null 2>&1; then
    run_in "$TMPD/c6.g6" topo-paths --json
    v=$(printf '%s\n' "$out" | python3 -c 'import json,sys; j=json.loads(sys.stdin.read()); print(j["distances"][2]["sigma_max"], j["all"]["pairs"], j["all"]["unique_fraction"], j["unreachable"])' 2>&1)
    [ "$v" = "2 30 0.8 0" ]
    ok $? "--json: one valid object with distances, all and unreachable" || diag "$v" "$out"
    run_in "$TMPD/multi.topo" topo-paths --json --pairs
    v=$(printf '%s\n' "$out" | python3 -c 'import json,sys; r=[json.loads(l) for l in sys.stdin]; print(len(r), r[1]["sigma"], r[1]["distance"])' 2>&1)
    [ "$v" = "12 3 2" ]
    ok $? "--json --pairs: one valid object per pair" || diag "$v"
fi

topo-gen rrg n=200 d=5 -s 3 >"$TMPD/rrg.topo"
run topo-paths --threads 1 "$TMPD/rrg.topo"
out1=$out
run topo-paths --threads 2 "$TMPD/rrg.topo"
[ "$out" = "$out1" ] && [ -n "$out" ]
ok $? "same output with 1 and 2 threads"
# The pairs column agrees with topo-dist --hist.
h1=$(topo-dist --hist "$TMPD/rrg.topo" | sed 1d | cut -f2,3)
h2=$(printf '%s\n' "$out" | sed 1d | grep -v "${T}all${T}" | cut -f2,3)
[ "$h1" = "$h2" ]
ok $? "pairs per distance = topo-dist --hist" || diag "$h1" "$h2"

# --- errors -----------------------------------------------------------------
usage_fail() {
    [ "$rc" -eq 2 ] && [ -z "$out" ] &&
        printf '%s\n' "$err" | head -n 1 | grep -Eq -- "^topo-paths: .*$1" &&
        printf '%s\n' "$err" | grep -q "topo-paths --help"
    ok $? "$2 (usage error, exit 2)" || diag "exit $rc" "stderr: $err" "stdout: $out"
}
run topo-paths --bogus
usage_fail "unknown option" "unknown option"
run topo-paths --threads 0
usage_fail "threads" "--threads 0"
run topo-paths -o
usage_fail "needs an argument" "-o without argument"

run topo-paths "$TMPD/no-such-file"
expect_fail 1 "^topo-paths: $TMPD/no-such-file: No such file" "missing input"
: >"$TMPD/empty"
run topo-paths "$TMPD/empty"
expect_fail 1 "^topo-paths: $TMPD/empty: no graph in input" "empty input"
echo '?' >"$TMPD/n0.g6"
run_in "$TMPD/n0.g6" topo-paths
expect_fail 1 "^topo-paths: <stdin>: graph 1: empty graph$" "n = 0"
printf '%s\nIhe\n' "$PETERSEN" >"$TMPD/bad.g6"
run topo-paths "$TMPD/bad.g6"
expect_rc 1 "malformed second record"
printf '%s\n' "$err" | grep -Eq "^topo-paths: $TMPD/bad.g6:2: "
ok $? "error names file:line" || diag "$err"

mkdir "$TMPD/o"
run topo-paths -o "$TMPD/o/res.tsv" "$TMPD/petersen.g6"
expect_rc 0 "-o FILE"
[ -z "$out" ] && [ "$(sed -n 2p "$TMPD/o/res.tsv" | cut -f3)" = 30 ]
ok $? "-o: rows in the file"
run topo-paths -o "$TMPD/o/bad.tsv" "$TMPD/bad.g6"
[ "$rc" -eq 1 ] && [ "$(ls "$TMPD/o")" = res.tsv ]
ok $? "-o: no file left after an error" || diag "$(ls -a "$TMPD/o")"
if [ -f "$TMPD/t82.topo" ]; then
    run topo-paths -o "$TMPD/o/big.tsv" "$TMPD/petersen.g6" "$TMPD/t82.topo"
    [ "$rc" -eq 1 ] && [ "$(ls "$TMPD/o")" = res.tsv ]
    ok $? "-o: overflow in the second input leaves no file"
fi

done_testing
