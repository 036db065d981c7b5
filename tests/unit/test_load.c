/*
 * test_load.c - analytic link load (tk_load.h and the engines of
 * src/flow/load.c).
 *
 * Expected values: an independent brute-force enumeration written here
 * (plain recursive DFS over every simple path, Floyd-Warshall distances,
 * no BFS, no path counting), closed forms (cycles, complete graphs,
 * hypercubes), conservation (sum of the loads = sum of w(s,t) d(s,t) under
 * minimal routings), and the sum over tk_route_paths for every model.
 */
#include <config.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "topokit.h"
#include "load/load_internal.h"

/* --- graph helpers --------------------------------------------------------- */
static tk_graph_t *from_edges(int n, int directed, const int (*e)[2], int m)
{
    tk_builder_t *b;
    tk_graph_t *g = NULL;
    if (tk_builder_new(&b, n, directed, NULL) != TK_OK)
        return NULL;
    for (int i = 0; i < m; i++)
        if (tk_builder_add(b, e[i][0], e[i][1], NULL) != TK_OK) {
            tk_builder_free(b);
            return NULL;
        }
    if (tk_builder_finish(b, &g, NULL) != TK_OK)
        return NULL;
    return g;
}

static tk_graph_t *petersen(void)
{
    static const int e[15][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 0}, {0, 5}, {1, 6}, {2, 7},
                                 {3, 8}, {4, 9}, {5, 7}, {7, 9}, {9, 6}, {6, 8}, {8, 5}};
    return from_edges(10, 0, e, 15);
}

/* A small irregular graph with a parallel link (1-2 twice) and a pendant. */
static tk_graph_t *odd_graph(void)
{
    static const int e[11][2] = {{0, 1}, {1, 2}, {1, 2}, {2, 3}, {3, 0}, {3, 4},
                                 {4, 5}, {5, 6}, {6, 3}, {2, 6}, {6, 7}};
    return from_edges(8, 0, e, 11);
}

/* A strongly connected digraph: a directed 7-cycle with three chords. */
static tk_graph_t *digraph(void)
{
    static const int e[10][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5},
                                 {5, 6}, {6, 0}, {0, 3}, {2, 5}, {4, 1}};
    return from_edges(7, 1, e, 10);
}

/* Deterministic pseudo-random weights (a 64-bit LCG of the test's own). */
static uint64_t lcg = 88172645463325252ull;
static double rnd(void)
{
    lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(lcg >> 11) / 9007199254740992.0;
}

/* A switch-level demand built by hand from a dense n x n matrix. */
static void dem_from_dense(tk_swdemand_t *d, int n, const double *w)
{
    memset(d, 0, sizeof *d);
    d->n = n;
    d->off = calloc((size_t)n + 1, sizeof *d->off);
    d->dst = calloc((size_t)n * (size_t)n + 1, sizeof *d->dst);
    d->w = calloc((size_t)n * (size_t)n + 1, sizeof *d->w);
    for (int s = 0; s < n; s++) {
        d->off[s + 1] = d->off[s];
        for (int t = 0; t < n; t++)
            if (t != s && w[s * n + t] > 0) {
                d->dst[d->off[s + 1]] = t;
                d->w[d->off[s + 1]++] = w[s * n + t];
                d->total += w[s * n + t];
            }
    }
    d->len = d->off[n];
}

static void dem_free(tk_swdemand_t *d)
{
    free(d->off);
    free(d->dst);
    free(d->w);
    memset(d, 0, sizeof *d);
}

/* --- brute force ------------------------------------------------------------ */
/* All simple paths from s to t of at most maxh hops, by plain recursion. */
typedef struct bpaths {
    int np, cap;
    int len[200000];
    int64_t *arcs; /* np * 16 */
} bpaths_t;

static bpaths_t bp;

static void bp_rec(const tk_graph_t *g, int u, int t, int maxh, int depth, int64_t *stack,
                   char *onp)
{
    if (u == t) {
        if (bp.np < 200000) {
            memcpy(bp.arcs + (size_t)bp.np * 16, stack, (size_t)depth * sizeof *stack);
            bp.len[bp.np++] = depth;
        }
        return;
    }
    if (depth == maxh || depth >= 16)
        return;
    for (int64_t a = g->off[u]; a < g->off[u + 1]; a++) {
        int v = g->head[a];
        if (onp[v])
            continue;
        onp[v] = 1;
        stack[depth] = a;
        bp_rec(g, v, t, maxh, depth + 1, stack, onp);
        onp[v] = 0;
    }
}

