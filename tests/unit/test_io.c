/*
 * test_io.c - file formats: native, graph6, sparse6, digraph6, edge lists,
 * DOT; auto-detection; every reader error path with FILE:LINE; the
 * memory-limit refusal.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tk_core.h"
#include "tk_io.h"
#include "tap.h"

/* ------------------------------------------------------------------------ */
/* Helpers.                                                                 */

/* Write g in fmt to a malloc'd string (NULL on error, err filled). */
static char *write_str(const tk_graph_t *g, tk_format_t fmt, tk_status_t *st, tk_error_t *err)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    *st = tk_write_graph(fp, g, fmt, err);
    fclose(fp);
    if (*st != TK_OK) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* Read every graph of `text` (up to max) in fmt; returns the count read or
 * -1 on error (err filled, *st set). */
static int read_all(const char *text, tk_format_t fmt, uint64_t limit, tk_graph_t **gs, int max,
                    tk_format_t *fmts, tk_status_t *st, tk_error_t *err)
{
    FILE *fp = fmemopen((void *)text, strlen(text), "r");
    tk_reader_t *r;
    int k = 0;
    if (strlen(text) == 0) {
        fclose(fp);
        fp = fopen("/dev/null", "r");
    }
    *st = tk_reader_new(&r, fp, "t.in", fmt, limit, err);
    if (*st != TK_OK) {
        fclose(fp);
        return -1;
    }
    for (;;) {
        tk_graph_t *g;
        *st = tk_reader_next(r, &g, err);
        if (*st == TK_EOF) {
            *st = TK_OK;
            break;
        }
        if (*st != TK_OK) {
            while (k > 0)
                tk_graph_free(gs[--k]);
            k = -1;
            break;
        }
        if (fmts)
            fmts[k] = tk_reader_format(r);
        if (k < max)
            gs[k++] = g;
        else
            tk_graph_free(g);
    }
    tk_reader_free(r);
    fclose(fp);
    return k;
}

/* Read exactly one graph (NULL on error). */
static tk_graph_t *read_one(const char *text, tk_format_t fmt, tk_error_t *err)
{
    tk_graph_t *g[2] = {NULL, NULL};
    tk_status_t st;
    int k = read_all(text, fmt, 0, g, 2, NULL, &st, err);
    if (k != 1) {
        for (int i = 0; i < k; i++)
            tk_graph_free(g[i]);
        return NULL;
    }
    return g[0];
}

static tk_graph_t *build_simple(int64_t n, int directed, const int (*e)[2], int m)
{
    tk_builder_t *b;
    tk_graph_t *g = NULL;
    if (tk_builder_new(&b, n, directed, NULL) != TK_OK)
        return NULL;
    for (int i = 0; i < m; i++)
        tk_builder_add(b, e[i][0], e[i][1], NULL);
    tk_builder_finish(b, &g, NULL);
    return g;
}

static const int petersen_edges[15][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {0, 4},
                                          {0, 5}, {1, 6}, {2, 7}, {3, 8}, {4, 9},
                                          {5, 7}, {7, 9}, {9, 6}, {6, 8}, {8, 5}};

/* Write in fmt, read back with auto-detection, compare; then the re-written
 * text must be byte-identical. */
static void round_trip(const tk_graph_t *g, tk_format_t fmt, const char *what)
{
    tk_error_t err;
    tk_status_t st;
    char *s1 = write_str(g, fmt, &st, &err);
    if (!ok(s1 != NULL, "%s: write %s", what, tk_format_name(fmt))) {
        tap_diag("%s", err.msg);
        return;
    }
    tk_graph_t *h = read_one(s1, TK_FMT_AUTO, &err);
    if (!ok(h != NULL, "%s: read %s back", what, tk_format_name(fmt))) {
        tap_diag("%s:%ld: %s", err.where, err.line, err.msg);
        free(s1);
        return;
    }
    ok(tk_graph_equal(g, h), "%s: %s round trip is equal", what, tk_format_name(fmt));
    char *s2 = write_str(h, fmt, &st, &err);
    is_str(s2, s1, "%s: %s rewrite is byte-identical", what, tk_format_name(fmt));
    free(s2);
    free(s1);
    tk_graph_free(h);
}

/* Expect reading `text` to fail with code at t.in:line, message containing
 * `needle`. */
static void expect_error(const char *text, tk_format_t fmt, uint64_t limit, tk_status_t code,
                         long line, const char *needle, const char *what)
{
    tk_graph_t *gs[4];
    tk_status_t st;
    tk_error_t err;
    tk_error_clear(&err);
    int k = read_all(text, fmt, limit, gs, 4, NULL, &st, &err);
    int good = k < 0 && st == code && err.line == line && strcmp(err.where, "t.in") == 0 &&
               strstr(err.msg, needle) != NULL;
    if (!ok(good, "error: %s", what))
        tap_diag("got k=%d status %d (want %d) at %s:%ld (want line %ld): %s (want '%s')", k,
                 (int)st, (int)code, err.where, err.line, line, err.msg, needle);
    for (int i = 0; i < k; i++)
        tk_graph_free(gs[i]);
}

/* ------------------------------------------------------------------------ */
/* Tests.                                                                   */

