# topo-resilience: fraction 0 is the intact graph (topo-dist, topo-bisect,
# topo-load byte for byte), bridges and paths disconnect at the right
# fraction, sample counts and seeds honoured (every sample reproduced by
# topo-fail), the confidence intervals against closed forms of the t
# quantile, the same bytes at 1 and 2 threads, the plot, bad sweeps and
# options.
. "$TK_SRCDIR/tests/cli/lib.sh"

topo-gen rrg n=30 d=4 -s 3 >"$TMPD/rrg.topo"
topo-gen -p 2 torus sides=4,4 >"$TMPD/torus.topo"
RRG="$TMPD/rrg.topo"
TORUS="$TMPD/torus.topo"
# field TSV ROW COLUMN: the value of COLUMN (by header name) in data row ROW.
field() {
    awk -F'\t' -v r="$2" -v c="$3" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i }
        NR == r + 1 { print $k }' "$1"
}

# ---------------------------------------------------------------------------
# Usage and bad sweeps.
run topo-resilience --help
expect_rc 0 "--help"
for bad in 1.5 -0.1 nan inf 0.2:0.1:3 0:0.2:1 0:0.2 0:0.2:3:4 a,b , 0.1, 0:x:3; do
    run topo-resilience -F "$bad" "$RRG"
    [ "$rc" = 2 ] && [ -z "$out" ] && printf '%s\n' "$err" | head -1 | grep -q -- "^topo-resilience: -F $bad: "
    ok $? "-F $bad refused" || diag "$err"
done
run topo-resilience -F 0:1.5:3 "$RRG"
expect_rc 2 "-F with HI above 1"
expect_err_match "fraction must be between 0 and 1" "-F with HI above 1: the message"
run topo-resilience -n 0 "$RRG"
expect_rc 2 "-n 0"
expect_err_match "^topo-resilience: -n 0: " "-n 0: the message"
run topo-resilience -n -3 "$RRG"
expect_rc 2 "-n negative"
expect_err_match "^topo-resilience: -n -3: " "-n negative: the message"
run topo-resilience -L 1 "$RRG"
expect_rc 2 "-L 1"
expect_err_match "^topo-resilience: -L 1: " "-L 1: the message"
run topo-resilience -L nan "$RRG"
expect_rc 2 "-L nan"
expect_err_match "^topo-resilience: -L nan: " "-L nan: the message"
run topo-resilience -w -c global "$RRG"
expect_rc 2 "-c with -w"
run topo-resilience -r min --no-load "$RRG"
expect_rc 2 "-r with --no-load"
run topo-resilience -r bogus "$RRG"
expect_rc 2 "unknown routing model"
run topo-resilience -c global -n 1 -F 0.5 "$RRG"
expect_fail 1 "graph 1: class=global: no such link class" "unknown class"
topo-gen kautz d=2 D=2 >"$TMPD/kautz.topo"
run topo-resilience -n 1 -F 0 "$TMPD/kautz.topo"
expect_fail 1 "undirected topologies only" "directed graph refused"

# ---------------------------------------------------------------------------
# Fraction 0 is the intact graph, byte for byte.
topo-resilience -F 0 -n 3 --samples "$RRG" >"$TMPD/s0.tsv"
topo-dist "$RRG" >"$TMPD/dist.tsv"
topo-load "$RRG" >"$TMPD/load.tsv"
topo-bisect "$RRG" >"$TMPD/bisect.tsv"
good=0
for r in 1 2 3; do
    [ "$(field "$TMPD/s0.tsv" $r diameter)" = "$(field "$TMPD/dist.tsv" 1 diameter)" ] &&
        [ "$(field "$TMPD/s0.tsv" $r avg_distance)" = "$(field "$TMPD/dist.tsv" 1 avg_distance)" ] &&
        [ "$(field "$TMPD/s0.tsv" $r max_load)" = "$(field "$TMPD/load.tsv" 1 max_load)" ] &&
        [ "$(field "$TMPD/s0.tsv" $r throughput)" = "$(field "$TMPD/load.tsv" 1 throughput)" ] &&
        [ "$(field "$TMPD/s0.tsv" $r bisection_lb)" = "$(field "$TMPD/bisect.tsv" 1 bisection_lb)" ] &&
        [ "$(field "$TMPD/s0.tsv" $r removed)" = 0 ] && good=$((good + 1))
