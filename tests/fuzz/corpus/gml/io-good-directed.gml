graph [
  directed 1
  spec "directed example"
  node [
    id 0
    label "0"
    servers 4
  ]
  node [
    id 1
    label "1"
    servers 4
  ]
  node [
    id 2
    label "2"
    servers 4
  ]
  node [
    id 3
    label "3"
    servers 4
  ]
  edge [
    source 0
    target 0
    class "-"
    capacity 1.0
  ]
  edge [
    source 0
    target 1
    class "up"
    capacity 1.0
  ]
  edge [
    source 1
    target 0
    class "down"
    capacity 1.0
  ]
  edge [
    source 1
    target 2
    class "up"
    capacity 2.0
  ]
  edge [
    source 2
    target 3
    class "-"
    capacity 1.0
  ]
  edge [
    source 3
    target 0
    class "down"
    capacity 1.0
  ]
]
