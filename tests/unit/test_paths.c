/*
 * test_paths.c - shortest-path counts, k shortest simple paths and
 * hop-limited simple-path counts (tk_paths.h).
 *
 * Expected values: closed forms (hypercube d!, binomial coefficients on
 * grids, cycles, complete graphs, Petersen), Lemma 9 of Faizian et al.,
 * "Random Regular Graph and Generalized De Bruijn Graph with k-shortest
 * Path Routing" on GDBG,
 * and a brute-force enumeration of every simple path written here (plain
 * recursive DFS, no distance tables, no pruning).
 */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "topokit.h"

typedef unsigned __int128 u128;

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

/* Cycle C_n (directed or not), with `loops` self-loops at every switch and
 * the link 0-1 repeated `extra01` more times. */
static tk_graph_t *cycle(int n, int directed, int loops, int extra01)
{
    tk_builder_t *b;
    tk_graph_t *g = NULL;
    tk_builder_new(&b, n, directed, NULL);
    for (int i = 0; i < n; i++) {
        tk_builder_add(b, i, (i + 1) % n, NULL);
        for (int l = 0; l < loops; l++)
            tk_builder_add(b, i, i, NULL);
    }
    for (int x = 0; x < extra01; x++)
        tk_builder_add(b, 0, 1, NULL);
    tk_builder_finish(b, &g, NULL);
    return g;
}

/* Path 0 - 1 - ... - (n-1), every link repeated mult times. */
static tk_graph_t *multipath(int n, int mult)
{
    tk_builder_t *b;
    tk_graph_t *g = NULL;
    tk_builder_new(&b, n, 0, NULL);
    for (int i = 0; i + 1 < n; i++)
        for (int x = 0; x < mult; x++)
            tk_builder_add(b, i, i + 1, NULL);
    tk_builder_finish(b, &g, NULL);
    return g;
}

static tk_graph_t *complete(int n)
{
    tk_graph_t *g = NULL;
    tk_gen_complete(n, &g, NULL);
    return g;
}

static u128 fact(int d)
{
    u128 f = 1;
    for (int i = 2; i <= d; i++)
        f *= (u128)i;
    return f;
}

static uint64_t binom(int a, int b)
{
    uint64_t c = 1;
    for (int i = 1; i <= b; i++)
        c = c * (uint64_t)(a - b + i) / (uint64_t)i;
    return c;
}

/* --- brute force: every simple path ------------------------------------- */
typedef struct bf {
    const tk_graph_t *g;
    tk_id_t t;
    int32_t h; /* hop limit (n for none) */
    uint8_t *on;
    uint64_t *lens; /* lens[L] = simple s->t paths of length L */
} bf_t;

static void bf_dfs(bf_t *b, tk_id_t v, int32_t len)
{
    if (v == b->t) {
        b->lens[len]++;
        return;
    }
    if (len == b->h)
        return;
    b->on[v] = 1;
    for (int64_t a = b->g->off[v]; a < b->g->off[v + 1]; a++) {
        tk_id_t u = b->g->head[a];
        if (!b->on[u])
            bf_dfs(b, u, len + 1);
    }
    b->on[v] = 0;
}

/* Reference k-shortest and ALLPATH(H) results for the pairs listed (or all
 * pairs when np == 0). */
