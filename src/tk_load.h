/*
 * tk_load.h - analytic link load of a switch-level demand set under a
 * routing model, and the saturation throughput it implies (topo-load(1)).
 *
 * Each routing model brings its load engine (src/route/, see tk_route.h);
 * counting replaces path lists wherever the model allows it:
 *   min       per source, Brandes-style dependency accumulation on the
 *             shortest-path DAG: pair (s,t) puts w*sigma(s,u)*sigma(v,t)/
 *             sigma(s,t) on arc u->v;  O(m) per source with demands
 *   ecmp      per destination, even split of the flow at every switch over
 *             its shortest next hops;  O(m) per destination
 *   valiant   the two segments' aggregate demands, then min
 *   allpath:H per source, depth-H search with the per-pair path counts
 *   dragonfly-valiant
 *             aggregate demands routed by dragonfly-min
 *   min, ecmp with hop lengths: Dial's buckets
 *   others    per pair through tk_route_paths (equal walks merged)
 * The work runs on the deterministic parallel driver (tk_par.h): loads are
 * byte-identical whatever the thread count, and a plan's units can be
 * split into slices whose accumulators merge to the same bytes.
 */
#ifndef TK_LOAD_H
#define TK_LOAD_H

#include "tk_core.h"
#include "tk_metric.h"
#include "tk_par.h"
#include "tk_pattern.h"
#include "tk_route.h"
#include "tk_stats.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Load on every arc (arcload[a], m entries, caller-allocated) of the
 * demands `dem` routed by `r`.  Units: those of dem's weights (link-capacity
 * units for tk_pattern_to_switch, one unit per pair for
 * tk_swdemand_all_to_all).  threads: 0 = runtime default.
 * Errors: TK_EINVAL (dem of another switch count, a weight not finite or
 * negative), TK_EDISCONNECTED (a demand has no route; the message names
 * the pair with the smallest source whatever the thread count), TK_ELIMIT
 * (workspace beyond physical memory, more than 2^24 paths of one pair on
 * the per-pair engine), TK_ENOMEM.
 * Time: min, ecmp, valiant (all, exclude) O(n (n + m)) for any demands;
 * allpath:H O(sources x simple paths of <= H hops); other models the cost
 * of tk_route_paths for every demand.  Memory O(n + m) per thread
 * (tk_load_bytes), never O(n^2). */
TK_API tk_status_t tk_load_compute(const tk_router_t *r, const tk_swdemand_t *dem, int threads,
                                   double *arcload, tk_error_t *err);

/* The switch-level all-to-all routed by `r` without materialising it (no
 * n x n demand matrix): srcw[s] (1 for every s when srcw == NULL, i.e.
 * tk_swdemand_all_to_all's one unit per ordered pair) from every switch s
 * to every other switch.  Same engines, units and determinism as
 * tk_load_compute; memory O(m + n) per thread.
 * Errors: TK_EINVAL (a weight not finite or negative), TK_EDISCONNECTED,
 * TK_ELIMIT, TK_ENOMEM. */
TK_API tk_status_t tk_load_all_to_all(const tk_router_t *r, const double *srcw, int threads,
                                      double *arcload, tk_error_t *err);

/* The default pattern of topo-load(1) and the "uniform" of topo-antmill(1)
 * and topo-medoid(1): the uniform pattern of tk_swdemand_uniform (server
 * level wherever the graph has servers; one endpoint per switch on a graph
 * without any).
 *   pair_load  (m entries or NULL) the loads at one unit per ordered pair
 *              of switches with servers (with the same server count on
 *              every switch: the count of Faizian et al., "Random Regular
 *              Graph and Generalized De Bruijn Graph with k-shortest Path
 *              Routing", Lemma 4)
 *   cap_load   (m entries) the loads in link-capacity units at offered
 *              load 1 per server
 *   limit      (or NULL) the ejection limit: 1 / the largest total an
 *              endpoint receives (1 when no endpoint receives more than 1)
 * With one server count p for every switch the all-to-all is routed once
 * (implicitly, memory O(n + m)) and cap_load = pair_load * (p / (n-1));
 * otherwise the demands are listed (memory O(n^2)).
 * The saturation throughput is then
 * min(1, 1 / max(cap_load / capacity), limit).
 * Errors: as tk_load_all_to_all, and tk_swdemand_uniform's.  n < 2: all
 * loads 0. */
