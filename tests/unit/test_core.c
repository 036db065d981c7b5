/*
 * test_core.c - unit tests of the core: error record, builder, CSR graph
 * queries, validation, copy/equality/reverse, random streams.
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "topokit.h"
#include "tap.h"

/* Build the Petersen graph: outer 5-cycle, spokes, inner pentagram. */
static tk_graph_t *petersen(void)
{
    tk_builder_t *b;
    tk_graph_t *g = NULL;
    int i;

    if (tk_builder_new(&b, 10, 0, NULL))
        return NULL;
    for (i = 0; i < 5; i++) {
        tk_builder_add(b, i, (i + 1) % 5, NULL);
        tk_builder_add(b, i, i + 5, NULL);
        tk_builder_add(b, 5 + i, 5 + (i + 2) % 5, NULL);
    }
    tk_builder_set_spec(b, "petersen", NULL);
    if (tk_builder_finish(b, &g, NULL))
        return NULL;
    return g;
}

static void test_errors(void)
{
    tk_error_t e;

    tk_error_clear(&e);
    is_int(e.code, TK_OK, "cleared error has TK_OK");
    is_int(tk_error_set(&e, TK_EFORMAT, "x.topo", 7, "bad token '%s'", "q"), TK_EFORMAT,
           "tk_error_set returns its code");
    is_str(e.where, "x.topo", "error keeps where");
    is_int(e.line, 7, "error keeps line");
    is_str(e.msg, "bad token 'q'", "error formats message");
    is_int(tk_error_set(NULL, TK_ENOMEM, NULL, 0, "x"), TK_ENOMEM, "NULL error record allowed");
    ok(strcmp(tk_status_str(TK_ENOMEM), "out of memory") == 0, "status string");
}

static void test_petersen(void)
{
    tk_graph_t *g = petersen(), *c = NULL;
    tk_error_t e;
    int64_t u, a;
    int sorted = 1;

    ok(g != NULL, "Petersen builds");
    if (!g)
        return;
    is_int(g->n, 10, "Petersen n");
    is_int(g->m, 30, "Petersen arcs");
    is_int(tk_graph_links(g), 15, "Petersen links");
    is_int(tk_graph_regular_degree(g), 3, "Petersen is 3-regular");
    is_int(tk_graph_loops(g), 0, "Petersen no loops");
    is_int(tk_graph_parallel(g), 0, "Petersen no parallel links");
    is_int(tk_graph_validate(g, &e), TK_OK, "Petersen validates");
    for (u = 0; u < g->n; u++)
        for (a = g->off[u] + 1; a < g->off[u + 1]; a++)
            sorted &= g->head[a - 1] < g->head[a];
    ok(sorted, "arcs sorted by head");
    ok(tk_graph_has_arc(g, 0, 1) && tk_graph_has_arc(g, 1, 0) && tk_graph_has_arc(g, 5, 7),
       "has_arc finds links both ways");
    ok(!tk_graph_has_arc(g, 0, 2) && !tk_graph_has_arc(g, 5, 6), "has_arc rejects non-links");
    for (a = 0; a < g->m; a++)
        if (g->rev[g->rev[a]] != a)
            break;
    is_int(a, g->m, "partner arcs are an involution");
    is_str(g->spec, "petersen", "spec kept");
    is_int(tk_graph_total_servers(g), 10, "one server per switch by default");
    is_int(tk_graph_copy(g, &c, &e), TK_OK, "copy");
    ok(c && tk_graph_equal(g, c), "copy is equal");
    if (c) {
        c->head[0] = c->head[0] == 1 ? 4 : 1;
        ok(!tk_graph_equal(g, c), "changed copy differs");
        ok(tk_graph_validate(c, &e) != TK_OK, "broken symmetry fails validation");
    }
    tk_graph_free(c);
    tk_graph_free(g);
}

