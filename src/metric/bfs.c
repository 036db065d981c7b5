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
