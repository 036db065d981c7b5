/*
 * io_graphml.c - GraphML (read and write), the XML graph format networkx and
 * igraph read and write.  Switches are <node> elements in file order, links
 * <edge> elements; attributes travel as <data> of the keys whose attr.name is
 * servers, group, coord0, coord1, ... (switches), class and capacity (links)
 * and spec (the graph).  Other keys, <desc>, comments and processing
 * instructions are skipped.  The reader is a small XML scanner: elements,
 * attributes in either quote, the five predefined entities and numeric
 * character references; no DTD internal subsets, no CDATA sections.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io_internal.h"

/* Growing string. */
typedef struct sb {
    char *s;
    size_t len, cap;
} sb_t;

static int sb_putc(sb_t *b, int c)
{
    if (b->len + 2 > b->cap) {
        size_t nc = b->cap ? 2 * b->cap : 64;
        char *s = realloc(b->s, nc);
        if (!s)
            return -1;
        b->s = s;
        b->cap = nc;
    }
    b->s[b->len++] = (char)c;
    b->s[b->len] = '\0';
    return 0;
}

static const char *sb_str(const sb_t *b)
{
    return b->s ? b->s : "";
}

enum role { R_OTHER, R_SERVERS, R_GROUP, R_COORD, R_CLASS, R_CAPACITY, R_SPEC, R_DIRECTED };
enum target { T_OTHER, T_NODE, T_EDGE, T_GRAPH };

typedef struct key {
    char *id;
    enum target for_;
    enum role role;
    int coord; /* R_COORD: index */
    char *def; /* <default> text or NULL */
} gkey_t;

#define MAX_ATTRS 16
#define MAX_DEPTH 64

typedef struct gm {
    tk_reader_t *r;
    tk_io_cs_t cs;
    tk_io_pg_t pg;
    gkey_t *keys;
    int nkeys, capkeys;
    char **esrc, **etgt; /* per link: endpoint ids until resolved */
    char **nid;          /* per switch: id */
    int64_t capnid, cape;
    /* current tag */
    sb_t name;
    sb_t an[MAX_ATTRS], av[MAX_ATTRS];
    int nattr;
    int selfclose, closing;
    sb_t text;
    /* context */
    char stack[MAX_DEPTH][16];
    int depth;
    int graphs;       /* <graph> elements seen */
    int cur_key;      /* index while inside <key>, else -1 */
    int in_default;   /* inside <key><default> */
    int64_t cur_node; /* inside <node>, else -1 */
    int64_t cur_edge; /* inside <edge>, else -1 */
    int cur_data;     /* key index inside <data>, -2 none, -1 unknown key */
} gm_t;

#define FAIL(...) return tk_error_set(err, TK_EFORMAT, gm->r->name, gm->r->line, __VA_ARGS__)
#define NOMEM() return tk_error_set(err, TK_ENOMEM, gm->r->name, gm->r->line, "out of memory")

/* Next character; a read error or the end of input inside markup fails. */
static tk_status_t need(gm_t *gm, int *c, tk_error_t *err)
{
    *c = tk_io_cs_get(&gm->cs, err);
    if (*c == -2)
        return gm->cs.st;
    if (*c == -1)
        FAIL("GraphML: input ends inside markup");
    return TK_OK;
}

