/*
 * test_pattern.c - the pattern object, its file format, validation,
 * aggregation to switch-level demands (tk_pattern.h), and the generators
 * against closed forms and brute force.
 *
 * Expected values: the unit conventions of topokit(7) worked by hand on
 * tiny topologies, closed forms of the structured kinds (shift, tornado,
 * transpose, bit-complement, ADV+i), breadth-first distances recomputed
 * here, and a brute force over all permutations for longest-matching.
 */
#include <config.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "topokit.h"

/* --- helpers --------------------------------------------------------------- */

static tk_graph_t *gen(const char *family, const char *params, int servers)
{
    char buf[256], *argv[16];
    int argc = 0;
    tk_gen_opts_t o;
    tk_graph_t *g = NULL;
    tk_error_t err;

    memset(&o, 0, sizeof o);
    o.seed = 1;
    o.seed_given = 1;
    if (servers >= 0) {
        o.servers = servers;
        o.servers_given = 1;
    }
    snprintf(buf, sizeof buf, "%s", params);
    for (char *t = strtok(buf, " "); t && argc < 16; t = strtok(NULL, " "))
        argv[argc++] = t;
    if (tk_generate(family, argc, argv, &o, &g, &err) != TK_OK) {
        printf("# generate %s %s: %s\n", family, params, err.msg);
        return NULL;
    }
    return g;
}

static tk_pattern_t *make(const tk_graph_t *g, const char *kind, const char *params, uint64_t seed,
                          tk_error_t *err)
{
    char buf[256], *argv[16];
    int argc = 0;
    tk_pattern_t *p = NULL;

    snprintf(buf, sizeof buf, "%s", params);
    for (char *t = strtok(buf, " "); t && argc < 16; t = strtok(NULL, " "))
        argv[argc++] = t;
    if (tk_pattern_make(g, kind, argc, argv, seed, 0, &p, err) != TK_OK)
        return NULL;
    return p;
}

/* Read a pattern from a string. */
static tk_status_t read_str(const char *text, tk_pattern_t **p, tk_error_t *err)
{
    FILE *fp = fmemopen((void *)text, strlen(text), "r");
    tk_status_t st = tk_pattern_read(fp, "t.pat", p, err);
    fclose(fp);
    return st;
}

/* Expect a read error at a given line with a message fragment. */
static void read_fails(const char *text, long line, const char *frag, const char *what)
{
    tk_pattern_t *p = NULL;
    tk_error_t err;
    tk_error_clear(&err);
    tk_status_t st = read_str(text, &p, &err);
    ok(st != TK_OK && p == NULL && err.line == line && strcmp(err.where, "t.pat") == 0 &&
           strstr(err.msg, frag) != NULL,
       "reader: %s -> t.pat:%ld: ...%s...", what, line, frag);
    if (st == TK_OK)
        tk_pattern_free(p);
    else if (err.line != line || !strstr(err.msg, frag))
        printf("#   got %s:%ld: %s\n", err.where, err.line, err.msg);
}

/* BFS distance matrix (n small), written here independently of tk_bfs. */
static int *all_dist(const tk_graph_t *g)
{
    int n = g->n, *d = malloc(sizeof(int) * n * n), *q = malloc(sizeof(int) * n);
    for (int s = 0; s < n; s++) {
        int *ds = d + (size_t)s * n, h = 0, t = 0;
        for (int v = 0; v < n; v++)
            ds[v] = -1;
        ds[s] = 0;
        q[t++] = s;
        while (h < t) {
            int u = q[h++];
            for (int64_t a = g->off[u]; a < g->off[u + 1]; a++)
                if (ds[g->head[a]] < 0) {
                    ds[g->head[a]] = ds[u] + 1;
                    q[t++] = g->head[a];
                }
        }
    }
    free(q);
    return d;
}

/* Is the pattern a permutation of endpoints (each sends once, receives
 * once, weight 1, no fixed point)? */
static int is_derangement(const tk_pattern_t *p)
{
    char *in = calloc((size_t)p->endpoints, 1), *out = calloc((size_t)p->endpoints, 1);
    int good = p->len == p->endpoints;
    for (int64_t i = 0; i < p->len && good; i++) {
        const tk_demand_t *d = &p->d[i];
        good = d->w == 1.0 && d->src != d->dst && !in[d->dst] && !out[d->src];
        in[d->dst] = out[d->src] = 1;
    }
    free(in);
    free(out);
    return good;
}

/* dst of endpoint s in a map-like pattern, or -1. */
static int64_t dst_of(const tk_pattern_t *p, int64_t s)
{
    for (int64_t i = 0; i < p->len; i++)
        if (p->d[i].src == s)
            return p->d[i].dst;
    return -1;
}

/* --- the object and the format ---------------------------------------------- */

