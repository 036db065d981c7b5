topokit-pattern 1
level switch
endpoints 3
demands 3
# c
0 1 0.5
1 2
2 0 1e-3
end
