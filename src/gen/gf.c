/*
 * gf.c - finite fields GF(p^m) for the algebraic families; see
 * gf_internal.h for the representation and the choice of the primitive
 * element.
 */
#include <config.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "gf_internal.h"

int tkg_prime_power(int64_t q, int32_t *p, int32_t *m)
{
    int64_t d, r;
    int32_t e = 0;

    if (q < 2 || q > INT32_MAX)
        return 0;
    for (d = 2; d * d <= q; d++)
        if (q % d == 0)
            break;
    if (d * d > q)
        d = q; /* q is prime */
    for (r = q; r % d == 0; r /= d)
        e++;
    if (r != 1)
        return 0;
    *p = (int32_t)d;
    *m = e;
    return 1;
}

/* x * a in GF(p)[x]/(x^m + low), where negl = -low as an element. */
static int32_t mul_x(const tkg_gf_t *f, int32_t a, int32_t top_w, int32_t negl)
{
    int32_t c = a / top_w, shifted = (a % top_w) * f->p, t = 0, w = 1, v = negl;

    if (!c)
        return shifted;
    /* t = c * negl digit-wise. */
    while (v) {
        t += (int32_t)(((int64_t)(v % f->p) * c) % f->p) * w;
        v /= f->p;
        w *= f->p;
    }
    return tkg_gf_add(f, shifted, t);
}

tk_status_t tkg_gf_init(tkg_gf_t *f, int64_t q, const char *key, tk_error_t *err)
{
    int32_t p, m, top_w = 1, cand, k, v;
    int i;

    memset(f, 0, sizeof *f);
    if (!tkg_prime_power(q, &p, &m))
        return tk_error_set(err, TK_ERANGE, NULL, 0, "%s=%" PRId64 ": not a prime power", key, q);
    if (q > TKG_GF_MAX_Q)
        return tk_error_set(err, TK_ERANGE, NULL, 0,
                            "%s=%" PRId64 ": above the largest supported field (%d)", key, q,
                            TKG_GF_MAX_Q);
    f->q = (int32_t)q;
    f->p = p;
    f->m = m;
    for (i = 1; i < m; i++)
        top_w *= p;
    f->exp = tk_malloc_array(2 * (size_t)q, sizeof *f->exp);
    f->log = tk_malloc_array((size_t)q, sizeof *f->log);
    if (!f->exp || !f->log) {
        tkg_gf_destroy(f);
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    }
    if (q == 2) {
        f->prim = 1;
        f->exp[0] = f->exp[1] = 1;
        f->log[1] = 0;
        return TK_OK;
    }
    /* m = 1: candidates are the residues 2, 3, ...; m > 1: candidates are
     * the lower parts `cand` of x^m + low (constant term nonzero), with x as
     * the generator. */
    for (cand = m == 1 ? 2 : 1; cand < q; cand++) {
        int32_t negl = 0;
        if (m > 1) {
            if (cand % p == 0)
                continue;
            negl = tkg_gf_neg(f, cand);
        }
        v = 1;
        for (k = 0; k < q - 1; k++) {
            f->exp[k] = v;
            if (k > 0 && v == 1)
                break;
            v = m == 1 ? (int32_t)((int64_t)v * cand % p) : mul_x(f, v, top_w, negl);
        }
        if (k == q - 1 && v == 1) {
            f->prim = m == 1 ? cand : (q > p ? p : 1);
            break;
        }
    }
    if (cand >= q) {
        tkg_gf_destroy(f);
        return tk_error_set(err, TK_EINTERNAL, NULL, 0,
                            "%s=%" PRId64 ": no primitive element found", key, q);
    }
    for (k = 0; k < q - 1; k++) {
        f->exp[k + q - 1] = f->exp[k];
        f->log[f->exp[k]] = k;
    }
    f->log[0] = 0;
    return TK_OK;
}

void tkg_gf_destroy(tkg_gf_t *f)
{
    if (!f)
        return;
    free(f->exp);
    free(f->log);
    f->exp = f->log = NULL;
}
