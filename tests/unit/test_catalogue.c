/*
 * test_catalogue.c - the topology catalogue of the papers topokit grew
 * from: Dragonfly (every arrangement, trunking), Dragonfly+, Slim Fly,
 * projective networks, fat-trees and HyperX with servers.  Expected values
 * come from closed forms, from the papers' tables (Table 1 of Chaulagain
 * and Yuan, "Enhanced UGAL Routing Schemes for Dragonfly Networks"; Table I
 * of Cano, Camarero, Martinez and Beivide, "Analysing Mechanisms for
 * Virtual Channel Management in Low-Diameter Networks") and from wiring
 * written out by hand from the formulas of topo-gen(1).
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "topokit.h"
#include "gen/gf_internal.h"

/* ---- helpers ------------------------------------------------------------ */

/* Generate through the family table: family and a space-separated list of
 * KEY=VALUE words; servers >= 0 acts as -p. */
static tk_status_t gen(const char *family, const char *params, int servers, uint64_t seed,
                       tk_graph_t **g, tk_error_t *err)
{
    char buf[512], *argv[32], *tok, *save = NULL;
    int argc = 0;
    tk_gen_opts_t o;

    memset(&o, 0, sizeof o);
    o.seed = seed;
    o.seed_given = 1;
    if (servers >= 0) {
        o.servers = servers;
        o.servers_given = 1;
    }
    snprintf(buf, sizeof buf, "%s", params);
    for (tok = strtok_r(buf, " ", &save); tok && argc < 32; tok = strtok_r(NULL, " ", &save))
        argv[argc++] = tok;
    *g = NULL;
    return tk_generate(family, argc, argv, &o, g, err);
}

/* All-pairs diameter by BFS, -1 if disconnected. */
static int diameter(const tk_graph_t *g)
{
    int32_t *dist = malloc((size_t)g->n * sizeof *dist);
    tk_id_t *queue = malloc((size_t)g->n * sizeof *queue);
    int diam = 0;
    tk_id_t s, u;

    for (s = 0; s < g->n && diam >= 0; s++) {
        int64_t qh = 0, qt = 0, a;
        for (u = 0; u < g->n; u++)
            dist[u] = -1;
        dist[s] = 0;
        queue[qt++] = s;
        while (qh < qt) {
            u = queue[qh++];
            for (a = g->off[u]; a < g->off[u + 1]; a++)
                if (dist[g->head[a]] < 0) {
                    dist[g->head[a]] = dist[u] + 1;
                    if (dist[u] + 1 > diam)
                        diam = dist[u] + 1;
                    queue[qt++] = g->head[a];
                }
        }
        if (qt != g->n)
            diam = -1;
    }
    free(dist);
    free(queue);
    return diam;
}

/* Links of class `name` (undirected). */
static int64_t links_of_class(const tk_graph_t *g, const char *name)
{
    int c = tk_graph_class_index(g, name);
    int64_t a, k = 0;

    if (c < 0)
        return -1;
    for (a = 0; a < g->m; a++)
        k += (g->cls ? g->cls[a] : 0) == c;
    return g->directed ? k : k / 2;
}

/* Arcs of class `name` leaving u. */
static int64_t arcs_of_class(const tk_graph_t *g, tk_id_t u, int c)
{
    int64_t a, k = 0;

    for (a = g->off[u]; a < g->off[u + 1]; a++)
        k += (g->cls ? g->cls[a] : 0) == c;
    return k;
}

/* Matrix (ng x ng) of global links between groups; caller frees. */
static int64_t *group_links(const tk_graph_t *g, int ng, int c)
{
    int64_t *M = calloc((size_t)ng * (size_t)ng, sizeof *M), a;
    tk_id_t u;

    for (u = 0; u < g->n; u++)
        for (a = g->off[u]; a < g->off[u + 1]; a++)
            if (g->cls[a] == c)
                M[(size_t)g->group[u] * (size_t)ng + (size_t)g->group[g->head[a]]]++;
    return M;
}

static int simple(const tk_graph_t *g)
{
    return tk_graph_loops(g) == 0 && tk_graph_parallel(g) == 0;
}

static int64_t max_degree(const tk_graph_t *g)
{
    int64_t d = 0;
    tk_id_t u;

    for (u = 0; u < g->n; u++)
        if (tk_graph_degree(g, u) > d)
            d = tk_graph_degree(g, u);
    return d;
}

/* Does g have exactly the given undirected links (of class c, or of every
 * class when c < 0) and no other? pairs: 2*k ids. */
static int exact_links(const tk_graph_t *g, int c, const int *pairs, int k)
{
    int64_t found = 0, a;
    tk_id_t u;
    int i;

    for (i = 0; i < k; i++) {
        int hit = 0;
        tk_id_t x = pairs[2 * i], y = pairs[2 * i + 1];
        for (a = g->off[x]; a < g->off[x + 1]; a++)
            if (g->head[a] == y && (c < 0 || g->cls[a] == c))
                hit++;
        if (hit != 1)
            return 0;
    }
    for (u = 0; u < g->n; u++)
        for (a = g->off[u]; a < g->off[u + 1]; a++)
            found += c < 0 || g->cls[a] == c;
    return found == 2 * k;
}

/* ---- Dragonfly ---------------------------------------------------------- */

static const char *const arrs[] = {"palmtree", "absolute", "circulant", "random", "relative"};
#define NARRS 5

