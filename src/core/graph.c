/*
 * graph.c - the CSR graph: queries, validation, copy, equality, reverse.
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tk_core.h"

void tk_graph_free(tk_graph_t *g)
{
    if (!g)
        return;
    free(g->off);
    free(g->head);
    free(g->rev);
    free(g->cls);
    free(g->cap);
    free(g->servers);
    free(g->group);
    free(g->coord);
    free(g->spec);
    free(g);
}

/* Duplicate count*size bytes (NULL stays NULL). */
static int dup_array(void **dst, const void *src, size_t count, size_t size)
{
    *dst = NULL;
    if (!src)
        return 0;
    *dst = tk_malloc_array(count, size);
    if (!*dst)
        return -1;
    memcpy(*dst, src, count * size);
    return 0;
}

tk_status_t tk_graph_copy(const tk_graph_t *g, tk_graph_t **out, tk_error_t *err)
{
    tk_graph_t *c = calloc(1, sizeof *c);
    size_t n = (size_t)g->n, m = (size_t)g->m;

    if (!c)
        goto nomem;
    *c = *g;
    c->off = NULL;
    c->head = NULL;
    c->rev = NULL;
    c->cls = NULL;
    c->cap = NULL;
    c->servers = NULL;
    c->group = NULL;
    c->coord = NULL;
    c->spec = NULL;
    if (dup_array((void **)&c->off, g->off, n + 1, sizeof *g->off) ||
        dup_array((void **)&c->head, g->head, m, sizeof *g->head) ||
        dup_array((void **)&c->rev, g->rev, m, sizeof *g->rev) ||
        dup_array((void **)&c->cls, g->cls, m, 1) ||
        dup_array((void **)&c->cap, g->cap, m, sizeof *g->cap) ||
        dup_array((void **)&c->servers, g->servers, n, sizeof *g->servers) ||
        dup_array((void **)&c->group, g->group, n, sizeof *g->group) ||
        dup_array((void **)&c->coord, g->coord, n * (size_t)g->ncoord, sizeof *g->coord))
        goto nomem;
    c->spec = strdup(g->spec ? g->spec : "");
    if (!c->spec)
        goto nomem;
    *out = c;
    return TK_OK;
nomem:
    tk_graph_free(c);
    return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory copying a graph");
}

int64_t tk_graph_links(const tk_graph_t *g)
{
    return g->directed ? g->m : g->m / 2;
}

int64_t tk_graph_loops(const tk_graph_t *g)
{
    int64_t u, a, loops = 0;

    for (u = 0; u < g->n; u++)
        for (a = g->off[u]; a < g->off[u + 1]; a++)
            loops += g->head[a] == u;
    return g->directed ? loops : loops / 2;
}

int64_t tk_graph_parallel(const tk_graph_t *g)
{
    int64_t u, a, rep = 0;

    /* Arcs are sorted by head, so repeats form runs.  Undirected: count each
     * link from its smaller end; a run of 2k loop arcs is k loop links. */
    for (u = 0; u < g->n; u++) {
        for (a = g->off[u]; a < g->off[u + 1];) {
            int64_t b = a;
            tk_id_t v = g->head[a];
            while (b < g->off[u + 1] && g->head[b] == v)
                b++;
            if (g->directed || v > u)
                rep += b - a - 1;
            else if (v == u)
                rep += (b - a) / 2 - 1;
            a = b;
        }
    }
    return rep;
}

int64_t tk_graph_total_servers(const tk_graph_t *g)
{
    int64_t u, s = 0;

    if (!g->servers)
        return (int64_t)g->servers_uniform * g->n;
    for (u = 0; u < g->n; u++)
        s += g->servers[u];
    return s;
}

int64_t tk_graph_regular_degree(const tk_graph_t *g)
{
    int64_t u, d, *in = NULL;

    if (g->n == 0)
        return 0;
    d = tk_graph_degree(g, 0);
    for (u = 1; u < g->n; u++)
        if (tk_graph_degree(g, (tk_id_t)u) != d)
            return -1;
    if (!g->directed)
        return d;
    in = calloc((size_t)g->n, sizeof *in);
    if (!in)
        return -1;
    for (u = 0; u < g->m; u++)
        in[g->head[u]]++;
    for (u = 0; u < g->n; u++)
        if (in[u] != d) {
            d = -1;
            break;
        }
    free(in);
    return d;
}

