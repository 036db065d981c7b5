/*
 * test_route.c - routing models (tk_route.h).
 *
 * Every model's path set and weights are compared with a brute-force
 * computation written here independently: a plain recursive DFS lists every
 * simple path (up to a hop bound), and each model's definition (topokit(7),
 * ROUTING MODELS) is applied to that list as a filter, with weights
 * computed from the definition (uniform, or the product of the per-hop
 * splits).  Graphs: ring, K4, 3-cube, Petersen, a small RRG, small
 * Dragonflies.  Counts are also checked against closed forms (hypercube d!,
 * binomials on grids) and tk_sigma_from.
 */
#include <config.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "topokit.h"

#define BMAX 24 /* longest brute-force path (arcs) */

typedef struct bpath {
    int len;
    int64_t a[BMAX];
    double w;
    tk_id_t via; /* intermediate, -1 none                  */
    int p2;      /* first hop of the second phase, -1 none */
} bpath_t;

typedef struct blist {
    bpath_t *p;
    int64_t n, cap;
} blist_t;

static void bl_push_via(blist_t *l, const int64_t *a, int len, double w, tk_id_t via, int p2)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 64;
        l->p = realloc(l->p, (size_t)l->cap * sizeof *l->p);
        if (!l->p)
            abort();
    }
    l->p[l->n].len = len;
    if (len)
        memcpy(l->p[l->n].a, a, (size_t)len * sizeof *a);
    l->p[l->n].w = w;
    l->p[l->n].via = via;
    l->p[l->n].p2 = p2;
    l->n++;
}

static void bl_push(blist_t *l, const int64_t *a, int len, double w)
{
    bl_push_via(l, a, len, w, -1, -1);
}

/* By walk (arc sequence). */
static int walk_cmp(const void *x, const void *y)
{
    const bpath_t *a = x, *b = y;
    for (int i = 0; i < a->len && i < b->len; i++)
        if (a->a[i] != b->a[i])
            return a->a[i] < b->a[i] ? -1 : 1;
    return (a->len > b->len) - (a->len < b->len);
}

/* By walk, then intermediate: one draw of a two-phase model each. */
static int bp_cmp(const void *x, const void *y)
{
    const bpath_t *a = x, *b = y;
    int c = walk_cmp(x, y);
    return c ? c : (a->via > b->via) - (a->via < b->via);
}

/* Distinct walks of a list. */
static int64_t bl_walks(const blist_t *l)
{
    bpath_t *c = malloc((size_t)(l->n + 1) * sizeof *c);
    int64_t k = 0;
    memcpy(c, l->p, (size_t)l->n * sizeof *c);
    qsort(c, (size_t)l->n, sizeof *c, walk_cmp);
    for (int64_t i = 0; i < l->n; i++)
        k += i == 0 || walk_cmp(&c[i - 1], &c[i]) != 0;
    free(c);
    return k;
}

/* --- brute force: every simple path s -> t of at most H arcs ---------------- */
static void bf_rec(const tk_graph_t *g, tk_id_t u, tk_id_t t, int H, int64_t *path, int d, char *on,
                   blist_t *out)
{
    if (u == t) {
        bl_push(out, path, d, 0);
        return;
    }
    if (d == H)
        return;
    for (int64_t a = g->off[u]; a < g->off[u + 1]; a++) {
        tk_id_t v = g->head[a];
        if (on[v])
            continue;
        on[v] = 1;
        path[d] = a;
        bf_rec(g, v, t, H, path, d + 1, on, out);
        on[v] = 0;
    }
}

static void bf_simple(const tk_graph_t *g, tk_id_t s, tk_id_t t, int H, blist_t *out)
{
    int64_t path[BMAX] = {0};
    char *on = calloc((size_t)g->n, 1);
    out->n = 0;
    if (s == t) {
        bl_push(out, path, 0, 1);
        free(on);
        return;
    }
    on[s] = 1;
    bf_rec(g, s, t, H < BMAX ? H : BMAX, path, 0, on, out);
    free(on);
}

/* hop length of arc a under per-class lengths (NULL = all 1) */
static int alen(const tk_graph_t *g, const int *clen, int64_t a)
{
    return clen && g->cls ? clen[g->cls[a]] : 1;
}

static int plen(const tk_graph_t *g, const int *clen, const bpath_t *p)
{
    int l = 0;
    for (int i = 0; i < p->len; i++)
        l += alen(g, clen, p->a[i]);
    return l;
}

/* Shortest (weighted) s->t paths by brute force over all simple paths; weights
 * uniform.  Returns the length. */
static int bf_min(const tk_graph_t *g, const int *clen, tk_id_t s, tk_id_t t, int H, blist_t *out)
{
    blist_t all = {0};
    int best = 1 << 30;
    bf_simple(g, s, t, H, &all);
    for (int64_t i = 0; i < all.n; i++)
        if (plen(g, clen, &all.p[i]) < best)
            best = plen(g, clen, &all.p[i]);
    out->n = 0;
    for (int64_t i = 0; i < all.n; i++)
        if (plen(g, clen, &all.p[i]) == best)
            bl_push(out, all.p[i].a, all.p[i].len, 0);
    for (int64_t i = 0; i < out->n; i++)
        out->p[i].w = 1.0 / (double)out->n;
    free(all.p);
    return s == t ? 0 : best;
}

/* All-pairs weighted distances by brute force (n x n, from bf_min). */
static int *bf_dist(const tk_graph_t *g, const int *clen, int H)
{
    int *D = malloc((size_t)g->n * (size_t)g->n * sizeof *D);
    blist_t l = {0};
    for (tk_id_t s = 0; s < g->n; s++)
        for (tk_id_t t = 0; t < g->n; t++)
            D[s * g->n + t] = bf_min(g, clen, s, t, H, &l);
    free(l.p);
    return D;
}

/* ECMP weights: a path's weight is the product over its hops u->v of
 * 1 / (number of out-arcs u->w of u with len + D(w,t) = D(u,t)). */
static void bf_ecmp(const tk_graph_t *g, const int *clen, const int *D, tk_id_t t, blist_t *l)
{
    for (int64_t i = 0; i < l->n; i++) {
        double w = 1;
        for (int k = 0; k < l->p[i].len; k++) {
            int64_t a0 = l->p[i].a[k];
            tk_id_t u = 0;
            while (g->off[u + 1] <= a0)
                u++;
            int c = 0;
            for (int64_t a = g->off[u]; a < g->off[u + 1]; a++)
                if (alen(g, clen, a) + D[g->head[a] * g->n + t] == D[u * g->n + t])
                    c++;
            w /= c;
        }
        l->p[i].w = w;
    }
}

/* Compare a router's path set with a brute-force list (sorted by both). */
static int same_set(const tk_pathset_t *ps, blist_t *bl, double *wsum)
{
    blist_t got = {0};
    int ok_ = 1;
    *wsum = 0;
    for (int64_t i = 0; i < ps->npaths; i++) {
        int64_t len = ps->off[i + 1] - ps->off[i];
        if (len > BMAX) {
            free(got.p);
            return 0;
        }
        bl_push_via(&got, ps->arc + ps->off[i], (int)len, ps->w[i], ps->via[i], ps->phase2[i]);
        *wsum += ps->w[i];
    }
    qsort(got.p, (size_t)got.n, sizeof *got.p, bp_cmp);
    qsort(bl->p, (size_t)bl->n, sizeof *bl->p, bp_cmp);
    if (got.n != bl->n)
        ok_ = 0;
    for (int64_t i = 0; ok_ && i < got.n; i++)
        if (bp_cmp(&got.p[i], &bl->p[i]) != 0 || fabs(got.p[i].w - bl->p[i].w) > 1e-12 ||
            got.p[i].p2 != bl->p[i].p2)
            ok_ = 0;
    /* no draw listed twice */
    for (int64_t i = 1; ok_ && i < got.n; i++)
        if (bp_cmp(&got.p[i - 1], &got.p[i]) == 0)
            ok_ = 0;
    free(got.p);
    return ok_;
}

/* --- graphs ---------------------------------------------------------------- */
static tk_graph_t *from_edges(int n, const int (*e)[2], int m)
{
    tk_builder_t *b;
    tk_graph_t *g = NULL;
    if (tk_builder_new(&b, n, 0, NULL) != TK_OK)
        return NULL;
    for (int i = 0; i < m; i++)
        tk_builder_add(b, e[i][0], e[i][1], NULL);
    if (tk_builder_finish(b, &g, NULL) != TK_OK)
        return NULL;
    return g;
}

