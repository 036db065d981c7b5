#!/bin/sh
# ugal-le.sh - the saturation study of Chaulagain and Yuan, "Enhanced UGAL
# Routing Schemes for Dragonfly Networks" (ICS '24, Section 5.2), in the
# flow model of topo-sim(1) (topokit(7), ADAPTIVE ROUTING), beside the
# numbers the paper prints (ugal-le-published.tsv, next to this script).
#
#   sh ugal-le.sh [--quick] [--groups '33 9'] [--patterns 'KEY ...']
#                 [--rules 'RULE ...'] [--seeds N] [--jobs N] [--res R]
#                 [--par-iter N] [--keep DIR [--table-only]] [--plot FILE]
#
# Topologies: dfly(4,8,4,33) and dfly(4,8,4,9) in the paper's
# dfly(p,a,h,g) order, absolute global arrangement.  Patterns (as the
# paper's Figures 6-16 have them, see README.md for the choices the paper
# leaves open): shift (group g to group g+1, the server at the same
# position), random server permutation, router-level shift mixes 25/50/75%
# and node-level permutation mixes 50/75% on dfly(4,8,4,33); shift,
# node-level shift mix 50% and random permutation on dfly(4,8,4,9).
# Rules: ugal-l, ugal-le, par, ugal-g, dgb, edgb with topo-sim's defaults
# (one parameter set for every row); par with at most --par-iter
# iterations (default 300), the same for every par row.  --rules: only
# the rules listed (the table then has only their rows).
#
# Metric: the saturation throughput is the largest offered load per server
# at which every flow is fully served (min_served >= 1 - 1e-6); beside it
# (sat99) the largest at which every flow gets at least 99% of its demand
# (min_served >= 0.99; README.md says why).  Both are found by bisection on
# --rho over (0, 1], each probe one load solved from the rule's first
# split, narrowing both brackets, until each is --res wide (default 0.01);
# one topo-sim --bisect run per cell does the whole search (topo-sim(1));
# the lower end, a load shown to be served, is reported,
# times the offered load per server at rho = 1 (below 1 for the mixes,
# whose weights topo-pattern scales so that no server receives more than
# its link); also the accepted load per server at rho = 1.  Randomised
# patterns are averaged over --seeds seeds (1..N; default 3) with a 95%
# confidence interval (Student t).
#
# --quick: dfly(4,8,4,9) only (the whole dfly(4,8,4,33) table takes hours
# on 2 cores; README.md has the measured times); --groups: the topologies
# by their g (33, 9 or both); --patterns: only the pattern keys listed
# (shift perm router-shift-25 router-shift-50 router-shift-75 node-perm-50
# node-perm-75 node-shift-50).  --keep DIR: work in DIR and keep it; a
# second run with the same DIR and options skips the cells done, so a long
# run can be resumed (one run at a time in a DIR: a second one exits 1
# while the first runs); --table-only (with --keep) prints the table of the
# cells done so far without running any and writes nothing in DIR, so it
# can follow a run that works there (exit 1 if DIR does not exist); each
# cell's probes (rho,
# min_served, iterations, residual, converged, seconds) are in
# DIR/*.out.probes.  --jobs: cells run in parallel (default 2), the
# costliest kinds first, each topo-sim with the cores / --jobs threads.  --plot FILE: with gnuplot on PATH, a PNG bar chart
# of ours against the paper.
#
# Prints one TSV table on standard output; progress goes to standard
# error.  Uses the topo-* tools on PATH, else those in the current
# directory (a build directory).  Work files go to a temporary directory
# that is removed on exit.
set -eu

usage() {
    echo "usage: sh ugal-le.sh [--quick] [--groups '33 9'] [--patterns 'KEY ...'] [--rules 'RULE ...'] [--seeds N] [--jobs N] [--res R] [--par-iter N] [--keep DIR [--table-only]] [--plot FILE]" >&2
    exit 2
}

