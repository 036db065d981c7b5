# pattern-file: the topology fingerprint of pattern files (refused on another
# topology unless --force, in every tool that reads -P; old files without
# one accepted), the compact forms (spec, aggregate) giving byte-identical
# results to the explicit form in topo-load, topo-mcf and topo-sim, and the
# errors of the new header lines (topokit-formats(5)).
. "$TK_SRCDIR/tests/cli/lib.sh"

topo-gen dragonfly h=2 -o "$TMPD/df.topo"
topo-gen dragonfly h=2 arrangement=absolute -o "$TMPD/dfa.topo"
topo-gen torus sides=4,4 -p 2 -o "$TMPD/torus.topo"
topo-gen rrg n=12 d=3 -p 3 -s 2 -o "$TMPD/rrg.topo"

# --- the fingerprint ----------------------------------------------------------
# An independent FNV-1a over the text topokit-formats(5) defines, computed
# from the native topology file (same servers everywhere, capacities 1).
fnv() {
    python3 - "$1" <<'EOF'
import sys
n = d = p = 0
links = []
cls = None
for line in open(sys.argv[1]):
    w = line.split()
    if not w:
        continue
    if w[0] == 'switches': n = int(w[1])
    elif w[0] == 'directed': d = int(w[1])
    elif w[0] == 'servers': p = int(w[1])
    elif w[0].isdigit() and len(w) >= 2:
        u, v = int(w[0]), int(w[1])
        c = w[2] if len(w) > 2 else '-'
        links.append((min(u, v), max(u, v), c, 1.0))
text = 'topokit-links 1\nswitches %d directed %d\nservers%s\n' % (n, d, ''.join(' %d' % p for _ in range(n)))
for u, v, c, cap in sorted(links):
    text += '%d %d %s %.17g\n' % (u, v, c, cap)
h = 0xcbf29ce484222325
for b in text.encode():
    h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
print('fnv1a64:%016x' % h)
EOF
}
for t in df dfa torus rrg; do
    want=$(fnv "$TMPD/$t.topo")
    run topo-pattern shift offset=1 "$TMPD/$t.topo"
    got=$(printf '%s\n' "$out" | sed -n 's/^fingerprint //p')
    [ "$rc" -eq 0 ] && [ "$got" = "$want" ]
    ok $? "fingerprint of $t is FNV-1a of its link text ($want)" || diag "got $got"
done

topo-pattern adv i=1 -o "$TMPD/adv.pat" "$TMPD/df.topo"
grep -v '^fingerprint' "$TMPD/adv.pat" >"$TMPD/old.pat"
run topo-load -P "$TMPD/adv.pat" "$TMPD/df.topo"
expect_rc 0 "topo-load: the topology the pattern was made for"
ref_load=$out
for tool in "topo-load" "topo-mcf" "topo-sim" "topo-vc -r min -v none" "topo-pattern file path=$TMPD/adv.pat"; do
    if [ "${tool%% *}" = topo-pattern ]; then p=; else p="-P $TMPD/adv.pat"; fi
    # shellcheck disable=SC2086
    run $tool $p "$TMPD/dfa.topo"
    expect_fail 1 "pattern .*adv\.pat: made for topology 'dragonfly a=4 h=2 p=2 g=9 arrangement=palmtree' \(fingerprint fnv1a64:[0-9a-f]{16}\), not this one, 'dragonfly a=4 h=2 p=2 g=9 arrangement=absolute' \(fingerprint fnv1a64:[0-9a-f]{16}\)" \
        "${tool%% *}: a pattern of another topology with the same servers is refused"
    # shellcheck disable=SC2086
    run $tool $p --force "$TMPD/dfa.topo"
    expect_rc 0 "${tool%% *} --force uses it anyway"
