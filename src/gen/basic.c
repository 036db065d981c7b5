/*
 * basic.c - complete graphs, rings and hypercubes.
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>

#include "gen_internal.h"

/* Complete graph K_n: every pair of distinct switches linked once.
 * Errors: TK_ERANGE (n < 1), TK_ELIMIT.  Time and memory O(n^2). */
tk_status_t tk_gen_complete(int64_t n, tk_graph_t **g, tk_error_t *err)
{
    tk_builder_t *b = NULL;
    char what[40];
    int64_t u, v;
    tk_status_t st;

    if (n < 1)
        return tk_error_set(err, TK_ERANGE, NULL, 0, "n=%" PRId64 ": must be at least 1", n);
    snprintf(what, sizeof what, "n=%" PRId64, n);
    st = tkg_check_size(what, n, tkg_mul(n, n - 1), 0, 0, err);
    if (!st)
        st = tk_builder_new(&b, n, 0, err);
    if (!st)
        st = tk_builder_reserve(b, n * (n - 1) / 2, err);
    for (u = 0; !st && u < n; u++)
        for (v = u + 1; !st && v < n; v++)
            st = tk_builder_add(b, u, v, err);
    if (st) {
        tk_builder_free(b);
        return st;
    }
    return tkg_finish(b, g, err, "complete n=%" PRId64, n);
}

/* Ring (cycle) C_n: i - (i+1) mod n.  Errors: TK_ERANGE (n < 3), TK_ELIMIT.
 * Time and memory O(n). */
tk_status_t tk_gen_ring(int64_t n, tk_graph_t **g, tk_error_t *err)
{
    tk_builder_t *b = NULL;
    char what[40];
    int64_t u;
    tk_status_t st;

    if (n < 3)
        return tk_error_set(err, TK_ERANGE, NULL, 0, "n=%" PRId64 ": must be at least 3", n);
    snprintf(what, sizeof what, "n=%" PRId64, n);
    st = tkg_check_size(what, n, tkg_mul(n, 2), 0, 0, err);
    if (!st)
        st = tk_builder_new(&b, n, 0, err);
    if (!st)
        st = tk_builder_reserve(b, n, err);
    for (u = 0; !st && u < n; u++)
        st = tk_builder_add(b, u, (u + 1) % n, err);
    if (st) {
        tk_builder_free(b);
        return st;
    }
    return tkg_finish(b, g, err, "ring n=%" PRId64, n);
}

/* Hypercube Q_k: 2^k switches, u - u xor 2^j; coordinates are the k bits
 * (bit j = coordinate j).  Errors: TK_ERANGE (dim < 1), TK_ELIMIT.
 * Time and memory O(k 2^k). */
tk_status_t tk_gen_hypercube(int64_t dim, tk_graph_t **g, tk_error_t *err)
{
    tk_builder_t *b = NULL;
    char what[40];
    int32_t coord[64];
    int64_t u, n;
    int j;
    tk_status_t st;

    if (dim < 1)
        return tk_error_set(err, TK_ERANGE, NULL, 0, "dim=%" PRId64 ": must be at least 1", dim);
    snprintf(what, sizeof what, "dim=%" PRId64, dim);
    n = dim < 62 ? (int64_t)1 << dim : -1;
    st = tkg_check_size(what, n, tkg_mul(n, dim), 0, 0, err);
    if (!st)
        st = tk_builder_new(&b, n, 0, err);
    if (!st)
        st = tk_builder_reserve(b, n * dim / 2, err);
    if (!st)
        st = tk_builder_set_ncoord(b, (int)dim, err);
    for (u = 0; !st && u < n; u++) {
        for (j = 0; j < dim; j++) {
            int64_t v = u ^ ((int64_t)1 << j);
            coord[j] = (int32_t)((u >> j) & 1);
            if (v > u && !st)
                st = tk_builder_add(b, u, v, err);
        }
        if (!st)
            st = tk_builder_set_coord(b, u, coord, err);
    }
    if (st) {
        tk_builder_free(b);
        return st;
    }
    return tkg_finish(b, g, err, "hypercube dim=%" PRId64, dim);
}

tk_status_t tkg_build_complete(tk_kv_t *kv, const tk_gen_opts_t *o, tk_graph_t **g, tk_error_t *err)
{
    int64_t n;
    char what[40];
    tk_status_t st = tk_kv_int(kv, "n", 1, INT64_MAX, 0, 0, &n, err);

    if (!st)
        st = tk_kv_check_unused(kv, "complete", err);
    if (st)
        return st;
    snprintf(what, sizeof what, "n=%" PRId64, n);
    st = tkg_check_size(what, n, tkg_mul(n, n - 1), 0, o->mem_limit, err);
    return st ? st : tk_gen_complete(n, g, err);
}

tk_status_t tkg_build_ring(tk_kv_t *kv, const tk_gen_opts_t *o, tk_graph_t **g, tk_error_t *err)
{
    int64_t n;
    char what[40];
    tk_status_t st = tk_kv_int(kv, "n", 3, INT64_MAX, 0, 0, &n, err);

    if (!st)
        st = tk_kv_check_unused(kv, "ring", err);
    if (st)
        return st;
    snprintf(what, sizeof what, "n=%" PRId64, n);
    st = tkg_check_size(what, n, tkg_mul(n, 2), 0, o->mem_limit, err);
    return st ? st : tk_gen_ring(n, g, err);
}

tk_status_t tkg_build_hypercube(tk_kv_t *kv, const tk_gen_opts_t *o, tk_graph_t **g,
                                tk_error_t *err)
{
    int64_t dim, n;
    char what[40];
    tk_status_t st = tk_kv_int(kv, "dim", 1, INT64_MAX, 0, 0, &dim, err);

    if (!st)
        st = tk_kv_check_unused(kv, "hypercube", err);
    if (st)
        return st;
    snprintf(what, sizeof what, "dim=%" PRId64, dim);
    n = dim < 62 ? (int64_t)1 << dim : -1;
    st = tkg_check_size(what, n, tkg_mul(n, dim), 4 * (uint64_t)(n > 0 ? n : 0) * (uint64_t)dim,
                        o->mem_limit, err);
    return st ? st : tk_gen_hypercube(dim, g, err);
}
