/*
 * libfuzzer.c - LLVMFuzzerTestOneInput for one harness, chosen at compile
 * time with -DFZ_TARGET=name (tests/fuzz/build.sh, make fuzz).
 */
#include <stdlib.h>

#include "fuzz.h"

#define FZ_STR2(x) #x
#define FZ_STR(x) FZ_STR2(x)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const fz_target_t *t;
    if (!t && !(t = fz_find(FZ_STR(FZ_TARGET))))
        abort();
    return t->fn(data, size);
}