static void test_roundtrip(void)
{
    tk_pattern_t *p = NULL, *q = NULL;
    tk_error_t err;
    char *buf = NULL;
    size_t len = 0;

    ok(tk_pattern_new(&p, TK_LEVEL_SERVER, 6, "test a=1", NULL, &err) == TK_OK, "new");
    is_str(p->topology, "", "NULL topology stored as empty");
    ok(tk_pattern_add(p, 0, 5, 1.0, &err) == TK_OK, "add weight 1");
    ok(tk_pattern_add(p, 1, 2, 0.1, &err) == TK_OK, "add weight 0.1");
    ok(tk_pattern_add(p, 2, 1, 1.0 / 3, &err) == TK_OK, "add weight 1/3");
    ok(tk_pattern_add(p, 6, 1, 1.0, &err) == TK_ERANGE, "add: id 6 of 6 endpoints -> ERANGE");
    ok(tk_pattern_add(p, 1, 1, 0.0, &err) == TK_EINVAL, "add: weight 0 -> EINVAL");
    ok(tk_pattern_add(p, 1, 1, NAN, &err) == TK_EINVAL, "add: weight NaN -> EINVAL");
    is_int(p->len, 3, "three demands kept");
    FILE *fp = open_memstream(&buf, &len);
    ok(tk_pattern_write(fp, p, &err) == TK_OK, "write");
    fclose(fp);
    ok(strstr(buf, "topokit-pattern 1\nspec test a=1\ntopology \nlevel server\nendpoints 6\n"
                   "demands 3\n0 5\n1 2 0.1\n") == buf,
       "written header, weight 1 omitted, 0.1 shortest");
    ok(read_str(buf, &q, &err) == TK_OK, "read back");
    if (q) {
        int same = q->len == p->len && q->level == p->level && q->endpoints == p->endpoints &&
                   strcmp(q->spec, p->spec) == 0;
        for (int64_t i = 0; same && i < q->len; i++)
            same =
                q->d[i].src == p->d[i].src && q->d[i].dst == p->d[i].dst && q->d[i].w == p->d[i].w;
        ok(same, "round trip is exact (1/3 reads back bit-identical)");
    } else {
        ok(0, "round trip is exact");
    }
    tk_pattern_free(p);
    tk_pattern_free(q);
    free(buf);

    /* Comments, blank lines, header order free. */
    ok(read_str("# c\ntopokit-pattern 1\n\nlevel switch # x\nendpoints 3\nspec a b  c\n"
                "demands 2\n0 1 0.5 # half\n\n2 0\n",
                &q, &err) == TK_OK &&
           q->len == 2 && q->d[0].w == 0.5 && q->d[1].src == 2 && strcmp(q->spec, "a b  c") == 0 &&
           q->level == TK_LEVEL_SWITCH,
       "comments, blank lines, any header order");
    tk_pattern_free(q);
}

static void test_reader_errors(void)
{
    read_fails("", 1, "no pattern", "empty input");
    read_fails("topokit-graph 1\n", 1, "not a pattern file", "bad header");
    read_fails("topokit-pattern 2\n", 1, "version", "bad version");
    read_fails("topokit-pattern 1\nlevel switch\nendpoints 3\n", 4, "no 'demands'",
               "header without demands");
    read_fails("topokit-pattern 1\nlevel router\n", 2, "level", "bad level");
    read_fails("topokit-pattern 1\nfoo 1\n", 2, "unknown header", "unknown header line");
    read_fails("topokit-pattern 1\nendpoints 3\ndemands 0\n", 3, "no 'level'", "missing level");
    read_fails("topokit-pattern 1\nlevel switch\nlevel switch\n", 3, "duplicate", "duplicate");
    read_fails("topokit-pattern 1\nlevel switch\nendpoints 3\ndemands 3\n0 1\n1 2\n", 7,
               "truncated: 2 of 3", "truncated demands");
    read_fails("topokit-pattern 1\nlevel switch\nendpoints 3\ndemands 1\n0 1\n1 2\n", 6,
               "more demand lines", "too many demands");
    read_fails("topokit-pattern 1\nlevel switch\nendpoints 3\ndemands 1\n0 3\n", 5, "out of range",
               "id out of range");
    read_fails("topokit-pattern 1\nlevel switch\nendpoints 3\ndemands 1\n0 -1\n", 5, "bad endpoint",
               "negative id");
    read_fails("topokit-pattern 1\nlevel switch\nendpoints 3\ndemands 1\n0 1 0\n", 5, "bad weight",
               "zero weight");
    read_fails("topokit-pattern 1\nlevel switch\nendpoints 3\ndemands 1\n0 1 inf\n", 5,
               "bad weight", "infinite weight");
    read_fails("topokit-pattern 1\nlevel switch\nendpoints 3\ndemands 1\n0 1 1 1\n", 5,
               "src dst [weight]", "four fields");
    read_fails("topokit-pattern 1\nlevel switch\nendpoints 0\n", 3, "out of range",
               "zero endpoints");
}

/* --- checking and aggregation ----------------------------------------------- */

