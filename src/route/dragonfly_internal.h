/*
 * dragonfly_internal.h - what dragonfly.c (the group structure,
 * dragonfly-min) shares with dfvaliant.c.  Not installed; hidden.
 */
#ifndef TK_DRAGONFLY_INTERNAL_H
#define TK_DRAGONFLY_INTERNAL_H

#include "route/route_internal.h"

/* Is arc a (tail u) local: inside one group, not global, not a loop? */
static inline int rt_df_local(const tk_router_t *r, int64_t a, tk_id_t u)
{
    const tk_graph_t *g = r->g;
    const rt_groups_t *df = r->df;
    tk_id_t v = g->head[a];
    return df->gof[u] == df->gof[v] && v != u && !(g->cls && (int)g->cls[a] == df->global_cls);
}

/* Local hop distance of u and v (same group). */
static inline int32_t rt_df_ld(const tk_router_t *r, tk_id_t u, tk_id_t v)
{
    const rt_groups_t *df = r->df;
    int32_t gi = df->gof[u];
    int32_t a = df->gstart[gi + 1] - df->gstart[gi];
    return df->ldist[df->ldoff[gi] + (int64_t)df->lidx[u] * a + df->lidx[v]];
}

/* Switches in group g. */
static inline int64_t rt_df_gsize(const rt_groups_t *df, int32_t g)
{
    return df->gstart[g + 1] - df->gstart[g];
}

/* The group structure of r->g (both models' prepare). */
tk_status_t rt_dragonfly_prepare(tk_router_t *r, int threads, tk_error_t *err);
/* dragonfly-min paths of s -> t appended to out in generation order,
 * weights times scale. */
tk_status_t rt_dfmin(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s, tk_id_t t, double scale,
                     tk_pathset_t *out, tk_error_t *err);
/* The dragonfly-min model's paths (sorted). */
tk_status_t rt_dfmin_paths(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s, tk_id_t t,
                           uint64_t max_paths, tk_pathset_t *out, tk_error_t *err);

#endif /* TK_DRAGONFLY_INTERNAL_H */
