#!/bin/sh
# --progress in every long-running tool: standard output is byte-identical
# with and without it; on standard error (not a terminal here) every meter
# line is well formed (percentage in [0, 100], not decreasing within a
# phase, a final "done in" line per phase, 100% where the total is known,
# rate only where it is not); TOPOKIT_PROGRESS_INTERVAL=0 makes the loops
# report at every step, so a tool whose loop does not count shows no
# intermediate line and fails.  Then the terminal form (script(1)): one line
# rewritten with carriage returns.  And topo-sim --sweep's offered loads are
# the decimals given.
. "$TK_SRCDIR/tests/cli/lib.sh"

topo-gen rrg n=32 d=4 -p 2 -s 1 >"$TMPD/g" || exit 1
topo-gen rrg n=16 d=4 -s 3 >"$TMPD/small" || exit 1
topo-pattern server-perm -s 2 "$TMPD/g" >"$TMPD/pat" || exit 1

# check NAME CMD...: the command with and without --progress.
check() {
    name=$1
    shift
    "$@" >"$TMPD/out0" 2>"$TMPD/err0"
    rc0=$?
    TOPOKIT_PROGRESS_INTERVAL=0 "$@" --progress >"$TMPD/out1" 2>"$TMPD/err1"
    rc1=$?
    ok "$([ $rc0 = 0 ] && [ $rc1 = 0 ] && echo 0 || echo 1)" "$name: exit 0 with and without --progress"
    cmp -s "$TMPD/out0" "$TMPD/out1"
    ok $? "$name: standard output byte-identical with --progress"
    ok "$([ -s "$TMPD/out0" ] && echo 0 || echo 1)" "$name: standard output not empty"
    tool=${name%% *}
    awk -v tool="$tool" '
        # meter lines end with an ETA, "done in ...", or the unknown-total tail
        /, (ETA [^,]*|done in [0-9:.]+( s)?)$/ || / \(total unknown\)$/ {
            if (index($0, tool ": ") != 1) { print "not the tool'"'"'s name: " $0; bad = 1 }
            if ($0 ~ /total unknown/) {
                if ($0 !~ /: [0-9]+ [a-z -]+, [0-9.e+]+ [a-z -]+\/s, (elapsed|done in) [0-9:.]+( s)? \(total unknown\)$/) {
                    print "malformed: " $0; bad = 1
                }
                unknown++
                if ($0 ~ /done in/) finals++
                else steps++
                next
            }
            if (!match($0, /: [0-9]+\.[0-9]% \([0-9]+ of [0-9]+ [a-z -]+\), [0-9.e+]+ [a-z -]+\/s, (ETA ([0-9.]+ s|[0-9:]+|unknown)|done in [0-9:.]+( s)?)$/)) {
                print "malformed: " $0; bad = 1; next
            }
            s = substr($0, RSTART + 2)
            pct = s + 0
            split(s, w, /[( ]/)
            if (pct < 0 || pct > 100) { print "percentage out of range: " $0; bad = 1 }
            if (pct < last) { print "percentage decreased: " $0; bad = 1 }
            last = pct
            if ($0 ~ /done in/) {
                finals++
                if (pct != 100) { print "final line not at 100%: " $0; bad = 1 }
                last = 0
            } else steps++
            next
        }
        END {
            if (!finals) { print "no final line"; bad = 1 }
            if (!steps) { print "no intermediate line"; bad = 1 }
            exit bad
        }' "$TMPD/err1" >"$TMPD/why"
    ok $? "$name: progress lines well formed on standard error" || diag "$(cat "$TMPD/why" "$TMPD/err1" | head -n 20)"
    # Without --progress (standard error is not a terminal): no meter.
    ! grep -q ' done in ' "$TMPD/err0"
    ok $? "$name: no meter without --progress"
}

check topo-dist topo-dist "$TMPD/g"
check topo-paths topo-paths "$TMPD/g"
check "topo-paths --pairs" topo-paths --pairs "$TMPD/g"
check topo-ksp topo-ksp -k 3 "$TMPD/g"
check topo-load topo-load "$TMPD/g"
check "topo-load -P" topo-load -P "$TMPD/pat" -r ksp:2 "$TMPD/g"
# (without the time column)
check topo-mcf sh -c 'topo-mcf --method approx --eps 0.1 "$@" | cut -f 1-8,10-' sh "$TMPD/g"
check "topo-sim --sweep" topo-sim --sweep 0.2:0.6:0.2 "$TMPD/g"
check "topo-sim --epochs" topo-sim -r ugal-l --epochs 3 "$TMPD/g"
check "topo-sim --poisson" topo-sim --poisson --count 200 --rho 0.5 -s 1 "$TMPD/g"
check "topo-route --dump" topo-route --dump next "$TMPD/g"
check topo-vc topo-vc -r min -v none "$TMPD/g"
# (without the time column)
check topo-antmill sh -c 'topo-antmill --hat -s 1 "$@" | cut -f 1-13' sh "$TMPD/small"
check topo-medoid topo-medoid rrg n=16 d=4 --samples 3
check topo-pattern topo-pattern server-perm --stats -s 2 "$TMPD/g"
check topo-auto topo-auto "$TMPD/g"
topo-dist "$TMPD/g" >"$TMPD/dist" || exit 1
check topo-stats topo-stats -c avg_distance "$TMPD/dist"

# The terminal form: carriage returns, erase to the end of the line, a
# newline at the end of the phase; standard output untouched.
if command -v script >/dev/null 2>&1 &&
    script -qfec true "$TMPD/ts0" >/dev/null 2>&1; then
    script -qfec "topo-dist '$TMPD/g' >'$TMPD/ttyout'" "$TMPD/ts" >/dev/null 2>&1
    grep -q "$(printf '\r')topo-dist: .*distances: 100.0% .*done in" "$TMPD/ts"
    ok $? "terminal: the meter line is rewritten with a carriage return" ||
        diag "$(od -c "$TMPD/ts" | head -n 20)"
    topo-dist "$TMPD/g" | cmp -s - "$TMPD/ttyout"
    ok $? "terminal: standard output unchanged"
else
    ok 0 "# SKIP script(1) cannot open a pseudo-terminal here"
fi

# topo-sim --sweep: the offered loads are the decimals A + i STEP (0.3, not
# 0.30000000000000004).
run sh -c "topo-sim --sweep 0.1:0.7:0.1 '$TMPD/g' | cut -f 5 | tail -n +2 | tr '\n' ' '"
expect_out "0.1 0.2 0.3 0.4 0.5 0.6 0.7 " "topo-sim --sweep 0.1:0.7:0.1: rho is the decimal given"
run sh -c "topo-sim --sweep 0.05:0.35:0.05 '$TMPD/g' | cut -f 5 | tail -n +2 | tr '\n' ' '"
expect_out "0.05 0.1 0.15 0.2 0.25 0.3 0.35 " "topo-sim --sweep 0.05:0.35:0.05: rho is the decimal given"

done_testing
