#!/bin/sh
# topo-gen-catalogue.sh - the topology catalogue of the papers topokit grew
# from (topokit(7)) through the CLI:
# Slim Fly q=5 is the Hoffman-Singleton graph (nauty canonical forms),
# diameters of Slim Fly / ER_q / Levi graphs and fat-trees by topo-dist,
# topo-dist on every new family, specs and derived keys, -p, seeds,
# thread independence and every error path of the new families.
. "$TK_SRCDIR/tests/cli/lib.sh"

field() { printf '%s\n' "$out" | sed -n "s/^$1 //p" | head -n 1; }
# col NAME: column NAME of the last topo-dist row in $out.
col() {
    printf '%s\n' "$out" | awk -F'\t' -v c="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i }
        END { print $k }'
}

# ---- Slim Fly q=5 = Hoffman-Singleton ------------------------------------------
if command -v nauty-labelg >/dev/null 2>&1; then
    a=$(topo-gen slimfly q=5 -f graph6 | nauty-labelg 2>/dev/null)
    b=$(nauty-labelg <"$TK_SRCDIR/data/hoffman-singleton.g6" 2>/dev/null)
    [ -n "$a" ] && [ "$a" = "$b" ]
    ok $? "slimfly q=5 is isomorphic to the Hoffman-Singleton graph (nauty-labelg)"
    # A different graph of the same size must not match (the check can fail).
    c=$(topo-gen rrg n=50 d=7 -s 1 -f graph6 | nauty-labelg 2>/dev/null)
    [ -n "$c" ] && [ "$c" != "$b" ]
    ok $? "a random 7-regular graph on 50 switches is not (control)"
else
    ok 0 "slimfly q=5 vs Hoffman-Singleton # SKIP nauty-labelg absent"
    ok 0 "control # SKIP nauty-labelg absent"
fi

# ---- diameters by topo-dist ----------------------------------------------------
# args | diameter | girth (or -)
while IFS='|' read -r args diam girth; do
    [ -n "$args" ] || continue
    run sh -c "topo-gen $args | topo-dist"
    [ "$rc" -eq 0 ] && [ "$(col diameter)" = "$diam" ] &&
        { [ "$girth" = - ] || [ "$(col girth)" = "$girth" ]; }
    ok $? "topo-gen $args | topo-dist: diameter $diam${girth#-}" || diag "$err" "$out"
done <<'EOF2'
slimfly q=3|2|-
slimfly q=4|2|-
slimfly q=5|2|5
slimfly q=7|2|-
slimfly q=8|2|-
slimfly q=9|2|-
slimfly q=11|2|-
slimfly q=16|2|-
slimfly q=25|2|-
slimfly q=27|2|-
slimfly q=32|2|-
projective q=2|2|-
projective q=3|2|-
projective q=4|2|-
projective q=8|2|-
projective q=9|2|-
projective q=16|2|-
projective q=27|2|-
projective q=32|2|-
projective q=49|2|-
projective q=25 levi=1|3|6
projective q=2 levi=1|3|6
projective q=4 levi=1|3|6
projective q=9 levi=1|3|6
projective q=16 levi=1|3|6
fattree k=4|4|4
fattree k=8 levels=2|2|4
dragonfly a=4 h=2 p=2|3|3
dragonfly+ leaves=4 spines=4 h=4|5|4
hyperx sides=4,4,4 p=4|3|3
EOF2

# ---- every new family through topo-dist and topo-conv -----------------------------
for args in "dragonfly a=3 h=2 g=4 arrangement=absolute" "dragonfly a=4 h=2 arrangement=circulant" \
    "dragonfly a=4 h=2 arrangement=random -s 4" "megafly leaves=2 spines=3 h=2" \
    "slimfly q=13" "projective q=5" "projective q=5 levi=1" "fattree k=6" "fattree k=6 levels=2" \
    "hyperx sides=64 p=64" "jellyfish n=20 d=3 -p 4"; do
    run sh -c "topo-gen $args | topo-dist"
    [ "$rc" -eq 0 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 2 ] && [ "$(col connected)" = 1 ]
    ok $? "topo-dist reads topo-gen $args (connected)" || diag "$err"
    topo-gen $args >"$TMPD/g.topo"
    run topo-conv -f native "$TMPD/g.topo"
    [ "$rc" -eq 0 ] && [ "$out" = "$(cat "$TMPD/g.topo")" ]
    ok $? "topo-gen $args: native round trip" || diag "$err"
