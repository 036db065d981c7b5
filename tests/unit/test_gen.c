/*
 * test_gen.c - topology generators: sizes, degrees, loops, parallel links,
 * arc rules, connectivity and diameters from closed forms; determinism of
 * rrg; every parameter error; the KEY=VALUE parser and tk_generate.
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "topokit.h"

/* ---- helpers ------------------------------------------------------------ */

/* BFS from s along arcs; returns the eccentricity or -1 if some switch is
 * unreachable. */
static int bfs_ecc(const tk_graph_t *g, tk_id_t s, int32_t *dist, tk_id_t *queue)
{
    int64_t qh = 0, qt = 0, a;
    int ecc = 0;
    tk_id_t u;

    for (u = 0; u < g->n; u++)
        dist[u] = -1;
    dist[s] = 0;
    queue[qt++] = s;
    while (qh < qt) {
        u = queue[qh++];
        for (a = g->off[u]; a < g->off[u + 1]; a++) {
            tk_id_t v = g->head[a];
            if (dist[v] < 0) {
                dist[v] = dist[u] + 1;
                ecc = dist[v];
                queue[qt++] = v;
            }
        }
    }
    return qt == g->n ? ecc : -1;
}

/* Diameter (directed distances), -1 if not (strongly) connected. */
static int diameter(const tk_graph_t *g)
{
    int32_t *dist = malloc((size_t)g->n * sizeof *dist);
    tk_id_t *queue = malloc((size_t)g->n * sizeof *queue);
    int diam = 0;
    tk_id_t s;

    for (s = 0; s < g->n && diam >= 0; s++) {
        int e = bfs_ecc(g, s, dist, queue);
        diam = e < 0 ? -1 : (e > diam ? e : diam);
    }
    free(dist);
    free(queue);
    return diam;
}

static int connected(const tk_graph_t *g)
{
    int32_t *dist = malloc((size_t)g->n * sizeof *dist);
    tk_id_t *queue = malloc((size_t)g->n * sizeof *queue);
    int ok = bfs_ecc(g, 0, dist, queue) >= 0;

    free(dist);
    free(queue);
    return ok;
}

/* Number of arcs u->v. */
static int64_t arcs_between(const tk_graph_t *g, tk_id_t u, tk_id_t v)
{
    int64_t a, c = 0;

    for (a = g->off[u]; a < g->off[u + 1]; a++)
        c += g->head[a] == v;
    return c;
}

static int has_triangle(const tk_graph_t *g)
{
    tk_id_t u;
    int64_t a, b;

    for (u = 0; u < g->n; u++)
        for (a = g->off[u]; a < g->off[u + 1]; a++)
            for (b = g->off[u]; b < g->off[u + 1]; b++)
                if (tk_graph_has_arc(g, g->head[a], g->head[b]))
                    return 1;
    return 0;
}

static int64_t ipow(int64_t a, int e)
{
    int64_t r = 1;
    while (e-- > 0)
        r *= a;
    return r;
}

static int valid(const tk_graph_t *g)
{
    tk_error_t err;
    return tk_graph_validate(g, &err) == TK_OK;
}

/* Expect an error code and a message starting with prefix. */
static void expect_err(tk_status_t st, const tk_error_t *err, tk_status_t want, const char *prefix,
                       const char *what)
{
    is_int(st, want, "%s: status", what);
    ok(strncmp(err->msg, prefix, strlen(prefix)) == 0, "%s: message '%s' starts with '%s'", what,
       err->msg, prefix);
}

/* ---- rrg --------------------------------------------------------------- */

