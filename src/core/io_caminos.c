/*
 * io_caminos.c - the neighbour-list file of CAMINOS's File topology (read
 * and write), as CAMINOS's file topology reader takes it (format 0):
 *
 *   NODOS n        the number of routers
 *   GRADO d        the degree (a capacity hint; the lists may be shorter)
 *   N i            router i; the next line lists its neighbours (every
 *                  router 0..n-1 has one, as CAMINOS reads them all)
 *
 * Each link appears in the lists of both ends; CAMINOS numbers a router's
 * ports in list order and finds the far port by searching the neighbour's
 * list, so parallel links and self-loops cannot be expressed.  Servers are
 * not in the file (CAMINOS takes servers_per_router from its configuration):
 * they are dropped on writing, and reading leaves the default of a file
 * without servers (as for an edge list).  The reader also skips blank lines
 * and '#' comments, which CAMINOS itself refuses.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "io_internal.h"

#define FAIL(...) tk_error_set(err, TK_EFORMAT, r->name, r->line, __VA_ARGS__)

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

static tk_status_t parse(tk_reader_t *r, int64_t *n, uint64_t **arcs, int64_t *narcs,
                         tk_error_t *err)
{
    char *line, *tok;
    tk_status_t st;
    int64_t capa = 0, v, deg = -1;
    uint8_t *seen = NULL;
    *n = -1;
    *narcs = 0;
    while ((st = tk_io_getline(r, &line, err)) == TK_OK) {
        char *s = line;
        tok = tk_io_token(&s);
        if (!tok || tok[0] == '#')
            continue;
        if (strcmp(tok, "NODOS") == 0 || strcmp(tok, "GRADO") == 0) {
            int is_n = tok[0] == 'N';
            char *val = tk_io_token(&s);
            if (!val || tk_io_parse_i64(val, &v) || v < (is_n ? 1 : 0) || tk_io_token(&s)) {
                st = FAIL("CAMINOS: %s needs one whole number%s", tok, is_n ? " >= 1" : " >= 0");
                break;
            }
            if (is_n && *n >= 0) {
                st = FAIL("CAMINOS: NODOS given twice");
                break;
            }
            if (!is_n && *n < 0) {
                st = FAIL("CAMINOS: GRADO before NODOS");
                break;
            }
            if (is_n) {
                if ((st = tk_io_check_size(r, r->line, "NODOS", v, 0, err)) != TK_OK)
                    break;
                *n = v;
                seen = calloc((size_t)v, 1);
                if (!seen) {
                    st = tk_error_set(err, TK_ENOMEM, r->name, r->line, "out of memory");
                    break;
                }
            } else {
                deg = v;
            }
        } else if (strcmp(tok, "N") == 0) {
            int64_t u;
            char *val = tk_io_token(&s);
            if (deg < 0) {
                st = FAIL("CAMINOS: 'N' before NODOS and GRADO");
                break;
            }
            if (!val || tk_io_parse_i64(val, &u) || u < 0 || u >= *n || tk_io_token(&s)) {
                st = FAIL("CAMINOS: N needs one router number in 0..%" PRId64, *n - 1);
                break;
            }
            if (seen[u]) {
                st = FAIL("CAMINOS: router %" PRId64 " listed twice", u);
                break;
            }
            seen[u] = 1;
            st = tk_io_getline(r, &line, err);
            if (st == TK_EOF)
                st = FAIL("CAMINOS: input ends before the neighbours of router %" PRId64, u);
            if (st != TK_OK)
                break;
            s = line;
            while ((tok = tk_io_token(&s)) != NULL) {
                if (tk_io_parse_i64(tok, &v) || v < 0 || v >= *n) {
                    st = FAIL("CAMINOS: neighbour '%.40s' of router %" PRId64
                              ": not a router number in 0..%" PRId64,
                              tok, u, *n - 1);
                    break;
                }
                if (v == u) {
                    st = tk_error_set(err, TK_EUNSUPPORTED, r->name, r->line,
                                      "CAMINOS: router %" PRId64 " lists itself", u);
                    break;
                }
                if (*narcs == capa) {
                    int64_t nc = capa ? 2 * capa : 256;
                    uint64_t *p = tk_realloc_array(*arcs, (size_t)nc, sizeof *p);
                    if (!p) {
                        st = tk_error_set(err, TK_ENOMEM, r->name, r->line, "out of memory");
                        break;
                    }
                    *arcs = p;
                    capa = nc;
                }
                (*arcs)[(*narcs)++] = (uint64_t)u << 32 | (uint64_t)v;
            }
            if (st != TK_OK)
                break;
        } else {
            st = FAIL("CAMINOS: '%.40s': expected NODOS, GRADO or N", tok);
            break;
        }
    }
    if (st == TK_EOF && *n >= 0) {
        /* CAMINOS reads the list of every router: one missing is not a
         * file it would take (and NODOS alone would stand for n isolated
         * routers) */
        st = TK_OK;
        for (int64_t u = 0; u < *n; u++)
            if (!seen[u]) {
                st = FAIL("CAMINOS: router %" PRId64 " of NODOS %" PRId64 " has no 'N %" PRId64
                          "' line",
                          u, *n, u);
                break;
            }
    }
    free(seen);
    if (st == TK_EOF)
        st = FAIL("CAMINOS: no NODOS line");
    return st;
}

