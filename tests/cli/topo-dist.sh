# topo-dist: output shapes, values of known graphs, errors and exit codes.
. "$TK_SRCDIR/tests/cli/lib.sh"

T=$(printf '\t')
HEADER="name${T}n${T}arcs${T}directed${T}connected${T}diameter${T}radius${T}avg_distance${T}girth"

# Test inputs, derived by hand from the graph6/digraph6 definitions
# (n + 63, then the upper triangle column by column, 6 bits per byte + 63):
#  Petersen, outer 0-1-2-3-4-0, spokes i-(i+5), inner 5-7-9-6-8-5:
#   bits 1 01 001 1001 10000 010000 0010010 00010110 000010110 (+000)
#   -> 41 38 2 1 8 22 2 48 -> "IheA@GUAo"
#  C_6: 1 01 001 0001 10001 (+000) -> 41 6 8 -> "EhEG"
#  two disjoint edges 0-1, 2-3 on 4 vertices: 1 00 001 -> 33 -> "C\`"
#  directed 3-cycle 0->1->2->0, digraph6 '&', n, row-major matrix:
#   010 001 100 (+000) -> 17 32 -> "&BP_"
PETERSEN='IheA@GUAo'
C6='EhEG'
TWOEDGES='C`'
DC3='&BP_'

# --- summary rows -----------------------------------------------------------
echo "$PETERSEN" >"$TMPD/petersen.g6"
run_in "$TMPD/petersen.g6" topo-dist
expect_rc 0 "Petersen graph6"
expect_out "$HEADER
<stdin>#1${T}10${T}30${T}0${T}1${T}2${T}2${T}1.6666666666666667${T}5" \
    "Petersen: n 10, 30 arcs, diameter 2, radius 2, avg 15/9, girth 5"

run topo-dist "$TMPD/petersen.g6"
expect_out "$HEADER
$TMPD/petersen.g6#1${T}10${T}30${T}0${T}1${T}2${T}2${T}1.6666666666666667${T}5" \
    "graph name is FILE#INDEX for a named input"

if [ -s "$TK_SRCDIR/data/petersen.topo" ]; then
    run topo-dist "$TK_SRCDIR/data/petersen.topo"
    expect_rc 0 "data/petersen.topo"
    row=$(printf '%s\n' "$out" | sed -n 2p | cut -f2-)
    [ "$row" = "10${T}30${T}0${T}1${T}2${T}2${T}1.6666666666666667${T}5" ]
    ok $? "data/petersen.topo: same values as the graph6 Petersen" || diag "$out"
fi

printf '%s\n' "$C6" >"$TMPD/c6.g6"
run_in "$TMPD/c6.g6" topo-dist
expect_out "$HEADER
<stdin>#1${T}6${T}12${T}0${T}1${T}3${T}3${T}1.8${T}6" "C_6: diameter 3, avg 9/5, girth 6"

echo "$DC3" >"$TMPD/dc3.d6"
run_in "$TMPD/dc3.d6" topo-dist
expect_rc 0 "directed 3-cycle"
expect_out "$HEADER
<stdin>#1${T}3${T}3${T}1${T}1${T}2${T}2${T}1.5${T}3" \
    "directed C_3: diameter 2, avg 3/2, girth 3"

# Several graphs and several inputs: one header, rows in order.
printf '%s\n%s\n' "$C6" "$PETERSEN" >"$TMPD/two.g6"
run topo-dist "$TMPD/two.g6" - <"$TMPD/dc3.d6"
expect_rc 0 "two inputs"
names=$(printf '%s\n' "$out" | cut -f1 | tr '\n' ' ')
[ "$names" = "name $TMPD/two.g6#1 $TMPD/two.g6#2 <stdin>#1 " ]
ok $? "rows of every graph of every input, one header" || diag "$names"

# --- nauty pipe -------------------------------------------------------------
nauty-genrang -r4 10 20 2>/dev/null >"$TMPD/rr.g6"
run_in "$TMPD/rr.g6" topo-dist --allow-disconnected
expect_rc 0 "genrang -r4 10 20"
rows=$(printf '%s\n' "$out" | sed 1d | wc -l)
[ "$rows" -eq 20 ]
ok $? "genrang -r4 10 20 | topo-dist: 20 rows" || diag "$rows rows"
bad=$(printf '%s\n' "$out" | sed 1d | awk -F"$T" '$2 != 10 || $3 != 40 || $4 != 0' | wc -l)
[ "$bad" -eq 0 ]
ok $? "every row: n 10, 40 arcs, undirected"
run_in "$TMPD/rr.g6" topo-dist --allow-disconnected --threads 1
out1=$out
run_in "$TMPD/rr.g6" topo-dist --allow-disconnected --threads 2
[ "$out" = "$out1" ]
ok $? "same output with 1 and 2 threads"

