# topo-job: the exact servers every placement policy chooses, the stencil
# and allreduce patterns against hand counts, several jobs sharing the
# machine, the Dragonfly point of Fuentes et al. ("Network Unfairness in
# Dragonfly Topologies", Section 7.2) with topo-load and topo-sim, and every
# error path.
. "$TK_SRCDIR/tests/cli/lib.sh"

topo-gen dragonfly a=4 h=2 p=2 >"$TMPD/df.topo" # 9 groups of 4 routers, 72 servers
topo-gen torus sides=3,3 >"$TMPD/torus.topo"   # 9 switches, 1 server each
DF="$TMPD/df.topo"
T="$TMPD/torus.topo"
# demands: the demand lines of a pattern on stdin, after the header
demands() { sed '1,/^demands /d'; }
# servers JOB: the server column of --placement for that job, one line
servers() { awk -F '\t' -v j="$1" 'NR > 1 && $1 == j { printf "%s%s", s, $3; s = " " } END { print "" }'; }

# ---------------------------------------------------------------------------
# Placement: the exact server sets.
run topo-job --placement -j 'j=5 start=3' "$DF"
expect_out "$(printf 'job\trank\tserver\tswitch\tgroup\n1\t0\t3\t1\t0\n1\t1\t4\t2\t0\n1\t2\t5\t2\t0\n1\t3\t6\t3\t0\n1\t4\t7\t3\t0')" \
    "consecutive from start=3: servers 3..7 with their switches and groups"
out=$(topo-job --placement -j 'j=4' -j 'j=3 start=2' "$DF" | servers 2)
expect_out "4 5 6" "consecutive skips the servers of an earlier job"
out=$(topo-job --placement -j 'j=11 place=spread' "$DF" | servers 1)
expect_out "0 8 16 24 32 40 48 56 64 1 9" "spread: round-robin over the 9 groups, lowest free server first"
out=$(topo-job --placement -j 'j=2' -j 'j=3 place=spread' "$DF" | servers 2)
expect_out "2 8 16" "spread skips taken servers"
out=$(topo-job --placement -j 'j=70' -j 'j=2 place=spread' "$DF" | servers 2)
expect_out "70 71" "spread skips full groups"
printf '# rank order\n5\n\n70 # last group\n2\n' >"$TMPD/srv"
out=$(topo-job --placement -j "j=3 place=file servers=$TMPD/srv" "$DF" | servers 1)
expect_out "5 70 2" "file: the servers in the file's order, comments and blank lines skipped"
all=$(topo-job --placement -s 7 -j 'j=72 place=random' "$DF" | servers 1)
sorted=$(printf '%s\n' $all | sort -n | tr '\n' ' ')
[ "$sorted" = "$(seq 0 71 | tr '\n' ' ')" ]
ok $? "random j=N: every server once" || diag "$all"
five=$(topo-job --placement -s 7 -j 'j=5 place=random' "$DF" | servers 1)
[ "$five" = "$(printf '%s\n' $all | head -n 5 | tr '\n' ' ' | sed 's/ $//')" ]
ok $? "random j=5 is the first 5 of the same seed's order" || diag "$five"
other=$(topo-job --placement -s 8 -j 'j=72 place=random' "$DF" | servers 1)
[ "$other" != "$all" ]
ok $? "another seed, another order"
a=$(topo-job --threads 1 -s 3 -j 'j=9 place=random app=perm' -j 'j=5 place=random' "$DF")
b=$(topo-job --threads 2 -s 3 -j 'j=9 place=random app=perm' -j 'j=5 place=random' "$DF")
[ "$a" = "$b" ] && printf '%s\n' "$a" | grep -q '^spec job .* s=3$'
ok $? "random placement and permutation: same bytes at 1 and 2 threads, seed in the spec"
out=$(topo-job --placement -s 3 -j 'j=70' -j 'j=2 place=random' "$DF" | servers 2 | tr ' ' '\n' | sort -n | tr '\n' ' ')
expect_out "70 71 " "random draws from the free servers only"

