/*
 * test_mcf.c - maximum concurrent flow against closed forms: complete
 * graphs, rings, hypercubes and tori under uniform traffic (path-length and
 * bisection bounds coincide), Dragonfly ADV+1 under minimal routing
 * (l / (a p)), Remark 1's Ant Mill on a cycle (1 / (p lambda)); the
 * approximation within its own certified gap of the exact value; the
 * path formulation with every simple path equal to the arc formulation;
 * the time-limit and GLPK-failure paths (the latter through the GLPK
 * glue's internal test seam); bad inputs; the approximation's first
 * trees against ring distances, computed elsewhere and handed back.
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mcf/mcf_internal.h"
#include "tap.h"
#include "topokit.h"

/* Demand set built by hand: pairs (s, t, w) in link-capacity units. */
static void demand_build(tk_swdemand_t *d, tk_id_t n, int64_t len, const tk_id_t *s,
                         const tk_id_t *t, const double *w)
{
    memset(d, 0, sizeof *d);
    d->n = n;
    d->len = len;
    d->off = calloc((size_t)n + 1, sizeof *d->off);
    d->dst = malloc(((size_t)len + 1) * sizeof *d->dst);
    d->w = malloc(((size_t)len + 1) * sizeof *d->w);
    d->inject = calloc((size_t)n, sizeof *d->inject);
    d->eject = calloc((size_t)n, sizeof *d->eject);
    /* input sorted by source */
    for (int64_t k = 0; k < len; k++)
        d->off[s[k] + 1]++;
    for (tk_id_t v = 0; v < n; v++)
        d->off[v + 1] += d->off[v];
    for (int64_t k = 0; k < len; k++) {
        d->dst[k] = t[k];
        d->w[k] = w[k];
        d->total += w[k];
    }
}

static double solve_lp(const tk_graph_t *g, const tk_swdemand_t *d, tk_mcf_method_t meth,
                       tk_mcf_lp_t lp, double eps, tk_mcf_result_t *res)
{
    tk_mcf_opts_t o;
    tk_error_t err;
    tk_mcf_opts_init(&o);
    o.method = meth;
    o.lp = lp;
    o.eps = eps;
    if (tk_mcf_solve(g, d, &o, res, &err) != TK_OK) {
        printf("# solve failed: %s\n", err.msg);
        return NAN;
    }
    return res->theta;
}

static double solve(const tk_graph_t *g, const tk_swdemand_t *d, tk_mcf_method_t meth, double eps,
                    tk_mcf_result_t *res)
{
    return solve_lp(g, d, meth, TK_MCF_LP_AUTO, eps, res);
}

/* exact == want; approx brackets exact within its reported gap <= eps */
static void check_uniform(tk_graph_t *g, double want, const char *what)
{
    tk_swdemand_t d;
    tk_mcf_result_t ex, ap;
    tk_error_t err;
    double eps = 0.02;

    if (!ok(tk_mcf_uniform(g, 0, &d, &err) == TK_OK, "%s: uniform demand", what))
        return;
    double th = solve(g, &d, TK_MCF_EXACT, 0.01, &ex);
    is_dbl(th, want, 1e-9 * want, "%s: exact theta = %.6g", what, want);
    ok(ex.method == TK_MCF_EXACT && ex.gap == 0 && ex.upper == ex.theta, "%s: exact gap 0", what);
    /* the barrier: shortest paths carry these optima, so it certifies */
    tk_mcf_result_t br;
    double tb = solve_lp(g, &d, TK_MCF_EXACT, TK_MCF_LP_BARRIER, 0.01, &br);
    ok(br.barrier == 1 && br.method == TK_MCF_EXACT, "%s: barrier certified", what);
    is_dbl(tb, want, 1e-9 * want, "%s: barrier theta = %.6g", what, want);
    ok(br.theta <= br.upper && br.upper >= want * (1 - 1e-12) && br.gap <= 1e-9 &&
           fabs(br.gap - (br.upper - br.theta) / br.upper) < 1e-15,
       "%s: barrier bounds [%.17g, %.17g] hold the optimum, gap %.2g <= 1e-9", what, br.theta,
       br.upper, br.gap);
    tk_mcf_result_destroy(&br);
    solve(g, &d, TK_MCF_APPROX, eps, &ap);
    ok(ap.method == TK_MCF_APPROX, "%s: approx ran", what);
    ok(ap.theta <= th * (1 + 1e-9) && ap.upper >= th * (1 - 1e-9),
       "%s: approx bounds [%.9g, %.9g] bracket the exact %.9g", what, ap.theta, ap.upper, th);
    ok(ap.gap <= eps + 1e-12 && fabs(ap.gap - (ap.upper - ap.theta) / ap.upper) < 1e-12,
       "%s: approx reported gap %.3g <= eps %.3g", what, ap.gap, eps);
    tk_mcf_result_destroy(&ex);
    tk_mcf_result_destroy(&ap);
    tk_swdemand_destroy(&d);
    tk_graph_free(g);
}

