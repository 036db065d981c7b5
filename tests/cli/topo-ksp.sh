# topo-ksp: k shortest simple paths and ALLPATH(H) on graphs with known
# values, Lemma 9 of Faizian et al. ("Random Regular Graph and Generalized
# De Bruijn Graph with k-shortest Path Routing") on GDBG(3000, 40),
# sampling, errors.
. "$TK_SRCDIR/tests/cli/lib.sh"

T=$(printf '\t')
HEADER="name${T}n${T}k${T}avg_ksp_length${T}degree${T}pairs${T}sampled${T}short_pairs${T}min_length${T}max_length"
AHEADER="${HEADER}${T}H${T}allpath_min${T}allpath_avg${T}allpath_max"
PETERSEN='IheA@GUAo'
C6='EhEG'

# --- closed forms -----------------------------------------------------------
# C_6: exactly two simple paths per pair, of lengths d and 6-d (sum 6).
printf '%s\n' "$C6" >"$TMPD/c6.g6"
run_in "$TMPD/c6.g6" topo-ksp -k 2
expect_rc 0 "C_6 -k 2"
expect_out "$HEADER
<stdin>#1${T}6${T}2${T}3${T}2${T}30${T}0${T}0${T}1${T}5" "C_6, k=2: average 6/2 = 3"
run_in "$TMPD/c6.g6" topo-ksp -k 3
expect_out "$HEADER
<stdin>#1${T}6${T}3${T}3${T}2${T}30${T}0${T}30${T}1${T}5" \
    "C_6, k=3: every pair short (2 paths), they keep both"
# ALLPATH(2) on C_6: 1 path for pairs at distance 1 and 2, none for the 6
# antipodal ordered pairs: avg 24/30.
run_in "$TMPD/c6.g6" topo-ksp --allpath 2
expect_out "$AHEADER
<stdin>#1${T}6${T}-${T}-${T}2${T}30${T}0${T}-${T}-${T}-${T}2${T}0${T}0.8${T}1" \
    "C_6, --allpath 2 alone: min 0, avg 0.8, max 1; no k-shortest columns"
run_in "$TMPD/c6.g6" topo-ksp -k 2 --allpath 5
expect_out "$AHEADER
<stdin>#1${T}6${T}2${T}3${T}2${T}30${T}0${T}0${T}1${T}5${T}5${T}2${T}2${T}2" \
    "C_6, -k 2 --allpath 5: both"

# K_4: per pair 1 path of length 1, 2 of length 2, 2 of length 3.
run sh -c 'topo-gen complete n=4 | topo-ksp -k 5 | cut -f3,4,8'
expect_out "k${T}avg_ksp_length${T}short_pairs
5${T}2.2${T}0" "K_4, k=5: (1+2+2+3+3)/5 = 2.2"
run sh -c 'topo-gen complete n=4 | topo-ksp -k 6 | cut -f4,8'
expect_out "avg_ksp_length${T}short_pairs
2.2${T}12" "K_4, k=6: 5 paths per pair, all 12 pairs short"

# Petersen (strongly regular (10,3,0,1), girth 5): an adjacent pair has one
# path of length 1, none of length 2 or 3 and four of length 4 (the edge
# lies on 4 of the 12 pentagons); a pair at distance 2 has one path of
# length 2, two of length 3 (via the 2 other neighbours a of s and the
# unique common neighbour of a and t) and more of length 4.  k = 4:
# lengths 1: 30, 2: 60, 3: 120, 4: 3*30 + 1*60 = 150.
printf '%s\n' "$PETERSEN" >"$TMPD/petersen.g6"
run_in "$TMPD/petersen.g6" topo-ksp -k 4 --hist
expect_out "name${T}length${T}paths
<stdin>#1${T}1${T}30
<stdin>#1${T}2${T}60
<stdin>#1${T}3${T}120
<stdin>#1${T}4${T}150" "Petersen --hist, k=4"

