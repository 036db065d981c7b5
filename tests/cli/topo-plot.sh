# topo-plot: the gnuplot script for every recognised table (exactly), the
# options that change it, the figures when gnuplot is installed (PNG, SVG and
# PDF headers), the one-line refusal when gnuplot is missing, bad tables
# and usage errors.
. "$TK_SRCDIR/tests/cli/lib.sh"

cd "$TMPD" || exit 1
# The scripts' first line names the version; the rest is compared exactly.
script() { # FIGURE TSV... : the script without its first line
    fig=$1
    shift
    topo-plot -n --script - -o "$fig" "$@" | sed 1d
}
HEAD_SVG='set terminal svg size 900,560 enhanced font "sans,11" background rgb "white"'

printf 'name\trouting\tpattern\tarbitration\trho\toffered\taccepted\tsaturation
g\tmin\tuniform\tfair\t0.5\t0.5\t0.5\t0.75
g\tmin\tuniform\tfair\t1\t1\t0.8\t0.75
g\tvaliant\tuniform\tfair\t0.5\t0.5\t0.45\t0.4
g\tvaliant\tuniform\tfair\t1\t1\t0.5\t0.4\n' >sweep.tsv
run script sweep.svg sweep.tsv
expect_rc 0 "sweep script"
expect_out "# data: sweep.tsv
$HEAD_SVG
set output \"sweep.svg\"
set encoding utf8
set title \"accepted-versus-offered curves (topo-sim --sweep or --curve)\" noenhanced
set xlabel \"offered load per server (fraction of its injection bandwidth)\" noenhanced
set ylabel \"accepted load per server (fraction of its injection bandwidth)\" noenhanced
set grid
set key outside right top noenhanced
\$s1 << EOD
0.5	0.5
1	0.8
EOD
\$m1 << EOD
0.75	0.75
EOD
\$s2 << EOD
0.5	0.45
1	0.5
EOD
\$m2 << EOD
0.4	0.4
EOD
plot \$s1 using 1:2 with linespoints pointsize 0.6 lc 1 title \"min\", \\
     \$m1 using 1:2 with points pt 6 ps 1.6 lw 2 lc 1 title \"saturation (topo-load) min\", \\
     \$s2 using 1:2 with linespoints pointsize 0.6 lc 2 title \"valiant\", \\
     \$m2 using 1:2 with points pt 6 ps 1.6 lw 2 lc 2 title \"saturation (topo-load) valiant\"" \
    "sweep: one line per routing, offered on x, the saturation marked on the diagonal"

printf 'name\tlo\thi\tarcs\n# topo-load --hist g.topo\ng\t0\t1.5\t2\ng\t1.5\t3\t7\n' >lh.tsv
run script lh.png lh.tsv
expect_out "# data: lh.tsv
# topo-load --hist g.topo
set terminal pngcairo size 900,560 enhanced font \"sans,11\"
set output \"lh.png\"
set encoding utf8
set title \"link-load histogram (topo-load --hist)\" noenhanced
set xlabel \"link load (server injection bandwidths per unit of capacity)\" noenhanced
set ylabel \"links (arcs) in the bin\" noenhanced
set grid
set key outside right top noenhanced
set bmargin 5
set label 1 \"topo-load --hist g.topo\" at screen 0.01, screen 0.02 left font \",8\" noenhanced
set style fill transparent solid 0.35 border
set boxwidth 0.8 relative
\$s1 << EOD
0	2	1.5
1.5	7	3
EOD
plot \$s1 using ((\$1+\$3)/2):2:(\$3-\$1) with boxes lc 1 title \"g\"" \
    "load histogram: boxes from lo to hi, the '#' line as caption, PNG terminal"

printf 'name\tdistance\tpairs\ng\t1\t10\ng\t2\t>5\ng\t3\t4\n' >dh.tsv
run script dh.pdf dh.tsv
expect_out "# data: dh.tsv
set terminal pdfcairo size 6in,3.75in enhanced font \"sans,9\"
set output \"dh.pdf\"
set encoding utf8
set title \"distance histogram (topo-dist --hist)\" noenhanced
set xlabel \"distance (hops)\" noenhanced
set ylabel \"ordered pairs of switches\" noenhanced
set grid
set key outside right top noenhanced
set style fill transparent solid 0.35 border
set boxwidth 0.8 relative
\$s1 << EOD
1	10
3	4
EOD
# rows left out (a plotted field is not a number): 1
plot \$s1 using 1:2 with boxes lc 1 title \"g\"" \
    "distance histogram: a row that is not a number is left out and counted, PDF terminal"

