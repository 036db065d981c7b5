# topo-sim's dgb and edgb (topokit(7), ADAPTIVE ROUTING): a flow-level model
# of the bias dynamics of DGB (Kasan, Kim, Yi and Kim, "Dynamic Global
# Adaptive Routing in High-Radix Networks") and of EDGB (Chaulagain and
# Yuan, "Enhanced UGAL Routing Schemes for Dragonfly Networks"), not a
# reproduction.  rate=0 freezes every router's bias at the bias option:
# then dgb is ugal-l and edgb is ugal-le byte for byte (but for the
# routing column and dgb's three extra columns), and so is outer=1 (one
# split solve, no bias step); the outer loop converges under uniform
# traffic, to biases that meet the fixed-point condition; edgb = dgb
# where the contention term is zero; the same bytes at 1 and 2 threads;
# errors.
. "$TK_SRCDIR/tests/cli/lib.sh"

. "$TK_SRCDIR/tests/cli/sim-lib.sh"

topo-gen dragonfly a=4 h=2 p=2 >"$TMPD/df.topo"
topo-gen rrg n=16 d=4 -p 2 -s 3 >"$TMPD/rrg.topo"

# --- rate=0: the fixed-bias rules exactly --------------------------------------
# (cut drops the routing column and dgb's bias_mean, grad_max and outer,
# the last three before util.*: columns 27-29 of the adaptive header)
# same_rows PATTERN RULE DGB_RULE LABEL: a sweep of DGB_RULE gives RULE's
# rows byte for byte, but for the name column and dgb's own columns
same_rows() {
    topo-sim -r "$2" -m "$1" --sweep 0.2:1:0.4 "$TMPD/df.topo" 2>/dev/null |
        cut -f 1,3- >"$TMPD/f.tsv"
    topo-sim -r "$3" -m "$1" --sweep 0.2:1:0.4 "$TMPD/df.topo" 2>/dev/null |
        cut -f 1,3-26,30- >"$TMPD/d.tsv"
    [ -s "$TMPD/f.tsv" ] && cmp -s "$TMPD/f.tsv" "$TMPD/d.tsv"
    ok $? "$4" || diag "$(diff "$TMPD/f.tsv" "$TMPD/d.tsv" | head -n 6)"
}
for pat in 'adv i=1' server-perm; do
    for pair in "ugal-l dgb" "ugal-le edgb"; do
        set -- $pair
        for bias in 0 2; do
            same_rows "$pat" "$1,bias=$bias" "$2,bias=$bias,rate=0" \
                "$pat, bias=$bias: $2,rate=0 = $1 byte for byte"
        done
    done
done
# with rate=0 the bias stays the option's: bias_mean is it, exactly
topo-sim -r dgb,bias=2,rate=0 -m 'adv i=1' --rho 0.5 "$TMPD/df.topo" >"$TMPD/b.tsv" 2>/dev/null
[ "$(col "$TMPD/b.tsv" bias_mean)" = 2 ]
ok $? "dgb,bias=2,rate=0: bias_mean 2" || diag "$(cat "$TMPD/b.tsv")"

# outer=1: one split solve with the biases held at the option's, then no
# bias step: ugal-l's bytes (reported as not converged where the
# gradients are not within the tolerance)
for bias in 0 2; do
    same_rows 'adv i=1' "ugal-l,bias=$bias" "dgb,bias=$bias,outer=1" \
        "adv i=1, bias=$bias: dgb,outer=1 = ugal-l byte for byte"
done

# --- the outer loop settles the biases ------------------------------------------
# Under uniform traffic at rho 0.2 the split's fixed point for fixed
# biases, then a bias step, repeated, converges: the run is reported
# converged (no warning, JSON converged true), it took more than one split
# solve, and its biases meet the fixed-point condition: rate x the largest
# gradient of a router the clamp does not hold is within the tolerance
# (grad_max <= 1e-9 / 0.5; rate=1 gives the bound 1e-9).
for rate in 0.5 1; do
    run topo-sim -r "dgb,rate=$rate" --rho 0.2 "$TMPD/df.topo"
    printf '%s\n' "$out" >"$TMPD/c.tsv"
    gm=$(col "$TMPD/c.tsv" grad_max)
    no=$(col "$TMPD/c.tsv" outer)
    [ "$rc" -eq 0 ] && [ -z "$err" ] &&
        awk -v g="$gm" -v o="$no" -v r=$rate 'BEGIN { exit !(g != "" && r * g <= 1e-9 && o > 1) }'
    ok $? "uniform, rho 0.2, rate=$rate: converged after $no split solves, rate x grad_max $gm <= 1e-9" ||
        diag "exit $rc" "$err" "$out"