static void test_multigraph(void)
{
    tk_builder_t *b;
    tk_graph_t *g = NULL, *h = NULL;
    tk_error_t e;
    int cg, cl;

    /* Undirected: loop at 0 (twice), parallel 1-2 (three times, two classes,
     * one with capacity 2), single 0-1. */
    tk_builder_new(&b, 3, 0, NULL);
    is_int(tk_builder_class(b, "local", &cl, &e), TK_OK, "add class local");
    is_int(tk_builder_class(b, "global", &cg, &e), TK_OK, "add class global");
    is_int(cl, 1, "first named class is 1");
    tk_builder_class(b, "local", &cl, &e);
    is_int(cl, 1, "class lookup returns existing index");
    tk_builder_add(b, 0, 0, &e);
    tk_builder_add(b, 0, 0, &e);
    tk_builder_add_ex(b, 2, 1, cg, 2.0, &e);
    tk_builder_add_ex(b, 1, 2, cl, 1.0, &e);
    tk_builder_add_ex(b, 1, 2, cl, 1.0, &e);
    tk_builder_add(b, 0, 1, &e);
    is_int(tk_builder_finish(b, &g, &e), TK_OK, "multigraph builds");
    if (!g)
        return;
    is_int(tk_graph_links(g), 6, "multigraph links");
    is_int(g->m, 12, "multigraph arcs (loops are arc pairs)");
    is_int(tk_graph_loops(g), 2, "two loop links");
    is_int(tk_graph_parallel(g), 3, "one repeated loop + two repeated 1-2 links");
    is_int(tk_graph_degree(g, 0), 5, "degree of 0 counts each loop twice");
    is_int(tk_graph_degree(g, 1), 4, "degree of 1");
    is_int(tk_graph_validate(g, &e), TK_OK, "multigraph validates");
    /* Arcs of switch 1 towards 2: class global, local, local (by class name,
     * whatever the numbering: global is class 2 here). */
    {
        int64_t a = g->off[1] + 1;
        is_int(g->head[a], 2, "arc order: head 0 first, then 2");
        is_str(g->class_name[g->cls[a]], "global", "parallel arcs ordered by class name (1)");
        is_str(g->class_name[g->cls[a + 2]], "local", "parallel arcs ordered by class name (3)");
        is_dbl(tk_graph_cap(g, a), 2.0, 0, "capacity kept");
        is_dbl(tk_graph_cap(g, g->rev[a]), 2.0, 0, "partner arc has the same capacity");
    }
    is_int(tk_graph_class_index(g, "global"), cg, "class index by name");
    is_int(tk_graph_class_index(g, "up"), -1, "unknown class name");
    is_int(tk_graph_reverse(g, &h, &e), TK_OK, "reverse of undirected graph");
    ok(h && tk_graph_equal(g, h), "undirected graph is its own reverse");
    tk_graph_free(h);
    tk_graph_free(g);
}

static void test_directed(void)
{
    tk_builder_t *b;
    tk_graph_t *g = NULL, *r = NULL;
    tk_error_t e;

    tk_builder_new(&b, 4, 1, NULL);
    tk_builder_add(b, 0, 1, NULL);
    tk_builder_add(b, 1, 2, NULL);
    tk_builder_add(b, 2, 3, NULL);
    tk_builder_add(b, 3, 0, NULL);
    tk_builder_add(b, 2, 2, NULL);
    tk_builder_add(b, 0, 1, NULL);
    is_int(tk_builder_finish(b, &g, &e), TK_OK, "digraph builds");
    if (!g)
        return;
    ok(g->directed && g->rev == NULL, "digraph has no partner arcs");
    is_int(g->m, 6, "digraph arcs");
    is_int(tk_graph_links(g), 6, "digraph links = arcs");
    is_int(tk_graph_loops(g), 1, "digraph loop counts once");
    is_int(tk_graph_parallel(g), 1, "digraph parallel arcs");
    is_int(tk_graph_regular_degree(g), -1, "digraph not regular");
    ok(tk_graph_has_arc(g, 3, 0) && !tk_graph_has_arc(g, 0, 3), "arcs are one-way");
    is_int(tk_graph_reverse(g, &r, &e), TK_OK, "reverse digraph");
    if (r) {
        ok(tk_graph_has_arc(r, 0, 3) && !tk_graph_has_arc(r, 3, 0), "reverse flips arcs");
        ok(tk_graph_has_arc(r, 2, 2) && tk_graph_has_arc(r, 1, 0), "reverse keeps loops");
        is_int(tk_graph_validate(r, &e), TK_OK, "reverse validates");
    }
    tk_graph_free(r);
    tk_graph_free(g);
}

