/*
 * gf_internal.h - arithmetic in the finite field GF(q), q = p^m a prime
 * power, for the algebraic families (Slim Fly, projective networks).  Not
 * installed.
 *
 * Elements are the integers 0 .. q-1: the element sum_i c_i x^i of
 * GF(p)[x]/(f) (0 <= c_i < p) is the integer sum_i c_i p^i, so for m = 1 the
 * elements are the residues mod p themselves.  f is the first monic
 * polynomial of degree m (in the order of the integer sum_i c_i p^i of its
 * lower coefficients) for which x has multiplicative order q - 1; x is then
 * a primitive element, and f is irreducible because a ring with q elements
 * that is not a field has fewer than q - 1 units.  For m = 1 the primitive
 * element is the least primitive root mod p.  Multiplication uses
 * logarithm tables, addition is digit-wise mod p (xor for p = 2).
 */
#ifndef TK_GF_INTERNAL_H
#define TK_GF_INTERNAL_H

#include <stdint.h>

#include "tk_core.h"

/* Largest field supported (the tables take 12 bytes per element). */
#define TKG_GF_MAX_Q (1 << 20)

typedef struct tkg_gf {
    int32_t q, p, m;
    int32_t prim; /* the primitive element (as an integer) */
    int32_t *exp; /* exp[k] = prim^k for 0 <= k < 2(q-1) */
    int32_t *log; /* log[a] for a != 0; log[0] unused */
} tkg_gf_t;

/* Is q a prime power p^m (q >= 2)?  Sets *p and *m when it is. */
int tkg_prime_power(int64_t q, int32_t *p, int32_t *m);

/* Build GF(q).  `key` names the parameter in errors: TK_ERANGE "KEY=q: not
 * a prime power" or "KEY=q: above the largest supported field", TK_ENOMEM.
 * Time O(q * m * tries) (tries: polynomials examined, small in practice),
 * memory 12 q bytes. */
tk_status_t tkg_gf_init(tkg_gf_t *f, int64_t q, const char *key, tk_error_t *err);
void tkg_gf_destroy(tkg_gf_t *f);

static inline int32_t tkg_gf_add(const tkg_gf_t *f, int32_t a, int32_t b)
{
    int32_t r = 0, w = 1;

    if (f->m == 1)
        return (a + b) % f->p;
    if (f->p == 2)
        return a ^ b;
    while (a || b) {
        r += ((a % f->p + b % f->p) % f->p) * w;
        a /= f->p;
        b /= f->p;
        w *= f->p;
    }
    return r;
}

static inline int32_t tkg_gf_neg(const tkg_gf_t *f, int32_t a)
{
    int32_t r = 0, w = 1;

    if (f->m == 1)
        return a ? f->p - a : 0;
    if (f->p == 2)
        return a;
    while (a) {
        r += ((f->p - a % f->p) % f->p) * w;
        a /= f->p;
        w *= f->p;
    }
    return r;
}

static inline int32_t tkg_gf_sub(const tkg_gf_t *f, int32_t a, int32_t b)
{
    return tkg_gf_add(f, a, tkg_gf_neg(f, b));
}

static inline int32_t tkg_gf_mul(const tkg_gf_t *f, int32_t a, int32_t b)
{
    if (!a || !b)
        return 0;
    return f->exp[f->log[a] + f->log[b]];
}

/* a / b for b != 0. */
static inline int32_t tkg_gf_div(const tkg_gf_t *f, int32_t a, int32_t b)
{
    if (!a)
        return 0;
    return f->exp[f->log[a] + (f->q - 1) - f->log[b]];
}

/* prim^k for any k >= 0. */
static inline int32_t tkg_gf_pow_prim(const tkg_gf_t *f, int64_t k)
{
    return f->exp[k % (f->q - 1)];
}

#endif /* TK_GF_INTERNAL_H */
