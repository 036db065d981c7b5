/*
 * route.c - the router: a routing model prepared for one graph (hop
 * lengths, reverse graph, connectivity, distance table, the model's own
 * state), its per-thread workspaces, and the dispatch of every query
 * through the model's table of operations (route_internal.h).  This file
 * and parse.c are the only places that map a kind to its model.
 */
#include <config.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "route/route_internal.h"

/* Every model, in tk_route_kind_t order. */
static const rt_model_t *const models[] = {
    &rt_model_min,   &rt_model_ecmp,      &rt_model_ksp,       &rt_model_allpath, &rt_model_valiant,
    &rt_model_dfmin, &rt_model_dfvaliant, &rt_model_polarized, &rt_model_dor,     &rt_model_vdor,
    &rt_model_dfcrg, &rt_model_dfugal,    &rt_model_dfpar,     &rt_model_dfolm};
#define NMODELS ((int)(sizeof models / sizeof models[0]))

const rt_model_t *rt_model_of(tk_route_kind_t kind)
{
    return (int)kind >= 0 && (int)kind < NMODELS ? models[kind] : NULL;
}

const rt_model_t *rt_model_named(const char *name)
{
    for (int k = 0; k < NMODELS; k++)
        if (strcmp(models[k]->name, name) == 0)
            return models[k];
    return NULL;
}

/* ------------------------------------------------------------------------ */
/* Router.                                                                  */

static void groups_free(rt_groups_t *df)
{
    if (!df)
        return;
    free(df->gof);
    free(df->gstart);
    free(df->gmem);
    free(df->lidx);
    free(df->ldoff);
    free(df->ldist);
    free(df->gaoff);
    free(df->garc);
    free(df);
}

void tk_router_free(tk_router_t *r)
{
    if (!r)
        return;
    tk_graph_free(r->rg);
    free(r->table);
    groups_free(r->df);
    if (r->aux_free)
        r->aux_free(r->aux);
    free(r);
}

/* The hop length of every class from the spec's CLASS=LEN options. */
static tk_status_t set_lengths(tk_router_t *r, tk_error_t *err)
{
    const tk_route_spec_t *spec = &r->spec;
    int32_t maxlen = 1;
    for (int c = 0; c < TK_MAX_CLASSES; c++)
        r->clen[c] = 1;
    for (int i = 0; i < spec->nweights; i++) {
        int c = tk_graph_class_index(r->g, spec->wclass[i]);
        if (c < 0)
            return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                                "%s: the graph has no link class '%s'", spec->text,
                                spec->wclass[i]);
        r->clen[c] = spec->wlen[i];
        if (spec->wlen[i] != 1)
            r->weighted = 1;
        if (spec->wlen[i] > maxlen)
            maxlen = spec->wlen[i];
    }
    if ((int64_t)maxlen * (int64_t)r->g->n >= INT32_MAX / 2)
        return tk_error_set(err, TK_ELIMIT, NULL, 0,
                            "%s: path lengths could exceed 2^30 (n=%" PRId32 ")", spec->text,
                            r->g->n);
    return TK_OK;
}

tk_status_t tk_router_new(const tk_graph_t *g, const tk_route_spec_t *spec, int threads,
                          uint64_t mem_limit, tk_router_t **out, tk_error_t *err)
{
    tk_router_t *r;
    tk_status_t st;

    if (!g || !spec || !out)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "tk_router_new: NULL argument");
    if (!rt_model_of(spec->kind))
        return tk_error_set(err, TK_EINVAL, NULL, 0, "tk_router_new: unknown routing model");
    if (g->n <= 0)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "%s: empty graph", spec->text);
    r = calloc(1, sizeof *r);
    if (!r)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    r->g = g;
    r->spec = *spec;
    r->model = rt_model_of(spec->kind);
    if ((st = set_lengths(r, err)) != TK_OK)
        goto fail;
    if (g->directed && (st = tk_graph_reverse(g, &r->rg, err)) != TK_OK)
        goto fail;
    if ((st = rt_dist_prepare(r, threads, mem_limit, err)) != TK_OK)
        goto fail;
    if (r->model->prepare && (st = r->model->prepare(r, threads, err)) != TK_OK)
        goto fail;
    *out = r;
    return TK_OK;
fail:
    tk_router_free(r);
    return st;
}

tk_status_t tk_router_bare(const tk_graph_t *g, const tk_route_spec_t *spec, tk_router_t **out,
                           tk_error_t *err)
{
    tk_router_t *r = calloc(1, sizeof *r);
    tk_status_t st;
    if (!r)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    r->g = g;
    r->spec = *spec;
    r->model = rt_model_of(spec->kind);
    if ((st = set_lengths(r, err)) != TK_OK) {
        tk_router_free(r);
        return st;
    }
    *out = r;
    return TK_OK;
}