/* Closed forms for dragonfly p a h g, every arrangement: switches a*g,
 * servers p*a*g, degree a-1+h, g*a(a-1)/2 local and g*a*h/2 global links,
 * h global links per router, and every pair of groups joined by
 * floor(ah/(g-1)) or ceil(ah/(g-1)) links, exactly g*r/2 pairs taking the
 * ceiling (r = ah mod (g-1)). */
static void dragonfly_sizes(int p, int a, int h, int g)
{
    int k;

    for (k = 0; k < NARRS; k++) {
        char par[128];
        tk_graph_t *G;
        tk_error_t err;
        int64_t P = (int64_t)a * h, m = P / (g - 1), r = P % (g - 1), heavy = 0, bad = 0;
        tk_status_t st;

        snprintf(par, sizeof par, "p=%d a=%d h=%d g=%d arrangement=%s", p, a, h, g, arrs[k]);
        st = gen("dragonfly", par, -1, 7, &G, &err);
        if (!ok(st == TK_OK, "dragonfly %s builds", par)) {
            tap_diag("%s", err.msg);
            continue;
        }
        int cg = tk_graph_class_index(G, "global");
        is_int(G->n, (int64_t)a * g, "dragonfly %s: a*g switches", par);
        is_int(tk_graph_total_servers(G), (int64_t)p * a * g, "dragonfly %s: p*a*g servers", par);
        is_int(tk_graph_regular_degree(G), a - 1 + h, "dragonfly %s: degree a-1+h", par);
        is_int(links_of_class(G, "local"), (int64_t)g * a * (a - 1) / 2,
               "dragonfly %s: g*a(a-1)/2 local links", par);
        is_int(links_of_class(G, "global"), (int64_t)g * a * h / 2,
               "dragonfly %s: g*a*h/2 global links", par);
        for (tk_id_t u = 0; u < G->n; u++) {
            bad += arcs_of_class(G, u, cg) != h;
            bad += G->group[u] != u / a;
        }
        is_int(bad, 0, "dragonfly %s: every router has h global links, group = id/a", par);
        int64_t *M = group_links(G, g, cg);
        bad = 0;
        for (int x = 0; x < g; x++)
            for (int y = 0; y < g; y++) {
                int64_t v = M[x * g + y];
                if (x == y)
                    bad += v != 0;
                else if (v == m + 1 && r)
                    heavy += x < y;
                else
                    bad += v != m;
            }
        free(M);
        is_int(bad, 0, "dragonfly %s: group pairs get floor/ceil(ah/(g-1)) links, none inside",
               par);
        is_int(heavy, (int64_t)g * r / 2, "dragonfly %s: g*r/2 pairs get the extra link", par);
        tk_graph_free(G);
    }
}

/* Minimal routes of a maximum-size dragonfly, stated precisely.  The
 * papers' "minimal route" (Cano et al.: "at most 3 hops, always unique, of
 * the form lgl") is the shortest route that uses at most one global link:
 * graph shortest paths can be shorter with two global hops (s -g-> x -g-> t when
 * s and t are both linked to a third group's router x), so they are not
 * all of the form l?gl?.  We check, by BFS over the states (switch, global
 * hops used <= 1) with shortest-path counting:
 *  - for s, t in different groups the restricted distance is at most 3, the
 *    shortest restricted route is unique and equals [s != x] + 1 + [y != t]
 *    where x-y is the one global link between the two groups (so it reads
 *    l?gl?);
 *  - inside a group the route is the single local link;
 *  - the graph distance never exceeds the restricted one (diameter <= 3,
 *    and exactly 3 for palmtree and relative). */

static void restricted_bfs(const tk_graph_t *g, int cg, tk_id_t s, int32_t *d, int64_t *sig,
                           int64_t *queue)
{
    int64_t qh = 0, qt = 0, a, n = g->n;

    for (int64_t i = 0; i < 2 * n; i++) {
        d[i] = -1;
        sig[i] = 0;
    }
    d[s] = 0;
    sig[s] = 1;
    queue[qt++] = s;
    while (qh < qt) {
        int64_t st = queue[qh++], u = st % n, k = st / n;
        for (a = g->off[u]; a < g->off[u + 1]; a++) {
            int64_t k2 = k + (g->cls[a] == cg), w;
            if (k2 > 1)
                continue;
            w = k2 * n + g->head[a];
            if (d[w] < 0) {
                d[w] = d[st] + 1;
                queue[qt++] = w;
            }
            if (d[w] == d[st] + 1)
                sig[w] += sig[st];
        }
    }
}

