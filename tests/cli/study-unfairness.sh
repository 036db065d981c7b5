# data/studies/dfly-unfairness.sh at its default size (h = 3: 19 groups of
# 6 routers, 342 servers), MIN rows only, so that it takes seconds:
# the three tables' shape and table 3's roles.  On the palmtree
# arrangement R_out, the router holding the global links to group 0's
# ADVc destination groups, is router a - 1 = 5 (the unfairness paper's
# Figure 8) and R_in router 0.  A regression test: table 3 lost its roles
# when topo-pattern began writing patterns of more than 4096 demands (ADVc
# here has 18468; at h = 2, 1152) as their spec line.  Under MIN every
# router of group 0 gets the ADVc bound h / (a p) = 1/6 per server with
# fair arbitration, and R_out nothing under in-transit priority.
# --plot draws table 3's runs router by router (a PNG when gnuplot is
# installed, as CI has it), from the same numbers.
. "$TK_SRCDIR/tests/cli/lib.sh"

sh "$TK_SRCDIR/data/studies/dfly-unfairness.sh" --patterns ADVc --mechs MIN \
    --arbs 'fair transit' --keep "$TMPD/K" >"$TMPD/out" 2>"$TMPD/err"
ok $? "dfly-unfairness.sh (h = 3, MIN) runs" || diag "$(tail -n 5 "$TMPD/err")"

[ "$(grep -c '^# table' "$TMPD/out")" -eq 3 ]
ok $? "three tables"
awk '/^# table 3/ { f = 1; next } f' "$TMPD/out" >"$TMPD/t3"
[ "$(head -n 1 "$TMPD/t3")" = "$(printf 'mechanism\tarbitration\tR_out(5)\tR_in(0)\tothers_mean\tothers_min\tothers_max')" ]
ok $? "table 3: R_out is router 5, R_in router 0" || diag "$(head -n 1 "$TMPD/t3")"
[ "$(awk -F '\t' '$1 == "MIN" && $2 == "fair" { print $3, $4, $5, $6, $7 }' "$TMPD/t3")" = \
    "0.1667 0.1667 0.1667 0.1667 0.1667" ]
ok $? "table 3, MIN under fair: every router of group 0 at h/(a p) = 1/6" || diag "$(cat "$TMPD/t3")"
[ "$(awk -F '\t' '$1 == "MIN" && $2 == "transit" { print $3 }' "$TMPD/t3")" = "0.0000" ]
ok $? "table 3, MIN under transit: R_out starves"
[ "$(awk -F '\t' 'NR > 1 && $3 == "NA"' "$TMPD/t3" | wc -l)" -eq 0 ]
ok $? "table 3: every row measured"
# each load runs once: the paper's 0.40 (table 2) and table 3's 0.4 are
# one run, so MIN has two per arbitration (0.05 and 0.4)
[ "$(ls "$TMPD/K" | grep -c '^t2-ADVc-MIN-.*\.tsv$')" -eq 4 ] && [ ! -e "$TMPD/K/t2-ADVc-MIN-fair-0.40.tsv" ]
ok $? "table 2 and 3: each load of a row runs once" || diag "$(ls "$TMPD/K")"

# --plot from the kept runs (a rerun: every run is done): the figure, and
# its data router by router in DIR
sh "$TK_SRCDIR/data/studies/dfly-unfairness.sh" --patterns ADVc --mechs MIN \
    --arbs 'fair transit' --keep "$TMPD/K" --plot "$TMPD/u.png" >"$TMPD/out2" 2>"$TMPD/err2"
ok $? "a rerun with --plot runs" || diag "$(cat "$TMPD/err2")"
cmp -s "$TMPD/out" "$TMPD/out2"
ok $? "--plot leaves the tables as they are"
study_plot "$TMPD/u.png" "$TMPD/err2" dfly-unfairness.sh "--plot"
[ "$(awk -F '\t' 'NR == 1 { print $2, $7 } $1 == "MIN" { print $2, $3, $7 }' "$TMPD/K/plot-fair.dat" | tr '\n' '|')" = \
    '"router 0 (R_in)" "router 5 (R_out)"|0.166667 0.166667 0.166667|' ]
