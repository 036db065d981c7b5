# topo-mcf: closed forms, options, output shapes, errors and exit codes.
. "$TK_SRCDIR/tests/cli/lib.sh"

T=$(printf '\t')
HEADER="name${T}routing${T}pattern${T}theta${T}throughput${T}upper_bound${T}gap${T}method${T}time${T}status"

# near X WANT [TOL]: |X - WANT| <= TOL (default 1e-9 relative)
near() { awk -v x="$1" -v w="$2" -v t="${3:-1e-9}" 'BEGIN { d = x - w; if (d < 0) d = -d; exit !(d <= t * (w < 0 ? -w : w) + 1e-12) }'; }
col() { printf '%s\n' "$out" | awk -F '\t' -v c="$1" -v r="${2:-2}" 'NR == r { print $c }'; }

topo-gen ring n=8 >"$TMPD/ring8.topo"
topo-gen hypercube dim=4 >"$TMPD/q4.topo"
topo-gen complete n=4 >"$TMPD/k4.topo"
topo-gen rrg n=40 d=6 -s 3 >"$TMPD/rrg40.topo"

# --- closed forms -------------------------------------------------------------
# Ring C_8 uniform: capacity 16 arcs, demand 1/7 per pair, 16 hops per source:
# theta = 16 / (8 * 16/7) = 7/8.
run topo-mcf "$TMPD/ring8.topo"
expect_rc 0 "ring uniform"
[ "$(printf '%s\n' "$out" | head -n 1)" = "$HEADER" ]
ok $? "header line" || diag "$out"
near "$(col 4)" 0.875
ok $? "ring C_8 uniform: theta 7/8" || diag "$out"
[ "$(col 2)" = "-" ] && [ "$(col 3)" = "uniform" ] && [ "$(col 8)" = "exact" ] && [ "$(col 7)" = 0 ]
ok $? "routing -, pattern uniform, method exact, gap 0" || diag "$out"
near "$(col 5)" 0.875
ok $? "throughput = min(1, theta)" || diag "$out"

run topo-mcf -r min "$TMPD/ring8.topo"
near "$(col 4)" 0.875 && [ "$(col 2)" = min ]
ok $? "ring C_8 under min: 7/8 too" || diag "$out"

# Hypercube Q_4: bisection 8 arcs each way carry 64/15: theta = 15/8 for
# the switch-level all-to-all (no injection limit).
run topo-mcf -m all-to-all "$TMPD/q4.topo"
near "$(col 4)" 1.875 && [ "$(col 5)" = 1 ]
ok $? "Q_4 all-to-all: theta 15/8, throughput 1" || diag "$out"
# The default is the server-level uniform, the same pattern as -m uniform
# under the same label (issue 25): capped at 1 by the servers' injection.
run topo-mcf "$TMPD/q4.topo"
near "$(col 4)" 1 && [ "$(col 3)" = uniform ]
ok $? "Q_4 default: theta 1 (server injection), label uniform" || diag "$out"
topo-gen fattree k=4 levels=3 >"$TMPD/ft4.topo"
run topo-mcf "$TMPD/ft4.topo"
d=$(col 4) dl=$(col 3)
run topo-mcf -m uniform "$TMPD/ft4.topo"
[ "$dl" = uniform ] && near "$d" "$(col 4)" && near "$d" 1
ok $? "fat-tree k=4: default theta $d = -m uniform $(col 4) = 1 (not 0.77: server-less switches are no endpoints)" ||
    diag "$out"

# Approximation: within its certified gap, brackets the exact value.
run topo-mcf -m all-to-all --method approx --eps 0.01 "$TMPD/q4.topo"
awk -v l="$(col 4)" -v u="$(col 6)" -v g="$(col 7)" 'BEGIN { exit !(l <= 1.875 + 1e-9 && u >= 1.875 - 1e-9 && g <= 0.01) }'
ok $? "Q_4 approx: [theta, upper_bound] contains 15/8, gap <= eps" || diag "$out"
[ "$(col 8)" = approx ]
ok $? "method column says approx" || diag "$out"

# Shift by one switch on C_8 (switch level: no injection limit):
# unrestricted 1/1 + 1/7 (both ways round), minimal 1 (Remark 1, lambda 1).
run topo-mcf -m 'shift offset=1 level=switch' "$TMPD/ring8.topo"
near "$(col 4)" 1.1428571428571428
ok $? "C_8 switch shift: theta 8/7 unrestricted" || diag "$out"
run topo-mcf -r min -m 'shift offset=1 level=switch' "$TMPD/ring8.topo"
near "$(col 4)" 1
ok $? "C_8 switch shift under min: theta 1" || diag "$out"
# Server level: each server's injection limit 1 caps theta at 1.
run topo-mcf -m 'shift offset=1 level=server' "$TMPD/ring8.topo"
near "$(col 4)" 1
ok $? "C_8 server shift: capped at 1 by the injection limit" || diag "$out"

# Dragonfly ADV+1 under dragonfly-min: l/(a p) = 1/8 (a=4, p=2, l=1).
topo-gen dragonfly a=4 h=2 p=2 >"$TMPD/df.topo"
topo-pattern adv i=1 "$TMPD/df.topo" >"$TMPD/adv.pat"
run topo-mcf -r dragonfly-min -P "$TMPD/adv.pat" "$TMPD/df.topo"
near "$(col 4)" 0.125 && [ "$(col 3)" = "adv i=1" ]
ok $? "Dragonfly ADV+1 under dragonfly-min: 1/8, pattern column is the spec" || diag "$out"

