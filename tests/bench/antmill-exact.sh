#!/bin/sh
# antmill-exact.sh - how far topo-antmill's exact search goes (issue 28):
# topo-antmill --exact --delta D --time-limit EX_LIMIT (default 60) --budget 0
# on random regular graphs where the proofs and the quick searches before it
# do not decide, so the SAT solver (cadical) runs.  Per case: the outcome,
# the whole process's wall time, the solver rounds (one per cut round), the
# wall time from the first round's start to the end, and the CNF's size
# (variables, clauses) of the first round.  The solver is run through a
# wrapper that logs each start and then execs it.
#   EX_LIMIT=60 EX_CASES='n:d:delta:seed ...' sh antmill-exact.sh
set -eu
LIMIT=${EX_LIMIT:-60}
CASES=${EX_CASES:-100:3:2:1 200:3:2:1 400:3:2:1 800:3:2:1 1600:3:2:1 3200:3:2:1
150:3:3:4 300:3:3:1 600:3:3:1 100:4:3:3 150:4:3:1 300:4:3:1 600:4:3:1 1224:4:3:1
150:4:4:1 300:4:4:1 100:6:3:1 300:6:3:1 1224:14:3:1}
command -v cadical >/dev/null 2>&1 || { echo "# antmill-exact: cadical not installed, skipped"; exit 0; }
W=$(mktemp -d "${TMPDIR:-/tmp}/tk-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM
cat >"$W/solver" <<EOF
#!/bin/sh
echo "\$(date +%s.%N) \$(head -1 "\$1" | cut -d ' ' -f 3,4)" >>"$W/log"
exec cadical "\$@"
EOF
chmod +x "$W/solver"
echo "# antmill-exact: topo-antmill --exact --delta D --time-limit $LIMIT --budget 0"
printf 'n\td\tdelta\tseed\toutcome\ttotal_s\trounds\tsolver_s\tvars\tclauses\n'
for c in $CASES; do
    IFS=: read -r n d D s <<EOF
$c
EOF
    topo-gen rrg n="$n" d="$d" -s "$s" -o "$W/g.topo"
    : >"$W/log"
    t0=$(date +%s.%N)
    if topo-antmill --exact="$W/solver" --time-limit "$LIMIT" --budget 0 --delta "$D" \
        --no-uniform -o "$W/h.cyc" "$W/g.topo" >/dev/null 2>"$W/err"; then
        v=$(topo-antmill --verify "$W/h.cyc" --no-uniform "$W/g.topo" | awk -F '\t' 'NR == 2 { print $3 }')
        out="found (verified delta $v)"
    else
        case $(cat "$W/err") in
        *unsatisfiable*) out=unsatisfiable ;;
        *"time limit"*) out="time limit" ;;
        *impossible*) out="proof: $(sed 's/.*impossible: //' "$W/err" | cut -c 1-40)" ;;
        *) out="error: $(cut -c 1-60 "$W/err")" ;;
        esac
    fi
    t1=$(date +%s.%N)
    rounds=$(grep -c . "$W/log" || true)
    if [ "$rounds" -gt 0 ]; then
        first=$(head -1 "$W/log")
        sv=$(awk -v a="${first%% *}" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
        vc=$(printf '%s' "$first" | awk '{ print $2 "\t" $3 }')
    else
        sv=-
        vc="-	-"
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$n" "$d" "$D" "$s" "$out" \
        "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')" "$rounds" "$sv" "$vc"
done
