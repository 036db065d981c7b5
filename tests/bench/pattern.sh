#!/bin/sh
# pattern.sh - topo-pattern on ~100 000-switch topologies: wall-clock
# seconds of the whole process (reading the topology, generating, checking,
# writing the pattern file), one row per kind.  The kinds whose output is
# quadratic in size (uniform, all-to-all, mixed, advc) and the exact
# O(n(n+m)) / O(n^3) kinds (perm-distance, longest-matching) run on the
# largest instances they can handle in seconds, stated in the table.  Needs
# topo-gen and topo-pattern on PATH (run.sh sets it).
set -eu
W=$(mktemp -d "${TMPDIR:-/tmp}/tk-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM

secs() { # secs CMD...: wall-clock seconds of CMD
    s=$(date +%s.%N)
    "$@" >/dev/null
    e=$(date +%s.%N)
    awk -v s="$s" -v e="$e" 'BEGIN { printf "%.2f", e - s }'
}

topo-gen torus sides=317,317 -o "$W/torus.topo"
topo-gen hypercube dim=17 -o "$W/cube.topo"
topo-gen dragonfly a=64 h=32 p=1 g=1563 -o "$W/dfly.topo"
topo-gen rrg n=100000 d=8 -s 1 -o "$W/rrg.topo"
topo-gen dragonfly a=16 h=8 p=1 -o "$W/dfly-small.topo"
topo-gen rrg n=5000 d=8 -s 1 -o "$W/rrg5k.topo"
topo-gen rrg n=1000 d=8 -s 1 -o "$W/rrg1k.topo"
topo-gen rrg n=2000 d=8 -s 1 -o "$W/rrg2k.topo"
topo-gen rrg n=1000 d=8 -s 1 -o "$W/rrg1k.topo"

echo "## topo-pattern (seconds, whole process, ${OMP_NUM_THREADS:-all} threads)"
echo
echo "| topology | switches | kind | demands | seconds |"
echo "|---|---|---|---|---|"
while IFS='|' read -r topo kind; do
    [ -n "$topo" ] || continue
    t=$(secs topo-pattern $kind -o "$W/p.pat" "$W/$topo.topo")
    n=$(sed -n 's/^switches //p' "$W/$topo.topo" | head -n 1)
    d=$(sed -n 's/^demands //p' "$W/p.pat" | head -n 1)
    echo "| $topo | $n | $kind | $d | $t |"
    rm -f "$W/p.pat"
done <<'EOF2'
torus|switch-perm
torus|switch-perm level=server
torus|server-perm
torus|shift offset=12345
torus|random-shift
torus|tornado
torus|transpose
torus|dim-shift dims=XY i=7
cube|bit-complement
dfly|adv i=1
dfly|advr i=3
dfly|hotspot count=16
rrg|switch-perm
rrg|server-perm
dfly-small|advc
dfly-small|uniform
dfly-small|mixed base=shift percent=50 level=router
rrg5k|perm-distance lambda=3 level=switch
rrg1k|longest-matching level=switch
rrg2k|longest-matching level=switch
EOF2
