# sim-simgrid: topo-sim's fair max-min (tk_mm_solve, through
# tests/cli/mm-solve) against SimGrid's max-min solver (through
# tests/cli/simgrid-maxmin: links of latency 0, one comm per flow, network
# model CM02 without cross traffic; see its head comment) on the same links
# and flows: a few closed forms, random instances (continuous capacities;
# integer capacities, where many links saturate together; rate bounds; a
# common cap rho), two of 1500 flows, and topo-sim's own systems (mm-solve -w:
# Dragonfly, random regular graph and torus under single-path routings,
# uncapped and at offered load 1).  Rates agree to 1e-6 relative:
# SimGrid's own precision (maxmin/precision 1e-5 by default: a link whose
# remaining capacity is below 1e-5 of its bandwidth counts as saturated), not
# topokit's (tests/unit/test_maxmin_lp checks that to 1e-9 against GLPK).
# Skipped when configure did not find SimGrid (Debian: libsimgrid-dev).
. "$TK_SRCDIR/tests/cli/lib.sh"

MM="$TK_BUILDDIR/tests/cli/mm-solve"
SG="$TK_BUILDDIR/tests/cli/simgrid-maxmin"
[ -x "$SG" ] || skip_all "SimGrid not found by configure (Debian: libsimgrid-dev)"
[ -x "$MM" ] || skip_all "tests/cli/mm-solve not built"
# SimGrid's own allocations outlive main; under LeakSanitizer (.ci/run's
# sanitizer build) they are not ours to report.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
export ASAN_OPTIONS

# gen SEED R F KMAX KIND: a random instance (mm-solve's format) on stdout;
# KIND real (capacities in [0.5, 10)) or int (1, 2 or 3; unit bounds);
# about one flow in five has a rate bound.
gen() {
    awk -v seed="$1" -v R="$2" -v F="$3" -v kmax="$4" -v kind="$5" 'BEGIN {
        srand(seed)
        printf "# seed %d\n%d %d\n", seed, R, F
        for (r = 0; r < R; r++)
            printf "%.17g\n", kind == "int" ? 1 + int(3 * rand()) : 0.5 + 9.5 * rand()
        for (v = 0; v < F; v++) {
            b = 0
            if (rand() < 0.2)
                b = kind == "int" ? (rand() < 0.5 ? 0.5 : 1) : 0.05 + 2 * rand()
            k = 1 + int(kmax * rand())
            if (k > R) k = R
            split("", used)
            line = sprintf("%.17g %d", b, k)
            for (i = 0; i < k; i++) {
                do r = int(R * rand()); while (r in used)
                used[r] = 1
                line = line " " r
            }
            print line
        }
    }'
}