static void dragonfly_routes(int a, int h)
{
    for (int k = 0; k < NARRS; k++) {
        char par[128];
        tk_graph_t *G;
        tk_error_t err;
        snprintf(par, sizeof par, "a=%d h=%d arrangement=%s", a, h, arrs[k]);
        if (!ok(gen("dragonfly", par, -1, 3, &G, &err) == TK_OK, "dragonfly %s", par))
            continue;
        int cg = tk_graph_class_index(G, "global"), ng = a * h + 1, diam = diameter(G);
        int64_t n = G->n, *sig = malloc(2 * (size_t)n * sizeof *sig);
        int64_t *queue = malloc(2 * (size_t)n * sizeof *queue);
        int32_t *d = malloc(2 * (size_t)n * sizeof *d), *dg = malloc((size_t)n * sizeof *dg);
        tk_id_t *gate = malloc((size_t)ng * (size_t)ng * sizeof *gate); /* x of link A->B */
        int64_t bad_len = 0, bad_unique = 0, bad_graph = 0;
        is_int(n, (int64_t)a * ng, "dragonfly %s: maximum size a(ah+1)", par);
        if (k == 0 || k == 4)
            is_int(diam, 3, "dragonfly %s: diameter 3", par);
        else
            ok(diam >= 2 && diam <= 3, "dragonfly %s: diameter <= 3 (got %d)", par, diam);
        for (tk_id_t u = 0; u < n; u++)
            for (int64_t e = G->off[u]; e < G->off[u + 1]; e++)
                if (G->cls[e] == cg)
                    gate[G->group[u] * ng + G->group[G->head[e]]] = u;
        for (tk_id_t s = 0; s < n; s++) {
            restricted_bfs(G, cg, s, d, sig, queue);
            tk_bfs(G, s, dg, &err);
            for (tk_id_t t = 0; t < n; t++) {
                int A = G->group[s], B = G->group[t];
                if (s == t)
                    continue;
                if (A == B) {
                    bad_len += d[t] != 1;
                    bad_unique += sig[t] != 1;
                    bad_graph += dg[t] != 1;
                    continue;
                }
                int want = (s != gate[A * ng + B]) + 1 + (gate[B * ng + A] != t);
                bad_len += d[t] != -1 || d[n + t] != want || want > 3;
                bad_unique += sig[n + t] != 1;
                bad_graph += dg[t] > d[n + t];
            }
        }
        is_int(bad_len, 0,
               "dragonfly %s: minimal route = l?gl? through the group pair's link, <= 3 hops", par);
        is_int(bad_unique, 0, "dragonfly %s: minimal routes (<= 1 global hop) are unique", par);
        is_int(bad_graph, 0, "dragonfly %s: graph distance <= minimal route length", par);
        free(sig);
        free(queue);
        free(d);
        free(dg);
        free(gate);
        tk_graph_free(G);
    }
}