static void test_format_names(void)
{
    tk_format_t f;
    tk_error_t err;
    ok(tk_format_parse("g6", &f, &err) == TK_OK && f == TK_FMT_GRAPH6, "g6 parses");
    ok(tk_format_parse("s6", &f, &err) == TK_OK && f == TK_FMT_SPARSE6, "s6 parses");
    ok(tk_format_parse("d6", &f, &err) == TK_OK && f == TK_FMT_DIGRAPH6, "d6 parses");
    ok(tk_format_parse("edgelist", &f, &err) == TK_OK && f == TK_FMT_EDGES, "edgelist parses");
    ok(tk_format_parse("dot", &f, &err) == TK_OK && f == TK_FMT_DOT, "dot parses");
    ok(tk_format_parse("native", &f, &err) == TK_OK && f == TK_FMT_NATIVE, "native parses");
    ok(tk_format_parse("xml", &f, &err) == TK_EINVAL && strstr(err.msg, "xml"),
       "unknown format refused");
    is_str(tk_format_name(TK_FMT_SPARSE6), "sparse6", "format name");
    FILE *fp = fopen("/dev/null", "r");
    tk_reader_t *r;
    ok(tk_reader_new(&r, fp, "x", TK_FMT_DOT, 0, &err) == TK_EINVAL, "dot cannot be read");
    fclose(fp);
}

/* A graph with every attribute of the native format. */
static tk_graph_t *build_rich(int directed)
{
    tk_builder_t *b;
    tk_graph_t *g = NULL;
    int local, global;
    tk_builder_new(&b, 6, directed, NULL);
    tk_builder_set_spec(b, "test rich n=6 x=\"q\"", NULL);
    tk_builder_class(b, "local", &local, NULL);
    tk_builder_class(b, "global", &global, NULL);
    tk_builder_add(b, 0, 1, NULL);
    tk_builder_add_ex(b, 1, 2, local, 1.0, NULL);
    tk_builder_add_ex(b, 2, 3, global, 2.5, NULL);
    tk_builder_add_ex(b, 3, 4, 0, 0.1, NULL);
    tk_builder_add_ex(b, 4, 4, local, 1e-300, NULL); /* self-loop */
    tk_builder_add(b, 5, 0, NULL);
    tk_builder_add(b, 5, 0, NULL); /* parallel */
    tk_builder_add_ex(b, 5, 0, global, 3, NULL);
    tk_builder_add(b, 2, 2, NULL); /* second loop */
    for (int u = 0; u < 6; u++) {
        int32_t co[2] = {u % 3, -u};
        tk_builder_set_servers(b, u, u + 1, NULL);
        tk_builder_set_group(b, u, u / 2, NULL);
        if (u == 0)
            tk_builder_set_ncoord(b, 2, NULL);
        tk_builder_set_coord(b, u, co, NULL);
    }
    tk_builder_finish(b, &g, NULL);
    return g;
}

static void test_native(void)
{
    tk_error_t err;
    tk_status_t st;
    for (int directed = 0; directed <= 1; directed++) {
        tk_graph_t *g = build_rich(directed);
        ok(g != NULL, "rich graph builds (directed %d)", directed);
        if (!g)
            continue;
        round_trip(g, TK_FMT_NATIVE, directed ? "rich directed" : "rich undirected");
        char *s = write_str(g, TK_FMT_NATIVE, &st, &err);
        tk_graph_t *h = read_one(s, TK_FMT_NATIVE, &err);
        is_str(h ? h->spec : NULL, "test rich n=6 x=\"q\"", "spec survives");
        tk_graph_free(h);
        ok(strstr(s, "classes local global\n") != NULL, "classes line written");
        ok(strstr(s, "4 4 local 1e-300\n") != NULL, "loop with class and tiny capacity");
        ok(strstr(s, "switch 5 servers=6 group=2 coord=2,-5\n") != NULL, "switch line");
        ok(strstr(s, "\nservers ") == NULL, "no uniform servers line with per-switch servers");
        free(s);
        tk_graph_free(g);
    }

    /* The exact text of a small plain graph. */
    tk_graph_t *k3 = build_simple(3, 0, (const int[][2]){{0, 1}, {1, 2}, {2, 0}}, 3);
    char *s = write_str(k3, TK_FMT_NATIVE, &st, &err);
    is_str(s, "topokit-graph 1\nswitches 3\ndirected 0\nservers 1\nlinks 3\n0 1\n0 2\n1 2\nend\n",
           "native text of a triangle");
    free(s);
    tk_graph_free(k3);

    /* Header lines in any order, comments anywhere, switch lines before
     * switches and coords. */
    const char *text = "# leading comment\n\n"
                       "topokit-graph 1   # magic\n"
                       "switch 2 coord=7,8 servers=3\n"
                       "coords 2\n"
                       "servers 2\n"
                       "spec  my spec  \n"
                       "switches 3\n"
                       "classes a\n"
                       "links 3\n"
                       "0 1 b 2   # class b undeclared: added\n"
                       "\n"
                       "1 2 a\n"
                       "2 0 - 0.5\n"
                       "end\n";
    tk_graph_t *g = read_one(text, TK_FMT_AUTO, &err);
    if (!ok(g != NULL, "native in any order parses"))
        tap_diag("%s:%ld: %s", err.where, err.line, err.msg);
    if (g) {
        is_str(g->spec, "my spec", "spec trimmed");
        is_int(g->n, 3, "n");
        is_int(tk_graph_links(g), 3, "links");
        is_int(tk_graph_servers(g, 0), 2, "uniform servers kept");
        is_int(tk_graph_servers(g, 2), 3, "per-switch servers");
        is_int(g->ncoord, 2, "coords");
        is_int(g->coord[2 * 2 + 1], 8, "coordinate of switch 2");
        is_int(g->nclasses, 3, "declared + undeclared class");
        ok(tk_graph_class_index(g, "b") == 2, "undeclared class appended");
        tk_graph_free(g);
    }

    /* Several records in one stream; a long spec line. */
    size_t big = 100000;
    char *spec = malloc(big + 1);
    memset(spec, 'x', big);
    spec[big] = '\0';
    tk_builder_t *b;
    tk_builder_new(&b, 2, 0, NULL);
    tk_builder_set_spec(b, spec, NULL);
    tk_builder_add(b, 0, 1, NULL);
    tk_builder_finish(b, &g, NULL);
    s = write_str(g, TK_FMT_NATIVE, &st, &err);
    size_t len = strlen(s);
    char *two = malloc(2 * len + 1);
    memcpy(two, s, len);
    memcpy(two + len, s, len + 1);
    tk_graph_t *gs[3];
    int k = read_all(two, TK_FMT_AUTO, 0, gs, 3, NULL, &st, &err);
    is_int(k, 2, "two records in one stream");
    if (k == 2) {
        ok(strcmp(gs[1]->spec, spec) == 0, "100000-byte spec line read whole");
        tk_graph_free(gs[0]);
        tk_graph_free(gs[1]);
    }
    free(two);
    free(s);
    free(spec);
    tk_graph_free(g);
}

