#!/bin/sh
# mcf-shard.sh - topo-mcf --shard I/P on a stream of sampled graphs: the
# single run against P shards run one after another and their merge.
# Shows that dealing instance k to shard k mod P balances a stream of
# one-pattern graphs: the sum of the shards' CPU is the single run's (no
# work repeated but each shard's start) and the largest shard's CPU is
# about 1/P of it.  Needs topo-gen, topo-mcf, topo-merge on PATH (run.sh
# sets it) and GNU time (/usr/bin/time).
#
#   MCF_SHARD_N=200 MCF_SHARD_D=8 MCF_SHARD_SAMPLES=12 MCF_SHARD_P=3
#   MCF_SHARD_ARGS='--method exact'   (the topo-mcf options)
set -eu
n=${MCF_SHARD_N:-200}
d=${MCF_SHARD_D:-8}
samples=${MCF_SHARD_SAMPLES:-12}
p=${MCF_SHARD_P:-3}
args=${MCF_SHARD_ARGS:---method exact}
W=$(mktemp -d "${TMPDIR:-/tmp}/tk-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM
export OMP_WAIT_POLICY=passive

s=1
while [ "$s" -le "$samples" ]; do
    topo-gen rrg n="$n" d="$d" -s "$s" >>"$W/g.topo"
    s=$((s + 1))
done

# user CPU seconds of a command (its stdout to $1)
cpu() {
    out=$1
    shift
    /usr/bin/time -f '%U' -o "$W/t" "$@" >"$out"
    cat "$W/t"
}
notime() { awk -F '\t' 'BEGIN { OFS = "\t" } NF == 10 { $9 = "-" } { print }' "$1"; }

echo "## topo-mcf --shard: $samples samples of rrg n=$n d=$d, topo-mcf $args, P=$p"
echo "load average before: $(cut -d ' ' -f 1-3 /proc/loadavg)"
echo
# shellcheck disable=SC2086
single=$(cpu "$W/single.out" topo-mcf $args "$W/g.topo")
i=0
files=
sum=0
max=0
rows=
while [ "$i" -lt "$p" ]; do
    # shellcheck disable=SC2086
    t=$(cpu "$W/s$i" topo-mcf $args --shard "$i/$p" "$W/g.topo")
    rows="$rows| shard $i/$p | $t | $(grep -c '^unit ' "$W/s$i") |
"
    sum=$(awk -v a="$sum" -v b="$t" 'BEGIN { print a + b }')
    max=$(awk -v a="$max" -v b="$t" 'BEGIN { print (b > a ? b : a) }')
    files="$files $W/s$i"
    i=$((i + 1))
done
# shellcheck disable=SC2086
merge=$(cpu "$W/merged.out" topo-merge $files)
same=no
notime "$W/single.out" >"$W/a"
notime "$W/merged.out" >"$W/b"
cmp -s "$W/a" "$W/b" && same=yes
echo "| run | user s | instances |"
echo "|---|---:|---:|"
echo "| single | $single | $samples |"
printf '%s' "$rows"
echo "| shards: sum | $sum | |"
echo "| shards: largest | $max | |"
echo "| merge | $merge | |"
echo
echo "merged output = single run's (time column blanked): $same"
echo "load average after: $(cut -d ' ' -f 1-3 /proc/loadavg)"
