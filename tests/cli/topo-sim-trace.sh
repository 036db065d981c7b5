#!/bin/sh
# topo-sim --trace FILE (topo-sim(1), TRACE): one row per iteration of an
# adaptive solve, as many as the main output's iterations (a converging
# solve, one stopped by a small iteration cap, a sweep, epochs); the last
# row's residual, accepted, min_served, min_share and cost_min are the
# main row's; the main output does not change; the same bytes at 1 and
# 2 threads; errors (an unwritable file, an oblivious rule, -, --shard).
. "$TK_SRCDIR/tests/cli/lib.sh"

. "$TK_SRCDIR/tests/cli/sim-lib.sh"

topo-gen dragonfly a=4 h=2 p=2 >"$TMPD/df.topo"
DF="$TMPD/df.topo"
HDR="$(printf 'name\tpoint\trho\titeration\tresidual\tdamping\thalved\tstep\taccepted\tmin_served\tmin_share\tcost_min\tbneck_changed\tsignal_change')"

# tcol FILE COLUMN: the column of the trace's last row
tcol() {
    awk -F '\t' -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i } END { print $k }' "$1"
}

# --- one load: rows = iterations, the last row is the main row's ---------------
for case in "converging:ugal-l:0.5:converged" "capped:ugal-l,iter=5:0.9:iter"; do
    IFS=: read -r what rule rho stop <<EOT
$case
EOT
    topo-sim -r "$rule" -m 'shift offset=8' --rho "$rho" "$DF" >"$TMPD/plain.tsv" 2>/dev/null
    topo-sim -r "$rule" -m 'shift offset=8' --rho "$rho" --trace "$TMPD/tr.tsv" "$DF" >"$TMPD/main.tsv" 2>/dev/null
    cmp -s "$TMPD/plain.tsv" "$TMPD/main.tsv"
    ok $? "$what ($rule, rho $rho): the main output is unchanged by --trace"
    [ "$(head -n 1 "$TMPD/tr.tsv")" = "$HDR" ]
    ok $? "$what: the trace's header" || diag "$(head -n 1 "$TMPD/tr.tsv")"
    its=$(col "$TMPD/main.tsv" iterations)
    rows=$(($(wc -l <"$TMPD/tr.tsv") - 1))
    last=$(tcol "$TMPD/tr.tsv" iteration)
    [ "$rows" = "$its" ] && [ "$last" = "$its" ]
    ok $? "$what: $its iterations, $rows rows, the last numbered $last"
    [ "$(tcol "$TMPD/tr.tsv" step)" = "$stop" ]
    ok $? "$what: the last row's step is $stop" || diag "$(tcol "$TMPD/tr.tsv" step)"
    for c in residual accepted min_served min_share cost_min; do
        [ "$(tcol "$TMPD/tr.tsv" $c)" = "$(col "$TMPD/main.tsv" $c)" ]
        ok $? "$what: the last row's $c is the main output's" ||
            diag "$(tcol "$TMPD/tr.tsv" $c) vs $(col "$TMPD/main.tsv" $c)"
    done
    [ "$(awk -F '\t' 'NR == 2 { print $13 $14 }' "$TMPD/tr.tsv")" = "--" ]
    ok $? "$what: no previous iteration for the first row's changes"
done

# --- a sweep: every point's rows, in order, the same bytes at 1 and 2 threads -----
for rule in ugal-l ugal-le par; do
    topo-sim -r $rule -m 'shift offset=8' --sweep 0.3:0.9:0.3 --threads 1 --trace "$TMPD/t1" "$DF" >"$TMPD/m1" 2>/dev/null
    topo-sim -r $rule -m 'shift offset=8' --sweep 0.3:0.9:0.3 --threads 2 --trace "$TMPD/t2" "$DF" >"$TMPD/m2" 2>/dev/null
    topo-sim -r $rule -m 'shift offset=8' --sweep 0.3:0.9:0.3 --threads 2 "$DF" >"$TMPD/m0" 2>/dev/null
    [ -s "$TMPD/t1" ] && cmp -s "$TMPD/t1" "$TMPD/t2" && cmp -s "$TMPD/m1" "$TMPD/m2" &&
        cmp -s "$TMPD/m0" "$TMPD/m2"
    ok $? "$rule sweep: the trace's bytes at 1 and 2 threads, the main output unchanged"
    want=$(awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "iterations") k = i; next }
                        { printf "%d %s\n", NR - 1, $k }' "$TMPD/m1")
    got=$(awk -F '\t' 'NR > 1 { n[$2]++ } END { for (p in n) printf "%d %s\n", p, n[p] }' "$TMPD/t1" | sort -n)
    [ "$want" = "$got" ]
    ok $? "$rule sweep: each point's rows = its iterations" || diag "want $want" "got $got"
done

# --- epochs: one row per epoch, a damped step each ------------------------------
topo-sim -r ugal-l -m 'shift offset=8' --epochs 4 --rho 0.9 --trace "$TMPD/te" "$DF" >"$TMPD/me" 2>/dev/null
[ "$(awk -F '\t' 'NR > 1 { printf "%s:%s:%s ", $2, $4, $8 }' "$TMPD/te")" = \
    "1:1:damped 2:2:damped 3:3:damped 4:4:damped " ] &&
    [ "$(tcol "$TMPD/te" residual)" = "$(col "$TMPD/me" residual 4)" ]
ok $? "--epochs 4: four rows, numbered as the epochs, the last residual the main one's" ||
    diag "$(cat "$TMPD/te")"

# --- JSON -------------------------------------------------------------------------
topo-sim -r ugal-l,iter=3 -m 'shift offset=8' --json --trace "$TMPD/tj" "$DF" >/dev/null 2>&1
[ "$(wc -l <"$TMPD/tj")" -eq 3 ] && head -n 1 "$TMPD/tj" | grep -q '"bneck_changed":null,"signal_change":null}'
ok $? "--json: JSON Lines rows, null for the first row's changes" || diag "$(cat "$TMPD/tj")"

# --- errors -----------------------------------------------------------------------
run topo-sim -r ugal-l -m 'shift offset=8' --trace "$TMPD/no/such/dir/t.tsv" "$DF"
expect_fail 1 "^topo-sim: .*no/such/dir/t\.tsv: " "an unwritable trace: one line naming it, exit 1, no output"
rm -f "$TMPD/x.tsv"
run topo-sim -r min --trace "$TMPD/x.tsv" "$DF"
expect_rc 2 "--trace with an oblivious rule"
expect_err_match "^topo-sim: --trace needs an adaptive rule" "--trace with an oblivious rule: the message names --trace"
[ -z "$out" ] && [ ! -e "$TMPD/x.tsv" ]
ok $? "--trace with an oblivious rule: no output, no trace file"
run topo-sim -r ugal-l --trace - "$DF"
expect_rc 2 "--trace -"
expect_err_match "^topo-sim: --trace -: standard output carries the table" "--trace -: why"
run topo-sim -r ugal-l --trace "$TMPD/x.tsv" --shard 0/2 "$DF"
expect_rc 2 "--trace with --shard"
expect_err_match "^topo-sim: --trace writes one file in solve order: not with --shard" "--trace with --shard: why"
# a failing solve leaves no trace file
topo-gen rrg n=16 d=4 -p 2 -s 3 >"$TMPD/rrg.topo"
run topo-sim -r ugal-le -m server-perm --trace "$TMPD/x.tsv" "$TMPD/rrg.topo"
[ "$rc" -eq 1 ] && [ ! -e "$TMPD/x.tsv" ]
ok $? "a failing run leaves no trace file"

done_testing