ok $? "plot data, fair: routers 0 to 5 of group 0, R_in and R_out labelled, MIN at 1/6 each" ||
    diag "$(cat "$TMPD/K/plot-fair.dat")"
[ "$(awk -F '\t' '$1 == "MIN" { print $7 }' "$TMPD/K/plot-transit.dat")" = 0 ]
ok $? "plot data, transit: R_out's bar at 0"
run sh "$TK_SRCDIR/data/studies/dfly-unfairness.sh" --plot ''
[ "$rc" -eq 2 ] && [ -z "$out" ] && printf '%s\n' "$err" | grep -q '^usage: sh dfly-unfairness.sh .*\[--plot FILE\]'
ok $? "--plot without a file name: usage, exit 2" || diag "rc=$rc" "$err"
# --jobs is a pool, not batches: with 2 slots the third run starts as soon
# as the second ends, while the first still runs (a stub topo-sim holds the
# first run until the third has started, for at most 30 s)
mkdir -p "$TMPD/stub" "$TMPD/runs"
pool_stub "$TMPD/stub/topo-sim" "printf 'accepted\\n0.5\\n'"
STUB_RUNS=$TMPD/runs PATH=$TMPD/stub:$PATH sh "$TK_SRCDIR/data/studies/dfly-unfairness.sh" --patterns ADVc \
    --mechs MIN --arbs fair --jobs 2 --keep "$TMPD/KP" >/dev/null 2>"$TMPD/errp"
ok $? "--jobs 2 with a stub topo-sim runs" || diag "$(tail -n 5 "$TMPD/errp")"
[ -e "$TMPD/runs/overlap" ] && [ "$(ls "$TMPD/KP"/*.tsv | wc -l)" -eq "$(ls -d "$TMPD/runs"/[0-9]* | wc -l)" ]
ok $? "--jobs 2: the third run starts while the first runs, and every run finishes" ||
    diag "$(ls "$TMPD/runs" "$TMPD/KP")"
# one run at a time in a keep directory: while another holds DIR, a run
# exits 1 in one line and writes nothing; --table-only still prints the
# tables, reading DIR and writing nothing there
ls -A --full-time "$TMPD/K" >"$TMPD/K.before"
touch "$TMPD/stamp"
exec 9>>"$TMPD/K/.lock"
flock -n 9
run sh "$TK_SRCDIR/data/studies/dfly-unfairness.sh" --patterns ADVc --mechs MIN --arbs 'fair transit' --keep "$TMPD/K"
[ "$rc" -eq 1 ] && [ -z "$out" ] && [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] &&
    printf '%s\n' "$err" | grep -q "K: in use by another run of dfly-unfairness.sh$"
ok $? "a keep directory in use: exit 1, one line, no tables" || diag "rc=$rc" "$err"
run sh "$TK_SRCDIR/data/studies/dfly-unfairness.sh" --patterns ADVc --mechs MIN --arbs 'fair transit' --keep "$TMPD/K" --table-only
exec 9>&-
[ "$rc" -eq 0 ] && [ "$out" = "$(cat "$TMPD/out")" ]
ok $? "a keep directory in use: --table-only prints the same tables" || diag "rc=$rc" "$err"
ls -A --full-time "$TMPD/K" >"$TMPD/K.after"
cmp -s "$TMPD/K.before" "$TMPD/K.after" && [ -z "$(find "$TMPD/K" -newer "$TMPD/stamp")" ]
ok $? "--table-only writes nothing in DIR" || diag "$(diff "$TMPD/K.before" "$TMPD/K.after")"
run sh "$TK_SRCDIR/data/studies/dfly-unfairness.sh" --mechs MIN --keep "$TMPD/nosuch" --table-only
[ "$rc" -eq 1 ] && [ -z "$out" ] && printf '%s\n' "$err" | grep -q 'nosuch: no such directory$' && [ ! -e "$TMPD/nosuch" ]
ok $? "--table-only on a directory that does not exist: exit 1, one line, nothing made" || diag "rc=$rc" "$err"
done_testing
