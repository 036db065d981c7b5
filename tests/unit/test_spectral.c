/*
 * test_spectral.c - Laplacian lambda2 and bisection bounds on graphs whose
 * values are known from mathematics, against brute-force minimum bisections,
 * and the three eigen-solvers against each other.
 *
 * Known values (L = D - A):
 *  - Q_d: eigenvalues 2j with multiplicity C(d, j), so lambda2 = 2 and
 *    lb = 2 * 2^d / 4 = 2^(d-1); cutting along a coordinate crosses the
 *    2^(d-1) links of that dimension, so the minimum bisection is 2^(d-1).
 *    Adjacency: d - 2.
 *  - C_n: eigenvalues 2 - 2 cos(2 pi j / n); lambda2 = 2 - 2 cos(2 pi / n);
 *    any bisection of a cycle cuts at least 2 links (each side is a union
 *    of arcs of the cycle), and two suffice.
 *  - k x k torus = C_k x C_k: Laplacian eigenvalues are sums, lambda2 =
 *    2 - 2 cos(2 pi / k); for even k cutting each of the k rings of one
 *    dimension twice gives 2k, the known minimum.
 *  - K_n: L = n I - J, eigenvalues 0 and n (n-1 times); every cut with
 *    sides a, b has a b links: n^2/4 for even n; lb = n a b / n = a b too.
 *    Adjacency: -1.
 *  - Petersen: adjacency eigenvalues 3, 1 (x5), -2 (x4), so lambda2 = 2,
 *    lb = 2 * 5 * 5 / 10 = 5; the minimum bisection is found by brute force
 *    over the 252 balanced splits.
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "tap.h"
#include "topokit.h"

/* Largest multiplicity tk_bisect reports (TK_SPEC_MAXMULT, internal). */
#define TK_SPEC_MAXMULT_TEST 8

static tk_graph_t *build(int64_t n, int directed, const int *uv, int m, double cap)
{
    tk_builder_t *b;
    tk_graph_t *g = NULL;
    if (tk_builder_new(&b, n, directed, NULL) != TK_OK)
        return NULL;
    for (int i = 0; i < m; i++)
        if (tk_builder_add_ex(b, uv[2 * i], uv[2 * i + 1], 0, cap, NULL) != TK_OK) {
            tk_builder_free(b);
            return NULL;
        }
    if (tk_builder_finish(b, &g, NULL) != TK_OK)
        return NULL;
    return g;
}

/* Exact minimum bisection by enumeration (n <= 20): sides of floor(n/2)
 * and ceil(n/2) switches; unit capacities assumed via the arc count. */
static int64_t brute_bisection(const tk_graph_t *g)
{
    int64_t n = g->n, best = INT64_MAX;
    int half = (int)(n / 2);
    for (uint32_t s = 0; s < (1u << n); s++) {
        if (__builtin_popcount(s) != half)
            continue;
        int64_t cut = 0;
        for (int64_t u = 0; u < n; u++)
            for (int64_t a = g->off[u]; a < g->off[u + 1]; a++) {
                int64_t v = g->head[a];
                if (u < v && (((s >> u) & 1) != ((s >> v) & 1)))
                    cut++;
            }
        if (cut < best)
            best = cut;
    }
    return best;
}

static int side_balanced(const tk_bisect_result_t *r)
{
    int64_t c = 0;
    for (int64_t v = 0; v < r->n; v++)
        c += r->side[v];
    return c == r->n / 2 || c == r->n - r->n / 2;
}

static double lambda2_with(const tk_graph_t *g, tk_eig_solver_t s, tk_eig_solver_t *used)
{
    tk_spectral_opts_t o = {0};
    tk_error_t err;
    double l2 = NAN;
    o.solver = s;
    o.seed = 3;
    if (tk_laplacian_lambda2(g, &o, &l2, NULL, used, &err) != TK_OK) {
        printf("# %s: %s\n", tk_eig_solver_name(s), err.msg);
        return NAN;
    }
    return l2;
}

static void check_solvers(const tk_graph_t *g, const char *name, double want)
{
    static const tk_eig_solver_t S[] = {TK_EIG_DENSE, TK_EIG_LANCZOS, TK_EIG_CHOLMOD};
    double d = NAN;
    for (int i = 0; i < 3; i++) {
        tk_eig_solver_t used = TK_EIG_AUTO;
        double l2 = lambda2_with(g, S[i], &used);
        if (i == 0)
            d = l2;
        ok(used == S[i], "%s: solver %s used when forced", name, tk_eig_solver_name(S[i]));
        if (!isnan(want))
            is_dbl(l2, want, 1e-8, "%s: lambda2 by %s = %.12g", name, tk_eig_solver_name(S[i]),
                   want);
        else
            is_dbl(l2, d, 1e-8, "%s: lambda2 by %s agrees with dense", name,
                   tk_eig_solver_name(S[i]));
    }
}

