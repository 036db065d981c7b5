#!/bin/sh
# topo-stats: sample statistics and the Student t interval, against closed
# forms and scipy; header names; every bad input.
. "$TK_SRCDIR/tests/cli/lib.sh"

# 1 2 3 4: mean 2.5, sd sqrt(5/3), min 1, max 4.
run sh -c "printf '1\n2\n3\n4\n' | topo-stats | cut -f 2-6 | tail -n 1"
expect_out "$(printf '4\t2.5\t1.2909944487358056\t1\t4')" "1..4: n mean sd min max"

# The t quantile against scipy (t_{0.975,3} = 3.182446305284263...).
if /usr/bin/python3 -c 'import scipy' 2>/dev/null; then
    for data in "1 2 3 4" "0.5 0.25 0.125 3 7 11 -2" "5 5 5 6"; do
        for level in 0.9 0.95 0.99; do
            printf '%s\n' $data | topo-stats --level $level | tail -n 1 >"$TMPD/row"
            /usr/bin/python3 - "$TMPD/row" "$level" $data <<'PY'
import sys, statistics
from scipy import stats
row = open(sys.argv[1]).read().split("\t")
level = float(sys.argv[2]); x = [float(v) for v in sys.argv[3:]]
n = len(x); m = statistics.fmean(x); s = statistics.stdev(x)
h = stats.t.ppf(0.5 + level / 2, n - 1) * s / n ** 0.5
got = dict(zip("column n mean sd min max ci_low ci_high halfwidth rel_halfwidth".split(), row))
assert int(got["n"]) == n
assert abs(float(got["mean"]) - m) <= 1e-12 * max(1, abs(m))
assert abs(float(got["sd"]) - s) <= 1e-12 * max(1, s)
assert abs(float(got["halfwidth"]) - h) <= 1e-8 * max(1, h), (got["halfwidth"], h)  # GSL: ~1e-9
assert abs(float(got["ci_low"]) - (m - h)) <= 1e-8 * max(1, abs(m) + h)
PY
            ok $? "[$data] level $level: mean, sd and t interval equal scipy's"
        done
    done
else
    ok 0 "# SKIP scipy not installed"
fi

# A column by number and by header name, from TSV with comments.
printf '# made by hand\nname\tx\ty\na\t1\t10\nb\t2\t20\n\nc\t3\t30\n' >"$TMPD/t.tsv"
run sh -c "topo-stats -c y '$TMPD/t.tsv' | cut -f 1-3 | tail -n 1"
expect_out "$(printf 'y\t3\t20')" "header name selects the column"
run sh -c "topo-stats -c 2 '$TMPD/t.tsv' | cut -f 1-3 | tail -n 1"
expect_out "$(printf '2\t3\t2')" "field number, header line skipped"
run sh -c "topo-stats -c 2 '$TMPD/t.tsv' '$TMPD/t.tsv' | cut -f 2 | tail -n 1"
expect_out "6" "several inputs are pooled (each with its header)"
run sh -c "cat '$TMPD/t.tsv' '$TMPD/t.tsv' | topo-stats -c x | cut -f 2,3 | tail -n 1"
expect_out "$(printf '6	2')" "concatenated outputs: repeated headers skipped by name"

# TSV fields with blanks inside (graph names): split at tabs only.
printf 'name\tv\nrrg n=9 d=2\t4\nrrg n=9 d=4\t6\n' >"$TMPD/names.tsv"
run sh -c "topo-stats -c v '$TMPD/names.tsv' | cut -f 3 | tail -n 1"
expect_out "5" "tab-separated fields may contain blanks"
run sh -c "for s in 1 2 3; do topo-gen rrg n=30 d=4 -s \$s | topo-dist; done | topo-stats -c avg_distance | cut -f 2 | tail -n 1"
expect_out "3" "concatenated topo-dist rows, by column name"

# One value: sd 0, infinite interval.
run sh -c "echo 7 | topo-stats | cut -f 4,9 | tail -n 1"
expect_out "$(printf '0\tinf')" "one value: sd 0, halfwidth inf"

