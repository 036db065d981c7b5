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
. "$TK_SRCDIR/tests/cli/lib.sh"

sh "$TK_SRCDIR/data/studies/dfly-unfairness.sh" --patterns ADVc --mechs MIN \
    --arbs 'fair transit' >"$TMPD/out" 2>"$TMPD/err"
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
done_testing
