# topo-conv: conversions through every format and back, cross-checks with
# the nauty tools, every bad input of tests/data/io-*, -o atomicity, usage.
. "$TK_SRCDIR/tests/cli/lib.sh"

PET="$TK_SRCDIR/data/petersen.topo"
HS="$TK_SRCDIR/data/hoffman-singleton.g6"
RICH="$DATA/io-good-rich.topo"
DIR="$DATA/io-good-directed.topo"
MULTI="$DATA/io-multi.topo"
have_nauty=0
command -v nauty-geng >/dev/null 2>&1 && command -v nauty-genrang >/dev/null 2>&1 &&
    command -v nauty-copyg >/dev/null 2>&1 && have_nauty=1

# strip_comments FILE: the file without '#' comment lines (the writer emits none).
strip_comments() { grep -v '^#' "$1"; }

# ---------------------------------------------------------------------------
# Usage.
run topo-conv --help
expect_rc 0 "--help"
printf '%s\n' "$out" | grep -q '^usage: topo-conv'
ok $? "--help prints the usage line on stdout"
run topo-conv --version
expect_rc 0 "--version"
run topo-conv -f xml "$PET"
expect_rc 2 "unknown output format"
expect_err_match "^topo-conv: -f xml: not an output format" "-f xml message"
run topo-conv -f auto "$PET"
expect_rc 2 "auto is not an output format"
run topo-conv -i dot "$PET"
expect_rc 2 "dot is not an input format"
run topo-conv "$PET" "$PET"
expect_rc 2 "two operands"
run topo-conv --threads 0 "$PET"
expect_rc 2 "--threads 0"
run topo-conv --bogus
expect_rc 2 "unknown option"
[ -z "$out" ]
ok $? "usage errors print nothing on stdout"
run topo-conv "$TMPD/does-not-exist"
expect_fail 1 "^topo-conv: .*does-not-exist: No such file" "missing input file"

# ---------------------------------------------------------------------------
# Native round trips (the test files are in the writer's canonical form).
run topo-conv "$RICH"
expect_out "$(cat "$RICH")" "rich native file rewrites byte-identically"
run topo-conv -i native "$DIR"
expect_out "$(cat "$DIR")" "directed native file rewrites byte-identically"
run topo-conv "$PET"
expect_out "$(strip_comments "$PET")" "petersen.topo rewrites byte-identically"
printf '%s\n' "$out" | grep -q '^spec petersen$' && [ "$(printf '%s\n' "$out" | grep -c '^[0-9]')" -eq 15 ]
ok $? "petersen.topo: spec petersen and 15 links"

# native -> edges -> native keeps spec, classes and capacities.
topo-conv -f edges "$PET" >"$TMPD/pet.edges"
run topo-conv "$TMPD/pet.edges"
expect_out "$(strip_comments "$PET")" "native -> edges -> native (Petersen)"
topo-conv -f edges "$DIR" >"$TMPD/dir.edges"
run topo-conv -i edges "$TMPD/dir.edges"
topo-conv -f edges "$DIR" | topo-conv | topo-conv -f edges >"$TMPD/dir2.edges"
cmp -s "$TMPD/dir.edges" "$TMPD/dir2.edges"
ok $? "edges -> native -> edges is byte-identical (directed, classes, capacities)"
run topo-conv -f edges "$MULTI"
topo-conv -f edges "$MULTI" | topo-conv >"$TMPD/multi.topo"
cmp -s "$TMPD/multi.topo" "$MULTI"
ok $? "native -> edges -> native (loops and parallel links)"

