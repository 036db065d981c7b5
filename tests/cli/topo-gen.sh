# topo-gen.sh - shell tests of topo-gen: every family, formats, seeds and
# thread counts, every error path, -o atomicity, --help/--version/--list.
. "$TK_SRCDIR/tests/cli/lib.sh"

# field NAME: value of the native header line "NAME VALUE" in $out.
field() { printf '%s\n' "$out" | sed -n "s/^$1 //p" | head -n 1; }
T=$(printf '\t')

# ---- informational options ------------------------------------------------
run topo-gen --list
expect_rc 0 "--list"
lst=$out
out=$(printf '%s\n' "$lst" | cut -f 1)
expect_out "rrg
gdbg
imase-itoh
kautz
debruijn
complete
ring
torus
mesh
hypercube
hyperx
dragonfly
dragonfly+
slimfly
projective
fattree" "--list prints the 16 families one per line"
families=$out
# issue 25: with their parameters and defaults
printf '%s\n' "$lst" | grep -qx "dragonfly${T}\[a=2H\] h=H \[p=H\] \[g=A\*H+1\] \[arrangement=palmtree\] \[-s 1\]" &&
    printf '%s\n' "$lst" | grep -qx "fattree${T}k=K \[levels=3\]"
ok $? "--list: each family's parameters, [KEY=DEFAULT] for the optional ones" || diag "$lst"
# the balanced Dragonfly from h alone (a = 2h, p = h, g = a h + 1)
run topo-gen dragonfly h=2
[ "$rc" -eq 0 ] && [ "$(field spec)" = "dragonfly a=4 h=2 p=2 g=9 arrangement=palmtree" ] &&
    [ "$(field switches)" = 36 ]
ok $? "dragonfly h=2: a=4 p=2 g=9, 36 switches" || diag "$out" "$err"
run topo-gen dragonfly h=2 a=4 arrangement=palmtree g=9 p=2
[ "$(field spec)" = "dragonfly a=4 h=2 p=2 g=9 arrangement=palmtree" ]
ok $? "the spec is canonical: the same keys in any order give the same spec" || diag "$out"

run topo-gen --help
expect_rc 0 "--help"
missing=""
for f in $families; do
    f=${f%%${T}*}
    printf '%s\n' "$out" | grep -q "^  $f " || missing="$missing $f"
done
[ -z "$missing" ]
ok $? "--help lists every family with its synopsis${missing:+ (missing:$missing)}"
[ -z "$err" ]
ok $? "--help writes nothing on stderr"

run topo-gen --version
expect_rc 0 "--version"
printf '%s\n' "$out" | grep -Eq '^topo-gen \(topokit\) [0-9]'
ok $? "--version prints 'topo-gen (topokit) VERSION'"

# ---- every family: header values from closed forms ---------------------------
# family args | switches links directed
while IFS='|' read -r args n links dir; do
    [ -n "$args" ] || continue
    run topo-gen $args
    [ "$rc" -eq 0 ] && [ "$(field switches)" = "$n" ] && [ "$(field links)" = "$links" ] &&
        [ "$(field directed)" = "$dir" ] && [ "$(field spec | cut -d' ' -f1)" = "${args%% *}" ]
    ok $? "topo-gen $args: $n switches, $links links, directed $dir" ||
        diag "rc $rc" "$err" "$(printf '%s\n' "$out" | head -n 8)"
    # The output reads back (topo-conv) and round-trips unchanged.
    printf '%s\n' "$out" >"$TMPD/g.topo"
    run topo-conv -f native "$TMPD/g.topo"
    [ "$rc" -eq 0 ] && [ "$out" = "$(cat "$TMPD/g.topo")" ]
    ok $? "topo-gen $args: valid native format (topo-conv round trip)" || diag "$err"
done <<'EOF'
rrg n=16 d=3|16|24|0
rrg n=10 d=9|10|45|0
rrg n=40 d=2|40|40|0
gdbg n=6 r=2|6|12|1
imase-itoh n=12 d=2|12|24|1
kautz d=2 D=3|12|24|1
kautz d=3 D=2|12|36|1
debruijn d=2 D=3|8|16|1
complete n=5|5|10|0
ring n=7|7|7|0
torus sides=4,4|16|32|0
torus sides=2,3|6|12|0
mesh sides=3,4|12|17|0
mesh sides=1,5|5|4|0
hypercube dim=4|16|32|0
hyperx sides=3,4|12|30|0
EOF

run topo-gen gdbg n=6 r=2
[ "$(field spec)" = "gdbg n=6 r=2 loops=2" ]
ok $? "gdbg spec records the loop-back links"

run topo-gen rrg d=3 n=16 -s 7 -p 2
[ "$(field spec)" = "rrg n=16 d=3 s=7 p=2" ] && [ "$(field servers)" = 2 ]
ok $? "spec in canonical key order, records s= and p=; -p sets servers" || diag "$out"

