#!/bin/sh
# antmill.sh - the simulation study of the Ant Mill paper (an adverse
# traffic pattern for networks built on random regular graphs: every server
# of switch x_i of a Hamiltonian cycle whose windows of length delta have
# unique shortest paths sends to x_{i+lambda}), Section 6.2, in the flow
# model of topo-sim(1), beside the relations the paper states
# (antmill-published.tsv, next to this script).
#
#   sh antmill.sh [--n N --d D [--p P]] [--paper] [-s SEED] [--budget SEC]
#                 [--res R] [--iter N] [--routings 'R ...'] [--plot FILE]
#
# Topology: a random regular graph, topo-gen rrg n=N d=D -s SEED (default
# n=64 d=8, k = 3.0 in d^k = 2 n ln n, inside the paper's 2.2..3.7), with
# P servers per switch (default: d / average distance, rounded, as the
# paper sizes them).  --paper: n=1224 d=24 p=9 (the paper's representative
# RRG has 1224 switches; its degree and servers are in its lost Table 1,
# so d=24, p=9 is our inference, k = 3.07); that run takes hours.
# Patterns: uniform (topo-sim's default), a random server permutation
# (topo-pattern server-perm -s SEED) and the (H, delta)-Ant-mill of the
# largest delta topo-antmill finds within --budget seconds (default 30).
# Routings: min, ksp:8 (8-KSP), valiant,early (the paper's Valiant, which
# stops when its first phase reaches the destination) and
# polarized-adaptive (topokit(7), ADAPTIVE ROUTING, its default
# parameters, at most --iter iterations per solve, default 300, the same
# for every row), all with max-min fair arbitration.
#
# Columns of the first table (loads per server, a fraction of its link):
#   saturation  the largest offered load at which every flow is fully
#               served (oblivious routings: topo-sim's saturation column,
#               which is topo-load's throughput; polarized-adaptive: a
#               bisection on --rho to --res, default 0.01, the lower end)
#   accepted    the mean accepted load at offered load 1
#   jain        the Jain index of the servers' accepted loads at offered
#               load 1 (the paper's fairness metric)
#   converged   polarized-adaptive at offered load 1: whether the fixed
#               point was reached (no: a snapshot after its 2000 iterations)
#   seconds     the cell's wall time
# The second table sets our value of each relation the paper states beside
# the paper's, from our saturation loads (ours_sat) and from our accepted
# loads at offered load 1 (ours_acc); diff is ours minus the paper's for
# the fractions, judged flags a fraction more than 0.1 off, a bound that
# fails, a value outside the paper's range (README.md says why).
#
# Prints the two TSV tables on standard output, progress on standard
# error.  Uses the topo-* tools on PATH, else those in the current
# directory (a build directory).  Work files go to a temporary directory
# that is removed on exit.
set -eu

usage() {
    echo "usage: sh antmill.sh [--n N --d D [--p P]] [--paper] [-s SEED] [--budget SEC] [--res R] [--iter N] [--routings 'R ...'] [--plot FILE]" >&2
    exit 2
}

N=64 D=8 P= SEED=1 BUDGET=30 RES=0.01 PLOT= ITER=300
ROUTINGS="min ksp:8 valiant,early polarized-adaptive"
while [ $# -gt 0 ]; do
    case $1 in
    --n) [ $# -ge 2 ] || usage; N=$2; shift ;;
    --d) [ $# -ge 2 ] || usage; D=$2; shift ;;
    --p) [ $# -ge 2 ] || usage; P=$2; shift ;;
    --paper) N=1224 D=24 P=9 ;;
    -s) [ $# -ge 2 ] || usage; SEED=$2; shift ;;
    --budget) [ $# -ge 2 ] || usage; BUDGET=$2; shift ;;
    --res) [ $# -ge 2 ] || usage; RES=$2; shift ;;
    --routings) [ $# -ge 2 ] || usage; ROUTINGS=$2; shift ;;
    --iter) [ $# -ge 2 ] || usage; ITER=$2; shift ;;
    --plot) [ $# -ge 2 ] || usage; PLOT=$2; shift ;;
    *) usage ;;
    esac
    shift