static void bf_all(const tk_graph_t *g, int32_t k, int32_t H, const uint64_t *plist, uint64_t np,
                   tk_ksp_result_t *r)
{
    tk_id_t n = g->n;
    bf_t b = {g, 0, n, calloc((size_t)n, 1), calloc((size_t)n + 1, sizeof(uint64_t))};
    memset(r, 0, sizeof *r);
    r->len_hist = calloc((size_t)n + 1, sizeof(uint64_t));
    r->allpath_min = UINT64_MAX;
    uint64_t total = np ? np : (uint64_t)n * (uint64_t)n;
    for (uint64_t i = 0; i < total; i++) {
        tk_id_t s, t;
        if (np) {
            t = (tk_id_t)(plist[i] >> 32);
            s = (tk_id_t)(plist[i] & 0xffffffffu);
        } else {
            s = (tk_id_t)(i / (uint64_t)n);
            t = (tk_id_t)(i % (uint64_t)n);
            if (s == t)
                continue;
        }
        r->pairs++;
        memset(b.lens, 0, ((size_t)n + 1) * sizeof(uint64_t));
        b.t = t;
        bf_dfs(&b, s, 0);
        uint64_t have = 0, ap = 0;
        for (int32_t L = 1; L < n; L++) {
            if (L <= H)
                ap += b.lens[L];
            uint64_t take = b.lens[L];
            if (have + take > (uint64_t)k)
                take = (uint64_t)k - have;
            have += take;
            r->len_sum += (u128)take * (u128)L;
            r->len_hist[L] += take;
        }
        r->paths += have;
        if (have < (uint64_t)k)
            r->short_pairs++;
        if (ap < r->allpath_min)
            r->allpath_min = ap;
        if (ap > r->allpath_max)
            r->allpath_max = ap;
        r->allpath_sum += ap;
    }
    r->len_hist_len = n;
    while (r->len_hist_len > 0 && !r->len_hist[r->len_hist_len - 1])
        r->len_hist_len--;
    free(b.on);
    free(b.lens);
}

static int same_result(const tk_ksp_result_t *a, const tk_ksp_result_t *b, int k, int H)
{
    if (a->pairs != b->pairs)
        return 0;
    if (k && (a->paths != b->paths || a->len_sum != b->len_sum ||
              a->short_pairs != b->short_pairs || a->len_hist_len != b->len_hist_len ||
              memcmp(a->len_hist, b->len_hist, (size_t)a->len_hist_len * sizeof(uint64_t))))
        return 0;
    if (H && (a->allpath_min != b->allpath_min || a->allpath_max != b->allpath_max ||
              a->allpath_sum != b->allpath_sum))
        return 0;
    return 1;
}

static void show(const char *what, const tk_ksp_result_t *r)
{
    printf("#   %s: pairs %llu paths %llu len_sum %llu short %llu ap %llu/%llu/%llu hist", what,
           (unsigned long long)r->pairs, (unsigned long long)r->paths,
           (unsigned long long)r->len_sum, (unsigned long long)r->short_pairs,
           (unsigned long long)r->allpath_min, (unsigned long long)r->allpath_sum,
           (unsigned long long)r->allpath_max);
    for (int32_t L = 0; L < r->len_hist_len; L++)
        printf(" %llu", (unsigned long long)r->len_hist[L]);
    printf("\n");
}

/* Compare tk_ksp with the brute force, all pairs and a sample. */
static void vs_brute(const char *name, const tk_graph_t *g, int k, int H)
{
    tk_ksp_result_t got, want;
    tk_ksp_opts_t o = {2, k, H, 0, 0, 0, NULL};
    tk_error_t err;
    if (tk_ksp(g, &o, &got, &err) != TK_OK) {
        ok(0, "%s: tk_ksp k=%d H=%d: %s", name, k, H, err.msg);
        return;
    }
    bf_all(g, k, H, NULL, 0, &want);
    if (!ok(same_result(&got, &want, k, H), "%s: k=%d H=%d all pairs = brute force", name, k, H)) {
        show("got", &got);
        show("want", &want);
    }
    tk_ksp_result_destroy(&got);
    tk_ksp_result_destroy(&want);

    /* Sampled: the documented sample (stream (seed, 0): s uniform, then t
     * uniform among the others), in any order. */
    uint64_t np = 50, seed = 99;
    uint64_t *pl = malloc(np * sizeof *pl);
    tk_rng_t *rng;
    tk_rng_new(&rng, seed, 0, NULL);
    for (uint64_t i = 0; i < np; i++) {
        uint64_t s = tk_rng_below(rng, (uint64_t)g->n);
        uint64_t t = tk_rng_below(rng, (uint64_t)g->n - 1);
        t += t >= s;
        pl[i] = t << 32 | s;
    }
    tk_rng_free(rng);
    o.sample = np;
    o.seed = seed;
    o.threads = 1;
    if (tk_ksp(g, &o, &got, &err) != TK_OK) {
        ok(0, "%s: sampled tk_ksp: %s", name, err.msg);
        free(pl);
        return;
    }
    bf_all(g, k, H, pl, np, &want);
    if (!ok(same_result(&got, &want, k, H), "%s: k=%d H=%d 50 sampled pairs = brute force", name, k,
            H)) {
        show("got", &got);
        show("want", &want);
    }
    tk_ksp_result_destroy(&got);
    tk_ksp_result_destroy(&want);
    free(pl);
}

