/*
 * min.c - the min model: uniform over all shortest paths.
 *
 * Paths and counts: the shortest-path DAG towards t (dag.c).
 *
 * Load: per source s, Brandes-style dependency accumulation.  A BFS with
 * shortest-path counts sigma (bfs_internal.h) records the DAG arcs by
 * level; one backward sweep, deepest level first, computes
 *   coef(v) = w(s,v) / sigma(v) + sum of coef(x) over the DAG arcs v->x
 * and puts sigma(u) coef(v) on every DAG arc u->v, which is
 *   sum over t of w(s,t) sigma(s,u) sigma(v,t) / sigma(s,t),
 * the share of every pair (s,t) on u->v.  O(n + m) per source with
 * demands, no path is listed.  The valiant model runs the same engine on
 * its aggregated rows (valiant.c), hence the fill function.  With hop
 * lengths: Dial's buckets (weighted.c).
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "route/route_internal.h"

typedef struct min_ctx {
    const tk_graph_t *g;
    const void *fctx;
    rt_fill_fn fill;
    rt_clear_fn clear;
    uint16_t *head16; /* g->head as 16-bit ids, or NULL */
} min_ctx_t;

typedef struct min_ws {
    tk_lbfs_t b;
    double *sigma, *coef, *acc, *wt;
} min_ws_t;

static void min_ws_free(void *p)
{
    min_ws_t *w = p;
    if (!w)
        return;
    tk_lbfs_free(&w->b);
    free(w->sigma);
    free(w->coef);
    free(w->acc);
    free(w->wt);
    free(w);
}

static void *min_ws_new(void *ctxp)
{
    min_ctx_t *c = ctxp;
    size_t n = (size_t)c->g->n + 1;
    min_ws_t *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    if (tk_lbfs_init(&w->b, c->g, 1) != 0) {
        free(w);
        return NULL;
    }
    w->sigma = tk_calloc_array(n, sizeof *w->sigma);
    w->coef = tk_calloc_array(n, sizeof *w->coef);
    w->acc = tk_calloc_array(n, sizeof *w->acc);
    w->wt = tk_calloc_array(n, sizeof *w->wt);
    if (!w->sigma || !w->coef || !w->acc || !w->wt) {
        min_ws_free(w);
        return NULL;
    }
    return w;
}

/* Backward sweep, deepest level first: coef(v) = wt(v)/sigma(v) + sum over
 * DAG arcs v->x of coef(x) (collected in acc(v)); DAG arc u->v carries
 * sigma(u) coef(v). */
static void min_sweep(const tk_lbfs_t *b, const double *restrict sigma, double *restrict coef,
                      double *restrict acc, const double *restrict wt, double *restrict buf)
{
    for (int32_t L = b->nlev - 1; L >= 1; L--) {
        for (int64_t i = b->lstart[L]; i < b->lstart[L + 1]; i++) {
            tk_id_t v = b->order[i];
            coef[v] = wt[v] / sigma[v] + acc[v];
            acc[v] = 0;
        }
        for (int64_t k = b->dseg[L]; k < b->dseg[L + 1]; k++) {
            int64_t a = b->dag[k];
            tk_id_t u = b->dtail[k];
            double cv = coef[b->dhead[k]];
            buf[a] += sigma[u] * cv;
            acc[u] += cv;
        }
    }
}

static tk_status_t min_unit(void *ctxp, void *wsp, int64_t unit, double *buf, tk_error_t *err)
{
    const min_ctx_t *c = ctxp;
    min_ws_t *w = wsp;
    const tk_graph_t *g = c->g;
    tk_lbfs_t *b = &w->b;
    tk_id_t s = (tk_id_t)unit;
    tk_status_t st = TK_OK;

    if (!c->fill(c->fctx, s, w->wt)) {
        c->clear(c->fctx, s, w->wt);
        return TK_OK;
    }
    /* Forward: levels, path counts, DAG arcs by level. */
    tk_lbfs_run(g, c->head16, g->directed ? NULL : g->rev, s, b, w->sigma, NULL);
    /* Every demand must be reachable. */
    if (b->nvis < g->n) {
        for (tk_id_t t = 0; t < g->n; t++) {
            if (w->wt[t] != 0 && b->dist[t] == TK_INF) {
                st = tk_error_set(err, TK_EDISCONNECTED, NULL, 0,
                                  "switch %ld cannot reach switch %ld", (long)s, (long)t);
                break;
            }
        }
    }
    if (st == TK_OK)
        min_sweep(b, w->sigma, w->coef, w->acc, w->wt, buf);
    w->acc[s] = 0;
    if (st != TK_OK)
        for (int64_t i = 0; i < b->nvis; i++)
            w->acc[b->order[i]] = 0;
    tk_lbfs_reset(b);
    c->clear(c->fctx, s, w->wt);
    return st;
}

static void min_release(void *p)
{
    min_ctx_t *c = p;
    if (!c)
        return;
    free(c->head16);
    free(c);
}

tk_status_t rt_min_job(const tk_graph_t *g, const void *fctx, rt_fill_fn fill, rt_clear_fn clear,
                       double bound, tk_load_job_t *job, tk_error_t *err)
{
    min_ctx_t *c = calloc(1, sizeof *c);
    if (!c)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "link load: out of memory");
    c->g = g;
    c->fctx = fctx;
    c->fill = fill;
    c->clear = clear;
    c->head16 = tk_head16_new(g);
    memset(job, 0, sizeof *job);
    job->par.units = g->n;
    job->par.width = g->m;
    job->par.bound = bound;
    job->par.ws_bytes = (size_t)(g->n + 1) * 68u + (size_t)g->m * 12u;
    job->par.ctx = c;
    job->par.ws_new = min_ws_new;
    job->par.ws_free = min_ws_free;
    job->par.unit = min_unit;
    job->owner = c;
    job->release = min_release;
    return TK_OK;
}

/* ------------------------------------------------------------------------ */
/* The model.                                                               */

static tk_status_t min_paths(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s, tk_id_t t,
                             uint64_t max_paths, tk_pathset_t *out, tk_error_t *err)
{
    return rt_dag_paths(r, ws, RT_DAG_MIN, s, t, max_paths, out, err);
}

static tk_status_t min_count(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s, tk_id_t t,
                             tk_route_count_t *out, tk_error_t *err)
{
    return rt_dag_count(r, ws, RT_DAG_MIN, s, t, out, err);
}

static tk_status_t min_load(const tk_router_t *r, const tk_rows_t *rows, tk_load_job_t *job,
                            tk_error_t *err)
{
    if (r->weighted)
        return rt_weighted_job(r, rows, 0, job, err);
    return rt_min_job(r->g, rows, rt_rows_fill, rt_rows_clear, tk_rows_total(rows), job, err);
}

const rt_model_t rt_model_min = {
    .kind = TK_ROUTE_MIN,
    .name = "min",
    .opts = RT_OPT_WEIGHTS,
    .table = RT_TABLE_SMALL,
    .paths = min_paths,
    .count = min_count,
    .load = min_load,
};
