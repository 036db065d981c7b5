# A switch-level pattern whose only demand stays inside switch 0: nothing
# enters the network (topo-mcf: theta inf; topo-load: no load).
topokit-pattern 1
spec self
level switch
endpoints 4
demands 1
0 0