static void test_check_and_units(void)
{
    /* Path 0-1-2 with 2, 1, 0 servers: servers 0,1 at switch 0, server 2 at
     * switch 1 (first = 0, 2, 3, 3). */
    tk_builder_t *b;
    tk_graph_t *g = NULL;
    tk_pattern_t *p = NULL;
    tk_swdemand_t d;
    tk_error_t err;

    tk_builder_new(&b, 3, 0, NULL);
    tk_builder_add(b, 0, 1, NULL);
    tk_builder_add(b, 1, 2, NULL);
    tk_builder_set_servers(b, 0, 2, NULL);
    tk_builder_set_servers(b, 1, 1, NULL);
    tk_builder_set_servers(b, 2, 0, NULL);
    ok(tk_builder_finish(b, &g, NULL) == TK_OK, "path with servers 2,1,0");

    /* Server level: 0 -> 1 (same switch: local), 0 -> 2 weight 0.5,
     * 1 -> 2 weight 0.5 (server 2 receives exactly 1). */
    tk_pattern_new(&p, TK_LEVEL_SERVER, 3, "", "", NULL);
    tk_pattern_add(p, 0, 1, 0.5, NULL);
    tk_pattern_add(p, 0, 2, 0.5, NULL);
    tk_pattern_add(p, 1, 2, 0.5, NULL);
    ok(tk_pattern_check(p, g, "p", &err) == TK_OK, "admissible server pattern");
    ok(tk_pattern_to_switch(p, g, &d, &err) == TK_OK, "to_switch");
    is_int(d.len, 1, "one switch pair (0,1)");
    ok(d.off[0] == 0 && d.off[1] == 1 && d.off[3] == 1 && d.dst[0] == 1, "pair 0 -> 1");
    is_dbl(d.w[0], 1.0, 0, "two half-units merge to 1 link unit");
    is_dbl(d.local, 0.5, 0, "same-switch demand is local");
    is_dbl(d.total, 1.0, 0, "total excludes local");
    is_dbl(d.inject[0], 1.0, 0, "inject[0]: server 0 sends 1");
    is_dbl(d.eject[1], 1.0, 0, "eject[1]: server 2 receives 1");
    is_dbl(d.eject[0], 0.5, 0, "eject[0]: server 1 receives 0.5");
    tk_swdemand_destroy(&d);
    tk_pattern_add(p, 1, 2, 0.25, NULL);
    ok(tk_pattern_check(p, g, "p", &err) == TK_EINVAL && strstr(err.msg, "server 2 receives 1.25"),
       "server 2 receiving 1.25 is not admissible (%s)", err.msg);
    ok(tk_pattern_to_switch(p, g, &d, &err) == TK_EINVAL, "to_switch checks first");
    tk_pattern_free(p);

    /* Wrong endpoint counts. */
    tk_pattern_new(&p, TK_LEVEL_SERVER, 4, "", "", NULL);
    ok(tk_pattern_check(p, g, "p", &err) == TK_EINVAL && strstr(err.msg, "3 servers"),
       "server count mismatch named");
    tk_pattern_free(p);
    tk_pattern_new(&p, TK_LEVEL_SWITCH, 2, "", "", NULL);
    ok(tk_pattern_check(p, g, "p", &err) == TK_EINVAL && strstr(err.msg, "3 switches"),
       "switch count mismatch named");
    tk_pattern_free(p);

    /* Switch level: weight w from switch s is w * p(s) link units; switch 2
     * has no server and counts as one endpoint of speed 1.  0 -> 2 w=0.5 is
     * 1 link unit, and switch 2 receives 0.5 * 2 / 1 = 1 of its own speed. */
    tk_pattern_new(&p, TK_LEVEL_SWITCH, 3, "", "", NULL);
    tk_pattern_add(p, 0, 2, 0.5, NULL);
    tk_pattern_add(p, 2, 1, 1.0, NULL);
    tk_pattern_add(p, 1, 0, 1.0, NULL);
    ok(tk_pattern_to_switch(p, g, &d, &err) == TK_OK, "switch-level to_switch (%s)", err.msg);
    is_dbl(d.w[d.off[0]], 1.0, 0, "0 -> 2: 0.5 of 2 servers = 1 link unit");
    is_dbl(d.w[d.off[2]], 1.0, 0, "2 -> 1: 1 of a server-less switch = 1 link unit");
    is_dbl(d.eject[0], 0.5, 0, "switch 0 receives 1 link unit = 0.5 of its 2 servers");
    is_dbl(d.eject[2], 1.0, 0, "switch 2 receives 1 in its own units");
    tk_swdemand_destroy(&d);
    tk_pattern_add(p, 1, 2, 0.5, NULL);
    ok(tk_pattern_check(p, g, "p", &err) == TK_EINVAL && strstr(err.msg, "switch 1 sends 1.5"),
       "switch 1 sending 1.5 refused (%s)", err.msg);
    tk_pattern_free(p);

    /* All-to-all: one unit per ordered pair. */
    ok(tk_swdemand_all_to_all(g, 0, &d, &err) == TK_OK, "all_to_all");
    is_int(d.len, 6, "n(n-1) entries");
    is_dbl(d.total, 6, 0, "total n(n-1)");
    ok(d.dst[d.off[1]] == 0 && d.dst[d.off[1] + 1] == 2, "row 1 sorted, no self");
    tk_swdemand_destroy(&d);
    ok(tk_swdemand_all_to_all(g, 10, &d, &err) == TK_ELIMIT, "all_to_all over memory limit");

    /* The uniform default (issue 25): server level, the server-less switch
     * 2 neither sends nor receives; switch 0 (2 servers) sends 2*1/(3-2)
     * = 2 to switch 1, switch 1 sends 1*2/(3-1) = 1 to switch 0. */
    ok(tk_swdemand_uniform(g, 0, &d, &err) == TK_OK, "uniform (%s)", err.msg);
    ok(d.len == 2 && d.off[2] == d.off[3] && d.dst[d.off[0]] == 1 && d.dst[d.off[1]] == 0,
       "uniform: only 0 <-> 1, nothing from or to the server-less switch 2");
    is_dbl(d.w[d.off[0]], 2.0, 0, "uniform: 0 -> 1 carries p(0) p(1) / (N - p(0)) = 2");
    is_dbl(d.w[d.off[1]], 1.0, 0, "uniform: 1 -> 0 carries 1");
    ok(d.inject[2] == 0 && d.eject[2] == 0 && d.eject[0] == 0.5 && d.eject[1] == 2,
       "uniform: a server of switch 0 receives 1/2, that of switch 1 receives 2, switch 2 "
       "nothing");
    is_dbl(tk_swdemand_limit(&d), 0.5, 0, "uniform: ejection limit 1/2");
    tk_swdemand_destroy(&d);
    tk_graph_free(g);
}