done
command -v topo-sim >/dev/null 2>&1 || PATH=$PWD:$PATH
command -v topo-sim >/dev/null 2>&1 || { echo "antmill.sh: topo-sim not found" >&2; exit 1; }
here=$(cd "$(dirname "$0")" && pwd)
published=${PUBLISHED:-$here/antmill-published.tsv}
[ -r "$published" ] || { echo "antmill.sh: $published: not readable" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/antmill.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

# col FILE NAME: column NAME of the first data row
col() {
    awk -F '\t' -v k="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        NR == 2 { print (k in c) ? $(c[k]) : "NA"; exit }' "$1"
}
now() { date +%s.%N; }

# --- topology and patterns ------------------------------------------------------
if [ -z "$P" ]; then
    topo-gen rrg n="$N" d="$D" -s "$SEED" -o "$work/g1.topo"
    P=$(topo-dist "$work/g1.topo" | awk -F '\t' -v d="$D" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        NR == 2 { p = int(d / $(c["avg_distance"]) + 0.5); print p < 1 ? 1 : p }')
fi
topo-gen rrg n="$N" d="$D" -p "$P" -s "$SEED" -o "$work/g.topo"
name=$(sed -n 's/^spec //p' "$work/g.topo" | head -n 1)
echo "antmill.sh: $name, Hamiltonian cycle search (--budget $BUDGET s)" >&2
topo-antmill --max-delta --budget "$BUDGET" -s "$SEED" --no-uniform -P "$work/antmill.pat" \
    "$work/g.topo" >"$work/row.tsv" 2>"$work/antmill.err" || {
    cat "$work/antmill.err" >&2
    exit 1
}
delta=$(col "$work/row.tsv" delta)
avgd=$(col "$work/row.tsv" avg_distance)
topo-pattern server-perm -s "$SEED" -o "$work/perm.pat" "$work/g.topo"
echo "# topology: $name (servers per switch $P, average distance $avgd, delta $delta)"

# --- cells ------------------------------------------------------------------------
# cell ROUTING PATTERN: one row of the first table
cell() {
    r=$1 pat=$2 t0=$(now)
    case $pat in
    uniform) m= ;;
    perm) m="-P $work/perm.pat" ;;
    antmill) m="-P $work/antmill.pat" ;;
    esac
    echo "antmill.sh: $r, $pat" >&2
    case $r in polarized-adaptive*) r="$r,iter=$ITER" ;; esac
    topo-sim -r "$r" $m "$work/g.topo" >"$work/at1.tsv" 2>"$work/at1.err"
    acc=$(col "$work/at1.tsv" accepted)
    jain=$(col "$work/at1.tsv" srv_jain)
    conv=-
    case $r in
    polarized-adaptive*)
        conv=yes
        ! grep -q 'no fixed point' "$work/at1.err" || conv=no
        # bisection: lo served (0 trivially), hi not
        lo=0 hi=1
        ms=$(col "$work/at1.tsv" min_served)
        if awk -v m="$ms" 'BEGIN { exit !(m >= 1 - 1e-6) }'; then lo=1; fi
        while awk -v l=$lo -v h=$hi -v r="$RES" 'BEGIN { exit !(h - l > r) }'; do
            mid=$(awk -v l=$lo -v h=$hi 'BEGIN { printf "%.6g", (l + h) / 2 }')
            topo-sim -r "$r" $m --rho "$mid" "$work/g.topo" >"$work/p.tsv" 2>/dev/null
            ms=$(col "$work/p.tsv" min_served)
            if awk -v m="$ms" 'BEGIN { exit !(m >= 1 - 1e-6) }'; then lo=$mid; else hi=$mid; fi
        done
        sat=$lo
        ;;
    *)
        sat=$(col "$work/at1.tsv" saturation)
        ;;
    esac
    printf '%s\t%s\t%s\t%.6g\t%.6g\t%.6g\t%s\t%.1f\n' "$name" "${r%%,iter=*}" "$pat" "$sat" "$acc" "$jain" \
        "$conv" "$(awk -v a="$t0" -v b="$(now)" 'BEGIN { print b - a }')"
}

{
    printf 'topology\trouting\tpattern\tsaturation\taccepted\tjain\tconverged\tseconds\n'
    for r in $ROUTINGS; do
        for pat in uniform perm antmill; do
            cell "$r" $pat
        done
    done
} >"$work/table.tsv"
cat "$work/table.tsv"
echo

