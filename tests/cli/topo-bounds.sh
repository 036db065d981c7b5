# topo-bounds: sweeps against independent awk computations of the lemmas,
# Table I of Faizian et al. ("Random Regular Graph and Generalized De Bruijn
# Graph with k-shortest Path Routing") through topo-gen | topo-dist |
# topo-bounds --measured,
# extremal graphs meeting their bounds, and every error path.
. "$TK_SRCDIR/tests/cli/lib.sh"

T=$(printf '\t')
COLS="N${T}r${T}k${T}H${T}p${T}diam_lb${T}lk${T}paths_ub${T}ml_lb${T}gdbg_diam_ub${T}gdbg_paths_lb${T}gdbg_ml_ub${T}moore_diam${T}cerf_avg${T}singla_theta${T}singla_server"
MCOLS="name${T}N${T}r${T}k${T}measure${T}value${T}bound${T}bound_value${T}gap${T}rel_gap"

# --- one point: values derived by hand (see tests/unit/test_bounds.c) -------
# GDBG(3000,40): H = 3; Lemma 1: 1+40+1600 < 3000 -> 3; Lemma 3:
# floor(65640/2999) = 21; Lemma 9: floor(64000/3000) = 21; Lemma 10:
# 4881/21 = 232.428571...; Lemma 4: 7317/40 = 182.925.
run topo-bounds N=3000 r=40
expect_rc 0 "single point"
row=$(printf '%s\n' "$out" | sed -n 2p)
[ "$(printf '%s\n' "$out" | head -n 1)" = "$COLS" ]
ok $? "header is the documented column list" || diag "$out"
[ "$(printf '%s\n' "$row" | cut -f1-6,8-11)" = "3000${T}40${T}1${T}3${T}1${T}3${T}21${T}182.925${T}3${T}21" ]
ok $? "GDBG(3000,40): H 3, diam_lb 3, paths_ub 21, ml_lb 182.925, gdbg 3 / 21" || diag "$row"
printf '%s\n' "$row" | awk -F'\t' '{ d = $12 - 4881/21; exit !(d < 1e-12 && d > -1e-12) }'
ok $? "Lemma 10 for GDBG(3000,40) is 4881/21" || diag "$row"

# Petersen parameters: Moore 2, Cerf 15/9, Singla 3/15 and 27/15 (p=1).
run topo-bounds N=10 r=3
row=$(printf '%s\n' "$out" | sed -n 2p | cut -f13-16)
expect_out "$COLS
$(printf '%s\n' "$out" | sed -n 2p)" "N=10 r=3 runs"
[ "$row" = "2${T}1.6666666666666667${T}0.2${T}1.8" ]
ok $? "Petersen parameters: moore 2, cerf 15/9, singla 0.2, per server 1.8" || diag "$row"

# --- sweeps ------------------------------------------------------------------
run topo-bounds N=2:8421 r=20
expect_rc 0 "sweep N=2:8421 r=20"
n=$(printf '%s\n' "$out" | tail -n +2 | wc -l)
[ "$n" -eq 8420 ]
ok $? "sweep N=2:8421 r=20 has 8420 rows" || diag "rows: $n"
printf '%s\n' "$out" >"$TMPD/sweep.tsv"
# Independent Lemma 1 and Lemma 7 in awk, compared row by row.
bad=$(awk -F'\t' 'NR > 1 {
        N = $1; r = $2; s = 1; p = 1; d = 0
        while (s < N) { p *= r; s += p; d++ }
        g = 0; q = 1
        while (q < N) { q *= r; g++ }
        if ($6 != d || $10 != g) { print NR ": " $0; exit }
    }' "$TMPD/sweep.tsv")
[ -z "$bad" ]
ok $? "diam_lb and gdbg_diam_ub agree with awk for every N (Lemmas 1, 7)" || diag "$bad"
same=$(awk -F'\t' 'NR > 1 && $6 == $10' "$TMPD/sweep.tsv" | wc -l)
[ "$same" -eq 7977 ]
ok $? "Table I: Lemma 7 = Lemma 1 for N = 2-20, 22-400, 422-8000 (19+379+7579)" ||
    diag "same: $same"