static void test_dragonfly(void)
{
    tk_graph_t *G;
    tk_error_t err;
    tk_status_t st;

    /* Maximum size, trunked (r = 0) and partial rounds (r even, r odd). */
    dragonfly_sizes(2, 4, 2, 9);  /* max size, m = 1 */
    dragonfly_sizes(1, 3, 2, 4);  /* P = 6, m = 2, r = 0 */
    dragonfly_sizes(1, 3, 2, 5);  /* m = 1, r = 2 */
    dragonfly_sizes(1, 4, 3, 6);  /* P = 12, m = 2, r = 2 */
    dragonfly_sizes(1, 7, 1, 4);  /* P = 7, m = 2, r = 1 (g even) */
    dragonfly_sizes(2, 3, 3, 6);  /* P = 9, m = 1, r = 4 */
    dragonfly_sizes(1, 3, 1, 2);  /* two groups, 3 links */
    dragonfly_sizes(3, 5, 2, 11); /* max size, P = 10 */

    /* Chaulagain and Yuan, Table 1: dfly(4,8,4,33) 1056 nodes, 264 routers,
     * 33 groups, 1 link per group pair; dfly(4,8,4,9) 288 nodes, 72
     * routers, 9 groups, 4 links per pair.  Radix 15 = p + a-1 + h. */
    st = gen("dragonfly", "p=4 a=8 h=4", -1, 1, &G, &err);
    if (ok(!st, "dfly(4,8,4,33) builds")) {
        int64_t *M = group_links(G, 33, tk_graph_class_index(G, "global")), bad = 0;
        is_int(G->n, 264, "dfly(4,8,4,33): 264 routers (Chaulagain and Yuan, Table 1)");
        is_int(tk_graph_total_servers(G), 1056, "dfly(4,8,4,33): 1056 nodes");
        is_int(tk_graph_regular_degree(G) + 4, 15, "dfly(4,8,4,33): 15-port switches");
        for (int i = 0; i < 33 * 33; i++)
            bad += M[i] != (i / 33 != i % 33);
        is_int(bad, 0, "dfly(4,8,4,33): exactly 1 link between every pair of the 33 groups");
        free(M);
        tk_graph_free(G);
    }
    st = gen("dragonfly", "p=4 a=8 h=4 g=9", -1, 1, &G, &err);
    if (ok(!st, "dfly(4,8,4,9) builds")) {
        int64_t *M = group_links(G, 9, tk_graph_class_index(G, "global")), bad = 0;
        is_int(G->n, 72, "dfly(4,8,4,9): 72 routers (Chaulagain and Yuan, Table 1)");
        is_int(tk_graph_total_servers(G), 288, "dfly(4,8,4,9): 288 nodes");
        for (int i = 0; i < 81; i++)
            bad += M[i] != (i / 9 != i % 9 ? 4 : 0);
        is_int(bad, 0, "dfly(4,8,4,9): exactly 4 links between every pair of groups");
        free(M);
        tk_graph_free(G);
    }
    /* Cano et al., Table I, Dragonfly h = 6: 6 servers per switch, 5256
     * servers, radix 23, 876 switches, 7446 switch-switch links (73*66 local +
     * 73*72/2 global). */
    st = gen("dragonfly", "p=6 a=12 h=6", -1, 1, &G, &err);
    if (ok(!st, "Cano et al. Dragonfly h=6 builds")) {
        is_int(G->n, 876, "Cano et al. DF: 876 switches");
        is_int(tk_graph_total_servers(G), 5256, "Cano et al. DF: 5256 servers");
        is_int(tk_graph_regular_degree(G) + tk_graph_servers(G, 0), 23, "Cano et al. DF: radix 23");
        is_int(tk_graph_links(G), 7446, "Cano et al. DF: 7446 switch-switch links");
        tk_graph_free(G);
    }

    /* Minimal routes of maximum-size dragonflies. */
    dragonfly_routes(2, 2);
    dragonfly_routes(4, 2);

    /* Golden wiring, a = 2, h = 2, g = 5 (switch j*2 + i is router i of
     * group j).  palmtree (Fuentes et al.): router i port k of group j ->
     * group j-2i-k-1, router 1-i:  (0,0)->g4 r1 = 0-9, (0,0)->g3 r1 = 0-7,
     * (0,1)->g2 r0 = 1-4, (0,1)->g1 r0 = 1-2, (1,0)->g4 r1 = 2-9,
     * (1,1)->g3 r0 = 3-6, (1,1)->g2 r0 = 3-4, (2,1)->g4 r0 = 5-8,
     * (2,1)->g3 r0 = 5-6, (3,1)->g4 r0 = 7-8 (the others repeat these). */
    {
        static const int palm[] = {0, 9, 0, 7, 1, 4, 1, 2, 2, 9, 3, 6, 3, 4, 5, 8, 5, 6, 7, 8};
        /* relative: router i port k of group j -> group j+2i+k+1, router
         * 1-i:  (0,0)->g1 r1 = 0-3, (0,0)->g2 r1 = 0-5, (0,1)->g3 r0 =
         * 1-6, (0,1)->g4 r0 = 1-8, (1,0)->g2 r1 = 2-5, (1,0)->g3 r1 = 2-7,
         * (1,1)->g4 r0 = 3-8, (2,0)->g3 r1 = 4-7, (2,0)->g4 r1 = 4-9,
         * (3,0)->g4 r1 = 6-9. */
        static const int rel[] = {0, 3, 0, 5, 1, 6, 1, 8, 2, 5, 2, 7, 3, 8, 4, 7, 4, 9, 6, 9};
        /* circulant: router 0 takes offsets +1, -1 (slots 0, 1), router 1
         * +2, -2 (slots 2, 3); slot 0 lands on slot 1 and slot 2 on slot 3:
         * router 0 of group j - router 0 of j+1, router 1 of j - router 1 of
         * j+2. */
        static const int circ[] = {0, 2, 2, 4, 4, 6, 6, 8, 8, 0, 1, 5, 3, 7, 5, 9, 7, 1, 9, 3};
        /* absolute: slot c of group j -> group c (c < j) or c+1, landing on
         * slot j (j < j') or j-1:  0-2 (g0 s0 - g1 s0), 0-4 (g0 s1 - g2 s0),
         * 1-6, 1-8, 2-4 (g1 s1 - g2 s1), 3-6 (g1 s2 - g3 s1), 3-8,
         * 5-7 (g2 s2 - g3 s2), 5-9, 7-9 (g3 s3 - g4 s3). */
        static const int absl[] = {0, 2, 0, 4, 1, 6, 1, 8, 2, 4, 3, 6, 3, 8, 5, 7, 5, 9, 7, 9};
        static const int *const want[] = {palm, absl, circ, NULL, rel};
        for (int k = 0; k < NARRS; k++) {
            char par[96];
            if (!want[k])
                continue;
            snprintf(par, sizeof par, "a=2 h=2 arrangement=%s", arrs[k]);
            st = gen("dragonfly", par, -1, 1, &G, &err);
            ok(!st && exact_links(G, tk_graph_class_index(G, "global"), want[k], 10),
               "dragonfly %s: golden global links", par);
            tk_graph_free(G);
        }
    }
    /* Trunked golden, a = 2 h = 2 g = 3 (P = 4, m = 2 rounds): slot
     * s = rho*2 + c, router s/2.  palmtree: port t -> group
     * j + 1 + ((3 - t) mod 2), router 1 - t/2 (round rho meets round 1-rho):
     * router 0 of j - router 1 of j+1 and j+2: every global link joins a
     * router 0 to a router 1 (with the local links, K_{3,3}).  relative:
     * slot c -> group j+c+1 landing on c' = 1-c in the same round: router 0
     * of j - router 0 of j+1 and router 1 of j - router 1 of j+1 (two
     * triangles: a prism). */
    {
        static const int palm[] = {0, 3, 0, 5, 1, 2, 1, 4, 2, 5, 3, 4};
        static const int rel[] = {0, 2, 2, 4, 4, 0, 1, 3, 3, 5, 5, 1};
        st = gen("dragonfly", "a=2 h=2 g=3", -1, 1, &G, &err);
        ok(!st && exact_links(G, tk_graph_class_index(G, "global"), palm, 6),
           "dragonfly a=2 h=2 g=3: golden trunked global links (palmtree)");
        tk_graph_free(G);
        st = gen("dragonfly", "a=2 h=2 g=3 arrangement=relative", -1, 1, &G, &err);
        ok(!st && exact_links(G, tk_graph_class_index(G, "global"), rel, 6),
           "dragonfly a=2 h=2 g=3: golden trunked global links (relative)");
        tk_graph_free(G);
    }
    /* Partial round, a = 1 h = 5 g = 4 (one router per group, id = group):
     * the full round joins every pair once, the partial round (r = 2) adds
     * offsets +1/-1: 0-1, 1-2, 2-3, 3-0 twice, 0-2 and 1-3 once.  Same for
     * every deterministic arrangement. */
    for (int k = 0; k < NARRS; k++) {
        char par[96];
        if (k == 3)
            continue; /* random */
        snprintf(par, sizeof par, "a=1 h=5 g=4 arrangement=%s", arrs[k]);
        st = gen("dragonfly", par, -1, 1, &G, &err);
        if (ok(!st, "dragonfly %s builds", par)) {
            int64_t *M = group_links(G, 4, tk_graph_class_index(G, "global"));
            ok(M[0 * 4 + 1] == 2 && M[1 * 4 + 2] == 2 && M[2 * 4 + 3] == 2 && M[3 * 4 + 0] == 2 &&
                   M[0 * 4 + 2] == 1 && M[1 * 4 + 3] == 1,
               "dragonfly %s: +-1 pairs get 2 links, +-2 pairs 1", par);
            free(M);
        }
        tk_graph_free(G);
    }
    /* r odd: a = 1 h = 7 g = 4: two full rounds plus offset g/2 = 2. */
    st = gen("dragonfly", "a=1 h=7 g=4", -1, 1, &G, &err);
    if (ok(!st, "dragonfly a=1 h=7 g=4 builds")) {
        int64_t *M = group_links(G, 4, tk_graph_class_index(G, "global"));
        ok(M[1] == 2 && M[6] == 2 && M[11] == 2 && M[12] == 2 && M[2] == 3 && M[7] == 3,
           "dragonfly a=1 h=7 g=4: offset-2 pairs get 3 links, the others 2");
        free(M);
        tk_graph_free(G);
    }

    /* random: seeded, deterministic, and different from palmtree. */
    {
        tk_graph_t *A, *B, *C, *D;
        tk_status_t s1 = gen("dragonfly", "a=4 h=2 arrangement=random", -1, 5, &A, &err);
        tk_status_t s2 = gen("dragonfly", "a=4 h=2 arrangement=random", -1, 5, &B, &err);
        tk_status_t s3 = gen("dragonfly", "a=4 h=2 arrangement=random", -1, 6, &C, &err);
        tk_status_t s4 = gen("dragonfly", "a=4 h=2", -1, 5, &D, &err);
        ok(!s1 && !s2 && tk_graph_equal(A, B), "dragonfly random: same seed, same graph");
        ok(!s3 && !tk_graph_equal(A, C), "dragonfly random: another seed, another graph");
        ok(!s4 && !tk_graph_equal(A, D), "dragonfly random differs from palmtree");
        tk_graph_free(A);
        tk_graph_free(B);
        tk_graph_free(C);
        tk_graph_free(D);
    }

    /* Direct entry points record the arrangement and seed in the spec. */
    st = tk_gen_dragonfly(2, 4, 2, 9, TK_ARR_RANDOM, 9, 0, &G, &err);
    ok(!st && strcmp(G->spec, "dragonfly p=2 a=4 h=2 g=9 arrangement=random s=9") == 0,
       "tk_gen_dragonfly spec: %s", st ? err.msg : G->spec);
    tk_graph_free(G);
    st = tk_gen_dfplus(2, 2, 2, 2, 5, TK_ARR_CIRCULANT, 1, 0, &G, &err);
    ok(!st && strcmp(G->spec,
                     "dragonfly+ leaves=2 spines=2 p=2 h=2 g=5 arrangement=circulant s=1") == 0,
       "tk_gen_dfplus spec: %s", st ? err.msg : G->spec);
    tk_graph_free(G);

    /* Errors. */
    st = gen("dragonfly", "a=4 h=2 g=10", -1, 1, &G, &err);
    ok(st == TK_ERANGE && strncmp(err.msg, "g=10:", 5) == 0, "g > a*h+1 refused: %s", err.msg);
    st = gen("dragonfly", "a=3 h=1 g=3", -1, 1, &G, &err);
    ok(st == TK_ERANGE && strncmp(err.msg, "g=3:", 4) == 0 && strstr(err.msg, "odd"),
       "g*a*h odd refused: %s", err.msg);
    st = gen("dragonfly", "a=3 h=1 g=1", -1, 1, &G, &err);
    ok(st == TK_ERANGE, "g=1 refused: %s", err.msg);
    st = gen("dragonfly", "a=3 h=1 arrangement=spiral", -1, 1, &G, &err);
    ok(st == TK_EINVAL && strncmp(err.msg, "arrangement=spiral:", 19) == 0,
       "unknown arrangement refused: %s", err.msg);
    st = gen("dragonfly", "a=3", -1, 1, &G, &err);
    ok(st == TK_EINVAL, "missing h refused: %s", err.msg);
}

