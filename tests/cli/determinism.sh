# determinism: every randomised tool (-s SEED) gives the same bytes with 1,
# 2 and 4 threads (--threads), and 4 by OMP_NUM_THREADS (HACKING.md: a
# random stream per task, never per thread).  One table: a new randomised
# tool adds one line.
. "$TK_SRCDIR/tests/cli/lib.sh"

topo-gen rrg n=24 d=4 -s 3 >"$TMPD/g.topo"
topo-gen rrg n=60 d=5 -p 3 -s 4 >"$TMPD/rrg.topo"
G="$TMPD/g.topo"

# The bytes compared: the output without its wall-clock column 'time'
# (topo-mcf, topo-antmill), the one column allowed to vary.
untimed() {
    awk -F '\t' -v OFS='\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "time") k = i }
        { if (k) { $k = ""; } print }' "$1"
}

# NAME|COMMAND (without --threads; $G and $TMPD are expanded)
while IFS='|' read -r name cmd; do
    [ -n "$name" ] || continue
    cmd=$(eval "printf '%s' \"$cmd\"")
    ref=
    for run in threads:1 threads:2 threads:4 env:4; do
        how=${run%:*} t=${run#*:}
        {
            if [ "$how" = threads ]; then
                eval "$cmd --threads $t" >"$TMPD/out" 2>"$TMPD/err"
            else
                OMP_NUM_THREADS=$t eval "$cmd" >"$TMPD/out" 2>"$TMPD/err"
            fi
            rc=$?
            sum="$rc $(untimed "$TMPD/out" | cksum)"
            if [ -z "$ref" ]; then
                ref=$sum
                [ "$rc" -eq 0 ] && [ -s "$TMPD/out" ]
                ok $? "$name: runs (exit 0, output)" || diag "$(cat "$TMPD/err")"
            else
                [ "$sum" = "$ref" ]
                ok $? "$name: same bytes with $how $t" || diag "$sum vs $ref"
            fi
        }
    done
done <<'TABLE'
topo-gen rrg|topo-gen rrg n=200 d=6 -s 7
topo-gen rrg -f edges|topo-gen rrg n=64 d=3 -s 11 -f edges
topo-pattern server-perm|topo-pattern server-perm -s 3 $G
topo-pattern random-shift|topo-pattern random-shift -s 5 $G
topo-ksp --pairs|topo-ksp --pairs 500 -s 5 -k 4 $G
topo-antmill|topo-antmill --delta 2 -s 9 --no-uniform $TMPD/rrg.topo
topo-bisect|topo-bisect -s 3 $G
topo-mcf -m server-perm|topo-mcf -m server-perm -s 4 $G
topo-medoid|topo-medoid rrg n=20 d=4 --samples 6 -s 2
topo-sim -m switch-perm|topo-sim -m switch-perm -s 3 $G
topo-sim --poisson|topo-sim --poisson --count 300 -s 3 $G
topo-job|topo-job -s 3 -j 'j=30 place=random app=perm' -j 'j=20 place=random' $TMPD/rrg.topo
topo-fail|topo-fail -F 0.2 -s 3 $G
topo-resilience|topo-resilience -F 0:0.2:3 -n 4 -s 5 $G
TABLE
done_testing