/* --- sigma ---------------------------------------------------------------- */
static void test_hypercube(void)
{
    for (int k = 1; k <= 10; k++) {
        tk_graph_t *g = NULL;
        tk_sigma_summary_t s;
        tk_gen_hypercube(k, &g, NULL);
        int good = tk_sigma_summary(g, 2, NULL, &s, NULL) == TK_OK && s.len == k + 1;
        for (int d = 1; good && d <= k; d++)
            good = s.pairs[d] == ((uint64_t)1 << k) * binom(k, d) && s.min[d] == fact(d) &&
                   s.max[d] == fact(d) && s.unique[d] == (d == 1 ? s.pairs[d] : 0) &&
                   tk_sigma_summary_avg(&s, d) == (double)fact(d);
        ok(good, "Q_%d: sigma = d! for every pair at Hamming distance d", k);
        tk_sigma_summary_destroy(&s);
        tk_graph_free(g);
    }
    /* One source of Q_16: 16! > 2^32 antipodal shortest paths. */
    tk_graph_t *g = NULL;
    tk_gen_hypercube(16, &g, NULL);
    int32_t *dist = malloc((size_t)g->n * sizeof *dist);
    u128 *sig = malloc((size_t)g->n * sizeof *sig);
    tk_id_t *q = malloc((size_t)g->n * sizeof *q);
    int good = tk_sigma_from(g, 0, dist, sig, q, NULL) == TK_OK;
    for (tk_id_t v = 0; good && v < g->n; v++)
        good = dist[v] == __builtin_popcount((unsigned)v) && sig[v] == fact(dist[v]);
    ok(good, "Q_16 from switch 0: sigma(0, v) = popcount(v)!");
    free(dist);
    free(sig);
    free(q);
    tk_graph_free(g);
}

/* Path of n switches with every link tripled: sigma(0, n-1) = 3^(n-1).
 * 3^80 < 2^128 < 3^81: 81 switches fit, 82 are refused. */
static void test_overflow(void)
{
    for (int n = 40; n <= 82; n++) {
        if (n != 40 && n != 42 && n != 81 && n != 82)
            continue;
        tk_graph_t *g = multipath(n, 3);
        int32_t *dist = malloc((size_t)n * sizeof *dist);
        u128 *sig = malloc((size_t)n * sizeof *sig);
        tk_id_t *q = malloc((size_t)n * sizeof *q);
        tk_error_t err;
        tk_status_t st = tk_sigma_from(g, 0, dist, sig, q, &err);
        u128 p = 1;
        for (int i = 1; i < n; i++)
            p *= 3;
        if (n <= 81) {
            ok(st == TK_OK && sig[n - 1] == p && dist[n - 1] == n - 1,
               "tripled path of %d switches: sigma = 3^%d exactly%s", n, n - 1,
               n == 42 ? " (beyond 2^64)" : "");
        } else {
            ok(st == TK_ERANGE && strstr(err.msg, "2^128"),
               "tripled path of 82 switches: 3^81 > 2^128-1 refused (TK_ERANGE)");
            tk_sigma_summary_t s;
            st = tk_sigma_summary(g, 2, NULL, &s, &err);
            ok(st == TK_ERANGE && s.pairs == NULL, "summary refuses it too, nothing left");
            /* Only sources 0 and 81 overflow; the error names the smallest
             * whatever the thread count. */
            tk_error_t e1;
            tk_status_t st1 = tk_sigma_summary(g, 1, NULL, &s, &e1);
            ok(st1 == TK_ERANGE && strcmp(e1.msg, err.msg) == 0 &&
                   strstr(err.msg, "from switch 0 to switch 81"),
               "same error with 1 and 2 threads: %s", err.msg);
        }
        free(dist);
        free(sig);
        free(q);
        tk_graph_free(g);
    }
}