static tk_graph_t *petersen(void)
{
    static const int e[15][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 0}, {0, 5}, {1, 6}, {2, 7},
                                 {3, 8}, {4, 9}, {5, 7}, {7, 9}, {9, 6}, {6, 8}, {8, 5}};
    return from_edges(10, e, 15);
}

static tk_graph_t *gen(const char *what)
{
    tk_graph_t *g = NULL;
    if (!strcmp(what, "ring6"))
        tk_gen_ring(6, &g, NULL);
    else if (!strcmp(what, "ring5"))
        tk_gen_ring(5, &g, NULL);
    else if (!strcmp(what, "ring7"))
        tk_gen_ring(7, &g, NULL);
    else if (!strcmp(what, "K4"))
        tk_gen_complete(4, &g, NULL);
    else if (!strcmp(what, "cube3"))
        tk_gen_hypercube(3, &g, NULL);
    else if (!strcmp(what, "petersen"))
        g = petersen();
    else if (!strcmp(what, "rrg10"))
        tk_gen_rrg(10, 3, 7, 0, &g, NULL);
    else if (!strcmp(what, "torus33")) {
        int64_t sides[2] = {3, 3};
        tk_gen_grid(sides, 2, 1, &g, NULL);
    } else if (!strcmp(what, "df-a2h1"))
        tk_gen_dragonfly(1, 2, 1, 3, TK_ARR_RELATIVE, 1, 0, &g, NULL);
    else if (!strcmp(what, "df-a4h2"))
        tk_gen_dragonfly(2, 4, 2, 9, TK_ARR_RELATIVE, 1, 0, &g, NULL);
    return g;
}

static tk_router_t *router(const tk_graph_t *g, const char *text, tk_route_ws_t **ws)
{
    tk_route_spec_t sp;
    tk_router_t *r = NULL;
    tk_error_t err;
    if (tk_route_parse(text, &sp, &err) != TK_OK) {
        printf("# parse %s: %s\n", text, err.msg);
        return NULL;
    }
    if (tk_router_new(g, &sp, 1, 0, &r, &err) != TK_OK) {
        printf("# router %s: %s\n", text, err.msg);
        return NULL;
    }
    if (tk_route_ws_new(r, ws, &err) != TK_OK) {
        tk_router_free(r);
        return NULL;
    }
    return r;
}

/* --- parsing ---------------------------------------------------------------- */
static void test_parse(void)
{
    static const struct {
        const char *in, *canon;
    } good[] = {
        {"min", "min"},
        {"ecmp", "ecmp"},
        {"ksp:8", "ksp:8"},
        {"ksp:8,spread", "ksp:8,spread"},
        {"ksp:4,global=2,spread", "ksp:4,spread,global=2"},
        {"allpath:3", "allpath:3"},
        {"valiant", "valiant"},
        {"valiant,all", "valiant"},
        {"valiant,exclude", "valiant,exclude"},
        {"valiant,minfirst", "valiant,minfirst"},
        {"dragonfly-min", "dragonfly-min"},
        {"dragonfly-valiant", "dragonfly-valiant"},
        {"polarized", "polarized"},
        {"min,global=2", "min,global=2"},
        {"ecmp,local=3,global=2", "ecmp,global=2,local=3"},
        {"valiant,global=2,exclude", "valiant,exclude,global=2"},
    };
    static const char *bad[] = {"",
                                "foo",
                                "ksp",
                                "ksp:0",
                                "ksp:x",
                                "ksp:-1",
                                "allpath:",
                                "min:3",
                                "min,",
                                "min,,x=1",
                                "min,global=0",
                                "min,global=x",
                                "min,exclude",
                                "valiant,exclude,minfirst",
                                "min,a=1,a=2",
                                "allpath:2,global=2",
                                "valiant,global=1,dor", /* weights, then a model without */
                                "dragonfly-min,global=2",
                                "valiant,foo",
                                "min,spread",
                                "allpath:3,spread",
                                "ksp:3,spread,spread"};
    tk_route_spec_t sp;
    tk_error_t err;
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        tk_status_t st = tk_route_parse(good[i].in, &sp, &err);
        ok(st == TK_OK && !strcmp(sp.text, good[i].canon), "parse '%s' -> '%s' (got '%s')",
           good[i].in, good[i].canon, st == TK_OK ? sp.text : err.msg);
        /* canonical text parses to itself */
        tk_route_spec_t sp2;
        ok(st == TK_OK && tk_route_parse(sp.text, &sp2, NULL) == TK_OK &&
               !strcmp(sp2.text, sp.text),
           "canonical '%s' is a fixed point", good[i].canon);
    }
    tk_route_parse("ksp:8", &sp, NULL);
    is_int(sp.kind, TK_ROUTE_KSP, "ksp kind");
    is_int(sp.k, 8, "ksp K");
    tk_route_parse("ecmp,local=3,global=2", &sp, NULL);
    ok(sp.nweights == 2 && !strcmp(sp.wclass[0], "global") && sp.wlen[0] == 2 && sp.wlen[1] == 3,
       "weights sorted by class");
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tk_status_t st = tk_route_parse(bad[i], &sp, &err);
        ok(st == TK_EINVAL && (bad[i][0] == 0 || !strncmp(err.msg, bad[i], strlen(bad[i]))),
           "parse '%s' refused: %s", bad[i], err.msg);
    }
}

/* --- min and ecmp against brute force ------------------------------------- */
static void test_min_ecmp(const char *gname, const char *model, const char *wclass, int wlen)
{
    tk_graph_t *g = gen(gname);
    int clen[TK_MAX_CLASSES];
    const int *clen_by_name = NULL;
    if (wclass) {
        for (int c = 0; c < TK_MAX_CLASSES; c++)
            clen[c] = 1;
        clen[tk_graph_class_index(g, wclass)] = wlen;
        clen_by_name = clen;
    }
    tk_route_ws_t *ws = NULL;
    tk_router_t *r = router(g, model, &ws);
    int ecmp = !strncmp(model, "ecmp", 4);
    int H = g->n - 1;
    int *D, bad = 0, badw = 0, badc = 0, badsig = 0;
    blist_t bl = {0};
    tk_pathset_t ps;
    int32_t *dist = malloc((size_t)g->n * sizeof *dist);
    unsigned __int128 *sig = malloc((size_t)g->n * sizeof *sig);
    tk_id_t *q = malloc((size_t)g->n * sizeof *q);

    if (!r) {
        ok(0, "%s %s: router", gname, model);
        tk_graph_free(g);
        return;
    }
    D = bf_dist(g, clen_by_name, H);
    tk_pathset_init(&ps);
    for (tk_id_t s = 0; s < g->n; s++) {
        tk_sigma_from(g, s, dist, sig, q, NULL);
        for (tk_id_t t = 0; t < g->n; t++) {
            double wsum = 0;
            tk_route_count_t c = {0};
            bf_min(g, clen_by_name, s, t, H, &bl);
            if (ecmp)
                bf_ecmp(g, clen_by_name, D, t, &bl);
            if (tk_route_paths(r, ws, s, t, 0, &ps, NULL) != TK_OK || !same_set(&ps, &bl, &wsum))
                bad++;
            if (fabs(wsum - 1) > 1e-12)
                badw++;
            if (tk_route_count(r, ws, s, t, &c, NULL) != TK_OK || c.paths != (double)bl.n ||
                c.walks != c.paths)
                badc++;
            else {
                int mn = 1 << 30, mx = 0;
                double avg = 0;
                for (int64_t i = 0; i < bl.n; i++) {
                    mn = bl.p[i].len < mn ? bl.p[i].len : mn;
                    mx = bl.p[i].len > mx ? bl.p[i].len : mx;
                    avg += bl.p[i].w * bl.p[i].len;
                }
                if (c.min_len != mn || c.max_len != mx || fabs(c.avg_len - avg) > 1e-9)
                    badc++;
            }
            if (!clen_by_name && s != t && c.paths != (double)sig[t])
                badsig++;
        }
    }
    is_int(bad, 0, "%s %s: path sets and weights equal brute force (all pairs)", gname, model);
    is_int(badw, 0, "%s %s: weights sum to 1", gname, model);
    is_int(badc, 0, "%s %s: tk_route_count equals brute force (paths, lengths)", gname, model);
    if (!clen_by_name)
        is_int(badsig, 0, "%s %s: path counts equal sigma (tk_sigma_from)", gname, model);
    tk_pathset_destroy(&ps);
    free(bl.p);
    free(D);
    free(dist);
    free(sig);
    free(q);
    tk_route_ws_free(ws);
    tk_router_free(r);
    tk_graph_free(g);
}

