# topo-sim's adaptive rules (ugal-l, ugal-g, ugal-le, par; topokit(7),
# ADAPTIVE ROUTING): a bias that forces every decision gives exactly the
# oblivious split (minimal: the candidates' minimal model; non-minimal:
# the candidates' Valiant model with the intermediate outside s and t),
# UGAL-LE equals UGAL-L where the contention term is zero, the same bytes
# at 1 and 2 threads, UGAL-LE above UGAL-L under the Dragonfly shift, and
# errors.
. "$TK_SRCDIR/tests/cli/lib.sh"

. "$TK_SRCDIR/tests/cli/sim-lib.sh"

# --- forced decisions: the oblivious split exactly -------------------------------
# A bias of +1e9 makes every packet's minimal cost the smaller (the share
# routed non-minimally is exp(-1e9 / cost) = 0), -1e9 the larger (share
# 1), whatever the queues: the shares are exactly 0 or 1 at the fixed
# point, and every flow's coefficients are those of the candidates'
# minimal route, or the uniform mix of the non-minimal routes, i.e. the
# oblivious models' own, up to the order of floating-point sums (1e-12;
# rr and transit stop their sweeps at 1e-13 relative, so 1e-9 there).
# par at -1e9 routes everything non-minimally at the source, so its
# second decision carries nothing.
topo-gen dragonfly a=4 h=2 p=2 >"$TMPD/df.topo"
topo-gen dragonfly a=4 h=2 p=2 g=5 arrangement=absolute >"$TMPD/df5.topo"
topo-gen rrg n=16 d=4 -p 2 -s 3 >"$TMPD/rrg.topo"
forced() { # topo pattern rule bias oblivious [arb]
    local topo=$1 pat=$2 rule=$3 bias=$4 obl=$5 arb=${6:-fair} m tol=1e-12
    [ "$arb" = fair ] || tol=1e-9
    m=""
    [ "$pat" = uniform ] || m="$pat"
    topo-sim -r "$obl" -a "$arb" ${m:+-m "$m"} --per-server "$TMPD/o.ps" "$TMPD/$topo" >"$TMPD/o.tsv" 2>"$TMPD/o.err"
    topo-sim -r "$rule,bias=$bias" -a "$arb" ${m:+-m "$m"} --per-server "$TMPD/a.ps" "$TMPD/$topo" >"$TMPD/a.tsv" 2>"$TMPD/a.err"
    d1=$(same_cols "$TMPD/a.tsv" "$TMPD/o.tsv" $tol $STATS)
    s1=$?
    d2=$(same_servers "$TMPD/a.ps" "$TMPD/o.ps" $tol)
    s2=$?
    [ $s1 -eq 0 ] && [ $s2 -eq 0 ] && [ "$(col "$TMPD/a.tsv" min_share)" != NOCOLUMN ]
    ok $? "$topo, $pat, $arb: $rule,bias=$bias = $obl (every server, $tol)" ||
        diag "$d1" "$d2" "$(cat "$TMPD/a.err" "$TMPD/o.err")"
}
for rule in ugal-l ugal-g ugal-le par; do
    for pat in 'adv i=1' server-perm advc uniform; do
        forced df.topo "$pat" $rule 1e9 dragonfly-min
        forced df.topo "$pat" $rule -1e9 dragonfly-valiant
    done
    forced df5.topo 'adv i=1' $rule 1e9 dragonfly-min
    forced df5.topo 'adv i=1' $rule -1e9 dragonfly-valiant
done
# par where a flow's minimal paths leave the source router for three or
# more routers of its group (4 parallel global links per group pair):
# more par decisions, and children, than a single minimal path makes
topo-gen dragonfly a=4 h=2 p=2 g=3 arrangement=absolute >"$TMPD/df3.topo"
forced df3.topo 'shift offset=8' par 1e9 dragonfly-min
forced df3.topo 'shift offset=8' par -1e9 dragonfly-valiant
for rule in ugal-l ugal-g; do
    forced rrg.topo server-perm $rule 1e9 min
    forced rrg.topo server-perm $rule -1e9 valiant,exclude
    forced rrg.topo uniform $rule -1e9 valiant,exclude
