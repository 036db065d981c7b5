# lib.sh - shared by record.sh and run.sh: read the case list and run one case.
#
# A case is a line "NAME<TAB>COMMAND" of tests/golden/cases (blank lines and
# lines starting with '#' are skipped).  COMMAND runs under bash with
# pipefail, in a fresh scratch directory, with standard input from /dev/null,
# LC_ALL=C, OMP_NUM_THREADS set, the tools first on PATH, $DATA pointing at
# the source tree's tests/data and $GOLD at tests/golden, after sourcing
# $GOLD/helpers.sh.  Its record is its standard output followed by the line
# "# exit N" (standard error is not recorded).

# golden_cases FILE: prints "NAME<TAB>COMMAND" lines; fails on a malformed or
# repeated name.
golden_cases() {
    awk -F '\t' '
        /^[ \t]*(#|$)/ { next }
        {
            name = $1
            cmd = substr($0, length(name) + 2)
            if (NF < 2 || name !~ /^[A-Za-z0-9][A-Za-z0-9._+-]*$/ || cmd ~ /^[ \t]*$/) {
                printf "%s:%d: malformed case line\n", FILENAME, FNR > "/dev/stderr"; bad = 1; next
            }
            if (name in seen) {
                printf "%s:%d: case %s repeated (first on line %d)\n", FILENAME, FNR, name, seen[name] > "/dev/stderr"
                bad = 1; next
            }
            seen[name] = FNR
            print name "\t" cmd
        }
        END { exit bad }' "$1"
}

# golden_tools DIR: puts the tools of DIR first on PATH.  In a libtool build
# with shared libraries DIR/topo-x is a wrapper script around DIR/.libs/topo-x
# that costs more than most cases; then the real programs are linked from a
# directory under GOLDEN_TMP and DIR/.libs goes on LD_LIBRARY_PATH, which is
# all the wrapper does.
golden_tools() {
    local dir=$1 t
    if [ -x "$dir/.libs/topo-gen" ] && head -n 5 "$dir/topo-gen" 2>/dev/null | grep -q 'libtool' &&
        grep -q "^  program='topo-gen'\$" "$dir/topo-gen"; then
        mkdir -p "$GOLDEN_TMP/bin" || return 1
        for t in "$dir"/.libs/topo-*; do
            ln -sf "$t" "$GOLDEN_TMP/bin/${t##*/}" || return 1
        done
        PATH="$GOLDEN_TMP/bin:$dir:$PATH"
        LD_LIBRARY_PATH="$dir/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
        export LD_LIBRARY_PATH
    else
        PATH="$dir:$PATH"
    fi
    export PATH
}

# golden_scratch LIST: makes an empty scratch directory per case and thread
# count, GOLDEN_TMP/w1/NAME and GOLDEN_TMP/w2/NAME, at once (one process
# instead of one per run: the cases are mostly process start-up).
golden_scratch() {
    cut -f 1 "$1" | sed "s|^|$GOLDEN_TMP/w1/|; p; s|/w1/\([^/]*\)\$|/w2/\1|" | xargs mkdir -p
}

# The script that runs one case: cd to its scratch directory, the helpers,
# the command in a subshell (so that exit ends only the case), then the exit
# line; an output without a final newline gets one and a note, so that the
# exit line stays a line of its own.  Only bash builtins besides the case.
golden_case_sh='cd "$2" && . "$GOLD/helpers.sh" || exit 1
(eval "$1") <"/dev/null" >"$3" 2>"$4"
rc=$?
if [ -s "$3" ]; then
    IFS= read -r -d "" body <"$3"
    [ "${body: -1}" = "
" ] || printf "\n# (no newline at end of output)\n" >>"$3"
fi
printf "# exit %d\n" "$rc" >>"$3"'

# golden_run NAME CMD THREADS OUT ERR: runs case NAME (command CMD) as
# described at the top with OMP_NUM_THREADS=THREADS (1 or 2) in its scratch
# directory, writes its record to OUT and its standard error to ERR.  Needs
# GOLDEN_SRC (the source tree), GOLDEN_TMP (after golden_scratch) and the
# tools on PATH.
golden_run() {
    DATA="$GOLDEN_SRC/tests/data" GOLD="$GOLDEN_SRC/tests/golden" OMP_NUM_THREADS=$3 LC_ALL=C \
        bash -o pipefail -c "$golden_case_sh" golden-case "$2" "$GOLDEN_TMP/w$3/$1" "$4" "$5" \
            </dev/null || printf '# exit 1 (could not run the case)\n' >>"$4"
}