static void test_rrg(void)
{
    tk_graph_t *g = NULL, *h = NULL;
    tk_error_t err;
    tk_status_t st;
    int64_t n, d;
    uint64_t seed;
    int bad = 0, cases = 0;

    /* Every valid (n, d) with n <= 14, several seeds: simple, d-regular,
     * connected. */
    for (n = 2; n <= 14; n++)
        for (d = 1; d < n; d++) {
            if ((n * d) % 2 || (d == 1 && n > 2))
                continue;
            for (seed = 1; seed <= 4; seed++) {
                cases++;
                st = tk_gen_rrg(n, d, seed, 0, &g, &err);
                if (st || g->n != n || g->m != n * d || g->directed ||
                    tk_graph_regular_degree(g) != d || tk_graph_loops(g) != 0 ||
                    tk_graph_parallel(g) != 0 || !connected(g) || !valid(g)) {
                    bad++;
                    tap_diag("rrg n=%lld d=%lld s=%llu failed: %s", (long long)n, (long long)d,
                             (unsigned long long)seed, st ? err.msg : "wrong graph");
                }
                tk_graph_free(g);
                g = NULL;
            }
        }
    is_int(bad, 0, "rrg: %d small cases simple, regular, connected", cases);

    /* Larger sizes, including d = 2 (a Hamiltonian cycle) and dense d. */
    {
        static const int64_t nd[][2] = {{200, 2}, {1000, 2}, {101, 4}, {1024, 24},
                                        {60, 57}, {61, 30},  {64, 32}, {500, 3}};
        size_t i;
        for (i = 0; i < sizeof nd / sizeof nd[0]; i++) {
            n = nd[i][0];
            d = nd[i][1];
            st = tk_gen_rrg(n, d, 42, 0, &g, &err);
            ok(st == TK_OK && g->n == n && tk_graph_regular_degree(g) == d &&
                   tk_graph_loops(g) == 0 && tk_graph_parallel(g) == 0 && connected(g) &&
                   valid(g) && tk_graph_links(g) == n * d / 2,
               "rrg n=%lld d=%lld: simple connected %lld-regular", (long long)n, (long long)d,
               (long long)d);
            if (!st && d == 2)
                is_int(diameter(g), n / 2, "rrg n=%lld d=2 is a single cycle (diameter n/2)",
                       (long long)n);
            tk_graph_free(g);
            g = NULL;
        }
    }

    /* Near-uniformity, from exact counts of labelled graphs.  Cubic graphs
     * on 6 switches: 70 labelled ones, 10 of them K_{3,3} (triangle-free):
     * p = 1/7 (this case goes through the complement of a 2-regular graph).
     * Connected cubic graphs on 8 switches: 19320 labelled ones, 3360
     * triangle-free (the cube and the Wagner graph): p = 4/23.  Bounds are
     * +-4.5 standard deviations; a sampler that counted accepted switches
     * instead of chain steps gives p = 1/5 on 6 switches and fails. */
    {
        static const struct {
            int n, samples;
            double p;
        } u[] = {{6, 7000, 1.0 / 7}, {8, 6900, 4.0 / 23}};
        size_t i;
        for (i = 0; i < sizeof u / sizeof u[0]; i++) {
            int s, tfree = 0;
            double mean = u[i].samples * u[i].p;
            double sd = sqrt(u[i].samples * u[i].p * (1 - u[i].p));
            for (s = 1; s <= u[i].samples; s++) {
                if (tk_gen_rrg(u[i].n, 3, (uint64_t)s, 0, &g, &err))
                    break;
                tfree += !has_triangle(g);
                tk_graph_free(g);
                g = NULL;
            }
            ok(fabs(tfree - mean) <= 4.5 * sd,
               "rrg n=%d d=3: %d of %d triangle-free, expected %.0f +- %.0f", u[i].n, tfree,
               u[i].samples, mean, 4.5 * sd);
        }
    }

    /* Complete graph when d = n-1. */
    st = tk_gen_rrg(7, 6, 3, 0, &g, &err);
    st = st ? st : tk_gen_complete(7, &h, &err);
    ok(st == TK_OK && tk_graph_equal(g, h), "rrg n=7 d=6 is K_7");
    tk_graph_free(g);
    tk_graph_free(h);

    /* Determinism and seed dependence. */
    st = tk_gen_rrg(64, 3, 7, 0, &g, &err);
    st = st ? st : tk_gen_rrg(64, 3, 7, 0, &h, &err);
    ok(st == TK_OK && tk_graph_equal(g, h), "rrg: same seed, equal graphs");
    is_str(g ? g->spec : NULL, "rrg n=64 d=3 s=7", "rrg: spec");
    tk_graph_free(h);
    h = NULL;
    st = tk_gen_rrg(64, 3, 8, 0, &h, &err);
    ok(st == TK_OK && !tk_graph_equal(g, h), "rrg: different seeds, different graphs");
    tk_graph_free(g);
    tk_graph_free(h);
    g = h = NULL;

    /* Parameter errors. */
    st = tk_gen_rrg(1, 1, 1, 0, &g, &err);
    expect_err(st, &err, TK_ERANGE, "n=1:", "rrg n=1");
    st = tk_gen_rrg(10, 0, 1, 0, &g, &err);
    expect_err(st, &err, TK_ERANGE, "d=0:", "rrg d=0");
    st = tk_gen_rrg(10, 10, 1, 0, &g, &err);
    expect_err(st, &err, TK_ERANGE, "d=10: must be less than n=10", "rrg d=n");
    st = tk_gen_rrg(5, 3, 1, 0, &g, &err);
    expect_err(st, &err, TK_ERANGE, "d=3: n*d must be even", "rrg n*d odd");
    st = tk_gen_rrg(4, 1, 1, 0, &g, &err);
    expect_err(st, &err, TK_ERANGE, "d=1:", "rrg d=1 n=4");
    st = tk_gen_rrg(1000, 10, 1, 100000, &g, &err);
    expect_err(st, &err, TK_ELIMIT, "n=1000 d=10:", "rrg above the memory limit");
    st = tk_gen_rrg(INT64_C(3000000000), 4, 1, 0, &g, &err);
    expect_err(st, &err, TK_ELIMIT, "n=3000000000 d=4:", "rrg n beyond int32 ids");
    st = tk_gen_rrg(INT64_C(2000000000), 1999999999, 1, 0, &g, &err);
    expect_err(st, &err, TK_ELIMIT, "n=2000000000 d=1999999999:", "rrg arcs beyond TK_MAX_ARCS");
    ok(g == NULL, "rrg: no graph on error");
}

/* ---- De Bruijn family ---------------------------------------------------- */

