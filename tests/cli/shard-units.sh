#!/bin/sh
# shard-units.sh - --shard I/P and topo-merge for the tools whose work is
# independent units with byte results (cli_mpi_units: topo-ksp, topo-paths,
# topo-medoid, topo-sim --sweep, topo-vc -P; issue 24): shards 0/P .. P-1/P merged
# equal the single run byte for byte (uneven splits, P = 1, P beyond the
# number of units, shards run with other thread counts), side outputs
# (--table, --per-server) and warnings included; every refusal of a unit
# record is one error line, exit 1, no output.  The progress meter of a
# --shard run ends at 100% of its own work.
. "$TK_SRCDIR/tests/cli/lib.sh"

cd "$TMPD" || exit 1
# rrg n=101: topo-ksp's 13 blocks of 8 targets (3 shards: 4+4+5), the
# torus 35 targets (5 blocks); topo-paths' blocks of 64 sources: 2 and 1.
topo-gen rrg n=101 d=4 -s 3 >r.tk
topo-gen torus sides=5,7 >t.tk
cat r.tk t.tk >all.tk
topo-gen dragonfly h=2 >df.tk
topo-gen dragonfly h=1 >df1.tk

shard_same 3 topo-ksp -k 4 --allpath 3 --json all.tk
shard_same 1 topo-ksp --hist all.tk
shard_same 2 topo-ksp --pairs 300 -s 7 -k 5 all.tk
shard_same 3 topo-paths --json all.tk
shard_same 2 topo-paths --pairs t.tk
shard_same 5 topo-paths r.tk
# A failing unit: the shard records it, the merge reports it where the
# single run does (the rows before it, the error line, the next graph's
# rows, exit 1): a 2^64 overflow of raw paths; 3^81 shortest paths between
# the ends of a path of tripled links, before a graph that has none.
shard_same 2 topo-ksp --allpath 40 --raw r.tk
tripled_path 82 >t82.topo
cat t82.topo r.tk >mix.tk
shard_same 3 topo-paths mix.tk
shard_same 2 topo-paths --pairs mix.tk
shard_same 3 topo-sim -r dragonfly-valiant -a rr --max-sweeps 5 --sweep 0.3:0.9:0.3 df.tk
shard_same 2 topo-sim -r ugal-l --sweep 0.2:0.8:0.3 --json df1.tk
shard_same 4 topo-sim -r min --rho 0.5 df1.tk
topo-pattern switch-perm -s 2 df1.tk >perm.pat
shard_same 2 topo-sim -r min -P perm.pat --sweep 0.2:0.6:0.2 df1.tk

# Side outputs: the merge writes them, the shards do not.
topo-sim -r min --sweep 0.2:0.6:0.2 --per-server ps.want df1.tk >sim.want
topo-sim -r min --sweep 0.2:0.6:0.2 --per-server ps.got --shard 0/2 df1.tk >m0
topo-sim -r min --sweep 0.2:0.6:0.2 --per-server ps.got --shard 1/2 df1.tk >m1
[ ! -e ps.got ] && topo-merge m0 m1 >sim.got && cmp -s sim.want sim.got && cmp -s ps.want ps.got
ok $? "topo-sim --per-server: written by the merge only, the single run's bytes"
for p in 3 8; do
    topo-medoid rrg n=40 d=4 --samples 7 -s 3 --table tab.want -o med.want
    rm -f tab.got med.got
    files=
    i=0
    while [ "$i" -lt "$p" ]; do
        topo-medoid rrg n=40 d=4 --samples 7 -s 3 --table tab.got --shard "$i/$p" -o "e$i"
        files="$files e$i"
        i=$((i + 1))
    done
    # shellcheck disable=SC2086
    [ ! -e tab.got ] && topo-merge -o med.got $files && cmp -s tab.want tab.got &&
        cmp -s med.want med.got
    ok $? "topo-medoid at P=$p: the merge writes the single run's medoid and table"
done

