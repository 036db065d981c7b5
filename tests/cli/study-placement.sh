# data/studies/placement.sh at h = 2 with one random seed: the four
# placements under both routings, in the script's order; the whole machine
# under ADVc and minimal routing is the closed form of the palmtree
# Dragonfly's R_out bottleneck (a p = 2h^2 servers' traffic over h global
# links: throughput 1/(2h) = 0.25, global load 2h = 4), and the
# consecutive job's throughput is the script's closed form (expect).
. "$TK_SRCDIR/tests/cli/lib.sh"

study=$TK_SRCDIR/data/studies/placement.sh
cd "$TMPD" || exit 1
sh "$study" --h 2 --seeds 1 >table.tsv 2>table.err
ok $? "placement.sh --h 2 --seeds 1 runs" || diag "$(tail -5 table.err)"

got=$(awk -F '\t' 'NR > 1 { printf "%s/%s|", $1, $2 }' table.tsv)
want=
for rt in dragonfly-min dragonfly-valiant; do
    want="${want}consecutive/$rt|spread/$rt|random s=1/$rt|ADVc (machine)/$rt|"
done
[ "$got" = "$want" ]
ok $? "four placements under dragonfly-min, then under dragonfly-valiant" || diag "$got"

got=$(awk -F '\t' '$1 == "ADVc (machine)" && $2 == "dragonfly-min" { printf "%.9f %.9f", $4, $3 }' table.tsv)
[ "$got" = "0.250000000 4.000000000" ]
ok $? "ADVc on the whole machine, minimal: throughput 1/(2h) = 0.25, global load 2h = 4" || diag "$got"

awk -F '\t' '$1 == "consecutive" && $2 == "dragonfly-min" { d = $4 - $13; exit !(d < 1e-6 && d > -1e-6) }' table.tsv
ok $? "the consecutive job under dragonfly-min: throughput = the closed form" ||
    diag "$(awk -F '\t' '$1 == "consecutive"' table.tsv)"

done_testing
