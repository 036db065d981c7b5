/*
 * bfs.c - single-source breadth-first search (tk_bfs), on the library's
 * BFS engine (bfs_internal.h: level-synchronous, bottom-up on the levels
 * where that scans fewer arcs).
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "metric/bfs_internal.h"

/* tk_bfs: hop distances from s along out-arcs.
 *   g     graph (directed: out-distances along arcs)
 *   s     source switch, 0 <= s < n
 *   dist  n entries, caller-allocated; TK_INF for unreachable switches
 * Errors: TK_EINVAL (NULL argument), TK_ERANGE (s out of range), TK_ENOMEM.
 * Time O(n + m), memory 4 arrays of n entries (allocated per call: a caller
 * searching from many sources is better served by the engine itself). */
tk_status_t tk_bfs(const tk_graph_t *g, tk_id_t s, int32_t *dist, tk_error_t *err)
{
    if (!g || !dist)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "tk_bfs: NULL argument");
    if (s < 0 || s >= g->n)
        return tk_error_set(err, TK_ERANGE, NULL, 0, "source %ld: out of range (n=%ld)", (long)s,
                            (long)g->n);
    tk_lbfs_t b;
    if (tk_lbfs_init(&b, g, 0) != 0)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "tk_bfs: out of memory (n=%ld)", (long)g->n);
    tk_lbfs_run(g, NULL, g->directed ? NULL : g->rev, s, &b, NULL, NULL);
    memcpy(dist, b.dist, (size_t)g->n * sizeof *dist);
    tk_lbfs_free(&b);
    return TK_OK;
}

/* tk_check_connected: see tk_metric.h.  Forward search from switch 0, and
 * on directed graphs a backward one over the reversed arcs. */
tk_status_t tk_check_connected(const tk_graph_t *g, tk_error_t *err)
{
    tk_id_t n, bad = -1, from = 0;
    int32_t *dist;
    tk_status_t st;

    if (!g)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "tk_check_connected: NULL graph");
    n = g->n;
    if (n < 2)
        return TK_OK;
    dist = tk_malloc_array((size_t)n, sizeof *dist);
    if (!dist)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (n=%ld)", (long)n);
    st = tk_bfs(g, 0, dist, err);
    for (tk_id_t v = 0; st == TK_OK && v < n && bad < 0; v++)
        if (dist[v] == TK_INF)
            bad = v;
    if (st == TK_OK && bad < 0 && g->directed) {
        /* who reaches 0: sweep the arcs until nothing changes would be
         * O(nm); instead a queue over the reversed arcs (counting sort). */
        int64_t *roff = tk_calloc_array((size_t)n + 1, sizeof *roff);
        tk_id_t *rsrc = tk_malloc_array((size_t)(g->m ? g->m : 1), sizeof *rsrc);
        tk_id_t *queue = tk_malloc_array((size_t)n, sizeof *queue);
        if (!roff || !rsrc || !queue) {
            st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (n=%ld)", (long)n);
        } else {
            for (int64_t a = 0; a < g->m; a++)
                roff[g->head[a] + 1]++;
            for (tk_id_t v = 0; v < n; v++)
                roff[v + 1] += roff[v];
            for (tk_id_t u = 0; u < n; u++)
                for (int64_t a = g->off[u]; a < g->off[u + 1]; a++)
                    rsrc[roff[g->head[a]]++] = u;
            for (tk_id_t v = n; v > 0; v--)
                roff[v] = roff[v - 1];
            roff[0] = 0;
            for (tk_id_t v = 0; v < n; v++)
                dist[v] = TK_INF;
            int64_t qh = 0, qt = 0;
            dist[0] = 0;
            queue[qt++] = 0;
            while (qh < qt) {
                tk_id_t v = queue[qh++];
                for (int64_t k = roff[v]; k < roff[v + 1]; k++)
                    if (dist[rsrc[k]] == TK_INF) {
                        dist[rsrc[k]] = dist[v] + 1;
                        queue[qt++] = rsrc[k];
                    }
            }
            for (tk_id_t v = 0; v < n && bad < 0; v++)
                if (dist[v] == TK_INF) {
                    bad = 0;
                    from = v;
                }
        }
        free(roff);
        free(rsrc);
        free(queue);
    }
    free(dist);
    if (st == TK_OK && bad >= 0)
        st = tk_error_set(err, TK_EDISCONNECTED, NULL, 0,
                          "the graph is not %sconnected (switch %ld cannot reach switch %ld)",
                          g->directed ? "strongly " : "", (long)from, (long)bad);
    return st;
}
