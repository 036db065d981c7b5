/*
 * test_metric.c - distances and girth on graphs whose values are known from
 * mathematics, and the bit-parallel engine against plain BFS.
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "tap.h"
#include "tk_metric.h"

/* ------------------------------------------------------------------------ */
/* Building test graphs. */

typedef struct elist {
    int64_t n;
    int directed;
    int64_t len, cap;
    int64_t *u, *v;
} elist_t;

static void el_init(elist_t *e, int64_t n, int directed)
{
    memset(e, 0, sizeof *e);
    e->n = n;
    e->directed = directed;
}

static void el_add(elist_t *e, int64_t u, int64_t v)
{
    if (e->len == e->cap) {
        e->cap = e->cap ? 2 * e->cap : 64;
        e->u = realloc(e->u, (size_t)e->cap * sizeof *e->u);
        e->v = realloc(e->v, (size_t)e->cap * sizeof *e->v);
        if (!e->u || !e->v)
            abort();
    }
    e->u[e->len] = u;
    e->v[e->len] = v;
    e->len++;
}

/* Build and free the list; aborts the test on a builder error. */
static tk_graph_t *el_build(elist_t *e)
{
    tk_builder_t *b;
    tk_graph_t *g = NULL;
    tk_error_t err;
    if (tk_builder_new(&b, e->n, e->directed, &err) != TK_OK) {
        printf("# builder: %s\n", err.msg);
        abort();
    }
    for (int64_t i = 0; i < e->len; i++)
        if (tk_builder_add(b, e->u[i], e->v[i], &err) != TK_OK) {
            printf("# builder add: %s\n", err.msg);
            abort();
        }
    if (tk_builder_finish(b, &g, &err) != TK_OK) {
        printf("# builder finish: %s\n", err.msg);
        abort();
    }
    free(e->u);
    free(e->v);
    memset(e, 0, sizeof *e);
    return g;
}

static tk_graph_t *cycle(int64_t n, int directed)
{
    elist_t e;
    el_init(&e, n, directed);
    for (int64_t i = 0; i < n; i++)
        el_add(&e, i, (i + 1) % n);
    return el_build(&e);
}

static tk_graph_t *path(int64_t n)
{
    elist_t e;
    el_init(&e, n, 0);
    for (int64_t i = 0; i + 1 < n; i++)
        el_add(&e, i, i + 1);
    return el_build(&e);
}

static tk_graph_t *complete(int64_t n)
{
    elist_t e;
    el_init(&e, n, 0);
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = i + 1; j < n; j++)
            el_add(&e, i, j);
    return el_build(&e);
}

/* Petersen: outer pentagon 0..4, spokes i - i+5, inner pentagram. */
static tk_graph_t *petersen(void)
{
    elist_t e;
    el_init(&e, 10, 0);
    for (int i = 0; i < 5; i++) {
        el_add(&e, i, (i + 1) % 5);
        el_add(&e, i, i + 5);
        el_add(&e, 5 + i, 5 + (i + 2) % 5);
    }
    return el_build(&e);
}

/* Hoffman-Singleton (Robertson's construction): pentagons P_h (vertex
 * 5h+j, j ~ j+-1), pentagrams Q_i (vertex 25+5i+j, j ~ j+-2), and P_h,j ~
 * Q_i,(h*i+j) mod 5. */
static tk_graph_t *hoffman_singleton(void)
{
    elist_t e;
    el_init(&e, 50, 0);
    for (int h = 0; h < 5; h++)
        for (int j = 0; j < 5; j++) {
            el_add(&e, 5 * h + j, 5 * h + (j + 1) % 5);
            el_add(&e, 25 + 5 * h + j, 25 + 5 * h + (j + 2) % 5);
            for (int i = 0; i < 5; i++)
                el_add(&e, 5 * h + j, 25 + 5 * i + (h * i + j) % 5);
        }
    return el_build(&e);
}

static tk_graph_t *hypercube(int k)
{
    elist_t e;
    int64_t n = (int64_t)1 << k;
    el_init(&e, n, 0);
    for (int64_t u = 0; u < n; u++)
        for (int i = 0; i < k; i++)
            if (u < (u ^ ((int64_t)1 << i)))
                el_add(&e, u, u ^ ((int64_t)1 << i));
    return el_build(&e);
}

