/*
 * route.c - routing models: parsing, the prepared router (distance tables,
 * hop lengths), per-thread workspaces, path sets and the dispatch to the
 * models (dag.c: min, ecmp, polarized; simple.c: ksp, allpath; valiant.c:
 * valiant; dragonfly.c: dragonfly-min, dragonfly-valiant).
 *
 * Distances.  Every model works with d(u, v), the length of a shortest
 * u->v path where a hop of class c counts clen[c] (1 unless a
 * "CLASS=LEN" option says otherwise).  Unweighted: breadth-first search;
 * weighted: Dijkstra with a binary heap.  Models that need d(., m) for every
 * intermediate m (valiant, dragonfly-*) and the per-pair models (ksp,
 * allpath, polarized) get an all-pairs table built once by tk_router_new
 * (4 n^2 bytes, when it fits in a quarter of the memory limit and 256 MiB;
 * for min and ecmp, whose aggregate engines are elsewhere, only when
 * n <= 2048); otherwise a workspace keeps the last RT_NCACHE distance
 * vectors, so a caller that walks the pairs grouped by target pays one
 * search per target.
 */
#include <config.h>

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "route_internal.h"

#define RT_MAX_WLEN 1000000
#define RT_TABLE_MAX_BYTES ((uint64_t)256 << 20)

/* ------------------------------------------------------------------------ */
/* Parsing.                                                                 */

static const char *const kind_name[] = {
    "min", "ecmp", "ksp", "allpath", "valiant", "dragonfly-min", "dragonfly-valiant", "polarized"};

static int parse_pos(const char *s, int32_t *v)
{
    char *end;
    long long x;
    if (!isdigit((unsigned char)*s))
        return -1;
    x = strtoll(s, &end, 10);
    if (*end || x > INT32_MAX)
        return -1;
    *v = (int32_t)x;
    return 0;
}

static int wcmp(const void *a, const void *b)
{
    return strcmp(a, b);
}

