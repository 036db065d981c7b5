#!/bin/sh
# usability.sh - what a new user trips over (issue 25): one section per item
# of the issue, each checking the whole family of tools the item concerns
# (the item's siblings), not only the sample the issue reproduced.
. "${TK_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/cli/lib.sh"
T=$(printf '\t')

# --- item 2: one policy for graphs that are not connected ---------------------
# topokit(7): every tool that measures or routes between pairs refuses a
# graph that is not (strongly) connected: exit 1, one line naming the graph,
# no row (topo-dist prints its row, since connectivity is what it measures,
# and exits 1 unless --allow-disconnected; topo-paths counts the
# unreachable pairs in its row of distance inf).
printf '0 1\n2 3\n' >"$TMPD/two.txt"
printf 'topokit-graph 1\nswitches 3\ndirected 1\nlinks 2\n0 1\n1 2\nend\n' >"$TMPD/path.topo"
for tool in topo-ksp topo-mcf topo-load topo-route topo-sim topo-bisect topo-antmill; do
    run $tool "$TMPD/two.txt"
    expect_fail 1 "not connected" "$tool: two components: exit 1, one line, no row"
done
for tool in topo-ksp topo-mcf topo-load; do
    run $tool "$TMPD/path.topo"
    expect_fail 1 "not (strongly )?connected" "$tool: a directed path (not strongly connected): exit 1"
done
run topo-dist "$TMPD/two.txt"
[ "$rc" -eq 1 ] && printf '%s\n' "$out" | grep -q "${T}0${T}inf${T}"
ok $? "topo-dist: the row (connected 0) and exit 1" || diag "$out" "$err"
run topo-dist --allow-disconnected "$TMPD/two.txt"
expect_rc 0 "topo-dist --allow-disconnected: exit 0"
run topo-paths "$TMPD/two.txt"
[ "$rc" -eq 0 ] && printf '%s\n' "$out" | grep -q "^[^$T]*${T}inf${T}8${T}"
ok $? "topo-paths: the 8 unreachable ordered pairs in the inf row" || diag "$out" "$err"

# --- item 5: topo-mcf --time-limit keeps its certified interval ---------------
topo-gen rrg n=300 d=10 -s 1 >"$TMPD/r300.topo"
run topo-mcf -m all-to-all --method approx --eps 0.000001 --time-limit 0.3 "$TMPD/r300.topo"
[ "$rc" -eq 0 ] && [ -z "$err" ] && [ "$(printf '%s\n' "$out" | head -1 | cut -f 4,6,10)" = "theta${T}upper_bound${T}status" ] &&
    printf '%s\n' "$out" | awk -F '\t' 'NR == 2 { exit !($4 > 0 && $6 > $4 && $10 == "time-limit") }'
ok $? "topo-mcf --time-limit (approx): the row has theta <= upper_bound and status time-limit, exit 0" ||
    diag "$out" "$err"
run topo-mcf --progress -m all-to-all "$TMPD/r300.topo"
[ "$rc" -eq 0 ] && printf '%s\n' "$err" | grep -q "^topo-mcf: rrg n=300 d=10 s=1: all-to-all: theta in \[" &&
    [ "$(printf '%s\n' "$out" | awk -F '\t' 'NR == 2 { print $10 }')" = optimal ]
ok $? "topo-mcf --progress: the interval on stderr, status optimal in the row" || diag "$out" "$err"

