/*
 * weighted.c - the load engines of min and ecmp with per-class hop
 * lengths ("min,global=2"): Dial's buckets instead of a BFS.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "route/route_internal.h"

/* ------------------------------------------------------------------------ */
/* min and ecmp with per-class hop lengths: Dial's buckets.                 */
/*
 * Hop lengths are small integers (clen[class] >= 1), so distances come
 * from Dial's algorithm: a circular array of W+1 buckets (W the largest
 * length), switches finalised in non-decreasing distance.  min: then, in
 * that order, the DAG arcs (dist(v) = dist(u) + len(a)) with sigma pushed
 * forward, and the backward sweep of the unweighted engine per switch.
 * ecmp: distances to t on the reverse graph, then every switch, farthest
 * first, pushes its flow evenly over its arcs a to v with dist(v) + len(a)
 * = dist(u).  O(m + n W) per source or destination.
 */
typedef struct wt_ctx {
    const tk_graph_t *g, *rg; /* rg: reverse graph (== g if undirected) */
    int32_t clen[TK_MAX_CLASSES];
    int32_t wmax;
    int ecmp;
    const tk_rows_t *rows;
    rt_cols_t cols;       /* ecmp with demands: columns by destination */
    tk_graph_t *rg_owned; /* the reverse graph when directed            */
} wt_ctx_t;

typedef struct wt_ws {
    int32_t *dist;
    tk_id_t *order;
    int64_t *bnext, *bhead; /* bucket lists: heads per bucket slot       */
    double *sigma, *coef, *wt;
    int64_t *dstart, *dag;
    int64_t nord;
} wt_ws_t;

static void wt_ws_free(void *p)
{
    wt_ws_t *w = p;
    if (!w)
        return;
    free(w->dist);
    free(w->order);
    free(w->bnext);
    free(w->bhead);
    free(w->sigma);
    free(w->coef);
    free(w->wt);
    free(w->dstart);
    free(w->dag);
    free(w);
}