done
topo-sim -r dgb --rho 0.2 --json "$TMPD/df.topo" 2>/dev/null | grep -q '"converged":true'
ok $? "uniform, rho 0.2: JSON converged true"
# the trace: one row per iteration, a 'bias' row closing every split solve
# but the last, whose row says 'converged' and has the main row's outer and
# grad_max
topo-sim -r dgb --rho 0.2 --trace "$TMPD/tr.tsv" "$TMPD/df.topo" >"$TMPD/c.tsv" 2>/dev/null
awk -F '\t' -v it="$(col "$TMPD/c.tsv" iterations)" -v no="$(col "$TMPD/c.tsv" outer)" \
    -v gm="$(col "$TMPD/c.tsv" grad_max)" '
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { rows++; if ($(c["step"]) == "bias") { nb++; if ($(c["outer"]) != nb) bad = 1 } last = $0
      st = $(c["step"]); lo = $(c["outer"]); lg = $(c["grad_max"]) }
    END { exit !(!bad && rows == it && nb == no - 1 && st == "converged" && lo == no && lg == gm) }' "$TMPD/tr.tsv"
ok $? "uniform, rho 0.2: the trace's bias rows and last row agree with the main row" ||
    diag "$(awk -F '\t' 'NR == 1 || $8 != "anderson"' "$TMPD/tr.tsv" | cut -f 4-8,15-17 | tail -n 5)"
# the other rules' trace has no outer columns
topo-sim -r ugal-l --rho 0.2 --trace "$TMPD/tl.tsv" "$TMPD/df.topo" >/dev/null 2>&1
[ "$(head -n 1 "$TMPD/tl.tsv" | tr '\t' '\n' | tail -n 1)" = signal_change ]
ok $? "ugal-l: the trace ends at signal_change"

# --- edgb = dgb where the contention term is zero ----------------------------------
# Under uniform traffic at low load C <= 1 everywhere (ugal-le = ugal-l in
# topo-sim-adaptive.sh), so the two rules decide alike and move the same
# biases.
for rho in 0.1 0.2; do
    topo-sim -r dgb --rho $rho "$TMPD/df.topo" 2>/dev/null | cut -f 1,3- >"$TMPD/d.tsv"
    topo-sim -r edgb --rho $rho "$TMPD/df.topo" 2>/dev/null | cut -f 1,3- >"$TMPD/e.tsv"
    [ -s "$TMPD/d.tsv" ] && [ "$(col "$TMPD/e.tsv" contention)" = 0 ] && cmp -s "$TMPD/d.tsv" "$TMPD/e.tsv"
    ok $? "uniform, rho $rho: contention 0 and edgb = dgb byte for byte" ||
        diag "$(cat "$TMPD/d.tsv" "$TMPD/e.tsv")"
done

# --- the biases move ---------------------------------------------------------------
# At rho 0.2 under uniform traffic the minimal routes are the shorter and
# hardly queued: the gradient raises the biases (towards minimal) from 0.
topo-sim -r dgb --rho 0.2 "$TMPD/df.topo" >"$TMPD/u.tsv" 2>/dev/null
awk -v b="$(col "$TMPD/u.tsv" bias_mean)" 'BEGIN { exit !(b > 0) }'
ok $? "uniform, rho 0.2: the mean bias rises above 0 ($(col "$TMPD/u.tsv" bias_mean))"

