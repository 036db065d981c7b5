/*
 * bfs_internal.h - the library's fastest single-source BFS (not installed;
 * hidden).  Used by the routing models' load engines (min sigma-DP, ecmp),
 * the routers' distance tables and the Ant Mill search.
 *
 * A level-synchronous search that records, level by level, the switches
 * (order, lstart) and optionally the shortest-path DAG arcs into every
 * level (dag, dtail, dhead by level: dseg), shortest-path counts sigma
 * (doubles) and DAG in-degrees nin.  Direction-optimizing on undirected
 * graphs: a level is expanded bottom-up (every unvisited switch scans its
 * own arcs for frontier neighbours) when the unvisited switches have fewer
 * arcs than the frontier; the search stops as soon as every switch is
 * visited.  On a random regular graph of 10000 switches and degree 16 the
 * last level holds a few dozen switches: bottom-up scans their 16 arcs each
 * instead of the 108000 arcs of the level before.  The choice depends on
 * the graph and the source only, so results are deterministic.  With
 * 16-bit heads (tk_head16_new, n < 65536) an adjacency row takes half the
 * cache lines, which is what the search waits for on large random graphs.
 *
 * Cost: O(n + m) per search; memory 4 arrays of n entries, plus 3 of m
 * entries when the DAG is recorded.  The workspace is reused from search
 * to search (tk_lbfs_reset clears only what the last search touched).
 */
#ifndef TK_BFS_INTERNAL_H
#define TK_BFS_INTERNAL_H

#include "tk_metric.h"

typedef struct tk_lbfs {
    int32_t *dist;   /* n: level, TK_INF when unvisited                      */
    tk_id_t *order;  /* n: switches by level                                 */
    int64_t *lstart; /* n+2: level L is order[lstart[L] .. lstart[L+1]-1]    */
    int64_t *dseg;   /* n+2: DAG arcs into level L are dseg[L] .. dseg[L+1]-1 */
    int64_t *dag;    /* m: DAG arcs u->v (arc ids of g), or NULL             */
    tk_id_t *dtail;  /* m: their tails u                                     */
    tk_id_t *dhead;  /* m: their heads v                                     */
    tk_id_t *unv;    /* n: unvisited switches (bottom-up)                    */
    int32_t nlev;    /* levels 0 .. nlev-1                                   */
    int64_t nvis;    /* switches visited (order[0 .. nvis-1])                */
} tk_lbfs_t;

/* Workspace for searches of g (or of a graph of the same size); want_dag:
 * also record the DAG arcs.  Every dist[] entry starts at TK_INF.
 * Returns 0, or -1 when out of memory (b is then empty). */
int tk_lbfs_init(tk_lbfs_t *b, const tk_graph_t *g, int want_dag);
void tk_lbfs_free(tk_lbfs_t *b);

/* Search g from s.  rev: partner arcs (g->rev) to allow bottom-up levels,
 * NULL for directed graphs.  head16: g->head as 16-bit ids or NULL.
 * sigma and nin (n entries each) may be NULL; they are written for the
 * visited switches only.  The DAG arcs are recorded when the workspace was
 * made with want_dag.  Leaves dist[] set for the visited switches. */
void tk_lbfs_run(const tk_graph_t *g, const uint16_t *head16, const int64_t *rev, tk_id_t s,
                 tk_lbfs_t *b, double *sigma, int32_t *nin);

/* Set dist[] back to TK_INF for the switches of the last search. */
void tk_lbfs_reset(tk_lbfs_t *b);

/* g->head as 16-bit ids when n < 65536; NULL otherwise or without memory
 * (the 32-bit search is used then).  Free with free(). */
uint16_t *tk_head16_new(const tk_graph_t *g);

#endif /* TK_BFS_INTERNAL_H */
