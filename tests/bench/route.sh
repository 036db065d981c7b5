#!/bin/sh
# route.sh - topo-route over all ordered pairs of rrg n=1000 d=16
# (999 000 pairs): ksp:8 and allpath:4 list every pair's paths through
# tk_route_paths (the per-pair path lists that topo-load's generic engine
# sums), min / ecmp count them on the path DAG; polarized (counted too)
# on rrg n=300 d=10.  Whole process
# (read, router, all pairs), best of 2, --threads 1 and 2.  Peer: igraph's
# get_k_shortest_paths(k=8) for every ordered pair of rrg n=200 d=10 against
# topo-route -r ksp:8 on the same graph, with the mean path length
# compared ("agree"); '-' when python3-igraph is absent.
set -eu
W=$(mktemp -d "${TMPDIR:-/tmp}/tk-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM
topo-gen rrg n=1000 d=16 -s 1 >"$W/r1000.topo"
topo-gen rrg n=200 d=10 -s 1 >"$W/r200.topo"
topo-gen rrg n=200 d=10 -s 1 -f edges >"$W/r200.edges"

now() { date +%s.%N; }
best() { # best of 2 wall-clock seconds of "$@"
    b=
    for i in 1 2; do
        t0=$(now); "$@" >"$W/out" ; t1=$(now)
        t=$(echo "$t1 $t0" | awk '{ printf "%.2f", $1 - $2 }')
        if [ -z "$b" ] || awk -v a="$t" -v b="$b" 'BEGIN { exit !(a < b) }'; then b=$t; fi
    done
    echo "$b"
}
printf 'model\tthreads\tseconds\tavg_len\n'
for m in ksp:8 allpath:4 min ecmp; do
    for th in 1 2; do
        s=$(best topo-route -r "$m" --threads "$th" "$W/r1000.topo")
        printf '%s\t%s\t%s\t%s\n' "$m" "$th" "$s" "$(tail -n 1 "$W/out" | cut -f 8)"
    done
done
# polarized DAGs hold hundreds of paths per pair: rrg n=300 d=10 (89 700 pairs)
topo-gen rrg n=300 d=10 -s 1 >"$W/r300.topo"
for th in 1 2; do
    s=$(best topo-route -r polarized --threads "$th" "$W/r300.topo")
    printf '%s\t%s\t%s\t%s\n' "polarized(n=300)" "$th" "$s" "$(tail -n 1 "$W/out" | cut -f 8)"
done
s=$(best topo-route -r ksp:8 --threads 1 "$W/r200.topo")
ours=$(tail -n 1 "$W/out" | cut -f 8)
PY=
for p in "${PYTHON:-}" /usr/bin/python3 python3; do
    [ -n "$p" ] || continue
    if "$p" -c 'import igraph' >/dev/null 2>&1; then PY=$p; break; fi
done
if [ -n "$PY" ]; then
    res=$("$PY" - "$W/r200.edges" <<'PYEOF'
import sys, time, igraph
E = [tuple(map(int, l.split()[:2])) for l in open(sys.argv[1]) if l.strip() and not l.startswith('#')]
n = 1 + max(max(e) for e in E)
G = igraph.Graph(n=n, edges=E)
t0 = time.time(); tot = 0.0; pairs = 0
for s in range(n):
    for t in range(n):
        if s == t: continue
        P = G.get_k_shortest_paths(s, t, k=8, output="epath")
        tot += sum(len(p) for p in P) / len(P); pairs += 1
print("%.2f %.12g" % (time.time() - t0, tot / pairs))
PYEOF
)
    ig=${res% *}; igavg=${res#* }
    agree=$(awk -v a="$ours" -v b="$igavg" 'BEGIN { d = a - b; if (d < 0) d = -d; print (d < 1e-9) ? "yes" : "NO" }')
else
    ig=-; agree=-
fi
printf 'ksp:8 rrg n=200 d=10: topo-route %s s, igraph %s s, agree %s\n' "$s" "$ig" "$agree"
