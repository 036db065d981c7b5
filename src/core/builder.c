/*
 * builder.c - collect links, then build a validated CSR graph.
 *
 * Links are kept as parallel arrays (tail, head, class, capacity).  The
 * finish step builds the CSR with two counting sorts (by head, then by tail,
 * both stable), so the arcs of each switch come out sorted by head and, for
 * parallel links, in insertion order; a final pass orders parallel arcs by
 * class name and capacity.  Time O(n + m), memory about 16 bytes per arc extra.
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tk_core.h"

struct tk_builder {
    int64_t n;
    int directed;
    int64_t nlinks, caplinks;
    int32_t *lu, *lv;
    uint8_t *lcls; /* NULL until a link has a class != 0 */
    double *lcap;  /* NULL until a link has a capacity != 1 */
    int nclasses;
    char class_name[TK_MAX_CLASSES][TK_CLASS_NAME_MAX];
    int32_t servers_uniform;
    int32_t *servers;
    int32_t *group;
    int ncoord;
    int32_t *coord;
    char *spec;
};

void tk_builder_free(tk_builder_t *b)
{
    if (!b)
        return;
    free(b->lu);
    free(b->lv);
    free(b->lcls);
    free(b->lcap);
    free(b->servers);
    free(b->group);
    free(b->coord);
    free(b->spec);
    free(b);
}

tk_status_t tk_builder_new(tk_builder_t **out, int64_t n, int directed, tk_error_t *err)
{
    tk_builder_t *b;

    if (n < 0 || n > TK_MAX_SWITCHES)
        return tk_error_set(err, TK_ELIMIT, NULL, 0, "switch count %lld outside 0..%lld",
                            (long long)n, (long long)TK_MAX_SWITCHES);
    b = calloc(1, sizeof *b);
    if (!b)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    b->n = n;
    b->directed = directed ? 1 : 0;
    b->nclasses = 1;
    strcpy(b->class_name[0], "-");
    b->servers_uniform = 1;
    *out = b;
    return TK_OK;
}

int64_t tk_builder_links(const tk_builder_t *b)
{
    return b->nlinks;
}

static tk_status_t grow(tk_builder_t *b, int64_t want, tk_error_t *err)
{
    int64_t cap = b->caplinks ? b->caplinks : 16;
    int32_t *u, *v;

    if (want <= b->caplinks)
        return TK_OK;
    if (want > TK_MAX_ARCS)
        return tk_error_set(err, TK_ELIMIT, NULL, 0, "too many links (%lld)", (long long)want);
    while (cap < want)
        cap = cap < TK_MAX_ARCS / 2 ? cap * 2 : TK_MAX_ARCS;
    u = tk_realloc_array(b->lu, (size_t)cap, sizeof *u);
    if (!u)
        goto nomem;
    b->lu = u;
    v = tk_realloc_array(b->lv, (size_t)cap, sizeof *v);
    if (!v)
        goto nomem;
    b->lv = v;
    if (b->lcls) {
        uint8_t *c = tk_realloc_array(b->lcls, (size_t)cap, 1);
        if (!c)
            goto nomem;
        b->lcls = c;
    }
    if (b->lcap) {
        double *c = tk_realloc_array(b->lcap, (size_t)cap, sizeof *c);
        if (!c)
            goto nomem;
        b->lcap = c;
    }
    b->caplinks = cap;
    return TK_OK;
nomem:
    return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory for %lld links", (long long)want);
}

tk_status_t tk_builder_reserve(tk_builder_t *b, int64_t links, tk_error_t *err)
{
    return grow(b, links, err);
}

tk_status_t tk_builder_add(tk_builder_t *b, int64_t u, int64_t v, tk_error_t *err)
{
    return tk_builder_add_ex(b, u, v, 0, 1.0, err);
}

