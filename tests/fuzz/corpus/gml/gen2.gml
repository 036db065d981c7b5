graph [
  directed 0
  spec "ring n=5"
  node [
    id 0
    label "0"
    servers 1
  ]
  node [
    id 1
    label "1"
    servers 1
  ]
  node [
    id 2
    label "2"
    servers 1
  ]
  node [
    id 3
    label "3"
    servers 1
  ]
  node [
    id 4
    label "4"
    servers 1
  ]
  edge [
    source 0
    target 1
  ]
  edge [
    source 0
    target 4
  ]
  edge [
    source 1
    target 2
  ]
  edge [
    source 2
    target 3
  ]
  edge [
    source 3
    target 4
  ]
]