static void test_builder_errors(void)
{
    tk_builder_t *b = NULL;
    tk_error_t e;
    int c, i;
    char name[16];

    is_int(tk_builder_new(&b, -1, 0, &e), TK_ELIMIT, "negative switch count refused");
    is_int(tk_builder_new(&b, (int64_t)1 << 40, 0, &e), TK_ELIMIT, "huge switch count refused");
    tk_builder_new(&b, 3, 0, &e);
    is_int(tk_builder_add(b, 0, 3, &e), TK_ERANGE, "head out of range");
    ok(strstr(e.msg, "out of range") != NULL, "range message");
    is_int(tk_builder_add(b, -1, 0, &e), TK_ERANGE, "negative id");
    is_int(tk_builder_add_ex(b, 0, 1, 0, 0.0, &e), TK_EINVAL, "zero capacity");
    is_int(tk_builder_add_ex(b, 0, 1, 0, NAN, &e), TK_EINVAL, "NaN capacity");
    is_int(tk_builder_add_ex(b, 0, 1, 5, 1.0, &e), TK_EINVAL, "undeclared class");
    is_int(tk_builder_class(b, "a b", &c, &e), TK_EINVAL, "class name with a space");
    is_int(tk_builder_class(b, "", &c, &e), TK_EINVAL, "empty class name");
    for (i = 1; i < TK_MAX_CLASSES; i++) {
        snprintf(name, sizeof name, "c%d", i);
        if (tk_builder_class(b, name, &c, &e))
            break;
    }
    is_int(i, TK_MAX_CLASSES, "up to TK_MAX_CLASSES classes");
    is_int(tk_builder_class(b, "onemore", &c, &e), TK_EINVAL, "too many classes");
    is_int(tk_builder_set_servers(b, 7, 1, &e), TK_ERANGE, "servers of unknown switch");
    is_int(tk_builder_set_servers(b, 1, -2, &e), TK_EINVAL, "negative servers");
    is_int(tk_builder_set_group(b, 1, -2, &e), TK_EINVAL, "negative group");
    is_int(tk_builder_set_ncoord(b, 0, &e), TK_EINVAL, "zero coordinates");
    tk_builder_free(b);
}

static void test_attributes(void)
{
    tk_builder_t *b;
    tk_graph_t *g = NULL;
    tk_error_t e;
    int32_t xy[2] = {4, 5};

    tk_builder_new(&b, 3, 0, NULL);
    tk_builder_set_servers_uniform(b, 4, &e);
    tk_builder_set_servers(b, 2, 9, &e);
    tk_builder_set_group(b, 1, 3, &e);
    tk_builder_set_ncoord(b, 2, &e);
    tk_builder_set_coord(b, 1, xy, &e);
    tk_builder_add(b, 0, 1, NULL);
    is_int(tk_builder_finish(b, &g, &e), TK_OK, "attributes build");
    if (!g)
        return;
    is_int(tk_graph_servers(g, 0), 4, "uniform servers kept for others");
    is_int(tk_graph_servers(g, 2), 9, "per-switch servers");
    is_int(tk_graph_total_servers(g), 17, "total servers");
    is_int(g->group[1], 3, "group id");
    is_int(g->group[0], 0, "default group 0");
    is_int(g->coord[2 * 1 + 1], 5, "coordinates");
    is_str(g->spec, "", "spec defaults to empty");
    is_int(tk_graph_set_spec(g, "x y", &e), TK_OK, "set spec");
    is_str(g->spec, "x y", "spec replaced");
    tk_graph_free(g);
}

