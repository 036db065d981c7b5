/*
 * generic.c - the load engine of every model without a faster one: per
 * source, the paths of every pair with a demand (tk_route_pair_load), each
 * arc getting demand x path weight.  Cost: tk_route_paths for every
 * demand.
 */
#include <config.h>

#include <stdlib.h>

#include "load/load_internal.h"

/* Paths of one pair the generic engine accepts from tk_route_paths. */
#define LOAD_MAX_PATHS ((uint64_t)1 << 24)

typedef struct gen_ctx {
    const tk_router_t *r;
    const tk_rows_t *rows;
} gen_ctx_t;

typedef struct gen_ws {
    tk_route_ws_t *rws;
    tk_pathset_t ps;
} gen_ws_t;

static void gen_ws_free(void *p)
{
    gen_ws_t *w = p;
    if (!w)
        return;
    tk_route_ws_free(w->rws);
    tk_pathset_destroy(&w->ps);
    free(w);
}

static void *gen_ws_new(void *ctxp)
{
    gen_ctx_t *c = ctxp;
    gen_ws_t *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    tk_pathset_init(&w->ps);
    if (tk_route_ws_new(c->r, &w->rws, NULL) != TK_OK) {
        free(w);
        return NULL;
    }
    return w;
}

static tk_status_t gen_unit(void *ctxp, void *wsp, int64_t unit, double *buf, tk_error_t *err)
{
    const gen_ctx_t *c = ctxp;
    gen_ws_t *w = wsp;
    const tk_rows_t *d = c->rows;
    tk_id_t s = (tk_id_t)unit;
    tk_status_t st = TK_OK;

    if (d->off) {
        for (int64_t i = d->off[s]; i < d->off[s + 1] && st == TK_OK; i++)
            if (d->dst[i] != s && d->w[i] != 0)
                st = tk_route_pair_load(c->r, w->rws, &w->ps, s, d->dst[i], d->w[i], LOAD_MAX_PATHS,
                                        buf, err);
    } else {
        double ws = d->srcw ? d->srcw[s] : 1.0;
        for (tk_id_t t = 0; t < d->n && st == TK_OK && ws != 0; t++)
            if (t != s)
                st = tk_route_pair_load(c->r, w->rws, &w->ps, s, t, ws, LOAD_MAX_PATHS, buf, err);
    }
    return st;
}

tk_status_t tk_load_generic_job(const tk_router_t *r, const tk_rows_t *rows, tk_load_job_t *job,
                                tk_error_t *err)
{
    const tk_graph_t *g = tk_router_graph(r);
    gen_ctx_t *c = calloc(1, sizeof *c);
    if (!c)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "link load: out of memory");
    c->r = r;
    c->rows = rows;
    job->par.units = g->n;
    job->par.chunk = 0;
    job->par.width = g->m;
    job->par.bound = 4.0 * tk_rows_total(rows);
    job->par.fold_map = NULL;
    job->par.ws_bytes = (size_t)(g->n + 1) * 64u;
    job->par.ctx = c;
    job->par.ws_new = gen_ws_new;
    job->par.ws_free = gen_ws_free;
    job->par.unit = gen_unit;
    job->par.unit_exact = NULL;
    job->owner = c;
    job->release = free;
    return TK_OK;
}
