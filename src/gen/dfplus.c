/*
 * dfplus.c - Dragonfly+ (Megafly): groups are complete bipartite leaf/spine
 * graphs; leaves carry the servers, spines the global links, arranged as in
 * dragonfly.c (the spines play the role of the Dragonfly's routers).
 *
 * Numbering: group j (0 <= j < g) has the switches j*(L+S) + i: leaves
 * i = 0 .. L-1, then spines i = L .. L+S-1.  Coordinates (group, level,
 * index): level 0 for leaves, 1 for spines.
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "gen_internal.h"

/* Dragonfly+ with L leaves and S spines per group, p servers per leaf, h
 * global links per spine, g groups.  Link classes "updown" (leaf-spine) and
 * "global".  Errors: TK_ERANGE (sizes, tkg_check_groups), TK_ELIMIT,
 * TK_ENOMEM.  Time and memory O(g*S*(L+h)). */
tk_status_t tk_gen_dfplus(int64_t L, int64_t S, int64_t p, int64_t h, int64_t g, int arrangement,
                          uint64_t seed, uint64_t mem_limit, tk_graph_t **out, tk_error_t *err)
{
    tk_builder_t *b = NULL;
    int64_t per, n, local, global, j, i, k;
    int cl, cg;
    char what[128];
    tk_status_t st;

    if (L < 1 || S < 1 || h < 1 || p < 0 || p > INT32_MAX)
        return tk_error_set(err, TK_ERANGE, NULL, 0, "%s: must be at least %d",
                            L < 1   ? "leaves"
                            : S < 1 ? "spines"
                            : h < 1 ? "h"
                                    : "p",
                            p < 0 ? 0 : 1);
    if (arrangement < 0 || arrangement > TKG_ARR_LAST)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "arrangement: unknown (%d)", arrangement);
    if (L > INT32_MAX || S > INT32_MAX || h > INT32_MAX || S * h > INT32_MAX)
        return tk_error_set(err, TK_ELIMIT, NULL, 0, "spines=%" PRId64 " h=%" PRId64 ": too large",
                            S, h);
    st = tkg_check_groups(g, S, h, "spines", err);
    if (st)
        return st;
    snprintf(what, sizeof what, "leaves=%" PRId64 " spines=%" PRId64 " h=%" PRId64 " g=%" PRId64, L,
             S, h, g);
    per = L + S;
    n = tkg_mul(per, g);
    local = tkg_mul(tkg_mul(L, S), g);
    global = tkg_mul(tkg_mul(S, h), g) < 0 ? -1 : S * h * g / 2;
    st = tkg_check_size(what, n, local < 0 || global < 0 ? -1 : 2 * (local + global),
                        n > 0 ? 20 * (uint64_t)n : 0, mem_limit, err);
    if (!st)
        st = tk_builder_new(&b, n, 0, err);
    if (!st)
        st = tk_builder_reserve(b, local + global, err);
    if (!st)
        st = tk_builder_class(b, "updown", &cl, err);
    if (!st)
        st = tk_builder_class(b, "global", &cg, err);
    if (!st)
        st = tk_builder_set_servers_uniform(b, 0, err);
    if (!st)
        st = tk_builder_set_ncoord(b, 3, err);
    for (j = 0; j < g && !st; j++)
        for (i = 0; i < per && !st; i++) {
            int64_t u = j * per + i;
            int32_t x[3] = {(int32_t)j, i < L ? 0 : 1, (int32_t)(i < L ? i : i - L)};
            st = tk_builder_set_group(b, u, (int32_t)j, err);
            if (!st)
                st = tk_builder_set_coord(b, u, x, err);
            if (!st && i < L)
                st = tk_builder_set_servers(b, u, (int32_t)p, err);
            for (k = L; i < L && k < per && !st; k++)
                st = tk_builder_add_ex(b, u, j * per + k, cl, 1.0, err);
        }
    if (!st)
        st = tkg_global_links(b, g, S, h, per, L, arrangement, seed, cg, err);
    if (st) {
        tk_builder_free(b);
        return st;
    }
    return tkg_finish(b, out, err,
                      "dragonfly+ leaves=%" PRId64 " spines=%" PRId64 " p=%" PRId64 " h=%" PRId64
                      " g=%" PRId64 " arrangement=%s s=%" PRIu64,
                      L, S, p, h, g, tkg_arrangement_name(arrangement), seed);
}

tk_status_t tkg_build_dfplus(tk_kv_t *kv, const tk_gen_opts_t *o, tk_graph_t **g, tk_error_t *err)
{
    int64_t L, S, p, h, ng;
    int arr;
    tk_status_t st;

    st = tk_kv_int(kv, "leaves", 1, INT32_MAX, 0, 0, &L, err);
    if (!st)
        st = tk_kv_int(kv, "spines", 1, INT32_MAX, 0, 0, &S, err);
    if (!st)
        st = tk_kv_int(kv, "p", 0, INT32_MAX, 1, S, &p, err);
    if (!st)
        st = tk_kv_int(kv, "h", 1, INT32_MAX, 1, L, &h, err);
    if (!st)
        st = tk_kv_int(kv, "g", 2, INT32_MAX, 1, S * h + 1, &ng, err);
    if (st)
        return st;
    /* defaulted keys go into the spec (tkg_kv_add keeps given ones) */
    if (o->servers_given)
        p = o->servers;
    else if ((st = tkg_kv_add_int(kv, "p", p, err)))
        return st;
    if ((st = tkg_kv_add_int(kv, "h", h, err)) || (st = tkg_kv_add_int(kv, "g", ng, err)))
        return st;
    st = tkg_arrangement(kv, &arr, err);
    if (st)
        return st;
    return tk_gen_dfplus(L, S, p, h, ng, arr, o->seed, o->mem_limit, g, err);
}