done
[ "$good" = 3 ]
ok $? "fraction 0: every sample has topo-dist's, topo-load's and topo-bisect's numbers" ||
    diag "$(cat "$TMPD/s0.tsv" "$TMPD/dist.tsv" "$TMPD/load.tsv")"
topo-resilience -F 0 -n 3 "$RRG" >"$TMPD/p0.tsv"
want=$(field "$TMPD/load.tsv" 1 throughput)
[ "$(field "$TMPD/p0.tsv" 1 throughput.mean)" = "$want" ] &&
    [ "$(field "$TMPD/p0.tsv" 1 throughput.lo)" = "$want" ] &&
    [ "$(field "$TMPD/p0.tsv" 1 throughput.hi)" = "$want" ] &&
    [ "$(field "$TMPD/p0.tsv" 1 avg_distance.mean)" = "$(field "$TMPD/dist.tsv" 1 avg_distance)" ]
ok $? "fraction 0: the point's mean and interval are the intact values exactly"
# Servers: the torus with 2 servers per switch, under min and ecmp.
for r in min ecmp; do
    topo-resilience -F 0 -n 1 -r $r --samples "$TORUS" >"$TMPD/t0.tsv"
    topo-load -r $r "$TORUS" >"$TMPD/tl.tsv"
    [ "$(field "$TMPD/t0.tsv" 1 throughput)" = "$(field "$TMPD/tl.tsv" 1 throughput)" ] &&
        [ "$(field "$TMPD/t0.tsv" 1 max_load)" = "$(field "$TMPD/tl.tsv" 1 max_load)" ]
    ok $? "fraction 0, 2 servers per switch, -r $r: topo-load's throughput"
done

# ---------------------------------------------------------------------------
# Bridges.  Two 4-cliques joined by one link of class "bridge": removing
# every bridge link disconnects every sample; removing none never does.
cat >"$TMPD/bridge.topo" <<'EOF'
topokit-graph 1
spec two K4 and a bridge
switches 8
directed 0
classes plain bridge
links 13
0 1 plain
0 2 plain
0 3 plain
1 2 plain
1 3 plain
2 3 plain
4 5 plain
4 6 plain
4 7 plain
5 6 plain
5 7 plain
6 7 plain
3 4 bridge
end
EOF
run topo-resilience -c bridge -F 0,1 -n 5 --no-load --no-bisection "$TMPD/bridge.topo"
expect_rc 0 "bridge sweep"
printf '%s\n' "$out" >"$TMPD/br.tsv"
[ "$(field "$TMPD/br.tsv" 1 p_disconnected)" = 0 ] && [ "$(field "$TMPD/br.tsv" 2 p_disconnected)" = 1 ] &&
    [ "$(field "$TMPD/br.tsv" 2 removed)" = 1 ] && [ "$(field "$TMPD/br.tsv" 2 diameter.mean)" = - ]
ok $? "the bridge: P(disconnected) 0 without failure, 1 when it fails" || diag "$out"
# A path of 6 switches (every link a bridge): one failure (fraction 0.2 of
# 5 links) always disconnects, and then throughput is 0 and the bisection
# bound 0; an 8-ring survives one failure (diameter 7) but not two.
run topo-resilience -F 0,0.2 -n 4 "$(topo-gen mesh sides=6 >"$TMPD/path.topo"; echo "$TMPD/path.topo")"
printf '%s\n' "$out" >"$TMPD/path.tsv"
[ "$(field "$TMPD/path.tsv" 1 p_disconnected)" = 0 ] && [ "$(field "$TMPD/path.tsv" 2 p_disconnected)" = 1 ] &&
    [ "$(field "$TMPD/path.tsv" 2 throughput.max)" = 0 ] && [ "$(field "$TMPD/path.tsv" 2 bisection_lb.max)" = 0 ]