printf 'name\tserver\tswitch\taccepted\ng\t0\t0\t0.5\ng\t1\t0\t0.25\nh\t0\t0\t1\n' >ps.tsv
run script ps.svg ps.tsv
expect_out "# data: ps.tsv
$HEAD_SVG
set output \"ps.svg\"
set encoding utf8
set title \"accepted load per server (topo-sim --per-server)\" noenhanced
set xlabel \"server\" noenhanced
set ylabel \"accepted load (fraction of its injection bandwidth)\" noenhanced
set grid
set key outside right top noenhanced
set style fill transparent solid 0.35 border
set boxwidth 0.8 relative
\$s1 << EOD
0	0.5
1	0.25
EOD
\$s2 << EOD
0	1
EOD
plot \$s1 using 1:2 with boxes lc 1 title \"g\", \\
     \$s2 using 1:2 with boxes lc 2 title \"h\"" "per-server bars, one series per graph name"

printf 'N\tr\tk\tH\tp\tdiam_lb\tlk\tcerf_avg
100\t10\t1\t2\t1\t2\t1.9\t1.89
400\t10\t1\t3\t1\t3\t2.7\t2.72
100\t20\t1\t2\t1\t2\t1.8\t1.8\n' >b.tsv
run script b.svg b.tsv
expect_out "# data: b.tsv
$HEAD_SVG
set output \"b.svg\"
set encoding utf8
set title \"bounds against the size (topo-bounds)\" noenhanced
set xlabel \"switches N\" noenhanced
set ylabel \"average distance bound (hops)\" noenhanced
set grid
set key outside right top noenhanced
\$s1 << EOD
100	1.9	1.89
400	2.7	2.72
EOD
\$s2 << EOD
100	1.8	1.8
EOD
plot \$s1 using 1:2 with linespoints pointsize 0.6 lc 1 title \"lk r=10\", \\
     \$s1 using 1:3 with linespoints pointsize 0.6 lc 2 title \"cerf_avg r=10\", \\
     \$s2 using 1:2 with linespoints pointsize 0.6 lc 3 title \"lk r=20\", \\
     \$s2 using 1:3 with linespoints pointsize 0.6 lc 4 title \"cerf_avg r=20\"" \
    "bounds: lk and cerf_avg against N, one series per r (H, derived, does not split)"

printf 'name\tn\tk\tavg_ksp_length\tdegree
a\t20\t4\t3.07\t4
b\t40\t4\t3.68\t4
a\t20\t8\t3.5\t4\n' >k.tsv
cat k.tsv k.tsv >k2.tsv
run script k.svg k.tsv
expect_out "# data: k.tsv
$HEAD_SVG
set output \"k.svg\"
set encoding utf8
set title \"k-shortest-path length against the size (topo-ksp)\" noenhanced
set xlabel \"switches n\" noenhanced
set ylabel \"average length of the k shortest paths (hops)\" noenhanced
set grid
set key outside right top noenhanced
\$s1 << EOD
20	3.07
40	3.68
EOD
\$s2 << EOD
20	3.5
EOD
plot \$s1 using 1:2 with linespoints pointsize 0.6 lc 1 title \"k=4\", \\
     \$s2 using 1:2 with linespoints pointsize 0.6 lc 2 title \"k=8\"" \
    "k-shortest paths: length against n, one series per k"
run script k.svg k.tsv k.tsv
printf '%s\n' "$out" | grep -c '^20	3.07$' | grep -qx 2
ok $? "two inputs with the same header are one table"
run script k.svg k2.tsv
printf '%s\n' "$out" | grep -c '^20	3.07$' | grep -qx 2
ok $? "a header repeated inside an input is skipped"

# Options.
run topo-plot -n --script - -o c.svg -x n -y degree,avg_ksp_length --by name \
    --title 'T "q"' --caption 'topo-ksp -k 4' --log y k.tsv
printf '%s\n' "$out" | grep -qx 'set title "T \\"q\\"" noenhanced'
ok $? "--title is quoted for gnuplot"
printf '%s\n' "$out" | grep -qx 'set label 1 "topo-ksp -k 4" at screen 0.01, screen 0.02 left font ",8" noenhanced'
ok $? "--caption"
printf '%s\n' "$out" | grep -qx 'set logscale y'
ok $? "--log y"
printf '%s\n' "$out" | grep -qx 'set xlabel "n" noenhanced'
ok $? "-x: the column name as label"
printf '%s\n' "$out" | grep -qx '     $s1 using 1:3 with linespoints pointsize 0.6 lc 2 title "avg_ksp_length a", \\'
ok $? "-y with two columns and --by: one series per column and value"
printf 'a\tb\n1\t2\n3\t4\n' >plain.tsv
run topo-plot -n --script - -o p.svg -x a -y b plain.tsv
printf '%s\n' "$out" | grep -qx 'plot $s1 using 1:2 with linespoints pointsize 0.6 lc 1 title "b"'
ok $? "any table with -x and -y"
run topo-plot -n --script p.gp -o p.svg -x a -y b plain.tsv
expect_rc 0 "--script FILE"
grep -qx 'set output "p.svg"' p.gp
ok $? "--script FILE writes the script"
[ ! -e p.svg ]
ok $? "-n draws nothing"
topo-plot -n --script - -o p.svg -x a -y b <plain.tsv | grep -qx '# data: <stdin>'
ok $? "standard input"

