/*
 * load.c - link load of switch-level demands under a routing model
 * (tk_load.h): the plan (the model's load engine, or the per-pair engine of
 * generic.c) run by the parallel driver (tk_par.h), and the uniform
 * all-to-all of topo-load(1).
 *
 * Determinism.  The units (sources or destinations) are cut into fixed
 * chunks whatever the thread count; a chunk's contributions are summed in
 * doubles in unit order, then truncated once to 128-bit fixed point and
 * added into integer accumulators, so the loads are byte-identical for any
 * number of threads and any split of the units into slices (tk_par.h).
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "load/load_internal.h"

struct tk_load_plan {
    tk_rows_t rows;
    tk_load_job_t job;
};

void tk_load_plan_free(tk_load_plan_t *p)
{
    if (!p)
        return;
    tk_load_job_release(&p->job);
    free(p);
}

/* The plan of rows on r: the model's engine, or the per-pair one. */
static tk_status_t plan_rows(const tk_router_t *r, const tk_rows_t *rows, tk_load_plan_t **out,
                             tk_error_t *err)
{
    const tk_graph_t *g = tk_router_graph(r);
    tk_status_t st = tk_rows_check(g, rows, err);
    if (st != TK_OK)
        return st;
    tk_load_plan_t *p = calloc(1, sizeof *p);
    if (!p)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "link load: out of memory");
    p->rows = *rows;
    st = tk_route_load_job(r, &p->rows, &p->job, err);
    if (st == TK_EUNSUPPORTED)
        st = tk_load_generic_job(r, &p->rows, &p->job, err);
    if (st != TK_OK) {
        tk_load_plan_free(p);
        return st;
    }
    *out = p;
    return TK_OK;
}

tk_status_t tk_load_plan_new(const tk_router_t *r, const tk_swdemand_t *dem, const double *srcw,
                             tk_load_plan_t **out, tk_error_t *err)
{
    if (!r || !out)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "tk_load_plan_new: NULL argument");
    tk_rows_t rows = {tk_router_graph(r)->n, NULL, NULL, NULL, srcw};
    if (dem) {
        rows.n = dem->n;
        rows.off = dem->off;
        rows.dst = dem->dst;
        rows.w = dem->w;
        rows.srcw = NULL;
    }
    return plan_rows(r, &rows, out, err);
}

const tk_par_job_t *tk_load_plan_job(const tk_load_plan_t *p)
{
    return &p->job.par;
}

static tk_status_t plan_run(const tk_router_t *r, const tk_swdemand_t *dem, const double *srcw,
                            int threads, double *arcload, tk_error_t *err)
{
    tk_load_plan_t *p = NULL;
    tk_status_t st = tk_load_plan_new(r, dem, srcw, &p, err);
    if (st == TK_OK) {
        tk_progress_t *pr = tk_router_progress(r);
        p->job.par.progress = pr;
        tk_progress_begin(pr, "link loads", "switches", p->job.par.units);
        st = tk_par_sum_with(tk_router_runner(r), &p->job.par, threads, arcload, err);
        tk_progress_end(pr);
    }
    tk_load_plan_free(p);
    return st;
}

/* tk_load_compute: see tk_load.h. */
tk_status_t tk_load_compute(const tk_router_t *r, const tk_swdemand_t *dem, int threads,
                            double *arcload, tk_error_t *err)
{
    if (!dem)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "tk_load_compute: NULL demands");
    if (!r || !arcload)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "tk_load_compute: NULL argument");
    return plan_run(r, dem, NULL, threads, arcload, err);
}

/* tk_load_all_to_all: see tk_load.h. */
tk_status_t tk_load_all_to_all(const tk_router_t *r, const double *srcw, int threads,
                               double *arcload, tk_error_t *err)
{
    if (!r || !arcload)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "tk_load_compute: NULL argument");
    return plan_run(r, NULL, srcw, threads, arcload, err);
}