static tk_bisect_result_t bisect(const tk_graph_t *g, uint64_t seed)
{
    tk_spectral_opts_t o = {0};
    tk_bisect_result_t r;
    tk_error_t err;
    o.seed = seed;
    if (tk_bisect(g, &o, &r, &err) != TK_OK) {
        printf("# tk_bisect: %s\n", err.msg);
        r.ub = NAN;
    }
    return r;
}

static void test_hypercube(void)
{
    for (int d = 2; d <= 7; d++) {
        tk_graph_t *g = NULL;
        char name[32];
        double half = (double)(1 << (d - 1));
        snprintf(name, sizeof name, "Q_%d", d);
        tk_gen_hypercube(d, &g, NULL);
        tk_bisect_result_t r = bisect(g, 1);
        is_dbl(r.lambda2, 2, 1e-9, "%s: lambda2 = 2", name);
        is_dbl(r.lb, half, 1e-8, "%s: lower bound = 2^(d-1)", name);
        is_dbl(r.ub, half, 0, "%s: cut = 2^(d-1) (coordinate cut)", name);
        is_int(r.cut_links, (int64_t)half, "%s: cut_links", name);
        is_int(r.multiplicity, d < TK_SPEC_MAXMULT_TEST ? d : TK_SPEC_MAXMULT_TEST,
               "%s: lambda2 has multiplicity d (capped)", name);
        is_dbl(r.adj_lambda, d - 2, 1e-8, "%s: second adjacency eigenvalue d-2", name);
        ok(side_balanced(&r), "%s: sides balanced", name);
        if (d == 5)
            check_solvers(g, name, 2);
        tk_bisect_result_destroy(&r);
        tk_graph_free(g);
    }
}

static void test_torus_ring_complete(void)
{
    for (int k = 4; k <= 10; k += 2) {
        int64_t sides[2] = {k, k};
        tk_graph_t *g = NULL;
        char name[32];
        snprintf(name, sizeof name, "torus %dx%d", k, k);
        tk_gen_grid(sides, 2, 1, &g, NULL);
        tk_bisect_result_t r = bisect(g, 1);
        double l2 = 2 - 2 * cos(2 * M_PI / k);
        is_dbl(r.lambda2, l2, 1e-9, "%s: lambda2 = 2 - 2cos(2pi/k)", name);
        is_dbl(r.lb, l2 * k * k / 4, 1e-8, "%s: lb = lambda2 k^2/4", name);
        is_dbl(r.ub, 2 * k, 0, "%s: cut = 2k", name);
        ok(r.lb <= r.ub, "%s: lb <= ub", name);
        if (k == 6)
            check_solvers(g, name, l2);
        tk_bisect_result_destroy(&r);
        tk_graph_free(g);
    }
    for (int n = 3; n <= 14; n++) {
        tk_graph_t *g = NULL;
        char name[32];
        snprintf(name, sizeof name, "C_%d", n);
        tk_gen_ring(n, &g, NULL);
        tk_bisect_result_t r = bisect(g, 2);
        double l2 = 2 - 2 * cos(2 * M_PI / n);
        is_dbl(r.lambda2, l2, 1e-9, "%s: lambda2", name);
        is_dbl(r.ub, 2, 0, "%s: cut 2", name);
        is_dbl(r.adj_lambda, 2 * cos(2 * M_PI / n), 1e-9, "%s: adjacency 2cos(2pi/n)", name);
        tk_bisect_result_destroy(&r);
        tk_graph_free(g);
    }
    {
        tk_graph_t *g = NULL;
        tk_gen_ring(40, &g, NULL);
        check_solvers(g, "C_40", 2 - 2 * cos(2 * M_PI / 40));
        tk_graph_free(g);
    }
    for (int n = 2; n <= 11; n++) {
        tk_graph_t *g = NULL;
        char name[32];
        double a = n / 2, b = n - n / 2;
        snprintf(name, sizeof name, "K_%d", n);
        tk_gen_complete(n, &g, NULL);
        tk_bisect_result_t r = bisect(g, 1);
        is_dbl(r.lambda2, n, 1e-9, "%s: lambda2 = n", name);
        is_dbl(r.ub, a * b, 0, "%s: cut = floor(n/2) ceil(n/2)", name);
        is_dbl(r.lb, a * b, 1e-8, "%s: lb = cut", name);
        if (n >= 3)
            is_dbl(r.adj_lambda, -1, 1e-9, "%s: adjacency -1", name);
        tk_bisect_result_destroy(&r);
        tk_graph_free(g);
    }
}