# --links: the arcs with a positive dual price are saturated (load 1) and
# the prices sum to 1.  On K_4 with one pair 0 -> 1 (max flow 3 = the three
# arcs into 1 or out of 0), every listed arc is at 0 or at 1.
run topo-mcf --links "$TMPD/ring8.topo"
rows=$(printf '%s\n' "$out" | awk 'NR > 1' | wc -l)
sum=$(printf '%s\n' "$out" | awk -F '\t' 'NR > 1 { s += $8 } END { print s }')
full=$(printf '%s\n' "$out" | awk -F '\t' 'NR > 1 && ($7 < 1 - 1e-9 || $7 > 1 + 1e-9)' | wc -l)
[ "$(printf '%s\n' "$out" | head -n 1)" = "name${T}routing${T}pattern${T}tail${T}head${T}class${T}load${T}dual" ] &&
    [ "$rows" -ge 1 ] && [ "$full" -eq 0 ] && near "$sum" 1 1e-9
ok $? "--links on C_8: saturated arcs at load 1, duals sum to 1" || diag "$out"
printf 'topokit-pattern 1\nlevel switch\nendpoints 4\ndemands 1\n0 1 0.25\n' >"$TMPD/one.pat"
run topo-mcf --links -P "$TMPD/one.pat" "$TMPD/k4.topo"
ends=$(printf '%s\n' "$out" | awk -F '\t' 'NR > 1 { print ($4 == 0 ? "out0" : ($5 == 1 ? "in1" : "other")) }' | sort -u | tr '\n' ' ')
[ "$ends" = "out0 " ] || [ "$ends" = "in1 " ]
ok $? "--links on K_4, one pair: the cut is the arcs out of 0 or into 1" || diag "$out"
run topo-mcf -P "$TMPD/one.pat" "$TMPD/k4.topo"
near "$(col 4)" 12
ok $? "K_4 one pair of weight 1/4: theta 3 / (1/4) = 12" || diag "$out"

# --json
run topo-mcf --json "$TMPD/ring8.topo"
printf '%s\n' "$out" | grep -q '^{"name":"ring n=8","routing":"-","pattern":"uniform","theta":0.87'
ok $? "--json object" || diag "$out"
if command -v python3 >/dev/null 2>&1; then
    printf '%s\n' "$out" | python3 -c 'import json,sys; [json.loads(l) for l in sys.stdin]'
    ok $? "--json parses"
fi

# Several graphs, several patterns: one row per graph and pattern.
topo-pattern all-to-all "$TMPD/ring8.topo" >"$TMPD/a2a.pat"
run sh -c "cat '$TMPD/ring8.topo' '$TMPD/ring8.topo' | topo-mcf -P '$TMPD/a2a.pat' -m 'shift offset=2 level=switch'"
[ "$(printf '%s\n' "$out" | wc -l)" -eq 5 ]
ok $? "2 graphs x 2 patterns = 4 rows" || diag "$out"
near "$(col 4 2)" 0.875
ok $? "all-to-all pattern file = default uniform on C_8" || diag "$out"

# Thread count does not change the numbers.
a=$(OMP_NUM_THREADS=1 topo-mcf --method approx "$TMPD/rrg40.topo" | cut -f 1-8)
b=$(OMP_NUM_THREADS=2 topo-mcf --method approx --threads 2 "$TMPD/rrg40.topo" | cut -f 1-8)
[ -n "$a" ] && [ "$a" = "$b" ]
ok $? "same output with 1 and 2 threads"

# Batches (--batch): a switch permutation on rrg n=40 (exact theta from
# the LP).  At --batch 1 every tree is grown just before its step, so none
# is grown again; at --batch 16 some of a batch's trees are no longer
# (1+eps/2)-short when their source's turn comes and are grown again
# (JSON "regrown").  Either way [theta, upper_bound] brackets the optimum
# within eps, and the bytes do not depend on the thread count.
jnum() { printf '%s\n' "$out" | sed -E "s/.*\"$1\":([-+0-9.eE]+).*/\1/"; }
run topo-mcf --method exact -m 'switch-perm level=switch' "$TMPD/rrg40.topo"
ex=$(col 4)
for b in 1 16; do
    set -- --method approx --eps 0.1 --batch $b -m 'switch-perm level=switch' --json "$TMPD/rrg40.topo"
    a=$(OMP_NUM_THREADS=1 topo-mcf --threads 1 "$@" | sed -E 's/"time":[-+0-9.eE]+//')
    run env OMP_NUM_THREADS=2 topo-mcf --threads 2 "$@"
    rg=$(jnum regrown)
    [ "$rc" -eq 0 ] && [ -n "$a" ] && [ "$a" = "$(printf '%s\n' "$out" | sed -E 's/"time":[-+0-9.eE]+//')" ] &&
        awk -v l="$(jnum theta)" -v u="$(jnum upper_bound)" -v g="$(jnum gap)" -v x="$ex" \
            'BEGIN { exit !(l <= x * (1 + 1e-9) && u >= x * (1 - 1e-9) && g <= 0.1) }' &&
        if [ $b = 1 ]; then [ "$rg" = 0 ]; else [ "$rg" -gt 0 ]; fi
    ok $? "approx --batch $b: brackets the exact $ex within eps, regrown $rg, same bytes at 1 and 2 threads" ||
        diag "$out"
done
run topo-mcf --method approx --batch 0 "$TMPD/ring8.topo"
[ "$rc" -eq 2 ] && printf '%s\n' "$err" | grep -q -- "--batch"
ok $? "--batch 0 is a usage error" || diag "$err"

# -o writes atomically.
run topo-mcf -o "$TMPD/out.tsv" "$TMPD/ring8.topo"
[ "$rc" -eq 0 ] && [ -z "$out" ] && head -n 1 "$TMPD/out.tsv" | grep -q '^name'
ok $? "-o FILE"

