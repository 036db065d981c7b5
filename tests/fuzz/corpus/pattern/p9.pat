topokit-pattern 1
spec dim-shift dims=X i=1 level=server
topology torus sides=3,4
level server
endpoints 12
demands 12
0 1
1 2
2 0
3 4
4 5
5 3
6 7
7 8
8 6
9 10
10 11
11 9