/* Decode an entity after '&' into b. */
static tk_status_t entity(gm_t *gm, sb_t *b, tk_error_t *err)
{
    char e[16];
    int n = 0, c;
    tk_status_t st;
    for (;;) {
        if ((st = need(gm, &c, err)) != TK_OK)
            return st;
        if (c == ';')
            break;
        if (n >= 14)
            FAIL("GraphML: unterminated entity '&%.*s'", n, e);
        e[n++] = (char)c;
    }
    e[n] = '\0';
    long v = -1;
    if (strcmp(e, "lt") == 0)
        v = '<';
    else if (strcmp(e, "gt") == 0)
        v = '>';
    else if (strcmp(e, "amp") == 0)
        v = '&';
    else if (strcmp(e, "quot") == 0)
        v = '"';
    else if (strcmp(e, "apos") == 0)
        v = '\'';
    else if (e[0] == '#') {
        char *end;
        v = e[1] == 'x' ? strtol(e + 2, &end, 16) : strtol(e + 1, &end, 10);
        if (*end || v <= 0 || v > 0x10FFFF)
            v = -1;
    }
    if (v < 0)
        FAIL("GraphML: unknown entity '&%s;'", e);
    /* UTF-8 encode. */
    unsigned char u[4];
    int k;
    if (v < 0x80) {
        u[0] = (unsigned char)v;
        k = 1;
    } else if (v < 0x800) {
        u[0] = (unsigned char)(0xC0 | (v >> 6));
        u[1] = (unsigned char)(0x80 | (v & 0x3F));
        k = 2;
    } else if (v < 0x10000) {
        u[0] = (unsigned char)(0xE0 | (v >> 12));
        u[1] = (unsigned char)(0x80 | ((v >> 6) & 0x3F));
        u[2] = (unsigned char)(0x80 | (v & 0x3F));
        k = 3;
    } else {
        u[0] = (unsigned char)(0xF0 | (v >> 18));
        u[1] = (unsigned char)(0x80 | ((v >> 12) & 0x3F));
        u[2] = (unsigned char)(0x80 | ((v >> 6) & 0x3F));
        u[3] = (unsigned char)(0x80 | (v & 0x3F));
        k = 4;
    }
    for (int i = 0; i < k; i++)
        if (sb_putc(b, u[i]))
            NOMEM();
    return TK_OK;
}

static int name_char(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == ':' || c == '-' || c == '.' || c >= 0x80;
}

/* Skip until the string `end` has been read. */
static tk_status_t skip_past(gm_t *gm, const char *end, tk_error_t *err)
{
    size_t k = 0, n = strlen(end);
    int c;
    tk_status_t st;
    while (k < n) {
        if ((st = need(gm, &c, err)) != TK_OK)
            return st;
        if (c == end[k])
            k++;
        else
            k = c == end[0] ? 1 : 0;
    }
    return TK_OK;
}

/* Read the markup after '<' into gm's current tag.  Returns TK_OK with
 * gm->name empty for markup that carries nothing (comments, PIs, DOCTYPE). */
