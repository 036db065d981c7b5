/*
 * tk_route.h - routing models.  One implementation serves topo-route,
 * topo-load, topo-mcf (path-restricted LPs), the simulator and deadlock
 * analysis: for a (source, destination) switch pair a model is a set of
 * paths with weights that sum to 1 (the fraction of the pair's traffic on
 * each path), i.e. an oblivious routing.  Randomised models (Valiant) are
 * represented by their expectation: every intermediate with its probability.
 *
 * Models (text form parsed by tk_route_parse, documented in topokit(7)):
 *   min            uniform over all shortest paths
 *   ecmp           even split at every hop over the shortest next hops
 *   ksp:K[,spread] the K shortest simple paths, even split.  Ties at the
 *                  K-th length: the first in depth-first order from a
 *                  pair-dependent rotation of each switch's arc order
 *                  (they tend to share their first hops), or with
 *                  `spread` a pseudo-random choice among all of them
 *                  (see topokit(7))
 *   allpath:H      all simple paths of at most H hops, even split
 *   valiant[,exclude|,minfirst|,servers]
 *                  intermediate switch m uniform, min in each segment;
 *                  m over all switches (default; m = s or m = t gives the
 *                  minimal route), `exclude`: m over all switches but s and
 *                  t, `minfirst`: the MinFirst policy of Cano et al.
 *                  ("Analysing Mechanisms for Virtual Channel Management
 *                  in Low-Diameter Networks"): the paths and weights of the
 *                  default, but the draws m = s and m = t travel in the
 *                  first phase (see phase2 below); `servers`: m over the
 *                  switches with servers (the leaves of a Dragonfly+, as
 *                  that paper draws them).
 *   dragonfly-min  local-global-local (needs groups and a `global` class)
 *   dragonfly-valiant
 *                  intermediate router outside the source and destination
 *                  groups, dragonfly-min in each segment
 *   dragonfly-valiant-crg
 *                  the intermediate group among those the source router
 *                  links to (CRG): a global arc of s uniform, a router of
 *                  its far group uniform (topokit(7))
 *   polarized      every hop strictly increases D(s,.) - D(.,t), uniform
 *                  over those paths
 *   dor            dimension-order minimal routing on a HyperX, torus or
 *                  mesh (needs coordinates): dimension 0 first, even split
 *                  at ties
 *   valiant,dor[,exclude|,minfirst]
 *                  valiant with dor segments
 *   dragonfly-ugal, dragonfly-par, dragonfly-olm
 *                  the path sets of UGAL, PAR and in-transit adaptive
 *                  routing with opportunistic local misrouting (its global
 *                  misrouting in transit included), evenly split (for
 *                  topo-vc; tk_route_pathset_only; topokit(7))
 * and per-link-class hop lengths as options, e.g. "min,global=2" (a global
 * hop counts 2 in the path length that min / ecmp / ksp / valiant /
 * polarized use; refused for allpath and dragonfly-*).
 *
 * Paths through an intermediate (valiant, dragonfly-valiant) know it: a
 * path is one draw (intermediate m, first-segment path, second-segment
 * path), so two draws that happen to give the same walk stay two paths
 * (tk_pathset_merge_walks merges them when only the walks matter), and
 * each path records m and the hop where its second phase starts.
 *
 * Implementation: src/route/, one table of operations per model
 * (route_internal.h; route.c parses, prepares and dispatches; HACKING.md
 * lists the files).  Precise definitions: topokit(7), ROUTING MODELS.
 *
 * Performance.  tk_router_new builds an all-pairs distance table (4 n^2
 * bytes, at most 256 MiB and a quarter of mem_limit) for the models that
 * look up d(., .) per pair: ksp, allpath, polarized and valiant (refused
 * with TK_ELIMIT when it does not fit), min and ecmp when n <= 2048 (their
 * load engines do not need it); OpenMP over targets with `threads`
 * threads.  The dragonfly models use per-group local distances instead.
 * Without a table a workspace caches the last 4 distance vectors: call per
 * pair grouped by destination t.  tk_route_paths allocates nothing in
 * steady state (the output path set grows once and is reused): ksp:8 over
 * all 999 000 pairs of rrg n=1000 d=16 takes about 1-2 s on one core.
 */
#ifndef TK_ROUTE_H
#define TK_ROUTE_H

#include "tk_core.h"
#include "tk_par.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum tk_route_kind {
    TK_ROUTE_MIN = 0,
    TK_ROUTE_ECMP,
    TK_ROUTE_KSP,
    TK_ROUTE_ALLPATH,
    TK_ROUTE_VALIANT,
    TK_ROUTE_DF_MIN,
    TK_ROUTE_DF_VALIANT,
    TK_ROUTE_POLARIZED,
    TK_ROUTE_DOR,         /* dor: dimension-order minimal (coordinates)  */
    TK_ROUTE_VALIANT_DOR, /* valiant,dor: Valiant with dor segments      */
    TK_ROUTE_DF_VALIANT_CRG,
    TK_ROUTE_DF_UGAL, /* path sets of the Dragonfly adaptive rules   */
    TK_ROUTE_DF_PAR,
    TK_ROUTE_DF_OLM
} tk_route_kind_t;