tk_status_t tk_route_parse(const char *text, tk_route_spec_t *out, tk_error_t *err)
{
    tk_route_spec_t sp;
    char buf[TK_ROUTE_TEXT_MAX];
    char *tok, *save = NULL;
    int first = 1, have_mode = 0;

    if (!text)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "routing model: missing");
    if (strlen(text) >= sizeof buf)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "%.40s...: routing model text too long", text);
    if (!*text)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "routing model: empty");
    memset(&sp, 0, sizeof sp);
    strcpy(buf, text);
    if (buf[strlen(buf) - 1] == ',' || buf[0] == ',' || strstr(buf, ",,"))
        return tk_error_set(err, TK_EINVAL, NULL, 0, "%s: empty option", text);
    for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (first) {
            char *colon = strchr(tok, ':');
            int k;
            first = 0;
            if (colon)
                *colon = 0;
            for (k = 0; k < 8; k++)
                if (strcmp(tok, kind_name[k]) == 0)
                    break;
            if (k == 8)
                return tk_error_set(err, TK_EINVAL, NULL, 0,
                                    "%s: unknown routing model '%s' (min, ecmp, ksp:K, "
                                    "allpath:H, valiant, dragonfly-min, dragonfly-valiant, "
                                    "polarized)",
                                    text, tok);
            sp.kind = (tk_route_kind_t)k;
            if (k == TK_ROUTE_KSP || k == TK_ROUTE_ALLPATH) {
                const char *what = k == TK_ROUTE_KSP ? "K" : "H";
                int32_t v;
                if (!colon)
                    return tk_error_set(err, TK_EINVAL, NULL, 0, "%s: %s needs :%s", text,
                                        kind_name[k], what);
                if (parse_pos(colon + 1, &v) || v < 1 || v > 1000000)
                    return tk_error_set(err, TK_EINVAL, NULL, 0,
                                        "%s: %s must be an integer from 1 to 1000000", text, what);
                if (k == TK_ROUTE_KSP)
                    sp.k = v;
                else
                    sp.h = v;
            } else if (colon) {
                return tk_error_set(err, TK_EINVAL, NULL, 0, "%s: %s takes no ':' parameter", text,
                                    kind_name[k]);
            }
            continue;
        }
        char *eq = strchr(tok, '=');
        if (!eq && strcmp(tok, "spread") == 0) {
            if (sp.kind != TK_ROUTE_KSP)
                return tk_error_set(err, TK_EINVAL, NULL, 0, "%s: option 'spread' is for ksp",
                                    text);
            if (sp.spread)
                return tk_error_set(err, TK_EINVAL, NULL, 0, "%s: 'spread' given twice", text);
            sp.spread = 1;
            continue;
        }
        if (!eq) {
            tk_valiant_mode_t m;
            if (strcmp(tok, "all") == 0)
                m = TK_VALIANT_ALL;
            else if (strcmp(tok, "exclude") == 0)
                m = TK_VALIANT_EXCLUDE;
            else if (strcmp(tok, "minfirst") == 0)
                m = TK_VALIANT_MINFIRST;
            else
                return tk_error_set(err, TK_EINVAL, NULL, 0,
                                    "%s: unknown option '%s' (valiant takes all, exclude or "
                                    "minfirst, ksp takes spread; hop lengths are CLASS=LEN)",
                                    text, tok);
            if (sp.kind != TK_ROUTE_VALIANT)
                return tk_error_set(err, TK_EINVAL, NULL, 0, "%s: option '%s' is for valiant", text,
                                    tok);
            if (have_mode)
                return tk_error_set(err, TK_EINVAL, NULL, 0, "%s: more than one valiant option",
                                    text);
            have_mode = 1;
            sp.valiant = m;
            continue;
        }
        *eq = 0;
        int32_t v;
        if (!*tok || strlen(tok) >= TK_CLASS_NAME_MAX)
            return tk_error_set(err, TK_EINVAL, NULL, 0, "%s: bad class name '%s'", text, tok);
        if (parse_pos(eq + 1, &v) || v < 1 || v > RT_MAX_WLEN)
            return tk_error_set(err, TK_EINVAL, NULL, 0,
                                "%s: %s=%s: hop length must be an integer from 1 to %d", text, tok,
                                eq + 1, RT_MAX_WLEN);
        if (sp.kind == TK_ROUTE_ALLPATH || sp.kind == TK_ROUTE_DF_MIN ||
            sp.kind == TK_ROUTE_DF_VALIANT)
            return tk_error_set(err, TK_EINVAL, NULL, 0,
                                "%s: hop lengths do not apply to %s (it counts hops)", text,
                                kind_name[sp.kind]);
        for (int i = 0; i < sp.nweights; i++)
            if (strcmp(sp.wclass[i], tok) == 0)
                return tk_error_set(err, TK_EINVAL, NULL, 0, "%s: class '%s' given twice", text,
                                    tok);
        if (sp.nweights >= TK_MAX_CLASSES)
            return tk_error_set(err, TK_EINVAL, NULL, 0, "%s: too many classes", text);
        strcpy(sp.wclass[sp.nweights], tok);
        sp.wlen[sp.nweights] = v;
        sp.nweights++;
    }
    /* Canonical text: model, ksp or valiant option, weights sorted by class. */
    {
        struct {
            char c[TK_CLASS_NAME_MAX];
            int32_t l;
        } w[TK_MAX_CLASSES];
        size_t len;
        for (int i = 0; i < sp.nweights; i++) {
            strcpy(w[i].c, sp.wclass[i]);
            w[i].l = sp.wlen[i];
        }
        qsort(w, (size_t)sp.nweights, sizeof w[0], wcmp);
        for (int i = 0; i < sp.nweights; i++) {
            strcpy(sp.wclass[i], w[i].c);
            sp.wlen[i] = w[i].l;
        }
        if (sp.kind == TK_ROUTE_KSP)
            snprintf(sp.text, sizeof sp.text, "ksp:%" PRId32, sp.k);
        else if (sp.kind == TK_ROUTE_ALLPATH)
            snprintf(sp.text, sizeof sp.text, "allpath:%" PRId32, sp.h);
        else
            snprintf(sp.text, sizeof sp.text, "%s", kind_name[sp.kind]);
        len = strlen(sp.text);
        if (sp.spread)
            len += (size_t)snprintf(sp.text + len, sizeof sp.text - len, ",spread");
        if (sp.kind == TK_ROUTE_VALIANT && sp.valiant != TK_VALIANT_ALL)
            len += (size_t)snprintf(sp.text + len, sizeof sp.text - len, ",%s",
                                    sp.valiant == TK_VALIANT_EXCLUDE ? "exclude" : "minfirst");
        for (int i = 0; i < sp.nweights && len < sizeof sp.text; i++)
            len += (size_t)snprintf(sp.text + len, sizeof sp.text - len, ",%s=%" PRId32,
                                    sp.wclass[i], sp.wlen[i]);
        if (len >= sizeof sp.text)
            return tk_error_set(err, TK_EINVAL, NULL, 0, "%.40s...: routing model text too long",
                                text);
    }
    *out = sp;
    return TK_OK;
}

