#!/bin/sh
# antmill.sh - speed of topo-antmill and topo-medoid on RRGs with 1224
# switches, degrees from the k range of the Ant Mill paper (an adverse
# traffic pattern for networks built on random regular graphs): d^k =
# 2 n ln n, so k = 3.7 gives d = 14, k = 3 d = 26, k = 2.2 d = 85.
# Targets (issue 8): H-hat under
# 1 s, maximum-delta H under 60 s, medoid of 100 samples under 2 minutes on
# 2 cores.  No peer implements either search, so only our times are shown.
#   H-hat        topo-antmill --hat (whole process: read, distance summary,
#                search, verification), best of 3
#   H(delta)     topo-antmill --delta D with D the largest delta that
#                --max-delta finds within 60 s (the time to build that
#                cycle; --max-delta itself then spends the rest of its
#                budget failing on D+1 unless the unique-path table rules
#                D+1 out at once, which the 'maxdelta' column shows)
#   medoid       topo-medoid rrg n=1224 d=D --samples 100 --threads 2
#                (AM_MEDOID=0 skips it)
# Then issue 28: topo-antmill --delta 2 on rrg n=1224 d=50 for seeds 1..6
# (target: 10 s each), whole processes, each cycle checked by --verify.
set -eu
W=$(mktemp -d "${TMPDIR:-/tmp}/tk-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM
t() { # t CMD...: wall seconds of one run
    s=$(date +%s.%N)
    "$@" >/dev/null
    e=$(date +%s.%N)
    awk -v a="$s" -v b="$e" 'BEGIN { printf "%.2f", b - a }'
}
best3() {
    a=$(t "$@"); b=$(t "$@"); c=$(t "$@")
    printf '%s\n%s\n%s\n' "$a" "$b" "$c" | sort -n | head -1
}
echo "# antmill: RRG n=1224, $(nproc) cores"
printf 'd\thhat_s\tdelta\tmaxdelta_s\thdelta_s\tmedoid100_s\n'
for d in ${AM_DEGREES:-14 26 85}; do
    topo-gen rrg n=1224 d="$d" -s 1 -o "$W/g.topo"
    hh=$(best3 topo-antmill --hat --no-uniform "$W/g.topo")
    s=$(date +%s.%N)
    topo-antmill --max-delta --budget 60 --no-uniform "$W/g.topo" >"$W/row"
    e=$(date +%s.%N)
    md=$(awk -v a="$s" -v b="$e" 'BEGIN { printf "%.2f", b - a }')
    delta=$(awk -F '\t' 'NR == 2 { print $3 }' "$W/row")
    hd=$(best3 topo-antmill --delta "$delta" --no-uniform "$W/g.topo")
    me=-
    [ "${AM_MEDOID:-1}" = 0 ] || me=$(t topo-medoid rrg n=1224 d="$d" --samples 100 --threads 2)
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$d" "$hh" "$delta" "$md" "$hd" "$me"
done
echo "# antmill: delta 2 on rrg n=1224 d=50, seeds 1..6"
printf 'seed\tdelta2_s\tverified_delta\n'
for s in ${AM_SEEDS:-1 2 3 4 5 6}; do
    topo-gen rrg n=1224 d=50 -s "$s" -o "$W/g.topo"
    a=$(date +%s.%N)
    topo-antmill --delta 2 --budget 120 --no-uniform -o "$W/h.cyc" "$W/g.topo" >/dev/null
    b=$(date +%s.%N)
    v=$(topo-antmill --verify "$W/h.cyc" --no-uniform "$W/g.topo" | awk -F '\t' 'NR == 2 { print $3 }')
    printf '%s\t%s\t%s\n' "$s" "$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", b - a }')" "$v"
done
