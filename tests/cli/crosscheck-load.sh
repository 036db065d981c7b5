# crosscheck-load: topo-load's all-to-all min loads against the edge
# betweenness of networkx and igraph (independent implementations), and
# ecmp against a per-destination even-split recursion over networkx's
# distances.  Skipped (exit 77 semantics) when python3 has neither.
. "$TK_SRCDIR/tests/cli/lib.sh"

PY=
for p in "${PYTHON:-}" /usr/bin/python3 python3; do
    [ -n "$p" ] || continue
    if "$p" -c 'import networkx' >/dev/null 2>&1 || "$p" -c 'import igraph' >/dev/null 2>&1; then
        PY=$p
        break
    fi
done
[ -n "$PY" ] || skip_all "python3 with networkx or igraph not found (apt-get install python3-networkx python3-igraph)"

"$PY" "$TK_SRCDIR/tests/cli/crosscheck-load.py"
rc=$?
[ "$rc" -eq 77 ] && skip_all "neither networkx nor igraph importable"
exit "$rc"