/* ECMP on a 4-cycle with a chord-free detour: exact split fractions by hand.
 * Graph: 0-1, 0-2, 1-3, 2-3, 3-4, 2-4 (n=5).  From 0 to 4: d=2 via 2 (0-2-4)
 * only... use 0 -> 3 instead: shortest 0-1-3 and 0-2-3, ecmp 1/2 each; and
 * 0 -> 4: 0-2-4 unique (weight 1).  A graph where ecmp differs from min:
 * 0-1, 0-2, 1-3, 2-3, 2-5, 5-4?  Use the one below. */
static void test_ecmp_hand(void)
{
    /* s=0 has next hops 1 and 2 towards t=5; from 1 one path (1-3-5), from 2
     * two paths (2-3-5, 2-4-5).  min: 3 paths, 1/3 each.  ecmp: 0-1-3-5 gets
     * 1/2, 0-2-3-5 and 0-2-4-5 get 1/4. */
    static const int e[][2] = {{0, 1}, {0, 2}, {1, 3}, {2, 3}, {2, 4}, {3, 5}, {4, 5}};
    tk_graph_t *g = from_edges(6, e, 7);
    tk_route_ws_t *ws;
    tk_router_t *r = router(g, "ecmp", &ws);
    tk_pathset_t ps;
    tk_pathset_init(&ps);
    tk_route_paths(r, ws, 0, 5, 0, &ps, NULL);
    is_int(ps.npaths, 3, "ecmp hand: 3 paths 0->5");
    /* lexicographic order: 0-1-3-5, 0-2-3-5, 0-2-4-5 */
    ok(ps.npaths == 3 && g->head[ps.arc[ps.off[0]]] == 1 && g->head[ps.arc[ps.off[1] + 1]] == 3 &&
           g->head[ps.arc[ps.off[2] + 1]] == 4,
       "ecmp hand: lexicographic order");
    is_dbl(ps.w[0], 0.5, 0, "ecmp hand: 0-1-3-5 weight 1/2");
    is_dbl(ps.w[1], 0.25, 0, "ecmp hand: 0-2-3-5 weight 1/4");
    is_dbl(ps.w[2], 0.25, 0, "ecmp hand: 0-2-4-5 weight 1/4");
    tk_route_count_t c;
    tk_route_count(r, ws, 0, 5, &c, NULL);
    is_dbl(c.paths, 3, 0, "ecmp hand: count 3");
    is_dbl(c.avg_len, 3, 0, "ecmp hand: avg 3");
    tk_route_ws_free(ws);
    tk_router_free(r);
    r = router(g, "min", &ws);
    tk_route_paths(r, ws, 0, 5, 0, &ps, NULL);
    ok(ps.npaths == 3 && ps.w[0] == 1.0 / 3 && ps.w[1] == 1.0 / 3 && ps.w[2] == 1.0 / 3,
       "min hand: 1/3 each");
    /* s == t: one empty path */
    tk_route_paths(r, ws, 2, 2, 0, &ps, NULL);
    ok(ps.npaths == 1 && ps.off[1] == 0 && ps.w[0] == 1, "s == t: one empty path");
    /* errors */
    tk_error_t err;
    is_int(tk_route_paths(r, ws, 0, 6, 0, &ps, &err), TK_ERANGE, "pair out of range: ERANGE");
    is_int(tk_route_paths(r, ws, -1, 0, 0, &ps, &err), TK_ERANGE, "negative id: ERANGE");
    is_int(tk_route_paths(r, ws, 0, 5, 2, &ps, &err), TK_ELIMIT, "3 paths, max 2: ELIMIT");
    is_int(tk_route_paths(r, ws, 0, 5, 3, &ps, &err), TK_OK, "3 paths, max 3: ok");
    tk_pathset_destroy(&ps);
    tk_route_ws_free(ws);
    tk_router_free(r);
    tk_graph_free(g);
}

/* Closed forms: hypercube d! shortest paths between antipodes, counted
 * without enumeration on a 20-cube (20! > 2^53 is not exact: use 16). */
static void test_counts(void)
{
    tk_graph_t *g = NULL;
    tk_gen_hypercube(12, &g, NULL);
    tk_route_ws_t *ws;
    tk_router_t *r = router(g, "min", &ws);
    tk_route_count_t c;
    tk_error_t err;
    tk_pathset_t ps;
    tk_pathset_init(&ps);
    ok(tk_route_count(r, ws, 0, 4095, &c, NULL) == TK_OK && c.paths == 479001600.0 &&
           c.min_len == 12 && c.max_len == 12 && c.avg_len == 12,
       "12-cube antipodes: 12! = 479001600 minimal paths, length 12");
    is_int(tk_route_paths(r, ws, 0, 4095, 1000000, &ps, &err), TK_ELIMIT,
           "12-cube antipodes: enumeration refused with max 1e6 (%s)", err.msg);
    tk_route_ws_free(ws);
    tk_router_free(r);
    r = router(g, "ecmp", &ws);
    ok(tk_route_count(r, ws, 0, 4095, &c, NULL) == TK_OK && c.paths == 479001600.0 &&
           c.avg_len == 12,
       "12-cube ecmp: same paths");
    tk_route_ws_free(ws);
    tk_router_free(r);
    tk_graph_free(g);
    /* 6x6 mesh corner to corner: C(10,5) = 252 */
    int64_t sides[2] = {6, 6};
    tk_gen_grid(sides, 2, 0, &g, NULL);
    r = router(g, "min", &ws);
    ok(tk_route_count(r, ws, 0, 35, &c, NULL) == TK_OK && c.paths == 252,
       "6x6 mesh corners: C(10,5) = 252 paths");
    tk_route_paths(r, ws, 0, 35, 0, &ps, NULL);
    is_int(ps.npaths, 252, "6x6 mesh corners: 252 enumerated");
    tk_route_ws_free(ws);
    tk_router_free(r);
    tk_graph_free(g);
    tk_pathset_destroy(&ps);
}

/* --- brute-force definitions of the other models ---------------------------- */

/* ksp:K: every simple path sorted by (weighted length, rotated arc
 * sequence); the K first, uniform.  The rotation (topokit(7)): at switch u
 * the arc at position i of u's arcs has rank (i - rot) mod deg(u), with
 * rot = mix64((s << 32 | t) ^ mix64(u + golden)) mod deg(u); two paths of
 * equal length are compared at their first differing arc (both leave the
 * same switch there) by that rank. */
static const int *cmp_clen;
static const tk_graph_t *cmp_g;
static tk_id_t cmp_s, cmp_t;
static int64_t arc_rank(int64_t a)
{
    const tk_graph_t *g = cmp_g;
    tk_id_t u = 0;
    while (g->off[u + 1] <= a) /* tail of a (small graphs) */
        u++;
    int64_t deg = g->off[u + 1] - g->off[u], i = a - g->off[u];
    if (deg <= 1)
        return i;
    uint64_t h = tk_mix64(((uint64_t)(uint32_t)cmp_s << 32 | (uint32_t)cmp_t) ^
                          tk_mix64((uint64_t)(uint32_t)u + 0x9e3779b97f4a7c15u));
    int64_t r = (int64_t)(h % (uint64_t)deg);
    return ((i - r) % deg + deg) % deg;
}
static int ksp_cmp(const void *x, const void *y)
{
    const bpath_t *a = x, *b = y;
    int la = plen(cmp_g, cmp_clen, a), lb = plen(cmp_g, cmp_clen, b);
    if (la != lb)
        return la < lb ? -1 : 1;
    for (int i = 0; i < a->len && i < b->len; i++)
        if (a->a[i] != b->a[i]) {
            int64_t ra = arc_rank(a->a[i]), rb = arc_rank(b->a[i]);
            return ra < rb ? -1 : 1;
        }
    return (a->len > b->len) - (a->len < b->len);
}

/* Every simple s -> t path, in the order of ksp_cmp. */
static void bf_ksp_order(const tk_graph_t *g, const int *clen, tk_id_t s, tk_id_t t, blist_t *l)
{
    bf_simple(g, s, t, g->n - 1, l);
    cmp_g = g;
    cmp_clen = clen;
    cmp_s = s;
    cmp_t = t;
    qsort(l->p, (size_t)l->n, sizeof *l->p, ksp_cmp);
}

static void bf_ksp(const tk_graph_t *g, const int *clen, int K, tk_id_t s, tk_id_t t, blist_t *l)
{
    bf_ksp_order(g, clen, s, t, l);
    if (l->n > K)
        l->n = K;
    for (int64_t i = 0; i < l->n; i++)
        l->p[i].w = 1.0 / (double)l->n;
}