/* Torus (wrap = 1) or mesh (wrap = 0) with side lengths s[0..dims-1]. */
static tk_graph_t *grid(int dims, const int *s, int wrap)
{
    elist_t e;
    int64_t n = 1;
    for (int i = 0; i < dims; i++)
        n *= s[i];
    el_init(&e, n, 0);
    for (int64_t u = 0; u < n; u++) {
        int64_t stride = 1, rest = u;
        for (int i = 0; i < dims; i++) {
            int64_t c = rest % s[i];
            rest /= s[i];
            if (c + 1 < s[i])
                el_add(&e, u, u + stride);
            else if (wrap && s[i] > 2)
                el_add(&e, u, u - c * stride);
            stride *= s[i];
        }
    }
    return el_build(&e);
}

/* Kautz K(d,D): words x1..xD over d+1 symbols with x_i != x_{i+1}, so
 * (d+1)d^(D-1) vertices; arc x1 x2..xD -> x2..xD y for y != xD.  Vertices
 * are numbered by rank. */
static int64_t kautz_rank(const int *w, int len, int d)
{
    /* First symbol in 0..d, each next one an index 0..d-1 among the
     * symbols different from the previous. */
    int64_t r = w[0];
    for (int i = 1; i < len; i++)
        r = r * d + (w[i] < w[i - 1] ? w[i] : w[i] - 1);
    return r;
}

static tk_graph_t *kautz(int d, int D)
{
    int len = D;
    int64_t n = d + 1;
    for (int i = 1; i < D; i++)
        n *= d;
    elist_t e;
    el_init(&e, n, 1);
    int w[16], x[16];
    for (int64_t r = 0; r < n; r++) {
        /* Unrank r into w. */
        int64_t t = r;
        int idx[16];
        for (int i = len - 1; i >= 1; i--) {
            idx[i] = (int)(t % d);
            t /= d;
        }
        w[0] = (int)t;
        for (int i = 1; i < len; i++)
            w[i] = idx[i] < w[i - 1] ? idx[i] : idx[i] + 1;
        for (int y = 0; y <= d; y++) {
            if (y == w[len - 1])
                continue;
            for (int i = 0; i + 1 < len; i++)
                x[i] = w[i + 1];
            x[len - 1] = y;
            el_add(&e, r, kautz_rank(x, len, d));
        }
    }
    return el_build(&e);
}

/* de Bruijn B(d,D): d^D vertices, arc x -> (x*d + y) mod d^D. */
static tk_graph_t *debruijn(int d, int D)
{
    int64_t n = 1;
    for (int i = 0; i < D; i++)
        n *= d;
    elist_t e;
    el_init(&e, n, 1);
    for (int64_t x = 0; x < n; x++)
        for (int y = 0; y < d; y++)
            el_add(&e, x, (x * d + y) % n);
    return el_build(&e);
}

/* Deterministic pseudo-random graph (LCG), about m links. */
static tk_graph_t *random_graph(int64_t n, int64_t m, int directed, uint64_t seed)
{
    elist_t e;
    el_init(&e, n, directed);
    uint64_t x = seed * 2862933555777941757ULL + 3037000493ULL;
    for (int64_t i = 0; i < m; i++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        int64_t u = (int64_t)((x >> 33) % (uint64_t)n);
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        int64_t v = (int64_t)((x >> 33) % (uint64_t)n);
        el_add(&e, u, v);
    }
    return el_build(&e);
}

/* ------------------------------------------------------------------------ */
/* Checks. */

static int summary(const tk_graph_t *g, int threads, int32_t maxd, tk_dist_summary_t *s)
{
    tk_dist_opts_t o = {threads, 1, 1, maxd, NULL, NULL, NULL};
    tk_error_t err;
    tk_status_t st = tk_dist_summary(g, &o, s, &err);
    if (st != TK_OK)
        printf("# tk_dist_summary: %s\n", err.msg);
    return st;
}

static int32_t girth(const tk_graph_t *g)
{
    int32_t gi = -1;
    tk_error_t err;
    if (tk_girth(g, 0, &gi, &err) != TK_OK)
        printf("# tk_girth: %s\n", err.msg);
    return gi;
}

/* Diameter, radius, exact distance sum, girth of a connected graph. */
static void check(const char *name, tk_graph_t *g, int32_t diam, int32_t rad, uint64_t sum,
                  int32_t gi)
{
    tk_dist_summary_t s;
    int st = summary(g, 0, 0, &s);
    is_int(st, TK_OK, "%s: summary ok", name);
    int64_t n = g->n;
    is_int(s.n, n, "%s: n", name);
    is_int(s.connected, 1, "%s: connected", name);
    is_int(s.diameter, diam, "%s: diameter %d", name, diam);
    is_int(s.radius, rad, "%s: radius %d", name, rad);
    is_int((uint64_t)s.dist_sum, sum, "%s: distance sum %llu", name, (unsigned long long)sum);
    double avg = n > 1 ? (double)sum / ((double)n * (double)(n - 1)) : 0.0;
    is_dbl(s.avg_distance, avg, 1e-12, "%s: average distance", name);
    is_int(s.pairs, (uint64_t)(n * (n - 1)), "%s: all ordered pairs reachable", name);
    is_int(s.unreachable, 0, "%s: no unreachable pair", name);
    is_int(s.stopped, 0, "%s: not stopped", name);
    is_int(girth(g), gi, "%s: girth", name);
    tk_dist_summary_destroy(&s);
    tk_graph_free(g);
}