# ---------------------------------------------------------------------------
# Applications: hand counts.  Grid ranks: (i, j) = i*Q + j.
# 2x3, no wrap: 7 neighbour links, 14 demands; ranks 1 and 4 have three
# neighbours, so each neighbour gets 1/3.
out=$(topo-job -j 'app=stencil grid=2x3' "$T" | demands | awk '{ print $1, $2 }' | tr '\n' ' ')
expect_out "0 1 0 3 1 0 1 2 1 4 2 1 2 5 3 0 3 4 4 1 4 3 4 5 5 2 5 4 " "stencil 2x3: exactly the 14 neighbour pairs"
out=$(topo-job -j 'app=stencil grid=2x3' "$T" | demands | awk '{ print $3 }' | sort -u)
expect_out "0.3333333333333333" "stencil 2x3: every pair 1/3 (the busiest rank has 3 neighbours)"
# wrap=1: the dimension of 2 reaches the same rank up and down (2 S), the
# dimension of 3 two ranks (S each): 4 S per rank.
out=$(topo-job -j 'app=stencil grid=2x3 wrap=1' "$T" | demands | tr '\n' ' ')
expect_out "0 1 0.25 0 2 0.25 0 3 0.5 1 0 0.25 1 2 0.25 1 4 0.5 2 0 0.25 2 1 0.25 2 5 0.5 3 0 0.5 3 4 0.25 3 5 0.25 4 1 0.5 4 3 0.25 4 5 0.25 5 2 0.5 5 3 0.25 5 4 0.25 " \
    "stencil 2x3 wrap=1: 2 S to the vertical neighbour, S to each horizontal one"
# 2x2x2: rank bits (i, j, k) -> the neighbours are r^4, r^2, r^1.
out=$(topo-job -j 'app=stencil grid=2x2x2' "$T" | demands |
    awk '{ x = $1 - $2; if (x < 0) x = -x; if (x != 1 && x != 2 && x != 4 || $3 != "0.3333333333333333") bad++; n++ } END { print n, bad + 0 }')
expect_out "24 0" "stencil 2x2x2: 24 demands, each to a rank one bit away, 1/3 each"
run topo-job -j 'app=stencil grid=9' "$T"
expect_rc 0 "a 1-D stencil of 9 ranks"
[ "$(printf '%s\n' "$out" | demands | wc -l)" -eq 16 ]
ok $? "1-D stencil of 9, no wrap: 16 demands"
out=$(topo-job -j 'j=4 app=ring-allreduce bytes=100' "$T" | demands | tr '\n' ' ')
expect_out "0 1 1 2 2 3 3 0 " "ring allreduce j=4: each rank to the next, the whole send rate"
out=$(topo-job -j 'j=8 app=rd-allreduce' "$T" | demands |
    awk '{ x = $1 - $2; if (x < 0) x = -x; if (x != 1 && x != 2 && x != 4 || $3 != "0.3333333333333333") bad++; n++ } END { print n, bad + 0 }')
expect_out "24 0" "recursive doubling j=8 (on 9 servers): log2 8 = 3 partners per rank ..."
out=$(topo-job -j 'j=8 app=rd-allreduce' "$T" | demands | awk '{ print $1 "-" $2 }' | tr '\n' ' ')
expect_out "0-1 0-2 0-4 1-0 1-3 1-5 2-0 2-3 2-6 3-1 3-2 3-7 4-0 4-5 4-6 5-1 5-4 5-7 6-2 6-4 6-7 7-3 7-5 7-6 " \
    "... r XOR 1, r XOR 2, r XOR 4"
# j=6: MPICH's fold.  Ranks 0 and 2 hand their vectors to 1 and 3 and get
# the result back; 1, 3, 4, 5 (new ranks 0..3) do recursive doubling.
out=$(topo-job -j 'j=6 app=rd-allreduce' "$T" | demands | tr '\n' ' ')
expect_out "0 1 0.3333333333333333 1 0 0.3333333333333333 1 3 0.3333333333333333 1 4 0.3333333333333333 2 3 0.3333333333333333 3 1 0.3333333333333333 3 2 0.3333333333333333 3 5 0.3333333333333333 4 1 0.3333333333333333 4 5 0.3333333333333333 5 3 0.3333333333333333 5 4 0.3333333333333333 " \
    "recursive doubling j=6: the fold pairs and the doubling among 1 3 4 5"
