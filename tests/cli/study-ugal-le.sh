# data/studies/ugal-le.sh, the smallest run it has (dfly(4,8,4,9) shift,
# two rules, a few seconds): the table has one row per rule asked, in
# the script's rule order, with the paper's figure and number from
# ugal-le-published.tsv beside it; the strict saturation and the diff
# column agree with a topo-sim --bisect of the same cell read here
# independently; --keep DIR --table-only prints the same table from the
# cells kept (even while another run holds DIR, and without writing
# there), and with --plot a PNG of it (when gnuplot is installed,
# as CI has it); an unknown rule in --rules is a usage error (exit 2, one
# line, nothing on stdout).
. "$TK_SRCDIR/tests/cli/lib.sh"

study=$TK_SRCDIR/data/studies/ugal-le.sh
cd "$TMPD" || exit 1
sh "$study" --quick --patterns shift --seeds 1 --rules 'ugal-g ugal-l' --jobs 1 --keep "$TMPD/K" \
    >table.tsv 2>table.err
ok $? "ugal-le.sh --quick --patterns shift --rules 'ugal-g ugal-l' runs" || diag "$(tail -5 table.err)"

got=$(awk -F '\t' 'NR > 1 { printf "%s %s %s %s %s|", $1, $2, $3, $4, $5 }' table.tsv)
[ "$got" = "dfly(4,8,4,9) shift ugal-l Fig. 14 0.34|dfly(4,8,4,9) shift ugal-g Fig. 14 0.51|" ]
ok $? "two rows, ugal-l then ugal-g, with the paper's Figure 14 numbers" || diag "$got"

