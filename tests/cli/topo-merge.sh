#!/bin/sh
# topo-merge.sh - topo-dist / topo-load --shard I/P and topo-merge (issue 24):
# the merge of shards 0/P .. P-1/P prints the bytes of the single run
# (uneven splits, P = 1, P beyond the number of units, several routing
# models, patterns, every output form, multi-graph standard input), and
# every refusal is one error line, exit 1 (2 for usage), no output.
. "$TK_SRCDIR/tests/cli/lib.sh"

cd "$TMPD" || exit 1
# rrg n=300: topo-dist's 5 source batches (3 shards: 1+2+2); rrg n=400:
# topo-load's 4 chunks of 128 sources (2+1+1); the Dragonfly h=4: 264
# switches, 3 chunks.
topo-gen rrg n=300 d=5 -s 3 >g300.topo
topo-gen rrg n=400 d=6 -s 5 >g400.topo
topo-gen dragonfly h=4 >df4.topo
topo-gen torus sides=9,9 >t99.topo
topo-pattern switch-perm -s 2 g400.topo >perm.pat

shard_same 3 topo-dist g300.topo
shard_same 1 topo-dist g300.topo
shard_same 7 topo-dist g300.topo
shard_same 3 topo-dist --ecc --hist --json g300.topo
shard_same 3 topo-dist --symmetry --ecc t99.topo
shard_same 3 topo-dist --max-diameter 5 t99.topo
shard_same 3 topo-dist "$DATA/io-good-directed.topo"
shard_same 3 topo-load g400.topo
shard_same 9 topo-load g400.topo
shard_same 3 topo-load -r ecmp --hist g400.topo
shard_same 3 topo-load -r valiant --top 5 g400.topo
shard_same 2 topo-load -r ksp:2 --json g400.topo
shard_same 3 topo-load -r min -P perm.pat g400.topo
shard_same 3 topo-load -r dragonfly-valiant --json --top 3 df4.topo

# Several graphs on standard input, the merge reading it again.
{ cat g300.topo t99.topo; } >two.topo
topo-dist --shard 0/2 <two.topo >a0 && topo-dist --shard 1/2 <two.topo >a1
run_in two.topo topo-merge a1 a0
[ "$rc" -eq 0 ] && [ "$out" = "$(topo-dist <two.topo)" ]
ok $? "two graphs on standard input: merge = single run" || diag "$err"

# -o: the merged output into a file.
run_in two.topo topo-merge -o m.out --threads 1 a0 a1
[ "$rc" -eq 0 ] && [ -z "$out" ] && [ "$(cat m.out)" = "$(topo-dist <two.topo)" ]
ok $? "topo-merge -o FILE" || diag "$err"

# --- refusals -------------------------------------------------------------
topo-dist --shard 0/3 g300.topo >d0
topo-dist --shard 1/3 g300.topo >d1
topo-dist --shard 2/3 g300.topo >d2

run topo-merge d0 d2
expect_fail 1 "^topo-merge: shard 1/3 missing \(2 of 3 shards given\)$" "a missing shard"
run topo-merge d0 d1 d1 d2
expect_fail 1 "^topo-merge: d1: shard 1/3 given twice \(also d1\)$" "a duplicate shard"
topo-dist --shard 1/2 g300.topo >p1
run topo-merge d0 p1 d2
expect_fail 1 "^topo-merge: p1: shard 1/2, d0 is 0/3: shards of different splits$" "shards of different P"
topo-dist --hist --shard 1/3 g300.topo >h1
run topo-merge d0 h1 d2
expect_fail 1 "^topo-merge: h1: a shard of 'topo-dist --hist g300.topo', d0 of 'topo-dist g300.topo': shards of different runs$" \
    "shards of different arguments"
topo-dist --shard 1/3 <g300.topo >i1
run topo-merge d0 i1 d2
expect_fail 1 "^topo-merge: i1: a shard of 'topo-dist', d0 of 'topo-dist g300.topo'" "shards of different input operands"
topo-gen rrg n=300 d=5 -s 4 >other.topo
topo-dist --shard 1/3 <other.topo >o1
topo-dist --shard 0/3 <g300.topo >o0
run topo-merge o0 o1
expect_fail 1 "^topo-merge: o1:7: this graph differs from o0:7: shards of different inputs$" "shards of different graphs"
topo-load --shard 1/3 g300.topo >l1
run topo-merge d0 l1 d2
expect_fail 1 "^topo-merge: l1:2: a shard of topo-load, not of topo-dist$" "shards of different tools"
topo-load -P perm.pat --shard 0/2 g400.topo >q0
topo-pattern switch-perm -s 3 g400.topo >perm3.pat
topo-load -P perm3.pat --shard 1/2 g400.topo >q1
cp perm3.pat perm.pat.keep
run topo-merge q0 q1
expect_fail 1 "^topo-merge: q1: a shard of 'topo-load -P perm3.pat g400.topo', q0 of 'topo-load -P perm.pat g400.topo'" \
    "shards of different pattern files"
# The same pattern file name with other contents: the job fingerprint.
topo-pattern switch-perm -s 3 g400.topo >perm.pat
topo-load -P perm.pat --shard 1/2 g400.topo >q1
run topo-merge q0 q1
expect_fail 1 "^topo-merge: q1:11: this job differs from q0:11: shards of different inputs$" \
    "shards of different pattern contents"

