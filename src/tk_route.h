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
 *   valiant[,exclude|,minfirst]
 *                  intermediate switch m uniform, min in each segment;
 *                  m over all switches (default; m = s or m = t gives the
 *                  minimal route), `exclude`: m over all switches but s and
 *                  t, `minfirst`: seed 002's MinFirst, the paths and
 *                  weights of the default (m = s, t routed minimally in the
 *                  first VC phase; the phase matters to deadlock analysis
 *                  only).  Valiant paths are walks; equal walks through
 *                  different intermediates merge (weights add).
 *   dragonfly-min  local-global-local (needs groups and a `global` class)
 *   dragonfly-valiant
 *                  intermediate router outside the source and destination
 *                  groups, dragonfly-min in each segment
 *   polarized      every hop strictly increases D(s,.) - D(.,t), uniform
 *                  over those paths
 * and per-link-class hop lengths as options, e.g. "min,global=2" (a global
 * hop counts 2 in the path length that min / ecmp / ksp / valiant /
 * polarized use; refused for allpath and dragonfly-*).
 * Implementation: src/route/ (route.c: parsing, router, workspaces,
 * dispatch; dag.c: min, ecmp, polarized; simple.c: ksp, allpath;
 * valiant.c; dragonfly.c).  Precise definitions: topokit(7), ROUTING
 * MODELS.
 *
 * Performance.  tk_router_new builds an all-pairs distance table (4 n^2
 * bytes, at most 256 MiB and a quarter of mem_limit; for min and ecmp only
 * when n <= 2048; valiant and dragonfly-valiant refuse larger graphs with
 * TK_ELIMIT), OpenMP over targets with `threads` threads.  Without a
 * table a workspace caches the last 4 distance vectors: call per pair
 * grouped by destination t.  tk_route_paths allocates nothing in steady
 * state (the output path set grows once and is reused): ksp:8 over all
 * 999 000 pairs of rrg n=1000 d=16 takes about 1-2 s on one core.
 */
#ifndef TK_ROUTE_H
#define TK_ROUTE_H

#include "tk_core.h"

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
    TK_ROUTE_POLARIZED
} tk_route_kind_t;

typedef enum tk_valiant_mode {
    TK_VALIANT_ALL = 0, /* m over all n switches                       */
    TK_VALIANT_EXCLUDE, /* m over the n-2 switches other than s and t  */
    TK_VALIANT_MINFIRST /* see topokit(7)                              */
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

/* Per-thread workspace of a router. */
typedef struct tk_route_ws tk_route_ws_t;
TK_API tk_status_t tk_route_ws_new(const tk_router_t *r, tk_route_ws_t **out, tk_error_t *err);
TK_API void tk_route_ws_free(tk_route_ws_t *ws);

/* A weighted set of paths of one pair: path i is the arcs
 * arc[off[i] .. off[i+1]-1] (arc ids of the graph, in order from s to t)
 * with weight w[i]; the weights sum to 1.  s == t gives one empty path. */
typedef struct tk_pathset {
    int64_t npaths;
    int64_t *off; /* npaths + 1 */
    int64_t *arc;
    double *w;
    int64_t cap_paths, cap_arcs; /* allocated sizes (internal) */
} tk_pathset_t;
TK_API void tk_pathset_init(tk_pathset_t *ps);
TK_API void tk_pathset_destroy(tk_pathset_t *ps);

/* The paths of pair (s, t) under the router's model, at most max_paths of
 * them (0 = no limit): more is TK_ELIMIT, so a caller never enumerates a
 * factorial set by accident (use tk_route_count or the load engine).
 * Deterministic order.  Errors: TK_ERANGE (ids), TK_ELIMIT, TK_ENOMEM. */
TK_API tk_status_t tk_route_paths(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s, tk_id_t t,
                                  uint64_t max_paths, tk_pathset_t *out, tk_error_t *err);

/* Path count and length statistics of one pair, by counting where the
 * model allows it (min, ecmp, valiant, polarized count on DAGs; ksp and
 * allpath enumerate).  Lengths are hop counts.  avg_len is the
 * traffic-weighted mean (sum of w[i] * len[i]). */
typedef struct tk_route_count {
    double paths; /* number of distinct paths (exact below 2^53) */
    int32_t min_len, max_len;
    double avg_len;
} tk_route_count_t;
TK_API tk_status_t tk_route_count(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s, tk_id_t t,
                                  tk_route_count_t *out, tk_error_t *err);

#ifdef __cplusplus
}
#endif

#endif /* TK_ROUTE_H */