tk_status_t tk_load_graph(const tk_graph_t *g, const char *model, const tk_swdemand_t *dem,
                          const double *srcw, int threads, double *arcload, tk_error_t *err)
{
    tk_route_spec_t spec;
    tk_router_t *r = NULL;
    tk_status_t st = tk_route_parse(model, &spec, err);
    if (st == TK_OK)
        st = tk_router_bare(g, &spec, &r, err);
    if (st == TK_OK)
        st = plan_run(r, dem, srcw, threads, arcload, err);
    tk_router_free(r);
    return st;
}

/* tk_load_bytes: see tk_load.h. */
uint64_t tk_load_bytes(const tk_graph_t *g, int threads)
{
    if (!g)
        return 0;
    unsigned __int128 b = ((unsigned __int128)g->m * 32u + ((unsigned __int128)g->n + 1) * 64u) *
                          (unsigned)(threads > 0 ? threads : 1);
    return b > UINT64_MAX ? UINT64_MAX : (uint64_t)b;
}

/* tk_load_uniform: see tk_load.h. */
tk_status_t tk_load_uniform(const tk_router_t *r, int threads, double *pair_load, double *cap_load,
                            double *limit, tk_error_t *err)
{
    const tk_graph_t *g = tk_router_graph(r);
    int64_t nserv = tk_graph_total_servers(g);
    int32_t p0 = nserv > 0 ? tk_graph_servers(g, 0) : 1;
    int same = 1;
    tk_status_t st = TK_OK;

    if (!cap_load)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "tk_load_uniform: NULL output");
    for (tk_id_t u = 0; u < g->n && nserv > 0; u++)
        same &= tk_graph_servers(g, u) == p0;
    if (limit)
        *limit = 1.0;
    if (g->n < 2) {
        for (int64_t x = 0; x < g->m; x++) {
            cap_load[x] = 0;
            if (pair_load)
                pair_load[x] = 0;
        }
        return TK_OK;
    }
    if (same) {
        /* p servers on every switch: route once at one unit per pair, then
         * scale by p / (n-1); every server receives exactly 1. */
        double scale = (double)p0 / (double)(g->n - 1);
        st = tk_load_all_to_all(r, NULL, threads, pair_load ? pair_load : cap_load, err);
        if (st != TK_OK)
            return st;
        for (int64_t x = 0; x < g->m; x++)
            cap_load[x] = (pair_load ? pair_load[x] : cap_load[x]) * scale;
        return TK_OK;
    }
    /* Servers on some switches only, or in different numbers: the
     * server-level demands, explicitly. */
    tk_swdemand_t d;
    memset(&d, 0, sizeof d);
    st = tk_swdemand_uniform(g, tk_memory_limit_default(), &d, err);
    if (st == TK_OK)
        st = tk_load_compute(r, &d, threads, cap_load, err);
    if (st == TK_OK && pair_load) {
        for (int64_t k = 0; k < d.len; k++)
            d.w[k] = 1.0;
        st = tk_load_compute(r, &d, threads, pair_load, err);
    }
    if (st == TK_OK && limit)
        *limit = tk_swdemand_limit(&d);
    tk_swdemand_destroy(&d);
    return st;
}

/* tk_load_uniform_throughput: see tk_load.h. */
tk_status_t tk_load_uniform_throughput(const tk_router_t *r, int threads, double *out,
                                       tk_error_t *err)
{
    const tk_graph_t *g;
    tk_load_summary_t sum;
    double limit = 1;
    tk_status_t st;
    if (!r || !out)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "tk_load_uniform_throughput: NULL argument");
    g = tk_router_graph(r);
    if (g->n < 2) {
        *out = 1;
        return TK_OK;
    }
    double *load = tk_malloc_array((size_t)(g->m > 0 ? g->m : 1), sizeof *load);
    if (!load)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    memset(&sum, 0, sizeof sum);
    st = tk_load_uniform(r, threads, NULL, load, &limit, err);
    if (st == TK_OK)
        st = tk_load_summarize(g, load, &sum, err);
    if (st == TK_OK) {
        double ml = sum.max_load[sum.nclasses];
        *out = tk_throughput(ml > 0 ? 1.0 / ml : INFINITY, limit);
    }
    tk_load_summary_destroy(&sum);
    free(load);
    return st;
}
