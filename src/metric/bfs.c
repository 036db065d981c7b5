/*
 * bfs.c - single-source breadth-first search (the reference the
 * bit-parallel engine in msbfs.c is tested against).
 */
#include <config.h>

#include <stdlib.h>

#include "tk_metric.h"

/* tk_bfs: hop distances from s along out-arcs.
 *   g     graph (directed: out-distances along arcs)
 *   s     source switch, 0 <= s < n
 *   dist  n entries, caller-allocated; TK_INF for unreachable switches
 * Errors: TK_EINVAL (NULL argument), TK_ERANGE (s out of range), TK_ENOMEM.
 * Time O(n + m), memory one queue of n ids. */
tk_status_t tk_bfs(const tk_graph_t *g, tk_id_t s, int32_t *dist, tk_error_t *err)
{
    if (!g || !dist)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "tk_bfs: NULL argument");
    if (s < 0 || s >= g->n)
        return tk_error_set(err, TK_ERANGE, NULL, 0, "source %ld: out of range (n=%ld)", (long)s,
                            (long)g->n);

    tk_id_t *queue = tk_malloc_array((size_t)g->n, sizeof *queue);
    if (!queue)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "tk_bfs: out of memory (n=%ld)", (long)g->n);

    for (tk_id_t v = 0; v < g->n; v++)
        dist[v] = TK_INF;
    size_t qh = 0, qt = 0;
    dist[s] = 0;
    queue[qt++] = s;
    while (qh < qt) {
        tk_id_t v = queue[qh++];
        int32_t dn = dist[v] + 1;
        for (int64_t a = g->off[v]; a < g->off[v + 1]; a++) {
            tk_id_t u = g->head[a];
            if (dist[u] == TK_INF) {
                dist[u] = dn;
                queue[qt++] = u;
            }
        }
    }
    free(queue);
    return TK_OK;
}
