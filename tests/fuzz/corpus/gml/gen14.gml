graph [
  directed 1
  spec "kautz d=2 D=2"
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
  node [
    id 5
    label "5"
    servers 1
  ]
  edge [
    source 0
    target 2
  ]
  edge [
    source 0
    target 3
  ]
  edge [
    source 1
    target 4
  ]
  edge [
    source 1
    target 5
  ]
  edge [
    source 2
    target 4
  ]
  edge [
    source 2
    target 5
  ]
  edge [
    source 3
    target 0
  ]
  edge [
    source 3
    target 1
  ]
  edge [
    source 4
    target 0
  ]
  edge [
    source 4
    target 1
  ]
  edge [
    source 5
    target 2
  ]
  edge [
    source 5
    target 3
  ]
]