# --- failures -----------------------------------------------------------------
run topo-mcf --method exact --time-limit 0.000001 "$TMPD/rrg40.topo"
expect_fail 1 "^topo-mcf: .*time limit of 1e-06 s reached" "exact: time limit is exit 1 with a clear message"
run topo-mcf -m all-to-all --method approx --eps 0.000001 --time-limit 0.05 "$TMPD/rrg40.topo"
[ "$rc" -eq 0 ] && [ "$(col 10)" = time-limit ] &&
    awk -v l="$(col 4)" -v u="$(col 6)" -v g="$(col 7)" 'BEGIN { exit !(l > 0 && u >= l && g > 0.000001) }'
ok $? "approx: stopped by the time limit, the row carries the certified interval and status time-limit (issue 25)" ||
    diag "$out" "$err"
# (GLPK's own failures: tests/unit/test_mcf.c, through the glue's test seam)
run topo-mcf --method exact --time-limit 0.000001 -o "$TMPD/fail.tsv" "$TMPD/rrg40.topo"
expect_fail 1 "^topo-mcf: .*time limit" "a failed -o run is exit 1 with a one-line error"
[ ! -e "$TMPD/fail.tsv" ]
ok $? "no file left by a failed -o run"

run topo-mcf --eps 0 "$TMPD/ring8.topo"
[ "$rc" -eq 2 ] && [ -z "$out" ] &&
    printf '%s\n' "$err" | grep -q -- "^topo-mcf: --eps 0: must be greater than 0 and at most 0.5$"
ok $? "--eps 0 is a usage error" || diag "$err"
run topo-mcf -P -
[ "$rc" -eq 2 ] && [ -z "$out" ] &&
    printf '%s\n' "$err" | head -n 1 | grep -q -- "^topo-mcf: -P -: the pattern and the topology cannot both be standard input$"
ok $? "-P - with the topology on stdin is a usage error" || diag "$err"
run topo-mcf -P "$TMPD/one.pat" -P - -
[ "$rc" -eq 2 ] && printf '%s\n' "$err" | head -n 1 | grep -q -- "cannot both be standard input"
ok $? "a second -P - with the topology '-' is a usage error" || diag "$err"
run topo-mcf --eps x "$TMPD/ring8.topo"
[ "$rc" -eq 2 ] && printf '%s\n' "$err" | grep -q -- "^topo-mcf: --eps x: not a number$"
ok $? "--eps x is a usage error" || diag "$err"
run topo-mcf --eps 0.6 "$TMPD/ring8.topo"
[ "$rc" -eq 2 ] && printf '%s\n' "$err" | grep -q -- "^topo-mcf: --eps 0.6: must be greater than 0 and at most 0.5$"
ok $? "--eps 0.6 is a usage error" || diag "$err"
run topo-mcf --time-limit -1 "$TMPD/ring8.topo"
[ "$rc" -eq 2 ] && printf '%s\n' "$err" | grep -q -- "^topo-mcf: --time-limit -1: must be greater than 0 and at most 1e+09$"
ok $? "--time-limit -1 is a usage error" || diag "$err"
run topo-mcf --time-limit inf "$TMPD/ring8.topo"
[ "$rc" -eq 2 ] && printf '%s\n' "$err" | grep -q -- "^topo-mcf: --time-limit inf: not a finite number$"
ok $? "--time-limit inf is a usage error" || diag "$err"
run topo-mcf --method simplex "$TMPD/ring8.topo"
[ "$rc" -eq 2 ] && printf '%s\n' "$err" | grep -q -- "^topo-mcf: --method simplex: must be exact, approx or auto$"
ok $? "--method simplex is a usage error" || diag "$err"
run topo-mcf -r bogus "$TMPD/ring8.topo"
[ "$rc" -eq 2 ] && printf '%s\n' "$err" | grep -q "bogus"
ok $? "-r bogus is a usage error naming the model" || diag "$err"
run topo-mcf -r min --method approx "$TMPD/ring8.topo"
[ "$rc" -eq 2 ]
ok $? "-r with --method approx is a usage error"
run topo-mcf -P "$TMPD/nope.pat" "$TMPD/ring8.topo"
expect_fail 1 "^topo-mcf: .*nope.pat" "missing pattern file"
topo-gen ring n=5 | topo-pattern all-to-all >"$TMPD/five.pat"
run topo-mcf -P "$TMPD/five.pat" "$TMPD/ring8.topo"
expect_fail 1 "^topo-mcf: .*five.pat" "pattern made for another size"
run topo-mcf -m 'nosuchkind' "$TMPD/ring8.topo"
expect_fail 1 "^topo-mcf: .*nosuchkind" "unknown pattern kind"
printf 'junk\n' >"$TMPD/junk.topo"
run topo-mcf "$TMPD/junk.topo"
[ "$rc" -eq 1 ] && [ -z "$out" ]
ok $? "malformed topology: exit 1, no output"

# Cross-tool order: an oblivious routing's saturation throughput (topo-load)
# can only be improved by re-weighting the same paths (topo-mcf -r), and
# that only by letting every path in (topo-mcf without -r):
#   topo-load -r R  <=  topo-mcf -r R  <=  topo-mcf.
# col FILE NAME: the value of column NAME in the second line of FILE.
col() { awk -F '\t' -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i } NR == 2 { print $k }' "$1"; }
for g in "rrg n=16 d=3 -s 5 -p 2" "torus sides=4,3" "gdbg n=12 r=3 -p 2"; do
    topo-gen $g >"$TMPD/x.topo"
    for pk in "server-perm -s 2" "random-shift -s 4" "uniform"; do
        topo-pattern $pk "$TMPD/x.topo" >"$TMPD/x.pat"
        for r in min ecmp ksp:3 ksp:3,spread; do
            topo-load -r "$r" -P "$TMPD/x.pat" "$TMPD/x.topo" >"$TMPD/l.tsv" &&
                topo-mcf -r "$r" -P "$TMPD/x.pat" "$TMPD/x.topo" >"$TMPD/mr.tsv" &&
                topo-mcf -P "$TMPD/x.pat" "$TMPD/x.topo" >"$TMPD/m.tsv"
            st=$?
            l=$(col "$TMPD/l.tsv" throughput) mr=$(col "$TMPD/mr.tsv" throughput)
            m=$(col "$TMPD/m.tsv" throughput)
            [ $st -eq 0 ] && awk -v l="$l" -v mr="$mr" -v m="$m" \
                'BEGIN { exit !(l <= mr * (1 + 1e-9) && mr <= m * (1 + 1e-9) && l > 0) }'
            ok $? "$g, $pk, $r: topo-load $l <= topo-mcf -r $mr <= topo-mcf $m"
        done
    done
