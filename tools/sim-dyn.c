/*
 * sim-dyn.c - topo-sim's dynamic mode (--workload, --poisson): flows that
 * arrive, share the network max-min fairly and leave (tk_sim_dynamic);
 * one row per flow-size bucket and graph.  See topo-sim(1), DYNAMIC MODE.
 */
#include <config.h>

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo-sim.h"

void sim_dyn_header(FILE *out, args_t *a)
{
    if (!a->header_done && !a->json)
        fputs("name\trouting\tworkload\tlo\thi\tflows\tfct_mean\tfct_p50\tfct_p99\t"
              "fct_max\tslowdown_mean\tslowdown_p50\tslowdown_p99\tslowdown_max\n",
              out);
    a->header_done = 1;
}

static void dyn_progress(void *arg, double t, int64_t done, int64_t total)
{
    (void)t;
    tk_progress_set_total(arg, total);
    tk_progress_set(arg, done);
}

static tk_status_t dyn_workload(args_t *a, const tk_graph_t *g, tk_sim_workload_t **w,
                                tk_error_t *err)
{
    int64_t N = tk_graph_total_servers(g);
    if (a->workload) {
        const char *name;
        FILE *fp = cli_open_input(a->workload, &name);
        if (!fp)
            return tk_error_set(err, TK_EIO, a->workload, 0, "cannot open");
        tk_status_t st = tk_sim_workload_read(fp, name, N, w, err);
        cli_close_input(fp);
        if (st != TK_OK && !err->where[0])
            snprintf(err->where, sizeof err->where, "%s", name);
        return st;
    }
    tk_sim_poisson_t p;
    tk_sim_poisson_init(&p);
    p.rho = a->rho_lo;
    if (a->sizes) {
        tk_status_t st = tk_sim_sizes_parse(a->sizes, &p, err);
        if (st != TK_OK) {
            snprintf(err->where, sizeof err->where, "--sizes");
            return st;
        }
    }
    p.horizon = a->horizon;
    p.count = a->count;
    p.seed = a->seed;
    p.mem_limit = cli_mem_limit();
    return tk_sim_workload_poisson(N, &p, w, err);
}

/* --buckets E,...: increasing positive edges. */
static tk_status_t dyn_edges(const args_t *a, double **edges, int64_t *n, tk_error_t *err)
{
    *edges = NULL;
    *n = 0;
    if (!a->buckets)
        return TK_OK;
    int64_t cap = 1;
    for (const char *c = a->buckets; *c; c++)
        cap += *c == ',';
    double *e = tk_malloc_array((size_t)cap, sizeof *e);
    if (!e)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    char *buf = strdup(a->buckets), *save = NULL;
    if (!buf) {
        free(e);
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    }
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        char why[CLI_WHY_MAX];
        if (cli_parse_double(t, 0, HUGE_VAL, CLI_GT_MIN, &e[*n], why) ||
            (*n > 0 && e[*n] <= e[*n - 1])) {
            tk_status_t st =
                tk_error_set(err, TK_EINVAL, "--buckets", 0, "%s: %s", t,
                             *n > 0 && e[*n] <= e[*n - 1] ? "edges must increase" : why);
            free(buf);
            free(e);
            return st;
        }
        (*n)++;
    }
    free(buf);
    *edges = e;
    return TK_OK;
}

static void dyn_bucket_row(FILE *fp, const args_t *a, const char *name, const char *wl,
                           const tk_sim_bucket_t *b, const tk_sim_dyn_result_t *r, int all)
{
    cli_row_t row;
    cli_row_begin(&row, fp, a->json);
    cli_cell_text(&row, "name", name);
    cli_cell_text(&row, "routing", a->spec.text);
    cli_cell_text(&row, "workload", wl);
    cli_cell_double(&row, "lo", b->lo);
    cli_cell_double(&row, "hi", b->hi);
    cli_cell_int(&row, "flows", b->count, 0);
    cli_cell_double(&row, "fct_mean", b->fct_mean);
    cli_cell_double(&row, "fct_p50", b->fct_p50);
    cli_cell_double(&row, "fct_p99", b->fct_p99);
    cli_cell_double(&row, "fct_max", b->fct_max);
    cli_cell_double(&row, "slowdown_mean", b->sd_mean);
    cli_cell_double(&row, "slowdown_p50", b->sd_p50);
    cli_cell_double(&row, "slowdown_p99", b->sd_p99);
    cli_cell_double(&row, "slowdown_max", b->sd_max);
    if (a->json && all) {
        cli_cell_bool(&row, "all", 1);
        cli_cell_double(&row, "end", r->end);
        cli_cell_int(&row, "events", r->events, 0);
        cli_cell_int(&row, "solves", r->solves, 0);
        cli_cell_double(&row, "component_flows", r->comp_flows);
        cli_cell_double(&row, "mean_active", r->mean_active);
        cli_cell_int(&row, "max_active", r->max_active, 0);
    }
    cli_row_end(&row);
}