/* MS-BFS summary against n plain BFS runs. */
static void compare_bfs(const char *name, const tk_graph_t *g, int threads)
{
    int64_t n = g->n;
    tk_dist_summary_t s;
    int32_t *d = malloc((size_t)n * sizeof *d);
    uint64_t *hist = calloc((size_t)n + 1, sizeof *hist);
    int32_t *ecc = malloc((size_t)n * sizeof *ecc);
    uint64_t pairs = 0, unreach = 0;
    unsigned __int128 sum = 0;
    int32_t hmax = 0;
    for (int64_t v = 0; v < n; v++) {
        tk_bfs(g, (tk_id_t)v, d, NULL);
        ecc[v] = 0;
        for (int64_t u = 0; u < n; u++) {
            if (u == v)
                continue;
            if (d[u] == TK_INF) {
                unreach++;
                ecc[v] = TK_INF;
                continue;
            }
            pairs++;
            sum += (unsigned)d[u];
            hist[d[u]]++;
            if (d[u] > hmax)
                hmax = d[u];
            if (ecc[v] != TK_INF && d[u] > ecc[v])
                ecc[v] = d[u];
        }
    }
    hist[0] = (uint64_t)n;
    int st = summary(g, threads, 0, &s);
    is_int(st, TK_OK, "%s (%d threads): summary ok", name, threads);
    is_int(s.pairs, pairs, "%s: pairs", name);
    is_int(s.unreachable, unreach, "%s: unreachable", name);
    ok(s.dist_sum == sum, "%s: distance sum", name);
    int same = s.ecc != NULL;
    for (int64_t v = 0; same && v < n; v++)
        same = s.ecc[v] == ecc[v];
    ok(same, "%s: eccentricities equal n plain BFS", name);
    is_int(s.hist_len, hmax + 1, "%s: histogram length", name);
    same = s.hist != NULL && s.hist_len == hmax + 1;
    for (int32_t k = 0; same && k <= hmax; k++)
        same = s.hist[k] == hist[k];
    ok(same, "%s: histogram equals n plain BFS", name);
    tk_dist_summary_destroy(&s);
    free(d);
    free(hist);
    free(ecc);
}

static int same_summary(const tk_dist_summary_t *a, const tk_dist_summary_t *b)
{
    if (a->n != b->n || a->connected != b->connected || a->diameter != b->diameter ||
        a->radius != b->radius || a->pairs != b->pairs || a->unreachable != b->unreachable ||
        a->dist_sum != b->dist_sum || a->hist_len != b->hist_len || a->stopped != b->stopped)
        return 0;
    if (memcmp(&a->avg_distance, &b->avg_distance, sizeof(double)) != 0)
        return 0;
    if ((a->ecc == NULL) != (b->ecc == NULL) || (a->hist == NULL) != (b->hist == NULL))
        return 0;
    if (a->ecc && memcmp(a->ecc, b->ecc, (size_t)a->n * sizeof *a->ecc) != 0)
        return 0;
    if (a->hist && memcmp(a->hist, b->hist, (size_t)a->hist_len * sizeof *a->hist) != 0)
        return 0;
    return 1;
}

/* ------------------------------------------------------------------------ */

