#!/bin/sh
# dfly-unfairness.sh - the study of P. Fuentes, E. Vallejo, C. Camarero,
# R. Beivide, M. Valero, "Network Unfairness in Dragonfly Topologies"
# (Tables 2-4, Figures 6-12) in the flow model of topo-sim(1) (topokit(7),
# ADAPTIVE ROUTING), beside the numbers the paper prints
# (dfly-unfairness-published.tsv, next to this script).
#
#   sh dfly-unfairness.sh [--h H] [--patterns 'UN ADV+1 ADVc']
#                         [--mechs 'MIN Obl-RRG ...'] [--arbs 'rr transit fair']
#                         [--iter N] [--buffers LOCAL,GLOBAL] [--jobs N] [--no-rho1]
#                         [--keep DIR [--table-only]] [--plot FILE]
#
# Topology: the canonical Dragonfly with h global links per router, a = 2h
# routers per group, p = h servers per router, g = ah + 1 groups, palmtree
# arrangement (the paper: h = 6, 5256 servers).  --h sets h (default 3:
# 342 servers; README.md says why and what changes with the size).
# Patterns: UN (uniform, server level), ADV+1 (every server of group i to
# a random server of group i+1: topo-pattern adv i=1), ADVc (to the h
# groups linked to R_out: topo-pattern advc).  Mechanisms (topo-sim -r):
# MIN dragonfly-min, Obl-RRG dragonfly-valiant, Obl-CRG
# dragonfly-valiant-crg, Src-RRG src-rrg, Src-CRG src-crg, In-Trns-CRG
# in-transit-crg, In-Trns-RRG in-transit-rrg, In-Trns-MM in-transit-mm,
# with topo-sim's defaults (one parameter set per rule) and at most
# --iter damped steps for the adaptive ones (default 50; the same for
# every row); --buffers 4,32 gives the adaptive rules the paper's queue
# sizes in packets (buffer=4,gbuf=32: its 32-phit local and 256-phit
# global input buffers, 8-phit packets) instead of 256 on every arc; use
# its own --keep DIR.  Arbitration: rr (the paper's round-robin without
# priority, Table 3), transit (round-robin with in-transit priority,
# Table 2), fair (its age-based arbitration, Table 4).
#
# Table 1 (throughput), one row per pattern x mechanism x arbitration:
# accepted load per server at offered load 1 (the paper's accepted
# throughput far above saturation) and the saturation column (the largest
# offered load the split found at load 1 serves completely).
# Table 2 (fairness, ADVc), one row per mechanism x arbitration x the
# paper's two offered loads of that row (below and above its saturation):
# accepted load, min injection (the lowest per-router mean accepted load
# per server), Max/Min and CoV of the per-router loads, each beside the
# paper's figure.
# Table 3 (injection profile, ADVc at 0.4, the paper's Figures 8, 10, 12):
# group 0's R_out (the router holding the global links to every
# destination group, found by that role), R_in (the router the global
# links from R_out of the previous h groups land on, found likewise) and
# the mean, min and max of its other routers.
#
# Prints the three TSV tables on standard output, separated by a blank
# line; progress goes to standard error.  --keep DIR: work in DIR and keep
# it; a second run with the same DIR skips the runs done (resume); one
# run at a time in a DIR (a second one exits 1 while the first runs).
# --table-only prints the tables of what is done, only reading DIR (so it
# can follow a run that works there; exit 1 if DIR does not exist; the
# plot's data files plot-ARB.dat stay in DIR only from a run without
# --table-only).  --no-rho1: skip the
# runs of table 1 (offered load 1: the slowest under transit and rr).
# --jobs: runs in parallel (default 2; the next run starts as soon as one
# ends).  Uses the topo-* tools on PATH, else those in the current
# directory.  --plot FILE: with gnuplot on PATH, a PNG of table
# 3's runs, the paper's Figures 8, 10 and 12: every router of group 0, its
# mean accepted load per server under ADVc at 0.4, clustered by mechanism,
# one panel per arbitration (without gnuplot: a note, and no file).
set -eu

usage() {
    echo "usage: sh dfly-unfairness.sh [--h H] [--patterns 'UN ADV+1 ADVc'] [--mechs 'MIN ...'] [--arbs 'rr transit fair'] [--iter N] [--buffers LOCAL,GLOBAL] [--jobs N] [--no-rho1] [--keep DIR [--table-only]] [--plot FILE]" >&2
    exit 2
}

