# data/studies/resilience.sh at its smallest (2 samples, fractions 0 and
# 0.3 of the links): one row per family and fraction, in the script's
# order; at fraction 0 nothing is removed, nothing disconnects, and the
# distances are the closed forms of the intact graphs (Slim Fly q=5, the
# MMS graph of diameter 2 and degree 7 on 50 switches: average
# (7 + 2 * 42) / 49 = 91/49; HyperX 4x4x3: sum over the dimensions of
# (1 - 1/s), times 48/47 = 104/47, diameter 3); at 0.3 the links removed
# are round(0.3 * links) of each family's link count.
. "$TK_SRCDIR/tests/cli/lib.sh"

study=$TK_SRCDIR/data/studies/resilience.sh
cd "$TMPD" || exit 1
sh "$study" --samples 2 --points 2 --jobs 1 >table.tsv 2>table.err
ok $? "resilience.sh --samples 2 --points 2 runs" || diag "$(tail -5 table.err)"

got=$(awk -F '\t' 'NR > 1 { printf "%s/%s/%s ", $1, $2, $3 }' table.tsv)
[ "$got" = "rrg/links/0 rrg/links/0.3 slimfly/links/0 slimfly/links/0.3 dragonfly/links/0 dragonfly/links/0.3 hyperx/links/0 hyperx/links/0.3 " ]
ok $? "one row per family and fraction, in order" || diag "$got"

awk -F '\t' 'NR > 1 && $3 == 0 && ($4 != 0 || $6 != 0) { bad = 1 } END { exit bad }' table.tsv
ok $? "fraction 0: nothing removed, never disconnected"

got=$(awk -F '\t' '$1 == "slimfly" && $3 == 0 { printf "%.12f %s", $12, $13 }' table.tsv)
[ "$got" = "$(awk 'BEGIN { printf "%.12f 2", 91 / 49 }')" ]
ok $? "Slim Fly q=5 intact: average distance 91/49, diameter 2" || diag "$got"
got=$(awk -F '\t' '$1 == "hyperx" && $3 == 0 { printf "%.12f %s", $12, $13 }' table.tsv)
[ "$got" = "$(awk 'BEGIN { printf "%.12f 3", 104 / 47 }')" ]
ok $? "HyperX 4x4x3 intact: average distance 104/47, diameter 3" || diag "$got"

# links: rrg n=50 d=7, slimfly q=5, dragonfly a=5 h=3 g=10 (100 local +
# 75 global): 175 each; hyperx 4,4,3: 48 * 8 / 2 = 192
got=$(awk -F '\t' 'NR > 1 && $3 == 0.3 { printf "%s=%s ", $1, $4 }' table.tsv)
[ "$got" = "rrg=53 slimfly=53 dragonfly=53 hyperx=58 " ]
ok $? "fraction 0.3: round(0.3 x 175) = 53 links removed, round(0.3 x 192) = 58 of the HyperX" || diag "$got"

# --jobs is a pool, not batches: with 2 slots the third sweep starts as
# soon as the second ends, while the first still runs (a stub
# topo-resilience holds the first sweep until the third has started, for
# at most 30 s; topo-gen is the real one)
mkdir -p stub runs
# the stub's table: a header and one row, to the file after -o
table='while [ $# -gt 1 ]; do [ "$1" = -o ] && o=$2; shift; done
printf "unit\\tfraction\\tremoved\\nlinks\\t0\\t0\\n" >"$o"'
pool_stub stub/topo-resilience "$table"
STUB_RUNS=$TMPD/runs PATH=$TMPD/stub:$PATH sh "$study" --samples 2 --points 2 --jobs 2 >pool.tsv 2>pool.err
ok $? "--jobs 2 with a stub topo-resilience runs" || diag "$(tail -n 5 pool.err)"
[ -e runs/overlap ] && [ "$(ls -d runs/[0-9]* | wc -l)" -eq 4 ] && [ "$(grep -c '^hyperx' pool.tsv)" -eq 1 ]
ok $? "--jobs 2: the third sweep starts while the first runs, and all four finish" ||
    diag "$(ls runs)" "$(cat pool.tsv)"
# a failed sweep gives its slot back: with one slot, the sweeps after it
# still run, and the script names the family that failed
rm -rf runs && mkdir runs
STUB_FAIL_FIRST=1 STUB_RUNS=$TMPD/runs PATH=$TMPD/stub:$PATH timeout 60 sh "$study" --samples 2 --points 2 --jobs 1 >fail.tsv 2>fail.err
rc=$?
[ "$rc" -eq 1 ] && [ "$(ls -d runs/[0-9]* | wc -l)" -eq 4 ] && grep -q '^resilience.sh: rrg failed$' fail.err
ok $? "--jobs 1, the first sweep failing: the other three still run, exit 1 naming rrg" ||
    diag "rc=$rc" "$(ls runs)" "$(tail -n 3 fail.err)"
for j in 0 -1 x ''; do
    run sh "$study" --jobs "$j"
    [ "$rc" -eq 2 ] && [ -z "$out" ] && [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] &&
        printf '%s\n' "$err" | grep -q "^resilience.sh: --jobs '$j': a positive integer$"
    ok $? "--jobs '$j': exit 2, one line" || diag "rc=$rc" "$err"
done

done_testing