static void closed_forms(void)
{
    tk_graph_t *g;
    tk_error_t err;

    for (int n = 3; n <= 7; n += 2) {
        char what[64];
        tk_gen_complete(n, &g, &err);
        snprintf(what, sizeof what, "K_%d", n);
        /* demand 1/(n-1) per pair, all on the direct link */
        check_uniform(g, n - 1, what);
    }
    for (int n = 5; n <= 10; n += 5) {
        char what[64];
        /* sum of distances from a switch: n^2/4 (even), (n^2-1)/4 (odd) */
        double sd = n % 2 ? (n * n - 1) / 4.0 : n * n / 4.0;
        tk_gen_ring(n, &g, &err);
        snprintf(what, sizeof what, "ring C_%d", n);
        check_uniform(g, 2.0 * (n - 1) / sd, what);
    }
    for (int k = 3; k <= 4; k++) {
        char what[64];
        double n = 1 << k;
        tk_gen_hypercube(k, &g, &err);
        snprintf(what, sizeof what, "hypercube Q_%d", k);
        /* bisection: n/2 arcs each way carry (n/2)^2/(n-1) */
        check_uniform(g, 2 * (n - 1) / n, what);
    }
    {
        int64_t sides[2] = {6, 6};
        double k = 6, n = 36;
        tk_gen_grid(sides, 2, 1, &g, &err);
        /* bisection: 2k arcs each way carry (n/2)^2/(n-1) */
        check_uniform(g, 2 * k * (n - 1) / (n * n / 4), "torus 6x6");
    }
}

/* Remark 1 of the Ant Mill paper (the adverse pattern of Hamiltonian
 * cycles with unique shortest paths on random regular graphs): switch x_i sends all p of its
 * servers' traffic to x_{i+lambda} along a cycle with unique shortest paths: under minimal routing
 * every cycle arc carries p*lambda, so theta = 1/(p lambda). */
static void antmill_cycle(void)
{
    tk_graph_t *g;
    tk_error_t err;
    tk_route_spec_t spec;
    tk_router_t *r;
    int n = 11, p = 3;

    tk_gen_ring(n, &g, &err);
    tk_route_parse("min", &spec, &err);
    if (!ok(tk_router_new(g, &spec, 1, 0, &r, &err) == TK_OK, "router min on C_11"))
        return;
    for (int lambda = 1; lambda <= 4; lambda++) {
        tk_id_t s[11], t[11];
        double w[11];
        tk_swdemand_t d;
        tk_mcf_opts_t o;
        tk_mcf_result_t res;
        for (int i = 0; i < n; i++) {
            s[i] = i;
            t[i] = (i + lambda) % n;
            w[i] = p;
        }
        demand_build(&d, n, n, s, t, w);
        tk_mcf_opts_init(&o);
        ok(tk_mcf_solve_paths(r, &d, 0, &o, &res, &err) == TK_OK, "ant mill lambda=%d", lambda);
        is_dbl(res.theta, 1.0 / (p * lambda), 1e-9, "ant mill lambda=%d: theta = 1/(p lambda)",
               lambda);
        tk_mcf_result_destroy(&res);
        /* unrestricted, the short way and the long way share: n / (p (n)) ... */
        ok(tk_mcf_solve(g, &d, &o, &res, &err) == TK_OK, "ant mill unrestricted");
        /* each switch sends p; clockwise costs lambda arcs, counter-clockwise
         * n - lambda; capacity n per direction: p*x*lambda = n, p*(1-x)*(n-lambda) = n
         * balanced -> theta = n / (p lambda) ... per direction: theta*p*lambda*x*n/n */
        is_dbl(res.theta, 1.0 / (p * lambda) + 1.0 / (p * (n - lambda)), 1e-9,
               "ant mill lambda=%d unrestricted: 1/(p l) + 1/(p (n-l))", lambda);
        tk_mcf_result_destroy(&res);
        tk_swdemand_destroy(&d);
    }
    tk_router_free(r);
    tk_graph_free(g);
}

/* Dragonfly ADV+1 under minimal routing: a*p servers of a group share the
 * l global links to the next group: theta = l / (a p). */