done

# ---- palmtree and relative at maximum size against an independent awk implementation
# palmtree (Fuentes et al., "Network Unfairness in Dragonfly Topologies"):
# router i port k of group j -> group (j - i*h - k - 1) mod g; relative (SST
# merlin): group (j + i*h + k + 1) mod g; both land on router a-1-i
# (switch id = group*a + router).
for ah in 2,2 4,2 3,3 5,1 2,5; do
    a=${ah%,*} h=${ah#*,}
    for arr in palmtree relative; do
        sg=1
        [ "$arr" = palmtree ] && sg=-1
        want=$(awk -v a="$a" -v h="$h" -v sg="$sg" 'BEGIN {
            g = a * h + 1
            for (j = 0; j < g; j++) for (i = 0; i < a; i++) for (k = 0; k < h; k++) {
                u = j * a + i; v = ((j + sg * (i * h + k + 1) + g) % g) * a + (a - 1 - i)
                if (u < v) print u, v; else print v, u
            } }' | sort -u)
        got=$(topo-gen dragonfly a="$a" h="$h" arrangement=$arr | awk '$1 ~ /^[0-9]+$/ && $3 == "global" { print ($1 < $2) ? $1 " " $2 : $2 " " $1 }' | sort -u)
        [ -n "$want" ] && [ "$want" = "$got" ] &&
            [ "$(printf '%s\n' "$want" | wc -l)" -eq $((a * (a * h + 1) * h / 2)) ]
        ok $? "dragonfly a=$a h=$h $arr equals the published rule (awk)"
    done
done

# ---- headers, specs, servers, classes ------------------------------------------
run topo-gen dragonfly a=4 h=2
[ "$(field spec)" = "dragonfly a=4 h=2 p=2 g=9 arrangement=palmtree" ] &&
    [ "$(field switches)" = 36 ] && [ "$(field servers)" = 2 ] &&
    [ "$(field classes)" = "local global" ]
ok $? "dragonfly defaults: p=h, g=a*h+1, palmtree recorded in the spec" || diag "$out"
run topo-gen dragonfly a=4 h=2 -p 5
[ "$(field servers)" = 5 ] && [ "$(field spec)" = "dragonfly a=4 h=2 p=5 g=9 arrangement=palmtree" ]
ok $? "dragonfly -p 5 overrides the servers per router, in p='s place in the spec" || diag "$out"
# canonical specs (issue 25, item 11): -p, p= and the default give one spec
a=$(topo-gen dragonfly h=2 -p 2 | sed -n 's/^spec //p')
b=$(topo-gen dragonfly a=4 h=2 p=7 -p 2 | sed -n 's/^spec //p')
c=$(topo-gen dragonfly a=4 h=2 | sed -n 's/^spec //p')
d=$(topo-gen dragonfly+ leaves=2 spines=2 -p 2 | sed -n 's/^spec //p')
[ "$a" = "$c" ] && [ "$b" = "$c" ] && [ "$d" = "dragonfly+ leaves=2 spines=2 h=2 p=2 g=5 arrangement=palmtree" ]
ok $? "dragonfly: -p 2, p=7 -p 2 and the default p=h give the same spec; dragonfly+ likewise" ||
    diag "$a" "$b" "$c" "$d"
# Dragonfly+ and HyperX rows of Table I of Cano et al., "Analysing Mechanisms
# for Virtual Channel Management in Low-Diameter Networks".
run topo-gen dragonfly+ leaves=8 spines=8 p=8 h=8
[ "$(field switches)" = 1040 ] && [ "$(field links)" = 6240 ] &&
    [ "$(printf '%s\n' "$out" | grep -c 'servers=8')" = 520 ]
ok $? "dragonfly+ (Cano et al.): 1040 switches, 6240 links, 520 leaves with 8 servers" || diag "$(printf '%s\n' "$out" | head)"
run topo-gen megafly leaves=2 spines=2 h=1 -p 3
[ "$(printf '%s\n' "$out" | grep -c 'servers=3')" = 6 ] && [ "$(field spec | cut -d' ' -f1)" = dragonfly+ ]
ok $? "megafly alias; -p sets the servers of the leaves only" || diag "$out"
run topo-gen fattree k=4 -p 1
[ "$(field switches)" = 20 ] && [ "$(printf '%s\n' "$out" | grep -c 'servers=1')" = 8 ]
ok $? "fattree k=4 -p 1: 8 leaves with one server" || diag "$out"
run topo-gen hyperx sides=16,16 p=16
[ "$(field servers)" = 16 ] && [ "$(field links)" = 3840 ] && [ "$(field switches)" = 256 ]
ok $? "hyperx sides=16,16 p=16 (Cano et al., 2D row)" || diag "$out"
run topo-gen jellyfish n=16 d=3 -s 2 -p 2
[ "$rc" -eq 0 ] && [ "$out" = "$(topo-gen rrg n=16 d=3 -s 2 -p 2)" ]
ok $? "jellyfish is exactly rrg"

# ---- seeds and threads ---------------------------------------------------------------
a=$(OMP_NUM_THREADS=1 topo-gen dragonfly a=6 h=3 arrangement=random -s 9 --threads 1)
b=$(OMP_NUM_THREADS=2 topo-gen dragonfly a=6 h=3 arrangement=random -s 9 --threads 2)
c=$(topo-gen dragonfly a=6 h=3 arrangement=random -s 10)
[ -n "$a" ] && [ "$a" = "$b" ] && [ "$a" != "$c" ]
ok $? "random arrangement: same seed same graph with 1 or 2 threads, other seed differs"

# ---- errors ------------------------------------------------------------------------
while IFS='|' read -r code re args; do
    [ -n "$args" ] || continue
    run topo-gen $args
    expect_fail "$code" "$re" "topo-gen $args: exit $code"
done <<'EOF2'
1|^topo-gen: g=10: at most a\*h\+1 = 9 groups|dragonfly a=4 h=2 g=10
1|^topo-gen: g=3: .*odd|dragonfly a=3 h=1 g=3
1|^topo-gen: g=1: must be between 2 and|dragonfly a=3 h=1 g=1
2|^topo-gen: arrangement=spiral: unknown|dragonfly a=3 h=1 arrangement=spiral
2|^topo-gen: missing parameter h|dragonfly a=3
1|^topo-gen: a=0: must be between 1 and|dragonfly a=0 h=1
1|^topo-gen: g=6: at most spines\*h\+1 = 5 groups|dragonfly+ leaves=2 spines=2 g=6
2|^topo-gen: missing parameter spines|megafly leaves=2
1|^topo-gen: q=6: not a prime power|slimfly q=6
1|^topo-gen: q=2: must be 4w-1|slimfly q=2
1|^topo-gen: q=1: must be between 2 and|slimfly q=1
1|^topo-gen: q=100003: more than|slimfly q=100003
1|^topo-gen: q=12: not a prime power|projective q=12
1|^topo-gen: levi=2: |projective q=3 levi=2
1|^topo-gen: k=5: must be even|fattree k=5
1|^topo-gen: levels=4: |fattree k=4 levels=4
1|^topo-gen: p=-1: |hyperx sides=3,3 p=-1
EOF2
run env TOPOKIT_MEMORY_LIMIT=1M topo-gen slimfly q=101
expect_fail 1 '^topo-gen: q=101: needs about .*memory limit' "slimfly above the memory limit"
run env TOPOKIT_MEMORY_LIMIT=1M topo-gen fattree k=64
expect_fail 1 '^topo-gen: k=64 levels=3: needs about .*memory limit' "fattree above the memory limit"
run env TOPOKIT_MEMORY_LIMIT=1M topo-gen dragonfly a=64 h=32
expect_fail 1 '^topo-gen: a=64 h=32 g=2049: needs about' "dragonfly above the memory limit"
done_testing