done

# The path LP against the arc LP: with every simple path allowed
# (allpath:H, H = n - 1) the path-restricted optimum is the unrestricted
# one, since every flow decomposes into simple paths.  This checks the path
# LP end to end, including the weak-duality bound on theta it hands to
# GLPK (first-arc and last-arc cuts, unit-length volume), which is tight
# in several of these cases.
for sd in 1 2 3; do
    topo-gen rrg n=12 d=3 -s "$sd" >"$TMPD/y.topo"
    for pk in "random-shift level=switch" "switch-perm level=switch" "hotspot"; do
        topo-mcf -r allpath:11 -m "$pk" -s "$sd" "$TMPD/y.topo" >"$TMPD/pa.tsv" &&
            topo-mcf -m "$pk" -s "$sd" "$TMPD/y.topo" >"$TMPD/aa.tsv"
        st=$?
        pa=$(col "$TMPD/pa.tsv" theta) aa=$(col "$TMPD/aa.tsv" theta)
        [ $st -eq 0 ] && awk -v a="$pa" -v b="$aa" \
            'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= 1e-9 * b) }'
        ok $? "rrg(12,3) s=$sd, $pk: path LP over all simple paths $pa = arc LP $aa"
    done
done

# How ksp breaks ties decides a concentrated pattern's throughput.  On rrg
# n=700 d=16 (seed 1), pair 140 -> 53 has 82 paths of 4 hops and none
# shorter (topo-route.sh); ksp:7 takes 7 that share the first link (theta
# 1), ksp:7,spread 7 whose only shared arcs are 140-487, 129-659-53 and
# 530-53: three disjoint paths plus at most two through those, theta 5;
# allpath:4 has all 82, limited by the 16 links out of 140: theta 16.
topo-gen rrg n=700 d=16 -s 1 >"$TMPD/r700.topo"
printf 'topokit-pattern 1\nlevel switch\nendpoints 700\ndemands 1\n140 53 1\n' >"$TMPD/one.pat"
for rt in ksp:7=1 ksp:7,spread=5 allpath:4=16; do
    run topo-mcf -r "${rt%=*}" -P "$TMPD/one.pat" "$TMPD/r700.topo"
    [ "$rc" -eq 0 ] && [ "$(printf '%s\n' "$out" | awk -F '\t' 'NR == 2 { print $4, $6 }')" = "${rt#*=} ${rt#*=}" ]
    ok $? "rrg n=700 d=16, one pair 140 -> 53, ${rt%=*}: theta = upper_bound = ${rt#*=}" || diag "$out"
done

# --- the barrier (--lp barrier) -----------------------------------------------
# An interior point method on each source's shortest-path DAG, certified by a
# rebuilt feasible flow (theta) and the dual bound over all arcs
# (upper_bound).  Closed forms where shortest paths carry the optimum:
c2() { printf '%s\n' "$out" | awk -F '\t' -v c="$1" 'NR == 2 { print $c }'; }
run topo-mcf --lp barrier --json "$TMPD/q4.topo"
printf '%s\n' "$out" | grep -q '"lp":"barrier"'
ok $? "Q_4 --lp barrier: the barrier answered (JSON lp)" || diag "$out"
run topo-mcf -m all-to-all --lp barrier "$TMPD/q4.topo"
near "$(c2 4)" 1.875 && near "$(c2 6)" 1.875 &&
    awk -v g="$(c2 7)" 'BEGIN { exit !(g >= 0 && g <= 1e-9) }' && [ "$(c2 8)" = exact ]
ok $? "Q_4 barrier: theta and upper_bound 15/8, gap <= 1e-9, method exact" || diag "$out"
run topo-mcf --lp barrier "$TMPD/ring8.topo"
near "$(c2 4)" 0.875
ok $? "C_8 barrier: theta 7/8" || diag "$out"
# rrg(49,8) s=1: certified, equal to the simplex to 1e-9; rrg(30,4) s=1:
# the optimum leaves the shortest paths, so the barrier declines and the
# simplex answers (JSON lp says which ran).
topo-gen rrg n=49 d=8 -s 1 >"$TMPD/r49.topo"
run topo-mcf --lp simplex "$TMPD/r49.topo"
s49=$(c2 4)
run topo-mcf --lp barrier --json "$TMPD/r49.topo"
b49=$(printf '%s\n' "$out" | sed 's/.*"theta":\([^,]*\),.*/\1/')
printf '%s\n' "$out" | grep -q '"lp":"barrier"' && near "$b49" "$s49"
ok $? "rrg(49,8) barrier $b49 = simplex $s49" || diag "$out"
topo-gen rrg n=30 d=4 -s 1 >"$TMPD/r30.topo"
run topo-mcf --lp barrier --json "$TMPD/r30.topo"
printf '%s\n' "$out" | grep -q '"lp":"simplex"' && printf '%s\n' "$out" | grep -q '"gap":0,'
ok $? "rrg(30,4): barrier not certified, the simplex answered" || diag "$out"
run topo-mcf --lp simplex --json "$TMPD/r49.topo"
printf '%s\n' "$out" | grep -q '"lp":"simplex"'
ok $? "--lp simplex: JSON lp simplex" || diag "$out"
# --links from the barrier: loads of the certified flow, at most 1
run topo-mcf --lp barrier --links "$TMPD/q4.topo"
[ "$rc" -eq 0 ] && [ "$(printf '%s\n' "$out" | grep -c .)" -gt 1 ] &&
    printf '%s\n' "$out" | awk -F '\t' 'NR > 1 && ($7 > 1 + 1e-9 || $7 < 0.999999 || $8 <= 0) { bad = 1 } END { exit bad }'
