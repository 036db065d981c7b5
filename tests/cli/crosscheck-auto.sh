# crosscheck-auto: topo-auto against python3-igraph (VF2 automorphism
# counts, bliss canonical forms) on random graphs from nauty-genrang.
# Skipped when nauty-genrang or igraph is absent.
. "$TK_SRCDIR/tests/cli/lib.sh"

command -v nauty-genrang >/dev/null 2>&1 || skip_all "nauty-genrang not found"
PY=
for p in "${PYTHON:-}" /usr/bin/python3 python3; do
    [ -n "$p" ] || continue
    if "$p" -c 'import igraph' >/dev/null 2>&1; then
        PY=$p
        break
    fi
done
[ -n "$PY" ] || skip_all "python3 with igraph not found (apt-get install python3-igraph)"

TOPO_AUTO=$(command -v topo-auto)
export TOPO_AUTO TMPD
"$PY" "$TK_SRCDIR/tests/cli/crosscheck-auto.py"
rc=$?
[ "$rc" -eq 77 ] && skip_all "igraph not importable"
exit "$rc"