/* ------------------------------------------------------------------------ */
/* Distances.                                                               */

static inline int32_t glen(const tk_router_t *r, const tk_graph_t *gr, int64_t a)
{
    return r->weighted && gr->cls ? r->clen[gr->cls[a]] : 1;
}

/* Shortest distances from src in graph gr (g for dir 1, the reverse for
 * dir 0). */
static void compute_dist(const tk_router_t *r, const tk_graph_t *gr, tk_id_t src, int32_t *d,
                         tk_id_t *queue, int64_t *heap)
{
    tk_id_t n = gr->n;
    for (tk_id_t v = 0; v < n; v++)
        d[v] = TK_INF;
    d[src] = 0;
    if (!r->weighted) {
        tk_id_t qh = 0, qt = 0;
        queue[qt++] = src;
        while (qh < qt) {
            tk_id_t u = queue[qh++];
            int32_t du = d[u] + 1;
            for (int64_t a = gr->off[u]; a < gr->off[u + 1]; a++) {
                tk_id_t v = gr->head[a];
                if (d[v] == TK_INF) {
                    d[v] = du;
                    queue[qt++] = v;
                }
            }
        }
        return;
    }
    /* Dijkstra, lazy deletion; entries dist << 32 | node. */
    int64_t hn = 0;
    heap[hn++] = (int64_t)src;
    while (hn) {
        int64_t top = heap[0];
        int64_t last = heap[--hn];
        /* sift down last from root */
        int64_t i = 0;
        for (;;) {
            int64_t c = 2 * i + 1;
            if (c >= hn)
                break;
            if (c + 1 < hn && heap[c + 1] < heap[c])
                c++;
            if (heap[c] >= last)
                break;
            heap[i] = heap[c];
            i = c;
        }
        if (hn)
            heap[i] = last;
        tk_id_t u = (tk_id_t)(top & 0xffffffff);
        int32_t du = (int32_t)(top >> 32);
        if (du != d[u])
            continue;
        for (int64_t a = gr->off[u]; a < gr->off[u + 1]; a++) {
            tk_id_t v = gr->head[a];
            int64_t nd = (int64_t)du + glen(r, gr, a);
            if (nd < d[v]) {
                d[v] = (int32_t)nd;
                int64_t e = (nd << 32) | (int64_t)v;
                int64_t j = hn++;
                while (j > 0 && heap[(j - 1) / 2] > e) {
                    heap[j] = heap[(j - 1) / 2];
                    j = (j - 1) / 2;
                }
                heap[j] = e;
            }
        }
    }
}

static const int32_t *cached(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t v, int dir)
{
    int64_t key = 2 * (int64_t)v + dir;
    int i, old = 0;
    ws->clock++;
    for (i = 0; i < RT_NCACHE; i++)
        if (ws->dkey[i] == key) {
            ws->dtime[i] = ws->clock;
            return ws->dc[i];
        }
    for (i = 1; i < RT_NCACHE; i++)
        if (ws->dtime[i] < ws->dtime[old])
            old = i;
    compute_dist(r, dir ? r->g : (r->rg ? r->rg : r->g), v, ws->dc[old], ws->queue, ws->heap);
    ws->dkey[old] = key;
    ws->dtime[old] = ws->clock;
    return ws->dc[old];
}

const int32_t *rt_dist_to(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t t)
{
    if (r->table)
        return r->table + (size_t)t * (size_t)r->g->n;
    return cached(r, ws, t, 0);
}

const int32_t *rt_dist_from(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s)
{
    if (!r->g->directed)
        return rt_dist_to(r, ws, s);
    return cached(r, ws, s, 1);
}

int32_t rt_dist(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t u, tk_id_t v)
{
    if (r->table)
        return r->table[(size_t)v * (size_t)r->g->n + (size_t)u];
    return rt_dist_to(r, ws, v)[u];
}

/* ------------------------------------------------------------------------ */
/* Router.                                                                  */

/* min and ecmp keep a table only on small graphs (n <= 2048: 16 MiB, built
 * in O(n m)); their aggregate engines (tk_load_compute) do not need it. */