# --- item 8: every option a usage or a man page shows is accepted -------------
# Every long option of every tool's --help and every option of its man
# page's SYNOPSIS and OPTIONS sections (.Fl; other sections name other
# tools' options) is run alone (stdin /dev/null): "unknown option" must
# never come back.
bad=
for tool in topo-gen topo-conv topo-dist topo-bisect topo-auto topo-paths topo-ksp topo-bounds \
    topo-pattern topo-load topo-route topo-antmill topo-medoid topo-mcf topo-stats topo-sim topo-job \
    topo-vc topo-fail topo-merge topo-resilience topo-plot; do
    # options in --help: at the start of a line, after '[', ', ' or '| '
    # (not the '-' of a formula in a description)
    opts=$( { $tool --help | grep -o -- '\(^ *\|\[\|, \||  *\)-\{1,2\}[a-zA-Z][-a-z]*' | sed 's/^[^-]*//'
        awk '/^\.Sh / { on = ($2 == "SYNOPSIS" || $2 == "OPTIONS") } on' "$TK_SRCDIR/man/man1/$tool.1" |
            sed -n 's/.*Fl \(-[-a-z]*[a-z]\).*/-\1/p; s/.*Fl \([a-zA-Z]\)\( .*\)\{0,1\}$/-\1/p'; } |
        sed 's/^ *//' | sort -u)
    for o in $opts; do
        case $o in --help | -h | --version) continue ;; esac
        e=$(timeout 20 $tool "$o" </dev/null 2>&1 >/dev/null)
        case $e in *"unknown option"* | *"unrecognized option"*) bad="$bad $tool:$o" ;; esac
    done
done
[ -z "$bad" ]
ok $? "every option shown by --help and the man pages is accepted" || diag "rejected:$bad"

# The KEY=VALUE parameters of every pattern kind (topo-pattern --help) and
# every family (topo-gen --help): each key the usage shows, added to a
# valid command, must not be an unknown parameter.
topo-gen dragonfly a=4 h=2 p=2 >"$TMPD/df.topo"
topo-gen hyperx sides=4,4 >"$TMPD/hx.topo"
topo-gen hypercube dim=3 >"$TMPD/q3.topo"
pattern_base() {
    case $1 in
    tornado | transpose | dim-shift) echo "hx.topo" ;;
    bit-complement) echo "q3.topo" ;;
    *) echo "df.topo" ;;
    esac
}
bad=
topo-pattern --help | sed -n '/^Kinds/,/^Options/p' | grep '^  [a-z]' | while read -r kind rest; do
    base=
    case $kind in
    perm-distance) base="lambda=2" ;; shift) base="offset=1" ;; dim-shift) base="dims=X i=1" ;;
    adv | advr) base="i=1" ;; mixed) base="base=shift percent=50" ;; file) continue ;;
    esac
    topo-pattern "$kind" $base "$TMPD/$(pattern_base "$kind")" >/dev/null 2>"$TMPD/e" ||
        echo "$kind: base command fails: $(cat "$TMPD/e")"
    for key in $(printf '%s\n' "$rest" | grep -o '[a-z]*=' | sort -u); do
        case " $base " in *" $key"*) continue ;; esac
        topo-pattern "$kind" $base "${key}1" "$TMPD/$(pattern_base "$kind")" >/dev/null 2>"$TMPD/e"
        grep -q "unknown parameter" "$TMPD/e" && echo "$kind $key"
    done
done >"$TMPD/bad"
[ ! -s "$TMPD/bad" ]
ok $? "every KEY= of every pattern kind in topo-pattern --help is accepted" || diag "$(cat "$TMPD/bad")"
topo-gen --help | sed -n '/^Families/,/^See/p' | grep '^  [a-z]' | while read -r fam rest; do
    case $fam in
    rrg) base="n=10 d=3" ;; gdbg | imase-itoh) base="n=10 d=2 r=2" ;;
    kautz | debruijn) base="d=2 D=2" ;; complete | ring) base="n=5" ;;
    torus | mesh) base="sides=3,3" ;; hypercube) base="dim=3" ;; hyperx) base="sides=3,3" ;;
    dragonfly) base="a=4 h=2" ;; dragonfly+) base="leaves=2 spines=2 h=1 g=3" ;;
    slimfly) base="q=5" ;; projective) base="q=3" ;; fattree) base="k=4" ;;
    *) echo "$fam: no base command in this test"; continue ;;
    esac
    # keep only the keys of base the family knows (gdbg: r, imase-itoh: d)
    b=
    for kv in $base; do
        case " $rest " in *" ${kv%%=*}="* | *"[${kv%%=*}="*) b="$b $kv" ;; esac
    done
    topo-gen "$fam" $b >/dev/null 2>"$TMPD/e" || echo "$fam: base command fails: $(cat "$TMPD/e")"
    for key in $(printf '%s\n' "$rest" | grep -o '[a-zA-Z]*=' | sort -u); do
        case " $b " in *" $key"*) continue ;; esac
        topo-gen "$fam" $b "${key}1" >/dev/null 2>"$TMPD/e"
        grep -q "unknown parameter" "$TMPD/e" && echo "$fam $key"
    done
