# man-examples.sh - run every EXAMPLES command of every man page.
#
# In the EXAMPLES section of each page, lines inside .Bd -literal/.Ed blocks
# that start with "$ " are commands: each must exit 0 (pipelines with
# pipefail) within 60 seconds, run in a scratch directory with the built
# tools first on PATH.  Other lines in those blocks are sample output and are
# not checked.  The examples of one page run in order in one directory.
. "$TK_SRCDIR/tests/cli/lib.sh"

# Print the example commands of a page, one per line, roff escapes undone.
examples() {
    awk '
        /^\.Sh / { inex = ($2 == "EXAMPLES") ; next }
        inex && /^\.Bd/ { inblock = 1; next }
        inex && /^\.Ed/ { inblock = 0; next }
        inex && inblock && /^\$ / { print substr($0, 3) }
    ' "$1" | sed -e 's/\\-/-/g' -e 's/\\(ba/|/g' -e 's/\\&//g' -e 's/\\e/\\/g'
}

pages=$(ls "$TK_SRCDIR"/man/man1/*.1 "$TK_SRCDIR"/man/man5/*.5 "$TK_SRCDIR"/man/man7/*.7 2>/dev/null)
for page in $pages; do
    base=$(basename "$page")
    if command -v mandoc >/dev/null 2>&1; then
        lint=$(mandoc -Tlint -Wwarning "$page" 2>&1)
        [ -z "$lint" ]
        ok $? "$base: mandoc -Tlint finds no warnings" || diag "$lint"
    fi
    count=0
    while IFS= read -r cmd; do
        count=$((count + 1))
        # One scratch directory per page: later examples may use the files
        # earlier ones wrote, as a reader following the page would.
        work="$TMPD/$base"
        mkdir -p "$work"
        (cd "$work" && timeout 60 bash -o pipefail -c "$cmd" >"$work/.out" 2>"$work/.err")
        rc=$?
        ok $rc "$base example $count: $cmd" || diag "exit $rc" "$(head -c 600 "$work/.err")"
    done <<EOF_EX
$(examples "$page")
EOF_EX
    # Every tool page must have at least one runnable example.
    case $base in
    *.1)
        [ "$count" -gt 0 ]
        ok $? "$base has runnable EXAMPLES"
        ;;
    esac
done
done_testing
