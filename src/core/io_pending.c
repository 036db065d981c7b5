/*
 * io_pending.c - pieces shared by the exchange-format readers (GraphML, GML,
 * BookSim anynet, CAMINOS): a graph under construction whose switches and
 * links arrive in file order with optional attributes (servers, group,
 * coordinates, link class and capacity), and a character stream over the
 * reader's lines for the formats whose tokens may cross line ends.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io_internal.h"

void tk_io_pg_init(tk_io_pg_t *pg)
{
    memset(pg, 0, sizeof *pg);
    strcpy(pg->names[0], "-");
    pg->nnames = 1;
}

void tk_io_pg_free(tk_io_pg_t *pg)
{
    free(pg->servers);
    free(pg->group);
    free(pg->coord);
    free(pg->coordset);
    free(pg->u);
    free(pg->v);
    free(pg->cls);
    free(pg->cap);
    free(pg->spec);
    memset(pg, 0, sizeof *pg);
}

static tk_status_t pg_nomem(const tk_reader_t *r, tk_error_t *err)
{
    return tk_error_set(err, TK_ENOMEM, r->name, r->line, "out of memory");
}

tk_status_t tk_io_pg_node(const tk_reader_t *r, tk_io_pg_t *pg, int64_t *id, tk_error_t *err)
{
    if (pg->n >= TK_MAX_SWITCHES)
        return tk_error_set(err, TK_ELIMIT, r->name, r->line, "more than %ld switches",
                            (long)TK_MAX_SWITCHES);
    if (pg->n == pg->capn) {
        int64_t nc = pg->capn ? 2 * pg->capn : 64;
        int32_t *s = tk_realloc_array(pg->servers, (size_t)nc, sizeof *s);
        if (!s)
            return pg_nomem(r, err);
        pg->servers = s;
        int32_t *gr = tk_realloc_array(pg->group, (size_t)nc, sizeof *gr);
        if (!gr)
            return pg_nomem(r, err);
        pg->group = gr;
        int32_t *c = tk_realloc_array(pg->coord, (size_t)nc * TK_IO_PG_COORDS, sizeof *c);
        if (!c)
            return pg_nomem(r, err);
        pg->coord = c;
        uint64_t *cs = tk_realloc_array(pg->coordset, (size_t)nc, sizeof *cs);
        if (!cs)
            return pg_nomem(r, err);
        pg->coordset = cs;
        pg->capn = nc;
    }
    int64_t u = pg->n++;
    pg->servers[u] = 0;
    pg->group[u] = 0;
    pg->coordset[u] = 0;
    memset(pg->coord + u * TK_IO_PG_COORDS, 0, TK_IO_PG_COORDS * sizeof *pg->coord);
    *id = u;
    return TK_OK;
}

tk_status_t tk_io_pg_class(const tk_reader_t *r, tk_io_pg_t *pg, const char *name, int *cls,
                           tk_error_t *err)
{
    if (!name || !name[0] || strcmp(name, "-") == 0) {
        *cls = 0;
        return TK_OK;
    }
    if (!tk_io_class_name_ok(name))
        return tk_error_set(err, TK_EFORMAT, r->name, r->line,
                            "link class '%.40s': not a class name (a letter or '_', then "
                            "letters, digits or _.:+-, at most %d bytes)",
                            name, TK_CLASS_NAME_MAX - 1);
    for (int i = 1; i < pg->nnames; i++)
        if (strcmp(pg->names[i], name) == 0) {
            *cls = i;
            return TK_OK;
        }
    if (pg->nnames >= TK_MAX_CLASSES)
        return tk_error_set(err, TK_ELIMIT, r->name, r->line,
                            "link class '%s': more than %d classes", name, TK_MAX_CLASSES - 1);
    strcpy(pg->names[pg->nnames], name);
    *cls = pg->nnames++;
    return TK_OK;
}

tk_status_t tk_io_pg_link(const tk_reader_t *r, tk_io_pg_t *pg, int64_t u, int64_t v, int cls,
                          double cap, tk_error_t *err)
{
    if (pg->m >= TK_MAX_ARCS)
        return tk_error_set(err, TK_ELIMIT, r->name, r->line, "too many links");
    if (pg->m == pg->capm) {
        int64_t nc = pg->capm ? 2 * pg->capm : 256;
        int64_t *a = tk_realloc_array(pg->u, (size_t)nc, sizeof *a);
        if (!a)
            return pg_nomem(r, err);
        pg->u = a;
        a = tk_realloc_array(pg->v, (size_t)nc, sizeof *a);
        if (!a)
            return pg_nomem(r, err);
        pg->v = a;
        uint8_t *c = tk_realloc_array(pg->cls, (size_t)nc, sizeof *c);
        if (!c)
            return pg_nomem(r, err);
        pg->cls = c;
        double *d = tk_realloc_array(pg->cap, (size_t)nc, sizeof *d);
        if (!d)
            return pg_nomem(r, err);
        pg->cap = d;
        pg->capm = nc;
    }
    pg->u[pg->m] = u;
    pg->v[pg->m] = v;
    pg->cls[pg->m] = (uint8_t)cls;
    pg->cap[pg->m] = cap;
    pg->m++;
    return TK_OK;
}

tk_status_t tk_io_pg_finish(tk_reader_t *r, tk_io_pg_t *pg, tk_graph_t **g, tk_error_t *err)
{
    tk_builder_t *b = NULL;
    tk_status_t st;
    long line = r->line;
    int ncoord = 0, uniform = 1;

    if (pg->n == 0)
        return tk_error_set(err, TK_EFORMAT, r->name, line, "no switches in the graph");
    st = tk_io_check_size(r, line, "graph", pg->n, pg->directed ? pg->m : 2 * pg->m, err);
    if (st != TK_OK)
        return st;
    for (int64_t u = 0; u < pg->n; u++)
        while (ncoord < TK_IO_PG_COORDS && (pg->coordset[u] >> ncoord))
            ncoord++;
    for (int64_t u = 0; ncoord && u < pg->n; u++)
        if (pg->coordset[u] != (ncoord == 64 ? ~0ull : (1ull << ncoord) - 1))
            return tk_error_set(err, TK_EFORMAT, r->name, line,
                                "switch %ld: coordinates coord0..coord%d must all be given "
                                "(on every switch or none)",
                                (long)u, ncoord - 1);
    st = tk_builder_new(&b, pg->n, pg->directed, err);
    if (st != TK_OK)
        return tk_io_locate(err, st, r->name, line);
    st = tk_builder_reserve(b, pg->m, err);
    int map[TK_MAX_CLASSES] = {0};
    for (int i = 1; st == TK_OK && i < pg->nnames; i++)
        st = tk_builder_class(b, pg->names[i], &map[i], err);
    for (int64_t k = 0; st == TK_OK && k < pg->m; k++)
        st = tk_builder_add_ex(b, pg->u[k], pg->v[k], map[pg->cls[k]], pg->cap[k], err);
    for (int64_t u = 1; u < pg->n; u++)
        if (pg->servers[u] != pg->servers[0])
            uniform = 0;
    if (st == TK_OK && pg->has_servers && uniform)
        st = tk_builder_set_servers_uniform(b, pg->servers[0], err);
    for (int64_t u = 0; st == TK_OK && pg->has_servers && !uniform && u < pg->n; u++)
        st = tk_builder_set_servers(b, u, pg->servers[u], err);
    for (int64_t u = 0; st == TK_OK && pg->has_group && u < pg->n; u++)
        st = tk_builder_set_group(b, u, pg->group[u], err);
    if (st == TK_OK && ncoord)
        st = tk_builder_set_ncoord(b, ncoord, err);
    for (int64_t u = 0; st == TK_OK && ncoord && u < pg->n; u++)
        st = tk_builder_set_coord(b, u, pg->coord + u * TK_IO_PG_COORDS, err);
    if (st == TK_OK && pg->spec)
        st = tk_builder_set_spec(b, pg->spec, err);
    if (st != TK_OK) {
        tk_builder_free(b);
        return tk_io_locate(err, st, r->name, line);
    }
    st = tk_builder_finish(b, g, err);
    if (st != TK_OK)
        return tk_io_locate(err, st, r->name, line);
    return TK_OK;
}

/* ------------------------------------------------------------------------ */
/* Character stream.                                                        */