H=3 PATTERNS="UN ADV+1 ADVc" MECHS="MIN Obl-RRG Obl-CRG Src-RRG Src-CRG In-Trns-CRG In-Trns-RRG In-Trns-MM"
ARBS="rr transit fair" ITER=50 JOBS=2 KEEP= TABLE_ONLY=0 RHO1=1 BUFOPT= PLOT=
while [ $# -gt 0 ]; do
    case $1 in
    --h) [ $# -ge 2 ] || usage; H=$2; shift 2 ;;
    --patterns) [ $# -ge 2 ] || usage; PATTERNS=$2; shift 2 ;;
    --mechs) [ $# -ge 2 ] || usage; MECHS=$2; shift 2 ;;
    --arbs) [ $# -ge 2 ] || usage; ARBS=$2; shift 2 ;;
    --iter) [ $# -ge 2 ] || usage; ITER=$2; shift 2 ;;
    --buffers)
        [ $# -ge 2 ] || usage
        case $2 in *[!0-9,]* | *,*,* | ,* | *, | [!0-9]* ) usage ;; *,*) ;; *) usage ;; esac
        BUFOPT=",buffer=${2%,*},gbuf=${2#*,}"
        shift 2 ;;
    --jobs) [ $# -ge 2 ] || usage; JOBS=$2; shift 2 ;;
    --keep) [ $# -ge 2 ] || usage; KEEP=$2; shift 2 ;;
    --table-only) TABLE_ONLY=1; shift ;;
    --no-rho1) RHO1=0; shift ;;
    --plot) [ $# -ge 2 ] && [ -n "$2" ] || usage; PLOT=$2; shift 2 ;;
    -h | --help) usage ;;
    *) usage ;;
    esac
done
case $H in '' | *[!0-9]*) echo "dfly-unfairness.sh: --h must be a positive integer" >&2; exit 2 ;; esac
case $ITER in '' | *[!0-9]*) echo "dfly-unfairness.sh: --iter must be a positive integer" >&2; exit 2 ;; esac
case $JOBS in '' | *[!0-9]*) echo "dfly-unfairness.sh: --jobs must be a positive integer" >&2; exit 2 ;; esac
[ "$H" -ge 2 ] && [ "$ITER" -ge 1 ] && [ "$JOBS" -ge 1 ] || usage
[ "$TABLE_ONLY" = 0 ] || [ -n "$KEEP" ] || usage

here=$(cd "$(dirname "$0")" && pwd)
PUB=$here/dfly-unfairness-published.tsv
command -v topo-sim >/dev/null 2>&1 || PATH=$(pwd):$PATH
command -v topo-sim >/dev/null 2>&1 || { echo "dfly-unfairness.sh: topo-sim not found" >&2; exit 1; }

# R: where the runs' results are; W: this run's other files (DIR itself
# with --keep, unless --table-only)
if [ -n "$KEEP" ] && [ "$TABLE_ONLY" = 1 ]; then
    # read-only: the tables of the runs done so far, written nowhere in
    # DIR, so they can be printed while another run works there
    [ -d "$KEEP" ] || { echo "dfly-unfairness.sh: $KEEP: no such directory" >&2; exit 1; }
    R=$(cd "$KEEP" && pwd)
    W=$(mktemp -d)
    trap 'rm -rf "$W"' EXIT INT TERM
elif [ -n "$KEEP" ]; then
    mkdir -p "$KEEP"
    W=$(cd "$KEEP" && pwd)
    R=$W
    # one run at a time in DIR: another would rewrite the job list that
    # this one is reading (held until every run ends)
    exec 9>>"$W/.lock"
    flock -n 9 || { echo "dfly-unfairness.sh: $KEEP: in use by another run of dfly-unfairness.sh" >&2; exit 1; }
else
    W=$(mktemp -d)
    R=$W
    trap 'rm -rf "$W"' EXIT INT TERM
fi