static int needs_table(tk_route_kind_t k, tk_id_t n)
{
    return (k != TK_ROUTE_MIN && k != TK_ROUTE_ECMP) || n <= 2048;
}

static int table_required(tk_route_kind_t k)
{
    return k == TK_ROUTE_VALIANT || k == TK_ROUTE_DF_VALIANT;
}

void tk_router_free(tk_router_t *r)
{
    if (!r)
        return;
    tk_graph_free(r->rg);
    free(r->table);
    free(r->gof);
    free(r->gstart);
    free(r->gmem);
    free(r->lidx);
    free(r->ldoff);
    free(r->ldist);
    free(r->gaoff);
    free(r->garc);
    free(r);
}

tk_status_t tk_router_new(const tk_graph_t *g, const tk_route_spec_t *spec, int threads,
                          uint64_t mem_limit, tk_router_t **out, tk_error_t *err)
{
    tk_router_t *r;
    tk_status_t st = TK_OK;
    tk_id_t n;

    if (!g || !spec || !out)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "tk_router_new: NULL argument");
    n = g->n;
    if (n <= 0)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "%s: empty graph", spec->text);
    r = calloc(1, sizeof *r);
    if (!r)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    r->g = g;
    r->spec = *spec;
    r->global_cls = tk_graph_class_index(g, "global");
    for (int c = 0; c < TK_MAX_CLASSES; c++)
        r->clen[c] = 1;
    int32_t maxlen = 1;
    for (int i = 0; i < spec->nweights; i++) {
        int c = tk_graph_class_index(g, spec->wclass[i]);
        if (c < 0) {
            st = tk_error_set(err, TK_EUNSUPPORTED, NULL, 0, "%s: the graph has no link class '%s'",
                              spec->text, spec->wclass[i]);
            goto fail;
        }
        r->clen[c] = spec->wlen[i];
        if (spec->wlen[i] != 1)
            r->weighted = 1;
        if (spec->wlen[i] > maxlen)
            maxlen = spec->wlen[i];
    }
    if ((int64_t)maxlen * (int64_t)n >= INT32_MAX / 2) {
        st = tk_error_set(err, TK_ELIMIT, NULL, 0,
                          "%s: path lengths could exceed 2^30 (n=%" PRId32 ")", spec->text, n);
        goto fail;
    }
    if (g->directed && (st = tk_graph_reverse(g, &r->rg, err)) != TK_OK)
        goto fail;
    /* Strong connectivity: every switch reaches 0 and is reached from 0. */
    {
        int32_t *d = tk_malloc_array((size_t)n, sizeof *d);
        tk_id_t *q = tk_malloc_array((size_t)n, sizeof *q);
        int64_t *h = r->weighted ? tk_malloc_array((size_t)g->m + 1, sizeof *h) : NULL;
        tk_id_t bad = -1;
        if (!d || !q || (r->weighted && !h)) {
            free(d);
            free(q);
            free(h);
            st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (n=%" PRId32 ")", n);
            goto fail;
        }
        for (int dir = 0; dir < 2 && bad < 0; dir++) {
            compute_dist(r, dir ? g : (r->rg ? r->rg : g), 0, d, q, h);
            for (tk_id_t v = 0; v < n && bad < 0; v++)
                if (d[v] == TK_INF)
                    bad = v;
        }
        free(d);
        free(q);
        free(h);
        if (bad >= 0) {
            st = tk_error_set(err, TK_EDISCONNECTED, NULL, 0,
                              "%s: the graph is not %sconnected (switches 0 and %" PRId32 ")",
                              spec->text, g->directed ? "strongly " : "", bad);
            goto fail;
        }
    }
    if (spec->kind == TK_ROUTE_DF_MIN || spec->kind == TK_ROUTE_DF_VALIANT) {
        if ((st = rt_dragonfly_prepare(r, err)) != TK_OK)
            goto fail;
    }
    if (needs_table(spec->kind, n)) {
        uint64_t bytes = (uint64_t)n * (uint64_t)n * 4;
        uint64_t lim = RT_TABLE_MAX_BYTES;
        if (mem_limit && mem_limit / 4 < lim)
            lim = mem_limit / 4;
        if (bytes <= lim) {
            r->table = tk_malloc_array((size_t)n * (size_t)n, sizeof *r->table);
            if (!r->table) {
                st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (n=%" PRId32 ")", n);
                goto fail;
            }
            int fail = 0;
            const tk_graph_t *rev = r->rg ? r->rg : g;
#ifdef _OPENMP
            int nt = threads > 0 ? threads : omp_get_max_threads();
#pragma omp parallel num_threads(nt)
#endif
            {
                tk_id_t *q = tk_malloc_array((size_t)n, sizeof *q);
                int64_t *h = tk_malloc_array((size_t)g->m + 1, sizeof *h);
                if (!q || !h) {
#ifdef _OPENMP
#pragma omp atomic write
#endif
                    fail = 1;
                } else {
#ifdef _OPENMP
#pragma omp for schedule(dynamic, 16)
#endif
                    for (tk_id_t t = 0; t < n; t++)
                        compute_dist(r, rev, t, r->table + (size_t)t * (size_t)n, q, h);
                }
                free(q);
                free(h);
            }
            (void)threads;
            if (fail) {
                st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (n=%" PRId32 ")", n);
                goto fail;
            }
        } else if (table_required(spec->kind)) {
            st = tk_error_set(err, TK_ELIMIT, NULL, 0,
                              "%s: needs an all-pairs distance table of %" PRIu64
                              " bytes (limit %" PRIu64 ")",
                              spec->text, bytes, lim);
            goto fail;
        }
    }
    *out = r;
    return TK_OK;
