# crosscheck: topo-dist against networkx (and igraph) on random and
# structured graphs.  Skipped when no python3 with networkx is found.
. "$TK_SRCDIR/tests/cli/lib.sh"

command -v nauty-genrang >/dev/null 2>&1 || skip_all "nauty-genrang not found"
# Debian's python3-networkx lives in /usr/bin/python3; prefer $PYTHON, then
# that one, then whatever python3 is on PATH.
PY=
for p in "${PYTHON:-}" /usr/bin/python3 python3; do
    [ -n "$p" ] || continue
    if "$p" -c 'import networkx' >/dev/null 2>&1; then
        PY=$p
        break
    fi
done
[ -n "$PY" ] || skip_all "python3 with networkx not found (apt-get install python3-networkx)"

TOPO_DIST=$(command -v topo-dist)
export TOPO_DIST
"$PY" "$TK_SRCDIR/tests/cli/crosscheck.py"
rc=$?
[ "$rc" -eq 77 ] && skip_all "networkx not importable"
exit "$rc"