out=$(topo-job -j 'j=5' "$T" | demands | awk '$1 == $2 || $3 != "0.25" { bad++ } END { print NR, bad + 0 }')
expect_out "20 0" "all-to-all j=5: 20 demands of 1/4"
out=$(topo-job -s 5 -j 'j=9 app=perm' "$T" | demands |
    awk '$1 == $2 || $3 != "" || s[$1]++ || d[$2]++ { bad++ } END { print NR, bad + 0 }')
expect_out "9 0" "perm: a derangement, each rank sends 1 and receives 1"
printf '0 1 10\n# comment\n1 2 5\n0 1 10\n\n2 0 4\n' >"$TMPD/comm"
out=$(topo-job -j "j=3 app=file comm=$TMPD/comm" "$T" | demands | tr '\n' ' ')
expect_out "0 1 1 2 0.25 2 0 0.2 " "comm file: repeated pairs add up (0 -> 1: 20 bytes, the busiest)"

# ---------------------------------------------------------------------------
# Several jobs: each job's busiest server at its rate, or one byte scale.
out=$(topo-job -j 'j=4 app=ring-allreduce' -j 'j=3 app=all-to-all rate=0.5' "$T" | demands | tr '\n' ' ')
expect_out "0 1 1 2 2 3 3 0 4 5 0.25 4 6 0.25 5 4 0.25 5 6 0.25 6 4 0.25 6 5 0.25 " \
    "two jobs on servers 0-3 and 4-6, each normalised, the second at rate 0.5"
# --bytes: the ring sends 2(4-1)/4 = 1.5 per rank, the all-to-all 2; one
# scale 1/2.
out=$(topo-job --bytes -j 'j=4 app=ring-allreduce' -j 'j=3 app=all-to-all' "$T" | demands | awk '{ print $3 }' | sort -u | tr '\n' ' ')
expect_out "0.5 0.75 " "--bytes: ring 1.5/2, all-to-all 1/2"
out=$(topo-job --bytes -j 'j=4 app=ring-allreduce' -j 'j=3 app=all-to-all' "$T" | grep '^spec')
expect_out "spec job scale=bytes j=4 place=consecutive start=0 app=ring-allreduce bytes=1 ; j=3 place=consecutive start=0 app=all-to-all bytes=1" \
    "the spec line records every job"
topo-job -j 'app=stencil grid=3x3 wrap=1' -o "$TMPD/st.p" "$T"
run topo-load -P "$TMPD/st.p" "$T"
expect_rc 0 "topo-load reads the pattern"
run topo-mcf -P "$TMPD/st.p" "$T"
expect_rc 0 "topo-mcf reads the pattern"
# A 3x3 periodic stencil on the 3x3 torus, ranks in switch order, is one hop
# per demand: min routing loads every arc with 1/4 (each rank sends 1/4 to
# each of its 4 neighbours), throughput 1.
printf '%s\n' "$out" | awk -F '\t' 'NR == 2 { exit !($0 != "") }'
out=$(topo-load -P "$TMPD/st.p" "$T" | awk -F '\t' 'NR == 2 { print $6, $8 }')
expect_out "0.25 1" "3x3 periodic stencil on the 3x3 torus: every arc 1/4, throughput 1"

