# demo-report: the report of make demo (data/antmill-report.sh) on a small
# random regular graph: every table, figure and script exists and is not
# empty, the page is well-formed, every number on it comes from the TSVs
# (tests/cli/check-report.py), and the study's tables still go to stdout.
# A headless-browser screenshot of the page: tests/cli/report-screenshot.sh
# (by hand, outside make check).
. "$TK_SRCDIR/tests/cli/lib.sh"

command -v gnuplot >/dev/null 2>&1 || skip_all "gnuplot not found (apt-get install gnuplot-nox)"
PY=
for p in "${PYTHON:-}" /usr/bin/python3 python3; do
    [ -n "$p" ] || continue
    if "$p" -c 'import html.parser' >/dev/null 2>&1; then
        PY=$p
        break
    fi
done
[ -n "$PY" ] || skip_all "python3 not found"

R="$TMPD/report"
# Valiant's simulation is included on this small graph (n <= 400).
run sh "$TK_SRCDIR/data/antmill-report.sh" "$R" rrg n=60 d=6 -p 3 -s 2
expect_rc 0 "antmill-report.sh exits 0"
printf '%s\n' "$err" | grep -qx "report: $R/index.html"
ok $? "it says where the report is"
printf '%s\n' "$out" | grep -q '^routing	pattern	throughput	slowdown_vs_uniform$'
ok $? "the study's tables still go to standard output"
for f in index.html distance.tsv distance-hist.tsv bounds.tsv antmill.tsv throughput.tsv \
    load-hist.tsv sim.tsv saturation.tsv distance.svg load.svg sim.svg distance.gp load.gp \
    sim.gp; do
    [ -s "$R/$f" ]
    ok $? "$f exists and is not empty"
done
for r in min ksp:8 polarized valiant; do
    grep -q "	$r	antmill lambda=" "$R/sim.tsv"
    ok $? "sim.tsv has the curve of $r"
done
[ "$(grep -c '^# ' "$R/sim.tsv")" -eq 1 ] && head -n 1 "$R/sim.tsv" | grep -q '^# topo-sim '
ok $? "sim.tsv starts with the command that made it"
"$PY" "$TK_SRCDIR/tests/cli/check-report.py" "$R" >"$TMPD/log" 2>&1
ok $? "check-report.py ran"
while IFS= read -r line; do
    case $line in
    "ok "*) ok 0 "${line#ok }" ;;
    "not ok "*) ok 1 "${line#not ok }" ;;
    *) echo "# $line" ;;
    esac
done <"$TMPD/log"
if command -v xmllint >/dev/null 2>&1; then
    xmllint --noout "$R/index.html" 2>"$TMPD/xml"
    ok $? "xmllint: the page is well-formed XML" || sed 's/^/# /' "$TMPD/xml"
fi
# Above REPORT_VALIANT_MAX switches Valiant is not simulated, and the page says so.
run env REPORT_VALIANT_MAX=50 SIM_SWEEP=0.1:0.3:0.1 sh "$TK_SRCDIR/data/antmill-report.sh" \
    "$TMPD/r2" rrg n=60 d=6 -p 3 -s 2
expect_rc 0 "REPORT_VALIANT_MAX=50"
! grep -q '	valiant	' "$TMPD/r2/sim.tsv" && grep -q '^valiant	[0-9.]*	no$' "$TMPD/r2/saturation.tsv" &&
    grep -q 'Valiant is not simulated on this graph' "$TMPD/r2/index.html"
ok $? "Valiant above REPORT_VALIANT_MAX: saturation only, and said"
"$PY" "$TK_SRCDIR/tests/cli/check-report.py" "$TMPD/r2" | grep -q '^not ok'
[ $? -ne 0 ]
ok $? "that page passes check-report.py too"
run sh "$TK_SRCDIR/data/antmill-report.sh"
expect_rc 2 "no DIR: usage"
done_testing