static void test_cycles(void)
{
    for (int n = 4; n <= 9; n++) {
        tk_graph_t *g = cycle(n, 0, 0, 0);
        tk_sigma_summary_t s;
        int good = tk_sigma_summary(g, 1, NULL, &s, NULL) == TK_OK && s.len == n / 2 + 1;
        for (int d = 1; good && d <= n / 2; d++) {
            int anti = n % 2 == 0 && d == n / 2;
            good = s.pairs[d] == (uint64_t)n * (anti ? 1 : 2) && s.min[d] == (anti ? 2 : 1) &&
                   s.max[d] == s.min[d] && s.unique[d] == (anti ? 0 : s.pairs[d]);
        }
        ok(good, "C_%d: sigma 1, antipodal pairs sigma 2", n);
        tk_sigma_summary_destroy(&s);
        tk_graph_free(g);

        /* Directed cycle: every distance 1..n-1 once per source, unique. */
        g = cycle(n, 1, 0, 0);
        good = tk_sigma_summary(g, 2, NULL, &s, NULL) == TK_OK && s.len == n;
        for (int d = 1; good && d < n; d++)
            good = s.pairs[d] == (uint64_t)n && s.max[d] == 1 && s.unique[d] == (uint64_t)n;
        ok(good, "directed C_%d: every shortest path unique", n);
        tk_sigma_summary_destroy(&s);
        tk_graph_free(g);
    }
    /* Self-loops change nothing; a doubled link doubles the paths over it. */
    tk_graph_t *a = cycle(6, 0, 0, 0), *b = cycle(6, 0, 2, 0), *c = cycle(6, 0, 0, 1);
    tk_sigma_summary_t sa, sb, sc;
    tk_sigma_summary(a, 1, NULL, &sa, NULL);
    tk_sigma_summary(b, 2, NULL, &sb, NULL);
    tk_sigma_summary(c, 2, NULL, &sc, NULL);
    int good = sa.len == sb.len;
    for (int d = 1; good && d < sa.len; d++)
        good = sa.pairs[d] == sb.pairs[d] && sa.min[d] == sb.min[d] && sa.max[d] == sb.max[d] &&
               sa.sum_lo[d] == sb.sum_lo[d] && sa.unique[d] == sb.unique[d];
    ok(good, "C_6 with two self-loops per switch: same sigma as C_6");
    /* C_6 with 0-1 doubled: pairs whose shortest paths use 0-1: distance 1
     * (0,1),(1,0): sigma 2; distance 2: (5,1),(0,2) and reverses: 2;
     * every antipodal pair has the doubled link on one of its two sides:
     * 2 + 1 = 3. */
    int32_t dist[6];
    u128 sig[6];
    tk_id_t q[6];
    tk_sigma_from(c, 0, dist, sig, q, NULL);
    ok(sig[1] == 2 && sig[2] == 2 && sig[3] == 3 && sig[4] == 1 && sig[5] == 1,
       "C_6 with the link 0-1 doubled: sigma from 0 = 2 2 3 1 1");
    ok(sc.max[3] == 3 && sc.min[3] == 3 && sc.unique[1] == 10 && sc.unique[2] == 8 &&
           sc.max[2] == 2,
       "... and in the summary (sigma 3 at distance 3, 10 + 8 unique pairs)");
    tk_sigma_summary_destroy(&sa);
    tk_sigma_summary_destroy(&sb);
    tk_sigma_summary_destroy(&sc);
    tk_graph_free(a);
    tk_graph_free(b);
    tk_graph_free(c);
}

