/*
 * grid.c - tori, meshes and HyperX (Hamming) graphs.
 *
 * Switch numbering (all three): switch id = x_0 + s_0*(x_1 + s_1*(x_2 + ...))
 * for coordinates 0 <= x_k < s_k, the first dimension varying fastest.  The
 * coordinates are stored with the graph (ncoord = number of dimensions).
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_internal.h"

enum { KIND_MESH, KIND_TORUS, KIND_HYPERX };

static const char *const kind_name[] = {"mesh", "torus", "hyperx"};

/* "sides=4,4,2" into buf for messages and specs. */
static const char *sides_str(const int64_t *s, int nd, char *buf, size_t len)
{
    size_t pos = (size_t)snprintf(buf, len, "sides=");
    int k;

    for (k = 0; k < nd && pos < len; k++)
        pos += (size_t)snprintf(buf + pos, len - pos, "%s%" PRId64, k ? "," : "", s[k]);
    return buf;
}

/* Switch and arc counts, -1 on overflow. */
static void grid_size(const int64_t *s, int nd, int kind, int64_t *n, int64_t *arcs)
{
    int64_t nn = 1, deg = 0, a = 0;
    int k;

    for (k = 0; k < nd; k++)
        nn = nn < 0 ? -1 : tkg_mul(nn, s[k]);
    *n = nn;
    if (nn < 0) {
        *arcs = -1;
        return;
    }
    for (k = 0; k < nd; k++) {
        if (kind == KIND_TORUS) {
            deg += 2;
        } else if (kind == KIND_HYPERX) {
            deg += s[k] - 1;
        } else {
            /* Mesh: 2 (s-1) n / s arcs along dimension k. */
            int64_t t = tkg_mul(nn / s[k], 2 * (s[k] - 1));
            a = (a < 0 || t < 0 || a > INT64_MAX - t) ? -1 : a + t;
        }
    }
    *arcs = kind == KIND_MESH ? a : tkg_mul(nn, deg);
}

/* Check the sides; TK_ERANGE naming the first bad side. */
static tk_status_t check_sides(const int64_t *s, int nd, int kind, tk_error_t *err)
{
    int64_t min = kind == KIND_TORUS ? 2 : 1;
    char buf[1024];
    int k;

    if (nd < 1 || nd > TKG_MAX_DIMS)
        return tk_error_set(err, TK_ERANGE, NULL, 0, "sides: 1 to %d dimensions (got %d)",
                            TKG_MAX_DIMS, nd);
    for (k = 0; k < nd; k++)
        if (s[k] < min)
            return tk_error_set(err, TK_ERANGE, NULL, 0,
                                "%s: %" PRId64 " must be at least %" PRId64,
                                sides_str(s, nd, buf, sizeof buf), s[k], min);
    return TK_OK;
}

static tk_status_t gen_grid(const int64_t *s, int nd, int kind, tk_graph_t **g, tk_error_t *err)
{
    tk_builder_t *b = NULL;
    int64_t n, arcs, u, stride[TKG_MAX_DIMS];
    int32_t x[TKG_MAX_DIMS];
    char buf[1024];
    tk_status_t st;
    int k;

    st = check_sides(s, nd, kind, err);
    if (st)
        return st;
    sides_str(s, nd, buf, sizeof buf);
    grid_size(s, nd, kind, &n, &arcs);
    st = tkg_check_size(buf, n, arcs, 0, 0, err);
    if (!st)
        st = tk_builder_new(&b, n, 0, err);
    if (!st)
        st = tk_builder_reserve(b, arcs / 2, err);
    if (!st)
        st = tk_builder_set_ncoord(b, nd, err);
    if (st)
        goto fail;
    for (k = 0; k < nd; k++) {
        stride[k] = k ? stride[k - 1] * s[k - 1] : 1;
        x[k] = 0;
    }
    for (u = 0; u < n; u++) {
        /* x holds the coordinates of u. */
        for (k = 0; k < nd; k++) {
            int64_t y;
            if (kind == KIND_HYPERX) {
                for (y = x[k] + 1; y < s[k] && !st; y++)
                    st = tk_builder_add(b, u, u + (y - x[k]) * stride[k], err);
            } else if (x[k] + 1 < s[k]) {
                st = tk_builder_add(b, u, u + stride[k], err);
            } else if (kind == KIND_TORUS) {
                /* Wrap-around link; with side 2 it parallels the +1 link. */
                st = tk_builder_add(b, u, u - (s[k] - 1) * stride[k], err);
            }
            if (st)
                goto fail;
        }
        st = tk_builder_set_coord(b, u, x, err);
        if (st)
            goto fail;
        for (k = 0; k < nd; k++) {
            if (++x[k] < s[k])
                break;
            x[k] = 0;
        }
    }
    return tkg_finish(b, g, err, "%s %s", kind_name[kind], buf);
fail:
    tk_builder_free(b);
    return st;
}