static void test_known(void)
{
    /* Petersen: from each vertex 3 at distance 1, 6 at distance 2. */
    check("Petersen", petersen(), 2, 2, 10 * (3 * 1 + 6 * 2), 5);
    {
        tk_graph_t *g = petersen();
        tk_dist_summary_t s;
        summary(g, 0, 0, &s);
        is_dbl(s.avg_distance, 15.0 / 9.0, 1e-15, "Petersen: avg distance 15/9");
        ok(s.hist_len == 3 && s.hist[0] == 10 && s.hist[1] == 30 && s.hist[2] == 60,
           "Petersen: histogram 10 30 60");
        tk_dist_summary_destroy(&s);
        tk_graph_free(g);
    }
    /* Hoffman-Singleton: 7 at distance 1, 42 at distance 2. */
    {
        tk_graph_t *g = hoffman_singleton();
        is_int(g->m, 50 * 7, "Hoffman-Singleton: 175 links");
        int reg = 1;
        for (tk_id_t v = 0; v < 50; v++)
            reg = reg && tk_graph_degree(g, v) == 7;
        ok(reg, "Hoffman-Singleton: 7-regular");
        check("Hoffman-Singleton", g, 2, 2, 50 * (7 + 2 * 42), 5);
    }
    /* Hypercube Q_k: sum of distances from a vertex k 2^(k-1). */
    for (int k = 1; k <= 8; k++) {
        char name[32];
        snprintf(name, sizeof name, "Q_%d", k);
        int64_t n = (int64_t)1 << k;
        check(name, hypercube(k), k, k, (uint64_t)(n * k * (n / 2)), k >= 2 ? 4 : TK_INF);
    }
    /* Cycles: from a vertex, n^2/4 (n even) or (n^2-1)/4 (n odd). */
    {
        const int64_t ns[] = {3, 4, 5, 6, 7, 64, 65, 129, 200};
        for (size_t i = 0; i < sizeof ns / sizeof *ns; i++) {
            int64_t n = ns[i];
            char name[32];
            snprintf(name, sizeof name, "C_%lld", (long long)n);
            uint64_t per = (uint64_t)(n % 2 ? (n * n - 1) / 4 : n * n / 4);
            check(name, cycle(n, 0), (int32_t)(n / 2), (int32_t)(n / 2), (uint64_t)n * per,
                  (int32_t)n);
        }
    }
    /* Paths P_n: sum over ordered pairs n(n^2-1)/3, radius floor(n/2). */
    {
        const int64_t ns[] = {2, 3, 10, 65, 130};
        for (size_t i = 0; i < sizeof ns / sizeof *ns; i++) {
            int64_t n = ns[i];
            char name[32];
            snprintf(name, sizeof name, "P_%lld", (long long)n);
            check(name, path(n), (int32_t)(n - 1), (int32_t)(n / 2),
                  (uint64_t)(n * (n * n - 1) / 3), TK_INF);
        }
    }
    /* Complete graphs. */
    for (int64_t n = 3; n <= 40; n += 37) {
        char name[32];
        snprintf(name, sizeof name, "K_%lld", (long long)n);
        check(name, complete(n), 1, 1, (uint64_t)(n * (n - 1)), 3);
    }
    {
        tk_graph_t *g = complete(2);
        tk_dist_summary_t s;
        summary(g, 0, 0, &s);
        ok(s.diameter == 1 && s.radius == 1 && s.avg_distance == 1.0, "K_2: diameter 1");
        is_int(girth(g), TK_INF, "K_2: acyclic");
        tk_dist_summary_destroy(&s);
        tk_graph_free(g);
    }
}

static void test_grids(void)
{
    const int shapes[][3] = {{4, 4, 4}, {5, 6, 7}, {3, 8, 2}, {9, 1, 10}};
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
        const int *s = shapes[i];
        tk_graph_t *g = grid(3, s, 1);
        tk_dist_summary_t r;
        summary(g, 0, 0, &r);
        int32_t want = s[0] / 2 + s[1] / 2 + s[2] / 2;
        is_int(r.diameter, want, "torus %dx%dx%d: diameter sum floor(s_i/2) = %d", s[0], s[1], s[2],
               want);
        is_int(r.radius, want, "torus %dx%dx%d: radius = diameter", s[0], s[1], s[2]);
        tk_dist_summary_destroy(&r);
        tk_graph_free(g);
        g = grid(3, s, 0);
        summary(g, 0, 0, &r);
        want = s[0] - 1 + s[1] - 1 + s[2] - 1;
        is_int(r.diameter, want, "mesh %dx%dx%d: diameter sum (s_i-1) = %d", s[0], s[1], s[2],
               want);
        tk_dist_summary_destroy(&r);
        tk_graph_free(g);
    }
    /* Torus 5x6x7: no side below 5 except 6 -> girth 4 (a unit square);
     * 3x8x2 has a triangle (side 3). */
    {
        const int s[3] = {5, 6, 7};
        tk_graph_t *g = grid(3, s, 1);
        is_int(girth(g), 4, "torus 5x6x7: girth 4");
        tk_graph_free(g);
        const int t[3] = {3, 8, 5};
        g = grid(3, t, 1);
        is_int(girth(g), 3, "torus 3x8x5: girth 3");
        tk_graph_free(g);
    }
}

