#!/bin/sh
# table1.sh - Table I of Faizian et al., "Random Regular Graph and
# Generalized De Bruijn Graph with k-shortest Path Routing": for r = 20
# and every n = 2..8421, is the diameter of GDBG(n, r) the optimal
# diameter of Lemma 1 (the smallest D
# with 1 + r + ... + r^D >= n)?  Pipelines over the tools: topo-gen writes
# the graphs into one stream, topo-dist measures them with --max-diameter 3
# (every Lemma-1 diameter here is at most 3, so a row '>3' is not optimal
# and every other row carries its exact diameter), and awk computes Lemma 1
# and prints the table.  The 8420 graphs hold 709 million links of text, so
# the range is dealt round-robin to T1_JOBS pipelines (default 2, one per
# core) whose rows are merged by n.  T1_FROM / T1_TO / T1_R change the
# range and degree.  Prints the table and the wall-clock seconds.
set -eu
r=${T1_R:-20}
from=${T1_FROM:-2}
to=${T1_TO:-8421}
jobs=${T1_JOBS:-2}
# In a build tree the tools are libtool wrapper scripts that cost ~20 ms per
# start; run the real binaries instead (8420 starts of topo-gen).
if [ -n "${TK_BUILDDIR:-}" ] && [ -x "$TK_BUILDDIR/.libs/topo-gen" ] && [ -x "$TK_BUILDDIR/.libs/topo-dist" ]; then
    PATH="$TK_BUILDDIR/.libs:$PATH"
    LD_LIBRARY_PATH="$TK_BUILDDIR/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    export PATH LD_LIBRARY_PATH
fi
W=$(mktemp -d "${TMPDIR:-/tmp}/tk-table1.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM
start=$(date +%s.%N)
j=0
while [ "$j" -lt "$jobs" ]; do
    (
        n=$((from + j))
        while [ "$n" -le "$to" ]; do
            topo-gen gdbg n=$n r=$r
            n=$((n + jobs))
        done | topo-dist --threads 1 --no-symmetry --max-diameter 3 >"$W/part.$j"
    ) &
    j=$((j + 1))
done
wait
for f in "$W"/part.*; do sed 1d "$f"; done | sort -t "$(printf '\t')" -k2,2n |
awk -v r="$r" -F '\t' '
{
    n = $2; diam = $6
    D = 0; s = 1; p = 1
    while (s < n) { p *= r; s += p; D++ }
    opt = (diam !~ /^>/ && diam + 0 == D)
    total++; nopt += opt
    # Ranges of n per Lemma-1 diameter, and of optimal GDBGs.
    if (!(D in lo)) { lo[D] = n; order[++nd] = D }
    hi[D] = n
    if (opt) {
        if (run_open && n == last + 1) { last = n }
        else {
            if (run_open) { ranges = ranges sep run_lo "-" last; sep = ", " }
            run_lo = n; last = n; run_open = 1
        }
        if (!(D in glo)) glo[D] = n
        ghi[D] = n
    }
}
END {
    if (run_open) ranges = ranges sep run_lo "-" last
    printf "diameter\tnodes (Lemma 1 optimal)\tnodes (GDBG optimal)\n"
    for (i = 1; i <= nd; i++) { D = order[i]
        printf "%d\t%d to %d\t%s\n", D, lo[D], hi[D], (D in glo) ? glo[D] " to " ghi[D] : "-" }
    printf "graphs %d, GDBG diameter optimal %d (%.1f%%), not optimal %d\n", total, nopt, 100 * nopt / total, total - nopt
    printf "optimal n: %s\n", ranges
}'
end=$(date +%s.%N)
awk -v a="$start" -v b="$end" 'BEGIN { printf "wall-clock %.1f s\n", b - a }'