static void test_grid_complete_petersen(void)
{
    /* 5 x 6 mesh, switch (i, j) = 6i + j: sigma from the corner is
     * binomial(i + j, i). */
    int e[49][2], m = 0;
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 6; j++) {
            if (i + 1 < 5) {
                e[m][0] = 6 * i + j;
                e[m++][1] = 6 * (i + 1) + j;
            }
            if (j + 1 < 6) {
                e[m][0] = 6 * i + j;
                e[m++][1] = 6 * i + j + 1;
            }
        }
    tk_graph_t *g = from_edges(30, 0, (const int(*)[2])e, m);
    int32_t dist[30];
    u128 sig[30];
    tk_id_t q[30];
    int good = g && tk_sigma_from(g, 0, dist, sig, q, NULL) == TK_OK;
    for (int v = 0; good && v < 30; v++)
        good = dist[v] == v / 6 + v % 6 && sig[v] == binom(v / 6 + v % 6, v / 6);
    ok(good, "5x6 mesh: sigma((0,0),(i,j)) = C(i+j, i)");
    tk_graph_free(g);

    g = complete(7);
    tk_sigma_summary_t s;
    good = tk_sigma_summary(g, 2, NULL, &s, NULL) == TK_OK && s.len == 2 && s.pairs[1] == 42 &&
           s.max[1] == 1 && s.unique[1] == 42 && s.unreachable == 0;
    ok(good, "K_7: 42 pairs at distance 1, all unique");
    tk_sigma_summary_destroy(&s);
    tk_graph_free(g);

    g = petersen();
    good = tk_sigma_summary(g, 2, NULL, &s, NULL) == TK_OK && s.len == 3 && s.pairs[1] == 30 &&
           s.pairs[2] == 60 && s.unique[1] == 30 && s.unique[2] == 60 && s.max[2] == 1;
    ok(good, "Petersen (girth 5): every shortest path unique (30 + 60 pairs)");
    tk_sigma_summary_destroy(&s);
    tk_graph_free(g);

    /* Two disjoint edges: 8 unreachable ordered pairs. */
    static const int two[2][2] = {{0, 1}, {2, 3}};
    g = from_edges(4, 0, two, 2);
    good = tk_sigma_summary(g, 1, NULL, &s, NULL) == TK_OK && s.unreachable == 8 && s.pairs[1] == 4;
    ok(good, "two disjoint edges: 4 pairs at distance 1, 8 unreachable");
    tk_sigma_summary_destroy(&s);
    tk_graph_free(g);
}

static void test_sigma_threads(void)
{
    tk_graph_t *g = NULL;
    tk_gen_rrg(300, 5, 3, 0, &g, NULL);
    tk_sigma_summary_t a, b;
    tk_sigma_summary(g, 1, NULL, &a, NULL);
    tk_sigma_summary(g, 2, NULL, &b, NULL);
    int good = a.len == b.len && a.len > 2;
    for (int d = 1; good && d < a.len; d++)
        good = a.pairs[d] == b.pairs[d] && a.min[d] == b.min[d] && a.max[d] == b.max[d] &&
               a.sum_lo[d] == b.sum_lo[d] && a.sum_hi[d] == b.sum_hi[d] &&
               a.unique[d] == b.unique[d];
    ok(good, "rrg n=300 d=5: identical summary with 1 and 2 threads");
    /* Cross-check against tk_bfs distances: pair counts per distance. */
    int32_t *dist = malloc(300 * sizeof *dist);
    uint64_t cnt[64] = {0};
    for (tk_id_t s = 0; s < 300; s++) {
        tk_bfs(g, s, dist, NULL);
        for (tk_id_t t = 0; t < 300; t++)
            if (t != s && dist[t] < 64)
                cnt[dist[t]]++;
    }
    good = 1;
    for (int d = 1; d < a.len; d++)
        good = good && cnt[d] == a.pairs[d];
    ok(good, "rrg n=300 d=5: pairs per distance agree with tk_bfs");
    free(dist);
    tk_sigma_summary_destroy(&a);
    tk_sigma_summary_destroy(&b);
    tk_graph_free(g);
}

/* --- k shortest / ALLPATH -------------------------------------------------- */
static int ksp_run(const tk_graph_t *g, int k, int H, tk_ksp_result_t *r)
{
    tk_ksp_opts_t o = {2, k, H, 0, 0, 0, NULL};
    return tk_ksp(g, &o, r, NULL) == TK_OK;
}

