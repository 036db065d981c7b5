/*
 * io_gml.c - GML (read and write), the Graph Modelling Language of networkx
 * and igraph: "graph [ directed 0 node [ id 0 servers 9 ] edge [ source 0
 * target 1 class "global" capacity 2 ] ]".  Switches are the node records
 * in file order (their ids may be any distinct integers), links the edge
 * records; the attributes are servers, group, coord0, coord1, ... on nodes,
 * class and capacity on edges, spec on the graph; other keys (label,
 * Creator, Version, graphics, ...) are skipped with their lists.  Strings
 * have no escapes; '&' entities are decoded as networkx writes them.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "io_internal.h"

enum tok { T_END, T_KEY, T_NUM, T_STR, T_OPEN, T_CLOSE };

typedef struct gml {
    tk_reader_t *r;
    tk_io_cs_t cs;
    tk_io_pg_t pg;
    char *tok; /* text of the current token */
    size_t len, cap;
    enum tok t;
    int64_t *nid; /* per switch: its GML id */
    int *has_id;
    int64_t capnid;
    int64_t *esrc, *etgt;
    int64_t cape;
} gml_t;

#define FAIL(...) return tk_error_set(err, TK_EFORMAT, p->r->name, p->r->line, __VA_ARGS__)
#define NOMEM() return tk_error_set(err, TK_ENOMEM, p->r->name, p->r->line, "out of memory")

static int put(gml_t *p, int c)
{
    if (p->len + 2 > p->cap) {
        size_t nc = p->cap ? 2 * p->cap : 64;
        char *s = realloc(p->tok, nc);
        if (!s)
            return -1;
        p->tok = s;
        p->cap = nc;
    }
    p->tok[p->len++] = (char)c;
    p->tok[p->len] = '\0';
    return 0;
}