void tk_router_set_progress(tk_router_t *r, tk_progress_t *p)
{
    if (r)
        r->progress = p;
}

tk_progress_t *tk_router_progress(const tk_router_t *r)
{
    return r ? r->progress : NULL;
}

const tk_graph_t *tk_router_graph(const tk_router_t *r)
{
    return r->g;
}

void tk_router_set_runner(tk_router_t *r, const tk_par_runner_t *runner)
{
    if (r)
        r->runner = runner;
}

const tk_par_runner_t *tk_router_runner(const tk_router_t *r)
{
    return r ? r->runner : NULL;
}

const tk_route_spec_t *tk_router_spec(const tk_router_t *r)
{
    return &r->spec;
}

/* ------------------------------------------------------------------------ */
/* Workspace.                                                               */

void tk_route_ws_free(tk_route_ws_t *ws)
{
    if (!ws)
        return;
    for (int i = 0; i < RT_NCACHE; i++)
        free(ws->dc[i]);
    tk_lbfs_free(&ws->bfs);
    free(ws->heap);
    free(ws->stamp);
    free(ws->cnt);
    free(ws->hsum);
    free(ws->eh);
    free(ws->hmin);
    free(ws->hmax);
    free(ws->nnext);
    free(ws->stk);
    free(ws->sarc);
    free(ws->path);
    free(ws->pw);
    free(ws->onpath);
    free(ws->mind);
    free(ws->skey);
    free(ws->sseq);
    free(ws->shops);
    free(ws->sbuf);
    free(ws->srank);
    tk_pathset_destroy(&ws->seg1);
    tk_pathset_destroy(&ws->seg2);
    tk_pathset_destroy(&ws->tmp);
    tk_pathset_destroy(&ws->lp1);
    tk_pathset_destroy(&ws->lp2);
    tk_pathset_destroy(&ws->dv1);
    tk_pathset_destroy(&ws->dv2);
    free(ws);
}

tk_status_t tk_route_ws_new(const tk_router_t *r, tk_route_ws_t **out, tk_error_t *err)
{
    tk_route_ws_t *ws = calloc(1, sizeof *ws);
    size_t n = (size_t)r->g->n;
    int bad = !ws;
    if (ws) {
        ws->r = r;
        ws->n = r->g->n;
        for (int i = 0; i < RT_NCACHE; i++) {
            ws->dc[i] = tk_malloc_array(n, sizeof(int32_t));
            ws->dkey[i] = -1;
            bad |= !ws->dc[i];
        }
        bad |= tk_lbfs_init(&ws->bfs, r->g, 0) != 0;
        ws->heap = tk_malloc_array((size_t)r->g->m + 1, sizeof *ws->heap);
        ws->stamp = tk_calloc_array(n, sizeof *ws->stamp);
        ws->cnt = tk_malloc_array(n, sizeof *ws->cnt);
        ws->hsum = tk_malloc_array(n, sizeof *ws->hsum);
        ws->eh = tk_malloc_array(n, sizeof *ws->eh);
        ws->hmin = tk_malloc_array(n, sizeof *ws->hmin);
        ws->hmax = tk_malloc_array(n, sizeof *ws->hmax);
        ws->nnext = tk_malloc_array(n, sizeof *ws->nnext);
        ws->stk = tk_malloc_array(n + 1, sizeof *ws->stk);
        ws->sarc = tk_malloc_array(n + 1, sizeof *ws->sarc);
        ws->path = tk_malloc_array(2 * n + 4, sizeof *ws->path);
        ws->pw = tk_malloc_array(2 * n + 4, sizeof *ws->pw);
        ws->onpath = tk_calloc_array(n, 1);
        ws->mind = tk_malloc_array(n + 1, sizeof *ws->mind);
        bad |= !ws->heap || !ws->stamp || !ws->cnt || !ws->hsum || !ws->eh || !ws->hmin ||
               !ws->hmax || !ws->nnext || !ws->stk || !ws->sarc || !ws->path || !ws->pw ||
               !ws->onpath || !ws->mind;
    }
    if (bad) {
        tk_route_ws_free(ws);
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (n=%zu)", n);
    }
    *out = ws;
    return TK_OK;
}

/* ------------------------------------------------------------------------ */
/* Queries, dispatched to the model.                                        */