static void test_ksp_closed_forms(void)
{
    tk_ksp_result_t r;
    for (int n = 5; n <= 9; n++) {
        tk_graph_t *g = cycle(n, 0, 0, 0);
        uint64_t pairs = (uint64_t)n * (uint64_t)(n - 1);
        int good = ksp_run(g, 2, 0, &r) && r.paths == 2 * pairs && r.len_sum == (u128)n * pairs &&
                   r.short_pairs == 0;
        ok(good, "C_%d, k=2: two paths of lengths d and n-d per pair, average n/2", n);
        tk_ksp_result_destroy(&r);
        good = ksp_run(g, 3, n - 1, &r) && r.paths == 2 * pairs && r.len_sum == (u128)n * pairs &&
               r.short_pairs == pairs && r.allpath_min == 2 && r.allpath_max == 2;
        ok(good, "C_%d, k=3: every pair short (2 paths); ALLPATH(n-1) = 2", n);
        tk_ksp_result_destroy(&r);
        tk_graph_free(g);
    }
    /* K_4: 1 path of length 1, 2 of length 2, 2 of length 3 per pair. */
    tk_graph_t *g = complete(4);
    int good = ksp_run(g, 3, 2, &r) && r.paths == 36 && r.len_sum == 12 * 5 && r.allpath_min == 3 &&
               r.allpath_max == 3;
    ok(good, "K_4, k=3: lengths 1+2+2 per pair; ALLPATH(2) = 3");
    tk_ksp_result_destroy(&r);
    good = ksp_run(g, 6, 3, &r) && r.paths == 60 && r.len_sum == 12 * 11 && r.short_pairs == 12 &&
           r.allpath_sum == 60 && r.len_hist_len == 4 && r.len_hist[1] == 12 &&
           r.len_hist[2] == 24 && r.len_hist[3] == 24;
    ok(good, "K_4, k=6: 5 simple paths per pair (short), lengths 1,2,2,3,3");
    tk_ksp_result_destroy(&r);
    tk_graph_free(g);
    /* Petersen, k=1: the average distance 15/9. */
    g = petersen();
    good = ksp_run(g, 1, 0, &r) && r.paths == 90 && r.len_sum == 150 && r.short_pairs == 0;
    ok(good, "Petersen, k=1: total length 30*1 + 60*2 = 150");
    tk_ksp_result_destroy(&r);
    tk_graph_free(g);
    /* Directed cycle: exactly one simple path per pair. */
    g = cycle(7, 1, 1, 0);
    good = ksp_run(g, 4, 6, &r) && r.paths == 42 && r.short_pairs == 42 && r.len_sum == 7 * 21 &&
           r.allpath_max == 1 && r.allpath_min == 1;
    ok(good, "directed C_7 with loops: one simple path per pair, total length 7*21");
    tk_ksp_result_destroy(&r);
    tk_graph_free(g);
}

static void test_ksp_brute(void)
{
    tk_graph_t *g = NULL;
    char name[64];
    for (uint64_t seed = 1; seed <= 2; seed++) {
        tk_gen_rrg(12, 3, seed, 0, &g, NULL);
        snprintf(name, sizeof name, "rrg n=12 d=3 s=%llu", (unsigned long long)seed);
        vs_brute(name, g, 7, 4);
        vs_brute(name, g, 1, 2);
        tk_graph_free(g);
    }
    tk_gen_rrg(10, 4, 5, 0, &g, NULL);
    vs_brute("rrg n=10 d=4", g, 30, 9);
    tk_graph_free(g);
    tk_gen_gdbg(11, 3, &g, NULL);
    vs_brute("gdbg n=11 r=3", g, 6, 3);
    tk_graph_free(g);
    tk_gen_gdbg(5, 7, &g, NULL);
    vs_brute("gdbg n=5 r=7 (parallel arcs)", g, 9, 3);
    tk_graph_free(g);
    tk_gen_kautz(2, 3, &g, NULL);
    vs_brute("kautz d=2 D=3", g, 5, 4);
    tk_graph_free(g);
    g = cycle(7, 0, 1, 2);
    vs_brute("C_7 with loops and a tripled link", g, 5, 6);
    tk_graph_free(g);
    g = multipath(6, 2);
    vs_brute("doubled path P_6", g, 40, 5);
    tk_graph_free(g);
    static const int tri[6][2] = {{0, 1}, {1, 2}, {2, 0}, {3, 4}, {4, 5}, {5, 3}};
    g = from_edges(6, 0, tri, 6);
    vs_brute("two triangles (disconnected)", g, 3, 2);
    tk_graph_free(g);
    static const int tree[7][2] = {{0, 1}, {0, 2}, {1, 3}, {1, 4}, {2, 5}, {2, 6}, {6, 7}};
    g = from_edges(8, 0, tree, 7);
    vs_brute("tree on 8 switches", g, 2, 3);
    tk_graph_free(g);
}

