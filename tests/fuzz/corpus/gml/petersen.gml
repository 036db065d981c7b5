graph [
  directed 0
  spec "petersen"
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
  node [
    id 6
    label "6"
    servers 1
  ]
  node [
    id 7
    label "7"
    servers 1
  ]
  node [
    id 8
    label "8"
    servers 1
  ]
  node [
    id 9
    label "9"
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
    source 0
    target 5
  ]
  edge [
    source 1
    target 2
  ]
  edge [
    source 1
    target 6
  ]
  edge [
    source 2
    target 3
  ]
  edge [
    source 2
    target 7
  ]
  edge [
    source 3
    target 4
  ]
  edge [
    source 3
    target 8
  ]
  edge [
    source 4
    target 9
  ]
  edge [
    source 5
    target 7
  ]
  edge [
    source 5
    target 8
  ]
  edge [
    source 6
    target 8
  ]
  edge [
    source 6
    target 9
  ]
  edge [
    source 7
    target 9
  ]
]