# ---------------------------------------------------------------------------
# Fuentes et al., Section 7.2: all-to-all of a job on the h+1 = 3 first
# groups (J = 24 servers) under dragonfly-min.  Group 0 reaches groups 1 and
# 2 only through R_out (router 3): its global arcs with load are exactly
# the two that ADVc loads out of group 0, each with (a p)^2/(J-1) = 64/23
# (ADVc: 4, the same arcs); the throughput is 23/64 and topo-sim saturates
# at the same rate.
topo-job -j 'j=24' -o "$TMPD/job.p" "$DF"
topo-pattern advc -o "$TMPD/advc.p" "$DF"
# hot FILE: the loaded global arcs out of group 0 (switches 0-3), "u-v load"
hot() {
    topo-load -r dragonfly-min -P "$1" --top 1000 "$DF" |
        awk -F '\t' '$4 == "global" && $2 < 4 && $5 > 0 { print $2 "-" $3, $5 }' | sort
}
out=$(hot "$TMPD/job.p" | awk '{ print $1 }' | tr '\n' ' ')
[ "$out" = "3-4 3-8 " ] && [ "$out" = "$(hot "$TMPD/advc.p" | awk '{ print $1 }' | tr '\n' ' ')" ]
ok $? "job on 3 consecutive groups: group 0's loaded global arcs are R_out's, exactly ADVc's" || diag "$out"
out=$(hot "$TMPD/job.p" | awk '{ d = $2 - 64 / 23; if (d < 0) d = -d; if (d > 1e-12) bad++ } END { print bad + 0 }')
expect_out "0" "their load is 64/23"
out=$(hot "$TMPD/advc.p" | awk '{ print $2 }' | sort -u)
expect_out "4" "ADVc loads them with 4"
t_load=$(topo-load -r dragonfly-min -P "$TMPD/job.p" "$DF" | awk -F '\t' 'NR == 2 { print $8 }')
t_sim=$(topo-sim -r dragonfly-min -P "$TMPD/job.p" "$DF" | awk -F '\t' 'NR == 2 { print $19 }')
awk -v a="$t_load" -v b="$t_sim" 'BEGIN { d = a - 23 / 64; e = b - 23 / 64; exit !(d * d < 1e-24 && e * e < 1e-24) }'
ok $? "throughput 23/64 in topo-load and topo-sim's saturation" || diag "load $t_load sim $t_sim"
# Spread over the 9 groups instead: no global arc of group 0 above 1.
out=$(topo-job -j 'j=24 place=spread' "$DF" | topo-load -r dragonfly-min -P - --top 1 "$DF" 2>&1 |
    awk -F '\t' 'NR == 2 { print ($5 < 64 / 23) }')
expect_out "1" "the same job spread over the groups: a cooler hottest arc"

