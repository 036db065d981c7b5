/*
 * sim-dynamic-bench.c - the driver of tests/bench/sim-dynamic.sh: one
 * dynamic-mode run of the library (tk_sim_workload_poisson, then
 * tk_sim_dynamic) on a graph file, timed, as one TSV row.  Built by `make
 * bench` only (EXTRA_PROGRAMS); links the public library.
 *
 *   sim-dynamic-bench GRAPH ROUTING RHO SIZES HORIZON SEED THREADS [connected] [verify]
 *
 * (connected: tk_sim_dyn_opts_t.connected; verify: verify and check_bytes,
 * for small horizons: a from-scratch solve after every event.)
 * Columns: servers, flows, pairs (distinct switch pairs routed), events,
 * solves, expansions, comp_flows (mean flows re-solved per event),
 * mean_active, max_active, gen_s (workload generation), sim_s (routes and
 * simulation, wall clock), cpu_s (the same in CPU time of the process),
 * per_min (completions per minute of sim_s), per_min_cpu (of cpu_s), the
 * mean, p50 and p99 slowdown over all flows, and with verify the rates
 * compared, mismatches and the largest relative byte error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "topokit.h"

static double now_s(clockid_t c)
{
    struct timespec ts;
    clock_gettime(c, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int fail(const char *what, const tk_error_t *e)
{
    fprintf(stderr, "sim-dynamic-bench: %s: %s\n", what, e->msg);
    return 1;
}

int main(int argc, char **argv)
{
    tk_graph_t *g = NULL;
    tk_route_spec_t spec;
    tk_router_t *r = NULL;
    tk_sim_poisson_t p;
    tk_sim_workload_t *w = NULL;
    tk_sim_dyn_opts_t o;
    tk_sim_dyn_result_t res;
    tk_sim_bucket_t *b = NULL;
    int64_t nb;
    tk_error_t e;

    if (argc < 8) {
        fprintf(stderr, "usage: sim-dynamic-bench GRAPH ROUTING RHO SIZES HORIZON SEED THREADS "
                        "[connected] [verify]\n");
        return 2;
    }
    tk_sim_poisson_init(&p);
    p.rho = atof(argv[3]);
    p.horizon = atof(argv[5]);
    p.seed = strtoull(argv[6], NULL, 10);
    tk_sim_dyn_opts_init(&o);
    o.threads = atoi(argv[7]);
    for (int i = 8; i < argc; i++) {
        o.connected |= strcmp(argv[i], "connected") == 0;
        o.verify |= strcmp(argv[i], "verify") == 0;
    }
    o.check_bytes = o.verify;
    if (tk_read_file(argv[1], TK_FMT_AUTO, 0, &g, &e) != TK_OK)
        return fail(argv[1], &e);
    if (tk_route_parse(argv[2], &spec, &e) != TK_OK ||
        tk_router_new(g, &spec, o.threads, 0, &r, &e) != TK_OK)
        return fail(argv[2], &e);
    if (tk_sim_sizes_parse(argv[4], &p, &e) != TK_OK)
        return fail(argv[4], &e);
    double t0 = now_s(CLOCK_MONOTONIC);
    if (tk_sim_workload_poisson(tk_graph_total_servers(g), &p, &w, &e) != TK_OK)
        return fail("workload", &e);
    double t1 = now_s(CLOCK_MONOTONIC), c1 = now_s(CLOCK_PROCESS_CPUTIME_ID);
    if (tk_sim_dynamic(r, w, &o, &res, &e) != TK_OK)
        return fail("simulation", &e);
    double t2 = now_s(CLOCK_MONOTONIC), c2 = now_s(CLOCK_PROCESS_CPUTIME_ID);
    if (tk_sim_dyn_buckets(&res, NULL, 0, &b, &nb, &e) != TK_OK)
        return fail("buckets", &e);
    printf("servers\tflows\tpairs\tevents\tsolves\texpansions\tcomp_flows\tmean_active\t"
           "max_active\tgen_s\tsim_s\tcpu_s\tper_min\tper_min_cpu\tsd_mean\tsd_p50\tsd_p99%s\n",
           o.verify ? "\tverified\tmismatches\tbytes_err" : "");
    printf("%lld\t%lld\t%lld\t%lld\t%lld\t%lld\t%.2f\t%.1f\t%lld\t%.2f\t%.2f\t%.2f\t%.0f\t%.0f\t"
           "%.3f\t%.3f\t%.3f",
           (long long)w->nservers, (long long)w->n, (long long)res.pairs, (long long)res.events,
           (long long)res.solves, (long long)res.expansions, res.comp_flows, res.mean_active,
           (long long)res.max_active, t1 - t0, t2 - t1, c2 - c1, 60.0 * (double)w->n / (t2 - t1),
           60.0 * (double)w->n / (c2 - c1), b[0].sd_mean, b[0].sd_p50, b[0].sd_p99);
    if (o.verify)
        printf("\t%lld\t%lld\t%.3g", (long long)res.verified, (long long)res.mismatches,
               res.max_bytes_err);
    printf("\n");
    free(b);
    tk_sim_dyn_result_free(&res);
    tk_sim_workload_free(w);
    tk_router_free(r);
    tk_graph_free(g);
    return 0;
}