ok $? "a path: one failure disconnects; throughput and bisection bound 0" || diag "$out"
topo-gen ring n=8 >"$TMPD/ring.topo"
run topo-resilience -F 0.125,0.25 -n 6 --no-load "$TMPD/ring.topo"
printf '%s\n' "$out" >"$TMPD/ring.tsv"
[ "$(field "$TMPD/ring.tsv" 1 p_disconnected)" = 0 ] && [ "$(field "$TMPD/ring.tsv" 1 diameter.max)" = 7 ] &&
    [ "$(field "$TMPD/ring.tsv" 1 avg_distance.mean)" = 3 ] &&
    [ "$(field "$TMPD/ring.tsv" 2 p_disconnected)" = 1 ]
ok $? "an 8-ring: one failure leaves a path (diameter 7, average 3), two disconnect" || diag "$out"

# ---------------------------------------------------------------------------
# Sample counts, removal counts and seeds.
topo-resilience -F 0.1,0.25 -n 7 -s 42 --samples "$TORUS" >"$TMPD/s.tsv"
[ "$(($(wc -l <"$TMPD/s.tsv") - 1))" = 14 ]
ok $? "--samples: 2 points x 7 samples = 14 rows"
# torus 4x4: 32 links; round(0.1 * 32) = 3, round(0.25 * 32) = 8
[ "$(awk -F'\t' 'NR > 1 { print $5, $8 }' "$TMPD/s.tsv" | sort -u | tr '\n' ' ')" = "0.1 3 0.25 8 " ]
ok $? "removal counts: round(fraction x links)"
[ "$(awk -F'\t' 'NR > 1 { print $7 }' "$TMPD/s.tsv" | sort -u | wc -l)" = 14 ]
ok $? "14 distinct sample seeds"
good=0
for r in 2 11; do
    seed=$(field "$TMPD/s.tsv" $r seed)
    f=$(field "$TMPD/s.tsv" $r fraction)
    topo-fail -F "$f" -s "$seed" "$TORUS" >"$TMPD/one.topo" 2>/dev/null
    [ "$(topo-load "$TMPD/one.topo" | cut -f 6,8 | sed -n 2p)" = "$(field "$TMPD/s.tsv" $r max_load)	$(field "$TMPD/s.tsv" $r throughput)" ] &&
        [ "$(topo-dist "$TMPD/one.topo" | cut -f 6,8 | sed -n 2p)" = "$(field "$TMPD/s.tsv" $r diameter)	$(field "$TMPD/s.tsv" $r avg_distance)" ] &&
        [ "$(topo-bisect "$TMPD/one.topo" | cut -f 4 | sed -n 2p)" = "$(field "$TMPD/s.tsv" $r bisection_lb)" ] &&
        good=$((good + 1))