ok $? "Q_4 barrier --links: saturated links at load 1, positive duals" || diag "$out"
# server level: the injection cap binds (theta 1)
run topo-mcf --lp barrier -m 'uniform' "$TMPD/r49.topo"
near "$(c2 4)" 1 && [ "$(c2 7)" = 0 ]
ok $? "rrg(49,8) server uniform, barrier: capped at 1, gap 0" || diag "$out"
run topo-mcf --lp barrier --time-limit 0.000001 "$TMPD/r49.topo"
expect_fail 1 "time limit" "--lp barrier --time-limit: exit 1, one line"
run topo-mcf --lp interior "$TMPD/ring8.topo"
[ "$rc" -eq 2 ] && [ -z "$out" ] && printf '%s\n' "$err" | grep -q '^topo-mcf: --lp interior: must be simplex, barrier or auto$'
ok $? "--lp interior: usage error" || diag "$err"

# --- the path LP by the barrier (-r with --lp barrier) -----------------------
# Certified by a flow over the paths (theta) and the weak-duality bound of
# its capacity duals over the path sets (upper_bound), within 1e-9; when it
# falls short, the simplex over the paths the barrier's flow uses, else over
# all.  Whatever answered, theta must equal the simplex's to 1e-9 and
# upper_bound must hold it.
pb_check() { # DESC TOPO ROUTING MAKE SEED
    local sx bx bu
    run topo-mcf --no-presolve --lp simplex -r "$3" -m "$4" -s "$5" "$2"
    sx=$(c2 4)
    run topo-mcf --no-presolve --lp barrier --json -r "$3" -m "$4" -s "$5" "$2"
    bx=$(printf '%s\n' "$out" | sed 's/.*"theta":\([^,]*\),.*/\1/')
    bu=$(printf '%s\n' "$out" | sed 's/.*"upper_bound":\([^,]*\),.*/\1/')
    [ "$rc" -eq 0 ] && printf '%s\n' "$out" | grep -q '"lp":"barrier"' &&
        awk -v s="$sx" -v b="$bx" -v u="$bu" 'BEGIN { d = s - b; if (d < 0) d = -d
            exit !(s != "" && d <= 1e-9 * s && u >= s * (1 - 1e-12) && u - b <= 1e-9 * u) }'
    ok $? "$1, -r $3, $4 -s $5: barrier $bx (upper $bu) = simplex $sx" || diag "$out"
}
topo-gen gdbg n=60 r=8 >"$TMPD/g60.topo"
topo-gen rrg n=40 d=6 -s 3 >"$TMPD/r40.topo"
for s in 1 2 3; do
    pb_check "gdbg(60,8)" "$TMPD/g60.topo" allpath:3 "switch-perm level=switch" $s
    pb_check "gdbg(60,8)" "$TMPD/g60.topo" allpath:3 "random-shift level=switch" $s
    pb_check "rrg(40,6)" "$TMPD/r40.topo" ksp:4 "switch-perm level=switch" $s
    pb_check "rrg(40,6)" "$TMPD/r40.topo" ksp:3,spread "random-shift level=switch" $s
done
pb_check "rrg(40,6)" "$TMPD/r40.topo" ecmp "all-to-all" 1
pb_check "rrg(40,6)" "$TMPD/r40.topo" valiant "switch-perm level=switch" 1
# closed forms through the barrier: the ring's all-to-all under min (7/8 on
# C_8 as unrestricted: shortest paths carry it), Q_4 uniform under min
run topo-mcf --lp barrier -r min "$TMPD/ring8.topo"
near "$(c2 4)" 0.875 && awk -v g="$(c2 7)" 'BEGIN { exit !(g >= 0 && g <= 1e-9) }'
ok $? "C_8 -r min, barrier: theta 7/8, gap <= 1e-9" || diag "$out"
run topo-mcf -m all-to-all --lp barrier -r min "$TMPD/q4.topo"
near "$(c2 4)" 1.875
ok $? "Q_4 -r min, barrier: theta 15/8" || diag "$out"
# --links from the path barrier: loads at most 1, positive duals, and at
# least one link at load 1
run topo-mcf --lp barrier -r allpath:3 -m "switch-perm level=switch" --links "$TMPD/g60.topo"
[ "$rc" -eq 0 ] && [ "$(printf '%s\n' "$out" | grep -c .)" -gt 1 ] &&
    printf '%s\n' "$out" | awk -F '\t' 'NR > 1 { if ($7 > 1 + 1e-9 || $8 <= 0) bad = 1; if ($7 > 1 - 1e-6) top = 1 } END { exit bad || !top }'
ok $? "gdbg(60,8) allpath:3 barrier --links: loads <= 1, one at 1, duals > 0" || diag "$out"
run topo-mcf --lp barrier -r allpath:3 -m "switch-perm level=switch" --time-limit 0.000001 "$TMPD/g60.topo"
expect_fail 1 "^topo-mcf: .*time limit of 1e-06 s reached" "-r with --lp barrier --time-limit: exit 1, one line naming the run's limit"
# the stages share the limit: path enumeration and the split check use it
# up here, and the simplex's message names the run's limit, not what was
# left of it
run topo-mcf --lp simplex -r allpath:3 -m "switch-perm level=switch" --time-limit 0.000001 "$TMPD/g60.topo"
expect_fail 1 "^topo-mcf: .*time limit of 1e-06 s reached" "-r with --lp simplex --time-limit: exit 1, one line naming the run's limit"

