#!/bin/sh
# patfile.sh - size and time of the pattern file forms (issue 25 item 15):
# topo-pattern uniform on the 5256 servers of the balanced Dragonfly h=6
# (a=12 p=6 g=73, 876 switches) written explicit (one line per demand,
# --explicit), as its spec line (--form=spec, what auto picks) and as
# per-switch entries (--form=aggregate); then topo-load -P of each file
# (whole process: read, expand, check, route, load) against topo-load's
# built-in uniform.  Needs topo-gen, topo-pattern, topo-load on PATH
# (run.sh sets it).  Writes a ~0.9 GB file in $TMPDIR.
set -eu
W=$(mktemp -d "${TMPDIR:-/tmp}/tk-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM

secs() { # secs CMD...: "wall / cpu" seconds of CMD (stdout discarded); cpu
    # is user + system time, meaningful when the machine is shared
    /usr/bin/time -f '%e %U %S' -o "$W/time" "$@" >/dev/null
    awk '{ printf "%.2f / %.2f", $1, $2 + $3 }' "$W/time"
}

topo-gen dragonfly h=6 -o "$W/df.topo"
echo "## pattern file forms: uniform on dragonfly h=6 (5256 servers)"
echo
echo "| form | bytes | topo-pattern s (wall / cpu) | topo-load -P s (wall / cpu) |"
echo "|---|---|---|---|"
ref=""
for form in explicit aggregate spec; do
    t=$(secs topo-pattern uniform --form=$form -o "$W/$form.pat" "$W/df.topo")
    b=$(wc -c <"$W/$form.pat")
    l=$(secs topo-load -P "$W/$form.pat" "$W/df.topo")
    topo-load -P "$W/$form.pat" "$W/df.topo" >"$W/$form.tsv"
    if [ -z "$ref" ]; then ref=$form; elif ! cmp -s "$W/$ref.tsv" "$W/$form.tsv"; then
        echo "patfile.sh: topo-load differs between $ref and $form" >&2
        exit 1
    fi
    echo "| $form | $b | $t | $l |"
    [ "$form" = spec ] || rm -f "$W/$form.pat"
done
l=$(secs topo-load "$W/df.topo")
echo "| (built-in uniform, no -P) | - | - | $l |"
echo
echo "topo-load's rows are byte-identical for the three files."