static void test_petersen(void)
{
    static const int pe[] = {0, 1, 1, 2, 2, 3, 3, 4, 4, 0, 0, 5, 1, 6, 2,
                             7, 3, 8, 4, 9, 5, 7, 7, 9, 9, 6, 6, 8, 8, 5};
    tk_graph_t *g = build(10, 0, pe, 15, 1);
    tk_bisect_result_t r = bisect(g, 1);
    int64_t bf = brute_bisection(g);
    is_dbl(r.lambda2, 2, 1e-9, "Petersen: lambda2 = 2");
    is_dbl(r.lb, 5, 1e-8, "Petersen: lb = 5");
    is_int(r.multiplicity, 5, "Petersen: lambda2 multiplicity 5");
    is_dbl(r.adj_lambda, 1, 1e-9, "Petersen: second adjacency eigenvalue 1");
    is_dbl(r.ramanujan, 2 * sqrt(2), 1e-12, "Petersen: Ramanujan bound 2 sqrt(2)");
    ok(r.adj_lambda <= r.ramanujan, "Petersen is Ramanujan (1 <= 2.83)");
    ok(bf >= 5, "Petersen: brute-force minimum bisection %lld >= lb 5", (long long)bf);
    is_dbl(r.ub, (double)bf, 0, "Petersen: cut = brute-force minimum over 252 splits");
    check_solvers(g, "Petersen", 2);
    tk_bisect_result_destroy(&r);
    tk_graph_free(g);
}

/* Random connected graphs on 6..16 switches: lb <= exact <= ub. */
static void test_random_small(void)
{
    tk_rng_t *rng = NULL;
    int total = 0, exact_hits = 0, bounds_ok = 0, solvers_ok = 0;
    tk_rng_new(&rng, 99, 0, NULL);
    for (int t = 0; t < 60; t++) {
        int n = 6 + (int)tk_rng_below(rng, 11), m = 0;
        int *uv = malloc(sizeof(int) * (size_t)n * (size_t)n);
        double p = 0.2 + 0.4 * tk_rng_uniform(rng);
        /* A random spanning path keeps it connected. */
        for (int v = 1; v < n; v++) {
            uv[2 * m] = v - 1;
            uv[2 * m + 1] = v;
            m++;
        }
        for (int u = 0; u < n; u++)
            for (int v = u + 2; v < n; v++)
                if (tk_rng_uniform(rng) < p) {
                    uv[2 * m] = u;
                    uv[2 * m + 1] = v;
                    m++;
                }
        tk_graph_t *g = build(n, 0, uv, m, 1);
        free(uv);
        tk_bisect_result_t r = bisect(g, (uint64_t)t);
        int64_t bf = brute_bisection(g);
        total++;
        bounds_ok += r.lb <= (double)bf + 1e-9 && (double)bf <= r.ub && side_balanced(&r);
        exact_hits += r.ub == (double)bf;
        double d = lambda2_with(g, TK_EIG_DENSE, NULL), l = lambda2_with(g, TK_EIG_LANCZOS, NULL),
               c = lambda2_with(g, TK_EIG_CHOLMOD, NULL);
        solvers_ok += fabs(d - l) <= 1e-8 && fabs(d - c) <= 1e-8;
        tk_bisect_result_destroy(&r);
        tk_graph_free(g);
    }
    tk_rng_free(rng);
    is_int(bounds_ok, total, "random graphs n<=16: lb <= exact <= ub, balanced sides");
    ok(exact_hits * 10 >= total * 9, "random graphs: ub == exact for %d of %d (>= 90%%)",
       exact_hits, total);
    is_int(solvers_ok, total, "random graphs: dense, lanczos, cholmod lambda2 within 1e-8");
}

static void test_larger_agreement(void)
{
    tk_graph_t *g = NULL;
    tk_gen_rrg(200, 5, 7, 0, &g, NULL);
    check_solvers(g, "rrg n=200 d=5", NAN);
    tk_bisect_result_t r = bisect(g, 1);
    ok(r.lb <= r.ub && r.ub > 0, "rrg n=200 d=5: 0 < lb <= ub");
    ok(r.adj_lambda > 0 && r.regular == 5, "rrg: regular degree 5, adjacency lambda reported");
    tk_bisect_result_destroy(&r);
    tk_graph_free(g);

    int64_t sides[3] = {12, 10, 6};
    tk_gen_grid(sides, 3, 1, &g, NULL);
    check_solvers(g, "torus 12x10x6", 2 - 2 * cos(2 * M_PI / 12));
    tk_graph_free(g);
}

