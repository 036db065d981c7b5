#!/bin/sh
# mcf-paths.sh - the routing-restricted (path) LP of topo-mcf: GLPK's
# simplex against the certified barrier (--lp simplex / --lp barrier), side
# by side in one run, on the Figure 13 and 14 LPs of Faizian et al.
# ("Random Regular Graph and Generalized De Bruijn Graph with k-shortest
# Path Routing"): GDBG with ALLPATH(3) under switch-level permutations and
# shifts (r = 16, N = 100 ..
# 900) and server-level ones (N = 150, r = 8, 3 and 10 servers per switch).
# Per row: mean wall seconds per LP over MCF_PATHS_SEEDS pattern seeds
# (default 1..5), how many of them the barrier itself certified (the rest
# went through the simplex on the barrier's paths or on all paths), and the
# largest relative difference between the two thetas.  Both run with
# --no-presolve (the split check never settles these GDBG LPs anyway).
# Second table: the split check (presolve) on Figure 14's random regular
# graphs, RRG(N, 16) with ksp:k, a new graph and pattern per seed: mean
# seconds per sample with the default against --no-presolve (both --lp
# auto), how many samples the check settled, the largest difference.
# Third table: row generation in the simplex, on the samples the split
# check does not settle: --lp simplex (rows added as the flow overloads
# their arcs) against --no-presolve --lp simplex (every row from the start)
# and --no-presolve --lp barrier, on Figure 14's RRG(N, 16) with ksp:k,
# GDBG(N, 16) with ALLPATH(3) and Figure 13's RRG(150, 8) with ksp:4 and
# servers; mean solve seconds and row generation rounds per LP.
# Fourth table: --lp auto's choice per LP (barrier from 1500 path columns
# when the split check loads at least 0.3 of the arcs to capacity, else
# the simplex with row generation) against --lp simplex and --lp barrier,
# all with the split check, on the third table's LPs: mean solve seconds,
# how often auto chose the barrier, and the worst ratio over the LPs of
# auto's time to the faster of the two.
# Fifth table: --links (the saturated links, the LP's dual prices) with
# row generation against --no-presolve --links (every row), both --lp
# simplex: mean seconds per LP and the largest difference in theta.
# MCF_PATHS_TABLES picks the tables (default "1 2 3 4 5").
set -eu
W=$(mktemp -d "${TMPDIR:-/tmp}/tk-mcfp.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM
SEEDS=${MCF_PATHS_SEEDS:-1 2 3 4 5}
TABLES=${MCF_PATHS_TABLES:-1 2 3 4 5}
# jget FILE KEY: a number of topo-mcf's JSON line
jget() { awk -v RS=, -F: -v k="\"$2\"" '$1 ~ k { print $2; exit }' "$1"; }

row() { # GEN-ARGS PATTERN
    topo-gen $1 >"$W/g.topo"
    ns=0 ts=0 tb=0 cert=0 dmax=0
    for s in $SEEDS; do
        topo-mcf --no-presolve --lp simplex -r allpath:3 -m "$2" -s "$s" --json "$W/g.topo" >"$W/s"
        topo-mcf --no-presolve --lp barrier -r allpath:3 -m "$2" -s "$s" --json "$W/g.topo" >"$W/b"
        set -- "$1" "$2" $(awk -v RS=, -F: '$1 ~ /"theta"/ { t = $2 } $1 ~ /"time"/ { s = $2 }
            $1 ~ /"iterations"/ { i = $2 } END { print t, s, i }' "$W/s") \
            $(awk -v RS=, -F: '$1 ~ /"theta"/ { t = $2 } $1 ~ /"time"/ { s = $2 }
            $1 ~ /"iterations"/ { i = $2 } END { print t, s, i }' "$W/b")
        ns=$((ns + 1))
        ts=$(awk -v a="$ts" -v b="$4" 'BEGIN { print a + b }')
        tb=$(awk -v a="$tb" -v b="$7" 'BEGIN { print a + b }')
        # a pure barrier answer has a few dozen iterations, not thousands
        [ "$8" -lt 500 ] && cert=$((cert + 1))
        dmax=$(awk -v a="$3" -v b="$6" -v m="$dmax" 'BEGIN { d = (a - b) / a; if (d < 0) d = -d; print (d > m ? d : m) }')
    done
    awk -v g="$1" -v p="$2" -v n="$ns" -v ts="$ts" -v tb="$tb" -v c="$cert" -v d="$dmax" \
        'BEGIN { printf "| %s | %s | %.2f | %.2f | %.1fx | %d of %d | %.1e |\n", g, p, ts / n, tb / n, ts / tb, c, n, d }'
}
prow() { # N K PATTERN
    ns=0 ta=0 tb=0 none=0 dmax=0
    for s in $SEEDS; do
        topo-gen rrg n="$1" d=16 -s "$s" >"$W/g.topo"
        topo-mcf -r ksp:"$2" -m "$3" -s "$s" --json "$W/g.topo" >"$W/a"
        topo-mcf --no-presolve -r ksp:"$2" -m "$3" -s "$s" --json "$W/g.topo" >"$W/b"
        grep -q '"lp":"none"' "$W/a" && none=$((none + 1))
        set -- "$1" "$2" "$3" $(awk -v RS=, -F: '$1 ~ /"theta"/ { t = $2 } $1 ~ /"time"/ { s = $2 }
            END { print t, s }' "$W/a") $(awk -v RS=, -F: '$1 ~ /"theta"/ { t = $2 }
            $1 ~ /"time"/ { s = $2 } END { print t, s }' "$W/b")
        ns=$((ns + 1))
        ta=$(awk -v a="$ta" -v b="$5" 'BEGIN { print a + b }')
        tb=$(awk -v a="$tb" -v b="$7" 'BEGIN { print a + b }')
        dmax=$(awk -v a="$4" -v b="$6" -v m="$dmax" 'BEGIN { d = (a - b) / a; if (d < 0) d = -d; print (d > m ? d : m) }')
    done
    awk -v g="rrg n=$1 d=16" -v r="ksp:$2" -v p="$3" -v n="$ns" -v ta="$ta" -v tb="$tb" -v c="$none" -v d="$dmax" \
        'BEGIN { printf "| %s | %s | %s | %.3f | %.3f | %.1fx | %d of %d | %.1e |\n", g, r, p, ta / n, tb / n, tb / ta, c, n, d }'
}
# rgrow GEN-ARGS ROUTING PATTERN: GEN-ARGS may hold @S for the seed (a new
# graph per sample)
rgrow() {
    nlp=0 nnone=0 tr=0 tw=0 tb=0 rr=0 dmax=0
    for s in $SEEDS; do
        topo-gen $(printf '%s\n' "$1" | sed "s/@S/$s/") >"$W/g.topo"
        topo-mcf --lp simplex -r "$2" -m "$3" -s "$s" --json "$W/g.topo" >"$W/a"
        if grep -q '"lp":"none"' "$W/a"; then
            nnone=$((nnone + 1))
            continue
        fi
        topo-mcf --no-presolve --lp simplex -r "$2" -m "$3" -s "$s" --json "$W/g.topo" >"$W/b"
        topo-mcf --no-presolve --lp barrier -r "$2" -m "$3" -s "$s" --json "$W/g.topo" >"$W/c"
        nlp=$((nlp + 1))
        tr=$(awk -v a="$tr" -v b="$(jget "$W/a" time)" 'BEGIN { print a + b }')
        tw=$(awk -v a="$tw" -v b="$(jget "$W/b" time)" 'BEGIN { print a + b }')
        tb=$(awk -v a="$tb" -v b="$(jget "$W/c" time)" 'BEGIN { print a + b }')
        rr=$((rr + $(jget "$W/a" rounds)))
        dmax=$(awk -v a="$(jget "$W/a" theta)" -v b="$(jget "$W/b" theta)" -v m="$dmax" 'BEGIN { d = (a - b) / b; if (d < 0) d = -d; print (d > m ? d : m) }')
    done
    awk -v g="$(printf '%s\n' "$1" | sed 's/ -s @S//')" -v r="$2" -v p="$3" -v n="$nlp" -v z="$nnone" -v tr="$tr" -v tw="$tw" -v tb="$tb" -v rr="$rr" -v d="$dmax" \
        'BEGIN { if (n == 0) { printf "| %s | %s | %s | 0 (%d without) | - | - | - | - | - | - |\n", g, r, p, z; exit }
                 printf "| %s | %s | %s | %d (%d without) | %.3f | %.3f | %.3f | %.1fx | %.1f | %.1e |\n", g, r, p, n, z, tr / n, tw / n, tb / n, tw / tr, rr / n, d }'
}
autorow() { # GEN-ARGS ('@S': the seed) ROUTING PATTERN
    nlp=0 nnone=0 ta=0 ts=0 tb=0 nbar=0 worst=0
    for s in $SEEDS; do
        topo-gen $(printf '%s\n' "$1" | sed "s/@S/$s/") >"$W/g.topo"
        topo-mcf -r "$2" -m "$3" -s "$s" --json "$W/g.topo" >"$W/a"
        if grep -q '"lp":"none"' "$W/a"; then
            nnone=$((nnone + 1))
            continue
        fi
        topo-mcf --lp simplex -r "$2" -m "$3" -s "$s" --json "$W/g.topo" >"$W/b"
        topo-mcf --lp barrier -r "$2" -m "$3" -s "$s" --json "$W/g.topo" >"$W/c"
        nlp=$((nlp + 1))
        grep -q '"lp":"barrier"' "$W/a" && nbar=$((nbar + 1))
        set -- "$1" "$2" "$3" "$(jget "$W/a" time)" "$(jget "$W/b" time)" "$(jget "$W/c" time)"
        ta=$(awk -v a="$ta" -v b="$4" 'BEGIN { print a + b }')
        ts=$(awk -v a="$ts" -v b="$5" 'BEGIN { print a + b }')
        tb=$(awk -v a="$tb" -v b="$6" 'BEGIN { print a + b }')
        worst=$(awk -v a="$4" -v b="$5" -v c="$6" -v w="$worst" 'BEGIN { r = a / (b < c ? b : c); print (r > w ? r : w) }')
    done
    awk -v g="$(printf '%s\n' "$1" | sed 's/ -s @S//')" -v r="$2" -v p="$3" -v n="$nlp" -v z="$nnone" -v ta="$ta" -v ts="$ts" -v tb="$tb" -v nb="$nbar" -v w="$worst" \
        'BEGIN { if (n == 0) { printf "| %s | %s | %s | 0 (%d without) | - | - | - | - | - |\n", g, r, p, z; exit }
                 printf "| %s | %s | %s | %d (%d without) | %.3f | %.3f | %.3f | %d of %d | %.2f |\n", g, r, p, n, z, ta / n, ts / n, tb / n, nb, n, w }'
}
linkrow() { # GEN-ARGS ('@S': the seed) ROUTING PATTERN
    nlp=0 tr=0 tw=0 rr=0 dmax=0
    for s in $SEEDS; do
        topo-gen $(printf '%s\n' "$1" | sed "s/@S/$s/") >"$W/g.topo"
        topo-mcf --links --lp simplex -r "$2" -m "$3" -s "$s" --json "$W/g.topo" >"$W/a"
        topo-mcf --links --no-presolve --lp simplex -r "$2" -m "$3" -s "$s" --json "$W/g.topo" >"$W/b"
        nlp=$((nlp + 1))
        tr=$(awk -v a="$tr" -v b="$(jget "$W/a" time)" 'BEGIN { print a + b }')
        tw=$(awk -v a="$tw" -v b="$(jget "$W/b" time)" 'BEGIN { print a + b }')
        rr=$((rr + $(jget "$W/a" rounds)))
        dmax=$(awk -v a="$(jget "$W/a" theta)" -v b="$(jget "$W/b" theta)" -v m="$dmax" 'BEGIN { d = (a - b) / b; if (d < 0) d = -d; print (d > m ? d : m) }')
    done
    awk -v g="$(printf '%s\n' "$1" | sed 's/ -s @S//')" -v r="$2" -v p="$3" -v n="$nlp" -v tr="$tr" -v tw="$tw" -v rr="$rr" -v d="$dmax" \
        'BEGIN { printf "| %s | %s | %s | %d | %.3f | %.3f | %.1fx | %.1f | %.1e |\n", g, r, p, n, tr / n, tw / n, tw / tr, rr / n, d }'
}

lp_set() { # ROW-FN: the third and fourth tables' LPs (Figure 14's RRG with
    # ksp:k, GDBG with ALLPATH(3), Figure 13's RRG with servers)
    for NK in 300:15 400:11 500:9 600:8 700:7; do
        "$1" "rrg n=${NK%:*} d=16 -s @S" "ksp:${NK#*:}" "switch-perm level=switch"
        "$1" "rrg n=${NK%:*} d=16 -s @S" "ksp:${NK#*:}" "random-shift level=switch"
    done
    for N in 300 600; do
        "$1" "gdbg n=$N r=16" allpath:3 "switch-perm level=switch"
        "$1" "gdbg n=$N r=16" allpath:3 "random-shift level=switch"
    done
    for P in 3 10; do
        "$1" "rrg n=150 d=8 -p $P -s @S" ksp:4 "server-perm"
        "$1" "rrg n=150 d=8 -p $P -s @S" ksp:4 "random-shift level=server"
    done
}

case " $TABLES " in *" 1 "*)
    echo "## topo-mcf path LP: simplex against barrier (mean s per LP, seeds: $SEEDS)"
    echo
    echo "| graph | pattern | simplex s | barrier s | speed-up | certified by the barrier | max rel. diff |"
    echo "|---|---|---|---|---|---|---|"
    for N in 100 300 600 900; do
        row "gdbg n=$N r=16" "switch-perm level=switch"
        row "gdbg n=$N r=16" "random-shift level=switch"
    done
    for P in 3 10; do
        row "gdbg n=150 r=8 -p $P" "server-perm"
        row "gdbg n=150 r=8 -p $P" "random-shift"
    done
    echo ;;