done
# round-robin arbitration: the same system, so the same fixed point
forced df.topo 'adv i=1' ugal-l 1e9 dragonfly-min rr
forced df.topo 'adv i=1' ugal-le -1e9 dragonfly-valiant transit

# --- UGAL-LE = UGAL-L where the contention term is zero ----------------------------
# Under uniform traffic at low load a router sees little of the other
# routers' traffic to a group (only their Valiant share through it), so
# C <= 1 everywhere (the contention column is 0), and the two rules make
# the same decisions: the same bytes but for the routing column.
for rho in 0.1 0.2 0.3; do
    topo-sim -r ugal-l --rho $rho "$TMPD/df.topo" | cut -f 1,3- >"$TMPD/l.tsv"
    topo-sim -r ugal-le --rho $rho "$TMPD/df.topo" | cut -f 1,3- >"$TMPD/le.tsv"
    [ "$(col "$TMPD/le.tsv" contention)" = 0 ] && cmp -s "$TMPD/l.tsv" "$TMPD/le.tsv"
    ok $? "uniform, rho $rho: contention 0 and ugal-le = ugal-l byte for byte" ||
        diag "$(cat "$TMPD/l.tsv" "$TMPD/le.tsv")"
done

# --- the shift of the UGAL-LE paper: UGAL-LE clearly above UGAL-L ---------------
# dfly(p=4, a=8, h=4, g=9) with the absolute arrangement and the group
# shift (every server to the same position in the next group: shift by
# a p = 32 servers).  Minimal routing carries 4/32 per server (4 global
# links between consecutive groups); the adaptive rules move traffic to
# Valiant paths.  UGAL-L's minimal estimate at a router without the global
# link is its local queue to the gateway router, which the Valiant traffic
# through that queue dilutes; UGAL-LE multiplies it by the C routers it
# sees sending to the group (Chaulagain and Yuan, "Enhanced UGAL Routing
# Schemes for Dragonfly Networks").
topo-gen dragonfly p=4 a=8 h=4 g=9 arrangement=absolute >"$TMPD/df9.topo"
for rule in ugal-l ugal-le; do
    topo-sim -r $rule -m 'shift offset=32' --rho 0.5 "$TMPD/df9.topo" >"$TMPD/$rule.tsv" 2>"$TMPD/$rule.err"
done
l=$(col "$TMPD/ugal-l.tsv" accepted)
le=$(col "$TMPD/ugal-le.tsv" accepted)
awk -v a="$l" -v b="$le" 'BEGIN { exit !(b > a + 0.02) }'
ok $? "dfly(4,8,4,9) shift, rho 0.5: ugal-le accepts more than ugal-l ($le vs $l)" ||
    diag "$(cat "$TMPD/ugal-l.err" "$TMPD/ugal-le.err")"

# --- determinism -----------------------------------------------------------------
for rule in ugal-l ugal-le par; do
    topo-sim -r $rule -m 'adv i=1' --sweep 0.2:1:0.4 --threads 1 --json "$TMPD/df.topo" >"$TMPD/t1" 2>/dev/null
    topo-sim -r $rule -m 'adv i=1' --sweep 0.2:1:0.4 --threads 2 --json "$TMPD/df.topo" >"$TMPD/t2" 2>/dev/null
    [ -s "$TMPD/t1" ] && cmp -s "$TMPD/t1" "$TMPD/t2"
    ok $? "$rule: the same bytes at 1 and 2 threads"
done

# --- convergence is reported -------------------------------------------------------
run topo-sim -r ugal-l,iter=3 -m 'adv i=1' --json "$TMPD/df.topo"
[ "$rc" -eq 0 ] && printf '%s\n' "$out" | grep -q '"converged":false' &&
    printf '%s\n' "$err" | grep -q 'no fixed point after 3 iterations'
