topokit-pattern 1
spec random-shift level=server offset=1 s=1
topology torus sides=3,4
level server
endpoints 12
demands 12
0 1
1 2
2 3
3 4
4 5
5 6
6 7
7 8
8 9
9 10
10 11
11 0