static void test_directed(void)
{
    /* Kautz K(d,D): diameter D, (d+1)d^(D-1) switches, girth 2 (x y x y ...). */
    const int kd[][2] = {{2, 1}, {2, 3}, {3, 2}, {2, 5}, {4, 3}};
    for (size_t i = 0; i < sizeof kd / sizeof *kd; i++) {
        int d = kd[i][0], D = kd[i][1];
        tk_graph_t *g = kautz(d, D);
        tk_dist_summary_t s;
        summary(g, 0, 0, &s);
        is_int(s.connected, 1, "Kautz K(%d,%d): strongly connected", d, D);
        int64_t n = d + 1;
        for (int j = 1; j < D; j++)
            n *= d;
        is_int(g->n, n, "Kautz K(%d,%d): %lld switches", d, D, (long long)n);
        is_int(s.diameter, D, "Kautz K(%d,%d): diameter %d", d, D, D);
        is_int(girth(g), 2, "Kautz K(%d,%d): girth 2", d, D);
        tk_dist_summary_destroy(&s);
        tk_graph_free(g);
    }
    /* de Bruijn B(d,D): diameter D, self-loop at 0...0 so girth 1. */
    const int bd[][2] = {{2, 3}, {2, 8}, {3, 4}, {5, 2}};
    for (size_t i = 0; i < sizeof bd / sizeof *bd; i++) {
        int d = bd[i][0], D = bd[i][1];
        tk_graph_t *g = debruijn(d, D);
        tk_dist_summary_t s;
        summary(g, 0, 0, &s);
        is_int(s.diameter, D, "de Bruijn B(%d,%d): diameter %d", d, D, D);
        is_int(girth(g), 1, "de Bruijn B(%d,%d): girth 1 (loop at 0)", d, D);
        tk_dist_summary_destroy(&s);
        tk_graph_free(g);
    }
    /* Directed cycles: d(i, i+k) = k, so the sum from a vertex n(n-1)/2. */
    {
        const int64_t ns[] = {2, 3, 10, 64, 65, 150};
        for (size_t i = 0; i < sizeof ns / sizeof *ns; i++) {
            int64_t n = ns[i];
            char name[32];
            snprintf(name, sizeof name, "directed C_%lld", (long long)n);
            check(name, cycle(n, 1), (int32_t)(n - 1), (int32_t)(n - 1),
                  (uint64_t)(n * (n * (n - 1) / 2)), (int32_t)n);
        }
    }
    /* Out-star 0 -> 1..5: switch 0 reaches all at distance 1, the others
     * nothing.  Radius 1 (finite), diameter inf, not strongly connected. */
    {
        elist_t e;
        el_init(&e, 6, 1);
        for (int i = 1; i < 6; i++)
            el_add(&e, 0, i);
        tk_graph_t *g = el_build(&e);
        tk_dist_summary_t s;
        summary(g, 0, 0, &s);
        is_int(s.connected, 0, "out-star: not strongly connected");
        is_int(s.radius, 1, "out-star: radius 1 (root)");
        is_int(s.diameter, TK_INF, "out-star: diameter inf");
        is_int(s.pairs, 5, "out-star: 5 reachable pairs");
        is_int(s.unreachable, 25, "out-star: 25 unreachable pairs");
        ok(isinf(s.avg_distance), "out-star: avg inf");
        ok(s.ecc[0] == 1 && s.ecc[1] == TK_INF && s.ecc[5] == TK_INF, "out-star: ecc");
        is_int(girth(g), TK_INF, "out-star: acyclic");
        tk_dist_summary_destroy(&s);
        tk_graph_free(g);
    }
    /* Directed path 0->1->2->3: radius 3 (from 0), girth inf; adding 3->0
     * makes it a directed 4-cycle.  An arc pair u->v->u is a 2-cycle. */
    {
        elist_t e;
        el_init(&e, 4, 1);
        el_add(&e, 0, 1);
        el_add(&e, 1, 2);
        el_add(&e, 2, 3);
        tk_graph_t *g = el_build(&e);
        tk_dist_summary_t s;
        summary(g, 0, 0, &s);
        ok(s.radius == 3 && s.diameter == TK_INF && s.pairs == 6 && s.dist_sum == 10,
           "directed path: radius 3, 6 pairs, sum 10");
        is_int(girth(g), TK_INF, "directed path: acyclic");
        tk_dist_summary_destroy(&s);
        tk_graph_free(g);
        el_init(&e, 3, 1);
        el_add(&e, 0, 1);
        el_add(&e, 1, 0);
        el_add(&e, 1, 2);
        el_add(&e, 2, 0);
        g = el_build(&e);
        is_int(girth(g), 2, "directed: arc pair is a 2-cycle");
        tk_graph_free(g);
    }
}