static void bp_all(const tk_graph_t *g, int s, int t, int maxh)
{
    int64_t stack[16];
    char onp[64] = {0};
    bp.np = 0;
    onp[s] = 1;
    bp_rec(g, s, t, maxh, 0, stack, onp);
}

/* Add w times min routing (uniform over the shortest simple paths) of (s,t). */
static void brute_min_pair(const tk_graph_t *g, int s, int t, double w, double *load)
{
    if (s == t || w == 0)
        return;
    bp_all(g, s, t, 15);
    int best = 1000, cnt = 0;
    for (int i = 0; i < bp.np; i++)
        if (bp.len[i] < best)
            best = bp.len[i];
    for (int i = 0; i < bp.np; i++)
        cnt += bp.len[i] == best;
    for (int i = 0; i < bp.np; i++)
        if (bp.len[i] == best)
            for (int k = 0; k < best; k++)
                load[bp.arcs[(size_t)i * 16 + k]] += w / cnt;
}

static void brute_allpath_pair(const tk_graph_t *g, int s, int t, int h, double w, double *load)
{
    if (s == t || w == 0)
        return;
    bp_all(g, s, t, h);
    for (int i = 0; i < bp.np; i++)
        for (int k = 0; k < bp.len[i]; k++)
            load[bp.arcs[(size_t)i * 16 + k]] += w / bp.np;
}

/* Floyd-Warshall hop distances. */
static void floyd(const tk_graph_t *g, int *D)
{
    int n = g->n;
    for (int i = 0; i < n * n; i++)
        D[i] = 1 << 20;
    for (int u = 0; u < n; u++) {
        D[u * n + u] = 0;
        for (int64_t a = g->off[u]; a < g->off[u + 1]; a++)
            if (g->head[a] != u)
                D[u * n + g->head[a]] = 1;
    }
    for (int k = 0; k < n; k++)
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                if (D[i * n + k] + D[k * n + j] < D[i * n + j])
                    D[i * n + j] = D[i * n + k] + D[k * n + j];
}

/* ECMP by recursion: f at u splits evenly over arcs one hop closer to t. */
static void brute_ecmp_rec(const tk_graph_t *g, const int *D, int u, int t, double f, double *load)
{
    int n = g->n, cnt = 0;
    if (u == t)
        return;
    for (int64_t a = g->off[u]; a < g->off[u + 1]; a++)
        cnt += D[g->head[a] * n + t] == D[u * n + t] - 1;
    for (int64_t a = g->off[u]; a < g->off[u + 1]; a++)
        if (D[g->head[a] * n + t] == D[u * n + t] - 1) {
            load[a] += f / cnt;
            brute_ecmp_rec(g, D, g->head[a], t, f / cnt, load);
        }
}

static double maxrel(const double *a, const double *b, int64_t m)
{
    double e = 0;
    for (int64_t i = 0; i < m; i++) {
        double d = fabs(a[i] - b[i]) / (1.0 + fabs(b[i]));
        if (d > e)
            e = d;
    }
    return e;
}

/* Compare min, ecmp, valiant (all, exclude), allpath:3 with the brute force,
 * for random demands and for the all-to-all. */
