# The misrouting mechanisms of Fuentes, Vallejo, Camarero, Beivide, Valero,
# "Network Unfairness in Dragonfly Topologies" in topo-sim (topokit(7),
# ADAPTIVE ROUTING): oblivious CRG Valiant (dragonfly-valiant-crg),
# source-adaptive PiggyBack (src-rrg, src-crg) and in-transit adaptive
# routing (in-transit-crg, -rrg, -mm).
#  - thresholds that force every decision give exactly the oblivious
#    split: dragonfly-min, or dragonfly-valiant (RRG) / dragonfly-valiant-crg
#    (CRG, and MM, whose source decision is CRG);
#  - ADVc under in-transit priority (`transit`) starves R_out, the router
#    holding the global links to the destination groups (identified here
#    by that role, not by its number), and fair arbitration removes it;
#  - PiggyBack under ADVc with the paper's buffer sizes: too little
#    misrouting and R_out injecting the most under per-port arbitration
#    (rr); under fair arbitration settled runs are fair (the paper finds
#    them unfair under age-based arbitration; topokit(7) says why the
#    model does not).
# Small Dragonflies (h = 2) so that the file takes seconds.
. "$TK_SRCDIR/tests/cli/lib.sh"

. "$TK_SRCDIR/tests/cli/sim-lib.sh"

topo-gen dragonfly a=4 h=2 p=2 arrangement=palmtree >"$TMPD/df.topo"
topo-gen dragonfly a=4 h=2 p=2 g=5 arrangement=absolute >"$TMPD/df5.topo"

# --- forced decisions: the oblivious split exactly ------------------------------
# src-*: bias=1e9 and gthr=inf (no flag can be raised) keep every packet
# minimal; bias=-1e9 sends every packet non-minimally whatever the flags.
# in-transit-*: thr=1 (a queue never holds more than the buffer) keeps
# every packet minimal; thr=0 with bias=-1e9 misroutes every packet at the
# source, so the in-transit decision carries nothing.
forced() { # topo pattern rule-with-options oblivious [arb]
    local topo=$1 pat=$2 rule=$3 obl=$4 arb=${5:-fair} tol=1e-12
    [ "$arb" = fair ] || tol=1e-9
    topo-sim -r "$obl" -a "$arb" -m "$pat" --per-server "$TMPD/o.ps" "$TMPD/$topo" >"$TMPD/o.tsv" 2>"$TMPD/o.err"
    topo-sim -r "$rule" -a "$arb" -m "$pat" --per-server "$TMPD/a.ps" "$TMPD/$topo" >"$TMPD/a.tsv" 2>"$TMPD/a.err"
    d1=$(same_cols "$TMPD/a.tsv" "$TMPD/o.tsv" $tol $STATS)
    s1=$?
    d2=$(same_servers "$TMPD/a.ps" "$TMPD/o.ps" $tol)
    s2=$?
    [ $s1 -eq 0 ] && [ $s2 -eq 0 ] && [ "$(col "$TMPD/a.tsv" min_share)" != NOCOLUMN ]
    ok $? "$topo, $pat, $arb: $rule = $obl (every server, $tol)" ||
        diag "$d1" "$d2" "$(cat "$TMPD/a.err" "$TMPD/o.err")"
}
for pat in 'adv i=1' advc; do
    for t in df.topo df5.topo; do
        forced $t "$pat" src-rrg,bias=1e9,gthr=inf dragonfly-min
        forced $t "$pat" src-crg,bias=1e9,gthr=inf dragonfly-min
        forced $t "$pat" src-rrg,bias=-1e9 dragonfly-valiant
        forced $t "$pat" src-crg,bias=-1e9 dragonfly-valiant-crg
        for r in crg rrg mm; do
            forced $t "$pat" in-transit-$r,thr=1 dragonfly-min
        done
        forced $t "$pat" in-transit-crg,thr=0,bias=-1e9 dragonfly-valiant-crg
        forced $t "$pat" in-transit-rrg,thr=0,bias=-1e9 dragonfly-valiant
        forced $t "$pat" in-transit-mm,thr=0,bias=-1e9 dragonfly-valiant-crg
    done
done
forced df.topo advc in-transit-mm,thr=1 dragonfly-min transit
forced df.topo advc src-crg,bias=-1e9 dragonfly-valiant-crg transit