# Errors.
run topo-plot -n --script - -o p.svg plain.tsv
expect_fail 1 "^topo-plot: plain.tsv: unrecognised table \\(columns: a b\\); give -x and -y$" \
    "unrecognised table"
run topo-plot -n --script - -o p.svg -x a -y zz plain.tsv
expect_fail 2 "^topo-plot: -y zz: no such column \\(the table has: a b\\)$" "unknown column"
printf 'a\tb\n1\t2\t3\n' >bad.tsv
run topo-plot -n --script - -o p.svg -x a -y b bad.tsv
expect_fail 1 "^topo-plot: bad.tsv:2: 3 fields, the header has 2$" "ragged row"
printf 'x\ty\n1\t2\n' >other.tsv
run topo-plot -n --script - -o p.svg -x a -y b plain.tsv other.tsv
expect_fail 1 "^topo-plot: other.tsv:1: header differs from the first input's$" "different headers"
printf 'a\tb\n' >empty.tsv
run topo-plot -n --script - -o p.svg -x a -y b empty.tsv
expect_fail 1 "^topo-plot: empty.tsv: no rows to plot$" "no rows"
run topo-plot -x a -y b plain.tsv
expect_rc 2 "-o is required"
expect_err_match "-o FIGURE is required" "-o is required"
run topo-plot -o p.gif -x a -y b plain.tsv
expect_rc 2 "unknown extension"
expect_err_match "^topo-plot: -o p.gif: extension is not .png, .svg or .pdf" "unknown extension"
run topo-plot -n -o p.svg -x a -y b plain.tsv
expect_rc 2 "-n alone"
expect_err_match "-n without --script writes nothing" "-n alone"
run topo-plot --log z -o p.svg plain.tsv
expect_rc 2 "--log z"
expect_err_match "^topo-plot: --log z: not x, y or xy" "--log z"
run topo-plot -T jpg -o p.svg plain.tsv
expect_rc 2 "-T jpg"
expect_err_match "^topo-plot: -T jpg: not png, svg or pdf" "-T jpg"

# gnuplot missing or failing: one line, exit 3 or 1, no figure.
TOPOKIT_GNUPLOT="$TMPD/no-gnuplot" run topo-plot -o miss.svg k.tsv
expect_fail 3 "^topo-plot: gnuplot not found \\(TOPOKIT_GNUPLOT is not executable; install Debian's gnuplot-nox\\): miss.svg not drawn$" \
    "gnuplot missing: exit 3, one line"
# The real binary (libtool's wrapper script needs a PATH of its own).
bin="$TK_BUILDDIR/.libs/topo-plot"
[ -x "$bin" ] || bin="$TK_BUILDDIR/topo-plot"
LD_LIBRARY_PATH="$TK_BUILDDIR/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" PATH=/nonexistent \
    "$bin" -o miss.svg k.tsv >miss.out 2>miss.err
rc=$?
[ "$rc" -eq 3 ] && [ ! -s miss.out ] && [ "$(grep -c . miss.err)" -eq 1 ] &&
    grep -q "gnuplot not found (not on PATH" miss.err
ok $? "gnuplot not on PATH: exit 3, one line"
run env TOPOKIT_GNUPLOT=/bin/false topo-plot -o fail.svg k.tsv
expect_fail 1 "^topo-plot: fail.svg: gnuplot failed" "gnuplot failing: exit 1"
ls fail.svg* >/dev/null 2>&1
[ $? -ne 0 ]
ok $? "no figure, no temporary file left"

# The figures themselves, when gnuplot is installed.
if command -v gnuplot >/dev/null 2>&1; then
    for f in sweep lh dh ps b k; do
        for t in svg png pdf; do
            # every table as SVG; PNG and PDF once (gnuplot's cairo is slow)
            [ "$t" = svg ] || [ "$f" = sweep ] || continue
            run topo-plot -T "$t" -o "$f.$t" "$f.tsv"
            expect_rc 0 "$f.$t drawn"
            [ -s "$f.$t" ] || { ok 1 "$f.$t non-empty"; continue; }
            case $t in
            png) head -c 8 "$f.$t" | od -An -tx1 | tr -d ' \n' | grep -qx 89504e470d0a1a0a ;;
            svg) head -c 200 "$f.$t" | grep -q '^<?xml' && grep -q '<svg' "$f.$t" &&
                tail -c 20 "$f.$t" | grep -q '</svg>' ;;
            pdf) head -c 5 "$f.$t" | grep -q '^%PDF-' ;;
            esac
            ok $? "$f.$t has a valid $t header"
        done
    done
    grep -q 'saturation (topo-load) min' sweep.svg
    ok $? "the SVG carries the legend"
    ls ./*.tmp* >/dev/null 2>&1
    [ $? -ne 0 ]
    ok $? "no temporary figure left behind"
else
    echo "# gnuplot not installed: figures not drawn (apt-get install gnuplot-nox)"
fi
done_testing