# --- one cell: a topology, a pattern file and a rule --------------------------
# sh ugal-le.sh --cell TOPO PATTERN RULE OUT: the two bisections below, one
# line to OUT: sat sat99 accepted_at_1 min_share_at_1 runs not_converged
# seconds (sat and sat99 as offered loads per server); OUT.probes: one
# line per load solved, in order: rho min_served iterations residual
# converged(1/0) seconds
if [ "${1:-}" = --cell ]; then
    topo=$2 pat=$3 rule=$4 out=$5
    r=$rule
    [ "$rule" != par ] || r="par,iter=$PAR_ITER"
    t0=$(date +%s.%N)
    # Two brackets on rho, [loA, hiA] for min_served >= 1 - 1e-6 and [loB,
    # hiB] for min_served >= 0.99: lo served (0 trivially), hi not.  The
    # first load is 1; every load solved narrows both; bisect A to RES,
    # then B to RES.  topo-sim --bisect RES runs exactly that search in
    # one process (the candidates built once, every load a cold start as
    # a run of its own), one row per load; the brackets are read back
    # from the rows below.
    topo-sim -r "$r" -P "$pat" --bisect "$RES" --threads "${THREADS:-1}" --progress "$topo" \
        >"$out.tsv" 2>"$out.err" || { cat "$out.err" >&2; exit 1; }
    set -- $(awk -F '\t' -v errs="$out.err" -v probes="$out.probes" '
        BEGIN { la = lb = 0; ha = hb = 1; runs = nc = 0
            while ((getline l < errs) > 0) {
                if (l ~ / solved in /) { sub(/.* solved in /, "", l); sec[++ns] = l + 0 }
                if (l ~ /: no fixed point/) { nc++; sub(/: no fixed point.*/, "", l); sub(/.* rho /, "", l); nf[l + 0] = 1 }
            }
        }
        NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        {   g = $(c["rho"]); m = $(c["min_served"]); runs++
            if (m >= 1 - 1e-6) { if (g > la) la = g } else if (g < ha) ha = g
            if (m >= 0.99) { if (g > lb) lb = g } else if (g < hb) hb = g
            if (runs == 1) { acc = $(c["accepted"]); off = $(c["offered"]); share = $(c["min_share"]) }
            it = $(c["iterations"]); res = $(c["residual"])
            printf "%s\t%s\t%s\t%s\t%d\t%s\n", g, m, it, res, !((g + 0) in nf), sec[runs] > probes }
        END { if (runs) print la, lb, acc, off, share, runs, nc }' "$out.tsv")
    [ $# -eq 7 ] || { cat "$out.err" >&2; exit 1; }
    loA=$1 loB=$2 acc1=$3 off1=$4 share1=$5 runs=$6 nc=$7
    t1=$(date +%s.%N)
    awk -v la=$loA -v lb=$loB -v off=$off1 -v acc=$acc1 -v sh=$share1 -v runs=$runs -v nc=$nc \
        -v t0=$t0 -v t1=$t1 'BEGIN { printf "%.6f\t%.6f\t%.6f\t%.4f\t%d\t%d\t%.1f\n", la * off, lb * off, acc, sh, runs, nc, t1 - t0 }' >"$out.part"
    mv "$out.part" "$out" # whole or absent, for a --table-only reading meanwhile
    rm -f "$out.tsv" "$out.err"
    exit 0
fi

# --- options ---------------------------------------------------------------------
QUICK=0 SEEDS=3 JOBS=2 PLOT= GROUPS_ARG= ONLY= ONLY_RULES= KEEP= TABLE_ONLY=0
RES=${RES:-0.01} PAR_ITER=${PAR_ITER:-300}
while [ $# -gt 0 ]; do
    case $1 in
    --quick) QUICK=1 ;;
    --groups) [ $# -ge 2 ] || usage; GROUPS_ARG=$2; shift ;;
    --patterns) [ $# -ge 2 ] || usage; ONLY=$2; shift ;;
    --rules) [ $# -ge 2 ] || usage; ONLY_RULES=$2; shift ;;
    --keep) [ $# -ge 2 ] || usage; KEEP=$2; shift ;;
    --table-only) TABLE_ONLY=1 ;;
    --seeds) [ $# -ge 2 ] || usage; SEEDS=$2; shift ;;
    --jobs) [ $# -ge 2 ] || usage; JOBS=$2; shift ;;
    --res) [ $# -ge 2 ] || usage; RES=$2; shift ;;
    --par-iter) [ $# -ge 2 ] || usage; PAR_ITER=$2; shift ;;
    --plot) [ $# -ge 2 ] || usage; PLOT=$2; shift ;;
    -h | --help) sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) usage ;;
    esac
    shift
done
for v in "$SEEDS" "$JOBS" "$PAR_ITER"; do
    case $v in '' | *[!0-9]* | 0) usage ;; esac
