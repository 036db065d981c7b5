/*
 * dragonfly.c - the Dragonfly structure both Dragonfly models share, and
 * dragonfly-min.  The models need per-switch groups and a link class named
 * "global" (the Dragonflies of topo-gen have both).  A *local* arc joins
 * two switches of one group and is not of class global; a *local path*
 * uses local arcs only.
 *
 *   dragonfly-min (local-global-local)
 *     s, t in one group: the shortest local s->t paths, uniform.
 *     s in group A, t in group B != A: one global arc u->v from A to B
 *     chosen uniformly among all of them (trunking gives several), then a
 *     shortest local s->u path and a shortest local v->t path, each uniform
 *     among its kind.  Path weight 1/(k n1 n2) for k global arcs A->B and
 *     n1, n2 local paths.  In a canonical Dragonfly (complete groups) every
 *     local segment is unique, so this is also uniform over the lgl paths.
 *   dragonfly-valiant: dfvaliant.c.
 *
 * Preparation (tk_router_new): groups renumbered 0..G-1 in increasing id
 * order, members sorted, all-pairs local hop distances per group (sum of
 * a_g^2 entries), and the global arcs bucketed by (source group,
 * destination group) (G^2 + 1 offsets, refused above 2^26).  Every group
 * must be locally connected and every ordered pair of groups joined by a
 * global arc, else TK_EUNSUPPORTED.  No all-pairs table: every distance
 * the models use is local.
 */
#include <config.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "route/dragonfly_internal.h"

/* ------------------------------------------------------------------------ */
/* Preparation.                                                             */

typedef struct {
    int32_t gid;
    tk_id_t v;
} gv_t;

static int gvcmp(const void *a, const void *b)
{
    const gv_t *x = a, *y = b;
    if (x->gid != y->gid)
        return x->gid < y->gid ? -1 : 1;
    return (x->v > y->v) - (x->v < y->v);
}

static tk_status_t nomem(const tk_graph_t *g, tk_error_t *err)
{
    return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (n=%" PRId32 ")", g->n);
}

/* Groups renumbered by increasing id, their members sorted. */
static tk_status_t number_groups(const tk_graph_t *g, rt_groups_t *df, tk_error_t *err)
{
    tk_id_t n = g->n;
    int32_t G = 0;
    gv_t *gv = tk_malloc_array((size_t)n, sizeof *gv);
    df->gof = tk_malloc_array((size_t)n, sizeof *df->gof);
    df->gmem = tk_malloc_array((size_t)n, sizeof *df->gmem);
    df->lidx = tk_malloc_array((size_t)n, sizeof *df->lidx);
    df->gstart = tk_malloc_array((size_t)n + 1, sizeof *df->gstart);
    if (!gv || !df->gof || !df->gmem || !df->lidx || !df->gstart) {
        free(gv);
        return nomem(g, err);
    }
    for (tk_id_t v = 0; v < n; v++) {
        gv[v].gid = g->group[v];
        gv[v].v = v;
    }
    qsort(gv, (size_t)n, sizeof *gv, gvcmp);
    for (tk_id_t i = 0; i < n; i++) {
        if (i == 0 || gv[i].gid != gv[i - 1].gid)
            df->gstart[G++] = i;
        df->gmem[i] = gv[i].v;
        df->gof[gv[i].v] = G - 1;
        df->lidx[gv[i].v] = i - df->gstart[G - 1];
    }
    df->gstart[G] = n;
    df->ngroups = G;
    free(gv);
    return TK_OK;
}

/* BFS over local arcs from member i of group gi into its row of ldist;
 * TK_EUNSUPPORTED when some member is not reached. */
static tk_status_t local_row(const tk_router_t *r, int32_t gi, int64_t i, tk_id_t *q,
                             tk_error_t *err)
{
    const tk_graph_t *g = r->g;
    const rt_groups_t *df = r->df;
    int64_t a = df->gstart[gi + 1] - df->gstart[gi];
    int32_t *row = df->ldist + df->ldoff[gi] + i * a; /* d(member i, .) */
    tk_id_t src = df->gmem[df->gstart[gi] + i], qh = 0, qt = 0;
    for (int64_t j = 0; j < a; j++)
        row[j] = TK_INF;
    row[i] = 0;
    q[qt++] = src;
    while (qh < qt) {
        tk_id_t u = q[qh++];
        for (int64_t e = g->off[u]; e < g->off[u + 1]; e++) {
            tk_id_t v = g->head[e];
            if (rt_df_local(r, e, u) && row[df->lidx[v]] == TK_INF) {
                row[df->lidx[v]] = row[df->lidx[u]] + 1;
                q[qt++] = v;
            }
        }
    }
    for (int64_t j = 0; j < a; j++)
        if (row[j] == TK_INF)
            return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                                "%s: group %" PRId32 " is not connected by local links "
                                "(switches %" PRId32 " and %" PRId32 ")",
                                r->spec.text, g->group[src], src, df->gmem[df->gstart[gi] + j]);
    return TK_OK;
}