ok $? "iter=3: converged false in the row, a warning on stderr, exit 0" || diag "$out" "$err"
run topo-sim -r ugal-l -m 'adv i=1' --rho 0.5 --json "$TMPD/df.topo"
[ "$rc" -eq 0 ] && printf '%s\n' "$out" | grep -q '"converged":true' && [ -z "$err" ]
ok $? "rho 0.5: converged true, nothing on stderr" || diag "$out" "$err"
# Above saturation under ADVc the targets jump (a bottleneck moves) and no
# fixed point exists: the damping halves while the residual does not, and
# after 8 halvings in a row without the lowest residual halving the
# iteration gives up, before its cap and before the damping floor (1e-6:
# 19 halvings from 0.5, at least 10 iterations apart, so 190 iterations
# or more).
run topo-sim -r ugal-l -m advc --rho 1 --json "$TMPD/df.topo"
n=$(printf '%s\n' "$out" | sed -n 's/.*"iterations":\([0-9]*\).*/\1/p')
[ "$rc" -eq 0 ] && printf '%s\n' "$out" | grep -q '"converged":false' &&
    printf '%s\n' "$err" | grep -q "no fixed point after $n iterations" && [ "${n:-2000}" -lt 190 ]
ok $? "advc at rho 1: no fixed point, given up as oscillating after $n < 190 iterations" ||
    diag "$out" "$err"

# expect_usage RE DESC: exit 2, nothing on stdout, the first line of stderr
# matches RE.
expect_usage() {
    [ "$rc" -eq 2 ] && [ -z "$out" ] && printf '%s\n' "$err" | head -n 1 | grep -Eq -- "$1"
    ok $? "$2" || diag "exit $rc" "stderr: $err"
}
# --- epochs ----------------------------------------------------------------------
# Epoch 1 solves the first split (start=min: everything minimal), so it is
# dragonfly-min's allocation; a change to the same pattern carries the
# split over unchanged, so the rows are those of a run without a change.
topo-sim -r dragonfly-min -m 'adv i=1' --rho 0.5 "$TMPD/df.topo" >"$TMPD/min.tsv"
topo-sim -r ugal-le -m 'adv i=1' --rho 0.5 --epochs 8 "$TMPD/df.topo" >"$TMPD/ep.tsv"
d=$(same_cols "$TMPD/ep.tsv" "$TMPD/min.tsv" 1e-12 $STATS)
[ $? -eq 0 ] && [ "$(col "$TMPD/ep.tsv" epoch)" = 1 ] && [ "$(col "$TMPD/ep.tsv" epoch 8)" = 8 ] &&
    [ "$(col "$TMPD/ep.tsv" min_share)" = 1 ]
ok $? "--epochs 8: 8 rows, epoch 1 = dragonfly-min, all traffic minimal" || diag "$d"
topo-sim -r ugal-le -m 'adv i=1' --rho 0.5 --epochs 8 --change 4 --then-make 'adv i=1' "$TMPD/df.topo" >"$TMPD/ch.tsv"
cmp -s "$TMPD/ep.tsv" "$TMPD/ch.tsv"
ok $? "--change 4 to the same pattern: the same rows"
topo-sim -r ugal-le -m 'adv i=1' --rho 0.5 --epochs 8 --change 4 --then-make uniform "$TMPD/df.topo" >"$TMPD/ch.tsv"
[ "$(col "$TMPD/ch.tsv" pattern 3)" = "adv i=1" ] && [ "$(col "$TMPD/ch.tsv" pattern 5)" = uniform ] &&
    [ "$(head -n 4 "$TMPD/ep.tsv")" = "$(head -n 4 "$TMPD/ch.tsv")" ]
ok $? "--change 4 to uniform: epochs 1-3 as before, then the new pattern"
for t in 1 2; do
    topo-sim -r ugal-le -m 'adv i=1' --rho 0.7 --epochs 6 --change 3 --then-make uniform --threads $t "$TMPD/df.topo" >"$TMPD/e$t"
done
cmp -s "$TMPD/e1" "$TMPD/e2"
ok $? "--epochs with a change: the same bytes at 1 and 2 threads"
run topo-sim -r min --epochs 3 "$TMPD/df.topo"
expect_usage "--epochs needs an adaptive rule" "--epochs with an oblivious model: usage error"
run topo-sim -r ugal-l --epochs 3 --change 3 --then-make uniform "$TMPD/df.topo"
expect_usage "the change must come before the last epoch" "--change at the last epoch: usage error"
run topo-sim -r ugal-l --epochs 3 --change 2 "$TMPD/df.topo"
expect_usage "go together" "--change without --then-make: usage error"

