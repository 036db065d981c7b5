#!/bin/sh
# mpi-mcfvc.sh - topo-mcf --method approx and topo-vc -P under mpirun: np=1
# against np=2 (one thread per rank, so only the ranks differ), whole
# mpirun wall clock, best of REPS (default 3), and whether np=2 printed the
# bytes of np=1 (topo-mcf: its time column blanked).  Skipped when built
# without MPI or mpirun is missing.
#
#   N=1000 D=8 EPS=0.05 SIDES=10,10 PERM=0 sh tests/bench/mpi-mcfvc.sh   (defaults)
#
# topo-mcf: rrg n=N d=D, the uniform pattern (few phases), --eps EPS;
# with PERM=1 also a switch permutation on rrg n=300 d=8 (about 2300
# phases: minutes).  The first trees and every batch round's trees are
# spread over the ranks (topo-mcf(1)); the trees grown again while routing
# are not, nor is the routing itself.  Each topo-mcf case is also run
# without mpirun at --threads 1 and 2.  topo-vc: hyperx
# sides=SIDES, valiant,dor, 2phases, uniform; the arc loads and the per-VC
# shares (two accumulator jobs) are spread, the dependency graph is
# computed on every rank.  The arc loads' job has chunks of 128 sources:
# below 129 switches (SIDES=10,10: 100) it is one chunk, which one rank
# computes whole.
set -eu
N=${N:-1000}
D=${D:-8}
EPS=${EPS:-0.05}
SIDES=${SIDES:-10,10}
REPS=${REPS:-3}
. "$(dirname "$0")/mpi-lib.inc"
topo-gen rrg n="$N" d="$D" -s 1 -o "$W/r.tk"
topo-gen hyperx sides="$SIDES" -o "$W/h.tk"
topo-pattern uniform -o "$W/h.pat" "$W/h.tk"

# the time column blanked, for the byte comparison
notime() { sed -E 's/"time":[-+0-9.eE]+/"time":0/g'; }
BEST_FILTER=notime

echo "# $(nproc) cores, load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf 'case\tnp1_s\tnp2_s\tspeedup\tsame_bytes\n'
row() {
    name=$1
    shift
    t1=$(best mpirun -np 1 --bind-to none "$@")
    cp "$W/out" "$W/out1"
    t2=$(best mpirun -np 2 --bind-to none "$@")
    same=no
    cmp -s "$W/out" "$W/out1" && same=yes
    printf '%s\t%s\t%s\t%.2f\t%s\n' "$name" "$t1" "$t2" "$(echo "$t1 / $t2" | bc -l)" "$same"
}
# threads NAME ARGS...: topo-mcf at --threads 1 and 2, no mpirun.
threads() {
    name=$1
    shift
    t1=$(best topo-mcf --threads 1 "$@")
    cp "$W/out" "$W/out1"
    t2=$(best topo-mcf --threads 2 "$@")
    same=no
    cmp -s "$W/out" "$W/out1" && same=yes
    printf '%s\t%s\t%s\t%.2f\t%s\n' "$name (threads 1 vs 2)" "$t1" "$t2" "$(echo "$t1 / $t2" | bc -l)" "$same"
}
row "topo-mcf approx rrg n=$N d=$D eps=$EPS" topo-mcf --method approx --eps "$EPS" --threads 1 \
    --json "$W/r.tk"
echo "# topo-mcf phases, trees grown again: $(grep -o '"iterations":[0-9]*,"regrown":[0-9]*' "$W/out1")"
threads "topo-mcf approx rrg n=$N d=$D eps=$EPS" --method approx --eps "$EPS" --json "$W/r.tk"
if [ "${PERM:-0}" = 1 ]; then
    topo-gen rrg n=300 d=8 -s 1 -o "$W/p.tk"
    set -- --method approx --eps "$EPS" -m 'switch-perm level=switch' --json "$W/p.tk"
    row "topo-mcf approx switch-perm rrg n=300 d=8 eps=$EPS" topo-mcf --threads 1 "$@"
    echo "# topo-mcf phases, trees grown again: $(grep -o '"iterations":[0-9]*,"regrown":[0-9]*' "$W/out1")"
    threads "topo-mcf approx switch-perm rrg n=300 d=8 eps=$EPS" "$@"
fi
row "topo-vc -P hyperx $SIDES valiant,dor 2phases" topo-vc -r valiant,dor -v 2phases --threads 1 \
    -P "$W/h.pat" "$W/h.tk"
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
