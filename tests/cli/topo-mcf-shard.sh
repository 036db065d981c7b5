#!/bin/sh
# topo-mcf-shard: --shard I/P and topo-merge (issue 24).  The unit is an
# instance (one graph under one pattern), dealt round-robin over the run:
# instance k to shard k mod P.  Shards 0/P .. P-1/P, merged in reverse
# order, give the single run's stdout (the time column and JSON "time"
# blanked: wall time, each shard's own), stderr and exit status: the TSV
# table, --json, --links and both, -r ROUTING (path LPs), --method exact
# and approx, -P files with -m patterns, several graphs and patterns,
# P = 1, 2, 3 and P above the instance count (empty shards); a
# disconnected graph in the middle of the stream (the error line, the
# rows of the other graphs, exit 1) and an exact LP stopped by
# --time-limit (exit 1).  A stream of one-pattern graphs is dealt evenly.
# Refusals: --shard I/P out of range (usage, exit 2), --shard under
# mpirun (with MPI: exit 1, no file); a missing,
# duplicate, truncated or damaged shard, shards of another run or another
# input: one error line, exit 1, no output.
. "$TK_SRCDIR/tests/cli/lib.sh"

cd "$TMPD" || exit 1
topo-gen rrg n=12 d=3 -s 1 >a.topo
topo-gen rrg n=10 d=3 -s 2 >b.topo
topo-gen rrg n=14 d=3 -p 2 -s 3 >c.topo
topo-gen rrg n=60 d=5 -s 3 >r60.topo
printf 'topokit-graph 1\nswitches 4\ndirected 0\nlinks 2\n0 1\n2 3\nend\n' >dis.topo
cat a.topo b.topo c.topo >abc.topo
cat a.topo dis.topo b.topo >adb.topo
topo-pattern switch-perm -s 4 a.topo >a.pat

# wall time blanked: the TSV table's time column (9 of 10) and JSON's
notime() {
    awk -F '\t' 'BEGIN { OFS = "\t" } NF == 10 { $9 = "-" } { print }' |
        sed -E 's/"time":[-+0-9.eE]+/"time":0/g'
}

# mcf_same P ARGS...: the shards (the odd ones with 2 threads and -o, the
# even ones to standard output) merged in reverse order against the
# single run.
mcf_same() {
    local p=$1 i=0 files= src mrc
    shift
    rm -f s[0-9]*
    topo-mcf "$@" >single.raw 2>single.err
    src=$?
    while [ "$i" -lt "$p" ]; do
        if [ $((i % 2)) -eq 1 ]; then
            topo-mcf "$@" --shard "$i/$p" --threads 2 -o "s$i" 2>/dev/null || echo "shard $i failed"
        else
            topo-mcf "$@" --shard "$i/$p" >"s$i" 2>/dev/null || echo "shard $i failed"
        fi
        files="s$i $files"
        i=$((i + 1))
    done
    # shellcheck disable=SC2086
    topo-merge $files >merged.raw 2>merged.err
    mrc=$?
    notime <single.raw >single.out
    notime <merged.raw >merged.out
    sed 's/^topo-mcf:/topo-merge:/' single.err >single.err2
    [ "$mrc" -eq "$src" ] && { [ -s single.out ] || [ "$src" -ne 0 ]; } &&
        cmp -s single.out merged.out && cmp -s single.err2 merged.err
    ok $? "P=$p topo-mcf $*: merge = single run (time blanked)" ||
        diag "rc=$mrc (single $src)" "$(cat merged.err)" "$(diff single.out merged.out | head -5)"
}