typedef enum tk_valiant_mode {
    TK_VALIANT_ALL = 0,  /* m over all n switches                       */
    TK_VALIANT_EXCLUDE,  /* m over the n-2 switches other than s and t  */
    TK_VALIANT_MINFIRST, /* see topokit(7)                              */
    TK_VALIANT_SERVERS,  /* m over the switches with servers (leaves)   */
    TK_VALIANT_EARLY     /* m over all n; a first segment that passes t
                            ends there (the Ant Mill paper's Valiant)   */
} tk_valiant_mode_t;

#define TK_ROUTE_TEXT_MAX 256

typedef struct tk_route_spec {
    tk_route_kind_t kind;
    int32_t k;                 /* ksp:K                                 */
    int32_t h;                 /* allpath:H                             */
    tk_valiant_mode_t valiant; /* valiant options                       */
    int spread;                /* ksp:K,spread: pseudo-random choice of
                                  the K-th length's ties (topokit(7))   */
    int nweights;              /* per-class hop lengths given           */
    char wclass[TK_MAX_CLASSES][TK_CLASS_NAME_MAX];
    int32_t wlen[TK_MAX_CLASSES]; /* hop length of class wclass[i] (>= 1)  */
    char text[TK_ROUTE_TEXT_MAX]; /* canonical text form                   */
} tk_route_spec_t;

/* Parse a model's text form.  Errors: TK_EINVAL with a message that starts
 * with the text ("ksp:0: K must be at least 1"). */
TK_API tk_status_t tk_route_parse(const char *text, tk_route_spec_t *out, tk_error_t *err);

/* Is the model the path set of an adaptive rule (dragonfly-ugal,
 * dragonfly-par, dragonfly-olm)?  Its even split is not how the rule
 * weighs its paths, so it is for path-set analysis (topo-vc, topo-route),
 * not for loads or simulation (topo-load and topo-sim refuse it). */
TK_API int tk_route_pathset_only(const tk_route_spec_t *spec);

/* A routing model prepared for one graph (distance tables, group
 * structure, ...).  Immutable after tk_router_new, so one router serves
 * every thread; per-thread scratch lives in a tk_route_ws_t.
 * Errors: TK_EUNSUPPORTED (the graph lacks what the model needs: groups or
 * classes for dragonfly-*, an unknown class in a weight option),
 * TK_EDISCONNECTED, TK_ELIMIT, TK_ENOMEM. */
typedef struct tk_router tk_router_t;
TK_API tk_status_t tk_router_new(const tk_graph_t *g, const tk_route_spec_t *spec, int threads,
                                 uint64_t mem_limit, tk_router_t **out, tk_error_t *err);
TK_API void tk_router_free(tk_router_t *r);
TK_API const tk_graph_t *tk_router_graph(const tk_router_t *r);
TK_API const tk_route_spec_t *tk_router_spec(const tk_router_t *r);
/* Watch the long loops run on r (the load engines of tk_load.h: phase
 * "link loads", units = switches as sources or destinations; the channel
 * dependencies of tk_vc.h: sources or intermediates) with p (NULL: stop
 * watching).  The one thing that changes in a router after
 * tk_router_new; it never changes a result.  Set it outside parallel
 * regions. */
TK_API void tk_router_set_progress(tk_router_t *r, tk_progress_t *p);
TK_API tk_progress_t *tk_router_progress(const tk_router_t *r);
/* Who runs the router's load jobs (tk_load_compute, tk_load_uniform and
 * the loads built on them): runner (kept by pointer: keep it alive while
 * the router is used), or NULL for this process alone (the default).  The
 * only thing about a router that changes after tk_router_new; the loads
 * are the same bytes whoever runs them. */
TK_API void tk_router_set_runner(tk_router_t *r, const tk_par_runner_t *runner);
TK_API const tk_par_runner_t *tk_router_runner(const tk_router_t *r);

/* Per-thread workspace of a router. */
typedef struct tk_route_ws tk_route_ws_t;
TK_API tk_status_t tk_route_ws_new(const tk_router_t *r, tk_route_ws_t **out, tk_error_t *err);
TK_API void tk_route_ws_free(tk_route_ws_t *ws);

/* A weighted set of paths of one pair: path i is the arcs
 * arc[off[i] .. off[i+1]-1] (arc ids of the graph, in order from s to t)
 * with weight w[i]; the weights sum to 1.  s == t gives one empty path.
 * via[i] is the intermediate switch of a two-phase path (valiant,
 * dragonfly-valiant), -1 for a path without one; phase2[i] is then the
 * index in the path of the first arc of its second phase (0 .. hops: 0
 * when the whole path is in the second phase, hops when none of it is),
 * and -1 for a path without an intermediate. */
typedef struct tk_pathset {
    int64_t npaths;
    int64_t *off; /* npaths + 1 */
    int64_t *arc;
    double *w;
    tk_id_t *via;                /* npaths */
    int32_t *phase2;             /* npaths */
    int64_t cap_paths, cap_arcs; /* allocated sizes (internal) */
} tk_pathset_t;
TK_API void tk_pathset_init(tk_pathset_t *ps);
TK_API void tk_pathset_destroy(tk_pathset_t *ps);