static void test_gdbg(void)
{
    tk_graph_t *g = NULL;
    tk_error_t err;
    tk_status_t st;
    int64_t n, r, i, a;
    int bad_lemma = 0, bad_count = 0, bad_rule = 0, bad_shape = 0;

    for (n = 2; n <= 300; n++)
        for (r = 2; r <= 12; r++) {
            int64_t brute = 0;
            st = tk_gen_gdbg(n, r, &g, &err);
            if (st) {
                bad_shape++;
                continue;
            }
            for (i = 0; i < n; i++)
                for (a = 0; a < r; a++)
                    brute += (i * r + a) % n == i;
            if (tk_graph_loops(g) > 2 * r)
                bad_lemma++;
            if (tk_graph_loops(g) != brute)
                bad_count++;
            if (!g->directed || g->n != n || g->m != n * r || tk_graph_regular_degree(g) != r)
                bad_shape++;
            if (n <= 40) {
                /* Arc rule: arcs i -> (i r + a) mod n with multiplicity. */
                for (i = 0; i < n; i++)
                    for (a = 0; a < r; a++) {
                        int64_t want = 0, b;
                        tk_id_t v = (tk_id_t)((i * r + a) % n);
                        for (b = 0; b < r; b++)
                            want += (i * r + b) % n == v;
                        if (arcs_between(g, (tk_id_t)i, v) != want)
                            bad_rule++;
                    }
                if (!valid(g))
                    bad_shape++;
            }
            tk_graph_free(g);
            g = NULL;
        }
    is_int(bad_lemma, 0, "gdbg Lemma 5: at most 2r loops, n = 2..300, r = 2..12");
    is_int(bad_count, 0, "gdbg: loop count is the number of i = i r + a (mod n)");
    is_int(bad_shape, 0, "gdbg: directed, n switches, n r arcs, r-regular");
    is_int(bad_rule, 0, "gdbg: arcs i -> (i r + a) mod n");

    st = tk_gen_gdbg(6, 2, &g, &err);
    is_str(st ? NULL : g->spec, "gdbg n=6 r=2 loops=2", "gdbg(6,2) spec records the loops");
    ok(!st && tk_graph_has_arc(g, 0, 0) && tk_graph_has_arc(g, 5, 5) && tk_graph_parallel(g) == 0,
       "gdbg(6,2): loops at 0 and 5, no parallel arcs");
    tk_graph_free(g);
    g = NULL;
    /* r > n: parallel arcs kept. */
    st = tk_gen_gdbg(3, 5, &g, &err);
    ok(!st && tk_graph_regular_degree(g) == 5 && tk_graph_parallel(g) == 15 - 9,
       "gdbg(3,5): 5-regular with 6 parallel arcs");
    tk_graph_free(g);
    g = NULL;
    st = tk_gen_gdbg(5, 1, &g, &err);
    ok(!st && tk_graph_loops(g) == 5, "gdbg(5,1): every arc is a loop");
    tk_graph_free(g);
    g = NULL;
    /* Lemma 7 (diameter at most ceil(log_r n)): spot checks. */
    st = tk_gen_gdbg(100, 10, &g, &err);
    is_int(st ? -2 : diameter(g), 2, "gdbg(100,10) diameter 2");
    tk_graph_free(g);
    g = NULL;

    st = tk_gen_gdbg(0, 2, &g, &err);
    expect_err(st, &err, TK_ERANGE, "n=0:", "gdbg n=0");
    st = tk_gen_gdbg(5, 0, &g, &err);
    expect_err(st, &err, TK_ERANGE, "r=0:", "gdbg r=0");
    st = tk_gen_gdbg(2000000000, 2000, &g, &err);
    expect_err(st, &err, TK_ELIMIT, "n=2000000000 r=2000:", "gdbg too many arcs");
}

static void test_imase_itoh(void)
{
    tk_graph_t *g = NULL;
    tk_error_t err;
    tk_status_t st;
    int64_t n, d, i, a;
    int bad = 0;

    for (n = 1; n <= 30; n++)
        for (d = 1; d <= 5; d++) {
            st = tk_gen_imase_itoh(n, d, &g, &err);
            if (st || !g->directed || g->m != n * d || tk_graph_regular_degree(g) != d ||
                !valid(g)) {
                bad++;
                continue;
            }
            for (i = 0; i < n; i++)
                for (a = 1; a <= d; a++) {
                    tk_id_t v = (tk_id_t)((((-d * i - a) % n) + n) % n);
                    if (!tk_graph_has_arc(g, (tk_id_t)i, v))
                        bad++;
                }
            tk_graph_free(g);
            g = NULL;
        }
    is_int(bad, 0, "imase-itoh: d-regular, arcs i -> (-d i - a) mod n");
    /* II(d^D + d^(D-1), d) is the Kautz digraph: diameter D. */
    st = tk_gen_imase_itoh(12, 2, &g, &err);
    is_int(st ? -2 : diameter(g), 3, "imase-itoh n=12 d=2 (Kautz K(2,3)) diameter 3");
    tk_graph_free(g);
    g = NULL;
    st = tk_gen_imase_itoh(0, 2, &g, &err);
    expect_err(st, &err, TK_ERANGE, "n=0:", "imase-itoh n=0");
    st = tk_gen_imase_itoh(4, 0, &g, &err);
    expect_err(st, &err, TK_ERANGE, "d=0:", "imase-itoh d=0");
}