# --- GDBG's reversal: shift a and shift E-a carry the same theta ----------
# GDBG(n, d) (arcs v -> d v + j mod n) has the automorphism v -> n-1-v; with
# servers numbered switch-major it maps endpoint x to E-1-x, so shift a and
# shift E-a are the same LP up to relabelling (fig13.sh and fig14.sh average
# GDBG's random shift exactly over offsets 1..E/2 on this ground).
topo-gen gdbg n=30 r=4 >"$TMPD/g30.topo"
topo-gen gdbg n=15 r=4 -p 2 >"$TMPD/g15p2.topo"
# The negative control: the directed circulant v -> v+1, v+3 (mod 10) has
# no such automorphism; under min, shift 1 takes the +1 arcs (theta 1) and
# shift 9 the three +3 arcs of 3+3+3 (theta 1/3).
{ printf 'topokit-graph 1\nspec circulant-digraph\nswitches 10\ndirected 1\nservers 1\nlinks 20\n'
  for v in 0 1 2 3 4 5 6 7 8 9; do echo "$v $(((v + 1) % 10))"; echo "$v $(((v + 3) % 10))"; done
  echo end; } >"$TMPD/c10.topo"
for spec in "g30.topo 30 switch allpath:3 0" "g15p2.topo 30 server allpath:3 0" "c10.topo 10 switch min 1"; do
    set -- $spec
    : >"$TMPD/sym.args"
    for a in $(seq 1 $(($2 - 1))); do printf 'shift offset=%d level=%s\n' "$a" "$3" >>"$TMPD/sym.args"; done
    out=$(while IFS= read -r m; do printf '%s\0' -m "$m"; done <"$TMPD/sym.args" |
        xargs -0 topo-mcf --lp simplex -r "$4" "$TMPD/$1" 2>&1)
    printf '%s\n' "$out" | awk -F '\t' -v e="$2" -v neg="$5" 'NR > 1 { t[NR - 1] = $4; n++ }
        END { if (n != e - 1) exit 1
              for (a = 1; a < e; a++) { d = t[a] - t[e - a]; if (d < 0) d = -d; if (d > 1e-9 * t[a]) bad++ }
              if (neg) r = !(bad > 0 && t[1] == 1 && t[e - 1] * 3 == 1); else r = (bad > 0)
              exit r }'
    rs=$?
    if [ "$5" = 1 ]; then
        ok $rs "control, directed circulant (+1, +3): theta(shift 1) = 1, theta(shift 9) = 1/3" || diag "$out"
    else
        ok $rs "GDBG reversal ($1, $3 level): theta(shift a) = theta(shift $2-a) for every a" || diag "$out"
    fi
done

# fig-lib.inc's shift_mean (the figures' exact GDBG shift mean, offsets
# 1..E/2 in batches of 64, weighted for E-a) against the plain mean over all
# E-1 offsets: GDBG(15, 4) with 9 servers per switch, E = 135 (two batches).
topo-gen gdbg n=15 r=4 -p 9 >"$TMPD/g15p9.topo"
tk_shifts() { # 'A1 A2 ...'
    local o_
    printf '%s\n' $1 | while read -r o_; do printf '%s\0' -m "shift offset=$o_ level=server"; done |
        xargs -0 topo-mcf --lp simplex -r allpath:3 "$TMPD/g15p9.topo" | awk -F '\t' 'NR > 1 { print $4 }'
}
W=$TMPD
. "$TK_SRCDIR/tests/bench/fig-lib.inc"
fig_shifts() { shifts_theta "$TMPD/g15p9.topo" server "$1"; }
sm=$(shift_mean 135 fig_shifts)
all=$( { tk_shifts "$(seq -s ' ' 1 64)"; tk_shifts "$(seq -s ' ' 65 128)"; tk_shifts "$(seq -s ' ' 129 134)"; } |
    awk '{ s += $1; n++ } END { if (n == 134) printf "%.17g", s / n }')
set -- $sm
awk -v a="$1" -v h="$2" -v n="$3" -v b="$all" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b != "" && n == 134 && h == 0 && d <= 1e-12 * b) }'
ok $? "fig-lib shift_mean over 67 offsets = the mean of all 134 ($sm; $all)"

# fig-lib.inc's sample_until_ci resumes a kept sample file (FIG_KEEP):
# seeds 1..6 kept, then extended to 12, give the same file and statistics
# as one run to 12; a file that is not one number per line is refused
# naming its line, and a sample that prints no number names its seed.
fake_sample() { awk -v s="$1" 'BEGIN { printf "%.6f\n", 1 + (s * 7919 % 101) / 50 }'; }
bad_sample() { [ "$1" -lt 4 ] && fake_sample "$1"; return 0; }
rm -f "$TMPD/k1.samples" "$TMPD/k2.samples"
r1=$( (MIN=3 MAX=6; sample_until_ci "$TMPD/k1.samples" fake_sample) ) &&
    r2=$( (MIN=3 MAX=12; sample_until_ci "$TMPD/k1.samples" fake_sample) ) &&
    r3=$( (MIN=3 MAX=12; sample_until_ci "$TMPD/k2.samples" fake_sample) ) &&
    [ "$(wc -l <"$TMPD/k1.samples")" -eq 12 ] && cmp -s "$TMPD/k1.samples" "$TMPD/k2.samples" &&
    [ "$r2" = "$r3" ] && [ "${r1##* }" = 6 ] && [ "${r2##* }" = 12 ]
