/*
 * tk_metric.h - distances: eccentricities, diameter, radius, average
 * distance, distance distribution, girth.
 */
#ifndef TK_METRIC_H
#define TK_METRIC_H

#include "tk_core.h"
#include "tk_par.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Distances are hop counts along arcs (directed distances for directed
 * graphs).  TK_INF marks "unreachable" / "no cycle". */
#define TK_INF INT32_MAX

typedef struct tk_dist_opts {
    int threads;          /* OpenMP threads (0 = runtime default)              */
    int want_ecc;         /* fill ecc[] (n entries, allocated by the callee)   */
    int want_hist;        /* fill hist[] (allocated by the callee)             */
    int32_t max_diameter; /* stop as soon as some eccentricity exceeds it
                             (0 = never); sets `stopped`                    */
    const int32_t *orbit; /* optional (NULL = none): orbit[v] = smallest
                             switch of v's orbit under a group of
                             automorphisms (tk_auto_compute's `orbit`, or any
                             subgroup's).  Only one switch per orbit is
                             searched, its sums weighted by the orbit size
                             and its eccentricity copied to the orbit:
                             identical results, fewer searches.            */
    /* NULL, or counts the batches of sources searched (phase "distances"). */
    tk_progress_t *progress;
    /* NULL, or who runs the batches (tk_par.h: another process's slices). */
    const tk_par_runner_t *runner;
} tk_dist_opts_t;

typedef struct tk_dist_summary {
    int64_t n;
    int connected;              /* strongly connected for directed graphs        */
    int32_t diameter;           /* max eccentricity; TK_INF if not connected     */
    int32_t radius;             /* min eccentricity; TK_INF if every switch
                                   misses some other switch                     */
    uint64_t pairs;             /* ordered pairs (s,t), s != t, with t reachable */
    uint64_t unreachable;       /* ordered pairs (s,t), s != t, t not reachable  */
    unsigned __int128 dist_sum; /* sum of d(s,t) over the reachable pairs   */
    double avg_distance;        /* dist_sum / (n(n-1)); +inf if not connected;
                                   0 when n == 1                                */
    int32_t *ecc;               /* n out-eccentricities (TK_INF when some switch
                                   is unreachable) if want_ecc, else NULL        */
    uint64_t *hist;             /* hist[k] = ordered pairs at distance k,
                                   k = 0..hist_len-1 (hist[0] = n) if want_hist  */
    int32_t hist_len;
    int stopped; /* 1 if max_diameter cut the computation short:
                    then only `diameter > max_diameter` is known  */
} tk_dist_summary_t;

/* All-pairs distance summary by breadth-first search from every switch,
 * without storing the n x n matrix: memory O(n * batch) where batch is the
 * number of sources searched at once.  Time O(n * m / word) with the
 * bit-parallel engine.  Results do not depend on the thread count.
 * Free the arrays with tk_dist_summary_destroy. */
TK_API tk_status_t tk_dist_summary(const tk_graph_t *g, const tk_dist_opts_t *opts,
                                   tk_dist_summary_t *out, tk_error_t *err);
TK_API void tk_dist_summary_destroy(tk_dist_summary_t *s);

/* Single-source BFS: dist[] (n entries, caller-allocated) gets hop counts
 * from s, TK_INF for unreachable switches.  O(n + m). */
TK_API tk_status_t tk_bfs(const tk_graph_t *g, tk_id_t s, int32_t *dist, tk_error_t *err);

/* TK_OK when every switch reaches every other (strongly connected for
 * directed graphs), else TK_EDISCONNECTED with "the graph is not
 * [strongly ]connected (switch U cannot reach switch V)": the one
 * connectivity check of the tools that need connectivity (topokit(7)).
 * O(n + m). */
TK_API tk_status_t tk_check_connected(const tk_graph_t *g, tk_error_t *err);

/* Girth: length of a shortest cycle.  Undirected graphs: of the underlying
 * multigraph (a self-loop is a cycle of length 1, two parallel links one of
 * length 2).  Directed graphs: shortest directed cycle (self-loop 1, an arc
 * pair u->v->u 2).  TK_INF if acyclic.  O(n * m) worst case. */
TK_API tk_status_t tk_girth(const tk_graph_t *g, int threads, int32_t *girth, tk_error_t *err);

#ifdef __cplusplus
}
#endif

#endif /* TK_METRIC_H */
