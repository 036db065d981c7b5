#!/bin/sh
# run.sh BINDIR SECONDS [NAME...] - run each harness (default: all) for
# SECONDS on a scratch copy of its seed corpus (tests/fuzz/corpus/NAME),
# one at a time, and print the last libFuzzer status line of each
# (executions, cov, ft).  Crashes land in BINDIR/crash-NAME-*; copy each
# into tests/fuzz/corpus/NAME/ once fixed.
set -eu
BIN=$1
SECS=$2
shift 2
HERE=$(cd "$(dirname "$0")" && pwd)
[ $# -gt 0 ] || set -- graph native graph6 sparse6 digraph6 edges graphml gml anynet caminos \
    pattern cycle route options gen kv workload tsv measured shard job
for name in "$@"; do
    work="$BIN/work-$name"
    mkdir -p "$work"
    cp "$HERE/corpus/$name"/* "$work/" 2>/dev/null || true
    ASAN_OPTIONS=detect_leaks=1 "$BIN/fuzz-$name" -max_total_time="$SECS" -timeout=10 -rss_limit_mb=1024 \
        -max_len=4096 -artifact_prefix="$BIN/crash-$name-" "$work" >"$BIN/log-$name" 2>&1 || true
    last=$(grep -E '^#[0-9]+' "$BIN/log-$name" | tail -1)
    crashes=$(ls "$BIN" | grep -c "^crash-$name-" || true)
    printf '%s\t%s\tcrash files: %s\n' "$name" "$last" "$crashes"
done
