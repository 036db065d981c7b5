# source-layout.sh - the shape of the code, checked (HACKING.md, "Where
# things live"):
#   - every C file is clang-format clean (the version CI installs, 14);
#   - includes follow the layers: a subsystem of src/ includes only its own
#     headers and those of the layers below it, tools/ only the public
#     headers (topokit.h) and their own;
#   - nothing outside src/route/ looks at a routing model's kind;
#   - libtopokit exports tk_ names only, each declared TK_API in an
#     installed header.
. "$TK_SRCDIR/tests/cli/lib.sh"

cd "$TK_SRCDIR" || exit 1
csrc=$(find src tools tests/unit tests/install -name '*.[ch]' | sort)

# --- formatting ------------------------------------------------------------------
if command -v clang-format >/dev/null 2>&1 &&
    clang-format --version | grep -q 'version 14\.'; then
    bad=$(for f in $csrc; do clang-format "$f" | cmp -s - "$f" || echo "$f"; done)
    [ -z "$bad" ]
    ok $? "every C file is clang-format clean" || diag "not formatted:" $bad \
        "fix: clang-format -i FILE (clang-format 14, .clang-format at the top)"
else
    ok 0 "# SKIP clang-format 14 not installed (bootstrap.sh installs it)"
fi

# --- layers ----------------------------------------------------------------------
# The layer that owns each header, and what each layer may include (its own
# headers and those listed).  A header missing here fails the test, so a new
# one is placed on purpose.
owner() {
    case $1 in
    tk_core.h | tk_par.h | tk_io.h | tk_stats.h | tk_kv.h | core/*) echo core ;;
    tk_gen.h | gen/*) echo gen ;;
    tk_metric.h | tk_auto.h | tk_paths.h | tk_spectral.h | tk_bounds.h | metric/*) echo metric ;;
    tk_route.h | route/*) echo route ;;
    tk_pattern.h | pattern/*) echo pattern ;;
    tk_load.h | load/*) echo load ;;
    tk_mcf.h | mcf/* | flow/*) echo mcf ;;
    tk_antmill.h | antmill/*) echo antmill ;;
    tk_sim.h | sim/*) echo sim ;;
    tk_vc.h | vc/*) echo vc ;;
    topokit.h) echo umbrella ;;
    *) echo unknown ;;
    esac
}
allowed() {
    case $1 in
    core) echo "core" ;;
    gen) echo "core gen" ;;
    metric) echo "core metric" ;;
    route) echo "core metric route" ;;
    pattern) echo "core gen metric pattern" ;;
    load) echo "core metric route pattern load" ;;
    mcf) echo "core metric route pattern load mcf" ;;
    antmill) echo "core metric route pattern load antmill" ;;
    sim) echo "core metric route pattern load sim" ;;
    vc) echo "core metric route pattern load vc" ;;
    esac
}
viol=""
for f in $(find src -name '*.[ch]' | sort); do
    case $f in
    src/tk_*.h | src/topokit.h) layer=$(owner "${f#src/}") ;;
    src/*/*) d=${f#src/}; layer=$(owner "${d%%/*}/") ;;
    esac
    [ "$layer" = umbrella ] && continue
    for inc in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f"); do
        # same-directory internal headers belong to the file's own layer
        case $inc in */*) h=$inc ;; tk_*.h | topokit.h) h=$inc ;; *) h="${f#src/}"; h="${h%/*}/$inc" ;; esac
        [ "$inc" = config.h ] && continue
        hl=$(owner "$h")
        case " $(allowed "$layer") " in
        *" $hl "*) ;;
        *) viol="$viol $f:$inc($hl)" ;;
        esac
    done
done
[ -z "$viol" ]
ok $? "src/: every include is of the file's own layer or a layer below it" || diag $viol
viol=""
for f in tools/*.[ch]; do
    for inc in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f"); do
        case $inc in */*) viol="$viol $f:$inc" ;; *_internal.h) viol="$viol $f:$inc" ;; esac
    done
done
[ -z "$viol" ]
ok $? "tools/: only public headers and the tools' own" || diag $viol

# --- one place knows the routing models' kinds ------------------------------------
hits=$(grep -rnE 'case TK_ROUTE_|switch \([^)]*kind\)' src tools tests/unit --include='*.[ch]' |
    grep -v '^src/route/' | grep -iE 'TK_ROUTE|route|spec' || true)
[ -z "$hits" ]
ok $? "no switch on tk_route_kind_t outside src/route/" || diag "$hits"

# --- exported symbols ---------------------------------------------------------------
lib="$TK_BUILDDIR/.libs/libtopokit.so"
if [ -f "$lib" ] && command -v nm >/dev/null 2>&1; then
    syms=$(nm -D --defined-only "$lib" | awk '{ print $3 }')
    bad=$(printf '%s\n' "$syms" | grep -v '^tk_' || true)
    [ -n "$syms" ] && [ -z "$bad" ]
    ok $? "libtopokit exports tk_ names only ($(printf '%s\n' "$syms" | wc -l) symbols)" ||
        diag "not tk_:" $bad
    decl=$(cat src/tk_*.h | tr '\n' ' ' | grep -oE 'TK_API [^;{]*\btk_[a-z0-9_]+\(' |
        grep -oE 'tk_[a-z0-9_]+\($' | tr -d '(' | sort -u)
    extra=$(printf '%s\n' "$syms" | sort -u | comm -23 - "$(printf '%s\n' "$decl" >"$TMPD/decl"; echo "$TMPD/decl")")
    [ -z "$extra" ]
    ok $? "every exported symbol is declared TK_API in an installed header" || diag $extra
else
    ok 0 "# SKIP no shared libtopokit in the build directory"
    ok 0 "# SKIP no shared libtopokit in the build directory"
fi

done_testing