static void check_graph(const char *name, const tk_graph_t *g)
{
    int n = g->n;
    int64_t m = g->m;
    double *w = calloc((size_t)n * n, sizeof *w), *ld = calloc((size_t)m, sizeof *ld);
    double *bl = calloc((size_t)m, sizeof *bl);
    int *D = calloc((size_t)n * n, sizeof *D);
    tk_swdemand_t dem;
    tk_error_t err;

    floyd(g, D);
    for (int i = 0; i < n * n; i++)
        w[i] = (i / n != i % n && rnd() < 0.6) ? 0.1 + rnd() : 0;
    dem_from_dense(&dem, n, w);

    for (int pass = 0; pass < 2; pass++) { /* 0: random demands, 1: all-to-all */
        const tk_swdemand_t *dp = pass ? NULL : &dem;
        const char *pn = pass ? "all-to-all" : "random demands";
#define W(s, t) (pass ? ((s) != (t) ? 1.0 : 0.0) : w[(s)*n + (t)])
        /* min */
        memset(bl, 0, (size_t)m * sizeof *bl);
        for (int s = 0; s < n; s++)
            for (int t = 0; t < n; t++)
                brute_min_pair(g, s, t, W(s, t), bl);
        ok(tk_load_graph(g, "min", dp, NULL, 2, ld, &err) == TK_OK, "%s: min, %s: runs", name, pn);
        ok(maxrel(ld, bl, m) < 1e-12, "%s: min, %s = brute force (rel err %g)", name, pn,
           maxrel(ld, bl, m));
        /* conservation: sum of loads = sum of w * d */
        double sl = 0, sw = 0;
        for (int64_t a = 0; a < m; a++)
            sl += ld[a];
        for (int s = 0; s < n; s++)
            for (int t = 0; t < n; t++)
                sw += W(s, t) * D[s * n + t];
        is_dbl(sl, sw, 1e-9 * sw, "%s: min, %s: sum of loads = sum w(s,t) d(s,t)", name, pn);
        /* ecmp */
        memset(bl, 0, (size_t)m * sizeof *bl);
        for (int s = 0; s < n; s++)
            for (int t = 0; t < n; t++)
                if (W(s, t) > 0)
                    brute_ecmp_rec(g, D, s, t, W(s, t), bl);
        ok(tk_load_graph(g, "ecmp", dp, NULL, 2, ld, &err) == TK_OK, "%s: ecmp, %s: runs", name,
           pn);
        ok(maxrel(ld, bl, m) < 1e-12, "%s: ecmp, %s = brute force (rel err %g)", name, pn,
           maxrel(ld, bl, m));
        /* valiant all / exclude */
        for (int mode = 0; mode < 2; mode++) {
            memset(bl, 0, (size_t)m * sizeof *bl);
            double pm = mode ? 1.0 / (n - 2) : 1.0 / n;
            for (int s = 0; s < n; s++)
                for (int t = 0; t < n; t++) {
                    if (W(s, t) == 0)
                        continue;
                    for (int mid = 0; mid < n; mid++) {
                        if (mode && (mid == s || mid == t))
                            continue;
                        brute_min_pair(g, s, mid, W(s, t) * pm, bl);
                        brute_min_pair(g, mid, t, W(s, t) * pm, bl);
                    }
                }
            ok(tk_load_graph(g, mode ? "valiant,exclude" : "valiant", dp, NULL, 2, ld, &err) ==
                   TK_OK,
               "%s: valiant,%s, %s: runs", name, mode ? "exclude" : "all", pn);
            ok(maxrel(ld, bl, m) < 1e-12, "%s: valiant,%s, %s = brute force (rel err %g)", name,
               mode ? "exclude" : "all", pn, maxrel(ld, bl, m));
        }
        /* allpath:H */
        for (int h = 3; h <= 4; h++) {
            int reach = 1;
            memset(bl, 0, (size_t)m * sizeof *bl);
            for (int s = 0; s < n; s++)
                for (int t = 0; t < n; t++) {
                    if (W(s, t) > 0 && D[s * n + t] > h)
                        reach = 0;
                    else
                        brute_allpath_pair(g, s, t, h, W(s, t), bl);
                }
            char model[32];
            snprintf(model, sizeof model, "allpath:%d", h);
            tk_status_t st = tk_load_graph(g, model, dp, NULL, 2, ld, &err);
            if (reach) {
                ok(st == TK_OK, "%s: allpath:%d, %s: runs", name, h, pn);
                ok(maxrel(ld, bl, m) < 1e-12, "%s: allpath:%d, %s = brute force (rel err %g)", name,
                   h, pn, maxrel(ld, bl, m));
            } else {
                ok(st == TK_EDISCONNECTED && strstr(err.msg, "no path of at most"),
                   "%s: allpath:%d, %s: a pair beyond H hops is refused (%s)", name, h, pn,
                   err.msg);
            }
        }
#undef W
    }
    dem_free(&dem);
    free(w);
    free(ld);
    free(bl);
    free(D);
}

