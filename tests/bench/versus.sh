#!/bin/sh
# versus.sh - this build against an older build of topokit, side by side in
# one run: the same commands with the old and the new binaries,
# alternately, best of VS_REPS (default 3) wall-clock seconds each, and the
# ratio new/old.  A refactoring that must not slow anything down is judged
# by this table (tests/bench/RESULTS.md).
#
#   TK_OLD=/path/to/old/build BENCH=versus make bench
#
# TK_OLD is the build directory of the older version (its tools at the
# top, as `make` leaves them).  Without TK_OLD the script says so and
# stops.  The outputs of the two builds are compared too ("same"): the
# commands print loads, distances and LP optima, which a refactoring must
# not change; the time column of topo-mcf is cut off first.
set -eu
if [ -z "${TK_OLD:-}" ] || [ ! -x "$TK_OLD/topo-load" ]; then
    echo "versus.sh: set TK_OLD to the build directory of an older topokit to compare with"
    exit 0
fi
NEW=$(dirname "$(command -v topo-load)")
REPS=${VS_REPS:-3}
W=$(mktemp -d "${TMPDIR:-/tmp}/tk-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM

topo-gen rrg n=16384 d=16 -s 1 -f graph6 >"$W/rrg16k.g6"
topo-gen rrg n=4096 d=16 -s 1 -f graph6 >"$W/rrg4k.g6"
topo-gen kautz d=4 D=5 -f digraph6 >"$W/kautz.d6"
topo-gen rrg n=10000 d=16 -s 1 >"$W/rrg10k.topo"
topo-gen rrg n=5000 d=16 -s 1 >"$W/rrg5k.topo"
topo-gen rrg n=2000 d=16 -s 1 >"$W/rrg2k.topo"
topo-gen rrg n=1000 d=16 -s 1 >"$W/rrg1k.topo"
topo-gen dragonfly a=16 h=8 p=8 >"$W/df.topo"
topo-gen rrg n=49 d=8 -s 1 >"$W/rrg49.topo"
topo-gen dragonfly a=4 h=2 >"$W/df42.topo"

# time DIR CMD...: best wall and its cpu over REPS runs of DIR/CMD; the
# output of the last run in $W/out.DIR-tag
best() {
    tag=$1
    shift
    b=
    for _ in $(seq "$REPS"); do
        /usr/bin/time -f '%e %U %S' -o "$W/time" "$@" >"$W/out.$tag" 2>/dev/null
        b=$(awk -v b="$b" '{ w = $1; c = $2 + $3 } END { split(b, o, " ");
            if (b == "" || w < o[1]) printf "%.2f %.2f", w, c; else print b }' "$W/time")
    done
    echo "$b"
}

echo "## This build against $TK_OLD ($(nproc) cores, best of $REPS, same run)"
echo
echo "| command | old wall / cpu (s) | new wall / cpu (s) | new/old wall | new/old cpu | same output |"
echo "|---|---|---|---|---|---|"
row() {
    label=$1
    shift
    o=$(best old "$TK_OLD/$@")
    n=$(best new "$NEW/$@")
    case $1 in topo-mcf) cut -f1-8 "$W/out.old" >"$W/a"; cut -f1-8 "$W/out.new" >"$W/b" ;;
    *) cp "$W/out.old" "$W/a"; cp "$W/out.new" "$W/b" ;; esac
    same=no
    cmp -s "$W/a" "$W/b" && same=yes
    echo "$o $n" | awk -v l="$label" -v s="$same" '{ printf "| %s | %s / %s | %s / %s | %.3f | %.3f | %s |\n",
        l, $1, $2, $3, $4, $3 / $1, $4 / $2, s }'
}
row "topo-dist rrg n=4096 d=16, 2 threads" topo-dist --threads 2 "$W/rrg4k.g6"
row "topo-dist rrg n=16384 d=16, 2 threads" topo-dist --threads 2 "$W/rrg16k.g6"
row "topo-dist kautz d=4 D=5, 2 threads" topo-dist --threads 2 "$W/kautz.d6"
row "topo-dist rrg n=4096 d=16, 1 thread" topo-dist --threads 1 "$W/rrg4k.g6"
row "topo-load min rrg n=10000 d=16, 2 threads" topo-load --threads 2 "$W/rrg10k.topo"
row "topo-load min rrg n=5000 d=16, 2 threads" topo-load --threads 2 "$W/rrg5k.topo"
row "topo-load min rrg n=10000 d=16, 1 thread" topo-load --threads 1 "$W/rrg10k.topo"
row "topo-load ecmp rrg n=10000 d=16, 2 threads" topo-load -r ecmp --threads 2 "$W/rrg10k.topo"
row "topo-load valiant rrg n=2000 d=16, 2 threads" topo-load -r valiant --threads 2 "$W/rrg2k.topo"
row "topo-load dragonfly-valiant dfly a=16 h=8 p=8, 2 threads" topo-load -r dragonfly-valiant --threads 2 "$W/df.topo"
row "topo-load ksp:8 rrg n=1000 d=16, 2 threads" topo-load -r ksp:8 --threads 2 "$W/rrg1k.topo"
row "topo-mcf exact rrg n=49 d=8" topo-mcf --method exact "$W/rrg49.topo"
row "topo-mcf -r ksp:4 dragonfly a=4 h=2" topo-mcf -r ksp:4 "$W/df42.topo"
row "topo-mcf -r valiant dragonfly a=4 h=2" topo-mcf -r valiant "$W/df42.topo"