# All connected graphs on 5 vertices: diameters as counted by geng itself.
nauty-geng -c 5 2>/dev/null >"$TMPD/g5.g6"
run_in "$TMPD/g5.g6" topo-dist
expect_rc 0 "geng -c 5 (21 graphs)"
rows=$(printf '%s\n' "$out" | sed 1d | wc -l)
[ "$rows" -eq 21 ]
ok $? "21 connected graphs on 5 vertices" || diag "$rows"
k5=$(printf '%s\n' "$out" | awk -F"$T" '$3 == 20' | cut -f5-)
[ "$k5" = "1${T}1${T}1${T}1${T}3" ]
ok $? "K_5 row: diameter 1, radius 1, avg 1, girth 3" || diag "$k5"
p5=$(printf '%s\n' "$out" | awk -F"$T" '$6 == 4' | cut -f5-)
[ "$p5" = "1${T}4${T}2${T}2${T}inf" ]
ok $? "P_5 is the only graph of diameter 4: avg 40/20 = 2, girth inf" || diag "$p5"

# --- disconnected -----------------------------------------------------------
echo "$TWOEDGES" >"$TMPD/two-edges.g6"
run_in "$TMPD/two-edges.g6" topo-dist
expect_rc 1 "disconnected graph"
expect_out "$HEADER
<stdin>#1${T}4${T}4${T}0${T}0${T}inf${T}inf${T}inf${T}inf" "disconnected row: inf columns"
lines=$(printf '%s\n' "$err" | grep -c .)
[ "$lines" -eq 1 ] && printf '%s\n' "$err" | grep -Eq '^topo-dist: warning: <stdin>: graph 1 .*not connected$'
ok $? "one-line warning naming input and graph index" || diag "$err"
run_in "$TMPD/two-edges.g6" topo-dist --allow-disconnected
expect_rc 0 "--allow-disconnected"
printf '%s\n' "$err" | grep -q 'not connected'
ok $? "--allow-disconnected still warns"

# A million switches, all but 10 isolated (a mistyped id under a header
# that declares them): the row is known from one search (all-pairs took
# minutes).
sed 's/top-edges switches 9 directed 00/topokit-edges switches 1000001 directed 0/' \
    "$DATA/io-edges-mistyped-id.txt" >"$TMPD/million.edges"
run topo-dist "$TMPD/million.edges"
expect_rc 1 "10^6 switches, disconnected"
[ "$(printf '%s\n' "$out" | sed -n 2p | cut -f2-)" = "1000001${T}28${T}0${T}0${T}inf${T}inf${T}inf${T}2" ]
ok $? "10^6 switches: inf row, girth 2 (the parallel link)" || diag "$out"

# Directed, not strongly connected: path 0->1->2 has a root.
# digraph6: 010 001 000 (+000) -> 17 0 -> "&BP?"
echo '&BP?' >"$TMPD/dpath.d6"
run_in "$TMPD/dpath.d6" topo-dist --allow-disconnected
expect_out "$HEADER
<stdin>#1${T}3${T}2${T}1${T}0${T}inf${T}2${T}inf${T}inf" \
    "directed path: radius 2 (root), diameter inf"
printf '%s\n' "$err" | grep -q 'not strongly connected'
ok $? "directed: warning says strongly connected"

# --- --ecc, --hist, --json --------------------------------------------------
run_in "$TMPD/c6.g6" topo-dist --ecc
expect_rc 0 "--ecc"
expect_out "name${T}switch${T}eccentricity
<stdin>#1${T}0${T}3
<stdin>#1${T}1${T}3
<stdin>#1${T}2${T}3
<stdin>#1${T}3${T}3
<stdin>#1${T}4${T}3
<stdin>#1${T}5${T}3" "--ecc: C_6 every eccentricity 3"
run_in "$TMPD/dpath.d6" topo-dist --ecc --allow-disconnected
expect_out "name${T}switch${T}eccentricity
<stdin>#1${T}0${T}2
<stdin>#1${T}1${T}inf
<stdin>#1${T}2${T}inf" "--ecc: out-eccentricities of a directed path"