# ---------------------------------------------------------------------------
# Errors.
run topo-job "$T"
expect_rc 2 "no -j: usage error"
expect_err_match "^topo-job: no job" "... saying so"
run topo-job -j 'j=1' "$T"
expect_fail 2 "^topo-job: -j 'j=1': j=1" "j=1 refused"
run topo-job -j 'j=x' "$T"
expect_fail 2 "j=x" "j=x refused"
run topo-job -j 'app=ring-allreduce' "$T"
expect_fail 2 "missing parameter j" "j is required (but for a stencil)"
run topo-job -j 'j=4 place=near' "$T"
expect_fail 2 "place=near: must be consecutive, random, spread or file" "unknown placement"
run topo-job -j 'j=4 app=bcast' "$T"
expect_fail 2 "app=bcast: must be" "unknown application"
run topo-job -j 'j=4 colour=red' "$T"
expect_fail 2 "colour=red: unknown parameter" "unknown key"
run topo-job -j 'app=stencil grid=2x0' "$T"
expect_fail 2 "grid=2x0" "a grid side of 0"
run topo-job -j 'app=stencil grid=1x1' "$T"
expect_fail 2 "grid=1x1: 1 processes" "a grid of one process"
run topo-job -j 'app=stencil grid=2x2x2x2' "$T"
expect_fail 2 "grid=2x2x2x2" "a 4-D grid"
run topo-job -j 'j=5 app=stencil grid=2x3' "$T"
expect_fail 2 "grid=2x3: 6 processes, but j=5" "grid and j disagree"
run topo-job -j 'j=4 bytes=0' "$T"
expect_fail 2 "bytes=0" "bytes=0"
run topo-job -j 'j=4 rate=1.5' "$T"
expect_fail 2 "rate=1.5" "rate above 1"
run topo-job -j 'j=10' "$T"
expect_fail 1 "job 1: j=10: only 9 free servers" "j above the servers"
run topo-job -j 'j=5' -j 'j=5' "$T"
expect_fail 1 "job 2: j=5: only 4 free servers" "the second job does not fit"
run topo-job -j 'j=3 start=7' "$T"
expect_fail 1 "job 1: j=3: only 2 free servers from start=7" "consecutive runs off the end"
run topo-job -j 'j=3 start=9' "$T"
expect_fail 1 "start=9" "start beyond the servers"
run topo-job -j 'j=3 place=spread' "$T"
expect_fail 1 "place=spread: the topology has no groups" "spread without groups"
run topo-job -j 'j=3 place=file' "$T"
expect_fail 2 "missing parameter servers" "place=file without servers="
printf '1\n2\n1\n' >"$TMPD/dup"
run topo-job -j "j=3 place=file servers=$TMPD/dup" "$T"
expect_fail 1 "dup:3: server 1 listed twice \\(first at line 1\\)" "servers file: duplicate, file:line"
printf '1\n9\n' >"$TMPD/range"
run topo-job -j "j=2 place=file servers=$TMPD/range" "$T"
expect_fail 1 "range:2: server 9 out of range" "servers file: out of range, file:line"
printf '1\n2\n3\n' >"$TMPD/many"
run topo-job -j "j=2 place=file servers=$TMPD/many" "$T"
expect_fail 1 "many:3: more than j=2 servers" "servers file: too many"
printf '1\n# two\n' >"$TMPD/few"
run topo-job -j "j=2 place=file servers=$TMPD/few" "$T"
expect_fail 1 "few:2: 1 servers listed, j=2 needs 2" "servers file: too few"
printf '1\nx\n' >"$TMPD/junk"
run topo-job -j "j=2 place=file servers=$TMPD/junk" "$T"
expect_fail 1 "junk:2: expected one server id" "servers file: not a number"
printf '0\n1\n' >"$TMPD/taken"
run topo-job -j 'j=2' -j "j=2 place=file servers=$TMPD/taken" "$T"
expect_fail 1 "taken:1: server 0 is taken by an earlier job" "servers file: a server of an earlier job"
run topo-job -j "j=2 place=file servers=$TMPD/nonexistent" "$T"
expect_fail 1 "nonexistent" "servers file missing"
printf '0 1\n' >"$TMPD/c1"
run topo-job -j "j=3 app=file comm=$TMPD/c1" "$T"
expect_fail 1 "c1:1: expected 'RANK RANK BYTES'" "comm file: two columns"
printf '0 1 2\n0 3 1\n' >"$TMPD/c2"
run topo-job -j "j=3 app=file comm=$TMPD/c2" "$T"
expect_fail 1 "c2:2: rank 3 out of range" "comm file: rank out of range"
printf '1 1 2\n' >"$TMPD/c3"
run topo-job -j "j=3 app=file comm=$TMPD/c3" "$T"
expect_fail 1 "c3:1: rank 1 sends to itself" "comm file: a rank to itself"
printf '0 1 -2\n' >"$TMPD/c4"
run topo-job -j "j=3 app=file comm=$TMPD/c4" "$T"
expect_fail 1 "c4:1: bytes must be" "comm file: negative bytes"
printf '# nothing\n' >"$TMPD/c5"
run topo-job -j "j=3 app=file comm=$TMPD/c5" "$T"
expect_fail 1 "c5:1: no 'RANK RANK BYTES' line" "comm file: no demands"
run topo-job -o "$TMPD/none.p" -j 'j=10' "$T"
[ ! -e "$TMPD/none.p" ]
ok $? "a failed run leaves no -o file"
topo-gen torus sides=3,3 >"$TMPD/two.topo"
cat "$T" >>"$TMPD/two.topo"
run topo-job -j 'j=2' "$TMPD/two.topo"
expect_fail 1 "more than one graph" "two graphs in the input"

done_testing
