/*
 * test_auto.c - automorphism groups with closed-form orders, orbits,
 * transitivity, the canonical hash under relabelling, isomorphism, and the
 * orbit-accelerated distance summary against the plain one.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "tk_auto.h"
#include "tk_gen.h"
#include "tk_io.h"
#include "tk_metric.h"

/* The graph a generator call stored in *gp (read after the call). */
static tk_graph_t *must(tk_status_t st, tk_graph_t **gp, const tk_error_t *err)
{
    if (st != TK_OK) {
        printf("# generator: %s\n", err->msg);
        abort();
    }
    return *gp;
}

static uint64_t fact(int k)
{
    uint64_t f = 1;
    for (int i = 2; i <= k; i++)
        f *= (uint64_t)i;
    return f;
}

/* Group order, orbits and flags of g; frees g. */
static void check(tk_graph_t *g, const char *what, uint64_t order, int64_t norbits,
                  int64_t arc_orbits, int vt, int at)
{
    tk_auto_t r;
    tk_error_t err;
    tk_status_t st = tk_auto_compute(g, NULL, &r, &err);
    ok(st == TK_OK && r.status == TK_AUTO_DONE, "%s: search complete", what);
    if (st != TK_OK) {
        tk_graph_free(g);
        return;
    }
    ok(r.order_exact && r.order == order, "%s: |Aut| = %llu (got %llu)", what,
       (unsigned long long)order, (unsigned long long)r.order);
    is_int(r.norbits, norbits, "%s: vertex orbits", what);
    if (arc_orbits >= 0)
        is_int(r.arc_orbits, arc_orbits, "%s: arc orbits", what);
    is_int(r.vertex_transitive, vt, "%s: vertex-transitive", what);
    is_int(r.arc_transitive, at, "%s: arc-transitive", what);
    tk_auto_destroy(&r);
    tk_graph_free(g);
}

/* Copy of g with switches relabelled by v -> perm[v], keeping classes,
 * capacities and servers. */
static tk_graph_t *relabel(const tk_graph_t *g, const int32_t *perm)
{
    tk_builder_t *b;
    tk_graph_t *h = NULL;
    tk_error_t err;
    if (tk_builder_new(&b, g->n, g->directed, &err) != TK_OK)
        abort();
    int cmap[TK_MAX_CLASSES];
    for (int c = 0; c < g->nclasses; c++)
        if (tk_builder_class(b, g->class_name[c], &cmap[c], &err) != TK_OK)
            abort();
    for (tk_id_t u = 0; u < g->n; u++) {
        if (g->servers && tk_builder_set_servers(b, perm[u], g->servers[u], &err) != TK_OK)
            abort();
        for (int64_t a = g->off[u]; a < g->off[u + 1]; a++) {
            tk_id_t v = g->head[a];
            if (!g->directed && (v < u || (v == u && g->rev[a] < a)))
                continue;
            if (tk_builder_add_ex(b, perm[u], perm[v], cmap[g->cls ? g->cls[a] : 0],
                                  tk_graph_cap(g, a), &err) != TK_OK)
                abort();
        }
    }
    if (!g->servers && tk_builder_set_servers_uniform(b, g->servers_uniform, &err) != TK_OK)
        abort();
    if (tk_builder_finish(b, &h, &err) != TK_OK) {
        printf("# relabel: %s\n", err.msg);
        abort();
    }
    return h;
}

static int32_t *random_perm(int64_t n, uint64_t seed)
{
    int32_t *p = malloc((size_t)n * sizeof *p);
    uint64_t x = seed;
    for (int64_t i = 0; i < n; i++)
        p[i] = (int32_t)i;
    for (int64_t i = n - 1; i > 0; i--) {
        x = tk_mix64(x + 1);
        int64_t j = (int64_t)(x % (uint64_t)(i + 1));
        int32_t t = p[i];
        p[i] = p[j];
        p[j] = t;
    }
    return p;
}

static uint64_t hash_of(const tk_graph_t *g)
{
    tk_auto_t r;
    tk_error_t err;
    uint64_t h = 0;
    if (tk_auto_compute(g, NULL, &r, &err) == TK_OK && r.have_canon)
        h = r.canon_hash;
    tk_auto_destroy(&r);
    return h;
}

static int iso(const tk_graph_t *a, const tk_graph_t *b)
{
    int i = -1;
    tk_error_t err;
    if (tk_auto_isomorphic(a, b, NULL, &i, &err) != TK_OK)
        return -1;
    return i;
}

