# A hand-written switch-level pattern file for ring n=4 that uses the
# reader's freedoms: comments, blank lines, headers in another order, no spec
# line, weights omitted, plain and with an exponent.
topokit-pattern 1

level switch
topology ring n=4
endpoints 4
demands 5
0 2          # to the antipode, weight 1 by default
1 3 0.5
3 1 0.5
2 0 0.25
2 1 0.5e0    # exponent form

# trailing comment
