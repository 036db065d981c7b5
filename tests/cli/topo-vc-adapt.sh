# topo-vc on the path sets of the Dragonfly adaptive routings
# (dragonfly-ugal, dragonfly-par, dragonfly-olm) under the per-hop-type
# ladder dfhops: the counts Fuentes, Vallejo, Camarero, Beivide and Valero
# state in "Network Unfairness in Dragonfly Topologies" (MIN 2/1,
# source-adaptive 4/2) and PAR's one local VC more, as --min-vcs finds
# them; a witness for one VC fewer; topo-route's rows; errors.
. "$TK_SRCDIR/tests/cli/lib.sh"

T=$(printf '\t')
topo-gen dragonfly a=4 h=2 >"$TMPD/df.topo"

for rt in "dragonfly-min lgllgl local:2,global:1 2/1" \
    "dragonfly-ugal lgllgl local:4,global:2 4/2" \
    "dragonfly-par llgllgl local:5,global:2 5/2" \
    "dragonfly-olm llgll local:4,global:1 4/1"; do
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

# topo-route: OLM on a=4 h=2, pair 0 -> 12 in another group: (a-1)^2 paths
# when neither end is a gateway of the minimal path
run sh -c "topo-route -r dragonfly-olm --pair 0,12 '$TMPD/df.topo' | cut -f4-6"
expect_rc 0 "topo-route dragonfly-olm runs"

# errors
run topo-vc -r dragonfly-olm -v dfhops,template=lglgl "$TMPD/df.topo"
expect_fail 1 'does not fit the template' "a path that does not fit the template"
run topo-vc -r dragonfly-ugal -v dfhops,template=lgq "$TMPD/df.topo"
expect_rc 2 "a bad template is a usage error"
expect_err_match 'dfhops,template=lgq: template=T needs 1 to 23 letters l and g' "a bad template: the message names it"
run sh -c 'topo-gen ring n=5 | topo-vc -r dragonfly-ugal -v dfhops'
expect_rc 1 "dragonfly-ugal on a graph without groups"

done_testing
