#!/bin/sh
# antmill-report.sh - the Ant Mill study (antmill-study.sh) as a report: a
# directory with an HTML page (index.html: figures as inline SVG, tables)
# and the TSV behind every figure and table.
#
#   sh antmill-report.sh DIR [FAMILY KEY=VALUE ... [-p SERVERS] [-s SEED]]
#
# Runs antmill-study.sh (its tables go to standard output as before) with
# its work files kept in DIR/work, then adds:
#   distance-hist.tsv  the distance profile (topo-dist --hist), drawn
#                      against the bounds of bounds.tsv (topo-bounds)
#   antmill.tsv        the delta found and the verification (topo-antmill)
#   throughput.tsv     saturation throughput per routing and pattern
#   load-hist.tsv      link-load histograms under MIN of the Ant Mill
#                      pattern, uniform traffic and a random server
#                      permutation (topo-load --hist)
#   sim.tsv            accepted against offered load of the Ant Mill pattern
#                      under MIN, 8-KSP, Polarized and Valiant (topo-sim
#                      --sweep), the analytic saturation of topo-load marked;
#                      saturation.tsv has topo-load's saturation of each
# Every TSV starts with a '#' line, the command that made it.  Valiant is
# simulated only up to REPORT_VALIANT_MAX switches (default 400): topo-sim
# keeps one path per intermediate switch, which takes minutes on the
# default 1224-switch graph; above that its analytic saturation alone is
# shown.  SIM_SWEEP (default 0.04:0.6:0.04) is the offered loads.
# Figures need gnuplot (topo-plot); without it the page says so and keeps
# the tables.  Uses the topo-* tools on PATH.  Prints where the report is.
set -eu

if [ $# -lt 1 ]; then
    echo "usage: antmill-report.sh DIR [FAMILY KEY=VALUE ... [-p SERVERS] [-s SEED]]" >&2
    exit 2
fi
out=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
w=$out/work
rm -rf "$w"
SIM_SWEEP=${SIM_SWEEP:-0.04:0.6:0.04}
REPORT_VALIANT_MAX=${REPORT_VALIANT_MAX:-400}

STUDY_DIR=$w sh "$here/antmill-study.sh" "$@"

# col FILE NAME: the value of column NAME in the first row of a TSV table.
col() {
    awk -F '\t' -v k="$2" '/^#/ { next }
        !h { for (i = 1; i <= NF; i++) if ($i == k) c = i; h = 1; next }
        { print $c; exit }' "$1"
}
# with_cmd FILE CMD...: run CMD, its output into FILE after a '#' line
# naming the command (paths shown relative to the report).
with_cmd() {
    f=$1
    shift
    printf '# %s\n' "$(printf '%s ' "$@" | sed "s|$w/||g; s| \$||")" >"$f"
    "$@" >>"$f"
}

n=$(col "$w/row.tsv" n)
with_cmd "$out/distance.tsv" topo-dist "$w/g.topo"
with_cmd "$out/distance-hist.tsv" topo-dist --hist "$w/g.topo"
with_cmd "$out/bounds.tsv" topo-bounds "$w/g.topo"
{
    echo "# topo-antmill --max-delta --budget 30 -o h.cyc -P h.pat g.topo"
    cat "$w/row.tsv"
} >"$out/antmill.tsv"
{
    echo "# antmill-study.sh: topo-load -r ROUTING [-P PATTERN] g.topo"
    cat "$w/throughput.tsv"
} >"$out/throughput.tsv"

# Link-load histograms under MIN, one 'pattern' column added.
{
    echo "# topo-load -r min --hist -P PATTERN g.topo (topo-pattern uniform level=switch; server-perm -s 1; antmill)"
    printf 'name\tpattern\tlo\thi\tarcs\n'
    topo-pattern uniform level=switch -o "$w/u.pat" "$w/g.topo"
    for p in uniform:u.pat server-perm:sperm.pat antmill:h.pat; do
        name=${p%%:*}
        file=${p#*:}
        topo-load -r min --hist -P "$w/$file" "$w/g.topo" |
            awk -F '\t' -v OFS='\t' -v p="$name" 'NR > 1 { print $1, p, $2, $3, $4 }'
    done
    rm -f "$w/u.pat" # n^2 lines: not kept
} >"$out/load-hist.tsv"

# Simulated curves of the Ant Mill pattern, and the analytic saturations.
routings="min ksp:8 polarized"
[ "$n" -le "$REPORT_VALIANT_MAX" ] && routings="$routings valiant"
{
    echo "# topo-sim -r ROUTING -P h.pat --sweep $SIM_SWEEP g.topo"
    first=1
    for r in $routings; do
        topo-sim -r "$r" -P "$w/h.pat" --sweep "$SIM_SWEEP" "$w/g.topo" |
            awk -v f="$first" 'NR > 1 || f'
        first=0
    done
} >"$out/sim.tsv"
{
    echo "# topo-load -r ROUTING -P h.pat g.topo"
    printf 'routing\tsaturation\tsimulated\n'
    for r in min ksp:8 polarized valiant; do
        s=$(topo-load -r "$r" -P "$w/h.pat" "$w/g.topo" |
            awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "throughput") c = i }
                         NR == 2 { print $c }')
        case " $routings " in
        *" $r "*) sim=yes ;;
        *) sim=no ;;
        esac
        printf '%s\t%s\t%s\n' "$r" "$s" "$sim"
    done
} >"$out/saturation.tsv"