# The meter of a --shard run counts its own work.
topo-gen rrg n=300 d=5 -s 3 >g300.topo
run topo-dist --shard 0/3 --progress g300.topo
printf '%s\n' "$err" | tail -n 1 | grep -q 'distances: 100.0% (1 of 1 source batches)'
ok $? "topo-dist --shard 0/3 --progress ends at 100% of the shard's batches" || diag "$err"
run topo-ksp --shard 1/3 --progress r.tk
printf '%s\n' "$err" | tail -n 1 | grep -q '^topo-ksp: shard 1/3: units: 100.0% (4 of 4 units)'
ok $? "topo-ksp --shard 1/3 --progress counts the shard's 4 blocks" || diag "$err"

# --- refusals -------------------------------------------------------------
topo-ksp -k 4 --shard 0/3 r.tk >k0
topo-ksp -k 4 --shard 1/3 r.tk >k1
topo-ksp -k 4 --shard 2/3 r.tk >k2
run topo-merge k0 k2
expect_fail 1 "^topo-merge: shard 1/3 missing \(2 of 3 shards given\)$" "a missing shard"
run topo-merge k0 k1 k1 k2
expect_fail 1 "^topo-merge: k1: shard 1/3 given twice \(also k1\)$" "a duplicate shard"
topo-ksp -k 3 --shard 1/3 r.tk >x1
run topo-merge k0 x1 k2
expect_fail 1 "^topo-merge: x1: a shard of 'topo-ksp -k 3 r.tk', k0 of 'topo-ksp -k 4 r.tk': shards of different runs$" \
    "shards of different arguments"
topo-ksp -k 4 --shard 1/2 r.tk >x1
run topo-merge k0 x1 k2
expect_fail 1 "^topo-merge: x1: shard 1/2, k0 is 0/3: shards of different splits$" "shards of different P"
topo-paths --shard 1/3 r.tk >x1
run topo-merge k0 x1 k2
expect_fail 1 "^topo-merge: x1:2: a shard of topo-paths, not of topo-ksp$" "shards of different tools"
topo-gen rrg n=101 d=4 -s 4 >r2.tk
topo-ksp -k 4 --shard 0/2 <r.tk >y0
topo-ksp -k 4 --shard 1/2 <r2.tk >y1
run topo-merge y0 y1
expect_fail 1 "^topo-merge: y1:[0-9]+: this graph differs from y0:[0-9]+: shards of different inputs$" \
    "shards of different graphs"
topo-ksp -k 4 --shard 1/2 <r.tk >y1
run_in r2.tk topo-merge y0 y1
expect_fail 1 "^topo-merge: <stdin>: graph 1: not the graph the shards were made from \(y0\)$" \
    "the merge's input is another graph"
# The same pattern file name with other contents: the unit job's fingerprint.
topo-sim -r min -P perm.pat --shard 0/2 df1.tk >z0
topo-pattern switch-perm -s 3 df1.tk >perm.pat
topo-sim -r min -P perm.pat --shard 1/2 df1.tk >z1
run topo-merge z0 z1
expect_fail 1 "^topo-merge: z1:[0-9]+: this job differs from z0:[0-9]+: shards of different inputs$" \
    "topo-sim: shards of different pattern contents"

# Truncated and damaged unit records.  k1: line 11 the units line, 12 the
# first unit's, 13.. its bytes.
sed -n 11p k1 | grep -q '^units 1 count 13 lo 4 hi 8 hash [0-9a-f]*$'
ok $? "k1: the units record of shard 1/3 of 13 blocks is units 4..7"
head -n 14 k1 >t1
run topo-merge k0 t1 k2
expect_fail 1 "^topo-merge: t1:14: truncated: unit 4 has 128 of its [0-9]+ bytes$" "a shard cut inside a unit"
awk 'NR == 13 { $0 = substr($0, 3) } { print }' k1 >t1
run topo-merge k0 t1 k2
expect_fail 1 "^topo-merge: t1:13: unit 4: expected 64 bytes in hexadecimal$" "a short line of unit bytes"
grep -v '^sum ' k1 >t1
run topo-merge k0 t1 k2
expect_fail 1 "^topo-merge: t1:[0-9]+: expected 'sum CHECKSUM' \(the unit job at line 11\)$" \
    "a unit job without its sum line"