static tk_status_t read_tag(gm_t *gm, tk_error_t *err)
{
    int c;
    tk_status_t st;
    gm->name.len = 0;
    if (gm->name.s)
        gm->name.s[0] = '\0';
    gm->nattr = 0;
    gm->selfclose = gm->closing = 0;
    if ((st = need(gm, &c, err)) != TK_OK)
        return st;
    if (c == '?')
        return skip_past(gm, "?>", err);
    if (c == '!') {
        int c2;
        if ((st = need(gm, &c2, err)) != TK_OK)
            return st;
        if (c2 == '-') {
            if ((st = need(gm, &c2, err)) != TK_OK)
                return st;
            if (c2 != '-')
                FAIL("GraphML: malformed comment");
            return skip_past(gm, "-->", err);
        }
        if (c2 == '[')
            FAIL("GraphML: CDATA sections are not supported");
        return skip_past(gm, ">", err);
    }
    if (c == '/') {
        gm->closing = 1;
        if ((st = need(gm, &c, err)) != TK_OK)
            return st;
    }
    while (name_char(c)) {
        if (sb_putc(&gm->name, c))
            NOMEM();
        if ((st = need(gm, &c, err)) != TK_OK)
            return st;
    }
    if (gm->name.len == 0)
        FAIL("GraphML: malformed tag (no element name after '<')");
    for (;;) {
        while (c == ' ' || c == '\t' || c == '\n' || c == '\r')
            if ((st = need(gm, &c, err)) != TK_OK)
                return st;
        if (c == '>')
            return TK_OK;
        if (c == '/') {
            if ((st = need(gm, &c, err)) != TK_OK)
                return st;
            if (c != '>' || gm->closing)
                FAIL("GraphML: malformed tag <%s>", sb_str(&gm->name));
            gm->selfclose = 1;
            return TK_OK;
        }
        if (gm->closing || !name_char(c))
            FAIL("GraphML: malformed tag <%s>", sb_str(&gm->name));
        if (gm->nattr == MAX_ATTRS)
            FAIL("GraphML: more than %d attributes on <%s>", MAX_ATTRS, sb_str(&gm->name));
        sb_t *an = &gm->an[gm->nattr], *av = &gm->av[gm->nattr];
        an->len = av->len = 0;
        if (sb_putc(an, 'x') || sb_putc(av, 'x'))
            NOMEM();
        an->len = av->len = 0;
        an->s[0] = av->s[0] = '\0';
        while (name_char(c)) {
            if (sb_putc(an, c))
                NOMEM();
            if ((st = need(gm, &c, err)) != TK_OK)
                return st;
        }
        while (c == ' ' || c == '\t' || c == '\n' || c == '\r')
            if ((st = need(gm, &c, err)) != TK_OK)
                return st;
        if (c != '=')
            FAIL("GraphML: attribute '%s' of <%s> without a value", an->s, sb_str(&gm->name));
        do
            if ((st = need(gm, &c, err)) != TK_OK)
                return st;
        while (c == ' ' || c == '\t' || c == '\n' || c == '\r');
        if (c != '"' && c != '\'')
            FAIL("GraphML: attribute '%s' of <%s>: value not quoted", an->s, sb_str(&gm->name));
        int q = c;
        for (;;) {
            if ((st = need(gm, &c, err)) != TK_OK)
                return st;
            if (c == q)
                break;
            if (c == '<')
                FAIL("GraphML: '<' in the value of attribute '%s'", an->s);
            if (c == '&') {
                if ((st = entity(gm, av, err)) != TK_OK)
                    return st;
            } else if (sb_putc(av, c == '\n' ? ' ' : c)) {
                NOMEM();
            }
        }
        gm->nattr++;
        if ((st = need(gm, &c, err)) != TK_OK)
            return st;
    }
}

static const char *attr(const gm_t *gm, const char *name)
{
    for (int i = 0; i < gm->nattr; i++)
        if (strcmp(gm->an[i].s, name) == 0)
            return gm->av[i].s;
    return NULL;
}

static int find_key(const gm_t *gm, const char *id)
{
    for (int i = 0; i < gm->nkeys; i++)
        if (strcmp(gm->keys[i].id, id) == 0)
            return i;
    return -1;
}

static tk_status_t add_key(gm_t *gm, tk_error_t *err)
{
    const char *id = attr(gm, "id"), *for_ = attr(gm, "for"), *nm = attr(gm, "attr.name");
    if (!id)
        FAIL("GraphML: <key> without an id");
    if (find_key(gm, id) >= 0)
        FAIL("GraphML: key '%s' declared twice", id);
    if (gm->nkeys == gm->capkeys) {
        int nc = gm->capkeys ? 2 * gm->capkeys : 16;
        gkey_t *k = realloc(gm->keys, (size_t)nc * sizeof *k);
        if (!k)
            NOMEM();
        gm->keys = k;
        gm->capkeys = nc;
    }
    gkey_t *k = &gm->keys[gm->nkeys];
    memset(k, 0, sizeof *k);
    k->id = strdup(id);
    if (!k->id)
        NOMEM();
    gm->nkeys++;
    k->for_ = !for_                        ? T_OTHER
              : strcmp(for_, "node") == 0  ? T_NODE
              : strcmp(for_, "edge") == 0  ? T_EDGE
              : strcmp(for_, "graph") == 0 ? T_GRAPH
              : strcmp(for_, "all") == 0   ? T_OTHER
                                           : T_OTHER;
    k->role = R_OTHER;
    if (!nm)
        return TK_OK;
    if (k->for_ == T_NODE && strcmp(nm, "servers") == 0)
        k->role = R_SERVERS;
    else if (k->for_ == T_NODE && strcmp(nm, "group") == 0)
        k->role = R_GROUP;
    else if (k->for_ == T_NODE && strncmp(nm, "coord", 5) == 0 && nm[5] >= '0' && nm[5] <= '9') {
        char *end;
        long c = strtol(nm + 5, &end, 10);
        if (*end == '\0' && c >= 0 && c < TK_IO_PG_COORDS && (c == 0 || nm[5] != '0')) {
            k->role = R_COORD;
            k->coord = (int)c;
        }
    } else if (k->for_ == T_EDGE && strcmp(nm, "class") == 0)
        k->role = R_CLASS;
    else if (k->for_ == T_EDGE && strcmp(nm, "capacity") == 0)
        k->role = R_CAPACITY;
    else if (k->for_ == T_GRAPH && strcmp(nm, "spec") == 0)
        k->role = R_SPEC;
    return TK_OK;
}

