graph [
  directed 0
  spec "slimfly q=5"
  node [
    id 0
    label "0"
    servers 1
    group 0
    coord0 0
    coord1 0
    coord2 0
  ]
  node [
    id 1
    label "1"
    servers 1
    group 0
    coord0 0
    coord1 0
    coord2 1
  ]
  node [
    id 2
    label "2"
    servers 1
    group 0
    coord0 0
    coord1 0
    coord2 2
  ]
  node [
    id 3
    label "3"
    servers 1
    group 0
    coord0 0
    coord1 0
    coord2 3
  ]
  node [
    id 4
    label "4"
    servers 1
    group 0
    coord0 0
    coord1 0
    coord2 4
  ]
  node [
    id 5
    label "5"
    servers 1
    group 1
    coord0 0
    coord1 1
    coord2 0
  ]
  node [
    id 6
    label "6"
    servers 1
    group 1
    coord0 0
    coord1 1
    coord2 1
  ]
  node [
    id 7
    label "7"
    servers 1
    group 1
    coord0 0
    coord1 1
    coord2 2
  ]
  node [
    id 8
    label "8"
    servers 1
    group 1
    coord0 0
    coord1 1
    coord2 3
  ]
  node [
    id 9
    label "9"
    servers 1
    group 1
    coord0 0
    coord1 1
    coord2 4
  ]
  node [
    id 10
    label "10"
    servers 1
    group 2
    coord0 0
    coord1 2
    coord2 0
  ]
  node [
    id 11
    label "11"
    servers 1
    group 2
    coord0 0
    coord1 2
    coord2 1
  ]
  node [
    id 12
    label "12"
    servers 1
    group 2
    coord0 0
    coord1 2
    coord2 2
  ]
  node [
    id 13
    label "13"
    servers 1
    group 2
    coord0 0
    coord1 2
    coord2 3
  ]
  node [
    id 14
    label "14"
    servers 1
    group 2
    coord0 0
    coord1 2
    coord2 4
  ]
  node [
    id 15
    label "15"
    servers 1
    group 3
    coord0 0
    coord1 3
    coord2 0
  ]
  node [
    id 16
    label "16"
    servers 1
    group 3
    coord0 0
    coord1 3
    coord2 1
  ]
  node [
    id 17
    label "17"
    servers 1
    group 3
    coord0 0
    coord1 3
    coord2 2
  ]
  node [
    id 18
    label "18"
    servers 1
    group 3
    coord0 0
    coord1 3
    coord2 3
  ]
  node [
    id 19
    label "19"
    servers 1
    group 3
    coord0 0
    coord1 3
    coord2 4
  ]
  node [
    id 20
    label "20"
    servers 1
    group 4
    coord0 0
    coord1 4
    coord2 0
  ]
  node [
    id 21
    label "21"
    servers 1
    group 4
    coord0 0
    coord1 4
    coord2 1
  ]
  node [
    id 22
    label "22"
    servers 1
    group 4
    coord0 0
    coord1 4
    coord2 2
  ]
  node [
    id 23
    label "23"
    servers 1
    group 4
    coord0 0
    coord1 4
    coord2 3
  ]
  node [
    id 24
    label "24"
    servers 1
    group 4
    coord0 0
    coord1 4
    coord2 4
  ]
  node [
    id 25
    label "25"
    servers 1
    group 5
    coord0 1
    coord1 0
    coord2 0
  ]
  node [
    id 26
    label "26"
    servers 1
    group 5
    coord0 1
    coord1 0
    coord2 1
  ]
  node [
    id 27
    label "27"
    servers 1
    group 5
    coord0 1
    coord1 0
    coord2 2
  ]
  node [
    id 28
    label "28"
    servers 1
    group 5
    coord0 1
    coord1 0
    coord2 3
  ]
  node [
    id 29
    label "29"
    servers 1
    group 5
    coord0 1
    coord1 0
    coord2 4
  ]
  node [
    id 30
    label "30"
    servers 1
    group 6
    coord0 1
    coord1 1
    coord2 0
  ]
  node [
    id 31
    label "31"
    servers 1
    group 6
    coord0 1
    coord1 1
    coord2 1
  ]
  node [
    id 32
    label "32"
    servers 1
    group 6
    coord0 1
    coord1 1
    coord2 2
  ]
  node [
    id 33
    label "33"
    servers 1
    group 6
    coord0 1
    coord1 1
    coord2 3
  ]
  node [
    id 34
    label "34"
    servers 1
    group 6
    coord0 1
    coord1 1
    coord2 4
  ]
  node [
    id 35
    label "35"
    servers 1
    group 7
    coord0 1
    coord1 2
    coord2 0
  ]
  node [
    id 36
    label "36"
    servers 1
    group 7
    coord0 1
    coord1 2
    coord2 1
  ]
  node [
    id 37
    label "37"
    servers 1
    group 7
    coord0 1
    coord1 2
    coord2 2
  ]
  node [
    id 38
    label "38"
    servers 1
    group 7
    coord0 1
    coord1 2
    coord2 3
  ]
  node [
    id 39
    label "39"
    servers 1
    group 7
    coord0 1
    coord1 2
    coord2 4
  ]
  node [
    id 40
    label "40"
    servers 1
    group 8
    coord0 1
    coord1 3
    coord2 0
  ]
  node [
    id 41
    label "41"
    servers 1
    group 8
    coord0 1
    coord1 3
    coord2 1
  ]
  node [
    id 42
    label "42"
    servers 1
    group 8
    coord0 1
    coord1 3
    coord2 2
  ]
  node [
    id 43
    label "43"
    servers 1
    group 8
    coord0 1
    coord1 3
    coord2 3
  ]
  node [
    id 44
    label "44"
    servers 1
    group 8
    coord0 1
    coord1 3
    coord2 4
  ]
  node [
    id 45
    label "45"
    servers 1
    group 9
    coord0 1
    coord1 4
    coord2 0
  ]
  node [
    id 46
    label "46"
    servers 1
    group 9
    coord0 1
    coord1 4
    coord2 1
  ]
  node [
    id 47
    label "47"
    servers 1
    group 9
    coord0 1
    coord1 4
    coord2 2
  ]
  node [
    id 48
    label "48"
    servers 1
    group 9
    coord0 1
    coord1 4
    coord2 3
  ]
  node [
    id 49
    label "49"
    servers 1
    group 9
    coord0 1
    coord1 4
    coord2 4
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
    target 25
  ]
  edge [
    source 0
    target 30
  ]
  edge [
    source 0
    target 35
  ]
  edge [
    source 0
    target 40
  ]
  edge [
    source 0
    target 45
  ]
  edge [
    source 1
    target 2
  ]
  edge [
    source 1
    target 26
  ]
  edge [
    source 1
    target 31
  ]
  edge [
    source 1
    target 36
  ]
  edge [
    source 1
    target 41
  ]
  edge [
    source 1
    target 46
  ]
  edge [
    source 2
    target 3
  ]
  edge [
    source 2
    target 27
  ]
  edge [
    source 2
    target 32
  ]
  edge [
    source 2
    target 37
  ]
  edge [
    source 2
    target 42
  ]
  edge [
    source 2
    target 47
  ]
  edge [
    source 3
    target 4
  ]
  edge [
    source 3
    target 28
  ]
  edge [
    source 3
    target 33
  ]
  edge [
    source 3
    target 38
  ]
  edge [
    source 3
    target 43
  ]
  edge [
    source 3
    target 48
  ]
  edge [
    source 4
    target 29
  ]
  edge [
    source 4
    target 34
  ]
  edge [
    source 4
    target 39
  ]
  edge [
    source 4
    target 44
  ]
  edge [
    source 4
    target 49
  ]
  edge [
    source 5
    target 6
  ]
  edge [
    source 5
    target 9
  ]
  edge [
    source 5
    target 25
  ]
  edge [
    source 5
    target 34
  ]
  edge [
    source 5
    target 38
  ]
  edge [
    source 5
    target 42
  ]
  edge [
    source 5
    target 46
  ]
  edge [
    source 6
    target 7
  ]
  edge [
    source 6
    target 26
  ]
  edge [
    source 6
    target 30
  ]
  edge [
    source 6
    target 39
  ]
  edge [
    source 6
    target 43
  ]
  edge [
    source 6
    target 47
  ]
  edge [
    source 7
    target 8
  ]
  edge [
    source 7
    target 27
  ]
  edge [
    source 7
    target 31
  ]
  edge [
    source 7
    target 35
  ]
  edge [
    source 7
    target 44
  ]
  edge [
    source 7
    target 48
  ]
  edge [
    source 8
    target 9
  ]
  edge [
    source 8
    target 28
  ]
  edge [
    source 8
    target 32
  ]
  edge [
    source 8
    target 36
  ]
  edge [
    source 8
    target 40
  ]
  edge [
    source 8
    target 49
  ]
  edge [
    source 9
    target 29
  ]
  edge [
    source 9
    target 33
  ]
  edge [
    source 9
    target 37
  ]
  edge [
    source 9
    target 41
  ]
  edge [
    source 9
    target 45
  ]
  edge [
    source 10
    target 11
  ]
  edge [
    source 10
    target 14
  ]
  edge [
    source 10
    target 25
  ]
  edge [
    source 10
    target 33
  ]
  edge [
    source 10
    target 36
  ]
  edge [
    source 10
    target 44
  ]
  edge [
    source 10
    target 47
  ]
  edge [
    source 11
    target 12
  ]
  edge [
    source 11
    target 26
  ]
  edge [
    source 11
    target 34
  ]
  edge [
    source 11
    target 37
  ]
  edge [
    source 11
    target 40
  ]
  edge [
    source 11
    target 48
  ]
  edge [
    source 12
    target 13
  ]
  edge [
    source 12
    target 27
  ]
  edge [
    source 12
    target 30
  ]
  edge [
    source 12
    target 38
  ]
  edge [
    source 12
    target 41
  ]
  edge [
    source 12
    target 49
  ]
  edge [
    source 13
    target 14
  ]
  edge [
    source 13
    target 28
  ]
  edge [
    source 13
    target 31
  ]
  edge [
    source 13
    target 39
  ]
  edge [
    source 13
    target 42
  ]
  edge [
    source 13
    target 45
  ]
  edge [
    source 14
    target 29
  ]
  edge [
    source 14
    target 32
  ]
  edge [
    source 14
    target 35
  ]
  edge [
    source 14
    target 43
  ]
  edge [
    source 14
    target 46
  ]
  edge [
    source 15
    target 16
  ]
  edge [
    source 15
    target 19
  ]
  edge [
    source 15
    target 25
  ]
  edge [
    source 15
    target 32
  ]
  edge [
    source 15
    target 39
  ]
  edge [
    source 15
    target 41
  ]
  edge [
    source 15
    target 48
  ]
  edge [
    source 16
    target 17
  ]
  edge [
    source 16
    target 26
  ]
  edge [
    source 16
    target 33
  ]
  edge [
    source 16
    target 35
  ]
  edge [
    source 16
    target 42
  ]
  edge [
    source 16
    target 49
  ]
  edge [
    source 17
    target 18
  ]
  edge [
    source 17
    target 27
  ]
  edge [
    source 17
    target 34
  ]
  edge [
    source 17
    target 36
  ]
  edge [
    source 17
    target 43
  ]
  edge [
    source 17
    target 45
  ]
  edge [
    source 18
    target 19
  ]
  edge [
    source 18
    target 28
  ]
  edge [
    source 18
    target 30
  ]
  edge [
    source 18
    target 37
  ]
  edge [
    source 18
    target 44
  ]
  edge [
    source 18
    target 46
  ]
  edge [
    source 19
    target 29
  ]
  edge [
    source 19
    target 31
  ]
  edge [
    source 19
    target 38
  ]
  edge [
    source 19
    target 40
  ]
  edge [
    source 19
    target 47
  ]
  edge [
    source 20
    target 21
  ]
  edge [
    source 20
    target 24
  ]
  edge [
    source 20
    target 25
  ]
  edge [
    source 20
    target 31
  ]
  edge [
    source 20
    target 37
  ]
  edge [
    source 20
    target 43
  ]
  edge [
    source 20
    target 49
  ]
  edge [
    source 21
    target 22
  ]
  edge [
    source 21
    target 26
  ]
  edge [
    source 21
    target 32
  ]
  edge [
    source 21
    target 38
  ]
  edge [
    source 21
    target 44
  ]
  edge [
    source 21
    target 45
  ]
  edge [
    source 22
    target 23
  ]
  edge [
    source 22
    target 27
  ]
  edge [
    source 22
    target 33
  ]
  edge [
    source 22
    target 39
  ]
  edge [
    source 22
    target 40
  ]
  edge [
    source 22
    target 46
  ]
  edge [
    source 23
    target 24
  ]
  edge [
    source 23
    target 28
  ]
  edge [
    source 23
    target 34
  ]
  edge [
    source 23
    target 35
  ]
  edge [
    source 23
    target 41
  ]
  edge [
    source 23
    target 47
  ]
  edge [
    source 24
    target 29
  ]
  edge [
    source 24
    target 30
  ]
  edge [
    source 24
    target 36
  ]
  edge [
    source 24
    target 42
  ]
  edge [
    source 24
    target 48
  ]
  edge [
    source 25
    target 27
  ]
  edge [
    source 25
    target 28
  ]
  edge [
    source 26
    target 28
  ]
  edge [
    source 26
    target 29
  ]
  edge [
    source 27
    target 29
  ]
  edge [
    source 30
    target 32
  ]
  edge [
    source 30
    target 33
  ]
  edge [
    source 31
    target 33
  ]
  edge [
    source 31
    target 34
  ]
  edge [
    source 32
    target 34
  ]
  edge [
    source 35
    target 37
  ]
  edge [
    source 35
    target 38
  ]
  edge [
    source 36
    target 38
  ]
  edge [
    source 36
    target 39
  ]
  edge [
    source 37
    target 39
  ]
  edge [
    source 40
    target 42
  ]
  edge [
    source 40
    target 43
  ]
  edge [
    source 41
    target 43
  ]
  edge [
    source 41
    target 44
  ]
  edge [
    source 42
    target 44
  ]
  edge [
    source 45
    target 47
  ]
  edge [
    source 45
    target 48
  ]
  edge [
    source 46
    target 48
  ]
  edge [
    source 46
    target 49
  ]
  edge [
    source 47
    target 49
  ]
]
