/*
 * test_sim.c - the simulated network (src/sim/net.c): topology, routing
 * and pattern as a max-min system.
 *
 * Expectations: the bridge to the analytic tools (the largest offered
 * load at which every flow is fully served is topo-load's saturation
 * throughput, for every oblivious model and pattern of a corpus), closed
 * forms (a ring under the Ant Mill pattern: 1/(p lambda) per server, the
 * Remark 1 of the Ant Mill paper; one link shared by n flows), aggregated
 * systems against one variable per server-level flow (rr and transit: bit
 * for bit), rr and transit results against the equilibrium checker, the
 * exact fair curve against solves, and --coupled / --split against hand
 * values.
 */
#include <config.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim/maxmin_internal.h"
#include "tap.h"
#include "topokit.h"

static tk_graph_t *gen(const char *family, const char *params, int p, uint64_t seed)
{
    char buf[256], *argv[16];
    int argc = 0;
    tk_gen_opts_t o;
    tk_graph_t *g = NULL;
    tk_error_t err;

    snprintf(buf, sizeof buf, "%s", params);
    for (char *t = strtok(buf, " "); t && argc < 16; t = strtok(NULL, " "))
        argv[argc++] = t;
    memset(&o, 0, sizeof o);
    o.seed = seed;
    o.seed_given = 1;
    o.servers = p;
    o.servers_given = p >= 0;
    tk_error_clear(&err);
    if (tk_generate(family, argc, argv, &o, &g, &err) != TK_OK) {
        tap_diag("generate %s %s: %s", family, params, err.msg);
        return NULL;
    }
    return g;
}

static tk_pattern_t *make(const tk_graph_t *g, const char *kind, const char *params)
{
    char buf[256], *argv[16];
    int argc = 0;
    tk_pattern_t *p = NULL;
    tk_error_t err;

    snprintf(buf, sizeof buf, "%s", params ? params : "");
    for (char *t = strtok(buf, " "); t && argc < 16; t = strtok(NULL, " "))
        argv[argc++] = t;
    tk_error_clear(&err);
    if (tk_pattern_make(g, kind, argc, argv, 3, 1, &p, &err) != TK_OK) {
        tap_diag("pattern %s: %s", kind, err.msg);
        return NULL;
    }
    return p;
}

static tk_router_t *router(const tk_graph_t *g, const char *model)
{
    tk_route_spec_t spec;
    tk_router_t *r = NULL;
    tk_error_t err;
    tk_error_clear(&err);
    if (tk_route_parse(model, &spec, &err) != TK_OK ||
        tk_router_new(g, &spec, 1, 0, &r, &err) != TK_OK) {
        tap_diag("router %s: %s", model, err.msg);
        return NULL;
    }
    return r;
}

static tk_sim_net_t *net_of(const tk_router_t *r, const tk_pattern_t *p, tk_arb_t arb, int noagg,
                            int coupled, tk_split_t split)
{
    tk_sim_opts_t o;
    tk_sim_net_t *net = NULL;
    tk_error_t err;
    tk_sim_opts_init(&o);
    o.arb = arb;
    o.no_aggregate = noagg;
    o.coupled = coupled;
    o.max_sweeps = 1000;
    o.split = split;
    tk_error_clear(&err);
    tk_status_t st =
        p ? tk_sim_net_new(r, p, &o, &net, &err) : tk_sim_net_uniform(r, &o, &net, &err);
    if (st != TK_OK) {
        tap_diag("net: %s", err.msg);
        return NULL;
    }
    return net;
}

/* topo-load's saturation throughput of pattern p (or the server-level
 * uniform when p is NULL: made by tk_pattern_make). */
static double analytic(const tk_router_t *r, const tk_pattern_t *p)
{
    const tk_graph_t *g = tk_router_graph(r);
    tk_swdemand_t d;
    double *load = calloc((size_t)g->m, sizeof *load);
    double mx = 0, thr = NAN;
    memset(&d, 0, sizeof d);
    if (tk_pattern_to_switch(p, g, &d, NULL) == TK_OK &&
        tk_load_compute(r, &d, 1, load, NULL) == TK_OK) {
        for (int64_t a = 0; a < g->m; a++)
            if (load[a] / tk_graph_cap(g, a) > mx)
                mx = load[a] / tk_graph_cap(g, a);
        thr = tk_load_throughput(mx, &d);
    }
    tk_swdemand_destroy(&d);
    free(load);
    return thr;
}

