/*
 * io_edges.c - plain edge lists: "u v [class [capacity]]" per line, '#'
 * comments, optional header comments "# topokit-edges switches N directed D"
 * and "# spec ...".  The whole rest of the stream is one graph.  Without the
 * header the graph is undirected with n = largest id + 1.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "io_internal.h"

/* The edge list as read so far. */
typedef struct edges {
    int32_t *u, *v;
    uint8_t *cls;
    double *cap;
    int64_t m, capm;
    char names[TK_MAX_CLASSES][TK_CLASS_NAME_MAX]; /* names[0] = "-" */
    int nnames;
    char *spec;
    int have_header; /* "# topokit-edges" seen (at header_line) */
    long header_line;
    int directed;    /* from the header */
    int64_t n;       /* switches, from the header */
    int64_t maxid;   /* largest id so far without a header */
    long maxid_line; /* the line where maxid first appeared */
} edges_t;

static void edges_free(edges_t *e)
{
    free(e->u);
    free(e->v);
    free(e->cls);
    free(e->cap);
    free(e->spec);
}

static int edges_grow(edges_t *e)
{
    int64_t nc = e->capm ? 2 * e->capm : 1024;
    int32_t *u = tk_realloc_array(e->u, (size_t)nc, sizeof *u);
    if (!u)
        return -1;
    e->u = u;
    int32_t *v = tk_realloc_array(e->v, (size_t)nc, sizeof *v);
    if (!v)
        return -1;
    e->v = v;
    uint8_t *c = tk_realloc_array(e->cls, (size_t)nc, sizeof *c);
    if (!c)
        return -1;
    e->cls = c;
    double *cap = tk_realloc_array(e->cap, (size_t)nc, sizeof *cap);
    if (!cap)
        return -1;
    e->cap = cap;
    e->capm = nc;
    return 0;
}

/* Parse "# topokit-edges switches N directed D" (p after "topokit-edges"). */
static tk_status_t parse_edges_header(tk_reader_t *r, char *p, int64_t *n, int *directed,
                                      tk_error_t *err)
{
    char *tok;
    int have_n = 0;
    *directed = 0;
    while ((tok = tk_io_token(&p)) != NULL) {
        int is_n = strcmp(tok, "switches") == 0;
        if (!is_n && strcmp(tok, "directed") != 0)
            return tk_error_set(err, TK_EFORMAT, r->name, r->line,
                                "topokit-edges header: unknown key '%s' (expected switches "
                                "or directed)",
                                tok);
        char *val = tk_io_token(&p);
        int64_t v;
        if (!val)
            return tk_error_set(err, TK_EFORMAT, r->name, r->line,
                                "topokit-edges header: %s: missing value", tok);
        if (tk_io_parse_i64(val, &v) != 0)
            return tk_error_set(err, TK_EFORMAT, r->name, r->line, "%s '%s': not an integer", tok,
                                val);
        if (is_n) {
            if (v < 0)
                return tk_error_set(err, TK_ERANGE, r->name, r->line,
                                    "switches %" PRId64 ": must be >= 0", v);
            char what[64];
            snprintf(what, sizeof what, "switches %" PRId64, v);
            tk_status_t st = tk_io_check_size(r, r->line, what, v, 0, err);
            if (st != TK_OK)
                return st;
            *n = v;
            have_n = 1;
        } else {
            if (v != 0 && v != 1)
                return tk_error_set(err, TK_ERANGE, r->name, r->line,
                                    "directed %" PRId64 ": must be 0 or 1", v);
            *directed = (int)v;
        }
    }
    if (!have_n)
        return tk_error_set(err, TK_EFORMAT, r->name, r->line,
                            "topokit-edges header: missing 'switches N'");
    return TK_OK;
}

/* Class index of name in e (adding it).  -1 when the table is full. */
static int edges_class(edges_t *e, const char *name)
{
    for (int i = 0; i < e->nnames; i++)
        if (strcmp(e->names[i], name) == 0)
            return i;
    if (e->nnames >= TK_MAX_CLASSES)
        return -1;
    snprintf(e->names[e->nnames], TK_CLASS_NAME_MAX, "%s", name);
    return e->nnames++;
}

