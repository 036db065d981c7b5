# lib.sh - TAP helpers for the shell tests.  Source it:  . "$TK_SRCDIR/tests/cli/lib.sh"
#
#   run CMD...            runs CMD, capturing $out (stdout), $err (stderr), $rc
#   ok COND_STATUS DESC   one TAP line
#   expect_rc N DESC      checks $rc
#   expect_out TEXT DESC  checks $out exactly
#   expect_err_match RE DESC  checks $err (grep -E)
#   expect_fail N RE DESC run-result shortcut: rc, one-line stderr matching RE, empty stdout
#   skip_all REASON       whole file skipped (exit 77 semantics for TAP)
#   shard_same P TOOL ARGS...  --shard 0/P .. P-1/P + topo-merge = the single run
#   tripled_path N        a native graph: a path of N switches, every link tripled
#   study_plot FILE ERR SCRIPT DESC  a study's --plot: a PNG when gnuplot is
#                         installed, else SCRIPT's note in ERR and no FILE
#   pool_stub FILE TAIL   a stub tool for a study's --jobs pool (below)
#   done_testing          prints the plan, exits 0/1
set -u
: "${TK_SRCDIR:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${TK_BUILDDIR:=$TK_SRCDIR}"
PATH="$TK_BUILDDIR:$PATH"
export PATH LC_ALL=C
tap_n=0
tap_fail=0
TMPD=$(mktemp -d "${TMPDIR:-/tmp}/tk-test.XXXXXX")
trap 'rm -rf "$TMPD"' EXIT
DATA="$TK_SRCDIR/tests/data"

run() {
    "$@" >"$TMPD/.out" 2>"$TMPD/.err"
    rc=$?
    out=$(cat "$TMPD/.out")
    err=$(cat "$TMPD/.err")
}

# run_in INPUTFILE CMD...: like run with stdin from a file
run_in() {
    local in=$1
    shift
    "$@" <"$in" >"$TMPD/.out" 2>"$TMPD/.err"
    rc=$?
    out=$(cat "$TMPD/.out")
    err=$(cat "$TMPD/.err")
}

ok() {
    local status=$1
    shift
    tap_n=$((tap_n + 1))
    if [ "$status" -eq 0 ]; then
        echo "ok $tap_n - $*"
    else
        tap_fail=$((tap_fail + 1))
        echo "not ok $tap_n - $*"
    fi
    return "$status"
}

diag() { printf '%s\n' "$@" | sed 's/^/#   /'; }

expect_rc() {
    [ "$rc" -eq "$1" ]
    ok $? "$2 (exit $1)" || diag "exit status $rc" "stderr: $err"
}

expect_out() {
    [ "$out" = "$1" ]
    ok $? "$2" || diag "got:" "$out" "want:" "$1"
}

expect_err_match() {
    printf '%s\n' "$err" | grep -Eq -- "$1"
    ok $? "$2" || diag "stderr: $err" "want match: $1"
}

# expect_fail RC REGEX DESC: exit status RC, stderr exactly one line
# matching REGEX, nothing on stdout.
expect_fail() {
    local want=$1 re=$2 desc=$3 lines
    lines=$(printf '%s\n' "$err" | grep -c .)
    [ "$rc" -eq "$want" ] && [ -z "$out" ] && [ "$lines" -eq 1 ] &&
        printf '%s\n' "$err" | grep -Eq -- "$re"
    ok $? "$desc" || diag "exit $rc (want $want)" "stderr: $err" "stdout: $(printf '%s' "$out" | head -c 300)" "want stderr match: $re"
}

