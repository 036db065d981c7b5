/*
 * io_booksim.c - BookSim's "anynet" network file (read and write).  As
 * BookSim 2's anynet network reads it, each line is a sequence of
 * "router ID" / "node ID" pairs: the first pair is the line's head, every
 * further pair is connected to the head.  A router-router pair is one
 * bidirectional channel (stating it again, from either end, adds nothing);
 * a node (a server, a terminal in BookSim) attaches to exactly one router.
 * Routers are numbered 0..R-1 and nodes 0..N-1.  The format has no link
 * classes, capacities, directions or parallel links.
 *
 * Reading: routers are switches, the nodes attached to a router its servers
 * (their numbering is not kept); a line that is only a head ("router 5")
 * declares the router.  Every router id below the largest must appear
 * somewhere (as BookSim numbers them), and every node id likewise.  Writing: one line per switch,
 * "router u", then its servers as consecutive node ids, then its neighbours v > u.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "io_internal.h"

typedef struct an {
    int64_t *node_router; /* per node id: router or -1 */
    int64_t capnodes, nnodes;
    uint64_t *pairs; /* router pairs, (lo << 32) | hi */
    int64_t npairs, cappairs;
    int64_t nrouters; /* largest router id + 1 */
    uint8_t *rseen;   /* per router id: named in the file         */
    int64_t caprseen;
} an_t;

/* Router id was named: 0, or -1 when out of memory. */
static int see_router(an_t *a, int64_t id)
{
    if (id >= a->caprseen) {
        int64_t nc = a->caprseen ? a->caprseen : 64;
        while (nc <= id)
            nc *= 2;
        uint8_t *p = tk_realloc_array(a->rseen, (size_t)nc, 1);
        if (!p)
            return -1;
        memset(p + a->caprseen, 0, (size_t)(nc - a->caprseen));
        a->rseen = p;
        a->caprseen = nc;
    }
    a->rseen[id] = 1;
    return 0;
}

static int grow_nodes(an_t *a, int64_t id)
{
    if (id < a->capnodes)
        return 0;
    int64_t nc = a->capnodes ? a->capnodes : 64;
    while (nc <= id)
        nc *= 2;
    int64_t *p = tk_realloc_array(a->node_router, (size_t)nc, sizeof *p);
    if (!p)
        return -1;
    for (int64_t i = a->capnodes; i < nc; i++)
        p[i] = -1;
    a->node_router = p;
    a->capnodes = nc;
    return 0;
}

