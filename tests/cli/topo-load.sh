# topo-load: output shapes, closed forms, the Ant Mill paper's Remark 1 and
# the lemmas of Faizian et al., errors and exit codes.
. "$TK_SRCDIR/tests/cli/lib.sh"

T=$(printf '\t')
HEADER="name${T}routing${T}pattern${T}n${T}arcs${T}max_load${T}avg_load${T}throughput"

# field NAME: the column NAME of the first data row of $out.
field() {
    printf '%s\n' "$out" | awk -F '\t' -v k="$1" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
        NR == 2 { print $(c[k]) }'
}
# approx A B: |A - B| <= 1e-9 (1 + |B|)
approx() {
    awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b
        exit !(d <= 1e-9 * (1 + m)) }'
}

# usage_fail RE DESC: exit 2, stderr's first line matches RE, empty stdout.
usage_fail() {
    [ "$rc" -eq 2 ] && [ -z "$out" ] && printf '%s\n' "$err" | head -1 | grep -Eq -- "$1"
    ok $? "$2" || diag "exit $rc" "stderr: $err"
}

# --- help, version, usage errors ---------------------------------------------
run topo-load --help
[ "$rc" -eq 0 ] && printf '%s\n' "$out" | head -1 | grep -q '^usage: topo-load'
ok $? "--help: usage on stdout, exit 0"
run topo-load --version
expect_rc 0 "--version"
run topo-load --bogus
usage_fail "unknown option '--bogus'" "unknown option: exit 2"
run topo-load -r ksp:0
usage_fail "ksp:0" "bad routing model: exit 2 naming it"
run topo-load -r nosuch
usage_fail "nosuch" "unknown routing model: exit 2"
run topo-load --top 0
usage_fail "--top" "--top 0: exit 2"
run topo-load --top 3 --hist
usage_fail "different tables" "--top with --hist without --json: exit 2"
run topo-load --bins 4
usage_fail "--bins needs --hist" "--bins without --hist: exit 2"
run topo-load -P -
usage_fail "cannot both be standard input" "-P - with the topology on stdin: exit 2"
run topo-load --threads 0
usage_fail "--threads" "--threads 0: exit 2"

# --- closed forms --------------------------------------------------------------
# Loads are in link-capacity units at offered load 1 per server, with or
# without -P (issue 25): one unit per ordered switch pair (the count of
# Faizian et al., Lemma 4) times p/(n-1).
# Odd cycle C_9, uniform, one server per switch: every arc carries
# 1+2+3+4 = 10 pair units under min (each pair's unique shortest path),
# 10/8 link units, and the throughput per server is 8/10.
topo-gen ring n=9 >"$TMPD/c9.topo"
run topo-load "$TMPD/c9.topo"
expect_rc 0 "C_9 min"
expect_out "$HEADER
ring n=9${T}min${T}uniform${T}9${T}18${T}1.25${T}1.25${T}0.8" "C_9: max = avg = 10/8, throughput 0.8"
# Even cycle C_8, ecmp: the antipodal pair splits: 1+2+3+4/2 = 8 pair units,
# with 2 servers per switch 8*2/7 link units; throughput 7/(2*8).
topo-gen -p 2 ring n=8 >"$TMPD/c8.topo"
run topo-load -r ecmp "$TMPD/c8.topo"
approx "$(field max_load)" "$(awk 'BEGIN { printf "%.17g", 16 / 7 }')" &&
    approx "$(field throughput)" "$(awk 'BEGIN { print 7 / 16 }')"