# shard_same P TOOL ARGS...: shards 0/P .. P-1/P (the odd ones with 2
# threads, so that shards run with other thread counts merge), merged in
# reverse order, equal the single run: stdout and stderr (the warnings; the
# merge speaks as topo-merge) byte for byte, and the exit status; and
# shard 0 run again with 2 threads writes the same file.  Works in
# $TMPD/shard.
shard_same() {
    local p=$1 i files= srrc d="$TMPD/shard"
    shift
    mkdir -p "$d"
    "$@" >"$d/single.out" 2>"$d/single.err"
    srrc=$?
    i=0
    while [ "$i" -lt "$p" ]; do
        if [ $((i % 2)) -eq 1 ]; then
            "$@" --shard "$i/$p" --threads 2 -o "$d/s$i" 2>/dev/null || echo "shard $i failed"
        else
            "$@" --shard "$i/$p" >"$d/s$i" 2>/dev/null || echo "shard $i failed"
        fi
        files="$d/s$i $files"
        i=$((i + 1))
    done
    # Shard 0 again with 2 threads: a shard file's bytes do not change.
    "$@" --shard "0/$p" --threads 2 -o "$d/s0again" 2>/dev/null
    # shellcheck disable=SC2086
    topo-merge $files >"$d/merged.out" 2>"$d/merge.err"
    rc=$?
    sed "s/^$1:/topo-merge:/" "$d/single.err" >"$d/single.err2"
    cmp -s "$d/s0" "$d/s0again" || echo "shard 0/$p: other bytes in a second run" >>"$d/merge.err"
    [ "$rc" -eq "$srrc" ] && { [ -s "$d/single.out" ] || [ "$srrc" -ne 0 ]; } &&
        cmp -s "$d/single.out" "$d/merged.out" &&
        cmp -s "$d/single.err2" "$d/merge.err"
    ok $? "$* at P=$p: merge = single run; shard 0 stable" ||
        diag "rc=$rc (single $srrc)" "$(cat "$d/merge.err")" "$(diff "$d/single.out" "$d/merged.out" | head -5)"
}

# merge_refused PATTERN WHAT SHARD...: topo-merge of the shards given is
# refused: exit 1, nothing on stdout, no output file, one error line that
# matches the extended regular expression PATTERN.
merge_refused() {
    local pat=$1 what=$2 o="$TMPD/refused.out"
    shift 2
    rm -f "$o"
    run topo-merge -o "$o" "$@"
    [ "$rc" -eq 1 ] && [ -z "$out" ] && [ ! -e "$o" ] && [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] &&
        printf '%s\n' "$err" | grep -Eq "$pat"
    ok $? "a merge of $what: refused, one error line, no output" || diag "rc=$rc" "$err"
}

# tripled_path N: a path of N switches with every link tripled (3^(N-1)
# shortest paths between its ends), in the native format.
tripled_path() {
    local i=0
    printf 'topokit-graph 1\nswitches %d\ndirected 0\nlinks %d\n' "$1" $((3 * ($1 - 1)))
    while [ $i -lt $(($1 - 1)) ]; do
        printf '%d %d\n%d %d\n%d %d\n' $i $((i + 1)) $i $((i + 1)) $i $((i + 1))
        i=$((i + 1))
    done
    echo end
}

skip_all() {
    echo "1..0 # SKIP $*"
    exit 0
}

study_plot() {
    if command -v gnuplot >/dev/null 2>&1; then
        [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
        ok $? "$4: a PNG" || diag "$(tail -n 5 "$2")"
    else
        [ ! -e "$1" ] && grep -q "^$3: gnuplot not found; no plot" "$2"
        ok $? "$4 without gnuplot: a note and no file"
    fi
}
# pool_stub FILE TAIL: an executable stub of a tool a study runs, for
# testing its --jobs pool.  Run k (in the order the runs start) makes the
# directory $STUB_RUNS/k.  With STUB_FAIL_FIRST set, run 1 exits 1 at
# once; else it waits (at most 30 s) until run 3 has started, and then
# marks $STUB_RUNS/overlap.  Every other run goes on to TAIL, shell text
# that sees the stub's arguments.
pool_stub() {
    {
        cat <<'EOF'
#!/bin/sh
n=1
while ! mkdir "$STUB_RUNS/$n" 2>/dev/null; do n=$((n + 1)); done
if [ "$n" = 1 ] && [ -n "${STUB_FAIL_FIRST:-}" ]; then
    exit 1
elif [ "$n" = 1 ]; then
    i=0
    while [ ! -d "$STUB_RUNS/3" ] && [ "$i" -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
    [ -d "$STUB_RUNS/3" ] && : >"$STUB_RUNS/overlap"
fi
EOF
        printf '%s\n' "$2"
    } >"$1" && chmod +x "$1"
}
done_testing() {
    echo "1..$tap_n"
    [ "$tap_fail" -eq 0 ]
    exit $?
}