/* --- generators: simple kinds ------------------------------------------------ */

static void test_simple_kinds(void)
{
    tk_graph_t *g = gen("ring", "n=6", 3); /* 18 servers */
    tk_pattern_t *p, *q;
    tk_error_t err;

    p = make(g, "uniform", "", 1, &err);
    ok(p && p->level == TK_LEVEL_SERVER && p->len == 18 * 15, "uniform: 18*15 demands");
    if (p) {
        is_dbl(p->d[0].w, 1.0 / 15, 1e-15, "uniform weight 1/15");
        is_int(p->d[0].dst, 3, "uniform skips same-switch servers");
    }
    tk_pattern_free(p);
    p = make(g, "all-to-all", "", 1, &err);
    ok(p && p->level == TK_LEVEL_SWITCH && p->len == 30 && p->d[0].w == 0.2,
       "all-to-all: 30 demands of 1/5");
    tk_pattern_free(p);
    p = make(g, "shift", "offset=4", 1, &err);
    int good = p && p->len == 18 && p->level == TK_LEVEL_SERVER;
    for (int64_t i = 0; good && i < 18; i++)
        good = dst_of(p, i) == (i + 4) % 18;
    ok(good, "shift offset=4: i -> i+4 mod 18");
    if (p)
        is_str(p->spec, "shift offset=4 level=server", "canonical spec");
    tk_pattern_free(p);
    p = make(g, "shift", "offset=8 level=switch", 1, &err);
    good = p && p->len == 6 && p->level == TK_LEVEL_SWITCH;
    for (int64_t i = 0; good && i < 6; i++)
        good = dst_of(p, i) == (i + 2) % 6;
    ok(good, "shift offset=8 level=switch: i -> i+8 mod 6");
    tk_pattern_free(p);
    ok(!make(g, "shift", "offset=18", 1, &err) && err.code == TK_EINVAL &&
           strncmp(err.msg, "offset=18", 9) == 0,
       "shift by a multiple of the endpoints refused (%s)", err.msg);
    ok(!make(g, "shift", "", 1, &err) && strstr(err.msg, "offset"), "shift needs offset");
    ok(!make(g, "shift", "offset=1 bogus=2", 1, &err) && strstr(err.msg, "bogus"),
       "unknown key refused (%s)", err.msg);
    ok(!make(g, "nonesuch", "", 1, &err) && err.code == TK_EINVAL, "unknown kind refused");

    p = make(g, "switch-perm", "", 7, &err);
    ok(p && is_derangement(p) && p->endpoints == 6, "switch-perm: a derangement of 6 switches");
    q = make(g, "switch-perm", "", 7, &err);
    good = p && q && p->len == q->len;
    for (int64_t i = 0; good && i < p->len; i++)
        good = p->d[i].dst == q->d[i].dst;
    ok(good, "same seed, same permutation");
    if (p)
        is_str(p->spec, "switch-perm level=switch s=7", "randomized spec ends with s=SEED");
    tk_pattern_free(p);
    tk_pattern_free(q);
    p = make(g, "switch-perm", "level=server", 7, &err);
    good = p && p->len == 18 && p->level == TK_LEVEL_SERVER;
    for (int64_t i = 0; good && i < 18; i++) {
        int64_t t = dst_of(p, i);
        good = t % 3 == i % 3 && t / 3 != i / 3;
    }
    ok(good, "switch-perm level=server: server j of s to server j of pi(s)");
    tk_pattern_free(p);
    p = make(g, "server-perm", "", 3, &err);
    ok(p && is_derangement(p) && p->endpoints == 18, "server-perm: a derangement of 18 servers");
    tk_pattern_free(p);
    p = make(g, "random-shift", "level=switch", 5, &err);
    good = p && p->len == 6;
    int64_t a = good ? (dst_of(p, 0) + 6) % 6 : 0;
    for (int64_t i = 0; good && i < 6; i++)
        good = dst_of(p, i) == (i + a) % 6;
    ok(good && a >= 1 && a <= 5, "random-shift: one offset a in 1..5 for everyone (a=%d)", (int)a);
    tk_pattern_free(p);
    tk_graph_free(g);
}

