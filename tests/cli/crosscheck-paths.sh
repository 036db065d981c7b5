# crosscheck-paths: topo-paths (shortest-path counts) and topo-ksp (k
# shortest simple paths, simple paths of at most H hops) against networkx on
# random and structured graphs, multigraphs with loops and digraphs read as
# graph6/sparse6/digraph6.  Skipped when no python3 with networkx is found.
. "$TK_SRCDIR/tests/cli/lib.sh"

command -v nauty-genrang >/dev/null 2>&1 || skip_all "nauty-genrang not found"
command -v nauty-geng >/dev/null 2>&1 || skip_all "nauty-geng not found"
PY=
for p in "${PYTHON:-}" /usr/bin/python3 python3; do
    [ -n "$p" ] || continue
    if "$p" -c 'import networkx' >/dev/null 2>&1; then
        PY=$p
        break
    fi
done
[ -n "$PY" ] || skip_all "python3 with networkx not found (apt-get install python3-networkx)"

"$PY" "$TK_SRCDIR/tests/cli/crosscheck-paths.py"
rc=$?
[ "$rc" -eq 77 ] && skip_all "networkx not importable"
exit "$rc"
