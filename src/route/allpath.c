/*
 * allpath.c - the allpath:H model: every simple s->t path of at most H
 * hops, an even split per pair.  Paths: the bounded depth-first search of
 * simple.c.  Load: per source, a depth-H search of the simple paths, twice:
 * first the path count of every destination, then every arc gets the sum
 * of w(s,t) / count(s,t) over the paths below it.  O(simple paths of at
 * most H hops) per source, no path is stored.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "route/route_internal.h"

/* Simple paths one search may visit before TK_ELIMIT. */
#define LOAD_MAX_ALLPATH 4000000000.0

/* ------------------------------------------------------------------------ */
/* allpath:H: per source, depth-H search of the simple paths.               */

typedef struct ap_ctx {
    const tk_graph_t *g;
    const tk_rows_t *rows;
    int32_t h;
} ap_ctx_t;

typedef struct ap_ws {
    double *cnt, *wt, *sum;
    tk_id_t *node;
    int64_t *arc, *in;
    uint8_t *onp;
} ap_ws_t;

static void ap_ws_free(void *p)
{
    ap_ws_t *w = p;
    if (!w)
        return;
    free(w->cnt);
    free(w->wt);
    free(w->sum);
    free(w->node);
    free(w->arc);
    free(w->in);
    free(w->onp);
    free(w);
}

static void *ap_ws_new(void *ctxp)
{
    ap_ctx_t *c = ctxp;
    size_t n = (size_t)c->g->n + 1, h = (size_t)c->h + 2;
    ap_ws_t *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->cnt = tk_calloc_array(n, sizeof *w->cnt);
    w->wt = tk_calloc_array(n, sizeof *w->wt);
    w->onp = tk_calloc_array(n, sizeof *w->onp);
    w->sum = tk_calloc_array(h, sizeof *w->sum);
    w->node = tk_calloc_array(h, sizeof *w->node);
    w->arc = tk_calloc_array(h, sizeof *w->arc);
    w->in = tk_calloc_array(h, sizeof *w->in);
    if (!w->cnt || !w->wt || !w->onp || !w->sum || !w->node || !w->arc || !w->in) {
        ap_ws_free(w);
        return NULL;
    }
    return w;
}

static tk_status_t ap_unit(void *ctxp, void *wsp, int64_t unit, double *cacc, tk_error_t *err)
{
    const ap_ctx_t *c = ctxp;
    ap_ws_t *w = wsp;
    const tk_graph_t *g = c->g;
    const int64_t *off = g->off;
    const tk_id_t *head = g->head;
    double *cnt = w->cnt, *wt = w->wt, *sum = w->sum;
    tk_id_t *node = w->node;
    int64_t *arc = w->arc, *in = w->in;
    uint8_t *onp = w->onp;
    int32_t h = c->h;
    tk_id_t s = (tk_id_t)unit;
    tk_status_t st = TK_OK;

    if (!rt_rows_fill(c->rows, s, wt)) {
        rt_rows_clear(c->rows, s, wt);
        return TK_OK;
    }
    /* Pass 1: number of simple paths of at most h hops from s to each t. */
    double visits = 0;
    int32_t d = 0;
    node[0] = s;
    arc[0] = off[s];
    onp[s] = 1;
    while (d >= 0) {
        tk_id_t u = node[d];
        if (d < h && arc[d] < off[u + 1]) {
            tk_id_t v = head[arc[d]++];
            if (onp[v])
                continue;
            cnt[v] += 1;
            if (++visits > LOAD_MAX_ALLPATH) {
                st = tk_error_set(err, TK_ELIMIT, NULL, 0,
                                  "allpath:%ld: more than %.0f paths from switch %ld", (long)h,
                                  LOAD_MAX_ALLPATH, (long)s);
                break;
            }
            if (d + 1 < h) {
                d++;
                node[d] = v;
                arc[d] = off[v];
                onp[v] = 1;
            }
        } else {
            onp[u] = 0;
            d--;
        }
    }
    if (st == TK_OK) {
        for (tk_id_t t = 0; t < g->n; t++) {
            if (wt[t] != 0 && cnt[t] == 0) {
                st = tk_error_set(err, TK_EDISCONNECTED, NULL, 0,
                                  "switch %ld has no path of at most %ld hops to switch %ld",
                                  (long)s, (long)h, (long)t);
                break;
            }
            wt[t] = cnt[t] > 0 ? wt[t] / cnt[t] : 0; /* share of one path */
        }
    }
    if (st == TK_OK) {
        /* Pass 2: every arc gets the shares of the paths through it. */
        d = 0;
        node[0] = s;
        arc[0] = off[s];
        sum[0] = 0;
        onp[s] = 1;
        while (d >= 0) {
            tk_id_t u = node[d];
            if (d < h && arc[d] < off[u + 1]) {
                int64_t a = arc[d]++;
                tk_id_t v = head[a];
                if (onp[v])
                    continue;
                if (d + 1 < h) {
                    d++;
                    node[d] = v;
                    arc[d] = off[v];
                    in[d] = a;
                    sum[d] = wt[v];
                    onp[v] = 1;
                } else {
                    cacc[a] += wt[v];
                    sum[d] += wt[v];
                }
            } else {
                onp[u] = 0;
                if (d > 0) {
                    cacc[in[d]] += sum[d];
                    sum[d - 1] += sum[d];
                }
                d--;
            }
        }
    } else {
        for (int32_t k = 0; k <= d && k <= h; k++)
            onp[node[k]] = 0;
        onp[s] = 0;
    }
    for (tk_id_t t = 0; t < g->n; t++)
        cnt[t] = 0;
    memset(wt, 0, (size_t)g->n * sizeof *wt);
    return st;
}

static tk_status_t allpath_load(const tk_router_t *r, const tk_rows_t *rows, tk_load_job_t *job,
                                tk_error_t *err)
{
    const tk_graph_t *g = r->g;
    ap_ctx_t *c = calloc(1, sizeof *c);
    if (!c)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "link load: out of memory");
    c->g = g;
    c->rows = rows;
    c->h = r->spec.h;
    memset(job, 0, sizeof *job);
    job->par.units = g->n;
    job->par.width = g->m;
    job->par.bound = tk_rows_total(rows);
    job->par.ws_bytes = (size_t)(g->n + 1) * 17u + (size_t)(c->h + 2) * 32u;
    job->par.ctx = c;
    job->par.ws_new = ap_ws_new;
    job->par.ws_free = ap_ws_free;
    job->par.unit = ap_unit;
    job->owner = c;
    job->release = free;
    return TK_OK;
}

static tk_status_t allpath_paths(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s, tk_id_t t,
                                 uint64_t max_paths, tk_pathset_t *out, tk_error_t *err)
{
    return rt_simple_paths(r, ws, 0, s, t, max_paths, out, err);
}

const rt_model_t rt_model_allpath = {
    .kind = TK_ROUTE_ALLPATH,
    .name = "allpath",
    .opts = RT_OPT_H,
    .table = RT_TABLE_WANT,
    .paths = allpath_paths,
    .load = allpath_load,
};