# graph6 / sparse6 of known graphs.
run topo-conv -f graph6 "$PET"
expect_out "IheA@GUAo" "Petersen in graph6"
run sh -c "topo-conv -f sparse6 '$PET' | topo-conv -f graph6"
expect_out "IheA@GUAo" "Petersen native -> sparse6 -> graph6"
run sh -c "topo-conv -f sparse6 '$PET' | topo-conv -f edges | topo-conv -f graph6"
expect_out "IheA@GUAo" "Petersen sparse6 -> edges -> graph6"
run sh -c "topo-conv '$HS' | topo-conv -f graph6"
expect_out "$(cat "$HS")" "Hoffman-Singleton graph6 -> native -> graph6"
run sh -c "topo-conv '$HS' | grep -c '^[0-9]'"
expect_out "175" "Hoffman-Singleton has 175 links"
run sh -c "topo-conv -f sparse6 '$MULTI' | topo-conv -f sparse6"
topo-conv -f sparse6 "$MULTI" >"$TMPD/multi.s6"
expect_out "$(cat "$TMPD/multi.s6")" "multigraph with loops: sparse6 -> sparse6"
run sh -c "topo-conv -f digraph6 '$DIR' | topo-conv -f digraph6 | topo-conv -f edges"
expect_out "# topokit-edges switches 4 directed 1
0 0
0 1
1 0
1 2
2 3
3 0" "directed graph through digraph6 keeps its arcs (classes dropped)"

# DOT.
run topo-conv -f dot "$PET"
[ "$rc" -eq 0 ] && [ "$(printf '%s\n' "$out" | grep -c ' -- ')" -eq 15 ] &&
    printf '%s\n' "$out" | grep -q '^graph topokit {$' && printf '%s\n' "$out" | grep -q 'label="petersen"'
ok $? "DOT: graph with label and 15 edges"
run topo-conv -f dot "$DIR"
printf '%s\n' "$out" | grep -q '^digraph topokit {$' &&
    printf '%s\n' "$out" | grep -q '  1 -> 2 \[label="up cap=2", color='
ok $? "DOT: digraph with class and capacity labels"

# ---------------------------------------------------------------------------
# Streams and -o.
run topo-conv -o "$TMPD/out.topo" "$RICH"
[ "$rc" -eq 0 ] && [ -z "$out" ] && cmp -s "$TMPD/out.topo" "$RICH"
ok $? "-o writes the file and nothing on stdout"
run topo-conv </dev/null
expect_fail 1 "^topo-conv: <stdin>: no graph in input$" "empty input is an error"
printf '# only comments\n\n' >"$TMPD/comments.topo"
run topo-conv -o "$TMPD/c.out" "$TMPD/comments.topo"
expect_fail 1 "^topo-conv: .*comments.topo: no graph in input$" "comments only: no graph in input"
[ ! -e "$TMPD/c.out" ]
ok $? "no graph in input: -o leaves no file"
run topo-conv -f edges "$RICH" "$RICH"
expect_rc 2 "edges: still one operand"
cat "$PET" "$PET" >"$TMPD/two.topo"
run topo-conv -f edges "$TMPD/two.topo"
[ "$rc" -eq 1 ] && printf '%s\n' "$err" | grep -q "two.topo: graph 2: an edge list holds a single graph"
ok $? "edges output refuses a second graph"
for f in edges graphml gml anynet caminos; do
    run topo-conv -f $f "$TMPD/two.topo"
    expect_fail 1 "two.topo: graph 2: .* holds a single graph" "-f $f on two graphs: exit 1 and nothing on stdout"
done
run topo-conv -f edges -o "$TMPD/two.edges" "$TMPD/two.topo"
[ "$rc" -eq 1 ] && [ ! -e "$TMPD/two.edges" ] && [ -z "$(ls -A "$TMPD" | grep topokit-tmp)" ]
ok $? "-o leaves no file (and no temporary) when a later graph fails"

# Unsupported conversions name the graph and suggest a format.
run topo-conv -f graph6 "$MULTI"
expect_fail 1 "^topo-conv: .*io-multi.topo: graph 1: graph6 needs a simple graph.*use sparse6 or native$" \
    "multigraph to graph6"
run topo-conv -f graph6 -o "$TMPD/m.g6" "$MULTI"
[ "$rc" -eq 1 ] && [ ! -e "$TMPD/m.g6" ]
ok $? "multigraph to graph6 with -o leaves no file"
cat "$PET" "$MULTI" >"$TMPD/mixed.topo"
run topo-conv -f graph6 "$TMPD/mixed.topo"
[ "$rc" -eq 1 ] && [ "$out" = "IheA@GUAo" ] &&
    printf '%s\n' "$err" | grep -q "mixed.topo: graph 2: graph6 needs a simple graph"