# Lemma 2 for k=1 in awk (exact rationals compared as doubles).
bad=$(awk -F'\t' 'NR > 1 && NR % 97 == 0 {
        T = $1 - 1; r = $2; h = 1; s = 0; w = 0; p = r
        while (s + p <= T) { s += p; w += h * p; h++; p *= r }
        lk = (w + h * (T - s)) / T
        if ((lk - $7) > 1e-12 || ($7 - lk) > 1e-12) { print NR ": " lk " vs " $7; exit }
    }' "$TMPD/sweep.tsv")
[ -z "$bad" ]
ok $? "lk agrees with an awk Lemma 2 on every 97th row" || diag "$bad"

run topo-bounds N=10:12 r=3:4 k=1:2 H=1:2
n=$(printf '%s\n' "$out" | tail -n +2 | wc -l)
[ "$rc" -eq 0 ] && [ "$n" -eq 24 ]
ok $? "sweep over four keys: 3*2*2*2 = 24 rows" || diag "rc=$rc rows=$n"
run topo-bounds N=2:20:3 r=5
n=$(printf '%s\n' "$out" | tail -n +2 | cut -f1 | tr '\n' ' ')
[ "$n" = "2 5 8 11 14 17 20 " ]
ok $? "LO:HI:STEP ranges" || diag "$n"

# --- Faizian et al., Table I, through the pipeline ----------------------------
# Measured GDBG diameters (topo-gen | topo-dist) against an awk Lemma 7, and
# the joined diam_lb against an awk Lemma 1.
sizes="2 3 20 21 22 100 400 401 421 422"
for n in $sizes; do topo-gen gdbg n=$n r=20; done | topo-dist | topo-bounds --measured \
    >"$TMPD/table1.tsv" 2>"$TMPD/table1.err"
ok $? "topo-gen gdbg | topo-dist | topo-bounds --measured" || diag "$(cat "$TMPD/table1.err")"
[ "$(head -n 1 "$TMPD/table1.tsv")" = "$MCOLS" ]
ok $? "--measured header" || diag "$(head -n 1 "$TMPD/table1.tsv")"
got=$(awk -F'\t' '$5 == "diameter" && $7 == "diam_lb" { print $2, $6, $8, $9 }' "$TMPD/table1.tsv")
want=$(for n in $sizes; do echo "$n"; done | awk '{
        N = $1; s = 1; p = 1; d = 0
        while (s < N) { p *= 20; s += p; d++ }
        g = 0; q = 1
        while (q < N) { q *= 20; g++ }
        print N, g, d, g - d }')
[ "$got" = "$want" ]
ok $? "Table I rows: measured GDBG diameter = Lemma 7, bound = Lemma 1, gap" ||
    diag "got:" "$got" "want:" "$want"
opt=$(awk -F'\t' '$5 == "diameter" && $7 == "diam_lb" && $9 == 0' "$TMPD/table1.tsv" | wc -l)
[ "$opt" -eq 7 ]
ok $? "optimal GDBG diameters among N = $sizes: 7 (2 3 20 22 100 400 422)" || diag "$opt"

# --- bounds met with equality -------------------------------------------------
# Petersen (graph6, derived by hand in topo-dist.sh) and Hoffman-Singleton
# are Moore graphs: diameter = Moore bound, average distance = Cerf bound.
echo 'IheA@GUAo' | topo-dist | topo-bounds --measured >"$TMPD/pet.tsv"
got=$(awk -F'\t' 'NR > 1 { printf "%s:%s ", $7, $9 }' "$TMPD/pet.tsv")
[ "$got" = "diam_lb:0 moore_diam:0 lk:0 cerf_avg:0 " ]
ok $? "Petersen meets Lemma 1, Moore, Lemma 2 and Cerf with equality" || diag "$got"
if [ -s "$TK_SRCDIR/data/hoffman-singleton.g6" ]; then
    got=$(topo-dist "$TK_SRCDIR/data/hoffman-singleton.g6" | topo-bounds --measured |
        awk -F'\t' 'NR > 1 { printf "%s:%s:%s ", $7, $8, $9 }')
    [ "$got" = "diam_lb:2:0 moore_diam:2:0 lk:1.8571428571428571:0 cerf_avg:1.8571428571428571:0 " ]
    ok $? "Hoffman-Singleton: avg distance 91/49 meets Cerf" || diag "$got"