tk_status_t tk_builder_add_ex(tk_builder_t *b, int64_t u, int64_t v, int cls, double cap,
                              tk_error_t *err)
{
    tk_status_t st;
    int64_t i;

    if (u < 0 || u >= b->n || v < 0 || v >= b->n)
        return tk_error_set(err, TK_ERANGE, NULL, 0,
                            "link %lld %lld: switch id out of range 0..%lld", (long long)u,
                            (long long)v, (long long)b->n - 1);
    if (cls < 0 || cls >= b->nclasses)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "link %lld %lld: unknown class %d",
                            (long long)u, (long long)v, cls);
    if (!(cap > 0) || !isfinite(cap))
        return tk_error_set(err, TK_EINVAL, NULL, 0,
                            "link %lld %lld: capacity must be positive and finite", (long long)u,
                            (long long)v);
    st = grow(b, b->nlinks + 1, err);
    if (st)
        return st;
    i = b->nlinks;
    if (cls != 0 && !b->lcls) {
        b->lcls = tk_calloc_array((size_t)b->caplinks, 1);
        if (!b->lcls)
            return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    }
    if (cap != 1.0 && !b->lcap) {
        int64_t k;
        b->lcap = tk_malloc_array((size_t)b->caplinks, sizeof *b->lcap);
        if (!b->lcap)
            return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
        for (k = 0; k < i; k++)
            b->lcap[k] = 1.0;
    }
    b->lu[i] = (int32_t)u;
    b->lv[i] = (int32_t)v;
    if (b->lcls)
        b->lcls[i] = (uint8_t)cls;
    if (b->lcap)
        b->lcap[i] = cap;
    b->nlinks++;
    return TK_OK;
}

tk_status_t tk_builder_class(tk_builder_t *b, const char *name, int *cls, tk_error_t *err)
{
    int i;
    size_t len = strlen(name);

    for (i = 0; i < b->nclasses; i++)
        if (strcmp(b->class_name[i], name) == 0) {
            *cls = i;
            return TK_OK;
        }
    if (len == 0 || len >= TK_CLASS_NAME_MAX)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "class name '%s' must have 1 to %d characters",
                            name, TK_CLASS_NAME_MAX - 1);
    for (i = 0; name[i]; i++) {
        unsigned char c = (unsigned char)name[i];
        if (c <= ' ' || c == '#' || c >= 127)
            return tk_error_set(err, TK_EINVAL, NULL, 0,
                                "class name '%s' may not contain spaces, '#' or control bytes",
                                name);
    }
    if (b->nclasses >= TK_MAX_CLASSES)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "more than %d link classes", TK_MAX_CLASSES);
    memcpy(b->class_name[b->nclasses], name, len + 1);
    *cls = b->nclasses++;
    return TK_OK;
}

tk_status_t tk_builder_set_servers_uniform(tk_builder_t *b, int32_t p, tk_error_t *err)
{
    if (p < 0)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "servers per switch must be >= 0 (got %d)",
                            (int)p);
    b->servers_uniform = p;
    if (b->servers) {
        int64_t u;
        for (u = 0; u < b->n; u++)
            b->servers[u] = p;
    }
    return TK_OK;
}

static tk_status_t check_id(const tk_builder_t *b, int64_t u, tk_error_t *err)
{
    if (u < 0 || u >= b->n)
        return tk_error_set(err, TK_ERANGE, NULL, 0, "switch id %lld out of range 0..%lld",
                            (long long)u, (long long)b->n - 1);
    return TK_OK;
}

tk_status_t tk_builder_set_servers(tk_builder_t *b, int64_t u, int32_t p, tk_error_t *err)
{
    tk_status_t st = check_id(b, u, err);
    int64_t k;

    if (st)
        return st;
    if (p < 0)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "servers of switch %lld must be >= 0 (got %d)",
                            (long long)u, (int)p);
    if (!b->servers) {
        b->servers = tk_malloc_array((size_t)b->n, sizeof *b->servers);
        if (!b->servers)
            return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
        for (k = 0; k < b->n; k++)
            b->servers[k] = b->servers_uniform;
    }
    b->servers[u] = p;
    return TK_OK;
}

tk_status_t tk_builder_set_group(tk_builder_t *b, int64_t u, int32_t group, tk_error_t *err)
{
    tk_status_t st = check_id(b, u, err);

    if (st)
        return st;
    if (group < 0)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "group of switch %lld must be >= 0 (got %d)",
                            (long long)u, (int)group);
    if (!b->group) {
        b->group = tk_calloc_array((size_t)b->n, sizeof *b->group);
        if (!b->group)
            return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    }
    b->group[u] = group;
    return TK_OK;
}

tk_status_t tk_builder_set_ncoord(tk_builder_t *b, int ncoord, tk_error_t *err)
{
    if (ncoord < 1 || ncoord > 64)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "coordinate count %d outside 1..64", ncoord);
    if (b->ncoord && b->ncoord != ncoord)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "coordinate count already set to %d",
                            b->ncoord);
    if (!b->coord) {
        b->coord = tk_calloc_array((size_t)b->n * (size_t)ncoord, sizeof *b->coord);
        if (!b->coord && b->n > 0)
            return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    }
    b->ncoord = ncoord;
    return TK_OK;
}

