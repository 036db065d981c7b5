# topo-antmill: cycles verified independently across families, Remark 1
# through topo-load, cycle-file errors, budgets and exit codes.
. "$TK_SRCDIR/tests/cli/lib.sh"

# col NAME: the value of column NAME in the 2-row TSV $out
col() { printf '%s\n' "$out" | awk -F '\t' -v c="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i } NR == 2 { print $k }'; }

topo-gen rrg n=60 d=5 -p 3 -s 4 >"$TMPD/rrg.topo"

# --- search, cycle file, independent verification --------------------------
run topo-antmill --delta 2 -s 5 -o "$TMPD/h.cyc" -P "$TMPD/h.pat" "$TMPD/rrg.topo"
expect_rc 0 "rrg delta 2"
d=$(col delta)
[ "$d" -ge 2 ] && [ "$(col lambda)" = "$d" ] && [ "$(col servers)" = 3 ]
ok $? "row: delta >= 2, lambda = delta, 3 servers" || diag "$out"
[ "$(grep -vc '^#' "$TMPD/h.cyc")" -eq 60 ] && [ "$(grep -v '^#' "$TMPD/h.cyc" | sort -n | uniq | wc -l)" -eq 60 ]
ok $? "cycle file: 60 distinct switch ids"
grep -q '^# delta ' "$TMPD/h.cyc" && grep -q '^# topology rrg n=60 d=5' "$TMPD/h.cyc"
ok $? "cycle file comments: topology and delta"
run topo-antmill --verify "$TMPD/h.cyc" "$TMPD/rrg.topo"
expect_rc 0 "--verify the produced cycle"
[ "$(col delta)" = "$d" ]
ok $? "verifier recomputes the same delta ($d)" || diag "$out"

# Throughput bound of Remark 1 in the row: 1/(p lambda), slowdown d lambda / avg.
run topo-antmill --verify "$TMPD/h.cyc" --lambda 2 --no-uniform "$TMPD/rrg.topo"
expect_rc 0 "--lambda 2"
awk -v b="$(col throughput_bound)" -v s="$(col slowdown)" -v a="$(col avg_distance)" \
    'BEGIN { exit !(b == 1/6 && (s - 5*2/a)^2 < 1e-20) }'
ok $? "throughput_bound 1/(3*2), slowdown 5*2/avg_distance" || diag "$out"
[ "$(col uniform_min_throughput)" = "-" ] && [ "$(col adverse)" = "-" ]
ok $? "--no-uniform leaves '-'"

# Independent check of the cycle with awk + topo-conv edge list: consecutive
# switches adjacent.
topo-conv -f edges "$TMPD/rrg.topo" 2>/dev/null | awk '!/^#/ { print $1, $2; print $2, $1 }' >"$TMPD/e.txt"
grep -v '^#' "$TMPD/h.cyc" >"$TMPD/ids"
awk 'NR == FNR { e[$1 " " $2] = 1; next } { c[n++] = $1 } END { for (i = 0; i < n; i++) if (!e[c[i] " " c[(i + 1) % n]]) exit 1 }' \
    "$TMPD/e.txt" "$TMPD/ids"
ok $? "cycle steps are links of the topology (edge list check)"

# --- families: H-hat and H cycles verified by --verify -----------------------
for spec in "rrg n=40 d=4" "torus sides=5,4" "slimfly q=5" "projective q=4" "projective q=3 levi=1" \
    "dragonfly a=4 h=2" "hypercube dim=4" "gdbg n=30 r=3"; do
    topo-gen $spec -s 2 >"$TMPD/f.topo" 2>/dev/null || topo-gen $spec >"$TMPD/f.topo"
    # --max-delta spends its budget on the first delta it cannot reach
    # (unless the radius or the unique-path table rules it out at once)
    for mode in "--hat --budget 10" "--max-delta --budget 0.3"; do
        run topo-antmill $mode --no-uniform -o "$TMPD/f.cyc" "$TMPD/f.topo"
        sd=$(col delta)
        run topo-antmill --verify "$TMPD/f.cyc" --no-uniform "$TMPD/f.topo"
        [ "$rc" -eq 0 ] && [ "$(col delta)" = "$sd" ]
        ok $? "$spec $mode: cycle verified, delta $sd" || diag "$out" "$err"
    done
done
# Expected deltas from the Ant Mill paper (an adverse traffic pattern on
# random regular graphs), section 4.1, and path counts.
topo-gen slimfly q=5 | topo-antmill --max-delta --budget 1 --no-uniform >"$TMPD/o" 2>&1
out=$(cat "$TMPD/o")
[ "$(col delta)" = 2 ]
ok $? "Hoffman-Singleton (Moore graph): delta 2 = diameter" || diag "$out"
topo-gen slimfly q=7 | topo-antmill --delta 2 --budget 5 --no-uniform >"$TMPD/o" 2>&1
out=$(cat "$TMPD/o")
[ "$(col delta)" = 2 ] && [ "$(col radius)" = 2 ]
ok $? "Slim Fly q=7: delta 2 = radius" || diag "$out"
topo-gen projective q=7 | topo-antmill --delta 2 --budget 5 --no-uniform >"$TMPD/o" 2>&1
out=$(cat "$TMPD/o")
[ "$(col delta)" = 2 ]
ok $? "demi-projective q=7: delta 2" || diag "$out"
topo-gen dragonfly a=4 h=2 | topo-antmill --delta 2 --budget 5 --no-uniform >"$TMPD/o" 2>&1
out=$(cat "$TMPD/o")
[ "$(col delta)" -ge 2 ]
ok $? "Dragonfly a=4 h=2: delta 2 found" || diag "$out"
run sh -c 'topo-gen hypercube dim=4 | topo-antmill --delta 2 --no-uniform'
expect_fail 1 'no Hamiltonian cycle with delta=2' "hypercube: delta 2 impossible, exit 1"

# --- Remark 1: topo-load's min throughput of (H,lambda) is 1/(p lambda) -----
if command -v topo-load >/dev/null 2>&1 && [ -e /tmp/status-load-core ] || command -v topo-load >/dev/null 2>&1; then
    run topo-antmill --verify "$TMPD/h.cyc" --lambda all -P "$TMPD/am" --no-uniform "$TMPD/rrg.topo"
    expect_rc 0 "--lambda all"
    L=1
    while [ "$L" -le "$d" ]; do
        [ -s "$TMPD/am.$L.pat" ]
        ok $? "pattern file am.$L.pat written"
        run topo-load -r min -P "$TMPD/am.$L.pat" "$TMPD/rrg.topo"
        t=$(col throughput)
        awk -v t="$t" -v L="$L" 'BEGIN { exit !(t != "" && (t - 1/(3*L))^2 < 1e-24) }'
        ok $? "Remark 1: (H,$L) min throughput $t = 1/(3*$L)" || diag "$out" "$err"
        L=$((L + 1))
    done
    for spec in "slimfly q=5" "projective q=5"; do
        topo-gen $spec -p 2 >"$TMPD/s.topo"
        topo-antmill --delta 2 --no-uniform -P "$TMPD/s.pat" "$TMPD/s.topo" >/dev/null
        run topo-load -r min -P "$TMPD/s.pat" "$TMPD/s.topo"
        awk -v t="$(col throughput)" 'BEGIN { exit !(t != "" && (t - 0.25)^2 < 1e-24) }'
        ok $? "Remark 1 on $spec p=2: (H,2) throughput 1/4" || diag "$out" "$err"
    done
else
    ok 0 "Remark 1 # SKIP topo-load not built yet"
fi

# -P - / -o -: the file on stdout, no row
run topo-antmill --verify "$TMPD/h.cyc" --lambda 1 -P - "$TMPD/rrg.topo"
printf '%s\n' "$out" >"$TMPD/stdout.pat"
topo-antmill --verify "$TMPD/h.cyc" --lambda 1 --no-uniform -P "$TMPD/file.pat" "$TMPD/rrg.topo" >/dev/null
[ "$rc" -eq 0 ] && cmp -s "$TMPD/stdout.pat" "$TMPD/file.pat"
ok $? "-P - writes the pattern file to stdout, no row"
run topo-antmill --verify "$TMPD/h.cyc" -o - "$TMPD/rrg.topo"
[ "$rc" -eq 0 ] && [ "$(printf '%s\n' "$out" | grep -v '^#' | sort -n | tr '\n' ' ')" = "$(grep -v '^#' "$TMPD/h.cyc" | sort -n | tr '\n' ' ')" ]
ok $? "-o - writes the cycle to stdout"
run topo-antmill -o - -P - "$TMPD/rrg.topo"
expect_rc 2 "-o - with -P -"

# --- determinism ---------------------------------------------------------------
OMP_NUM_THREADS=1 topo-antmill --delta 2 -s 9 -o "$TMPD/t1.cyc" --no-uniform "$TMPD/rrg.topo" >/dev/null
OMP_NUM_THREADS=2 topo-antmill --delta 2 -s 9 -o "$TMPD/t2.cyc" --no-uniform "$TMPD/rrg.topo" >/dev/null
cmp -s "$TMPD/t1.cyc" "$TMPD/t2.cyc"
ok $? "same cycle with 1 and 2 threads"
topo-antmill --delta 2 -s 9 --budget 0 -o "$TMPD/t3.cyc" --no-uniform "$TMPD/rrg.topo" >/dev/null
cmp -s "$TMPD/t1.cyc" "$TMPD/t3.cyc"
ok $? "same cycle whatever the budget"
# Random starts run in rounds (one start per thread) read in start order:
# on this graph delta 3 takes several starts (with -s 1 --starts 3 the
# seventh decides; with -s 8 the fourth), so rounds of 1, 2 and 3 starts
# end at different places, and the cycle is the same.
topo-gen rrg n=150 d=4 -s 2 -o "$TMPD/r150.topo" || exit 1
for args in "-s 1 --starts 3" "-s 8"; do
    # shellcheck disable=SC2086 # $args: several options
    topo-antmill --delta 3 $args --threads 1 -o "$TMPD/r1.cyc" "$TMPD/r150.topo" >/dev/null &&
        topo-antmill --delta 3 $args --threads 3 -o "$TMPD/r3.cyc" "$TMPD/r150.topo" >/dev/null &&
        cmp -s "$TMPD/r1.cyc" "$TMPD/r3.cyc"
    ok $? "--delta 3 $args: same cycle with 1 and 3 threads"
done
run topo-antmill --delta 3 --starts 0 "$TMPD/r150.topo"
expect_rc 2 "--starts 0"

# --- bad cycle files: one line naming file:line ------------------------------
printf '0\n1\n2\n' >"$TMPD/short.cyc"
run topo-antmill --verify "$TMPD/short.cyc" "$TMPD/rrg.topo"
expect_fail 1 "short.cyc:3: the cycle has 3 switches, the topology has 60" "wrong count"
# the first id again on content line 5 (file line 6)
first=$(grep -v '^#' "$TMPD/h.cyc" | head -1)
{ echo '# c'; grep -v '^#' "$TMPD/h.cyc" | sed "5s/.*/$first/"; } >"$TMPD/rep.cyc"
run topo-antmill --verify "$TMPD/rep.cyc" "$TMPD/rrg.topo"
re="rep.cyc:6: switch $first repeated \\(first at line 2\\)"
expect_fail 1 "$re" "repeated id"
{ grep -v '^#' "$TMPD/h.cyc" | sed '7s/.*/60/'; } >"$TMPD/range.cyc"
run topo-antmill --verify "$TMPD/range.cyc" "$TMPD/rrg.topo"
expect_fail 1 'range.cyc:7: switch 60 out of range 0..59' "id out of range"
seq 0 59 >"$TMPD/seq.cyc"
run topo-antmill --verify "$TMPD/seq.cyc" "$TMPD/rrg.topo"
expect_fail 1 'seq.cyc:[0-9]+: not a Hamiltonian cycle: no link from switch [0-9]+ to switch [0-9]+' \
    "non-Hamiltonian order"
printf '0\nzz\n' >"$TMPD/junk.cyc"
run topo-antmill --verify "$TMPD/junk.cyc" "$TMPD/rrg.topo"
expect_fail 1 "junk.cyc:2: expected a switch id" "junk line"

# --- no cycle within the budget: message, exit 1, no file ------------------------
run topo-antmill --hat --budget 0.3 -o "$TMPD/p.cyc" "$TK_SRCDIR/data/petersen.topo"
expect_fail 1 'no cycle with delta=0 found within 0.3 s|search space exhausted' \
    "Petersen (not Hamiltonian): stops, exit 1"
[ ! -e "$TMPD/p.cyc" ]
ok $? "no cycle file left behind"
run sh -c 'topo-gen ring n=6; topo-gen ring n=7' 
printf '%s\n' "$out" >"$TMPD/two.topo"
run topo-antmill -o "$TMPD/x.cyc" "$TMPD/two.topo"
expect_fail 1 'take one graph' "-o with two graphs"
run topo-antmill --no-uniform --hat "$TMPD/two.topo"
[ "$rc" -eq 0 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 3 ]
ok $? "rows for two graphs without -o"

# --- usage errors ------------------------------------------------------------------
run topo-antmill --delta 0 "$TMPD/rrg.topo"
expect_rc 2 "--delta 0"
run topo-antmill --lambda all "$TMPD/rrg.topo"
expect_rc 2 "--lambda all without -P"
run topo-antmill --budget x "$TMPD/rrg.topo"
expect_rc 2 "--budget x"
run topo-antmill --hat --delta 2 "$TMPD/rrg.topo"
expect_rc 2 "--hat with --delta"

# --json: the same names and values as the TSV row (time aside).
topo-gen torus sides=5,4 -p 2 >"$TMPD/j.topo"
topo-antmill --hat "$TMPD/j.topo" >"$TMPD/j.tsv"
topo-antmill --hat --json "$TMPD/j.topo" >"$TMPD/j.json"
topo-antmill --hat --json --no-uniform "$TMPD/j.topo" >"$TMPD/j2.json"
/usr/bin/python3 - "$TMPD/j.tsv" "$TMPD/j.json" "$TMPD/j2.json" <<'PY'
import json, sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
objs = [json.loads(l) for l in open(sys.argv[2])]
assert len(rows) == 2 and len(objs) == 1
head, r, o = rows[0], rows[1], objs[0]
assert list(o) == head, (list(o), head)
for k, v in zip(head, r):
    if k != "time":
        assert str(o[k]) == v or float(o[k]) == float(v), (k, o[k], v)
o2 = json.loads(open(sys.argv[3]).read())
assert o2["uniform_min_throughput"] is None and o2["adverse"] is None
PY
ok $? "--json: same columns and values as the TSV row; skipped values are null"

done_testing
