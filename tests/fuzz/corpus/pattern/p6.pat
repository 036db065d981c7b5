topokit-pattern 1
spec shift offset=3 level=server
topology torus sides=3,4
level server
endpoints 12
demands 12
0 3
1 4
2 5
3 6
4 7
5 8
6 9
7 10
8 11
9 0
10 1
11 2
