#!/bin/sh
# mpi-tools: topo-ksp, topo-paths, topo-medoid, topo-antmill, topo-sim --sweep,
# topo-mcf --method approx and topo-vc -P under mpirun (configure --with-mpi)
# give the bytes of a run without mpirun at np = 1, 2, 3, on graphs whose
# units (targets, sources, sampled target groups, in blocks handed out
# dynamically) do not split evenly over the ranks; topo-paths --pairs
# gathers its rows in several rounds; a failing unit makes every rank stop
# with the error of one process, on one line, and no output file.  Skipped
# without MPI.  Each mpirun costs about a second of CPU: keep them few.
. "$TK_SRCDIR/tests/cli/lib.sh"

grep -q '^#define HAVE_MPI 1' "$TK_BUILDDIR/config.h" 2>/dev/null ||
    skip_all "built without MPI (configure --with-mpi)"
command -v mpirun >/dev/null 2>&1 || skip_all "no mpirun"
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM OMPI_MCA_rmaps_base_oversubscribe
OMP_NUM_THREADS=1 OMPI_MCA_mpi_yield_when_idle=1
export OMP_NUM_THREADS OMPI_MCA_mpi_yield_when_idle
# Shared memory only (topokit(7), SCALING): half the start-up of Open MPI's
# default transport probe; tests/cli/mpi.sh keeps the default.
OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader
export OMPI_MCA_pml OMPI_MCA_btl
unset TOPOKIT_MEMORY_LIMIT
mp() {
    np=$1
    shift
    mpirun --oversubscribe -np "$np" "$@"
}
# same NP WANTFILE TOOL ARGS...: the bytes of one process, exit 0.
same() {
    np=$1 want=$2
    shift 2
    run mp "$np" "$@"
    [ "$rc" -eq 0 ] && [ "$out" = "$(cat "$want")" ]
    ok $? "$* at np=$np: the bytes of one process" || diag "exit $rc" "$err"
}
# fails NP TOOL ARGS...: exit 1, the one error line of one process
# ($TMPD/err.want), no output file.
fails() {
    np=$1
    shift
    rm -f "$TMPD/fail.out"
    run mp "$np" "$@" -o "$TMPD/fail.out"
    lines=$(printf '%s\n' "$err" | grep -c "^$1:")
    [ "$rc" -eq 1 ] && [ -z "$out" ] && [ "$lines" -eq 1 ] && [ ! -e "$TMPD/fail.out" ] &&
        [ "$(printf '%s\n' "$err" | grep "^$1:")" = "$(cat "$TMPD/err.want")" ]
    ok $? "$* at np=$np: one error line, exit 1, no file" || diag "exit $rc" "$err"
}

# 101 switches (k-shortest blocks of one target: 101 = 34/34/33 at np=3),
# a torus, 300 switches (topo-paths blocks of 8 sources: 38 blocks).
topo-gen rrg n=101 d=4 -s 3 -o "$TMPD/r.tk" || exit 1
topo-gen torus sides=5,7 -o "$TMPD/t.tk" || exit 1
topo-gen kautz d=2 D=4 -o "$TMPD/k.tk" || exit 1
topo-gen rrg n=300 d=6 -s 3 -o "$TMPD/small.tk" || exit 1
cat "$TMPD/r.tk" "$TMPD/t.tk" "$TMPD/k.tk" >"$TMPD/all.tk"

# topo-ksp: all pairs (k shortest and ALLPATH units), a sample (target
# groups), raw paths; a raw-path count beyond 2^64 on every rank.
topo-ksp -k 4 --allpath 3 --json "$TMPD/all.tk" >"$TMPD/ksp1.want" || exit 1
same 2 "$TMPD/ksp1.want" topo-ksp -k 4 --allpath 3 --json "$TMPD/all.tk"
topo-ksp --pairs 500 -s 7 -k 5 --allpath 3 "$TMPD/all.tk" >"$TMPD/ksp2.want" || exit 1
same 3 "$TMPD/ksp2.want" topo-ksp --pairs 500 -s 7 -k 5 --allpath 3 "$TMPD/all.tk"
topo-ksp --allpath 4 --raw --json "$TMPD/all.tk" >"$TMPD/ksp3.want" || exit 1
same 1 "$TMPD/ksp3.want" topo-ksp --allpath 4 --raw --json "$TMPD/all.tk"
topo-ksp --allpath 40 --raw "$TMPD/r.tk" 2>"$TMPD/err.want" >/dev/null
fails 3 topo-ksp --allpath 40 --raw "$TMPD/r.tk"