static void test_rng(void)
{
    tk_rng_t *a, *b, *c;
    int i, same = 1, differ = 0, inrange = 1;
    uint64_t counts[6] = {0};
    double u, lo = 1, hi = 0;

    tk_rng_new(&a, 42, 3, NULL);
    tk_rng_new(&b, 42, 3, NULL);
    tk_rng_new(&c, 42, 4, NULL);
    for (i = 0; i < 1000; i++) {
        uint64_t x = tk_rng_below(a, 1000003), y = tk_rng_below(b, 1000003),
                 z = tk_rng_below(c, 1000003);
        same &= x == y;
        differ += x != z;
        inrange &= x < 1000003;
    }
    ok(same, "same (seed, task) gives the same stream");
    ok(differ > 990, "another task gives another stream");
    ok(inrange, "below(n) stays below n");
    for (i = 0; i < 60000; i++)
        counts[tk_rng_below(a, 6)]++;
    for (i = 0; i < 6; i++)
        if (counts[i] < 9400 || counts[i] > 10600)
            break;
    is_int(i, 6, "below(6) roughly uniform (each count within 6 sigma)");
    for (i = 0; i < 10000; i++) {
        u = tk_rng_uniform(a);
        lo = u < lo ? u : lo;
        hi = u > hi ? u : hi;
    }
    ok(lo >= 0 && hi < 1 && lo < 0.01 && hi > 0.99, "uniform in [0,1)");
    ok(tk_rng_below(a, (uint64_t)1 << 62) < ((uint64_t)1 << 62), "64-bit bound");
    is_int(tk_rng_below(a, 1), 0, "below(1) is 0");
    ok(tk_rng_gsl(a) != NULL, "GSL generator exposed");
    ok(tk_mix64(1) != tk_mix64(2), "mix64 mixes");
    tk_rng_free(a);
    tk_rng_free(b);
    tk_rng_free(c);
}

static void test_mem(void)
{
    ok(tk_malloc_array(SIZE_MAX / 2, 4) == NULL, "overflowing allocation refused");

    int64_t *a = NULL, *keep;
    ok(tk_resize_array(&a, 4, sizeof *a) == 0 && a != NULL, "resize_array allocates");
    for (int i = 0; i < 4; i++)
        a[i] = 10 + i;
    ok(tk_resize_array(&a, 1000, sizeof *a) == 0 && a[3] == 13, "resize_array keeps the contents");
    keep = a;
    ok(tk_resize_array(&a, SIZE_MAX / 2, 4) == -1 && a == keep && a[0] == 10,
       "overflowing resize_array refused, array unchanged");
    free(a);
    ok(tk_graph_bytes(1000, 1000) < tk_graph_bytes(1000, 2000), "graph bytes grow with arcs");
    ok(tk_graph_bytes(INT64_MAX, INT64_MAX) == UINT64_MAX, "graph bytes saturate");
    ok(tk_memory_limit_default() > 0, "physical memory known");
    uint64_t av = tk_memory_available();
    ok(av > 0 && av <= tk_memory_limit_default(), "memory available known, at most the physical");
    char b[32];
    tk_fmt_bytes(512, b, sizeof b);
    is_str(b, "512 bytes", "fmt_bytes: bytes");
    tk_fmt_bytes(1536, b, sizeof b);
    is_str(b, "1.5 KiB", "fmt_bytes: below 10 units, one decimal");
    tk_fmt_bytes((uint64_t)64 << 10, b, sizeof b);
    is_str(b, "64 KiB", "fmt_bytes: from 10 units, none");
    tk_fmt_bytes((uint64_t)24 << 30, b, sizeof b);
    is_str(b, "24 GiB", "fmt_bytes: GiB");
    tk_fmt_bytes(UINT64_MAX, b, sizeof b);
    is_str(b, "16 EiB", "fmt_bytes: the largest");
    is_str(tk_version(), PACKAGE_VERSION, "library version");
}

int main(void)
{
    test_errors();
    test_petersen();
    test_multigraph();
    test_directed();
    test_builder_errors();
    test_attributes();
    test_rng();
    test_mem();
    return tap_done();
}