done
awk -v r="$RES" 'BEGIN { exit !(r + 0 > 0 && r + 0 < 1) }' || usage
# topo-sim's threads per cell: the cores shared among the --jobs cells
THREADS=$(awk -v c="$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)" -v j=$JOBS 'BEGIN { t = int(c / j); print t < 1 ? 1 : t }')
export RES PAR_ITER THREADS

here=$(cd "$(dirname "$0")" && pwd)
published=${PUBLISHED:-$here/ugal-le-published.tsv}
[ -r "$published" ] || { echo "ugal-le.sh: $published: not readable" >&2; exit 1; }
if ! command -v topo-sim >/dev/null 2>&1 && [ -x ./topo-sim ]; then
    PATH=$(pwd):$PATH
    export PATH
fi
for t in topo-gen topo-pattern topo-sim; do
    command -v $t >/dev/null 2>&1 || { echo "ugal-le.sh: $t not found on PATH or in ." >&2; exit 1; }
done
echo "ugal-le.sh: using $(command -v topo-sim)" >&2

# keep: where the cells' results are; work: the topologies, patterns and
# lists of this run (DIR itself with --keep, unless --table-only)
if [ -n "$KEEP" ] && [ $TABLE_ONLY = 1 ]; then
    # read-only: the table of the cells done so far, written nowhere in
    # DIR, so it can be printed while another run works there
    [ -d "$KEEP" ] || { echo "ugal-le.sh: $KEEP: no such directory" >&2; exit 1; }
    keep=$(cd "$KEEP" && pwd)
    work=$(mktemp -d "${TMPDIR:-/tmp}/ugal-le.XXXXXX")
    trap 'rm -rf "$work"' EXIT INT TERM
elif [ -n "$KEEP" ]; then
    mkdir -p "$KEEP"
    work=$(cd "$KEEP" && pwd)
    keep=$work
    # one run at a time in DIR: another would rewrite the cell list and the
    # patterns that this one's runs are reading (held until every run ends)
    exec 9>>"$work/.lock"
    flock -n 9 || { echo "ugal-le.sh: $KEEP: in use by another run of ugal-le.sh" >&2; exit 1; }
else
    [ $TABLE_ONLY = 0 ] || usage
    work=$(mktemp -d "${TMPDIR:-/tmp}/ugal-le.XXXXXX")
    keep=$work
    trap 'rm -rf "$work"' EXIT INT TERM
fi
start=$(date +%s)

# --- topologies and pattern instances ----------------------------------------------
# instances: topology key seed (- for a fixed pattern) and the topo-pattern kind
RULES="ugal-l ugal-le par ugal-g dgb edgb"
# --rules: keep the rules listed, in the table's order
if [ -n "$ONLY_RULES" ]; then
    for r in $ONLY_RULES; do
        case " $RULES " in *" $r "*) ;; *) echo "ugal-le.sh: --rules: no rule '$r' (one of: $RULES)" >&2; exit 2 ;; esac
    done
    RULES=$(for r in $RULES; do case " $ONLY_RULES " in *" $r "*) printf '%s ' "$r" ;; esac; done)
fi
TOPOS="dfly(4,8,4,33) dfly(4,8,4,9)"
[ $QUICK = 0 ] || TOPOS="dfly(4,8,4,9)"
if [ -n "$GROUPS_ARG" ]; then
    TOPOS=
    for g in $GROUPS_ARG; do
        case $g in 33 | 9) TOPOS="$TOPOS dfly(4,8,4,$g)" ;; *) usage ;; esac
    done
fi
seeds=$(awk -v n=$SEEDS 'BEGIN { for (i = 1; i <= n; i++) printf "%d ", i }')
: >"$work/instances"
for T in $TOPOS; do
    g=${T#dfly(4,8,4,}
    g=${g%)}
    [ $TABLE_ONLY = 1 ] || topo-gen dragonfly p=4 a=8 h=4 g=$g arrangement=absolute -o "$work/$g.topo"
    {
        echo "$T - shift shift offset=32"
        for s in $seeds; do echo "$T $s perm server-perm"; done
        if [ "$g" = 33 ]; then
            for x in 25 50 75; do
                for s in $seeds; do echo "$T $s router-shift-$x mixed base=shift percent=$x level=router"; done
            done
            for x in 50 75; do
                for s in $seeds; do echo "$T $s node-perm-$x mixed base=perm percent=$x level=node"; done
            done
        else
            for s in $seeds; do echo "$T $s node-shift-50 mixed base=shift percent=50 level=node"; done
        fi
    } >>"$work/instances"