# topo-paths: the summary; per-pair rows (about 3 MB: gathered in rounds
# of about 1 MB); a count beyond 2^128 (3^81 shortest paths between the
# ends of a path of tripled links) found by whichever rank, reported as by
# one process.
topo-paths --json "$TMPD/all.tk" >"$TMPD/paths1.want" || exit 1
same 3 "$TMPD/paths1.want" topo-paths --json "$TMPD/all.tk"
topo-paths --pairs "$TMPD/small.tk" >"$TMPD/paths2.want" || exit 1
same 2 "$TMPD/paths2.want" topo-paths --pairs "$TMPD/small.tk"
tripled_path 82 >"$TMPD/t82.topo"
topo-paths --pairs "$TMPD/t82.topo" 2>"$TMPD/err.want" >/dev/null
fails 3 topo-paths --pairs "$TMPD/t82.topo"
# ... and the next graph of the input is summarised as by one process.
cat "$TMPD/t82.topo" "$TMPD/r.tk" >"$TMPD/mix.tk"
topo-paths "$TMPD/mix.tk" >"$TMPD/mix.want" 2>"$TMPD/mixerr.want"
run mp 2 topo-paths "$TMPD/mix.tk"
[ "$rc" -eq 1 ] && [ "$out" = "$(cat "$TMPD/mix.want")" ] && [ -n "$out" ] &&
    [ "$(printf '%s\n' "$err" | grep '^topo-paths:')" = "$(cat "$TMPD/mixerr.want")" ]
ok $? "topo-paths at np=2: the overflowing graph's error line, then the next graph's rows" ||
    diag "exit $rc" "$err"

# topo-medoid: 7 samples (3/2/2 or any dynamic split at np=3); sample i
# from (seed, i) on whichever rank; the medoid graph and the table.
topo-medoid rrg n=40 d=4 --samples 7 -s 3 --table "$TMPD/tab.want" -o "$TMPD/med.want" || exit 1
run mp 3 topo-medoid rrg n=40 d=4 --samples 7 -s 3 --table "$TMPD/tab.got" -o "$TMPD/med.got"
[ "$rc" -eq 0 ] && cmp -s "$TMPD/tab.want" "$TMPD/tab.got" && cmp -s "$TMPD/med.want" "$TMPD/med.got"
ok $? "topo-medoid at np=3: the table and medoid of one process" || diag "exit $rc" "$err"

