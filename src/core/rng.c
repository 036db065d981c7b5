/*
 * rng.c - random streams derived from (seed, task index).
 *
 * The stream of task t is GSL's MT19937 seeded with a SplitMix64 hash of
 * (seed, t).  A stream never depends on how many tasks exist or on which
 * thread draws from it, so results are the same with any thread count.
 */
#include <config.h>

#include <stdlib.h>

#include <gsl/gsl_rng.h>

#include "tk_core.h"

struct tk_rng {
    gsl_rng *r;
};

uint64_t tk_mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

tk_status_t tk_rng_new(tk_rng_t **out, uint64_t seed, uint64_t task, tk_error_t *err)
{
    tk_rng_t *r = malloc(sizeof *r);
    uint64_t s;

    if (!r)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    r->r = gsl_rng_alloc(gsl_rng_mt19937);
    if (!r->r) {
        free(r);
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    }
    s = tk_mix64(tk_mix64(seed) ^ tk_mix64(task ^ 0x6a09e667f3bcc909ULL));
    /* GSL's MT19937 uses 32 bits of the seed, and treats 0 as its default
     * seed 4357; fold the 64 bits and avoid 0. */
    s = (s ^ (s >> 32)) & 0xffffffffULL;
    gsl_rng_set(r->r, (unsigned long)(s ? s : 0x5eed));
    *out = r;
    return TK_OK;
}

void tk_rng_free(tk_rng_t *r)
{
    if (!r)
        return;
    gsl_rng_free(r->r);
    free(r);
}

/* 32 random bits (MT19937 returns exactly 32). */
static inline uint64_t bits32(tk_rng_t *r)
{
    return (uint64_t)gsl_rng_get(r->r) & 0xffffffffULL;
}

uint64_t tk_rng_below(tk_rng_t *r, uint64_t n)
{
    uint64_t x, lim;

    if (n <= 1)
        return 0;
    if (n <= 0xffffffffULL) {
        /* Rejection sampling on 32 bits: unbiased. */
        lim = 0x100000000ULL - (0x100000000ULL % n);
        do
            x = bits32(r);
        while (x >= lim);
        return x % n;
    }
    lim = UINT64_MAX - (UINT64_MAX % n + 1) % n; /* largest multiple of n, minus 1 */
    do {
        uint64_t hi = bits32(r); /* two statements: a fixed draw order */
        x = (hi << 32) | bits32(r);
    } while (x > lim);
    return x % n;
}

double tk_rng_uniform(tk_rng_t *r)
{
    /* 53 random bits. */
    uint64_t hi = bits32(r), x = (hi << 21) ^ (bits32(r) >> 11);
    return (double)(x & ((1ULL << 53) - 1)) * (1.0 / 9007199254740992.0);
}

void *tk_rng_gsl(tk_rng_t *r)
{
    return r->r;
}
