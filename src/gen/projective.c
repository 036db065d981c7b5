/*
 * projective.c - networks from the projective plane PG(2, q), q a prime
 * power: the Erdos-Renyi polarity graph ER_q (the demi-projective network,
 * PolarFly) and the Levi (incidence) graph of PG(2, q) (the projective
 * network).
 *
 * Points of PG(2, q) are the normalised vectors (1, y, z) -> id y*q + z,
 * (0, 1, z) -> id q^2 + z and (0, 0, 1) -> id q^2 + q, so N = q^2 + q + 1.
 * The line with the same coordinates u is the set of points v with
 * u . v = u0 v0 + u1 v1 + u2 v2 = 0 (the orthogonal polarity).
 *  ER_q (levi=0): switches are the points, u - v linked when u . v = 0 and
 *    u != v.  The q + 1 absolute points (u . u = 0) lose their self-loop and
 *    have degree q; the others degree q + 1.  Diameter 2.
 *  Levi (levi=1): switches 0..N-1 are the points, N..2N-1 the lines
 *    (line N + u has coordinates u); point v - line N + u when u . v = 0.
 *    (q+1)-regular, bipartite, girth 6, diameter 3.  Group 0 = points,
 *    1 = lines.
 * Coordinates: the normalised vector (3 field elements as integers).
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "gen_internal.h"
#include "gf_internal.h"

static void point_of(int64_t id, int64_t q, int32_t v[3])
{
    if (id < q * q) {
        v[0] = 1;
        v[1] = (int32_t)(id / q);
        v[2] = (int32_t)(id % q);
    } else if (id < q * q + q) {
        v[0] = 0;
        v[1] = 1;
        v[2] = (int32_t)(id - q * q);
    } else {
        v[0] = 0;
        v[1] = 0;
        v[2] = 1;
    }
}

/* The q + 1 points on line u, into pts. */
static int line_points(const tkg_gf_t *f, const int32_t u[3], int64_t *pts)
{
    int64_t q = f->q, y, z, k = 0;

    /* (1, y, z): u0 + u1 y + u2 z = 0. */
    if (u[2]) {
        for (y = 0; y < q; y++) {
            int32_t s = tkg_gf_add(f, u[0], tkg_gf_mul(f, u[1], (int32_t)y));
            pts[k++] = y * q + tkg_gf_div(f, tkg_gf_neg(f, s), u[2]);
        }
        /* (0, 1, z): u1 + u2 z = 0. */
        pts[k++] = q * q + tkg_gf_div(f, tkg_gf_neg(f, u[1]), u[2]);
    } else if (u[1]) {
        y = tkg_gf_div(f, tkg_gf_neg(f, u[0]), u[1]);
        for (z = 0; z < q; z++)
            pts[k++] = y * q + z;
        pts[k++] = q * q + q; /* (0, 0, 1) */
    } else {
        for (z = 0; z < q; z++)
            pts[k++] = q * q + z;
        pts[k++] = q * q + q;
    }
    return (int)k;
}

/* ER_q (levi = 0) or the Levi graph of PG(2, q) (levi = 1); see above.
 * Errors: TK_ERANGE (q not a prime power), TK_ELIMIT, TK_ENOMEM.  Time and
 * memory O(q^3). */
tk_status_t tk_gen_projective(int64_t q, int levi, uint64_t mem_limit, tk_graph_t **out,
                              tk_error_t *err)
{
    tkg_gf_t f;
    tk_builder_t *b = NULL;
    int64_t N, n, u, i, *pts = NULL;
    int32_t p, e;
    char what[64];
    tk_status_t st;

    if (!tkg_prime_power(q, &p, &e))
        return tk_error_set(err, TK_ERANGE, NULL, 0, "q=%" PRId64 ": not a prime power", q);
    snprintf(what, sizeof what, "q=%" PRId64, q);
    N = q <= 1000000 ? q * q + q + 1 : -1;
    n = N < 0 ? -1 : levi ? 2 * N : N;
    st = tkg_check_size(what, n, n < 0 ? -1 : tkg_mul(n, q + 1), 0, mem_limit, err);
    if (st)
        return st;
    st = tkg_gf_init(&f, q, "q", err);
    if (st)
        return st;
    pts = tk_malloc_array((size_t)q + 1, sizeof *pts);
    if (!pts) {
        tkg_gf_destroy(&f);
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    }
    st = tk_builder_new(&b, n, 0, err);
    if (!st)
        st = tk_builder_reserve(b, levi ? N * (q + 1) : N * (q + 1) / 2, err);
    if (!st)
        st = tk_builder_set_ncoord(b, 3, err);
    for (u = 0; u < N && !st; u++) {
        int32_t uv[3];
        int k;
        point_of(u, q, uv);
        st = tk_builder_set_coord(b, u, uv, err);
        if (!st && levi)
            st = tk_builder_set_coord(b, N + u, uv, err);
        if (!st && levi)
            st = tk_builder_set_group(b, N + u, 1, err);
        if (!st && levi)
            st = tk_builder_set_group(b, u, 0, err);
        k = line_points(&f, uv, pts);
        for (i = 0; i < k && !st; i++) {
            if (levi)
                st = tk_builder_add(b, pts[i], N + u, err);
            else if (pts[i] > u)
                st = tk_builder_add(b, u, pts[i], err);
        }
    }
    free(pts);
    tkg_gf_destroy(&f);
    if (st) {
        tk_builder_free(b);
        return st;
    }
    return tkg_finish(b, out, err, "projective q=%" PRId64 " levi=%d", q, levi ? 1 : 0);
}

tk_status_t tkg_build_projective(tk_kv_t *kv, const tk_gen_opts_t *o, tk_graph_t **g,
                                 tk_error_t *err)
{
    int64_t q, levi;
    tk_status_t st = tk_kv_int(kv, "q", 2, INT32_MAX, 0, 0, &q, err);

    if (!st)
        st = tk_kv_int(kv, "levi", 0, 1, 1, 0, &levi, err);
    return st ? st : tk_gen_projective(q, (int)levi, o->mem_limit, g, err);
}