/* ksp:K,spread: the paths shorter than the K-th length of the sorted list
 * above, and of the paths of exactly that length the K - (shorter ones)
 * with the smallest (key, rank), key = mix64 chained over
 * ((s << 32 | t) ^ 0x5851f42d4c957f2d) and the arc ids (topokit(7)). */
static uint64_t spread_key(tk_id_t s, tk_id_t t, const bpath_t *p)
{
    uint64_t k = tk_mix64(((uint64_t)(uint32_t)s << 32 | (uint32_t)t) ^ 0x5851f42d4c957f2du);
    for (int i = 0; i < p->len; i++)
        k = tk_mix64(k ^ (uint64_t)p->a[i]);
    return k;
}

static void bf_ksp_spread(const tk_graph_t *g, int K, tk_id_t s, tk_id_t t, blist_t *l)
{
    bf_ksp_order(g, NULL, s, t, l);
    if (l->n > K) {
        int LK = plen(g, NULL, &l->p[K - 1]);
        int64_t lo = 0, hi = 0, keep = 0;
        while (plen(g, NULL, &l->p[lo]) < LK)
            lo++;
        hi = lo;
        while (hi < l->n && plen(g, NULL, &l->p[hi]) == LK)
            hi++;
        /* selection by (key, rank) among the ties [lo, hi): K - lo of them */
        for (int64_t kept = 0; kept < K - lo; kept++) {
            int64_t b = -1;
            for (int64_t i = lo + kept; i < hi; i++)
                if (b < 0 || spread_key(s, t, &l->p[i]) < spread_key(s, t, &l->p[b]))
                    b = i;
            bpath_t tmp = l->p[lo + kept];
            l->p[lo + kept] = l->p[b];
            l->p[b] = tmp;
            /* keep the rank order of the rest: re-sort the tail */
            qsort(l->p + lo + kept + 1, (size_t)(hi - lo - kept - 1), sizeof *l->p, ksp_cmp);
            keep = lo + kept + 1;
        }
        l->n = keep;
    }
    for (int64_t i = 0; i < l->n; i++)
        l->p[i].w = 1.0 / (double)l->n;
}

static void bf_allpath(const tk_graph_t *g, int H, tk_id_t s, tk_id_t t, blist_t *l)
{
    bf_simple(g, s, t, H, l);
    for (int64_t i = 0; i < l->n; i++)
        l->p[i].w = 1.0 / (double)l->n;
}

static tk_id_t tail_of(const tk_graph_t *g, int64_t a)
{
    tk_id_t u = 0;
    while (g->off[u + 1] <= a)
        u++;
    return u;
}

/* polarized: simple paths on which D(s,x) - D(x,t) strictly increases at
 * every hop. */
static void bf_polar(const tk_graph_t *g, const int *D, tk_id_t s, tk_id_t t, blist_t *l)
{
    blist_t all = {0};
    int n = g->n;
    bf_simple(g, s, t, n - 1, &all);
    l->n = 0;
    for (int64_t i = 0; i < all.n; i++) {
        int good = 1;
        for (int k = 0; k < all.p[i].len && good; k++) {
            int64_t a = all.p[i].a[k];
            tk_id_t u = tail_of(g, a), v = g->head[a];
            if (D[s * n + v] - D[v * n + t] <= D[s * n + u] - D[u * n + t])
                good = 0;
        }
        if (good)
            bl_push(l, all.p[i].a, all.p[i].len, 0);
    }
    for (int64_t i = 0; i < l->n; i++)
        l->p[i].w = 1.0 / (double)l->n;
    free(all.p);
}

/* valiant: concatenations of brute-force shortest paths through every m,
 * one per draw (m, P1, P2), via m, second phase from hop |P1| (minfirst:
 * the draws m = s and m = t wholly in the first phase). */
static void bf_valiant(const tk_graph_t *g, int excl, int minfirst, tk_id_t s, tk_id_t t,
                       blist_t *l)
{
    blist_t a = {0}, b = {0};
    int n = g->n;
    l->n = 0;
    if (s == t) {
        bf_min(g, NULL, s, t, n - 1, l);
        return;
    }
    for (tk_id_t m = 0; m < n; m++) {
        if (excl && (m == s || m == t))
            continue;
        bf_min(g, NULL, s, m, n - 1, &a);
        bf_min(g, NULL, m, t, n - 1, &b);
        for (int64_t i = 0; i < a.n; i++)
            for (int64_t j = 0; j < b.n; j++) {
                int64_t c[BMAX];
                memcpy(c, a.p[i].a, (size_t)a.p[i].len * sizeof *c);
                memcpy(c + a.p[i].len, b.p[j].a, (size_t)b.p[j].len * sizeof *c);
                int len = a.p[i].len + b.p[j].len;
                int p2 = minfirst && (m == s || m == t) ? len : a.p[i].len;
                bl_push_via(l, c, len, a.p[i].w * b.p[j].w / (excl ? n - 2 : n), m, p2);
            }
    }
    free(a.p);
    free(b.p);
}

/* dragonfly-min on canonical Dragonflies (complete groups): simple paths of
 * at most 3 hops that are one direct local hop (same group), or [local hop
 * inside the source group] + one global hop into the destination group +
 * [local hop inside it], with weight 1 / (number of global arcs between
 * the two groups). */
static void bf_dfmin(const tk_graph_t *g, tk_id_t s, tk_id_t t, blist_t *l)
{
    blist_t all = {0};
    int gl = tk_graph_class_index(g, "global");
    int A = g->group[s], B = g->group[t];
    int k = 0;
    l->n = 0;
    if (s == t) {
        bl_push(l, NULL, 0, 1);
        return;
    }
    for (int64_t a = 0; a < g->m; a++)
        if (g->cls[a] == gl && g->group[tail_of(g, a)] == A && g->group[g->head[a]] == B)
            k++;
    bf_simple(g, s, t, 3, &all);
    for (int64_t i = 0; i < all.n; i++) {
        bpath_t *p = &all.p[i];
        int ng = 0, gpos = -1, good = 1;
        for (int j = 0; j < p->len; j++)
            if (g->cls[p->a[j]] == gl) {
                ng++;
                gpos = j;
            }
        if (A == B)
            good = ng == 0 && p->len == 1;
        else {
            good = ng == 1 && gpos <= 1 && p->len - gpos - 1 <= 1;
            /* local hops stay in their group */
            for (int j = 0; j < p->len && good; j++)
                if (j != gpos && g->group[tail_of(g, p->a[j])] != g->group[g->head[p->a[j]]])
                    good = 0;
        }
        if (good)
            bl_push(l, p->a, p->len, A == B ? 1.0 : 1.0 / k);
    }
    free(all.p);
}

static void bf_dfval(const tk_graph_t *g, tk_id_t s, tk_id_t t, blist_t *l)
{
    blist_t a = {0}, b = {0};
    int nm = 0;
    l->n = 0;
    if (s == t) {
        bl_push(l, NULL, 0, 1);
        return;
    }
    for (tk_id_t m = 0; m < g->n; m++)
        if (g->group[m] != g->group[s] && g->group[m] != g->group[t])
            nm++;
    for (tk_id_t m = 0; m < g->n; m++) {
        if (g->group[m] == g->group[s] || g->group[m] == g->group[t])
            continue;
        bf_dfmin(g, s, m, &a);
        bf_dfmin(g, m, t, &b);
        for (int64_t i = 0; i < a.n; i++)
            for (int64_t j = 0; j < b.n; j++) {
                int64_t c[BMAX];
                memcpy(c, a.p[i].a, (size_t)a.p[i].len * sizeof *c);
                memcpy(c + a.p[i].len, b.p[j].a, (size_t)b.p[j].len * sizeof *c);
                bl_push_via(l, c, a.p[i].len + b.p[j].len, a.p[i].w * b.p[j].w / nm, m, a.p[i].len);
            }
    }
    free(a.p);
    free(b.p);
}

/* The brute force of one model for pair (s, t); D: brute-force distances
 * (polarized only). */
typedef void (*bf_fn)(const tk_graph_t *g, const tk_route_spec_t *sp, const int *D, tk_id_t s,
                      tk_id_t t, blist_t *l);

static void bfm_ksp(const tk_graph_t *g, const tk_route_spec_t *sp, const int *D, tk_id_t s,
                    tk_id_t t, blist_t *l)
{
    (void)D;
    if (sp->spread)
        bf_ksp_spread(g, sp->k, s, t, l);
    else
        bf_ksp(g, NULL, sp->k, s, t, l);
}

static void bfm_allpath(const tk_graph_t *g, const tk_route_spec_t *sp, const int *D, tk_id_t s,
                        tk_id_t t, blist_t *l)
{
    (void)D;
    bf_allpath(g, sp->h, s, t, l);
}

