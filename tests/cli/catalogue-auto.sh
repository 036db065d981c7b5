#!/bin/sh
# catalogue-auto.sh - automorphism group orders (topo-auto) of the
# symmetric families of topo-gen against closed forms:
#   Hamming graph H(d, q) (hyperx sides=q,...,q):  (q!)^d * d!
#   Slim Fly q=5 = Hoffman-Singleton:               252000
#   Levi graph of PG(2,q) (with dualities):         2 * e * q^3 (q^3-1)(q^2-1)
#                                                   (q = p^e; Heawood: 336)
#   ER_q, q prime (PGO(3,q) = PGL(2,q)):            q (q^2 - 1)
#   k-ary fat-tree, h = k/2 (pods, edges in a pod, aggregation positions with
#   their core groups, cores in a group):          k! (h!)^k h! (h!)^h
#   leaf-spine levels=2 (K_{k,k/2}):                k! (k/2)!
#   dragonfly a=1 h=H (K_{H+1}):                    (H+1)!
#   dragonfly a=1 h=5 g=4 (C_4 with doubled links plus the two single
#   diagonals, see test_catalogue.c): the dihedral group D_4, 8
# topo-auto respects server counts and link classes, which these
# constructions make uniform within each orbit, so the orders are those of
# the bare graphs.
. "$TK_SRCDIR/tests/cli/lib.sh"
command -v topo-auto >/dev/null 2>&1 || skip_all "topo-auto not built"

while IFS='|' read -r args order; do
    [ -n "$args" ] || continue
    run sh -c "topo-gen $args | topo-auto"
    got=$(printf '%s\n' "$out" | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "group_order") k = i } NR == 2 { print $k }')
    [ "$rc" -eq 0 ] && [ "$got" = "$order" ]
    ok $? "topo-gen $args | topo-auto: group order $order" || diag "got '$got'" "$err"
done <<'EOF2'
hyperx sides=3,3|72
hyperx sides=3,3,3|1296
hyperx sides=4,4,4|82944
hyperx sides=5,5|28800
hyperx sides=2,2,2,2|384
slimfly q=5|252000
projective q=2 levi=1|336
projective q=3 levi=1|11232
projective q=4 levi=1|241920
projective q=3|24
projective q=5|120
projective q=7|336
fattree k=4|3072
fattree k=6|43535646720
fattree k=4 levels=2|48
fattree k=6 levels=2|4320
dragonfly a=1 h=4|120
dragonfly a=1 h=5 g=4|8
EOF2
done_testing