static void test_weighted_directed_errors(void)
{
    static const int c6[] = {0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 0};
    static const int two[] = {0, 1, 2, 3};
    tk_spectral_opts_t o = {0};
    tk_bisect_result_t r;
    tk_error_t err;
    tk_graph_t *g = build(6, 0, c6, 6, 2.5);

    r = bisect(g, 1);
    is_dbl(r.lambda2, 2.5 * (2 - 2 * cos(2 * M_PI / 6)), 1e-9, "C_6 capacity 2.5: lambda2 x2.5");
    is_dbl(r.ub, 5, 0, "C_6 capacity 2.5: cut capacity 5");
    is_int(r.cut_links, 2, "C_6 capacity 2.5: 2 links cut");
    ok(isnan(r.adj_lambda), "weighted: no adjacency eigenvalue");
    tk_bisect_result_destroy(&r);
    tk_graph_free(g);

    g = build(6, 1, c6, 6, 1);
    is_int(tk_bisect(g, &o, &r, &err), TK_EUNSUPPORTED, "directed: refused");
    ok(strstr(err.msg, "directed") != NULL, "directed: message says so (%s)", err.msg);
    tk_bisect_result_destroy(&r);
    o.symmetrize = 1;
    is_int(tk_bisect(g, &o, &r, &err), TK_OK, "directed C_6 with symmetrize");
    /* Each arc is half a link: C_6 with capacity 1/2. */
    is_dbl(r.lambda2, 0.5, 1e-9, "symmetrized directed C_6: lambda2 = 1/2 (C_6 at half capacity)");
    is_dbl(r.ub, 1, 0, "symmetrized directed C_6: cut capacity 1 (mean of 1 arc each way)");
    is_int(r.cut_links, 2, "symmetrized directed C_6: 2 arcs cross");
    tk_bisect_result_destroy(&r);
    /* A digraph with every arc paired gives the undirected values. */
    {
        static const int c6d[] = {0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 0,
                                  1, 0, 2, 1, 3, 2, 4, 3, 5, 4, 0, 5};
        tk_graph_t *h = build(6, 1, c6d, 12, 1);
        is_int(tk_bisect(h, &o, &r, &err), TK_OK, "symmetric digraph C_6");
        is_dbl(r.lambda2, 1, 1e-9, "symmetric digraph C_6: lambda2 1 as undirected C_6");
        is_dbl(r.ub, 2, 0, "symmetric digraph C_6: cut 2 as undirected C_6");
        tk_graph_free(h);
    }
    tk_bisect_result_destroy(&r);
    tk_graph_free(g);

    o.symmetrize = 0;
    g = build(4, 0, two, 2, 1);
    is_int(tk_bisect(g, &o, &r, &err), TK_EDISCONNECTED, "disconnected: TK_EDISCONNECTED");
    tk_bisect_result_destroy(&r);
    o.allow_disconnected = 1;
    is_int(tk_bisect(g, &o, &r, &err), TK_OK, "disconnected allowed");
    is_dbl(r.lambda2, 0, 0, "disconnected: lambda2 = 0");
    is_dbl(r.ub, 0, 0, "two edges: cut 0 (one edge per side)");
    ok(!r.connected && r.solver == TK_EIG_NONE, "disconnected: connected 0, solver none");
    tk_bisect_result_destroy(&r);
    tk_graph_free(g);

    o.allow_disconnected = 0;
    g = build(1, 0, NULL, 0, 1);
    is_int(tk_bisect(g, &o, &r, &err), TK_EINVAL, "n = 1: refused");
    ok(strncmp(err.msg, "n=1", 3) == 0, "n = 1: message names n (%s)", err.msg);
    tk_bisect_result_destroy(&r);
    tk_graph_free(g);
}

static void test_threads(void)
{
    tk_graph_t *g = NULL;
    tk_spectral_opts_t o = {0};
    tk_bisect_result_t r1, r2;
    tk_gen_rrg(1200, 6, 5, 0, &g, NULL);
    o.seed = 11;
    o.solver = TK_EIG_LANCZOS;
#ifdef _OPENMP
    omp_set_num_threads(1);
#endif
    tk_bisect(g, &o, &r1, NULL);
#ifdef _OPENMP
    omp_set_num_threads(2);
#endif
    tk_bisect(g, &o, &r2, NULL);
    ok(r1.lambda2 == r2.lambda2 && r1.ub == r2.ub && memcmp(r1.side, r2.side, (size_t)g->n) == 0,
       "rrg n=1200: identical lambda2 and cut with 1 and 2 threads");
    tk_bisect_result_destroy(&r1);
    tk_bisect_result_destroy(&r2);
    tk_graph_free(g);
}

int main(void)
{
    test_hypercube();
    test_torus_ring_complete();
    test_petersen();
    test_random_small();
    test_larger_agreement();
    test_weighted_directed_errors();
    test_threads();
    return tap_done();
}