ok $? "fig-lib sample_until_ci: 6 kept samples extended to 12 = one run of 12 ($r1 / $r2)"
printf '0.5\nnot-a-number\n' >"$TMPD/k3.samples"
e1=$( (MIN=3 MAX=6; sample_until_ci "$TMPD/k3.samples" fake_sample) 2>&1 >/dev/null); x1=$?
e2=$( (MIN=3 MAX=6; sample_until_ci "$TMPD/k4.samples" bad_sample) 2>&1 >/dev/null); x2=$?
[ "$x1" -ne 0 ] && printf '%s\n' "$e1" | grep -q "k3.samples:2: not one number per line" &&
    [ "$x2" -ne 0 ] && printf '%s\n' "$e2" | grep -q "sample 4 (bad_sample) printed no number" &&
    [ "$(wc -l <"$TMPD/k4.samples")" -eq 3 ]
ok $? "fig-lib sample_until_ci: a malformed kept file and a failed sample are errors naming line and seed" || diag "$e1 / $e2"

# --- the split check before the path LP ------------------------------------
# When a split of the demands over the paths fits at the least a-priori
# bound, that bound is the optimum and no LP runs ("lp":"none").  K_4 under
# min with a switch permutation: one direct arc per pair, theta = 1 exactly.
run topo-mcf --json -r min -m "switch-perm level=switch" "$TMPD/k4.topo"
[ "$rc" -eq 0 ] && printf '%s\n' "$out" | grep -q '"theta":1,.*"upper_bound":1,.*"lp":"none"'
ok $? "K_4, min, switch permutation: theta 1 by the split check, no LP" || diag "$out"
run topo-mcf --json --no-presolve -r min -m "switch-perm level=switch" "$TMPD/k4.topo"
[ "$rc" -eq 0 ] && printf '%s\n' "$out" | grep -q '"theta":1,.*"lp":"simplex"'
ok $? "--no-presolve: the same theta from the simplex" || diag "$out"
# --links needs the LP's duals: the split check never settles it, and
# theta's a-priori bound (met exactly here) must not take the capacities'
# prices: saturated arcs
# (load 1) whose prices sum to 1 (any of the four direct arcs of the
# permutation is a valid bottleneck).
run topo-mcf --links -r min -m "switch-perm level=switch" "$TMPD/k4.topo"
[ "$rc" -eq 0 ] && printf '%s\n' "$out" | awk -F '\t' 'NR > 1 { n++; if ($7 != 1) bad = 1; sum += $8 }
    END { d = sum - 1; if (d < 0) d = -d; exit !(n >= 1 && !bad && d < 1e-12) }'
ok $? "--links on K_4, min, switch permutation: saturated arcs priced to 1" || diag "$out"
# Against the whole LP's simplex (--no-presolve) on random graphs: every
# presolved theta equals the LP's to 1e-12 (it is the a-priori bound, met
# by a feasible flow), and the check fires on some of them (plain ksp:K's
# first-arc ties, min on an RRG's adjacent pairs); the others go to the
# simplex with row generation (capacity rows added as the flow overloads
# their arcs), whose optimum must be the whole LP's too.
topo-gen rrg n=60 d=6 -s 5 >"$TMPD/r60.topo"
topo-gen gdbg n=60 r=6 >"$TMPD/gd60.topo"
npre=0 nrg=0 nround=0 nbad=0 msg=
for s in 1 2 3 4 5 6; do
    for rk in "ksp:4|switch-perm level=switch" "ksp:2|random-shift level=switch" \
        "min|switch-perm level=switch" "ksp:3|server-perm" "allpath:3|switch-perm level=switch"; do
        r=${rk%%|*} k=${rk#*|}
        topo=$TMPD/r40.topo
        [ "$k" = server-perm ] && topo-gen rrg n=40 d=6 -p 3 -s "$s" >"$TMPD/r40p.topo" && topo=$TMPD/r40p.topo
        [ "$r" = allpath:3 ] && topo=$TMPD/gd60.topo
        run topo-mcf --json --lp simplex -r "$r" -m "$k" -s "$s" "$topo"
        px=$(printf '%s\n' "$out" | sed 's/.*"theta":\([^,]*\),.*/\1/')
        rd=$(printf '%s\n' "$out" | sed 's/.*"rounds":\([0-9]*\),.*/\1/')
        printf '%s\n' "$out" | grep -q '"lp":"none"' && npre=$((npre + 1))
        [ "${rd:-0}" -gt 0 ] 2>/dev/null && nrg=$((nrg + 1)) && nround=$((nround + rd))
        run topo-mcf --no-presolve --lp simplex -r "$r" -m "$k" -s "$s" "$topo"
        sx=$(c2 4)
        awk -v a="$px" -v b="$sx" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b != "" && d <= 1e-12 * b) }' ||
            { nbad=$((nbad + 1)); msg="$msg $r/$k/s=$s: $px vs $sx"; }
    done
done
[ "$nbad" -eq 0 ] && [ "$npre" -gt 0 ] && [ "$nrg" -gt 0 ]
ok $? "split check and row generation = the whole LP on 30 routed LPs ($npre without an LP, $nrg by row generation in $nround rounds)" || diag "$msg"