# topo-antmill: random starts handed out to the ranks in rounds of one
# start per rank (after the two quick starts), read in start order: here
# the seventh start decides (rounds 2-3, 4-5, 6-7 at np=2; 2-4, 5-7 at
# np=3).  A rank whose memory limit refuses the unique-path table (MPMD:
# ranks 1 and 2 get a limit) stops every rank with its one error line.
topo-gen rrg n=150 d=4 -s 2 -o "$TMPD/r150.tk" || exit 1
set -- --delta 3 -s 1 --starts 3 -o - "$TMPD/r150.tk"
topo-antmill "$@" >"$TMPD/am.want" || exit 1
same 1 "$TMPD/am.want" topo-antmill "$@"
same 2 "$TMPD/am.want" topo-antmill "$@"
same 3 "$TMPD/am.want" topo-antmill "$@"
# --max-delta with the row (its time column cut): the distance summary
# and uniform load over the ranks too, the warning of one process.
topo-gen rrg n=60 d=6 -s 2 -p 2 -o "$TMPD/r60.tk" || exit 1
topo-antmill -s 2 "$TMPD/r60.tk" 2>"$TMPD/amerr.want" | cut -f 1-13 >"$TMPD/am.want" || exit 1
out=$(mp 2 topo-antmill -s 2 "$TMPD/r60.tk" 2>"$TMPD/amerr.got" | cut -f 1-13)
[ "$out" = "$(cat "$TMPD/am.want")" ] && [ "$(grep '^topo-antmill:' "$TMPD/amerr.got")" = "$(cat "$TMPD/amerr.want")" ]
ok $? "topo-antmill --max-delta at np=2: the row and warning of one process" || cat "$TMPD/amerr.got" >&2
topo-gen ring n=3000 -o "$TMPD/ring.tk" || exit 1
set -- --delta 1 --no-uniform -o "$TMPD/fail.out" "$TMPD/ring.tk"
TOPOKIT_MEMORY_LIMIT=600000 topo-antmill "$@" 2>"$TMPD/err.want" >/dev/null
rm -f "$TMPD/fail.out"
run timeout 120 mpirun --oversubscribe -np 1 topo-antmill "$@" : -np 2 env TOPOKIT_MEMORY_LIMIT=600000 topo-antmill "$@"
[ "$rc" -ne 0 ] && [ -z "$out" ] && [ ! -e "$TMPD/fail.out" ] && grep -q 'memory limit' "$TMPD/err.want" &&
    [ "$(printf '%s\n' "$err" | grep '^topo-antmill:')" = "$(cat "$TMPD/err.want")" ]
ok $? "topo-antmill at np=3, ranks 1-2 over their memory limit: one error line, no file" ||
    diag "exit $rc" "$err"

# topo-antmill --exact: rank 0 runs the SAT solver (on its clock), the
# other ranks wait for its record: the bytes and warning of one process,
# the solver run once whatever the ranks (a logging wrapper), a solver
# that fails and one that runs out of its time limit as in one process.
if command -v cadical >/dev/null 2>&1; then
    topo-gen rrg n=16 d=3 -s 2 -o "$TMPD/g16.tk" || exit 1
    topo-gen rrg n=150 d=3 -s 4 -o "$TMPD/h150.tk" || exit 1
    printf '#!/bin/sh\necho run >>"%s/solver.log"\nexec cadical "$@"\n' "$TMPD" >"$TMPD/logsolver"
    printf '#!/bin/sh\necho garbage\nexit 3\n' >"$TMPD/badsolver"
    printf '#!/bin/sh\nexec sleep 30\n' >"$TMPD/slowsolver"
    chmod +x "$TMPD/logsolver" "$TMPD/badsolver" "$TMPD/slowsolver"
    # exact_same NP ARGS...: stdout, the topo-antmill: lines of stderr and
    # the exit status of one process, and as many solver runs
    exact_same() {
        np=$1
        shift
        rm -f "$TMPD/solver.log"
        topo-antmill "$@" >"$TMPD/ex.want" 2>"$TMPD/exerr.want"
        wrc=$?
        runs=$(cat "$TMPD/solver.log" 2>/dev/null | wc -l)
        rm -f "$TMPD/solver.log"
        run mp "$np" topo-antmill "$@"
        [ "$rc" -eq "$wrc" ] && [ "$out" = "$(cat "$TMPD/ex.want")" ] &&
            [ "$(printf '%s\n' "$err" | grep '^topo-antmill:')" = "$(cat "$TMPD/exerr.want")" ] &&
            [ "$(cat "$TMPD/solver.log" 2>/dev/null | wc -l)" -eq "$runs" ]
        ok $? "topo-antmill $* at np=$np: one process's bytes, $runs solver runs" ||
            diag "exit $rc (want $wrc)" "$err"
    }
    for np in 1 2 3; do
        exact_same "$np" --exact="$TMPD/logsolver" --max-delta --no-uniform -o - "$TMPD/g16.tk"
        exact_same "$np" --exact="$TMPD/logsolver" --delta 3 --no-uniform -o - "$TMPD/h150.tk"
    done
    exact_same 3 --exact="$TMPD/logsolver" --delta 2 --no-uniform "$TMPD/g16.tk"
    exact_same 2 --exact="$TMPD/logsolver" --hat "$TK_SRCDIR/data/petersen.topo"
    exact_same 3 --exact="$TMPD/badsolver" --hat --no-uniform "$TK_SRCDIR/data/petersen.topo"
    exact_same 2 --exact="$TMPD/slowsolver" --time-limit 0.3 --max-delta -o - "$TMPD/g16.tk"