fi
# Lemma 2 (k = 1) is met by the Kautz graph K(3,2): 3 at 1 hop, 8 at 2.
got=$(topo-gen kautz d=3 D=2 | topo-dist | topo-bounds --measured |
    awk -F'\t' '$7 == "lk" { print $8, $9 }')
[ "$got" = "1.7272727272727273 0" ]
ok $? "Kautz(3,2) meets Lemma 2: LK = 19/11, gap 0" || diag "$got"
# Through topo-ksp (k = 1 is the average distance; --allpath H joins
# Lemma 3 and Lemma 9): GDBG(100,10), H = 2: floor(110/99) = 1 = floor(100/100).
if command -v topo-ksp >/dev/null 2>&1; then
    got=$(topo-gen kautz d=3 D=2 | topo-ksp -k 1 2>/dev/null | topo-bounds --measured |
        awk -F'\t' '$5 == "avg_ksp_length" { print $4, $7, $9 }')
    [ "$got" = "1 lk 0" ]
    ok $? "topo-ksp -k 1 rows join to LK(N,r,1), Kautz(3,2) gap 0" || diag "$got"
    got=$(topo-gen gdbg n=100 r=10 | topo-ksp --allpath 2 2>/dev/null | topo-bounds --measured |
        awk -F'\t' '$5 == "allpath_min" { printf "%s=%s:%s ", $7, $8, $6 }')
    [ "$got" = "paths_ub=1:1 gdbg_paths_lb=1:1 " ]
    ok $? "topo-ksp --allpath rows join to Lemma 3 and Lemma 9" || diag "$got"
else
    ok 0 "# SKIP topo-ksp not built"
    ok 0 "# SKIP topo-ksp not built"
fi

# --- graph mode ---------------------------------------------------------------
run sh -c "echo 'IheA@GUAo' | topo-bounds"
row=$(printf '%s\n' "$out" | sed -n 2p)
[ "$rc" -eq 0 ] && [ "$(printf '%s\n' "$out" | head -n 1)" = "name${T}directed${T}$COLS" ] &&
    [ "$(printf '%s\n' "$row" | cut -f2-4,8,15,16)" = "0${T}10${T}3${T}2${T}2${T}1.6666666666666667" ]
ok $? "graph mode: Petersen from graph6, N 10, r 3, bounds" || diag "$out"
run sh -c "topo-gen kautz d=2 D=3 | topo-bounds k=2 H=3"
row=$(printf '%s\n' "$out" | sed -n 2p | cut -f2-6,15-18)
[ "$row" = "1${T}12${T}2${T}2${T}3${T}-${T}-${T}-${T}-" ]
ok $? "graph mode: directed Kautz(2,3), k=2 H=3; undirected bounds '-'" || diag "$out"
run sh -c "topo-gen mesh sides=3 | topo-bounds"
expect_fail 1 '^topo-bounds: <stdin>: graph 1 \(mesh sides=3\): not regular' \
    "graph mode: a non-regular graph is refused"
: >"$TMPD/empty"
run topo-bounds "$TMPD/empty"
expect_fail 1 'empty: no graph in input' "graph mode: empty input"
run topo-bounds k=1:2
expect_fail 1 '^topo-bounds: k=1:2: ranges need parameter mode' "graph mode: no ranges"

# --- traffic -----------------------------------------------------------------
# p=8 d=16 Dbar=2 lambda=3 delta=3 a=4 h=2 l=1 (unit test derivation).
run topo-bounds --traffic p=8 d=16 Dbar=2 lambda=3 delta=3 a=4 h=2 l=1
row=$(printf '%s\n' "$out" | sed -n 2p | cut -f9-)
[ "$rc" -eq 0 ] && [ "$row" = "1${T}0.5${T}0.041666666666666664${T}24${T}1${T}1${T}0.03125${T}0.0625" ]
ok $? "--traffic: theta_u 1, Valiant 1/2, Ant Mill 1/24, slowdown 24, adverse, ADV 1/32, 1/16" ||
    diag "$out"