static void dragonfly_adv(void)
{
    struct {
        int a, h, p, g;
        const char *route;
        int l;
    } cases[] = {
        {4, 1, 2, 5, "min", 1},
        {4, 2, 2, 9, "dragonfly-min", 1},
        {4, 2, 2, 5, "dragonfly-min", 2},
        {3, 2, 3, 4, "dragonfly-min", 2},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        tk_graph_t *g;
        tk_error_t err;
        tk_pattern_t *pat;
        tk_swdemand_t d;
        tk_route_spec_t spec;
        tk_router_t *r;
        tk_mcf_opts_t o;
        tk_mcf_result_t res;
        char *params[] = {"i=1"};
        int a = cases[c].a, p = cases[c].p;
        if (!ok(tk_gen_dragonfly(p, a, cases[c].h, cases[c].g, TK_ARR_PALMTREE, 1, 0, &g, &err) ==
                        TK_OK &&
                    tk_pattern_make(g, "adv", 1, params, 1, 1, &pat, &err) == TK_OK &&
                    tk_pattern_to_switch(pat, g, &d, &err) == TK_OK &&
                    tk_route_parse(cases[c].route, &spec, &err) == TK_OK &&
                    tk_router_new(g, &spec, 1, 0, &r, &err) == TK_OK,
                "dragonfly a=%d h=%d p=%d g=%d set up", a, cases[c].h, p, cases[c].g)) {
            printf("# %s\n", err.msg);
            continue;
        }
        tk_mcf_opts_init(&o);
        o.server_limits = 1;
        ok(tk_mcf_solve_paths(r, &d, 0, &o, &res, &err) == TK_OK, "ADV+1 solve");
        is_dbl(res.theta, (double)cases[c].l / (a * p), 1e-9,
               "dragonfly a=%d h=%d p=%d g=%d, ADV+1 under %s: l/(a p) = %d/%d", a, cases[c].h, p,
               cases[c].g, cases[c].route, cases[c].l, a * p);
        tk_mcf_result_destroy(&res);
        tk_router_free(r);
        tk_swdemand_destroy(&d);
        tk_pattern_free(pat);
        tk_graph_free(g);
    }
}

/* Path LP over all simple paths equals the arc LP; approx within its gap. */
static void paths_vs_arcs(void)
{
    for (int seed = 1; seed <= 3; seed++) {
        tk_graph_t *g;
        tk_error_t err;
        tk_route_spec_t spec;
        tk_router_t *r;
        tk_mcf_opts_t o;
        tk_mcf_result_t ra, rp, rx;
        tk_swdemand_t d;
        tk_id_t s[40], t[40];
        double w[40];
        int n = 8, len = 0;
        tk_rng_t *rng;
        tk_gen_rrg(n, 3, (uint64_t)seed, 0, &g, &err);
        tk_rng_new(&rng, (uint64_t)seed, 0, &err);
        for (int u = 0; u < n; u++)
            for (int v = 0; v < n; v++)
                if (u != v && tk_rng_uniform(rng) < 0.4) {
                    s[len] = u;
                    t[len] = v;
                    w[len] = 0.25 + tk_rng_uniform(rng);
                    len++;
                }
        tk_rng_free(rng);
        demand_build(&d, n, len, s, t, w);
        tk_route_parse("allpath:7", &spec, &err);
        tk_router_new(g, &spec, 1, 0, &r, &err);
        tk_mcf_opts_init(&o);
        o.method = TK_MCF_EXACT;
        o.links = 1;
        ok(tk_mcf_solve(g, &d, &o, &ra, &err) == TK_OK, "rrg(8,3) s=%d arc LP", seed);
        ok(tk_mcf_solve_paths(r, &d, 0, &o, &rp, &err) == TK_OK, "rrg(8,3) s=%d path LP", seed);
        is_dbl(rp.theta, ra.theta, 1e-7 * ra.theta,
               "rrg(8,3) s=%d random demands: all simple paths = arc formulation", seed);
        /* duals: sum over saturated arcs of dual * cap = 1, loads 1 */
        double sum = 0;
        int all_full = 1;
        for (int64_t i = 0; i < ra.nsat; i++) {
            sum += ra.sat_dual[i];
            if (fabs(ra.sat_load[i] - 1) > 1e-7)
                all_full = 0;
        }
        ok(ra.nsat > 0 && fabs(sum - 1) < 1e-9 && all_full,
           "s=%d: %d saturated arcs, duals normalised, each at load 1", seed, (int)ra.nsat);
        o.method = TK_MCF_APPROX;
        o.links = 0;
        o.eps = 0.005;
        ok(tk_mcf_solve(g, &d, &o, &rx, &err) == TK_OK, "approx");
        ok(rx.theta <= ra.theta * (1 + 1e-9) && rx.upper >= ra.theta * (1 - 1e-9) &&
               rx.gap <= 0.005,
           "s=%d: approx [%.9g, %.9g] brackets exact %.9g, gap %.3g", seed, rx.theta, rx.upper,
           ra.theta, rx.gap);
        tk_mcf_result_destroy(&ra);
        tk_mcf_result_destroy(&rp);
        tk_mcf_result_destroy(&rx);
        tk_router_free(r);
        tk_swdemand_destroy(&d);
        tk_graph_free(g);
    }
}