int tk_graph_has_arc(const tk_graph_t *g, tk_id_t u, tk_id_t v)
{
    int64_t lo = g->off[u], hi = g->off[u + 1];

    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (g->head[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < g->off[u + 1] && g->head[lo] == v;
}

int tk_graph_class_index(const tk_graph_t *g, const char *name)
{
    int i;

    for (i = 0; i < g->nclasses; i++)
        if (strcmp(g->class_name[i], name) == 0)
            return i;
    return -1;
}

tk_status_t tk_graph_validate(const tk_graph_t *g, tk_error_t *err)
{
    int64_t u, a;

    if (g->n < 0 || !g->off || (g->m > 0 && !g->head))
        return tk_error_set(err, TK_EINTERNAL, NULL, 0, "graph arrays missing");
    if (g->off[0] != 0 || g->off[g->n] != g->m)
        return tk_error_set(err, TK_EINTERNAL, NULL, 0, "graph offsets inconsistent");
    if (g->nclasses < 1 || g->nclasses > TK_MAX_CLASSES)
        return tk_error_set(err, TK_EINTERNAL, NULL, 0, "bad class count %d", g->nclasses);
    for (u = 0; u < g->n; u++) {
        if (g->off[u + 1] < g->off[u])
            return tk_error_set(err, TK_EINTERNAL, NULL, 0, "offsets decrease at switch %lld",
                                (long long)u);
        for (a = g->off[u]; a < g->off[u + 1]; a++) {
            tk_id_t v = g->head[a];
            if (v < 0 || v >= g->n)
                return tk_error_set(err, TK_ERANGE, NULL, 0,
                                    "arc %lld of switch %lld points to %d, outside 0..%d",
                                    (long long)a, (long long)u, (int)v, (int)g->n - 1);
            if (a > g->off[u] && g->head[a - 1] > v)
                return tk_error_set(err, TK_EINTERNAL, NULL, 0, "arcs of switch %lld not sorted",
                                    (long long)u);
            if (g->cls && g->cls[a] >= g->nclasses)
                return tk_error_set(err, TK_ERANGE, NULL, 0, "arc %lld has class %d", (long long)a,
                                    g->cls[a]);
            if (g->cap && (!(g->cap[a] > 0) || !isfinite(g->cap[a])))
                return tk_error_set(err, TK_ERANGE, NULL, 0, "arc %lld has capacity %g",
                                    (long long)a, g->cap[a]);
            if (!g->directed) {
                int64_t r;
                if (!g->rev)
                    return tk_error_set(err, TK_EINTERNAL, NULL, 0,
                                        "undirected graph without partner arcs");
                r = g->rev[a];
                if (r < 0 || r >= g->m || g->rev[r] != a || g->head[r] != u || r == a ||
                    (r < g->off[v] || r >= g->off[v + 1]) || (g->cls && g->cls[r] != g->cls[a]) ||
                    (g->cap && g->cap[r] != g->cap[a]))
                    return tk_error_set(err, TK_EINVAL, NULL, 0,
                                        "undirected graph not symmetric at link %lld-%d",
                                        (long long)u, (int)v);
            }
        }
    }
    if (g->servers)
        for (u = 0; u < g->n; u++)
            if (g->servers[u] < 0)
                return tk_error_set(err, TK_ERANGE, NULL, 0, "switch %lld has %d servers",
                                    (long long)u, g->servers[u]);
    if (g->servers_uniform < 0)
        return tk_error_set(err, TK_ERANGE, NULL, 0, "negative servers per switch");
    return TK_OK;
}

tk_status_t tk_graph_set_spec(tk_graph_t *g, const char *spec, tk_error_t *err)
{
    char *s = strdup(spec ? spec : "");

    if (!s)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    free(g->spec);
    g->spec = s;
    return TK_OK;
}

static const char *arc_class(const tk_graph_t *g, int64_t a)
{
    return g->class_name[g->cls ? g->cls[a] : 0];
}

int tk_graph_equal(const tk_graph_t *a, const tk_graph_t *b)
{
    int64_t u, k;

    if (a->n != b->n || a->m != b->m || a->directed != b->directed || a->ncoord != b->ncoord)
        return 0;
    if (memcmp(a->off, b->off, ((size_t)a->n + 1) * sizeof *a->off) != 0)
        return 0;
    for (k = 0; k < a->m; k++) {
        if (a->head[k] != b->head[k] || tk_graph_cap(a, k) != tk_graph_cap(b, k) ||
            strcmp(arc_class(a, k), arc_class(b, k)) != 0)
            return 0;
    }
    for (u = 0; u < a->n; u++) {
        if (tk_graph_servers(a, (tk_id_t)u) != tk_graph_servers(b, (tk_id_t)u))
            return 0;
        if ((a->group ? a->group[u] : 0) != (b->group ? b->group[u] : 0))
            return 0;
    }
    if (!a->group != !b->group)
        return 0;
    if (a->ncoord &&
        memcmp(a->coord, b->coord, (size_t)a->n * (size_t)a->ncoord * sizeof *a->coord))
        return 0;
    return 1;
}

tk_status_t tk_graph_reverse(const tk_graph_t *g, tk_graph_t **out, tk_error_t *err)
{
    tk_graph_t *r;
    int64_t u, a, *pos = NULL;
    tk_status_t st;

    if (!g->directed)
        return tk_graph_copy(g, out, err);
    st = tk_graph_copy(g, &r, err);
    if (st)
        return st;
    pos = tk_calloc_array((size_t)g->n + 1, sizeof *pos);
    if (!pos) {
        tk_graph_free(r);
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    }
    memset(r->off, 0, ((size_t)g->n + 1) * sizeof *r->off);
    for (a = 0; a < g->m; a++)
        r->off[g->head[a] + 1]++;
    for (u = 0; u < g->n; u++)
        r->off[u + 1] += r->off[u];
    memcpy(pos, r->off, (size_t)g->n * sizeof *pos);
    /* Tails visited in increasing order, so reversed arcs come out sorted. */
    for (u = 0; u < g->n; u++)
        for (a = g->off[u]; a < g->off[u + 1]; a++) {
            int64_t p = pos[g->head[a]]++;
            r->head[p] = (tk_id_t)u;
            if (r->cls)
                r->cls[p] = g->cls[a];
            if (r->cap)
                r->cap[p] = g->cap[a];
        }
    free(pos);
    *out = r;
    return TK_OK;
}