static tk_status_t bad_class_name(const tk_reader_t *r, const char *name, tk_error_t *err)
{
    return tk_error_set(err, TK_EFORMAT, r->name, r->line,
                        "bad class name '%s' (a letter or '_' then up to %d "
                        "letters, digits or _.:+-)",
                        name, TK_CLASS_NAME_MAX - 2);
}

/* Is p the keyword kw followed by the end or a space? */
static int keyword(const char *p, const char *kw)
{
    size_t len = strlen(kw);
    return strncmp(p, kw, len) == 0 && (p[len] == '\0' || isspace((unsigned char)p[len]));
}

/* tk_io_edges_lookalike: see io_internal.h. */
int tk_io_edges_lookalike(const char *p)
{
    while (*p == ' ' || *p == '\t')
        p++;
    size_t w = strcspn(p, " \t");
    if (w == 0)
        return 0;
    p += w;
    while (*p == ' ' || *p == '\t')
        p++;
    return keyword(p, "switches");
}

/* A comment line (p after the '#'): the header "topokit-edges ...", before
 * the first edge "classes a b c" (the class order) and "spec ...";
 * anything else is ignored. */
static tk_status_t edges_comment(tk_reader_t *r, edges_t *e, char *p, tk_error_t *err)
{
    tk_status_t st;

    while (*p == ' ' || *p == '\t')
        p++;
    if (keyword(p, "topokit-edges")) {
        if (e->have_header)
            return tk_error_set(err, TK_EFORMAT, r->name, r->line,
                                "duplicate topokit-edges header (first at line %ld)",
                                e->header_line);
        if (e->m > 0)
            return tk_error_set(err, TK_EFORMAT, r->name, r->line,
                                "topokit-edges header after the first edge");
        st = parse_edges_header(r, p + 13, &e->n, &e->directed, err);
        if (st != TK_OK)
            return st;
        e->have_header = 1;
        e->header_line = r->line;
    } else if (e->m == 0 && !e->have_header && tk_io_edges_lookalike(p)) {
        char word[32];
        snprintf(word, sizeof word, "%.*s", (int)strcspn(p, " \t"), p);
        return tk_error_set(err, TK_EFORMAT, r->name, r->line,
                            "unknown header '%s' (expected '# topokit-edges switches N "
                            "directed D')",
                            word);
    } else if (strncmp(p, "classes", 7) == 0 && isspace((unsigned char)p[7]) && e->m == 0 &&
               e->nnames == 1) {
        /* "# classes a b c": declares the class order. */
        char *q = p + 7, *name;
        while ((name = tk_io_token(&q)) != NULL) {
            if (!tk_io_class_name_ok(name))
                return bad_class_name(r, name, err);
            if (edges_class(e, name) < 0)
                return tk_error_set(err, TK_ELIMIT, r->name, r->line,
                                    "classes: more than %d link classes", TK_MAX_CLASSES - 1);
        }
    } else if (keyword(p, "spec") && !e->spec && e->m == 0) {
        p += 4;
        while (isspace((unsigned char)*p))
            p++;
        size_t len = strlen(p);
        while (len > 0 && isspace((unsigned char)p[len - 1]))
            len--;
        if (memchr(p, '#', len))
            return tk_error_set(err, TK_EFORMAT, r->name, r->line,
                                "spec '%.*s': contains '#' (the native format reads it as a "
                                "comment)",
                                (int)len, p);
        e->spec = strndup(p, len);
        if (!e->spec)
            return tk_error_set(err, TK_ENOMEM, r->name, r->line, "out of memory");
    }
    return TK_OK;
}

/* The switch id tok of an edge line: an integer in 0..n-1 with a header;
 * without one, >= 0 and (as it grows the graph) within the size limits. */