static void bfm_polar(const tk_graph_t *g, const tk_route_spec_t *sp, const int *D, tk_id_t s,
                      tk_id_t t, blist_t *l)
{
    (void)sp;
    bf_polar(g, D, s, t, l);
}

static void bfm_valiant(const tk_graph_t *g, const tk_route_spec_t *sp, const int *D, tk_id_t s,
                        tk_id_t t, blist_t *l)
{
    (void)D;
    bf_valiant(g, sp->valiant == TK_VALIANT_EXCLUDE, sp->valiant == TK_VALIANT_MINFIRST, s, t, l);
}

static void bfm_dfmin(const tk_graph_t *g, const tk_route_spec_t *sp, const int *D, tk_id_t s,
                      tk_id_t t, blist_t *l)
{
    (void)sp;
    (void)D;
    bf_dfmin(g, s, t, l);
}

static void bfm_dfval(const tk_graph_t *g, const tk_route_spec_t *sp, const int *D, tk_id_t s,
                      tk_id_t t, blist_t *l)
{
    (void)sp;
    (void)D;
    bf_dfval(g, s, t, l);
}

/* tk_route_count against the brute-force list: paths, distinct walks,
 * lengths.  Returns 1 when they agree. */
static int count_agrees(const tk_route_count_t *c, const blist_t *bl)
{
    int mn = 1 << 30, mx = 0;
    double avg = 0;
    if (c->paths != (double)bl->n || c->walks != (double)bl_walks(bl))
        return 0;
    for (int64_t i = 0; i < bl->n; i++) {
        mn = bl->p[i].len < mn ? bl->p[i].len : mn;
        mx = bl->p[i].len > mx ? bl->p[i].len : mx;
        avg += bl->p[i].w * bl->p[i].len;
    }
    return c->min_len == mn && c->max_len == mx && fabs(c->avg_len - avg) <= 1e-9;
}

/* Compare a model with its brute force over all pairs (or pairs s < lim). */
static void test_model(const char *gname, const char *model, int lim, bf_fn bf)
{
    tk_graph_t *g = gen(gname);
    tk_route_ws_t *ws = NULL;
    tk_router_t *r = router(g, model, &ws);
    int *D = NULL, bad = 0, badw = 0, badc = 0, nodisc = 0;
    blist_t bl = {0};
    tk_pathset_t ps;
    tk_route_spec_t sp;

    if (!r) {
        ok(0, "%s %s: router", gname, model);
        tk_graph_free(g);
        return;
    }
    tk_route_parse(model, &sp, NULL);
    if (bf == bfm_polar)
        D = bf_dist(g, NULL, g->n - 1);
    tk_pathset_init(&ps);
    for (tk_id_t s = 0; s < g->n && s < lim; s++)
        for (tk_id_t t = 0; t < g->n; t++) {
            double wsum = 0;
            tk_route_count_t c = {0};
            bf(g, &sp, D, s, t, &bl);
            if (bl.n == 0) { /* no route (allpath:H beyond H): EDISCONNECTED */
                nodisc++;
                if (tk_route_paths(r, ws, s, t, 0, &ps, NULL) != TK_EDISCONNECTED ||
                    tk_route_count(r, ws, s, t, &c, NULL) != TK_EDISCONNECTED)
                    bad++;
                continue;
            }
            if (tk_route_paths(r, ws, s, t, 0, &ps, NULL) != TK_OK || !same_set(&ps, &bl, &wsum))
                bad++;
            if (fabs(wsum - 1) > 1e-12)
                badw++;
            if (tk_route_count(r, ws, s, t, &c, NULL) != TK_OK || !count_agrees(&c, &bl))
                badc++;
        }
    if (nodisc)
        tap_diag("%s %s: %d pairs without a route checked for EDISCONNECTED", gname, model, nodisc);
    is_int(bad, 0, "%s %s: path sets, weights, intermediates and phases equal brute force", gname,
           model);
    is_int(badw, 0, "%s %s: weights sum to 1", gname, model);
    is_int(badc, 0, "%s %s: tk_route_count (paths, walks, lengths) equals brute force", gname,
           model);
    tk_pathset_destroy(&ps);
    free(bl.p);
    free(D);
    tk_route_ws_free(ws);
    tk_router_free(r);
    tk_graph_free(g);
}

/* Hand counts. */
static void count_is(const char *gname, const char *model, tk_id_t s, tk_id_t t, double paths,
                     double walks, int mn, int mx, double avg, const char *what)
{
    tk_graph_t *g = gen(gname);
    tk_route_ws_t *ws = NULL;
    tk_router_t *r = router(g, model, &ws);
    tk_route_count_t c = {0};
    tk_status_t st = r ? tk_route_count(r, ws, s, t, &c, NULL) : TK_EINTERNAL;
    ok(st == TK_OK && c.paths == paths && c.walks == walks && c.min_len == mn && c.max_len == mx &&
           fabs(c.avg_len - avg) < 1e-12,
       "%s %s %d->%d: %s (got %.0f paths, %.0f walks, len %d..%d avg %g)", gname, model, s, t, what,
       c.paths, c.walks, c.min_len, c.max_len, c.avg_len);
    tk_route_ws_free(ws);
    tk_router_free(r);
    tk_graph_free(g);
}

static void test_hand(void)
{
    /* Ring C6 (0-1-2-3-4-5-0), valiant, pair 0 -> 1, one path per draw:
     * m = 0 and m = 1 give the direct hop; m = 2: 0-1-2-1; m = 3: 0-1-2-3-2-1
     * and 0-5-4-3-2-1 (1/12 each); m = 4: 0-5-4-3-2-1 again and 0-5-4-5-0-1
     * (1/12 each); m = 5: 0-5-0-1.  8 paths, 6 distinct walks, lengths
     * 1..5; mean length = mean over m of d(0,m) + d(m,1) =
     * (1+1+3+5+5+3)/6 = 3. */
    count_is("ring6", "valiant", 0, 1, 8, 6, 1, 5, 3.0, "hand count 8 paths, 6 walks, mean 3");
    /* exclude: m in {2,3,4,5}: 0-1-2-1, the four 5-hop draws, 0-5-0-1:
     * 6 paths, 5 walks, mean (3+5+5+3)/4 = 4. */
    count_is("ring6", "valiant,exclude", 0, 1, 6, 5, 3, 5, 4.0,
             "hand count 6 paths, 5 walks, mean 4");
    count_is("ring6", "valiant,minfirst", 0, 1, 8, 6, 1, 5, 3.0, "minfirst = all");
    /* Polarized on C5, 0 -> 2: f(x) = d(0,x) - d(x,2) is -2,0,2,1,-1 for
     * x = 0..4, so 0-1-2 and 0-4-3-2 (f: -2,-1,1,2): 2 paths, mean 2.5. */
    count_is("ring5", "polarized", 0, 2, 2, 2, 2, 3, 2.5, "hand count 2 paths (one non-minimal)");
    /* C6, 0 -> 3 (antipodes): f = -3,-1,1,3,1,-1: the two minimal paths. */
    count_is("ring6", "polarized", 0, 3, 2, 2, 3, 3, 3.0, "antipodes: the 2 minimal paths");
    /* C6, 0 -> 1: f(5) = f(0) = -1: only the direct hop. */
    count_is("ring6", "polarized", 0, 1, 1, 1, 1, 1, 1.0, "neighbour: direct hop only");
    /* 3x3 torus, 0 = (0,0) -> 4 = (1,1): per coordinate c, d(0,.) - d(.,4)
     * contributes -1 (c = 0), 0 (c = 2), +1 (c = 1), and a hop changes one
     * coordinate to any other value, so every coordinate goes 0-1 or
     * 0-2-1, interleaved: C(2,1) + 2 C(3,1) + C(4,2) = 2 + 6 + 6 = 14 paths
     * of lengths 2, 3, 4; mean (2*2 + 6*3 + 6*4)/14 = 46/14. */
    count_is("torus33", "polarized", 0, 4, 14, 14, 2, 4, 46.0 / 14, "hand count 14 paths");
    /* Dragonfly a=2 h=1 g=3 (relative): links 0-1, 2-3, 4-5 (local) and
     * 0-3, 1-4, 2-5 (global): the 6-cycle 0-1-4-5-2-3-0.  dragonfly-valiant
     * 0 -> 3 (groups 0 -> 1): m in group 2 = {4, 5}; 0->4 is 0-1-4, 4->3 is
     * 4-5-2-3; 0->5 is 0-1-4-5 (enter group 2 at 4, then local), 5->3 is
     * 5-2-3: the same walk 0-1-4-5-2-3 both times: 2 paths (one per
     * intermediate), 1 walk of 5 hops. */
    count_is("df-a2h1", "dragonfly-valiant", 0, 3, 2, 1, 5, 5, 5.0, "hand count 2 paths, 1 walk");
    count_is("df-a2h1", "dragonfly-min", 0, 3, 1, 1, 1, 1, 1.0, "direct global link");
    count_is("df-a2h1", "dragonfly-min", 0, 2, 1, 1, 2, 2, 2.0, "global then local");
    /* Dragonfly a=4 h=2 g=9 (relative, one global link per group pair;
     * router i of group j links to groups j+2i+1 and j+2i+2).  s = 0
     * (router 0, group 0), t = 4 (router 0, group 1).  For each of the 7
     * other groups C the walk enters C at router v (linked to group 0) and
     * leaves from router w (linked to group 1); the 4 intermediates of C
     * give 4 paths (one per intermediate): if v == w: m = v (no local hop)
     * and 3 walks v-m-v: 4 walks; if v != w: m = v and m = w give the same
     * walk v-w, the 2 others v-m-w: 3 walks.  Offsets (0-C, 1-C) mod 9 for
     * C = 2..8: (7,8) same router, (6,7) differ, (5,6) same, (4,5) differ,
     * (3,4) same, (2,3) differ, (1,2) same: 4+3+4+3+4+3+4 = 25 walks, 28
     * paths. */
    {
        tk_graph_t *g = gen("df-a4h2");
        tk_route_ws_t *ws = NULL;
        tk_router_t *r = router(g, "dragonfly-valiant", &ws);
        tk_route_count_t c = {0};
        ok(r && tk_route_count(r, ws, 0, 4, &c, NULL) == TK_OK && c.paths == 28 && c.walks == 25,
           "df a=4 h=2 g=9 dragonfly-valiant 0->4: hand count 28 paths, 25 walks (got %.0f, %.0f)",
           c.paths, c.walks);
        ok(c.max_len <= 6, "df a=4 h=2: Valiant paths have at most 6 hops (lgl-lgl)");
        tk_route_ws_free(ws);
        tk_router_free(r);
        r = router(g, "dragonfly-min", &ws);
        int worst = 0, badc = 0;
        for (tk_id_t s = 0; s < g->n; s++)
            for (tk_id_t t = 0; t < g->n; t++) {
                if (tk_route_count(r, ws, s, t, &c, NULL) != TK_OK || c.paths != 1)
                    badc++;
                if (c.max_len > worst)
                    worst = c.max_len;
            }
        is_int(badc, 0, "df a=4 h=2 g=9 dragonfly-min: one path per pair (max size)");
        is_int(worst, 3, "df a=4 h=2 g=9 dragonfly-min: at most 3 hops (lgl)");
        tk_route_ws_free(ws);
        tk_router_free(r);
        tk_graph_free(g);
    }
}