# The ugal-g cell by hand: the largest load of the search at which every
# flow is served, times the offered load per server at rho = 1.
topo-gen dragonfly p=4 a=8 h=4 g=9 arrangement=absolute -o d9.topo
topo-pattern shift offset=32 -o shift.pat d9.topo
topo-sim -r ugal-g -P shift.pat --bisect 0.01 --threads 1 d9.topo >b.tsv 2>/dev/null
want=$(awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    NR == 2 { off = $(c["offered"]) }
    $(c["min_served"]) >= 1 - 1e-6 && $(c["rho"]) > best { best = $(c["rho"]) }
    END { printf "%.3f %+.3f", best * off, best * off - 0.51 }' b.tsv)
got=$(awk -F '\t' '$3 == "ugal-g" { print $6, $13 }' table.tsv)
[ -n "$got" ] && [ "$got" = "$want" ]
ok $? "ugal-g's saturation and diff are those of topo-sim --bisect 0.01 ($want)" || diag "table: $got" "bisect: $want"

sh "$study" --quick --patterns shift --seeds 1 --rules 'ugal-g ugal-l' --keep "$TMPD/K" --table-only \
    >again.tsv 2>/dev/null
cmp -s table.tsv again.tsv
ok $? "--keep DIR --table-only prints the same table from the kept cells"

sh "$study" --quick --patterns shift --seeds 1 --rules 'ugal-g ugal-l' --keep "$TMPD/K" --table-only \
    --plot "$TMPD/p.png" >plotted.tsv 2>plot.err
ok $? "--table-only --plot runs" || diag "$(cat plot.err)"
cmp -s table.tsv plotted.tsv
ok $? "--plot leaves the table as it is"
study_plot p.png plot.err ugal-le.sh "--plot"

# A random pattern: the ci95 columns are the Student-t half-width over
# the seeds (two seeds: 12.706 |x1 - x2| / 2), and "-" for a single seed,
# where there is no interval (not 0).
sh "$study" --quick --patterns perm --seeds 2 --rules ugal-l --jobs 1 --keep "$TMPD/P" >p2.tsv 2>p2.err
ok $? "ugal-le.sh --patterns perm --seeds 2 runs" || diag "$(tail -5 p2.err)"
awk -F '\t' '$4 == "ugal-l" { print $3, $5 }' "$TMPD/P/results" >p.seeds
sh "$study" --quick --patterns perm --seeds 1 --rules ugal-l --keep "$TMPD/P" --table-only >p1.tsv 2>/dev/null
got=$(awk -F '\t' 'NR == 2 { print $6, $7, $9, $11, $15 }' p1.tsv)
want=$(awk '$1 == 1 { printf "%.3f - - - 1", $2 }' p.seeds)
[ "$got" = "$want" ]
ok $? "one seed: its saturation, ci95 '-' (not 0), seeds 1" || diag "got $got" "want $want"
got=$(awk -F '\t' 'NR == 2 { print $6, $7, $15 }' p2.tsv)
want=$(awk '{ x[$1] = $2 } END { d = x[1] - x[2]; printf "%.3f %.3f 2", (x[1] + x[2]) / 2, 12.706 * (d < 0 ? -d : d) / 2 }' p.seeds)
[ "$(wc -l <p.seeds)" -eq 2 ] && [ "$got" = "$want" ]
ok $? "two seeds: the mean and the t-interval of the two saturations" || diag "got $got" "want $want" "$(cat p.seeds)"

run sh "$study" --rules 'ugal-l nosuch'
[ "$rc" -eq 2 ] && [ -z "$out" ] && [ "$(printf '%s\n' "$err" | grep -c .)" -le 2 ] &&
    printf '%s\n' "$err" | grep -q "^ugal-le.sh: --rules: no rule 'nosuch'"
ok $? "--rules with an unknown rule: exit 2, the rule named, no table" || diag "rc=$rc" "$err"

# one run at a time in a keep directory: while another holds DIR, a run
# exits 1 in one line; --table-only still prints the table, reading DIR
# and writing nothing there
ls -A --full-time "$TMPD/K" >K.before
touch stamp
exec 9>>"$TMPD/K/.lock"
flock -n 9
run sh "$study" --quick --patterns shift --seeds 1 --rules 'ugal-g ugal-l' --keep "$TMPD/K"
[ "$rc" -eq 1 ] && [ -z "$out" ] && [ "$(printf '%s\n' "$err" | grep -c .)" -eq 2 ] &&
    [ "$(printf '%s\n' "$err" | grep -c 'K: in use by another run of ugal-le.sh$')" -eq 1 ]
ok $? "a keep directory in use: a second run exits 1 with one error line, no table" || diag "rc=$rc" "$err"
run sh "$study" --quick --patterns shift --seeds 1 --rules 'ugal-g ugal-l' --keep "$TMPD/K" --table-only
exec 9>&-
[ "$rc" -eq 0 ] && [ "$out" = "$(cat table.tsv)" ]
ok $? "a keep directory in use: --table-only prints the same table" || diag "rc=$rc" "$err"
ls -A --full-time "$TMPD/K" >K.after
cmp -s K.before K.after && [ -z "$(find "$TMPD/K" -newer stamp)" ]
ok $? "--table-only writes nothing in DIR" || diag "$(diff K.before K.after)" "$(find "$TMPD/K" -newer stamp)"
run sh "$study" --quick --patterns shift --seeds 1 --keep "$TMPD/nosuch" --table-only
[ "$rc" -eq 1 ] && [ -z "$out" ] && printf '%s\n' "$err" | grep -q 'nosuch: no such directory$' && [ ! -e "$TMPD/nosuch" ]
ok $? "--table-only on a directory that does not exist: exit 1, one line, nothing made" || diag "rc=$rc" "$err"
run sh "$study" --quick --patterns shift --seeds 1 --rules 'ugal-g ugal-l' --keep "$TMPD/K"
[ "$rc" -eq 0 ] && [ "$out" = "$(cat table.tsv)" ]
ok $? "the same directory once released: a run again (every cell kept: the same table)" || diag "rc=$rc" "$err"
done_testing