done >"$TMPD/bad"
[ ! -s "$TMPD/bad" ]
ok $? "every KEY= of every family in topo-gen --help is accepted" || diag "$(cat "$TMPD/bad")"

# --- item 9: a signal during -o FILE leaves no temporary file ------------------
# (SIGINT is ignored by background jobs of a non-interactive shell, so the
# test sends SIGTERM and SIGHUP; the handler treats the three alike.)
for sig in TERM HUP; do
    mkdir -p "$TMPD/sig$sig"
    (cd "$TMPD/sig$sig" && exec topo-mcf -m all-to-all --method exact -o out.tsv "$TMPD/r300.topo") &
    pid=$!
    i=0
    while [ $i -lt 100 ] && ! ls -a "$TMPD/sig$sig" | grep -q '^\.topokit-tmp-'; do
        sleep 0.05
        i=$((i + 1))
    done
    seen=$(ls -a "$TMPD/sig$sig" | grep -c '^\.topokit-tmp-')
    kill -$sig $pid
    wait $pid
    st=$?
    left=$(ls -A "$TMPD/sig$sig")
    [ "$seen" -eq 1 ] && [ "$st" -gt 128 ] && [ -z "$left" ]
    ok $? "SIG$sig during topo-mcf -o: killed by the signal (status $st), no file left" ||
        diag "temporary seen: $seen" "left: $left"
done

# --- item 10: make install prefix=DIR writes a pkg-config file for DIR -----------
# (the rule `make install` runs for topokit.pc, alone: the rest of an
# install is automake's)
if [ -f "$TK_BUILDDIR/Makefile" ] && command -v pkg-config >/dev/null; then
    env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$TK_BUILDDIR" install-topokit-pc \
        prefix="$TMPD/inst" >/dev/null 2>"$TMPD/e"
    pc=$TMPD/inst/lib/pkgconfig
    [ "$(PKG_CONFIG_PATH=$pc pkg-config --variable=libdir topokit 2>&1)" = "$TMPD/inst/lib" ] &&
        [ "$(PKG_CONFIG_PATH=$pc pkg-config --cflags topokit 2>&1 | sed "s/ *$//")" = "-I$TMPD/inst/include/topokit" ] &&
        ! grep -q /usr/local "$pc/topokit.pc"
    ok $? "make install prefix=DIR: topokit.pc points at DIR" || diag "$(cat "$TMPD/e" "$pc/topokit.pc" 2>&1)"
else
    ok 0 "# SKIP no Makefile or pkg-config"
fi

# --- item 13: small things ------------------------------------------------------
printf 'a\tb\n1\t2\n3\t4\n' >"$TMPD/ab.tsv"
run topo-stats -c a -c b "$TMPD/ab.tsv"
[ "$rc" -eq 2 ] && [ -z "$out" ] && printf '%s\n' "$err" | head -1 | grep -q "one column per run"
ok $? "topo-stats -c a -c b: a usage error, not silently b" || diag "$err"
run topo-bounds --traffic
expect_fail 2 "needs parameters" "topo-bounds --traffic without parameters: a usage error, not a row of '-'"
topo-gen ring n=6 >"$TMPD/r6.topo"
topo-antmill -o "$TMPD/r6.cyc" "$TMPD/r6.topo" >/dev/null
topo-pattern uniform "$TMPD/r6.topo" >"$TMPD/r6.pat"
bad=
for tool in topo-dist topo-load topo-mcf topo-route topo-conv; do
    run $tool "$TMPD/r6.cyc"
    [ "$rc" -eq 1 ] && [ -z "$out" ] && printf '%s\n' "$err" | grep -q "r6.cyc:1: a cycle file" || bad="$bad $tool(cycle)"
    run $tool "$TMPD/r6.pat"
    [ "$rc" -eq 1 ] && [ -z "$out" ] && printf '%s\n' "$err" | grep -q "r6.pat:1: a pattern file" || bad="$bad $tool(pattern)"
done
[ -z "$bad" ]
ok $? "a cycle or pattern file where a topology is expected is named as such" || diag "misreported:$bad"
# Every option of --help's list is in the usage lines (its short or its
# long form).
bad=
for tool in topo-gen topo-conv topo-dist topo-bisect topo-auto topo-paths topo-ksp topo-bounds \
    topo-pattern topo-load topo-route topo-antmill topo-medoid topo-mcf topo-stats topo-sim \
    topo-vc topo-plot topo-fail; do
    h=$($tool --help)
    u=$(printf '%s\n' "$h" | sed '/^$/q')
    miss=$(printf '%s\n' "$h" | sed '1,/^$/d' | grep -- '^ *-' | while read -r first rest; do
        s= l=
        case $first in
        --*:) continue ;;
        --*) l=${first%%[= ]*} ;;
        -?,) s=${first%,} l=$(printf '%s' "$rest" | grep -o -- '^--[a-z][-a-z]*') ;;
        -?) s=$first ;;
        esac
        l=${l%%=*}
        case $l in --help | --version) continue ;; esac
        { [ -n "$s" ] && printf '%s\n' "$u" | grep -q -- "$s\b"; } ||
            { [ -n "$l" ] && printf '%s\n' "$u" | grep -q -- "$l\b"; } || printf ' %s' "${s:-$l}"
    done)
    [ -z "$miss" ] || bad="$bad $tool:$miss"
