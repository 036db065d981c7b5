#!/bin/sh
# bisect.sh - topo-bisect on the issue's two targets (rrg n=10000 d=16 and a
# 100x100x10 torus), each solver where it is sensible, against networkx's
# algebraic_connectivity / Fiedler vector (scipy) and METIS-free peers when
# present.  Prints a Markdown table: wall seconds, peak memory (from
# /usr/bin/time -v), lambda2 and the bounds.  Needs topo-gen, topo-conv and
# topo-bisect on PATH (run.sh sets it).
set -eu
W=$(mktemp -d "${TMPDIR:-/tmp}/tk-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM

topo-gen rrg n=10000 d=16 -s 1 >"$W/rrg.topo"
topo-gen torus sides=100,100,10 >"$W/torus.topo"
topo-gen rrg n=2000 d=8 -s 1 >"$W/rrg2k.topo"
topo-gen torus sides=40,40,10 >"$W/torus16k.topo"

TIME=/usr/bin/time
[ -x "$TIME" ] || TIME=

# one LABEL FILE THREADS ARGS...: a table row for one topo-bisect run.
one() {
    label=$1 file=$2 threads=$3
    shift 3
    if [ -n "$TIME" ]; then
        "$TIME" -v topo-bisect --threads "$threads" "$@" "$W/$file" >"$W/out" 2>"$W/time" || {
            echo "| $label | $threads | failed: $(grep topo-bisect "$W/time" | head -n 1) |"
            return 0
        }
        wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s }' "$W/time")
        mem=$(awk -F': ' '/Maximum resident set size/ { printf "%.0f", $2 / 1024 }' "$W/time")
    else
        start=$(date +%s.%N)
        topo-bisect --threads "$threads" "$@" "$W/$file" >"$W/out"
        wall=$(echo "$(date +%s.%N) - $start" | bc)
        mem=-
    fi
    row=$(sed -n 2p "$W/out")
    echo "$row" | awk -F'\t' -v l="$label" -v t="$threads" -v w="$wall" -v m="$mem" \
        '{ printf "| %s | %s | %s | %s | %.10g | %s | %s | %s |\n", l, t, w, m, $10, $4, $5, $15 }'
}

echo "| graph | threads | wall s | max RSS MiB | lambda2 | bisection_lb | bisection_ub | method |"
echo "|---|---|---|---|---|---|---|---|"
one "rrg n=10000 d=16 (auto)" rrg.topo 2
one "rrg n=10000 d=16 (auto)" rrg.topo 1
one "torus 100x100x10 (auto)" torus.topo 2
one "torus 40x40x10 (auto)" torus16k.topo 2
one "torus 40x40x10 --solver lanczos" torus16k.topo 2 --solver lanczos
one "rrg n=2000 d=8 (auto)" rrg2k.topo 2
one "rrg n=2000 d=8 --solver dense" rrg2k.topo 2 --solver dense
one "rrg n=2000 d=8 --solver cholmod" rrg2k.topo 2 --solver cholmod

# Peer: networkx.algebraic_connectivity (scipy LOBPCG/TraceMIN), same graphs.
PY=
for p in "${PYTHON:-}" /usr/bin/python3 python3; do
    [ -n "$p" ] || continue
    if "$p" -c 'import networkx, scipy' >/dev/null 2>&1; then PY=$p; break; fi
done
if [ -z "$PY" ]; then
    echo
    echo "(networkx/scipy not installed: no peer column)"
    exit 0
fi
for f in rrg2k rrg torus16k; do
    topo-conv -f edges "$W/$f.topo" >"$W/$f.edges"
done
export PYTHONWARNINGS=ignore
echo
echo "| graph | peer | wall s (graph built) | lambda2 |"
echo "|---|---|---|---|"
"$PY" - "$W" <<'PYEOF'
import sys, time, os, signal
import networkx as nx
W = sys.argv[1]

class Timeout(Exception):
    pass

def alarm(*_):
    raise Timeout()

signal.signal(signal.SIGALRM, alarm)
for label, f in (("rrg n=2000 d=8", "rrg2k"), ("rrg n=10000 d=16", "rrg"),
                 ("torus 40x40x10", "torus16k")):
    g = nx.Graph()
    for line in open(os.path.join(W, f + ".edges")):
        if line.startswith("#"):
            continue
        u, v = line.split()[:2]
        g.add_edge(int(u), int(v))
    for method in ("tracemin_pcg", "lobpcg"):
        t = time.perf_counter()
        signal.alarm(60)
        try:
            l2 = nx.algebraic_connectivity(g, tol=1e-8, method=method)
            s = "%.10g" % l2
        except Timeout:
            s = "over 60 s, stopped"
        except Exception as e:  # noqa: BLE001
            s = "failed: %s" % type(e).__name__
        signal.alarm(0)
        print("| %s | networkx %s %s | %.2f | %s |" % (label, nx.__version__, method,
                                                  time.perf_counter() - t, s))
        sys.stdout.flush()
PYEOF