fail:
    tk_router_free(r);
    return st;
}

const tk_graph_t *tk_router_graph(const tk_router_t *r)
{
    return r->g;
}

const tk_route_spec_t *tk_router_spec(const tk_router_t *r)
{
    return &r->spec;
}

/* ------------------------------------------------------------------------ */
/* Workspace.                                                               */

void tk_route_ws_free(tk_route_ws_t *ws)
{
    if (!ws)
        return;
    for (int i = 0; i < RT_NCACHE; i++)
        free(ws->dc[i]);
    free(ws->queue);
    free(ws->heap);
    free(ws->stamp);
    free(ws->cnt);
    free(ws->hsum);
    free(ws->eh);
    free(ws->hmin);
    free(ws->hmax);
    free(ws->nnext);
    free(ws->stk);
    free(ws->sarc);
    free(ws->path);
    free(ws->pw);
    free(ws->onpath);
    free(ws->mind);
    free(ws->skey);
    free(ws->sseq);
    free(ws->shops);
    free(ws->sbuf);
    free(ws->srank);
    tk_pathset_destroy(&ws->seg1);
    tk_pathset_destroy(&ws->seg2);
    tk_pathset_destroy(&ws->tmp);
    tk_pathset_destroy(&ws->lp1);
    tk_pathset_destroy(&ws->lp2);
    tk_pathset_destroy(&ws->dv1);
    tk_pathset_destroy(&ws->dv2);
    free(ws);
}

tk_status_t tk_route_ws_new(const tk_router_t *r, tk_route_ws_t **out, tk_error_t *err)
{
    tk_route_ws_t *ws = calloc(1, sizeof *ws);
    size_t n = (size_t)r->g->n;
    int bad = !ws;
    if (ws) {
        ws->r = r;
        ws->n = r->g->n;
        for (int i = 0; i < RT_NCACHE; i++) {
            ws->dc[i] = tk_malloc_array(n, sizeof(int32_t));
            ws->dkey[i] = -1;
            bad |= !ws->dc[i];
        }
        ws->queue = tk_malloc_array(n, sizeof *ws->queue);
        ws->heap = tk_malloc_array((size_t)r->g->m + 1, sizeof *ws->heap);
        ws->stamp = tk_calloc_array(n, sizeof *ws->stamp);
        ws->cnt = tk_malloc_array(n, sizeof *ws->cnt);
        ws->hsum = tk_malloc_array(n, sizeof *ws->hsum);
        ws->eh = tk_malloc_array(n, sizeof *ws->eh);
        ws->hmin = tk_malloc_array(n, sizeof *ws->hmin);
        ws->hmax = tk_malloc_array(n, sizeof *ws->hmax);
        ws->nnext = tk_malloc_array(n, sizeof *ws->nnext);
        ws->stk = tk_malloc_array(n + 1, sizeof *ws->stk);
        ws->sarc = tk_malloc_array(n + 1, sizeof *ws->sarc);
        ws->path = tk_malloc_array(2 * n + 4, sizeof *ws->path);
        ws->pw = tk_malloc_array(2 * n + 4, sizeof *ws->pw);
        ws->onpath = tk_calloc_array(n, 1);
        ws->mind = tk_malloc_array(n + 1, sizeof *ws->mind);
        tk_pathset_init(&ws->seg1);
        tk_pathset_init(&ws->seg2);
        tk_pathset_init(&ws->tmp);
        tk_pathset_init(&ws->lp1);
        tk_pathset_init(&ws->lp2);
        tk_pathset_init(&ws->dv1);
        tk_pathset_init(&ws->dv2);
        bad |= !ws->queue || !ws->heap || !ws->stamp || !ws->cnt || !ws->hsum || !ws->eh ||
               !ws->hmin || !ws->hmax || !ws->nnext || !ws->stk || !ws->sarc || !ws->path ||
               !ws->pw || !ws->onpath || !ws->mind;
    }
    if (bad) {
        tk_route_ws_free(ws);
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (n=%zu)", n);
    }
    *out = ws;
    return TK_OK;
}

