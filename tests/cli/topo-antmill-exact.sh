# topo-antmill --exact (issue 28): the exact delta search through a SAT
# solver.  A case the heuristic cannot decide (rrg n=16 d=3 s=2, delta 2:
# no proof, the search only gives up) refuted by the solver and confirmed by
# brute force in Python; a cycle the heuristic does not find (rrg n=150 d=3
# s=4, delta 3) found and checked by networkx; the --max-delta report; the
# option's errors; solvers that fail, lie or run out of time (shell scripts
# standing in for a solver).
. "$TK_SRCDIR/tests/cli/lib.sh"

command -v cadical >/dev/null 2>&1 || skip_all "cadical (the SAT solver) not installed"

topo-gen rrg n=16 d=3 -s 2 >"$TMPD/g.topo"

# --- usage and a missing solver ----------------------------------------------
P="$TK_SRCDIR/data/petersen.topo" # no Hamiltonian cycle: the exact search runs
run topo-antmill --time-limit 5 "$P"
expect_rc 2 "--time-limit without --exact: usage error"
expect_err_match 'time-limit needs --exact' "... says so"
run topo-antmill --exact --verify "$P" "$P"
expect_rc 2 "--exact with --verify: usage error"
run topo-antmill --exact= --hat "$P"
expect_rc 2 "--exact= (empty): usage error"
expect_err_match 'empty solver name' "... says so"
run topo-antmill --exact --time-limit -1 --hat "$P"
expect_rc 2 "--time-limit -1: usage error"
run topo-antmill --exact="$TMPD/no-such-solver" --hat "$P"
expect_fail 1 "--exact: SAT solver '.*no-such-solver' not found" \
    "a solver that does not exist: one line, exit 1, before any work"
run topo-antmill --exact=no-such-solver-on-path --hat "$P"
expect_fail 1 "--exact: SAT solver 'no-such-solver-on-path' not found" \
    "a bare name is looked up in PATH"
run topo-antmill --exact --hat --no-uniform "$P"
expect_fail 1 'delta=0: impossible: exact search: unsatisfiable' \
    "Petersen: no Hamiltonian cycle (exact search)"

# --- the heuristic has no proof; the exact search refutes ---------------------
run topo-antmill --delta 2 --budget 0.3 --no-uniform "$TMPD/g.topo"
expect_fail 1 'no cycle with delta=2 found within 0.3 s' "heuristic alone: budget, no proof"
run topo-antmill --exact --delta 2 --no-uniform "$TMPD/g.topo"
expect_fail 1 'delta=2: impossible: exact search: unsatisfiable' "--exact: delta 2 unsatisfiable"
run topo-antmill --exact --max-delta --no-uniform "$TMPD/g.topo"
expect_rc 0 "--exact --max-delta"
[ "$(printf '%s\n' "$out" | awk -F '\t' 'NR == 2 { print $3 }')" = 1 ]
ok $? "--max-delta: delta 1" || diag "$out"
[ "$err" = "topo-antmill: warning: rrg n=16 d=3 s=2: delta 2 impossible (exact search: unsatisfiable)" ]
ok $? "--max-delta says the exact search decided delta 2" || diag "$err"

PY=
for p in python3 python; do
    if "$p" -c 'import networkx' >/dev/null 2>&1; then PY=$p; break; fi
done
topo-conv -f edgelist "$TMPD/g.topo" >"$TMPD/g.el"
if [ -n "$PY" ]; then
    "$PY" - "$TMPD/g.el" <<'PY'
import sys
import networkx as nx
g = nx.Graph()
for line in open(sys.argv[1]):
    if line.startswith('#') or not line.strip():
        continue
    a, b = map(int, line.split()[:2])
    g.add_edge(a, b)
n = g.number_of_nodes()
def unique(x, z, k):
    return nx.shortest_path_length(g, x, z) == k and \
        sum(1 for _ in nx.all_shortest_paths(g, x, z)) == 1
best, cycles = -1, 0
def rec(path, used):
    global best, cycles
    if len(path) == n:
        if g.has_edge(path[-1], path[0]):
            cycles += 1
            d = 0
            while d + 1 < n and all(unique(path[i], path[(i + d + 1) % n], d + 1) for i in range(n)):
                d += 1
            best = max(best, d)
        return
    for w in g[path[-1]]:
        if w not in used:
            used.add(w); path.append(w)
            rec(path, used)
            path.pop(); used.discard(w)
rec([0], {0})
assert cycles > 0 and best == 1, (cycles, best)
PY
    ok $? "brute force (networkx): Hamiltonian cycles exist, none has delta 2"
fi