done
run topo-load -P "$TMPD/old.pat" "$TMPD/dfa.topo"
expect_rc 0 "a file without a fingerprint line is accepted on any topology of its size"
run topo-load -P "$TMPD/old.pat" "$TMPD/df.topo"
[ "$out" = "$ref_load" ]
ok $? "... and gives the same loads as with its fingerprint"
run topo-pattern file path="$TMPD/adv.pat" --force "$TMPD/dfa.topo"
printf '%s\n' "$out" | grep -q "^fingerprint $(fnv "$TMPD/dfa.topo")\$"
ok $? "topo-pattern file --force stamps the pattern for the new topology"
run topo-load --force "$TMPD/df.topo"
expect_rc 2 "--force without -P is a usage error"

# --- compact forms: byte-identical downstream results --------------------------
# Each pattern in the explicit, spec and (where it applies) aggregate form;
# topo-load (min), topo-mcf and topo-sim must print the same bytes.
same_outputs() { # same_outputs TOPO DESC FILE...
    local topo=$1 desc=$2 f ref cmd
    shift 2
    for cmd in "topo-load" "topo-mcf" "topo-sim"; do
        ref=
        for f in "$@"; do
            # shellcheck disable=SC2086
            run $cmd -P "$f" "$topo"
            [ "$rc" -eq 0 ] || break
            # topo-mcf's time column is the only one allowed to differ
            [ "$cmd" != topo-mcf ] || out=$(printf '%s\n' "$out" | cut -f 1-8,10-)
            if [ -z "$ref" ]; then ref=$out; elif [ "$out" != "$ref" ]; then rc=9; break; fi
        done
        ok "$rc" "$desc: $cmd gives the same bytes from every form" || diag "$err"
    done
}
while IFS='|' read -r topo kind; do
    [ -n "$topo" ] || continue
    # shellcheck disable=SC2086
    topo-pattern $kind -s 3 --explicit -o "$TMPD/e.pat" "$TMPD/$topo.topo"
    # shellcheck disable=SC2086
    run topo-pattern $kind -s 3 --form=spec -o "$TMPD/s.pat" "$TMPD/$topo.topo"
    expect_rc 0 "$kind on $topo: the spec form"
    files="$TMPD/e.pat $TMPD/s.pat"
    # shellcheck disable=SC2086
    if topo-pattern $kind -s 3 --form=aggregate -o "$TMPD/a.pat" "$TMPD/$topo.topo" 2>/dev/null; then
        files="$files $TMPD/a.pat"
    fi
    # shellcheck disable=SC2086
    same_outputs "$TMPD/$topo.topo" "$kind on $topo ($(echo $files | wc -w) forms)" $files
done <<'EOF'
df|uniform
df|adv i=1
df|advc
df|random-shift
rrg|uniform
rrg|hotspot count=2
torus|tornado
torus|mixed base=perm percent=40 level=server
EOF

# The aggregate form of a pattern that is not a generator's (re-emitted by
# file): uniform on the rrg, without its spec line.
topo-pattern uniform --explicit "$TMPD/rrg.topo" | sed 's/^spec .*/spec by hand/' >"$TMPD/hand.pat"
run topo-pattern file path="$TMPD/hand.pat" --form=aggregate "$TMPD/rrg.topo"
expect_rc 0 "a hand-made server-level uniform written as per-switch entries"
printf '%s\n' "$out" >"$TMPD/hand-a.pat"
entries=$(sed -n 's/^entries //p' "$TMPD/hand-a.pat")
[ "$entries" = 132 ] # 12 x 11 switch pairs
ok $? "... 12 x 11 entries (got $entries)"
same_outputs "$TMPD/rrg.topo" "hand-made uniform" "$TMPD/hand.pat" "$TMPD/hand-a.pat"
run topo-pattern file path="$TMPD/hand.pat" --form=spec "$TMPD/rrg.topo"
expect_fail 1 "form spec: the pattern was not made by a generator" "--form=spec of a hand-made pattern"
run topo-pattern server-perm --form=aggregate "$TMPD/rrg.topo"
expect_fail 1 "form aggregate: the pattern is not the same split" "--form=aggregate of a permutation"