# --- errors ------------------------------------------------------------------------
run topo-sim -r ugal-l,bias=nan "$TMPD/df.topo"
expect_usage "bad value 'nan' for bias" "bias=nan: usage error"
run topo-sim -r ugal-l,buffer=-1 "$TMPD/df.topo"
expect_usage "bad value '-1' for buffer" "buffer=-1: usage error"
run topo-sim -r ugal-l,damping=2 "$TMPD/df.topo"
expect_usage "bad value '2' for damping" "damping=2: usage error"
run topo-sim -r ugal-l,colour=red "$TMPD/df.topo"
expect_usage "unknown option 'colour'" "an unknown option: usage error"
run topo-sim -r ugal-l,cand=min "$TMPD/df.topo"
expect_usage "cand=min" "cand=min: usage error"
run topo-sim -r ugal-l --curve "$TMPD/df.topo"
expect_usage "--curve is for oblivious routing" "--curve: usage error"
run topo-sim -r ugal-l --coupled "$TMPD/df.topo"
expect_usage "split each flow themselves" "--coupled: usage error"
run topo-sim -r ugal-l --poisson --count 10 "$TMPD/df.topo"
expect_usage "dynamic mode routes obliviously" "dynamic mode: usage error"
run topo-sim -r ugal-le "$TMPD/rrg.topo"
expect_fail 1 "ugal-le needs a Dragonfly" "ugal-le on a random regular graph: data error"
run topo-sim -r par -m server-perm "$TMPD/rrg.topo"
expect_fail 1 "par needs a Dragonfly" "par on a random regular graph: data error"

# --- --progress: the candidates' size ----------------------------------------------
# uniform traffic on dragonfly a=4 h=2 p=2 (36 routers) has 36 x 35 switch
# pairs; the table is the same bytes with and without --progress
run topo-sim -r ugal-l,iter=2 "$TMPD/df.topo"
o1=$out
run topo-sim -r ugal-l,iter=2 --progress "$TMPD/df.topo"
[ "$out" = "$o1" ] && printf '%s\n' "$err" |
    grep -Eq 'graph 1: adaptive candidates: 1260 switch pairs, [1-9][0-9]* alternatives, [1-9][0-9]* keys, [1-9][0-9]* route entries, [1-9][0-9]* shares, [0-9.]+ (KiB|MiB); [1-9][0-9]* classes, up to [1-9][0-9]* coefficients$'
ok $? "--progress: the adaptive candidates' size (1260 switch pairs), the same table" || diag "stderr: $err"

# --- the memory limit ---------------------------------------------------------------
# The candidates' bytes are counted as they are built: past the limit the
# run stops with one line and exit 1, the same at any thread count, and
# leaves no output file; polarized-adaptive's DAGs count too.
lim_re='the candidates of [0-9]+ switch pairs would need more than the memory limit of 64 KiB \(TOPOKIT_MEMORY_LIMIT\)$'
TOPOKIT_MEMORY_LIMIT=64K run topo-sim -r ugal-l --threads 1 "$TMPD/df.topo"
expect_fail 1 "^topo-sim: .*df.topo: graph 1: ugal-l: $lim_re" "ugal-l past TOPOKIT_MEMORY_LIMIT: data error"
e1=$err
TOPOKIT_MEMORY_LIMIT=64K run topo-sim -r ugal-l --threads 2 -o "$TMPD/lim.tsv" "$TMPD/df.topo"
[ "$rc" -eq 1 ] && [ "$err" = "$e1" ] && [ ! -e "$TMPD/lim.tsv" ]
ok $? "the same refusal at 2 threads, and -o leaves no file" || diag "exit $rc" "stderr: $err" "1 thread: $e1"
TOPOKIT_MEMORY_LIMIT=64K run topo-sim -r polarized-adaptive -m server-perm "$TMPD/rrg.topo"
expect_fail 1 "polarized-adaptive: $lim_re" "polarized-adaptive past TOPOKIT_MEMORY_LIMIT: data error"
TOPOKIT_MEMORY_LIMIT=64M run topo-sim -r ugal-l "$TMPD/df.topo"
[ "$rc" -eq 0 ] && [ -n "$out" ]
ok $? "ugal-l within a 64 MiB limit runs" || diag "exit $rc" "stderr: $err"

done_testing
