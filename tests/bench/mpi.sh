#!/bin/sh
# mpi.sh - strong scaling of topo-dist and topo-load under mpirun (np=1 vs
# np=2, one thread per rank so that only the ranks differ), and the
# per-unit costs the extrapolation table of RESULTS.md is computed from.
# Skipped when topo-dist was built without MPI or mpirun is missing.
#
#   N=20000 D=16 sh tests/bench/mpi.sh      (defaults)
#
# What is timed: the whole mpirun (start-up ~0.15 s on an idle machine,
# reading the graph on every rank, the summary, girth for topo-dist);
# wall-clock seconds, best of REPS (default 3) alternating np=1/np=2
# runs.  Output bytes of np=2 are compared with np=1's.  Beside it, the
# fixed cost of a run at each rank count (the same command on a 9-switch
# torus) and the speed-up of what is left
# (net_speedup = (np1 - fixed1) / (np2 - fixed2)).
set -eu
N=${N:-20000}
D=${D:-16}
REPS=${REPS:-3}
. "$(dirname "$0")/mpi-lib.inc"
topo-gen rrg n="$N" d="$D" -s 1 -o "$W/g.tk"


echo "# rrg n=$N d=$D, $(nproc) cores, load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
# The fixed cost of each run at that rank count: the same tool under the
# same mpirun on a 9-switch torus (launcher, MPI start-up and shut-down,
# the program's own start).  net = whole - fixed: the part that the ranks
# can share.
topo-gen torus sides=3,3 -o "$W/tiny.tk"
printf 'tool\tnp1_s\tnp2_s\tspeedup\tfixed1_s\tfixed2_s\tnet_speedup\tsame_bytes\n'
# np=1 and np=2 runs alternate (REPS pairs, the best of each kept): this
# machine's speed drifts by minutes, and REPS np=1 runs followed by REPS
# np=2 runs would measure the drift as much as the ranks.
min() { if [ -z "$1" ] || [ "$(echo "$2 < $1" | bc)" -eq 1 ]; then echo "$2"; else echo "$1"; fi; }
for tool in "topo-dist" "topo-load"; do
    f1=$(best mpirun -np 1 --bind-to none $tool --threads 1 "$W/tiny.tk")
    f2=$(best mpirun -np 2 --bind-to none $tool --threads 1 "$W/tiny.tk")
    t1= t2= same=yes i=0
    while [ "$i" -lt "$REPS" ]; do
        t1=$(min "$t1" "$(REPS=1 best mpirun -np 1 --bind-to none $tool --threads 1 "$W/g.tk")")
        cp "$W/out" "$W/out1"
        t2=$(min "$t2" "$(REPS=1 best mpirun -np 2 --bind-to none $tool --threads 1 "$W/g.tk")")
        cmp -s "$W/out" "$W/out1" || same=no
        i=$((i + 1))
    done
    printf '%s\t%s\t%s\t%.2f\t%s\t%s\t%.2f\t%s\n' "$tool" "$t1" "$t2" "$(echo "$t1 / $t2" | bc -l)" \
        "$f1" "$f2" "$(echo "($t1 - $f1) / ($t2 - $f2)" | bc -l)" "$same"
done
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