done
[ "$good" = 2 ]
ok $? "two samples reproduced by topo-fail -s SEED, then topo-load, topo-dist, topo-bisect"
topo-resilience -F 0.1,0.25 -n 7 -s 42 "$TORUS" >"$TMPD/p42.tsv"
topo-resilience -F 0.1,0.25 -n 7 -s 43 "$TORUS" >"$TMPD/p43.tsv"
[ "$(field "$TMPD/p42.tsv" 1 samples)" = 7 ] && ! cmp -s "$TMPD/p42.tsv" "$TMPD/p43.tsv"
ok $? "-n honoured in the samples column; another -s, other results"
topo-resilience -F 0.1,0.25 -n 4 -s 42 --samples "$TORUS" | awk -F'\t' 'NR > 1 && $5 == 0.1 { print $7 }' >"$TMPD/first4"
awk -F'\t' 'NR > 1 && $5 == 0.1 && $6 < 4 { print $7 }' "$TMPD/s.tsv" | cmp -s - "$TMPD/first4"
ok $? "sample j's seed does not depend on -n"
topo-resilience -F 0.1,0.25 -n 3 --nested --samples -w "$TORUS" >"$TMPD/nest.tsv"
[ "$(awk -F'\t' 'NR > 1 { print $6, $7 }' "$TMPD/nest.tsv" | sort -u | wc -l)" = 3 ]
ok $? "--nested: one seed per sample at every fraction"
s0=$(field "$TMPD/nest.tsv" 1 seed)
a=$(topo-fail -w -F 0.1 -s "$s0" "$TORUS" 2>/dev/null | sed -n 's/.*removed=//p')
b=$(topo-fail -w -F 0.25 -s "$s0" "$TORUS" 2>/dev/null | sed -n 's/.*removed=//p')
case "$b" in "$a",*) true ;; *) false ;; esac
ok $? "--nested: the failures of a larger fraction contain the smaller one's ($a / $b)"
[ "$(awk -F'\t' 'NR > 1 { print $2, $8 + $9 }' "$TMPD/nest.tsv" | sort -u)" = "switches 16" ]
ok $? "-w: switches removed plus switches left = 16"

# ---------------------------------------------------------------------------
# Confidence intervals against closed forms of Student's t quantile:
# df = 1: t = tan(pi (p - 1/2)); df = 2: t = (2p - 1) / sqrt(2 p (1 - p)).
for n in 2 3; do
    for level in 0.95 0.8; do
        topo-resilience -F 0.25 -n $n -L $level --samples "$TORUS" >"$TMPD/ci.s"
        topo-resilience -F 0.25 -n $n -L $level "$TORUS" >"$TMPD/ci.p"
        awk -F'\t' -v n=$n -v L=$level '
            NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
            FNR == 1 { for (i = 1; i <= NF; i++) d[$i] = i; next }
            FILENAME ~ /ci.s$/ { x[k++] = $c["throughput"]; next }
            { m = 0; for (i = 0; i < k; i++) m += x[i]; m /= k
              s = 0; for (i = 0; i < k; i++) s += (x[i] - m)^2; s = sqrt(s / (k - 1))
              p = 1 - (1 - L) / 2
              t = (k == 2) ? sin(3.141592653589793 * (p - 0.5)) / cos(3.141592653589793 * (p - 0.5)) \
                           : (2 * p - 1) / sqrt(2 * p * (1 - p))
              h = t * s / sqrt(k)
              lo = $d["throughput.lo"]; hi = $d["throughput.hi"]; mean = $d["throughput.mean"]
              bad = (k != n) || abs(mean - m) > 1e-12 || abs(lo - (m - h)) > 1e-9 * (1 + h) ||
                    abs(hi - (m + h)) > 1e-9 * (1 + h) || h <= 0
              printf "%s", bad ? "bad" : "good" }
            function abs(v) { return v < 0 ? -v : v }' "$TMPD/ci.s" "$TMPD/ci.p" >"$TMPD/ci.r"
        [ "$(cat "$TMPD/ci.r")" = good ]
        ok $? "CI of $n samples at level $level: mean +- t(df=$((n - 1))) s / sqrt(n)" ||
            diag "$(cat "$TMPD/ci.s" "$TMPD/ci.p")"
    done
done
topo-resilience -F 0.25 -n 1 "$TORUS" >"$TMPD/one.tsv"
[ "$(field "$TMPD/one.tsv" 1 throughput.lo)" = -inf ] && [ "$(field "$TMPD/one.tsv" 1 throughput.hi)" = inf ]
ok $? "one sample: the interval is unbounded"