model() { # mechanism -> topo-sim -r
    case $1 in
    MIN) echo dragonfly-min ;;
    Obl-RRG) echo dragonfly-valiant ;;
    Obl-CRG) echo dragonfly-valiant-crg ;;
    Src-RRG) echo "src-rrg,iter=$ITER$BUFOPT" ;;
    Src-CRG) echo "src-crg,iter=$ITER$BUFOPT" ;;
    In-Trns-CRG) echo "in-transit-crg,iter=$ITER$BUFOPT" ;;
    In-Trns-RRG) echo "in-transit-rrg,iter=$ITER$BUFOPT" ;;
    In-Trns-MM) echo "in-transit-mm,iter=$ITER$BUFOPT" ;;
    *) echo "dfly-unfairness.sh: unknown mechanism $1" >&2; exit 2 ;;
    esac
}
patarg() { # pattern -> topo-sim -m
    case $1 in
    UN) echo uniform ;;
    ADV+1) echo "adv i=1" ;;
    ADVc) echo advc ;;
    *) echo "dfly-unfairness.sh: unknown pattern $1" >&2; exit 2 ;;
    esac
}
arbname() {
    case $1 in
    rr) echo "round-robin, no in-transit priority" ;;
    transit) echo "round-robin, in-transit priority" ;;
    fair) echo "age-based, no in-transit priority" ;;
    *) echo "dfly-unfairness.sh: unknown arbitration $1" >&2; exit 2 ;;
    esac
}
for m in $MECHS; do model "$m" >/dev/null; done
for p in $PATTERNS; do patarg "$p" >/dev/null; done
for a in $ARBS; do arbname "$a" >/dev/null; done

A=$((2 * H)) P=$H
TOPO=$R/df-h$H.topo
[ -s "$TOPO" ] || TOPO=$W/df-h$H.topo
[ -s "$TOPO" ] || topo-gen dragonfly a=$A h=$H p=$P arrangement=palmtree -o "$TOPO"

# The paper's two ADVc loads of a mechanism and arbitration (Tables 2-4),
# as numbers (the file's 0.40 is table 3's 0.4: one run, one file name).
loads() {
    awk -F '\t' -v m="$1" -v a="$(arbname "$2")" '$3 == "ADVc" && $4 == m && $5 == a && $6 == "min_inj_load" {
        split($8, f, "[=; ]"); print f[2] + 0 }' "$PUB" | sort -u | tr '\n' ' '
}
pub() { # mechanism arb load metric
    awk -F '\t' -v m="$1" -v a="$(arbname "$2")" -v l="$3" -v k="$4" '$3 == "ADVc" && $4 == m && $5 == a && $6 == k {
        split($8, f, "[=; ]"); if (k == "avg_saturation_load" || f[2] + 0 == l + 0) { print $7; exit } }' "$PUB"
}

# --- the runs ----------------------------------------------------------------------
# job list: KEY|pattern|mechanism|arb|rho|per-server(0/1)
JOBSFILE=$W/jobs
: >"$JOBSFILE"
for p in $PATTERNS; do
    for m in $MECHS; do
        for a in $ARBS; do
            [ "$RHO1" = 0 ] || echo "t1|$p|$m|$a|1|0" >>"$JOBSFILE"
        done
    done
done
case " $PATTERNS " in *" ADVc "*)
    for m in $MECHS; do
        for a in $ARBS; do
            for l in $(loads "$m" "$a") 0.4; do
                echo "t2|ADVc|$m|$a|$l|1" >>"$JOBSFILE"
            done
        done
    done ;;
esac
sort -u "$JOBSFILE" -o "$JOBSFILE"

runone() {
    IFS='|' read -r key p m a rho ps <<EOF
$1
EOF
    f=$R/$(printf '%s' "$key-$p-$m-$a-$rho" | tr -c 'A-Za-z0-9.-' _)
    [ -s "$f.tsv" ] && return 0
    t0=$(date +%s)
    if [ "$ps" = 1 ]; then
        topo-sim -r "$(model "$m")" -a "$a" -m "$(patarg "$p")" --rho "$rho" --per-server "$f.ps" \
            "$TOPO" >"$f.tmp" 2>"$f.err" || { echo "dfly-unfairness.sh: $1 failed: $(head -n 1 "$f.err")" >&2; return 0; }
    else
        topo-sim -r "$(model "$m")" -a "$a" -m "$(patarg "$p")" --rho "$rho" \
            "$TOPO" >"$f.tmp" 2>"$f.err" || { echo "dfly-unfairness.sh: $1 failed: $(head -n 1 "$f.err")" >&2; return 0; }
    fi
    mv "$f.tmp" "$f.tsv"
    echo "$(($(date +%s) - t0)) s: $p $m $a rho $rho" >&2
}

if [ "$TABLE_ONLY" = 0 ]; then
    # a pool of --jobs slots: a FIFO holds one line per free slot, a run
    # takes one before it starts and gives it back when it ends, so a
    # slow run holds up only its own slot
    export W R TOPO ITER
    slots=$W/.slots
    rm -f "$slots"
    mkfifo "$slots"
    exec 3<>"$slots"
    rm -f "$slots"
    i=0
    while [ "$i" -lt "$JOBS" ]; do echo >&3; i=$((i + 1)); done
    while read -r j; do
        read -r _ <&3
        { runone "$j"; echo >&3; } &
    done <"$JOBSFILE"
    wait
    exec 3>&-
