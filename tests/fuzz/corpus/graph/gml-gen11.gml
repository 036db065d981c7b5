graph [
  directed 0
  spec "projective q=2"
  node [
    id 0
    label "0"
    servers 1
    coord0 1
    coord1 0
    coord2 0
  ]
  node [
    id 1
    label "1"
    servers 1
    coord0 1
    coord1 0
    coord2 1
  ]
  node [
    id 2
    label "2"
    servers 1
    coord0 1
    coord1 1
    coord2 0
  ]
  node [
    id 3
    label "3"
    servers 1
    coord0 1
    coord1 1
    coord2 1
  ]
  node [
    id 4
    label "4"
    servers 1
    coord0 0
    coord1 1
    coord2 0
  ]
  node [
    id 5
    label "5"
    servers 1
    coord0 0
    coord1 1
    coord2 1
  ]
  node [
    id 6
    label "6"
    servers 1
    coord0 0
    coord1 0
    coord2 1
  ]
  edge [
    source 0
    target 4
  ]
  edge [
    source 0
    target 5
  ]
  edge [
    source 0
    target 6
  ]
  edge [
    source 1
    target 3
  ]
  edge [
    source 1
    target 4
  ]
  edge [
    source 2
    target 3
  ]
  edge [
    source 2
    target 6
  ]
  edge [
    source 3
    target 5
  ]
  edge [
    source 4
    target 6
  ]
]