static tk_status_t edge_id(tk_reader_t *r, edges_t *e, const char *tok, int64_t *id,
                           tk_error_t *err)
{
    if (tk_io_parse_i64(tok, id) != 0)
        return tk_error_set(err, TK_EFORMAT, r->name, r->line, "switch id '%s': not an integer",
                            tok);
    if (e->have_header && (*id < 0 || *id >= e->n))
        return tk_error_set(err, TK_ERANGE, r->name, r->line,
                            "switch id %" PRId64 " out of range 0..%" PRId64, *id, e->n - 1);
    if (*id < 0)
        return tk_error_set(err, TK_ERANGE, r->name, r->line, "switch id %" PRId64 ": must be >= 0",
                            *id);
    if (!e->have_header && *id > e->maxid) {
        char what[64];
        tk_status_t st;
        snprintf(what, sizeof what, "switch id %" PRId64, *id);
        if (*id >= TK_MAX_SWITCHES)
            return tk_error_set(err, TK_ELIMIT, r->name, r->line,
                                "%s: more than the maximum of %" PRId64 " switches", what,
                                (int64_t)TK_MAX_SWITCHES);
        st = tk_io_check_size(r, r->line, what, *id + 1, 0, err);
        if (st != TK_OK)
            return st;
        e->maxid = *id;
        e->maxid_line = r->line;
    }
    return TK_OK;
}

/* The optional "[class [capacity]]" after the ids (p: the rest of the
 * line): class "-" or absent is the default class 0, capacity 1. */
static tk_status_t edge_class_cap(tk_reader_t *r, edges_t *e, char *p, int *cls, double *cap,
                                  tk_error_t *err)
{
    char *tok;

    *cls = 0;
    *cap = 1.0;
    if ((tok = tk_io_token(&p)) == NULL)
        return TK_OK;
    if (strcmp(tok, "-") != 0) {
        if (!tk_io_class_name_ok(tok))
            return bad_class_name(r, tok, err);
        *cls = edges_class(e, tok);
        if (*cls < 0)
            return tk_error_set(err, TK_ELIMIT, r->name, r->line,
                                "class '%s': more than %d link classes", tok, TK_MAX_CLASSES - 1);
    }
    if ((tok = tk_io_token(&p)) == NULL)
        return TK_OK;
    if (tk_io_parse_cap(tok, cap) != 0)
        return tk_error_set(err, TK_EFORMAT, r->name, r->line,
                            "bad capacity '%s' (must be a finite number > 0)", tok);
    if ((tok = tk_io_token(&p)) != NULL)
        return tk_error_set(err, TK_EFORMAT, r->name, r->line, "trailing junk '%s'", tok);
    return TK_OK;
}

/* An edge line "u v [class [capacity]]" (p: the line, comment cut off),
 * appended to e; a blank line adds nothing. */
static tk_status_t edge_line(tk_reader_t *r, edges_t *e, char *p, tk_error_t *err)
{
    char *tok = tk_io_token(&p);
    int64_t id[2];
    int cls;
    double cap;
    tk_status_t st;

    if (!tok)
        return TK_OK;
    for (int k = 0; k < 2; k++) {
        if (k == 1 && !(tok = tk_io_token(&p)))
            return tk_error_set(err, TK_EFORMAT, r->name, r->line,
                                "edge line: expected 'u v [class [capacity]]'");
        if ((st = edge_id(r, e, tok, &id[k], err)) != TK_OK)
            return st;
    }
    if ((st = edge_class_cap(r, e, p, &cls, &cap, err)) != TK_OK)
        return st;
    if (e->m == e->capm && edges_grow(e) != 0)
        return tk_error_set(err, TK_ENOMEM, r->name, r->line, "out of memory");
    if (e->m >= TK_MAX_ARCS / 2)
        return tk_error_set(err, TK_ELIMIT, r->name, r->line, "too many edges");
    e->u[e->m] = (int32_t)id[0];
    e->v[e->m] = (int32_t)id[1];
    e->cls[e->m] = (uint8_t)cls;
    e->cap[e->m] = cap;
    e->m++;
    return TK_OK;
}

/* The graph of the edges read (n switches), through the builder; errors
 * at the last line read. */
static tk_status_t edges_graph(tk_reader_t *r, const edges_t *e, int64_t n, tk_graph_t **g,
                               tk_error_t *err)
{
    tk_builder_t *b = NULL;
    char what[64];
    tk_status_t st;

    snprintf(what, sizeof what, "%" PRId64 " edges", e->m);
    st = tk_io_check_size(r, r->line, what, n, e->directed ? e->m : 2 * e->m, err);
    if (st != TK_OK)
        return st;
    st = tk_builder_new(&b, n, e->directed, err);
    if (st == TK_OK)
        st = tk_builder_reserve(b, e->m, err);
    if (st == TK_OK && e->spec)
        st = tk_builder_set_spec(b, e->spec, err);
    for (int i = 1; st == TK_OK && i < e->nnames; i++) {
        int c;
        st = tk_builder_class(b, e->names[i], &c, err);
    }
    for (int64_t i = 0; st == TK_OK && i < e->m; i++)
        st = tk_builder_add_ex(b, e->u[i], e->v[i], e->cls[i], e->cap[i], err);
    if (st != TK_OK) {
        tk_builder_free(b);
        return tk_io_locate(err, st, r->name, r->line);
    }
    st = tk_builder_finish(b, g, err);
    if (st != TK_OK)
        tk_io_locate(err, st, r->name, r->line);
    return st;
}

