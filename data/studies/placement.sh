#!/bin/sh
# placement.sh - job placement on a palmtree Dragonfly, after P. Fuentes,
# E. Vallejo, C. Camarero, R. Beivide, M. Valero, "Network Unfairness in
# Dragonfly Topologies", Section 7.2: uniform (all-to-all) traffic of a
# job placed on h+1 consecutive groups is ADVc in its first group, whose
# R_out router holds the only global links to the job's other groups.
#
#   sh placement.sh [--h H] [--seeds N]
#
# Topology: topo-gen dragonfly h=H (a = 2H routers per group, p = H servers
# per router, g = aH + 1 groups, palmtree; default H = 3: 342 servers).
# One job of J = (H+1) a p servers (H+1 groups' worth), app=all-to-all,
# placed (topo-job(1)) consecutive (groups 0..H), spread (round-robin over
# all groups) and random (-s 1..N, default 3); the whole machine under
# topo-pattern advc is the reference.  Per placement and routing
# (dragonfly-min, dragonfly-valiant):
#   topo-load: max_load.global, throughput, and in group 0 the routers
#     whose global links carry load (rout: "5" = one router, R_out) and
#     the largest load on them (g0_max);
#   topo-sim, arbitration transit (in-transit priority, the paper's
#     Table 2 setting), offered load 1: accepted per server, saturation,
#     rtr_min and rtr_maxmin (per-router fairness), and the mean accepted
#     load of the ranks on group 0's R_out router (a-1), rout_srv, against
#     the mean over group 0's other routers that host ranks, other_srv
#     ("-": no rank there).
# expect: the closed form of the consecutive job under dragonfly-min,
# throughput (J-1)/(a p)^2 (group 0's a p servers send (a p)/(J-1) of
# their traffic to each of the H other groups over one link each); ADVc's
# is H/(a p) (the paper's h/ap).
# Prints one TSV table on standard output; progress on standard error.
set -eu

usage() {
    echo "usage: sh placement.sh [--h H] [--seeds N]" >&2
    exit 2
}
H=3 SEEDS=3
while [ $# -gt 0 ]; do
    case $1 in
    --h) H=$2; shift 2 ;;
    --seeds) SEEDS=$2; shift 2 ;;
    *) usage ;;
    esac
done
command -v topo-job >/dev/null 2>&1 || PATH=$(pwd):$PATH
W=$(mktemp -d "${TMPDIR:-/tmp}/placement.XXXXXX")
trap 'rm -rf "$W"' EXIT

A=$((2 * H)) P=$H
J=$(((H + 1) * A * P))
topo-gen dragonfly h="$H" >"$W/df.topo"
echo "placement.sh: $(sed -n 2p "$W/df.topo"), J=$J" >&2

# row NAME PATTERN ROUTING EXPECT
row() {
    name=$1 pat=$2 rt=$3 expect=$4
    echo "placement.sh: $name $rt" >&2
    load=$(topo-load -r "$rt" -P "$pat" "$W/df.topo" | awk -F '\t' '
        NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { print $c["max_load.global"] "\t" $c["throughput"] }')
    g0=$(topo-load -r "$rt" -P "$pat" --top 1000000 "$W/df.topo" | awk -F '\t' -v a="$A" '
        NR > 1 && $4 == "global" && $2 < a && $5 > 0 { if (!($2 in r)) { r[$2] = 1; n++ } if ($5 > m) m = $5 }
        END { s = ""; for (k = 0; k < a; k++) if (k in r) s = s (s == "" ? "" : ",") k; print s "\t" m + 0 }')
    sim=$(topo-sim -a transit -r "$rt" -P "$pat" --per-server "$W/ps.tsv" "$W/df.topo" | awk -F '\t' '
        NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { print $c["accepted"] "\t" $c["saturation"] "\t" $c["rtr_min"] "\t" $c["rtr_maxmin"] }')
    sed '1,/^demands /d' "$pat" | awk '{ print $1 }' | sort -u >"$W/src"
    rout=$(awk -F '\t' -v a="$A" '
        NR == FNR { src[$1] = 1; next }
        $2 != "server" && $3 < a && ($2 in src) { s[$3] += $4; n[$3]++ }
        END { for (k in s) if (k == a - 1) ro = s[k] / n[k]; else { o += s[k] / n[k]; no++ }
              printf "%s\t%s\n", (a - 1) in s ? ro : "-", no ? o / no : "-" }' "$W/src" "$W/ps.tsv")
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$rt" "$load" "$g0" "$sim" "$rout" "$expect"
}

printf 'placement\trouting\tmax_load_global\tthroughput\trout\tg0_max\taccepted\tsaturation\trtr_min\trtr_maxmin\trout_srv\tother_srv\texpect\n'
topo-job --form explicit -j "j=$J" -o "$W/consecutive.p" "$W/df.topo"
topo-job --form explicit -j "j=$J place=spread" -o "$W/spread.p" "$W/df.topo"
topo-pattern advc --explicit -o "$W/advc.p" "$W/df.topo"
for rt in dragonfly-min dragonfly-valiant; do
    e1=- e2=-
    if [ "$rt" = dragonfly-min ]; then
        e1=$(awk -v j="$J" -v ap=$((A * P)) 'BEGIN { printf "%.6f", (j - 1) / (ap * ap) }')
        e2=$(awk -v h="$H" -v ap=$((A * P)) 'BEGIN { printf "%.6f", h / ap }')
    fi
    row consecutive "$W/consecutive.p" "$rt" "$e1"
    row spread "$W/spread.p" "$rt" -
    s=1
    while [ "$s" -le "$SEEDS" ]; do
        topo-job --form explicit -s "$s" -j "j=$J place=random" -o "$W/random.p" "$W/df.topo"
        row "random s=$s" "$W/random.p" "$rt" -
        s=$((s + 1))
    done
    row "ADVc (machine)" "$W/advc.p" "$rt" "$e2"
done