static void test_ksp_threads(void)
{
    tk_graph_t *g = NULL;
    tk_gen_rrg(150, 6, 2, 0, &g, NULL);
    tk_ksp_result_t a, b;
    for (int sampled = 0; sampled <= 1; sampled++) {
        tk_ksp_opts_t o1 = {1, 8, 3, 0, sampled ? 5000 : 0, 4, NULL};
        tk_ksp_opts_t o2 = o1;
        o2.threads = 2;
        int good = tk_ksp(g, &o1, &a, NULL) == TK_OK && tk_ksp(g, &o2, &b, NULL) == TK_OK &&
                   same_result(&a, &b, 8, 3);
        ok(good, "rrg n=150 d=6 k=8 H=3%s: identical with 1 and 2 threads",
           sampled ? " (5000 sampled pairs)" : "");
        tk_ksp_result_destroy(&a);
        tk_ksp_result_destroy(&b);
    }
    /* Raw paths: sampled = all-pairs on the sampled pairs is implied by
     * both modes agreeing on min/max over a dense sample. */
    tk_ksp_opts_t o = {2, 0, 3, 1, 0, 0, NULL};
    int good = tk_ksp(g, &o, &a, NULL) == TK_OK;
    o.sample = 200000;
    good = good && tk_ksp(g, &o, &b, NULL) == TK_OK && a.allpath_min <= b.allpath_min &&
           a.allpath_max >= b.allpath_max;
    ok(good, "raw 3-hop paths: sampled extremes within the all-pairs extremes");
    tk_ksp_result_destroy(&a);
    tk_ksp_result_destroy(&b);
    tk_graph_free(g);
}

/* The plan's units run in uneven pieces, merged in a scrambled order
 * (as MPI ranks would hand them back): tk_ksp's result. */
static void test_ksp_plan(void)
{
    tk_graph_t *g = NULL, *d = NULL;
    tk_gen_rrg(60, 4, 3, 0, &g, NULL);
    tk_gen_kautz(2, 3, &d, NULL);
    const struct {
        tk_graph_t *g;
        int32_t k, h;
        int raw;
        uint64_t sample;
        const char *what;
    } cases[] = {{g, 5, 3, 0, 0, "rrg k=5 H=3"},       {g, 0, 4, 1, 0, "rrg raw H=4"},
                 {g, 4, 0, 0, 700, "rrg k=4 sampled"}, {g, 3, 3, 0, 900, "rrg k=3 H=3 sampled"},
                 {d, 4, 3, 0, 0, "Kautz k=4 H=3"},     {d, 0, 3, 0, 0, "Kautz H=3"}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        tk_ksp_opts_t o = {2, cases[c].k, cases[c].h, cases[c].raw, cases[c].sample, 9, NULL};
        tk_ksp_result_t want, sum, part;
        tk_ksp_plan_t *p = NULL;
        int good = tk_ksp(cases[c].g, &o, &want, NULL) == TK_OK &&
                   tk_ksp_plan_new(cases[c].g, &o, &p, NULL) == TK_OK;
        memset(&sum, 0, sizeof sum);
        sum.allpath_min = UINT64_MAX;
        int64_t units = tk_ksp_plan_units(p);
        /* pieces of 7 units, taken backwards */
        for (int64_t lo = (units - 1) / 7 * 7; good && lo >= 0; lo -= 7) {
            int64_t hi = lo + 7 < units ? lo + 7 : units;
            good = tk_ksp_plan_run(p, lo, hi, 1, &part, NULL) == TK_OK &&
                   tk_ksp_result_merge(&sum, &part, NULL) == TK_OK;
            tk_ksp_result_destroy(&part);
        }
        tk_ksp_result_finish(p, &sum);
        ok(good && units > 7 && same_result(&want, &sum, cases[c].k, cases[c].h) &&
               want.pairs == sum.pairs && want.len_hist_len == sum.len_hist_len,
           "%s: %lld plan units in pieces of 7, merged backwards = tk_ksp", cases[c].what,
           (long long)units);
        tk_error_t err;
        ok(tk_ksp_plan_run(p, 0, units + 1, 1, &part, &err) == TK_EINVAL,
           "%s: a range beyond the units: EINVAL", cases[c].what);
        tk_ksp_result_destroy(&want);
        tk_ksp_result_destroy(&sum);
        tk_ksp_plan_free(p);
    }
    tk_graph_free(g);
    tk_graph_free(d);
}