ok $? "C_8 ecmp: max load 16/7, throughput 7/16 with p = 2" || diag "$out"
# K_6: every pair is one hop: load 1/5 everywhere; throughput capped at 1.
topo-gen complete n=6 >"$TMPD/k6.topo"
run topo-load "$TMPD/k6.topo"
[ "$(field max_load)" = 0.2 ] && approx "$(field avg_load)" 0.2 && [ "$(field throughput)" = 1 ]
ok $? "K_6: load 1/5 per arc, throughput 1 (5 capped)" || diag "$out"
# The default is the uniform of topo-pattern(1) wherever servers exist,
# also where some switches have none (issue 25): fat-tree k=4 (the core
# and aggregation switches serve nothing) and Dragonfly+ (the spines),
# and its label is that pattern's: throughput 1 both ways, not 0.70.
for spec in "fattree k=4 levels=3" "dragonfly+ leaves=2 spines=2 h=1 g=3"; do
    topo-gen $spec >"$TMPD/sl.topo"
    run topo-load "$TMPD/sl.topo"
    def=$(field throughput) defml=$(field max_load) lbl=$(field pattern)
    topo-pattern uniform "$TMPD/sl.topo" >"$TMPD/sl.pat"
    run topo-load -P "$TMPD/sl.pat" "$TMPD/sl.topo"
    [ "$lbl" = uniform ] && approx "$def" "$(field throughput)" && approx "$defml" "$(field max_load)"
    ok $? "$spec: default = -P 'topo-pattern uniform' (throughput $def, max_load $defml), label uniform" ||
        diag "$out"
done

# --- the Ant Mill paper, Remark 1 -----------------------------------------------
# A cycle of N switches, p servers each, pattern switch i -> switch i+lambda
# (weight 1: every server sends 1).  For lambda < N/2 every window has a
# unique shortest path, so each clockwise arc carries lambda*p: throughput
# exactly 1/(p lambda).  The pattern is written here by awk.
for case in "11 3 2" "9 4 1" "16 5 3"; do
    set -- $case
    N=$1 lam=$2 p=$3
    topo-gen -p "$p" ring n="$N" >"$TMPD/ring.topo"
    awk -v N="$N" -v L="$lam" 'BEGIN { print "topokit-pattern 1"; print "spec remark1"
        print "topology ring"; print "level switch"; print "endpoints " N; print "demands " N
        for (i = 0; i < N; i++) print i, (i + L) % N }' >"$TMPD/r1.pat"
    run topo-load -P "$TMPD/r1.pat" "$TMPD/ring.topo"
    want=$(awk -v p="$p" -v l="$lam" 'BEGIN { printf "%.17g", 1 / (p * l) }')
    [ "$rc" -eq 0 ] && approx "$(field throughput)" "$want" &&
        [ "$(field max_load)" = "$((p * lam))" ]
    ok $? "Ant Mill paper, Remark 1: ring N=$N p=$p lambda=$lam: max load $((p * lam)), throughput 1/(p lambda)" ||
        diag "$out" "$err"
done

