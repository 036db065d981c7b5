# topo-bisect: bounds on known graphs, solver agreement, output shapes,
# errors and exit codes.
. "$TK_SRCDIR/tests/cli/lib.sh"

T=$(printf '\t')
HEADER="name${T}n${T}links${T}bisection_lb${T}bisection_ub${T}gap${T}normalized_lb${T}normalized_ub${T}cut_links${T}lambda2${T}multiplicity${T}adj_lambda${T}ramanujan${T}ramanujan_ok${T}method"

# col NAME: the value of column NAME in row 2 of $out.
col() {
    printf '%s\n' "$out" | awk -F"$T" -v c="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i } NR == 2 { print $k }'
}
# near A B TOL: |A - B| <= TOL
near() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= t) }'; }

# --- known graphs ------------------------------------------------------------
# Q_4: lambda2 = 2, lb = 2 * 16/4 = 8 = the coordinate cut (HACKING: values
# from mathematics, see test_spectral.c for the derivations).
run sh -c 'topo-gen hypercube dim=4 | topo-bisect'
expect_rc 0 "Q_4"
[ "$(printf '%s\n' "$out" | head -n 1)" = "$HEADER" ]
ok $? "header line" || diag "$out"
[ "$(col bisection_ub)" = 8 ] && [ "$(col cut_links)" = 8 ] && [ "$(col normalized_ub)" = 1 ]
ok $? "Q_4: cut 8 links, normalized 8/(16/2) = 1" || diag "$out"
near "$(col bisection_lb)" 8 1e-8 && near "$(col lambda2)" 2 1e-9
ok $? "Q_4: lambda2 = 2, lb = 8" || diag "$out"
near "$(col adj_lambda)" 2 1e-9 && near "$(col ramanujan)" 3.4641016151377544 1e-12 &&
    [ "$(col ramanujan_ok)" = 1 ] && [ "$(col multiplicity)" = 4 ] && [ "$(col method)" = dense ]
ok $? "Q_4: adjacency d-2 = 2 <= 2 sqrt(3), multiplicity 4, dense solver" || diag "$out"

run sh -c 'topo-gen torus sides=8,8 | topo-bisect'
[ "$(col bisection_ub)" = 16 ] && near "$(col lambda2)" 0.5857864376269049 1e-9
ok $? "8x8 torus: cut 2k = 16, lambda2 = 2 - 2 cos(pi/4)" || diag "$out"

run sh -c 'topo-gen complete n=12 | topo-bisect'
[ "$(col bisection_ub)" = 36 ] && near "$(col bisection_lb)" 36 1e-8 && near "$(col adj_lambda)" -1 1e-9
ok $? "K_12: lb = cut = n^2/4 = 36, adjacency -1" || diag "$out"

run sh -c 'topo-gen complete n=7 | topo-bisect'
[ "$(col bisection_ub)" = 12 ] && near "$(col bisection_lb)" 12 1e-8 && near "$(col normalized_ub)" 3.4285714285714284 1e-12
ok $? "K_7 (odd): sides 3 and 4, cut 12, normalized 12/3.5" || diag "$out"

run sh -c 'topo-gen ring n=11 | topo-bisect'
[ "$(col bisection_ub)" = 2 ] && near "$(col lambda2)" 0.3174929343376374 1e-9
ok $? "C_11: cut 2, lambda2 = 2 - 2 cos(2 pi/11)" || diag "$out"

# Petersen: lambda2 = 2 so lb = 5; the minimum bisection by brute force
# over its 252 balanced splits is computed in awk.
PETERSEN='IheA@GUAo'
printf '%s\n' "$PETERSEN" >"$TMPD/petersen.g6"
bf=$(awk 'BEGIN {
    split("0 1 1 2 2 3 3 4 4 0 0 5 1 6 2 7 3 8 4 9 5 7 7 9 9 6 6 8 8 5", e, " ");
    best = 99;
    for (s = 0; s < 1024; s++) {
        c = 0; x = s; for (i = 0; i < 10; i++) { b[i] = x % 2; x = int(x / 2); c += b[i] }
        if (c != 5) continue;
        cut = 0; for (k = 1; k <= 30; k += 2) if (b[e[k]] != b[e[k + 1]]) cut++;
        if (cut < best) best = cut
    }
    print best }')