/* --- the bridge ------------------------------------------------------------ */
static void test_bridge(void)
{
    static const struct {
        const char *family, *params;
        int p;
        const char *models[6];
    } corpus[] = {
        {"rrg", "n=16 d=4", 2, {"min", "ecmp", "ksp:3", "valiant", "polarized", "allpath:3"}},
        {"torus", "sides=4,4", 1, {"min", "ecmp", "ksp:2", "valiant", "polarized", NULL}},
        {"hypercube", "dim=4", 3, {"min", "ecmp", "ksp:4", "valiant,exclude", NULL}},
        {"dragonfly", "a=4 h=2", 2, {"dragonfly-min", "dragonfly-valiant", "min", "ecmp", NULL}},
        {"kautz", "d=2 D=3", 1, {"min", "ksp:2", "valiant", NULL}},
    };
    static const char *const patterns[][2] = {
        {"uniform", ""}, {"server-perm", ""},    {"switch-perm", ""}, {"random-shift", ""},
        {"tornado", ""}, {"bit-complement", ""}, {"adv", "i=1"},
    };
    for (size_t c = 0; c < sizeof corpus / sizeof corpus[0]; c++) {
        tk_graph_t *g = gen(corpus[c].family, corpus[c].params, corpus[c].p, 1);
        if (!g) {
            ok(0, "generate %s", corpus[c].family);
            continue;
        }
        for (int k = 0; k < 6 && corpus[c].models[k]; k++) {
            tk_router_t *r = router(g, corpus[c].models[k]);
            if (!r) {
                ok(0, "router %s", corpus[c].models[k]);
                continue;
            }
            for (size_t q = 0; q < sizeof patterns / sizeof patterns[0]; q++) {
                tk_error_t err;
                tk_pattern_t *p = NULL;
                char *argv[1] = {(char *)patterns[q][1]};
                tk_error_clear(&err);
                if (tk_pattern_make(g, patterns[q][0], patterns[q][1][0] ? 1 : 0, argv, 5, 1, &p,
                                    &err) != TK_OK)
                    continue; /* the kind does not fit this topology */
                double want = analytic(r, p);
                tk_sim_net_t *net = net_of(r, p, TK_ARB_FAIR, 0, 0, TK_SPLIT_OBLIVIOUS);
                if (!net) {
                    ok(0, "net %s %s %s", corpus[c].family, corpus[c].models[k], patterns[q][0]);
                    tk_pattern_free(p);
                    continue;
                }
                double sat = tk_sim_saturation(net);
                is_dbl(sat, want, 1e-9 * want, "%s %s %s: saturation = topo-load's throughput",
                       corpus[c].family, corpus[c].models[k], patterns[q][0]);
                /* at the saturation point every flow is served; beyond it
                 * (when below 1) some flow is not */
                tk_sim_point_t pt;
                tk_sim_solve(net, sat, &pt, &err);
                is_dbl(pt.min_served, 1.0, 1e-9, "%s %s %s: all served at saturation",
                       corpus[c].family, corpus[c].models[k], patterns[q][0]);
                if (sat < 0.999) {
                    tk_sim_solve(net, fmin(1, sat * 1.01), &pt, &err);
                    ok(pt.min_served < 1 - 1e-9, "%s %s %s: not all served beyond it",
                       corpus[c].family, corpus[c].models[k], patterns[q][0]);
                }
                /* the smallest served fraction at full load never exceeds
                 * the saturation point over the offered load */
                tk_sim_solve(net, 1.0, &pt, &err);
                ok(pt.min_served <= sat + 1e-9, "%s %s %s: min served %g <= saturation %g",
                   corpus[c].family, corpus[c].models[k], patterns[q][0], pt.min_served, sat);
                tk_sim_net_free(net);
                tk_pattern_free(p);
            }
            tk_router_free(r);
        }
        tk_graph_free(g);
    }
}

/* --- closed forms ---------------------------------------------------------- */

/* The ring C_n with p servers per switch is a Hamiltonian cycle whose
 * windows of length lambda < n/2 have unique shortest paths (along the
 * ring).  Under the Ant Mill pattern every arc of the ring's one direction
 * carries the flows of lambda switches, p lambda flows of demand rho, so
 * with fair arbitration at rho = 1 each gets 1/(p lambda) (Remark 1 of the
 * Ant Mill paper); the arcs of the other direction carry nothing. */