/* All-pairs local hop distances of every group. */
static tk_status_t local_distances(const tk_router_t *r, tk_error_t *err)
{
    const tk_graph_t *g = r->g;
    rt_groups_t *df = r->df;
    int32_t G = df->ngroups;
    tk_status_t st = TK_OK;
    df->ldoff = tk_malloc_array((size_t)G, sizeof *df->ldoff);
    if (!df->ldoff)
        return nomem(g, err);
    int64_t tot = 0;
    for (int32_t i = 0; i < G; i++) {
        int64_t a = df->gstart[i + 1] - df->gstart[i];
        df->ldoff[i] = tot;
        tot += a * a;
    }
    df->ldist = tk_malloc_array((size_t)tot, sizeof *df->ldist);
    tk_id_t *q = tk_malloc_array((size_t)g->n, sizeof *q);
    if (!df->ldist || !q) {
        free(q);
        return nomem(g, err);
    }
    for (int32_t gi = 0; gi < G && st == TK_OK; gi++)
        for (int64_t i = 0; i < df->gstart[gi + 1] - df->gstart[gi] && st == TK_OK; i++)
            st = local_row(r, gi, i, q, err);
    free(q);
    return st;
}

static int is_global(const tk_graph_t *g, const rt_groups_t *df, tk_id_t u, int64_t e)
{
    return g->cls && (int)g->cls[e] == df->global_cls && df->gof[g->head[e]] != df->gof[u];
}

/* The global arcs bucketed by (source group, destination group). */
static tk_status_t global_arcs(const tk_router_t *r, tk_error_t *err)
{
    const tk_graph_t *g = r->g;
    rt_groups_t *df = r->df;
    int64_t G = df->ngroups, ng = 0;
    df->gaoff = tk_calloc_array((size_t)(G * G) + 1, sizeof *df->gaoff);
    if (!df->gaoff)
        return nomem(g, err);
    for (tk_id_t u = 0; u < g->n; u++)
        for (int64_t e = g->off[u]; e < g->off[u + 1]; e++)
            if (is_global(g, df, u, e)) {
                df->gaoff[(int64_t)df->gof[u] * G + df->gof[g->head[e]] + 1]++;
                ng++;
            }
    for (int64_t i = 0; i < G * G; i++)
        df->gaoff[i + 1] += df->gaoff[i];
    df->garc = tk_malloc_array((size_t)ng + 1, sizeof *df->garc);
    int64_t *fill = tk_malloc_array((size_t)(G * G) + 1, sizeof *fill);
    if (!df->garc || !fill) {
        free(fill);
        return nomem(g, err);
    }
    memcpy(fill, df->gaoff, (size_t)(G * G) * sizeof *fill);
    for (tk_id_t u = 0; u < g->n; u++)
        for (int64_t e = g->off[u]; e < g->off[u + 1]; e++)
            if (is_global(g, df, u, e))
                df->garc[fill[(int64_t)df->gof[u] * G + df->gof[g->head[e]]]++] = e;
    free(fill);
    for (int64_t i = 0; i < G; i++)
        for (int64_t j = 0; j < G; j++)
            if (i != j && df->gaoff[i * G + j] == df->gaoff[i * G + j + 1])
                return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                                    "%s: no global link from group %" PRId32 " to group %" PRId32
                                    " (the Dragonfly models need every pair of groups joined; "
                                    "min and ksp route any connected topology)",
                                    r->spec.text, g->group[df->gmem[df->gstart[i]]],
                                    g->group[df->gmem[df->gstart[j]]]);
    return TK_OK;
}

tk_status_t rt_dragonfly_prepare(tk_router_t *r, int threads, tk_error_t *err)
{
    const tk_graph_t *g = r->g;
    const char *model = r->spec.text;
    tk_status_t st;
    (void)threads;

    if (!g->group)
        return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                            "%s: the graph has no groups (needs a Dragonfly-like topology)", model);
    int global_cls = tk_graph_class_index(g, "global");
    if (global_cls < 0)
        return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                            "%s: the graph has no link class 'global'", model);
    if (g->directed)
        return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0, "%s: the graph is directed", model);
    r->df = calloc(1, sizeof *r->df);
    if (!r->df)
        return nomem(g, err);
    r->df->global_cls = global_cls;
    if ((st = number_groups(g, r->df, err)) != TK_OK)
        return st;
    int64_t G = r->df->ngroups;
    if (G * G > ((int64_t)1 << 26))
        return tk_error_set(err, TK_ELIMIT, NULL, 0, "%s: %" PRId64 " groups is too many", model,
                            G);
    if ((st = local_distances(r, err)) != TK_OK)
        return st;
    return global_arcs(r, err);
}