ok $? "failing graph 2 prints nothing of its own (graph 1 stays on stdout)"
run topo-conv -f digraph6 "$PET"
expect_fail 1 "graph 1: digraph6 holds directed graphs.*use graph6, sparse6 or native" \
    "undirected to digraph6"
run topo-conv -f sparse6 "$DIR"
expect_fail 1 "graph 1: sparse6 cannot hold a directed graph: use digraph6 or native" \
    "directed to sparse6"
run sh -c "topo-conv -f sparse6 '$PET' | topo-conv -i graph6"
expect_fail 1 "^topo-conv: <stdin>:1: expected graph6, found sparse6" "-i graph6 on sparse6 input"

# ---------------------------------------------------------------------------
# Every bad input: exit 1, one line FILE:LINE: message, nothing on stdout,
# no file with -o.
while IFS='|' read -r file line re; do
    [ -n "$file" ] || continue
    run topo-conv "$DATA/$file"
    expect_fail 1 "^topo-conv: .*/$file:$line: $re" "$file: line $line"
    run topo-conv -o "$TMPD/bad.out" "$DATA/$file"
    [ "$rc" -eq 1 ] && [ ! -e "$TMPD/bad.out" ]
    ok $? "$file: -o leaves no file"
done <<'EOF'
io-bad-magic.topo|2|missing 'topokit-graph 1' header line
io-bad-version.topo|1|unsupported version '7'
io-bad-key.topo|3|unknown header key 'radix'
io-dup-key.topo|4|duplicate 'servers' \(first at line 3\)
io-bad-id.topo|5|switch id 'two': not an integer
io-id-range.topo|5|switch id 3 out of range 0\.\.2
io-few-links.topo|6|wrong link count: 'links 3' at line 3 but only 2 link lines before 'end'
io-many-links.topo|5|wrong link count: more link lines than the 1 declared
io-truncated.topo|5|missing 'end' after the 2 links \(truncated input\?\)
io-junk.topo|4|trailing junk 'x'
io-bad-cap.topo|4|bad capacity '-1'
io-bad-class.topo|5|bad class name 'l@cal'
io-huge.topo|3|switches 4000000000: more than the maximum of 2147483646 switches
io-bad-len.g6|2|graph6: n=10 needs 8 bytes of adjacency data, found 6
io-bad-byte.s6|2|sparse6: bad byte ' '
io-bad-cap.edges|3|bad capacity '0'
io-edges-mistyped-id.txt|1|unknown header 'top-edges' \(expected '# topokit-edges switches N directed D'\)
io-edges-mistyped-noheader.txt|7|switch id 1000000 leaves 999990 of 1000001 switches without a link
EOF
# The same mistyped id under a header that declares the switches is taken
# as meant (isolated switches on purpose); a repeated line is a parallel
# link (an edge list is a multigraph), with a warning when the rest of the
# graph is simple; a graph with every link doubled is taken silently.
run sh -c "sed 's/top-edges switches 9 directed 00/topokit-edges switches 1000001 directed 0/' '$DATA/io-edges-mistyped-id.txt' | topo-conv -f edges | sed -n 1p"
expect_out "# topokit-edges switches 1000001 directed 0" "a header declares isolated switches"
grep -v '^#' "$DATA/io-edges-mistyped-id.txt" | sed 's/1000000/1/; s/3 48/3 4/' >"$TMPD/par.edges"
run topo-conv -f edges "$TMPD/par.edges"
expect_rc 0 "parallel link: accepted"
[ "$(printf '%s\n' "$out" | grep -c '^1 7$')" -eq 2 ]
ok $? "parallel link: both lines kept" || diag "$out"
expect_err_match "^topo-conv: warning: .*par.edges: graph 1: 1 parallel link \(switches 1 and 7 are joined more than once\)" \
    "parallel link: warning"
printf '0 1\n0 1\n1 2\n1 2\n2 0\n2 0\n' >"$TMPD/double.edges"
run topo-conv -f edges "$TMPD/double.edges"
[ "$rc" -eq 0 ] && [ -z "$err" ]
ok $? "every link doubled: a multigraph on purpose, no warning" || diag "$err"