/* Letters of Kautz word number i (numbering documented in debruijn.c). */
static void kautz_word(int64_t i, int64_t d, int D, int *x)
{
    int64_t p = ipow(d, D - 1), rest = i % p;
    int k;

    x[0] = (int)(i / p);
    for (k = 1; k < D; k++) {
        int64_t w = ipow(d, D - 1 - k);
        int c = (int)(rest / w) + 1;
        rest %= w;
        x[k] = (x[k - 1] + c) % (int)(d + 1);
    }
}

static void test_kautz_debruijn(void)
{
    tk_graph_t *g = NULL;
    tk_error_t err;
    tk_status_t st;
    int64_t d, n, i, a;
    int D;

    for (d = 2; d <= 4; d++)
        for (D = 1; D <= 4; D++) {
            int bad = 0, seen_ok = 1;
            int x[8], y[8], k;
            char *seen;
            st = tk_gen_kautz(d, D, &g, &err);
            n = ipow(d, D) + ipow(d, D - 1);
            if (st) {
                ok(0, "kautz d=%d D=%d: %s", (int)d, D, err.msg);
                continue;
            }
            ok(g->n == n && g->m == n * d && g->directed && tk_graph_regular_degree(g) == d &&
                   tk_graph_loops(g) == 0 && tk_graph_parallel(g) == 0 && valid(g),
               "kautz d=%d D=%d: %lld switches, %d-regular, simple", (int)d, D, (long long)n,
               (int)d);
            is_int(diameter(g), D, "kautz d=%d D=%d: diameter D", (int)d, D);
            /* Every number is a distinct valid word; arcs shift words. */
            seen = calloc((size_t)ipow(d + 1, D), 1);
            for (i = 0; i < n; i++) {
                int64_t code = 0;
                kautz_word(i, d, D, x);
                for (k = 0; k < D; k++) {
                    code = code * (d + 1) + x[k];
                    if (x[k] < 0 || x[k] > d || (k && x[k] == x[k - 1]))
                        bad++;
                }
                if (seen[code]++)
                    seen_ok = 0;
                for (a = g->off[i]; a < g->off[i + 1]; a++) {
                    kautz_word(g->head[a], d, D, y);
                    for (k = 0; k + 1 < D; k++)
                        if (y[k] != x[k + 1])
                            bad++;
                    if (y[D - 1] == x[D - 1])
                        bad++;
                }
            }
            free(seen);
            ok(bad == 0 && seen_ok, "kautz d=%d D=%d: words and shift arcs", (int)d, D);
            tk_graph_free(g);
            g = NULL;
        }
    st = tk_gen_kautz(2, 3, &g, &err);
    is_str(st ? NULL : g->spec, "kautz d=2 D=3", "kautz spec");
    tk_graph_free(g);
    g = NULL;

    for (d = 2; d <= 4; d++)
        for (D = 1; D <= 4; D++) {
            int bad = 0;
            st = tk_gen_debruijn(d, D, &g, &err);
            n = ipow(d, D);
            if (st) {
                ok(0, "debruijn d=%d D=%d: %s", (int)d, D, err.msg);
                continue;
            }
            for (i = 0; i < n; i++)
                for (a = 0; a < d; a++)
                    if (!tk_graph_has_arc(g, (tk_id_t)i, (tk_id_t)((d * i + a) % n)))
                        bad++;
            ok(g->n == n && g->m == n * d && g->directed && tk_graph_regular_degree(g) == d &&
                   tk_graph_loops(g) == d && bad == 0 && valid(g),
               "debruijn d=%d D=%d: %lld switches, arcs d i + a, %d loops", (int)d, D, (long long)n,
               (int)d);
            is_int(diameter(g), D, "debruijn d=%d D=%d: diameter D", (int)d, D);
            tk_graph_free(g);
            g = NULL;
        }

    st = tk_gen_kautz(1, 3, &g, &err);
    expect_err(st, &err, TK_ERANGE, "d=1:", "kautz d=1");
    st = tk_gen_kautz(2, 0, &g, &err);
    expect_err(st, &err, TK_ERANGE, "D=0:", "kautz D=0");
    st = tk_gen_kautz(10, 12, &g, &err);
    expect_err(st, &err, TK_ELIMIT, "d=10 D=12:", "kautz too many switches");
    st = tk_gen_debruijn(2, 100, &g, &err);
    expect_err(st, &err, TK_ELIMIT, "d=2 D=100:", "debruijn d^D overflows");
    st = tk_gen_debruijn(0, 3, &g, &err);
    expect_err(st, &err, TK_ERANGE, "d=0:", "debruijn d=0");
}

/* ---- complete, ring, hypercube, grids ----------------------------------- */