static void test_antmill_ring(void)
{
    for (int p = 1; p <= 3; p++)
        for (int lambda = 1; lambda <= 3; lambda++) {
            char params[32];
            snprintf(params, sizeof params, "n=%d", 9);
            tk_graph_t *g = gen("ring", params, p, 1);
            tk_id_t cyc[9];
            for (int i = 0; i < 9; i++)
                cyc[i] = i;
            tk_pattern_t *pat = NULL;
            tk_error_t err;
            tk_error_clear(&err);
            if (!g || tk_antmill_pattern(g, cyc, lambda, NULL, &pat, &err) != TK_OK) {
                ok(0, "ring antmill p=%d lambda=%d: %s", p, lambda, err.msg);
                tk_graph_free(g);
                continue;
            }
            tk_router_t *r = router(g, "min");
            /* rr: the same at lambda = 1 (one flow per arc and port); from
             * lambda = 2 on the ring has other rr equilibria (topokit(7)) */
            for (int arb = TK_ARB_FAIR; arb <= (lambda == 1 ? TK_ARB_RR : TK_ARB_FAIR); arb++) {
                tk_sim_net_t *net = net_of(r, pat, (tk_arb_t)arb, 0, 0, TK_SPLIT_OBLIVIOUS);
                tk_sim_point_t pt;
                if (!net || tk_sim_solve(net, 1.0, &pt, &err) != TK_OK) {
                    ok(0, "solve");
                    tk_sim_net_free(net);
                    continue;
                }
                double want = 1.0 / (p * lambda);
                is_dbl(pt.srv.min, want, 1e-12, "ring p=%d lambda=%d %s: min 1/(p lambda)", p,
                       lambda, tk_arb_name((tk_arb_t)arb));
                is_dbl(pt.srv.max, want, 1e-12, "ring p=%d lambda=%d %s: max 1/(p lambda)", p,
                       lambda, tk_arb_name((tk_arb_t)arb));
                is_dbl(tk_sim_saturation(net), want, 1e-12, "saturation 1/(p lambda)");
                tk_sim_net_free(net);
            }
            tk_router_free(r);
            tk_pattern_free(pat);
            tk_graph_free(g);
        }
}

/* Two switches joined by one link, n servers on switch 0 each sending to
 * its own server on switch 1: n flows share the link, 1/n each (every
 * arbitration: the injection ports of the n servers are the only inputs
 * of the arc).  With demands rho < 1/n, all are served. */
static void test_one_link(void)
{
    for (int n = 1; n <= 5; n++) {
        tk_builder_t *b;
        tk_graph_t *g = NULL;
        tk_builder_new(&b, 2, 0, NULL);
        tk_builder_add(b, 0, 1, NULL);
        tk_builder_set_servers(b, 0, n, NULL);
        tk_builder_set_servers(b, 1, n, NULL);
        tk_builder_finish(b, &g, NULL);
        tk_pattern_t *p = NULL;
        tk_pattern_new(&p, TK_LEVEL_SERVER, 2 * n, "one-link", "", NULL);
        for (int i = 0; i < n; i++)
            tk_pattern_add(p, i, n + i, 1.0, NULL);
        tk_router_t *r = router(g, "min");
        for (int arb = TK_ARB_FAIR; arb <= TK_ARB_TRANSIT; arb++) {
            tk_sim_net_t *net = net_of(r, p, (tk_arb_t)arb, 0, 0, TK_SPLIT_OBLIVIOUS);
            tk_sim_point_t pt;
            tk_sim_solve(net, 1.0, &pt, NULL);
            is_dbl(pt.srv.min, 1.0 / n, 1e-12, "one link, %d flows, %s: 1/n each", n,
                   tk_arb_name((tk_arb_t)arb));
            is_dbl(pt.srv.max, 1.0 / n, 1e-12, "one link, %d flows, %s: max 1/n", n,
                   tk_arb_name((tk_arb_t)arb));
            tk_sim_solve(net, 0.5 / n, &pt, NULL);
            is_dbl(pt.min_served, 1.0, 1e-12, "one link, %d flows, %s: rho 1/(2n) served", n,
                   tk_arb_name((tk_arb_t)arb));
            is_dbl(pt.util[g->nclasses], 0.5 / n / 2, 1e-12,
                   "injection utilisation: half the servers send 1/(2n)");
            tk_sim_net_free(net);
        }
        tk_router_free(r);
        tk_pattern_free(p);
        tk_graph_free(g);
    }
}

/* --- aggregation ----------------------------------------------------------- */
static int same_rates(tk_sim_net_t *a, tk_sim_net_t *b, double rho, double tol, int sweeps)
{
    tk_sim_point_t pa, pb;
    int64_t n = tk_sim_servers(a);
    double *ra = calloc((size_t)n, sizeof *ra), *rb = calloc((size_t)n, sizeof *rb);
    int same = n == tk_sim_servers(b);
    if (tk_sim_solve(a, rho, &pa, NULL) != TK_OK || tk_sim_solve(b, rho, &pb, NULL) != TK_OK)
        same = 0;
    if (same) {
        tk_sim_server_rates(a, ra, NULL);
        tk_sim_server_rates(b, rb, NULL);
        for (int64_t i = 0; i < n; i++)
            if (fabs(ra[i] - rb[i]) > tol * fmax(1, fabs(rb[i]))) {
                tap_diag("server %lld: %.17g vs %.17g", (long long)i, ra[i], rb[i]);
                same = 0;
                break;
            }
        if (sweeps &&
            (pa.info.iterations != pb.info.iterations || pa.info.residual != pb.info.residual)) {
            tap_diag("%lld sweeps (residual %.17g) vs %lld (residual %.17g)",
                     (long long)pa.info.iterations, pa.info.residual, (long long)pb.info.iterations,
                     pb.info.residual);
            same = 0;
        }
    }
    free(ra);
    free(rb);
    return same;
}