int sim_dyn_graph(FILE *out, args_t *a, const tk_graph_t *g, const char *input, long index)
{
    char name[1024], wl[256];
    tk_router_t *rt = NULL;
    tk_sim_workload_t *w = NULL;
    tk_sim_dyn_result_t res;
    tk_sim_bucket_t *bk = NULL, *ball = NULL;
    int64_t nb = 0, nball = 0, nedges = 0;
    double *edges = NULL;
    tk_error_t err;
    int rc = 0;
    cli_out_t wout;

    memset(&res, 0, sizeof res);
    memset(&wout, 0, sizeof wout);
    tk_error_clear(&err);
    cli_graph_name(g, input, index, name, sizeof name);
    if (a->workload)
        snprintf(wl, sizeof wl, "%s", a->workload);
    else
        snprintf(wl, sizeof wl, "poisson rho=%g sizes=%s s=%" PRIu64, a->rho_lo,
                 a->sizes ? a->sizes : "fixed:1", a->seed);
    if (dyn_edges(a, &edges, &nedges, &err) != TK_OK ||
        tk_router_new(g, &a->spec, a->threads, cli_mem_limit(), &rt, &err) != TK_OK) {
        rc = sim_fail_graph(input, index, &err);
        goto done;
    }
    if (dyn_workload(a, g, &w, &err) != TK_OK) {
        /* a bad line of the workload file: FILE:LINE: message */
        if (a->workload && err.line > 0) {
            cli_error(&err);
            rc = 1;
        } else {
            rc = sim_fail_graph(input, index, &err);
        }
        goto done;
    }
    if (a->write_workload) {
        if (cli_out_open(&wout, a->write_workload)) {
            rc = 1;
            goto done;
        }
        if (tk_sim_workload_write(wout.fp, w, &err) != TK_OK) {
            cli_out_abort(&wout);
            rc = sim_fail_graph(input, index, &err);
            goto done;
        }
        if (cli_out_commit(&wout)) {
            rc = 1;
            goto done;
        }
    }
    tk_sim_dyn_opts_t o;
    tk_sim_dyn_opts_init(&o);
    o.threads = a->threads;
    o.mem_limit = cli_mem_limit();
    o.verify = a->verify;
    o.progress = dyn_progress;
    o.progress_arg = cli_meter_graph(input, index);
    double t0 = sim_now();
    tk_progress_begin(o.progress_arg, "dynamic", "flows completed", w->n);
    tk_status_t st = tk_sim_dynamic(rt, w, &o, &res, &err);
    if (st == TK_OK)
        tk_progress_set(o.progress_arg, res.nflows);
    tk_progress_end(o.progress_arg);
    if (st != TK_OK) {
        rc = sim_fail_graph(input, index, &err);
        goto done;
    }
    cli_progress("%s: graph %ld: %" PRId64 " flows, %" PRId64 " events in %.3f s", input, index,
                 res.nflows, res.events, sim_now() - t0);
    if (a->verify && res.mismatches > 0) {
        tk_error_set(&err, TK_EINTERNAL, NULL, 0,
                     "%" PRId64 " of %" PRId64
                     " rates differ from a solve from scratch (largest relative "
                     "difference %g)",
                     res.mismatches, res.verified, res.max_rel_diff);
        rc = sim_fail_graph(input, index, &err);
        goto done;
    }
    double one_edge = 1; /* non-NULL with no edges: one bucket of every flow */
    if (tk_sim_dyn_buckets(&res, edges, nedges, &bk, &nb, &err) != TK_OK ||
        tk_sim_dyn_buckets(&res, &one_edge, 0, &ball, &nball, &err) != TK_OK) {
        rc = sim_fail_graph(input, index, &err);
        goto done;
    }
    sim_dyn_header(out, a);
    for (int64_t i = 0; i < nb; i++)
        dyn_bucket_row(out, a, name, wl, &bk[i], &res, 0);
    for (int64_t i = 0; i < nball; i++)
        dyn_bucket_row(out, a, name, wl, &ball[i], &res, 1);
    if (a->flfp) {
        for (int64_t i = 0; i < res.nflows; i++) {
            cli_row_t row;
            cli_row_begin(&row, a->flfp, a->json);
            cli_cell_text(&row, "name", name);
            cli_cell_int(&row, "flow", i, 0);
            cli_cell_int(&row, "src", w->f[i].src, 0);
            cli_cell_int(&row, "dst", w->f[i].dst, 0);
            cli_cell_double(&row, "size", res.size[i]);
            cli_cell_double(&row, "start", res.start[i]);
            cli_cell_double(&row, "finish", res.finish[i]);
            cli_cell_double(&row, "fct", res.finish[i] - res.start[i]);
            cli_cell_double(&row, "slowdown", (res.finish[i] - res.start[i]) / res.size[i]);
            cli_row_end(&row);
        }
    }
done:
    free(edges);
    free(bk);
    free(ball);
    tk_sim_dyn_result_free(&res);
    tk_sim_workload_free(w);
    tk_router_free(rt);
    return rc;
}
