# data/studies/antmill.sh at a tiny size (a 16-switch RRG of degree 4, 2
# servers per switch): the shape of its two tables, and exact relations:
# MIN's and valiant,early's uniform saturation are topo-load's throughput
# on the same graph, MIN's Ant Mill saturation is Remark 1's 1/(p delta)
# (unique shortest paths up to delta), the relations table recomputes from
# the first table; --plot draws a PNG (when gnuplot is installed, as CI
# has it).
. "$TK_SRCDIR/tests/cli/lib.sh"

sh "$TK_SRCDIR/data/studies/antmill.sh" --n 16 --d 4 --p 2 -s 1 --budget 5 --res 0.3 --iter 5 \
    --plot "$TMPD/a.png" >"$TMPD/out" 2>"$TMPD/err"
ok $? "antmill.sh --n 16 --d 4 --p 2 --plot FILE runs" || diag "$(tail -n 5 "$TMPD/err")"
study_plot "$TMPD/a.png" "$TMPD/err" antmill.sh "--plot (accepted against offered load)"

# the first table: the lines after the comment, up to the blank line
awk 'NR > 1 && /^$/ { exit } NR > 1' "$TMPD/out" >"$TMPD/t1"
awk 'f { print } /^$/ { f = 1 }' "$TMPD/out" >"$TMPD/t2"
[ "$(head -n 1 "$TMPD/t1")" = "$(printf 'topology\trouting\tpattern\tsaturation\taccepted\tjain\tconverged\tseconds')" ]
ok $? "table 1: its header"
[ "$(tail -n +2 "$TMPD/t1" | cut -f 2,3 | tr '\t\n' ':,')" = \
    "min:uniform,min:perm,min:antmill,ksp:8:uniform,ksp:8:perm,ksp:8:antmill,valiant,early:uniform,valiant,early:perm,valiant,early:antmill,polarized-adaptive:uniform,polarized-adaptive:perm,polarized-adaptive:antmill," ]
ok $? "table 1: four routings by three patterns" || diag "$(cat "$TMPD/t1")"
awk -F '\t' 'NR > 1 && !($4 > 0 && $4 <= 1 && $5 > 0 && $5 <= 1 && $6 > 0 && $6 <= 1 + 1e-12) { bad = 1 } END { exit bad }' "$TMPD/t1"
ok $? "table 1: saturation, accepted and Jain index in (0, 1]"
awk -F '\t' 'NR > 1 && $2 != "polarized-adaptive" && $4 > $5 + 1e-9 { bad = 1 } END { exit bad }' "$TMPD/t1"
ok $? "table 1, oblivious routings: the accepted load at 1 is at least the saturation load"

get() { awk -F '\t' -v r="$1" -v p="$2" -v c="$3" '$2 == r && $3 == p { print $c }' "$TMPD/t1"; }
topo-gen rrg n=16 d=4 -p 2 -s 1 >"$TMPD/g.topo"
for r in min valiant,early; do
    want=$(topo-load -r $r "$TMPD/g.topo" | awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $(c["throughput"]) }')
    got=$(get $r uniform 4)
    awk -v a="$got" -v b="$want" 'BEGIN { d = a - b; exit !(d < 1e-5 && d > -1e-5) }'
    ok $? "$r, uniform: saturation $got = topo-load's throughput $want"
done
delta=$(sed -n 's/^# topology: .*delta \([0-9]*\))$/\1/p' "$TMPD/out")
got=$(get min antmill 4)
awk -v a="$got" -v l="$delta" 'BEGIN { d = a - 1 / (2 * l); exit !(l >= 1 && d < 1e-5 && d > -1e-5) }'
ok $? "min, antmill: saturation $got = 1/(p delta), delta $delta"

# the relations table
[ "$(head -n 1 "$TMPD/t2")" = "$(printf 'key\tsource\tpaper\tours_sat\tdiff_sat\tjudged_sat\tours_acc\tdiff_acc\tjudged_acc')" ] &&
    [ "$(tail -n +2 "$TMPD/t2" | cut -f 1 | tr '\n' ' ')" = "min-antmill-reduction min-antmill-slowdown min-perm-slowdown ksp-uniform-reduction polarized-uniform-reduction valiant-uniform-ratio polarized-antmill-ratio polarized-perm-ratio remark1-bound remark1-slowdown " ]
ok $? "table 2: its header and one row per published relation, then Remark 1" || diag "$(cat "$TMPD/t2")"
mu=$(get min uniform 4)
ma=$(get min antmill 4)
red=$(awk -F '\t' '$1 == "min-antmill-reduction" { print $4 }' "$TMPD/t2")
awk -v r="$red" -v u="$mu" -v a="$ma" 'BEGIN { d = r - (1 - a / u); exit !(d < 1e-5 && d > -1e-5) }'
ok $? "table 2: MIN's reduction $red = 1 - $ma / $mu"
awk -F '\t' '$1 == "remark1-bound" { exit !($5 == "+0" && $6 == "ok") }' "$TMPD/t2"
ok $? "table 2: Remark 1's bound holds exactly"

done_testing