/* The flows of the last solve as (source switch, destination switch,
 * demand, rate) with their number of server-level flows, sorted, equal
 * ones merged. */
typedef struct frow {
    double key[4], members;
} frow_t;
typedef struct frows {
    frow_t *r;
    int64_t n, cap;
} frows_t;

static int frow_add(void *ctx, const tk_sim_flow_t *f)
{
    frows_t *F = ctx;
    if (F->n == F->cap) {
        F->cap = F->cap ? 2 * F->cap : 256;
        F->r = realloc(F->r, (size_t)F->cap * sizeof *F->r);
    }
    F->r[F->n++] = (frow_t){{f->src_switch, f->dst_switch, f->demand, f->rate}, f->members};
    return 0;
}

static int frow_cmp(const void *a, const void *b)
{
    const frow_t *x = a, *y = b;
    for (int k = 0; k < 4; k++)
        if (x->key[k] != y->key[k])
            return x->key[k] < y->key[k] ? -1 : 1;
    return 0;
}

static void frows_of(const tk_sim_net_t *net, frows_t *F)
{
    memset(F, 0, sizeof *F);
    tk_sim_flow_rows(net, frow_add, F, NULL);
    qsort(F->r, (size_t)F->n, sizeof *F->r, frow_cmp);
    int64_t k = 0;
    for (int64_t i = 0; i < F->n; i++)
        if (k > 0 && frow_cmp(&F->r[k - 1], &F->r[i]) == 0)
            F->r[k - 1].members += F->r[i].members;
        else
            F->r[k++] = F->r[i];
    F->n = k;
}

/* rr and transit: the rate of every server-level flow of the last solves
 * of a and b, bit for bit (an aggregate computes what its members
 * compute, tk_sim.h's emcoef). */
static int same_flows(const tk_sim_net_t *a, const tk_sim_net_t *b)
{
    frows_t A, B;
    frows_of(a, &A);
    frows_of(b, &B);
    int same = A.n == B.n;
    for (int64_t i = 0; same && i < A.n; i++)
        if (frow_cmp(&A.r[i], &B.r[i]) != 0 || A.r[i].members != B.r[i].members) {
            tap_diag("flows %g -> %g demand %.17g: rate %.17g x %g vs %.17g x %g", A.r[i].key[0],
                     A.r[i].key[1], A.r[i].key[2], A.r[i].key[3], A.r[i].members, B.r[i].key[3],
                     B.r[i].members);
            same = 0;
        }
    free(A.r);
    free(B.r);
    return same;
}

/* Aggregated against one variable per server-level flow (pattern p) and
 * the built-in uniform against the uniform pattern file u unaggregated
 * (p NULL): fair, the same rates within 1e-12 (a unique allocation, summed
 * in other orders).  rr and transit: the Jacobi sweeps of tk_mm_solve are
 * invariant under relabelling and an aggregate of m members computes
 * exactly the numbers of its m members, so both systems take the same
 * sweeps (same count, same residual) to the same rates, bit for bit, even
 * where rr and transit have many equilibria (the Valiant models) and even
 * where the sweep limit (1000 here, to keep the test short) stops them
 * first; server rates are sums over flows, so they agree within 1e-12. */
static void agg_check(const tk_router_t *r, const tk_pattern_t *p, const tk_pattern_t *u,
                      tk_arb_t arb, const char *what)
{
    tk_sim_net_t *a = p ? net_of(r, p, arb, 0, 0, TK_SPLIT_OBLIVIOUS)
                        : net_of(r, NULL, arb, 0, 0, TK_SPLIT_OBLIVIOUS);
    tk_sim_net_t *b = net_of(r, p ? p : u, arb, 1, 0, TK_SPLIT_OBLIVIOUS);
    ok(a && b && same_rates(a, b, p ? 1.0 : 0.8, 1e-12, arb != TK_ARB_FAIR) &&
           (arb == TK_ARB_FAIR || same_flows(a, b)),
       p ? "%s %s: aggregated = one variable per flow (%lld vs %lld groups)"
         : "%s %s: built in = the pattern file (%lld vs %lld groups)",
       what, tk_arb_name(arb), a ? (long long)tk_sim_groups(a) : -1,
       b ? (long long)tk_sim_groups(b) : -1);
    if (!p && a && b)
        ok(tk_sim_net_mm(a)->nvar < tk_sim_net_mm(b)->nvar,
           "built-in uniform: %lld variables for %lld flows", (long long)tk_sim_net_mm(a)->nvar,
           (long long)tk_sim_net_flows(b));
    tk_sim_net_free(a);
    tk_sim_net_free(b);
}

