# man-examples.sh - run every EXAMPLES command of every man page and compare
# what it prints with what the page shows (jq's mantest), so that a page
# cannot drift from its tool.
#
# The convention, for the EXAMPLES section of a page (man/man1, man5, man7):
#
#   - Inside a .Bd -literal/.Ed block, a line starting with "$ " is a
#     command.  It runs with bash -o pipefail in a scratch directory, with
#     the built tools first on PATH and standard input empty, and must exit
#     0 within 60 seconds.  The examples of one page run in order in one
#     directory, so a command may read the files an earlier one wrote.  A
#     command is one line.
#   - The lines after a command, up to the next "$ " line or .Ed, are its
#     standard output, compared exactly (tabs are tabs) once the roff
#     escapes are undone: \e is a backslash, \- and \(mi a minus sign, \&
#     nothing, \(ba |, \(aq ', \(dq ", \(ga `, \(ha ^, \(ti ~.  Standard
#     error is not compared: an example whose point is a message shows it
#     with 2>&1 (and "|| echo exit $?" for a failing command).
#   - No lines after a command: it must print nothing (a command that writes
#     a file with -o or >).
#   - A line that is exactly "..." (written \&... in the page, as a roff
#     line may not start with a dot) stands for any number of lines, none
#     included: the head of a long output, "...", and its last lines; or
#     "..." alone for an output the page does not show.
#   - "..." inside a line stands for any text within that line: a value
#     that varies from run to run, such as the seconds topo-mcf and
#     topo-antmill report, or an elided part of a long JSON line.
#   - Lines of a block before its first "$ " line are not run.
#
# Every page must pass mandoc -Tlint -Wwarning and have at least one example
# that shows its output (not empty, not only "...").  The pages are read
# from $TK_SRCDIR; nothing is written there.  MAN_PAGES="topo-gen.1
# topokit.7" limits the run to those pages.
. "$TK_SRCDIR/tests/cli/lib.sh"

# The examples of a page as a stream of records: "C<TAB>command" for a
# command, then "O<TAB>line" for each line of its shown output, roff escapes
# undone.
examples() {
    awk '
        function unescape(s,    out, i, c, n2) {
            out = ""
            for (i = 1; i <= length(s); i++) {
                c = substr(s, i, 1)
                if (c != "\\") { out = out c; continue }
                c = substr(s, i + 1, 1)
                if (c == "e") { out = out "\\"; i++ }
                else if (c == "-") { out = out "-"; i++ }
                else if (c == "&") { i++ }
                else if (c == "(") {
                    n2 = substr(s, i + 2, 2)
                    if (n2 in special) { out = out special[n2]; i += 3 }
                    else out = out "\\"
                } else out = out "\\"
            }
            return out
        }
        BEGIN {
            special["ba"] = "|"; special["aq"] = "\047"; special["dq"] = "\""
            special["ga"] = "`"; special["ha"] = "^"; special["ti"] = "~"
            special["mi"] = "-"
        }
        /^\.Sh / { inex = ($2 == "EXAMPLES"); inblock = 0; next }
        !inex { next }
        /^\.Bd/ { inblock = 1; incmd = 0; next }
        /^\.Ed/ { inblock = 0; incmd = 0; next }
        !inblock || /^\.\\"/ { next }
        /^\$ / { print "C\t" unescape(substr($0, 3)); incmd = 1; next }
        incmd { print "O\t" unescape($0) }
    ' "$1"
}