/* Apply the value v of key k to the current node, edge or graph. */
static tk_status_t apply(gm_t *gm, const gkey_t *k, const char *v, tk_error_t *err)
{
    tk_io_pg_t *pg = &gm->pg;
    int32_t x;
    tk_status_t st;
    switch (k->role) {
    case R_SERVERS:
        if (gm->cur_node < 0)
            return TK_OK;
        if (tk_io_parse_count(v, 0, INT32_MAX, &x))
            FAIL("GraphML: servers '%.40s': not a whole number >= 0", v);
        pg->servers[gm->cur_node] = x;
        pg->has_servers = 1;
        return TK_OK;
    case R_GROUP:
        if (gm->cur_node < 0)
            return TK_OK;
        if (tk_io_parse_count(v, 0, INT32_MAX, &x))
            FAIL("GraphML: group '%.40s': not a whole number >= 0", v);
        pg->group[gm->cur_node] = x;
        pg->has_group = 1;
        return TK_OK;
    case R_COORD:
        if (gm->cur_node < 0)
            return TK_OK;
        if (tk_io_parse_count(v, INT32_MIN, INT32_MAX, &x))
            FAIL("GraphML: coord%d '%.40s': not a whole number", k->coord, v);
        pg->coord[gm->cur_node * TK_IO_PG_COORDS + k->coord] = x;
        pg->coordset[gm->cur_node] |= 1ull << k->coord;
        return TK_OK;
    case R_CLASS: {
        int c;
        if (gm->cur_edge < 0)
            return TK_OK;
        if ((st = tk_io_pg_class(gm->r, pg, v, &c, err)) != TK_OK)
            return st;
        pg->cls[gm->cur_edge] = (uint8_t)c;
        return TK_OK;
    }
    case R_CAPACITY: {
        double d;
        if (gm->cur_edge < 0)
            return TK_OK;
        if (strcmp(v, "NaN") == 0 || strcmp(v, "nan") == 0 || v[0] == '\0')
            return TK_OK; /* igraph writes NaN for an absent value */
        if (tk_io_parse_cap(v, &d))
            FAIL("GraphML: capacity '%.40s': not a finite number > 0", v);
        pg->cap[gm->cur_edge] = d;
        return TK_OK;
    }
    case R_SPEC:
        if (gm->cur_node >= 0 || gm->cur_edge >= 0)
            return TK_OK;
        free(pg->spec);
        pg->spec = strdup(v);
        if (!pg->spec)
            NOMEM();
        return TK_OK;
    default:
        return TK_OK;
    }
}

static tk_status_t apply_defaults(gm_t *gm, enum target t, tk_error_t *err)
{
    for (int i = 0; i < gm->nkeys; i++)
        if (gm->keys[i].for_ == t && gm->keys[i].def) {
            tk_status_t st = apply(gm, &gm->keys[i], gm->keys[i].def, err);
            if (st != TK_OK)
                return st;
        }
    return TK_OK;
}

