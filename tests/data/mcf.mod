/* mcf.mod - maximum concurrent flow, source-aggregated arc formulation,
 * written independently of topo-mcf for tests/cli/crosscheck-mcf.sh and
 * tests/bench/mcf.sh (glpsol --math mcf.mod --data X.dat).
 *
 * Arcs are numbered (parallel arcs allowed); dem[s,t] is the switch-level
 * demand in link-capacity units; tcap caps theta (server injection and
 * ejection limits; a large number when there are none). */
set V;
set E;
param tl{E} in V;
param hd{E} in V;
param cap{E} > 0;
set D within V cross V;
param dem{D} > 0;
param tcap > 0, default 1e30;
set S := setof{(s, t) in D} s;

var f{S, E} >= 0;
var theta >= 0, <= tcap;

maximize concurrent: theta;

s.t. conserve{s in S, v in V: v != s}:
    sum{e in E: tl[e] = v} f[s, e] - sum{e in E: hd[e] = v} f[s, e]
    + (if (s, v) in D then dem[s, v] else 0) * theta = 0;

s.t. capacity{e in E}: sum{s in S} f[s, e] <= cap[e];

solve;
printf "THETA %.12f\n", theta;
end;