TK_API tk_status_t tk_load_uniform(const tk_router_t *r, int threads, double *pair_load,
                                   double *cap_load, double *limit, tk_error_t *err);

/* A load computation split open, for callers that run slices of it (a
 * `--shard i/P` run, an MPI rank): the demands dem (or, with dem == NULL,
 * the all-to-all with srcw as in tk_load_all_to_all) routed by r, as a job
 * of the parallel driver.  Its accumulator has one entry per arc; run any
 * slices of its units with tk_par_run (tk_par_slice cuts them), merge the
 * accumulators with tk_acc_merge and convert with tk_acc_to_double: the
 * loads of tk_load_compute, bit for bit.  The plan keeps pointers into r
 * and dem: keep both alive until tk_load_plan_free.
 * Errors: as tk_load_compute. */
typedef struct tk_load_plan tk_load_plan_t;
TK_API tk_status_t tk_load_plan_new(const tk_router_t *r, const tk_swdemand_t *dem,
                                    const double *srcw, tk_load_plan_t **out, tk_error_t *err);
TK_API const tk_par_job_t *tk_load_plan_job(const tk_load_plan_t *p);
TK_API void tk_load_plan_free(tk_load_plan_t *p);

/* The saturation throughput per server of tk_load_uniform's pattern (the
 * default of topo-load(1)) under r: tk_throughput(1 / the largest load per
 * capacity, the ejection limit); 1 when n < 2.  The "uniform" column of
 * topo-antmill(1).  Errors: as tk_load_uniform. */
TK_API tk_status_t tk_load_uniform_throughput(const tk_router_t *r, int threads, double *out,
                                              tk_error_t *err);

/* Bytes of workspace the engines need with `threads` threads (0 counts
 * as 1) on graph g: about 32 bytes per arc and 64 per switch per thread.
 * tk_load_compute lowers its thread count to fit the machine's physical
 * memory and refuses (TK_ELIMIT) when one thread does not fit; callers with
 * a tighter limit compare this estimate first.  O(1). */
TK_API uint64_t tk_load_bytes(const tk_graph_t *g, int threads);

/* Summary of arc loads.  For undirected graphs each direction of a link is
 * its own arc (capacity per direction).  Per class c (0 .. nclasses-1) and
 * overall (index nclasses). */
typedef struct tk_load_summary {
    int nclasses;
    double *max_load; /* nclasses+1: largest load / capacity          */
    double *avg_load; /* nclasses+1: mean of load / capacity over arcs */
    int64_t *arcs;    /* nclasses+1: arcs in the class                */
    int64_t argmax;   /* an arc of largest load/capacity (smallest id) */
} tk_load_summary_t;
TK_API tk_status_t tk_load_summarize(const tk_graph_t *g, const double *arcload,
                                     tk_load_summary_t *out, tk_error_t *err);
TK_API void tk_load_summary_destroy(tk_load_summary_t *s);

/* Saturation throughput per server (topokit(7), UNITS): the largest
 * offered load, at most 1, at which every demand is carried:
 * min(1, theta, limit).  theta is the multiplier of the demands the
 * network carries (1 / the largest load per capacity at offered load 1,
 * +inf when no link is loaded; a maximum-concurrent-flow theta), limit the
 * injection/ejection limit (tk_swdemand_limit; 1 when there is none).
 * The one formula topo-load, topo-mcf and topo-antmill print. */
TK_API double tk_throughput(double theta, double limit);

/* The injection/ejection limit of switch-level demands: 1 / the largest
 * total any single endpoint sends or receives (dem's inject and eject),
 * or 1 when no endpoint sends or receives more than 1 (or dem is NULL). */
TK_API double tk_swdemand_limit(const tk_swdemand_t *dem);

/* tk_throughput of loads in link-capacity units at offered load 1
 * (tk_pattern_to_switch's units): theta = 1 / max_load, limit
 * tk_swdemand_limit(dem).  For the one-unit-per-pair all-to-all, scale
 * first: see topo-load(1). */
TK_API double tk_load_throughput(double max_load, const tk_swdemand_t *dem);

