# topo-sim --bisect RES (topo-sim(1)): the saturation search of
# data/studies/ugal-le.sh in one process.  Checked: every row is, byte
# for byte, the row of a run of its own at that --rho (every load a cold
# start); the loads are rho = 1 and then the midpoints, rounded to 6
# decimals, of the first bracket still wider than RES, the brackets
# recomputed here from the rows (an independent awk of the search); the
# search stops exactly when both brackets are at most RES wide; the same
# bytes at 1 and 2 threads; oblivious routing as well; usage errors.
. "$TK_SRCDIR/tests/cli/lib.sh"

topo-gen dragonfly a=4 h=2 p=2 g=5 arrangement=absolute >"$TMPD/df5.topo"
topo-pattern shift offset=8 -o "$TMPD/shift.pat" "$TMPD/df5.topo"

# check RULE RES [PATTERN]: the search's rows against the runs of their own
# and against the search recomputed from them (PATTERN: shift.pat)
check() {
    local rule=$1 res=$2 pat=$TMPD/${3:-shift.pat} rho want got
    topo-sim -r "$rule" -P "$pat" --bisect "$res" --threads 1 "$TMPD/df5.topo" \
        >"$TMPD/b.tsv" 2>"$TMPD/b.err"
    ok $? "$rule --bisect $res runs" || diag "$(cat "$TMPD/b.err")"
    # the loads the search should have chosen, given its own rows
    want=$(awk -F '\t' -v res="$res" '
        # a bracket 6 decimals cannot split (1e-6 wide) is done
        function mid(l, h,   m) {
            m = sprintf("%.6f", (l + h) / 2) + 0
            return m > l && m < h ? m : "" }
        function next_load(   m) {
            if (ha - la > res && (m = mid(la, ha)) != "") return m
            if (hb - lb > res && (m = mid(lb, hb)) != "") return m
            return "end" }
        BEGIN { la = lb = 0; ha = hb = 1; printf "1" }
        NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        {   g = $(c["rho"]); m = $(c["min_served"])
            if (m >= 1 - 1e-6) { if (g > la) la = g } else if (g < ha) ha = g
            if (m >= 0.99) { if (g > lb) lb = g } else if (g < hb) hb = g
            printf " %s", next_load() }
        END { print "" }' "$TMPD/b.tsv")
    got=$(awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { printf "%s ", $(c["rho"]) + 0 } END { print "end" }' "$TMPD/b.tsv")
    [ "$want" = "$got" ] && [ "$(wc -l <"$TMPD/b.tsv")" -ge 4 ]
    ok $? "$rule --bisect $res: rho = 1, then the midpoints of the brackets, until both are $res wide" ||
        diag "want $want" "got  $got"
    # every row = the row of --rho at that load
    local bad=0 n=0
    for rho in $(awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $(c["rho"]) }' "$TMPD/b.tsv"); do
        n=$((n + 1))
        topo-sim -r "$rule" -P "$pat" --rho "$rho" --threads 1 "$TMPD/df5.topo" >"$TMPD/one.tsv" 2>/dev/null
        [ "$(sed -n 2p "$TMPD/one.tsv")" = "$(sed -n "$((n + 1))p" "$TMPD/b.tsv")" ] || bad=$((bad + 1))
        [ "$(head -1 "$TMPD/one.tsv")" = "$(head -1 "$TMPD/b.tsv")" ] || bad=$((bad + 1))
    done
    [ $bad -eq 0 ]
    ok $? "$rule --bisect $res: each of its $n rows = the --rho run at that load (bytes)" || diag "$bad rows differ"
}

check ugal-l 0.02
check ugal-g 0.1
check min 0.05
# RES 1e-6: the every-flow bracket ends [0.5, 0.500001], 1e-6 wide but
# 1.0000000000287557e-06 in binary; the 99% bracket is bisected after it
# (the search once stopped there, leaving it [0.503906, 0.507812])
topo-pattern shift offset=4 -o "$TMPD/shift4.pat" "$TMPD/df5.topo"
check dragonfly-min 1e-6 shift4.pat
awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { g = $(c["rho"]); if ($(c["min_served"]) >= 0.99) { if (g > lb) lb = g } else if (g < hb) hb = g }
    BEGIN { lb = 0; hb = 1 } END { exit !(hb - lb < 1.5e-6) }' "$TMPD/b.tsv"
ok $? "dragonfly-min --bisect 1e-6: the 99% bracket ends 1e-6 wide too" ||
    diag "$(cut -f 5,18 "$TMPD/b.tsv" | tail -n 3)"

# the same bytes at 1 and 2 threads
topo-sim -r ugal-le -P "$TMPD/shift.pat" --bisect 0.05 --threads 1 "$TMPD/df5.topo" >"$TMPD/t1.tsv" 2>/dev/null
topo-sim -r ugal-le -P "$TMPD/shift.pat" --bisect 0.05 --threads 2 "$TMPD/df5.topo" >"$TMPD/t2.tsv" 2>/dev/null
cmp -s "$TMPD/t1.tsv" "$TMPD/t2.tsv" && [ -s "$TMPD/t1.tsv" ]
ok $? "ugal-le --bisect 0.05: same bytes at 1 and 2 threads"

# errors: usage (exit 2), nothing on stdout, the first line of stderr
expect_usage() {
    [ "$rc" -eq 2 ] && [ -z "$out" ] && printf '%s\n' "$err" | head -n 1 | grep -Eq -- "$1"
    ok $? "$2" || diag "exit $rc" "stderr: $err"
}
run topo-sim -r ugal-l -P "$TMPD/shift.pat" --bisect 0.01 --rho 0.5 "$TMPD/df5.topo"
expect_usage 'bisect' "--bisect with --rho"
run topo-sim -r ugal-l -P "$TMPD/shift.pat" --bisect 0.01 --sweep 0.1:0.5:0.1 "$TMPD/df5.topo"
expect_usage 'bisect' "--bisect with --sweep"
run topo-sim -r ugal-l -P "$TMPD/shift.pat" --bisect 0.01 --epochs 3 "$TMPD/df5.topo"
expect_usage 'bisect' "--bisect with --epochs"
run topo-sim --bisect 0.01 --curve "$TMPD/df5.topo"
expect_usage 'bisect' "--bisect with --curve"
for bad in 0 1 1e-7 -0.1 x; do
    run topo-sim -r ugal-l -P "$TMPD/shift.pat" --bisect "$bad" "$TMPD/df5.topo"
    expect_usage 'bisect' "--bisect $bad"
done

done_testing
