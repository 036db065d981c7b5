#!/bin/sh
# build.sh SRCDIR OUTDIR - the libFuzzer binaries of every harness
# (tests/fuzz/harness.c), one per name of `replay --list`: OUTDIR/fuzz-NAME.
# The library, the tools' helpers and the harnesses are compiled with
# clang -fsanitize=fuzzer-no-link,address,undefined; each binary links
# them with libfuzzer.c (-DFZ_TARGET=NAME) and -fsanitize=fuzzer.
# Environment (make fuzz sets them): FUZZ_CC (clang), LIBS, CPPFLAGS.
# Run one: OUTDIR/fuzz-NAME -max_total_time=600 CORPUSDIR (tests/fuzz/run.sh).
set -eu
SRC=$1
OUT=$2
CC=${FUZZ_CC:-}
[ -n "$CC" ] || { echo "build.sh: no clang (FUZZ_CC); apt-get install clang and re-run configure" >&2; exit 1; }
mkdir -p "$OUT/obj"
CFLAGS="-g -O1 -fno-omit-frame-pointer -fopenmp -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined"
INC="-I$SRC/src -I$SRC/tools -I$SRC/tests/fuzz -I$(dirname "$OUT")/../.. ${CPPFLAGS:-}"
# config.h: the build directory's (OUT is BUILDDIR/tests/fuzz/bin).
objs=""
i=0
for f in "$SRC"/src/*/*.c "$SRC"/tools/cli.c "$SRC"/tools/args.c "$SRC"/tools/row.c \
         "$SRC"/tools/lines.c "$SRC"/tools/progress.c "$SRC"/tools/mpi.c "$SRC"/tools/measured.c \
         "$SRC"/tools/shard.c \
         "$SRC"/tests/fuzz/harness.c; do
    i=$((i + 1))
    o="$OUT/obj/$(echo "${f#"$SRC"/}" | tr / _).o"
    objs="$objs $o"
    if [ ! -e "$o" ] || [ "$f" -nt "$o" ]; then
        # two compilers at a time at most (the machines are shared)
        $CC $CFLAGS $INC -fvisibility=hidden -c "$f" -o "$o" &
        [ $((i % 2)) -eq 0 ] && wait
    fi
done
wait
for name in graph native graph6 sparse6 digraph6 edges graphml gml anynet caminos pattern cycle \
            route options gen kv workload tsv measured shard job; do
    $CC $CFLAGS -fsanitize=fuzzer $INC -DFZ_TARGET="$name" "$SRC/tests/fuzz/libfuzzer.c" $objs \
        -o "$OUT/fuzz-$name" ${LIBS:-} -lm
    echo "built $OUT/fuzz-$name"
done
