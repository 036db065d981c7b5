# topo-sim's polarized-adaptive rule (topokit(7), ADAPTIVE ROUTING): with
# bias=inf every router keeps the oblivious polarized split, so it gives
# exactly topo-sim -r polarized; its fixed point on K4 equals an
# independent solution of the rule's equation; the same bytes at 1 and 2
# threads.  Also: valiant,early's paths against a hand count on a ring, and
# ugal-l / ugal-g on HyperX, Slim Fly and a random regular graph: a
# forcing bias gives exactly min (or valiant,exclude).
. "$TK_SRCDIR/tests/cli/lib.sh"

. "$TK_SRCDIR/tests/cli/sim-lib.sh"

topo-gen rrg n=16 d=4 -p 2 -s 3 >"$TMPD/rrg.topo"
topo-antmill --delta 1 -s 1 -P "$TMPD/am.pat" "$TMPD/rrg.topo" >/dev/null 2>&1
topo-gen hyperx sides=3,3 -p 2 >"$TMPD/hx.topo"
topo-gen slimfly q=3 -p 2 >"$TMPD/sf.topo"

# same RULE OBLIVIOUS TOPO PATTERN ARB: the two runs agree, statistics and
# every server (1e-12; rr stops its sweeps at 1e-13 relative, so 1e-9)
same() {
    local rule=$1 obl=$2 topo=$3 pat=$4 arb=$5 tol=1e-12 m
    [ "$arb" = fair ] || tol=1e-9
    case $pat in
    *.pat) m="-P $TMPD/$pat" ;;
    uniform) m="" ;;
    *) m="-m $pat" ;;
    esac
    topo-sim -r "$obl" -a "$arb" $m --per-server "$TMPD/o.ps" "$TMPD/$topo" >"$TMPD/o.tsv" 2>"$TMPD/o.err"
    topo-sim -r "$rule" -a "$arb" $m --per-server "$TMPD/a.ps" "$TMPD/$topo" >"$TMPD/a.tsv" 2>"$TMPD/a.err"
    d1=$(same_cols "$TMPD/a.tsv" "$TMPD/o.tsv" $tol $STATS hops)
    s1=$?
    d2=$(same_servers "$TMPD/a.ps" "$TMPD/o.ps" $tol)
    s2=$?
    [ $s1 -eq 0 ] && [ $s2 -eq 0 ] && [ "$(col "$TMPD/a.tsv" min_share)" != NOCOLUMN ]
    ok $? "$topo, $pat, $arb: $rule = $obl (every server, $tol)" ||
        diag "$d1" "$d2" "$(cat "$TMPD/a.err" "$TMPD/o.err")"
}

# --- bias=inf: the oblivious polarized model ------------------------------------
for pat in uniform server-perm am.pat; do
    same polarized-adaptive,bias=inf polarized rrg.topo $pat fair
done
same polarized-adaptive,bias=inf polarized rrg.topo server-perm rr
same polarized-adaptive,bias=inf polarized hx.topo server-perm fair
same polarized-adaptive,bias=inf polarized sf.topo uniform fair

# --- K4, one flow 0 -> 1: the rule's fixed point solved independently -----------
# Switch 0 has three candidates: the direct arc (cost (q_d + 1) 1) and the
# arcs to 2 and 3 (cost (q_v + 1) 2, each then one hop to 1), every one
# with one DAG path, so prior 1/3 each.  q(u) = u / (1 - u) (M/M/1; no
# flow is held back at rho <= 1).  With z the direct share, u_d = rho z and
# u_v = rho (1 - z) / 2; the target is 1 / (1 + 2 g_v) when the direct arc
# is the cheaper (g_v = clamp(1 - (c_v - c_d), 0, 1)), else g_d / (g_d + 2).
# Bisection on z* (z) = z; min_share is z (only the direct path is minimal)
# and hops 2 - z.
topo-gen complete n=4 -p 1 >"$TMPD/k4.topo"
printf 'topokit-pattern 1\nlevel server\nendpoints 4\ndemands 1\n0 1\n' >"$TMPD/k4.pat"
for rho in 0.5 0.8 1; do
    want=$(awk -v rho=$rho 'function q(u) { return u >= 1 ? 256 : u / (1 - u) }
        function cl(x) { return x < 0 ? 0 : x > 1 ? 1 : x }
        function tgt(z,  cd, cv, g) { cd = q(rho * z) + 1; cv = 2 * (q(rho * (1 - z) / 2) + 1)
            if (cd <= cv) return 1 / (1 + 2 * cl(1 - (cv - cd)))
            g = cl(1 - (cd - cv)); return g / (g + 2) }
        BEGIN { lo = 0; hi = 1; for (i = 0; i < 200; i++) { m = (lo + hi) / 2; if (tgt(m) > m) lo = m; else hi = m }
            printf "%.12f", lo }')
    topo-sim -r polarized-adaptive -P "$TMPD/k4.pat" --rho $rho "$TMPD/k4.topo" >"$TMPD/k4.tsv" 2>"$TMPD/k4.err"
    got=$(col "$TMPD/k4.tsv" min_share)
    hops=$(col "$TMPD/k4.tsv" hops)
    awk -v a="$got" -v b="$want" -v h="$hops" 'BEGIN { d = a - b; e = h - (2 - b)
        exit !(d < 1e-6 && d > -1e-6 && e < 1e-6 && e > -1e-6 && b > 0.4 && b < 0.7) }'
    ok $? "K4, rho $rho: the direct share $got = $want (solved independently)" ||
        diag "hops $hops" "$(cat "$TMPD/k4.err")"
