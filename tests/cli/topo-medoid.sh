# topo-medoid: samples reproducible with topo-gen, features cross-checked
# with topo-dist, the medoid recomputed independently in awk, thread
# independence, errors.
. "$TK_SRCDIR/tests/cli/lib.sh"

run topo-medoid rrg n=40 d=4 --samples 7 -s 3 --table "$TMPD/t.tsv" -o "$TMPD/m.topo"
expect_rc 0 "7 RRG samples"
[ "$(wc -l <"$TMPD/t.tsv")" -eq 8 ] && [ "$(awk -F '\t' 'NR > 1 && $8 == 1' "$TMPD/t.tsv" | wc -l)" -eq 1 ]
ok $? "table: header + 7 rows, exactly one medoid"
head -1 "$TMPD/t.tsv" | grep -q "^sample${T:-	}seed	avg_distance	link_use	z_avg_distance	z_link_use	sum_distance	medoid$"
ok $? "table header"
mseed=$(awk -F '\t' 'NR > 1 && $8 == 1 { print $2 }' "$TMPD/t.tsv")
topo-gen rrg n=40 d=4 -s "$mseed" >"$TMPD/regen.topo"
cmp -s "$TMPD/regen.topo" "$TMPD/m.topo"
ok $? "the medoid graph is topo-gen rrg n=40 d=4 -s SEED of its row"
# issue 25 item 11: the medoid's spec is its sample's canonical spec, the
# same as topo-gen's (one s=, one p=), whatever the options
topo-medoid rrg n=40 d=4 --samples 3 -s 3 -p 2 --table "$TMPD/tp.tsv" -o "$TMPD/mp.topo"
mseed=$(awk -F '\t' 'NR > 1 && $8 == 1 { print $2 }' "$TMPD/tp.tsv")
[ "$(sed -n 2p "$TMPD/mp.topo")" = "spec rrg n=40 d=4 s=$mseed p=2" ] &&
    topo-gen rrg n=40 d=4 -p 2 -s "$mseed" | cmp -s - "$TMPD/mp.topo"
ok $? "with -p: the spec is 'rrg n=40 d=4 s=SEED p=2', as topo-gen writes it" || diag "$(sed -n 2p "$TMPD/mp.topo")"

# avg_distance of every sample equals topo-dist's on the regenerated graph
bad=0
for s in $(awk -F '\t' 'NR > 1 { print $2 }' "$TMPD/t.tsv"); do
    a=$(topo-gen rrg n=40 d=4 -s "$s" | topo-dist | awk -F '\t' 'NR == 2 { print $8 }')
    b=$(awk -F '\t' -v s="$s" '$2 == s { print $3 }' "$TMPD/t.tsv")
    [ "$a" = "$b" ] || bad=1
done
[ "$bad" -eq 0 ]
ok $? "avg_distance column equals topo-dist's for every sample"

# link_use >= 1 (a maximum over a mean)
awk -F '\t' 'NR > 1 && !($4 >= 1) { exit 1 }' "$TMPD/t.tsv"
ok $? "link_use >= 1"

# medoid recomputed from the raw features: z-scores, summed distances
want=$(awk -F '\t' 'NR > 1 { n++; a[n] = $3; l[n] = $4; sa += $3; sl += $4 }
  END { ma = sa / n; ml = sl / n
        for (i = 1; i <= n; i++) { va += (a[i] - ma)^2; vl += (l[i] - ml)^2 }
        sda = sqrt(va / n); sdl = sqrt(vl / n)
        for (i = 1; i <= n; i++) { za[i] = sda > 0 ? (a[i] - ma) / sda : 0; zl[i] = sdl > 0 ? (l[i] - ml) / sdl : 0 }
        best = 1
        for (i = 1; i <= n; i++) { t = 0
            for (j = 1; j <= n; j++) t += sqrt((za[i] - za[j])^2 + (zl[i] - zl[j])^2)
            s[i] = t; if (t < s[best] - 1e-9) best = i }
        print best - 1 }' "$TMPD/t.tsv")
got=$(awk -F '\t' 'NR > 1 && $8 == 1 { print $1 }' "$TMPD/t.tsv")
[ "$want" = "$got" ]
ok $? "medoid recomputed in awk: sample $want" || diag "awk $want, tool $got"

OMP_NUM_THREADS=1 topo-medoid rrg n=40 d=4 --samples 7 -s 3 --table "$TMPD/t1.tsv" -o "$TMPD/m1.topo"
OMP_NUM_THREADS=2 topo-medoid rrg n=40 d=4 --samples 7 -s 3 --table "$TMPD/t2.tsv" -o "$TMPD/m2.topo"
cmp -s "$TMPD/t1.tsv" "$TMPD/t2.tsv" && cmp -s "$TMPD/m1.topo" "$TMPD/m2.topo" && cmp -s "$TMPD/t1.tsv" "$TMPD/t.tsv"
ok $? "identical table and medoid with 1 and 2 threads"

run topo-medoid rrg n=40 d=4 --samples 1
expect_rc 0 "one sample"
printf '%s\n' "$out" | head -1 | grep -q '^topokit-graph 1'
ok $? "medoid on stdout in the native format"

# errors
run topo-medoid rrg n=40 d=4
expect_rc 2 "--samples missing"
run topo-medoid nosuch n=4 --samples 2
expect_rc 2 "unknown family"
run topo-medoid rrg n=40 d=4 bogus=1 --samples 2
expect_rc 2 "unknown key"
run topo-medoid rrg n=40 d=4 --samples 0
expect_rc 2 "--samples 0"
run topo-medoid rrg n=10 d=10 --samples 2 -o "$TMPD/no.topo"
expect_fail 1 'd=10' "impossible parameters: exit 1"
[ ! -e "$TMPD/no.topo" ]
ok $? "no file left"

done_testing