# k = 1 is the average distance: agree with topo-dist.
topo-gen rrg n=200 d=5 -s 4 >"$TMPD/rrg.topo"
a1=$(topo-ksp -k 1 "$TMPD/rrg.topo" | sed -n 2p | cut -f4)
a2=$(topo-dist "$TMPD/rrg.topo" | sed -n 2p | cut -f8)
[ -n "$a1" ] && [ "$a1" = "$a2" ]
ok $? "k=1 average = topo-dist avg_distance ($a2)" || diag "$a1 vs $a2"
deg=$(topo-ksp -k 2 "$TMPD/rrg.topo" | sed -n 2p | cut -f5)
[ "$deg" = 5 ]
ok $? "degree column of a 5-regular graph" || diag "$deg"
deg=$(topo-gen mesh sides=3,3 | topo-ksp -k 2 | sed -n 2p | cut -f5)
[ "$deg" = - ]
ok $? "degree column '-' for a mesh (not regular)" || diag "$deg"

# Larger k never lowers the average; the histogram sums to k per pair.
prev=0
good=0
for k in 1 2 4 8 16; do
    avg=$(topo-ksp -k $k "$TMPD/rrg.topo" | sed -n 2p | cut -f4)
    awk -v a="$avg" -v p="$prev" 'BEGIN { exit !(a >= p) }' || good=1
    prev=$avg
done
ok $good "average k-shortest length grows with k (1, 2, 4, 8, 16)"
sum=$(topo-ksp -k 8 --hist "$TMPD/rrg.topo" | awk -F"$T" 'NR > 1 { s += $3 } END { print s }')
[ "$sum" = $((200 * 199 * 8)) ]
ok $? "--hist: 8 paths for each of the 39800 pairs" || diag "$sum"

# --- Faizian et al., Lemma 9: GDBG(3000, 40) ------------------------------------
# H = 3 (40^2 = 1600 < 3000 <= 64000 = 40^3); floor(40^3/3000) = 21.
topo-gen gdbg n=3000 r=40 >"$TMPD/gdbg.topo"
H=$(awk 'BEGIN { h = 0; p = 1; while (p < 3000) { p *= 40; h++ } print h, int(p / 3000) }')
[ "$H" = "3 21" ]
ok $? "GDBG(3000, 40): H = 3, floor(r^H/N) = 21" || diag "$H"
run topo-ksp --allpath 3 --raw "$TMPD/gdbg.topo"
expect_rc 0 "GDBG(3000, 40) --allpath 3 --raw (9M pairs)"
row=$(printf '%s\n' "$out" | sed -n 2p)
amin=$(printf '%s\n' "$row" | cut -f12)
amax=$(printf '%s\n' "$row" | cut -f14)
[ "$amin" -ge 21 ] && [ "$amax" -le 22 ] && [ "$(printf '%s\n' "$row" | cut -f6)" = 8997000 ]
ok $? "Lemma 9: every one of the 8997000 pairs has >= 21 raw paths of 3 hops (21..22)" ||
    diag "$row"
# Simple paths: the pair (0, 1000) has only 20.  Raw 3-hop paths 0->a->b->1000
# solve 1600a + 40b + c = 1000 (mod 3000): 21 of them, two of which are
# 0->0->25->1000 (self-loop at 0) and 0->25->1000->1000 (self-loop at 1000:
# 40*1000 = 1000 mod 3000); both reduce to the 2-hop path 0->25->1000.  So
# 19 simple 3-hop paths + 1 simple 2-hop path = 20 < 21: Lemma 9 holds for
# raw paths (its proof counts them), not for distinct simple paths.
run topo-ksp --allpath 3 "$TMPD/gdbg.topo"
smin=$(printf '%s\n' "$out" | sed -n 2p | cut -f12)
[ "$rc" -eq 0 ] && [ "$smin" -le 20 ] && [ "$smin" -ge 1 ]
ok $? "GDBG(3000, 40): some pair has at most 20 simple paths of <= 3 hops (min $smin)" ||
    diag "$out"