/* On a Dragonfly (a=4 h=2 p=2, 72 servers) under its minimal and Valiant
 * models and the generic min, ecmp and valiant, every pattern kind and
 * arbitration; the uniform pattern under rr and transit with the Valiant
 * models (about 150 coefficients per flow) on a smaller one (a=4 h=1
 * p=2, 40 servers). */
static void test_aggregation(void)
{
    tk_graph_t *g = gen("dragonfly", "a=4 h=2", 2, 1), *gs = gen("dragonfly", "a=4 h=1", 2, 1);
    static const char *const models[] = {"dragonfly-min", "dragonfly-valiant", "min", "ecmp",
                                         "valiant"};
    static const char *const kinds[] = {"uniform", "server-perm", "random-shift", "adv"};
    for (int k = 0; k < 5; k++) {
        int valiant = strstr(models[k], "valiant") != NULL;
        tk_router_t *r = router(g, models[k]);
        tk_router_t *rs = valiant ? router(gs, models[k]) : NULL;
        tk_pattern_t *us = valiant ? make(gs, "uniform", NULL) : NULL;
        for (int q = 0; q < 5; q++) {
            /* q = 4: the built-in uniform */
            tk_pattern_t *p = make(g, kinds[q % 4], q == 3 ? "i=1" : NULL);
            for (int arb = TK_ARB_FAIR; arb <= TK_ARB_TRANSIT; arb++) {
                char what[128];
                int small = valiant && q % 4 == 0 && arb != TK_ARB_FAIR;
                snprintf(what, sizeof what, "%s %s%s", models[k], kinds[q % 4],
                         small ? " (a=4 h=1)" : "");
                if (q < 4)
                    agg_check(small ? rs : r, small ? us : p, NULL, (tk_arb_t)arb, what);
                else
                    agg_check(small ? rs : r, NULL, small ? us : p, (tk_arb_t)arb, what);
            }
            tk_pattern_free(p);
        }
        /* --coupled (one variable per server, the pattern's proportions
         * fixed): a member's demand and coefficients are summed exactly
         * over its server-level flows (net.c), so here too the same sweeps */
        static const char *const ckinds[] = {"uniform", "adv"};
        for (int q = 0; q < 2 && (k == 1 || k == 2); q++) {
            tk_pattern_t *p = make(g, ckinds[q], q == 1 ? "i=1" : NULL);
            for (int arb = TK_ARB_FAIR; arb <= TK_ARB_TRANSIT; arb++) {
                tk_sim_net_t *a = net_of(r, p, (tk_arb_t)arb, 0, 1, TK_SPLIT_OBLIVIOUS);
                tk_sim_net_t *b = net_of(r, p, (tk_arb_t)arb, 1, 1, TK_SPLIT_OBLIVIOUS);
                ok(a && b && same_rates(a, b, 1.0, 1e-12, arb != TK_ARB_FAIR),
                   "%s %s %s --coupled: aggregated = one variable per server (%lld vs %lld)",
                   models[k], ckinds[q], tk_arb_name((tk_arb_t)arb),
                   a ? (long long)tk_sim_net_mm(a)->nvar : -1,
                   b ? (long long)tk_sim_net_mm(b)->nvar : -1);
                tk_sim_net_free(a);
                tk_sim_net_free(b);
            }
            tk_pattern_free(p);
        }
        tk_pattern_free(us);
        tk_router_free(rs);
        tk_router_free(r);
    }
    tk_graph_free(g);
    tk_graph_free(gs);
}

/* --- rr and transit: equilibria ------------------------------------------ */
/* Where the Jacobi sweeps of tk_mm_solve converge (default sweep limit),
 * the rates are an equilibrium: sim_mm_rr_check's bottleneck conditions
 * hold within 1e-9.  Multi-path systems, with many equilibria: the
 * Valiant models on a Dragonfly, ksp:3 on a random regular graph.  Not
 * listed: transit under both Valiant models with this server permutation
 * and under valiant with this random shift, whose sweeps do not settle
 * (topokit(7)). */