static void *wt_ws_new(void *ctxp)
{
    wt_ctx_t *c = ctxp;
    size_t n = (size_t)c->g->n + 1;
    wt_ws_t *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->dist = tk_malloc_array(n, sizeof *w->dist);
    w->order = tk_malloc_array(n, sizeof *w->order);
    /* a switch may sit in several buckets (lazy deletion): one list cell
     * per relaxation, at most m + 1 */
    w->bnext = tk_malloc_array((size_t)c->g->m + 2, sizeof *w->bnext);
    w->bhead = tk_malloc_array((size_t)c->wmax + 1, sizeof *w->bhead);
    w->sigma = tk_calloc_array(n, sizeof *w->sigma);
    w->coef = tk_calloc_array(n, sizeof *w->coef);
    w->wt = tk_calloc_array(n, sizeof *w->wt);
    w->dstart = tk_malloc_array(n + 1, sizeof *w->dstart);
    w->dag = tk_malloc_array((size_t)c->g->m + 1, sizeof *w->dag);
    if (!w->dist || !w->order || !w->bnext || !w->bhead || !w->sigma || !w->coef || !w->wt ||
        !w->dstart || !w->dag) {
        wt_ws_free(w);
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        w->dist[i] = TK_INF;
    return w;
}

static inline int32_t wt_len(const wt_ctx_t *c, const tk_graph_t *g, int64_t a)
{
    return g->cls ? c->clen[g->cls[a]] : c->clen[0];
}

/* Dial's algorithm from s on h (hop lengths of h's arcs); w->order gets
 * the switches reached, by non-decreasing distance. */
static void wt_dial(const wt_ctx_t *c, const tk_graph_t *h, tk_id_t s, wt_ws_t *w, tk_id_t *cellv)
{
    int32_t B = c->wmax + 1, *dist = w->dist;
    int64_t ncell = 0, pending = 0;
    for (int32_t i = 0; i < B; i++)
        w->bhead[i] = -1;
    w->nord = 0;
    dist[s] = 0;
    cellv[ncell] = s;
    w->bnext[ncell] = -1;
    w->bhead[0] = ncell++;
    pending = 1;
    for (int32_t d = 0; pending > 0; d++) {
        int32_t slot = d % B;
        while (w->bhead[slot] >= 0) {
            int64_t cell = w->bhead[slot];
            w->bhead[slot] = w->bnext[cell];
            pending--;
            tk_id_t u = cellv[cell];
            if (dist[u] != d)
                continue; /* stale entry */
            w->order[w->nord++] = u;
            for (int64_t a = h->off[u]; a < h->off[u + 1]; a++) {
                tk_id_t v = h->head[a];
                int32_t nd = d + wt_len(c, h, a);
                if (nd < dist[v]) {
                    dist[v] = nd;
                    int32_t sl = nd % B;
                    cellv[ncell] = v;
                    w->bnext[ncell] = w->bhead[sl];
                    w->bhead[sl] = ncell++;
                    pending++;
                }
            }
        }
    }
}

static tk_status_t wt_unit(void *ctxp, void *wsp, int64_t unit, double *cacc, tk_error_t *err)
{
    const wt_ctx_t *c = ctxp;
    wt_ws_t *w = wsp;
    const tk_graph_t *g = c->g;
    tk_id_t n = g->n, x = (tk_id_t)unit;
    int32_t *dist = w->dist;
    double *sigma = w->sigma, *coef = w->coef, *wt = w->wt;
    tk_status_t st = TK_OK;
    /* cells of the bucket lists hold switch ids; reuse dag[] as storage */
    tk_id_t *cellv = (tk_id_t *)w->dag;

    if (!c->ecmp) {
        if (!rt_rows_fill(c->rows, x, wt)) {
            rt_rows_clear(c->rows, x, wt);
            return TK_OK;
        }
    } else if (c->cols.off) {
        if (c->cols.off[x] == c->cols.off[x + 1])
            return TK_OK;
        for (int64_t i = c->cols.off[x]; i < c->cols.off[x + 1]; i++)
            wt[c->cols.src[i]] += c->cols.w[i];
    } else {
        for (tk_id_t s = 0; s < n; s++)
            wt[s] = s == x ? 0 : (c->rows->srcw ? c->rows->srcw[s] : 1.0);
    }
    wt_dial(c, c->ecmp ? c->rg : g, x, w, cellv);
    if (w->nord < n) {
        for (tk_id_t t = 0; t < n; t++) {
            if (wt[t] != 0 && dist[t] == TK_INF) {
                st = c->ecmp ? tk_error_set(err, TK_EDISCONNECTED, NULL, 0,
                                            "switch %ld cannot reach switch %ld", (long)t, (long)x)
                             : tk_error_set(err, TK_EDISCONNECTED, NULL, 0,
                                            "switch %ld cannot reach switch %ld", (long)x, (long)t);
                break;
            }
        }
    }
    if (st == TK_OK && !c->ecmp) {
        /* Forward in distance order: sigma and the DAG arcs of each u. */
        int64_t nd = 0;
        for (int64_t i = 0; i < w->nord; i++)
            sigma[w->order[i]] = 0;
        sigma[x] = 1;
        for (int64_t i = 0; i < w->nord; i++) {
            tk_id_t u = w->order[i];
            w->dstart[i] = nd;
            for (int64_t a = g->off[u]; a < g->off[u + 1]; a++) {
                tk_id_t v = g->head[a];
                if (dist[v] == dist[u] + wt_len(c, g, a)) {
                    sigma[v] += sigma[u];
                    w->dag[nd++] = a;
                }
            }
        }
        w->dstart[w->nord] = nd;
        /* Backward: coef(u) = wt(u)/sigma(u) + sum of coef over DAG arcs. */
        for (int64_t i = w->nord - 1; i >= 0; i--) {
            tk_id_t u = w->order[i];
            double su = sigma[u], sum = 0;
            for (int64_t k = w->dstart[i]; k < w->dstart[i + 1]; k++) {
                int64_t a = w->dag[k];
                double cv = coef[g->head[a]];
                cacc[a] += su * cv;
                sum += cv;
            }
            coef[u] = wt[u] / su + sum;
        }
    } else if (st == TK_OK) {
        /* ecmp: farthest first, even split over the next hops. */
        for (int64_t i = w->nord - 1; i >= 1; i--) {
            tk_id_t u = w->order[i];
            double f = wt[u];
            if (f == 0)
                continue;
            int64_t cnt = 0;
            for (int64_t a = g->off[u]; a < g->off[u + 1]; a++)
                cnt += dist[g->head[a]] + wt_len(c, g, a) == dist[u];
            double share = f / (double)cnt;
            for (int64_t a = g->off[u]; a < g->off[u + 1]; a++) {
                tk_id_t v = g->head[a];
                if (dist[v] + wt_len(c, g, a) == dist[u]) {
                    cacc[a] += share;
                    wt[v] += share;
                }
            }
        }
    }
    for (int64_t i = 0; i < w->nord; i++)
        dist[w->order[i]] = TK_INF;
    memset(wt, 0, (size_t)n * sizeof *wt);
    return st;
}

static void wt_release(void *p)
{
    wt_ctx_t *c = p;
    if (!c)
        return;
    tk_graph_free(c->rg_owned);
    rt_cols_free(&c->cols);
    free(c);
}

tk_status_t rt_weighted_job(const tk_router_t *r, const tk_rows_t *rows, int ecmp,
                            tk_load_job_t *job, tk_error_t *err)
{
    const tk_graph_t *g = r->g;
    tk_status_t st;
    wt_ctx_t *c = calloc(1, sizeof *c);
    if (!c)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "link load: out of memory");
    c->g = c->rg = g;
    c->ecmp = ecmp;
    c->rows = rows;
    c->wmax = 1;
    for (int k = 0; k < TK_MAX_CLASSES; k++) {
        c->clen[k] = r->clen[k];
        if (k < g->nclasses && c->clen[k] > c->wmax)
            c->wmax = c->clen[k];
    }
    if (ecmp && g->directed) {
        if ((st = tk_graph_reverse(g, &c->rg_owned, err)) != TK_OK)
            goto fail;
        c->rg = c->rg_owned;
    }
    if (ecmp && (st = rt_cols_new(rows, &c->cols, err)) != TK_OK)
        goto fail;
    memset(job, 0, sizeof *job);
    job->par.units = g->n;
    job->par.width = g->m;
    job->par.bound = tk_rows_total(rows);
    job->par.ws_bytes = (size_t)(g->n + 1) * 48u + (size_t)g->m * 16u;
    job->par.ctx = c;
    job->par.ws_new = wt_ws_new;
    job->par.ws_free = wt_ws_free;
    job->par.unit = wt_unit;
    job->owner = c;
    job->release = wt_release;
    return TK_OK;
fail:
    wt_release(c);
    return st;
}
