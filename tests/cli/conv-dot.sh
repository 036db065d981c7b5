#!/bin/sh
# conv-dot.sh - topo-conv -f dot draws the structure of the families (issue
# 25, item 16): HyperX rows as clusters, fat-tree levels as ranks, and with
# --cycle the links of an Ant Mill cycle highlighted.  Expectations come
# from the native files' coordinates and the cycle file itself; graphviz
# (dot -Tsvg) must accept every output.
. "$TK_SRCDIR/tests/cli/lib.sh"

HAVE_DOT=
command -v dot >/dev/null 2>&1 && HAVE_DOT=1
draws() { # FILE DESC
    if [ -n "$HAVE_DOT" ]; then
        dot -Tsvg "$1" >"$TMPD/out.svg" 2>"$TMPD/dot.err" && grep -q "<svg" "$TMPD/out.svg" &&
            [ ! -s "$TMPD/dot.err" ]
        ok $? "$2: dot -Tsvg draws it without a warning" || diag "$(cat "$TMPD/dot.err")"
    else
        ok 0 "$2 # SKIP graphviz not installed (bootstrap.sh installs it)"
    fi
}
# coords FILE: "switch coordinates" lines of a native file
coords() { awk '$1 == "switch" { for (i = 3; i <= NF; i++) if ($i ~ /^coord=/) print $2, substr($i, 7) }' "$1"; }

# ---- HyperX: one cluster per row (equal coordinates but the first) ----------------
for sides in 3,3 4,2,3; do
    topo-gen hyperx sides=$sides -o "$TMPD/hx.topo"
    topo-conv -f dot "$TMPD/hx.topo" >"$TMPD/hx.dot"
    # the switches of each cluster, as "cluster: ids"
    got=$(awk '/^  subgraph cluster_/ { c = $2; next } /^  }/ { c = "" }
        c != "" && /^    [0-9]+;$/ { sub(/;/, "", $1); print c, $1 }' "$TMPD/hx.dot" |
        awk '{ m[$1] = m[$1] " " $2 } END { for (k in m) print m[k] }' | sort)
    want=$(coords "$TMPD/hx.topo" | awk '{ split($2, x, ","); r = ""; for (i = 2; i in x; i++) r = r "," x[i]
        m[r] = m[r] " " $1 } END { for (k in m) print m[k] }' | sort)
    [ -n "$want" ] && [ "$got" = "$want" ]
    ok $? "hyperx sides=$sides: the clusters are the rows (switches equal in every coordinate but the first)" ||
        diag "got: $got" "want: $want"
    draws "$TMPD/hx.dot" "hyperx sides=$sides"
done

# ---- fat-trees: one rank per level (coordinate 0) ------------------------------------
for spec in "k=4 levels=2" "k=4 levels=3" "k=6 levels=3"; do
    topo-gen fattree $spec -o "$TMPD/ft.topo"
    topo-conv -f dot "$TMPD/ft.topo" >"$TMPD/ft.dot"
    # every rank=same subgraph: its switches, with their levels from the file
    coords "$TMPD/ft.topo" | awk '{ split($2, x, ","); print $1, x[1] }' >"$TMPD/lv"
    bad=$(awk 'NR == FNR { lv[$1] = $2; next }
        /subgraph level/ { r++; inr = 1; first = ""; next }
        inr && /rank=same/ { next }
        inr && /^ *[0-9]+;$/ { sub(/;/, "", $1); seen[$1]++; if (first == "") first = lv[$1]; else if (lv[$1] != first) bad++; next }
        inr && /^ *}/ { inr = 0 }
        END { for (u in lv) if (seen[u] != 1) bad++; print bad + 0, r + 0 }' "$TMPD/lv" "$TMPD/ft.dot")
    set -- $bad
    [ "$1" -eq 0 ] && [ "$2" -ge 2 ]
    ok $? "fattree $spec: every switch in exactly one rank, each rank one level ($2 ranks)" ||
        diag "$(head -30 "$TMPD/ft.dot")"
    draws "$TMPD/ft.dot" "fattree $spec"
