/*
 * tk_mcf.h - maximum concurrent flow: the largest multiplier theta such that
 * theta times every demand of a switch-level demand set (tk_swdemand_t, link
 * capacity units) can be routed at once within the arc capacities.
 *
 * Methods (topo-mcf(1) writes the formulations out):
 *   exact   the source-aggregated arc formulation (one commodity per
 *           source switch: flow conservation per source, shared arc
 *           capacities, maximise theta) by GLPK's simplex or by a certified
 *           interior point method (opts.lp, mcf_ipm.c), or, with a routing
 *           model, the path formulation over the model's path sets (GLPK's
 *           simplex or the certified interior point method, opts.lp);
 *   approx  Garg-Koenemann / Fleischer multiplicative length updates with
 *           the commodities of one source routed together on one shortest
 *           path tree (Karakostas), the trees of a batch of sources grown
 *           at once and used while (1 + eps/2)-short (Fleischer),
 *           stopped when the certified gap between the routed flow
 *           (lower bound) and the dual bound
 *           D(l) / alpha(l) = sum_a l(a) cap(a) / sum_st d(s,t) dist_l(s,t)
 *           (upper bound) is at most eps;
 *   auto    exact up to TK_MCF_AUTO_EXACT_COLS LP columns; up to
 *           TK_MCF_AUTO_BARRIER_MAX when the certified barrier answers;
 *           approx otherwise.
 *
 * GLPK is confined to src/mcf/mcf_glpk.c: its terminal output is off and
 * its fatal errors come back as TK_EINTERNAL through glp_error_hook.
 */
#ifndef TK_MCF_H
#define TK_MCF_H

#include "tk_core.h"
#include "tk_pattern.h"
#include "tk_route.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum tk_mcf_method { TK_MCF_AUTO = 0, TK_MCF_EXACT, TK_MCF_APPROX } tk_mcf_method_t;

/* The LP algorithm of the exact method. */
typedef enum tk_mcf_lp {
    TK_MCF_LP_AUTO = 0, /* barrier from TK_MCF_AUTO_BARRIER_COLS arc
                           columns, TK_MCF_AUTO_PATH_BARRIER_COLS paths
                           (and TK_MCF_AUTO_PATH_BARRIER_START)          */
    TK_MCF_LP_SIMPLEX,  /* GLPK simplex (arc LP: with column generation) */
    TK_MCF_LP_BARRIER   /* interior point (arc LP: on the shortest-path
                           DAGs), certified; the simplex when not        */
} tk_mcf_lp_t;

/* Sizes in arc-LP columns, S * m (S sources with demand, m arcs); all
 * measured in tests/bench/mcf.sh.
 * lp auto: the barrier first from this size (rrg n=100 d=8: barrier 1 s,
 * simplex 7 s; below it the simplex takes about as long as a barrier that
 * declines). */
#define TK_MCF_AUTO_BARRIER_COLS 50000
/* method auto: exact up to this size (the simplex's range) ... */
#define TK_MCF_AUTO_EXACT_COLS 100000
/* ... and up to this one when the certified barrier answers (rrg n=300
 * d=16, 1.44e6 columns: 48 s, 0.9 GB); approx otherwise. */
#define TK_MCF_AUTO_BARRIER_MAX 1500000

/* Path formulation (a routing model): lp auto runs the barrier first
 * from this many path columns (tests/bench/RESULTS.md: GDBG(150, 8) with
 * 3 servers per switch, ALLPATH(3), server permutation, about 1700
 * columns: barrier 0.4 s, simplex 0.5 s; a random shift, about 1100
 * columns: 0.15 s against 0.1 s; GDBG(300, 16) of Figure 14 of Faizian et
 * al., "Random Regular Graph and Generalized De Bruijn Graph with
 * k-shortest Path Routing", 4200 columns: 1-2 s against 7 s). */
#define TK_MCF_AUTO_PATH_BARRIER_COLS 1500
/* ... and when the split check (which runs unless --no-presolve) loads at least this fraction of
 * the arcs to capacity: below it the simplex starts row generation from few rows and wins (Faizian
 * et al.'s Figure 14 RRG from N = 500, 0.01-0.2 of the arcs: 2-6x faster than the barrier); above
 * it the barrier does (GDBG ALLPATH(3) and RRG(300, 16) ksp:15, 0.45-0.7: 3-8x). */
#define TK_MCF_AUTO_PATH_BARRIER_START 0.3

/* The approximation's sources come in batches of opts.batch (the last of
 * a phase may be shorter), cut from the sources with demand in order, so
 * the cut depends on nothing else: a batch's shortest-path trees are all
 * grown on the arc lengths at the batch's start (independent of each
 * other: threads and processes share them), then its sources are routed
 * in order on the current lengths, each on its tree while every path to a
 * destination with demand left is at most (1 + eps/2) times the
 * destination's distance on the tree's own lengths (a lower bound on its
 * current distance: lengths only grow within a phase), on a tree grown
 * again otherwise (Fleischer's (1 + eps)-short paths; topo-mcf(1)). */