run_in "$TMPD/c6.g6" topo-dist --hist
expect_rc 0 "--hist"
expect_out "name${T}distance${T}pairs
<stdin>#1${T}1${T}12
<stdin>#1${T}2${T}12
<stdin>#1${T}3${T}6" "--hist: C_6 12/12/6 ordered pairs"
run_in "$TMPD/two-edges.g6" topo-dist --hist --allow-disconnected
expect_out "name${T}distance${T}pairs
<stdin>#1${T}1${T}4
<stdin>#1${T}inf${T}8" "--hist: unreachable pairs in an inf row"

run_in "$TMPD/two.g6" topo-dist --json
expect_rc 0 "--json"
expect_out '{"name":"<stdin>#1","n":6,"arcs":12,"directed":false,"connected":true,"diameter":3,"radius":3,"avg_distance":1.8,"girth":6}
{"name":"<stdin>#2","n":10,"arcs":30,"directed":false,"connected":true,"diameter":2,"radius":2,"avg_distance":1.6666666666666667,"girth":5}' \
    "--json: one object per graph"
cat "$TMPD/two.g6" "$TMPD/two-edges.g6" >"$TMPD/three.g6"
run_in "$TMPD/three.g6" topo-dist --json --ecc --hist --allow-disconnected
expect_rc 0 "--json --ecc --hist combine"
lines=$(printf '%s\n' "$out" | wc -l)
[ "$lines" -eq 3 ]
ok $? "--json: three lines for three graphs"
if command -v python3 >/dev/null 2>&1; then
    good=0
    printf '%s\n' "$out" >"$TMPD/j.jsonl"
    while IFS= read -r line; do
        printf '%s\n' "$line" | python3 -m json.tool >/dev/null 2>&1 || good=1
    done <"$TMPD/j.jsonl"
    ok $good "--json: every line is valid JSON (python3 -m json.tool)"
fi
last=$(printf '%s\n' "$out" | sed -n 3p)
[ "$last" = '{"name":"<stdin>#3","n":4,"arcs":4,"directed":false,"connected":false,"diameter":"inf","radius":"inf","avg_distance":"inf","girth":"inf","ecc":["inf","inf","inf","inf"],"hist":[4,4],"unreachable":8}' ]
ok $? "--json: inf as \"inf\", ecc and hist arrays" || diag "$last"

# --- --max-diameter ---------------------------------------------------------
run_in "$TMPD/c6.g6" topo-dist --max-diameter 2
expect_rc 0 "--max-diameter exceeded is not an error"
expect_out "$HEADER
<stdin>#1${T}6${T}12${T}0${T}-${T}>2${T}-${T}-${T}6" "--max-diameter 2 on C_6: >2"
run_in "$TMPD/c6.g6" topo-dist --max-diameter 3
expect_out "$HEADER
<stdin>#1${T}6${T}12${T}0${T}1${T}3${T}3${T}1.8${T}6" "--max-diameter 3 on C_6: full row"
run_in "$TMPD/g5.g6" topo-dist --max-diameter 1
n1=$(printf '%s\n' "$out" | sed 1d | awk -F"$T" '$6 == 1' | wc -l)
[ "$n1" -eq 1 ]
ok $? "--max-diameter 1: only K_5 among connected 5-vertex graphs"

# --- errors -----------------------------------------------------------------
# usage_fail REGEX DESC: exit 2, nothing on stdout, message then usage hint.
usage_fail() {
    [ "$rc" -eq 2 ] && [ -z "$out" ] &&
        printf '%s\n' "$err" | head -n 1 | grep -Eq -- "^topo-dist: .*$1" &&
        printf '%s\n' "$err" | grep -q "topo-dist --help"
    ok $? "$2 (usage error, exit 2)" || diag "exit $rc" "stderr: $err" "stdout: $out"
}