static void test_native_errors(void)
{
    const tk_format_t A = TK_FMT_AUTO, N = TK_FMT_NATIVE;
    const char *H = "topokit-graph 1\nswitches 4\n";
    char buf[512];

    expect_error("switches 4\nlinks 0\nend\n", N, 0, TK_EFORMAT, 1, "missing 'topokit-graph 1'",
                 "missing magic");
    expect_error("# c\ntopokit-graph 2\nswitches 1\nlinks 0\nend\n", A, 0, TK_EUNSUPPORTED, 2,
                 "unsupported version '2'", "unsupported version");
    expect_error("topokit-graph 1 x\n", A, 0, TK_EFORMAT, 1, "trailing junk 'x'",
                 "junk after magic");
    snprintf(buf, sizeof buf, "%scolour red\nlinks 0\nend\n", H);
    expect_error(buf, A, 0, TK_EFORMAT, 3, "unknown header key 'colour'", "unknown header key");
    snprintf(buf, sizeof buf, "%sswitches 5\nlinks 0\nend\n", H);
    expect_error(buf, A, 0, TK_EFORMAT, 3, "duplicate 'switches' (first at line 2)",
                 "duplicate key");
    snprintf(buf, sizeof buf, "%sdirected 0\ndirected 1\nlinks 0\nend\n", H);
    expect_error(buf, A, 0, TK_EFORMAT, 4, "duplicate 'directed'", "duplicate directed");
    expect_error("topokit-graph 1\nswitches four\n", A, 0, TK_EFORMAT, 2,
                 "switches 'four': not an integer", "non-numeric switches");
    snprintf(buf, sizeof buf, "%slinks 1\n0 x\nend\n", H);
    expect_error(buf, A, 0, TK_EFORMAT, 4, "switch id 'x': not an integer", "non-numeric id");
    snprintf(buf, sizeof buf, "%slinks 1\n0 4\nend\n", H);
    expect_error(buf, A, 0, TK_ERANGE, 4, "switch id 4 out of range 0..3", "id out of range");
    snprintf(buf, sizeof buf, "%slinks 1\n-1 2\nend\n", H);
    expect_error(buf, A, 0, TK_ERANGE, 4, "switch id -1 out of range 0..3", "negative id");
    snprintf(buf, sizeof buf, "%slinks 3\n0 1\n1 2\nend\n", H);
    expect_error(buf, A, 0, TK_EFORMAT, 6, "only 2 link lines before 'end'",
                 "fewer links before end");
    snprintf(buf, sizeof buf, "%slinks 3\n0 1\n", H);
    expect_error(buf, A, 0, TK_EFORMAT, 4, "only 1 link lines before end of input",
                 "fewer links before EOF");
    snprintf(buf, sizeof buf, "%slinks 1\n0 1\n1 2\nend\n", H);
    expect_error(buf, A, 0, TK_EFORMAT, 5, "more link lines than the 1 declared",
                 "more links than declared");
    snprintf(buf, sizeof buf, "%slinks 1\n0 1\n", H);
    expect_error(buf, A, 0, TK_EFORMAT, 4, "missing 'end'", "missing end");
    snprintf(buf, sizeof buf, "%slinks 1\n0 1\nend now\n", H);
    expect_error(buf, A, 0, TK_EFORMAT, 5, "trailing junk 'now'", "junk after end");
    snprintf(buf, sizeof buf, "%slinks 1\n0 1 a 1 extra\nend\n", H);
    expect_error(buf, A, 0, TK_EFORMAT, 4, "trailing junk 'extra'", "junk on link line");
    snprintf(buf, sizeof buf, "%sservers 2 3\nlinks 0\nend\n", H);
    expect_error(buf, A, 0, TK_EFORMAT, 3, "trailing junk '3'", "junk on header line");
    snprintf(buf, sizeof buf, "%slinks 1\n0 1 a 0\nend\n", H);
    expect_error(buf, A, 0, TK_EFORMAT, 4, "bad capacity '0'", "zero capacity");
    snprintf(buf, sizeof buf, "%slinks 1\n0 1 a inf\nend\n", H);
    expect_error(buf, A, 0, TK_EFORMAT, 4, "bad capacity 'inf'", "infinite capacity");
    snprintf(buf, sizeof buf, "%slinks 1\n0 1 a 1x\nend\n", H);
    expect_error(buf, A, 0, TK_EFORMAT, 4, "bad capacity '1x'", "non-numeric capacity");
    snprintf(buf, sizeof buf, "%slinks 1\n0 1 9lives\nend\n", H);
    expect_error(buf, A, 0, TK_EFORMAT, 4, "bad class name '9lives'", "bad class in link");
    snprintf(buf, sizeof buf, "%sclasses ok b@d\nlinks 0\nend\n", H);
    expect_error(buf, A, 0, TK_EFORMAT, 3, "bad class name 'b@d'", "bad declared class");
    snprintf(buf, sizeof buf, "%sclasses a a\nlinks 0\nend\n", H);
    expect_error(buf, A, 0, TK_EFORMAT, 3, "class 'a' declared twice", "class twice");
    snprintf(buf, sizeof buf, "%sdirected 2\nlinks 0\nend\n", H);
    expect_error(buf, A, 0, TK_ERANGE, 3, "directed 2: must be between 0 and 1", "directed 2");
    expect_error("topokit-graph 1\nlinks 0\nend\n", A, 0, TK_EFORMAT, 2,
                 "missing 'switches' header", "missing switches");
    snprintf(buf, sizeof buf, "%s", H);
    expect_error(buf, A, 0, TK_EFORMAT, 2, "end of input before the 'links' line",
                 "truncated header");
    snprintf(buf, sizeof buf, "%send\n", H);
    expect_error(buf, A, 0, TK_EFORMAT, 3, "'end' before the 'links' line", "early end");
    snprintf(buf, sizeof buf, "%sswitch 4 servers=1\nlinks 0\nend\n", H);
    expect_error(buf, A, 0, TK_ERANGE, 3, "switch id 4 out of range 0..3",
                 "switch line id out of range");
    snprintf(buf, sizeof buf, "%sswitch 1 colour=red\nlinks 0\nend\n", H);
    expect_error(buf, A, 0, TK_EFORMAT, 3, "unknown switch attribute 'colour'",
                 "unknown switch attribute");
    snprintf(buf, sizeof buf, "%sswitch 1 coord=1,2\nlinks 0\nend\n", H);
    expect_error(buf, A, 0, TK_EFORMAT, 3, "no 'coords' header", "coord without coords");
    snprintf(buf, sizeof buf, "%scoords 2\nswitch 1 coord=1\nlinks 0\nend\n", H);
    expect_error(buf, A, 0, TK_EFORMAT, 4, "coord= has 1 values, 'coords' declares 2",
                 "wrong coordinate count");
    snprintf(buf, sizeof buf, "%sswitch 1 servers=1\nswitch 1 group=1\nlinks 0\nend\n", H);
    expect_error(buf, A, 0, TK_EFORMAT, 4, "duplicate 'switch 1' line", "switch line twice");
    snprintf(buf, sizeof buf, "%sswitch 1 servers=x\nlinks 0\nend\n", H);
    expect_error(buf, A, 0, TK_EFORMAT, 3, "servers='x': not an integer", "non-numeric servers=");
    expect_error("topokit-graph 1\nswitches 4000000000\nlinks 0\nend\n", A, 0, TK_ELIMIT, 2,
                 "switches 4000000000: more than the maximum", "switches above TK_MAX_SWITCHES");
    expect_error("topokit-graph 1\nswitches 10000000\nlinks 0\nend\n", A, 1 << 20, TK_ELIMIT, 2,
                 "above the memory limit of 1.0 MiB (TOPOKIT_MEMORY_LIMIT)",
                 "switches above the memory limit");
    expect_error("topokit-graph 1\nswitches 10\nlinks 100000000\n", A, 1 << 20, TK_ELIMIT, 3,
                 "links 100000000: graph would need", "links above the memory limit");
    expect_error("\x01\x02\n", A, 0, TK_EFORMAT, 1, "unrecognised input", "garbage");
    expect_error("hello world\n", A, 0, TK_EFORMAT, 1, "unrecognised input", "text garbage");
}

