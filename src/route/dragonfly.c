/*
 * dragonfly.c - Dragonfly routing (seeds 001, 004): needs per-switch groups
 * and a link class named "global".  A *local* arc joins two switches of one
 * group and is not of class global; a *local path* uses local arcs only.
 *
 *   dragonfly-min (local-global-local)
 *     s, t in one group: the shortest local s->t paths, uniform.
 *     s in group A, t in group B != A: one global arc u->v from A to B
 *     chosen uniformly among all of them (trunking gives several), then a
 *     shortest local s->u path and a shortest local v->t path, each uniform
 *     among its kind.  Path weight 1/(k n1 n2) for k global arcs A->B and
 *     n1, n2 local paths.  In a canonical Dragonfly (complete groups) every
 *     local segment is unique, so this is also uniform over the lgl paths.
 *   dragonfly-valiant
 *     an intermediate switch m drawn uniformly among the switches outside
 *     the groups of s and t, then dragonfly-min from s to m and from m to t
 *     (up to lgl-lgl, 6 hops); equal arc sequences merge.  With no switch
 *     outside those groups: dragonfly-min.
 *
 * Preparation (tk_router_new): groups renumbered 0..G-1 in increasing id
 * order, members sorted, all-pairs local hop distances per group (sum of
 * a_g^2 entries), and the global arcs bucketed by (source group,
 * destination group) (G^2 + 1 offsets, refused above 2^26).  Every group
 * must be locally connected and every ordered pair of groups joined by a
 * global arc, else TK_EUNSUPPORTED.
 */
#include <config.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "route_internal.h"

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

static inline int is_local(const tk_router_t *r, int64_t a, tk_id_t u)
{
    const tk_graph_t *g = r->g;
    tk_id_t v = g->head[a];
    return r->gof[u] == r->gof[v] && v != u && !(g->cls && (int)g->cls[a] == r->global_cls);
}

static inline int32_t ld(const tk_router_t *r, tk_id_t u, tk_id_t v)
{
    int32_t gi = r->gof[u];
    int32_t a = r->gstart[gi + 1] - r->gstart[gi];
    return r->ldist[r->ldoff[gi] + (int64_t)r->lidx[u] * a + r->lidx[v]];
}