run topo-gen rrg n=16 d=3
[ "$(field spec)" = "rrg n=16 d=3 s=1" ]
ok $? "default seed 1 is recorded"

run topo-gen torus sides=3,3 -s 5
[ "$rc" -eq 0 ] && [ "$(field spec)" = "torus sides=3,3" ] &&
    printf '%s\n' "$err" | grep -q "warning: -s ignored"
ok $? "-s with a deterministic family: warning, not recorded"

# ---- other formats ----------------------------------------------------------
run topo-gen complete n=4 -f graph6
expect_out "C~" "complete n=4 as graph6"
run topo-gen ring n=4 -f g6
expect_out "Cl" "ring n=4 as graph6"
for args in "rrg n=20 d=3 -s 3" "hypercube dim=3" "hyperx sides=3,3" "torus sides=3,4" \
    "mesh sides=2,5" "complete n=6" "ring n=9"; do
    run topo-gen $args -f graph6
    g6=$out
    [ "$rc" -eq 0 ] && [ "$(printf '%s\n' "$g6" | wc -l)" -eq 1 ]
    ok $? "topo-gen $args -f graph6: one line" || diag "$err"
    e1=$(topo-gen $args -f edges | grep -v '^#')
    e2=$(printf '%s\n' "$g6" | topo-conv -f edges | grep -v '^#')
    [ -n "$e1" ] && [ "$e1" = "$e2" ]
    ok $? "topo-gen $args: graph6 has the same links as the edge list"
done
run topo-gen gdbg n=6 r=2 -f edges
[ "$rc" -eq 0 ] && [ "$(printf '%s\n' "$out" | grep -vc '^#')" -eq 12 ] &&
    printf '%s\n' "$out" | grep -qx '0 0' && printf '%s\n' "$out" | grep -qx '3 1'
ok $? "gdbg n=6 r=2 -f edges: 12 arcs including 0 0 and 3 1"
run topo-gen kautz d=2 D=2 -f digraph6
[ "$rc" -eq 0 ] && [ "$(printf '%s' "$out" | cut -c1)" = "&" ]
ok $? "kautz -f digraph6"
run topo-gen gdbg n=6 r=2 -f graph6
expect_fail 1 '^topo-gen: .*graph6' "gdbg -f graph6: directed graph refused, nothing written"
run topo-gen torus sides=2,2 -f graph6
expect_fail 1 '^topo-gen: .*graph6' "torus sides=2,2 -f graph6: parallel links refused"
run topo-gen ring n=5 -f dot
[ "$rc" -eq 0 ] && printf '%s\n' "$out" | grep -q 'graph'
ok $? "ring -f dot"

# ---- seeds and threads --------------------------------------------------------
OMP_NUM_THREADS=1 topo-gen rrg n=200 d=5 -s 11 >"$TMPD/t1" 2>/dev/null
OMP_NUM_THREADS=2 topo-gen rrg n=200 d=5 -s 11 >"$TMPD/t2" 2>/dev/null
topo-gen rrg n=200 d=5 -s 11 --threads 2 >"$TMPD/t3" 2>/dev/null
[ -s "$TMPD/t1" ] && cmp -s "$TMPD/t1" "$TMPD/t2" && cmp -s "$TMPD/t1" "$TMPD/t3"
ok $? "same seed: identical bytes with 1 and 2 threads"
topo-gen rrg n=200 d=5 -s 12 >"$TMPD/t4" 2>/dev/null
! cmp -s "$TMPD/t1" "$TMPD/t4"
ok $? "different seeds: different graphs"
run topo-gen rrg n=200 d=5 -s 18446744073709551615
expect_rc 0 "largest seed 2^64-1 accepted"

# ---- errors: one line on stderr naming the parameter, nothing on stdout ------
while IFS='|' read -r code re args; do
    [ -n "$args" ] || continue
    run topo-gen $args
    expect_fail "$code" "$re" "error: topo-gen $args"