done
[ -z "$bad" ]
ok $? "every option --help lists is in the tool's usage lines" || diag "missing:$bad"

# --- item 14: papers are cited, never by file name --------------------------------
M=$TK_SRCDIR/man
awk '/^\.Sh REFERENCES/ { r = 1; next } /^\.Sh / { r = 0 } r' "$M/man7/topokit.7" >"$TMPD/refs"
miss=
for w in "Ant Mill" "Chaulagain" "doi:10.1145/3650200.3656602" "Cano" "arXiv:2306.13042" \
    "Faizian" "Random Regular Graph and Generalized De Bruijn Graph" "Fuentes" \
    "Network Unfairness in Dragonfly Topologies"; do
    grep -q "$w" "$TMPD/refs" || miss="$miss '$w'"
done
[ -z "$miss" ]
ok $? "topokit(7) has a REFERENCES section with the five papers" || diag "missing:$miss"
# A paragraph (mdoc: between .Pp/.Sh/.Ss/.It/.Bd/.Ed/.Bl/.El; markdown:
# between blank lines) that names a numbered result (Lemma, Remark,
# Theorem, Table I, Figure) also names its paper.
bad=$(awk 'function flush() {
        if (hit && par !~ /(et al|Ant Mill|Chaulagain|Singla|Fuentes|Cano|Faizian)/)
            print fname ":" FNR ": " substr(hitline, 1, 60)
        par = ""; hit = 0 }
    FNR == 1 { flush(); fname = FILENAME }
    /^\.(Pp|Sh|Ss|It|Bd|Ed|Bl|El)/ || /^$/ { flush() }
    { par = par " " $0
      if (!hit && $0 ~ /(Lemma|Lemmas|Remark|Theorem|Corollary) [0-9]|Table I([^I]|$)|Figures? [0-9]/) {
          hit = 1; hitline = $0 } }
    END { flush() }' "$M"/man1/*.1 "$M"/man5/*.5 "$M/man7/topokit.7" "$TK_SRCDIR/README.md")