/* Every routing model through tk_load_compute = the sum over tk_route_paths
 * of the same router (the per-pair definition of the model), for random
 * demands and for the all-to-all (tk_load_all_to_all and the materialised
 * tk_swdemand_all_to_all). */
static void check_models(const char *name, const tk_graph_t *g, const char *const *models)
{
    int n = g->n;
    int64_t m = g->m;
    double *w = calloc((size_t)n * n, sizeof *w), *ld = calloc((size_t)m, sizeof *ld);
    double *bl = calloc((size_t)m, sizeof *bl), *l2 = calloc((size_t)m, sizeof *l2);
    tk_swdemand_t dem, all;
    tk_error_t err;

    for (int i = 0; i < n * n; i++)
        w[i] = (i / n != i % n && rnd() < 0.5) ? 0.1 + rnd() : 0;
    dem_from_dense(&dem, n, w);
    memset(&all, 0, sizeof all);
    ok(tk_swdemand_all_to_all(g, 0, &all, &err) == TK_OK, "%s: tk_swdemand_all_to_all", name);
    for (int k = 0; models[k]; k++) {
        tk_route_spec_t sp;
        tk_router_t *r = NULL;
        tk_route_ws_t *ws = NULL;
        tk_pathset_t ps;
        if (tk_route_parse(models[k], &sp, &err) != TK_OK ||
            tk_router_new(g, &sp, 1, 0, &r, &err) != TK_OK ||
            tk_route_ws_new(r, &ws, &err) != TK_OK) {
            ok(0, "%s: %s: router (%s)", name, models[k], err.msg);
            tk_router_free(r);
            continue;
        }
        tk_pathset_init(&ps);
        for (int pass = 0; pass < 2; pass++) {
            memset(bl, 0, (size_t)m * sizeof *bl);
            int good = 1;
            for (int s = 0; s < n && good; s++)
                for (int t = 0; t < n && good; t++) {
                    double x = pass ? (s != t) : w[s * n + t];
                    if (x == 0)
                        continue;
                    if (tk_route_paths(r, ws, s, t, 0, &ps, &err) != TK_OK) {
                        good = 0;
                        break;
                    }
                    for (int64_t i = 0; i < ps.npaths; i++)
                        for (int64_t j = ps.off[i]; j < ps.off[i + 1]; j++)
                            bl[ps.arc[j]] += x * ps.w[i];
                }
            tk_status_t st = pass ? tk_load_all_to_all(r, NULL, 2, ld, &err)
                                  : tk_load_compute(r, &dem, 2, ld, &err);
            ok(good && st == TK_OK && maxrel(ld, bl, m) < 1e-12,
               "%s: %s, %s: load = sum over tk_route_paths (rel err %g) %s", name, models[k],
               pass ? "all-to-all" : "random demands", maxrel(ld, bl, m),
               st == TK_OK ? "" : err.msg);
            if (pass) {
                st = tk_load_compute(r, &all, 1, l2, &err);
                ok(st == TK_OK && memcmp(ld, l2, (size_t)m * sizeof *ld) == 0,
                   "%s: %s: tk_load_all_to_all = tk_load_compute(tk_swdemand_all_to_all), "
                   "byte for byte, 2 threads vs 1",
                   name, models[k]);
            }
        }
        tk_pathset_destroy(&ps);
        tk_route_ws_free(ws);
        tk_router_free(r);
    }
    tk_swdemand_destroy(&all);
    dem_free(&dem);
    free(w);
    free(ld);
    free(bl);
    free(l2);
}