#define TK_MCF_APPROX_BATCH 64
typedef struct tk_mcf_batch tk_mcf_batch_t;

typedef struct tk_mcf_opts {
    tk_mcf_method_t method;
    double eps;         /* approx: target relative gap (0 < eps < 1)     */
    double time_limit;  /* seconds, 0 = none: TK_ELIMIT when reached,
                           except that the approximation returns its
                           certified interval (result.stopped)          */
    int server_limits;  /* enforce inject[s] * theta <= 1, eject alike   */
    int links;          /* fill the saturated-arc list of the result     */
    int threads;        /* approx: OpenMP threads of the first trees and
                           of each batch's (0 = runtime default)         */
    uint64_t mem_limit; /* bytes (0 = none): larger LPs are TK_ELIMIT    */
    tk_mcf_lp_t lp;     /* exact: simplex, barrier or auto               */
    int no_presolve;    /* routed: the whole LP, no split check and no
                           row generation                              */
    /* approx: NULL, or counts the sources routed (phase "approximation",
     * total unknown). */
    tk_progress_t *progress;
    /* approx: 0, or alpha of the first trees as tk_mcf_approx_first_add
     * sums it over every source in order (computed by the caller, e.g.
     * over MPI ranks): the approximation then skips those trees. */
    double first_alpha;
    /* approx: sources per batch (0: TK_MCF_APPROX_BATCH); the trees of a
     * batch are grown on the same lengths (tk_mcf_batch_t below). */
    int64_t batch;
    /* approx: NULL, or grows every tree of each batch elsewhere (e.g. over
     * MPI ranks): called once per batch, it must leave every tree of b
     * grown, by tk_mcf_batch_grow here or tk_mcf_batch_set from the bytes
     * tk_mcf_batch_tree gave where it ran (the same bytes anywhere). */
    tk_status_t (*grow)(void *ctx, tk_mcf_batch_t *b, tk_error_t *err);
    void *grow_ctx;
    /* approx with a time limit: NULL, or given this process's verdict
     * (1: the limit is reached) after each phase, returns the verdict
     * every process acts on (e.g. MPI rank 0's clock), so that processes
     * that grow batches together stop at the same phase; called with
     * grow_ctx. */
    int (*agree)(void *ctx, int over);
} tk_mcf_opts_t;

/* Defaults: auto, eps 0.01, no time limit, no server limits, no links. */
TK_API void tk_mcf_opts_init(tk_mcf_opts_t *o);

typedef struct tk_mcf_result {
    double theta;           /* feasible concurrent multiplier (lower bound) */
    double upper;           /* certified upper bound (== theta for the
                               simplex; within 1e-9 of it for the barrier)  */
    double gap;             /* (upper - theta) / upper, 0 when upper == 0    */
    tk_mcf_method_t method; /* TK_MCF_EXACT or TK_MCF_APPROX: what ran       */
    double seconds;         /* wall-clock time of the solve                  */
    int64_t iterations;     /* simplex iterations or approx phases           */
    int64_t rounds;         /* exact: column or row generation rounds        */
    int barrier;            /* exact: 1 when the certified barrier answered  */
    int no_lp;              /* exact, routed: 1 when the split check met the
                               a-priori bound (no LP ran)                   */
    int limited_by_servers; /* theta is the server injection/ejection cap    */
    int stopped;            /* approx: the time limit stopped it before the
                               gap reached eps; [theta, upper] is still a
                               certified interval (TK_OK is returned)       */
    int64_t regrown;        /* approx: trees grown again while routing (a
                               batch's tree no longer (1+eps/2)-short)      */
    /* links: saturated arcs (positive dual price), ascending arc id */
    int64_t nsat;
    int64_t *sat_arc;
    double *sat_dual; /* dual price, normalised to sum(dual*cap) = 1   */
    double *sat_load; /* flow / capacity at theta                      */
} tk_mcf_result_t;

TK_API void tk_mcf_result_init(tk_mcf_result_t *r);
TK_API void tk_mcf_result_destroy(tk_mcf_result_t *r);

/* Maximum concurrent flow of demands d on g with unrestricted routing.
 * d->n must equal g->n.  A demand set with no network demand has theta =
 * inf (or the server cap).  An unreachable demand gives theta = 0.
 * Errors: TK_EINVAL (options, mismatched sizes), TK_ELIMIT (time limit
 * reached, or LP beyond mem_limit), TK_EINTERNAL (GLPK failure), TK_ENOMEM.
 * Exact: LP of (S*m + 1) columns and (S*(n-1) + m) rows, S sources with
 * demand; simplex time is superlinear.  Approx: O(phases * S * m log n)
 * time, O(m + n) memory per thread. */
TK_API tk_status_t tk_mcf_solve(const tk_graph_t *g, const tk_swdemand_t *d, const tk_mcf_opts_t *o,
                                tk_mcf_result_t *out, tk_error_t *err);