/* Trunking: a=4 h=2 g=5 has l = ah/(g-1) = 2 global links per group pair:
 * dragonfly-min splits evenly over the two global links. */
static void test_trunk(void)
{
    tk_graph_t *g = NULL;
    tk_gen_dragonfly(1, 4, 2, 5, TK_ARR_PALMTREE, 1, 0, &g, NULL);
    tk_route_ws_t *ws;
    tk_router_t *r = router(g, "dragonfly-min", &ws);
    tk_pathset_t ps;
    int gl = tk_graph_class_index(g, "global"), bad = 0;
    tk_pathset_init(&ps);
    for (tk_id_t s = 0; s < g->n; s++)
        for (tk_id_t t = 0; t < g->n; t++) {
            if (g->group[s] == g->group[t])
                continue;
            if (tk_route_paths(r, ws, s, t, 0, &ps, NULL) != TK_OK || ps.npaths != 2)
                bad++;
            else
                for (int i = 0; i < 2; i++) {
                    int ng = 0;
                    for (int64_t k = ps.off[i]; k < ps.off[i + 1]; k++)
                        ng += g->cls[ps.arc[k]] == gl;
                    if (ng != 1 || ps.w[i] != 0.5)
                        bad++;
                }
        }
    is_int(bad, 0, "df a=4 h=2 g=5 (2 global links per group pair): 2 lgl paths, 1/2 each");
    tk_pathset_destroy(&ps);
    tk_route_ws_free(ws);
    tk_router_free(r);
    tk_graph_free(g);
}

/* Refusals. */
/* ksp:K,spread against ksp:K on a graph too large for brute force: the
 * same number of paths and the same lengths for every pair (only the
 * choice among the ties at the K-th length differs), distinct simple
 * paths; ties beyond RT_SPREAD_MAX refused. */
static void test_spread(void)
{
    tk_graph_t *g = NULL;
    tk_route_ws_t *w1, *w2;
    tk_gen_rrg(60, 6, 3, 0, &g, NULL);
    tk_router_t *r1 = router(g, "ksp:6", &w1), *r2 = router(g, "ksp:6,spread", &w2);
    tk_pathset_t ps;
    int badc = 0, bads = 0, differ = 0;
    tk_pathset_init(&ps);
    for (tk_id_t s = 0; s < g->n; s++)
        for (tk_id_t t = 0; t < g->n; t++) {
            tk_route_count_t a, b;
            if (s == t)
                continue;
            if (tk_route_count(r1, w1, s, t, &a, NULL) || tk_route_count(r2, w2, s, t, &b, NULL) ||
                a.paths != b.paths || a.min_len != b.min_len || a.max_len != b.max_len ||
                fabs(a.avg_len - b.avg_len) > 1e-12)
                badc++;
            /* distinct simple s -> t paths */
            tk_route_paths(r2, w2, s, t, 0, &ps, NULL);
            for (int64_t i = 0; i < ps.npaths; i++) {
                uint8_t seen[60] = {0};
                tk_id_t u = s;
                seen[s] = 1;
                for (int64_t x = ps.off[i]; x < ps.off[i + 1]; x++) {
                    if (tail_of(g, ps.arc[x]) != u || seen[g->head[ps.arc[x]]])
                        bads++;
                    u = g->head[ps.arc[x]];
                    seen[u] = 1;
                }
                if (u != t)
                    bads++;
                for (int64_t j = 0; j < i; j++)
                    if (ps.off[j + 1] - ps.off[j] == ps.off[i + 1] - ps.off[i] &&
                        !memcmp(ps.arc + ps.off[j], ps.arc + ps.off[i],
                                (size_t)(ps.off[i + 1] - ps.off[i]) * sizeof *ps.arc))
                        bads++;
            }
            tk_pathset_t p1;
            tk_pathset_init(&p1);
            tk_route_paths(r1, w1, s, t, 0, &p1, NULL);
            differ += p1.off[p1.npaths] != ps.off[ps.npaths] ||
                      memcmp(p1.arc, ps.arc, (size_t)ps.off[ps.npaths] * sizeof *ps.arc) != 0;
            tk_pathset_destroy(&p1);
        }
    is_int(badc, 0, "rrg(60,6) ksp:6,spread: paths and lengths of ksp:6 for every pair");
    is_int(bads, 0, "rrg(60,6) ksp:6,spread: distinct simple s->t paths");
    ok(differ > 0, "rrg(60,6): spread chooses other ties than ksp:6 for %d pairs", differ);
    tk_route_ws_free(w1);
    tk_route_ws_free(w2);
    tk_router_free(r1);
    tk_router_free(r2);
    tk_graph_free(g);
    /* 12-cube antipodes: 12! ties of length 12 */
    tk_gen_hypercube(12, &g, NULL);
    tk_error_t err;
    r2 = router(g, "ksp:1,spread", &w2);
    is_int(tk_route_paths(r2, w2, 0, 4095, 0, &ps, &err), TK_ELIMIT,
           "12-cube antipodes ksp:1,spread: more than 1e6 ties refused (%s)", err.msg);
    is_int(tk_route_paths(r2, w2, 0, 3, 0, &ps, &err), TK_OK, "12-cube distance 2: ok");
    is_int(ps.npaths, 1, "12-cube distance 2 ksp:1,spread: one path");
    tk_route_ws_free(w2);
    tk_router_free(r2);
    tk_graph_free(g);
    tk_pathset_destroy(&ps);
}

