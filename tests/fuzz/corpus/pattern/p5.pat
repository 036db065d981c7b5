topokit-pattern 1
spec switch-perm level=switch s=1
topology torus sides=3,4
level switch
endpoints 12
demands 12
0 4
1 8
2 6
3 5
4 7
5 2
6 11
7 0
8 9
9 3
10 1
11 10