# A sample of GDBG(N, r) for other N and r: raw paths >= floor(r^H/N).
bad=0
for nr in "100 4" "500 8" "1000 10" "777 6" "2000 16" "4096 16"; do
    set -- $nr
    want=$(awk -v n=$1 -v r=$2 'BEGIN { h = 0; p = 1; while (p < n) { p *= r; h++ } print h, int(p / n) }')
    set -- $1 $2 $want
    got=$(topo-gen gdbg n=$1 r=$2 | topo-ksp --allpath $3 --raw | sed -n 2p | cut -f12)
    [ "$got" -ge "$4" ] || { bad=1; diag "GDBG($1, $2): H $3 min $got < $4"; }
done
ok $bad "Lemma 9 on 6 more GDBG(N, r)"

# --- sampling ---------------------------------------------------------------------
run topo-ksp -k 8 --pairs 3000 -s 5 --threads 1 "$TMPD/rrg.topo"
expect_rc 0 "--pairs 3000 -s 5"
out1=$out
run topo-ksp -k 8 --pairs 3000 -s 5 --threads 2 "$TMPD/rrg.topo"
[ "$out" = "$out1" ]
ok $? "sampled output identical with 1 and 2 threads"
[ "$(printf '%s\n' "$out" | sed -n 2p | cut -f6,7)" = "3000${T}1" ]
ok $? "pairs 3000, sampled 1"
run topo-ksp -k 8 --pairs 3000 -s 6 "$TMPD/rrg.topo"
[ "$out" != "$out1" ]
ok $? "another seed, another sample"
full=$(topo-ksp -k 8 "$TMPD/rrg.topo" | sed -n 2p | cut -f4)
samp=$(printf '%s\n' "$out1" | sed -n 2p | cut -f4)
awk -v a="$full" -v b="$samp" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d < 0.05) }'
ok $? "sampled average ($samp) near the full one ($full)"
run topo-ksp --allpath 3 --pairs 500 -s 2 "$TMPD/gdbg.topo"
amin=$(printf '%s\n' "$out" | sed -n 2p | cut -f12)
[ "$rc" -eq 0 ] && [ "$amin" -ge "$smin" ]
ok $? "sampled ALLPATH minimum >= the all-pairs minimum" || diag "$out"

# --- JSON -------------------------------------------------------------------
if command -v python3 >/dev/null 2>&1; then
    run_in "$TMPD/petersen.g6" topo-ksp --json -k 4 --allpath 2
    v=$(printf '%s\n' "$out" | python3 -c 'import json,sys; j=json.loads(sys.stdin.read()); print(j["k"], j["paths"], j["length_sum"], j["length_paths"], j["allpath_min"], j["allpath_max"], j["allpath_sum"])' 2>&1)
    [ "$v" = "4 360 1110 [0, 30, 60, 120, 150] 1 1 90" ]
    ok $? "--json: valid object with the lengths" || diag "$v" "$out"
fi

# --- errors -----------------------------------------------------------------
usage_fail() {
    [ "$rc" -eq 2 ] && [ -z "$out" ] &&
        printf '%s\n' "$err" | head -n 1 | grep -Eq -- "^topo-ksp: .*$1" &&
        printf '%s\n' "$err" | grep -q "topo-ksp --help"
    ok $? "$2 (usage error, exit 2)" || diag "exit $rc" "stderr: $err" "stdout: $out"
}
run topo-ksp -k 0
usage_fail "-k" "-k 0"
run topo-ksp -k x
usage_fail "-k" "-k x"
run topo-ksp --allpath 0
usage_fail "allpath" "--allpath 0"
run topo-ksp --raw
usage_fail "raw" "--raw without --allpath"
run topo-ksp -s 3
usage_fail "seed" "-s without --pairs"
run topo-ksp --pairs 0
usage_fail "pairs" "--pairs 0"
run topo-ksp --hist --json
usage_fail "hist" "--hist with --json"
run topo-ksp --hist --allpath 2
usage_fail "hist" "--hist with --allpath but no -k"
run topo-ksp --bogus
usage_fail "unknown option" "unknown option"