static void test_multigraph(void)
{
    /* C_5 plus a self-loop at 0: girth 1, distances unchanged. */
    elist_t e;
    el_init(&e, 5, 0);
    for (int i = 0; i < 5; i++)
        el_add(&e, i, (i + 1) % 5);
    el_add(&e, 0, 0);
    check("C_5 + loop", el_build(&e), 2, 2, 5 * 6, 1);
    /* C_5 with link 0-1 doubled: girth 2, distances unchanged. */
    el_init(&e, 5, 0);
    for (int i = 0; i < 5; i++)
        el_add(&e, i, (i + 1) % 5);
    el_add(&e, 1, 0);
    check("C_5 + parallel link", el_build(&e), 2, 2, 5 * 6, 2);
    /* A tree with a doubled link: girth 2 (P_4 with 1-2 twice). */
    el_init(&e, 4, 0);
    el_add(&e, 0, 1);
    el_add(&e, 1, 2);
    el_add(&e, 2, 1);
    el_add(&e, 2, 3);
    check("P_4 + parallel link", el_build(&e), 3, 2, 20, 2);
    /* Directed: loop girth 1; doubled arcs do not change distances. */
    el_init(&e, 4, 1);
    for (int i = 0; i < 4; i++) {
        el_add(&e, i, (i + 1) % 4);
        el_add(&e, i, (i + 1) % 4);
    }
    el_add(&e, 2, 2);
    check("directed C_4 doubled + loop", el_build(&e), 3, 3, 4 * 6, 1);
}

static void test_disconnected(void)
{
    /* Two disjoint triangles: 12 reachable pairs at distance 1, 18 not. */
    elist_t e;
    el_init(&e, 6, 0);
    for (int t = 0; t < 2; t++)
        for (int i = 0; i < 3; i++)
            el_add(&e, 3 * t + i, 3 * t + (i + 1) % 3);
    tk_graph_t *g = el_build(&e);
    tk_dist_summary_t s;
    summary(g, 0, 0, &s);
    is_int(s.connected, 0, "2 K_3: not connected");
    is_int(s.diameter, TK_INF, "2 K_3: diameter inf");
    is_int(s.radius, TK_INF, "2 K_3: radius inf");
    ok(isinf(s.avg_distance) && s.avg_distance > 0, "2 K_3: avg +inf");
    is_int(s.pairs, 12, "2 K_3: 12 reachable pairs");
    is_int(s.unreachable, 18, "2 K_3: 18 unreachable pairs");
    ok(s.dist_sum == 12, "2 K_3: distance sum 12");
    int allinf = 1;
    for (int v = 0; v < 6; v++)
        allinf = allinf && s.ecc[v] == TK_INF;
    ok(allinf, "2 K_3: every eccentricity inf");
    ok(s.hist_len == 2 && s.hist[0] == 6 && s.hist[1] == 12, "2 K_3: histogram 6 12");
    is_int(girth(g), 3, "2 K_3: girth 3");
    tk_dist_summary_destroy(&s);
    tk_graph_free(g);

    /* Isolated switches only. */
    el_init(&e, 3, 0);
    g = el_build(&e);
    summary(g, 0, 0, &s);
    ok(!s.connected && s.pairs == 0 && s.unreachable == 6 && s.hist_len == 1,
       "3 isolated switches: 6 unreachable pairs");
    tk_dist_summary_destroy(&s);
    tk_graph_free(g);
}

static void test_small(void)
{
    elist_t e;
    el_init(&e, 1, 0);
    tk_graph_t *g = el_build(&e);
    tk_dist_summary_t s;
    is_int(summary(g, 0, 0, &s), TK_OK, "n=1: ok");
    ok(s.connected && s.diameter == 0 && s.radius == 0 && s.avg_distance == 0.0 && s.pairs == 0 &&
           s.unreachable == 0,
       "n=1: connected, diameter 0, radius 0, avg 0");
    ok(s.hist_len == 1 && s.hist[0] == 1 && s.ecc[0] == 0, "n=1: hist [1], ecc [0]");
    is_int(girth(g), TK_INF, "n=1: girth inf");
    tk_dist_summary_destroy(&s);
    tk_graph_free(g);

    /* n = 0: a hand-made empty CSR. */
    int64_t off0 = 0;
    tk_graph_t empty;
    memset(&empty, 0, sizeof empty);
    empty.off = &off0;
    tk_error_t err;
    tk_error_clear(&err);
    is_int(tk_dist_summary(&empty, NULL, &s, &err), TK_EINVAL, "n=0: TK_EINVAL");
    is_str(err.msg, "empty graph", "n=0: message");

    /* tk_bfs argument checks. */
    g = cycle(5, 0);
    int32_t d[5];
    is_int(tk_bfs(g, 5, d, &err), TK_ERANGE, "tk_bfs: source out of range");
    is_int(tk_bfs(g, -1, d, &err), TK_ERANGE, "tk_bfs: negative source");
    is_int(tk_bfs(g, 0, d, NULL), TK_OK, "tk_bfs: NULL error record is fine");
    ok(d[0] == 0 && d[1] == 1 && d[2] == 2 && d[3] == 2 && d[4] == 1, "tk_bfs: C_5 from 0");
    tk_graph_free(g);
}