/* --- perm-distance and longest-matching ------------------------------------ */

/* Every demand of a switch-level map pattern at distance lambda, and a
 * derangement. */
static int all_at(const tk_pattern_t *p, const int *D, int n, int lambda)
{
    if (!p || !is_derangement(p))
        return 0;
    for (int64_t i = 0; i < p->len; i++)
        if (D[p->d[i].src * n + p->d[i].dst] != lambda)
            return 0;
    return 1;
}

static void test_perm_distance(void)
{
    tk_graph_t *g = gen("rrg", "n=30 d=4", 1);
    tk_error_t err;
    int *D = all_dist(g), n = g->n, ecc_min = 1 << 30;

    for (int u = 0; u < n; u++) {
        int e = 0;
        for (int v = 0; v < n; v++)
            e = D[u * n + v] > e ? D[u * n + v] : e;
        ecc_min = e < ecc_min ? e : ecc_min;
    }
    for (int lambda = 1; lambda <= ecc_min; lambda++) {
        tk_pattern_t *p = make(g, "perm-distance",
                               lambda == 1   ? "lambda=1 level=switch"
                               : lambda == 2 ? "lambda=2 level=switch"
                                             : "lambda=3 level=switch",
                               5, &err);
        if (lambda > 3)
            break;
        ok(all_at(p, D, n, lambda),
           "perm-distance lambda=%d on rrg(30,4): a derangement, "
           "every pair at BFS distance %d",
           lambda, lambda);
        tk_pattern_t *q = make(g, "perm-distance",
                               lambda == 1   ? "lambda=1 level=switch"
                               : lambda == 2 ? "lambda=2 level=switch"
                                             : "lambda=3 level=switch",
                               6, &err);
        int differ = 0;
        for (int64_t i = 0; p && q && i < p->len && i < q->len; i++)
            differ |= p->d[i].dst != q->d[i].dst;
        ok(q && all_at(q, D, n, lambda) && differ,
           "lambda=%d: seed 6 gives another valid "
           "matching",
           lambda);
        tk_pattern_free(p);
        tk_pattern_free(q);
    }
    char key[32];
    snprintf(key, sizeof key, "lambda=%d", ecc_min + 1);
    ok(!make(g, "perm-distance", key, 1, &err) && err.code == TK_EUNSUPPORTED &&
           strncmp(err.msg, key, strlen(key)) == 0 && strstr(err.msg, "radius"),
       "lambda above the radius: error names lambda and the radius (%s)", err.msg);
    free(D);
    tk_graph_free(g);

    /* Star K_{1,3}: radius 1, but the three leaves all need the centre. */
    tk_builder_t *b;
    tk_builder_new(&b, 4, 0, NULL);
    for (int v = 1; v < 4; v++)
        tk_builder_add(b, 0, v, NULL);
    tk_builder_finish(b, &g, NULL);
    ok(!make(g, "perm-distance", "lambda=1", 1, &err) && err.code == TK_EUNSUPPORTED &&
           strstr(err.msg, "lambda=1") && strstr(err.msg, "radius 1") &&
           strstr(err.msg, "covers 2 of 4"),
       "star: no permutation at distance 1 although lambda = radius (%s)", err.msg);
    tk_graph_free(g);
}

/* Brute force: largest sum of D[u][pi(u)] over all permutations pi. */
static int best_total(const int *D, int n, int *perm, int k, int used)
{
    if (k == n)
        return 0;
    int best = -1;
    for (int v = 0; v < n; v++)
        if (!(used >> v & 1)) {
            int t = D[k * n + v] + best_total(D, n, perm, k + 1, used | 1 << v);
            best = t > best ? t : best;
        }
    return best;
}