# Under the Dragonfly shift of the UGAL-LE paper (dfly(4,8,4,9), absolute
# arrangement, shift by a p = 32 servers) at rho 0.5, where ugal-l does
# not serve everything, the non-minimal routes are the faster: the biases
# go negative (towards Valiant) and dgb accepts more than ugal-l.  (The
# biases do not settle here: the outer loop's stall stop, topokit(7).)
topo-gen dragonfly p=4 a=8 h=4 g=9 arrangement=absolute >"$TMPD/df9.topo"
topo-sim -r ugal-l -m 'shift offset=32' --rho 0.5 "$TMPD/df9.topo" >"$TMPD/l.tsv" 2>/dev/null
topo-sim -r dgb -m 'shift offset=32' --rho 0.5 "$TMPD/df9.topo" >"$TMPD/g.tsv" 2>/dev/null
l=$(col "$TMPD/l.tsv" accepted)
g=$(col "$TMPD/g.tsv" accepted)
b=$(col "$TMPD/g.tsv" bias_mean)
awk -v l="$l" -v g="$g" -v b="$b" 'BEGIN { exit !(l < 0.49 && g > l && b < 0) }'
ok $? "dfly(4,8,4,9) shift, rho 0.5: mean bias $b < 0, dgb accepts $g > ugal-l $l"

# --- determinism -----------------------------------------------------------------
for rule in dgb edgb; do
    topo-sim -r $rule -m 'adv i=1' --sweep 0.2:1:0.4 --threads 1 --json "$TMPD/df.topo" >"$TMPD/t1" 2>/dev/null
    topo-sim -r $rule -m 'adv i=1' --sweep 0.2:1:0.4 --threads 2 --json "$TMPD/df.topo" >"$TMPD/t2" 2>/dev/null
    [ -s "$TMPD/t1" ] && cmp -s "$TMPD/t1" "$TMPD/t2"
    ok $? "$rule: the same bytes at 1 and 2 threads"
done
# and a converged outer loop, its trace included
for th in 1 2; do
    topo-sim -r dgb --sweep 0.1:0.3:0.2 --threads $th --trace "$TMPD/tr$th" "$TMPD/df.topo" >"$TMPD/t$th" 2>/dev/null
done
[ -s "$TMPD/t1" ] && cmp -s "$TMPD/t1" "$TMPD/t2" && cmp -s "$TMPD/tr1" "$TMPD/tr2"
ok $? "dgb, uniform: the same table and trace at 1 and 2 threads"

# --- errors ------------------------------------------------------------------------
expect_usage() {
    [ "$rc" -eq 2 ] && [ -z "$out" ] && printf '%s\n' "$err" | head -n 1 | grep -Eq -- "$1"
    ok $? "$2" || diag "exit $rc" "stderr: $err"
}
run topo-sim -r dgb,rate=-1 "$TMPD/df.topo"
expect_usage "bad value '-1' for rate" "rate=-1: usage error"
run topo-sim -r edgb,rate=nan "$TMPD/df.topo"
expect_usage "bad value 'nan' for rate" "rate=nan: usage error"
run topo-sim -r ugal-l,rate=1 "$TMPD/df.topo"
expect_usage "unknown option 'rate'" "rate on ugal-l: usage error"
for v in 0 -3 x 1.5 ''; do
    run topo-sim -r "dgb,outer=$v" "$TMPD/df.topo"
    expect_usage "bad value '$v' for outer" "outer=$v: usage error"
done
run topo-sim -r ugal-le,outer=5 "$TMPD/df.topo"
expect_usage "unknown option 'outer'" "outer on ugal-le: usage error"
# the canonical text keeps it
topo-sim -r edgb,outer=7 --rho 0.1 "$TMPD/df.topo" 2>/dev/null >"$TMPD/o.tsv"
[ "$(col "$TMPD/o.tsv" routing)" = edgb,outer=7 ]
ok $? "edgb,outer=7: the routing column keeps outer=7"
run topo-sim -r edgb "$TMPD/rrg.topo"
expect_fail 1 "edgb needs a Dragonfly" "edgb on a random regular graph: data error"
run topo-sim -r dgb -m server-perm "$TMPD/rrg.topo"
printf '%s\n' "$out" >"$TMPD/r.tsv"
[ "$rc" -eq 0 ] && [ "$(col "$TMPD/r.tsv" routing)" = dgb ]
ok $? "dgb on a random regular graph (valiant candidates)" || diag "exit $rc" "$err"

done_testing