tk_status_t rt_dragonfly_prepare(tk_router_t *r, tk_error_t *err)
{
    const tk_graph_t *g = r->g;
    tk_id_t n = g->n;
    const char *model = r->spec.text;
    gv_t *gv = NULL;
    tk_id_t *q = NULL;
    int32_t G = 0;

    if (!g->group)
        return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                            "%s: the graph has no groups (needs a Dragonfly-like topology)", model);
    if (r->global_cls < 0)
        return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                            "%s: the graph has no link class 'global'", model);
    if (g->directed)
        return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0, "%s: the graph is directed", model);
    gv = tk_malloc_array((size_t)n, sizeof *gv);
    r->gof = tk_malloc_array((size_t)n, sizeof *r->gof);
    r->gmem = tk_malloc_array((size_t)n, sizeof *r->gmem);
    r->lidx = tk_malloc_array((size_t)n, sizeof *r->lidx);
    r->gstart = tk_malloc_array((size_t)n + 1, sizeof *r->gstart);
    q = tk_malloc_array((size_t)n, sizeof *q);
    if (!gv || !r->gof || !r->gmem || !r->lidx || !r->gstart || !q)
        goto nomem;
    for (tk_id_t v = 0; v < n; v++) {
        gv[v].gid = g->group[v];
        gv[v].v = v;
    }
    qsort(gv, (size_t)n, sizeof *gv, gvcmp);
    for (tk_id_t i = 0; i < n; i++) {
        if (i == 0 || gv[i].gid != gv[i - 1].gid)
            r->gstart[G++] = i;
        r->gmem[i] = gv[i].v;
        r->gof[gv[i].v] = G - 1;
        r->lidx[gv[i].v] = i - r->gstart[G - 1];
    }
    r->gstart[G] = n;
    r->ngroups = G;
    free(gv);
    gv = NULL;
    if ((int64_t)G * G > ((int64_t)1 << 26)) {
        free(q);
        return tk_error_set(err, TK_ELIMIT, NULL, 0, "%s: %" PRId32 " groups is too many", model,
                            G);
    }
    /* local distances */
    r->ldoff = tk_malloc_array((size_t)G, sizeof *r->ldoff);
    if (!r->ldoff)
        goto nomem;
    int64_t tot = 0;
    for (int32_t i = 0; i < G; i++) {
        int64_t a = r->gstart[i + 1] - r->gstart[i];
        r->ldoff[i] = tot;
        tot += a * a;
    }
    r->ldist = tk_malloc_array((size_t)tot, sizeof *r->ldist);
    if (!r->ldist)
        goto nomem;
    for (int32_t gi = 0; gi < G; gi++) {
        int64_t a = r->gstart[gi + 1] - r->gstart[gi];
        for (int64_t i = 0; i < a; i++) {
            /* BFS from member i over local arcs, on the reversed direction
             * is the same (undirected) */
            int32_t *row = r->ldist + r->ldoff[gi] + i * a; /* d(member i, .) */
            tk_id_t src = r->gmem[r->gstart[gi] + i], qh = 0, qt = 0;
            for (int64_t j = 0; j < a; j++)
                row[j] = TK_INF;
            row[i] = 0;
            q[qt++] = src;
            while (qh < qt) {
                tk_id_t u = q[qh++];
                for (int64_t e = g->off[u]; e < g->off[u + 1]; e++) {
                    tk_id_t v = g->head[e];
                    if (is_local(r, e, u) && row[r->lidx[v]] == TK_INF) {
                        row[r->lidx[v]] = row[r->lidx[u]] + 1;
                        q[qt++] = v;
                    }
                }
            }
            for (int64_t j = 0; j < a; j++)
                if (row[j] == TK_INF) {
                    free(q);
                    return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                                        "%s: group %" PRId32 " is not connected by local links "
                                        "(switches %" PRId32 " and %" PRId32 ")",
                                        model, g->group[src], src, r->gmem[r->gstart[gi] + j]);
                }
        }
    }
    free(q);
    q = NULL;
    /* global arcs by (group, group) */
    r->gaoff = tk_calloc_array((size_t)G * (size_t)G + 1, sizeof *r->gaoff);
    if (!r->gaoff)
        goto nomem;
    int64_t ng = 0;
    for (tk_id_t u = 0; u < n; u++)
        for (int64_t e = g->off[u]; e < g->off[u + 1]; e++)
            if (g->cls && (int)g->cls[e] == r->global_cls && r->gof[g->head[e]] != r->gof[u]) {
                r->gaoff[(int64_t)r->gof[u] * G + r->gof[g->head[e]] + 1]++;
                ng++;
            }
    for (int64_t i = 0; i < (int64_t)G * G; i++)
        r->gaoff[i + 1] += r->gaoff[i];
    r->garc = tk_malloc_array((size_t)ng + 1, sizeof *r->garc);
    int64_t *fill = tk_malloc_array((size_t)G * (size_t)G, sizeof *fill);
    if (!r->garc || !fill) {
        free(fill);
        goto nomem;
    }
    memcpy(fill, r->gaoff, (size_t)G * (size_t)G * sizeof *fill);
    for (tk_id_t u = 0; u < n; u++)
        for (int64_t e = g->off[u]; e < g->off[u + 1]; e++)
            if (g->cls && (int)g->cls[e] == r->global_cls && r->gof[g->head[e]] != r->gof[u])
                r->garc[fill[(int64_t)r->gof[u] * G + r->gof[g->head[e]]]++] = e;
    free(fill);
    for (int32_t i = 0; i < G; i++)
        for (int32_t j = 0; j < G; j++)
            if (i != j && r->gaoff[(int64_t)i * G + j] == r->gaoff[(int64_t)i * G + j + 1])
                return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                                    "%s: no global link from group %" PRId32 " to group %" PRId32,
                                    model, g->group[r->gmem[r->gstart[i]]],
                                    g->group[r->gmem[r->gstart[j]]]);
    return TK_OK;
nomem:
    free(gv);
    free(q);
    return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (n=%" PRId32 ")", n);
}

/* Shortest local paths u -> v (same group), lexicographic, weights 1 each
 * (caller normalises). */
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
        int32_t dx = ld(r, x, v);
        for (; a < end; a++)
            if (is_local(r, a, x) && ld(r, g->head[a], v) == dx - 1)
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

