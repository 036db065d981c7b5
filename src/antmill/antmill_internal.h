/*
 * antmill_internal.h - helpers shared by the files of src/antmill (not installed).
 */
#ifndef TK_ANTMILL_INTERNAL_H
#define TK_ANTMILL_INTERNAL_H

#include <stdint.h>
#include <time.h>

#include "tk_core.h"

/* Bit (x, y) set iff D(x, y) = delta with exactly one shortest path.
 * Rows of `words` 64-bit words, so threads filling rows never share a word.
 * Memory n * ceil(n / 64) * 8 bytes (n = 10^4: 12.5 MB; n = 3 * 10^4:
 * 113 MB). */
typedef struct am_utable {
    tk_id_t n;
    int64_t words;
    int32_t delta;
    uint64_t *bits;
} am_utable_t;

tk_status_t am_utable_new(const tk_graph_t *g, int32_t delta, int threads, uint64_t mem_limit,
                          am_utable_t **out, tk_error_t *err);
void am_utable_free(am_utable_t *t);

static inline int am_utable_get(const am_utable_t *t, tk_id_t x, tk_id_t y)
{
    return (int)((t->bits[(size_t)x * (size_t)t->words + (size_t)(y >> 6)] >> (y & 63)) & 1u);
}

/* Seconds since t0 (CLOCK_MONOTONIC). */
double am_elapsed(const struct timespec *t0);

#endif
