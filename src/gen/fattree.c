/*
 * fattree.c - folded Clos networks (fat-trees) of k-port switches; an
 * indirect network: only the leaf (edge) switches carry servers.
 *
 * levels=3 (the k-ary fat-tree, k even): k pods of k/2 edge and k/2
 *   aggregation switches, (k/2)^2 core switches.  Edge switch e of pod j is
 *   id j*k/2 + e; aggregation switch i of pod j is k^2/2 + j*k/2 + i; core
 *   switch c is k^2 + c.  Inside a pod every edge switch links to every
 *   aggregation switch (class "pod"); aggregation switch i of every pod links
 *   to the cores i*k/2 .. i*k/2 + k/2 - 1 (class "core").  5k^2/4 switches,
 *   k^3/4 servers (k/2 per edge switch), k^3/2 links.  Groups: the pod, and
 *   k for the cores.  Coordinates (level, pod or -1, index).
 * levels=2 (leaf-spine): k leaves (ids 0..k-1) with k/2 servers, k/2 spines
 *   (ids k..3k/2-1); every leaf links to every spine (class "pod").
 *   3k/2 switches, k^2/2 servers, k^2/2 links.
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "gen_internal.h"

/* levels=2: every leaf to every spine (class cp), with the coordinates. */
static tk_status_t leaf_spine(tk_builder_t *b, int64_t k, int cp, tk_error_t *err)
{
    int64_t h = k / 2;
    tk_status_t st = TK_OK;

    for (int64_t e = 0; e < k && !st; e++) {
        int32_t x[3] = {0, -1, (int32_t)e};
        st = tk_builder_set_coord(b, e, x, err);
        for (int64_t i = 0; i < h && !st; i++)
            st = tk_builder_add_ex(b, e, k + i, cp, 1.0, err);
    }
    for (int64_t i = 0; i < h && !st; i++) {
        int32_t x[3] = {1, -1, (int32_t)i};
        st = tk_builder_set_coord(b, k + i, x, err);
    }
    return st;
}

/* levels=3: the pods (class cp inside, cc to the cores) and the cores,
 * with groups and coordinates. */
static tk_status_t three_levels(tk_builder_t *b, int64_t k, int cp, int cc, tk_error_t *err)
{
    int64_t h = k / 2;
    tk_status_t st = TK_OK;

    for (int64_t j = 0; j < k && !st; j++)
        for (int64_t e = 0; e < h && !st; e++) {
            int64_t edge = j * h + e, agg = k * h + j * h + e;
            int32_t xe[3] = {0, (int32_t)j, (int32_t)e}, xa[3] = {1, (int32_t)j, (int32_t)e};
            st = tk_builder_set_coord(b, edge, xe, err);
            if (!st)
                st = tk_builder_set_coord(b, agg, xa, err);
            if (!st)
                st = tk_builder_set_group(b, edge, (int32_t)j, err);
            if (!st)
                st = tk_builder_set_group(b, agg, (int32_t)j, err);
            for (int64_t i = 0; i < h && !st; i++)
                st = tk_builder_add_ex(b, edge, k * h + j * h + i, cp, 1.0, err);
            /* aggregation switch e of pod j -> cores e*h .. e*h+h-1 */
            for (int64_t c = 0; c < h && !st; c++)
                st = tk_builder_add_ex(b, agg, k * k + e * h + c, cc, 1.0, err);
        }
    for (int64_t c = 0; c < h * h && !st; c++) {
        int32_t x[3] = {2, -1, (int32_t)c};
        st = tk_builder_set_coord(b, k * k + c, x, err);
        if (!st)
            st = tk_builder_set_group(b, k * k + c, (int32_t)k, err);
    }
    return st;
}

/* Fat-tree of k-port switches with `levels` levels (2 or 3), p servers per
 * leaf (p < 0: k/2).  Errors: TK_ERANGE (k odd or < 2, bad levels),
 * TK_ELIMIT, TK_ENOMEM.  Time and memory O(k^3). */
tk_status_t tk_gen_fattree(int64_t k, int levels, int64_t p, uint64_t mem_limit, tk_graph_t **out,
                           tk_error_t *err)
{
    tk_builder_t *b = NULL;
    int64_t h, n, links, nleaf, e;
    int cp, cc;
    char what[64];
    tk_status_t st;

    if (k < 2 || k % 2)
        return tk_error_set(err, TK_ERANGE, NULL, 0, "k=%" PRId64 ": must be even and at least 2",
                            k);
    if (levels != 2 && levels != 3)
        return tk_error_set(err, TK_ERANGE, NULL, 0, "levels=%d: must be 2 or 3", levels);
    if (k > 100000) /* 5k^2/4 switches would exceed the 32-bit ids anyway */
        return tk_error_set(err, TK_ELIMIT, NULL, 0, "k=%" PRId64 ": too large", k);
    h = k / 2;
    if (p < 0)
        p = h;
    if (p > INT32_MAX)
        return tk_error_set(err, TK_ERANGE, NULL, 0, "p=%" PRId64 ": too large", p);
    n = levels == 3 ? 5 * k * k / 4 : 3 * h;
    nleaf = levels == 3 ? k * h : k;
    links = levels == 3 ? k * k * h : k * h;
    snprintf(what, sizeof what, "k=%" PRId64 " levels=%d", k, levels);
    st = tkg_check_size(what, n, 2 * links, 20 * (uint64_t)n, mem_limit, err);
    if (!st)
        st = tk_builder_new(&b, n, 0, err);
    if (!st)
        st = tk_builder_reserve(b, links, err);
    if (!st)
        st = tk_builder_class(b, "pod", &cp, err);
    if (!st && levels == 3)
        st = tk_builder_class(b, "core", &cc, err);
    if (!st)
        st = tk_builder_set_servers_uniform(b, 0, err);
    if (!st)
        st = tk_builder_set_ncoord(b, 3, err);
    for (e = 0; e < nleaf && !st; e++)
        st = tk_builder_set_servers(b, e, (int32_t)p, err);
    if (!st)
        st = levels == 2 ? leaf_spine(b, k, cp, err) : three_levels(b, k, cp, cc, err);
    if (st) {
        tk_builder_free(b);
        return st;
    }
    return tkg_finish(b, out, err, "fattree k=%" PRId64 " levels=%d", k, levels);
}

tk_status_t tkg_build_fattree(tk_kv_t *kv, const tk_gen_opts_t *o, tk_graph_t **g, tk_error_t *err)
{
    int64_t k, levels;
    tk_status_t st = tk_kv_int(kv, "k", 2, INT32_MAX, 0, 0, &k, err);

    if (!st)
        st = tk_kv_int(kv, "levels", 2, 3, 1, 3, &levels, err);
    if (!st && !tk_kv_has(kv, "levels"))
        st = tkg_kv_add(kv, "levels", "3", err);
    return st ? st
              : tk_gen_fattree(k, (int)levels, o->servers_given ? o->servers : -1, o->mem_limit, g,
                               err);
}
