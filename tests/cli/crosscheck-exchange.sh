# crosscheck-exchange: topo-conv's GraphML and GML read and rewritten by
# networkx and igraph, and its anynet and CAMINOS files parsed after the
# formats' published descriptions (tests/cli/crosscheck-exchange.py).
# Skipped (TAP skip, exit 77 semantics) without python3 and networkx; the
# igraph checks are skipped without python3-igraph.
. "$TK_SRCDIR/tests/cli/lib.sh"

PY=
for p in "${PYTHON:-}" /usr/bin/python3 python3; do
    [ -n "$p" ] || continue
    if "$p" -c 'import networkx' >/dev/null 2>&1; then
        PY=$p
        break
    fi
done
[ -n "$PY" ] || skip_all "python3 with networkx not found (apt-get install python3-networkx)"
IG=
"$PY" -c 'import igraph' >/dev/null 2>&1 || IG=--no-igraph

topo-gen dragonfly a=4 h=2 p=2 -o "$TMPD/df.topo" || exit 1
topo-gen torus sides=3,4 -o "$TMPD/torus.topo" || exit 1
topo-gen rrg n=30 d=4 -p 3 -s 7 -o "$TMPD/rrg.topo" || exit 1
"$PY" "$TK_SRCDIR/tests/cli/crosscheck-exchange.py" "$(command -v topo-conv)" "$TMPD" $IG \
    "$DATA/io-good-rich.topo" "$DATA/io-good-directed.topo" "$TK_SRCDIR/data/petersen.topo" \
    "$TMPD/df.topo" "$TMPD/torus.topo" "$TMPD/rrg.topo" >"$TMPD/log" 2>&1
rc=$?
ok "$rc" "crosscheck-exchange.py ran (exit $rc)"
[ "$rc" -eq 0 ] || sed 's/^/# /' "$TMPD/log"
n=$(grep -c '^ok ' "$TMPD/log")
[ "$n" -ge 100 ]
ok $? "at least 100 peer checks ran ($n)"
while IFS= read -r line; do
    case $line in
    "ok "*) ok 0 "${line#ok }" ;;
    "not ok "*) ok 1 "${line#not ok }" ;;
    esac
done <"$TMPD/log"
[ -n "$IG" ] && echo "# igraph checks skipped: python3-igraph not importable"
done_testing