/* Loads must be byte-identical for 1 and 2 threads (many chunks). */
static void check_threads(void)
{
    tk_graph_t *g = NULL;
    tk_error_t err;
    ok(tk_gen_rrg(300, 5, 7, 0, &g, &err) == TK_OK, "rrg n=300 d=5 generated");
    double *a = calloc((size_t)g->m, sizeof *a), *b = calloc((size_t)g->m, sizeof *b);
    double *srcw = calloc((size_t)g->n, sizeof *srcw);
    for (int i = 0; i < g->n; i++)
        srcw[i] = 0.25 + rnd();
    ok(tk_load_graph(g, "min", NULL, srcw, 1, a, &err) == TK_OK &&
           tk_load_graph(g, "min", NULL, srcw, 2, b, &err) == TK_OK &&
           memcmp(a, b, (size_t)g->m * sizeof *a) == 0,
       "min: 1 and 2 threads give byte-identical loads");
    ok(tk_load_graph(g, "ecmp", NULL, srcw, 1, a, &err) == TK_OK &&
           tk_load_graph(g, "ecmp", NULL, srcw, 2, b, &err) == TK_OK &&
           memcmp(a, b, (size_t)g->m * sizeof *a) == 0,
       "ecmp: 1 and 2 threads give byte-identical loads");
    ok(tk_load_graph(g, "allpath:6", NULL, srcw, 1, a, &err) == TK_OK &&
           tk_load_graph(g, "allpath:6", NULL, srcw, 2, b, &err) == TK_OK &&
           memcmp(a, b, (size_t)g->m * sizeof *a) == 0,
       "allpath:6: 1 and 2 threads give byte-identical loads");
    /* Undirected all-to-all: both directions of a link carry the same load. */
    tk_load_graph(g, "min", NULL, NULL, 2, a, &err);
    double dev = 0;
    for (int64_t x = 0; x < g->m; x++)
        dev = fmax(dev, fabs(a[x] - a[g->rev[x]]));
    ok(dev < 1e-9, "min all-to-all: load(u->v) = load(v->u) (dev %g)", dev);
    free(a);
    free(b);
    free(srcw);
    tk_graph_free(g);
}

/* Closed forms. */
static void check_closed_forms(void)
{
    tk_graph_t *g = NULL;
    tk_error_t err;
    double ld[64];

    /* Odd cycle C_{2k+1}, all-to-all min: every arc carries 1+2+...+k. */
    tk_gen_ring(9, &g, &err);
    tk_load_graph(g, "min", NULL, NULL, 1, ld, &err);
    int good = 1;
    for (int64_t a = 0; a < g->m; a++)
        good &= fabs(ld[a] - 10.0) < 1e-12;
    ok(good, "C_9 all-to-all min: every arc carries 1+2+3+4 = 10");
    tk_graph_free(g);
    /* Even cycle C_8: antipodal pairs split 1/2 each way: 1+2+3 + 4/2 = 8. */
    tk_gen_ring(8, &g, &err);
    tk_load_graph(g, "ecmp", NULL, NULL, 1, ld, &err);
    good = 1;
    for (int64_t a = 0; a < g->m; a++)
        good &= fabs(ld[a] - 8.0) < 1e-12;
    ok(good, "C_8 all-to-all ecmp: every arc carries 1+2+3+4/2 = 8");
    tk_graph_free(g);
    /* K_6: every pair is one hop: load 1 per arc. */
    tk_gen_complete(6, &g, &err);
    tk_load_graph(g, "min", NULL, NULL, 1, ld, &err);
    good = 1;
    for (int64_t a = 0; a < g->m; a++)
        good &= ld[a] == 1.0;
    ok(good, "K_6 all-to-all min: load exactly 1 per arc");
    tk_graph_free(g);
    /* Hypercube Q_4 all-to-all min: by symmetry every arc carries
     * sum_d C(4,d) d / 4 = 2^4 * 2 / 4 = 8... per source 2^(k-1) hops per
     * dimension: total sum of distances 16*32 over 64 arcs = 8. */
    tk_gen_hypercube(4, &g, &err);
    double big[128];
    tk_load_graph(g, "min", NULL, NULL, 2, big, &err);
    good = 1;
    for (int64_t a = 0; a < g->m; a++)
        good &= fabs(big[a] - 8.0) < 1e-12;
    ok(good, "Q_4 all-to-all min: every arc carries 16*32/64 = 8");
    tk_graph_free(g);
}