# ---------------------------------------------------------------------------
# -P: a pattern file's loads, the intact value topo-load -P's, a damaged
# sample's topo-fail + topo-load --force -P's; not with -w.
topo-pattern tornado -o "$TMPD/t.pat" "$TORUS"
topo-resilience -F 0,0.2 -n 2 -P "$TMPD/t.pat" --samples "$TORUS" >"$TMPD/pat.tsv"
topo-load -P "$TMPD/t.pat" "$TORUS" >"$TMPD/pl.tsv"
seed=$(field "$TMPD/pat.tsv" 3 seed)
topo-fail -F 0.2 -s "$seed" "$TORUS" 2>/dev/null | topo-load --force -P "$TMPD/t.pat" >"$TMPD/pf.tsv"
[ "$(field "$TMPD/pat.tsv" 1 throughput)" = "$(field "$TMPD/pl.tsv" 1 throughput)" ] &&
    [ "$(field "$TMPD/pat.tsv" 1 max_load)" = "$(field "$TMPD/pl.tsv" 1 max_load)" ] &&
    [ "$(field "$TMPD/pat.tsv" 3 throughput)" = "$(field "$TMPD/pf.tsv" 1 throughput)" ] &&
    [ "$(field "$TMPD/pat.tsv" 1 pattern)" = "$(field "$TMPD/pl.tsv" 1 pattern)" ]
ok $? "-P: topo-load -P's numbers intact and on a damaged sample" || diag "$(cat "$TMPD/pat.tsv" "$TMPD/pl.tsv" "$TMPD/pf.tsv")"
run topo-resilience -w -P "$TMPD/t.pat" "$TORUS"
expect_rc 2 "-P with -w"
run topo-resilience -n 1 -F 0 -P "$TMPD/t.pat" "$RRG"
expect_fail 1 "pattern .*t.pat: " "-P of another topology"

# ---------------------------------------------------------------------------
# Threads, JSON, -o, the plot.
topo-resilience -F 0:0.3:4 -n 6 -w --threads 1 --samples "$RRG" >"$TMPD/t1"
topo-resilience -F 0:0.3:4 -n 6 -w --threads 2 --samples "$RRG" >"$TMPD/t2"
cmp -s "$TMPD/t1" "$TMPD/t2"
ok $? "--samples: the same bytes at 1 and 2 threads"
topo-resilience -F 0:0.3:4 -n 6 --threads 1 "$RRG" >"$TMPD/t1"
topo-resilience -F 0:0.3:4 -n 6 --threads 2 "$RRG" >"$TMPD/t2"
cmp -s "$TMPD/t1" "$TMPD/t2"
ok $? "points: the same bytes at 1 and 2 threads"
[ "$(cut -f 5 "$TMPD/t1" | tr '\n' ' ')" = "fraction 0 0.1 0.2 0.3 " ]
ok $? "-F 0:0.3:4: four equally spaced fractions"
if command -v python3 >/dev/null 2>&1; then
    topo-resilience -F 0.1,0.25 -n 3 --json "$TORUS" >"$TMPD/j"
    python3 -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert len(rows) == 2 and rows[1]["fraction"] == 0.25 and rows[1]["samples"] == 3
t = rows[1]["throughput"]
assert t["n"] == 3 and t["lo"] <= t["mean"] <= t["hi"] and t["min"] <= t["mean"] <= t["max"]
' "$TMPD/j"
    ok $? "--json: one object per point, statistics per measure"
fi
run topo-resilience -F 0.1 -n 2 -o "$TMPD/o.tsv" "$TORUS"
[ "$rc" = 0 ] && [ -z "$out" ] && [ "$(wc -l <"$TMPD/o.tsv")" = 2 ]
ok $? "-o writes the file"
topo-plot -n --script - -o "$TMPD/t.svg" "$TMPD/t1" >"$TMPD/plot.gp"
grep -q 'using 1:2:3:4 with yerrorlines' "$TMPD/plot.gp" &&
    grep -q 'throughput against the failure fraction' "$TMPD/plot.gp"
ok $? "topo-plot: throughput against the fraction with error bars"

done_testing
