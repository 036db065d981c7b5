#!/bin/sh
# vc.sh - topo-vc on the topologies of Table I of Cano, Camarero, Martinez
# and Beivide, "Analysing Mechanisms for Virtual Channel Management in
# Low-Diameter Networks": the deadlock verdict and VC counts of Valiant
# under Ladder, with 2 threads (issue 23's target: under 10 s each).
#   1. Dragonfly h=6 (topo-gen dragonfly a=12 h=6 p=6: 876 routers, 5256
#      servers), dragonfly-valiant;
#   2. 3D HyperX side 8 (512 switches, 8 servers each), valiant,dor;
#   3. and, for scale, smaller members of both families.
# topo-vc works on the routing's segments (n^2 segment sets, not the n^3
# draws); --enumerate lists the draws (the last column, on the small
# instances only).  VC_FULL=0 skips the two Table I instances.
set -eu
W=$(mktemp -d "${TMPDIR:-/tmp}/tk-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM
d=$(dirname "$(command -v topo-vc)")
if [ -x "$d/.libs/topo-vc" ]; then
    topo_vc="$d/.libs/topo-vc"
    LD_LIBRARY_PATH="$d/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    export LD_LIBRARY_PATH
else
    topo_vc=topo-vc
fi
wall() {
    /usr/bin/time -f %e -o "$W/time" "$@" >"$W/out" 2>"$W/err"
    cat "$W/time"
}

echo "## topo-vc: Valiant under Ladder (issue 23 target: 10 s each on 2 cores)"
printf 'instance\tswitches\trouting\tverdict\tvcs_class\twall_s\tcpu_s\tenumerate_wall_s\n'
run() { # name spec routing enumerate(0/1)
    # shellcheck disable=SC2086
    topo-gen $2 >"$W/g.topo"
    /usr/bin/time -f '%e %U %S' -o "$W/time" "$topo_vc" --threads 2 -r "$3" -v ladder "$W/g.topo" >"$W/out"
    read -r t u s <"$W/time"
    e=-
    [ "$4" = 1 ] && e=$(wall "$topo_vc" --threads 2 --enumerate -r "$3" -v ladder "$W/g.topo")
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$(sed -n 's/^switches //p' "$W/g.topo")" "$3" \
        "$(tail -1 "$W/out" | cut -f4)" "$(tail -1 "$W/out" | cut -f10)" "$t" \
        "$(echo "$u $s" | awk '{ print $1 + $2 }')" "$e"
}
run "dragonfly h=3" "dragonfly a=6 h=3 p=3" dragonfly-valiant 1
run "hyperx 5^3" "hyperx sides=5,5,5" valiant,dor 1
if [ "${VC_FULL:-1}" != 0 ]; then
    run "Table I dragonfly h=6" "dragonfly a=12 h=6 p=6" dragonfly-valiant 0
    run "Table I hyperx 8^3" "hyperx sides=8,8,8 p=8" valiant,dor 0
fi

# Section II of the paper on the Table I topologies themselves: Ladder's
# count (twice the diameter), the least cap of ladder,cap=K (D+1 for the
# HyperX, 5 for the Dragonfly, found small), 2Phases' count.
if [ "${VC_FULL:-1}" != 0 ]; then
    echo
    echo "## Table I topologies: VCs needed under Valiant"
    printf 'topology\trouting\tladder_vcs\tladder_min_cap\t2phases_vcs\t2phases_verdict\n'
    table1() { # name spec routing policy2 [options]
        set -- "$1" "$2" "$3" "$4" "${5:-}"
        # shellcheck disable=SC2086
        topo-gen $2 >"$W/g.topo"
        # shellcheck disable=SC2086
        l=$("$topo_vc" --threads 2 $5 -r "$3" -v ladder --min-vcs "$W/g.topo" | tail -1)
        # shellcheck disable=SC2086
        p=$("$topo_vc" --threads 2 $5 -r "$3" -v "$4" "$W/g.topo" | tail -1)
        printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$3" "$(echo "$l" | cut -f10)" \
            "$(echo "$l" | cut -f11)" "$(echo "$p" | cut -f10)" "$(echo "$p" | cut -f4)"
    }
    table1 "1D HyperX K64" "hyperx sides=64 p=64" valiant,dor 2phases
    table1 "2D HyperX 16^2" "hyperx sides=16,16 p=16" valiant,dor 2phases
    table1 "3D HyperX 8^3" "hyperx sides=8,8,8 p=8" valiant,dor 2phases
    table1 "Dragonfly h=6" "dragonfly a=12 h=6 p=6" dragonfly-valiant dfladder
    table1 "Dragonfly+ 8 per leaf" "dragonfly+ leaves=8 spines=8 h=8 p=8" valiant,servers 2phases \
        --server-pairs
fi