set -- -m uniform -m switch-perm abc.topo
mcf_same 1 "$@"
mcf_same 2 "$@"
mcf_same 3 "$@"
mcf_same 8 "$@" # 6 instances: shards 6 and 7 empty
mcf_same 3 --json "$@"
mcf_same 2 --links "$@"
mcf_same 3 --json --links "$@"
mcf_same 2 -r min "$@"
mcf_same 3 -r ksp:2 --links "$@"
mcf_same 4 -r valiant --json -m 'shift offset=1' abc.topo
mcf_same 3 --method approx --eps 0.2 --batch 8 "$@"
mcf_same 2 --method approx --eps 0.2 --json --links "$@"
mcf_same 3 -P a.pat -m uniform a.topo a.topo
mcf_same 2 b.topo c.topo # the default pattern
[ "$(grep -c . single.out)" -eq 3 ]
ok $? "(the last case printed a header and two rows)"

# a graph that is not connected: its error line, the other graphs' rows, exit 1
mcf_same 1 -m uniform -m switch-perm adb.topo
mcf_same 2 -m uniform -m switch-perm adb.topo
mcf_same 3 --json -m uniform -m switch-perm adb.topo
[ "$(grep -c . merged.out)" -eq 4 ] && grep -q 'adb.topo#2: the graph is not connected' merged.err
ok $? "(the last case: four rows, the error of graph 2)"
# an exact LP stopped by its time limit (6 s without it; the small graphs'
# instances take milliseconds), after rows of the graph before it
mcf_same 2 --method exact --time-limit 0.5 -m uniform -m switch-perm a.topo r60.topo
mcf_same 3 --method exact --time-limit 0.5 -m switch-perm -m uniform r60.topo b.topo
grep -q 'time limit of 0.5 s reached' merged.err && [ "$(grep -c . merged.out)" -eq 3 ]
ok $? "(the last case: the time limit's error, the rows of b.topo)"

# approx stopped by its time limit: a certified interval, status
# time-limit; the merge prints each shard's (theta depends on where the
# clock stopped it, so compare the other columns).  At eps 0.0005 these
# solves run for minutes (their gap after 1 s: about 0.05 and 0.012; b.topo
# was here before and converges in 0.3-0.8 s, so on an idle machine it
# beat the limit); their first interval comes in milliseconds.
set -- --method approx --eps 0.0005 --time-limit 1 -m switch-perm a.topo c.topo
topo-mcf "$@" >single.raw
for i in 0 1; do topo-mcf "$@" --shard "$i/2" -o "t$i" 2>/dev/null; done
topo-merge t1 t0 >merged.raw
rc=$?
[ "$rc" -eq 0 ] && [ "$(cut -f 1-3,8,10 single.raw)" = "$(cut -f 1-3,8,10 merged.raw)" ] &&
    [ "$(grep -c 'time-limit$' merged.raw)" -eq 2 ]
ok $? "approx --time-limit: the merge prints each shard's interval and status" ||
    diag "rc=$rc" "$(cat single.raw)" "$(cat merged.raw)"

# dealing: a stream of one-pattern graphs spreads evenly (6 instances, 2
# per shard), and so do the 3 x 2 instances of three graphs
cat a.topo b.topo c.topo a.topo b.topo c.topo >six.topo
for i in 0 1 2; do topo-mcf --shard "$i/3" -o "d$i" six.topo 2>/dev/null; done
[ "$(grep -c '^unit ' d0)" -eq 2 ] && [ "$(grep -c '^unit ' d1)" -eq 2 ] &&
    [ "$(grep -c '^unit ' d2)" -eq 2 ] && grep -q '^dealt 4 count 1 first 3 ' d0
ok $? "one pattern, six graphs, P=3: two instances per shard"
for i in 0 1 2 3; do topo-mcf -m uniform -m switch-perm --shard "$i/4" -o "e$i" abc.topo 2>/dev/null; done
[ "$(grep -c '^unit ' e0)" -eq 2 ] && [ "$(grep -c '^unit ' e1)" -eq 2 ] &&
    [ "$(grep -c '^unit ' e2)" -eq 1 ] && [ "$(grep -c '^unit ' e3)" -eq 1 ] &&
    grep -q '^unit 0 ' e2 && grep -q '^unit 1 ' e3 # instances 2 and 3: graph 2's