static void test_basic(void)
{
    tk_graph_t *g = NULL, *h = NULL;
    tk_error_t err;
    tk_status_t st;
    int64_t n, k, u;
    int j;

    for (n = 1; n <= 7; n++) {
        st = tk_gen_complete(n, &g, &err);
        ok(!st && g->n == n && tk_graph_links(g) == n * (n - 1) / 2 &&
               tk_graph_regular_degree(g) == n - 1 && tk_graph_parallel(g) == 0 && !g->directed &&
               valid(g) && diameter(g) == (n > 1),
           "complete n=%lld", (long long)n);
        tk_graph_free(g);
        g = NULL;
    }
    for (n = 3; n <= 9; n++) {
        st = tk_gen_ring(n, &g, &err);
        ok(!st && g->n == n && tk_graph_links(g) == n && tk_graph_regular_degree(g) == 2 &&
               tk_graph_parallel(g) == 0 && valid(g) && diameter(g) == n / 2,
           "ring n=%lld: 2-regular, diameter n/2", (long long)n);
        tk_graph_free(g);
        g = NULL;
    }
    for (k = 1; k <= 7; k++) {
        int coords_ok = 1;
        st = tk_gen_hypercube(k, &g, &err);
        if (st) {
            ok(0, "hypercube dim=%lld: %s", (long long)k, err.msg);
            continue;
        }
        for (u = 0; u < g->n; u++)
            for (j = 0; j < k; j++)
                coords_ok &= g->coord[u * k + j] == ((u >> j) & 1);
        ok(g->n == ((int64_t)1 << k) && tk_graph_regular_degree(g) == k && g->ncoord == k &&
               coords_ok && valid(g) && diameter(g) == k && tk_graph_parallel(g) == 0,
           "hypercube dim=%lld: 2^k switches, degree k, diameter k, bit coordinates", (long long)k);
        tk_graph_free(g);
        g = NULL;
    }
    st = tk_gen_complete(0, &g, &err);
    expect_err(st, &err, TK_ERANGE, "n=0:", "complete n=0");
    st = tk_gen_complete(3000000, &g, &err);
    expect_err(st, &err, TK_ELIMIT, "n=3000000:", "complete too many arcs");
    st = tk_gen_ring(2, &g, &err);
    expect_err(st, &err, TK_ERANGE, "n=2:", "ring n=2");
    st = tk_gen_hypercube(0, &g, &err);
    expect_err(st, &err, TK_ERANGE, "dim=0:", "hypercube dim=0");
    st = tk_gen_hypercube(40, &g, &err);
    expect_err(st, &err, TK_ELIMIT, "dim=40:", "hypercube dim=40");

    /* Cross-checks: HyperX 2,2,2 and mesh 2,2,2 are Q_3 (same numbering and
     * coordinates). */
    {
        int64_t s[3] = {2, 2, 2};
        st = tk_gen_hypercube(3, &g, &err);
        st = st ? st : tk_gen_hyperx(s, 3, &h, &err);
        ok(!st && tk_graph_equal(g, h), "hyperx 2,2,2 equals hypercube dim=3");
        tk_graph_free(h);
        h = NULL;
        st = st ? st : tk_gen_grid(s, 3, 0, &h, &err);
        ok(!st && tk_graph_equal(g, h), "mesh 2,2,2 equals hypercube dim=3");
        tk_graph_free(g);
        tk_graph_free(h);
        g = h = NULL;
    }
}