done

# --- determinism -------------------------------------------------------------------
for pat in server-perm; do
    topo-sim -r polarized-adaptive -m $pat --rho 0.4 --threads 1 "$TMPD/rrg.topo" >"$TMPD/t1.tsv" 2>&1
    topo-sim -r polarized-adaptive -m $pat --rho 0.4 --threads 2 "$TMPD/rrg.topo" >"$TMPD/t2.tsv" 2>&1
    cmp -s "$TMPD/t1.tsv" "$TMPD/t2.tsv" && [ "$(col "$TMPD/t1.tsv" residual)" != NOCOLUMN ]
    ok $? "polarized-adaptive, $pat: the same bytes at 1 and 2 threads" || diag "$(cat "$TMPD/t1.tsv" "$TMPD/t2.tsv")"
done

# --- convergence: the fixed point is reached, deterministically ---------------------
# On the 16-switch RRG the rule converges below saturation (uniform at
# 0.6) and beyond it (the Ant Mill pattern at 0.6, where not every flow is
# served): no warning, fewer than the 2000 iterations, a residual at the
# tolerance (the last iteration reports on the snapped split), and the same
# bytes at 1 and 2 threads.
for name in uniform antmill; do
    case $name in
    uniform) m="-m uniform" served=1 ;;
    *) m="-P $TMPD/am.pat" served=0 ;;
    esac
    topo-sim -r polarized-adaptive $m --rho 0.6 --threads 1 "$TMPD/rrg.topo" >"$TMPD/c1.tsv" 2>"$TMPD/c1.err"
    rc1=$?
    topo-sim -r polarized-adaptive $m --rho 0.6 --threads 2 "$TMPD/rrg.topo" >"$TMPD/c2.tsv" 2>"$TMPD/c2.err"
    rc2=$?
    it=$(col "$TMPD/c1.tsv" iterations)
    res=$(col "$TMPD/c1.tsv" residual)
    ms=$(col "$TMPD/c1.tsv" min_served)
    [ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] && [ ! -s "$TMPD/c1.err" ] && [ ! -s "$TMPD/c2.err" ] &&
        cmp -s "$TMPD/c1.tsv" "$TMPD/c2.tsv" &&
        awk -v i="$it" -v r="$res" -v m="$ms" -v s="$served" 'BEGIN {
            exit !(i > 1 && i < 2000 && r <= 1e-8 && (s ? m >= 1 - 1e-9 : m < 0.99)) }'
    ok $? "polarized-adaptive, $name, rho 0.6: converged ($it iterations, residual $res, min_served $ms), the same bytes at 1 and 2 threads" ||
        diag "$(cat "$TMPD/c1.err" "$TMPD/c2.err")"
done

# At offered load 1 (uniform) it does not converge: the flows that are not
# fully served move their bottleneck from one saturated arc to another on
# split changes far below the damping's step, and the held-back part of
# the queue signal jumps with it (topokit(7), ADAPTIVE ROUTING, The queue
# signal and Iteration).  topo-sim reports it: exit 0, one warning line
# with the iterations and the residual, the residual column above 0.1, the
# same bytes at 1 and 2 threads (300 iterations keep the test short).
for t in 1 2; do
    topo-sim --threads $t -r polarized-adaptive,iter=300 -m uniform --rho 1 "$TMPD/rrg.topo" \
        >"$TMPD/n$t.tsv" 2>"$TMPD/n$t.err"
    echo $? >"$TMPD/n$t.rc"