void tk_io_cs_init(tk_io_cs_t *cs, tk_reader_t *r)
{
    memset(cs, 0, sizeof *cs);
    cs->r = r;
}

/* Make cs->p point at an unread character; -1 at the end, -2 on error. */
static int cs_fill(tk_io_cs_t *cs, tk_error_t *err)
{
    while (!cs->p || (*cs->p == '\0' && cs->nl_given)) {
        char *line;
        if (cs->eof)
            return -1;
        tk_status_t st = tk_io_getline(cs->r, &line, err);
        if (st == TK_EOF) {
            cs->eof = 1;
            return -1;
        }
        if (st != TK_OK) {
            cs->st = st;
            return -2;
        }
        cs->p = line;
        cs->nl_given = 0;
    }
    return 0;
}

int tk_io_cs_peek(tk_io_cs_t *cs, tk_error_t *err)
{
    int f = cs_fill(cs, err);
    if (f < 0)
        return f;
    return *cs->p ? (unsigned char)*cs->p : '\n';
}

int tk_io_cs_get(tk_io_cs_t *cs, tk_error_t *err)
{
    int c = tk_io_cs_peek(cs, err);
    if (c < 0)
        return c;
    if (*cs->p)
        cs->p++;
    else
        cs->nl_given = 1;
    return c;
}

int tk_io_cs_skip_space(tk_io_cs_t *cs, tk_error_t *err)
{
    int c;
    while ((c = tk_io_cs_peek(cs, err)) == ' ' || c == '\t' || c == '\n' || c == '\r')
        tk_io_cs_get(cs, err);
    return c;
}

int tk_io_parse_count(const char *s, double lo, double hi, int32_t *v)
{
    char *end;
    double d;
    if (!s || !*s)
        return -1;
    d = strtod(s, &end);
    while (*end == ' ' || *end == '\t' || *end == '\n')
        end++;
    if (*end || !isfinite(d) || d != floor(d) || d < lo || d > hi)
        return -1;
    *v = (int32_t)d;
    return 0;
}