static void special_cases(void)
{
    tk_graph_t *g;
    tk_error_t err;
    tk_swdemand_t d;
    tk_mcf_opts_t o;
    tk_mcf_result_t res;
    tk_builder_t *b;

    /* server limits: one switch sends 2 in its endpoints' units -> 1/2 */
    tk_gen_complete(4, &g, &err);
    {
        tk_id_t s[1] = {0}, t[1] = {1};
        double w[1] = {0.25};
        demand_build(&d, 4, 1, s, t, w);
        d.inject[0] = 2;
        d.eject[1] = 1;
        tk_mcf_opts_init(&o);
        o.method = TK_MCF_EXACT;
        tk_mcf_solve(g, &d, &o, &res, &err);
        is_dbl(res.theta, 12, 1e-9, "K_4 one pair 0.25: network allows 3/0.25 = 12");
        tk_mcf_result_destroy(&res);
        o.server_limits = 1;
        tk_mcf_solve(g, &d, &o, &res, &err);
        is_dbl(res.theta, 0.5, 1e-12, "server limits: inject 2 caps theta at 1/2");
        ok(res.limited_by_servers, "limited_by_servers set");
        tk_mcf_result_destroy(&res);
        o.method = TK_MCF_APPROX;
        tk_mcf_solve(g, &d, &o, &res, &err);
        is_dbl(res.theta, 0.5, 1e-12, "approx: server cap too");
        tk_mcf_result_destroy(&res);
        /* bad inputs */
        tk_mcf_opts_init(&o);
        o.eps = 0;
        is_int(tk_mcf_solve(g, &d, &o, &res, &err), TK_EINVAL, "eps=0 refused");
        ok(strncmp(err.msg, "eps=0", 5) == 0, "message names eps: %s", err.msg);
        o.eps = 1;
        is_int(tk_mcf_solve(g, &d, &o, &res, &err), TK_EINVAL, "eps=1 refused");
        tk_mcf_opts_init(&o);
        o.time_limit = -1;
        is_int(tk_mcf_solve(g, &d, &o, &res, &err), TK_EINVAL, "negative time limit refused");
        d.w[0] = -1;
        tk_mcf_opts_init(&o);
        is_int(tk_mcf_solve(g, &d, &o, &res, &err), TK_EINVAL, "negative demand refused");
        tk_swdemand_destroy(&d);
    }
    tk_graph_free(g);
    /* size mismatch */
    tk_gen_complete(5, &g, &err);
    tk_mcf_uniform(g, 0, &d, &err);
    tk_graph_free(g);
    tk_gen_complete(4, &g, &err);
    tk_mcf_opts_init(&o);
    is_int(tk_mcf_solve(g, &d, &o, &res, &err), TK_EINVAL, "demands of 5 switches on K_4 refused");
    tk_swdemand_destroy(&d);
    /* no network demand: theta = inf */
    {
        tk_id_t s[1] = {0}, t[1] = {1};
        double w[1] = {1};
        demand_build(&d, 4, 0, s, t, w);
        ok(tk_mcf_solve(g, &d, &o, &res, &err) == TK_OK && isinf(res.theta),
           "no demand: theta inf");
        tk_mcf_result_destroy(&res);
        tk_swdemand_destroy(&d);
    }
    tk_graph_free(g);
    /* unreachable: two components -> 0 */
    tk_builder_new(&b, 4, 0, &err);
    tk_builder_add(b, 0, 1, &err);
    tk_builder_add(b, 2, 3, &err);
    tk_builder_finish(b, &g, &err);
    {
        tk_id_t s[2] = {0, 1}, t[2] = {1, 2};
        double w[2] = {1, 1};
        demand_build(&d, 4, 2, s, t, w);
        ok(tk_mcf_solve(g, &d, &o, &res, &err) == TK_OK && res.theta == 0,
           "unreachable demand: theta 0");
        tk_mcf_result_destroy(&res);
        tk_swdemand_destroy(&d);
    }
    /* demands inside each component only: the nodes a source cannot reach
     * carry no demand, the answer is the single arc's capacity 1 */
    {
        tk_id_t s[2] = {0, 2}, t[2] = {1, 3};
        double w[2] = {1, 1};
        demand_build(&d, 4, 2, s, t, w);
        o.method = TK_MCF_EXACT;
        tk_status_t st2 = tk_mcf_solve(g, &d, &o, &res, &err);
        ok(st2 == TK_OK && fabs(res.theta - 1) < 1e-9,
           "two components, demand inside each: theta 1 (got %g)", res.theta);
        o.method = TK_MCF_AUTO;
        tk_mcf_result_destroy(&res);
        tk_swdemand_destroy(&d);
    }
    /* directed graphs and capacities: directed 3-cycle, arc caps 2 */
    tk_graph_free(g);
    tk_builder_new(&b, 3, 1, &err);
    tk_builder_add_ex(b, 0, 1, 0, 2.0, &err);
    tk_builder_add_ex(b, 1, 2, 0, 2.0, &err);
    tk_builder_add_ex(b, 2, 0, 0, 2.0, &err);
    tk_builder_finish(b, &g, &err);
    {
        tk_id_t s[2] = {0, 1}, t[2] = {2, 0};
        double w[2] = {1, 1};
        demand_build(&d, 3, 2, s, t, w);
        tk_mcf_opts_init(&o);
        o.method = TK_MCF_EXACT;
        /* 0->2 uses arcs 01,12; 1->0 uses 12,20: arc 1->2 carries 2 theta <= 2 */
        tk_mcf_solve(g, &d, &o, &res, &err);
        is_dbl(res.theta, 1, 1e-9, "directed C_3, capacity 2: theta 1");
        tk_mcf_result_destroy(&res);
        tk_swdemand_destroy(&d);
    }
    tk_graph_free(g);
}

