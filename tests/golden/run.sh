# run.sh - the golden corpus (TAP): every case of tests/golden/cases runs with
# OMP_NUM_THREADS=1 and with OMP_NUM_THREADS=2 and must reproduce, byte for
# byte, its record in tests/golden/expected/NAME.out (standard output, then
# "# exit N"), recorded from the tools before the issue-20 restructuring.
# One test per case and thread count.  Alone: make check TESTS=tests/golden/run.sh
# (GOLDEN_ONLY='GLOB ...' runs only the matching cases).  Re-recording:
# record.sh and HACKING.md.
set -u
: "${TK_SRCDIR:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${TK_BUILDDIR:=$TK_SRCDIR}"
LC_ALL=C
export LC_ALL
GOLDEN_SRC=$TK_SRCDIR
gold=$TK_SRCDIR/tests/golden
GOLDEN_TMP=$(mktemp -d "${TMPDIR:-/tmp}/tk-golden.XXXXXX")
trap 'rm -rf "$GOLDEN_TMP"' EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 141' PIPE
trap 'exit 143' TERM
. "$gold/lib.sh"
if ! golden_tools "$TK_BUILDDIR"; then
    echo "Bail out! cannot set up the tools of $TK_BUILDDIR"
    exit 1
fi

if ! golden_cases "$gold/cases" >"$GOLDEN_TMP/list" || ! golden_scratch "$GOLDEN_TMP/list"; then
    echo "Bail out! malformed tests/golden/cases, or no scratch directories"
    exit 1
fi

tap_n=0 tap_fail=0 tab=$(printf '\t')
while IFS="$tab" read -r name cmd; do
    if [ -n "${GOLDEN_ONLY:-}" ]; then
        keep=no
        set -f # the globs are for case names, not files
        for pat in $GOLDEN_ONLY; do
            case $name in $pat) keep=yes ;; esac
        done
        set +f
        [ "$keep" = yes ] || continue
    fi
    want=$gold/expected/$name.out
    # Both thread counts at once (the cases are mostly process start-up).
    golden_run "$name" "$cmd" 1 "$GOLDEN_TMP/got1" "$GOLDEN_TMP/err1" &
    golden_run "$name" "$cmd" 2 "$GOLDEN_TMP/got2" "$GOLDEN_TMP/err2" &
    wait
    for threads in 1 2; do
        tap_n=$((tap_n + 1))
        desc="$name (OMP_NUM_THREADS=$threads)"
        if [ ! -f "$want" ]; then
            tap_fail=$((tap_fail + 1))
            echo "not ok $tap_n - $desc"
            echo "#   no expected/$name.out: record it with tests/golden/record.sh"
        elif cmp -s "$want" "$GOLDEN_TMP/got$threads"; then
            echo "ok $tap_n - $desc"
        else
            tap_fail=$((tap_fail + 1))
            echo "not ok $tap_n - $desc"
            {
                echo "command: $cmd"
                echo "diff expected/$name.out got:"
                diff "$want" "$GOLDEN_TMP/got$threads" | head -n 20
                if [ -s "$GOLDEN_TMP/err$threads" ]; then
                    echo "stderr:"
                    head -n 5 "$GOLDEN_TMP/err$threads"
                fi
            } | sed 's/^/#   /'
        fi
    done
done <"$GOLDEN_TMP/list"

echo "1..$tap_n"
[ "$tap_fail" -eq 0 ]
