/*
 * tk_paths.h - shortest-path structure and simple-path counts: the number
 * of shortest paths sigma(s,t), the k shortest simple paths of every pair
 * (their lengths), and the number of simple paths of at most H hops
 * (hop-limited all-path routing, ALLPATH(H)).
 *
 * Paths are sequences of arcs.  A *simple* path repeats no switch.  Two
 * parallel links between the same switches are two different arcs and so
 * give different paths: they multiply shortest-path counts and simple-path
 * counts alike.  A self-loop is never on a simple path (it repeats its
 * switch), hence never on a shortest path.  In a directed graph paths follow
 * the arcs.
 */
#ifndef TK_PATHS_H
#define TK_PATHS_H

#include "tk_core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Shortest-path counts.                                                    */

/* sigma(s, t) for one source s and every t: breadth-first search from s
 * that adds, for every arc u->v with dist[v] = dist[u] + 1, sigma[u] to
 * sigma[v] (sigma[s] = 1).  Counts are exact unsigned 128-bit integers.
 *   g      graph
 *   s      source, 0 <= s < n
 *   dist   n entries (caller-allocated): hop distances, TK_INF unreachable
 *   sigma  n entries (caller-allocated): number of shortest paths s -> t,
 *          0 for unreachable t, 1 for t = s
 *   queue  n entries of scratch (caller-allocated)
 * Errors: TK_EINVAL (NULL argument), TK_ERANGE (s out of range, or some
 * count exceeds 2^128 - 1: the graph is refused, no count is rounded).
 * Time O(n + m), no allocation. */
TK_API tk_status_t tk_sigma_from(const tk_graph_t *g, tk_id_t s, int32_t *dist,
                                 unsigned __int128 *sigma, tk_id_t *queue, tk_error_t *err);

/* Shortest-path count statistics by distance, over the ordered pairs (s,t),
 * s != t, with t reachable from s.  Index d = 1 .. len-1 is the distance
 * (index 0 is unused and zero). */
typedef struct tk_sigma_summary {
    int32_t len;               /* distances 1 .. len-1 (len - 1 = diameter
                                  of the reachable pairs)                  */
    uint64_t *pairs;           /* ordered pairs at distance d              */
    unsigned __int128 *min;    /* smallest sigma at distance d             */
    unsigned __int128 *max;    /* largest sigma at distance d              */
    unsigned __int128 *sum_lo; /* sum of sigma at distance d, as a 256-bit */
    unsigned __int128 *sum_hi; /*   integer sum_hi * 2^128 + sum_lo        */
    uint64_t *unique;          /* pairs at distance d with sigma = 1       */
    uint64_t unreachable;      /* ordered pairs s != t, t not reachable    */
} tk_sigma_summary_t;

/* All-pairs shortest-path count summary: one tk_sigma_from per source,
 * OpenMP over sources (threads: 0 = runtime default).  Every result is an
 * integer sum, minimum or maximum, so nothing depends on the thread count.
 * Free with tk_sigma_summary_destroy.  progress (NULL: none) counts the
 * sources searched (phase "shortest-path counts").
 * Errors: TK_EINVAL (NULL argument, n = 0), TK_ENOMEM, TK_ERANGE (a count
 * exceeds 2^128 - 1; the message names the smallest source with such a
 * count, whatever the thread count).
 * Time O(n (n + m)); memory O(n) per thread (28 bytes per switch) plus
 * O(diameter) for the result. */
TK_API tk_status_t tk_sigma_summary(const tk_graph_t *g, int threads, tk_progress_t *progress,
                                    tk_sigma_summary_t *out, tk_error_t *err);
TK_API void tk_sigma_summary_destroy(tk_sigma_summary_t *s);
/* The summary of the pairs of sources lo .. hi-1 only (to spread the
 * sources over processes; progress counts them, the caller begins and ends
 * the phase), and to += from (integer sums, minima and maxima, so merging
 * the ranges of any cut of 0 .. n-1, in any order, gives tk_sigma_summary
 * exactly).  Errors: as tk_sigma_summary (the overflow message names the
 * smallest source of the range); TK_EINVAL for a bad range. */
TK_API tk_status_t tk_sigma_summary_range(const tk_graph_t *g, int64_t lo, int64_t hi, int threads,
                                          tk_progress_t *progress, tk_sigma_summary_t *out,
                                          tk_error_t *err);
TK_API tk_status_t tk_sigma_summary_merge(tk_sigma_summary_t *to, const tk_sigma_summary_t *from,
                                          tk_error_t *err);

/* Average of the sigma values at distance d as a double (sum / pairs);
 * 0 when there is no pair at that distance. */
TK_API double tk_sigma_summary_avg(const tk_sigma_summary_t *s, int32_t d);

/* ------------------------------------------------------------------------ */
/* k shortest simple paths and hop-limited simple-path counts.              */

typedef struct tk_ksp_opts {
    int threads;       /* OpenMP threads (0 = runtime default)              */
    int32_t k;         /* paths per pair for the k-shortest average; 0 = do
                          not compute it                                   */
    int32_t allpath_h; /* hop limit H for simple-path counts; 0 = do not
                          compute them                                     */
    int allpath_raw;   /* 1: count raw H-hop paths instead (walks of exactly
                          H arcs, switches and self-loops may repeat: the
                          "raw paths" of Lemmas 6-10 of Faizian et al.,
                          "Random Regular Graph and Generalized De Bruijn
                          Graph with k-shortest Path Routing")             */
    uint64_t sample;   /* 0: all ordered pairs s != t; else this many pairs
                          drawn uniformly with replacement                 */
    uint64_t seed;     /* seed of the sample (stream tk_rng_new(seed, 0))  */
    /* NULL, or counts the pairs done (phase "paths"). */
    tk_progress_t *progress;
} tk_ksp_opts_t;