/* GLPK's fatal errors, provoked through the glue's test seam on the LP
 * "maximise theta, theta <= 1", come back as one-line TK_EINTERNAL errors. */
static void glpk_failure(void)
{
    int ia[2] = {0, 1}, ja[2] = {0, 1};
    double ar[2] = {0, 1}, ub[1] = {1}, theta = -1;
    mcf_lp_t lp = {1, 1, 0, ub, HUGE_VAL, 1, ia, ja, ar};
    int64_t iters = 0, rounds = 0;
    tk_error_t err;

    tk_error_clear(&err);
    ok(mcf_glpk_solve(&lp, 0, 0, NULL, NULL, NULL, NULL, &theta, NULL, NULL, &iters, &rounds,
                      &err) == TK_OK &&
           theta == 1,
       "GLPK glue: theta <= 1 solves to 1");
    is_int(mcf_glpk_solve(&lp, 0, 1, NULL, NULL, NULL, NULL, &theta, NULL, NULL, &iters, &rounds,
                          &err),
           TK_EINTERNAL, "GLPK error comes back as error");
    ok(strstr(err.msg, "GLPK") != NULL && !strchr(err.msg, '\n'), "message names GLPK: %s",
       err.msg);
}

static void failures(void)
{
    tk_graph_t *g;
    tk_error_t err;
    tk_swdemand_t d;
    tk_mcf_opts_t o;
    tk_mcf_result_t res;

    tk_gen_rrg(40, 6, 3, 0, &g, &err);
    tk_mcf_uniform(g, 0, &d, &err);
    tk_mcf_opts_init(&o);
    o.method = TK_MCF_EXACT;
    glpk_failure();
    ok(tk_mcf_solve(g, &d, &o, &res, &err) == TK_OK && res.theta > 0,
       "GLPK usable again after a failure");
    tk_mcf_result_destroy(&res);
    o.time_limit = 1e-6;
    is_int(tk_mcf_solve(g, &d, &o, &res, &err), TK_ELIMIT, "exact: time limit reached");
    ok(strstr(err.msg, "time limit") != NULL, "message: %s", err.msg);
    o.method = TK_MCF_APPROX;
    o.eps = 1e-6;
    /* the approximation keeps its certified interval (issue 25) */
    ok(tk_mcf_solve(g, &d, &o, &res, &err) == TK_OK && res.stopped && res.theta > 0 &&
           res.upper >= res.theta && res.gap > o.eps,
       "approx: stopped by the time limit with an interval [%g, %g]", res.theta, res.upper);
    tk_mcf_result_destroy(&res);
    tk_mcf_result_init(&res);
    o.time_limit = 0;
    o.eps = 0.1;
    ok(tk_mcf_solve(g, &d, &o, &res, &err) == TK_OK && !res.stopped, "approx: not stopped");
    tk_mcf_result_destroy(&res);
    /* memory limit */
    tk_mcf_opts_init(&o);
    o.method = TK_MCF_EXACT;
    o.mem_limit = 1000;
    is_int(tk_mcf_solve(g, &d, &o, &res, &err), TK_ELIMIT, "exact LP over the memory limit");
    tk_swdemand_destroy(&d);
    tk_graph_free(g);
}

