/*
 * girth.c - length of a shortest cycle.
 *
 * Undirected graphs (multigraphs): a BFS from every switch s records for
 * each reached switch the arc it was reached by.  Scanning an arc a = v->u
 * other than the partner of v's own tree arc, with u already reached, closes
 * the closed walk s ~> v -> u ~> s of length d(v) + d(u) + 1 that uses link
 * a exactly once, so it contains a cycle no longer than that; a BFS from a
 * switch on a shortest cycle finds the cycle's length exactly.  The minimum
 * over all sources is therefore the girth.  Arc identity (rev[]) tells the
 * tree link's own partner from a second parallel link (cycle of length 2);
 * a self-loop v->v gives 2 d(v) + 1, i.e. 1 from s = v.
 * A BFS stops once its level L satisfies 2L >= best: later candidates are
 * at least 2L long.
 *
 * Directed graphs: the shortest directed cycle through s has length
 * min over arcs v->s of d(s,v) + 1; the first such arc met in BFS order
 * gives it.  Self-loop: 1.
 *
 * Sources are spread over OpenMP threads; the shared best value only prunes
 * work, and the result is an exact minimum, so it does not depend on the
 * thread count.
 */
#include <config.h>

#include <stdlib.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "tk_metric.h"

typedef struct girth_ws {
    int32_t *dist;  /* n entries, TK_INF = not reached                     */
    int64_t *parc;  /* n entries: arc a node was reached by (-1 for s)     */
    tk_id_t *queue; /* n entries                                           */
} girth_ws_t;

/* Shortest cycle found by a BFS from s that is shorter than `best`, or
 * `best`.  Leaves ws->dist all TK_INF on return. */
static int32_t girth_from(const tk_graph_t *g, tk_id_t s, int32_t best, girth_ws_t *ws)
{
    int32_t *dist = ws->dist;
    int64_t *parc = ws->parc;
    tk_id_t *queue = ws->queue;
    size_t qh = 0, qt = 0;
    int32_t found = best;

    dist[s] = 0;
    parc[s] = -1;
    queue[qt++] = s;
    while (qh < qt) {
        tk_id_t v = queue[qh++];
        int32_t dv = dist[v];
        if (g->directed) {
            if (dv + 1 >= found)
                break;
        } else if (2 * (int64_t)dv >= found) {
            break;
        }
        int64_t skip = (!g->directed && parc[v] >= 0) ? g->rev[parc[v]] : -1;
        for (int64_t a = g->off[v]; a < g->off[v + 1]; a++) {
            tk_id_t u = g->head[a];
            if (g->directed) {
                if (u == s) {
                    /* First arc back to s in BFS order: shortest for s. */
                    if (dv + 1 < found)
                        found = dv + 1;
                    goto done;
                }
                if (dist[u] == TK_INF) {
                    dist[u] = dv + 1;
                    queue[qt++] = u;
                }
            } else {
                if (a == skip)
                    continue;
                if (dist[u] == TK_INF) {
                    dist[u] = dv + 1;
                    parc[u] = a;
                    queue[qt++] = u;
                } else {
                    int64_t c = (int64_t)dv + dist[u] + 1;
                    if (c < found)
                        found = (int32_t)c;
                }
            }
        }
    }
done:
    for (size_t i = 0; i < qt; i++)
        dist[queue[i]] = TK_INF;
    return found;
}

/* tk_girth: see tk_metric.h.
 *   threads  OpenMP threads (0 = runtime default)
 *   girth    receives the length of a shortest cycle, TK_INF if acyclic
 * Errors: TK_EINVAL (NULL argument, undirected graph without rev[]),
 * TK_ENOMEM.  Time O(n * m) worst case (much less when the girth is small:
 * each BFS stops at half the best cycle found so far); memory O(n) per
 * thread. */
tk_status_t tk_girth(const tk_graph_t *g, int threads, int32_t *girth, tk_error_t *err)
{
    if (!g || !girth)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "tk_girth: NULL argument");
    if (!g->directed && !g->rev && g->m > 0)
        return tk_error_set(err, TK_EINVAL, NULL, 0,
                            "tk_girth: undirected graph without partner arcs");
    const int64_t n = g->n;
    int32_t best = TK_INF;
    if (n <= 0) {
        *girth = TK_INF;
        return TK_OK;
    }
    /* Self-loops first: girth 1 needs no search. */
    for (tk_id_t v = 0; v < n && best > 1; v++)
        for (int64_t a = g->off[v]; a < g->off[v + 1]; a++)
            if (g->head[a] == v) {
                best = 1;
                break;
            }
    if (best == 1) {
        *girth = 1;
        return TK_OK;
    }

    /* The shortest cycle possible: 2 in a digraph or over parallel links,
     * else 3.  Once found, no source can do better and the rest are
     * skipped (an RRG has triangles: its girth used to cost n BFSs). */
    int32_t floor = 2;
    if (!g->directed) {
        int64_t *seen = tk_malloc_array((size_t)n, sizeof *seen);
        if (!seen)
            return tk_error_set(err, TK_ENOMEM, NULL, 0,
                                "out of memory for the girth search (n=%ld)", (long)n);
        for (int64_t v = 0; v < n; v++)
            seen[v] = -1;
        floor = 3;
        for (int64_t v = 0; v < n && floor == 3; v++)
            for (int64_t a = g->off[v]; a < g->off[v + 1]; a++) {
                if (seen[g->head[a]] == v) {
                    floor = 2;
                    break;
                }
                seen[g->head[a]] = v;
            }
        free(seen);
    }

    int nt = 1;
#ifdef _OPENMP
    nt = threads > 0 ? threads : omp_get_max_threads();
#else
    (void)threads;
#endif
    if (nt > n)
        nt = (int)n;
    int nomem = 0;

#pragma omp parallel num_threads(nt)
    {
        girth_ws_t ws;
        ws.dist = tk_malloc_array((size_t)n, sizeof *ws.dist);
        ws.parc = tk_malloc_array((size_t)n, sizeof *ws.parc);
        ws.queue = tk_malloc_array((size_t)n, sizeof *ws.queue);
        int have = ws.dist && ws.parc && ws.queue;
        if (have) {
            for (int64_t v = 0; v < n; v++)
                ws.dist[v] = TK_INF;
        } else {
            __atomic_store_n(&nomem, 1, __ATOMIC_RELAXED);
        }
#pragma omp for schedule(dynamic, 16)
        for (int64_t s = 0; s < n; s++) {
            if (!have || __atomic_load_n(&nomem, __ATOMIC_RELAXED))
                continue;
            int32_t b = __atomic_load_n(&best, __ATOMIC_RELAXED);
            if (b <= floor)
                continue;
            int32_t c = girth_from(g, (tk_id_t)s, b, &ws);
            if (c < b) {
                int32_t cur = __atomic_load_n(&best, __ATOMIC_RELAXED);
                while (c < cur && !__atomic_compare_exchange_n(&best, &cur, c, 0, __ATOMIC_RELAXED,
                                                               __ATOMIC_RELAXED))
                    ;
            }
        }
        free(ws.dist);
        free(ws.parc);
        free(ws.queue);
    }
    if (nomem)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory for the girth search (n=%ld)",
                            (long)n);
    *girth = best;
    return TK_OK;
}