static void test_against_bfs(void)
{
    /* n not a multiple of 64, one and several batches, sparse and dense,
     * connected or not, directed or not. */
    struct {
        int64_t n, m;
        int directed;
    } cases[] = {
        {130, 400, 0},   {130, 100, 0},   {130, 500, 1},   {130, 150, 1},
        {1000, 3000, 0}, {1000, 1200, 1}, {1000, 5000, 1}, {777, 777, 0},
        {63, 100, 0},    {64, 200, 1},    {65, 200, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        tk_graph_t *g = random_graph(cases[i].n, cases[i].m, cases[i].directed, i + 1);
        char name[64];
        snprintf(name, sizeof name, "random %s n=%lld m=%lld",
                 cases[i].directed ? "directed" : "undirected", (long long)cases[i].n,
                 (long long)cases[i].m);
        compare_bfs(name, g, i % 2 ? 2 : 1);
        tk_graph_free(g);
    }
    /* Deep graphs take the narrow-batch path (W = 1, many batches). */
    tk_graph_t *g = path(700);
    compare_bfs("P_700", g, 2);
    tk_graph_free(g);
    g = cycle(300, 1);
    compare_bfs("directed C_300", g, 1);
    tk_graph_free(g);
}

static void test_threads(void)
{
    const int64_t ns[] = {1000, 300};
    for (int k = 0; k < 2; k++) {
        tk_graph_t *g = random_graph(ns[k], 3 * ns[k], k, 99 + k);
        tk_dist_summary_t a, b, c;
        summary(g, 1, 0, &a);
        summary(g, 2, 0, &b);
#ifdef _OPENMP
        omp_set_num_threads(2);
#endif
        summary(g, 0, 0, &c);
#ifdef _OPENMP
        omp_set_num_threads(1);
#endif
        int32_t g1 = -1, g2 = -2;
        tk_girth(g, 1, &g1, NULL);
        tk_girth(g, 2, &g2, NULL);
        ok(same_summary(&a, &b) && same_summary(&a, &c),
           "%s n=%lld: same summary with 1 and 2 threads", k ? "directed" : "undirected",
           (long long)ns[k]);
        is_int(g1, g2, "girth same with 1 and 2 threads");
        tk_dist_summary_destroy(&a);
        tk_dist_summary_destroy(&b);
        tk_dist_summary_destroy(&c);
        tk_graph_free(g);
    }
#ifdef _OPENMP
    omp_set_num_threads(omp_get_num_procs());
#endif
}

static void test_max_diameter(void)
{
    tk_graph_t *g = cycle(20, 0); /* diameter 10 */
    tk_dist_summary_t s;
    for (int t = 1; t <= 2; t++) {
        summary(g, t, 5, &s);
        ok(s.stopped == 1 && s.diameter == 6 && s.ecc == NULL,
           "C_20, max_diameter 5 (%d threads): stopped, diameter > 5", t);
        tk_dist_summary_destroy(&s);
        summary(g, t, 9, &s);
        ok(s.stopped == 1 && s.diameter == 10, "C_20, max_diameter 9: stopped");
        tk_dist_summary_destroy(&s);
        summary(g, t, 10, &s);
        ok(s.stopped == 0 && s.diameter == 10 && s.connected && s.ecc != NULL,
           "C_20, max_diameter 10: complete, diameter 10");
        tk_dist_summary_destroy(&s);
    }
    tk_graph_free(g);
    /* A long path over many batches stops too. */
    g = path(5000);
    summary(g, 2, 3, &s);
    ok(s.stopped == 1 && s.diameter == 4, "P_5000, max_diameter 3: stopped");
    tk_dist_summary_destroy(&s);
    tk_graph_free(g);
    /* Disconnected: every eccentricity is inf, so it exceeds any bound. */
    elist_t e;
    el_init(&e, 4, 0);
    el_add(&e, 0, 1);
    el_add(&e, 2, 3);
    g = el_build(&e);
    summary(g, 1, 5, &s);
    ok(s.stopped == 1, "disconnected, max_diameter 5: stopped");
    tk_dist_summary_destroy(&s);
    tk_graph_free(g);
}

/* Failures (fail.c): betweenness of a path and a cycle by hand (ordered
 * pairs: each unordered pair counts twice), removal counts, seeds, the
 * spec record. */
static void test_fail(void)
{
    elist_t e;
    tk_error_t err;
    tk_graph_t *p4, *c5, *h1 = NULL, *h2 = NULL;
    double lb[16], sb[8];

    el_init(&e, 4, 0);
    el_add(&e, 0, 1);
    el_add(&e, 1, 2);
    el_add(&e, 2, 3);
    p4 = el_build(&e);
    ok(tk_betweenness(p4, NULL, NULL, lb, sb, &err) == TK_OK, "betweenness of P4");
    /* arcs: 0:0->1 1:1->0 2:1->2 3:2->1 4:2->3 5:3->2; canonical 0, 2, 4 */
    is_dbl(lb[0], 6.0, 1e-12, "P4 link 0-1 carries 3 pairs");
    is_dbl(lb[2], 8.0, 1e-12, "P4 link 1-2 carries 4 pairs");
    is_dbl(lb[4], 6.0, 1e-12, "P4 link 2-3 carries 3 pairs");
    is_dbl(sb[1], 4.0, 1e-12, "P4 switch 1 is inside 2 pairs");
    is_dbl(sb[0], 0.0, 1e-12, "P4 end switch is inside none");
    c5 = cycle(5, 0);
    ok(tk_betweenness(c5, NULL, NULL, lb, sb, &err) == TK_OK, "betweenness of C5");
    int good = 1;
    for (int64_t a = 0; a < c5->m; a++)
        if (a <= c5->rev[a] && fabs(lb[a] - 6.0) > 1e-12)
            good = 0;
    for (int v = 0; v < 5; v++)
        if (fabs(sb[v] - 2.0) > 1e-12)
            good = 0;
    ok(good, "C5: every link 3 pairs, every switch inside 1 pair");

    tk_fail_opts_t o = {.unit = TK_FAIL_LINKS, .order = TK_FAIL_RANDOM, .count = 2, .seed = 9};
    ok(tk_fail_apply(c5, &o, &h1, &err) == TK_OK && tk_graph_links(h1) == 3 && h1->n == 5,
       "2 random links out of C5 leave 3");
    ok(tk_fail_apply(c5, &o, &h2, &err) == TK_OK && tk_graph_equal(h1, h2) &&
           strcmp(h1->spec, h2->spec) == 0,
       "the same seed removes the same links");
    tk_graph_free(h1);
    tk_graph_free(h2);
    h1 = h2 = NULL;
    o.order = TK_FAIL_BETWEENNESS_ONCE;
    o.count = 1;
    ok(tk_fail_apply(p4, &o, &h1, &err) == TK_OK && !tk_graph_has_arc(h1, 1, 2) &&
           tk_graph_links(h1) == 2,
       "the most central link of P4 is the middle one");
    is_str(h1->spec, "fail links k=1 order=betweenness-once removed=1-2", "the spec record");
    tk_graph_free(h1);
    h1 = NULL;
    tk_fail_opts_t w = {.unit = TK_FAIL_SWITCHES, .order = TK_FAIL_BETWEENNESS, .count = 2};
    /* Switch 1 first (tie with 2, the lower); then every survivor has
     * betweenness 0 and the lowest, 0, goes. */
    ok(tk_fail_apply(p4, &w, &h1, &err) == TK_OK && h1->n == 2 && tk_graph_links(h1) == 1,
       "recomputed switch betweenness on P4: 1, then 0 of the zeros");
    is_str(h1->spec, "fail switches k=2 order=betweenness removed=1,0", "the switch record");
    tk_graph_free(h1);
    h1 = NULL;
    w.count = -1;
    w.fraction = 0.5;
    w.order = TK_FAIL_RANDOM;
    ok(tk_fail_apply(c5, &w, &h1, &err) == TK_OK && h1->n == 2,
       "fraction 0.5 of 5 switches removes round(2.5) = 3");
    tk_graph_free(h1);
    h1 = NULL;
    w.count = 6;
    ok(tk_fail_apply(c5, &w, &h1, &err) == TK_ERANGE && h1 == NULL, "6 switches of 5: TK_ERANGE");
    tk_graph_free(p4);
    tk_graph_free(c5);
}

int main(void)
{
    test_known();
    test_grids();
    test_directed();
    test_multigraph();
    test_disconnected();
    test_small();
    test_against_bfs();
    test_threads();
    test_max_diameter();
    test_fail();
    return tap_done();
}
