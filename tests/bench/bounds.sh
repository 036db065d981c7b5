#!/bin/sh
# bounds.sh - topo-bounds sweep speed: the full sweep N = 2..10^6 at r = 20
# (all 16 columns, exact arithmetic) against an awk program computing only
# three of the columns (Lemma 1, Lemma 2 with k = 1, Lemma 7) in doubles, in
# one run; checks that the three columns agree.  Needs topo-bounds on PATH
# (run.sh sets it).  Target from the issue: under 1 s.
#
# What is timed (wall clock, best of 5, output to a file on /tmp):
#   topo-bounds  topo-bounds N=2:1000000 r=20 > FILE
#   awk          the same rows, three bound columns only
set -eu
W=$(mktemp -d "${TMPDIR:-/tmp}/tk-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM
NMAX=${NMAX:-1000000}

now() { date +%s.%N; }
best() { # best CMD...: best wall time of 5 runs, seconds
    b=
    for i in 1 2 3 4 5; do
        t0=$(now)
        "$@"
        t1=$(now)
        b=$(echo "$t0 $t1 ${b:-inf}" | awk '{ t = $2 - $1; print (t < $3 ? t : $3) }')
    done
    echo "$b"
}

run_tk() { topo-bounds N=2:"$NMAX" r=20 >"$W/tk.tsv"; }
run_awk() {
    awk -v nmax="$NMAX" 'BEGIN {
        OFS = "\t"; r = 20
        for (N = 2; N <= nmax; N++) {
            s = 1; p = 1; d = 0
            while (s < N) { p *= r; s += p; d++ }
            T = N - 1; h = 1; s = 0; w = 0; p = r
            while (s + p <= T) { s += p; w += h * p; h++; p *= r }
            lk = (w + h * (T - s)) / T
            g = 0; q = 1
            while (q < N) { q *= r; g++ }
            printf "%d\t%d\t%.17g\t%d\n", N, d, lk, g
        }
    }' >"$W/awk.tsv"
}

t_tk=$(best run_tk)
t_awk=$(best run_awk)
rows=$(($(wc -l <"$W/tk.tsv") - 1))
agree=$(tail -n +2 "$W/tk.tsv" | cut -f 1,6,7,10 | paste - "$W/awk.tsv" | awk -F'\t' '
    $1 != $5 || $2 != $6 || $4 != $8 { bad++ }
    { d = $3 - $7; if (d < 0) d = -d; if (d > 1e-12 * $7) bad++ }
    END { print bad ? "no (" bad ")" : "yes" }')
echo "# bounds: full sweep N=2..$NMAX r=20 ($rows rows, $(wc -c <"$W/tk.tsv") bytes)"
printf '| tool | columns | seconds (best of 5) | rows/s |\n|---|---|---|---|\n'
printf '| topo-bounds | 16 (exact) | %.3f | %.0f |\n' "$t_tk" "$(echo "$rows $t_tk" | awk '{ print $1 / $2 }')"
printf '| awk | 3 (double) | %.3f | %.0f |\n' "$t_awk" "$(echo "$rows $t_awk" | awk '{ print $1 / $2 }')"
echo "columns diam_lb, lk, gdbg_diam_ub agree with awk: $agree"
