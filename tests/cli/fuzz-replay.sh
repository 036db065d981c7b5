# fuzz-replay: every file of the fuzz corpus (tests/fuzz/corpus/NAME/, the
# seeds of each harness and the inputs of every crash found and fixed)
# through its harness, without libFuzzer: so a fixed crash stays fixed in
# the plain and the sanitizer builds.  A harness aborts when a reader
# accepts a graph, pattern or workload that does not round-trip.
. "$TK_SRCDIR/tests/cli/lib.sh"

REPLAY="$TK_BUILDDIR/tests/fuzz/replay"
CORPUS="$TK_SRCDIR/tests/fuzz/corpus"
names=$("$REPLAY" --list)
for name in $names; do
    [ -d "$CORPUS/$name" ] && [ -n "$(ls "$CORPUS/$name")" ]
    ok $? "$name: has a seed corpus" || continue
    run "$REPLAY" "$name" "$CORPUS/$name"/*
    expect_rc 0 "$name: $(ls "$CORPUS/$name" | wc -l | tr -d ' ') corpus files replayed"
done
# Every corpus directory belongs to a harness.
for d in "$CORPUS"/*/; do
    d=${d%/}
    printf '%s\n' "$names" | grep -qx "${d##*/}"
    ok $? "corpus ${d##*/}: a harness of that name"
done
done_testing