/* Maximum concurrent flow restricted to the paths of a routing model: one
 * variable per path of each demand pair's path set (tk_route_paths, at most
 * max_paths per pair, 0 = no limit), shared arc capacities, maximise theta.
 * The path weights of the model are ignored: the LP chooses the split.
 * Always exact.  First (unless opts.no_presolve) a split check:
 * a few passes of rip-up and reroute put every pair's demand, times the
 * least of the a-priori weak-duality bounds (hop count over the used arcs,
 * each source's first-arc cut, each destination's last-arc cut), on its
 * paths; if that flow fits the capacities within 1e-12, theta is that
 * bound and no LP runs (result no_lp; not with links, which needs the
 * LP's prices).  Otherwise GLPK's simplex, with
 * the capacity rows added lazily (starting from the arcs the split check
 * overloaded, adding those the solution overloads, until none is: the
 * whole LP's optimum; every row from the start with no_presolve; with
 * links an arc whose row never joined is priced 0), or (opts.lp) the
 * interior point method
 * certified within 1e-9 by a flow over the paths and the weak-duality
 * bound of its duals; when that falls short, the simplex over the paths
 * the barrier's flow uses (accepted when it meets the barrier's bound
 * within 1e-9), else the simplex over all paths.  Errors as tk_mcf_solve,
 * plus the router's. */
TK_API tk_status_t tk_mcf_solve_paths(const tk_router_t *r, const tk_swdemand_t *d,
                                      uint64_t max_paths, const tk_mcf_opts_t *o,
                                      tk_mcf_result_t *out, tk_error_t *err);

/* The approximation's first oracle calls (the later ones come in batches,
 * tk_mcf_batch_t): its demand scale comes first from one tree per source
 * at the initial lengths l(a) = 1 / cap(a), trees that do not depend on
 * each other.  tk_mcf_approx_first: the distances on those
 * trees from every source s in [lo, hi) to the destinations of its
 * demands, dist[e - d->off[lo]] for the demand entries e = d->off[lo] ..
 * d->off[hi] - 1 (OpenMP over the sources; the same bytes at any thread
 * count).  tk_mcf_approx_first_add: *alpha += d(e) dist(e) over those
 * entries in order; called for consecutive ranges from source 0 on, it
 * gives the approximation's own alpha bit for bit, to pass as
 * opts.first_alpha (0 must not be passed: a network demand has alpha >
 * 0).  Errors: TK_EINVAL (range), TK_ENOMEM.  Time O((hi - lo) m log n),
 * memory O(m + n) per thread. */
TK_API tk_status_t tk_mcf_approx_first(const tk_graph_t *g, const tk_swdemand_t *d, tk_id_t lo,
                                       tk_id_t hi, int threads, double *dist, tk_error_t *err);
TK_API void tk_mcf_approx_first_add(const tk_swdemand_t *d, tk_id_t lo, tk_id_t hi,
                                    const double *dist, double *alpha);

/* A batch's trees (opts.grow).  tk_mcf_batch_sources: how many.
 * tk_mcf_batch_grow: the trees of the batch's sources lo .. hi-1, grown
 * here (OpenMP over the sources: the same bytes at any thread count).
 * tk_mcf_batch_tree: tree i's bytes (after it was grown or set; NULL and 0
 * before), valid until the batch changes.  tk_mcf_batch_set: tree i from
 * the bytes tk_mcf_batch_tree gave for the same batch in another process
 * (checked: TK_EINVAL when they do not describe a tree of its source in
 * this graph).  Errors: TK_EINVAL (range), TK_ENOMEM.  Time O((hi - lo) m
 * log n); memory O(m + n) per thread and O(k) per tree, k the switches on
 * the paths to its destinations. */
TK_API int64_t tk_mcf_batch_sources(const tk_mcf_batch_t *b);
TK_API tk_status_t tk_mcf_batch_grow(tk_mcf_batch_t *b, int64_t lo, int64_t hi, int threads,
                                     tk_error_t *err);
TK_API size_t tk_mcf_batch_tree(const tk_mcf_batch_t *b, int64_t i, const void **bytes);
TK_API tk_status_t tk_mcf_batch_set(tk_mcf_batch_t *b, int64_t i, const void *bytes, size_t len,
                                    tk_error_t *err);

/* The uniform pattern of tk_swdemand_uniform (server level wherever the
 * graph has servers), the default of topo-mcf(1).  Free with
 * tk_swdemand_destroy.  Errors: TK_ELIMIT (n^2 entries beyond mem_limit,
 * 0 = none), TK_ENOMEM, TK_EINVAL (n < 2).  Time and memory O(n^2). */
TK_API tk_status_t tk_mcf_uniform(const tk_graph_t *g, uint64_t mem_limit, tk_swdemand_t *out,
                                  tk_error_t *err);

TK_API const char *tk_mcf_method_name(tk_mcf_method_t m);

#ifdef __cplusplus
}
#endif

#endif /* TK_MCF_H */
