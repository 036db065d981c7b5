#!/bin/sh
# topo-antmill-shard: --shard I/P and topo-merge (issue 24).  Shards
# 0/P .. P-1/P of the random starts, merged in any order, give the row
# (without its time column), the warnings, the exit status and the cycle
# file (-o of the merge) of the single run: a cycle found in the quick
# attempts, in a later round of the search (within a round, a later
# attempt found one too), by the 2-factor search, raised by --max-delta
# to a delta proved impossible; no cycle, proved impossible by the
# proofs, by an exhaustive directed search, and not found after 64
# exhausted starts (no proof); P = 1 and P above the attempts of a
# round; two graphs in one input.  Refusals: --exact and --verify with
# --shard (usage, exit 2); a missing, duplicate or truncated shard,
# shards of another seed, another graph: one error line, exit 1, no
# output and no cycle file.
. "$TK_SRCDIR/tests/cli/lib.sh"

cd "$TMPD" || exit 1
topo-gen rrg n=60 d=5 -p 3 -s 4 >r60.topo
topo-gen rrg n=150 d=4 -s 2 >r150.topo
# a directed graph without a Hamiltonian cycle (2-cycles around switch 0
# and 3): attempt 0 exhausts the search from its start, a proof
printf 'topokit-graph 1\nswitches 5\ndirected 1\nlinks 8\n0 1\n1 0\n0 2\n2 0\n0 3\n3 0\n3 4\n4 3\nend\n' >dstar.topo
# an undirected star: every start runs out of choices, no proof
printf 'topokit-graph 1\nswitches 4\ndirected 0\nlinks 3\n0 1\n0 2\n0 3\nend\n' >ustar.topo
cat r60.topo r150.topo >two.topo
AM_CYC=1

# am_same P ORDER ARGS...: the single run with -o single.cyc against the
# shards (ORDER: "rev" merges them in reverse order, else in order) merged
# with topo-merge -o merged.cyc.
am_same() {
    local p=$1 order=$2 i files= src mrc
    shift 2
    rm -f single.cyc merged.cyc s[0-9]*
    # shellcheck disable=SC2086
    topo-antmill "$@" ${AM_CYC:+-o single.cyc} >single.out 2>single.err
    src=$?
    i=0
    while [ "$i" -lt "$p" ]; do
        if [ $((i % 2)) -eq 1 ]; then
            topo-antmill "$@" --shard "$i/$p" --threads 2 -o "s$i" 2>/dev/null || echo "shard $i failed"
        else
            topo-antmill "$@" --shard "$i/$p" >"s$i" 2>/dev/null || echo "shard $i failed"
        fi
        if [ "$order" = rev ]; then files="s$i $files"; else files="$files s$i"; fi
        i=$((i + 1))
    done
    # shellcheck disable=SC2086
    topo-merge ${AM_CYC:+-o merged.cyc} $files >merged.out 2>merged.err
    mrc=$?
    sed 's/^topo-antmill:/topo-merge:/' single.err >single.err2
    # the time column varies
    cut -f 1-13 single.out | sed 's/,"time":[0-9.]*}$/}/' >single.cut
    cut -f 1-13 merged.out | sed 's/,"time":[0-9.]*}$/}/' >merged.cut
    [ "$mrc" -eq "$src" ] && cmp -s single.cut merged.cut && cmp -s single.err2 merged.err &&
        { { [ ! -e single.cyc ] && [ ! -e merged.cyc ]; } || cmp -s single.cyc merged.cyc; }
    ok $? "P=$p ($order) topo-antmill $*: merge = single run" ||
        diag "rc=$mrc (single $src)" "$(cat merged.err)" "$(diff single.cut merged.cut | head -5)"
}

am_same 3 rev --delta 3 -s 3 --no-uniform r150.topo            # attempt 1, a quick attempt
am_same 3 rev --delta 3 --starts 6 -s 1 --no-uniform r150.topo # attempt 6, the third round
am_same 3 in --delta 3 --starts 6 -s 4 --no-uniform r150.topo  # attempts 10 and 11 of a round
am_same 2 in --delta 3 --starts 6 -s 2 --no-uniform r150.topo
am_same 3 rev -s 5 r60.topo                     # --max-delta: the 2-factor search, delta 3 proved impossible
am_same 4 in --json -s 3 r60.topo
am_same 1 in --delta 3 --starts 6 -s 4 --no-uniform r150.topo
am_same 5 rev --hat -s 2 r60.topo
am_same 3 rev --delta 3 -s 2 r60.topo           # impossible: the proofs
am_same 3 in --hat dstar.topo                   # impossible: an exhaustive directed attempt
am_same 3 rev --hat --budget 0 ustar.topo       # 64 exhausted starts, no proof
AM_CYC= am_same 2 in --delta 3 --no-uniform -s 7 two.topo

# -P given to the shards: the merge writes the pattern, the shards do not.
topo-antmill -s 5 -P want.pat r60.topo >/dev/null 2>&1
topo-antmill -s 5 -P got.pat --shard 0/2 -o p0 r60.topo 2>/dev/null
topo-antmill -s 5 -P got.pat --shard 1/2 -o p1 r60.topo 2>/dev/null
[ ! -e got.pat ] && topo-merge p1 p0 >/dev/null 2>&1 && cmp -s want.pat got.pat
ok $? "-P: written by the merge only, the single run's pattern"

# --- refusals -------------------------------------------------------------
usage_fail() { # usage_fail PATTERN WHAT: exit 2, the first line says why
    [ "$rc" -eq 2 ] && [ -z "$out" ] && printf '%s\n' "$err" | head -n 1 | grep -Eq -- "$1"
    ok $? "$2" || diag "rc=$rc" "$err"
}
run topo-antmill --exact --shard 0/2 r60.topo
usage_fail "^topo-antmill: --shard splits the random starts; --exact runs one SAT solver$" \
    "--exact with --shard: a usage error"
run topo-antmill --verify single.cyc --shard 0/2 r60.topo
usage_fail "^topo-antmill: --shard splits the search; --verify does not search$" \
    "--verify with --shard: a usage error"
run topo-antmill --shard 2/2 r60.topo
usage_fail "^topo-antmill: --shard 2/2: I: " "--shard I out of range"

for i in 0 1 2; do topo-antmill --delta 2 -s 5 --shard "$i/3" -o "k$i" r60.topo 2>/dev/null; done
topo-antmill --delta 2 -s 6 --shard 1/3 -o other-seed r60.topo 2>/dev/null
topo-antmill --delta 2 -s 5 --shard 1/3 -o other-graph r150.topo 2>/dev/null
head -n 12 k1 >trunc
merge_refused '^topo-merge: shard 1/3 missing' "a missing shard" k0 k2
merge_refused '^topo-merge: k1: shard 1/3 given twice' "a duplicate shard" k0 k1 k1 k2
merge_refused '^topo-merge: other-seed:' "a shard of another seed" k0 other-seed k2
merge_refused '^topo-merge: trunc:' "a truncated shard" k0 trunc k2
# another graph: its shards agree, the input does not
for i in 0 1 2; do topo-antmill --delta 2 -s 5 --shard "$i/3" -o "g$i" r60.topo 2>/dev/null; done
cp r150.topo r60.topo
merge_refused '^topo-merge: r60.topo: graph 1: not the graph the shards were made from' \
    "shards of another graph" g0 g1 g2
merge_refused '^topo-merge: other-graph:' "a shard of another input file" k0 other-graph k2

done_testing