done
# --patterns: keep the instances of the keys listed
if [ -n "$ONLY" ]; then
    awk -v only=" $ONLY " 'index(only, " " $3 " ")' "$work/instances" >"$work/kept"
    mv "$work/kept" "$work/instances"
    [ -s "$work/instances" ] || { echo "ugal-le.sh: --patterns '$ONLY': no such pattern" >&2; exit 2; }
fi
# the pattern files, and the cells (every instance under every rule)
: >"$work/cells"
while read -r T seed key kind; do
    g=${T#dfly(4,8,4,}
    g=${g%)}
    f="$work/$g.$key.$seed.pat"
    if [ $TABLE_ONLY = 1 ]; then
        : # no cell runs: no pattern needed
    elif [ "$seed" = - ]; then
        topo-pattern $kind -o "$f" "$work/$g.topo"
    else
        topo-pattern $kind -s "$seed" -o "$f" "$work/$g.topo"
    fi
    # the cells' expected cost, for longest first: the larger topology,
    # then the node-level mixes, the permutation, the router-level mixes,
    # the shift; par (its iteration cap) before the other rules
    case $key in node-*) w=4 ;; perm) w=3 ;; router-*) w=2 ;; *) w=1 ;; esac
    [ "$g" != 33 ] || w=$((w + 10))
    for r in $RULES; do
        # with --keep, a cell done by an earlier run is not run again
        [ -s "$keep/$g.$key.$seed.$r.out" ] ||
            echo "$w$([ $r = par ] && echo 1 || echo 0) $work/$g.topo $f $r $keep/$g.$key.$seed.$r.out" >>"$work/cells"
    done
done <"$work/instances"
# longest first (sort -s keeps the instances' order within a weight)
sort -s -k1,1nr "$work/cells" | cut -d ' ' -f 2- >"$work/cells.sorted"
mv "$work/cells.sorted" "$work/cells"
ncells=$(wc -l <"$work/cells")
echo "ugal-le.sh: $ncells cells to run ($(wc -l <"$work/instances") patterns x $(echo $RULES | wc -w) rules), $JOBS at a time, resolution $RES in rho, par iter=$PAR_ITER" >&2

# --- run the cells, in parallel ----------------------------------------------------
# every cell reports on stderr when done (-r: when every cell is kept
# there is nothing to run; without it xargs ran one empty cell, which failed)
self=$0
[ $TABLE_ONLY = 1 ] || xargs -r -P "$JOBS" -L 1 sh -c '
    sh "$0" --cell "$1" "$2" "$3" "$4" || { echo "ugal-le.sh: cell failed: $3 on $2" >&2; exit 255; }
    printf "ugal-le.sh: %s %s: %s\n" "$(basename "$2" .pat)" "$3" "$(awk -F "\t" "{ printf \"saturation %s (0.99: %s), accepted at 1 %s, %s runs, %s not converged, %s s\", \$1, \$2, \$3, \$5, \$6, \$7 }" "$4")" >&2
' "$self" <"$work/cells"

# --- the table ----------------------------------------------------------------------
# per (topology, pattern, rule): n, mean and 95% CI of the saturation and of
# the accepted load at rho = 1, the runs that did not converge; then the
# paper's number, the difference, the note
while read -r T seed key kind; do
    g=${T#dfly(4,8,4,}
    g=${g%)}
    for r in $RULES; do
        if [ -s "$keep/$g.$key.$seed.$r.out" ]; then
            printf '%s\t%s\t%s\t%s\t' "$T" "$key" "$seed" "$r"
            cat "$keep/$g.$key.$seed.$r.out"
        else
            echo "ugal-le.sh: $g.$key.$seed $r: not run, left out of the table" >&2
        fi
    done
done <"$work/instances" >"$work/results"

