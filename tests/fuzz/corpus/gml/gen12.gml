graph [
  directed 0
  spec "fattree k=4 levels=3"
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
    servers 2
    group 1
    coord0 0
    coord1 1
    coord2 0
  ]
  node [
    id 3
    label "3"
    servers 2
    group 1
    coord0 0
    coord1 1
    coord2 1
  ]
  node [
    id 4
    label "4"
    servers 2
    group 2
    coord0 0
    coord1 2
    coord2 0
  ]
  node [
    id 5
    label "5"
    servers 2
    group 2
    coord0 0
    coord1 2
    coord2 1
  ]
  node [
    id 6
    label "6"
    servers 2
    group 3
    coord0 0
    coord1 3
    coord2 0
  ]
  node [
    id 7
    label "7"
    servers 2
    group 3
    coord0 0
    coord1 3
    coord2 1
  ]
  node [
    id 8
    label "8"
    servers 0
    group 0
    coord0 1
    coord1 0
    coord2 0
  ]
  node [
    id 9
    label "9"
    servers 0
    group 0
    coord0 1
    coord1 0
    coord2 1
  ]
  node [
    id 10
    label "10"
    servers 0
    group 1
    coord0 1
    coord1 1
    coord2 0
  ]
  node [
    id 11
    label "11"
    servers 0
    group 1
    coord0 1
    coord1 1
    coord2 1
  ]
  node [
    id 12
    label "12"
    servers 0
    group 2
    coord0 1
    coord1 2
    coord2 0
  ]
  node [
    id 13
    label "13"
    servers 0
    group 2
    coord0 1
    coord1 2
    coord2 1
  ]
  node [
    id 14
    label "14"
    servers 0
    group 3
    coord0 1
    coord1 3
    coord2 0
  ]
  node [
    id 15
    label "15"
    servers 0
    group 3
    coord0 1
    coord1 3
    coord2 1
  ]
  node [
    id 16
    label "16"
    servers 0
    group 4
    coord0 2
    coord1 -1
    coord2 0
  ]
  node [
    id 17
    label "17"
    servers 0
    group 4
    coord0 2
    coord1 -1
    coord2 1
  ]
  node [
    id 18
    label "18"
    servers 0
    group 4
    coord0 2
    coord1 -1
    coord2 2
  ]
  node [
    id 19
    label "19"
    servers 0
    group 4
    coord0 2
    coord1 -1
    coord2 3
  ]
  edge [
    source 0
    target 8
    class "pod"
  ]
  edge [
    source 0
    target 9
    class "pod"
  ]
  edge [
    source 1
    target 8
    class "pod"
  ]
  edge [
    source 1
    target 9
    class "pod"
  ]
  edge [
    source 2
    target 10
    class "pod"
  ]
  edge [
    source 2
    target 11
    class "pod"
  ]
  edge [
    source 3
    target 10
    class "pod"
  ]
  edge [
    source 3
    target 11
    class "pod"
  ]
  edge [
    source 4
    target 12
    class "pod"
  ]
  edge [
    source 4
    target 13
    class "pod"
  ]
  edge [
    source 5
    target 12
    class "pod"
  ]
  edge [
    source 5
    target 13
    class "pod"
  ]
  edge [
    source 6
    target 14
    class "pod"
  ]
  edge [
    source 6
    target 15
    class "pod"
  ]
  edge [
    source 7
    target 14
    class "pod"
  ]
  edge [
    source 7
    target 15
    class "pod"
  ]
  edge [
    source 8
    target 16
    class "core"
  ]
  edge [
    source 8
    target 17
    class "core"
  ]
  edge [
    source 9
    target 18
    class "core"
  ]
  edge [
    source 9
    target 19
    class "core"
  ]
  edge [
    source 10
    target 16
    class "core"
  ]
  edge [
    source 10
    target 17
    class "core"
  ]
  edge [
    source 11
    target 18
    class "core"
  ]
  edge [
    source 11
    target 19
    class "core"
  ]
  edge [
    source 12
    target 16
    class "core"
  ]
  edge [
    source 12
    target 17
    class "core"
  ]
  edge [
    source 13
    target 18
    class "core"
  ]
  edge [
    source 13
    target 19
    class "core"
  ]
  edge [
    source 14
    target 16
    class "core"
  ]
  edge [
    source 14
    target 17
    class "core"
  ]
  edge [
    source 15
    target 18
    class "core"
  ]
  edge [
    source 15
    target 19
    class "core"
  ]
]