/* Without a header the switch count is the largest id + 1, so one
 * mistyped id (1000000 in a 9-switch graph) would make a graph of
 * isolated switches: refused when more than three quarters of the
 * switches (and at least 16) have no link, at the line of the largest id.
 * A header declares isolated switches on purpose. */
static tk_status_t check_isolated(tk_reader_t *r, const edges_t *e, tk_error_t *err)
{
    const int64_t n = e->maxid + 1;
    if (n < 16)
        return TK_OK;
    uint8_t *used = tk_calloc_array((size_t)n, 1);
    if (!used)
        return tk_error_set(err, TK_ENOMEM, r->name, r->line, "out of memory");
    int64_t linked = 0;
    for (int64_t i = 0; i < e->m; i++) {
        linked += !used[e->u[i]];
        used[e->u[i]] = 1;
        linked += !used[e->v[i]];
        used[e->v[i]] = 1;
    }
    free(used);
    const int64_t isolated = n - linked;
    if (isolated >= 16 && 4 * isolated > 3 * n)
        return tk_error_set(err, TK_EFORMAT, r->name, e->maxid_line,
                            "switch id %" PRId64 " leaves %" PRId64 " of %" PRId64
                            " switches without a link (a mistyped id? a header "
                            "'# topokit-edges switches N' allows isolated switches)",
                            e->maxid, isolated, n);
    return TK_OK;
}

tk_status_t tk_io_read_edges(tk_reader_t *r, tk_graph_t **g, tk_error_t *err)
{
    edges_t e;
    tk_status_t st;
    char *line;

    memset(&e, 0, sizeof e);
    strcpy(e.names[0], "-");
    e.nnames = 1;
    e.maxid = -1;
    for (;;) {
        st = tk_io_getline(r, &line, err);
        if (st == TK_EOF)
            break;
        if (st != TK_OK)
            goto done;
        char *p = line;
        while (isspace((unsigned char)*p))
            p++;
        if (*p == '#') {
            st = edges_comment(r, &e, p + 1, err);
        } else {
            char *c = strchr(p, '#');
            if (c)
                *c = '\0';
            st = edge_line(r, &e, p, err);
        }
        if (st != TK_OK)
            goto done;
    }
    r->done = 1;
    if (!e.have_header && e.m == 0)
        st = TK_EOF;
    else if (!e.have_header && (st = check_isolated(r, &e, err)) != TK_OK)
        ;
    else
        st = edges_graph(r, &e, e.have_header ? e.n : e.maxid + 1, g, err);
done:
    edges_free(&e);
    return st;
}

tk_status_t tk_io_write_edges(FILE *fp, const tk_graph_t *g, tk_error_t *err)
{
    (void)err;
    fprintf(fp, "# topokit-edges switches %" PRId32 " directed %d\n", g->n, g->directed ? 1 : 0);
    if (g->spec && g->spec[0]) {
        fputs("# spec ", fp);
        for (const char *p = g->spec; *p; p++)
            fputc((*p == '\n' || *p == '\r' || *p == '\t') ? ' ' : *p, fp);
        fputc('\n', fp);
    }
    if (g->nclasses > 1) {
        fputs("# classes", fp);
        for (int c = 1; c < g->nclasses; c++)
            fprintf(fp, " %s", g->class_name[c]);
        fputc('\n', fp);
    }
    for (tk_id_t u = 0; u < g->n; u++)
        for (int64_t a = g->off[u]; a < g->off[u + 1]; a++)
            if (tk_io_link_rep(g, u, a))
                tk_io_print_link(fp, g, u, a);
    return TK_OK;
}