static tk_status_t start_node(gm_t *gm, tk_error_t *err)
{
    const char *id = attr(gm, "id");
    int64_t u;
    tk_status_t st;
    if (!id)
        FAIL("GraphML: <node> without an id");
    if ((st = tk_io_pg_node(gm->r, &gm->pg, &u, err)) != TK_OK)
        return st;
    if (u >= gm->capnid) {
        int64_t nc = gm->capnid ? 2 * gm->capnid : 64;
        char **p = tk_realloc_array(gm->nid, (size_t)nc, sizeof *p);
        if (!p)
            NOMEM();
        gm->nid = p;
        gm->capnid = nc;
    }
    gm->nid[u] = strdup(id);
    if (!gm->nid[u])
        NOMEM();
    gm->cur_node = u;
    return apply_defaults(gm, T_NODE, err);
}

static tk_status_t start_edge(gm_t *gm, int edgedefault_directed, tk_error_t *err)
{
    const char *s = attr(gm, "source"), *t = attr(gm, "target"), *d = attr(gm, "directed");
    tk_status_t st;
    if (!s || !t)
        FAIL("GraphML: <edge> without source or target");
    if (d && (strcmp(d, "true") == 0) != edgedefault_directed)
        return tk_error_set(err, TK_EUNSUPPORTED, gm->r->name, gm->r->line,
                            "GraphML: edge %s-%s is %s in a graph whose edgedefault is %s "
                            "(mixed graphs are not supported)",
                            s, t, edgedefault_directed ? "undirected" : "directed",
                            edgedefault_directed ? "directed" : "undirected");
    if ((st = tk_io_pg_link(gm->r, &gm->pg, -1, -1, 0, 1.0, err)) != TK_OK)
        return st;
    int64_t e = gm->pg.m - 1;
    if (e >= gm->cape) {
        int64_t nc = gm->cape ? 2 * gm->cape : 256;
        char **a = tk_realloc_array(gm->esrc, (size_t)nc, sizeof *a);
        if (!a)
            NOMEM();
        gm->esrc = a;
        a = tk_realloc_array(gm->etgt, (size_t)nc, sizeof *a);
        if (!a)
            NOMEM();
        gm->etgt = a;
        gm->cape = nc;
    }
    gm->esrc[e] = strdup(s);
    gm->etgt[e] = strdup(t);
    if (!gm->esrc[e] || !gm->etgt[e])
        NOMEM();
    gm->cur_edge = e;
    return apply_defaults(gm, T_EDGE, err);
}

static uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

/* Open-addressing table of the switch ids: slot -> switch index or -1. */
static int64_t *id_table(char **nid, int64_t n, uint64_t *mask)
{
    uint64_t size = 16;
    while (size < 2 * (uint64_t)n)
        size *= 2;
    int64_t *t = tk_malloc_array((size_t)size, sizeof *t);
    if (!t)
        return NULL;
    for (uint64_t i = 0; i < size; i++)
        t[i] = -1;
    *mask = size - 1;
    for (int64_t u = 0; u < n; u++) {
        uint64_t h = hash_str(nid[u]) & *mask;
        while (t[h] >= 0)
            h = (h + 1) & *mask;
        t[h] = u;
    }
    return t;
}

/* Switch of id, or -1; *dup set when two switches share the id. */
static int64_t lookup(char **nid, const int64_t *t, uint64_t mask, const char *id)
{
    uint64_t h = hash_str(id) & mask;
    for (; t[h] >= 0; h = (h + 1) & mask)
        if (strcmp(nid[t[h]], id) == 0)
            return t[h];
    return -1;
}

static void gm_free(gm_t *gm)
{
    for (int i = 0; i < gm->nkeys; i++) {
        free(gm->keys[i].id);
        free(gm->keys[i].def);
    }
    free(gm->keys);
    for (int64_t u = 0; u < gm->pg.n && gm->nid; u++)
        free(gm->nid[u]);
    free(gm->nid);
    for (int64_t e = 0; e < gm->pg.m && gm->esrc; e++) {
        free(gm->esrc[e]);
        free(gm->etgt[e]);
    }
    free(gm->esrc);
    free(gm->etgt);
    free(gm->name.s);
    for (int i = 0; i < MAX_ATTRS; i++) {
        free(gm->an[i].s);
        free(gm->av[i].s);
    }
    free(gm->text.s);
    tk_io_pg_free(&gm->pg);
}

