# helpers.sh - shell functions available to every golden case (sourced first).

# notime: blanks the only columns that vary between runs, the wall-clock
# seconds of topo-mcf and topo-antmill: the TSV column named "time" of the
# first header line becomes "-" in every later line, a JSON "time":NUMBER
# becomes "time":0.
notime() {
    awk -F '\t' -v OFS='\t' '
        NR == 1 { for (i = 1; i <= NF; i++) if ($i == "time") c = i; print; next }
        c && NF >= c { $c = "-" }
        { print }' | sed -E 's/"time":[-+0-9.eE]+/"time":0/g'
}
