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

typedef struct edges {
    int32_t *u, *v;
    uint8_t *cls;
    double *cap;
    int64_t m, capm;
    char names[TK_MAX_CLASSES][TK_CLASS_NAME_MAX]; /* names[0] = "-" */
    int nnames;
    char *spec;
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

tk_status_t tk_io_read_edges(tk_reader_t *r, tk_graph_t **g, tk_error_t *err)
{
    edges_t e;
    tk_builder_t *b = NULL;
    tk_status_t st;
    int have_header = 0, directed = 0;
    int64_t n = 0, maxid = -1;
    long header_line = 0;
    char *line;

    memset(&e, 0, sizeof e);
    strcpy(e.names[0], "-");
    e.nnames = 1;
    for (;;) {
        st = tk_io_getline(r, &line, err);
        if (st == TK_EOF)
            break;
        if (st != TK_OK)
            goto fail;
        char *p = line;
        while (isspace((unsigned char)*p))
            p++;
        if (*p == '#') {
            p++;
            while (*p == ' ' || *p == '\t')
                p++;
            if (strncmp(p, "topokit-edges", 13) == 0 &&
                (p[13] == '\0' || isspace((unsigned char)p[13]))) {
                if (have_header) {
                    st = tk_error_set(err, TK_EFORMAT, r->name, r->line,
                                      "duplicate topokit-edges header (first at line %ld)",
                                      header_line);
                    goto fail;
                }
                if (e.m > 0) {
                    st = tk_error_set(err, TK_EFORMAT, r->name, r->line,
                                      "topokit-edges header after the first edge");
                    goto fail;
                }
                st = parse_edges_header(r, p + 13, &n, &directed, err);
                if (st != TK_OK)
                    goto fail;
                have_header = 1;
                header_line = r->line;
            } else if (strncmp(p, "classes", 7) == 0 && isspace((unsigned char)p[7]) && e.m == 0 &&
                       e.nnames == 1) {
                /* "# classes a b c": declares the class order. */
                char *q = p + 7, *name;
                while ((name = tk_io_token(&q)) != NULL) {
                    if (!tk_io_class_name_ok(name)) {
                        st = tk_error_set(err, TK_EFORMAT, r->name, r->line,
                                          "bad class name '%s' (a letter or '_' then up to %d "
                                          "letters, digits or _.:+-)",
                                          name, TK_CLASS_NAME_MAX - 2);
                        goto fail;
                    }
                    if (edges_class(&e, name) < 0) {
                        st = tk_error_set(err, TK_ELIMIT, r->name, r->line,
                                          "classes: more than %d link classes", TK_MAX_CLASSES - 1);
                        goto fail;
                    }
                }
            } else if (strncmp(p, "spec", 4) == 0 &&
                       (p[4] == '\0' || isspace((unsigned char)p[4])) && !e.spec && e.m == 0) {
                p += 4;
                while (isspace((unsigned char)*p))
                    p++;
                size_t len = strlen(p);
                while (len > 0 && isspace((unsigned char)p[len - 1]))
                    len--;
                e.spec = strndup(p, len);
                if (!e.spec) {
                    st = tk_error_set(err, TK_ENOMEM, r->name, r->line, "out of memory");
                    goto fail;
                }
            }
            continue;
        }
        char *c = strchr(p, '#');
        if (c)
            *c = '\0';
        char *tok = tk_io_token(&p);
        if (!tok)
            continue;
        int64_t id[2];
        for (int k = 0; k < 2; k++) {
            if (k == 1 && !(tok = tk_io_token(&p))) {
                st = tk_error_set(err, TK_EFORMAT, r->name, r->line,
                                  "edge line: expected 'u v [class [capacity]]'");
                goto fail;
            }
            if (tk_io_parse_i64(tok, &id[k]) != 0) {
                st = tk_error_set(err, TK_EFORMAT, r->name, r->line,
                                  "switch id '%s': not an integer", tok);
                goto fail;
            }
            if (have_header && (id[k] < 0 || id[k] >= n)) {
                st = tk_error_set(err, TK_ERANGE, r->name, r->line,
                                  "switch id %" PRId64 " out of range 0..%" PRId64, id[k], n - 1);
                goto fail;
            }
            if (id[k] < 0) {
                st = tk_error_set(err, TK_ERANGE, r->name, r->line,
                                  "switch id %" PRId64 ": must be >= 0", id[k]);
                goto fail;
            }
            if (!have_header && id[k] > maxid) {
                char what[64];
                snprintf(what, sizeof what, "switch id %" PRId64, id[k]);
                if (id[k] >= TK_MAX_SWITCHES) {
                    st = tk_error_set(err, TK_ELIMIT, r->name, r->line,
                                      "%s: more than the maximum of %" PRId64 " switches", what,
                                      (int64_t)TK_MAX_SWITCHES);
                    goto fail;
                }
                st = tk_io_check_size(r, r->line, what, id[k] + 1, 0, err);
                if (st != TK_OK)
                    goto fail;
                maxid = id[k];
            }
        }
        int cls = 0;
        double cap = 1.0;
        if ((tok = tk_io_token(&p)) != NULL) {
            if (strcmp(tok, "-") != 0) {
                if (!tk_io_class_name_ok(tok)) {
                    st = tk_error_set(err, TK_EFORMAT, r->name, r->line,
                                      "bad class name '%s' (a letter or '_' then up to %d "
                                      "letters, digits or _.:+-)",
                                      tok, TK_CLASS_NAME_MAX - 2);
                    goto fail;
                }
                cls = edges_class(&e, tok);
                if (cls < 0) {
                    st = tk_error_set(err, TK_ELIMIT, r->name, r->line,
                                      "class '%s': more than %d link classes", tok,
                                      TK_MAX_CLASSES - 1);
                    goto fail;
                }
            }
            if ((tok = tk_io_token(&p)) != NULL) {
                if (tk_io_parse_cap(tok, &cap) != 0) {
                    st = tk_error_set(err, TK_EFORMAT, r->name, r->line,
                                      "bad capacity '%s' (must be a finite number > 0)", tok);
                    goto fail;
                }
                if ((tok = tk_io_token(&p)) != NULL) {
                    st = tk_error_set(err, TK_EFORMAT, r->name, r->line, "trailing junk '%s'", tok);
                    goto fail;
                }
            }
        }
        if (e.m == e.capm && edges_grow(&e) != 0) {
            st = tk_error_set(err, TK_ENOMEM, r->name, r->line, "out of memory");
            goto fail;
        }
        if (e.m >= TK_MAX_ARCS / 2) {
            st = tk_error_set(err, TK_ELIMIT, r->name, r->line, "too many edges");
            goto fail;
        }
        e.u[e.m] = (int32_t)id[0];
        e.v[e.m] = (int32_t)id[1];
        e.cls[e.m] = (uint8_t)cls;
        e.cap[e.m] = cap;
        e.m++;
    }
    r->done = 1;
    if (!have_header && e.m == 0) {
        edges_free(&e);
        return TK_EOF;
    }
    if (!have_header)
        n = maxid + 1;
    {
        char what[64];
        snprintf(what, sizeof what, "%" PRId64 " edges", e.m);
        st = tk_io_check_size(r, r->line, what, n, directed ? e.m : 2 * e.m, err);
        if (st != TK_OK)
            goto fail;
    }
    st = tk_builder_new(&b, n, directed, err);
    if (st == TK_OK)
        st = tk_builder_reserve(b, e.m, err);
    if (st == TK_OK && e.spec)
        st = tk_builder_set_spec(b, e.spec, err);
    for (int i = 1; st == TK_OK && i < e.nnames; i++) {
        int c;
        st = tk_builder_class(b, e.names[i], &c, err);
    }
    for (int64_t i = 0; st == TK_OK && i < e.m; i++)
        st = tk_builder_add_ex(b, e.u[i], e.v[i], e.cls[i], e.cap[i], err);
    if (st != TK_OK) {
        tk_io_locate(err, st, r->name, r->line);
        goto fail;
    }
    st = tk_builder_finish(b, g, err);
    b = NULL;
    if (st != TK_OK) {
        tk_io_locate(err, st, r->name, r->line);
        goto fail;
    }
    edges_free(&e);
    return TK_OK;
fail:
    tk_builder_free(b);
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
