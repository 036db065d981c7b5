/*
 * candidates.c - candidate routes for adaptive routing (tk_route.h,
 * tk_route_candidates): the structure, its groups, and the hop count per
 * link class of every candidate path.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "route/route_internal.h"

void tk_route_cands_init(tk_route_cands_t *c)
{
    memset(c, 0, sizeof *c);
    tk_pathset_init(&c->min);
    tk_pathset_init(&c->nonmin);
}

void tk_route_cands_destroy(tk_route_cands_t *c)
{
    if (!c)
        return;
    tk_pathset_destroy(&c->min);
    tk_pathset_destroy(&c->nonmin);
    free(c->gvia);
    free(c->goff);
    free(c->gw);
    free(c->min_hops);
    free(c->nonmin_hops);
    memset(c, 0, sizeof *c);
}

/* Open group `via` (probability w) at the end of the non-minimal paths:
 * the paths pushed to out->nonmin from now on until the next group or
 * rt_cands_finish are its paths. */
tk_status_t rt_cands_add_group(tk_route_cands_t *out, tk_id_t via, double w, tk_error_t *err)
{
    if (out->ngroups + 1 >= out->cap_groups) {
        int64_t c = out->cap_groups ? 2 * out->cap_groups : 64;
        tk_id_t *v = tk_realloc_array(out->gvia, (size_t)c, sizeof *v);
        if (v)
            out->gvia = v;
        int64_t *o = tk_realloc_array(out->goff, (size_t)c + 1, sizeof *o);
        if (o)
            out->goff = o;
        double *gw = tk_realloc_array(out->gw, (size_t)c, sizeof *gw);
        if (gw)
            out->gw = gw;
        if (!v || !o || !gw)
            return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (candidates)");
        out->cap_groups = c;
    }
    out->gvia[out->ngroups] = via;
    out->goff[out->ngroups] = out->nonmin.npaths;
    out->gw[out->ngroups] = w;
    out->ngroups++;
    return TK_OK;
}

/* hops[i * nc + c] = the class-c arcs of path i of ps. */
static tk_status_t class_hops(const tk_graph_t *g, const tk_pathset_t *ps, int nc, int32_t **hops,
                              int64_t *cap, tk_error_t *err)
{
    size_t need = (size_t)ps->npaths * (size_t)nc;
    if ((int64_t)need > *cap || !*hops) {
        int32_t *h = tk_realloc_array(*hops, need + 1, sizeof *h);
        if (!h)
            return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (candidates)");
        *hops = h;
        *cap = (int64_t)need;
    }
    memset(*hops, 0, need * sizeof **hops);
    for (int64_t i = 0; i < ps->npaths; i++)
        for (int64_t k = ps->off[i]; k < ps->off[i + 1]; k++)
            (*hops)[i * nc + (g->cls ? g->cls[ps->arc[k]] : 0)]++;
    return TK_OK;
}

/* Close the last group and count the hops per class. */
tk_status_t rt_cands_finish(const tk_router_t *r, tk_route_cands_t *out, tk_error_t *err)
{
    const tk_graph_t *g = r->g;
    tk_status_t st;
    if (!out->goff) {
        out->goff = tk_malloc_array(1, sizeof *out->goff);
        if (!out->goff)
            return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (candidates)");
    }
    out->goff[out->ngroups] = out->nonmin.npaths;
    out->nclasses = g->nclasses < 1 ? 1 : g->nclasses;
    if ((st = class_hops(g, &out->min, out->nclasses, &out->min_hops, &out->cap_minh, err)) !=
        TK_OK)
        return st;
    return class_hops(g, &out->nonmin, out->nclasses, &out->nonmin_hops, &out->cap_nonminh, err);
}