fi

# topo-sim sweeps: the offered loads over the ranks; the rows, the
# warnings of the points without a fixed point (in sweep order, from rank
# 0), --per-server and --flows of the last point; an adaptive rule (its
# hop weights cross too).
topo-gen dragonfly h=2 -o "$TMPD/df.tk" || exit 1
topo-gen dragonfly h=1 -o "$TMPD/df1.tk" || exit 1
set -- -r dragonfly-valiant -a rr --max-sweeps 5 --sweep 0.3:0.9:0.3
topo-sim "$@" --per-server "$TMPD/ps.want" "$TMPD/df.tk" >"$TMPD/sim.want" 2>"$TMPD/simerr.want"
run mp 3 topo-sim "$@" --per-server "$TMPD/ps.got" "$TMPD/df.tk"
[ "$rc" -eq 0 ] && [ "$out" = "$(cat "$TMPD/sim.want")" ] && [ "$err" = "$(cat "$TMPD/simerr.want")" ] &&
    cmp -s "$TMPD/ps.want" "$TMPD/ps.got" && grep -q 'no fixed point' "$TMPD/simerr.want"
ok $? "topo-sim $* at np=3: rows, warnings and --per-server of one process" || diag "exit $rc" "$err"
set -- -r ugal-l --sweep 0.2:0.8:0.3 --json
topo-sim "$@" --flows "$TMPD/fl.want" "$TMPD/df1.tk" >"$TMPD/sim.want" || exit 1
run mp 2 topo-sim "$@" --flows "$TMPD/fl.got" "$TMPD/df1.tk"
[ "$rc" -eq 0 ] && [ "$out" = "$(cat "$TMPD/sim.want")" ] && cmp -s "$TMPD/fl.want" "$TMPD/fl.got"
ok $? "topo-sim $* at np=2: rows and --flows of one process" || diag "exit $rc" "$err"
# --trace is one file in solve order: refused with several ranks (exit 2,
# no trace file, nothing on standard output)
rm -f "$TMPD/tr.tsv"
run mp 2 topo-sim -r ugal-l --sweep 0.2:0.8:0.3 --trace "$TMPD/tr.tsv" "$TMPD/df1.tk"
[ "$rc" -eq 2 ] && [ -z "$out" ] && [ ! -e "$TMPD/tr.tsv" ] &&
    printf '%s\n' "$err" | grep -q '^topo-sim: --trace writes one file in solve order: not under mpirun with 2 ranks$'
ok $? "topo-sim --trace at np=2: a usage error" || diag "exit $rc" "$err"

# topo-mcf --method approx: the first trees (blocks of 4 sources: 37 =
# 10 blocks, 35 = 9, dealt dynamically) and every batch round's trees
# (--batch 8: 37 = 4 x 8 + 5 sources, 35 = 4 x 8 + 3, one source per unit)
# over the ranks, the routing on every rank; the rows of one process but
# for the wall-clock time column (JSON "time" blanked), with trees grown
# again while routing (regrown > 0) in three of the four rows, at np = 1,
# 2, 3 and at np = 2 with 2 threads per rank; a pattern made for another
# topology: one error line.
topo-gen rrg n=37 d=4 -s 3 -o "$TMPD/r37.tk" || exit 1
cat "$TMPD/r37.tk" "$TMPD/t.tk" >"$TMPD/mcf.tk"
notime() { sed -E 's/"time":[-+0-9.eE]+/"time":0/g'; }
set -- --method approx --eps 0.2 --batch 8 -m 'switch-perm level=switch' -m uniform --json "$TMPD/mcf.tk"
topo-mcf "$@" | notime >"$TMPD/mcf.want" || exit 1
for how in 1 2 3 2t; do
    case $how in
    2t) run mp 2 topo-mcf --threads 2 "$@" ;;
    *) run mp $how topo-mcf "$@" ;;
    esac
    [ "$rc" -eq 0 ] && [ "$(printf '%s\n' "$out" | notime)" = "$(cat "$TMPD/mcf.want")" ] &&
        [ "$(grep -c converged "$TMPD/mcf.want")" -eq 4 ] &&
        [ "$(grep -c '"regrown":[1-9]' "$TMPD/mcf.want")" -eq 3 ]
    ok $? "topo-mcf $* at np=$how (2t: 2 threads per rank): the rows of one process (time blanked)" ||
        diag "exit $rc" "$err"