static void check_errors_and_summary(void)
{
    static const int e[3][2] = {{0, 1}, {2, 3}, {3, 4}};
    tk_graph_t *g = from_edges(5, 0, e, 3);
    tk_error_t err;
    double ld[8];
    double w[25] = {0};
    tk_swdemand_t d;
    w[0 * 5 + 1] = 1;
    w[1 * 5 + 3] = 0.5;
    dem_from_dense(&d, 5, w);
    ok(tk_load_graph(g, "min", &d, NULL, 1, ld, &err) == TK_EDISCONNECTED &&
           strstr(err.msg, "switch 1 cannot reach switch 3"),
       "min: unreachable demand is TK_EDISCONNECTED naming the pair (%s)", err.msg);
    ok(tk_load_graph(g, "ecmp", &d, NULL, 1, ld, &err) == TK_EDISCONNECTED &&
           strstr(err.msg, "switch 1 cannot reach switch 3"),
       "ecmp: unreachable demand is TK_EDISCONNECTED naming the pair (%s)", err.msg);
    dem_free(&d);
    /* Only 0 -> 1: fine on this disconnected graph. */
    memset(w, 0, sizeof w);
    w[1] = 2.5;
    dem_from_dense(&d, 5, w);
    ok(tk_load_graph(g, "min", &d, NULL, 1, ld, &err) == TK_OK && ld[0] == 2.5 && ld[1] == 0,
       "min: demand inside one component is routed");
    d.n = 4;
    ok(tk_load_graph(g, "min", &d, NULL, 1, ld, &err) == TK_EINVAL,
       "demands of another size: EINVAL");
    d.n = 5;
    dem_free(&d);
    tk_graph_free(g);

    /* Summary and throughput on a small classed graph. */
    tk_builder_t *b;
    int cl, cg;
    tk_builder_new(&b, 3, 0, NULL);
    tk_builder_class(b, "local", &cl, NULL);
    tk_builder_class(b, "global", &cg, NULL);
    tk_builder_add_ex(b, 0, 1, cl, 1, NULL);
    tk_builder_add_ex(b, 1, 2, cg, 2, NULL);
    tk_builder_finish(b, &g, NULL);
    double al[4] = {3, 1, 4, 2}; /* arcs 0->1, 1->0, 1->2, 2->1 */
    tk_load_summary_t s;
    ok(tk_load_summarize(g, al, &s, &err) == TK_OK, "summarize runs");
    int lc = tk_graph_class_index(g, "local"), gc = tk_graph_class_index(g, "global");
    is_dbl(s.max_load[lc], 3, 0, "local max load 3");
    is_dbl(s.avg_load[lc], 2, 0, "local avg load 2");
    is_dbl(s.max_load[gc], 2, 0, "global max load 4/cap 2 = 2");
    is_dbl(s.avg_load[gc], 1.5, 0, "global avg load (2+1)/2 = 1.5");
    is_dbl(s.max_load[s.nclasses], 3, 0, "overall max load 3");
    is_int(s.arcs[s.nclasses], 4, "overall arcs 4");
    is_int(s.argmax, 0, "argmax is arc 0");
    tk_load_summary_destroy(&s);
    tk_graph_free(g);
    is_dbl(tk_load_throughput(4, NULL), 0.25, 0, "throughput 1/max load");
    is_dbl(tk_load_throughput(0.5, NULL), 1, 0, "throughput capped at 1");
    double inj[2] = {1, 0.5}, ej[2] = {1.25, 1};
    tk_swdemand_t dd;
    memset(&dd, 0, sizeof dd);
    dd.n = 2;
    dd.inject = inj;
    dd.eject = ej;
    is_dbl(tk_load_throughput(0.5, &dd), 0.8, 1e-15, "throughput capped by ejection 1/1.25");
    is_dbl(tk_swdemand_limit(&dd), 0.8, 1e-15, "limit of the demands 1/1.25");
    is_dbl(tk_swdemand_limit(NULL), 1, 0, "no demands: limit 1");
    /* The one formula: min(1, theta, limit). */
    is_dbl(tk_throughput(0.25, 1), 0.25, 0, "tk_throughput: theta below 1");
    is_dbl(tk_throughput(3, 1), 1, 0, "tk_throughput: capped at 1");
    is_dbl(tk_throughput(INFINITY, 0.5), 0.5, 0, "tk_throughput: nothing loaded, the limit");
    is_dbl(tk_throughput(0.7, 0.6), 0.6, 0, "tk_throughput: the limit below theta");
    is_dbl(tk_load_throughput(0, NULL), 1, 0, "no load, no limit: 1");
}