/* Resolve the links' endpoint ids into switch indices. */
static tk_status_t resolve(gm_t *gm, tk_error_t *err)
{
    uint64_t mask;
    int64_t *t = id_table(gm->nid, gm->pg.n, &mask);
    if (!t)
        NOMEM();
    for (int64_t u = 0; u < gm->pg.n; u++)
        if (lookup(gm->nid, t, mask, gm->nid[u]) != u) {
            free(t);
            FAIL("GraphML: node id '%.40s' declared twice", gm->nid[u]);
        }
    for (int64_t e = 0; e < gm->pg.m; e++) {
        int64_t a = lookup(gm->nid, t, mask, gm->esrc[e]);
        int64_t b = lookup(gm->nid, t, mask, gm->etgt[e]);
        if (a < 0 || b < 0) {
            const char *bad = a < 0 ? gm->esrc[e] : gm->etgt[e];
            free(t);
            FAIL("GraphML: edge %ld refers to undeclared node '%.40s'", (long)e + 1, bad);
        }
        gm->pg.u[e] = a;
        gm->pg.v[e] = b;
    }
    free(t);
    return TK_OK;
}

static tk_status_t run(gm_t *gm, tk_error_t *err)
{
    int c, directed = 0, seen_root = 0, done = 0;
    tk_status_t st;

    for (;;) {
        c = tk_io_cs_get(&gm->cs, err);
        if (c == -2)
            return gm->cs.st;
        if (c == -1)
            break;
        if (c != '<') {
            if (done || !seen_root) {
                if (c != ' ' && c != '\t' && c != '\n' && c != '\r' && !(c >= 0x80 && !seen_root))
                    FAIL("GraphML: text outside the <graphml> element");
                continue;
            }
            if (gm->cur_data != -2 || gm->in_default) {
                if (c == '&') {
                    if ((st = entity(gm, &gm->text, err)) != TK_OK)
                        return st;
                } else if (sb_putc(&gm->text, c)) {
                    NOMEM();
                }
            }
            continue;
        }
        if ((st = read_tag(gm, err)) != TK_OK)
            return st;
        if (gm->name.len == 0)
            continue;
        const char *nm = gm->name.s;
        if (done)
            FAIL("GraphML: element <%s> after the end of <graphml>", nm);
        if (gm->closing) {
            if (gm->depth == 0 || strncmp(gm->stack[gm->depth - 1], nm, 15) != 0)
                FAIL("GraphML: </%s> does not close <%s>", nm,
                     gm->depth ? gm->stack[gm->depth - 1] : "(nothing)");
            gm->depth--;
        } else if (!seen_root) {
            if (strcmp(nm, "graphml") != 0)
                FAIL("GraphML: the root element is <%s>, not <graphml>", nm);
            seen_root = 1;
        }
        if (!gm->closing && strcmp(nm, "key") == 0 && gm->depth == 1) {
            if ((st = add_key(gm, err)) != TK_OK)
                return st;
            gm->cur_key = gm->nkeys - 1;
        } else if (!gm->closing && strcmp(nm, "default") == 0 && gm->cur_key >= 0) {
            gm->in_default = 1;
            gm->text.len = 0;
            if (gm->text.s)
                gm->text.s[0] = '\0';
        } else if (!gm->closing && strcmp(nm, "graph") == 0) {
            if (gm->cur_node >= 0)
                return tk_error_set(err, TK_EUNSUPPORTED, gm->r->name, gm->r->line,
                                    "GraphML: nested graphs are not supported");
            if (++gm->graphs > 1)
                return tk_error_set(err, TK_EUNSUPPORTED, gm->r->name, gm->r->line,
                                    "GraphML: more than one <graph> (one graph per file)");
            const char *ed = attr(gm, "edgedefault");
            if (ed && strcmp(ed, "directed") != 0 && strcmp(ed, "undirected") != 0)
                FAIL("GraphML: edgedefault '%.40s': not directed or undirected", ed);
            directed = ed && strcmp(ed, "directed") == 0;
            gm->pg.directed = directed;
            if ((st = apply_defaults(gm, T_GRAPH, err)) != TK_OK)
                return st;
        } else if (!gm->closing && strcmp(nm, "node") == 0) {
            if (gm->graphs != 1 || gm->cur_node >= 0 || gm->cur_edge >= 0)
                FAIL("GraphML: <node> outside a <graph>");
            if ((st = start_node(gm, err)) != TK_OK)
                return st;
        } else if (!gm->closing && strcmp(nm, "edge") == 0) {
            if (gm->graphs != 1 || gm->cur_node >= 0 || gm->cur_edge >= 0)
                FAIL("GraphML: <edge> outside a <graph>");
            if ((st = start_edge(gm, directed, err)) != TK_OK)
                return st;
        } else if (!gm->closing && (strcmp(nm, "hyperedge") == 0 || strcmp(nm, "port") == 0)) {
            return tk_error_set(err, TK_EUNSUPPORTED, gm->r->name, gm->r->line,
                                "GraphML: <%s> is not supported", nm);
        } else if (!gm->closing && strcmp(nm, "data") == 0) {
            const char *k = attr(gm, "key");
            if (!k)
                FAIL("GraphML: <data> without a key");
            gm->cur_data = find_key(gm, k);
            if (gm->cur_data < 0)
                FAIL("GraphML: <data key=\"%.40s\">: undeclared key", k);
            gm->text.len = 0;
            if (gm->text.s)
                gm->text.s[0] = '\0';
        }
        if (gm->closing || gm->selfclose) {
            /* End of an element. */
            if (strcmp(nm, "data") == 0 && gm->cur_data >= 0) {
                if ((st = apply(gm, &gm->keys[gm->cur_data], sb_str(&gm->text), err)) != TK_OK)
                    return st;
                gm->cur_data = -2;
            } else if (strcmp(nm, "default") == 0 && gm->in_default) {
                gm->keys[gm->cur_key].def = strdup(sb_str(&gm->text));
                if (!gm->keys[gm->cur_key].def)
                    NOMEM();
                gm->in_default = 0;
            } else if (strcmp(nm, "key") == 0) {
                gm->cur_key = -1;
            } else if (strcmp(nm, "node") == 0) {
                gm->cur_node = -1;
            } else if (strcmp(nm, "edge") == 0) {
                gm->cur_edge = -1;
            } else if (strcmp(nm, "graphml") == 0) {
                done = 1;
            }
        } else {
            if (gm->depth == MAX_DEPTH)
                FAIL("GraphML: elements nested more than %d deep", MAX_DEPTH);
            snprintf(gm->stack[gm->depth++], sizeof gm->stack[0], "%s", nm);
        }
    }
    if (!seen_root)
        FAIL("GraphML: no <graphml> element");
    if (!done)
        FAIL("GraphML: input ends before </graphml>");
    if (gm->graphs == 0)
        FAIL("GraphML: no <graph> element");
    return resolve(gm, err);
}