/* The barrier against the simplex on random regular graphs: uniform
 * traffic where shortest paths carry the optimum (certified: rrg(49,8) and
 * rrg(64,8) s=1), random demands, and graphs whose optimum leaves the
 * shortest paths (rrg(30,4) s=1: the DAG-restricted optimum is 1.2701, the
 * true one 1.3426; rrg(49,8) s=2), where the barrier must decline and the
 * simplex answer.  Server limits cap the certified value. */
static void barrier_vs_simplex(void)
{
    for (int c = 0; c < 5; c++) {
        static const struct {
            int n, d, seed, uniform;
            int certifies; /* 1 yes, 0 no, -1 either */
        } cases[] = {{49, 8, 1, 1, 1},
                     {64, 8, 1, 1, 1},
                     {49, 8, 2, 1, 0},
                     {40, 6, 4, 0, -1},
                     {30, 4, 1, 1, 0}};
        tk_graph_t *g;
        tk_error_t err;
        tk_swdemand_t d;
        tk_mcf_result_t rs, rb;
        int n = cases[c].n;

        tk_gen_rrg(n, cases[c].d, (uint64_t)cases[c].seed, 0, &g, &err);
        if (cases[c].uniform) {
            tk_mcf_uniform(g, 0, &d, &err);
        } else {
            /* every switch sends 1/(k+1) to k+1 pseudo-random others */
            tk_id_t *s = malloc(4 * (size_t)n * sizeof *s), *t = malloc(4 * (size_t)n * sizeof *t);
            double *w = malloc(4 * (size_t)n * sizeof *w);
            int64_t len = 0;
            for (int u = 0; u < n; u++)
                for (int k = 1; k <= 1 + u % 3; k++) {
                    s[len] = u;
                    t[len] = (tk_id_t)((u + 7 * k * k + 3) % n);
                    w[len++] = 1.0 / (1 + u % 3);
                }
            demand_build(&d, (tk_id_t)n, len, s, t, w);
            free(s);
            free(t);
            free(w);
        }
        double ts = solve_lp(g, &d, TK_MCF_EXACT, TK_MCF_LP_SIMPLEX, 0.01, &rs);
        double tb = solve_lp(g, &d, TK_MCF_EXACT, TK_MCF_LP_BARRIER, 0.01, &rb);
        is_dbl(tb, ts, 1e-9 * ts, "rrg(%d,%d) s=%d %s: barrier %.17g = simplex %.17g", n,
               cases[c].d, cases[c].seed, cases[c].uniform ? "uniform" : "random demands", tb, ts);
        ok(rs.barrier == 0, "rrg(%d,%d) s=%d: --lp simplex ran the simplex", n, cases[c].d,
           cases[c].seed);
        if (cases[c].certifies == 1)
            ok(rb.barrier == 1 && rb.gap <= 1e-9 && rb.upper >= ts * (1 - 1e-12) &&
                   rb.theta <= ts * (1 + 1e-12),
               "rrg(%d,%d) s=%d: certified [%.17g, %.17g] around the simplex's %.17g", n,
               cases[c].d, cases[c].seed, rb.theta, rb.upper, ts);
        else if (cases[c].certifies == 0)
            ok(rb.barrier == 0 && rb.theta == rs.theta && rb.gap == 0,
               "rrg(%d,%d) s=%d: optimum off the shortest paths, barrier declines, simplex "
               "answers",
               n, cases[c].d, cases[c].seed);
        else
            ok(rb.barrier == 0 || rb.gap <= 1e-9, "rrg(%d,%d) s=%d: certified or declined", n,
               cases[c].d, cases[c].seed);
        tk_mcf_result_destroy(&rs);
        tk_mcf_result_destroy(&rb);
        if (c == 0) {
            /* servers: inject/eject 1 per switch cap theta at 1 */
            tk_mcf_opts_t o;
            tk_mcf_opts_init(&o);
            o.method = TK_MCF_EXACT;
            o.lp = TK_MCF_LP_BARRIER;
            o.server_limits = 1;
            ok(tk_mcf_solve(g, &d, &o, &rb, &err) == TK_OK && rb.barrier == 1 && rb.theta == 1 &&
                   rb.upper == 1 && rb.gap == 0 && rb.limited_by_servers,
               "rrg(49,8) server limits: barrier capped at 1 (theta %.17g)", rb.theta);
            tk_mcf_result_destroy(&rb);
            /* a memory limit below the barrier's LP is TK_ELIMIT */
            o.mem_limit = 1 << 16;
            ok(tk_mcf_solve(g, &d, &o, &rb, &err) == TK_ELIMIT && strstr(err.msg, "memory"),
               "barrier over the memory limit: %s", err.msg);
        }
        tk_swdemand_destroy(&d);
        tk_graph_free(g);
    }
}