# --lp auto on a path LP of 1500 columns or more: the barrier when the
# split check loads at least 0.3 of the arcs to capacity, else the simplex
# with row generation.  RRG(256, 16) with ksp:6 (1536 columns): the split
# overloads a few of the 4096 arcs, so the simplex; with --no-presolve
# there is no split check and the column count alone picks the barrier;
# GDBG(100, 16) with ALLPATH(3) (over 1500 columns, most arcs overloaded
# by the split): the barrier.
# All three thetas agree with the other algorithm's.
topo-gen rrg n=256 d=16 -s 1 >"$TMPD/r256.topo"
run topo-mcf --json -r ksp:6 -m "switch-perm level=switch" -s 1 "$TMPD/r256.topo"
a1=$out
run topo-mcf --json --no-presolve -r ksp:6 -m "switch-perm level=switch" -s 1 "$TMPD/r256.topo"
a2=$out
run topo-mcf --lp barrier -r ksp:6 -m "switch-perm level=switch" -s 1 "$TMPD/r256.topo"
b1=$(c2 4)
topo-gen gdbg n=100 r=16 >"$TMPD/gd100.topo"
run topo-mcf --json -r allpath:3 -m "switch-perm level=switch" -s 1 "$TMPD/gd100.topo"
a3=$out
run topo-mcf --lp simplex -r allpath:3 -m "switch-perm level=switch" -s 1 "$TMPD/gd100.topo"
s3=$(c2 4)
jt() { printf '%s\n' "$1" | sed 's/.*"theta":\([^,]*\),.*/\1/'; }
printf '%s\n' "$a1" | grep -q '"lp":"simplex"' && printf '%s\n' "$a2" | grep -q '"lp":"barrier"' &&
    printf '%s\n' "$a3" | grep -q '"lp":"barrier"' && near "$(jt "$a1")" "$b1" && near "$(jt "$a2")" "$b1" &&
    near "$(jt "$a3")" "$s3"
ok $? "--lp auto on path LPs: simplex when the split check overloads few arcs, barrier otherwise, same theta" ||
    diag "$a1 / $a2 / $a3 / $b1 $s3"

# --links with row generation: the split check's overloaded arcs start
# the LP and rows join as the flow overloads their arcs; an arc whose row
# never joined is priced 0.  The prices must still be an optimal dual:
# with y the printed prices (sum y(a) cap(a) = 1, capacities 1 here), weak
# duality over the routing's own path sets gives theta <= 1 / sum over
# pairs of w(s,t) min_{p in P(s,t)} y(p), with equality exactly when y is
# optimal; a wrong row-to-arc mapping prices the wrong arcs and breaks it.
lbad=0 lrg=0 lmsg=
for rk in "ksp:4|switch-perm level=switch|1" "ksp:4|switch-perm level=switch|2" \
    "ksp:2|random-shift level=switch|3" "ksp:3|switch-perm level=switch|4" \
    "allpath:3|switch-perm level=switch|1" "allpath:3|random-shift level=switch|2"; do
    r=${rk%%|*} k=${rk#*|} s=${k#*|} k=${k%|*}
    topo=$TMPD/rrg40.topo
    [ "$r" = allpath:3 ] && topo=$TMPD/gd60.topo
    run topo-mcf --json --links -r "$r" -m "$k" -s "$s" "$topo"
    js=$out
    rd=$(printf '%s\n' "$js" | sed 's/.*"rounds":\([0-9]*\),.*/\1/')
    [ "${rd:-0}" -gt 0 ] 2>/dev/null && lrg=$((lrg + 1))
    run topo-mcf --links -r "$r" -m "$k" -s "$s" "$topo"
    printf '%s\n' "$out" | awk -F '\t' 'NR > 1 { print $4, $5, $8 }' >"$TMPD/prices"
    topo-pattern $k -s "$s" "$topo" | awk 'NR > 7 { print $1, $2, (NF > 2 ? $3 : 1) }' >"$TMPD/pairs"
    : >"$TMPD/ppaths"
    while read -r ps pd pw; do
        topo-route -r "$r" --pair "$ps,$pd" --paths "$topo" | awk -F '\t' -v w="$pw" 'NR > 1 { print $2, $3, w, $7 }' >>"$TMPD/ppaths"
    done <"$TMPD/pairs"
    th=$(printf '%s\n' "$js" | sed 's/.*"theta":\([^,]*\),.*/\1/')
    run topo-mcf --no-presolve -r "$r" -m "$k" -s "$s" "$topo"
    wx=$(c2 4)
    awk -v th="$th" -v wx="$wx" 'FNR == NR { y[$1 "-" $2] = $3; next }
        { n = split($4, v, "-"); c = 0; for (i = 1; i < n; i++) c += y[v[i] "-" v[i + 1]]
          key = $1 " " $2; if (!(key in best) || c < best[key]) best[key] = c; w[key] = $3 }
        END { for (k in best) den += w[k] * best[k]
              if (den <= 0) exit 1
              ub = 1 / den; d = ub - th; if (d < 0) d = -d; e = th - wx; if (e < 0) e = -e
              exit !(d <= 1e-9 * th && e <= 1e-9 * wx) }' "$TMPD/prices" "$TMPD/ppaths" ||
        { lbad=$((lbad + 1)); lmsg="$lmsg $r/$k/s=$s theta $th (whole LP $wx)"; }
done
[ "$lbad" -eq 0 ] && [ "$lrg" -gt 0 ]
ok $? "--links with row generation: prices certify theta by weak duality on 6 routed LPs ($lrg with rows added)" || diag "$lmsg"

# With -r, the path pool is counted against TOPOKIT_MEMORY_LIMIT as it is
# built: past it, one line and exit 1, no row (uniform valiant on a
# 40-switch RRG has a pool of a few MB)
TOPOKIT_MEMORY_LIMIT=64K run topo-mcf -r valiant "$TMPD/rrg40.topo"
expect_fail 1 "^topo-mcf: .*valiant: the path pool would need more than the memory limit of 64 KiB after [0-9]+ switch pairs \(TOPOKIT_MEMORY_LIMIT\)$" \
    "-r valiant: the path pool past TOPOKIT_MEMORY_LIMIT, data error"
TOPOKIT_MEMORY_LIMIT=64K run topo-mcf -r min "$TMPD/ring8.topo"
[ "$rc" -eq 0 ] && [ -n "$out" ]
ok $? "-r min on a ring: a pool within 64 KiB runs" || diag "$err"

done_testing