/* Resilience sweeps (load/resil.c): a ring's closed forms, seeds, threads,
 * and the statistics against the closed form of Student's t with 2
 * degrees of freedom, t = (2p - 1) / sqrt(2 p (1 - p)). */
static void check_resilience(void)
{
    tk_graph_t *g = NULL;
    tk_error_t err;
    tk_route_spec_t spec;
    tk_resil_opts_t o;
    tk_resil_sample_t s1[12], s2[12];
    const double fr[3] = {0, 0.125, 0.25};

    ok(tk_resil_seed(5, 0, 3, 1) == tk_resil_seed(5, 7, 3, 1), "nested seeds ignore the point");
    ok(tk_resil_seed(5, 0, 3, 0) != tk_resil_seed(5, 1, 3, 0) &&
           tk_resil_seed(5, 0, 3, 0) != tk_resil_seed(5, 0, 4, 0) &&
           tk_resil_seed(5, 0, 3, 0) != tk_resil_seed(6, 0, 3, 0),
       "seeds differ by point, sample and seed");
    tk_gen_ring(8, &g, &err);
    tk_route_parse("min", &spec, &err);
    memset(&o, 0, sizeof o);
    o.fraction = fr;
    o.points = 3;
    o.samples = 4;
    o.route = &spec;
    o.bisection = 1;
    o.seed = 9;
    o.threads = 1;
    ok(tk_resil_run(g, &o, s1, &err) == TK_OK, "ring 8: sweep runs");
    int good = 1;
    for (int j = 0; j < 4; j++) {
        /* intact: diameter 4, average (1+2+3)*2+4 over 7 = 16/7 */
        good &= s1[j].removed == 0 && !s1[j].disconnected && s1[j].diameter == 4 &&
                fabs(s1[j].avg_distance - 16.0 / 7) < 1e-12;
        /* one link out: the path P_8, diameter 7, average (n+1)/3 = 3 */
        good &= s1[4 + j].removed == 1 && !s1[4 + j].disconnected && s1[4 + j].diameter == 7 &&
                fabs(s1[4 + j].avg_distance - 3) < 1e-12;
        /* two links out: disconnected, throughput 0, bisection bound 0 */
        good &= s1[8 + j].removed == 2 && s1[8 + j].disconnected && s1[8 + j].throughput == 0 &&
                s1[8 + j].bisection_lb == 0 && isnan(s1[8 + j].avg_distance) &&
                isnan(s1[8 + j].max_load);
        good &= s1[4 + j].seed == tk_resil_seed(9, 1, j, 0);
    }
    ok(good, "ring 8: intact, the path after one failure, disconnected after two");
    /* lambda2 of C_8 = 2 - 2 cos(2 pi / 8); bound lambda2 * 4 * 4 / 8 */
    ok(fabs(s1[0].bisection_lb - (2 - 2 * cos(2 * M_PI / 8)) * 2) < 1e-9,
       "ring 8: bisection bound 2 lambda2 (%.17g)", s1[0].bisection_lb);
    o.threads = 2;
    ok(tk_resil_run(g, &o, s2, &err) == TK_OK && memcmp(s1, s2, sizeof s1) == 0,
       "ring 8: the same samples, bit for bit, with 2 threads");
    double bad = 1.5;
    o.fraction = &bad;
    o.points = 1;
    ok(tk_resil_run(g, &o, s2, &err) == TK_EINVAL, "fraction 1.5 refused: %s", err.msg);
    tk_graph_free(g);

    tk_sample_stats_t st;
    const double x[4] = {1, NAN, 2, 3};
    double p = 0.975, t2 = (2 * p - 1) / sqrt(2 * p * (1 - p));
    ok(tk_resil_stats(x, 4, 0.95, &st, &err) == TK_OK && st.n == 3 && st.mean == 2 &&
           fabs(st.sd - 1) < 1e-15 && fabs(st.halfwidth - t2 / sqrt(3)) < 1e-9 && st.min == 1 &&
           st.max == 3,
       "stats of 1, NAN, 2, 3: NAN left out, halfwidth t(0.975, 2) / sqrt(3) = %.12g",
       t2 / sqrt(3));
    const double e[3] = {0.1, 0.1, 0.1};
    ok(tk_resil_stats(e, 3, 0.95, &st, &err) == TK_OK && st.mean == 0.1 && st.halfwidth == 0,
       "stats of equal values: the value itself, width 0");
    const double none[2] = {NAN, NAN};
    ok(tk_resil_stats(none, 2, 0.95, &st, &err) == TK_OK && st.n == 0 && isnan(st.mean),
       "stats with no value: n 0, NAN");
    ok(tk_resil_stats(e, 3, 1, &st, &err) == TK_EINVAL, "level 1 refused");
}