/* ---- Dragonfly+ --------------------------------------------------------- */

static void test_dfplus(void)
{
    tk_graph_t *G;
    tk_error_t err;
    tk_status_t st;
    static const int sets[][5] = {
        {2, 2, 1, 2, 5}, {3, 2, 2, 2, 5}, {2, 3, 1, 1, 4}, {4, 4, 4, 4, 17}};

    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
        int L = sets[i][0], S = sets[i][1], p = sets[i][2], h = sets[i][3], g = sets[i][4];
        char par[128];
        int64_t bad = 0;
        snprintf(par, sizeof par, "leaves=%d spines=%d p=%d h=%d g=%d", L, S, p, h, g);
        st = gen("dragonfly+", par, -1, 1, &G, &err);
        if (!ok(!st, "dragonfly+ %s builds", par))
            continue;
        int cg = tk_graph_class_index(G, "global"), cu = tk_graph_class_index(G, "updown");
        is_int(G->n, (int64_t)(L + S) * g, "dragonfly+ %s: (L+S)g switches", par);
        is_int(tk_graph_total_servers(G), (int64_t)p * L * g, "dragonfly+ %s: p*L*g servers", par);
        is_int(links_of_class(G, "updown"), (int64_t)L * S * g, "dragonfly+ %s: L*S*g up/down",
               par);
        is_int(links_of_class(G, "global"), (int64_t)S * h * g / 2, "dragonfly+ %s: S*h*g/2 global",
               par);
        for (tk_id_t u = 0; u < G->n; u++) {
            int leaf = u % (L + S) < L;
            bad += tk_graph_servers(G, u) != (leaf ? p : 0);
            bad += arcs_of_class(G, u, cg) != (leaf ? 0 : h);
            bad += arcs_of_class(G, u, cu) != (leaf ? S : L);
            bad += G->group[u] != u / (L + S) || G->coord[3 * u + 1] != !leaf;
        }
        is_int(bad, 0, "dragonfly+ %s: leaves p servers + S up, spines L down + h global", par);
        tk_graph_free(G);
    }
    /* Cano et al., Table I, Dragonfly+: 65 groups of 8 leaves + 8 spines, 8
     * servers per leaf: 4160 servers, radix 16, 1040 switches, 6240 links
     * (65*64 leaf-spine + 65*64/2 global). */
    st = gen("megafly", "leaves=8 spines=8 p=8 h=8", -1, 1, &G, &err);
    if (ok(!st, "Cano et al. Dragonfly+ (alias megafly) builds")) {
        int64_t bad = 0;
        is_int(G->n, 1040, "Cano et al. DF+: 1040 switches");
        is_int(tk_graph_total_servers(G), 4160, "Cano et al. DF+: 4160 servers");
        for (tk_id_t u = 0; u < G->n; u++)
            bad += tk_graph_degree(G, u) + tk_graph_servers(G, u) != 16;
        is_int(bad, 0, "Cano et al. DF+: every switch has radix 16");
        is_int(tk_graph_links(G), 6240, "Cano et al. DF+: 6240 switch-switch links");
        tk_graph_free(G);
    }
    st = gen("dragonfly+", "leaves=2 spines=2 g=6", -1, 1, &G, &err);
    ok(st == TK_ERANGE && strncmp(err.msg, "g=6:", 4) == 0, "dragonfly+ g > S*h+1: %s", err.msg);
}

