# topo-vc on the path sets of the Dragonfly adaptive routings
# (dragonfly-ugal, dragonfly-par, dragonfly-olm) under the per-hop-type
# ladder dfhops: the counts Fuentes, Vallejo, Camarero, Beivide and Valero
# state in "Network Unfairness in Dragonfly Topologies" (MIN 2/1,
# source-adaptive 4/2) and PAR's one local VC more, as --min-vcs finds
# them; a witness for one VC fewer; in-transit adaptive routing with
# opportunistic local misrouting under its own VC rule (olm): 3/2 under
# Duato's condition, cyclic with one VC fewer of either class or with the
# source-group reuse of FOGSim's later versions; topo-route's rows; topo-sim
# and topo-load refuse the path sets; errors.
. "$TK_SRCDIR/tests/cli/lib.sh"

T=$(printf '\t')
topo-gen dragonfly a=4 h=2 >"$TMPD/df.topo"

for rt in "dragonfly-min lgllgl local:2,global:1 2/1" \
    "dragonfly-ugal lgllgl local:4,global:2 4/2" \
    "dragonfly-par llgllgl local:5,global:2 5/2" \
    "dragonfly-olm llgllgll local:6,global:2 6/2"; do
    set -- $rt
    run sh -c "topo-vc -r $1 -v dfhops,template=$2 --min-vcs '$TMPD/df.topo' | cut -f4,10,11"
    expect_out "verdict${T}vcs_class${T}min_vcs
deadlock-free${T}$3${T}$4" "$1, dfhops template $2: $3, least caps $4"
done

run sh -c "topo-vc -r dragonfly-ugal -v dfhops,cap=3/2 --witness '$TMPD/df.topo' | cut -f3,4,11"
expect_rc 0 "UGAL with 3 local VCs runs"
printf '%s\n' "$out" | sed -n 2p | grep -Eq "^dfhops,template=lgllgl,cap=3/2${T}deadlock-prone${T}[0-9]+>[0-9]+:[0-9]"
ok $? "UGAL with 3 local VCs: deadlock-prone, with a witness" || diag "$out"

# the same on a second shape: a=3 h=1
run sh -c "topo-gen dragonfly a=3 h=1 | topo-vc -r dragonfly-par -v dfhops,template=llgllgl --min-vcs | cut -f10,11"
expect_out "vcs_class${T}min_vcs
local:5,global:2${T}5/2" "a=3 h=1, PAR: 5/2"

# OLM's own VCs: 3 local and 2 global, deadlock-free by Duato's condition
# (the escape: the minimal hops, from every state); one VC fewer of either
# class, or the reuse of VC 0 by the minimal hop after a local misroute
# in the source group, gives an escape cycle (re-walked before printing)
run sh -c "topo-vc -r dragonfly-olm -v olm '$TMPD/df.topo' | cut -f3-5,8,10"
expect_out "policy${T}verdict${T}basis${T}max_hops${T}vcs_class
olm${T}deadlock-free${T}duato-acyclic${T}8${T}local:3,global:2" "olm: 3/2, duato-acyclic"
for p in olm,cap=2/2 olm,cap=3/1 olm,srcreuse; do
    run sh -c "topo-vc -r dragonfly-olm -v $p --witness '$TMPD/df.topo' | cut -f3-5,11"
    expect_rc 0 "$p runs"
    printf '%s\n' "$out" | sed -n 2p | grep -Eq "^$p${T}deadlock-prone${T}duato-cyclic${T}[0-9]+>[0-9]+:[0-9]"
    ok $? "$p: deadlock-prone, with a witness" || diag "$out"
done
run sh -c "topo-vc -r dragonfly-olm -v olm --cert '$TMPD/olm.cert' '$TMPD/df.topo' >/dev/null && topo-vc -r dragonfly-olm -v olm --check '$TMPD/olm.cert' '$TMPD/df.topo' | cut -f11"
expect_out "certificate
ok" "olm: the certificate checks"
run topo-vc -r dragonfly-ugal -v olm "$TMPD/df.topo"
expect_fail 1 'no escape hop' "olm on UGAL's path set: a state without an escape hop"
run topo-vc -r min -v olm "$TMPD/df.topo"
expect_fail 1 'needs a Dragonfly routing model' "olm on a routing without groups"

# topo-route: OLM on a=4 h=2, pair 3 -> 15 in another group (router 0 to
# router 12 of the relative arrangement, which renumbers r -> a-1-r in
# every group: the same count there)
run sh -c "topo-route -r dragonfly-olm --pair 3,15 '$TMPD/df.topo' | cut -f4-6"
expect_out "paths${T}min_len${T}max_len
102${T}3${T}8" "topo-route dragonfly-olm: 102 paths of 3 to 8 hops"
run sh -c "topo-gen dragonfly a=4 h=2 arrangement=relative | topo-route -r dragonfly-olm --pair 0,12 | cut -f4-6"
expect_out "paths${T}min_len${T}max_len
102${T}3${T}8" "... and 0 -> 12 under the relative arrangement"

# the path sets are not routings to load or simulate
for tool in topo-load topo-sim; do
    for rt in dragonfly-ugal dragonfly-par dragonfly-olm; do
        run $tool -r $rt "$TMPD/df.topo"
        expect_rc 2 "$tool -r $rt: usage error"
        expect_err_match "^$tool: -r $rt: the path set of an adaptive rule" "$tool -r $rt: the message says why"
        [ -z "$out" ]
        ok $? "$tool -r $rt: no output"
    done
done

# errors
run topo-vc -r dragonfly-olm -v dfhops,template=lglgl "$TMPD/df.topo"
expect_fail 1 'does not fit the template' "a path that does not fit the template"
run topo-vc -r dragonfly-ugal -v dfhops,template=lgq "$TMPD/df.topo"
expect_rc 2 "a bad template is a usage error"
expect_err_match 'dfhops,template=lgq: template=T needs 1 to 23 letters l and g' "a bad template: the message names it"
run sh -c 'topo-gen ring n=5 | topo-vc -r dragonfly-ugal -v dfhops'
expect_rc 1 "dragonfly-ugal on a graph without groups"

done_testing
