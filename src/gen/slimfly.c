/*
 * slimfly.c - Slim Fly: the McKay-Miller-Siran (MMS) graph of a prime power
 * q = 4w + delta, delta in {-1, 0, 1}; 2q^2 switches of degree
 * (3q - delta)/2, diameter 2.
 *
 * Construction over GF(q) with primitive element xi (gf_internal.h).
 * Switches (0, x, y) -> id x*q + y and (1, m, c) -> id q^2 + m*q + c
 * (field elements as integers 0..q-1).  Links:
 *   (0, x, y) - (0, x, y')  when y - y' is in X,
 *   (1, m, c) - (1, m, c')  when c - c' is in X',
 *   (0, x, y) - (1, m, c)   when y = m*x + c,
 * with the generator sets
 *   delta = 1:  X = {1, xi^2, ..., xi^(q-3)},  X' = {xi, xi^3, ..., xi^(q-2)};
 *   delta = 0:  X = {1, xi^2, ..., xi^(q-2)},  X' = {xi, xi^3, ..., xi^(q-1)};
 *   delta = -1: X = {1, xi^2, ..., xi^(2w-2)} u {xi^(2w-1), xi^(2w+1), ..., xi^(4w-3)},
 *               X' = {xi, xi^3, ..., xi^(2w-1)} u {xi^(2w), xi^(2w+2), ..., xi^(4w-2)}.
 * Group of a switch: s*q + x (the q-switch blocks with the same s and x);
 * coordinates (s, x, y) or (s, m, c).
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "gen_internal.h"
#include "gf_internal.h"

/* Mark xi^e for e = from, from+2, ..., <= to. */
static void mark(const tkg_gf_t *f, char *set, int64_t from, int64_t to)
{
    int64_t e;

    for (e = from; e <= to; e += 2)
        set[tkg_gf_pow_prim(f, e)] = 1;
}

/* The generator sets X and X' (as marks over the field's elements) of the
 * header's table for q = 4w + delta. */
static void generator_sets(const tkg_gf_t *f, int64_t delta, int64_t w, char *X, char *Xp)
{
    int64_t q = f->q;

    if (delta == 1) {
        mark(f, X, 0, q - 3);
        mark(f, Xp, 1, q - 2);
    } else if (delta == 0) {
        mark(f, X, 0, q - 2);
        mark(f, Xp, 1, q - 1);
    } else {
        mark(f, X, 0, 2 * w - 2);
        mark(f, X, 2 * w - 1, 4 * w - 3);
        mark(f, Xp, 1, 2 * w - 1);
        mark(f, Xp, 2 * w, 4 * w - 2);
    }
}

/* Coordinates and groups of every switch, and the links within the
 * q-switch blocks: (0, x, y) - (0, x, y + c) for c in X, (1, m, c) -
 * (1, m, c + c') for c' in X'. */
static tk_status_t add_within_blocks(const tkg_gf_t *f, const char *X, const char *Xp,
                                     tk_builder_t *b, tk_error_t *err)
{
    int64_t q = f->q;
    tk_status_t st = TK_OK;

    for (int64_t x = 0; x < q && !st; x++)
        for (int64_t y = 0; y < q && !st; y++) {
            int32_t c0[3] = {0, (int32_t)x, (int32_t)y}, c1[3] = {1, (int32_t)x, (int32_t)y};
            st = tk_builder_set_coord(b, x * q + y, c0, err);
            if (!st)
                st = tk_builder_set_coord(b, q * q + x * q + y, c1, err);
            if (!st)
                st = tk_builder_set_group(b, x * q + y, (int32_t)x, err);
            if (!st)
                st = tk_builder_set_group(b, q * q + x * q + y, (int32_t)(q + x), err);
            for (int64_t c = 0; c < q && !st; c++) {
                int32_t y2 = tkg_gf_add(f, (int32_t)y, (int32_t)c);
                if (X[c] && y2 > y)
                    st = tk_builder_add(b, x * q + y, x * q + y2, err);
                if (!st && Xp[c] && y2 > y)
                    st = tk_builder_add(b, q * q + x * q + y, q * q + x * q + y2, err);
            }
        }
    return st;
}