run topo-bisect "$TMPD/petersen.g6"
expect_rc 0 "Petersen"
[ "$(col bisection_ub)" = "$bf" ] && near "$(col bisection_lb)" 5 1e-8 && near "$(col adj_lambda)" 1 1e-9 &&
    [ "$(col multiplicity)" = 5 ]
ok $? "Petersen: cut = brute-force minimum ($bf), lb 5, adjacency 1, multiplicity 5" || diag "$out"

# --- the three solvers agree ------------------------------------------------
topo-gen rrg n=300 d=5 -s 4 >"$TMPD/rrg.topo"
topo-gen torus sides=10,8,6 >"$TMPD/torus.topo"
for f in rrg torus; do
    vals=
    for s in dense lanczos cholmod; do
        run topo-bisect --solver "$s" "$TMPD/$f.topo"
        [ "$rc" -eq 0 ] && [ "$(col method)" = "$s" ]
        ok $? "$f: --solver $s is used" || diag "$out" "$err"
        vals="$vals $(col lambda2)"
    done
    set -- $vals
    near "$1" "$2" 1e-8 && near "$1" "$3" 1e-8
    ok $? "$f: lambda2 of dense, lanczos, cholmod within 1e-8 ($vals)"
done
run topo-bisect --solver dense "$TMPD/torus.topo"
near "$(col lambda2)" 0.38196601125010515 1e-9
ok $? "10x8x6 torus: lambda2 = 2 - 2 cos(2 pi/10)" || diag "$out"

# Independent cross-check: numpy's dense eigenvalues of the Laplacian.
if /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
    topo-conv -f edges "$TMPD/rrg.topo" >"$TMPD/rrg.edges"
    want=$(/usr/bin/python3 - "$TMPD/rrg.edges" <<'EOF'
import sys, numpy as np
E = []
for line in open(sys.argv[1]):
    t = line.split()
    if len(t) >= 2 and not line.startswith('#'):
        try: E.append((int(t[0]), int(t[1])))
        except ValueError: pass
n = 300
L = np.zeros((n, n))
for u, v in E:
    if u != v:
        L[u, v] -= 1; L[v, u] -= 1; L[u, u] += 1; L[v, v] += 1
print(repr(np.linalg.eigvalsh(L)[1]))
EOF
)
    run topo-bisect "$TMPD/rrg.topo"
    near "$(col lambda2)" "$want" 1e-8
    ok $? "rrg n=300 d=5: lambda2 matches numpy ($want)" || diag "$out"
else
    ok 0 "numpy cross-check # SKIP python3-numpy not installed"
fi

# --- determinism, JSON, -o --------------------------------------------------
topo-gen rrg n=1500 d=8 -s 2 >"$TMPD/big.topo"
run env OMP_NUM_THREADS=1 topo-bisect -s 5 "$TMPD/big.topo"
out1=$out
run env OMP_NUM_THREADS=2 topo-bisect -s 5 --threads 2 "$TMPD/big.topo"
[ "$out" = "$out1" ] && [ -n "$out" ]
ok $? "same output with 1 and 2 threads" || diag "$out1" "$out"
lb=$(col bisection_lb) ub=$(col bisection_ub)
awk -v a="$lb" -v b="$ub" 'BEGIN { exit !(a > 0 && a <= b) }'
ok $? "rrg n=1500: 0 < lb <= ub ($lb, $ub)"

# Automatic choice: a 30x30 torus (n = 900 > 800) has a sparse factor
# (cholmod; the 2k = 60 cut is found), a random regular graph's factor fills
# in (lanczos); the budget (TOPOKIT_MEMORY_LIMIT / 4) forces lanczos too.
run sh -c 'topo-gen torus sides=30,30 | topo-bisect'
[ "$(col method)" = cholmod ] && [ "$(col bisection_ub)" = 60 ] && [ "$(col multiplicity)" = 4 ]
ok $? "auto: 30x30 torus uses cholmod, cut 60, multiplicity 4" || diag "$out"
run sh -c 'topo-gen torus sides=30,30 | TOPOKIT_MEMORY_LIMIT=300K topo-bisect'
[ "$(col method)" = lanczos ]
ok $? "auto: factor over the memory budget falls back to lanczos" || diag "$out" "$err"
[ "$(printf '%s\n' "$out1" | cut -f 15 | tail -n 1)" = lanczos ]
ok $? "auto: rrg n=1500 d=8 (factor fills in) uses lanczos" || diag "$out1"
run env OMP_NUM_THREADS=1 topo-bisect --solver cholmod "$TMPD/torus.topo"
out1=$out
run env OMP_NUM_THREADS=2 topo-bisect --solver cholmod --threads 2 "$TMPD/torus.topo"
[ "$out" = "$out1" ] && [ -n "$out" ]
ok $? "cholmod: same output with 1 and 2 threads" || diag "$out1" "$out"