static void test_nauty(void)
{
    tk_error_t err;
    tk_status_t st;
    char *s;

    /* Petersen (outer 0..4, spokes i-i+5, inner pentagram). */
    tk_graph_t *pet = build_simple(10, 0, petersen_edges, 15);
    s = write_str(pet, TK_FMT_GRAPH6, &st, &err);
    is_str(s, "IheA@GUAo\n", "Petersen graph6 string");
    free(s);
    round_trip(pet, TK_FMT_GRAPH6, "Petersen");
    round_trip(pet, TK_FMT_SPARSE6, "Petersen");
    round_trip(pet, TK_FMT_NATIVE, "Petersen");
    round_trip(pet, TK_FMT_EDGES, "Petersen");
    tk_graph_t *h = read_one("IheA@GUAo", TK_FMT_GRAPH6, &err);
    ok(h && tk_graph_equal(h, pet), "Petersen from its graph6 string");
    is_int(h ? tk_graph_regular_degree(h) : -1, 3, "3-regular");
    ok(h && h->spec && h->spec[0] == '\0' && h->nclasses == 1 && tk_graph_servers(h, 0) == 1,
       "nauty reads: empty spec, no classes, 1 server");
    tk_graph_free(h);
    h = read_one(">>graph6<<IheA@GUAo\n", TK_FMT_AUTO, &err);
    ok(h && tk_graph_equal(h, pet), "graph6 with >>graph6<< header");
    tk_graph_free(h);
    tk_graph_free(pet);

    /* K4: n=4 -> 'C', all 6 bits set -> '~'. */
    tk_graph_t *k4 =
        build_simple(4, 0, (const int[][2]){{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}}, 6);
    s = write_str(k4, TK_FMT_GRAPH6, &st, &err);
    is_str(s, "C~\n", "K4 graph6 string");
    free(s);
    round_trip(k4, TK_FMT_GRAPH6, "K4");
    round_trip(k4, TK_FMT_SPARSE6, "K4");
    s = write_str(k4, TK_FMT_DIGRAPH6, &st, &err);
    ok(s == NULL && st == TK_EUNSUPPORTED, "digraph6 refuses an undirected graph");
    tk_graph_free(k4);

    /* formats.txt's sparse6 example: n=7, edges 0-1 0-2 1-2 5-6. */
    tk_graph_t *g7 = build_simple(7, 0, (const int[][2]){{0, 1}, {0, 2}, {1, 2}, {5, 6}}, 4);
    s = write_str(g7, TK_FMT_SPARSE6, &st, &err);
    is_str(s, ":Fa@x^\n", "sparse6 example string");
    free(s);
    h = read_one(":Fa@x^\n", TK_FMT_AUTO, &err);
    ok(h && tk_graph_equal(h, g7), "sparse6 example decodes");
    tk_graph_free(h);
    tk_graph_free(g7);

    /* Multigraph with loops in sparse6; graph6 refuses it. */
    tk_graph_t *mg = build_simple(
        5, 0, (const int[][2]){{0, 0}, {0, 1}, {0, 1}, {1, 1}, {1, 1}, {2, 4}, {4, 4}, {3, 3}}, 8);
    round_trip(mg, TK_FMT_SPARSE6, "multigraph with loops");
    s = write_str(mg, TK_FMT_GRAPH6, &st, &err);
    ok(s == NULL && st == TK_EUNSUPPORTED && strstr(err.msg, "sparse6"),
       "graph6 refuses a multigraph and suggests sparse6");
    tk_graph_free(mg);

    /* sparse6 padding: n = 2^k and the last edge ends at n-2. */
    for (int n = 2; n <= 32; n *= 2) {
        tk_graph_t *p = build_simple(n, 0, (const int[][2]){{0, n - 2}}, 1);
        char what[32];
        snprintf(what, sizeof what, "sparse6 padding n=%d", n);
        round_trip(p, TK_FMT_SPARSE6, what);
        tk_graph_free(p);
    }
    tk_graph_t *one = build_simple(1, 0, (const int[][2]){{0, 0}, {0, 0}}, 2);
    round_trip(one, TK_FMT_SPARSE6, "n=1 with two loops");
    tk_graph_free(one);
    tk_graph_t *empty = build_simple(0, 0, NULL, 0);
    round_trip(empty, TK_FMT_GRAPH6, "n=0");
    tk_graph_free(empty);

    /* Large n: the 4-byte N(n) form. */
    tk_graph_t *big = build_simple(70, 0, (const int[][2]){{0, 69}, {3, 4}}, 2);
    round_trip(big, TK_FMT_GRAPH6, "n=70");
    round_trip(big, TK_FMT_SPARSE6, "n=70");
    tk_graph_free(big);

    /* digraph6: formats.txt example (n=5, arcs 0->2 0->4 3->1 3->4). */
    tk_graph_t *d5 = build_simple(5, 1, (const int[][2]){{0, 2}, {0, 4}, {3, 1}, {3, 4}}, 4);
    s = write_str(d5, TK_FMT_DIGRAPH6, &st, &err);
    is_str(s, "&DI?AO?\n", "digraph6 example string");
    free(s);
    tk_graph_free(d5);
    tk_graph_t *dl =
        build_simple(4, 1, (const int[][2]){{0, 0}, {0, 1}, {1, 0}, {2, 3}, {3, 3}}, 5);
    round_trip(dl, TK_FMT_DIGRAPH6, "directed with loops");
    round_trip(dl, TK_FMT_NATIVE, "directed with loops");
    s = write_str(dl, TK_FMT_GRAPH6, &st, &err);
    ok(s == NULL && st == TK_EUNSUPPORTED && strstr(err.msg, "digraph6"),
       "graph6 refuses a directed graph");
    s = write_str(dl, TK_FMT_SPARSE6, &st, &err);
    ok(s == NULL && st == TK_EUNSUPPORTED, "sparse6 refuses a directed graph");
    tk_graph_free(dl);
    tk_graph_t *dp = build_simple(2, 1, (const int[][2]){{0, 1}, {0, 1}}, 2);
    s = write_str(dp, TK_FMT_DIGRAPH6, &st, &err);
    ok(s == NULL && st == TK_EUNSUPPORTED && strstr(err.msg, "parallel"),
       "digraph6 refuses parallel arcs");
    tk_graph_free(dp);

    /* Errors. */
    expect_error("C~~\n", TK_FMT_AUTO, 0, TK_EFORMAT, 1, "needs 1 bytes of adjacency data, found 2",
                 "graph6 too long");
    expect_error("\nIheA@GU\n", TK_FMT_AUTO, 0, TK_EFORMAT, 2, "needs 8 bytes", "graph6 too short");
    expect_error("C~\n:C!\n", TK_FMT_AUTO, 0, TK_EFORMAT, 2, "bad byte '!'", "sparse6 bad byte");
    expect_error(":Fa@x^\n", TK_FMT_GRAPH6, 0, TK_EFORMAT, 1, "expected graph6, found sparse6",
                 "explicit graph6 refuses sparse6");
    expect_error("~~~~~~~~\n", TK_FMT_AUTO, 0, TK_ELIMIT, 1,
                 "graph6 header n=68719476735: more than the maximum", "graph6 huge n");
    expect_error(":~~??@???\n", TK_FMT_AUTO, 1 << 20, TK_ELIMIT, 1,
                 "sparse6 header n=262144: graph would need", "sparse6 n above memory limit");
    expect_error("&~~??@???\n", TK_FMT_AUTO, 1 << 20, TK_ELIMIT, 1, "digraph6 header n=262144",
                 "digraph6 n above memory limit");
    expect_error(";Fa@x^\n", TK_FMT_AUTO, 0, TK_EUNSUPPORTED, 1, "incremental sparse6",
                 "incremental sparse6");
    expect_error("~\n", TK_FMT_AUTO, 0, TK_EFORMAT, 1, "truncated vertex count", "truncated N(n)");
}

