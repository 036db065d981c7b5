graph [
  directetigraph 1
  spec "rich example"
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
    coord0 1
    coord1 0
  ]
  node [
    id 2
    label "2"
    servers 0
    group 1
    coord0 0
    coord1 1
  ]
  node [
    id 3
    label "3"
    servers 1
    group 1
    coord0 1
    coord1 1
  ]
  node [
    id 4
    label "4"
    servers 3
    group 2
    coord0 -1
    coord1 7
  ]
  edge [
    source 0
    target 1
    class "locaf"
    capacity 1.0
  ]
  edge [
    source 0
    target 1
    class "local"
    capacity 1.0
  ]
  edge [
    source 0
    target 0
    cla
 1    class "local"
    capacity 1.0
  ]
  edge [
    source 0
    target 4
    class "-"
    capacity 0.5
  ]
  edge [
    source 1
    target 2
    class "global"
    capacity 2.5
  ]
  edge [
    source 1
    target 3
    class "-"
    css "-"
    capacity 0.5
  ]
  edge [
    source 1
    target 2
    class "global"
    capacity 2.5
  ]
  edge [
    source 1
    target 3
    class "-"
    capacity 1.0
  ]
  edge [
    source 2
    target 2
    class "-"
    capacity 1.0
  ]
  edge [
    source 2
    target 3
    class "global"
    capacity 2.0
  ]
  edge [
    source 1
    target 4
    class "local"
    capacity 0.1
  ]
  edge [
    source 4
    target 4
    class "-"
    capacity 0.3333333333333333
  ]
]