awk -F '\t' -v OFS='\t' -v pariter="$PAR_ITER" '
# Student t quantile 0.975 for df degrees of freedom
function tq(df) {
    split("12.706 4.303 3.182 2.776 2.571 2.447 2.365 2.306 2.262", t, " ")
    return df <= 9 ? t[df] : 1.96 + 2.5 / df
}
function ci(sum, sq, n,   m, v) {
    m = sum / n; v = n > 1 ? (sq - n * m * m) / (n - 1) : 0
    return n > 1 ? tq(n - 1) * sqrt(v > 0 ? v : 0) / sqrt(n) : 0
}
function num(x, r) { return r ? sprintf("%.3f", x) : "-" }
function dif(m, p) { return p == "not stated" ? "-" : sprintf("%+.3f", m - p) }
FILENAME == ARGV[1] { if ($0 ~ /^#/ || $1 == "figure") next
    pub[$2 SUBSEP $3 SUBSEP $4] = $5; fig[$2 SUBSEP $3] = $1; next }
{   k = $1 SUBSEP $2 SUBSEP $4
    if (!(k in n)) { order[++nk] = k; if (!(($1 SUBSEP $2) in seen)) { seen[$1 SUBSEP $2] = 1; porder[++np] = $1 SUBSEP $2 } }
    n[k]++; s[k] += $5; q[k] += $5 * $5; s9[k] += $6; q9[k] += $6 * $6; a[k] += $7; aq[k] += $7 * $7
    sh[k] += $8; runs[k] += $9; nc[k] += $10; random[k] = ($3 != "-") }
END {
    print "topology", "pattern", "routing", "figure", "paper", "ours_saturation", "ci95", "ours_sat99", "ci95", \
        "accepted_at_rho1", "ci95", "min_share_at_rho1", "diff", "diff99", "seeds", "note"
    for (j = 1; j <= np; j++) {
        split(porder[j], tp, SUBSEP)
        for (i = 1; i <= nk; i++) {
            split(order[i], kk, SUBSEP)
            if (kk[1] != tp[1] || kk[2] != tp[2]) continue
            k = order[i]; m = s[k] / n[k]; m9 = s9[k] / n[k]; rnd = random[k]
            p = (k in pub) ? pub[k] : "not stated"
            note = ""
            if (nc[k] > 0) note = nc[k] " of " runs[k] " runs did not converge" (kk[3] == "par" ? " (par iter=" pariter ")" : "")
            if (p != "not stated" && (m - p > 0.1 || p - m > 0.1)) note = note (note == "" ? "" : "; ") "differs by more than 0.1: see README.md"
            if (kk[3] == "dgb" || kk[3] == "edgb") note = note (note == "" ? "" : "; ") "model, not a reproduction: a modelled latency (topokit(7))"
            if (note == "") note = "-"
            print kk[1], kk[2], kk[3], ((tp[1] SUBSEP tp[2]) in fig) ? fig[tp[1] SUBSEP tp[2]] : "-", p,
                sprintf("%.3f", m), num(ci(s[k], q[k], n[k]), rnd && n[k] > 1), sprintf("%.3f", m9), num(ci(s9[k], q9[k], n[k]), rnd && n[k] > 1),
                sprintf("%.3f", a[k] / n[k]), num(ci(a[k], aq[k], n[k]), rnd && n[k] > 1), sprintf("%.3f", sh[k] / n[k]),
                dif(m, p), dif(m9, p), rnd ? n[k] : "-", note
        }
    }
}' "$published" "$work/results" | tee "$work/table"

end=$(date +%s)
echo "ugal-le.sh: done in $((end - start)) s" >&2

# --- optional plot ------------------------------------------------------------------
if [ -n "$PLOT" ]; then
    if command -v gnuplot >/dev/null 2>&1; then
        awk -F '\t' 'NR > 1 && $6 != "-" { printf "\"%s %s %s\"\t%s\t%s\t%s\n", $1, $2, $3, ($5 == "not stated" ? "NaN" : $5), $6, $8 }' \
            "$work/table" >"$work/plot.dat"
        gnuplot <<EOF 2>"$work/plot.err" || { echo "ugal-le.sh: gnuplot failed: $(head -n 1 "$work/plot.err")" >&2; rm -f "$PLOT"; exit 1; }
set terminal pngcairo size 1400,600
set output "$PLOT"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set ylabel "saturation throughput (offered load per server)"
set yrange [0:1]
set xtics rotate by -60 font ",8"
set key top right
plot "$work/plot.dat" using 2:xtic(1) title "Chaulagain and Yuan (BookSim)", '' using 3 title "topo-sim, min_served = 1", '' using 4 title "topo-sim, min_served >= 0.99"
EOF
        echo "ugal-le.sh: wrote $PLOT" >&2
    else
        echo "ugal-le.sh: gnuplot not found; no plot" >&2
    fi
fi