# --json: same names and values.
run sh -c "printf '1\n2\n' | topo-stats --json"
[ "$rc" -eq 0 ] && printf '%s\n' "$out" | grep -q '^{"column":"1","n":2,"mean":1.5,'
ok $? "--json object" || diag "$out"

# Bad inputs: one line naming the file and line, exit 1, no output.
printf '1\n2\nx\n' >"$TMPD/bad.txt"
run topo-stats "$TMPD/bad.txt"
expect_fail 1 "^topo-stats: .*bad.txt:3: 'x': not a number$" "a word after the first line"
printf '1\nnan\n' >"$TMPD/nan.txt"
run topo-stats "$TMPD/nan.txt"
expect_fail 1 "^topo-stats: .*nan.txt:2: 'nan': not a finite number$" "nan"
printf '1 2\n3\n' >"$TMPD/short.txt"
run topo-stats -c 2 "$TMPD/short.txt"
expect_fail 1 "^topo-stats: .*short.txt:2: no field 2" "a line without the field"
run topo-stats -c nosuch "$TMPD/t.tsv"
expect_fail 1 "^topo-stats: .*t.tsv:2: no column named 'nosuch'" "unknown header name"
: >"$TMPD/empty"
run topo-stats "$TMPD/empty"
expect_fail 1 "^topo-stats: no values" "empty input"
run topo-stats "$TMPD/does-not-exist"
expect_fail 1 "^topo-stats: .*does-not-exist: No such file or directory" "missing file"
# Usage errors: one message naming the option and the value, exit 2.
while IFS='|' read -r re args; do
    [ -n "$args" ] || continue
    run topo-stats $args "$TMPD/t.tsv"
    [ "$rc" -eq 2 ] && [ -z "$out" ] && printf '%s\n' "$err" | head -n 1 | grep -Eq -- "$re" &&
        printf '%s\n' "$err" | grep -q "Try 'topo-stats --help'"
    ok $? "usage error: topo-stats $args" || diag "rc=$rc" "$err"
done <<'EOF'
^topo-stats: --level 1: must be greater than 0 and less than 1$|--level 1
^topo-stats: --level 0: must be greater than 0 and less than 1$|--level 0
^topo-stats: --level -0.5: must be greater than 0 and less than 1$|--level -0.5
^topo-stats: --level nan: not a finite number$|--level nan
^topo-stats: --level inf: not a finite number$|--level inf
^topo-stats: --level 0.5x: not a number$|--level 0.5x
^topo-stats: --level 0x0.8: not a number$|--level 0x0.8
^topo-stats: --column 0: fields count from 1$|-c 0
^topo-stats: --column -3: fields count from 1$|-c -3
EOF
run topo-stats -c '' "$TMPD/t.tsv"
[ "$rc" -eq 2 ] && [ -z "$out" ] && printf '%s\n' "$err" | grep -q "^topo-stats: --column '': empty"
ok $? "-c '' is a usage error" || diag "$err"
run topo-stats -c 2 --level 0.9 "$TMPD/t.tsv"
expect_rc 0 "--level 0.9 is accepted"

# Values: decimal notation only (as the tools print numbers).
run sh -c "printf '1e3\n+2\n-2.5\n.5\n' | topo-stats | cut -f 2,3 | tail -n 1"
expect_out "$(printf '4\t250')" "exponents, signs and a leading point are numbers"
printf '1\n0x10\n' >"$TMPD/hex.txt"
run topo-stats "$TMPD/hex.txt"
expect_fail 1 "^topo-stats: .*hex.txt:2: '0x10': not a number$" "hexadecimal is not a value"
printf '1\n2x\n' >"$TMPD/junk.txt"
run topo-stats "$TMPD/junk.txt"
expect_fail 1 "^topo-stats: .*junk.txt:2: '2x': not a number$" "trailing garbage"
printf '1\ninf\n' >"$TMPD/inf.txt"
run topo-stats "$TMPD/inf.txt"
expect_fail 1 "^topo-stats: .*inf.txt:2: 'inf': not a finite number$" "inf"
run topo-stats -o "$TMPD/o.tsv" "$TMPD/bad.txt"
[ "$rc" -eq 1 ] && [ ! -e "$TMPD/o.tsv" ]
ok $? "-o: no file on error"

done_testing