ok $? "two patterns, three graphs, P=4: instance k in shard k mod 4"

# --- refusals -------------------------------------------------------------
run topo-mcf --shard 3/3 a.topo
[ "$rc" -eq 2 ] && [ -z "$out" ] && printf '%s\n' "$err" | head -n 1 | grep -q '^topo-mcf: --shard 3/3: I: '
ok $? "--shard I out of range: a usage error" || diag "rc=$rc" "$err"
run topo-mcf --shard 1 a.topo
[ "$rc" -eq 2 ] && [ -z "$out" ] && printf '%s\n' "$err" | head -n 1 | grep -q '^topo-mcf: --shard 1: not I/P'
ok $? "--shard without /P: a usage error" || diag "rc=$rc" "$err"

# --shard under mpirun: refused as the other tools' (exit 1, no file)
if grep -q '^#define HAVE_MPI 1' "$TK_BUILDDIR/config.h" 2>/dev/null && command -v mpirun >/dev/null 2>&1; then
    rm -f mpi.shard
    run env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1 \
        OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader \
        mpirun --oversubscribe -np 2 topo-mcf --shard 0/2 -o mpi.shard a.topo
    [ "$rc" -ne 0 ] && [ ! -e mpi.shard ] &&
        printf '%s\n' "$err" | grep -q '^topo-mcf: --shard runs do not run under MPI$'
    ok $? "--shard under mpirun: refused, no shard file" || diag "rc=$rc" "$err"
fi

for i in 0 1 2; do topo-mcf -m uniform -m switch-perm --shard "$i/3" -o "k$i" abc.topo 2>/dev/null; done
topo-mcf -m uniform -m 'shift offset=1' --shard 1/3 -o other-run abc.topo 2>/dev/null
cat c.topo b.topo a.topo >cba.topo
topo-mcf -m uniform -m switch-perm --shard 1/3 -o other-input cba.topo 2>/dev/null
head -n 20 k1 >trunc
# one hexadecimal digit of the first unit's bytes changed
awk '!done && prev ~ /^unit / { sub(/^./, $0 ~ /^0/ ? "1" : "0"); done = 1 } { print; prev = $0 }' k1 >damaged
merge_refused '^topo-merge: shard 1/3 missing' "a missing shard" k0 k2
merge_refused '^topo-merge: k1: shard 1/3 given twice' "a duplicate shard" k0 k1 k1 k2
merge_refused '^topo-merge: trunc:' "a truncated shard" k0 trunc k2
merge_refused '^topo-merge: damaged:[0-9]+: checksum mismatch' "a damaged shard" k0 damaged k2
merge_refused '^topo-merge: other-run: a shard of .* shards of different runs' \
    "a shard of another run" k0 other-run k2
merge_refused '^topo-merge: other-input:' "a shard of another input" k0 other-input k2
# a -P file edited between the shards and the merge, its spec and demand
# count kept (one weight changed): the demands as read are in the job's
# fingerprint, so the merge refuses rather than print the stale result
topo-pattern switch-perm -s 4 a.topo >edit.pat
for i in 0 1; do topo-mcf -P edit.pat -m uniform --shard "$i/2" -o "e$i" a.topo 2>/dev/null; done
sed 's/^0 \([0-9]*\)$/0 \1 2/' edit.pat >edit2.pat
! cmp -s edit.pat edit2.pat && [ "$(grep -c . edit.pat)" -eq "$(grep -c . edit2.pat)" ]
ok $? "the edited -P file differs in one weight only"
mv edit2.pat edit.pat
merge_refused '^topo-merge: rrg n=12 d=3 s=1: a unit job unlike the shards. one: the input or its files differ' \
    "a -P file whose demands changed since the shards" e0 e1
# the input changed since: its shards agree, the input does not
cp cba.topo abc.topo
merge_refused '^topo-merge: abc.topo: graph 1: not the graph the shards were made from' \
    "shards of another input than the one read" k0 k1 k2

done_testing
