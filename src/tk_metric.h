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

/* ------------------------------------------------------------------------ */
/* Failures (metric/fail.c).
 *
 * Betweenness of every link and switch over the live part of an undirected
 * graph (Brandes' accumulation over shortest paths from every live source;
 * each unordered pair counted twice).  arc_dead (m flags) and sw_dead (n
 * flags) may be NULL; link_bw (m entries, filled at the canonical arc of a
 * link, the one with a <= rev[a]) and sw_bw (n entries) may be NULL.
 * Serial: identical sums on every run.  O(n * m) time, O(n) memory. */
TK_API tk_status_t tk_betweenness(const tk_graph_t *g, const uint8_t *arc_dead,
                                  const uint8_t *sw_dead, double *link_bw, double *sw_bw,
                                  tk_error_t *err);

typedef enum tk_fail_unit { TK_FAIL_LINKS = 0, TK_FAIL_SWITCHES } tk_fail_unit_t;
typedef enum tk_fail_order {
    TK_FAIL_RANDOM = 0,       /* uniformly at random, stream (seed, 0)          */
    TK_FAIL_BETWEENNESS,      /* highest betweenness first, recomputed after
                                 every removal                                 */
    TK_FAIL_BETWEENNESS_ONCE, /* highest betweenness of the intact graph first */
    TK_FAIL_LIST              /* the named list                                 */
} tk_fail_order_t;

/* Removals recorded one by one in the spec up to this many. */
#define TK_FAIL_RECORD_MAX 64

typedef struct tk_fail_opts {
    tk_fail_unit_t unit;   /* links, or switches (with their servers)          */
    tk_fail_order_t order; /* how the victims are chosen                       */
    int64_t count;         /* how many (>= 0), or -1 to use `fraction`          */
    double fraction;       /* in [0, 1]: round(fraction * eligible)            */
    uint64_t seed;         /* TK_FAIL_RANDOM                                    */
    const char *cls;       /* links only: only links of this class (NULL all)   */
    const int64_t *list;   /* TK_FAIL_LIST: nlist switch ids, or nlist (u, v)
                              pairs (2 * nlist ids) naming one link each       */
    int64_t nlist;
} tk_fail_opts_t;

/* The topology g without the chosen links or switches.  Surviving switches
 * keep their relative order (renumbered 0..n'-1), servers, groups and
 * coordinates; links keep class and capacity.  The new spec is g's spec,
 * " | fail links|switches k=K order=ORDER [s=SEED] [class=C] [fraction=F]"
 * and, for 1..TK_FAIL_RECORD_MAX victims, " removed=u-v,..." (links, in
 * the original numbering, in the order chosen) or " removed=u,..."
 * (switches).  Ties of betweenness go to the lowest link (switch).
 * Errors: TK_EUNSUPPORTED for directed graphs, TK_EINVAL for an unknown
 * class or a fraction outside [0, 1], TK_ERANGE for more victims than
 * eligible items or a list naming a link (switch) that does not exist.
 * The result may be disconnected; callers check (tk_check_connected).
 * O(n + m) at random or listed; O(k * n * m) recomputed betweenness. */
TK_API tk_status_t tk_fail_apply(const tk_graph_t *g, const tk_fail_opts_t *o, tk_graph_t **out,
                                 tk_error_t *err);

#ifdef __cplusplus
}
#endif

#endif /* TK_METRIC_H */