static void test_equilibria(void)
{
    static const struct {
        const char *family, *params;
        int p;
        const char *model, *kind, *kparams;
        int arbs; /* 1 rr, 2 transit */
    } cases[] = {
        {"rrg", "n=32 d=4", 2, "ksp:3", "server-perm", NULL, 3},
        {"dragonfly", "a=4 h=2", 2, "dragonfly-valiant", "uniform", NULL, 3},
        {"dragonfly", "a=4 h=2", 2, "dragonfly-valiant", "random-shift", NULL, 3},
        {"dragonfly", "a=4 h=2", 2, "dragonfly-valiant", "adv", "i=1", 3},
        {"dragonfly", "a=4 h=2", 2, "valiant", "server-perm", NULL, 1},
        {"dragonfly", "a=4 h=2", 2, "valiant", "adv", "i=1", 3},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        tk_graph_t *g = gen(cases[c].family, cases[c].params, cases[c].p, 1);
        tk_router_t *r = router(g, cases[c].model);
        tk_pattern_t *p = make(g, cases[c].kind, cases[c].kparams);
        for (int a = 0; a < 2; a++) {
            tk_arb_t arb = a ? TK_ARB_TRANSIT : TK_ARB_RR;
            if (!(cases[c].arbs & (1 << a)))
                continue;
            tk_sim_net_t *net = net_of(r, p, arb, 0, 0, TK_SPLIT_OBLIVIOUS);
            const tk_mm_t *mm = net ? tk_sim_net_mm(net) : NULL;
            double *x = mm ? calloc((size_t)mm->nvar + 1, sizeof *x) : NULL;
            tk_mm_info_t info;
            char why[256] = "";
            int good = x && tk_mm_solve(mm, arb, 1.0, 0, 0, x, NULL, &info, NULL) == TK_OK &&
                       info.converged &&
                       sim_mm_rr_check(mm, arb, 1.0, x, 1e-9, why, sizeof why) == 1;
            ok(good, "%s %s %s %s: converged (%lld sweeps) to an equilibrium %s", cases[c].family,
               cases[c].model, cases[c].kind, tk_arb_name(arb), x ? (long long)info.iterations : -1,
               why);
            free(x);
            tk_sim_net_free(net);
        }
        tk_pattern_free(p);
        tk_router_free(r);
        tk_graph_free(g);
    }
}

/* --- the exact fair curve -------------------------------------------------- */
static void test_curve(void)
{
    tk_graph_t *g = gen("rrg", "n=20 d=4", 2, 7);
    tk_router_t *r = router(g, "ksp:2");
    tk_pattern_t *p = make(g, "server-perm", NULL);
    tk_sim_net_t *net = net_of(r, p, TK_ARB_FAIR, 0, 0, TK_SPLIT_OBLIVIOUS);
    double *rho = NULL, *acc = NULL;
    int64_t n = 0;
    ok(net && tk_sim_fair_curve(net, &rho, &acc, &n, NULL) == TK_OK && n >= 2, "fair curve");
    for (int64_t i = 0; i < n; i++) {
        tk_sim_point_t pt;
        if (rho[i] <= 0)
            continue;
        tk_sim_solve(net, rho[i], &pt, NULL);
        is_dbl(acc[i], pt.srv.mean, 1e-12, "curve at breakpoint %g = the solve", rho[i]);
        if (i + 1 < n) {
            /* linear between breakpoints: the midpoint is the mean */
            double mid = (rho[i] + rho[i + 1]) / 2;
            tk_sim_solve(net, mid, &pt, NULL);
            is_dbl(pt.srv.mean, (acc[i] + acc[i + 1]) / 2, 1e-12, "linear on [%g, %g]", rho[i],
                   rho[i + 1]);
        }
    }
    free(rho);
    free(acc);
    tk_sim_net_free(net);
    tk_pattern_free(p);
    tk_router_free(r);
    tk_graph_free(g);
}

/* --- coupled and independent ----------------------------------------------- */

/* A path 0-1-2 with servers s0 at switch 0, s1 and s2 at switch 1, s3
 * and s4 at switch 2.  Demands: s0 -> s1 1/2, s0 -> s3 1/2, s1 -> s4 1,
 * s2 -> s3 1/2 (admissible: s3 and s4 receive 1).  Arc 1->2 carries
 * s0->s3, s1->s4 and s2->s3.
 *   per flow, fair: rates t/2, t/2, t, t/2; arc 1->2: t/2 + t + t/2 = 2t
 *     <= 1 fills at t = 1/2 and freezes s0->s3 at 1/4, s1->s4 at 1/2,
 *     s2->s3 at 1/4; s0->s1 goes on to its demand 1/2.  Servers accept
 *     s0 3/4, s1 1/2, s2 1/4.
 *   coupled: one variable per server, weighted by its total demand: x0 =
 *     t (half to s1, half to s3), x1 = t, x2 = t/2; arc 1->2: x0/2 + x1
 *     + x2 = 2t, t = 1/2: s0 accepts 1/2 (its traffic to s1 is held back
 *     with its traffic to s3), s1 1/2, s2 1/4. */