# --- the paper's relations ---------------------------------------------------------
# sat ROUTING PATTERN: our saturation; acc: our accepted load at 1
sat() {
    awk -F '\t' -v r="$1" -v p="$2" 'NR > 1 && $2 == r && $3 == p { print $4; f = 1 } END { if (!f) print "NA" }' \
        "$work/table.tsv"
}
acc() {
    awk -F '\t' -v r="$1" -v p="$2" 'NR > 1 && $2 == r && $3 == p { print $5; f = 1 } END { if (!f) print "NA" }' \
        "$work/table.tsv"
}
rel() { # NAME SOURCE PAPER OURS_SAT OURS_ACC KIND (frac: |diff| > 0.1 flagged;
    # min: ours >= paper; range LO-HI; show)
    awk -v n="$1" -v s="$2" -v p="$3" -v o="$4" -v a="$5" -v k="$6" '
    function judge(x) {
        if (x == "NA" || x == "") return "NA"
        if (k == "frac") { d = x - p; return (d > 0.1 || d < -0.1) ? "> 0.1 off" : "ok" }
        if (k == "min") return (x >= p) ? "holds" : "fails"
        if (k == "range") { split(p, r, "-"); return (x >= r[1] && x <= r[2]) ? "inside" : "outside" }
        return "-"
    }
    function diff(x) { return (k != "frac" || x == "NA" || x == "") ? "NA" : sprintf("%+.4g", x - p) }
    BEGIN { printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", n, s, p, o, diff(o), judge(o), a, diff(a), judge(a) }'
}
q() { # A / B, or NA
    awk -v a="$1" -v b="$2" 'BEGIN { if (a == "NA" || b == "NA" || b + 0 == 0) print "NA"; else printf "%.6g", a / b }'
}
om() { # 1 - A / B
    awk -v a="$1" -v b="$2" 'BEGIN { if (a == "NA" || b == "NA" || b + 0 == 0) print "NA"; else printf "%.6g", 1 - a / b }'
}
for v in "mu min uniform" "ma min antmill" "mp min perm" "ku ksp:8 uniform" \
    "pu polarized-adaptive uniform" "pa polarized-adaptive antmill" \
    "pp polarized-adaptive perm" "vu valiant,early uniform"; do
    set -- $v
    eval "$1=\$(sat $2 $3) A$1=\$(acc $2 $3)"
done
bound=$(awk -v p="$P" -v l="$delta" 'BEGIN { printf "%.6g", 1 / (p * l) }')
printf 'key\tsource\tpaper\tours_sat\tdiff_sat\tjudged_sat\tours_acc\tdiff_acc\tjudged_acc\n'
# our value of each published relation (antmill-published.tsv)
ours() { # KEY: "SAT ACC"
    case $1 in
    min-antmill-reduction) echo "$(om "$ma" "$mu") $(om "$Ama" "$Amu")" ;;
    min-antmill-slowdown) echo "$(q "$mu" "$ma") $(q "$Amu" "$Ama")" ;;
    min-perm-slowdown) echo "$(q "$mp" "$ma") $(q "$Amp" "$Ama")" ;;
    ksp-uniform-reduction) echo "$(om "$ku" "$mu") $(om "$Aku" "$Amu")" ;;
    polarized-uniform-reduction) echo "$(om "$pu" "$mu") $(om "$Apu" "$Amu")" ;;
    valiant-uniform-ratio) echo "$(q "$vu" "$mu") $(q "$Avu" "$Amu")" ;;
    polarized-antmill-ratio) echo "$(q "$pa" "$pu") $(q "$Apa" "$Apu")" ;;
    polarized-perm-ratio) echo "$(q "$pp" "$pu") $(q "$App" "$Apu")" ;;
    *) echo "NA NA" ;;
    esac
}
grep -v '^#' "$published" | tail -n +2 | while IFS='	' read -r key src paper kind what; do
    set -- $(ours "$key")
    rel "$key" "$src" "$paper" "$1" "$2" "$kind"
done
# Remark 1: unique shortest paths up to delta make MIN's induced subgraph
# the cycle, loaded delta times: 1/(p delta) per server, a slowdown of
# d delta / avg_distance against uniform when p = d / avg_distance
rel remark1-bound "Remark 1 (1/(p delta))" "$bound" "$ma" "$Ama" frac
rel remark1-slowdown "Remark 1 (d delta / avg_distance)" \
    "$(awk -v d="$D" -v l="$delta" -v a="$avgd" 'BEGIN { printf "%.4g", d * l / a }')" \
    "$(q "$mu" "$ma")" "$(q "$Amu" "$Ama")" show

# --- optional plot: accepted against offered load (the paper's Fig. 5 frames) -------
if [ -n "$PLOT" ]; then
    if command -v gnuplot >/dev/null 2>&1; then
        first=1
        for r in $ROUTINGS; do
            for pat in uniform perm antmill; do
                case $pat in
                uniform) m= ;;
                perm) m="-P $work/perm.pat" ;;
                antmill) m="-P $work/antmill.pat" ;;
                esac
                echo "antmill.sh: plot, $r, $pat" >&2
                rr=$r
                case $r in polarized-adaptive*) rr="$r,iter=$ITER" ;; esac
                # the columns every routing has (adaptive rules add some)
                topo-sim -r "$rr" $m --sweep 0.1:1:0.1 "$work/g.topo" 2>/dev/null |
                    awk -F '\t' -v OFS='\t' -v f=$first -v r="$r" -v p="$pat" '
                    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
                    NR > 1 { $(c["routing"]) = r; $(c["pattern"]) = p }
                    NR > 1 || f { print $(c["name"]), $(c["routing"]), $(c["pattern"]), $(c["rho"]),
                        $(c["offered"]), $(c["accepted"]), $(c["min_served"]), $(c["saturation"]) }' \
                        >>"$work/sweep.tsv"
                first=0
            done
        done
        topo-plot --title "Ant Mill study: $name" --by routing,pattern \
            --caption "sh antmill.sh --n $N --d $D --p $P -s $SEED" -o "$PLOT" "$work/sweep.tsv"
    else
        echo "antmill.sh: gnuplot not found; no plot" >&2
    fi
fi