/* dragonfly-min paths appended to out (weights times scale). */
static tk_status_t dfmin(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s, tk_id_t t,
                         double scale, tk_pathset_t *out, tk_error_t *err)
{
    const tk_graph_t *g = r->g;
    int32_t A = r->gof[s], B = r->gof[t];
    tk_status_t st;

    if (s == t)
        return rt_ps_push(out, NULL, 0, scale, err);
    if (A == B) {
        if ((st = local_paths(r, ws, s, t, &ws->lp1, err)) != TK_OK)
            return st;
        for (int64_t i = 0; i < ws->lp1.npaths; i++)
            if ((st = rt_ps_push(out, ws->lp1.arc + ws->lp1.off[i],
                                 ws->lp1.off[i + 1] - ws->lp1.off[i], scale * ws->lp1.w[i], err)) !=
                TK_OK)
                return st;
        return TK_OK;
    }
    int64_t b0 = r->gaoff[(int64_t)A * r->ngroups + B];
    int64_t b1 = r->gaoff[(int64_t)A * r->ngroups + B + 1];
    double wk = scale / (double)(b1 - b0);
    for (int64_t k = b0; k < b1; k++) {
        int64_t ga = r->garc[k];
        tk_id_t u = 0, v = g->head[ga];
        /* tail of ga: the rev arc's head */
        u = g->head[g->rev[ga]];
        if ((st = local_paths(r, ws, s, u, &ws->lp1, err)) != TK_OK)
            return st;
        if ((st = local_paths(r, ws, v, t, &ws->lp2, err)) != TK_OK)
            return st;
        for (int64_t i = 0; i < ws->lp1.npaths; i++)
            for (int64_t j = 0; j < ws->lp2.npaths; j++) {
                int64_t l1 = ws->lp1.off[i + 1] - ws->lp1.off[i];
                int64_t l2 = ws->lp2.off[j + 1] - ws->lp2.off[j];
                for (int64_t x = 0; x < l1; x++)
                    ws->path[x] = ws->lp1.arc[ws->lp1.off[i] + x];
                ws->path[l1] = ga;
                for (int64_t x = 0; x < l2; x++)
                    ws->path[l1 + 1 + x] = ws->lp2.arc[ws->lp2.off[j] + x];
                st = rt_ps_push(out, ws->path, l1 + 1 + l2, wk * ws->lp1.w[i] * ws->lp2.w[j], err);
                if (st)
                    return st;
            }
    }
    return TK_OK;
}

static tk_status_t check_max(tk_id_t s, tk_id_t t, uint64_t max_paths, const tk_pathset_t *out,
                             tk_error_t *err)
{
    if (max_paths && (uint64_t)out->npaths > max_paths)
        return tk_error_set(err, TK_ELIMIT, NULL, 0,
                            "pair %" PRId32 ",%" PRId32 ": more than %" PRIu64 " paths", s, t,
                            max_paths);
    return TK_OK;
}

tk_status_t rt_dfmin_paths(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s, tk_id_t t,
                           uint64_t max_paths, tk_pathset_t *out, tk_error_t *err)
{
    tk_status_t st = dfmin(r, ws, s, t, 1.0, out, err);
    if (st)
        return st;
    /* the lgl paths of different global arcs differ; merging is a no-op
     * except for order: sort for a deterministic lexicographic order */
    if ((st = rt_ps_merge(out, err)) != TK_OK)
        return st;
    return check_max(s, t, max_paths, out, err);
}

tk_status_t rt_dfval_paths(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s, tk_id_t t,
                           uint64_t max_paths, tk_pathset_t *out, tk_error_t *err)
{
    int32_t A = r->gof[s], B = r->gof[t];
    int64_t nm = r->g->n - (r->gstart[A + 1] - r->gstart[A]);
    tk_status_t st;

    if (A != B)
        nm -= r->gstart[B + 1] - r->gstart[B];
    if (nm == 0)
        return rt_dfmin_paths(r, ws, s, t, max_paths, out, err);
    double pm = 1.0 / (double)nm;
    uint64_t cap = max_paths ? 64 * max_paths + 1000000 : 0;
    for (tk_id_t m = 0; m < r->g->n; m++) {
        if (r->gof[m] == A || r->gof[m] == B)
            continue;
        rt_ps_clear(&ws->dv1);
        rt_ps_clear(&ws->dv2);
        if ((st = dfmin(r, ws, s, m, 1.0, &ws->dv1, err)) != TK_OK)
            return st;
        if ((st = dfmin(r, ws, m, t, 1.0, &ws->dv2, err)) != TK_OK)
            return st;
        for (int64_t i = 0; i < ws->dv1.npaths; i++)
            for (int64_t j = 0; j < ws->dv2.npaths; j++) {
                int64_t l1 = ws->dv1.off[i + 1] - ws->dv1.off[i];
                int64_t l2 = ws->dv2.off[j + 1] - ws->dv2.off[j];
                for (int64_t x = 0; x < l1; x++)
                    ws->path[x] = ws->dv1.arc[ws->dv1.off[i] + x];
                for (int64_t x = 0; x < l2; x++)
                    ws->path[l1 + x] = ws->dv2.arc[ws->dv2.off[j] + x];
                st = rt_ps_push(out, ws->path, l1 + l2, pm * ws->dv1.w[i] * ws->dv2.w[j], err);
                if (st)
                    return st;
            }
        if (cap && (uint64_t)out->npaths > cap)
            return check_max(s, t, max_paths, out, err);
    }
    if ((st = rt_ps_merge(out, err)) != TK_OK)
        return st;
    return check_max(s, t, max_paths, out, err);
}
