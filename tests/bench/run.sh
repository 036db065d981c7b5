#!/bin/sh
# run.sh - the benchmarks (not part of `make check`).  Run by `make bench`
# from the build directory, or by hand:
#     TK_BUILDDIR=/path/to/build sh tests/bench/run.sh
# Tools are found in $TK_BUILDDIR, else in the current directory when it
# holds the built tools, else on PATH.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
if [ -z "${TK_BUILDDIR:-}" ] && [ -x ./topo-dist ]; then
    TK_BUILDDIR=$(pwd)
fi
if [ -n "${TK_BUILDDIR:-}" ]; then
    PATH="$TK_BUILDDIR:$PATH"
fi
export PATH LC_ALL=C
command -v topo-dist >/dev/null 2>&1 || {
    echo "run.sh: topo-dist not found: build first or set TK_BUILDDIR" >&2
    exit 2
}
echo "# topokit benchmarks, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(uname -m)"
echo "# topo-dist: $(command -v topo-dist)"
# Every benchmark script beside this one, in name order; BENCH=name1,name2
# runs a subset (e.g. BENCH=dist make bench).  The paper reproductions that
# take from minutes to hours (the Ant Mill paper's RRG study, Figures 13
# and 14 of Faizian et al.), README's tour and the resilience sweep run
# only when BENCH names them.
for f in "$here"/*.sh; do
    b=$(basename "$f" .sh)
    [ "$b" = run ] && continue
    case $b in antmill-rrg | antmill-exact | fig13 | fig14 | readme-tour | resilience) [ -n "${BENCH:-}" ] || continue ;; esac
    case ",${BENCH:-$b}," in *",$b,"*) ;; *) continue ;; esac
    echo
    sh "$f"
done
