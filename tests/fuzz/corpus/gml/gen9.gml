graph [
  directed 0
  spec "dragonfly+ leaves=2 spines=2 h=2 p=2 g=5 arrangement=palmtree"
  node [
    id 0
    label "0"
    servers 2
    group 0
    coord0 0
    coord1 0
    coord2 0
  ]
  node [
    id 1
    label "1"
    servers 2
    group 0
    coord0 0
    coord1 0
    coord2 1
  ]
  node [
    id 2
    label "2"
    servers 0
    group 0
    coord0 0
    coord1 1
    coord2 0
  ]
  node [
    id 3
    label "3"
    servers 0
    group 0
    coord0 0
    coord1 1
    coord2 1
  ]
  node [
    id 4
    label "4"
    servers 2
    group 1
    coord0 1
    coord1 0
    coord2 0
  ]
  node [
    id 5
    label "5"
    servers 2
    group 1
    coord0 1
    coord1 0
    coord2 1
  ]
  node [
    id 6
    label "6"
    servers 0
    group 1
    coord0 1
    coord1 1
    coord2 0
  ]
  node [
    id 7
    label "7"
    servers 0
    group 1
    coord0 1
    coord1 1
    coord2 1
  ]
  node [
    id 8
    label "8"
    servers 2
    group 2
    coord0 2
    coord1 0
    coord2 0
  ]
  node [
    id 9
    label "9"
    servers 2
    group 2
    coord0 2
    coord1 0
    coord2 1
  ]
  node [
    id 10
    label "10"
    servers 0
    group 2
    coord0 2
    coord1 1
    coord2 0
  ]
  node [
    id 11
    label "11"
    servers 0
    group 2
    coord0 2
    coord1 1
    coord2 1
  ]
  node [
    id 12
    label "12"
    servers 2
    group 3
    coord0 3
    coord1 0
    coord2 0
  ]
  node [
    id 13
    label "13"
    servers 2
    group 3
    coord0 3
    coord1 0
    coord2 1
  ]
  node [
    id 14
    label "14"
    servers 0
    group 3
    coord0 3
    coord1 1
    coord2 0
  ]
  node [
    id 15
    label "15"
    servers 0
    group 3
    coord0 3
    coord1 1
    coord2 1
  ]
  node [
    id 16
    label "16"
    servers 2
    group 4
    coord0 4
    coord1 0
    coord2 0
  ]
  node [
    id 17
    label "17"
    servers 2
    group 4
    coord0 4
    coord1 0
    coord2 1
  ]
  node [
    id 18
    label "18"
    servers 0
    group 4
    coord0 4
    coord1 1
    coord2 0
  ]
  node [
    id 19
    label "19"
    servers 0
    group 4
    coord0 4
    coord1 1
    coord2 1
  ]
  edge [
    source 0
    target 2
    class "updown"
  ]
  edge [
    source 0
    target 3
    class "updown"
  ]
  edge [
    source 1
    target 2
    class "updown"
  ]
  edge [
    source 1
    target 3
    class "updown"
  ]
  edge [
    source 2
    target 7
    class "global"
  ]
  edge [
    source 2
    target 11
    class "global"
  ]
  edge [
    source 3
    target 14
    class "global"
  ]
  edge [
    source 3
    target 18
    class "global"
  ]
  edge [
    source 4
    target 6
    class "updown"
  ]
  edge [
    source 4
    target 7
    class "updown"
  ]
  edge [
    source 5
    target 6
    class "updown"
  ]
  edge [
    source 5
    target 7
    class "updown"
  ]
  edge [
    source 6
    target 11
    class "global"
  ]
  edge [
    source 6
    target 15
    class "global"
  ]
  edge [
    source 7
    target 18
    class "global"
  ]
  edge [
    source 8
    target 10
    class "updown"
  ]
  edge [
    source 8
    target 11
    class "updown"
  ]
  edge [
    source 9
    target 10
    class "updown"
  ]
  edge [
    source 9
    target 11
    class "updown"
  ]
  edge [
    source 10
    target 15
    class "global"
  ]
  edge [
    source 10
    target 19
    class "global"
  ]
  edge [
    source 12
    target 14
    class "updown"
  ]
  edge [
    source 12
    target 15
    class "updown"
  ]
  edge [
    source 13
    target 14
    class "updown"
  ]
  edge [
    source 13
    target 15
    class "updown"
  ]
  edge [
    source 14
    target 19
    class "global"
  ]
  edge [
    source 16
    target 18
    class "updown"
  ]
  edge [
    source 16
    target 19
    class "updown"
  ]
  edge [
    source 17
    target 18
    class "updown"
  ]
  edge [
    source 17
    target 19
    class "updown"
  ]
]