run topo-ksp "$TMPD/no-such-file"
expect_fail 1 "^topo-ksp: $TMPD/no-such-file: No such file" "missing input"
: >"$TMPD/empty"
run topo-ksp "$TMPD/empty"
expect_fail 1 "^topo-ksp: $TMPD/empty: no graph in input" "empty input"
echo '?' >"$TMPD/n0.g6"
run_in "$TMPD/n0.g6" topo-ksp
expect_fail 1 "^topo-ksp: <stdin>: graph 1: empty graph$" "n = 0"
echo '@' >"$TMPD/n1.g6"
run_in "$TMPD/n1.g6" topo-ksp --pairs 5
expect_fail 1 "^topo-ksp: <stdin>: graph 1: pairs: cannot sample" "one switch cannot be sampled"
run_in "$TMPD/n1.g6" topo-ksp
expect_rc 0 "one switch, all pairs: no pair"
[ "$(printf '%s\n' "$out" | sed -n 2p | cut -f4,6)" = "-${T}0" ]
ok $? "no pair: avg '-', pairs 0" || diag "$out"
run topo-ksp --allpath 70 --raw -k 1 "$TMPD/petersen.g6"
expect_fail 1 "^topo-ksp: .*graph 1: H=70: a raw-path count exceeds 2\^64-1" \
    "3^70 raw paths: refused"

run env TOPOKIT_MEMORY_LIMIT=1M topo-ksp --pairs 100000 "$TMPD/petersen.g6"
expect_fail 1 "^topo-ksp: --pairs 100000: the sample needs 1600000 bytes, more than the memory limit" \
    "a sample larger than the memory limit is refused"

# Pendant switches: the target's only neighbour is the source, so the
# paths bound by d(v,t) wander through the rest of the graph without ever
# reaching t; the old search enumerated every simple path there (4 s for
# 30 switches at k = 2, and never finished at 61).  The values are
# networkx's shortest_simple_paths over every pair (and, for 30 switches,
# the old exhaustive search's).
run topo-ksp -k 2 "$DATA/ksp-pendant-30.s6"
[ "$(printf '%s\n' "$out" | sed -n 2p | cut -f2-)" = "30${T}2${T}3.1265822784810124${T}-${T}870${T}0${T}2${T}1${T}6" ]
ok $? "30 switches, one of degree 1, k=2 (sparse6 repro)" || diag "$out" "$err"
run topo-ksp -k 4 "$DATA/ksp-pendant-61.edges"
[ "$(printf '%s\n' "$out" | sed -n 2p | cut -f2-)" = "61${T}4${T}5.606532731993987${T}-${T}3660${T}0${T}2${T}1${T}10" ]
ok $? "rrg(60, 3) plus a pendant switch, k=4: 82046/14634, 2 short pairs (networkx)" || diag "$out" "$err"

mkdir "$TMPD/o"
run topo-ksp -o "$TMPD/o/res.tsv" "$TMPD/petersen.g6"
expect_rc 0 "-o FILE"
[ -z "$out" ] && [ "$(sed -n 2p "$TMPD/o/res.tsv" | cut -f3)" = 8 ]
ok $? "-o: the row in the file, default k = 8"
run topo-ksp -o "$TMPD/o/bad.tsv" "$TMPD/petersen.g6" "$TMPD/empty"
[ "$rc" -eq 1 ] && [ "$(ls "$TMPD/o")" = res.tsv ]
ok $? "-o: no file left after an error" || diag "$(ls -a "$TMPD/o")"

done_testing