/* ------------------------------------------------------------------------ */
/* Path sets.                                                               */

void tk_pathset_init(tk_pathset_t *ps)
{
    memset(ps, 0, sizeof *ps);
}

void tk_pathset_destroy(tk_pathset_t *ps)
{
    if (!ps)
        return;
    free(ps->off);
    free(ps->arc);
    free(ps->w);
    memset(ps, 0, sizeof *ps);
}

tk_status_t rt_ps_push(tk_pathset_t *ps, const int64_t *arcs, int64_t len, double w,
                       tk_error_t *err)
{
    if (!ps->off || ps->npaths + 1 >= ps->cap_paths) {
        int64_t c = ps->cap_paths ? 2 * ps->cap_paths : 16;
        int64_t *o = tk_realloc_array(ps->off, (size_t)c + 1, sizeof *o);
        if (!o)
            return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (paths)");
        ps->off = o;
        double *nw = tk_realloc_array(ps->w, (size_t)c, sizeof *nw);
        if (!nw)
            return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (paths)");
        ps->w = nw;
        if (!ps->cap_paths)
            ps->off[0] = 0;
        ps->cap_paths = c;
    }
    int64_t base = ps->off[ps->npaths];
    if (base + len > ps->cap_arcs) {
        int64_t c = ps->cap_arcs ? 2 * ps->cap_arcs : 64;
        while (c < base + len)
            c *= 2;
        int64_t *na = tk_realloc_array(ps->arc, (size_t)c, sizeof *na);
        if (!na)
            return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (paths)");
        ps->arc = na;
        ps->cap_arcs = c;
    }
    if (len)
        memcpy(ps->arc + base, arcs, (size_t)len * sizeof *arcs);
    ps->w[ps->npaths] = w;
    ps->npaths++;
    ps->off[ps->npaths] = base + len;
    return TK_OK;
}

typedef struct {
    const tk_pathset_t *ps;
    int64_t i;
} psref_t;

static int pcmp(const void *a, const void *b)
{
    const psref_t *x = a, *y = b;
    const tk_pathset_t *ps = x->ps;
    int64_t i = ps->off[x->i], ie = ps->off[x->i + 1];
    int64_t j = ps->off[y->i], je = ps->off[y->i + 1];
    for (; i < ie && j < je; i++, j++)
        if (ps->arc[i] != ps->arc[j])
            return ps->arc[i] < ps->arc[j] ? -1 : 1;
    if (i < ie)
        return 1;
    if (j < je)
        return -1;
    return x->i < y->i ? -1 : x->i > y->i;
}

static int same_path(const tk_pathset_t *ps, int64_t a, int64_t b)
{
    int64_t la = ps->off[a + 1] - ps->off[a];
    if (la != ps->off[b + 1] - ps->off[b])
        return 0;
    return memcmp(ps->arc + ps->off[a], ps->arc + ps->off[b], (size_t)la * sizeof(int64_t)) == 0;
}

