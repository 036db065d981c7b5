topokit-pattern 1
spec tornado level=server
topology torus sides=3,4
level server
endpoints 12
demands 12
0 4
1 5
2 3
3 7
4 8
5 6
6 10
7 11
8 9
9 1
10 2
11 0