/* Torus (wrap = 1, every side >= 2) or mesh (wrap = 0, every side >= 1).
 * Each switch has a link to its +1 neighbour along every dimension, and the
 * torus adds the wrap-around link from x_k = s_k - 1 to x_k = 0; so a side
 * of 2 gives two parallel links and the torus is 2*ndims-regular.  Errors:
 * TK_ERANGE (bad side or dimension count), TK_ELIMIT.  Time and memory
 * O(n * ndims). */
tk_status_t tk_gen_grid(const int64_t *sides, int ndims, int wrap, tk_graph_t **g, tk_error_t *err)
{
    return gen_grid(sides, ndims, wrap ? KIND_TORUS : KIND_MESH, g, err);
}

/* HyperX / Hamming graph: switches differing in exactly one coordinate are
 * linked; degree sum(s_k - 1).  Every side >= 1.  Errors as tk_gen_grid.
 * Time and memory O(n * sum(s_k)). */
tk_status_t tk_gen_hyperx(const int64_t *sides, int ndims, tk_graph_t **g, tk_error_t *err)
{
    return gen_grid(sides, ndims, KIND_HYPERX, g, err);
}

static tk_status_t build(tk_kv_t *kv, const tk_gen_opts_t *o, int kind, tk_graph_t **g,
                         tk_error_t *err)
{
    int64_t *s = NULL, n, arcs, p = 1;
    int nd = 0;
    char buf[1024];
    tk_status_t st;

    st = tk_kv_int_list(kv, "sides", kind == KIND_TORUS ? 2 : 1, INT64_MAX, TKG_MAX_DIMS, &s, &nd,
                        err);
    /* HyperX: p=P servers per switch (default 1; -p overrides). */
    if (!st && kind == KIND_HYPERX)
        st = tk_kv_int(kv, "p", 0, INT32_MAX, 1, 1, &p, err);
    if (!st)
        st = tk_kv_check_unused(kv, kind_name[kind], err);
    if (st)
        goto done;
    grid_size(s, nd, kind, &n, &arcs);
    st = tkg_check_size(sides_str(s, nd, buf, sizeof buf), n, arcs,
                        n > 0 ? 4 * (uint64_t)n * (uint64_t)nd : 0, o->mem_limit, err);
    if (!st)
        st = gen_grid(s, nd, kind, g, err);
    if (!st)
        (*g)->servers_uniform = (int32_t)p;
done:
    free(s);
    return st;
}

tk_status_t tkg_build_torus(tk_kv_t *kv, const tk_gen_opts_t *o, tk_graph_t **g, tk_error_t *err)
{
    return build(kv, o, KIND_TORUS, g, err);
}

tk_status_t tkg_build_mesh(tk_kv_t *kv, const tk_gen_opts_t *o, tk_graph_t **g, tk_error_t *err)
{
    return build(kv, o, KIND_MESH, g, err);
}

tk_status_t tkg_build_hyperx(tk_kv_t *kv, const tk_gen_opts_t *o, tk_graph_t **g, tk_error_t *err)
{
    return build(kv, o, KIND_HYPERX, g, err);
}
