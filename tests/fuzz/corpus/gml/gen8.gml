graph [
  directed 0
  spec "dragonfly a=4 h=2 p=2 g=9 arrangement=palmtree"
  node [
    id 0
    label "0"
    servers 2
    group 0
    coord0 0
    coord1 0
  ]
  node [
    id 1
    label "1"
    servers 2
    group 0
    coord0 0
    coord1 1
  ]
  node [
    id 2
    label "2"
    servers 2
    group 0
    coord0 0
    coord1 2
  ]
  node [
    id 3
    label "3"
    servers 2
    group 0
    coord0 0
    coord1 3
  ]
  node [
    id 4
    label "4"
    servers 2
    group 1
    coord0 1
    coord1 0
  ]
  node [
    id 5
    label "5"
    servers 2
    group 1
    coord0 1
    coord1 1
  ]
  node [
    id 6
    label "6"
    servers 2
    group 1
    coord0 1
    coord1 2
  ]
  node [
    id 7
    label "7"
    servers 2
    group 1
    coord0 1
    coord1 3
  ]
  node [
    id 8
    label "8"
    servers 2
    group 2
    coord0 2
    coord1 0
  ]
  node [
    id 9
    label "9"
    servers 2
    group 2
    coord0 2
    coord1 1
  ]
  node [
    id 10
    label "10"
    servers 2
    group 2
    coord0 2
    coord1 2
  ]
  node [
    id 11
    label "11"
    servers 2
    group 2
    coord0 2
    coord1 3
  ]
  node [
    id 12
    label "12"
    servers 2
    group 3
    coord0 3
    coord1 0
  ]
  node [
    id 13
    label "13"
    servers 2
    group 3
    coord0 3
    coord1 1
  ]
  node [
    id 14
    label "14"
    servers 2
    group 3
    coord0 3
    coord1 2
  ]
  node [
    id 15
    label "15"
    servers 2
    group 3
    coord0 3
    coord1 3
  ]
  node [
    id 16
    label "16"
    servers 2
    group 4
    coord0 4
    coord1 0
  ]
  node [
    id 17
    label "17"
    servers 2
    group 4
    coord0 4
    coord1 1
  ]
  node [
    id 18
    label "18"
    servers 2
    group 4
    coord0 4
    coord1 2
  ]
  node [
    id 19
    label "19"
    servers 2
    group 4
    coord0 4
    coord1 3
  ]
  node [
    id 20
    label "20"
    servers 2
    group 5
    coord0 5
    coord1 0
  ]
  node [
    id 21
    label "21"
    servers 2
    group 5
    coord0 5
    coord1 1
  ]
  node [
    id 22
    label "22"
    servers 2
    group 5
    coord0 5
    coord1 2
  ]
  node [
    id 23
    label "23"
    servers 2
    group 5
    coord0 5
    coord1 3
  ]
  node [
    id 24
    label "24"
    servers 2
    group 6
    coord0 6
    coord1 0
  ]
  node [
    id 25
    label "25"
    servers 2
    group 6
    coord0 6
    coord1 1
  ]
  node [
    id 26
    label "26"
    servers 2
    group 6
    coord0 6
    coord1 2
  ]
  node [
    id 27
    label "27"
    servers 2
    group 6
    coord0 6
    coord1 3
  ]
  node [
    id 28
    label "28"
    servers 2
    group 7
    coord0 7
    coord1 0
  ]
  node [
    id 29
    label "29"
    servers 2
    group 7
    coord0 7
    coord1 1
  ]
  node [
    id 30
    label "30"
    servers 2
    group 7
    coord0 7
    coord1 2
  ]
  node [
    id 31
    label "31"
    servers 2
    group 7
    coord0 7
    coord1 3
  ]
  node [
    id 32
    label "32"
    servers 2
    group 8
    coord0 8
    coord1 0
  ]
  node [
    id 33
    label "33"
    servers 2
    group 8
    coord0 8
    coord1 1
  ]
  node [
    id 34
    label "34"
    servers 2
    group 8
    coord0 8
    coord1 2
  ]
  node [
    id 35
    label "35"
    servers 2
    group 8
    coord0 8
    coord1 3
  ]
  edge [
    source 0
    target 1
    class "local"
  ]
  edge [
    source 0
    target 2
    class "local"
  ]
  edge [
    source 0
    target 3
    class "local"
  ]
  edge [
    source 0
    target 7
    class "global"
  ]
  edge [
    source 0
    target 11
    class "global"
  ]
  edge [
    source 1
    target 2
    class "local"
  ]
  edge [
    source 1
    target 3
    class "local"
  ]
  edge [
    source 1
    target 14
    class "global"
  ]
  edge [
    source 1
    target 18
    class "global"
  ]
  edge [
    source 2
    target 3
    class "local"
  ]
  edge [
    source 2
    target 21
    class "global"
  ]
  edge [
    source 2
    target 25
    class "global"
  ]
  edge [
    source 3
    target 28
    class "global"
  ]
  edge [
    source 3
    target 32
    class "global"
  ]
  edge [
    source 4
    target 5
    class "local"
  ]
  edge [
    source 4
    target 6
    class "local"
  ]
  edge [
    source 4
    target 7
    class "local"
  ]
  edge [
    source 4
    target 11
    class "global"
  ]
  edge [
    source 4
    target 15
    class "global"
  ]
  edge [
    source 5
    target 6
    class "local"
  ]
  edge [
    source 5
    target 7
    class "local"
  ]
  edge [
    source 5
    target 18
    class "global"
  ]
  edge [
    source 5
    target 22
    class "global"
  ]
  edge [
    source 6
    target 7
    class "local"
  ]
  edge [
    source 6
    target 25
    class "global"
  ]
  edge [
    source 6
    target 29
    class "global"
  ]
  edge [
    source 7
    target 32
    class "global"
  ]
  edge [
    source 8
    target 9
    class "local"
  ]
  edge [
    source 8
    target 10
    class "local"
  ]
  edge [
    source 8
    target 11
    class "local"
  ]
  edge [
    source 8
    target 15
    class "global"
  ]
  edge [
    source 8
    target 19
    class "global"
  ]
  edge [
    source 9
    target 10
    class "local"
  ]
  edge [
    source 9
    target 11
    class "local"
  ]
  edge [
    source 9
    target 22
    class "global"
  ]
  edge [
    source 9
    target 26
    class "global"
  ]
  edge [
    source 10
    target 11
    class "local"
  ]
  edge [
    source 10
    target 29
    class "global"
  ]
  edge [
    source 10
    target 33
    class "global"
  ]
  edge [
    source 12
    target 13
    class "local"
  ]
  edge [
    source 12
    target 14
    class "local"
  ]
  edge [
    source 12
    target 15
    class "local"
  ]
  edge [
    source 12
    target 19
    class "global"
  ]
  edge [
    source 12
    target 23
    class "global"
  ]
  edge [
    source 13
    target 14
    class "local"
  ]
  edge [
    source 13
    target 15
    class "local"
  ]
  edge [
    source 13
    target 26
    class "global"
  ]
  edge [
    source 13
    target 30
    class "global"
  ]
  edge [
    source 14
    target 15
    class "local"
  ]
  edge [
    source 14
    target 33
    class "global"
  ]
  edge [
    source 16
    target 17
    class "local"
  ]
  edge [
    source 16
    target 18
    class "local"
  ]
  edge [
    source 16
    target 19
    class "local"
  ]
  edge [
    source 16
    target 23
    class "global"
  ]
  edge [
    source 16
    target 27
    class "global"
  ]
  edge [
    source 17
    target 18
    class "local"
  ]
  edge [
    source 17
    target 19
    class "local"
  ]
  edge [
    source 17
    target 30
    class "global"
  ]
  edge [
    source 17
    target 34
    class "global"
  ]
  edge [
    source 18
    target 19
    class "local"
  ]
  edge [
    source 20
    target 21
    class "local"
  ]
  edge [
    source 20
    target 22
    class "local"
  ]
  edge [
    source 20
    target 23
    class "local"
  ]
  edge [
    source 20
    target 27
    class "global"
  ]
  edge [
    source 20
    target 31
    class "global"
  ]
  edge [
    source 21
    target 22
    class "local"
  ]
  edge [
    source 21
    target 23
    class "local"
  ]
  edge [
    source 21
    target 34
    class "global"
  ]
  edge [
    source 22
    target 23
    class "local"
  ]
  edge [
    source 24
    target 25
    class "local"
  ]
  edge [
    source 24
    target 26
    class "local"
  ]
  edge [
    source 24
    target 27
    class "local"
  ]
  edge [
    source 24
    target 31
    class "global"
  ]
  edge [
    source 24
    target 35
    class "global"
  ]
  edge [
    source 25
    target 26
    class "local"
  ]
  edge [
    source 25
    target 27
    class "local"
  ]
  edge [
    source 26
    target 27
    class "local"
  ]
  edge [
    source 28
    target 29
    class "local"
  ]
  edge [
    source 28
    target 30
    class "local"
  ]
  edge [
    source 28
    target 31
    class "local"
  ]
  edge [
    source 28
    target 35
    class "global"
  ]
  edge [
    source 29
    target 30
    class "local"
  ]
  edge [
    source 29
    target 31
    class "local"
  ]
  edge [
    source 30
    target 31
    class "local"
  ]
  edge [
    source 32
    target 33
    class "local"
  ]
  edge [
    source 32
    target 34
    class "local"
  ]
  edge [
    source 32
    target 35
    class "local"
  ]
  edge [
    source 33
    target 34
    class "local"
  ]
  edge [
    source 33
    target 35
    class "local"
  ]
  edge [
    source 34
    target 35
    class "local"
  ]
]