done
it=$(col "$TMPD/n1.tsv" iterations)
res=$(col "$TMPD/n1.tsv" residual)
[ "$(cat "$TMPD/n1.rc")" = 0 ] && [ "$(cat "$TMPD/n2.rc")" = 0 ] && [ "$it" = 300 ] &&
    [ "$(wc -l <"$TMPD/n1.err")" -eq 1 ] &&
    grep -q "rho 1: no fixed point after 300 iterations (residual 0\.[1-9]" "$TMPD/n1.err" &&
    awk -v r="$res" 'BEGIN { exit !(r > 0.1) }' &&
    cmp -s "$TMPD/n1.tsv" "$TMPD/n2.tsv" && cmp -s "$TMPD/n1.err" "$TMPD/n2.err"
ok $? "polarized-adaptive, uniform, rho 1: not converged, reported (residual $res), the same bytes at 1 and 2 threads" ||
    diag "$(cat "$TMPD/n1.err" "$TMPD/n2.err")"

# --- valiant,early on the 6-ring, pair 0 -> 1 ------------------------------------
# m = 0, 1: the link 0-1; m = 2: the first phase 0-1-2 passes 1 and ends
# there; m = 3: half of the draws go 0-1-2-3 (ends at 1), half 0-5-4-3
# then 3-2-1; m = 4: 0-5-4, then 4-3-2-1 or 4-5-0-1; m = 5: 0-5, 0-1.
topo-gen ring n=6 >"$TMPD/c6.topo"
topo-route -r valiant,early --pair 0,1 --paths "$TMPD/c6.topo" |
    awk -F '\t' 'NR > 1 { w[$7] += $5 } END { for (p in w) printf "%s %.6f\n", p, w[p] }' | sort >"$TMPD/c6.got"
printf '%s\n' "0-1 0.583333" "0-5-0-1 0.166667" "0-5-4-3-2-1 0.166667" "0-5-4-5-0-1 0.083333" >"$TMPD/c6.want"
cmp -s "$TMPD/c6.got" "$TMPD/c6.want"
ok $? "valiant,early on the 6-ring: the walks of 0 -> 1 and their weights" || diag "$(cat "$TMPD/c6.got")"
run topo-route -r valiant,early "$TMPD/k4.topo"
run2=$(topo-route -r valiant "$TMPD/k4.topo" | cut -f 3-)
[ "$(printf '%s\n' "$out" | cut -f 3-)" = "$run2" ]
ok $? "valiant,early on K4 (no first phase passes t unless m = t) = valiant"

# --- UGAL on any topology ------------------------------------------------------------
for topo in rrg.topo hx.topo sf.topo; do
    for rule in ugal-l ugal-g; do
        same $rule,bias=1e9 min $topo server-perm fair
        same $rule,bias=-1e9 valiant,exclude $topo server-perm fair
    done
done
same ugal-l,cand=valiant,bias=-1e9 valiant,exclude hx.topo uniform fair

# --- errors ------------------------------------------------------------------------
expect_usage() {
    [ "$rc" -eq 2 ] && [ -z "$out" ] && printf '%s\n' "$err" | head -n 1 | grep -Eq -- "$1"
    ok $? "$2" || diag "exit $rc" "stderr: $err"
}
run topo-sim -r polarized-adaptive,bias=-1 "$TMPD/rrg.topo"
expect_usage "bad value '-1' for bias" "polarized-adaptive,bias=-1: usage error"
run topo-sim -r polarized-adaptive,extra=-1 "$TMPD/rrg.topo"
expect_usage "bad value '-1' for extra" "polarized-adaptive,extra=-1: usage error"
run topo-sim -r polarized-adaptive,cand=valiant "$TMPD/rrg.topo"
expect_usage "unknown option 'cand'" "polarized-adaptive,cand=valiant: usage error"
run topo-sim -r polarized-adaptive,start=half "$TMPD/rrg.topo"
expect_usage "unknown option 'start'" "polarized-adaptive,start=half: usage error"
run topo-sim -r ugal-l,extra=2 "$TMPD/rrg.topo"
expect_usage "unknown option 'extra'" "ugal-l,extra=2: usage error"
topo-gen kautz d=2 D=2 -p 1 >"$TMPD/kautz.topo"
run topo-sim -r polarized-adaptive "$TMPD/kautz.topo"
expect_fail 1 "needs an undirected graph" "polarized-adaptive on a digraph: data error"
run topo-route -r valiant,dor,early "$TMPD/hx.topo"
[ "$rc" -ne 0 ] && printf '%s\n' "$err" | grep -q "'early' is not for valiant,dor"
ok $? "valiant,dor,early: refused"

done_testing