/* Relabelled copies: same hash, isomorphic; the group order too. */
static void check_relabel(tk_graph_t *g, const char *what)
{
    int32_t *p = random_perm(g->n, 12345);
    tk_graph_t *h = relabel(g, p);
    uint64_t hg = hash_of(g), hh = hash_of(h);
    ok(hg != 0 && hg == hh, "%s: canonical hash invariant under relabelling", what);
    is_int(iso(g, h), 1, "%s: isomorphic to a relabelled copy", what);
    free(p);
    tk_graph_free(h);
}

/* Distance summaries with and without orbits agree exactly. */
static void check_orbit_dist(tk_graph_t *g, const char *what)
{
    tk_auto_t r;
    tk_error_t err;
    tk_dist_summary_t a, b;
    tk_dist_opts_t o1 = {0, 1, 1, 0, NULL, NULL, NULL};
    if (tk_auto_compute(g, NULL, &r, &err) != TK_OK) {
        ok(0, "%s: automorphisms", what);
        return;
    }
    tk_dist_opts_t o2 = {0, 1, 1, 0, r.orbit, NULL, NULL};
    int good =
        tk_dist_summary(g, &o1, &a, &err) == TK_OK && tk_dist_summary(g, &o2, &b, &err) == TK_OK;
    good = good && a.diameter == b.diameter && a.radius == b.radius && a.pairs == b.pairs &&
           a.dist_sum == b.dist_sum && a.hist_len == b.hist_len &&
           memcmp(a.ecc, b.ecc, (size_t)g->n * sizeof *a.ecc) == 0 &&
           memcmp(a.hist, b.hist, (size_t)a.hist_len * sizeof *a.hist) == 0;
    ok(good, "%s: orbit-accelerated distances identical (%lld orbits)", what, (long long)r.norbits);
    tk_dist_summary_destroy(&a);
    tk_dist_summary_destroy(&b);
    tk_auto_destroy(&r);
}