run topo-conv -i native "$DATA/io-bad-magic.topo"
expect_fail 1 "io-bad-magic.topo:2: missing 'topokit-graph 1' header line \(found 'switches'\)" \
    "-i native: missing magic"
TOPOKIT_MEMORY_LIMIT=1M run topo-conv "$DATA/io-big.topo"
expect_fail 1 "io-big.topo:2: switches 10000000: graph would need .* above the memory limit of 1.0 MiB \(TOPOKIT_MEMORY_LIMIT\)" \
    "memory limit refusal"
run sh -c "printf '0 1\n1 50000000\n' | TOPOKIT_MEMORY_LIMIT=1M topo-conv"
expect_fail 1 "^topo-conv: <stdin>:2: switch id 50000000: graph would need" "edge list id above the memory limit"
run sh -c "printf '~~~~~~~~\n' | topo-conv"
expect_fail 1 "^topo-conv: <stdin>:1: graph6 header n=68719476735: more than the maximum" "graph6 huge n"

# ---------------------------------------------------------------------------
# Cross-checks with nauty.
if [ "$have_nauty" -eq 1 ]; then
    nauty-geng -cq 5 >"$TMPD/g5.g6" 2>/dev/null
    run sh -c "topo-conv '$TMPD/g5.g6' | topo-conv -f graph6"
    expect_out "$(cat "$TMPD/g5.g6")" "geng -c 5 -> native -> graph6 is byte-identical (21 graphs)"
    nauty-copyg -sq "$TMPD/g5.g6" >"$TMPD/g5.s6" 2>/dev/null
    run topo-conv -f sparse6 "$TMPD/g5.g6"
    expect_out "$(cat "$TMPD/g5.s6")" "graph6 -> sparse6 equals nauty-copyg -s"
    nauty-geng -q 8 0:3 >"$TMPD/g8.g6" 2>/dev/null
    nauty-copyg -sq "$TMPD/g8.g6" >"$TMPD/g8.s6" 2>/dev/null
    run topo-conv -f sparse6 "$TMPD/g8.g6"
    expect_out "$(cat "$TMPD/g8.s6")" "n=8 sparse6 padding cases equal nauty-copyg -s"
    nauty-genrang -g -S7 -r4 10 20 2>/dev/null >"$TMPD/r4.g6"
    run sh -c "topo-conv -f native <'$TMPD/r4.g6' | topo-conv -f graph6"
    expect_out "$(cat "$TMPD/r4.g6")" "genrang -g -r4 10 20 | native | graph6 equals the input"
    nauty-genrang -S7 -r4 10 20 2>/dev/null >"$TMPD/r4.s6"
    run sh -c "topo-conv -f native <'$TMPD/r4.s6' | topo-conv -f sparse6"
    expect_out "$(cat "$TMPD/r4.s6")" "genrang -r4 10 20 (sparse6) | native | sparse6 equals the input"
    nauty-genrang -S3 -l1 -m2 -r4 16 20 2>/dev/null >"$TMPD/lm.s6"
    run sh -c "topo-conv <'$TMPD/lm.s6' | topo-conv -f sparse6"
    expect_out "$(cat "$TMPD/lm.s6")" "loops and multi-edges (genrang -l1 -m2) survive sparse6"
    nauty-genrang -z -S5 -P1/3 9 20 2>/dev/null >"$TMPD/z.d6"
    run sh -c "topo-conv <'$TMPD/z.d6' | topo-conv -f digraph6"
    expect_out "$(cat "$TMPD/z.d6")" "genrang -z digraph6 round trip"
    run sh -c "topo-conv -f graph6 '$PET' | nauty-listg -eq 2>/dev/null | tail -n 1"
    # Petersen's edges as nauty-listg prints them: "u v" pairs on one line.
    expect_out "0 1  0 4  0 5  1 2  1 6  2 3  2 7  3 4  3 8  4 9  5 7  5 8  6 8  6 9  7 9" \
        "nauty-listg reads our Petersen graph6"
    run sh -c "printf '>>graph6<<C~\n' | topo-conv -f graph6"
    expect_out "C~" ">>graph6<< header accepted"
else
    ok 0 "# SKIP nauty tools not installed"
fi

done_testing