/* ------------------------------------------------------------------------ */
/* dragonfly-min.                                                           */

/* Shortest local paths u -> v (same group), lexicographic, uniform. */
static tk_status_t local_paths(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t u, tk_id_t v,
                               tk_pathset_t *out, tk_error_t *err)
{
    const tk_graph_t *g = r->g;
    int64_t depth = 0;
    tk_status_t st;

    rt_ps_clear(out);
    ws->stk[0] = u;
    ws->sarc[0] = g->off[u];
    while (depth >= 0) {
        tk_id_t x = ws->stk[depth];
        if (x == v) {
            if ((st = rt_ps_push(out, ws->path, depth, 1.0, err)) != TK_OK)
                return st;
            depth--;
            continue;
        }
        int64_t a = ws->sarc[depth], end = g->off[x + 1];
        int32_t dx = rt_df_ld(r, x, v);
        for (; a < end; a++)
            if (rt_df_local(r, a, x) && rt_df_ld(r, g->head[a], v) == dx - 1)
                break;
        if (a == end) {
            depth--;
            continue;
        }
        ws->sarc[depth] = a + 1;
        ws->path[depth] = a;
        depth++;
        ws->stk[depth] = g->head[a];
        ws->sarc[depth] = g->off[g->head[a]];
    }
    for (int64_t i = 0; i < out->npaths; i++)
        out->w[i] = 1.0 / (double)out->npaths;
    return TK_OK;
}

/* The lgl paths of s -> t through global arc ga (weights times wk). */
static tk_status_t via_global(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s, tk_id_t t,
                              int64_t ga, double wk, tk_pathset_t *out, tk_error_t *err)
{
    const tk_graph_t *g = r->g;
    tk_id_t u = g->head[g->rev[ga]], v = g->head[ga]; /* ga = u -> v */
    tk_status_t st;
    if ((st = local_paths(r, ws, s, u, &ws->lp1, err)) != TK_OK)
        return st;
    if ((st = local_paths(r, ws, v, t, &ws->lp2, err)) != TK_OK)
        return st;
    for (int64_t i = 0; i < ws->lp1.npaths; i++) {
        int64_t l1 = ws->lp1.off[i + 1] - ws->lp1.off[i];
        memcpy(ws->path, ws->lp1.arc + ws->lp1.off[i], (size_t)l1 * sizeof *ws->path);
        ws->path[l1] = ga;
        for (int64_t j = 0; j < ws->lp2.npaths; j++) {
            int64_t l2 = ws->lp2.off[j + 1] - ws->lp2.off[j];
            memcpy(ws->path + l1 + 1, ws->lp2.arc + ws->lp2.off[j], (size_t)l2 * sizeof *ws->path);
            st = rt_ps_push(out, ws->path, l1 + 1 + l2, wk * ws->lp1.w[i] * ws->lp2.w[j], err);
            if (st)
                return st;
        }
    }
    return TK_OK;
}

tk_status_t rt_dfmin(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s, tk_id_t t, double scale,
                     tk_pathset_t *out, tk_error_t *err)
{
    const rt_groups_t *df = r->df;
    int32_t A = df->gof[s], B = df->gof[t];
    tk_status_t st;

    if (s == t)
        return rt_ps_push(out, NULL, 0, scale, err);
    if (A == B) {
        if ((st = local_paths(r, ws, s, t, &ws->lp1, err)) != TK_OK)
            return st;
        return rt_ps_append(out, &ws->lp1, scale, err);
    }
    int64_t b0 = df->gaoff[(int64_t)A * df->ngroups + B];
    int64_t b1 = df->gaoff[(int64_t)A * df->ngroups + B + 1];
    double wk = scale / (double)(b1 - b0);
    for (int64_t k = b0; k < b1; k++)
        if ((st = via_global(r, ws, s, t, df->garc[k], wk, out, err)) != TK_OK)
            return st;
    return TK_OK;
}

tk_status_t rt_dfmin_paths(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s, tk_id_t t,
                           uint64_t max_paths, tk_pathset_t *out, tk_error_t *err)
{
    tk_status_t st = rt_dfmin(r, ws, s, t, 1.0, out, err);
    if (st)
        return st;
    /* the lgl paths of different global arcs differ: sort for a
     * deterministic lexicographic order */
    if ((st = rt_ps_sort(out, 0, err)) != TK_OK)
        return st;
    return rt_ps_check_max(s, t, max_paths, out, err);
}

const rt_model_t rt_model_dfmin = {
    .kind = TK_ROUTE_DF_MIN,
    .name = "dragonfly-min",
    .opts = 0,
    .table = RT_TABLE_NONE,
    .prepare = rt_dragonfly_prepare,
    .paths = rt_dfmin_paths,
};