run topo-bisect --json "$TMPD/petersen.g6"
expect_rc 0 "--json"
printf '%s\n' "$out" | grep -q '^{"name":"<stdin>#1\|^{"name":".*petersen.g6#1","n":10,"links":15,"bisection_lb":' &&
    printf '%s\n' "$out" | grep -q "\"bisection_ub\":$bf,.*\"method\":\"dense\"" &&
    [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ]
ok $? "--json: one object with the columns as keys" || diag "$out"

run topo-bisect -o "$TMPD/res.tsv" "$TMPD/petersen.g6"
[ "$rc" -eq 0 ] && [ -z "$out" ] && [ "$(head -n 1 "$TMPD/res.tsv")" = "$HEADER" ]
ok $? "-o FILE writes the table" || diag "$err"

# --- errors -------------------------------------------------------------------
echo 'C`' >"$TMPD/two-edges.g6"
run topo-bisect "$TMPD/two-edges.g6"
expect_fail 1 "^topo-bisect: .*two-edges.g6: graph 1: graph is not connected \(2 components\): lambda2 = 0$" \
    "disconnected graph: exit 1, one line"
run topo-bisect --allow-disconnected "$TMPD/two-edges.g6"
[ "$rc" -eq 0 ] && [ "$(col lambda2)" = 0 ] && [ "$(col bisection_ub)" = 0 ] && [ "$(col method)" = none ] &&
    printf '%s\n' "$err" | grep -q 'warning: .*not connected'
ok $? "--allow-disconnected: lambda2 0, cut 0, method none, warning" || diag "$out" "$err"
run topo-bisect -o "$TMPD/fail.tsv" "$TMPD/petersen.g6" "$TMPD/two-edges.g6"
[ "$rc" -eq 1 ] && [ ! -e "$TMPD/fail.tsv" ]
ok $? "-o: a failed run leaves no file" || diag "rc=$rc"

echo '@' >"$TMPD/one.g6"
run topo-bisect "$TMPD/one.g6"
expect_fail 1 "graph 1: n=1: bisection needs at least 2 switches$" "n = 1: exit 1"

echo '&BP_' >"$TMPD/dc3.d6"
run topo-bisect "$TMPD/dc3.d6"
expect_fail 1 "graph 1: directed graph: .*--symmetrize" "directed input refused, hint --symmetrize"
run topo-bisect --symmetrize "$TMPD/dc3.d6"
[ "$rc" -eq 0 ] && [ "$(col bisection_ub)" = 1 ] && [ "$(col cut_links)" = 2 ] && near "$(col lambda2)" 1.5 1e-9
ok $? "--symmetrize: directed C_3 is K_3 at capacity 1/2: lambda2 3/2, cut 1, 2 arcs" || diag "$out" "$err"

run topo-bisect --solver magic "$TMPD/petersen.g6"
expect_rc 2 "--solver magic"
printf '%s\n' "$err" | grep -q -- '^topo-bisect: --solver magic: must be auto, dense, lanczos or cholmod$' && [ -z "$out" ]
ok $? "--solver magic: usage error naming the choices" || diag "$err"
run topo-bisect --tol 0 "$TMPD/petersen.g6"
[ "$rc" -eq 2 ] && [ -z "$out" ] && printf '%s\n' "$err" | grep -q -- "^topo-bisect: --tol 0: must be between 1e-15 and 0.01$"
ok $? "--tol 0: usage error" || diag "$err"
run topo-bisect --tol 1e-3x "$TMPD/petersen.g6"
[ "$rc" -eq 2 ] && [ -z "$out" ] && printf '%s\n' "$err" | grep -q -- "^topo-bisect: --tol 1e-3x: not a number$"
ok $? "--tol with trailing text: usage error" || diag "$err"
run topo-bisect -s x "$TMPD/petersen.g6"
[ "$rc" -eq 2 ] && [ -z "$out" ]
ok $? "-s x: usage error" || diag "$err"
: >"$TMPD/empty"
run topo-bisect "$TMPD/empty"
expect_fail 1 "empty.*no graph in input" "empty input: exit 1"
done_testing