fi

# --- the tables --------------------------------------------------------------------
val() { # file column
    [ -s "$1" ] || { echo NA; return; }
    awk -F '\t' -v k="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } NR == 2 { print (k in c) ? $(c[k]) : "NA" }' "$1"
}
conv() { # file: converged (yes / no / -)
    [ -s "$1" ] || { echo NA; return; }
    if grep -q 'no fixed point' "${1%.tsv}.err" 2>/dev/null; then echo no; else echo yes; fi
}
fname() { printf '%s' "$R/$(printf '%s' "$1" | tr -c 'A-Za-z0-9.-' _)"; }

echo "# table 1: accepted throughput at offered load 1, h=$H ($(($A * $P * ($A * $H + 1))) servers), palmtree"
printf 'pattern\tmechanism\tarbitration\taccepted\tsaturation\tmin_share\tconverged\n'
for p in $PATTERNS; do
    for m in $MECHS; do
        for a in $ARBS; do
            f=$(fname "t1-$p-$m-$a-1").tsv
            printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$p" "$m" "$a" "$(val "$f" accepted)" \
                "$(val "$f" saturation)" "$(val "$f" min_share)" "$(conv "$f")"
        done
    done
done
case " $PATTERNS " in *" ADVc "*) ;; *) exit 0 ;; esac

echo
echo "# table 2: ADVc fairness at the paper's loads (per-router mean load per server); paper = h=6"
printf 'mechanism\tarbitration\toffered\taccepted\tmin_inj\tmin_inj_paper\tmax_min\tmax_min_paper\tcov\tcov_paper\tsat_paper\tconverged\n'
for m in $MECHS; do
    for a in $ARBS; do
        for l in $(loads "$m" "$a"); do
            f=$(fname "t2-ADVc-$m-$a-$l").tsv
            printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$m" "$a" "$l" "$(val "$f" accepted)" \
                "$(val "$f" rtr_min)" "$(pub "$m" "$a" "$l" min_inj_load)" \
                "$(val "$f" rtr_maxmin)" "$(pub "$m" "$a" "$l" max_min)" \
                "$(val "$f" rtr_cov)" "$(pub "$m" "$a" "$l" cov)" \
                "$(pub "$m" "$a" "$l" avg_saturation_load)" "$(conv "$f")"
        done
    done
done