# auto: explicit when small, else the spec line; the file is tiny.
run topo-pattern uniform "$TMPD/rrg.topo"
printf '%s\n' "$out" | grep -q '^demands 1188$' && ! printf '%s\n' "$out" | grep -q '^form'
ok $? "auto: 1188 demands stay explicit"
topo-gen dragonfly h=3 -o "$TMPD/df3.topo"
run topo-pattern uniform "$TMPD/df3.topo"
[ "$(printf '%s\n' "$out" | grep -c .)" -eq 9 ] && printf '%s\n' "$out" | grep -q '^form spec$'
ok $? "auto: uniform on 342 servers (116 622 demands) is 9 lines in the spec form"
run topo-pattern file path="$TMPD/hand.pat" "$TMPD/df3.topo"
expect_rc 1 "hand.pat on another topology: refused"

# --- bad input ---------------------------------------------------------------
topo-pattern uniform --form=spec -o "$TMPD/u.pat" "$TMPD/rrg.topo"
bad() { # bad DESC RE SED-SCRIPT [FILE]: the edited file is refused by topo-load
    sed "$3" "${4:-$TMPD/u.pat}" >"$TMPD/bad.pat"
    run topo-load -P "$TMPD/bad.pat" "$TMPD/rrg.topo"
    expect_fail 1 "$2" "$1"
}
bad "truncated spec (a bad value)" "bad\.pat:2: spec 'uniform level=bogus'" 's/^spec .*/spec uniform level=bogus/'
bad "unknown pattern kind in the spec" "bad\.pat:2: unknown pattern kind 'unifrm' in the spec" 's/^spec uniform/spec unifrm/'
bad "spec form: demands count not matching" "bad\.pat:2: counts not matching: spec 'uniform level=server' expands to 1188 demands, the file declares 1187" 's/^demands 1188/demands 1187/'
bad "spec form: checksum not matching" "bad\.pat:2: checksum mismatch" 's/^checksum fnv1a64:./checksum fnv1a64:0/;s/^checksum fnv1a64:00/checksum fnv1a64:01/'
bad "malformed fingerprint" "bad\.pat:4: malformed fingerprint 'fnv1a64:12' \(expected fnv1a64: and 16 hex digits\)" 's/^fingerprint .*/fingerprint fnv1a64:12/'
bad "malformed checksum" "bad\.pat:8: malformed checksum 'sha1:00'" 's/^checksum .*/checksum sha1:00/'
bad "spec form with demand lines" "bad\.pat:10: form spec has no demand lines" '$a 0 1'
bad "unknown form" "bad\.pat:7: form must be 'explicit', 'spec' or 'aggregate'" 's/^form spec/form packed/'
bad "form spec without a spec line" "bad\.pat:8: form spec needs a 'spec' line" '/^spec /d'
bad "checksum in the explicit form" "a 'checksum' line belongs to form spec only" '/^form /d'
bad "aggregate: truncated entries" "bad\.pat:[0-9]+: truncated: 131 of 132 entries" '$d' "$TMPD/hand-a.pat"
bad "aggregate: counts not matching the demands line" "counts not matching: the entries expand to 1188 demands, 1189 declared" 's/^demands 1188/demands 1189/' "$TMPD/hand-a.pat"
bad "aggregate: servers line not summing to the endpoints" "bad\.pat:8: counts not matching: the servers line sums to 37, endpoints is 36" 's/^servers 3/servers 4/' "$TMPD/hand-a.pat"
bad "aggregate: no entries line" "form aggregate needs 'servers' and 'entries' lines" '/^entries/d' "$TMPD/hand-a.pat"
bad "aggregate: switch out of range" "bad\.pat:[0-9]+: switch 12 out of range 0\.\.11" 's/^0 1 /0 12 /' "$TMPD/hand-a.pat"
# the servers line must be the topology's (a torus with 2 servers at 18 switches: 36 too)
topo-gen rrg n=18 d=3 -p 2 -s 2 -o "$TMPD/rrg18.topo"
sed '/^fingerprint/d' "$TMPD/hand-a.pat" >"$TMPD/hand-old.pat"
run topo-load -P "$TMPD/hand-old.pat" "$TMPD/rrg18.topo"
expect_fail 1 "pattern .*hand-old\.pat:7: counts not matching: the servers line has 12 switches, the topology 18" \
    "aggregate on a topology with other server counts (no fingerprint to stop it)"

done_testing