/* ------------------------------------------------------------------------ */
/* Resilience sweeps (load/resil.c, topo-resilience(1)): random failures
 * (tk_fail_apply) at a sweep of fractions, S samples per fraction, and per
 * sample the distances, the spectral bisection bound and the load of the
 * uniform pattern or of given demands.
 *
 * Sample j of point i removes round(fraction[i] x eligible) links or
 * switches uniformly at random with the seed tk_resil_seed(seed, i, j):
 * an independent stream per (seed, point, sample), or per (seed, sample)
 * with `nested` (common random numbers: a sample's failures at a larger
 * fraction contain those at a smaller one, since tk_fail_apply draws a
 * prefix of one random order).  A sample is reproduced by topo-fail -s
 * with that seed.  The samples are the units of a job of the parallel
 * driver, so the results are the same bytes at any thread count and any
 * split over processes (opts.runner). */
typedef struct tk_resil_opts {
    tk_fail_unit_t unit;           /* links or switches                         */
    const char *cls;               /* links only: only this class (NULL all)    */
    uint64_t seed;                 /* the sweep's seed                           */
    int nested;                    /* 1: seeds per (seed, sample) only            */
    const double *fraction;        /* points entries in [0, 1]                   */
    int64_t points;                /* >= 1                                       */
    int64_t samples;               /* per point, >= 1                            */
    const tk_route_spec_t *route;  /* NULL: no loads                             */
    const tk_swdemand_t *demands;  /* NULL: the uniform pattern (tk_load_uniform);
                                      else these switch-level demands (links
                                      only: switch ids must not change)         */
    int bisection;                 /* 1: the spectral bisection lower bound      */
    uint64_t mem_limit;            /* for the routers (0: none)                  */
    int threads;                   /* 0: runtime default; samples run in parallel,
                                      each one single-threaded                  */
    const tk_par_runner_t *runner; /* NULL: this process                         */
    tk_progress_t *progress;       /* NULL, or counts finished samples           */
} tk_resil_opts_t;

/* One sample.  A disconnected sample has diameter TK_INF and avg_distance,
 * max_load NAN; throughput 0; bisection_lb 0 (lambda2 = 0).  A graph with
 * no switch left counts as disconnected; one switch is connected
 * (distances 0, throughput 1, bisection bound 0). */
typedef struct tk_resil_sample {
    uint64_t seed;       /* tk_fail_apply's seed                           */
    int64_t removed;     /* links or switches removed                      */
    int64_t n;           /* switches left                                  */
    int disconnected;    /* 1 when some switch cannot reach another        */
    int32_t diameter;    /* hops                                           */
    double avg_distance; /* tk_dist_summary's                              */
    double bisection_lb; /* lambda2 floor(n/2) ceil(n/2) / n (topo-bisect's
                            bisection_lb); NAN unless opts.bisection     */
    double max_load;     /* largest load per capacity of the uniform pattern
                            (or opts.demands) at offered load 1 per server
                            (topo-load's max_load); NAN without opts.route */
    double throughput;   /* topo-load's throughput: min(1, 1 / max_load,
                            the ejection limit); NAN without opts.route  */
} tk_resil_sample_t;

/* The seed of sample j of point i (point ignored when nested). */
TK_API uint64_t tk_resil_seed(uint64_t seed, int64_t point, int64_t sample, int nested);

/* Every sample: out[i * samples + j] for point i, sample j (caller-
 * allocated, points x samples entries).
 * Errors: TK_EINVAL (bad options: a fraction outside [0, 1] or not a
 * number, points or samples < 1, demands with switch failures or of
 * another switch count), tk_fail_apply's (an unknown class),
 * the router's and the load's (a routing model that refuses the damaged
 * graph), TK_ENOMEM; the error of the smallest failing sample whatever
 * the thread count.
 * Time: per sample tk_fail_apply, a distance summary, a Laplacian
 * eigenvalue and a load computation on the damaged graph; memory per
 * thread one damaged graph and its router. */
TK_API tk_status_t tk_resil_run(const tk_graph_t *g, const tk_resil_opts_t *opts,
                                tk_resil_sample_t *out, tk_error_t *err);

/* The statistics of one point: x is one value per sample; the NAN ones
 * (disconnected samples' distances and loads) are left out, the rest go
 * to tk_sample_stats at confidence `level`.  out->n = 0 when none is left
 * (mean, min, max, sd and halfwidth NAN).  When the values are all equal
 * the mean is that value exactly and sd and halfwidth (n >= 2) are 0.
 * Errors: TK_EINVAL (level outside (0, 1)).  O(samples) memory. */
TK_API tk_status_t tk_resil_stats(const double *x, int64_t samples, double level,
                                  tk_sample_stats_t *out, tk_error_t *err);

#ifdef __cplusplus
}
#endif

#endif /* TK_LOAD_H */