static void test_grid(void)
{
    tk_graph_t *g = NULL;
    tk_error_t err;
    tk_status_t st;
    int64_t u;

    {
        int64_t s[2] = {2, 3};
        st = tk_gen_grid(s, 2, 1, &g, &err);
        ok(!st && g->n == 6 && tk_graph_regular_degree(g) == 4 && tk_graph_links(g) == 12 &&
               tk_graph_parallel(g) == 3 && tk_graph_loops(g) == 0 && valid(g),
           "torus 2,3: 4-regular, side 2 gives 3 doubled links");
        ok(!st && arcs_between(g, 0, 1) == 2 && arcs_between(g, 0, 2) == 1 &&
               arcs_between(g, 0, 4) == 1,
           "torus 2,3: neighbours of switch 0");
        is_int(st ? -2 : diameter(g), 2, "torus 2,3 diameter 1 + 1");
        is_str(st ? NULL : g->spec, "torus sides=2,3", "torus spec");
        tk_graph_free(g);
        g = NULL;
    }
    {
        int64_t s[3] = {3, 4, 5};
        int coords_ok = 1;
        st = tk_gen_grid(s, 3, 1, &g, &err);
        for (u = 0; !st && u < g->n; u++)
            coords_ok &= g->coord[3 * u] == u % 3 && g->coord[3 * u + 1] == (u / 3) % 4 &&
                         g->coord[3 * u + 2] == u / 12;
        ok(!st && g->n == 60 && g->ncoord == 3 && coords_ok && tk_graph_regular_degree(g) == 6 &&
               tk_graph_parallel(g) == 0 && valid(g),
           "torus 3,4,5: 6-regular, simple, first dimension fastest");
        is_int(st ? -2 : diameter(g), 1 + 2 + 2, "torus 3,4,5 diameter sum(floor(s/2))");
        tk_graph_free(g);
        g = NULL;
    }
    {
        int64_t s[2] = {3, 4};
        st = tk_gen_grid(s, 2, 0, &g, &err);
        ok(!st && g->n == 12 && tk_graph_links(g) == 2 * 4 + 3 * 3 &&
               tk_graph_regular_degree(g) == -1 && valid(g),
           "mesh 3,4: 17 links");
        is_int(st ? -2 : diameter(g), 2 + 3, "mesh 3,4 diameter sum(s-1)");
        tk_graph_free(g);
        g = NULL;
    }
    {
        int64_t s[2] = {1, 5};
        st = tk_gen_grid(s, 2, 0, &g, &err);
        ok(!st && g->n == 5 && tk_graph_links(g) == 4 && diameter(g) == 4,
           "mesh 1,5 is a path of 5 switches");
        tk_graph_free(g);
        g = NULL;
    }
    {
        int64_t s[3] = {3, 4, 2};
        st = tk_gen_hyperx(s, 3, &g, &err);
        ok(!st && g->n == 24 && tk_graph_regular_degree(g) == 2 + 3 + 1 &&
               tk_graph_parallel(g) == 0 && valid(g) && g->ncoord == 3,
           "hyperx 3,4,2: degree sum(s-1) = 6");
        is_int(st ? -2 : diameter(g), 3, "hyperx 3,4,2 diameter = dimensions");
        tk_graph_free(g);
        g = NULL;
    }
    {
        int64_t s1[2] = {4, 1}, s0[1] = {0}, big[3] = {2000, 2000, 2000}, m33[33];
        int i;
        st = tk_gen_grid(s1, 2, 1, &g, &err);
        expect_err(st, &err, TK_ERANGE, "sides=4,1:", "torus side 1");
        st = tk_gen_grid(s0, 1, 0, &g, &err);
        expect_err(st, &err, TK_ERANGE, "sides=0:", "mesh side 0");
        st = tk_gen_hyperx(s0, 1, &g, &err);
        expect_err(st, &err, TK_ERANGE, "sides=0:", "hyperx side 0");
        st = tk_gen_grid(big, 3, 1, &g, &err);
        expect_err(st, &err, TK_ELIMIT, "sides=2000,2000,2000:", "torus too many switches");
        for (i = 0; i < 33; i++)
            m33[i] = 2;
        st = tk_gen_grid(m33, 33, 0, &g, &err);
        expect_err(st, &err, TK_ERANGE, "sides:", "mesh 33 dimensions");
        ok(g == NULL, "grid: no graph on error");
    }
}

/* ---- KEY=VALUE parsing and tk_generate ----------------------------------- */

static void test_kv(void)
{
    char *w1[] = {"n=12", "d=-3",    "sides=4,5,6", "x=abc", "big=99999999999999999999",
                  "e=",   "l2=4,,4", "l3=4,x",      "l4=4,"};
    char *dup[] = {"n=1", "n=2"}, *noeq[] = {"n"}, *nokey[] = {"=4"};
    tk_kv_t *kv = NULL;
    tk_error_t err;
    tk_status_t st;
    int64_t v, *list = NULL;
    int count = 0;
    const char *s;

    st = tk_kv_parse(2, dup, &kv, &err);
    expect_err(st, &err, TK_EINVAL, "n:", "kv: key given twice");
    st = tk_kv_parse(1, noeq, &kv, &err);
    expect_err(st, &err, TK_EINVAL, "'n'", "kv: word without '='");
    st = tk_kv_parse(1, nokey, &kv, &err);
    expect_err(st, &err, TK_EINVAL, "'=4'", "kv: empty key");

    st = tk_kv_parse(9, w1, &kv, &err);
    is_int(st, TK_OK, "kv: parse");
    ok(tk_kv_has(kv, "n") && !tk_kv_has(kv, "m"), "kv: has");
    st = tk_kv_int(kv, "n", 1, 100, 0, 0, &v, &err);
    ok(st == TK_OK && v == 12, "kv: n=12");
    st = tk_kv_int(kv, "n", 13, 100, 0, 0, &v, &err);
    expect_err(st, &err, TK_ERANGE, "n=12: must be between 13 and 100", "kv: below min");
    st = tk_kv_int(kv, "d", 0, INT64_MAX, 0, 0, &v, &err);
    expect_err(st, &err, TK_ERANGE, "d=-3: must be at least 0", "kv: negative");
    st = tk_kv_int(kv, "x", 0, 10, 0, 0, &v, &err);
    expect_err(st, &err, TK_EINVAL, "x=abc: not an integer", "kv: non-numeric");
    st = tk_kv_int(kv, "big", 0, INT64_MAX, 0, 0, &v, &err);
    expect_err(st, &err, TK_ERANGE, "big=99999999999999999999:", "kv: beyond int64");
    st = tk_kv_int(kv, "e", 0, 10, 0, 0, &v, &err);
    expect_err(st, &err, TK_EINVAL, "e=: not an integer", "kv: empty value");
    st = tk_kv_int(kv, "missing", 0, 10, 0, 0, &v, &err);
    expect_err(st, &err, TK_EINVAL, "missing parameter missing", "kv: missing key");
    st = tk_kv_int(kv, "missing", 0, 10, 1, 7, &v, &err);
    ok(st == TK_OK && v == 7, "kv: default");
    st = tk_kv_int_list(kv, "sides", 1, 10, 8, &list, &count, &err);
    ok(st == TK_OK && count == 3 && list[0] == 4 && list[1] == 5 && list[2] == 6, "kv: list 4,5,6");
    free(list);
    list = NULL;
    st = tk_kv_int_list(kv, "sides", 1, 10, 2, &list, &count, &err);
    expect_err(st, &err, TK_ERANGE, "sides=4,5,6: at most 2", "kv: list too long");
    st = tk_kv_int_list(kv, "sides", 5, 10, 8, &list, &count, &err);
    expect_err(st, &err, TK_ERANGE, "sides=4,5,6: 4 must be", "kv: list item below min");
    st = tk_kv_int_list(kv, "l2", 1, 10, 8, &list, &count, &err);
    expect_err(st, &err, TK_EINVAL, "l2=4,,4: empty item", "kv: empty list item");
    st = tk_kv_int_list(kv, "l3", 1, 10, 8, &list, &count, &err);
    expect_err(st, &err, TK_EINVAL, "l3=4,x: 'x' is not an integer", "kv: junk list item");
    st = tk_kv_int_list(kv, "l4", 1, 10, 8, &list, &count, &err);
    expect_err(st, &err, TK_EINVAL, "l4=4,: empty item", "kv: trailing comma");
    st = tk_kv_int_list(kv, "e", 1, 10, 8, &list, &count, &err);
    expect_err(st, &err, TK_EINVAL, "e=: empty list", "kv: empty list");
    ok(list == NULL, "kv: no list on error");
    st = tk_kv_str(kv, "x", 0, NULL, &s, &err);
    is_str(st ? NULL : s, "abc", "kv: string value");
    st = tk_kv_check_unused(kv, "fam", &err);
    is_int(st, TK_OK, "kv: every key used");
    tk_kv_free(kv);

    st = tk_kv_parse(2, w1, &kv, &err);
    st = st ? st : tk_kv_int(kv, "n", 1, 100, 0, 0, &v, &err);
    st = st ? st : tk_kv_check_unused(kv, "fam", &err);
    expect_err(st, &err, TK_EINVAL, "d=-3: unknown parameter for fam", "kv: unused key");
    tk_kv_free(kv);
}