/* ---- Slim Fly ----------------------------------------------------------- */

static void test_slimfly(void)
{
    static const int qs[] = {3, 4, 5, 7, 8, 9, 11, 13, 16, 17, 19, 23, 25, 27, 29, 31, 32};
    tk_graph_t *G;
    tk_error_t err;
    tk_status_t st;

    for (size_t i = 0; i < sizeof qs / sizeof qs[0]; i++) {
        int q = qs[i], delta = q % 4 == 1 ? 1 : q % 4 == 0 ? 0 : -1;
        st = tk_gen_slimfly(q, 0, &G, &err);
        if (!ok(!st, "slimfly q=%d builds", q))
            continue;
        is_int(G->n, 2 * q * q, "slimfly q=%d: 2q^2 switches", q);
        is_int(tk_graph_regular_degree(G), (3 * q - delta) / 2, "slimfly q=%d: degree (3q-d)/2", q);
        ok(simple(G), "slimfly q=%d: simple", q);
        if (q <= 16)
            is_int(diameter(G), 2, "slimfly q=%d: diameter 2", q);
        tk_graph_free(G);
    }
    /* q = 5 is the Hoffman-Singleton graph: 50 switches, 7-regular,
     * diameter 2, girth 5 (the unique Moore graph of these parameters; the
     * nauty comparison with data/hoffman-singleton.g6 is in
     * tests/cli/topo-gen-catalogue.sh). */
    st = tk_gen_slimfly(5, 0, &G, &err);
    if (!st) {
        int32_t gi = 0;
        tk_girth(G, 1, &gi, &err);
        is_int(gi, 5, "slimfly q=5: girth 5 (Moore graph: Hoffman-Singleton)");
        tk_graph_free(G);
    }
    st = tk_gen_slimfly(6, 0, &G, &err);
    ok(st == TK_ERANGE && strstr(err.msg, "q=6: not a prime power"), "slimfly q=6: %s", err.msg);
    st = tk_gen_slimfly(2, 0, &G, &err);
    ok(st == TK_ERANGE && strncmp(err.msg, "q=2:", 4) == 0, "slimfly q=2: %s", err.msg);
}

/* ---- projective --------------------------------------------------------- */