static int add_pair(an_t *a, int64_t x, int64_t y)
{
    if (a->npairs == a->cappairs) {
        int64_t nc = a->cappairs ? 2 * a->cappairs : 256;
        uint64_t *p = tk_realloc_array(a->pairs, (size_t)nc, sizeof *p);
        if (!p)
            return -1;
        a->pairs = p;
        a->cappairs = nc;
    }
    uint64_t lo = (uint64_t)(x < y ? x : y), hi = (uint64_t)(x < y ? y : x);
    a->pairs[a->npairs++] = lo << 32 | hi;
    return 0;
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

#define FAIL(...) tk_error_set(err, TK_EFORMAT, r->name, r->line, __VA_ARGS__)

/* One "router|node ID" pair of the line; 0, or 1 at the end of the line. */
static tk_status_t read_pair(tk_reader_t *r, char **s, int *is_router, int64_t *id, int *end,
                             tk_error_t *err)
{
    char *kind = tk_io_token(s);
    *end = 0;
    if (!kind) {
        *end = 1;
        return TK_OK;
    }
    if (strcmp(kind, "router") != 0 && strcmp(kind, "node") != 0)
        return FAIL("anynet: '%.40s': expected 'router' or 'node'", kind);
    *is_router = kind[0] == 'r';
    char *tok = tk_io_token(s);
    if (!tok)
        return FAIL("anynet: '%s' without an id", kind);
    if (tk_io_parse_i64(tok, id) || *id < 0 || *id >= TK_MAX_SWITCHES)
        return FAIL("anynet: %s id '%.40s': not a whole number in 0..%ld", kind, tok,
                    (long)TK_MAX_SWITCHES - 1);
    return TK_OK;
}

static tk_status_t attach(tk_reader_t *r, an_t *a, int64_t node, int64_t router, tk_error_t *err)
{
    tk_status_t st;
    /* a node id is an entry of node_router: sized like a switch */
    if (node >= a->capnodes &&
        (st = tk_io_check_size(r, r->line, "node id", node + 1, 0, err)) != TK_OK)
        return st;
    if (grow_nodes(a, node))
        return tk_error_set(err, TK_ENOMEM, r->name, r->line, "out of memory");
    if (a->node_router[node] >= 0 && a->node_router[node] != router)
        return FAIL("anynet: node %" PRId64 " attached to routers %" PRId64 " and %" PRId64, node,
                    a->node_router[node], router);
    a->node_router[node] = router;
    if (node >= a->nnodes)
        a->nnodes = node + 1;
    return TK_OK;
}

static tk_status_t parse(tk_reader_t *r, an_t *a, tk_error_t *err)
{
    char *line;
    tk_status_t st;
    while ((st = tk_io_getline(r, &line, err)) == TK_OK) {
        char *s = line;
        while (*s == ' ' || *s == '\t')
            s++;
        if (*s == '\0' || *s == '#')
            continue;
        int hr = 0, br = 0, end;
        int64_t hid = 0, bid = 0;
        if ((st = read_pair(r, &s, &hr, &hid, &end, err)) != TK_OK)
            return st;
        if (end) /* only white space (\r, \v, \f): a blank line */
            continue;
        if (hr && hid >= a->nrouters &&
            (st = tk_io_check_size(r, r->line, "router id", hid + 1, 0, err)) != TK_OK)
            return st;
        if (hr && hid >= a->nrouters)
            a->nrouters = hid + 1;
        if (hr && see_router(a, hid))
            return tk_error_set(err, TK_ENOMEM, r->name, r->line, "out of memory");
        for (;;) {
            if ((st = read_pair(r, &s, &br, &bid, &end, err)) != TK_OK)
                return st;
            if (end)
                break;
            if (!hr && !br)
                return FAIL("anynet: node %" PRId64 " connected to node %" PRId64
                            " (nodes attach to routers)",
                            hid, bid);
            if (br && bid >= a->nrouters &&
                (st = tk_io_check_size(r, r->line, "router id", bid + 1, 0, err)) != TK_OK)
                return st;
            if (br && bid >= a->nrouters)
                a->nrouters = bid + 1;
            if (br && see_router(a, bid))
                return tk_error_set(err, TK_ENOMEM, r->name, r->line, "out of memory");
            if (!hr || !br) {
                st = hr ? attach(r, a, bid, hid, err) : attach(r, a, hid, bid, err);
                if (st != TK_OK)
                    return st;
            } else {
                if (hid == bid)
                    return tk_error_set(err, TK_EUNSUPPORTED, r->name, r->line,
                                        "anynet: router %" PRId64 " connected to itself", hid);
                if (add_pair(a, hid, bid))
                    return tk_error_set(err, TK_ENOMEM, r->name, r->line, "out of memory");
            }
        }
    }
    return st == TK_EOF ? TK_OK : st;
}

tk_status_t tk_io_read_anynet(tk_reader_t *r, tk_graph_t **g, tk_error_t *err)
{
    an_t a;
    tk_io_pg_t pg;
    tk_status_t st;
    memset(&a, 0, sizeof a);
    tk_io_pg_init(&pg);
    st = parse(r, &a, err);
    if (st == TK_OK && a.nrouters == 0)
        st = FAIL("anynet: no router");
    for (int64_t i = 0; st == TK_OK && i < a.nnodes; i++)
        if (a.node_router[i] < 0)
            st = FAIL("anynet: node ids must be 0..%" PRId64 " (node %" PRId64 " is missing)",
                      a.nnodes - 1, i);
    /* BookSim numbers the routers it reads: every id below the largest
     * must be named (and a lone "router 22222222" is not 22 M routers) */
    for (int64_t u = 0; st == TK_OK && u < a.nrouters; u++)
        if (!a.rseen[u])
            st = FAIL("anynet: router ids must be 0..%" PRId64 " (router %" PRId64 " is missing)",
                      a.nrouters - 1, u);
    for (int64_t u = 0, id; st == TK_OK && u < a.nrouters; u++)
        st = tk_io_pg_node(r, &pg, &id, err);
    for (int64_t i = 0; st == TK_OK && i < a.nnodes; i++)
        pg.servers[a.node_router[i]]++;
    pg.has_servers = 1; /* the nodes are the servers, none is none */
    if (st == TK_OK) {
        if (a.npairs > 0) /* no qsort of a NULL array, even empty (UBSan) */
            qsort(a.pairs, (size_t)a.npairs, sizeof *a.pairs, cmp_u64);
        for (int64_t k = 0; st == TK_OK && k < a.npairs; k++)
            if (k == 0 || a.pairs[k] != a.pairs[k - 1])
                st = tk_io_pg_link(r, &pg, (int64_t)(a.pairs[k] >> 32),
                                   (int64_t)(a.pairs[k] & 0xffffffffu), 0, 1.0, err);
    }
    if (st == TK_OK)
        st = tk_io_pg_finish(r, &pg, g, err);
    tk_io_pg_free(&pg);
    free(a.node_router);
    free(a.pairs);
    free(a.rseen);
    return st;
}

/* Refuse what a simple undirected switch graph without loops cannot hold. */
tk_status_t tk_io_need_simple(const tk_graph_t *g, const char *fmt, tk_error_t *err)
{
    if (g->directed)
        return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                            "%s: needs an undirected graph (links are bidirectional)", fmt);
    if (tk_graph_loops(g) > 0)
        return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0, "%s: cannot hold self-loops", fmt);
    if (tk_graph_parallel(g) > 0)
        return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0, "%s: cannot hold parallel links", fmt);
    return TK_OK;
}

tk_status_t tk_io_write_anynet(FILE *fp, const tk_graph_t *g, tk_error_t *err)
{
    tk_status_t st = tk_io_need_simple(g, "anynet", err);
    int64_t node = 0;
    if (st != TK_OK)
        return st;
    for (tk_id_t u = 0; u < g->n; u++)
        if (tk_graph_degree(g, u) == 0 && tk_graph_servers(g, u) == 0)
            return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                                "anynet: switch %" PRId32
                                " has neither links nor servers (BookSim would not see it)",
                                u);
    for (tk_id_t u = 0; u < g->n; u++) {
        fprintf(fp, "router %" PRId32, u);
        for (int32_t s = 0; s < tk_graph_servers(g, u); s++)
            fprintf(fp, " node %" PRId64, node++);
        for (int64_t a = g->off[u]; a < g->off[u + 1]; a++)
            if (g->head[a] > u)
                fprintf(fp, " router %" PRId32, g->head[a]);
        fputc('\n', fp);
    }
    return TK_OK;
}