static void test_edges_and_dot(void)
{
    tk_error_t err;
    tk_status_t st;

    /* Without a header: undirected, n = max id + 1, classes and capacities. */
    tk_graph_t *g =
        read_one("# a comment\n0 1\n1 5 fast 2.5  # trailing\n5 5\n", TK_FMT_AUTO, &err);
    if (!ok(g != NULL, "plain edge list parses"))
        tap_diag("%s:%ld: %s", err.where, err.line, err.msg);
    if (g) {
        is_int(g->n, 6, "n = max id + 1");
        ok(!g->directed, "undirected by default");
        is_int(tk_graph_links(g), 3, "3 links");
        is_int(tk_graph_loops(g), 1, "1 loop");
        ok(tk_graph_class_index(g, "fast") == 1, "class kept");
        round_trip(g, TK_FMT_EDGES, "edge list");
        tk_graph_free(g);
    }
    /* With a header: isolated switches, directed, spec. */
    g = read_one("# topokit-edges switches 5 directed 1\n# spec ring n=3\n0 1\n1 0\n", TK_FMT_EDGES,
                 &err);
    if (g) {
        is_int(g->n, 5, "header switch count");
        ok(g->directed, "header directed");
        is_str(g->spec, "ring n=3", "spec comment");
        char *s = write_str(g, TK_FMT_EDGES, &st, &err);
        is_str(s, "# topokit-edges switches 5 directed 1\n# spec ring n=3\n0 1\n1 0\n",
               "edge list text");
        free(s);
        tk_graph_free(g);
    } else {
        ok(0, "edge list with header parses: %s", err.msg);
    }
    tk_graph_t *rich = build_rich(0);
    /* Edge lists drop servers/groups/coords: compare the text instead. */
    {
        char *s1 = write_str(rich, TK_FMT_EDGES, &st, &err);
        tk_graph_t *h = read_one(s1, TK_FMT_AUTO, &err);
        char *s2 = h ? write_str(h, TK_FMT_EDGES, &st, &err) : NULL;
        is_str(s2, s1, "edge list with classes/capacities/loops/parallel links round trip");
        free(s1);
        free(s2);
        tk_graph_free(h);
    }
    char *dot = write_str(rich, TK_FMT_DOT, &st, &err);
    ok(dot && strncmp(dot, "graph topokit {\n", 16) == 0, "DOT: undirected header");
    ok(dot && strstr(dot, "label=\"test rich n=6 x=\\\"q\\\"\";") != NULL,
       "DOT: quoted spec label");
    ok(dot && strstr(dot, "  2 -- 3 [label=\"global cap=2.5\", color=") != NULL,
       "DOT: class and capacity label");
    ok(dot && strstr(dot, "  0 -- 1;\n") != NULL, "DOT: plain edge");
    free(dot);
    tk_graph_free(rich);
    tk_graph_t *d = build_simple(2, 1, (const int[][2]){{0, 1}}, 1);
    dot = write_str(d, TK_FMT_DOT, &st, &err);
    ok(dot && strstr(dot, "digraph topokit {") && strstr(dot, "0 -> 1;"), "DOT: digraph");
    free(dot);
    tk_graph_free(d);

    /* Errors. */
    expect_error("0 1\n1 x\n", TK_FMT_EDGES, 0, TK_EFORMAT, 2, "switch id 'x': not an integer",
                 "edges: non-numeric id");
    expect_error("0 1\n2\n", TK_FMT_EDGES, 0, TK_EFORMAT, 2, "expected 'u v", "edges: one id");
    expect_error("# topokit-edges switches 3 directed 0\n0 3\n", TK_FMT_AUTO, 0, TK_ERANGE, 2,
                 "switch id 3 out of range 0..2", "edges: id beyond header n");
    expect_error("0 1 - -2\n", TK_FMT_EDGES, 0, TK_EFORMAT, 1, "bad capacity '-2'",
                 "edges: negative capacity");
    expect_error("0 1 a 2 junk\n", TK_FMT_EDGES, 0, TK_EFORMAT, 1, "trailing junk 'junk'",
                 "edges: trailing junk");
    expect_error("0 1\n0 3000000000\n", TK_FMT_AUTO, 0, TK_ELIMIT, 2,
                 "switch id 3000000000: more than the maximum", "edges: id above max switches");
    expect_error("0 1\n0 50000000\n", TK_FMT_AUTO, 1 << 20, TK_ELIMIT, 2,
                 "switch id 50000000: graph would need", "edges: implied n above memory limit");
    expect_error("# topokit-edges switches 3 directed 2\n", TK_FMT_AUTO, 0, TK_ERANGE, 1,
                 "directed 2: must be 0 or 1", "edges: bad directed");
    expect_error("0 1\n# topokit-edges switches 3\n", TK_FMT_EDGES, 0, TK_EFORMAT, 2,
                 "header after the first edge", "edges: late header");
    expect_error("# topokit-edges switches 3 directed 0\n0 1\n# topokit-edges switches 3\n",
                 TK_FMT_AUTO, 0, TK_EFORMAT, 3, "duplicate topokit-edges header",
                 "edges: second header");
}

