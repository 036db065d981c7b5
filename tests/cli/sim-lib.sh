# sim-lib.sh - what the topo-sim shell tests share (sourced after lib.sh):
# reading a column of a TSV row, and comparing two runs' statistics or
# per-server rates within a tolerance.
# col FILE NAME [ROW]: column NAME of data row ROW (default 1) of a TSV file.
col() {
    awk -F '\t' -v k="$2" -v r="${3:-1}" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        NR == r + 1 { print (k in c) ? $(c[k]) : "NOCOLUMN" }' "$1"
}
# same_cols A B TOL COLS...: the columns agree between the first rows of
# two TSV files within TOL max(1, |value|) (the floating-point noise of
# sums taken in another order); prints the differences.
same_cols() {
    local fa=$1 fb=$2 tol=$3 bad= k va vb
    shift 3
    for k in "$@"; do
        va=$(col "$fa" "$k")
        vb=$(col "$fb" "$k")
        awk -v a="$va" -v b="$vb" -v t="$tol" 'BEGIN { if (a !~ /^[-+0-9.eE]+$/ || b !~ /^[-+0-9.eE]+$/) exit 1
            d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b; if (m < 1) m = 1
            exit !(d <= t * m) }' || bad="$bad $k=$va/$vb"
    done
    [ -z "$bad" ] || { echo "$bad"; return 1; }
}
# same_servers A B TOL: two --per-server files agree server by server.
same_servers() {
    paste "$1" "$2" | awk -F '\t' -v t="$3" 'NR > 1 { d = $4 - $8; if (d < 0) d = -d; m = $8 < 0 ? -$8 : $8; if (m < 1) m = 1
        if (!(d <= t * m)) { bad++; if (bad <= 3) print "server " $2 ": " $4 " vs " $8 } }
        END { exit bad > 0 }'
}
STATS="accepted srv_min srv_max srv_cov rtr_min rtr_max min_served util.inject"