# --- R_out: starved under in-transit priority, not under fair --------------------
# R_out of group 0: the router of group 0 whose global links reach every
# group that group 0's servers send to (ADVc sends to the h groups linked
# to it).  rout TOPO PATTERN-FILE prints its switch id.
rout() {
    awk '
        FNR == 1 { f++ }
        f == 1 && $1 == "switch" { for (i = 3; i <= NF; i++) if ($i ~ /^group=/) grp[$2] = substr($i, 7) }
        f == 1 && $1 == "servers" { p = $2 }
        f == 1 && NF == 3 && $3 == "global" && $1 ~ /^[0-9]+$/ { lk[$1 "," grp[$2]] = 1; lk[$2 "," grp[$1]] = 1 }
        f == 2 && NF == 3 && $1 ~ /^[0-9]+$/ { s = int($1 / p); d = int($2 / p)
            if (grp[s] == 0) dg[grp[d]] = 1 }
        END { for (r in grp) if (grp[r] == 0) { all = 1
                for (x in dg) if (!((r "," x) in lk)) all = 0
                if (all) { print r; n++ } }
              if (n != 1) exit 1 }' "$1" "$2"
}
topo-pattern advc "$TMPD/df.topo" >"$TMPD/advc.pat"
R=$(rout "$TMPD/df.topo" "$TMPD/advc.pat")
ok $? "ADVc on the palmtree Dragonfly: one R_out in group 0 (switch $R)"
# rtr_of PS-FILE R: mean accepted rate of R's servers, and of the other
# servers of R's group (a = 4 switches per group, ids by group)
rtr_of() {
    awk -F '\t' -v r="$2" 'NR > 1 { g = int($3 / 4); if ($3 == r) { a += $4; na++ }
        else if (g == int(r / 4)) { b += $4; nb++ } }
        END { printf "%.9g %.9g\n", a / na, b / nb }' "$1"
}
# The in-transit rules do not settle on ADVc (their decisions jump at the
# occupancy threshold): iter=100 accelerated steps from the minimal split
# (R_out's servers get 0.0085 against 0.27 for the rest of the group after
# 100, 0 after 300; 0.05 after only 40); what is checked depends on the
# arbitration at R_out, not on the step count once it has moved:
# every route of R_out's own servers under CRG starts on R_out's global
# links, where transit traffic has priority.
for arb in transit fair; do
    topo-sim -r in-transit-crg,iter=100 -a $arb --rho 0.3 -m advc --per-server "$TMPD/$arb.ps" \
        "$TMPD/df.topo" >/dev/null 2>"$TMPD/$arb.err"
done
set -- $(rtr_of "$TMPD/transit.ps" "$R")
awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < 0.05 * b && b > 0.1) }'
ok $? "in-transit-crg, ADVc 0.3, transit: R_out starves ($1 against $2 for its group's other routers)"
set -- $(rtr_of "$TMPD/fair.ps" "$R")
awk -v a="$1" -v b="$2" 'BEGIN { exit !(a >= 0.9 * b && b > 0.1) }'
ok $? "in-transit-crg, ADVc 0.3, fair: R_out not starved ($1 against $2)"
# MIN above its saturation (h/(a p) = 0.25 here) shows it too: R_out's
# servers inject straight into the global links that every other router
# of the group feeds
for arb in transit fair; do
    topo-sim -r dragonfly-min -a $arb --rho 0.5 -m advc --per-server "$TMPD/o$arb.ps" \
        "$TMPD/df.topo" >/dev/null 2>"$TMPD/o$arb.err"
done
set -- $(rtr_of "$TMPD/otransit.ps" "$R")
awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < 0.05 * b && b > 0.1) }'
ok $? "dragonfly-min, ADVc 0.5, transit: R_out starves ($1 against $2)"
set -- $(rtr_of "$TMPD/ofair.ps" "$R")
awk -v a="$1" -v b="$2" 'BEGIN { exit !(a >= 0.9 * b && b > 0.1) }'
ok $? "dragonfly-min, ADVc 0.5, fair: R_out not starved ($1 against $2)"

# --- PiggyBack under ADVc: the paper's Section 7.3 -------------------------------
# The paper explains PiggyBack's unfairness in two steps: the relative
# threshold cannot flag R_out's equally full global links, so the other
# routers decide on the credits of their own ports (small local buffers)
# and misroute too little; then R_out's p injection ports get more of its
# global outputs than the one local port of each other router.  With the
# paper's buffers (4-packet local, 32-packet global queues: buffer=4,
# gbuf=32) both steps show under round-robin (`rr`), settled: R_out injects
# the most.  Under `fair` (max-min over flows) the second cannot: every
# flow of the group with a share on R_out's saturated links freezes at the
# same level (topokit(7), What the model cannot show).
pb=src-crg,buffer=4,gbuf=32
topo-sim --threads 1 -r $pb -a rr --rho 0.4 -m advc --per-server "$TMPD/pb1.ps" \
    "$TMPD/df.topo" >"$TMPD/pb1.tsv" 2>"$TMPD/pb1.err"