tk_status_t tk_builder_set_coord(tk_builder_t *b, int64_t u, const int32_t *coord, tk_error_t *err)
{
    tk_status_t st = check_id(b, u, err);

    if (st)
        return st;
    if (!b->ncoord)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "coordinates set before their count");
    memcpy(b->coord + (size_t)u * (size_t)b->ncoord, coord, (size_t)b->ncoord * sizeof *coord);
    return TK_OK;
}

tk_status_t tk_builder_set_spec(tk_builder_t *b, const char *spec, tk_error_t *err)
{
    /* Every graph must write in the native format, which reads '#' as the
     * start of a comment (found by fuzzing the edge-list reader). */
    if (spec && strchr(spec, '#'))
        return tk_error_set(err, TK_EFORMAT, NULL, 0,
                            "spec '%s': contains '#' (the native format reads it as a comment)",
                            spec);
    char *s = strdup(spec ? spec : "");

    if (!s)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    free(b->spec);
    b->spec = s;
    return TK_OK;
}

/* Order of two arcs with the same tail and head: class name (not its
 * number, which follows the order of first appearance in the input, so
 * that writing and reading a graph back keeps its parallel arcs' order),
 * then capacity. */
static int tie_less(const tk_graph_t *g, int64_t a, int64_t c)
{
    uint8_t ka = g->cls ? g->cls[a] : 0, kc = g->cls ? g->cls[c] : 0;

    if (ka != kc) {
        int d = strcmp(g->class_name[ka], g->class_name[kc]);
        if (d != 0)
            return d < 0;
    }
    return g->cap && g->cap[a] < g->cap[c];
}

/* Arc k of link i: k = 2i (u->v) and 2i+1 (v->u) for undirected graphs,
 * k = i for directed ones.  Its tail and head: */
static inline int64_t arc_tail(const tk_builder_t *b, int64_t k)
{
    return b->directed ? b->lu[k] : (k & 1 ? b->lv[k >> 1] : b->lu[k >> 1]);
}

static inline int64_t arc_head(const tk_builder_t *b, int64_t k)
{
    return b->directed ? b->lv[k] : (k & 1 ? b->lu[k >> 1] : b->lv[k >> 1]);
}

/* The CSR arcs (g->off, g->head) sorted by tail, then head, stably:
 * link[pos] is the arc number k of CSR arc pos.  cnt (n + 1, zero) and
 * byhead (m): work. */
static void sort_arcs(const tk_builder_t *b, tk_graph_t *g, int64_t *cnt, int64_t *byhead,
                      int64_t *link)
{
    int64_t n = g->n, m = g->m;

    /* Counting sort by head (stable). */
    for (int64_t i = 0; i < m; i++)
        cnt[arc_head(b, i) + 1]++;
    for (int64_t u = 0; u < n; u++)
        cnt[u + 1] += cnt[u];
    for (int64_t i = 0; i < m; i++)
        byhead[cnt[arc_head(b, i)]++] = i;
    /* Offsets by tail, then a stable distribution by tail. */
    for (int64_t i = 0; i < m; i++)
        g->off[arc_tail(b, i) + 1]++;
    for (int64_t u = 0; u < n; u++)
        g->off[u + 1] += g->off[u];
    memcpy(cnt, g->off, (size_t)n * sizeof *cnt);
    for (int64_t i = 0; i < m; i++) {
        int64_t k = byhead[i], pos = cnt[arc_tail(b, k)]++;
        g->head[pos] = arc_head(b, k);
        link[pos] = k;
    }
}

/* Classes and capacities per arc, from their links.  Returns 0 or -1
 * (out of memory). */
static int arc_attributes(const tk_builder_t *b, tk_graph_t *g, const int64_t *link)
{
    int64_t m = g->m;

    g->nclasses = b->nclasses;
    memcpy(g->class_name, b->class_name, sizeof g->class_name);
    if (b->lcls) {
        g->cls = tk_malloc_array((size_t)m, 1);
        if (!g->cls)
            return -1;
        for (int64_t i = 0; i < m; i++)
            g->cls[i] = b->lcls[b->directed ? link[i] : link[i] >> 1];
    }
    if (b->lcap) {
        g->cap = tk_malloc_array((size_t)m, sizeof *g->cap);
        if (!g->cap)
            return -1;
        for (int64_t i = 0; i < m; i++)
            g->cap[i] = b->lcap[b->directed ? link[i] : link[i] >> 1];
    }
    return 0;
}

