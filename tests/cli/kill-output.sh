# kill-output: a tool killed at a random moment (SIGINT, SIGTERM, SIGKILL)
# while writing -o FILE leaves either the complete previous FILE or the
# complete new one, never a part; after SIGINT and SIGTERM no temporary
# file is left (SIGKILL cannot be caught: its temporary may stay, the
# target is still whole).  One table row per tool that writes -o.
. "$TK_SRCDIR/tests/cli/lib.sh"

topo-gen rrg n=250 d=8 -s 2 >"$TMPD/g.topo"
topo-gen torus sides=8,8 >"$TMPD/t.topo"
topo-gen rrg n=60 d=5 -p 3 -s 4 >"$TMPD/a.topo"
topo-dist "$TMPD/g.topo" >"$TMPD/dist.tsv"
seq 1 200000 >"$TMPD/col.txt"
G="$TMPD/g.topo"
T="$TMPD/t.topo"
mkdir "$TMPD/o"
seed=$$
# The file without its wall-clock column 'time' (topo-mcf, topo-antmill).
untimed() {
    awk -F '\t' -v OFS='\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "time") k = i }
        { if (k) { $k = ""; } print }' "$1"
}
rnd() { # a delay of 0 to 0.3 s, different each call
    seed=$(((seed * 1103515245 + 12345) % 2147483648))
    printf '0.%03d' $((seed % 300))
}

# NAME|COMMAND writing to $OUT ($G, $T, $TMPD expanded)
while IFS='|' read -r name cmd; do
    [ -n "$name" ] || continue
    OUT="$TMPD/o/res"
    full=$(eval "printf '%s' \"$cmd\"")
    # the complete output, for reference
    rm -f "$OUT"
    eval "$full" >/dev/null 2>&1
    untimed "$OUT" >"$TMPD/ref" 2>/dev/null || : >"$TMPD/ref"
    for sig in INT TERM KILL; do
        printf 'previous %s\n' "$name" >"$OUT"
        cp "$OUT" "$TMPD/prev"
        eval "exec $full" >/dev/null 2>&1 &
        pid=$! # the tool itself (exec), not a subshell
        sleep "$(rnd)"
        kill -s "$sig" "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
        { cmp -s "$OUT" "$TMPD/prev" || untimed "$OUT" | cmp -s - "$TMPD/ref"; }
        ok $? "$name: SIG$sig leaves the previous or the complete file" || diag "$(head -c 200 "$OUT")"
        if [ "$sig" != KILL ]; then
            [ "$(ls -A "$TMPD/o")" = res ]
            ok $? "$name: SIG$sig leaves no temporary file" || diag "$(ls -A "$TMPD/o")"
        fi
        rm -f "$TMPD/o"/.topokit-tmp-*
    done
done <<'TABLE'
topo-gen|topo-gen rrg n=3000 d=12 -s 1 -o $OUT
topo-conv|topo-conv -f edges -o $OUT $G
topo-dist|topo-dist --ecc -o $OUT $G
topo-ksp|topo-ksp -k 8 -o $OUT $G
topo-paths|topo-paths --pairs -o $OUT $G
topo-pattern|topo-pattern uniform -o $OUT $G
topo-route|topo-route -r ecmp --pairs -o $OUT $G
topo-load|topo-load -r ecmp -o $OUT $G
topo-mcf|topo-mcf -o $OUT $TMPD/a.topo
topo-sim|topo-sim -o $OUT $G
topo-antmill|topo-antmill --delta 2 -s 9 -o $OUT $TMPD/a.topo
topo-medoid|topo-medoid rrg n=100 d=6 --samples 20 -o $OUT
topo-bisect|topo-bisect -o $OUT $G
topo-auto|topo-auto -o $OUT $T
topo-bounds|topo-bounds --measured -o $OUT $TMPD/dist.tsv
topo-stats|topo-stats -o $OUT $TMPD/col.txt
topo-vc|topo-vc -r min -v none -o $OUT $T
topo-fail|topo-fail -F 0.1 -s 3 -o $OUT $G
topo-job|topo-job -s 3 -j 'j=200 place=random app=all-to-all' -o $OUT $G
topo-resilience|topo-resilience -F 0:0.2:3 -n 4 -s 5 -o $OUT $G
TABLE
done_testing