static void test_refuse(void)
{
    tk_graph_t *g = gen("petersen");
    tk_route_spec_t sp;
    tk_router_t *r = NULL;
    tk_error_t err;
    tk_route_parse("dragonfly-min", &sp, NULL);
    is_int(tk_router_new(g, &sp, 1, 0, &r, &err), TK_EUNSUPPORTED,
           "dragonfly-min on Petersen: EUNSUPPORTED (%s)", err.msg);
    ok(strstr(err.msg, "no groups") != NULL, "message names the missing groups");
    tk_route_parse("min,global=2", &sp, NULL);
    is_int(tk_router_new(g, &sp, 1, 0, &r, &err), TK_EUNSUPPORTED,
           "min,global=2 on Petersen: EUNSUPPORTED (%s)", err.msg);
    tk_graph_free(g);
    /* disconnected */
    static const int e[][2] = {{0, 1}, {2, 3}};
    g = from_edges(4, e, 2);
    tk_route_parse("min", &sp, NULL);
    is_int(tk_router_new(g, &sp, 1, 0, &r, &err), TK_EDISCONNECTED,
           "two components: EDISCONNECTED (%s)", err.msg);
    tk_graph_free(g);
    /* fat tree has groups but no class global */
    g = NULL;
    tk_gen_dfplus(2, 2, 1, 1, 3, TK_ARR_PALMTREE, 1, 0, &g, NULL);
    tk_route_parse("dragonfly-valiant", &sp, NULL);
    ok(g && tk_router_new(g, &sp, 1, 0, &r, &err) == TK_OK, "dragonfly+ accepted");
    tk_router_free(r);
    tk_graph_free(g);
}

/* Canonical Dragonflies, dragonfly-valiant: with one global link per
 * group pair (a=8 h=4 g=33) every pair of routers in different groups has
 * one path per intermediate, 264 - 16 = 248 of weight 1/248; with four
 * (g=9) 4 x 4 per intermediate, 56 x 16 = 896 of weight 1/896.  Each path
 * names its intermediate (outside both groups), reaches it at hop phase2,
 * and every intermediate has the same number of paths.  Sources: every
 * router of g=9, the routers of the first three groups of g=33. */
static void test_dfv_census(void)
{
    static const struct {
        int64_t g, nsrc;
        int64_t paths, per_via;
    } cases[] = {{33, 24, 248, 1}, {9, 72, 896, 16}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        tk_graph_t *g = NULL;
        tk_gen_dragonfly(4, 8, 4, cases[c].g, TK_ARR_PALMTREE, 1, 0, &g, NULL);
        tk_route_ws_t *ws = NULL;
        tk_router_t *r = g ? router(g, "dragonfly-valiant", &ws) : NULL;
        tk_pathset_t ps;
        int64_t pairs = 0, bad = 0;
        int *cnt = calloc((size_t)(g ? g->n : 1), sizeof *cnt);
        double want = 1.0 / (double)cases[c].paths;
        tk_pathset_init(&ps);
        for (tk_id_t s = 0; r && s < cases[c].nsrc; s++)
            for (tk_id_t t = 0; t < g->n; t++) {
                if (g->group[s] == g->group[t])
                    continue;
                pairs++;
                if (tk_route_paths(r, ws, s, t, 0, &ps, NULL) != TK_OK ||
                    ps.npaths != cases[c].paths) {
                    bad++;
                    continue;
                }
                memset(cnt, 0, (size_t)g->n * sizeof *cnt);
                for (int64_t i = 0; i < ps.npaths; i++) {
                    tk_id_t m = ps.via[i];
                    int64_t p2 = ps.phase2[i], hops = ps.off[i + 1] - ps.off[i];
                    if (ps.w[i] != want || m < 0 || g->group[m] == g->group[s] ||
                        g->group[m] == g->group[t] || p2 < 1 || p2 >= hops ||
                        g->head[ps.arc[ps.off[i] + p2 - 1]] != m) {
                        bad++;
                        break;
                    }
                    cnt[m]++;
                }
                for (tk_id_t m = 0; m < g->n; m++)
                    if (g->group[m] != g->group[s] && g->group[m] != g->group[t] &&
                        cnt[m] != cases[c].per_via)
                        bad++;
            }
        ok(r && pairs > 0 && bad == 0,
           "dfly(4,8,4,%lld) dragonfly-valiant: %lld pairs in different groups, each %lld paths "
           "of weight 1/%lld, %lld per intermediate, via and phase2 right (%lld bad)",
           (long long)cases[c].g, (long long)pairs, (long long)cases[c].paths,
           (long long)cases[c].paths, (long long)cases[c].per_via, (long long)bad);
        free(cnt);
        tk_pathset_destroy(&ps);
        tk_route_ws_free(ws);
        tk_router_free(r);
        tk_graph_free(g);
    }
}

/* tk_pathset_merge_walks: the Valiant draws of C6 0 -> 1 merge into the 6
 * walks of the hand count, weights added (the three 5-hop walks keep 1/12,
 * 0-5-4-3-2-1 gets 1/6 from its two draws); a merged walk whose draws
 * disagree has no intermediate. */
static void test_merge_walks(void)
{
    tk_graph_t *g = gen("ring6");
    tk_route_ws_t *ws = NULL;
    tk_router_t *r = router(g, "valiant", &ws);
    tk_pathset_t ps;
    tk_pathset_init(&ps);
    tk_route_paths(r, ws, 0, 1, 0, &ps, NULL);
    is_int(ps.npaths, 8, "ring6 valiant 0->1: 8 draws");
    ok(tk_pathset_merge_walks(&ps, NULL) == TK_OK && ps.npaths == 6, "merged: 6 walks");
    double sum = 0;
    int two = -1;
    for (int64_t i = 0; i < ps.npaths; i++) {
        sum += ps.w[i];
        if (ps.off[i + 1] - ps.off[i] == 5 && g->head[ps.arc[ps.off[i]]] == 5 &&
            g->head[ps.arc[ps.off[i] + 1]] == 4 && g->head[ps.arc[ps.off[i] + 2]] == 3)
            two = (int)i;
    }
    ok(fabs(sum - 1) < 1e-15, "merged weights sum to 1");
    ok(two >= 0 && fabs(ps.w[two] - 1.0 / 6) < 1e-15 && ps.via[two] == -1 && ps.phase2[two] == -1,
       "0-5-4-3-2-1: weight 1/12 + 1/12, its draws (m = 3, 4) disagree: no intermediate");
    ok(ps.off[1] - ps.off[0] == 1 && ps.via[0] == -1 && fabs(ps.w[0] - 1.0 / 3) < 1e-15,
       "0-1: the draws m = 0 and m = 1 (phases differ) merge to 1/3, no intermediate");
    tk_pathset_destroy(&ps);
    tk_route_ws_free(ws);
    tk_router_free(r);
    tk_graph_free(g);
}

/* tk_route_candidates against the path sets: for valiant, the minimal
 * candidates are min's paths and group m holds the draws through m with
 * their weights times n (the probability of m), for every m but s and t;
 * for dragonfly-valiant, min is dragonfly-min and the groups are the
 * routers outside both groups; models without intermediates give their
 * own paths and no group.  Hop counts per class add up to each path's
 * length, and on a Dragonfly every non-minimal candidate between
 * different groups takes exactly 2 global hops. */
static int same_paths(const tk_pathset_t *a, int64_t a0, const tk_pathset_t *b, int64_t b0,
                      int64_t n, double scale)
{
    for (int64_t i = 0; i < n; i++) {
        int64_t la = a->off[a0 + i + 1] - a->off[a0 + i], lb = b->off[b0 + i + 1] - b->off[b0 + i];
        if (la != lb ||
            memcmp(a->arc + a->off[a0 + i], b->arc + b->off[b0 + i], (size_t)la * sizeof *a->arc) !=
                0 ||
            fabs(a->w[a0 + i] * scale - b->w[b0 + i]) > 1e-15 || a->via[a0 + i] != b->via[b0 + i])
            return 0;
    }
    return 1;
}

/* Append path i of src to dst with its weight times scale (test-local). */
static void ps_add(tk_pathset_t *dst, const tk_pathset_t *src, int64_t i, double scale)
{
    int64_t len = src->off[i + 1] - src->off[i], base = dst->npaths ? dst->off[dst->npaths] : 0;
    int64_t np = dst->npaths + 1;
    dst->off = realloc(dst->off, (size_t)(np + 1) * sizeof *dst->off);
    dst->arc = realloc(dst->arc, (size_t)(base + len + 1) * sizeof *dst->arc);
    dst->w = realloc(dst->w, (size_t)np * sizeof *dst->w);
    dst->via = realloc(dst->via, (size_t)np * sizeof *dst->via);
    dst->phase2 = realloc(dst->phase2, (size_t)np * sizeof *dst->phase2);
    if (!dst->off || !dst->arc || !dst->w || !dst->via || !dst->phase2)
        abort();
    dst->off[0] = 0;
    memcpy(dst->arc + base, src->arc + src->off[i], (size_t)len * sizeof *dst->arc);
    dst->w[np - 1] = src->w[i] * scale;
    dst->via[np - 1] = src->via[i];
    dst->phase2[np - 1] = src->phase2[i];
    dst->off[np] = base + len;
    dst->npaths = np;
    dst->cap_paths = np;
    dst->cap_arcs = base + len;
}