# Figures.
figs=yes
plot() { # NAME TSV [topo-plot options]
    name=$1
    tsv=$2
    shift 2
    if ! topo-plot -T svg --script "$out/$name.gp" -o "$out/$name.svg" "$@" "$out/$tsv" \
        2>"$out/$name.err"; then
        figs=no
        cat "$out/$name.err" >&2
        rm -f "$out/$name.svg"
    fi
    rm -f "$out/$name.err"
}
plot distance distance-hist.tsv --title "distance profile"
plot load load-hist.tsv --by pattern --title "link load under MIN"
plot sim sim.tsv --by routing --title "Ant Mill pattern: accepted against offered load"

# The page.
html=$out/index.html
esc() { sed 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g'; }
# table TSV: an HTML table of a TSV file (its '#' line as caption).
table() {
    awk -F '\t' '
        function e(s) { gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s); return s }
        /^#/ { sub(/^# */, ""); printf "<table>\n<caption><code>%s</code></caption>\n", e($0); cap = 1; next }
        !h { if (!cap) print "<table>"; printf "<tr>"; for (i = 1; i <= NF; i++) printf "<th>%s</th>", e($i); print "</tr>"; h = 1; next }
        { printf "<tr>"; for (i = 1; i <= NF; i++) printf "<td>%s</td>", e($i); print "</tr>" }
        END { print "</table>" }' "$1"
}
figure() { # NAME TSV TEXT
    echo "<figure>"
    if [ -s "$out/$1.svg" ]; then
        sed -n '/<svg/,$p' "$out/$1.svg"
    else
        echo "<p>(figure not drawn: topo-plot needs gnuplot)</p>"
    fi
    printf '<figcaption>%s Data: <a href="%s">%s</a>, gnuplot script: <a href="%s.gp">%s.gp</a>.</figcaption>\n' \
        "$3" "$2" "$2" "$1" "$1"
    echo "</figure>"
}
spec=$(col "$w/row.tsv" name | esc)
{
    cat <<'X'
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8"/>
<title>Ant Mill study</title>
<style>
body { font-family: sans-serif; max-width: 70em; margin: auto; padding: 1em; }
table { border-collapse: collapse; margin: 1em 0; }
td, th { border: 1px solid #bbb; padding: 0.2em 0.5em; text-align: left; }
caption { caption-side: top; text-align: left; }
figure { margin: 1em 0; }
svg { max-width: 100%; height: auto; }
</style>
</head>
<body>
X
    printf '<h1>Ant Mill study of <code>%s</code></h1>\n' "$spec"
    echo "<p>The adverse traffic pattern of the Ant Mill paper (an adverse traffic"
    echo "pattern for networks built on random regular graphs): every server of switch"
    echo "x<sub>i</sub> of a Hamiltonian cycle whose windows of length &#948; have unique"
    echo "shortest paths sends to x<sub>i+&#955;</sub>. Every number on this page is a"
    echo "field of the TSV files beside it.</p>"
    echo "<h2>Distances against the bounds</h2>"
    figure distance distance-hist.tsv "Ordered pairs of switches at each distance."
    table "$out/distance.tsv"
    table "$out/bounds.tsv"
    echo "<h2>The cycle: &#948; found and verified</h2>"
    printf '<p>&#948; = %s, &#955; = %s; the pattern is adverse (verified): <strong>%s</strong>.</p>\n' \
        "$(col "$w/row.tsv" delta)" "$(col "$w/row.tsv" lambda)" "$(col "$w/row.tsv" adverse | esc)"
    table "$out/antmill.tsv"
    echo "<h2>Saturation throughput</h2>"
    table "$out/throughput.tsv"
    echo "<h2>Link load under MIN</h2>"
    figure load load-hist.tsv "Links per load bin (every server injecting at its full rate): the Ant Mill pattern against uniform traffic and a random server permutation."
    echo "<h2>Simulated accepted against offered load</h2>"
    figure sim sim.tsv "The Ant Mill pattern under each routing (topo-sim, max-min fair); circles mark the analytic saturation of topo-load."
    table "$out/saturation.tsv"
    if [ "$n" -gt "$REPORT_VALIANT_MAX" ]; then
        printf '<p>Valiant is not simulated on this graph (more switches than REPORT_VALIANT_MAX'
        printf ' = %s: topo-sim keeps one path per intermediate switch); its analytic saturation is in the table.</p>\n' \
            "$REPORT_VALIANT_MAX"
    fi
    echo "</body>"
    echo "</html>"
} >"$html"
[ "$n" -gt "$REPORT_VALIANT_MAX" ] && echo "# REPORT_VALIANT_MAX $REPORT_VALIANT_MAX" >>"$out/saturation.tsv"
echo "report: $html" >&2
[ "$figs" = yes ] || echo "report: figures missing (gnuplot not found; apt-get install gnuplot-nox)" >&2