static void test_projective(void)
{
    static const int qs[] = {2, 3, 4, 5, 7, 8, 9, 11, 13, 16, 25, 27, 32};
    tk_graph_t *G;
    tk_error_t err;
    tk_status_t st;

    for (size_t i = 0; i < sizeof qs / sizeof qs[0]; i++) {
        int64_t q = qs[i], N = q * q + q + 1, absl = 0, bad = 0;
        st = tk_gen_projective(q, 0, 0, &G, &err);
        if (ok(!st, "ER_%d builds", (int)q)) {
            is_int(G->n, N, "ER_%d: q^2+q+1 switches", (int)q);
            is_int(tk_graph_links(G), q * (q + 1) * (q + 1) / 2, "ER_%d: q(q+1)^2/2 links", (int)q);
            for (tk_id_t u = 0; u < G->n; u++) {
                absl += tk_graph_degree(G, u) == q;
                bad += tk_graph_degree(G, u) != q && tk_graph_degree(G, u) != q + 1;
            }
            ok(bad == 0 && absl == q + 1, "ER_%d: q+1 absolute points of degree q, others q+1",
               (int)q);
            ok(simple(G), "ER_%d: no self-loops, no parallel links", (int)q);
            if (q <= 16)
                is_int(diameter(G), 2, "ER_%d: diameter 2", (int)q);
            tk_graph_free(G);
        }
        if (q > 9)
            continue;
        st = tk_gen_projective(q, 1, 0, &G, &err);
        if (ok(!st, "Levi PG(2,%d) builds", (int)q)) {
            int32_t gi = 0;
            int64_t a;
            is_int(G->n, 2 * N, "Levi PG(2,%d): 2(q^2+q+1) switches", (int)q);
            is_int(tk_graph_regular_degree(G), q + 1, "Levi PG(2,%d): (q+1)-regular", (int)q);
            bad = 0;
            for (tk_id_t u = 0; u < G->n; u++)
                for (a = G->off[u]; a < G->off[u + 1]; a++)
                    bad += G->group[u] == G->group[G->head[a]];
            is_int(bad, 0, "Levi PG(2,%d): bipartite (points group 0, lines group 1)", (int)q);
            tk_girth(G, 1, &gi, &err);
            is_int(gi, 6, "Levi PG(2,%d): girth 6", (int)q);
            is_int(diameter(G), 3, "Levi PG(2,%d): diameter 3", (int)q);
            tk_graph_free(G);
        }
    }
    st = tk_gen_projective(10, 0, 0, &G, &err);
    ok(st == TK_ERANGE && strstr(err.msg, "q=10: not a prime power"), "projective q=10: %s",
       err.msg);
}

/* ---- fat-trees and HyperX ------------------------------------------------ */

static void test_fattree_hyperx(void)
{
    tk_graph_t *G;
    tk_error_t err;
    tk_status_t st;

    for (int k = 2; k <= 12; k += 2) {
        int64_t K = k, bad = 0;
        st = tk_gen_fattree(k, 3, -1, 0, &G, &err);
        if (ok(!st, "fattree k=%d builds", k)) {
            is_int(G->n, 5 * K * K / 4, "fattree k=%d: 5k^2/4 switches", k);
            is_int(tk_graph_total_servers(G), K * K * K / 4, "fattree k=%d: k^3/4 servers", k);
            is_int(tk_graph_links(G), K * K * K / 2, "fattree k=%d: k^3/2 links", k);
            is_int(links_of_class(G, "core"), K * K * K / 4, "fattree k=%d: k^3/4 core links", k);
            for (tk_id_t u = 0; u < G->n; u++)
                bad += tk_graph_degree(G, u) + tk_graph_servers(G, u) != k;
            is_int(bad, 0, "fattree k=%d: every switch uses its k ports", k);
            if (k >= 4)
                is_int(diameter(G), 4, "fattree k=%d: switch diameter 4", k);
            ok(simple(G), "fattree k=%d: simple", k);
            tk_graph_free(G);
        }
        st = tk_gen_fattree(k, 2, -1, 0, &G, &err);
        if (ok(!st, "fattree k=%d levels=2 builds", k)) {
            is_int(G->n, 3 * K / 2, "leaf-spine k=%d: 3k/2 switches", k);
            is_int(tk_graph_total_servers(G), K * K / 2, "leaf-spine k=%d: k^2/2 servers", k);
            is_int(tk_graph_links(G), K * K / 2, "leaf-spine k=%d: k^2/2 links", k);
            is_int(max_degree(G), k, "leaf-spine k=%d: spines use k ports", k);
            tk_graph_free(G);
        }
    }
    st = gen("fattree", "k=4", 3, 1, &G, &err);
    if (ok(!st, "fattree k=4 -p 3")) {
        is_int(tk_graph_total_servers(G), 3 * 8, "fattree k=4 -p 3: 3 servers on each of 8 leaves");
        tk_graph_free(G);
    }
    st = tk_gen_fattree(5, 3, -1, 0, &G, &err);
    ok(st == TK_ERANGE && strncmp(err.msg, "k=5:", 4) == 0, "fattree k=5: %s", err.msg);

    /* Cano et al., Table I, HyperX rows: servers per switch, total servers,
     * radix, switches, switch-switch links.  The 1D row lists 4032 links,
     * which is 64*63, twice the 2016 links of K_64: it counts each link
     * from both ends (ports), unlike the 2D (256*30/2 = 3840) and 3D
     * (512*21/2 = 5376) rows; we check 2016 for 1D. */
    static const struct {
        const char *par;
        int p, servers, radix, n, links;
    } hx[] = {{"sides=64 p=64", 64, 4096, 127, 64, 2016},
              {"sides=16,16 p=16", 16, 4096, 46, 256, 3840},
              {"sides=8,8,8 p=8", 8, 4096, 29, 512, 5376}};
    for (size_t i = 0; i < 3; i++) {
        st = gen("hyperx", hx[i].par, -1, 1, &G, &err);
        if (!ok(!st, "hyperx %s builds", hx[i].par))
            continue;
        is_int(tk_graph_servers(G, 0), hx[i].p, "hyperx %s: servers per switch", hx[i].par);
        is_int(tk_graph_total_servers(G), hx[i].servers, "hyperx %s: total servers", hx[i].par);
        is_int(tk_graph_regular_degree(G) + hx[i].p, hx[i].radix, "hyperx %s: radix", hx[i].par);
        is_int(G->n, hx[i].n, "hyperx %s: switches", hx[i].par);
        is_int(tk_graph_links(G), hx[i].links, "hyperx %s: switch-switch links", hx[i].par);
        tk_graph_free(G);
    }
    st = gen("hyperx", "sides=3,3 p=2", 5, 1, &G, &err);
    ok(!st && tk_graph_total_servers(G) == 45, "hyperx p=2 with -p 5: -p wins");
    tk_graph_free(G);
    st = gen("jellyfish", "n=10 d=3", 4, 1, &G, &err);
    ok(!st && G->n == 10 && tk_graph_total_servers(G) == 40 && strncmp(G->spec, "rrg ", 4) == 0,
       "jellyfish is rrg with servers");
    tk_graph_free(G);
}