printf '%s\nIhe\n%s\n' "$PETERSEN" "$C6" >"$TMPD/bad.g6"
run topo-dist "$TMPD/bad.g6"
expect_rc 1 "malformed record in the middle of a stream"
[ "$out" = "$HEADER
$TMPD/bad.g6#1${T}10${T}30${T}0${T}1${T}2${T}2${T}1.6666666666666667${T}5" ]
ok $? "rows of the graphs before the bad record stay" || diag "$out"
lines=$(printf '%s\n' "$err" | grep -c .)
[ "$lines" -eq 1 ] && printf '%s\n' "$err" | grep -Eq "^topo-dist: $TMPD/bad.g6:2: "
ok $? "error names file:line" || diag "$err"

run topo-dist "$TMPD/no-such-file"
expect_fail 1 "^topo-dist: $TMPD/no-such-file: No such file" "missing input"

: >"$TMPD/empty"
run topo-dist "$TMPD/empty"
expect_fail 1 "^topo-dist: $TMPD/empty: no graph in input" "empty input is an error"
run topo-dist "$TMPD/petersen.g6" "$TMPD/empty"
expect_rc 1 "an empty input among good ones"
[ "$(printf '%s\n' "$out" | wc -l)" -eq 2 ]
ok $? "rows of the good input stay"

# A graph without switches (graph6 '?', n = 0) has no distances.
echo '?' >"$TMPD/n0.g6"
run_in "$TMPD/n0.g6" topo-dist
expect_fail 1 "^topo-dist: <stdin>: graph 1: empty graph$" "n = 0 is a data error"

run topo-dist --progress "$TMPD/petersen.g6"
expect_rc 0 "--progress"
printf '%s\n' "$err" | grep -q "graph 1: n=10"
ok $? "--progress reports each graph on stderr" || diag "$err"

run topo-dist --bogus
usage_fail "unknown option" "unknown option"
run topo-dist --max-diameter 0
usage_fail "max-diameter" "--max-diameter 0"
run topo-dist --threads x
usage_fail "threads" "--threads x"
run topo-dist --threads 0
usage_fail "threads" "--threads 0"
run topo-dist --ecc --hist
usage_fail "ecc" "--ecc with --hist without --json"
run topo-dist --max-diameter 2 --ecc
usage_fail "max-diameter" "--max-diameter with --ecc"
run topo-dist -o
usage_fail "needs an argument" "-o without argument"
run topo-dist --help
expect_rc 0 "--help"
printf '%s\n' "$out" | grep -q '^usage: topo-dist'
ok $? "--help prints the usage on stdout"
run topo-dist --version
expect_rc 0 "--version"

# --- orbit acceleration: byte-identical with and without --no-symmetry -------
for spec in "torus sides=9,7" "hyperx sides=3,4,2" "kautz d=3 D=3" "mesh sides=6,5" \
    "debruijn d=2 D=5" "hypercube dim=6" "rrg n=300 d=5 -s 2" "gdbg n=50 r=3"; do
    topo-gen $spec >"$TMPD/sym.topo"
    a=$(topo-dist --json --ecc --hist --symmetry "$TMPD/sym.topo")
    b=$(topo-dist --json --ecc --hist --no-symmetry "$TMPD/sym.topo")
    c=$(topo-dist --json --ecc --hist "$TMPD/sym.topo")
    [ -n "$a" ] && [ "$a" = "$b" ] && [ "$a" = "$c" ]
    ok $? "$spec: --symmetry, --no-symmetry and the default give identical output" || diag "$a" "$b"
done
# Closed forms seen through the orbit path: C_n (one orbit) and the
# k x k torus: average distance of C_7 = (2 (1+2+3)) / 6 = 2.
run sh -c 'topo-gen ring n=7 | topo-dist --symmetry | cut -f6,7,8 | tail -n 1'
expect_out "3${T}3${T}2" "C_7 via one orbit: diameter 3, radius 3, average 2"
# --max-diameter with orbits: the 20x20 torus (diameter 20) stops at > 5.
run sh -c 'topo-gen torus sides=20,20 | topo-dist --max-diameter 5 | cut -f6 | tail -n 1'
expect_out ">5" "--max-diameter 5 on the 20x20 torus (orbit path)"

# --- -o atomic --------------------------------------------------------------
mkdir "$TMPD/o"
run topo-dist -o "$TMPD/o/res.tsv" "$TMPD/petersen.g6"
expect_rc 0 "-o FILE"
[ -z "$out" ] && [ "$(sed -n 2p "$TMPD/o/res.tsv" | cut -f6)" = 2 ]
ok $? "-o: rows in the file, nothing on stdout"
run topo-dist -o "$TMPD/o/bad.tsv" "$TMPD/bad.g6"
expect_rc 1 "-o with a bad input"
[ -z "$out" ] && [ "$(ls "$TMPD/o")" = res.tsv ]
ok $? "-o: no file and no temporary left after an error" || diag "$(ls -a "$TMPD/o")"
run topo-dist -o "$TMPD/o/disc.tsv" "$TMPD/two-edges.g6"
expect_rc 1 "-o with a disconnected graph"
[ "$(ls "$TMPD/o")" = res.tsv ]
ok $? "-o: nothing written when the exit status is 1"
run topo-dist -o "$TMPD/no-dir/x.tsv" "$TMPD/petersen.g6"
expect_fail 1 "no-dir" "-o into a missing directory"

done_testing
