#!/bin/sh
# record.sh BINDIR [NAME|GLOB ...] - (re)record the golden corpus.
#
# Runs every case of tests/golden/cases (or only those whose names match one
# of the NAME/GLOB arguments, e.g. 'valiant-route-*') with the tools of
# BINDIR first on PATH, at OMP_NUM_THREADS=1 and 2, and writes its record
# (standard output, then "# exit N") to tests/golden/expected/NAME.out.  A
# case whose two records differ is not recorded: that is a determinism bug
# of the tools, reported here (exit 1).  Recording every case also removes
# the expected files of cases no longer listed.
#
# Re-record only for a documented, intended change of output, with the tools
# built from the commit whose output is the new reference; see HACKING.md.
set -u
if [ $# -lt 1 ] || [ ! -d "$1" ]; then
    echo "usage: record.sh BINDIR [NAME|GLOB ...]" >&2
    exit 2
fi
bindir=$(cd "$1" && pwd)
shift
GOLDEN_SRC=$(cd "$(dirname "$0")/../.." && pwd)
gold=$GOLDEN_SRC/tests/golden
for t in topo-gen topo-load topo-mcf; do
    [ -x "$bindir/$t" ] || { echo "record.sh: no $t in $bindir" >&2; exit 2; }
done
LC_ALL=C
export LC_ALL
GOLDEN_TMP=$(mktemp -d "${TMPDIR:-/tmp}/tk-golden.XXXXXX")
trap 'rm -rf "$GOLDEN_TMP"' EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 141' PIPE
trap 'exit 143' TERM
. "$gold/lib.sh"
golden_tools "$bindir" || exit 2

golden_cases "$gold/cases" >"$GOLDEN_TMP/list" && golden_scratch "$GOLDEN_TMP/list" || exit 2
mkdir -p "$gold/expected"

# selected NAME: whether NAME matches one of the arguments (all if none).
selected() {
    [ $# -eq 1 ] && return 0
    local name=$1 pat
    shift
    for pat in "$@"; do
        case $name in $pat) return 0 ;; esac
    done
    return 1
}

n=0 bad=0 tab=$(printf '\t')
while IFS="$tab" read -r name cmd; do
    selected "$name" "$@" || continue
    n=$((n + 1))
    golden_run "$name" "$cmd" 1 "$GOLDEN_TMP/t1" "$GOLDEN_TMP/e1" &
    golden_run "$name" "$cmd" 2 "$GOLDEN_TMP/t2" "$GOLDEN_TMP/e2" &
    wait
    if ! cmp -s "$GOLDEN_TMP/t1" "$GOLDEN_TMP/t2"; then
        bad=$((bad + 1))
        echo "NOT RECORDED $name: output differs between OMP_NUM_THREADS=1 and 2:"
        diff "$GOLDEN_TMP/t1" "$GOLDEN_TMP/t2" | head -n 20
        continue
    fi
    cp "$GOLDEN_TMP/t1" "$gold/expected/$name.out"
    # A failing case is fine (errors are part of the corpus), but say so.
    last=$(tail -n 1 "$GOLDEN_TMP/t1")
    [ "$last" = "# exit 0" ] || echo "recorded $name ($last; stderr: $(head -c 200 "$GOLDEN_TMP/e1" | head -n 1))"
done <"$GOLDEN_TMP/list"

if [ $# -eq 0 ]; then
    # Every case was recorded: drop the records of removed cases.
    for f in "$gold"/expected/*.out; do
        [ -e "$f" ] || continue
        name=$(basename "$f" .out)
        if ! cut -f 1 "$GOLDEN_TMP/list" | grep -qxF -- "$name"; then
            rm -f "$f"
            echo "removed expected/$name.out (no such case)"
        fi
    done
fi
echo "record.sh: $n cases run, $((n - bad)) recorded, $bad not deterministic"
[ "$bad" -eq 0 ]