/* ---- finite fields ------------------------------------------------------ */

static void test_gf(void)
{
    static const int qs[] = {2, 3, 4, 5, 7, 8, 9, 16, 25, 27, 32, 49, 64, 81, 121, 125, 128, 256};
    static const struct {
        int64_t q;
        int pp;
    } pw[] = {{1, 0},   {2, 1},    {6, 0},    {10, 0},   {12, 0},    {100, 0},       {1024, 1},
              {243, 1}, {1369, 1}, {1331, 1}, {1332, 0}, {65536, 1}, {2147483647, 1}};
    tk_error_t err;

    for (size_t i = 0; i < sizeof pw / sizeof pw[0]; i++) {
        int32_t p, m;
        is_int(tkg_prime_power(pw[i].q, &p, &m), pw[i].pp, "prime power test of %lld",
               (long long)pw[i].q);
    }
    for (size_t i = 0; i < sizeof qs / sizeof qs[0]; i++) {
        tkg_gf_t f;
        int q = qs[i], bad = 0;
        if (!ok(tkg_gf_init(&f, q, "q", &err) == TK_OK, "GF(%d) builds", q))
            continue;
        /* The powers of the primitive element are the q-1 nonzero elements. */
        char *seen = calloc((size_t)q, 1);
        for (int k = 0; k < q - 1; k++)
            bad += f.exp[k] <= 0 || f.exp[k] >= q || seen[f.exp[k]]++;
        free(seen);
        is_int(bad, 0, "GF(%d): the element %d is primitive", q, (int)f.prim);
        /* Field axioms: a + (-a) = 0, a * a^-1 = 1, p * 1 = 0, and (for q <=
         * 128, every triple) commutativity, associativity, distributivity. */
        int32_t one = 0;
        for (int k = 0; k < f.p; k++)
            one = tkg_gf_add(&f, one, 1);
        bad = one != 0;
        for (int a = 0; a < q; a++) {
            bad += tkg_gf_add(&f, a, tkg_gf_neg(&f, a)) != 0;
            bad += a && tkg_gf_mul(&f, a, tkg_gf_div(&f, 1, a)) != 1;
            bad += tkg_gf_mul(&f, a, 1) != a || tkg_gf_add(&f, a, 0) != a;
        }
        int lim = q <= 128 ? q : 17;
        for (int a = 0; a < lim; a++)
            for (int b = 0; b < lim; b++) {
                bad += tkg_gf_add(&f, a, b) != tkg_gf_add(&f, b, a);
                bad += tkg_gf_mul(&f, a, b) != tkg_gf_mul(&f, b, a);
                for (int c = 0; c < lim; c++) {
                    bad += tkg_gf_mul(&f, a, tkg_gf_add(&f, b, c)) !=
                           tkg_gf_add(&f, tkg_gf_mul(&f, a, b), tkg_gf_mul(&f, a, c));
                    bad += tkg_gf_add(&f, a, tkg_gf_add(&f, b, c)) !=
                           tkg_gf_add(&f, tkg_gf_add(&f, a, b), c);
                }
            }
        is_int(bad, 0, "GF(%d): field axioms hold", q);
        tkg_gf_destroy(&f);
    }
    {
        tkg_gf_t f;
        tk_status_t st = tkg_gf_init(&f, 12, "q", &err);
        ok(st == TK_ERANGE && strcmp(err.msg, "q=12: not a prime power") == 0, "GF(12): %s",
           err.msg);
    }
}

int main(void)
{
    test_gf();
    test_dragonfly();
    test_dfplus();
    test_slimfly();
    test_projective();
    test_fattree_hyperx();
    return tap_done();
}
