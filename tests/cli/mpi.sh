#!/bin/sh
# mpi: topo-dist and topo-load under mpirun (configure --with-mpi) give the
# bytes of a run without mpirun at np = 1, 2, 3, on graphs whose units do
# not split evenly over the ranks (1000 sources in chunks of 128: 3/3/2
# chunks at np=3; 300 sources: 2/1 at np=2; topo-dist's 8 batches of 128
# sources at n=1000: 3/3/2; a graph of one chunk leaves ranks idle); a rank that
# fails alone makes every rank stop with one error line from rank 0, a
# non-zero status and no output file; standard input is refused with
# several ranks.  Skipped without MPI.
. "$TK_SRCDIR/tests/cli/lib.sh"

grep -q '^#define HAVE_MPI 1' "$TK_BUILDDIR/config.h" 2>/dev/null ||
    skip_all "built without MPI (configure --with-mpi)"
command -v mpirun >/dev/null 2>&1 || skip_all "no mpirun"
# CI runs as root; Open MPI refuses that unless told.  --oversubscribe:
# more ranks than cores.
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM OMPI_MCA_rmaps_base_oversubscribe
# One thread per rank and ranks that yield while they wait: np=3 on 2 cores.
OMP_NUM_THREADS=1 OMPI_MCA_mpi_yield_when_idle=1
export OMP_NUM_THREADS OMPI_MCA_mpi_yield_when_idle
unset TOPOKIT_MEMORY_LIMIT
mp() {
    np=$1
    shift
    mpirun --oversubscribe -np "$np" "$@"
}

topo-gen rrg n=1000 d=6 -s 3 -o "$TMPD/rrg.tk" || exit 1
topo-gen rrg n=300 d=6 -s 3 -o "$TMPD/small.tk" || exit 1
topo-gen dragonfly h=4 -o "$TMPD/df.tk" || exit 1
topo-gen torus sides=12,13 -o "$TMPD/torus.tk" || exit 1
cat "$TMPD/rrg.tk" "$TMPD/df.tk" "$TMPD/torus.tk" >"$TMPD/all.tk"

# topo-dist: every graph, eccentricities and histogram, and --max-diameter
# (the stop of one rank's batch reaches every rank).
topo-dist --ecc --hist --json "$TMPD/all.tk" >"$TMPD/dist.want" || exit 1
for np in 2 3; do
    run mp "$np" topo-dist --ecc --hist --json "$TMPD/all.tk"
    [ "$rc" -eq 0 ] && [ "$out" = "$(cat "$TMPD/dist.want")" ]
    ok $? "topo-dist at np=$np: the bytes of one process" || diag "exit $rc" "$err"
done
topo-dist --max-diameter 5 "$TMPD/rrg.tk" >"$TMPD/maxd.want"
run mp 2 topo-dist --max-diameter 5 "$TMPD/rrg.tk"
[ "$out" = "$(cat "$TMPD/maxd.want")" ] && printf '%s\n' "$out" | grep -q '>5'
ok $? "topo-dist --max-diameter at np=2: the '>5' row of one process"

# topo-load: routing models over the ranks (sources, destinations or the
# generic per-pair engine, whichever the model uses).
for spec in "rrg.tk min 3" "small.tk ecmp 2" "small.tk ksp:3 3" "small.tk valiant 2" \
    "df.tk dragonfly-valiant 3" "torus.tk valiant,dor 2"; do
    set -- $spec
    topo-load -r "$2" --top 20 --json "$TMPD/$1" >"$TMPD/load.want" || exit 1
    run mp "$3" topo-load -r "$2" --top 20 --json "$TMPD/$1"
    [ "$rc" -eq 0 ] && [ "$out" = "$(cat "$TMPD/load.want")" ]
    ok $? "topo-load -r $2 on $1 at np=$3: the bytes of one process" || diag "exit $rc" "$err"
done
topo-load "$TMPD/all.tk" >"$TMPD/load.want"
run mp 1 topo-load -o "$TMPD/load1.tsv" "$TMPD/all.tk"
cmp -s "$TMPD/load1.tsv" "$TMPD/load.want"
ok $? "topo-load -o at np=1: the file of one process"

# A rank that fails alone: ranks 1 and 2 see a memory limit below the load
# workspace (256064 bytes) but above the graph (242 KB), so they fail
# before the job while rank 0 is inside it.  Every rank stops; rank 0
# prints the one error line (the lowest failing rank's); no file.
run mpirun --oversubscribe -np 1 topo-load -o "$TMPD/fail.tsv" "$TMPD/rrg.tk" : \
    -np 2 env TOPOKIT_MEMORY_LIMIT=250000 topo-load -o "$TMPD/fail.tsv" "$TMPD/rrg.tk"
lines=$(printf '%s\n' "$err" | grep -c '^topo-load:')
[ "$rc" -ne 0 ] && [ "$lines" -eq 1 ] && [ -z "$out" ] && [ ! -e "$TMPD/fail.tsv" ] &&
    printf '%s\n' "$err" | grep -q '^topo-load: .*rrg.tk: graph 1: link loads need about 256064 bytes.*memory limit of 250000 bytes'
ok $? "one failing rank: one error line from rank 0, exit $rc, no output file" || diag "$err"
# The memory check counts per rank: the default limit is the node's memory
# shared by its ranks; an explicit TOPOKIT_MEMORY_LIMIT is per rank.
run mp 2 env TOPOKIT_MEMORY_LIMIT=250000 topo-load "$TMPD/rrg.tk"
lines=$(printf '%s\n' "$err" | grep -c '^topo-load:')
[ "$rc" -ne 0 ] && [ "$lines" -eq 1 ] && [ -z "$out" ]
ok $? "TOPOKIT_MEMORY_LIMIT is per rank: the same refusal at np=2" || diag "$err"

# Standard input reaches rank 0 only: refused with several ranks.
run mp 2 topo-dist <"$TMPD/rrg.tk"
lines=$(printf '%s\n' "$err" | grep -c '^topo-dist:')
[ "$rc" -eq 1 ] && [ -z "$out" ] && [ "$lines" -eq 1 ] &&
    printf '%s\n' "$err" | grep -q 'standard input cannot be read by 2 MPI ranks'
ok $? "stdin with 2 ranks: one error line" || diag "$err"

done_testing
