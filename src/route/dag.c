/*
 * dag.c - models whose paths are all the s->t paths of a DAG:
 *   min, ecmp   arc u->v (length len) is in the DAG iff
 *               d(u,t) = len + d(v,t): the shortest-path DAG towards t;
 *   polarized   arc u->v is in the DAG iff f(v) > f(u), with
 *               f(x) = d(s,x) - d(x,t) (strictly increasing, so acyclic and
 *               every path simple); t is a sink.
 * min and polarized weigh every DAG path equally (1 / number of paths);
 * ecmp splits evenly at every switch over its DAG out-arcs that lead to t
 * (the weight of a path is the product of 1 / out-degree along it).
 *
 * Counting: one memoised depth-first search from s over the DAG computes,
 * for every switch u reached, the number of DAG paths u->t, their total hop
 * count, their smallest and largest hop count, and the expected hop count
 * under the ecmp split.  O(n + m) per pair, no allocation.  Enumeration
 * follows only arcs into switches with a path to t, in arc order, so paths
 * come out in lexicographic order of their arc (equivalently switch)
 * sequences.
 */
#include <config.h>

#include <inttypes.h>
#include <string.h>

#include "route_internal.h"

typedef struct dag {
    const tk_router_t *r;
    const tk_graph_t *g;
    int mode;
    tk_id_t s, t;
    const int32_t *dt, *ds;
} dag_t;

static inline int dag_arc(const dag_t *d, tk_id_t u, int64_t a, tk_id_t v)
{
    if (d->dt[v] == TK_INF)
        return 0;
    if (d->mode == RT_DAG_POLAR) {
        if (d->ds[v] == TK_INF)
            return 0;
        return (int64_t)d->ds[v] - d->dt[v] > (int64_t)d->ds[u] - d->dt[u];
    }
    return (int64_t)d->dt[u] == (int64_t)rt_len(d->r, a) + d->dt[v];
}

static void next_epoch(tk_route_ws_t *ws)
{
    if (++ws->epoch == 0) {
        memset(ws->stamp, 0, (size_t)ws->n * sizeof *ws->stamp);
        ws->epoch = 1;
    }
}

/* Memoised DFS from s: counts of every reached switch. */
static void dag_count(const dag_t *d, tk_route_ws_t *ws)
{
    const tk_graph_t *g = d->g;
    uint32_t ep;
    int64_t depth = 0;

    next_epoch(ws);
    ep = ws->epoch;
    ws->stamp[d->s] = ep;
    ws->stk[0] = d->s;
    ws->sarc[0] = g->off[d->s];
    while (depth >= 0) {
        tk_id_t u = ws->stk[depth];
        int64_t a = ws->sarc[depth];
        int64_t end = u == d->t ? g->off[u] : g->off[u + 1];
        if (u == d->t)
            a = end;
        for (; a < end; a++) {
            tk_id_t v = g->head[a];
            if (ws->stamp[v] != ep && dag_arc(d, u, a, v))
                break;
        }
        if (a < end) {
            tk_id_t v = g->head[a];
            ws->sarc[depth] = a + 1;
            ws->stamp[v] = ep;
            depth++;
            ws->stk[depth] = v;
            ws->sarc[depth] = g->off[v];
            continue;
        }
        /* All children done: combine. */
        if (u == d->t) {
            ws->cnt[u] = 1;
            ws->hsum[u] = 0;
            ws->eh[u] = 0;
            ws->hmin[u] = ws->hmax[u] = 0;
            ws->nnext[u] = 0;
        } else {
            double c = 0, hs = 0, eh = 0;
            int32_t mn = INT32_MAX, mx = -1, nn = 0;
            for (int64_t b = g->off[u]; b < g->off[u + 1]; b++) {
                tk_id_t v = g->head[b];
                if (!dag_arc(d, u, b, v) || ws->cnt[v] == 0)
                    continue;
                c += ws->cnt[v];
                hs += ws->hsum[v] + ws->cnt[v];
                eh += 1 + ws->eh[v];
                if (ws->hmin[v] + 1 < mn)
                    mn = ws->hmin[v] + 1;
                if (ws->hmax[v] + 1 > mx)
                    mx = ws->hmax[v] + 1;
                nn++;
            }
            ws->cnt[u] = c;
            ws->hsum[u] = hs;
            ws->eh[u] = nn ? eh / nn : 0;
            ws->hmin[u] = nn ? mn : 0;
            ws->hmax[u] = nn ? mx : 0;
            ws->nnext[u] = nn;
        }
        depth--;
    }
}