static void test_candidates(const char *gname, const char *model, const char *minmodel)
{
    tk_graph_t *g = gen(gname);
    tk_route_ws_t *ws = NULL, *wm = NULL;
    tk_router_t *r = router(g, model, &ws), *rm = router(g, minmodel, &wm);
    tk_route_cands_t c;
    tk_pathset_t mp, all;
    int bad = 0, badh = 0, badg = 0;
    int gl = tk_graph_class_index(g, "global");
    tk_route_spec_t sp;
    tk_route_parse(model, &sp, NULL);
    int two_phase = !strncmp(model, "valiant", 7) || !strcmp(model, "dragonfly-valiant");
    tk_route_cands_init(&c);
    tk_pathset_init(&mp);
    tk_pathset_init(&all);
    for (tk_id_t s = 0; r && rm && s < g->n; s++)
        for (tk_id_t t = 0; t < g->n; t++) {
            if (tk_route_candidates(r, ws, s, t, 0, &c, NULL) != TK_OK ||
                tk_route_paths(rm, wm, s, t, 0, &mp, NULL) != TK_OK ||
                tk_route_paths(r, ws, s, t, 0, &all, NULL) != TK_OK) {
                bad++;
                continue;
            }
            if (c.min.npaths != mp.npaths || !same_paths(&mp, 0, &c.min, 0, mp.npaths, 1.0))
                bad++;
            int64_t want_groups = 0;
            if (two_phase && s != t) {
                for (tk_id_t m = 0; m < g->n; m++)
                    want_groups += g->group
                                       ? g->group[m] != g->group[s] && g->group[m] != g->group[t]
                                       : m != s && m != t;
            }
            if (c.ngroups != want_groups)
                badg++;
            double gws = 0;
            for (int64_t k = 0; k < c.ngroups; k++) {
                gws += c.gw[k];
                /* group k = the model's draws through gvia[k], their
                 * weights divided by the probability of gvia[k] */
                tk_pathset_t grp, sub;
                double pm = 0;
                tk_pathset_init(&grp);
                tk_pathset_init(&sub);
                for (int64_t i = 0; i < all.npaths; i++)
                    if (all.via[i] == c.gvia[k]) {
                        ps_add(&sub, &all, i, 1.0);
                        pm += all.w[i];
                    }
                for (int64_t i = c.goff[k]; i < c.goff[k + 1]; i++) {
                    bad += c.nonmin.via[i] != c.gvia[k];
                    ps_add(&grp, &c.nonmin, i, pm);
                }
                tk_pathset_merge_walks(&grp, NULL);
                tk_pathset_merge_walks(&sub, NULL);
                if (grp.npaths != sub.npaths || !same_paths(&sub, 0, &grp, 0, sub.npaths, 1.0))
                    badg++;
                tk_pathset_destroy(&grp);
                tk_pathset_destroy(&sub);
            }
            if (c.ngroups && fabs(gws - 1) > 1e-12)
                badg++;
            /* hops per class */
            for (int pass = 0; pass < 2; pass++) {
                const tk_pathset_t *ps = pass ? &c.nonmin : &c.min;
                const int32_t *h = pass ? c.nonmin_hops : c.min_hops;
                for (int64_t i = 0; i < ps->npaths; i++) {
                    int64_t tot = 0, glob = 0;
                    for (int k = 0; k < c.nclasses; k++)
                        tot += h[i * c.nclasses + k];
                    for (int64_t x = ps->off[i]; x < ps->off[i + 1]; x++)
                        glob += gl >= 0 && g->cls[ps->arc[x]] == gl;
                    if (tot != ps->off[i + 1] - ps->off[i] ||
                        (gl >= 0 && h[i * c.nclasses + gl] != glob) ||
                        (gl >= 0 && pass && g->group[s] != g->group[t] && glob != 2))
                        badh++;
                }
            }
        }
    is_int(bad, 0, "%s %s candidates: minimal = %s paths, groups name their intermediate", gname,
           model, minmodel);
    is_int(badg, 0,
           "%s %s candidates: one group per intermediate holding the model's draws through it "
           "(weights over its probability), probabilities sum to 1",
           gname, model);
    is_int(badh, 0, "%s %s candidates: hop counts per class%s", gname, model,
           gl >= 0 ? " (2 global hops per non-minimal candidate between groups)" : "");
    tk_route_cands_destroy(&c);
    tk_pathset_destroy(&mp);
    tk_pathset_destroy(&all);
    tk_route_ws_free(ws);
    tk_route_ws_free(wm);
    tk_router_free(r);
    tk_router_free(rm);
    tk_graph_free(g);
}

int main(void)
{
    test_parse();
    test_min_ecmp("ring6", "min", NULL, 0);
    test_min_ecmp("ring7", "ecmp", NULL, 0);
    test_min_ecmp("K4", "min", NULL, 0);
    test_min_ecmp("cube3", "min", NULL, 0);
    test_min_ecmp("cube3", "ecmp", NULL, 0);
    test_min_ecmp("petersen", "min", NULL, 0);
    test_min_ecmp("petersen", "ecmp", NULL, 0);
    test_min_ecmp("rrg10", "min", NULL, 0);
    test_min_ecmp("rrg10", "ecmp", NULL, 0);
    test_min_ecmp("torus33", "ecmp", NULL, 0);
    /* per-class hop lengths: a global hop counts 2 (3) */
    test_min_ecmp("df-a2h1", "min,global=2", "global", 2);
    test_min_ecmp("df-a2h1", "ecmp,global=3", "global", 3);
    test_min_ecmp("df-a2h1", "min", NULL, 0);
    test_ecmp_hand();
    test_counts();
    test_model("ring6", "ksp:3", 99, bfm_ksp);
    test_model("K4", "ksp:4", 99, bfm_ksp);
    test_model("cube3", "ksp:8", 99, bfm_ksp);
    test_model("petersen", "ksp:5", 99, bfm_ksp);
    test_model("rrg10", "ksp:8", 99, bfm_ksp);
    test_model("ring6", "ksp:3,spread", 99, bfm_ksp);
    test_model("cube3", "ksp:5,spread", 99, bfm_ksp);
    test_model("petersen", "ksp:5,spread", 99, bfm_ksp);
    test_model("petersen", "ksp:14,spread", 99, bfm_ksp);
    test_model("rrg10", "ksp:8,spread", 99, bfm_ksp);
    test_spread();
    test_model("ring7", "allpath:5", 99, bfm_allpath);
    test_model("cube3", "allpath:4", 99, bfm_allpath);
    test_model("petersen", "allpath:4", 99, bfm_allpath);
    test_model("rrg10", "allpath:3", 99, bfm_allpath);
    test_model("ring6", "polarized", 99, bfm_polar);
    test_model("cube3", "polarized", 99, bfm_polar);
    test_model("petersen", "polarized", 99, bfm_polar);
    test_model("rrg10", "polarized", 99, bfm_polar);
    test_model("torus33", "polarized", 99, bfm_polar);
    test_model("ring6", "valiant", 99, bfm_valiant);
    test_model("K4", "valiant,exclude", 99, bfm_valiant);
    test_model("cube3", "valiant", 99, bfm_valiant);
    test_model("petersen", "valiant,exclude", 99, bfm_valiant);
    test_model("petersen", "valiant,minfirst", 99, bfm_valiant);
    test_model("rrg10", "valiant", 99, bfm_valiant);
    test_model("df-a2h1", "dragonfly-min", 99, bfm_dfmin);
    test_model("df-a2h1", "dragonfly-valiant", 99, bfm_dfval);
    test_model("df-a4h2", "dragonfly-min", 99, bfm_dfmin);
    test_model("df-a4h2", "dragonfly-valiant", 3, bfm_dfval);
    test_hand();
    test_dfv_census();
    test_merge_walks();
    test_candidates("petersen", "valiant", "min");
    test_candidates("cube3", "valiant,exclude", "min");
    test_candidates("df-a4h2", "dragonfly-valiant", "dragonfly-min");
    test_candidates("df-a2h1", "dragonfly-valiant", "dragonfly-min");
    test_candidates("petersen", "ksp:3", "ksp:3");
    test_trunk();
    test_refuse();
    return tap_done();
}
