/*
 * fuzz.h - the fuzz harnesses of tests/fuzz/harness.c: one function per
 * reader or parser, fed arbitrary bytes.  A harness returns 0 and never
 * fails on bad input (that is the parser's job: an error status); it
 * aborts (fz_fail) when an accepted input breaks an invariant, such as a
 * graph that does not survive write-then-read.  libfuzzer.c wraps one of
 * them as LLVMFuzzerTestOneInput (make fuzz); replay.c runs the corpus
 * under tests/fuzz/corpus/NAME/ through them (make check).
 */
#ifndef TK_FUZZ_H
#define TK_FUZZ_H

#include <stddef.h>
#include <stdint.h>

typedef int (*fz_fn)(const uint8_t *data, size_t size);

typedef struct fz_target {
    const char *name; /* also the corpus directory tests/fuzz/corpus/NAME */
    fz_fn fn;
} fz_target_t;

/* Every harness, ended by {NULL, NULL}. */
extern const fz_target_t fz_targets[];

const fz_target_t *fz_find(const char *name);

#endif
