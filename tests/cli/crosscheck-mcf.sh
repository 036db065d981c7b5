# crosscheck-mcf: topo-mcf's exact theta (simplex, and barrier: certified or
# handed on to the simplex) against an independent LP written in
# GLPK's MathProg (tests/data/mcf.mod, data from tests/cli/mcf-dat.awk) and
# solved by glpsol, on small random graphs and several patterns, to 1e-6.
. "$TK_SRCDIR/tests/cli/lib.sh"

command -v glpsol >/dev/null 2>&1 || skip_all "glpsol not installed"
MOD="$TK_SRCDIR/tests/data/mcf.mod"
AWKF="$TK_SRCDIR/tests/cli/mcf-dat.awk"

check() { # check TOPO PATTERN-FILE P DESC
    local topo=$1 pat=$2 p=$3 desc=$4 mine ref
    topo-conv -f edges "$topo" >"$TMPD/e"
    awk -v p="$p" -f "$AWKF" "$TMPD/e" "$pat" >"$TMPD/d.dat"
    ref=$(glpsol --math "$MOD" --data "$TMPD/d.dat" 2>&1 | awk '$1 == "THETA" { print $2 }')
    for lp in simplex barrier; do
        mine=$(topo-mcf --method exact --lp $lp -P "$pat" "$topo" | awk -F '\t' 'NR == 2 { print $4 }')
        awk -v a="$mine" -v b="$ref" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && b != "" && d <= 1e-6 * (b > 1 ? b : 1)) }'
        ok $? "$desc, --lp $lp: topo-mcf $mine, glpsol $ref"
    done
}

for s in 1 2 3; do
    topo-gen rrg n=10 d=3 -s $s >"$TMPD/g.topo"
    topo-pattern all-to-all "$TMPD/g.topo" >"$TMPD/a.pat"
    check "$TMPD/g.topo" "$TMPD/a.pat" 1 "rrg(10,3) s=$s all-to-all"
    topo-pattern switch-perm -s $s "$TMPD/g.topo" >"$TMPD/b.pat"
    check "$TMPD/g.topo" "$TMPD/b.pat" 1 "rrg(10,3) s=$s switch permutation"
    topo-pattern hotspot -s $s "$TMPD/g.topo" >"$TMPD/h.pat" 2>/dev/null &&
        check "$TMPD/g.topo" "$TMPD/h.pat" 1 "rrg(10,3) s=$s hotspot"
done
# servers: 3 per switch, server-level permutation and uniform (injection caps)
topo-gen rrg n=8 d=3 -p 3 -s 5 >"$TMPD/g3.topo"
topo-pattern server-perm -s 5 "$TMPD/g3.topo" >"$TMPD/sp.pat"
check "$TMPD/g3.topo" "$TMPD/sp.pat" 3 "rrg(8,3) p=3 server permutation"
topo-pattern uniform "$TMPD/g3.topo" >"$TMPD/su.pat"
check "$TMPD/g3.topo" "$TMPD/su.pat" 3 "rrg(8,3) p=3 server uniform"
topo-pattern random-shift level=switch -s 2 "$TMPD/g3.topo" >"$TMPD/rs.pat"
check "$TMPD/g3.topo" "$TMPD/rs.pat" 3 "rrg(8,3) p=3 switch random shift"
# a torus and a directed graph (Kautz)
topo-gen torus sides=3,4 >"$TMPD/t.topo"
topo-pattern switch-perm -s 9 "$TMPD/t.topo" >"$TMPD/tp.pat"
check "$TMPD/t.topo" "$TMPD/tp.pat" 1 "torus 3x4 switch permutation"
topo-gen kautz d=2 D=3 >"$TMPD/k.topo" 2>/dev/null && {
    topo-pattern all-to-all "$TMPD/k.topo" >"$TMPD/ka.pat"
    check "$TMPD/k.topo" "$TMPD/ka.pat" 1 "Kautz(2,3) directed all-to-all"
}
done_testing