static tk_status_t dag_setup(const tk_router_t *r, tk_route_ws_t *ws, int mode, tk_id_t s,
                             tk_id_t t, dag_t *d, tk_error_t *err)
{
    d->r = r;
    d->g = r->g;
    d->mode = mode;
    d->s = s;
    d->t = t;
    d->ds = mode == RT_DAG_POLAR ? rt_dist_from(r, ws, s) : NULL;
    d->dt = rt_dist_to(r, ws, t);
    if (d->dt[s] == TK_INF)
        return tk_error_set(err, TK_EDISCONNECTED, NULL, 0, "no path from %" PRId32 " to %" PRId32,
                            s, t);
    dag_count(d, ws);
    if (ws->cnt[s] == 0)
        return tk_error_set(err, TK_EDISCONNECTED, NULL, 0, "no path from %" PRId32 " to %" PRId32,
                            s, t);
    return TK_OK;
}

tk_status_t rt_dag_count(const tk_router_t *r, tk_route_ws_t *ws, int mode, tk_id_t s, tk_id_t t,
                         tk_route_count_t *out, tk_error_t *err)
{
    dag_t d;
    tk_status_t st = dag_setup(r, ws, mode, s, t, &d, err);
    if (st)
        return st;
    out->paths = out->walks = ws->cnt[s];
    out->min_len = ws->hmin[s];
    out->max_len = ws->hmax[s];
    out->avg_len = mode == RT_DAG_ECMP ? ws->eh[s] : ws->hsum[s] / ws->cnt[s];
    return TK_OK;
}

tk_status_t rt_dag_paths(const tk_router_t *r, tk_route_ws_t *ws, int mode, tk_id_t s, tk_id_t t,
                         uint64_t max_paths, tk_pathset_t *out, tk_error_t *err)
{
    dag_t d;
    tk_status_t st = dag_setup(r, ws, mode, s, t, &d, err);
    const tk_graph_t *g = r->g;
    uint32_t ep = ws->epoch;
    int64_t depth = 0;

    if (st)
        return st;
    if (max_paths && ws->cnt[s] > (double)max_paths)
        return tk_error_set(err, TK_ELIMIT, NULL, 0,
                            "pair %" PRId32 ",%" PRId32 ": %.0f paths (more than %" PRIu64 ")", s,
                            t, ws->cnt[s], max_paths);
    double uni = 1.0 / ws->cnt[s];
    ws->stk[0] = s;
    ws->sarc[0] = g->off[s];
    ws->pw[0] = 1.0;
    while (depth >= 0) {
        tk_id_t u = ws->stk[depth];
        if (u == t) {
            st = rt_ps_push(out, ws->path, depth, mode == RT_DAG_ECMP ? ws->pw[depth] : uni, err);
            if (st)
                return st;
            depth--;
            continue;
        }
        int64_t a = ws->sarc[depth], end = g->off[u + 1];
        for (; a < end; a++) {
            tk_id_t v = g->head[a];
            if (ws->stamp[v] == ep && ws->cnt[v] > 0 && dag_arc(&d, u, a, v))
                break;
        }
        if (a == end) {
            depth--;
            continue;
        }
        ws->sarc[depth] = a + 1;
        ws->path[depth] = a;
        ws->pw[depth + 1] = ws->pw[depth] / ws->nnext[u];
        depth++;
        ws->stk[depth] = g->head[a];
        ws->sarc[depth] = g->off[g->head[a]];
    }
    return TK_OK;
}

/* ------------------------------------------------------------------------ */
/* The polarized model: every DAG path of the polarized order, uniform.     */

static tk_status_t polar_paths(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s, tk_id_t t,
                               uint64_t max_paths, tk_pathset_t *out, tk_error_t *err)
{
    return rt_dag_paths(r, ws, RT_DAG_POLAR, s, t, max_paths, out, err);
}

static tk_status_t polar_count(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s, tk_id_t t,
                               tk_route_count_t *out, tk_error_t *err)
{
    return rt_dag_count(r, ws, RT_DAG_POLAR, s, t, out, err);
}

const rt_model_t rt_model_polarized = {
    .kind = TK_ROUTE_POLARIZED,
    .name = "polarized",
    .opts = RT_OPT_WEIGHTS,
    .table = RT_TABLE_WANT,
    .paths = polar_paths,
    .count = polar_count,
};