static tk_status_t gen(const char *fam, const char *args, const tk_gen_opts_t *o, tk_graph_t **g,
                       tk_error_t *err)
{
    char buf[256], *argv[16], *p;
    int argc = 0;

    snprintf(buf, sizeof buf, "%s", args);
    for (p = strtok(buf, " "); p && argc < 16; p = strtok(NULL, " "))
        argv[argc++] = p;
    *g = NULL;
    return tk_generate(fam, argc, argv, o, g, err);
}

static void test_generate(void)
{
    const tk_family_t *const *f;
    tk_gen_opts_t o;
    tk_graph_t *g = NULL, *h = NULL;
    tk_error_t err;
    tk_status_t st;
    int nfam = 0, table_ok = 1;

    for (f = tk_families(); *f; f++) {
        nfam++;
        table_ok &= (*f)->name && (*f)->synopsis && (*f)->summary && (*f)->build &&
                    tk_family_find((*f)->name) == *f &&
                    strncmp((*f)->synopsis, (*f)->name, strlen((*f)->name)) == 0;
    }
    ok(nfam == 16 && table_ok, "family table: 16 families, names found, synopses");
    ok(tk_family_find("jellyfish") == tk_family_find("rrg") &&
           tk_family_find("megafly") == tk_family_find("dragonfly+"),
       "aliases: jellyfish is rrg, megafly is dragonfly+");

    memset(&o, 0, sizeof o);
    st = gen("rrg", "n=16 d=3", &o, &g, &err);
    is_str(st ? NULL : g->spec, "rrg n=16 d=3 s=1", "spec: default seed 1 recorded");
    st = st ? st : tk_gen_rrg(16, 3, 1, 0, &h, &err);
    ok(!st && tk_graph_equal(g, h), "tk_generate rrg equals tk_gen_rrg");
    tk_graph_free(g);
    tk_graph_free(h);
    h = NULL;
    o.seed = 7;
    o.seed_given = 1;
    o.servers = 2;
    o.servers_given = 1;
    st = gen("rrg", "d=3 n=16", &o, &g, &err);
    is_str(st ? NULL : g->spec, "rrg n=16 d=3 s=7 p=2",
           "spec: keys in the synopsis's order whatever the given order (issue 25), s=, p=");
    ok(!st && tk_graph_total_servers(g) == 32, "-p 2: 32 servers");
    tk_graph_free(g);
    st = gen("torus", "sides=4,4", &o, &g, &err);
    is_str(st ? NULL : g->spec, "torus sides=4,4 p=2", "spec: no s= for deterministic families");
    tk_graph_free(g);
    memset(&o, 0, sizeof o);
    st = gen("gdbg", "n=6 r=2", &o, &g, &err);
    is_str(st ? NULL : g->spec, "gdbg n=6 r=2 loops=2", "spec: gdbg loops");
    ok(!st && tk_graph_servers(g, 0) == 1, "default one server per switch");
    tk_graph_free(g);
    st = gen("gdbg", "loops=2 n=6 r=2", &o, &g, &err);
    is_str(st ? NULL : g->spec, "gdbg n=6 r=2 loops=2", "spec: gdbg with loops= given first");
    tk_graph_free(g);
    st = gen("gdbg", "n=6 r=2 loops=3", &o, &g, &err);
    expect_err(st, &err, TK_ERANGE, "loops=3:", "gdbg wrong loops=");

    /* Every family through tk_generate. */
    {
        static const char *const ok_cases[][2] = {
            {"imase-itoh", "n=12 d=2"}, {"kautz", "d=2 D=3"},    {"debruijn", "d=2 D=3"},
            {"complete", "n=5"},        {"ring", "n=5"},         {"mesh", "sides=3,3"},
            {"hypercube", "dim=3"},     {"hyperx", "sides=3,3"}, {"torus", "sides=3,3,3"}};
        size_t i;
        for (i = 0; i < sizeof ok_cases / sizeof ok_cases[0]; i++) {
            char want[128];
            st = gen(ok_cases[i][0], ok_cases[i][1], &o, &g, &err);
            snprintf(want, sizeof want, "%s %s", ok_cases[i][0], ok_cases[i][1]);
            is_str(st ? err.msg : g->spec, want, "tk_generate %s", want);
            tk_graph_free(g);
        }
    }

    /* Usage errors (TK_EINVAL) and impossible values (TK_ERANGE/ELIMIT). */
    {
        static const struct {
            const char *fam, *args;
            tk_status_t code;
            const char *prefix;
        } bad[] = {
            {"nosuch", "n=3", TK_EINVAL, "unknown family 'nosuch'"},
            {"rrg", "n=16", TK_EINVAL, "missing parameter d"},
            {"rrg", "n=16 d=3 k=2", TK_EINVAL, "k=2: unknown parameter for rrg"},
            {"rrg", "n=16x d=3", TK_EINVAL, "n=16x: not an integer"},
            {"rrg", "n=16 d", TK_EINVAL, "'d': expected KEY=VALUE"},
            {"rrg", "n=16 d=3 d=4", TK_EINVAL, "d: parameter given twice"},
            {"rrg", "n=10 d=10", TK_ERANGE, "d=10: must be less than n=10"},
            {"rrg", "n=0 d=3", TK_ERANGE, "n=0: must be at least 2"},
            {"rrg", "n=9 d=3", TK_ERANGE, "d=3: n*d must be even"},
            {"torus", "sides=4,,4", TK_EINVAL, "sides=4,,4: empty item"},
            {"torus", "sides=4,1", TK_ERANGE, "sides=4,1: 1 must be at least 2"},
            {"mesh", "sides=0", TK_ERANGE, "sides=0: 0 must be at least 1"},
            {"hyperx", "sides=", TK_EINVAL, "sides=: empty list"},
            {"ring", "n=2", TK_ERANGE, "n=2: must be at least 3"},
            {"complete", "n=-1", TK_ERANGE, "n=-1: must be at least 1"},
            {"hypercube", "dim=31", TK_ELIMIT, "dim=31:"},
            {"kautz", "d=1 D=2", TK_ERANGE, "d=1: must be at least 2"},
            {"debruijn", "d=2", TK_EINVAL, "missing parameter D"},
            {"gdbg", "n=6 r=0", TK_ERANGE, "r=0: must be at least 1"},
            {"imase-itoh", "n=6 d=2 r=3", TK_EINVAL, "r=3: unknown parameter"},
        };
        size_t i;
        for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
            char what[128];
            snprintf(what, sizeof what, "%s %s", bad[i].fam, bad[i].args);
            st = gen(bad[i].fam, bad[i].args, &o, &g, &err);
            expect_err(st, &err, bad[i].code, bad[i].prefix, what);
            ok(g == NULL, "%s: no graph", what);
        }
    }
    /* Memory limit from the options. */
    o.mem_limit = 1 << 20;
    st = gen("complete", "n=2000", &o, &g, &err);
    expect_err(st, &err, TK_ELIMIT, "n=2000: needs about", "complete above the memory limit");
    st = gen("rrg", "n=100000 d=32", &o, &g, &err);
    expect_err(st, &err, TK_ELIMIT, "n=100000 d=32: needs about", "rrg above the memory limit");
    st = gen("torus", "sides=100,100,100", &o, &g, &err);
    expect_err(st, &err, TK_ELIMIT, "sides=100,100,100: needs about",
               "torus above the memory limit");
    o.mem_limit = 0;
    o.servers = -1;
    o.servers_given = 1;
    st = gen("ring", "n=5", &o, &g, &err);
    expect_err(st, &err, TK_ERANGE, "p=-1:", "negative servers");
}

int main(void)
{
    test_rrg();
    test_gdbg();
    test_imase_itoh();
    test_kautz_debruijn();
    test_basic();
    test_grid();
    test_kv();
    test_generate();
    return tap_done();
}