# The merge's input differs from the shards': one line, no output.
topo-dist --shard 1/3 <g300.topo >o1
topo-dist --shard 2/3 <g300.topo >o2
run_in other.topo topo-merge o0 o1 o2
expect_fail 1 "^topo-merge: <stdin>: graph 1: not the graph the shards were made from \(o0\)$" \
    "the merge's input is another graph"
run_in two.topo topo-merge o0 o1 o2
expect_fail 1 "^topo-merge: <stdin>: graph 2: the shards were made from an input with fewer graphs \(o0\)$" \
    "the merge's input has more graphs"
topo-dist --shard 0/2 <two.topo >w0
topo-dist --shard 1/2 <two.topo >w1
run_in g300.topo topo-merge w0 w1
expect_fail 1 "^topo-merge: w0:[0-9]+: the shards were made from an input with more graphs" \
    "the merge's input has fewer graphs"

# Truncated and damaged files.
head -c 200 d1 >t1
run topo-merge d0 t1 d2
expect_fail 1 "^topo-merge: t1:[0-9]+: truncated" "a truncated shard"
head -n 12 d1 >t1
run topo-merge d0 t1 d2
expect_fail 1 "^topo-merge: t1:[0-9]+: truncated: job at line 9 has [0-9]+ of its 603 entries$" "a shard cut at a line end"
grep -v '^end ' d1 >t1
run topo-merge d0 t1 d2
expect_fail 1 "^topo-merge: t1:[0-9]+: truncated: no 'end' line" "a shard without its end line"
# Change one entry: line 10 is the job's first entry.
awk 'NR == 10 { $0 = $0 "1" } { print }' d1 >c1
run topo-merge d0 c1 d2
expect_fail 1 "^topo-merge: c1:9: job 1: checksum mismatch in its entries \(lines 10-[0-9]+\): the file is damaged$" \
    "a damaged entry"
sed 's/^job 1 units 5 /job 1 units 6 /' d1 >c1
run topo-merge d0 c1 d2
expect_fail 1 "^topo-merge: c1:" "a damaged job line"
sed 's/^arg g300.topo$/arg g301.topo/' d1 >c1
run topo-merge d0 c1 d2
expect_fail 1 "^topo-merge: c1:[0-9]+: checksum mismatch: the file is damaged$" "a damaged header (the end checksum)"
printf 'hello\n' >junk
run topo-merge junk d1
expect_fail 1 "^topo-merge: junk:1: not a topokit shard file" "not a shard file"
sed 's/^tool topo-dist$/tool rm/' d0 >x0
run topo-merge x0 d1 d2
expect_fail 1 "^topo-merge: x0:2: tool 'rm': not a tool that writes shards$" "a shard naming another program"
run topo-merge does-not-exist d1
expect_fail 1 "^topo-merge: does-not-exist: No such file or directory$" "a missing shard file"

# Usage.
run topo-merge
[ "$rc" -eq 2 ] && [ -z "$out" ] && [ "$(printf '%s\n' "$err" | head -n 1)" = "topo-merge: no shard files" ]
ok $? "no operands is a usage error" || diag "rc=$rc" "$err"
run topo-merge - d1
[ "$rc" -eq 2 ] && [ -z "$out" ] && printf '%s\n' "$err" | head -n 1 | grep -q "^topo-merge: -: shards are files"
ok $? "standard input as a shard is a usage error" || diag "rc=$rc" "$err"
for bad in 3/3 x 1/0 1 -1/2 1/x; do
    run topo-dist --shard "$bad" g300.topo
    [ "$rc" -eq 2 ] && [ -z "$out" ] && printf '%s\n' "$err" | head -n 1 | grep -q "^topo-dist: --shard $bad: "
    ok $? "topo-dist --shard $bad is a usage error" || diag "rc=$rc" "$err"
done
run topo-load --shard 0/2 -P nonexistent.pat g400.topo
[ "$rc" -eq 1 ] && [ -z "$out" ]
ok $? "a shard run that fails writes nothing" || diag "rc=$rc" "$err"
run topo-load --shard 0/2 -o fail.shard -P nonexistent.pat g400.topo
[ "$rc" -eq 1 ] && [ ! -e fail.shard ]
ok $? "a shard run that fails leaves no -o file" || diag "rc=$rc" "$err"

# Under mpirun (configure --with-mpi): refused, one line from rank 0.
if grep -q '^#define HAVE_MPI 1' "$TK_BUILDDIR/config.h" 2>/dev/null && command -v mpirun >/dev/null 2>&1; then
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 \
        OMP_NUM_THREADS=1 run mpirun --oversubscribe -np 2 topo-dist --shard 0/2 -o mpi.shard g300.topo
    lines=$(printf '%s\n' "$err" | grep -c '^topo-dist:')
    [ "$rc" -ne 0 ] && [ "$lines" -eq 1 ] && [ -z "$out" ] && [ ! -e mpi.shard ] &&
        printf '%s\n' "$err" | grep -q '^topo-dist: --shard runs do not run under MPI$'
    ok $? "--shard under mpirun: one error line, no shard" || diag "rc=$rc" "$err"
fi
done_testing
