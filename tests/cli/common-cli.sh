# common-cli.sh - conventions every tool must follow (STYLE.md 5-6):
# --help on stdout with exit 0, --version, unknown options and missing
# operands are usage errors (exit 2, "Try ... --help" on stderr, nothing on
# stdout), a missing input file is a data error (exit 1) naming the file.
. "$TK_SRCDIR/tests/cli/lib.sh"

tools="topo-gen topo-conv topo-dist topo-bounds topo-bisect topo-paths topo-ksp topo-auto topo-pattern topo-route topo-load topo-antmill topo-medoid topo-mcf topo-stats topo-sim topo-vc topo-fail topo-merge topo-resilience topo-job"
for t in $tools; do
    run "$t" --help
    [ "$rc" -eq 0 ] && [ -z "$err" ] && printf '%s\n' "$out" | grep -q "^usage: $t"
    ok $? "$t --help prints usage on stdout, exit 0" || diag "rc=$rc" "$err"

    run "$t" -h
    [ "$rc" -eq 0 ] && printf '%s\n' "$out" | grep -q "^usage: $t"
    ok $? "$t -h is --help"

    run "$t" --version
    [ "$rc" -eq 0 ] && printf '%s\n' "$out" | grep -Eq "^$t \(topokit\) [0-9]+\.[0-9]+"
    ok $? "$t --version" || diag "$out"

    run "$t" --no-such-option
    [ "$rc" -eq 2 ] && [ -z "$out" ] && printf '%s\n' "$err" | grep -q "Try '$t --help'"
    ok $? "$t: unknown option is a usage error (exit 2)" || diag "rc=$rc" "$err"

    # --threads N: every tool but topo-stats, which makes one pass over a
    # column of numbers and has no such option (an unknown option there, so
    # these checks would pass without testing anything).  A valid N must be
    # accepted, so that the refusals below are the option's own.
    if [ "$t" != topo-stats ]; then
        run "$t" --threads 1 --help
        [ "$rc" -eq 0 ] && printf '%s\n' "$out" | grep -q "^usage: $t"
        ok $? "$t: --threads 1 accepted" || diag "rc=$rc" "$err"

        run "$t" --threads 0 --help
        [ "$rc" -eq 2 ] && [ -z "$out" ] && printf '%s\n' "$err" | grep -q -- "--threads"
        ok $? "$t: --threads 0 refused (exit 2)" || diag "rc=$rc" "$err"

        run "$t" --threads x
        [ "$rc" -eq 2 ] && [ -z "$out" ] && printf '%s\n' "$err" | head -n 1 |
            grep -q -- "^$t: --threads x: not an integer$"
        ok $? "$t: --threads x names the option and the value" || diag "rc=$rc" "$err"

        run "$t" --threads 4097
        [ "$rc" -eq 2 ] && printf '%s\n' "$err" | head -n 1 |
            grep -q -- "^$t: --threads 4097: must be between 1 and 4096$"
        ok $? "$t: --threads 4097 says the range" || diag "rc=$rc" "$err"
    fi
done

# Readers: a missing file is exit 1 with "tool: FILE: reason".
for t in topo-conv topo-dist topo-bounds topo-bisect topo-paths topo-ksp topo-auto topo-route topo-load topo-antmill topo-mcf; do
    run "$t" "$TMPD/does-not-exist"
    expect_fail 1 "^$t: .*does-not-exist: No such file or directory" "$t: missing input file"
    # Empty input.
    : >"$TMPD/empty"
    run "$t" "$TMPD/empty"
    [ "$rc" -eq 1 ] && printf '%s\n' "$err" | grep -Eq "^$t: .*empty.*(no graph|empty)"
    ok $? "$t: empty input is an error naming the file" || diag "rc=$rc" "$err"
done

# -o to an unwritable place is a runtime error, nothing written.
run topo-gen ring n=5 -o "$TMPD/no/such/dir/out"
[ "$rc" -eq 1 ] && [ ! -e "$TMPD/no/such/dir/out" ]
ok $? "topo-gen -o into a missing directory fails with exit 1" || diag "rc=$rc" "$err"

# Writing to a closed pipe / full device is reported.
if [ -c /dev/full ] && ! (echo x >/dev/full) 2>/dev/null; then
    topo-gen complete n=200 >/dev/full 2>"$TMPD/full.err"
    rc=$?
    [ "$rc" -eq 1 ] && grep -q "write error" "$TMPD/full.err"
    ok $? "topo-gen reports a write error on a full stdout (exit 1)" || diag "rc=$rc" "$(cat "$TMPD/full.err")"
fi

# Pipes compose: generate, convert through graph6, measure.
run sh -c 'topo-gen hypercube dim=4 | topo-conv -f graph6 | topo-dist | cut -f 2,6,9 | tail -n 1'
expect_out "$(printf '16\t4\t4')" "topo-gen | topo-conv | topo-dist pipeline (Q4: n 16, diameter 4, girth 4)"
done_testing