tk_status_t rt_ps_merge(tk_pathset_t *ps, tk_error_t *err)
{
    int64_t np = ps->npaths;
    if (np < 2)
        return TK_OK;
    psref_t *ref = tk_malloc_array((size_t)np, sizeof *ref);
    tk_pathset_t o;
    tk_status_t st = TK_OK;
    tk_pathset_init(&o);
    if (!ref)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (paths)");
    for (int64_t i = 0; i < np; i++) {
        ref[i].ps = ps;
        ref[i].i = i;
    }
    qsort(ref, (size_t)np, sizeof *ref, pcmp);
    for (int64_t i = 0; i < np && !st; i++) {
        int64_t p = ref[i].i;
        if (i > 0 && same_path(ps, ref[i - 1].i, p))
            o.w[o.npaths - 1] += ps->w[p];
        else
            st = rt_ps_push(&o, ps->arc + ps->off[p], ps->off[p + 1] - ps->off[p], ps->w[p], err);
    }
    free(ref);
    if (st) {
        tk_pathset_destroy(&o);
        return st;
    }
    tk_pathset_destroy(ps);
    *ps = o;
    return TK_OK;
}

/* ------------------------------------------------------------------------ */
/* Dispatch.                                                                */

static tk_status_t check_pair(const tk_router_t *r, tk_id_t s, tk_id_t t, tk_error_t *err)
{
    if (s < 0 || s >= r->g->n || t < 0 || t >= r->g->n)
        return tk_error_set(err, TK_ERANGE, NULL, 0,
                            "pair %" PRId32 ",%" PRId32 ": switch ids are 0..%" PRId32, s, t,
                            r->g->n - 1);
    return TK_OK;
}

tk_status_t tk_route_paths(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s, tk_id_t t,
                           uint64_t max_paths, tk_pathset_t *out, tk_error_t *err)
{
    tk_status_t st = check_pair(r, s, t, err);
    if (st)
        return st;
    rt_ps_clear(out);
    if (s == t)
        return rt_ps_push(out, NULL, 0, 1.0, err);
    switch (r->spec.kind) {
    case TK_ROUTE_MIN:
        return rt_dag_paths(r, ws, RT_DAG_MIN, s, t, max_paths, out, err);
    case TK_ROUTE_ECMP:
        return rt_dag_paths(r, ws, RT_DAG_ECMP, s, t, max_paths, out, err);
    case TK_ROUTE_POLARIZED:
        return rt_dag_paths(r, ws, RT_DAG_POLAR, s, t, max_paths, out, err);
    case TK_ROUTE_KSP:
        return rt_simple_paths(r, ws, 1, s, t, max_paths, out, err);
    case TK_ROUTE_ALLPATH:
        return rt_simple_paths(r, ws, 0, s, t, max_paths, out, err);
    case TK_ROUTE_VALIANT:
        return rt_valiant_paths(r, ws, s, t, max_paths, out, err);
    case TK_ROUTE_DF_MIN:
        return rt_dfmin_paths(r, ws, s, t, max_paths, out, err);
    case TK_ROUTE_DF_VALIANT:
        return rt_dfval_paths(r, ws, s, t, max_paths, out, err);
    }
    return tk_error_set(err, TK_EINTERNAL, NULL, 0, "unknown routing model");
}

#define RT_COUNT_ENUM_MAX 4000000

tk_status_t tk_route_count(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s, tk_id_t t,
                           tk_route_count_t *out, tk_error_t *err)
{
    tk_status_t st = check_pair(r, s, t, err);
    if (st)
        return st;
    if (s == t) {
        out->paths = 1;
        out->min_len = out->max_len = 0;
        out->avg_len = 0;
        return TK_OK;
    }
    switch (r->spec.kind) {
    case TK_ROUTE_MIN:
        return rt_dag_count(r, ws, RT_DAG_MIN, s, t, out, err);
    case TK_ROUTE_ECMP:
        return rt_dag_count(r, ws, RT_DAG_ECMP, s, t, out, err);
    case TK_ROUTE_POLARIZED:
        return rt_dag_count(r, ws, RT_DAG_POLAR, s, t, out, err);
    default:
        break;
    }
    /* Enumerate (ksp, allpath, valiant, dragonfly-*). */
    st = tk_route_paths(r, ws, s, t, RT_COUNT_ENUM_MAX, &ws->tmp, err);
    if (st)
        return st;
    const tk_pathset_t *ps = &ws->tmp;
    int32_t mn = INT32_MAX, mx = 0;
    double avg = 0;
    for (int64_t i = 0; i < ps->npaths; i++) {
        int32_t l = (int32_t)(ps->off[i + 1] - ps->off[i]);
        if (l < mn)
            mn = l;
        if (l > mx)
            mx = l;
        avg += ps->w[i] * l;
    }
    out->paths = (double)ps->npaths;
    out->min_len = ps->npaths ? mn : 0;
    out->max_len = mx;
    out->avg_len = avg;
    return TK_OK;
}