/* The ring C_n (n >= 11) with uneven demands on a few pairs, one of them
 * s to s, so that the approximation needs several phases. */
static void uneven_ring(int n, tk_graph_t **g, tk_swdemand_t *d)
{
    static const tk_id_t ps[] = {0, 0, 1, 2, 2, 5, 7, 9, 10};
    static const tk_id_t pt[] = {5, 6, 3, 9, 2, 0, 4, 1, 8};
    static const double pw[] = {1, 0.5, 2, 1, 3, 0.25, 0.5, 1, 1.5};
    tk_error_t err;
    tk_gen_ring(n, g, &err);
    demand_build(d, n, 9, ps, pt, pw);
}

/* The approximation's first trees (tk_mcf_approx_first): on the ring C_n
 * with unit capacities the initial lengths are 1, so the distances are
 * min(|s - t|, n - |s - t|) (demands on few pairs, one of them s to s); the same bytes at 1 and 3
 * threads; alpha summed over consecutive blocks and handed back as opts.first_alpha gives the run
 * that computes them itself, bit for bit. */
static void first_trees(void)
{
    tk_graph_t *g;
    tk_swdemand_t d;
    tk_error_t err;
    const int n = 11;
    uneven_ring(n, &g, &d);
    int64_t len = d.off[n];
    double *d1 = calloc((size_t)len, sizeof *d1), *d3 = calloc((size_t)len, sizeof *d3);
    ok(tk_mcf_approx_first(g, &d, 0, n, 1, d1, &err) == TK_OK &&
           tk_mcf_approx_first(g, &d, 0, 4, 3, d3, &err) == TK_OK &&
           tk_mcf_approx_first(g, &d, 4, n, 3, d3 + d.off[4], &err) == TK_OK,
       "first trees: computed");
    int good = 1;
    for (tk_id_t s = 0; s < n; s++)
        for (int64_t e = d.off[s]; e < d.off[s + 1]; e++) {
            int k = abs((int)d.dst[e] - (int)s);
            good &= d1[e] == (k < n - k ? k : n - k);
        }
    ok(good, "first trees: ring distances min(|s-t|, n-|s-t|)");
    ok(memcmp(d1, d3, (size_t)len * sizeof *d1) == 0, "first trees: same bytes at 1 and 3 threads");
    double alpha = 0;
    tk_mcf_approx_first_add(&d, 0, 4, d3, &alpha);
    tk_mcf_approx_first_add(&d, 4, n, d3 + d.off[4], &alpha);
    tk_mcf_opts_t o;
    tk_mcf_result_t r0, r1;
    tk_mcf_opts_init(&o);
    o.method = TK_MCF_APPROX;
    o.eps = 0.05;
    ok(tk_mcf_solve(g, &d, &o, &r0, &err) == TK_OK, "first trees: approx computing them");
    o.first_alpha = alpha;
    ok(tk_mcf_solve(g, &d, &o, &r1, &err) == TK_OK, "first trees: approx given alpha");
    ok(r0.theta == r1.theta && r0.upper == r1.upper && r0.iterations == r1.iterations &&
           r0.iterations > 1,
       "first trees: the same run (theta %.17g, upper %.17g, %lld phases)", r1.theta, r1.upper,
       (long long)r1.iterations);
    /* ... and it is used: twice alpha starts from half the scale */
    tk_mcf_result_t r2;
    o.first_alpha = 2 * alpha;
    ok(tk_mcf_solve(g, &d, &o, &r2, &err) == TK_OK && r2.iterations != r1.iterations,
       "first trees: a different alpha, a different run (%lld phases)", (long long)r2.iterations);
    tk_mcf_result_destroy(&r2);
    ok(tk_mcf_approx_first(g, &d, 5, 4, 1, d1, &err) == TK_EINVAL, "first trees: bad range: %s",
       err.msg);
    tk_mcf_result_destroy(&r0);
    tk_mcf_result_destroy(&r1);
    free(d1);
    free(d3);
    tk_swdemand_destroy(&d);
    tk_graph_free(g);
}