static void test_coupled(void)
{
    tk_builder_t *b;
    tk_graph_t *g = NULL;
    tk_builder_new(&b, 3, 0, NULL);
    tk_builder_add(b, 0, 1, NULL);
    tk_builder_add(b, 1, 2, NULL);
    tk_builder_set_servers(b, 0, 1, NULL);
    tk_builder_set_servers(b, 1, 2, NULL);
    tk_builder_set_servers(b, 2, 2, NULL);
    tk_builder_finish(b, &g, NULL);
    tk_pattern_t *p = NULL;
    tk_pattern_new(&p, TK_LEVEL_SERVER, 5, "hand", "", NULL);
    tk_pattern_add(p, 0, 1, 0.5, NULL);
    tk_pattern_add(p, 0, 3, 0.5, NULL);
    tk_pattern_add(p, 1, 4, 1.0, NULL);
    tk_pattern_add(p, 2, 3, 0.5, NULL);
    tk_router_t *r = router(g, "min");
    double rate[5];
    tk_sim_point_t pt;
    for (int noagg = 0; noagg <= 1; noagg++) {
        tk_sim_net_t *net = net_of(r, p, TK_ARB_FAIR, noagg, 0, TK_SPLIT_OBLIVIOUS);
        ok(net && tk_sim_solve(net, 1.0, &pt, NULL) == TK_OK, "per flow: solved");
        tk_sim_server_rates(net, rate, NULL);
        is_dbl(rate[0], 0.75, 1e-12, "per flow: s0 accepts 1/2 + 1/4");
        is_dbl(rate[1], 0.5, 1e-12, "per flow: s1 accepts 1/2");
        is_dbl(rate[2], 0.25, 1e-12, "per flow: s2 accepts 1/4");
        tk_sim_net_free(net);
        net = net_of(r, p, TK_ARB_FAIR, noagg, 1, TK_SPLIT_OBLIVIOUS);
        ok(net && tk_sim_solve(net, 1.0, &pt, NULL) == TK_OK, "coupled: solved");
        tk_sim_server_rates(net, rate, NULL);
        is_dbl(rate[0], 0.5, 1e-12, "coupled: s0 accepts 1/2");
        is_dbl(rate[1], 0.5, 1e-12, "coupled: s1 accepts 1/2");
        is_dbl(rate[2], 0.25, 1e-12, "coupled: s2 accepts 1/4");
        tk_sim_net_free(net);
    }
    tk_router_free(r);
    tk_pattern_free(p);
    tk_graph_free(g);
}

/* A 4-cycle 0-1-2-3 with two servers per switch (servers 2u and 2u+1 at
 * switch u); server 0 sends to server 4 (switch 2) over both two-hop
 * paths (min: 1/2 each); server 2 (switch 1) sends to server 5 (switch 2)
 * over the arc 1->2.
 *   oblivious: flow (0->4) puts x/2 on 1->2 and x/2 on 3->2; with (2->5)
 *     at rate y: x/2 + y <= 1 on 1->2; fair: x = y = t, 3t/2 = 1, t = 2/3.
 *   independent: sub-flows a (via 1) and b (via 3), demand 1/2 each,
 *     and y demand 1: on 1->2 a + y <= 1 with a = t/2, y = t: t = 2/3,
 *     a = 1/3, y = 2/3; b alone on 0->3->2 is fully served at 1/2; server
 *     0 accepts 5/6. */
static void test_independent(void)
{
    tk_graph_t *g = gen("ring", "n=4", 2, 1);
    tk_pattern_t *p = NULL;
    tk_pattern_new(&p, TK_LEVEL_SERVER, 8, "hand", "", NULL);
    tk_pattern_add(p, 0, 4, 1.0, NULL);
    tk_pattern_add(p, 2, 5, 1.0, NULL);
    tk_router_t *r = router(g, "min");
    double rate[8];
    tk_sim_point_t pt;
    tk_sim_net_t *net = net_of(r, p, TK_ARB_FAIR, 0, 0, TK_SPLIT_OBLIVIOUS);
    tk_sim_solve(net, 1.0, &pt, NULL);
    tk_sim_server_rates(net, rate, NULL);
    is_dbl(rate[0], 2.0 / 3, 1e-12, "oblivious: 2/3");
    is_dbl(rate[2], 2.0 / 3, 1e-12, "oblivious: 2/3 for the one-hop flow");
    tk_sim_net_free(net);
    net = net_of(r, p, TK_ARB_FAIR, 0, 0, TK_SPLIT_INDEPENDENT);
    tk_sim_solve(net, 1.0, &pt, NULL);
    tk_sim_server_rates(net, rate, NULL);
    is_dbl(rate[0], 5.0 / 6, 1e-12, "independent: 1/3 + 1/2");
    is_dbl(rate[2], 2.0 / 3, 1e-12, "independent: 2/3 for the one-hop flow");
    tk_sim_net_free(net);
    tk_router_free(r);
    tk_pattern_free(p);
    tk_graph_free(g);
}