/* The links between the halves: (0, x, y) - (1, m, c) when y = m*x + c. */
static tk_status_t add_between_halves(const tkg_gf_t *f, tk_builder_t *b, tk_error_t *err)
{
    int64_t q = f->q;
    tk_status_t st = TK_OK;

    for (int64_t x = 0; x < q && !st; x++)
        for (int64_t m = 0; m < q && !st; m++) {
            int32_t mx = tkg_gf_mul(f, (int32_t)m, (int32_t)x);
            for (int64_t c = 0; c < q && !st; c++)
                st = tk_builder_add(b, x * q + tkg_gf_add(f, mx, (int32_t)c), q * q + m * q + c,
                                    err);
        }
    return st;
}

/* MMS graph of q; see topo-gen(1).  Errors: TK_ERANGE (q not a prime power
 * 4w+delta), TK_ELIMIT, TK_ENOMEM, TK_EINTERNAL (a generator set that is not
 * symmetric: a bug).  Time O(q^3), memory O(q^3) (the links). */
tk_status_t tk_gen_slimfly(int64_t q, uint64_t mem_limit, tk_graph_t **out, tk_error_t *err)
{
    tkg_gf_t f;
    tk_builder_t *b = NULL;
    char *X = NULL, *Xp = NULL, what[64];
    int64_t n, deg, w, delta, x;
    int32_t p, e;
    tk_status_t st;

    if (!tkg_prime_power(q, &p, &e))
        return tk_error_set(err, TK_ERANGE, NULL, 0, "q=%" PRId64 ": not a prime power", q);
    if (q % 4 == 2)
        return tk_error_set(err, TK_ERANGE, NULL, 0,
                            "q=%" PRId64 ": must be 4w-1, 4w or 4w+1 (q = 2 has no Slim Fly)", q);
    delta = q % 4 == 1 ? 1 : q % 4 == 0 ? 0 : -1;
    w = (q - delta) / 4;
    deg = (3 * q - delta) / 2;
    snprintf(what, sizeof what, "q=%" PRId64, q);
    n = q <= 100000 ? 2 * q * q : -1;
    st = tkg_check_size(what, n, n < 0 ? -1 : tkg_mul(n, deg), 0, mem_limit, err);
    if (st)
        return st;
    st = tkg_gf_init(&f, q, "q", err);
    if (st)
        return st;
    X = calloc((size_t)q, 1);
    Xp = calloc((size_t)q, 1);
    if (!X || !Xp) {
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
        goto fail;
    }
    generator_sets(&f, delta, w, X, Xp);
    for (x = 0; x < q; x++)
        if (X[x] != X[tkg_gf_neg(&f, (int32_t)x)] || Xp[x] != Xp[tkg_gf_neg(&f, (int32_t)x)] ||
            X[0] || Xp[0]) {
            st = tk_error_set(err, TK_EINTERNAL, NULL, 0,
                              "q=%" PRId64 ": generator set not symmetric", q);
            goto fail;
        }
    st = tk_builder_new(&b, n, 0, err);
    if (!st)
        st = tk_builder_reserve(b, n * deg / 2, err);
    if (!st)
        st = tk_builder_set_ncoord(b, 3, err);
    if (!st)
        st = add_within_blocks(&f, X, Xp, b, err);
    if (!st)
        st = add_between_halves(&f, b, err);
    if (st)
        goto fail;
    free(X);
    free(Xp);
    tkg_gf_destroy(&f);
    return tkg_finish(b, out, err, "slimfly q=%" PRId64, q);
fail:
    tk_builder_free(b);
    free(X);
    free(Xp);
    tkg_gf_destroy(&f);
    return st;
}

tk_status_t tkg_build_slimfly(tk_kv_t *kv, const tk_gen_opts_t *o, tk_graph_t **g, tk_error_t *err)
{
    int64_t q;
    tk_status_t st = tk_kv_int(kv, "q", 2, INT32_MAX, 0, 0, &q, err);

    return st ? st : tk_gen_slimfly(q, o->mem_limit, g, err);
}
