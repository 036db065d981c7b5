/*
 * ecmp.c - the ecmp model: at every switch, an even split over the next
 * hops that lie on a shortest path to the destination.
 *
 * Paths and counts: the shortest-path DAG towards t, a path weighing the
 * product of 1 / (DAG out-degree) along it (dag.c).
 *
 * Load: per destination t, a BFS towards t (on the reverse graph) counts
 * nnext(v), the arcs from v to switches one hop closer; then every switch,
 * farthest first, splits its flow (its own demand to t plus what it
 * received) evenly over those arcs.  O(n + m) per destination.  On
 * undirected graphs the split is pulled along the recorded DAG of the
 * reverse search, one level at a time; the DAG arc u->v (u one hop
 * closer) then carries v's share on arc v->u = rev(u->v), which the job
 * folds through rev[].  With hop lengths: Dial's buckets (weighted.c).
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "route/route_internal.h"

/* ------------------------------------------------------------------------ */
/* Demand columns.                                                          */

void rt_cols_free(rt_cols_t *c)
{
    free(c->off);
    free(c->src);
    free(c->w);
    memset(c, 0, sizeof *c);
}

tk_status_t rt_cols_new(const tk_rows_t *rows, rt_cols_t *c, tk_error_t *err)
{
    memset(c, 0, sizeof *c);
    if (!rows->off)
        return TK_OK;
    tk_id_t n = rows->n;
    int64_t len = rows->off[n];
    c->off = tk_calloc_array((size_t)n + 2, sizeof *c->off);
    c->src = tk_malloc_array((size_t)len + 1, sizeof *c->src);
    c->w = tk_malloc_array((size_t)len + 1, sizeof *c->w);
    if (!c->off || !c->src || !c->w) {
        rt_cols_free(c);
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "link load: out of memory");
    }
    for (tk_id_t s = 0; s < n; s++)
        for (int64_t i = rows->off[s]; i < rows->off[s + 1]; i++)
            if (rows->dst[i] != s)
                c->off[rows->dst[i] + 2]++;
    for (tk_id_t t = 0; t < n; t++)
        c->off[t + 2] += c->off[t + 1];
    for (tk_id_t s = 0; s < n; s++)
        for (int64_t i = rows->off[s]; i < rows->off[s + 1]; i++) {
            if (rows->dst[i] == s)
                continue;
            int64_t k = c->off[rows->dst[i] + 1]++;
            c->src[k] = s;
            c->w[k] = rows->w[i];
        }
    /* Column t is now off[t] .. off[t+1]-1. */
    return TK_OK;
}

/* ------------------------------------------------------------------------ */
/* The unweighted engine.                                                   */

typedef struct ecmp_ctx {
    const tk_graph_t *g, *rg; /* graph and its reverse (== g if undirected) */
    tk_graph_t *rg_owned;     /* the reverse graph when directed            */
    uint16_t *head16;         /* rg->head as 16-bit ids, or NULL            */
    const double *srcw;       /* all-to-all weights when cols.off == NULL   */
    rt_cols_t cols;
} ecmp_ctx_t;

typedef struct ecmp_ws {
    tk_lbfs_t b;
    int32_t *nnext;
    double *in;
} ecmp_ws_t;

static void ecmp_ws_free(void *p)
{
    ecmp_ws_t *w = p;
    if (!w)
        return;
    tk_lbfs_free(&w->b);
    free(w->nnext);
    free(w->in);
    free(w);
}

static void *ecmp_ws_new(void *ctxp)
{
    ecmp_ctx_t *c = ctxp;
    size_t n = (size_t)c->g->n + 1;
    ecmp_ws_t *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    if (tk_lbfs_init(&w->b, c->rg, 1) != 0) {
        free(w);
        return NULL;
    }
    w->nnext = tk_calloc_array(n, sizeof *w->nnext);
    w->in = tk_calloc_array(n, sizeof *w->in);
    if (!w->nnext || !w->in) {
        ecmp_ws_free(w);
        return NULL;
    }
    return w;
}

/* Own demands to t into in[]; 0 when there are none. */
static int ecmp_fill(const ecmp_ctx_t *c, tk_id_t t, double *in)
{
    tk_id_t n = c->g->n;
    if (c->cols.off) {
        if (c->cols.off[t] == c->cols.off[t + 1])
            return 0;
        for (int64_t i = c->cols.off[t]; i < c->cols.off[t + 1]; i++)
            in[c->cols.src[i]] += c->cols.w[i];
        return 1;
    }
    int any = 0;
    for (tk_id_t s = 0; s < n; s++) {
        in[s] = s == t ? 0 : (c->srcw ? c->srcw[s] : 1.0);
        any |= in[s] != 0;
    }
    if (!any)
        memset(in, 0, (size_t)n * sizeof *in);
    return any;
}

/* Undirected: pull, farthest level first: in[v] becomes v's share per next
 * hop once its level is complete; the DAG arc u->v carries it on rev(u->v)
 * (folded by the job) into u. */
static void ecmp_pull(const tk_lbfs_t *b, const int32_t *restrict nnext, double *restrict in,
                      double *restrict buf)
{
    for (int32_t L = b->nlev - 1; L >= 1; L--) {
        for (int64_t i = b->lstart[L]; i < b->lstart[L + 1]; i++) {
            tk_id_t v = b->order[i];
            in[v] /= (double)nnext[v];
        }
        for (int64_t k = b->dseg[L]; k < b->dseg[L + 1]; k++) {
            double x = in[b->dhead[k]];
            buf[b->dag[k]] += x;
            in[b->dtail[k]] += x;
        }
    }
}