tk_status_t tk_io_read_graphml(tk_reader_t *r, tk_graph_t **g, tk_error_t *err)
{
    gm_t gm;
    tk_status_t st;
    memset(&gm, 0, sizeof gm);
    gm.r = r;
    tk_io_cs_init(&gm.cs, r);
    tk_io_pg_init(&gm.pg);
    gm.cur_key = -1;
    gm.cur_node = -1;
    gm.cur_edge = -1;
    gm.cur_data = -2;
    st = run(&gm, err);
    if (st == TK_OK)
        st = tk_io_pg_finish(r, &gm.pg, g, err);
    gm_free(&gm);
    return st;
}

/* ------------------------------------------------------------------------ */
/* Writer.                                                                  */

static void put_escaped(FILE *fp, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<':
            fputs("&lt;", fp);
            break;
        case '>':
            fputs("&gt;", fp);
            break;
        case '&':
            fputs("&amp;", fp);
            break;
        case '"':
            fputs("&quot;", fp);
            break;
        default:
            fputc((*s == '\n' || *s == '\r' || *s == '\t') ? ' ' : *s, fp);
        }
    }
}

/* Does any link carry a class other than "-", or a capacity other than 1? */
void tk_io_link_attrs(const tk_graph_t *g, int *any_cls, int *any_cap)
{
    *any_cls = *any_cap = 0;
    for (int64_t a = 0; a < g->m; a++) {
        if (g->cls && g->cls[a])
            *any_cls = 1;
        if (tk_graph_cap(g, a) != 1.0)
            *any_cap = 1;
    }
}