run topo-bounds --traffic p=1 d=4 Dbar=3 lambda=1:5 delta=4
col=$(printf '%s\n' "$out" | tail -n +2 | cut -f13 | tr '\n' ' ')
[ "$col" = "0 1 1 1 0 " ]
ok $? "--traffic: adverse exactly for 2 Dbar/d = 1.5 < lambda <= delta = 4" || diag "$out"

# --- errors: one line naming the parameter or line, nothing on stdout --------
while IFS='|' read -r code re args; do
    [ -n "$args" ] || continue
    run topo-bounds $args
    expect_fail "$code" "$re" "error: topo-bounds $args"
done <<'EOF'
1|^topo-bounds: N=5:2: reversed range \(5 > 2\)$|N=5:2 r=3
1|^topo-bounds: N=2:x: not a non-negative integer|N=2:x r=3
1|^topo-bounds: N=-3: not a non-negative integer|N=-3 r=3
1|^topo-bounds: N=1:2:3:4: not a range: use LO, LO:HI or LO:HI:STEP$|N=1:2:3:4 r=3
1|^topo-bounds: N=2:10:0: range step must be at least 1|N=2:10:0 r=3
1|^topo-bounds: foo: unknown parameter|foo=3 N=5 r=3
1|^topo-bounds: N=6: parameter N given twice|N=5 N=6 r=3
1|^topo-bounds: r: missing parameter|N=5
1|^topo-bounds: r=0: must be at least 1$|N=5 r=0
1|^topo-bounds: N=1: must be at least 2$|N=1:5 r=3
1|^topo-bounds: k=0: must be at least 1$|N=5 r=3 k=0
1|^topo-bounds: N=1000000000001: larger than the supported 1000000000000$|N=1000000000001 r=3
1|^topo-bounds: r=100001: larger than the supported 100000$|N=10 r=100001
1|^topo-bounds: H=8: r\^H overflows 128-bit arithmetic$|N=100 r=99999:100000 H=1:8
1|^topo-bounds: N: sweep of more than 10\^9 points|N=2:1000000000000 r=2:3
1|^topo-bounds: Dbar=-1: must be greater than 0$|--traffic Dbar=-1
1|^topo-bounds: Dbar=0: must be greater than 0$|--traffic Dbar=0
1|^topo-bounds: Dbar=nan: not a finite number$|--traffic Dbar=nan
1|^topo-bounds: Dbar=inf: not a finite number$|--traffic Dbar=inf
1|^topo-bounds: Dbar=1e400: out of range$|--traffic Dbar=1e400
1|^topo-bounds: Dbar=2x: not a number$|--traffic Dbar=2x
1|^topo-bounds: Dbar=: not a number$|--traffic Dbar=
1|^topo-bounds: Dbar=3: parameter Dbar given twice$|--traffic Dbar=2 Dbar=3
1|^topo-bounds: lambda=3:1: reversed range \(3 > 1\)$|--traffic lambda=3:1
1|^topo-bounds: zz: unknown parameter|--traffic zz=1
EOF
run topo-bounds N=5 r=3 "$TMPD/empty"
expect_fail 2 'not read in parameter mode' "parameter mode refuses input files"
run topo-bounds --r 3
[ "$rc" -eq 2 ] && [ -z "$out" ] && printf '%s\n' "$err" | grep -q -- "--r is only"
ok $? "--r without --measured is a usage error" || diag "rc=$rc $err"
run topo-bounds --measured N=3
expect_fail 2 'takes no parameters' "--measured refuses parameters"
run topo-bounds N=5:2 r=3 -o "$TMPD/o.tsv"
[ "$rc" -eq 1 ] && [ ! -e "$TMPD/o.tsv" ]
ok $? "-o with a parameter error leaves no file"
run topo-bounds N=5 r=3 -o "$TMPD/o.tsv"
[ "$rc" -eq 0 ] && [ -z "$out" ] && [ "$(wc -l <"$TMPD/o.tsv")" -eq 2 ]
ok $? "-o FILE writes the table"