echo
echo "# table 3: ADVc at 0.4, injection profile of group 0 (mean accepted load per server of a router)"
# R_out: the router of group 0 linked to every destination group of
# group 0; R_in: the router of group 0 that the global links of the
# previous groups' R_out reach (a destination of ADVc from them).
# (the roles read the demands line by line: the explicit form, since
# topo-pattern writes a large pattern as its spec line alone)
XPAT=$R/advc-explicit.pat
[ -s "$XPAT" ] || XPAT=$W/advc-explicit.pat
[ -s "$XPAT" ] || topo-pattern advc --explicit -o "$XPAT" "$TOPO"
roles=$(awk '
    FNR == 1 { f++ }
    f == 1 && $1 == "switch" { for (i = 3; i <= NF; i++) if ($i ~ /^group=/) grp[$2] = substr($i, 7) }
    f == 1 && $1 == "servers" { p = $2 }
    f == 1 && NF == 3 && $3 == "global" && $1 ~ /^[0-9]+$/ { lk[$1 "," grp[$2]] = 1; lk[$2 "," grp[$1]] = 1
        e[$1] = e[$1] " " $2; e[$2] = e[$2] " " $1 }
    f == 2 && NF == 3 && $1 ~ /^[0-9]+$/ { s = int($1 / p); d = int($2 / p); dst[grp[s] "," grp[d]] = 1 }
    END {
        for (r in grp) if (grp[r] == 0) { all = 1; n = 0
            for (k in dst) { split(k, q, ","); if (q[1] == 0) { n++; if (!((r "," q[2]) in lk)) all = 0 } }
            if (all && n) ro = r }
        # R_in: the router of group 0 with the most global links from
        # routers that are their own group'"'"'s R_out (linked to group 0
        # and sending ADVc traffic to it)
        best = -1
        for (r in grp) if (grp[r] == 0) { c = 0; split(e[r], nb, " ")
            for (i in nb) if (((grp[nb[i]] ",0") in dst)) c++
            if (c > best) { best = c; ri = r } }
        if (ro == "" || ri == "") exit 1
        print ro, ri }' "$TOPO" "$XPAT") ||
    { echo "dfly-unfairness.sh: R_out and R_in of group 0 not found in $TOPO" >&2; exit 1; }
set -- $roles
RO=$1 RI=$2
printf 'mechanism\tarbitration\tR_out(%s)\tR_in(%s)\tothers_mean\tothers_min\tothers_max\n' "$RO" "$RI"
for m in $MECHS; do
    for a in $ARBS; do
        f=$(fname "t2-ADVc-$m-$a-0.4").ps
        if [ -s "$f" ]; then
            awk -F '\t' -v ro="$RO" -v ri="$RI" -v a="$A" -v mm="$m" -v ar="$a" 'NR > 1 && int($3 / a) == 0 { s[$3] += $4; n[$3]++ }
                END { om = 0; on = 0; mn = 1e9; mx = -1
                    for (r in s) { v = s[r] / n[r]; if (r == ro) vo = v; else if (r == ri) vi = v
                        else { om += v; on++; if (v < mn) mn = v; if (v > mx) mx = v } }
                    printf "%s\t%s\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\n", mm, ar, vo, vi, om / on, mn, mx }' "$f"
        else
            printf '%s\t%s\tNA\tNA\tNA\tNA\tNA\n' "$m" "$a"
        fi
    done
done

# --- optional plot: table 3's runs router by router (Figures 8, 10, 12) ------------
[ -n "$PLOT" ] || exit 0
command -v gnuplot >/dev/null 2>&1 || { echo "dfly-unfairness.sh: gnuplot not found; no plot" >&2; exit 0; }
# one data block per arbitration: a row per mechanism, a column per
# router of group 0 (routers 0 .. A-1), NA where the run is missing
np=0
for a in $ARBS; do
    {
        printf 'mechanism'
        r=0
        while [ $r -lt $A ]; do
            t=$r
            [ $r = "$RO" ] && t="$r (R_out)"
            [ $r = "$RI" ] && t="$r (R_in)"
            printf '\t"router %s"' "$t"
            r=$((r + 1))
        done
        printf '\n'
        for m in $MECHS; do
            f=$(fname "t2-ADVc-$m-$a-0.4").ps
            if [ -s "$f" ]; then
                awk -F '\t' -v a="$A" -v mm="$m" 'NR > 1 && int($3 / a) == 0 { s[$3] += $4; n[$3]++ }
                    END { printf "%s", mm; for (r = 0; r < a; r++) printf "\t%s", (r in n) ? sprintf("%.6g", s[r] / n[r]) : "NA"; printf "\n" }' "$f"
            else
                printf '%s' "$m"
                r=0
                while [ $r -lt $A ]; do printf '\tNA'; r=$((r + 1)); done
                printf '\n'
            fi
        done
    } >"$W/plot-$a.dat"
    np=$((np + 1))
done
title() { # arbitration -> panel title
    case $1 in
    transit) echo "transit: round-robin with in-transit priority (paper: Table 2, Figure 8)" ;;
    rr) echo "rr: round-robin without priority (paper: Table 3, Figure 10)" ;;
    fair) echo "fair: max-min fair, for age-based arbitration (paper: Table 4, Figure 12)" ;;
    esac
}
{
    echo "set terminal pngcairo size 1200,$((380 * np + 60))"
    echo "set output \"$PLOT\""
    echo "set datafile separator \"\\t\""
    echo "set datafile missing \"NA\""
    echo "set style data histograms"
    echo "set style histogram clustered gap 1"
    echo "set style fill solid 0.8 border -1"
    echo "set termoption noenhanced"
    echo "set yrange [0:0.45]"
    echo "set ylabel \"accepted load per server\""
    echo "set key outside right top font \",9\""
    echo "set multiplot layout $np,1 title \"ADVc at offered load 0.4, group 0 router by router (h = $H, $(($A * $P * ($A * $H + 1))) servers, flow model)\""
    for a in $ARBS; do
        echo "set title \"$(title "$a")\""
        echo "plot for [i=2:$((A + 1))] \"$W/plot-$a.dat\" using i:xtic(1) title columnheader(i), 0.4 with lines dashtype 2 linecolor rgb \"black\" title \"offered\""
    done
    echo "unset multiplot"
} >"$W/plot.gp"
gnuplot "$W/plot.gp" 2>"$W/plot.err" || { echo "dfly-unfairness.sh: gnuplot failed: $(head -n 1 "$W/plot.err")" >&2; rm -f "$PLOT"; exit 1; }
echo "dfly-unfairness.sh: wrote $PLOT" >&2