static void test_longest_matching(void)
{
    const char *cases[][2] = {
        {"rrg", "n=8 d=3"},     {"rrg", "n=8 d=4"},  {"ring", "n=7"},    {"hypercube", "dim=3"},
        {"torus", "sides=2,3"}, {"complete", "n=5"}, {"rrg", "n=6 d=3"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        tk_graph_t *g = gen(cases[c][0], cases[c][1], -1);
        tk_error_t err;
        int n = g->n, *D = all_dist(g), perm[16];
        int want = best_total(D, n, perm, 0, 0), got = 0;
        tk_pattern_t *p = make(g, "longest-matching", "level=switch", 1, &err);
        int perm_ok = p != NULL;
        char *in = calloc((size_t)n, 1);
        for (int64_t i = 0; p && i < p->len; i++) {
            got += D[p->d[i].src * n + p->d[i].dst];
            perm_ok &= !in[p->d[i].dst] && p->d[i].w == 1.0;
            in[p->d[i].dst] = 1;
        }
        ok(perm_ok && got == want, "longest-matching on %s %s: total distance %d = brute force %d",
           cases[c][0], cases[c][1], got, want);
        free(in);
        free(D);
        tk_pattern_free(p);
        tk_graph_free(g);
    }
}

/* --- coordinates and hypercubes --------------------------------------------- */

static tk_id_t at2(const tk_graph_t *g, int x, int y)
{
    for (tk_id_t u = 0; u < g->n; u++)
        if (g->coord[2 * u] == x && g->coord[2 * u + 1] == y)
            return u;
    return -1;
}

static void test_coordinate_kinds(void)
{
    tk_error_t err;
    tk_graph_t *g = gen("torus", "sides=5,4", -1);
    tk_pattern_t *p = make(g, "tornado", "level=switch", 1, &err);
    int good = p && p->len == 20;
    for (tk_id_t u = 0; good && u < g->n; u++) {
        int x = g->coord[2 * u], y = g->coord[2 * u + 1];
        /* ceil(5/2)-1 = 2 and ceil(4/2)-1 = 1 */
        good = dst_of(p, u) == at2(g, (x + 2) % 5, (y + 1) % 4);
    }
    ok(good, "tornado on torus 5x4: (x,y) -> (x+2 mod 5, y+1 mod 4)");
    tk_pattern_free(p);
    p = make(g, "dim-shift", "dims=Y i=3 level=switch", 1, &err);
    good = p && p->len == 20;
    for (tk_id_t u = 0; good && u < g->n; u++)
        good = dst_of(p, u) == at2(g, g->coord[2 * u], (g->coord[2 * u + 1] + 3) % 4);
    ok(good, "dim-shift dims=Y i=3: (x,y) -> (x, y+3 mod 4)");
    tk_pattern_free(p);
    ok(!make(g, "dim-shift", "dims=XZ i=1", 1, &err) && strstr(err.msg, "'Z' does not exist"),
       "dim-shift: a dimension the grid lacks (%s)", err.msg);
    ok(!make(g, "transpose", "", 1, &err) && err.code == TK_EUNSUPPORTED,
       "transpose refuses a non-square grid");
    tk_graph_free(g);

    g = gen("hyperx", "sides=16,16", 1);
    p = make(g, "dim-shift", "dims=XY i=7", 1, &err);
    good = p && p->len == 256 && p->level == TK_LEVEL_SERVER;
    for (tk_id_t u = 0; good && u < g->n; u++)
        good = dst_of(p, u) == at2(g, (g->coord[2 * u] + 7) % 16, (g->coord[2 * u + 1] + 7) % 16);
    ok(good, "Cano et al.'s XY-7-shift on HyperX 16x16: servers of (x,y) to (x+7, y+7)");
    tk_pattern_free(p);
    tk_graph_free(g);

    g = gen("hyperx", "sides=4,4", -1);
    p = make(g, "transpose", "level=switch", 1, &err);
    good = p && p->len == 12;
    for (tk_id_t u = 0; good && u < g->n; u++) {
        int x = g->coord[2 * u], y = g->coord[2 * u + 1];
        good = dst_of(p, u) == (x == y ? -1 : at2(g, y, x));
    }
    ok(good, "transpose on HyperX 4x4: (x,y) -> (y,x), the 4 diagonal switches silent");
    tk_pattern_free(p);
    tk_graph_free(g);

    g = gen("hypercube", "dim=4", -1);
    int *D = all_dist(g);
    p = make(g, "bit-complement", "level=switch", 1, &err);
    good = p && p->len == 16;
    for (tk_id_t u = 0; good && u < 16; u++)
        good = dst_of(p, u) == (15 ^ u) && D[u * 16 + (15 ^ u)] == 4;
    ok(good, "bit-complement on Q4: u -> 15 - u, every pair at distance 4");
    free(D);
    tk_pattern_free(p);
    tk_graph_free(g);
    g = gen("ring", "n=8", -1);
    ok(!make(g, "bit-complement", "", 1, &err) && err.code == TK_EUNSUPPORTED,
       "bit-complement refuses C8 (8 switches but not a hypercube)");
    ok(!make(g, "tornado", "", 1, &err) && err.code == TK_EUNSUPPORTED &&
           strstr(err.msg, "coordinates"),
       "tornado refuses a graph without coordinates");
    ok(!make(g, "adv", "i=1", 1, &err) && err.code == TK_EUNSUPPORTED && strstr(err.msg, "groups"),
       "adv refuses a graph without groups");
    tk_graph_free(g);
}

/* --- Dragonfly kinds ---------------------------------------------------------- */

static void test_dragonfly_kinds(void)
{
    tk_error_t err;
    /* a=4 h=2 p=2: g = a*h+1 = 9 groups, 8 servers per group; palmtree:
     * router i port k of group j goes to group j + i*h + k + 1, so router 0
     * (R_out, the one linked to group j+1) reaches groups j+1 and j+2. */
    tk_graph_t *g = gen("dragonfly", "a=4 h=2", 2);
    int G = 9, per = 8;
    tk_pattern_t *p = make(g, "adv", "i=2", 1, &err);
    int good = p && p->len == 72 && is_derangement(p);
    for (int64_t k = 0; good && k < p->len; k++) {
        int64_t s = p->d[k].src, t = p->d[k].dst;
        good = t / per == (s / per + 2) % G && t % per == s % per;
    }
    ok(good, "adv i=2: server at position k of group j to position k of group j+2");
    tk_pattern_free(p);
    p = make(g, "advr", "i=1", 4, &err);
    good = p && p->len == 72 && is_derangement(p);
    int moved = 0;
    for (int64_t k = 0; good && k < p->len; k++) {
        good = p->d[k].dst / per == (p->d[k].src / per + 1) % G;
        moved += p->d[k].dst % per != p->d[k].src % per;
    }
    ok(good && moved > 0, "advr i=1: a random permutation into group j+1 (%d moved)", moved);
    tk_pattern_free(p);
    p = make(g, "advc", "", 1, &err);
    good = p && p->len == 72 * 16;
    double *rcv = calloc(72, sizeof *rcv), *snd = calloc(72, sizeof *snd);
    for (int64_t k = 0; good && k < p->len; k++) {
        int64_t s = p->d[k].src, t = p->d[k].dst;
        int off = (int)((t / per - s / per + G) % G);
        good = (off == 1 || off == 2) && fabs(p->d[k].w - 1.0 / 16) < 1e-15;
        rcv[t] += p->d[k].w;
        snd[s] += p->d[k].w;
    }
    for (int e = 0; good && e < 72; e++)
        good = fabs(rcv[e] - 1) < 1e-12 && fabs(snd[e] - 1) < 1e-12;
    ok(good, "advc (palmtree): groups j+1..j+h, 1/(h*a*p) to each server, sums exactly 1");
    if (p)
        is_str(p->spec, "advc", "advc needs no scaling on palmtree");
    free(rcv);
    free(snd);
    tk_pattern_free(p);

    p = make(g, "hotspot", "count=3", 2, &err);
    rcv = calloc(72, sizeof *rcv);
    int hot = 0;
    for (int64_t k = 0; p && k < p->len; k++)
        rcv[p->d[k].dst] += p->d[k].w;
    for (int e = 0; e < 72; e++)
        hot += fabs(rcv[e] - 1) < 1e-12;
    ok(p && p->len == 69 * 3 && hot == 3, "hotspot count=3: 3 servers receive exactly 1");
    free(rcv);
    tk_pattern_free(p);

    p = make(g, "mixed", "base=perm percent=50 level=node", 3, &err);
    /* 36 participants in a permutation; 36 others uniform over the 71
     * other servers.  A participant then receives 1 + 36/71, so every
     * weight is scaled by 71/107 to stay admissible. */
    int cnt[72] = {0}, one = 0, many = 0;
    double wmax = 0, wmin = 1;
    for (int64_t k = 0; p && k < p->len; k++) {
        cnt[p->d[k].src]++;
        wmax = p->d[k].w > wmax ? p->d[k].w : wmax;
        wmin = p->d[k].w < wmin ? p->d[k].w : wmin;
    }
    for (int e = 0; e < 72; e++) {
        one += cnt[e] == 1;
        many += cnt[e] == 71;
    }
    ok(p && one == 36 && many == 36 && fabs(wmax - 71.0 / 107) < 1e-12 &&
           fabs(wmin - 1.0 / 107) < 1e-12,
       "mixed perm node 50%%: 36 in a permutation, 36 uniform, scaled by 71/107");
    tk_pattern_free(p);
    p = make(g, "mixed", "base=shift percent=25 level=router", 3, &err);
    ok(p != NULL, "mixed shift router 25%% is admissible (after scaling: %s)",
       p ? p->spec : err.msg);
    tk_pattern_free(p);
    ok(!make(g, "mixed", "base=nope percent=5", 3, &err) && strncmp(err.msg, "base=nope", 9) == 0,
       "mixed: unknown base named");
    ok(!make(g, "adv", "i=9", 1, &err) && strncmp(err.msg, "i=9", 3) == 0,
       "adv i=9 with 9 groups refused");
    tk_graph_free(g);
}

/* p written in form f and read back: NULL when either fails. */
static tk_pattern_t *through_form(const tk_pattern_t *p, const tk_graph_t *g, tk_pattern_form_t f,
                                  tk_pattern_form_t *used, tk_error_t *err)
{
    char *buf = NULL;
    size_t len = 0;
    tk_pattern_t *q = NULL;
    FILE *fp = open_memstream(&buf, &len);
    tk_status_t st = tk_pattern_write_form(fp, p, g, f, used, err);

    fclose(fp);
    if (st == TK_OK)
        st = read_str(buf, &q, err);
    free(buf);
    return st == TK_OK ? q : NULL;
}

static int same_demands(const tk_pattern_t *p, const tk_pattern_t *q)
{
    int same = p && q && p->len == q->len && p->endpoints == q->endpoints && p->level == q->level;
    for (int64_t i = 0; same && i < p->len; i++)
        same = p->d[i].src == q->d[i].src && p->d[i].dst == q->d[i].dst && p->d[i].w == q->d[i].w;
    return same;
}

/* The fingerprint, tk_pattern_bind and the compact forms. */
static void test_forms(void)
{
    tk_graph_t *g = gen("dragonfly", "h=2", -1), *g2 = gen("dragonfly", "h=2", -1),
               *ga = gen("dragonfly", "h=2 arrangement=absolute", -1),
               *g3 = gen("dragonfly", "h=2", 3);
    uint64_t f, f2, fa, f3;
    tk_error_t err;
    tk_pattern_form_t used;

    if (!g || !g2 || !ga || !g3) {
        ok(0, "forms: dragonflies generated");
        return;
    }
    tk_pattern_fingerprint(g, &f, &err);
    tk_pattern_fingerprint(g2, &f2, &err);
    tk_pattern_fingerprint(ga, &fa, &err);
    tk_pattern_fingerprint(g3, &f3, &err);
    ok(f == f2 && f != fa && f != f3,
       "fingerprint: equal for equal graphs, differs for another arrangement or server count");
    free(g2->spec);
    g2->spec = strdup("renamed");
    tk_pattern_fingerprint(g2, &f2, &err);
    ok(f == f2, "fingerprint: the spec is not part of it");

    tk_pattern_t *p = make(g, "uniform", "", 1, &err), *q;
    ok(p && p->has_fingerprint && p->fingerprint == f, "a made pattern carries g's fingerprint");
    q = through_form(p, g, TK_PATTERN_AUTO, &used, &err);
    ok(q && used == TK_PATTERN_SPEC && q->len == 0, "auto: 5040 demands written as the spec");
    ok(q && tk_pattern_check(q, g, "q", &err) == TK_EINVAL,
       "a spec-form pattern is refused before tk_pattern_bind");
    ok(q && tk_pattern_bind(q, ga, 0, "q", &err) == TK_EINVAL && strstr(err.msg, "fingerprint"),
       "bind: another topology refused");
    ok(q && tk_pattern_bind(q, g, 0, "q", &err) == TK_OK && same_demands(p, q),
       "bind: the spec expands to the same demands, bit for bit");
    ok(q && tk_pattern_bind(q, ga, TK_PATTERN_FORCE, "q", &err) == TK_OK && q->len == p->len,
       "bind --force: expanded for the other topology");
    tk_pattern_free(q);
    q = through_form(p, g, TK_PATTERN_AGGREGATE, &used, &err);
    ok(q && used == TK_PATTERN_AGGREGATE && same_demands(p, q),
       "aggregate: read back to the same demands");
    ok(q && tk_pattern_bind(q, g, 0, "q", &err) == TK_OK, "aggregate: bound to g");
    tk_pattern_free(q);
    q = through_form(p, g, TK_PATTERN_EXPLICIT, &used, &err);
    ok(q && used == TK_PATTERN_EXPLICIT && same_demands(p, q) && q->fingerprint == f,
       "explicit: the same demands and fingerprint");
    ok(q && tk_pattern_checksum(q) == tk_pattern_checksum(p), "checksums agree");
    ok(q && through_form(q, g, TK_PATTERN_SPEC, NULL, &err) == NULL && err.code == TK_EUNSUPPORTED,
       "an explicit file cannot be written as a spec");
    tk_pattern_free(q);
    tk_pattern_free(p);
    p = make(g, "server-perm", "", 1, &err);
    ok(p && through_form(p, g, TK_PATTERN_AGGREGATE, NULL, &err) == NULL &&
           err.code == TK_EUNSUPPORTED,
       "a permutation has no aggregate form");
    tk_pattern_free(p);
    tk_graph_free(g);
    tk_graph_free(g2);
    tk_graph_free(ga);
    tk_graph_free(g3);
}

int main(void)
{
    test_forms();
    test_roundtrip();
    test_reader_errors();
    test_check_and_units();
    test_simple_kinds();
    test_perm_distance();
    test_longest_matching();
    test_coordinate_kinds();
    test_dragonfly_kinds();
    return tap_done();
}
