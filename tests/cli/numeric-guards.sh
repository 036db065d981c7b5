# numeric-guards: NaN, infinities, negative, zero and out-of-range numbers
# in every input that carries numbers are refused with one line naming the
# file and line (or the option), and counts that would overflow are
# refused, never printed (issue 27).  The fixed-point accumulators of the
# parallel driver: tests/unit/test_par.c; raw-path counts: topo-ksp.sh.
. "$TK_SRCDIR/tests/cli/lib.sh"

topo-gen ring n=5 >"$TMPD/ring.topo"
for v in nan inf -inf -1 0 1e400; do
    printf '0 1 - %s\n1 2\n' "$v" >"$TMPD/cap.edges"
    run topo-conv "$TMPD/cap.edges"
    expect_fail 1 "cap.edges:1: bad capacity '$v' \(must be a finite number > 0\)" "edge list capacity $v"
    sed "s/^0 1\$/0 1 - $v/" "$TMPD/ring.topo" >"$TMPD/cap.topo"
    run topo-conv "$TMPD/cap.topo"
    expect_fail 1 "cap.topo:[0-9]+: bad capacity '$v'" "native capacity $v"
    printf 'topokit-pattern 1\nlevel switch\nendpoints 5\ndemands 1\n0 1 %s\nend\n' "$v" >"$TMPD/w.pat"
    run topo-pattern file path="$TMPD/w.pat" "$TMPD/ring.topo"
    expect_fail 1 "w.pat:5: bad weight '$v' \(must be a finite number > 0\)" "pattern weight $v"
done
for v in nan inf; do
    printf '0 0 1 %s\n' "$v" >"$TMPD/size.wl"
    run topo-sim --workload "$TMPD/size.wl" "$TMPD/ring.topo"
    expect_fail 1 "^topo-sim: .*size.wl:1: size $v: must be a finite number > 0" "workload size $v: file and line"
    printf '%s 0 1 1\n' "$v" >"$TMPD/time.wl"
    run topo-sim --workload "$TMPD/time.wl" "$TMPD/ring.topo"
    expect_fail 1 "^topo-sim: .*time.wl:1: time $v: must be a finite number >= 0" "workload time $v: file and line"
    run topo-sim --rho "$v" "$TMPD/ring.topo"
    expect_rc 2 "--rho $v"
    expect_err_match "^topo-sim: --rho $v: not a finite number" "--rho $v: message"
    run topo-route -r "min,global=$v" "$TMPD/ring.topo"
    expect_rc 2 "hop length $v"
    expect_err_match "global=$v: hop length must be an integer" "hop length $v: message"
done
# sigma of a chain of 16 bundles of 256 parallel links: 256^16 = 2^128
# shortest paths from one end to the other, one more than 128 bits hold.
awk 'BEGIN { for (i = 0; i < 16; i++) for (j = 0; j < 256; j++) print i, i + 1 }' >"$TMPD/bundles.edges"
run topo-paths "$TMPD/bundles.edges"
expect_fail 1 "shortest-path count from switch 0 to switch 16 exceeds 2\^128-1" "sigma 2^128: refused"
# One bundle fewer: 2^120 fits and is printed exactly.
awk 'BEGIN { for (i = 0; i < 15; i++) for (j = 0; j < 256; j++) print i, i + 1 }' >"$TMPD/bundles15.edges"
run sh -c "topo-paths --pairs '$TMPD/bundles15.edges' | awk -F '\t' '\$2 == 0 && \$3 == 15 { print \$5 }'"
expect_out "1329227995784915872903807060280344576" "sigma 2^120: exact"
done_testing
