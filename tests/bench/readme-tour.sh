#!/bin/sh
# readme-tour.sh - README.md's "A short tour", run as written (issue 25):
# every ```sh block of the section, in order, in one scratch directory
# (later blocks use the files of earlier ones), with the built tools first
# on PATH.  Prints one line per block: its status, wall-clock seconds and
# first command; exits 1 when a block fails.  Too slow for make check (the
# tour works on the 1224-switch graph of the main job): run with
# BENCH=readme-tour make bench.  Under mpirun as root, Open MPI needs
# OMPI_ALLOW_RUN_AS_ROOT(_CONFIRM), which this script sets, and
# --oversubscribe on fewer cores than ranks (OMPI_MCA_rmaps_base_oversubscribe).
set -u
here=$(cd "$(dirname "$0")" && pwd)
readme="$here/../../README.md"
[ -n "${TK_BUILDDIR:-}" ] && PATH="$TK_BUILDDIR:$PATH"
export PATH LC_ALL=C
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# the blocks, one file each: b1.sh, b2.sh, ...
nb=$(awk -v dir="$work" '/^## A short tour/ { on = 1; next } on && /^## / { on = 0 }
     on && /^```sh$/ { inb = 1; n++; f = dir "/b" n ".sh"; printf "" >f; next }
     on && inb && /^```$/ { inb = 0; close(f); next }
     on && inb { print >>f }
     END { print n + 0 }' "$readme")
echo "# README.md tour, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores"
echo "# block	status	seconds	first command"
fails=0
i=0
while [ "$i" -lt "$nb" ]; do
    i=$((i + 1))
    t0=$(date +%s.%N)
    (cd "$work" && sh -e "b$i.sh" >"b$i.out" 2>"b$i.err")
    rc=$?
    t1=$(date +%s.%N)
    first=$(head -1 "$work/b$i.sh")
    printf '%d\t%s\t%.1f\t%s\n' "$i" "$([ $rc -eq 0 ] && echo ok || echo "FAILED ($rc)")" \
        "$(echo "$t1 - $t0" | bc)" "$first"
    if [ "$rc" -ne 0 ]; then
        fails=$((fails + 1))
        sed 's/^/#   /' "$work/b$i.err" | tail -5
    fi
done
echo "# $i blocks, $fails failed"
[ "$fails" -eq 0 ]
