/*
 * vc_internal.h - what the files of src/vc/ share: the per-graph context
 * of a policy (tails of arcs, the global class, dateline dimensions), the
 * VCs of a path's hops, a hash set of 64-bit keys and the acyclicity test.
 * Not installed; hidden.
 */
#ifndef TK_VC_INTERNAL_H
#define TK_VC_INTERNAL_H

#include "tk_core.h"
#include "tk_route.h"
#include "tk_vc.h"

/* Node of the CDG: arc * TK_VC_MAX + vc (below 2^32: m <= 2^26). */
#define VC_NODE(a, v) ((uint32_t)((a)*TK_VC_MAX + (v)))
#define VC_ARC(x) ((int64_t)((x) / TK_VC_MAX))
#define VC_VC(x) ((int32_t)((x) % TK_VC_MAX))
#define VC_MAX_ARCS ((int64_t)1 << 26)

typedef struct vc_ctx {
    const tk_graph_t *g;
    tk_vc_policy_t pol;
    tk_id_t *tail;        /* m                                            */
    int global_cls;       /* class index of "global" (dfladder), else -1 */
    int8_t *dim;          /* m: dateline dimension of each arc            */
    uint8_t *wrap;        /* m: 1 for a dateline (wrap-around) arc        */
    const tk_router_t *r; /* olm: the Dragonfly router (its groups) */
} vc_ctx_t;

/* The context of a policy on r's graph.  Errors: TK_EUNSUPPORTED
 * (dateline on a graph that is not a ring or torus, dfladder without a
 * global class), TK_ELIMIT (more than 2^26 arcs), TK_ENOMEM. */
tk_status_t vc_ctx_init(vc_ctx_t *c, const tk_router_t *r, const tk_vc_policy_t *pol,
                        tk_error_t *err);
void vc_ctx_destroy(vc_ctx_t *c);

/* One path of pair (s, t): its arcs, intermediate and second-phase start
 * (tk_pathset_t). */
typedef struct vc_path {
    const int64_t *arc;
    int32_t len;
    tk_id_t s, t, via;
    int32_t phase2;
} vc_path_t;

/* The VCs hop i of a path may use: lo[i] .. hi[i]; esc[i] its escape VC
 * (the ladder's VC for ladder-reuse, judged by Duato's condition), or
 * for olm 1 when hop i is an escape hop, else 0.
 * Errors: TK_EUNSUPPORTED (a policy that needs an intermediate, path
 * without one), TK_ELIMIT (a VC >= TK_VC_MAX). */
tk_status_t vc_assign(const vc_ctx_t *c, const vc_path_t *p, int32_t *lo, int32_t *hi, int32_t *esc,
                      tk_error_t *err);

/* The phase (0 or 1) of hop j of p under a phased policy (2phases,
 * dfladder*: 0 before the intermediate, 1 from it on, MODE for an
 * intermediate that is the source or destination); 0 for the others. */
int vc_phase(const vc_ctx_t *c, const vc_path_t *p, int32_t j);

/* A set of 64-bit keys (open addressing; key + 1 stored, 0 empty). */
typedef struct vc_set {
    uint64_t *slot;
    size_t cap, n;
} vc_set_t;
int vc_set_add(vc_set_t *s, uint64_t key); /* -1 out of memory */
void vc_set_free(vc_set_t *s);
/* The keys, sorted, into a new array (NULL when out of memory). */
uint64_t *vc_set_sorted(const vc_set_t *s);

/* The segment engine (fast.c): does it apply to router r and policy pol
 * (a two-phase model; not ladder-reuse, not MODE route)?  And the
 * channels and dependencies it finds, one pair of sets per thread
 * (*nsets of each, the caller frees them).  TK_EUNSUPPORTED when the
 * routing does not decompose on this graph. */
int vc_segments_apply(const tk_router_t *r, const tk_vc_policy_t *pol);
tk_status_t vc_build_segments(const tk_router_t *r, const vc_ctx_t *c, const tk_vc_opts_t *o,
                              vc_set_t **nodes, vc_set_t **deps, int *nsets, int32_t *max_hops,
                              tk_error_t *err);

/* Kahn's algorithm on the graph of sorted nodes and sorted, unique deps
 * ((from << 32) | to, both among nodes).  Returns 1 when acyclic (rank
 * filled: longest chain ending at each node, when rank != NULL), 0 when
 * cyclic (done[i] = 0 for the nodes Kahn could not remove, when done !=
 * NULL), -1 out of memory. */
int vc_kahn(const uint32_t *node, int64_t nn, const uint64_t *dep, int64_t nd, int32_t *rank,
            uint8_t *done);
/* Index of node x in the sorted nodes, -1 when absent. */
int64_t vc_node_index(const uint32_t *node, int64_t nn, uint32_t x);

#endif /* TK_VC_INTERNAL_H */