static int is_alpha(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int is_digit(int c)
{
    return c >= '0' && c <= '9';
}

/* Decode the &name; entities of networkx in place. */
static void unescape(char *s)
{
    static const struct {
        const char *e;
        char c;
    } ents[] = {{"&quot;", '"'}, {"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&apos;", '\''}};
    char *w = s;
    while (*s) {
        size_t i;
        for (i = 0; i < sizeof ents / sizeof ents[0]; i++)
            if (strncmp(s, ents[i].e, strlen(ents[i].e)) == 0)
                break;
        if (i < sizeof ents / sizeof ents[0]) {
            *w++ = ents[i].c;
            s += strlen(ents[i].e);
        } else {
            *w++ = *s++;
        }
    }
    *w = '\0';
}

static tk_status_t next(gml_t *p, tk_error_t *err)
{
    int c;
    p->len = 0;
    if (p->tok)
        p->tok[0] = '\0';
    for (;;) {
        c = tk_io_cs_skip_space(&p->cs, err);
        if (c == -2)
            return p->cs.st;
        if (c == '#') { /* comment to the end of the line */
            while ((c = tk_io_cs_get(&p->cs, err)) >= 0 && c != '\n')
                ;
            if (c == -2)
                return p->cs.st;
            continue;
        }
        break;
    }
    if (c == -1) {
        p->t = T_END;
        return TK_OK;
    }
    tk_io_cs_get(&p->cs, err);
    if (c == '[' || c == ']') {
        p->t = c == '[' ? T_OPEN : T_CLOSE;
        put(p, c);
        return TK_OK;
    }
    if (c == '"') {
        for (;;) {
            c = tk_io_cs_get(&p->cs, err);
            if (c == -2)
                return p->cs.st;
            if (c == -1)
                FAIL("GML: input ends inside a string");
            if (c == '"')
                break;
            if (put(p, c == '\n' ? ' ' : c))
                NOMEM();
        }
        if (!p->tok && put(p, 'x') == 0)
            p->len = 0, p->tok[0] = '\0';
        if (!p->tok)
            NOMEM();
        unescape(p->tok);
        p->t = T_STR;
        return TK_OK;
    }
    if (is_alpha(c)) {
        put(p, c);
        while (c = tk_io_cs_peek(&p->cs, err), is_alpha(c) || is_digit(c)) {
            if (put(p, c))
                NOMEM();
            tk_io_cs_get(&p->cs, err);
        }
        p->t = T_KEY;
        return TK_OK;
    }
    if (is_digit(c) || c == '-' || c == '+' || c == '.') {
        put(p, c);
        while (c = tk_io_cs_peek(&p->cs, err), is_digit(c) || c == '.' || c == 'e' || c == 'E' ||
                                                   c == '-' || c == '+' || c == 'I' || c == 'N' ||
                                                   c == 'F' || c == 'n' || c == 'f' || c == 'A') {
            if (put(p, c))
                NOMEM();
            tk_io_cs_get(&p->cs, err);
        }
        p->t = T_NUM;
        return TK_OK;
    }
    if (c < 32 || c > 126)
        FAIL("GML: unexpected byte 0x%02x", c);
    FAIL("GML: unexpected character '%c'", c);
}

/* Skip a value: a number, a string or a bracketed list. */
static tk_status_t skip_value(gml_t *p, tk_error_t *err)
{
    tk_status_t st;
    int depth = 0;
    do {
        if ((st = next(p, err)) != TK_OK)
            return st;
        if (p->t == T_END)
            FAIL("GML: input ends inside a list");
        if (p->t == T_OPEN)
            depth++;
        else if (p->t == T_CLOSE) {
            if (depth == 0)
                FAIL("GML: ']' where a value was expected");
            depth--;
        } else if (p->t == T_KEY && depth == 0)
            FAIL("GML: key '%.40s' where a value was expected", p->tok);
    } while (depth > 0);
    return TK_OK;
}

static tk_status_t value_i64(gml_t *p, const char *key, int64_t *v, tk_error_t *err)
{
    tk_status_t st = next(p, err);
    if (st != TK_OK)
        return st;
    int32_t x;
    if (p->t == T_NUM && tk_io_parse_i64(p->tok, v) == 0)
        return TK_OK;
    if (p->t == T_NUM && tk_io_parse_count(p->tok, INT32_MIN, INT32_MAX, &x) == 0) {
        *v = x;
        return TK_OK;
    }
    FAIL("GML: %s '%.40s': not an integer", key, p->tok ? p->tok : "");
}

static tk_status_t value_str(gml_t *p, const char *key, tk_error_t *err)
{
    tk_status_t st = next(p, err);
    if (st != TK_OK)
        return st;
    if (p->t != T_STR && p->t != T_NUM)
        FAIL("GML: %s: expected a string", key);
    return TK_OK;
}

static tk_status_t read_node(gml_t *p, tk_error_t *err)
{
    int64_t u, v;
    tk_status_t st = tk_io_pg_node(p->r, &p->pg, &u, err);
    if (st != TK_OK)
        return st;
    if (u >= p->capnid) {
        int64_t nc = p->capnid ? 2 * p->capnid : 64;
        int64_t *a = tk_realloc_array(p->nid, (size_t)nc, sizeof *a);
        if (!a)
            NOMEM();
        p->nid = a;
        int *h = tk_realloc_array(p->has_id, (size_t)nc, sizeof *h);
        if (!h)
            NOMEM();
        p->has_id = h;
        p->capnid = nc;
    }
    p->has_id[u] = 0;
    for (;;) {
        if ((st = next(p, err)) != TK_OK)
            return st;
        if (p->t == T_CLOSE)
            break;
        if (p->t != T_KEY)
            FAIL("GML: node: expected a key or ']'");
        char key[64];
        snprintf(key, sizeof key, "%s", p->tok);
        if (strcmp(key, "id") == 0) {
            if (p->has_id[u])
                FAIL("GML: node with two ids");
            if ((st = value_i64(p, "id", &p->nid[u], err)) != TK_OK)
                return st;
            p->has_id[u] = 1;
        } else if (strcmp(key, "servers") == 0 || strcmp(key, "group") == 0) {
            if ((st = value_i64(p, key, &v, err)) != TK_OK)
                return st;
            if (v < 0 || v > INT32_MAX)
                FAIL("GML: %s %" PRId64 ": out of range 0..%d", key, v, INT32_MAX);
            if (key[0] == 's') {
                p->pg.servers[u] = (int32_t)v;
                p->pg.has_servers = 1;
            } else {
                p->pg.group[u] = (int32_t)v;
                p->pg.has_group = 1;
            }
        } else if (strncmp(key, "coord", 5) == 0 && is_digit(key[5]) &&
                   (key[5] != '0' || key[6] == '\0') && strlen(key) <= 7 &&
                   atoi(key + 5) < TK_IO_PG_COORDS && (!key[6] || is_digit(key[6]))) {
            int k = atoi(key + 5);
            if ((st = value_i64(p, key, &v, err)) != TK_OK)
                return st;
            if (v < INT32_MIN || v > INT32_MAX)
                FAIL("GML: %s %" PRId64 ": out of range", key, v);
            p->pg.coord[u * TK_IO_PG_COORDS + k] = (int32_t)v;
            p->pg.coordset[u] |= 1ull << k;
        } else if ((st = skip_value(p, err)) != TK_OK) {
            return st;
        }
    }
    if (!p->has_id[u])
        FAIL("GML: node without an id");
    return TK_OK;
}

static tk_status_t read_edge(gml_t *p, tk_error_t *err)
{
    int have_s = 0, have_t = 0, cls = 0;
    int64_t s = 0, t = 0;
    double cap = 1.0;
    tk_status_t st;
    for (;;) {
        if ((st = next(p, err)) != TK_OK)
            return st;
        if (p->t == T_CLOSE)
            break;
        if (p->t != T_KEY)
            FAIL("GML: edge: expected a key or ']'");
        char key[64];
        snprintf(key, sizeof key, "%s", p->tok);
        if (strcmp(key, "source") == 0 || strcmp(key, "target") == 0) {
            int64_t *dst = key[0] == 's' ? &s : &t;
            if ((st = value_i64(p, key, dst, err)) != TK_OK)
                return st;
            if (key[0] == 's')
                have_s = 1;
            else
                have_t = 1;
        } else if (strcmp(key, "class") == 0) {
            if ((st = value_str(p, key, err)) != TK_OK)
                return st;
            if ((st = tk_io_pg_class(p->r, &p->pg, p->tok, &cls, err)) != TK_OK)
                return st;
        } else if (strcmp(key, "capacity") == 0) {
            if ((st = next(p, err)) != TK_OK)
                return st;
            if (p->t != T_NUM || tk_io_parse_cap(p->tok, &cap))
                if (!(p->t == T_NUM && (strcmp(p->tok, "NAN") == 0 || strcmp(p->tok, "NaN") == 0)))
                    FAIL("GML: capacity '%.40s': not a finite number > 0", p->tok);
        } else if ((st = skip_value(p, err)) != TK_OK) {
            return st;
        }
    }
    if (!have_s || !have_t)
        FAIL("GML: edge without source or target");
    if ((st = tk_io_pg_link(p->r, &p->pg, -1, -1, cls, cap, err)) != TK_OK)
        return st;
    int64_t e = p->pg.m - 1;
    if (e >= p->cape) {
        int64_t nc = p->cape ? 2 * p->cape : 256;
        int64_t *a = tk_realloc_array(p->esrc, (size_t)nc, sizeof *a);
        if (!a)
            NOMEM();
        p->esrc = a;
        a = tk_realloc_array(p->etgt, (size_t)nc, sizeof *a);
        if (!a)
            NOMEM();
        p->etgt = a;
        p->cape = nc;
    }
    p->esrc[e] = s;
    p->etgt[e] = t;
    return TK_OK;
}

static uint64_t hash_i64(int64_t x)
{
    return tk_mix64((uint64_t)x);
}

static int64_t find(const gml_t *p, const int64_t *tab, uint64_t mask, int64_t id)
{
    for (uint64_t h = hash_i64(id) & mask; tab[h] >= 0; h = (h + 1) & mask)
        if (p->nid[tab[h]] == id)
            return tab[h];
    return -1;
}

static tk_status_t resolve(gml_t *p, tk_error_t *err)
{
    uint64_t size = 16, mask;
    while (size < 2 * (uint64_t)p->pg.n)
        size *= 2;
    mask = size - 1;
    int64_t *tab = tk_malloc_array((size_t)size, sizeof *tab);
    if (!tab)
        NOMEM();
    for (uint64_t i = 0; i < size; i++)
        tab[i] = -1;
    for (int64_t u = 0; u < p->pg.n; u++) {
        if (find(p, tab, mask, p->nid[u]) >= 0) {
            free(tab);
            FAIL("GML: node id %" PRId64 " declared twice", p->nid[u]);
        }
        uint64_t h = hash_i64(p->nid[u]) & mask;
        while (tab[h] >= 0)
            h = (h + 1) & mask;
        tab[h] = u;
    }
    for (int64_t e = 0; e < p->pg.m; e++) {
        int64_t a = find(p, tab, mask, p->esrc[e]), b = find(p, tab, mask, p->etgt[e]);
        if (a < 0 || b < 0) {
            int64_t bad = a < 0 ? p->esrc[e] : p->etgt[e];
            free(tab);
            FAIL("GML: edge %" PRId64 " refers to undeclared node %" PRId64, e + 1, bad);
        }
        p->pg.u[e] = a;
        p->pg.v[e] = b;
    }
    free(tab);
    return TK_OK;
}

static tk_status_t run(gml_t *p, tk_error_t *err)
{
    tk_status_t st;
    int graphs = 0;
    for (;;) {
        if ((st = next(p, err)) != TK_OK)
            return st;
        if (p->t == T_END)
            break;
        if (p->t != T_KEY)
            FAIL("GML: expected a key at the top level, got '%.40s'", p->tok);
        if (strcmp(p->tok, "graph") != 0) {
            if ((st = skip_value(p, err)) != TK_OK)
                return st;
            continue;
        }
        if (++graphs > 1)
            return tk_error_set(err, TK_EUNSUPPORTED, p->r->name, p->r->line,
                                "GML: more than one graph (one graph per file)");
        if ((st = next(p, err)) != TK_OK)
            return st;
        if (p->t != T_OPEN)
            FAIL("GML: 'graph' must be followed by '['");
        for (;;) {
            if ((st = next(p, err)) != TK_OK)
                return st;
            if (p->t == T_END)
                FAIL("GML: input ends inside the graph");
            if (p->t == T_CLOSE)
                break;
            if (p->t != T_KEY)
                FAIL("GML: graph: expected a key or ']', got '%.40s'", p->tok);
            char key[64];
            snprintf(key, sizeof key, "%s", p->tok);
            if (strcmp(key, "node") == 0 || strcmp(key, "edge") == 0) {
                if ((st = next(p, err)) != TK_OK)
                    return st;
                if (p->t != T_OPEN)
                    FAIL("GML: '%s' must be followed by '['", key);
                st = key[0] == 'n' ? read_node(p, err) : read_edge(p, err);
                if (st != TK_OK)
                    return st;
            } else if (strcmp(key, "directed") == 0) {
                int64_t v;
                if ((st = value_i64(p, key, &v, err)) != TK_OK)
                    return st;
                if (v != 0 && v != 1)
                    FAIL("GML: directed %" PRId64 ": must be 0 or 1", v);
                if (p->pg.n || p->pg.m)
                    FAIL("GML: 'directed' must come before the nodes and edges");
                p->pg.directed = (int)v;
            } else if (strcmp(key, "spec") == 0) {
                if ((st = value_str(p, key, err)) != TK_OK)
                    return st;
                free(p->pg.spec);
                p->pg.spec = strdup(p->tok ? p->tok : "");
                if (!p->pg.spec)
                    NOMEM();
            } else if ((st = skip_value(p, err)) != TK_OK) {
                return st;
            }
        }
    }
    if (graphs == 0)
        FAIL("GML: no 'graph [ ... ]' record");
    return resolve(p, err);
}

tk_status_t tk_io_read_gml(tk_reader_t *r, tk_graph_t **g, tk_error_t *err)
{
    gml_t p;
    tk_status_t st;
    memset(&p, 0, sizeof p);
    p.r = r;
    tk_io_cs_init(&p.cs, r);
    tk_io_pg_init(&p.pg);
    st = run(&p, err);
    if (st == TK_OK)
        st = tk_io_pg_finish(r, &p.pg, g, err);
    free(p.tok);
    free(p.nid);
    free(p.has_id);
    free(p.esrc);
    free(p.etgt);
    tk_io_pg_free(&p.pg);
    return st;
}

static void put_string(FILE *fp, const char *s)
{
    fputc('"', fp);
    for (; *s; s++) {
        if (*s == '"')
            fputs("&quot;", fp);
        else if (*s == '&')
            fputs("&amp;", fp);
        else
            fputc((*s == '\n' || *s == '\r' || *s == '\t') ? ' ' : *s, fp);
    }
    fputc('"', fp);
}

tk_status_t tk_io_write_gml(FILE *fp, const tk_graph_t *g, tk_error_t *err)
{
    int any_cls, any_cap;
    char num[40];
    (void)err;
    tk_io_link_attrs(g, &any_cls, &any_cap);
    fprintf(fp, "graph [\n  directed %d\n", g->directed ? 1 : 0);
    if (tk_graph_parallel(g) > 0)
        fputs("  multigraph 1\n", fp);
    fputs("  spec ", fp);
    put_string(fp, g->spec ? g->spec : "");
    fputc('\n', fp);
    for (tk_id_t u = 0; u < g->n; u++) {
        fprintf(fp,
                "  node [\n    id %" PRId32 "\n    label \"%" PRId32 "\"\n    servers %" PRId32
                "\n",
                u, u, tk_graph_servers(g, u));
        if (g->group)
            fprintf(fp, "    group %" PRId32 "\n", g->group[u]);
        for (int c = 0; c < g->ncoord; c++)
            fprintf(fp, "    coord%d %" PRId32 "\n", c,
                    g->coord[(size_t)u * (size_t)g->ncoord + (size_t)c]);
        fputs("  ]\n", fp);
    }
    for (tk_id_t u = 0; u < g->n; u++)
        for (int64_t a = g->off[u]; a < g->off[u + 1]; a++) {
            if (!tk_io_link_rep(g, u, a))
                continue;
            fprintf(fp, "  edge [\n    source %" PRId32 "\n    target %" PRId32 "\n", u,
                    g->head[a]);
            if (any_cls)
                fprintf(fp, "    class \"%s\"\n", g->class_name[g->cls ? g->cls[a] : 0]);
            if (any_cap) {
                /* A decimal point keeps the value a real for networkx and igraph. */
                const char *s = tk_io_fmt_double(tk_graph_cap(g, a), num, sizeof num);
                fprintf(fp, "    capacity %s%s\n", s, strpbrk(s, ".eEn") ? "" : ".0");
            }
            fputs("  ]\n", fp);
        }
    fputs("]\n", fp);
    return TK_OK;
}