done

# ---- Dragonfly: groups stay clusters, no ranks ---------------------------------------
topo-gen dragonfly a=4 h=2 | topo-conv -f dot >"$TMPD/df.dot"
[ "$(grep -c '^  subgraph cluster_' "$TMPD/df.dot")" -eq 9 ] && ! grep -q 'rank=same' "$TMPD/df.dot"
ok $? "dragonfly a=4 h=2: 9 group clusters, no ranks"

# ---- --cycle: the Ant Mill cycle's links highlighted ----------------------------------
topo-gen rrg n=20 d=3 -s 1 -o "$TMPD/rrg.topo"
topo-antmill --delta 1 -s 1 -o "$TMPD/rrg.cyc" "$TMPD/rrg.topo" >/dev/null
run topo-conv -f dot --cycle "$TMPD/rrg.cyc" "$TMPD/rrg.topo"
printf '%s\n' "$out" >"$TMPD/cyc.dot"
got=$(awk '/class="cycle"/ { a = $1; b = $3; sub(/;$/, "", b); print (a < b) ? a " " b : b " " a }' "$TMPD/cyc.dot" | sort)
want=$(grep -v '^#' "$TMPD/rrg.cyc" | awk '{ x[NR] = $1 } END { for (i = 1; i <= NR; i++) { a = x[i]; b = x[i % NR + 1]
    print (a < b) ? a " " b : b " " a } }' | sort)
[ "$rc" -eq 0 ] && [ -n "$want" ] && [ "$got" = "$want" ] && [ "$(printf '%s\n' "$got" | wc -l)" -eq 20 ]
ok $? "--cycle: exactly the 20 links of the cycle are highlighted" || diag "got: $got" "want: $want" "$err"
# the other links keep their plain style, and the cycle's are red and thick
[ "$(grep -c ' -- ' "$TMPD/cyc.dot")" -eq 30 ] &&
    [ "$(grep -c 'color="red", penwidth=3' "$TMPD/cyc.dot")" -eq 20 ]
ok $? "--cycle: 30 links, 20 of them red and thick"
draws "$TMPD/cyc.dot" "rrg n=20 with its cycle"
# without --cycle nothing is highlighted
[ "$(topo-conv -f dot "$TMPD/rrg.topo" | grep -c 'cycle')" -eq 0 ]
ok $? "without --cycle no link is highlighted"

# ---- errors -----------------------------------------------------------------------------
run topo-conv --cycle "$TMPD/rrg.cyc" "$TMPD/rrg.topo"
[ "$rc" -eq 2 ] && [ -z "$out" ] && printf '%s\n' "$err" | head -n 1 | grep -q -- '--cycle .*only with -f dot'
ok $? "--cycle without -f dot: usage error (exit 2)" || diag "$err"
run topo-conv -f dot --cycle "$TMPD/none.cyc" "$TMPD/rrg.topo"
expect_fail 1 'none\.cyc' "--cycle FILE that does not exist: exit 1, named"
topo-gen rrg n=20 d=3 -s 2 -o "$TMPD/other.topo"
run topo-conv -f dot --cycle "$TMPD/rrg.cyc" "$TMPD/other.topo"
expect_fail 1 'rrg\.cyc: graph 1 of .*other\.topo: cycle: switches [0-9]+ and [0-9]+ .*not linked' \
    "--cycle of another graph: exit 1, names the cycle file and the two switches, no output"
topo-gen rrg n=10 d=3 -s 1 -o "$TMPD/small.topo"
run topo-conv -f dot --cycle "$TMPD/rrg.cyc" "$TMPD/small.topo"
expect_fail 1 'rrg\.cyc' "--cycle with ids outside the graph: exit 1, names the cycle file"
done_testing
