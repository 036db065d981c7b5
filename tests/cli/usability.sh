#!/bin/sh
# usability.sh - what a new user trips over (issue 25): one section per item
# of the issue, each checking the whole family of tools the item concerns
# (the item's siblings), not only the sample the issue reproduced.
. "${TK_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/cli/lib.sh"
T=$(printf '\t')

# --- item 2: one policy for graphs that are not connected ---------------------
# topokit(7): every tool that measures or routes between pairs refuses a
# graph that is not (strongly) connected: exit 1, one line naming the graph,
# no row (topo-dist prints its row, since connectivity is what it measures,
# and exits 1 unless --allow-disconnected; topo-paths counts the
# unreachable pairs in its row of distance inf).
printf '0 1\n2 3\n' >"$TMPD/two.txt"
printf 'topokit-graph 1\nswitches 3\ndirected 1\nlinks 2\n0 1\n1 2\nend\n' >"$TMPD/path.topo"
for tool in topo-ksp topo-mcf topo-load topo-route topo-sim topo-bisect topo-antmill; do
    run $tool "$TMPD/two.txt"
    expect_fail 1 "not connected" "$tool: two components: exit 1, one line, no row"
done
for tool in topo-ksp topo-mcf topo-load; do
    run $tool "$TMPD/path.topo"
    expect_fail 1 "not (strongly )?connected" "$tool: a directed path (not strongly connected): exit 1"
done
run topo-dist "$TMPD/two.txt"
[ "$rc" -eq 1 ] && printf '%s\n' "$out" | grep -q "${T}0${T}inf${T}"
ok $? "topo-dist: the row (connected 0) and exit 1" || diag "$out" "$err"
run topo-dist --allow-disconnected "$TMPD/two.txt"
expect_rc 0 "topo-dist --allow-disconnected: exit 0"
run topo-paths "$TMPD/two.txt"
[ "$rc" -eq 0 ] && printf '%s\n' "$out" | grep -q "^[^$T]*${T}inf${T}8${T}"
ok $? "topo-paths: the 8 unreachable ordered pairs in the inf row" || diag "$out" "$err"

# --- item 5: topo-mcf --time-limit keeps its certified interval ---------------
topo-gen rrg n=300 d=10 -s 1 >"$TMPD/r300.topo"
run topo-mcf -m all-to-all --method approx --eps 0.000001 --time-limit 0.3 "$TMPD/r300.topo"
[ "$rc" -eq 0 ] && [ -z "$err" ] && [ "$(printf '%s\n' "$out" | head -1 | cut -f 4,6,10)" = "theta${T}upper_bound${T}status" ] &&
    printf '%s\n' "$out" | awk -F '\t' 'NR == 2 { exit !($4 > 0 && $6 > $4 && $10 == "time-limit") }'
ok $? "topo-mcf --time-limit (approx): the row has theta <= upper_bound and status time-limit, exit 0" ||
    diag "$out" "$err"
run topo-mcf --progress -m all-to-all "$TMPD/r300.topo"
[ "$rc" -eq 0 ] && printf '%s\n' "$err" | grep -q "^topo-mcf: rrg n=300 d=10 s=1: all-to-all: theta in \[" &&
    [ "$(printf '%s\n' "$out" | awk -F '\t' 'NR == 2 { print $10 }')" = optimal ]
ok $? "topo-mcf --progress: the interval on stderr, status optimal in the row" || diag "$out" "$err"

done_testing