int main(void)
{
    bp.arcs = calloc((size_t)200000 * 16, sizeof *bp.arcs);
    tk_graph_t *g = petersen();
    check_graph("petersen", g);
    tk_graph_free(g);
    g = odd_graph();
    check_graph("irregular+parallel", g);
    tk_graph_free(g);
    g = digraph();
    check_graph("digraph", g);
    tk_graph_free(g);
    tk_gen_hypercube(3, &g, NULL);
    check_graph("Q_3", g);
    tk_graph_free(g);
    {
        static const char *const generic[] = {"min",
                                              "ecmp",
                                              "ksp:3",
                                              "allpath:3",
                                              "valiant",
                                              "valiant,exclude",
                                              "valiant,minfirst",
                                              "polarized",
                                              NULL};
        static const char *const dfly[] = {"min",
                                           "ecmp",
                                           "dragonfly-min",
                                           "dragonfly-valiant",
                                           "min,global=2",
                                           "ecmp,global=2",
                                           "min,global=3",
                                           "ecmp,local=2,global=5",
                                           "valiant",
                                           "ksp:2",
                                           NULL};
        g = petersen();
        check_models("petersen", g, generic);
        tk_graph_free(g);
        g = odd_graph();
        check_models("irregular+parallel", g, generic);
        tk_graph_free(g);
        tk_gen_dragonfly(1, 3, 1, 4, TK_ARR_PALMTREE, 0, 0, &g, NULL);
        check_models("dragonfly a=3 h=1 g=4", g, dfly);
        tk_graph_free(g);
        /* trunking: a=4 h=2 g=3, four global links per group pair */
        tk_gen_dragonfly(1, 4, 2, 3, TK_ARR_PALMTREE, 0, 0, &g, NULL);
        check_models("dragonfly a=4 h=2 g=3", g, dfly);
        tk_graph_free(g);
        /* a classed digraph: directed 7-cycle ("-") with chords ("global") */
        {
            static const char *const wd[] = {"min,global=2", "ecmp,global=3", NULL};
            static const int ch[4][2] = {{0, 3}, {2, 5}, {4, 1}, {6, 2}};
            tk_builder_t *bd;
            int cgl;
            tk_builder_new(&bd, 7, 1, NULL);
            tk_builder_class(bd, "global", &cgl, NULL);
            for (int i = 0; i < 7; i++)
                tk_builder_add(bd, i, (i + 1) % 7, NULL);
            for (int i = 0; i < 4; i++)
                tk_builder_add_ex(bd, ch[i][0], ch[i][1], cgl, 1, NULL);
            g = NULL;
            tk_builder_finish(bd, &g, NULL);
            check_models("classed digraph", g, wd);
            tk_graph_free(g);
        }
        /* Dragonfly+: leaf/spine groups, classes updown and global */
        static const char *const dfp[] = {"dragonfly-min", "dragonfly-valiant", NULL};
        tk_error_t e2;
        g = NULL;
        if (tk_gen_dfplus(2, 2, 1, 2, 5, TK_ARR_PALMTREE, 0, 0, &g, &e2) == TK_OK)
            check_models("dragonfly+ L=2 S=2 h=2", g, dfp);
        else
            ok(0, "dragonfly+ generated (%s)", e2.msg);
        tk_graph_free(g);
    }
    check_threads();
    check_closed_forms();
    check_errors_and_summary();
    check_resilience();
    free(bp.arcs);
    return tap_done();
}