tk_status_t tk_io_write_graphml(FILE *fp, const tk_graph_t *g, tk_error_t *err)
{
    int any_cls, any_cap;
    char num[40];
    (void)err;
    tk_io_link_attrs(g, &any_cls, &any_cap);
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
          "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\" "
          "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" "
          "xsi:schemaLocation=\"http://graphml.graphdrawing.org/xmlns "
          "http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd\">\n",
          fp);
    fputs("  <key id=\"spec\" for=\"graph\" attr.name=\"spec\" attr.type=\"string\"/>\n"
          "  <key id=\"servers\" for=\"node\" attr.name=\"servers\" attr.type=\"int\"/>\n",
          fp);
    if (g->group)
        fputs("  <key id=\"group\" for=\"node\" attr.name=\"group\" attr.type=\"int\"/>\n", fp);
    for (int c = 0; c < g->ncoord; c++)
        fprintf(fp,
                "  <key id=\"coord%d\" for=\"node\" attr.name=\"coord%d\" attr.type=\"int\"/>\n", c,
                c);
    if (any_cls)
        fputs("  <key id=\"class\" for=\"edge\" attr.name=\"class\" attr.type=\"string\"/>\n", fp);
    if (any_cap)
        fputs("  <key id=\"capacity\" for=\"edge\" attr.name=\"capacity\" "
              "attr.type=\"double\"/>\n",
              fp);
    fprintf(fp, "  <graph id=\"G\" edgedefault=\"%s\">\n", g->directed ? "directed" : "undirected");
    fputs("    <data key=\"spec\">", fp);
    put_escaped(fp, g->spec ? g->spec : "");
    fputs("</data>\n", fp);
    for (tk_id_t u = 0; u < g->n; u++) {
        fprintf(fp, "    <node id=\"n%" PRId32 "\"><data key=\"servers\">%" PRId32 "</data>", u,
                tk_graph_servers(g, u));
        if (g->group)
            fprintf(fp, "<data key=\"group\">%" PRId32 "</data>", g->group[u]);
        for (int c = 0; c < g->ncoord; c++)
            fprintf(fp, "<data key=\"coord%d\">%" PRId32 "</data>", c,
                    g->coord[(size_t)u * (size_t)g->ncoord + (size_t)c]);
        fputs("</node>\n", fp);
    }
    for (tk_id_t u = 0; u < g->n; u++)
        for (int64_t a = g->off[u]; a < g->off[u + 1]; a++) {
            if (!tk_io_link_rep(g, u, a))
                continue;
            fprintf(fp, "    <edge source=\"n%" PRId32 "\" target=\"n%" PRId32 "\"", u, g->head[a]);
            if (!any_cls && !any_cap) {
                fputs("/>\n", fp);
                continue;
            }
            fputs(">", fp);
            if (any_cls)
                fprintf(fp, "<data key=\"class\">%s</data>", g->class_name[g->cls ? g->cls[a] : 0]);
            if (any_cap)
                fprintf(fp, "<data key=\"capacity\">%s</data>",
                        tk_io_fmt_double(tk_graph_cap(g, a), num, sizeof num));
            fputs("</edge>\n", fp);
        }
    fputs("  </graph>\n</graphml>\n", fp);
    return TK_OK;
}