awk 'NR == 13 { $0 = (substr($0, 1, 1) == "0" ? "1" : "0") substr($0, 2) } { print }' k1 >c1
run topo-merge k0 c1 k2
expect_fail 1 "^topo-merge: c1:11: checksum mismatch in the unit job's bytes \(lines 12-[0-9]+\): the file is damaged$" \
    "a damaged unit byte"
awk 'NR == 13 { $0 = toupper($0) } { print }' k1 >c1
run topo-merge k0 c1 k2
expect_fail 1 "^topo-merge: c1:13: unit 4: not lowercase hexadecimal$" "upper-case hexadecimal"
sed 's/^unit 5 /unit 6 /' k1 >c1
run topo-merge k0 c1 k2
expect_fail 1 "^topo-merge: c1:[0-9]+: expected 'unit 5 LENGTH' \(the unit job at line 11\)$" "a unit out of order"
sed 's/^units 1 count 13 lo 4 /units 1 count 13 lo 3 /' k1 >c1
run topo-merge k0 c1 k2
expect_fail 1 "^topo-merge: c1:" "a damaged units line"

# Usage and failing shard runs.
run topo-sim --shard 0/2 --curve df1.tk
[ "$rc" -eq 2 ] && [ -z "$out" ] &&
    [ "$(printf '%s\n' "$err" | head -n 1)" = "topo-sim: --shard splits the load points of --sweep or --rho (not --curve, --epochs, --workload or --poisson)" ]
ok $? "topo-sim --shard --curve is a usage error" || diag "rc=$rc" "$err"
run topo-medoid rrg n=40 d=4 --samples 7 --shard 7/7
[ "$rc" -eq 2 ] && [ -z "$out" ] && printf '%s\n' "$err" | head -n 1 | grep -q "^topo-medoid: --shard 7/7: "
ok $? "topo-medoid --shard 7/7 is a usage error" || diag "rc=$rc" "$err"
topo-ksp --allpath 40 --raw --shard 0/1 -o fail.shard r.tk
grep -q '^error 0 status 7 line 0 % H=40:%20a%20raw-path%20count%20exceeds%202^64-1$' fail.shard
ok $? "a failing unit is recorded as an error line"
sed 's/^error 0 status 7 line 0 /error 0 status 7 line /' fail.shard >c1
run topo-merge c1
expect_fail 1 "^topo-merge: c1:[0-9]+: malformed error line \(unit 0\)$" "a malformed error line"
rm -f fail.shard
# topo-vc -P: its arc loads and its per-VC shares (two accumulator jobs,
# 20 sources each, the shares' chunks of one source) shard together; the
# side files (--vc-loads, --cdg) are the merge's alone.
topo-gen hyperx sides=5,4 >hx.tk
topo-pattern -o hu.pat uniform hx.tk
shard_same 3 topo-vc -r valiant,dor -v 2phases -P hu.pat --json hx.tk
shard_same 2 topo-vc -r min -v ladder -P hu.pat --witness hx.tk
topo-vc -r valiant,dor -v 2phases -P hu.pat --vc-loads vl1.tsv hx.tk >/dev/null
for i in 0 1; do
    topo-vc -r valiant,dor -v 2phases -P hu.pat --vc-loads vl2.tsv --cdg c.dot --shard $i/2 \
        -o v$i hx.tk
done
[ ! -e vl2.tsv ] && [ ! -e c.dot ] && topo-merge v1 v0 >/dev/null && cmp -s vl1.tsv vl2.tsv &&
    [ -s c.dot ]
ok $? "topo-vc --vc-loads and --cdg: written by the merge only, the single run's bytes"
run topo-vc -r min -v hops --shard 0/2 hx.tk
[ "$rc" -eq 2 ] && [ -z "$out" ]
ok $? "topo-vc --shard without -P is a usage error" || diag "rc=$rc" "$err"

run topo-ksp --shard 0/1 -o fail.shard nonexistent.tk
[ "$rc" -eq 1 ] && [ -z "$out" ] && [ ! -e fail.shard ]
ok $? "a shard run that fails outside the units writes no shard" || diag "rc=$rc" "$err"

done_testing