[ -z "$bad" ]
ok $? "every Lemma, Remark, Table or Figure in the man pages and README names its paper" || diag "$bad"
bad=$(grep -n -i -E "seed ?0[0-9][0-9]|[0-9]{3}_[0-9a-f]{16}" "$M"/man1/*.1 "$M"/man5/*.5 "$M/man7/topokit.7" \
    "$TK_SRCDIR/README.md" "$TK_SRCDIR"/tools/*.c "$TK_SRCDIR"/src/*.h)
[ -z "$bad" ]
ok $? "no paper is named by its seed number or file name" || diag "$bad"

# --- item 11 (in part): canonical spec strings ------------------------------------
spec() { topo-gen "$@" | sed -n 's/^spec //p'; }
[ "$(spec dragonfly h=2 a=4 g=9)" = "$(spec dragonfly a=4 h=2)" ] &&
    [ "$(spec dragonfly a=4 h=2)" = "dragonfly a=4 h=2 p=2 g=9 arrangement=palmtree" ] &&
    [ "$(spec -s 7 dragonfly a=4 h=2)" = "dragonfly a=4 h=2 p=2 g=9 arrangement=palmtree" ] &&
    [ "$(spec -s 7 dragonfly a=4 h=2 arrangement=random)" = "dragonfly a=4 h=2 p=2 g=9 arrangement=random s=7" ] &&
    [ "$(spec rrg d=3 n=10)" = "rrg n=10 d=3 s=1" ]
ok $? "spec strings: canonical key order and defaults, s= only where the seed makes the graph" ||
    diag "$(spec dragonfly h=2 a=4 g=9) | $(spec -s 7 dragonfly a=4 h=2)"

# one vocabulary: level=switch|server, router|node accepted as aliases
a1=$(topo-pattern mixed base=perm percent=50 level=router -s 2 "$TMPD/df.topo" | sed -n 's/^spec //p')
a2=$(topo-pattern mixed base=perm percent=50 level=switch -s 2 "$TMPD/df.topo" | sed -n 's/^spec //p')
b1=$(topo-pattern mixed base=perm percent=50 level=node -s 2 "$TMPD/df.topo" | md5sum)
b2=$(topo-pattern mixed base=perm percent=50 level=server -s 2 "$TMPD/df.topo" | md5sum)
[ -n "$a2" ] && [ "$a1" = "$a2" ] && [ "${a2#*level=switch}" != "$a2" ] && [ "$b1" = "$b2" ]
ok $? "mixed level=switch|server, router|node as aliases recorded canonically" || diag "$a1 / $a2"
awk '/^\.Ss Vocabulary/ { v = 1 } v && /^\.It (switch|server|link|arc)$/ { n++ } END { exit n != 4 }' \
    "$TK_SRCDIR/man/man7/topokit.7"
ok $? "topokit(7) defines switch, server, link and arc"

# --- item 16 (in part): DOT draws a Dragonfly's groups as clusters ------------------
topo-gen dragonfly a=4 h=2 | topo-conv -f dot >"$TMPD/df.dot"
[ "$(grep -c '^  subgraph cluster_' "$TMPD/df.dot")" -eq 9 ] &&
    awk '/^  subgraph cluster_/ { c++; n = 0 } /^    [0-9]+;$/ { n++; if (n > 4) bad = 1 }
        END { exit bad || c != 9 }' "$TMPD/df.dot"
ok $? "topo-conv -f dot: a Dragonfly a=4 h=2 has its 9 groups as clusters of 4 switches" ||
    diag "$(head -20 "$TMPD/df.dot")"
if command -v dot >/dev/null; then
    dot -Tsvg "$TMPD/df.dot" >"$TMPD/df.svg" 2>"$TMPD/e" && grep -q "<svg" "$TMPD/df.svg"
    ok $? "graphviz draws it" || diag "$(cat "$TMPD/e")"
else
    ok 0 "# SKIP graphviz not installed (bootstrap.sh installs it)"
fi

done_testing