tk_status_t tk_io_read_caminos(tk_reader_t *r, tk_graph_t **g, tk_error_t *err)
{
    int64_t n, narcs;
    uint64_t *arcs = NULL;
    tk_io_pg_t pg;
    tk_status_t st;
    tk_io_pg_init(&pg);
    st = parse(r, &n, &arcs, &narcs, err);
    if (st == TK_OK && narcs > 0) /* no qsort of a NULL array, even empty (UBSan) */
        qsort(arcs, (size_t)narcs, sizeof *arcs, cmp_u64);
    for (int64_t k = 0; st == TK_OK && k < narcs; k++) {
        uint64_t u = arcs[k] >> 32, v = arcs[k] & 0xffffffffu, back = v << 32 | u;
        if (k > 0 && arcs[k] == arcs[k - 1])
            st = tk_error_set(err, TK_EUNSUPPORTED, r->name, r->line,
                              "CAMINOS: router %" PRIu64 " lists %" PRIu64
                              " twice (parallel links are not supported)",
                              u, v);
        else if (!bsearch(&back, arcs, (size_t)narcs, sizeof *arcs, cmp_u64))
            st = FAIL("CAMINOS: router %" PRIu64 " lists %" PRIu64 " but %" PRIu64
                      " does not list %" PRIu64 " (lists must be symmetric)",
                      u, v, v, u);
    }
    for (int64_t u = 0, id; st == TK_OK && u < n; u++)
        st = tk_io_pg_node(r, &pg, &id, err);
    for (int64_t k = 0; st == TK_OK && k < narcs; k++)
        if ((arcs[k] >> 32) < (arcs[k] & 0xffffffffu))
            st = tk_io_pg_link(r, &pg, (int64_t)(arcs[k] >> 32), (int64_t)(arcs[k] & 0xffffffffu),
                               0, 1.0, err);
    if (st == TK_OK)
        st = tk_io_pg_finish(r, &pg, g, err);
    tk_io_pg_free(&pg);
    free(arcs);
    return st;
}

tk_status_t tk_io_write_caminos(FILE *fp, const tk_graph_t *g, tk_error_t *err)
{
    tk_status_t st = tk_io_need_simple(g, "CAMINOS", err);
    int64_t maxdeg = 0;
    if (st != TK_OK)
        return st;
    for (tk_id_t u = 0; u < g->n; u++)
        if (tk_graph_degree(g, u) > maxdeg)
            maxdeg = tk_graph_degree(g, u);
    fprintf(fp, "NODOS %" PRId32 "\nGRADO %" PRId64 "\n", g->n, maxdeg);
    for (tk_id_t u = 0; u < g->n; u++) {
        fprintf(fp, "N %" PRId32 "\n", u);
        for (int64_t a = g->off[u]; a < g->off[u + 1]; a++)
            fprintf(fp, "%s%" PRId32, a > g->off[u] ? " " : "", g->head[a]);
        fputc('\n', fp);
    }
    return TK_OK;
}