# --- a cycle the heuristic does not find, found by the exact search ---------
# (rrg n=150 d=3 s=4, delta 3: the heuristic alone found none in 20 s)
cat >"$TMPD/logsolver" <<EOF
#!/bin/sh
echo run >>"$TMPD/solver.log"
exec cadical "\$@"
EOF
chmod +x "$TMPD/logsolver"
topo-gen rrg n=150 d=3 -s 4 >"$TMPD/h.topo"
run topo-antmill --delta 3 --budget 0.3 --no-uniform "$TMPD/h.topo"
expect_fail 1 'no cycle with delta=3 found within 0.3 s' "rrg n=150 d=3: the heuristic alone gives up"
run topo-antmill --exact="$TMPD/logsolver" --delta 3 --no-uniform -o "$TMPD/h.cyc" "$TMPD/h.topo"
expect_rc 0 "--exact --delta 3: found"
[ -s "$TMPD/solver.log" ]
ok $? "... by the exact search (the solver ran)"
run topo-antmill --verify "$TMPD/h.cyc" --no-uniform "$TMPD/h.topo"
[ "$rc" = 0 ] && [ "$(printf '%s\n' "$out" | awk -F '\t' 'NR == 2 { print $3 }')" = 3 ]
ok $? "--verify measures delta 3" || diag "$out"
if [ -n "$PY" ]; then
    topo-conv -f edgelist "$TMPD/h.topo" >"$TMPD/h.el"
    "$PY" - "$TMPD/h.el" "$TMPD/h.cyc" <<'PY'
import sys
import networkx as nx
g = nx.Graph()
for line in open(sys.argv[1]):
    if line.startswith('#') or not line.strip():
        continue
    a, b = map(int, line.split()[:2])
    g.add_edge(a, b)
cyc = [int(l) for l in open(sys.argv[2]) if l.strip() and not l.startswith('#')]
n = g.number_of_nodes()
assert sorted(cyc) == list(range(n))
for i in range(n):
    assert g.has_edge(cyc[i], cyc[(i + 1) % n])
    p = list(nx.all_shortest_paths(g, cyc[i], cyc[(i + 3) % n]))
    assert p == [[cyc[(i + j) % n] for j in range(4)]], (i, p)
PY
    ok $? "networkx: Hamiltonian, every window of 3 links the unique shortest path"
fi

# --- solvers that time out, fail or lie ---------------------------------------
printf '#!/bin/sh\nexec sleep 30\n' >"$TMPD/slow"
printf '#!/bin/sh\necho hello\n' >"$TMPD/mute"
printf '#!/bin/sh\nkill -SEGV $$\n' >"$TMPD/crash"
chmod +x "$TMPD/slow" "$TMPD/mute" "$TMPD/crash"
run topo-antmill --exact="$TMPD/slow" --time-limit 0.3 --hat --no-uniform "$P"
expect_fail 1 'no cycle with delta=0 found within the time limit of the exact search \(0.3 s\)' \
    "a solver over the time limit is killed: not found within the time limit"
run topo-antmill --exact="$TMPD/slow" --time-limit 0.3 --max-delta --no-uniform "$TMPD/g.topo"
[ "$rc" = 0 ] && [ "$err" = "topo-antmill: warning: rrg n=16 d=3 s=2: delta 2 not found within time limit (exact search)" ]
ok $? "--max-delta: says the time limit decided delta 2" || diag "$rc $err"
run topo-antmill --exact="$TMPD/slow" --time-limit 30 --budget 0.3 --hat --no-uniform "$P"
expect_fail 1 'no cycle with delta=0 found within 0.3 s$' "the budget bounds the exact search too"
run topo-antmill --exact="$TMPD/mute" --hat --no-uniform "$P"
expect_fail 1 "SAT solver '.*mute' gave no answer" "a solver without an answer: error"
run topo-antmill --exact="$TMPD/crash" --hat --no-uniform "$P"
expect_fail 1 "SAT solver '.*crash' was killed by signal 11" "a crashing solver: error"
run topo-antmill --exact="$TMPD/mute" --max-delta --no-uniform "$TMPD/g.topo"
expect_fail 1 "gave no answer" "--max-delta: a failing solver is an error, not a give-up"

# A lying solver: "satisfiable" with every link of Petersen chosen (the
# degrees break), and on the RRG with the links of a Hamiltonian cycle of delta 1 chosen when delta 2
# was asked (variable i is the i-th link u < v in order).
printf '#!/bin/sh\necho "s SATISFIABLE"\necho "v %s 0"\n' "$(seq -s ' ' 1 15)" >"$TMPD/all"
topo-antmill --hat --no-uniform -o "$TMPD/g.cyc" "$TMPD/g.topo" >/dev/null
v=$(awk 'FNR == NR { if ($0 !~ /^#/) c[n++] = $1; next }
         !/^#/ { k++; e[$1 < $2 ? $1 " " $2 : $2 " " $1] = k }
         END { for (i = 0; i < n; i++) { a = c[i]; b = c[(i + 1) % n]
               printf "%d ", e[a < b ? a " " b : b " " a] } }' "$TMPD/g.cyc" "$TMPD/g.el")
printf '#!/bin/sh\necho "s SATISFIABLE"\necho "v %s0"\n' "$v" >"$TMPD/liar"
chmod +x "$TMPD/all" "$TMPD/liar"
run topo-antmill --exact="$TMPD/all" --hat --no-uniform "$P"
expect_fail 1 "its model breaks the degree constraints" "a model that is no 2-factor: refused"
run topo-antmill --exact="$TMPD/liar" --delta 2 --no-uniform "$TMPD/g.topo"
expect_fail 1 "its cycle has delta 1, not 2" "a Hamiltonian cycle of delta 1 for delta 2: refused"

# nothing left behind in TMPDIR
mkdir "$TMPD/tmp"
run env TMPDIR="$TMPD/tmp" topo-antmill --exact --hat --no-uniform "$P"
[ "$rc" = 1 ] && [ -z "$(ls "$TMPD/tmp")" ]
ok $? "the CNF and answer files are removed"

done_testing