# matches WANT GOT: does file GOT match the shown output WANT ("..." lines
# and "..." within lines as above)?  Dynamic programming over the lines.
matches() {
    awk -v wantf="$1" -v gotf="$2" '
        function linematch(p, s,    parts, np, k, pos, q, last) {
            if (index(p, "...") == 0) return p == s
            np = split(p, parts, /\.\.\./)
            if (substr(s, 1, length(parts[1])) != parts[1]) return 0
            pos = length(parts[1]) + 1
            for (k = 2; k < np; k++) {
                q = index(substr(s, pos), parts[k])
                if (!q) return 0
                pos += q - 1 + length(parts[k])
            }
            last = parts[np]
            return length(s) - pos + 1 >= length(last) &&
                substr(s, length(s) - length(last) + 1) == last
        }
        BEGIN {
            m = 0; n = 0
            while ((getline l < wantf) > 0) w[++m] = l
            while ((getline l < gotf) > 0) g[++n] = l
            # r[i, j]: want lines i..m match got lines j..n.
            for (j = n + 1; j >= 1; j--) r[m + 1, j] = (j == n + 1)
            for (i = m; i >= 1; i--)
                for (j = n + 1; j >= 1; j--) {
                    if (w[i] == "...")
                        r[i, j] = r[i + 1, j] || (j <= n && r[i, j + 1])
                    else
                        r[i, j] = j <= n && r[i + 1, j + 1] && linematch(w[i], g[j])
                }
            exit !r[1, 1]
        }'
}

# The commands go into TAP descriptions, which lib.sh prints with echo: where
# echo reads backslash escapes (dash), double the backslashes.
if [ "$(echo 'a\\b')" = 'a\b' ]; then
    echo_safe() { printf '%s' "$1" | sed 's/\\/\\\\/g'; }
else
    echo_safe() { printf '%s' "$1"; }
fi

# run_example PAGE N COMMAND WANTFILE: one command and its shown output.
run_example() {
    local base=$1 n=$2 cmd=$3 want=$4 work="$TMPD/$1" rc
    (cd "$work" && timeout 60 bash -o pipefail -c "$cmd" </dev/null >"$TMPD/.got" 2>"$TMPD/.err")
    rc=$?
    ok $rc "$base example $n: $(echo_safe "$cmd")" || diag "exit $rc" "$(head -c 600 "$TMPD/.err")"
    if [ "$(cat "$want")" = "..." ]; then
        elided=$((elided + 1))
    else
        if [ -s "$want" ]; then shown=$((shown + 1)); else silent=$((silent + 1)); fi
        grep -q '[.][.][.]' "$want" && partly=$((partly + 1))
        matches "$want" "$TMPD/.got"
        ok $? "$base example $n prints the output shown" ||
            diag "$(diff "$want" "$TMPD/.got" | head -n 30)" "(< page, > tool)"
    fi
}

pages=$(ls "$TK_SRCDIR"/man/man1/*.1 "$TK_SRCDIR"/man/man5/*.5 "$TK_SRCDIR"/man/man7/*.7 2>/dev/null)
for page in $pages; do
    base=$(basename "$page")
    # MAN_PAGES="topo-gen.1 ..." checks only those pages (while editing them).
    case " ${MAN_PAGES:-$base} " in *" $base "*) ;; *) continue ;; esac
    if command -v mandoc >/dev/null 2>&1; then
        lint=$(mandoc -Tlint -Wwarning "$page" 2>&1)
        [ -z "$lint" ]
        ok $? "$base: mandoc -Tlint finds no warnings" || diag "$lint"
    fi
    mkdir -p "$TMPD/$base"
    count=0 shown=0 partly=0 silent=0 elided=0 cmd=
    : >"$TMPD/.want"
    while IFS= read -r rec; do
        case $rec in
        C"	"*)
            [ "$count" -gt 0 ] && run_example "$base" "$count" "$cmd" "$TMPD/.want"
            count=$((count + 1))
            cmd=${rec#C	}
            : >"$TMPD/.want"
            ;;
        O"	"*) printf '%s\n' "${rec#O	}" >>"$TMPD/.want" ;;
        esac
    done <<EOF_EX
$(examples "$page")
EOF_EX
    [ "$count" -gt 0 ] && run_example "$base" "$count" "$cmd" "$TMPD/.want"
    [ "$shown" -gt 0 ]
    ok $? "$base: $count examples: $shown show their output ($partly in part), $silent print nothing, $elided not shown"
done
done_testing