/* --- bad input ------------------------------------------------------------- */
static void test_errors(void)
{
    tk_graph_t *g = gen("ring", "n=5", 2, 1);
    tk_router_t *r = router(g, "min");
    tk_pattern_t *p = NULL;
    tk_sim_net_t *net = NULL;
    tk_sim_opts_t o;
    tk_error_t err;
    tk_sim_opts_init(&o);
    tk_pattern_new(&p, TK_LEVEL_SERVER, 7, "wrong", "", NULL);
    tk_pattern_add(p, 0, 1, 1.0, NULL);
    tk_error_clear(&err);
    ok(tk_sim_net_new(r, p, &o, &net, &err) == TK_EINVAL && net == NULL,
       "a pattern of 7 servers on 10: refused (%s)", err.msg);
    tk_pattern_free(p);
    p = make(g, "server-perm", NULL);
    net = net_of(r, p, TK_ARB_FAIR, 0, 0, TK_SPLIT_OBLIVIOUS);
    tk_sim_point_t pt;
    ok(tk_sim_solve(net, 0, &pt, &err) == TK_EINVAL, "rho 0 refused");
    ok(tk_sim_solve(net, NAN, &pt, &err) == TK_EINVAL, "rho NaN refused");
    double rate[10];
    tk_sim_net_t *fresh = net_of(r, p, TK_ARB_FAIR, 0, 0, TK_SPLIT_OBLIVIOUS);
    ok(tk_sim_server_rates(fresh, rate, &err) == TK_EINVAL, "rates before a solve refused");
    tk_sim_net_free(fresh);
    tk_sim_net_free(net);
    tk_pattern_free(p);
    tk_router_free(r);
    tk_graph_free(g);
}

/* --- zero-load latency ------------------------------------------------------- */
/* ADV+1 on dragonfly a=4 h=2 p=2 (g=9: one global link per pair of groups)
 * under dragonfly-min: every route takes the one global link, a local hop
 * before it unless the source router holds it (3 of 4) and one after it
 * unless the destination router is where it lands (3 of 4): 1.5 local
 * and 1 global hops on average. */
static void test_latency(void)
{
    tk_graph_t *g = gen("dragonfly", "a=4 h=2", 2, 1);
    tk_pattern_t *p = g ? make(g, "adv", "i=1") : NULL;
    tk_router_t *r = p ? router(g, "dragonfly-min") : NULL;
    tk_sim_net_t *net = r ? net_of(r, p, TK_ARB_FAIR, 0, 0, TK_SPLIT_OBLIVIOUS) : NULL;
    if (!net) {
        ok(0, "latency: the net of ADV+1 on dragonfly a=4 h=2 p=2");
    } else {
        int lc = tk_graph_class_index(g, "local"), gc = tk_graph_class_index(g, "global");
        double lat[TK_MAX_CLASSES], one[TK_MAX_CLASSES], mean, ch[TK_MAX_CLASSES];
        const double *hist;
        int32_t maxh;
        for (int c = 0; c < g->nclasses; c++)
            lat[c] = one[c] = 1;
        lat[lc] = 10;
        lat[gc] = 100;
        tk_sim_net_hops(net, &mean, ch, &hist, &maxh);
        is_dbl(tk_sim_net_latency(net, lat), 115, 1e-12,
               "ADV+1, dragonfly-min: latency 1.5 local hops x 10 + 1 global x 100 = 115");
        is_dbl(tk_sim_net_latency(net, one), 2.5, 1e-12, "latency 1 per hop: the mean hops 2.5");
        is_dbl(mean, 2.5, 1e-12, "tk_sim_net_hops' mean: 2.5");
    }
    tk_sim_net_free(net);
    tk_router_free(r);
    tk_pattern_free(p);
    tk_graph_free(g);
}

int main(void)
{
    test_latency();
    test_one_link();
    test_antmill_ring();
    test_coupled();
    test_independent();
    test_aggregation();
    test_equilibria();
    test_curve();
    test_bridge();
    test_errors();
    return tap_done();
}