done
# --time-limit: rank 0's clock decides after each phase, so the ranks,
# which grow every round's trees together, stop at the same phase (each
# rank's own clock could stop one rank a phase before the others, which
# would then wait in the next round forever): one row, status time-limit.
topo-gen rrg n=300 d=8 -s 1 -o "$TMPD/r300.tk" || exit 1
run timeout 120 mpirun --oversubscribe -np 2 topo-mcf --method approx --eps 0.01 --time-limit 0.5 \
    -m 'switch-perm level=switch' "$TMPD/r300.tk"
[ "$rc" -eq 0 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 2 ] &&
    [ "$(printf '%s\n' "$out" | sed 1d | awk -F'\t' '{ print $NF }')" = time-limit ]
ok $? "topo-mcf --time-limit at np=2: the ranks stop together, status time-limit" ||
    diag "exit $rc" "$out" "$err"
topo-pattern shift offset=1 -o "$TMPD/t.pat" "$TMPD/t.tk" || exit 1
topo-mcf --method approx -P "$TMPD/t.pat" "$TMPD/r37.tk" 2>"$TMPD/err.want" >/dev/null
fails 3 topo-mcf --method approx -P "$TMPD/t.pat" "$TMPD/r37.tk"

# topo-vc -P: the arc loads and the per-VC shares over the ranks (two
# accumulator jobs of 35 and 37 sources, split unevenly); the row and the
# --vc-loads file of one process; too many paths for --max-paths: one
# error line.
topo-pattern uniform -o "$TMPD/tu.pat" "$TMPD/t.tk" || exit 1
topo-pattern switch-perm level=switch -s 4 -o "$TMPD/r37.pat" "$TMPD/r37.tk" || exit 1
set -- -r valiant -v 2phases,minboth -P "$TMPD/tu.pat" "$TMPD/t.tk"
topo-vc "$@" --vc-loads "$TMPD/vl.want" >"$TMPD/vc.want" || exit 1
run mp 3 topo-vc "$@" --vc-loads "$TMPD/vl.got"
[ "$rc" -eq 0 ] && [ "$out" = "$(cat "$TMPD/vc.want")" ] && cmp -s "$TMPD/vl.want" "$TMPD/vl.got" &&
    [ "$(wc -l <"$TMPD/vl.want")" -gt 100 ]
ok $? "topo-vc $* at np=3: the row and --vc-loads of one process" || diag "exit $rc" "$err"
topo-vc -r ksp:3 -v ladder-reuse -P "$TMPD/r37.pat" --json "$TMPD/r37.tk" >"$TMPD/vc2.want" || exit 1
same 2 "$TMPD/vc2.want" topo-vc -r ksp:3 -v ladder-reuse -P "$TMPD/r37.pat" --json "$TMPD/r37.tk"
same 1 "$TMPD/vc2.want" topo-vc -r ksp:3 -v ladder-reuse -P "$TMPD/r37.pat" --json "$TMPD/r37.tk"
topo-vc -r valiant -v 2phases -P "$TMPD/r37.pat" --max-paths 5 "$TMPD/r37.tk" 2>"$TMPD/err.want" >/dev/null
fails 2 topo-vc -r valiant -v 2phases -P "$TMPD/r37.pat" --max-paths 5 "$TMPD/r37.tk"

done_testing