int main(void)
{
    tk_error_t err;
    tk_graph_t *g = NULL;

    /* Cycles C_n: dihedral group of order 2n, arc-transitive. */
    for (int n = 3; n <= 12; n += 3)
        check(must(tk_gen_ring(n, &g, &err), &g, &err), "C_n", 2 * (uint64_t)n, 1, 1, 1, 1);
    /* K_n: n!. */
    for (int n = 2; n <= 9; n++)
        check(must(tk_gen_complete(n, &g, &err), &g, &err), "K_n", fact(n), 1, 1, 1, 1);
    /* Hypercube Q_k: 2^k k!. */
    for (int k = 2; k <= 8; k++)
        check(must(tk_gen_hypercube(k, &g, &err), &g, &err), "Q_k", ((uint64_t)1 << k) * fact(k), 1,
              1, 1, 1);
    /* Torus k x k, k >= 5: 8 k^2. */
    for (int64_t k = 5; k <= 9; k++) {
        int64_t sides[2] = {k, k};
        check(must(tk_gen_grid(sides, 2, 1, &g, &err), &g, &err), "torus k x k",
              8 * (uint64_t)(k * k), 1, 1, 1, 1);
    }
    /* Hamming graphs H(d,q) = HyperX q^d: (q!)^d d!. */
    {
        int64_t s3[3] = {3, 3, 3}, s2[2] = {5, 5}, s4[4] = {2, 2, 2, 2};
        check(must(tk_gen_hyperx(s3, 3, &g, &err), &g, &err), "H(3,3)",
              fact(3) * fact(3) * fact(3) * fact(3), 1, 1, 1, 1);
        check(must(tk_gen_hyperx(s2, 2, &g, &err), &g, &err), "H(2,5)", fact(5) * fact(5) * 2, 1, 1,
              1, 1);
        check(must(tk_gen_hyperx(s4, 4, &g, &err), &g, &err), "H(4,2) = Q_4", 384, 1, 1, 1, 1);
    }
    /* Kautz K(d,D) and de Bruijn B(d,D) digraphs: the symmetric group on the
     * alphabet, (d+1)! and d!. */
    check(must(tk_gen_kautz(2, 3, &g, &err), &g, &err), "Kautz K(2,3)", 6, 2, -1, 0, 0);
    check(must(tk_gen_kautz(3, 3, &g, &err), &g, &err), "Kautz K(3,3)", 24, 2, -1, 0, 0);
    check(must(tk_gen_debruijn(2, 4, &g, &err), &g, &err), "de Bruijn B(2,4)", 2, 8, -1, 0, 0);
    check(must(tk_gen_debruijn(3, 3, &g, &err), &g, &err), "de Bruijn B(3,3)", 6, 5, -1, 0, 0);

    /* Petersen and Hoffman-Singleton from the data files. */
    {
        const char *src = getenv("TK_SRCDIR");
        char path[4096];
        snprintf(path, sizeof path, "%s/data/petersen.topo", src ? src : ".");
        if (tk_read_file(path, TK_FMT_AUTO, 0, &g, &err) == TK_OK)
            check(g, "Petersen", 120, 1, 1, 1, 1);
        else
            ok(0, "read %s: %s", path, err.msg);
        snprintf(path, sizeof path, "%s/data/hoffman-singleton.g6", src ? src : ".");
        if (tk_read_file(path, TK_FMT_AUTO, 0, &g, &err) == TK_OK)
            check(g, "Hoffman-Singleton", 252000, 1, 1, 1, 1);
        else
            ok(0, "read %s: %s", path, err.msg);
    }

    /* Random regular graph: trivial group (colour-refinement path, no
     * search), every arc its own orbit. */
    {
        tk_graph_t *r = must(tk_gen_rrg(200, 5, 7, 0, &r, &err), &r, &err);
        tk_auto_t a;
        ok(tk_auto_compute(r, NULL, &a, &err) == TK_OK && a.status == TK_AUTO_DONE &&
               a.order_exact && a.order == 1 && a.norbits == 200 && a.arc_orbits == 1000 &&
               a.nodes == 0,
           "rrg n=200 d=5: trivial group found by refinement, no nauty search");
        tk_auto_destroy(&a);
        check_relabel(r, "rrg n=200 d=5");
        tk_graph_free(r);
    }

    /* Servers break symmetry: C_6 with 1 server on switch 0 and 0 elsewhere
     * keeps the reflection through switch 0 only: order 2, 4 orbits. */
    {
        tk_builder_t *b;
        tk_builder_new(&b, 6, 0, &err);
        for (int i = 0; i < 6; i++) {
            tk_builder_add(b, i, (i + 1) % 6, &err);
            tk_builder_set_servers(b, i, i == 0 ? 1 : 0, &err);
        }
        tk_builder_finish(b, &g, &err);
        check(g, "C_6 with servers on one switch", 2, 4, -1, 0, 0);
    }
    /* Link classes break symmetry: C_6 with one link of class "x": the
     * reflection fixing that link only (order 2, 3 orbits). */
    {
        tk_builder_t *b;
        int cx;
        tk_builder_new(&b, 6, 0, &err);
        tk_builder_class(b, "x", &cx, &err);
        for (int i = 0; i < 6; i++)
            tk_builder_add_ex(b, i, (i + 1) % 6, i == 0 ? cx : 0, 1.0, &err);
        tk_builder_finish(b, &g, &err);
        check(g, "C_6 with one link of another class", 2, 3, -1, 0, 0);
    }
    /* Multigraph: C_4 with the link 0-1 doubled: order 2 (swap 0<->1,
     * 2<->3). */
    {
        tk_builder_t *b;
        tk_builder_new(&b, 4, 0, &err);
        for (int i = 0; i < 4; i++)
            tk_builder_add(b, i, (i + 1) % 4, &err);
        tk_builder_add(b, 0, 1, &err);
        tk_builder_finish(b, &g, &err);
        check(g, "C_4 with a doubled link", 2, 2, -1, 0, 0);
    }
    /* Self-loops: a path 0-1-2 with a loop at 0: trivial group. */
    {
        tk_builder_t *b;
        tk_builder_new(&b, 3, 0, &err);
        tk_builder_add(b, 0, 1, &err);
        tk_builder_add(b, 1, 2, &err);
        tk_builder_add(b, 0, 0, &err);
        tk_builder_finish(b, &g, &err);
        check(g, "path with a loop at one end", 1, 3, -1, 0, 0);
    }
    /* Directed cycle: cyclic group C_n (no reflections). */
    {
        tk_builder_t *b;
        tk_builder_new(&b, 7, 1, &err);
        for (int i = 0; i < 7; i++)
            tk_builder_add(b, i, (i + 1) % 7, &err);
        tk_builder_finish(b, &g, &err);
        check(g, "directed C_7", 7, 1, 1, 1, 1);
    }
    /* Undirected star K_{1,4}: S_4, arcs in 2 orbits (in and out). */
    {
        tk_builder_t *b;
        tk_builder_new(&b, 5, 0, &err);
        for (int i = 1; i < 5; i++)
            tk_builder_add(b, 0, i, &err);
        tk_builder_finish(b, &g, &err);
        check(g, "star K_{1,4}", 24, 2, 2, 0, 0);
    }

    /* Canonical hash and isomorphism. */
    {
        tk_graph_t *q, *k;
        must(tk_gen_hypercube(5, &q, &err), &q, &err);
        check_relabel(q, "Q_5");
        must(tk_gen_kautz(3, 3, &k, &err), &k, &err);
        check_relabel(k, "Kautz K(3,3)");
        /* C_6 and two triangles: both 2-regular on 6 switches. */
        tk_builder_t *b;
        tk_graph_t *c6, *tt;
        must(tk_gen_ring(6, &c6, &err), &c6, &err);
        tk_builder_new(&b, 6, 0, &err);
        for (int i = 0; i < 3; i++) {
            tk_builder_add(b, i, (i + 1) % 3, &err);
            tk_builder_add(b, 3 + i, 3 + (i + 1) % 3, &err);
        }
        tk_builder_finish(b, &tt, &err);
        is_int(iso(c6, tt), 0, "C_6 vs two triangles: not isomorphic");
        ok(hash_of(c6) != hash_of(tt), "C_6 vs two triangles: hashes differ");
        int64_t s44[2] = {4, 4};
        tk_graph_t *t44, *q4;
        must(tk_gen_grid(s44, 2, 1, &t44, &err), &t44, &err);
        must(tk_gen_hypercube(4, &q4, &err), &q4, &err);
        /* C_4 x C_4 = (K_2 x K_2) x (K_2 x K_2) = Q_4. */
        is_int(iso(t44, q4), 1, "4x4 torus is isomorphic to Q_4");
        /* Directed vs undirected never isomorphic. */
        tk_graph_t *r6;
        tk_builder_new(&b, 6, 1, &err);
        for (int i = 0; i < 6; i++) {
            tk_builder_add(b, i, (i + 1) % 6, &err);
            tk_builder_add(b, (i + 1) % 6, i, &err);
        }
        tk_builder_finish(b, &r6, &err);
        is_int(iso(c6, r6), 0, "undirected C_6 vs its symmetric digraph: not isomorphic");
        tk_graph_free(q);
        tk_graph_free(k);
        tk_graph_free(c6);
        tk_graph_free(tt);
        tk_graph_free(t44);
        tk_graph_free(q4);
        tk_graph_free(r6);
    }

    /* Orbit acceleration of the distance summary. */
    {
        int64_t s[2] = {9, 7}, hx[3] = {3, 4, 2};
        must(tk_gen_grid(s, 2, 1, &g, &err), &g, &err);
        check_orbit_dist(g, "torus 9x7");
        tk_graph_free(g);
        must(tk_gen_hyperx(hx, 3, &g, &err), &g, &err);
        check_orbit_dist(g, "hyperx 3,4,2");
        tk_graph_free(g);
        must(tk_gen_kautz(3, 4, &g, &err), &g, &err);
        check_orbit_dist(g, "Kautz K(3,4)");
        tk_graph_free(g);
        must(tk_gen_grid(s, 2, 0, &g, &err), &g, &err);
        check_orbit_dist(g, "mesh 9x7 (orbits of size 1, 2 and 4)");
        tk_graph_free(g);
        must(tk_gen_debruijn(2, 5, &g, &err), &g, &err);
        check_orbit_dist(g, "de Bruijn B(2,5)");
        tk_graph_free(g);
        int32_t bad[3] = {0, 0, 1};
        tk_dist_summary_t a;
        tk_dist_opts_t o = {0, 0, 0, 0, bad, NULL, NULL};
        must(tk_gen_ring(3, &g, &err), &g, &err);
        ok(tk_dist_summary(g, &o, &a, &err) == TK_EINVAL,
           "an orbit array not naming the smallest switch is refused");
        tk_graph_free(g);
    }

    /* Errors. */
    {
        tk_auto_t a;
        ok(tk_auto_compute(NULL, NULL, &a, &err) == TK_EINVAL, "NULL graph refused");
        must(tk_gen_hypercube(6, &g, &err), &g, &err);
        tk_auto_opts_t lim = {0, 1, 1, 1000};
        ok(tk_auto_compute(g, &lim, &a, &err) == TK_ELIMIT,
           "memory limit refuses the search up front (TK_ELIMIT)");
        tk_auto_opts_t cap = {2, 1, 1, 0};
        ok(tk_auto_compute(g, &cap, &a, &err) == TK_OK && a.status == TK_AUTO_UNKNOWN,
           "a search capped at 2 nodes reports unknown");
        ok(a.orbit != NULL && a.norbits >= 1 && a.norbits <= 64,
           "capped search still returns (subgroup) orbits");
        tk_auto_destroy(&a);
        tk_graph_free(g);
    }
    return tap_done();
}