/* Directed: push, farthest first (a switch's inflow is complete when it is
 * reached). */
static void ecmp_push(const tk_graph_t *g, const tk_lbfs_t *b, const int32_t *nnext, double *in,
                      double *buf)
{
    const int32_t *dist = b->dist;
    for (int64_t i = b->nvis - 1; i >= 1; i--) {
        tk_id_t u = b->order[i];
        double f = in[u];
        if (f == 0)
            continue;
        int32_t dn = dist[u] - 1;
        double share = f / (double)nnext[u];
        for (int64_t a = g->off[u]; a < g->off[u + 1]; a++) {
            tk_id_t v = g->head[a];
            if (dist[v] == dn) {
                buf[a] += share;
                in[v] += share;
            }
        }
    }
}

static tk_status_t ecmp_unit(void *ctxp, void *wsp, int64_t unit, double *buf, tk_error_t *err)
{
    const ecmp_ctx_t *c = ctxp;
    ecmp_ws_t *w = wsp;
    const tk_graph_t *g = c->g;
    tk_id_t n = g->n, t = (tk_id_t)unit;
    tk_lbfs_t *b = &w->b;
    tk_status_t st = TK_OK;

    if (!ecmp_fill(c, t, w->in))
        return TK_OK;
    /* Distances to t and nnext[v] (DAG in-arcs of v in the reverse graph). */
    tk_lbfs_run(c->rg, c->head16, g->directed ? NULL : g->rev, t, b, NULL, w->nnext);
    if (b->nvis < n) {
        for (tk_id_t s = 0; s < n; s++) {
            if (w->in[s] != 0 && b->dist[s] == TK_INF) {
                st = tk_error_set(err, TK_EDISCONNECTED, NULL, 0,
                                  "switch %ld cannot reach switch %ld", (long)s, (long)t);
                break;
            }
        }
    }
    if (st == TK_OK && !g->directed)
        ecmp_pull(b, w->nnext, w->in, buf);
    else if (st == TK_OK)
        ecmp_push(g, b, w->nnext, w->in, buf);
    for (int64_t i = 0; i < b->nvis; i++)
        w->in[b->order[i]] = 0;
    if (st != TK_OK || b->nvis < n)
        memset(w->in, 0, (size_t)n * sizeof *w->in);
    tk_lbfs_reset(b);
    return st;
}

static void ecmp_release(void *p)
{
    ecmp_ctx_t *c = p;
    if (!c)
        return;
    free(c->head16);
    tk_graph_free(c->rg_owned);
    rt_cols_free(&c->cols);
    free(c);
}

static tk_status_t ecmp_job(const tk_graph_t *g, const tk_rows_t *rows, tk_load_job_t *job,
                            tk_error_t *err)
{
    tk_status_t st;
    ecmp_ctx_t *c = calloc(1, sizeof *c);
    if (!c)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "link load: out of memory");
    c->g = c->rg = g;
    c->srcw = rows->srcw;
    if (g->directed) {
        if ((st = tk_graph_reverse(g, &c->rg_owned, err)) != TK_OK)
            goto fail;
        c->rg = c->rg_owned;
    }
    if ((st = rt_cols_new(rows, &c->cols, err)) != TK_OK)
        goto fail;
    c->head16 = tk_head16_new(c->rg);
    memset(job, 0, sizeof *job);
    job->par.units = g->n;
    job->par.width = g->m;
    job->par.bound = tk_rows_total(rows);
    job->par.fold_map = g->directed ? NULL : g->rev;
    job->par.ws_bytes = (size_t)(g->n + 1) * 60u + (size_t)g->m * 16u;
    job->par.ctx = c;
    job->par.ws_new = ecmp_ws_new;
    job->par.ws_free = ecmp_ws_free;
    job->par.unit = ecmp_unit;
    job->owner = c;
    job->release = ecmp_release;
    return TK_OK;
fail:
    ecmp_release(c);
    return st;
}

/* ------------------------------------------------------------------------ */
/* The model.                                                               */

static tk_status_t ecmp_paths(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s, tk_id_t t,
                              uint64_t max_paths, tk_pathset_t *out, tk_error_t *err)
{
    return rt_dag_paths(r, ws, RT_DAG_ECMP, s, t, max_paths, out, err);
}

static tk_status_t ecmp_count(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s, tk_id_t t,
                              tk_route_count_t *out, tk_error_t *err)
{
    return rt_dag_count(r, ws, RT_DAG_ECMP, s, t, out, err);
}

static tk_status_t ecmp_load(const tk_router_t *r, const tk_rows_t *rows, tk_load_job_t *job,
                             tk_error_t *err)
{
    if (r->weighted)
        return rt_weighted_job(r, rows, 1, job, err);
    return ecmp_job(r->g, rows, job, err);
}

const rt_model_t rt_model_ecmp = {
    .kind = TK_ROUTE_ECMP,
    .name = "ecmp",
    .opts = RT_OPT_WEIGHTS,
    .table = RT_TABLE_SMALL,
    .paths = ecmp_paths,
    .count = ecmp_count,
    .load = ecmp_load,
};