/* The approximation's batches through opts.grow, as a caller spreading
 * them over processes would: every tree grown here, its bytes copied and
 * set back (tk_mcf_batch_set), the same run as without the hook; bytes
 * that do not describe a tree of the source are refused; a hook that
 * leaves a tree out fails the run. */
typedef struct grow_probe {
    int calls, tries, refused, skip;
} grow_probe_t;

static tk_status_t grow_copy(void *ctx, tk_mcf_batch_t *b, tk_error_t *err)
{
    grow_probe_t *p = ctx;
    int64_t n = tk_mcf_batch_sources(b);
    p->calls++;
    if (p->skip)
        return n > 1 ? tk_mcf_batch_grow(b, 1, n, 2, err) : TK_OK;
    tk_status_t st = tk_mcf_batch_grow(b, 0, n, 2, err);
    for (int64_t i = 0; i < n && st == TK_OK; i++) {
        const void *bytes;
        size_t len = tk_mcf_batch_tree(b, i, &bytes);
        unsigned char *c = malloc(len);
        memcpy(c, bytes, len);
        int64_t s;
        memcpy(&s, c, sizeof s);
        s ^= 1; /* another source */
        memcpy(c, &s, sizeof s);
        tk_error_t e2;
        p->tries += 2;
        p->refused += tk_mcf_batch_set(b, i, c, len, &e2) == TK_EINVAL;
        p->refused += tk_mcf_batch_set(b, i, c, len - 1, &e2) == TK_EINVAL;
        s ^= 1;
        memcpy(c, &s, sizeof s);
        st = tk_mcf_batch_set(b, i, c, len, err);
        free(c);
    }
    return st;
}

static void batch_trees(void)
{
    tk_graph_t *g;
    tk_swdemand_t d;
    tk_error_t err;
    const int n = 11;
    uneven_ring(n, &g, &d);
    tk_mcf_opts_t o;
    tk_mcf_result_t r0, r1, r2;
    tk_mcf_opts_init(&o);
    o.method = TK_MCF_APPROX;
    o.eps = 0.05;
    o.batch = 3;
    ok(tk_mcf_solve(g, &d, &o, &r0, &err) == TK_OK, "batches: approx, batch 3");
    grow_probe_t p = {0, 0, 0, 0};
    o.grow = grow_copy;
    o.grow_ctx = &p;
    ok(tk_mcf_solve(g, &d, &o, &r1, &err) == TK_OK && r1.regrown > 0,
       "batches: through opts.grow (trees grown again)");
    ok(r0.theta == r1.theta && r0.upper == r1.upper && r0.iterations == r1.iterations &&
           r0.regrown == r1.regrown,
       "batches: the same run (theta %.17g, upper %.17g, %lld phases, %lld regrown)", r1.theta,
       r1.upper, (long long)r1.iterations, (long long)r1.regrown);
    /* 8 sources with demand: 3 batches a phase, at least one round each */
    ok(p.calls >= 3 * r1.iterations, "batches: the hook ran %d times for %lld phases", p.calls,
       (long long)r1.iterations);
    ok(p.tries > 0 && p.refused == p.tries,
       "batches: the bytes of another source or cut short refused (%d of %d)", p.refused, p.tries);
    p.skip = 1;
    ok(tk_mcf_solve(g, &d, &o, &r2, &err) == TK_EINTERNAL, "batches: a tree left out: %s", err.msg);
    /* batch 1: every tree grown just before its step, none again */
    tk_mcf_result_t r3;
    o.grow = NULL;
    o.batch = 1;
    tk_status_t st3 = tk_mcf_solve(g, &d, &o, &r3, &err);
    ok(st3 == TK_OK && r3.regrown == 0 && r3.theta > 0 && r3.iterations > 0,
       "batches: batch 1 grows no tree again (%lld phases)", (long long)r3.iterations);
    tk_mcf_result_destroy(&r0);
    tk_mcf_result_destroy(&r1);
    tk_mcf_result_destroy(&r3);
    tk_swdemand_destroy(&d);
    tk_graph_free(g);
}

int main(void)
{
    closed_forms();
    antmill_cycle();
    dragonfly_adv();
    paths_vs_arcs();
    barrier_vs_simplex();
    special_cases();
    failures();
    first_trees();
    batch_trees();
    return tap_done();
}