# --- Faizian et al.: Lemma 10 (GDBG, ALLPATH(H)) and Lemma 4 (RRG, ksp:K) ------
# ("Random Regular Graph and Generalized De Bruijn Graph with k-shortest Path
# Routing").
# topo-bounds computes both bounds (topo-bounds(1)).
for nr in "60 4 3" "200 8 3"; do
    set -- $nr
    topo-gen gdbg n="$1" r="$2" >"$TMPD/gdbg.topo"
    run topo-load -r allpath:"$3" "$TMPD/gdbg.topo"
    ml=$(awk -v m="$(field max_load)" -v n="$1" 'BEGIN { printf "%.17g", m * (n - 1) }')
    ub=$(topo-bounds N="$1" r="$2" H="$3" | awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
        NR == 2 { print $(c["gdbg_ml_ub"]) }')
    awk -v a="$ml" -v b="$ub" 'BEGIN { exit !(a > 0 && a <= b) }'
    ok $? "Faizian et al. Lemma 10: GDBG($1,$2) allpath:$3 max load $ml <= $ub" || diag "$out"
done
for nd in "200 8 4" "120 6 8"; do
    set -- $nd
    topo-gen rrg n="$1" d="$2" -s 3 >"$TMPD/rrg.topo"
    run topo-load -r ksp:"$3" "$TMPD/rrg.topo"
    ml=$(awk -v m="$(field max_load)" -v n="$1" 'BEGIN { printf "%.17g", m * (n - 1) }')
    lb=$(topo-bounds N="$1" r="$2" | awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
        NR == 2 { print $(c["ml_lb"]) }')
    awk -v a="$ml" -v b="$lb" 'BEGIN { exit !(a >= 1.5 * b) }'
    ok $? "Faizian et al. Lemma 4: RRG($1,$2) ksp:$3 max load $ml well above ML = $lb (>= 1.5x)" ||
        diag "$out"
    # and no routing beats the bound: min is above it too
    run topo-load "$TMPD/rrg.topo"
    ml=$(awk -v m="$(field max_load)" -v n="$1" 'BEGIN { printf "%.17g", m * (n - 1) }')
    awk -v a="$ml" -v b="$lb" 'BEGIN { exit !(a >= b) }'
    ok $? "Faizian et al. Lemma 4: RRG($1,$2) min max load $ml (pair units) >= ML = $lb" || diag "$out"
done

# --- Dragonfly under minimal (local-global-local) routing ------------------------
# ADV+1: all a*p servers of group g send to group g+1 over its l global
# links: throughput l/(a p).  g = a*h+1 groups gives l = 1; g = 5 and g = 3
# with a=4 h=2 give l = a*h/(g-1) = 2 and 4 (trunking).  ADVc (Fuentes et
# al., "Network Unfairness in Dragonfly Topologies"): the a*p servers of a
# group send to the h groups reached from one router: throughput h/(a p)
# (canonical g = a*h+1).  Expected values by hand and
# from topo-bounds --traffic.
if topo-pattern adv i=1 "$TMPD/c9.topo" >/dev/null 2>&1 || topo-gen dragonfly a=2 h=1 p=1 |
    topo-pattern adv i=1 >/dev/null 2>&1; then
    for gl in "9 1" "5 2" "3 4"; do
        set -- $gl
        topo-gen dragonfly a=4 h=2 p=2 g="$1" >"$TMPD/df.topo"
        topo-pattern adv i=1 "$TMPD/df.topo" >"$TMPD/adv.pat"
        run topo-load -r dragonfly-min -P "$TMPD/adv.pat" "$TMPD/df.topo"
        want=$(awk -v l="$2" 'BEGIN { printf "%.17g", l / 8 }')
        bnd=$(topo-bounds --traffic p=2 a=4 h=2 l="$2" | awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
            NR == 2 { print $(c["adv_i_ub"]) }')
        approx "$(field throughput)" "$want" && approx "$(field throughput)" "$bnd"
        ok $? "Dragonfly a=4 h=2 p=2 g=$1 (l=$2): ADV+1 throughput l/(a p) = $want (topo-bounds: $bnd)" ||
            diag "$out" "$err"
        [ "$(field max_load.global)" = "$(awk -v l="$2" 'BEGIN { print 8 / l }')" ]
        ok $? "ADV+1 g=$1: hottest global link carries a*p/l = $((8 / $2))" || diag "$out"
    done
    topo-gen dragonfly a=4 h=2 p=2 >"$TMPD/df.topo"
    topo-pattern advc "$TMPD/df.topo" >"$TMPD/advc.pat"
    run topo-load -r dragonfly-min -P "$TMPD/advc.pat" "$TMPD/df.topo"
    bnd=$(topo-bounds --traffic p=2 a=4 h=2 l=1 | awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
        NR == 2 { print $(c["advc_ub"]) }')
    approx "$(field throughput)" 0.25 && approx "$(field throughput)" "$bnd"
    ok $? "Dragonfly a=4 h=2 p=2: ADVc throughput h/(a p) = 1/4 (topo-bounds: $bnd)" ||
        diag "$out" "$err"
    # ADV+1 at the largest size, a=8 h=4 p=4 (g=33): 1/(a p) = 1/32.
    topo-gen dragonfly a=8 h=4 p=4 >"$TMPD/dfl.topo"
    topo-pattern adv i=1 "$TMPD/dfl.topo" >"$TMPD/advl.pat"
    run topo-load -r dragonfly-min -P "$TMPD/advl.pat" "$TMPD/dfl.topo"
    approx "$(field throughput)" 0.03125
    ok $? "Dragonfly a=8 h=4 p=4 (max size, l=1): ADV+1 throughput 1/(a p) = 1/32" || diag "$out"
else
    ok 0 "# SKIP topo-pattern adv is not available (the Dragonfly ADV+1/ADVc cases need it)"
fi

# --- server-level uniform = the default all-to-all scaled ------------------------
# The default pattern at offered load 1 sends p/(n-1) from a switch to
# every other switch; topo-pattern all-to-all (one unit per switch,
# spread evenly) must give the same throughput.
if topo-pattern all-to-all "$TMPD/c8.topo" >"$TMPD/a2a.pat" 2>/dev/null; then
    run topo-load -P "$TMPD/a2a.pat" "$TMPD/c8.topo"
    t1=$(field throughput)
    run topo-load "$TMPD/c8.topo"
    approx "$t1" "$(field throughput)"
    ok $? "pattern all-to-all and the default give the same throughput ($t1)" || diag "$out"
fi

# --- output shapes ----------------------------------------------------------------
topo-gen dragonfly a=3 h=1 p=1 g=4 >"$TMPD/dfs.topo"
run topo-load "$TMPD/dfs.topo"
printf '%s\n' "$out" | head -1 | grep -q "${T}max_load.local${T}avg_load.local${T}throughput.local${T}max_load.global${T}avg_load.global${T}throughput.global$"
ok $? "class columns: max_load.C avg_load.C throughput.C per link class" || diag "$out"
# overall max = max over the classes
awk -F '\t' 'NR == 2 { m = $9 > $12 ? $9 : $12; exit !($6 == m) }' <<EOF
$out
EOF
ok $? "overall max_load is the larger class max_load" || diag "$out"

run topo-load --top 4 "$TMPD/c9.topo"
[ "$(printf '%s\n' "$out" | wc -l)" -eq 5 ] && [ "$(printf '%s\n' "$out" | head -1)" = "name${T}tail${T}head${T}class${T}load" ] &&
    [ "$(printf '%s\n' "$out" | sed -n 2p | cut -f2-)" = "0${T}1${T}-${T}1.25" ]
ok $? "--top 4: header and 4 rows, hottest first (ties by arc id)" || diag "$out"
run topo-load --top 100 "$TMPD/c9.topo"
[ "$(printf '%s\n' "$out" | wc -l)" -eq 19 ]
ok $? "--top N beyond the arc count lists every arc" || diag "$out"
run topo-load --hist --bins 4 "$TMPD/dfs.topo"
sum=$(printf '%s\n' "$out" | awk -F '\t' 'NR > 1 { s += $4 } END { print s }')
[ "$(printf '%s\n' "$out" | wc -l)" -eq 5 ] && [ "$sum" -eq "$(topo-load "$TMPD/dfs.topo" | awk -F '\t' 'NR == 2 { print $5 }')" ]
ok $? "--hist --bins 4: 4 bins holding every arc" || diag "$out"
run topo-load --json --top 2 --hist "$TMPD/dfs.topo"
if [ -x /usr/bin/python3 ]; then
    printf '%s\n' "$out" | /usr/bin/python3 -c '
import json, sys
o = json.loads(sys.stdin.readline())
assert len(o["top"]) == 2 and len(o["hist"]) == 10
assert set(o["classes"]) == {"local", "global"}
assert o["max_load"] == max(c["max_load"] for c in o["classes"].values())
'
    ok $? "--json: one object with classes, top and hist" || diag "$out"
fi

# Thread count never changes the result (byte for byte).
topo-gen rrg n=300 d=6 -s 2 >"$TMPD/r300.topo"
for r in min ecmp valiant ksp:2 allpath:2; do
    a=$(OMP_NUM_THREADS=1 topo-load -r "$r" --top 2000 "$TMPD/r300.topo" 2>&1 | md5sum)
    b=$(OMP_NUM_THREADS=2 topo-load -r "$r" --top 2000 "$TMPD/r300.topo" 2>&1 | md5sum)
    c=$(topo-load --threads 3 -r "$r" --top 2000 "$TMPD/r300.topo" 2>&1 | md5sum)
    [ "$a" = "$b" ] && [ "$a" = "$c" ]
    ok $? "$r: every arc load identical with 1, 2 and 3 threads"
done

# Several graphs: one header, a row each.
cat "$TMPD/c9.topo" "$TMPD/k6.topo" >"$TMPD/two.topo"
run topo-load "$TMPD/two.topo"
[ "$(printf '%s\n' "$out" | wc -l)" -eq 3 ]
ok $? "two graphs: header and two rows" || diag "$out"

# -o writes atomically.
run topo-load -o "$TMPD/o.tsv" "$TMPD/c9.topo"
[ "$rc" -eq 0 ] && [ -z "$out" ] && [ "$(sed -n 2p "$TMPD/o.tsv" | cut -f6)" = 1.25 ]
ok $? "-o FILE holds the table" || diag "$err"

# --- data errors -------------------------------------------------------------------
run topo-load -P "$TMPD/nonexistent.pat" "$TMPD/c9.topo"
expect_fail 1 "nonexistent.pat" "missing pattern file: exit 1 naming it"
printf 'topokit-pattern 1\nlevel switch\nendpoints 3\nbogus line\n' >"$TMPD/bad.pat"
run topo-load -P "$TMPD/bad.pat" "$TMPD/c9.topo"
expect_fail 1 "bad.pat" "malformed pattern: exit 1 naming the file"
awk 'BEGIN { print "topokit-pattern 1"; print "level switch"; print "endpoints 5"
    print "demands 1"; print "0 1" }' >"$TMPD/p5.pat"
run topo-load -P "$TMPD/p5.pat" -o "$TMPD/o2.tsv" "$TMPD/c9.topo"
expect_fail 1 "graph 1" "pattern of another size: exit 1"
[ ! -e "$TMPD/o2.tsv" ]
ok $? "failed run with -o leaves no file"
printf 'topokit-graph 1\nswitches 4\ndirected 0\nservers 1\nlinks 2\n0 1\n2 3\nend\n' >"$TMPD/disc.topo"
run topo-load "$TMPD/disc.topo"
expect_fail 1 "connected" "disconnected graph: exit 1"
run topo-load -r dragonfly-min "$TMPD/c9.topo"
expect_fail 1 "graph 1" "dragonfly-min on a ring: exit 1"
run topo-load -r min,global=2 "$TMPD/c9.topo"
expect_fail 1 "global" "weight of a class the graph lacks: exit 1"
cat "$TMPD/c9.topo" "$TMPD/dfs.topo" >"$TMPD/mixed.topo"
run topo-load "$TMPD/mixed.topo"
# issue 25: the class columns are the union, a graph without a class has
# empty cells there (the ring has none: 8 cells then 6 empty ones)
[ "$rc" -eq 0 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 3 ] &&
    printf '%s\n' "$out" | head -1 | grep -q "${T}throughput${T}max_load.local${T}avg_load.local${T}throughput.local${T}max_load.global${T}avg_load.global${T}throughput.global$" &&
    printf '%s\n' "$out" | awk -F '\t' 'NR == 2 { exit !(NF == 14 && $9 == "" && $14 == "" && $8 != "") }
        NR == 3 { exit !(NF == 14 && $9 != "" && $14 != "") }'
ok $? "a later graph with other link classes: the union of the columns, empty cells" || diag "$out" "$err"
tac_in=$(cat "$TMPD/dfs.topo" "$TMPD/c9.topo")
printf '%s\n' "$tac_in" >"$TMPD/mixed2.topo"
run topo-load "$TMPD/mixed2.topo"
[ "$rc" -eq 0 ] && printf '%s\n' "$out" | awk -F '\t' 'NR == 3 { exit !(NF == 14 && $9 == "") }'
ok $? "... in either order" || diag "$out" "$err"
run topo-load --json "$TMPD/mixed.topo"
[ "$rc" -eq 0 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 2 ]
ok $? "... but --json takes any classes" || diag "$err"
# rrg n=300 d=6: the graph needs about 87 KB, the loads 77 KB per thread.
run env TOPOKIT_MEMORY_LIMIT=120K topo-load --threads 2 "$TMPD/r300.topo"
expect_fail 1 "graph 1: link loads need about [0-9]+ bytes.*memory limit" \
    "load workspace beyond TOPOKIT_MEMORY_LIMIT: exit 1"
run env TOPOKIT_MEMORY_LIMIT=120K topo-load --threads 1 "$TMPD/r300.topo"
expect_rc 0 "... and one thread fits"
: >"$TMPD/empty"
run topo-load "$TMPD/empty"
expect_fail 1 "no graph in input" "empty input: exit 1"

done_testing