done <<'EOF'
1|^topo-gen: d=10: must be less than n=10$|rrg n=10 d=10
1|^topo-gen: d=3: n\*d must be even|rrg n=5 d=3
1|^topo-gen: n=1: must be at least 2|rrg n=1 d=1
1|^topo-gen: d=0: must be at least 1|rrg n=10 d=0
1|^topo-gen: d=1: |rrg n=4 d=1
1|^topo-gen: n=-5: must be at least 2|rrg n=-5 d=2
1|^topo-gen: n=3000000000 d=4: more than|rrg n=3000000000 d=4
1|^topo-gen: n=99999999999999999999: out of range|rrg n=99999999999999999999 d=3
2|^topo-gen: missing parameter d|rrg n=16
2|^topo-gen: x=1: unknown parameter for rrg|rrg n=16 d=3 x=1
2|^topo-gen: n=abc: not an integer|rrg n=abc d=3
2|^topo-gen: d=3x: not an integer|rrg n=16 d=3x
2|^topo-gen: n=: not an integer|rrg n= d=3
2|^topo-gen: d: parameter given twice|rrg n=16 d=3 d=4
2|^topo-gen: 'd': expected KEY=VALUE|rrg n=16 d
2|^topo-gen: unknown family 'foo' \(families: rrg gdbg|foo n=3
2|^topo-gen: sides=4,,4: empty item in list|torus sides=4,,4
2|^topo-gen: sides=4,x: 'x' is not an integer|mesh sides=4,x
1|^topo-gen: sides=4,1: 1 must be at least 2|torus sides=4,1
1|^topo-gen: sides=0: 0 must be at least 1|mesh sides=0
1|^topo-gen: sides=1000,1000,1000,1000: more than|hyperx sides=1000,1000,1000,1000
1|^topo-gen: n=2: must be at least 3|ring n=2
1|^topo-gen: n=0: must be at least 1|complete n=0
1|^topo-gen: dim=0: must be at least 1|hypercube dim=0
1|^topo-gen: dim=40: more than|hypercube dim=40
1|^topo-gen: d=1: must be at least 2|kautz d=1 D=3
1|^topo-gen: D=0: must be at least 1|debruijn d=2 D=0
1|^topo-gen: r=0: must be at least 1|gdbg n=6 r=0
1|^topo-gen: loops=3: GDBG\(6,2\) has 2 loop-back links|gdbg n=6 r=2 loops=3
1|^topo-gen: d=0: must be at least 1|imase-itoh n=6 d=0
EOF

run env TOPOKIT_MEMORY_LIMIT=1M topo-gen rrg n=100000 d=32
expect_fail 1 '^topo-gen: n=100000 d=32: needs about .*above the memory limit' \
    "rrg above TOPOKIT_MEMORY_LIMIT refused up front"
run env TOPOKIT_MEMORY_LIMIT=1M topo-gen complete n=5000
expect_fail 1 '^topo-gen: n=5000: needs about' "complete above the memory limit"

# Option errors are usage errors (exit 2, usage hint on stderr).
for args in "rrg n=16 d=3 -s abc" "rrg n=16 d=3 -s -1" "rrg n=16 d=3 -p -1" \
    "rrg n=16 d=3 -p x" "rrg n=16 d=3 -f auto" "rrg n=16 d=3 -f nosuch" \
    "rrg n=16 d=3 --threads 0" "rrg n=16 d=3 --bogus" ""; do
    run topo-gen $args
    [ "$rc" -eq 2 ] && [ -z "$out" ] && printf '%s\n' "$err" | head -n 1 | grep -q '^topo-gen: '
    ok $? "usage error: topo-gen $args" || diag "rc $rc" "$err"
done

# ---- -o: atomic, nothing left behind on error ---------------------------------
mkdir "$TMPD/o"
run topo-gen rrg n=10 d=10 -o "$TMPD/o/g.topo"
expect_fail 1 'd=10' "-o with a parameter error"
[ -z "$(ls -A "$TMPD/o")" ]
ok $? "-o: no file left on error"
run topo-gen gdbg n=6 r=2 -f graph6 -o "$TMPD/o/g.g6"
expect_fail 1 'graph6' "-o with a format error"
[ -z "$(ls -A "$TMPD/o")" ]
ok $? "-o: no file or temporary left on a write error"
echo old >"$TMPD/o/keep.topo"
run topo-gen ring n=2 -o "$TMPD/o/keep.topo"
[ "$rc" -eq 1 ] && [ "$(cat "$TMPD/o/keep.topo")" = old ]
ok $? "-o: an existing file is untouched on error"
run topo-gen hypercube dim=3 -o "$TMPD/o/q3.topo"
[ "$rc" -eq 0 ] && [ -z "$out" ] && [ "$(topo-gen hypercube dim=3)" = "$(cat "$TMPD/o/q3.topo")" ]
ok $? "-o writes the same bytes as stdout"
[ "$(ls -A "$TMPD/o" | sort | tr '\n' ' ')" = "keep.topo q3.topo " ]
ok $? "-o: no temporary file left after success"
# -o to a device or a pipe writes in place: renaming a temporary file over
# /dev/null would replace the device (as root, it did).
mkfifo "$TMPD/o/fifo"
cat "$TMPD/o/fifo" >"$TMPD/fifo.out" &
run topo-gen hypercube dim=3 -o "$TMPD/o/fifo"
wait
[ "$rc" -eq 0 ] && [ -p "$TMPD/o/fifo" ] && [ "$(topo-gen hypercube dim=3)" = "$(cat "$TMPD/fifo.out")" ]
ok $? "-o FIFO: written in place, still a FIFO"
if mknod "$TMPD/o/null" c 1 3 2>/dev/null; then
    run topo-gen hypercube dim=3 -o "$TMPD/o/null"
    [ "$rc" -eq 0 ] && [ -c "$TMPD/o/null" ]
    ok $? "-o to a copy of /dev/null: written in place, still a character device"
else
    ok 0 "# SKIP mknod needs root (-o to a character device)"
fi

done_testing