static tk_status_t check_pair(const tk_router_t *r, tk_id_t s, tk_id_t t, tk_error_t *err)
{
    if (s < 0 || s >= r->g->n || t < 0 || t >= r->g->n)
        return tk_error_set(err, TK_ERANGE, NULL, 0,
                            "pair %" PRId32 ",%" PRId32 ": switch ids are 0..%" PRId32, s, t,
                            r->g->n - 1);
    return TK_OK;
}

tk_status_t tk_route_paths(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s, tk_id_t t,
                           uint64_t max_paths, tk_pathset_t *out, tk_error_t *err)
{
    tk_status_t st = check_pair(r, s, t, err);
    if (st)
        return st;
    rt_ps_clear(out);
    if (s == t)
        return rt_ps_push(out, NULL, 0, 1.0, err);
    return r->model->paths(r, ws, s, t, max_paths, out, err);
}

/* Paths enumerated to count them, at most this many. */
#define RT_COUNT_ENUM_MAX 4000000

tk_status_t tk_route_count(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s, tk_id_t t,
                           tk_route_count_t *out, tk_error_t *err)
{
    tk_status_t st = check_pair(r, s, t, err);
    if (st)
        return st;
    if (s == t) {
        memset(out, 0, sizeof *out);
        out->paths = out->walks = 1;
        return TK_OK;
    }
    if (r->model->count)
        return r->model->count(r, ws, s, t, out, err);
    /* Enumerate; the walks are the paths merged. */
    if ((st = tk_route_paths(r, ws, s, t, RT_COUNT_ENUM_MAX, &ws->tmp, err)) != TK_OK)
        return st;
    double paths = (double)ws->tmp.npaths;
    /* Lengths and the mean over the distinct walks (the mean is the same
     * sum, taken walk by walk). */
    if (rt_ps_has_via(&ws->tmp) && (st = tk_pathset_merge_walks(&ws->tmp, err)) != TK_OK)
        return st;
    rt_ps_count(&ws->tmp, out);
    out->paths = paths;
    return TK_OK;
}

tk_status_t tk_route_candidates(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s, tk_id_t t,
                                uint64_t max_paths, tk_route_cands_t *out, tk_error_t *err)
{
    tk_status_t st = check_pair(r, s, t, err);
    if (st)
        return st;
    rt_ps_clear(&out->min);
    rt_ps_clear(&out->nonmin);
    out->ngroups = 0;
    if (s == t)
        st = rt_ps_push(&out->min, NULL, 0, 1.0, err);
    else if (r->model->candidates)
        st = r->model->candidates(r, ws, s, t, max_paths, out, err);
    else
        st = r->model->paths(r, ws, s, t, max_paths, &out->min, err);
    if (st == TK_OK)
        st = rt_cands_finish(r, out, err);
    return st;
}

tk_status_t tk_route_segment(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t u, tk_id_t v,
                             uint64_t max_paths, tk_pathset_t *out, tk_error_t *err)
{
    tk_status_t st = check_pair(r, u, v, err);
    if (st)
        return st;
    rt_ps_clear(out);
    if (!r->model->segment)
        return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0, "%s: no segments", r->spec.text);
    return r->model->segment(r, ws, u, v, max_paths, out, err);
}

int tk_route_via_ok(const tk_router_t *r, tk_id_t x, tk_id_t m)
{
    return r->model->via_ok ? r->model->via_ok(r, x, m) : -1;
}

/* ------------------------------------------------------------------------ */
/* Load engines.                                                            */

tk_status_t tk_route_load_job(const tk_router_t *r, const tk_rows_t *rows, tk_load_job_t *job,
                              tk_error_t *err)
{
    memset(job, 0, sizeof *job);
    if (!r->model->load)
        return TK_EUNSUPPORTED;
    return r->model->load(r, rows, job, err);
}

tk_status_t tk_route_pair_load(const tk_router_t *r, tk_route_ws_t *ws, tk_pathset_t *ps, tk_id_t s,
                               tk_id_t t, double wd, uint64_t max_paths, double *buf,
                               tk_error_t *err)
{
    tk_status_t st = tk_route_paths(r, ws, s, t, max_paths, ps, err);
    if (st != TK_OK)
        return st;
    /* Equal walks through different intermediates load the arcs once,
     * with their summed weight (the sums of the distinct walks). */
    if (rt_ps_has_via(ps) && (st = tk_pathset_merge_walks(ps, err)) != TK_OK)
        return st;
    return rt_ps_accumulate(ps, s, t, wd, buf, err);
}

void tk_load_job_release(tk_load_job_t *job)
{
    if (job && job->release)
        job->release(job->owner);
    if (job)
        memset(job, 0, sizeof *job);
}