# --measured input errors name the file and line.
m() { printf '%s\n' "$@" >"$TMPD/m.tsv"; run topo-bounds --measured "$TMPD/m.tsv"; }
DH="name${T}n${T}arcs${T}directed${T}connected${T}diameter${T}radius${T}avg_distance${T}girth"
m "x${T}y"
expect_fail 1 'm.tsv:1: header lacks the columns' "--measured: unknown header"
m "$DH" "g${T}10${T}31${T}0${T}1${T}2${T}2${T}1.6${T}5"
expect_fail 1 'm.tsv:2: arcs=31 is not a multiple of n=10: not a regular graph' \
    "--measured: non-regular row (arcs not a multiple of n)"
m "$DH" "g${T}10${T}30${T}0${T}1${T}two${T}2${T}1.6${T}5"
expect_fail 1 "m.tsv:2: column diameter: 'two': not a number$" "--measured: non-numeric field"
m "$DH" "g${T}1x${T}30${T}0${T}1${T}2${T}2${T}1.6${T}5"
expect_fail 1 "m.tsv:2: column n: '1x': not a non-negative integer$" "--measured: bad n"
m "$DH" "g${T}10${T}30${T}0${T}1${T}2${T}2${T}nan${T}5"
expect_fail 1 "m.tsv:2: column avg_distance: 'nan': not a finite number$" "--measured: nan"
m "$DH" "g${T}10${T}30${T}0${T}1${T}-2${T}2${T}1.6${T}5"
expect_fail 1 "m.tsv:2: column diameter: '-2': must be at least 0$" "--measured: negative value"
m "$DH" "g${T}10${T}30${T}0${T}1${T}2${T}2${T}1.6"
expect_fail 1 'm.tsv:2: 8 fields, the header has 9' "--measured: missing field"
m "$DH" "g${T}10${T}30${T}0${T}1${T}>2${T}-${T}-${T}5"
expect_fail 1 "m.tsv:2: column diameter: '>2': not a number$" "--measured: stopped row"
m "$DH" "g${T}1${T}0${T}0${T}1${T}0${T}0${T}0${T}inf"
expect_fail 1 'm.tsv:2: N=1: must be at least 2$' "--measured: n=1 row"
KH="name${T}n${T}k${T}avg_ksp_length${T}degree"
m "$KH" "g${T}10${T}2${T}1.9${T}-"
expect_fail 1 "m.tsv:2: column degree: '-': not a non-negative integer: not a regular graph" \
    "--measured: topo-ksp row of a non-regular graph"
m "$KH" "g${T}10${T}2${T}1.9${T}-"
run topo-bounds --measured --r 3 "$TMPD/m.tsv"
[ "$rc" -eq 0 ] && [ "$(printf '%s\n' "$out" | sed -n 2p | cut -f3,4,7)" = "3${T}2${T}lk" ]
ok $? "--measured --r R overrides the degree" || diag "$out"
# Concatenated tables (one tool run per graph): repeated headers are skipped.
DR="g${T}10${T}30${T}0${T}1${T}2${T}2${T}1.6666666666666667${T}5"
m "$DH" "$DR" "$DH" "$DR"
n=$(printf '%s\n' "$out" | grep -c "^g${T}10${T}3${T}1${T}diameter${T}2${T}diam_lb${T}2${T}0${T}0$")
[ "$rc" -eq 0 ] && [ "$n" -eq 2 ]
ok $? "--measured: repeated header lines of concatenated tables are skipped" || diag "$out"
run topo-bounds --measured "$TMPD/empty"
expect_fail 1 'empty: no table in input' "--measured: empty input"
run topo-bounds --measured "$TMPD/nonexistent"
expect_fail 1 'nonexistent: No such file' "--measured: missing file"
done_testing