/* Parallel arcs: order each run of equal heads by class and capacity
 * (stable insertion sort; runs are short), link along. */
static void order_parallel(tk_graph_t *g, int64_t *link)
{
    if (!g->cls && !g->cap)
        return;
    for (int64_t u = 0; u < g->n; u++) {
        for (int64_t a = g->off[u] + 1; a < g->off[u + 1]; a++) {
            int64_t c = a;
            while (c > g->off[u] && g->head[c - 1] == g->head[c] && tie_less(g, c, c - 1)) {
                int64_t t = link[c];
                link[c] = link[c - 1];
                link[c - 1] = t;
                if (g->cls) {
                    uint8_t x = g->cls[c];
                    g->cls[c] = g->cls[c - 1];
                    g->cls[c - 1] = x;
                }
                if (g->cap) {
                    double x = g->cap[c];
                    g->cap[c] = g->cap[c - 1];
                    g->cap[c - 1] = x;
                }
                c--;
            }
        }
    }
}

/* Partner arcs (g->rev) of the L undirected links: arcs 2i and 2i+1 of
 * link i.  Returns 0 or -1 (out of memory). */
static int pair_arcs(tk_graph_t *g, int64_t L, const int64_t *link)
{
    int64_t m = g->m;
    int64_t *first = tk_malloc_array((size_t)L ? (size_t)L : 1, sizeof *first);

    g->rev = tk_malloc_array((size_t)m, sizeof *g->rev);
    if (!g->rev || !first) {
        free(first);
        return -1;
    }
    for (int64_t i = 0; i < m; i++) {
        int64_t k = link[i];
        if (!(k & 1))
            first[k >> 1] = i;
    }
    for (int64_t i = 0; i < m; i++) {
        int64_t k = link[i];
        if (k & 1) {
            int64_t j = first[k >> 1];
            g->rev[i] = j;
            g->rev[j] = i;
        }
    }
    free(first);
    return 0;
}

/* The builder's servers, groups, coordinates and spec move to g.  Returns
 * 0 or -1 (out of memory). */
static int hand_over(tk_builder_t *b, tk_graph_t *g)
{
    g->servers_uniform = b->servers_uniform;
    g->servers = b->servers;
    b->servers = NULL;
    g->group = b->group;
    b->group = NULL;
    g->ncoord = b->ncoord;
    g->coord = b->coord;
    b->coord = NULL;
    g->spec = b->spec ? b->spec : strdup("");
    b->spec = NULL;
    return g->spec ? 0 : -1;
}

tk_status_t tk_builder_finish(tk_builder_t *b, tk_graph_t **out, tk_error_t *err)
{
    tk_graph_t *g = NULL;
    int64_t n = b->n, L = b->nlinks, m;
    int64_t *cnt = NULL, *byhead = NULL, *link = NULL;
    tk_status_t st = TK_OK;

    m = b->directed ? L : 2 * L;
    g = calloc(1, sizeof *g);
    if (!g)
        goto nomem;
    g->n = (tk_id_t)n;
    g->m = m;
    g->directed = b->directed;
    g->off = tk_calloc_array((size_t)n + 1, sizeof *g->off);
    g->head = tk_malloc_array((size_t)m, sizeof *g->head);
    cnt = tk_calloc_array((size_t)n + 1, sizeof *cnt);
    byhead = tk_malloc_array((size_t)m, sizeof *byhead); /* arc ids ordered by head */
    link = tk_malloc_array((size_t)m, sizeof *link);     /* link id of each CSR arc */
    if (!g->off || !g->head || !cnt || !byhead || !link)
        goto nomem;
    sort_arcs(b, g, cnt, byhead, link);
    free(byhead);
    byhead = NULL;
    if (arc_attributes(b, g, link) != 0)
        goto nomem;
    order_parallel(g, link);
    if (!b->directed && pair_arcs(g, L, link) != 0)
        goto nomem;
    if (hand_over(b, g) != 0)
        goto nomem;

    free(cnt);
    free(link);
    tk_builder_free(b);
    *out = g;
    return TK_OK;

nomem:
    st = tk_error_set(err, TK_ENOMEM, NULL, 0,
                      "out of memory building a graph of %lld switches and %lld arcs", (long long)n,
                      (long long)m);
    free(cnt);
    free(byhead);
    free(link);
    tk_graph_free(g);
    tk_builder_free(b);
    return st;
}