# compare FILE DESC [-r RHO]: both solvers, same flows, 1e-6 relative
worst_all=0
compare() {
    local f=$1 desc=$2
    shift 2
    "$MM" "$@" "$f" >"$TMPD/mm.out" 2>"$TMPD/mm.err"
    local rm=$?
    "$SG" "$@" "$f" >"$TMPD/sg.out" 2>"$TMPD/sg.err"
    local rs=$?
    local n
    n=$(awk '!/^#/ { print $2; exit }' "$f")
    res=$(paste "$TMPD/mm.out" "$TMPD/sg.out" | awk -v n="$n" '
        { a = $1; b = $2; d = a - b; if (d < 0) d = -d; s = a < 0 ? -a : a
          e = s > 0 ? d / s : d; if (e > w) { w = e; wl = NR }; c++ }
        END { printf "%d %.3g %d\n", c == n && NF == 2, w, wl }')
    set -- $res
    [ "$rm" -eq 0 ] && [ "$rs" -eq 0 ] && [ "$1" -eq 1 ] &&
        awk -v w="$2" 'BEGIN { exit !(w <= 1e-6) }'
    ok $? "$desc: tk_mm = SimGrid to 1e-6 (largest relative difference $2)" ||
        diag "mm-solve exit $rm: $(head -c 300 "$TMPD/mm.err")" \
            "simgrid-maxmin exit $rs: $(head -c 300 "$TMPD/sg.err")" \
            "worst flow (line $3): $(sed -n "${3}p" "$TMPD/mm.out") vs $(sed -n "${3}p" "$TMPD/sg.out")" \
            "instance: $(head -c 2000 "$f")"
    worst_all=$(awk -v a="$worst_all" -v b="$2" 'BEGIN { print (b > a) ? b : a }')
}

# exact FILE WANT DESC: mm-solve's rates against hand-derived ones
exact() {
    run "$MM" "$1"
    [ "$rc" -eq 0 ] && [ "$(printf '%s\n' "$out" | awk '{ printf "%.12g\n", $1 }')" = "$2" ]
    ok $? "$3: tk_mm gives the closed form" || diag "got:" "$out" "want:" "$2"
    run "$SG" "$1"
    [ "$rc" -eq 0 ] && [ "$(printf '%s\n' "$out" | awk '{ printf "%.6g\n", $1 }')" = "$(printf '%s\n' "$2" | awk '{ printf "%.6g\n", $1 }')" ]
    ok $? "$3: SimGrid gives the closed form (6 digits)" || diag "got:" "$out" "want:" "$2" "stderr: $err"
}

# --- closed forms --------------------------------------------------------------
# one link of capacity 3 shared by 3 flows: 1 each
printf '1 3\n3\n0 1 0\n0 1 0\n0 1 0\n' >"$TMPD/one.mm"
exact "$TMPD/one.mm" "$(printf '1\n1\n1')" "one link, three flows"
# parking lot: links 0, 1, 2 of capacity 1; flow 0 crosses all three, flow
# i+1 only link i: every link is shared by two flows, 1/2 each
printf '3 4\n1 1 1\n0 3 0 1 2\n0 1 0\n0 1 1\n0 1 2\n' >"$TMPD/pl.mm"
exact "$TMPD/pl.mm" "$(printf '0.5\n0.5\n0.5\n0.5')" "parking lot of 3 links"
# two links: link 0 (capacity 1) carries flows 0 and 1, link 1 (capacity 10)
# flows 0 and 2; flow 1 is bounded by 0.2, so flow 0 gets 0.8 on link 0 and
# flow 2 the rest of link 1, 9.2
printf '2 3\n1 10\n0 2 0 1\n0.2 1 0\n0 1 1\n' >"$TMPD/b.mm"
exact "$TMPD/b.mm" "$(printf '0.8\n0.2\n9.2')" "a rate bound"

# --- random instances ------------------------------------------------------------
for s in $(seq 1 30); do
    R=$((2 + s % 17)) F=$((2 + (s * 7) % 60))
    gen "$s" "$R" "$F" 5 real >"$TMPD/r$s.mm"
    compare "$TMPD/r$s.mm" "seed $s, $R links, $F flows, real capacities"
done
for s in $(seq 31 50); do
    R=$((2 + s % 13)) F=$((2 + (s * 5) % 50))
    gen "$s" "$R" "$F" 4 int >"$TMPD/r$s.mm"
    compare "$TMPD/r$s.mm" "seed $s, $R links, $F flows, integer capacities (ties)"
done
for s in $(seq 51 60); do
    R=$((4 + s % 11)) F=$((5 + (s * 3) % 40))
    gen "$s" "$R" "$F" 4 real >"$TMPD/r$s.mm"
    rho=$(awk -v s="$s" 'BEGIN { srand(s); printf "%.6g", 0.05 + 0.5 * rand() }')
    compare "$TMPD/r$s.mm" "seed $s, $R links, $F flows, every flow capped at rho=$rho" -r "$rho"
done
gen 61 3000 1500 6 real >"$TMPD/big.mm"
compare "$TMPD/big.mm" "seed 61, 3000 links, 1500 flows of up to 6 links"
gen 62 400 1500 6 int >"$TMPD/big2.mm"
compare "$TMPD/big2.mm" "seed 62, 400 links, 1500 flows, integer capacities"

# --- topo-sim's own systems (mm-solve -w: one variable per server-level flow,
# single-path routings), uncapped and at offered load 1 (each flow capped at
# its demand) -----------------------------------------------------------------
own() { # own DESC TOPO ROUTING KIND SEED
    local desc=$1 d
    shift
    if "$MM" -w "$@" >"$TMPD/own.mm" 2>"$TMPD/own.err"; then
        compare "$TMPD/own.mm" "$desc, uncapped"
        d=$(sed -n 's/.*(rho = \([^ ]*\) per flow).*/\1/p' "$TMPD/own.mm")
        compare "$TMPD/own.mm" "$desc, offered load 1" -r "$d"
    else
        ok 1 "$desc: mm-solve -w" || diag "$(cat "$TMPD/own.err")"
    fi
}
topo-gen dragonfly a=4 h=2 p=2 >"$TMPD/df.topo"
for s in 1 2 3; do
    own "dragonfly a=4 h=2 p=2, dragonfly-min, server permutation s=$s" "$TMPD/df.topo" dragonfly-min server-perm $s
done
topo-gen rrg n=16 d=4 -s 1 >"$TMPD/rrg.topo"
own "rrg n=16 d=4, ksp:1, all-to-all" "$TMPD/rrg.topo" ksp:1 all-to-all 1
own "rrg n=16 d=4, ksp:1, switch permutation" "$TMPD/rrg.topo" ksp:1 switch-perm 2
topo-gen torus sides=4,4 -p 2 >"$TMPD/torus.topo"
own "torus 4x4, ksp:1, server permutation" "$TMPD/torus.topo" ksp:1 server-perm 3
diag "largest relative difference over all instances: $worst_all"

# --- the programs' own errors ----------------------------------------------------
printf '1 2\n3\n0 1 0\n0 1 5\n' >"$TMPD/bad.mm"
run "$MM" "$TMPD/bad.mm"
expect_fail 1 'flow 1: resource 0: want 0 \.\. 0' "mm-solve: a resource out of range"
run "$SG" "$TMPD/bad.mm"
[ "$rc" -ne 0 ] && [ -z "$out" ]
ok $? "simgrid-maxmin: a resource out of range fails, nothing on stdout"

done_testing