typedef struct tk_ksp_result {
    uint64_t pairs; /* ordered pairs examined (s != t)           */
    /* k shortest (when k > 0): for every pair the k shortest simple paths,
     * or all its simple paths when it has fewer than k ("short" pairs). */
    uint64_t short_pairs;      /* pairs with fewer than k simple paths
                                  (including pairs with none)               */
    unsigned __int128 paths;   /* total number of chosen paths               */
    unsigned __int128 len_sum; /* total length of the chosen paths           */
    uint64_t *len_hist;        /* len_hist[L] = chosen paths of length L,
                                  L = 0 .. len_hist_len - 1                  */
    int32_t len_hist_len;
    /* ALLPATH(H) (when allpath_h > 0): simple paths of at most H hops.     */
    uint64_t allpath_min, allpath_max;
    unsigned __int128 allpath_sum;
} tk_ksp_result_t;

/* k shortest simple paths of every ordered pair (or of a sample) and/or
 * the number of simple paths of at most H hops.
 *
 * k shortest: per target t, one breadth-first search on the reversed graph
 * gives d(v,t) and the number of shortest v->t paths; then for every source
 * s the simple s->t paths of length exactly L are counted by a depth-first
 * search pruned by l + d(v,t) <= L (l = length so far), for L = d(s,t)
 * and then the smallest length the abandoned partial paths allow, until k
 * paths are found or no simple path longer than L exists.  When the
 * remaining budget equals d(v,t) and no switch of the partial path is
 * closer to t than v, the completions are exactly the shortest v->t paths
 * and are counted in O(1) instead of enumerated.  Only lengths are
 * reported, so which of several equally long paths are "the" k shortest
 * does not matter.  Time: per pair proportional to the partial paths within
 * the final bound (small on low-diameter graphs, up to exponential on
 * long-path graphs); memory O(n + m) per thread.
 *
 * ALLPATH(H), all pairs: one depth-first search of depth H per source
 * counts the simple paths to every target at once: O(n * P_H) where P_H is
 * the number of simple paths of at most H hops out of a switch
 * (<= r + r^2 + ... + r^H for out-degree r).  Sampled pairs: a per-pair
 * search pruned by l + d(v,t) <= H.  Raw paths (allpath_raw): walks of
 * exactly H arcs counted by H sparse vector-matrix products, O(H (n + m))
 * per source (all pairs) or per target (sampled, on the reversed graph).
 * A count that does not fit in 64 bits is refused (TK_ERANGE).
 *
 * Sampling draws `sample` ordered pairs (s, t), s != t, uniformly with
 * replacement from one seeded stream; pairs are processed grouped by
 * target, so results never depend on the thread count.  All sums are
 * integers (deterministic).
 * Free with tk_ksp_result_destroy.
 * Errors: TK_EINVAL (k < 0, H < 0, both 0, n < 2 for sampling),
 * TK_ERANGE (a raw-path count exceeds 2^64 - 1), TK_ENOMEM. */
TK_API tk_status_t tk_ksp(const tk_graph_t *g, const tk_ksp_opts_t *opts, tk_ksp_result_t *out,
                          tk_error_t *err);
TK_API void tk_ksp_result_destroy(tk_ksp_result_t *r);

/* The work of tk_ksp cut into units, to spread over processes (an MPI
 * rank computes some units, the results are merged by integer sums,
 * minima and maxima, so the merged result does not depend on who computed
 * which unit nor in which order).  Units: all pairs, target t (k > 0, t <
 * n) then source s (H > 0); a sample, the sampled pairs of one target
 * (drawn once by tk_ksp_plan_new).  The plan holds the options (progress
 * counts the pairs of every unit run; the caller begins and ends the
 * phase) and a reversed copy of a directed graph; g must outlive it.
 * tk_ksp_plan_run: units [lo, hi) into out (threads as in tk_ksp), a
 * partial result: allpath_min is UINT64_MAX when no ALLPATH pair was
 * counted.  tk_ksp_result_merge: to += from (to's histogram grows).
 * tk_ksp_result_finish: once every unit is merged (into a result zeroed
 * with allpath_min = UINT64_MAX), gives what tk_ksp returns.
 * Errors: as tk_ksp; TK_EINVAL for a bad range. */
typedef struct tk_ksp_plan tk_ksp_plan_t;
TK_API tk_status_t tk_ksp_plan_new(const tk_graph_t *g, const tk_ksp_opts_t *opts,
                                   tk_ksp_plan_t **out, tk_error_t *err);
TK_API void tk_ksp_plan_free(tk_ksp_plan_t *p);
TK_API int64_t tk_ksp_plan_units(const tk_ksp_plan_t *p);
TK_API tk_status_t tk_ksp_plan_run(const tk_ksp_plan_t *p, int64_t lo, int64_t hi, int threads,
                                   tk_ksp_result_t *out, tk_error_t *err);
TK_API tk_status_t tk_ksp_result_merge(tk_ksp_result_t *to, const tk_ksp_result_t *from,
                                       tk_error_t *err);
TK_API void tk_ksp_result_finish(const tk_ksp_plan_t *p, tk_ksp_result_t *r);

#ifdef __cplusplus
}
#endif

#endif /* TK_PATHS_H */
