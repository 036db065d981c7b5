/*
 * dist.c - the distances the routing models work with: d(u, v), the
 * length of a shortest u->v path where a hop of class c counts clen[c]
 * (1 unless a "CLASS=LEN" option says otherwise).  Unweighted: the
 * library's BFS engine (bfs_internal.h); weighted: Dijkstra with a binary
 * heap.  A model that looks up d(., t) for many pairs gets an all-pairs
 * table built once by tk_router_new (4 n^2 bytes, when it fits in a
 * quarter of the memory limit and 256 MiB; its policy in the model's
 * table of operations); otherwise a workspace keeps the last RT_NCACHE
 * distance vectors, so a caller that walks the pairs grouped by target
 * pays one search per target.
 */
#include <config.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "route/route_internal.h"

#define RT_TABLE_MAX_BYTES ((uint64_t)256 << 20)

static inline int32_t glen(const tk_router_t *r, const tk_graph_t *gr, int64_t a)
{
    return r->weighted && gr->cls ? r->clen[gr->cls[a]] : 1;
}

/* Weighted shortest distances from src in gr: Dijkstra, lazy deletion,
 * heap entries dist << 32 | node (heap: m + 1 entries). */
static void dijkstra(const tk_router_t *r, const tk_graph_t *gr, tk_id_t src, int32_t *d,
                     int64_t *heap)
{
    int64_t hn = 0;
    heap[hn++] = (int64_t)src;
    while (hn) {
        int64_t top = heap[0];
        int64_t last = heap[--hn];
        /* sift down last from the root */
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

/* Shortest distances from src in gr (g for d(src, .), the reverse graph
 * for d(., src)) into d: the BFS engine b (without DAG) when unweighted,
 * Dijkstra with heap otherwise. */
static void compute_dist(const tk_router_t *r, const tk_graph_t *gr, tk_id_t src, int32_t *d,
                         tk_lbfs_t *b, int64_t *heap)
{
    tk_id_t n = gr->n;
    if (!r->weighted) {
        tk_lbfs_run(gr, NULL, gr->directed ? NULL : gr->rev, src, b, NULL, NULL);
        memcpy(d, b->dist, (size_t)n * sizeof *d);
        tk_lbfs_reset(b);
        return;
    }
    for (tk_id_t v = 0; v < n; v++)
        d[v] = TK_INF;
    d[src] = 0;
    dijkstra(r, gr, src, d, heap);
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
    compute_dist(r, dir ? r->g : (r->rg ? r->rg : r->g), v, ws->dc[old], &ws->bfs, ws->heap);
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
/* Preparation.                                                             */

/* Search scratch of one thread: a BFS engine (unweighted) or a heap. */
typedef struct scratch {
    tk_lbfs_t b;
    int64_t *heap;
} scratch_t;

static int scratch_init(scratch_t *sc, const tk_router_t *r)
{
    memset(sc, 0, sizeof *sc);
    if (!r->weighted)
        return tk_lbfs_init(&sc->b, r->g, 0);
    sc->heap = tk_malloc_array((size_t)r->g->m + 1, sizeof *sc->heap);
    return sc->heap ? 0 : -1;
}

static void scratch_free(scratch_t *sc)
{
    tk_lbfs_free(&sc->b);
    free(sc->heap);
}

/* Strong connectivity: every switch reaches 0 and is reached from 0. */
static tk_status_t check_connected(const tk_router_t *r, tk_error_t *err)
{
    const tk_graph_t *g = r->g;
    tk_id_t n = g->n, bad = -1;
    int32_t *d = tk_malloc_array((size_t)n, sizeof *d);
    scratch_t sc;
    int ok = scratch_init(&sc, r) == 0;
    if (!d || !ok) {
        free(d);
        if (ok)
            scratch_free(&sc);
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (n=%" PRId32 ")", n);
    }
    for (int dir = 0; dir < 2 && bad < 0; dir++) {
        compute_dist(r, dir ? g : (r->rg ? r->rg : g), 0, d, &sc.b, sc.heap);
        for (tk_id_t v = 0; v < n && bad < 0; v++)
            if (d[v] == TK_INF)
                bad = v;
    }
    free(d);
    scratch_free(&sc);
    if (bad >= 0)
        return tk_error_set(err, TK_EDISCONNECTED, NULL, 0,
                            "%s: the graph is not %sconnected (switches 0 and %" PRId32 ")",
                            r->spec.text, g->directed ? "strongly " : "", bad);
    return TK_OK;
}

/* table[t*n + v] = d(v, t) for every t, OpenMP over targets. */
static tk_status_t build_table(tk_router_t *r, int threads, tk_error_t *err)
{
    const tk_graph_t *g = r->g;
    tk_id_t n = g->n;
    r->table = tk_malloc_array((size_t)n * (size_t)n, sizeof *r->table);
    if (!r->table)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (n=%" PRId32 ")", n);
    int fail = 0;
    const tk_graph_t *rev = r->rg ? r->rg : g;
#ifdef _OPENMP
    int nt = threads > 0 ? threads : omp_get_max_threads();
#pragma omp parallel num_threads(nt)
#else
    (void)threads;
#endif
    {
        scratch_t sc;
        if (scratch_init(&sc, r) != 0) {
#pragma omp atomic write
            fail = 1;
        } else {
#pragma omp for schedule(dynamic, 16)
            for (tk_id_t t = 0; t < n; t++)
                compute_dist(r, rev, t, r->table + (size_t)t * (size_t)n, &sc.b, sc.heap);
            scratch_free(&sc);
        }
    }
    if (fail)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (n=%" PRId32 ")", n);
    return TK_OK;
}

tk_status_t rt_dist_prepare(tk_router_t *r, int threads, uint64_t mem_limit, tk_error_t *err)
{
    tk_status_t st = check_connected(r, err);
    if (st != TK_OK)
        return st;
    tk_id_t n = r->g->n;
    rt_table_t pol = r->model->table;
    if (pol == RT_TABLE_NONE || (pol == RT_TABLE_SMALL && n > 2048))
        return TK_OK;
    uint64_t bytes = (uint64_t)n * (uint64_t)n * 4;
    uint64_t lim = RT_TABLE_MAX_BYTES;
    if (mem_limit && mem_limit / 4 < lim)
        lim = mem_limit / 4;
    if (bytes <= lim)
        return build_table(r, threads, err);
    if (pol == RT_TABLE_NEED)
        return tk_error_set(err, TK_ELIMIT, NULL, 0,
                            "%s: needs an all-pairs distance table of %" PRIu64
                            " bytes (limit %" PRIu64 ")",
                            r->spec.text, bytes, lim);
    return TK_OK;
}