esac

case " $TABLES " in *" 2 "*)
    echo "## topo-mcf -r: the split check on the RRG samples of Faizian et al. Figure 14 (mean s per sample, seeds: $SEEDS)"
    echo
    echo "| graph | routing | pattern | default s | --no-presolve s | speed-up | settled without an LP | max rel. diff |"
    echo "|---|---|---|---|---|---|---|---|"
    for NK in 500:9 600:8 700:7 800:6 900:5; do
        prow "${NK%:*}" "${NK#*:}" "switch-perm level=switch"
        prow "${NK%:*}" "${NK#*:}" "random-shift level=switch"
    done
    echo ;;
esac

case " $TABLES " in *" 3 "*)
    echo "## topo-mcf -r: row generation in the simplex (mean solve s per LP that ran, seeds: $SEEDS)"
    echo
    echo "| graph | routing | pattern | LPs (settled without) | simplex, row generation | simplex, all rows | barrier | row generation speed-up | rounds | max rel. diff |"
    echo "|---|---|---|---|---|---|---|---|---|---|"
    lp_set rgrow ;;
esac

case " $TABLES " in *" 4 "*)
    echo
    echo "## topo-mcf -r: --lp auto's choice against both algorithms (mean solve s per LP that ran, seeds: $SEEDS)"
    echo
    echo "| graph | routing | pattern | LPs (settled without) | auto | simplex | barrier | auto chose the barrier | worst auto / faster |"
    echo "|---|---|---|---|---|---|---|---|---|"
    lp_set autorow ;;
esac

case " $TABLES " in *" 5 "*)
    echo
    echo "## topo-mcf -r --links: row generation against every row (simplex, mean s per LP, seeds: $SEEDS)"
    echo
    echo "| graph | routing | pattern | LPs | row generation | all rows | speed-up | rounds | max rel. diff |"
    echo "|---|---|---|---|---|---|---|---|---|"
    for NK in 400:11 600:8; do
        linkrow "rrg n=${NK%:*} d=16 -s @S" "ksp:${NK#*:}" "switch-perm level=switch"
        linkrow "rrg n=${NK%:*} d=16 -s @S" "ksp:${NK#*:}" "random-shift level=switch"
    done
    linkrow "gdbg n=300 r=16" allpath:3 "switch-perm level=switch"
    linkrow "rrg n=150 d=8 -p 3 -s @S" ksp:4 "server-perm" ;;
esac