topo-sim --threads 2 -r $pb -a rr --rho 0.4 -m advc --per-server "$TMPD/pb2.ps" \
    "$TMPD/df.topo" >"$TMPD/pb2.tsv" 2>"$TMPD/pb2.err"
cmp -s "$TMPD/pb1.tsv" "$TMPD/pb2.tsv" && cmp -s "$TMPD/pb1.ps" "$TMPD/pb2.ps"
ok $? "$pb, rr, ADVc 0.4: same bytes at 1 and 2 threads"
res=$(col "$TMPD/pb1.tsv" residual)
ms=$(col "$TMPD/pb1.tsv" min_share)
acc=$(col "$TMPD/pb1.tsv" accepted)
awk -v r="$res" -v m="$ms" -v a="$acc" 'BEGIN { exit !(r <= 1e-9 && m > 0.6 && a < 0.35) }' &&
    [ ! -s "$TMPD/pb1.err" ]
ok $? "$pb, rr, ADVc 0.4: settles (residual $res) with too little misrouting (min_share $ms, accepted $acc of 0.4)" ||
    diag "$(cat "$TMPD/pb1.err")"
# every router of group 0: R_out's servers first, then by how much less
set -- $(awk -F '\t' -v r="$R" 'NR > 1 && int($3 / 4) == 0 { s[$3] += $4; n[$3]++ }
    END { best = -1; for (k in s) { v = s[k] / n[k]; if (k != r && v > best) best = v }
          printf "%.9g %.9g\n", s[r] / n[r], best }' "$TMPD/pb1.ps")
mm=$(col "$TMPD/pb1.tsv" rtr_maxmin)
awk -v a="$1" -v b="$2" -v m="$mm" 'BEGIN { exit !(a > 1.1 * b && m > 1.4) }'
ok $? "$pb, rr, ADVc 0.4: R_out injects the most ($1 against at most $2; router Max/Min $mm)"
# gbuf equal to buffer is the single-buffer model, bit for bit
topo-sim -r src-crg,buffer=4,gbuf=4 -a fair --rho 0.4 -m advc "$TMPD/df.topo" 2>/dev/null | cut -f 1,3- >"$TMPD/pba.tsv"
topo-sim -r src-crg,buffer=4 -a fair --rho 0.4 -m advc "$TMPD/df.topo" 2>/dev/null | cut -f 1,3- >"$TMPD/pbb.tsv"
cmp -s "$TMPD/pba.tsv" "$TMPD/pbb.tsv" && [ -s "$TMPD/pba.tsv" ]
ok $? "src-crg,buffer=4,gbuf=4 = src-crg,buffer=4 under fair (every column but the rule's text)"
# under fair, settled runs leave every router at the same rate
for x in "src-rrg advc" "src-rrg adv i=1" "src-crg adv i=1"; do
    set -- $x
    r=$1
    shift
    topo-sim -r "$r" -a fair --rho 0.4 -m "$*" "$TMPD/df.topo" >"$TMPD/pbf.tsv" 2>"$TMPD/pbf.err"
    res=$(col "$TMPD/pbf.tsv" residual)
    mm=$(col "$TMPD/pbf.tsv" rtr_maxmin)
    awk -v r="$res" -v m="$mm" 'BEGIN { exit !(r <= 1e-9 && m < 1 + 1e-6) }' && [ ! -s "$TMPD/pbf.err" ]
    ok $? "$r, fair, $* 0.4: settled (residual $res) and fair (router Max/Min $mm)" ||
        diag "$(cat "$TMPD/pbf.err")"
done
# the per-port share alone (no routing decision): dragonfly-min under rr
# above its ADVc saturation; each global link of R_out has p = 2 injection
# ports and a - 1 = 3 local ports, 1/5 each: R_out's servers h/5 = 0.4,
# every other server h/5/p = 0.2; under fair all get h/(a p) = 0.25
topo-sim -r dragonfly-min -a rr --rho 0.6 -m advc --per-server "$TMPD/mrr.ps" "$TMPD/df.topo" >/dev/null 2>&1
set -- $(rtr_of "$TMPD/mrr.ps" "$R")
awk -v a="$1" -v b="$2" 'BEGIN { d = a - 0.4; e = b - 0.2; exit !(d * d < 1e-20 && e * e < 1e-20) }'
ok $? "dragonfly-min, rr, ADVc 0.6: per-port shares at R_out (R_out $1 = 2/5, the others $2 = 1/5)"

# --- src-crg under fair on the h = 3 Dragonfly: settled at 0.4, not at 0.6 ----------
# (issue 22; topokit(7), ADAPTIVE ROUTING, The queue signal and Iteration)
# At ADVc 0.4 the rule settles within the default cap (the study's
# residual at 0.4 was its --iter cap).  At 0.6 every flow is held back and
# the held-back part of the queue signal jumps whenever a flow's
# bottleneck moves from one saturated arc to another, which a split
# change of well under 1% does: no fixed point, and topo-sim says so
# (exit 0, one warning line with the residual, the residual column above
# the tolerance, stopped by the futile halvings before the cap), with the
# same bytes at 1 and 2 threads.
topo-gen dragonfly a=6 h=3 p=3 arrangement=palmtree >"$TMPD/df3.topo"
topo-sim -r src-crg -a fair --rho 0.4 -m advc "$TMPD/df3.topo" >"$TMPD/s4.tsv" 2>"$TMPD/s4.err"
rc=$?
it=$(col "$TMPD/s4.tsv" iterations)
res=$(col "$TMPD/s4.tsv" residual)
[ $rc -eq 0 ] && [ ! -s "$TMPD/s4.err" ] &&
    awk -v i="$it" -v r="$res" 'BEGIN { exit !(i > 1 && i < 2000 && r <= 1e-9) }'
ok $? "src-crg, fair, ADVc 0.4, h = 3: settles ($it iterations, residual $res)" ||
    diag "exit $rc" "$(cat "$TMPD/s4.err")"
for t in 1 2; do
    topo-sim --threads $t -r src-crg -a fair --rho 0.6 -m advc "$TMPD/df3.topo" >"$TMPD/s6.$t.tsv" 2>"$TMPD/s6.$t.err"
    echo $? >"$TMPD/s6.$t.rc"
done
it=$(col "$TMPD/s6.1.tsv" iterations)
res=$(col "$TMPD/s6.1.tsv" residual)
w=$(cat "$TMPD/s6.1.err")
[ "$(cat "$TMPD/s6.1.rc")" = 0 ] && [ "$(cat "$TMPD/s6.2.rc")" = 0 ] &&
    [ "$(wc -l <"$TMPD/s6.1.err")" -eq 1 ] &&
    printf '%s\n' "$w" | grep -q "rho 0.6: no fixed point after $it iterations (residual 0\.[1-9]" &&
    awk -v i="$it" -v r="$res" 'BEGIN { exit !(i > 20 && i < 2000 && r > 0.1) }' &&
    cmp -s "$TMPD/s6.1.tsv" "$TMPD/s6.2.tsv" && cmp -s "$TMPD/s6.1.err" "$TMPD/s6.2.err"
ok $? "src-crg, fair, ADVc 0.6, h = 3: not converged, reported ($it iterations, residual $res), the same bytes at 1 and 2 threads" ||
    diag "$w" "$(cat "$TMPD/s6.2.err")"

# --- errors ----------------------------------------------------------------------
# expect_usage RE DESC: exit 2, nothing on stdout, the first line of stderr
# matches RE.
expect_usage() {
    [ "$rc" -eq 2 ] && [ -z "$out" ] && printf '%s\n' "$err" | head -n 1 | grep -Eq -- "$1"
    ok $? "$2" || diag "exit $rc" "stderr: $err"
}
run topo-sim -r src-crg,thr=0.5 "$TMPD/df.topo"
expect_usage "unknown option 'thr'" "src-crg,thr: usage error"
run topo-sim -r in-transit-mm,gthr=3 "$TMPD/df.topo"
expect_usage "unknown option 'gthr'" "in-transit-mm,gthr: usage error"
run topo-sim -r src-crg,gbuf=0 "$TMPD/df.topo"
expect_usage "bad value '0' for gbuf" "src-crg,gbuf=0: usage error"
run topo-sim -r polarized-adaptive,gbuf=4 "$TMPD/df.topo"
expect_usage "unknown option 'gbuf'" "polarized-adaptive,gbuf: usage error"
run topo-sim -r in-transit-rrg,thr=2 "$TMPD/df.topo"
expect_usage "bad value '2' for thr" "thr=2: usage error"
run topo-sim -r src-rrg,cand=valiant "$TMPD/df.topo"
expect_usage "unknown option 'cand'" "src-rrg,cand: usage error"
topo-gen rrg n=16 d=4 -p 2 -s 3 >"$TMPD/rrg.topo"
run topo-sim -r src-rrg "$TMPD/rrg.topo"
expect_fail 1 "src-rrg needs a Dragonfly" "src-rrg on a random regular graph: data error"
run topo-sim -r dragonfly-valiant-crg "$TMPD/rrg.topo"
expect_fail 1 "group" "dragonfly-valiant-crg on a random regular graph: data error"

done_testing