static void test_stream(void)
{
    tk_graph_t *gs[8];
    tk_format_t fmts[8];
    tk_status_t st;
    tk_error_t err;
    const char *text = "topokit-graph 1\nswitches 2\nlinks 1\n0 1\nend\n"
                       "C~\n"
                       ":Fa@x^\n"
                       "# comment between records\n"
                       "&DI?AO?\n"
                       "topokit-graph 1\nswitches 1\nlinks 0\nend\n"
                       "0 1\n1 2\n";
    int k = read_all(text, TK_FMT_AUTO, 0, gs, 8, fmts, &st, &err);
    if (!ok(k == 6, "mixed stream: 6 graphs"))
        tap_diag("k=%d %s:%ld: %s", k, err.where, err.line, err.msg);
    if (k == 6) {
        ok(fmts[0] == TK_FMT_NATIVE && fmts[1] == TK_FMT_GRAPH6 && fmts[2] == TK_FMT_SPARSE6 &&
               fmts[3] == TK_FMT_DIGRAPH6 && fmts[4] == TK_FMT_NATIVE && fmts[5] == TK_FMT_EDGES,
           "formats detected per record");
        is_int(gs[3]->directed, 1, "digraph6 record is directed");
        is_int(gs[5]->n, 3, "edge list at the end");
    }
    for (int i = 0; i < k; i++)
        tk_graph_free(gs[i]);
    k = read_all("", TK_FMT_AUTO, 0, gs, 8, NULL, &st, &err);
    ok(k == 0 && st == TK_OK, "empty input: no graph, no error");
    k = read_all("# only a comment\n\n", TK_FMT_NATIVE, 0, gs, 8, NULL, &st, &err);
    ok(k == 0 && st == TK_OK, "comments only: no graph");

    /* tk_read_file. */
    char path[] = "/tmp/tk-test-io-XXXXXX";
    int fd = mkstemp(path);
    FILE *fp = fdopen(fd, "w");
    fputs("# nothing\n", fp);
    fclose(fp);
    tk_graph_t *g = NULL;
    st = tk_read_file(path, TK_FMT_AUTO, 0, &g, &err);
    ok(st == TK_EFORMAT && strstr(err.msg, "no graph in input") && strcmp(err.where, path) == 0,
       "tk_read_file: no graph in input");
    fp = fopen(path, "w");
    fputs("C~\nC~\n", fp);
    fclose(fp);
    st = tk_read_file(path, TK_FMT_AUTO, 0, &g, &err);
    ok(st == TK_EFORMAT && err.line == 2 && strstr(err.msg, "more than one graph"),
       "tk_read_file: a second graph is an error");
    fp = fopen(path, "w");
    fputs("C~\n# trailing comment\n", fp);
    fclose(fp);
    st = tk_read_file(path, TK_FMT_AUTO, 0, &g, &err);
    ok(st == TK_OK && g && g->n == 4, "tk_read_file: one graph");
    tk_graph_free(g);
    unlink(path);
    st = tk_read_file("/nonexistent/x", TK_FMT_AUTO, 0, &g, &err);
    ok(st == TK_EIO && strcmp(err.where, "/nonexistent/x") == 0, "tk_read_file: missing file");
}