/* Merge the paths of ps that are the same walk (equal arc sequences,
 * through whatever intermediates): one path each, its weight the sum of
 * theirs, sorted by arc sequence.  A merged path keeps via and phase2 when
 * all its draws agree on them, else both become -1.
 * Errors: TK_ENOMEM.  O(P log P) comparisons for P paths. */
TK_API tk_status_t tk_pathset_merge_walks(tk_pathset_t *ps, tk_error_t *err);

/* The paths of pair (s, t) under the router's model, at most max_paths of
 * them (0 = no limit): more is TK_ELIMIT, so a caller never enumerates a
 * factorial set by accident (use tk_route_count or the load engine).
 * Deterministic order: lexicographic by arc sequence, then by
 * intermediate.  Errors: TK_ERANGE (ids), TK_ELIMIT, TK_ENOMEM. */
TK_API tk_status_t tk_route_paths(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s, tk_id_t t,
                                  uint64_t max_paths, tk_pathset_t *out, tk_error_t *err);

/* Path count and length statistics of one pair, by counting where the
 * model allows it (min, ecmp, polarized count on DAGs; ksp, allpath,
 * valiant and the dragonfly models enumerate).  Lengths are hop counts.
 * avg_len is the traffic-weighted mean (sum of w[i] * len[i]).  paths
 * counts the model's paths (draws through different intermediates apart),
 * walks the distinct arc sequences among them (equal to paths for every
 * model without intermediates). */
typedef struct tk_route_count {
    double paths; /* number of paths (exact below 2^53)              */
    int32_t min_len, max_len;
    double avg_len;
    double walks; /* number of distinct walks among them             */
} tk_route_count_t;
TK_API tk_status_t tk_route_count(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s, tk_id_t t,
                                  tk_route_count_t *out, tk_error_t *err);

/* Candidate routes of a pair, for adaptive routing: the model's minimal
 * candidates and its non-minimal candidates grouped by intermediate.
 *   valiant            min: the shortest paths (the min model's weights);
 *                      groups: every intermediate m other than s and t,
 *                      each with its two-segment paths (weights within the
 *                      group as Valiant splits them, summing to 1)
 *   dragonfly-valiant  min: the dragonfly-min paths; groups: every router
 *                      outside the groups of s and t
 *   dragonfly-valiant-crg  the same, groups: every router of a group that
 *                      a global arc of s reaches, other than G(s), G(t)
 *   other models       min: the model's own paths; no groups
 * gw[g] is the probability of group g under the oblivious model (uniform
 * over the groups).  min_hops / nonmin_hops give every path's hop count
 * per link class (nclasses = the graph's classes, row-major: entry
 * i * nclasses + c).  Group g's paths are nonmin paths goff[g] ..
 * goff[g+1]-1, all with via = gvia[g].  s == t: one empty minimal path. */
typedef struct tk_route_cands {
    tk_pathset_t min;
    tk_pathset_t nonmin;
    int64_t ngroups;
    tk_id_t *gvia; /* ngroups                              */
    int64_t *goff; /* ngroups + 1                          */
    double *gw;    /* ngroups                              */
    int nclasses;
    int32_t *min_hops;                         /* min.npaths * nclasses                */
    int32_t *nonmin_hops;                      /* nonmin.npaths * nclasses             */
    int64_t cap_groups, cap_minh, cap_nonminh; /* allocated (internal) */
} tk_route_cands_t;
TK_API void tk_route_cands_init(tk_route_cands_t *c);
TK_API void tk_route_cands_destroy(tk_route_cands_t *c);
/* The candidates of pair (s, t); max_paths bounds each of the two path
 * sets as in tk_route_paths.  Errors: as tk_route_paths. */
TK_API tk_status_t tk_route_candidates(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s,
                                       tk_id_t t, uint64_t max_paths, tk_route_cands_t *out,
                                       tk_error_t *err);

/* Two-phase models (valiant, valiant,dor, dragonfly-valiant): the paths
 * of one segment u -> v (u == v: one empty path), weights as in a draw;
 * and whether m may be the intermediate of a pair with endpoint x.  Pair
 * (s, t) draws exactly the m with tk_route_via_ok(r, s, m) and
 * tk_route_via_ok(r, t, m), and its paths through m are the segments
 * s -> m followed by the segments m -> t, so a caller can work on the n^2
 * segment sets instead of the n^3 draws (the VC analysis does).
 * tk_route_segment: TK_EUNSUPPORTED for other models, or when some pair of
 * the graph routes otherwise (dragonfly-valiant on fewer than 3 groups,
 * valiant,exclude on 2 switches); tk_route_via_ok: -1 for other models. */
TK_API tk_status_t tk_route_segment(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t u, tk_id_t v,
                                    uint64_t max_paths, tk_pathset_t *out, tk_error_t *err);
TK_API int tk_route_via_ok(const tk_router_t *r, tk_id_t x, tk_id_t m);

#ifdef __cplusplus
}
#endif

#endif /* TK_ROUTE_H */