/* Faizian et al., Lemma 9: in GDBG(N, r), with H the smallest integer such that
 * r^H >= N, every pair has at least floor(r^H / N) raw paths of H hops. */
static void test_lemma9(void)
{
    int bad = 0, graphs = 0;
    for (int r = 2; r <= 7; r++)
        for (int N = 2; N <= 60; N += (r <= 3 ? 1 : 3)) {
            int H = 0;
            int64_t p = 1;
            while (p < N) {
                p *= r;
                H++;
            }
            tk_graph_t *g = NULL;
            tk_ksp_result_t res;
            tk_ksp_opts_t o = {2, 0, H, 1, 0, 0, NULL};
            if (tk_gen_gdbg(N, r, &g, NULL) != TK_OK || tk_ksp(g, &o, &res, NULL) != TK_OK) {
                bad++;
                tk_graph_free(g);
                continue;
            }
            graphs++;
            if (res.allpath_min < (uint64_t)(p / N)) {
                bad++;
                printf("#   GDBG(%d, %d): H %d min %llu < %lld\n", N, r, H,
                       (unsigned long long)res.allpath_min, (long long)(p / N));
            }
            /* Raw walks of H hops from a switch number r^H in total. */
            if (res.allpath_sum > (u128)p * (u128)N) {
                bad++;
                printf("#   GDBG(%d, %d): %llu raw paths > N r^H\n", N, r,
                       (unsigned long long)res.allpath_sum);
            }
            tk_ksp_result_destroy(&res);
            tk_graph_free(g);
        }
    ok(bad == 0 && graphs > 150,
       "Lemma 9 on %d GDBG(N, r), N <= 60, r <= 7: raw paths >= "
       "floor(r^H/N)",
       graphs);
}

static void test_errors(void)
{
    tk_graph_t *g = complete(3);
    tk_ksp_result_t r;
    tk_error_t err;
    tk_ksp_opts_t o = {1, 0, 0, 0, 0, 0, NULL};
    ok(tk_ksp(g, &o, &r, &err) == TK_EINVAL, "k=0 and H=0: TK_EINVAL");
    o.k = -1;
    ok(tk_ksp(g, &o, &r, &err) == TK_EINVAL && strncmp(err.msg, "k=-1", 4) == 0,
       "k=-1: TK_EINVAL naming k");
    /* Raw walk counts beyond 2^64: K_3 has 2^H walks of H hops. */
    o.k = 0;
    o.allpath_h = 70;
    o.allpath_raw = 1;
    ok(tk_ksp(g, &o, &r, &err) == TK_ERANGE, "2^70 raw paths: TK_ERANGE");
    o.allpath_h = 60;
    int good = tk_ksp(g, &o, &r, &err) == TK_OK;
    /* Walks of length H from s to t != s in K_3 (eigenvalues 2, -1, -1):
     * (2^H - (-1)^H) / 3. */
    ok(good && r.allpath_min == (((uint64_t)1 << 60) - 1) / 3 && r.allpath_max == r.allpath_min,
       "K_3: (2^60-1)/3 raw paths of 60 hops between any two switches");
    if (good)
        tk_ksp_result_destroy(&r);
    tk_graph_free(g);
}

int main(void)
{
    test_hypercube();
    test_overflow();
    test_cycles();
    test_grid_complete_petersen();
    test_sigma_threads();
    test_ksp_closed_forms();
    test_ksp_brute();
    test_ksp_threads();
    test_ksp_plan();
    test_lemma9();
    test_errors();
    return tap_done();
}