/* GraphML, GML, BookSim anynet and CAMINOS (io_graphml.c, io_gml.c,
 * io_booksim.c, io_caminos.c). */
static void test_exchange(void)
{
    static const tk_format_t xf[] = {TK_FMT_GRAPHML, TK_FMT_GML, TK_FMT_ANYNET, TK_FMT_CAMINOS};
    static const char *const xn[] = {"graphml", "gml", "anynet", "caminos"};
    tk_format_t f, fmts[2];
    tk_error_t err;
    tk_status_t st;
    tk_graph_t *gs[2];

    for (int i = 0; i < 4; i++) {
        ok(tk_format_parse(xn[i], &f, &err) == TK_OK && f == xf[i], "%s parses", xn[i]);
        is_str(tk_format_name(xf[i]), xn[i], "%s: its name", xn[i]);
    }
    ok(tk_format_parse("booksim", &f, &err) == TK_OK && f == TK_FMT_ANYNET, "booksim = anynet");
    /* Everything survives GraphML and GML: loops, parallel links, classes,
     * capacities down to 1e-300, servers, groups, coordinates, the spec with
     * a quote in it, directed graphs. */
    for (int directed = 0; directed <= 1; directed++) {
        tk_graph_t *g = build_rich(directed);
        const char *what = directed ? "rich directed" : "rich undirected";
        round_trip(g, TK_FMT_GRAPHML, what);
        round_trip(g, TK_FMT_GML, what);
        for (int i = 0; i < 2; i++) {
            char *sx = write_str(g, xf[i], &st, &err);
            tk_graph_t *h = sx ? read_one(sx, xf[i], &err) : NULL;
            is_str(h ? h->spec : NULL, "test rich n=6 x=\"q\"", "%s: the spec survives", xn[i]);
            tk_graph_free(h);
            free(sx);
        }
        /* anynet and CAMINOS refuse what they cannot hold. */
        for (int i = 2; i < 4; i++) {
            char *sx = write_str(g, xf[i], &st, &err);
            ok(sx == NULL && st == TK_EUNSUPPORTED, "%s: %s refused", what, xn[i]);
            free(sx);
        }
        tk_graph_free(g);
    }
    /* Simple graphs: anynet keeps servers, CAMINOS has none. */
    tk_graph_t *pet = build_simple(10, 0, petersen_edges, 15);
    round_trip(pet, TK_FMT_CAMINOS, "Petersen");
    round_trip(pet, TK_FMT_GML, "Petersen");
    tk_graph_t *pet2 = NULL;
    if (tk_graph_copy(pet, &pet2, &err) == TK_OK) {
        pet2->servers_uniform = 3;
        round_trip(pet2, TK_FMT_ANYNET, "Petersen, 3 servers each");
        char *sx = write_str(pet2, TK_FMT_ANYNET, &st, &err);
        ok(sx && strncmp(sx, "router 0 node 0 node 1 node 2 router 1 router 4 router 5\n", 56) == 0,
           "anynet: first line of Petersen");
        free(sx);
    }
    tk_graph_free(pet2);
    /* Auto-detection, each taking the rest of the stream. */
    const char *texts[] = {"<?xml version=\"1.0\"?>\n<graphml><graph edgedefault=\"undirected\">"
                           "<node id=\"a\"/><node id=\"b\"/><edge source=\"b\" target=\"a\"/>"
                           "</graph></graphml>\n",
                           "Creator \"x\"\ngraph\n[\n node [ id 7 ]\n node [ id 3 ]\n"
                           " edge [ source 3 target 7 ]\n]\n",
                           "router 1 router 0\n", "NODOS 2\nGRADO 1\nN 0\n1\nN 1\n0\n"};
    for (int i = 0; i < 4; i++) {
        int k = read_all(texts[i], TK_FMT_AUTO, 0, gs, 2, fmts, &st, &err);
        ok(k == 1 && fmts[0] == xf[i] && gs[0]->n == 2 && tk_graph_links(gs[0]) == 1 &&
               tk_graph_has_arc(gs[0], 0, 1),
           "%s detected: 2 switches, 1 link", xn[i]);
        if (k < 0)
            tap_diag("%s:%ld: %s", err.where, err.line, err.msg);
        for (int j = 0; j < k; j++)
            tk_graph_free(gs[j]);
    }
    /* Errors at their line. */
    expect_error("<graphml>\n<graph>\n<node id=\"a\"><data key=\"nokey\">1</data></node>\n",
                 TK_FMT_GRAPHML, 0, TK_EFORMAT, 3, "undeclared key", "graphml: undeclared key");
    expect_error("<graphml><graph edgedefault=\"directed\"><node id=\"a\"/>\n"
                 "<edge source=\"a\" target=\"a\" directed=\"false\"/></graph></graphml>",
                 TK_FMT_GRAPHML, 0, TK_EUNSUPPORTED, 2, "mixed graphs", "graphml: mixed graph");
    expect_error("<graphml><graph/><graph/></graphml>", TK_FMT_GRAPHML, 0, TK_EUNSUPPORTED, 1,
                 "more than one <graph>", "graphml: two graphs");
    expect_error("graph [\n directed 2\n]\n", TK_FMT_GML, 0, TK_EFORMAT, 2, "must be 0 or 1",
                 "gml: directed 2");
    expect_error("graph [\n node [ id 0 coord1 5 ]\n node [ id 1 coord0 1 coord1 2 ]\n]\n",
                 TK_FMT_GML, 0, TK_EFORMAT, 4, "coordinates coord0..coord1 must all be given",
                 "gml: a missing coordinate");
    expect_error("graph [ node [ id 0 ] edge [ source 0 target 0 class \"9x\" ] ]\n", TK_FMT_GML, 0,
                 TK_EFORMAT, 1, "not a class name", "gml: bad class name");
    expect_error("router 0 router 0\n", TK_FMT_ANYNET, 0, TK_EUNSUPPORTED, 1, "connected to itself",
                 "anynet: self-loop");
    expect_error("NODOS 2\nGRADO 2\nN 0\n1 1\nN 1\n0 0\n", TK_FMT_CAMINOS, 0, TK_EUNSUPPORTED, 6,
                 "parallel links are not supported", "caminos: repeated neighbour");
    expect_error("NODOS 5000000000\n", TK_FMT_CAMINOS, 0, TK_ELIMIT, 1, "NODOS",
                 "caminos: NODOS beyond the limits");
    tk_graph_free(pet);
}

int main(void)
{
    test_format_names();
    test_native();
    test_native_errors();
    test_nauty();
    test_edges_and_dot();
    test_stream();
    test_exchange();
    return tap_done();
}
