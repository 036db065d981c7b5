/*
 * tk_vc.h - virtual channels and deadlock (topo-vc(1)): the channel
 * dependency graph (CDG) of a routing model under a virtual-channel (VC)
 * policy, its acyclicity verdict, an acyclicity certificate or a shortest
 * dependency cycle, and the least VC counts of capped policy families.
 *
 * A channel is an (arc, VC) pair.  A policy gives every hop of every path
 * the VCs it may use there (one VC, or a range for policies that choose);
 * a path that takes arc a on VC x and then arc b on VC y makes the
 * dependency (a, x) -> (b, y).  The CDG is the union over every path of
 * every ordered pair of switches (tk_route_paths: the paths know their
 * intermediate and the hop where their second phase starts).
 *
 * Theory (Dally and Seitz; Duato): an acyclic CDG proves that no
 * deadlock can form; a cyclic CDG means deadlock-prone (a cycle of
 * dependencies exists), not deadlocked.  Policies that let a hop choose
 * among several VCs (ladder-reuse) are judged by Duato's condition
 * instead: the escape VC of hop i is the pure ladder's (VC i), and the
 * extended CDG over the escape channels (direct, indirect and cross
 * dependencies, taken as: from every channel a hop may use to the escape
 * channel of every later hop of the path) must be acyclic; the verdict
 * then holds for virtual cut-through and wormhole switching.
 *
 * Policies (text form, tk_vc_parse; definitions in topo-vc(1)):
 *   none                    one VC
 *   ladder[,cap=K]          hop i (0-based) on VC i, or min(i, K-1)
 *   ladder-reuse[,cap=K]    hop i on any VC j <= i (Duato, escape VC i)
 *   2phases[,MODE]          VC 0 before the intermediate, 1 after it
 *   dateline                VC 1 from the dateline (wrap-around) link of
 *                           a ring or torus dimension on, 0 before it and
 *                           again when the path turns to another dimension
 *   dfladder[,MODE][,cap=L/G]
 *                           Dragonfly per-class ladder: a local hop on VC
 *                           2 phase + (global hops taken in that phase), a
 *                           global hop on VC phase (caps per class)
 *   dfladder-local[,MODE]   the variant that counts local hops: a local hop
 *                           on VC min(local hops taken, 3), a global hop on
 *                           VC phase
 *   escape[,vcs=A]          an adaptive set (VCs 1 .. A, default 1, any of
 *                           them at any hop of the routing's paths) and an
 *                           escape subnetwork on VC 0 routed by another
 *                           routing (opts->escape) from wherever a packet
 *                           enters it; a packet in the escape stays there.
 *                           Duato: the escape routing connects every pair,
 *                           and with no return to the adaptive set its
 *                           extended CDG is its own CDG on VC 0 (taken
 *                           over every pair: a superset), which must be
 *                           acyclic.  With return to the adaptive set the
 *                           verdict still holds for virtual cut-through
 *                           (a blocked packet waits for the escape move of
 *                           its state, a hop of the escape routing from
 *                           where it entered; no escape move leaves VC 0),
 *                           not for wormhole (indirect dependencies through
 *                           adaptive channels are not built)
 *   dfhops[,template=T][,cap=L/G]
 *                           Dragonfly per-hop-type ladder along a template
 *                           T of local (l) and global (g) hops, default
 *                           lgllgl (UGAL), llgllgl for PAR: every path is
 *                           embedded greedily into T (each hop on the first
 *                           slot of its type after the previous hop's), and
 *                           a hop on slot k uses VC (slots of its type
 *                           before k); a path that does not fit T is
 *                           refused (TK_EUNSUPPORTED)
 *   olm[,cap=L/G][,srcreuse]
 *                           the VCs of in-transit adaptive routing with
 *                           opportunistic local misrouting (dragonfly-olm)
 *                           as FOGSim, the simulator of Fuentes et al.,
 *                           assigns them: a hop index v, 0 at the first
 *                           hop, kept by a local misroute (a local hop that
 *                           is not minimal) and by a global hop after a
 *                           local one, raised by 1 at every other hop; a
 *                           local hop on VC min(v, L-1), a global one on
 *                           min(v, G-1).  srcreuse: the minimal local hop
 *                           after a local misroute in the source group
 *                           keeps v too (FOGSim from its fourth version).
 *                           Judged by Duato's condition for virtual
 *                           cut-through with the escape taken from every
 *                           state: the escape hops are the minimal hops and
 *                           the global misroute forced after a local
 *                           misroute in the source group; every proper
 *                           prefix of a path must be continued by an escape
 *                           hop of some path of the pair (else
 *                           TK_EUNSUPPORTED), and the graph of the
 *                           dependencies (hop i, hop i+1) with hop i+1 an
 *                           escape hop must be acyclic
 * MODE (2phases, dfladder): how a path whose intermediate is its source or
 * destination switch travels: minfirst (all in phase 0, the default),
 * minlast (all in phase 1), minboth (phase 0 when the intermediate is the
 * source, 1 when it is the destination, as Cano, Camarero, Martinez and
 * Beivide define MinBoth in "Analysing Mechanisms for Virtual Channel
 * Management in Low-Diameter Networks"), route (the path's own phase2).
 */
#ifndef TK_VC_H
#define TK_VC_H

#include "tk_core.h"
#include "tk_pattern.h"
#include "tk_route.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TK_VC_MAX 64 /* VCs per arc the analysis can represent */

typedef enum tk_vc_kind {
    TK_VC_NONE = 0,
    TK_VC_LADDER,
    TK_VC_LADDER_REUSE,
    TK_VC_2PHASES,
    TK_VC_DATELINE,
    TK_VC_DFLADDER,
    TK_VC_DFLADDER_LOCAL,
    TK_VC_ESCAPE,
    TK_VC_DFHOPS,
    TK_VC_OLM
} tk_vc_kind_t;

typedef enum tk_vc_minmode {
    TK_VC_MINFIRST = 0,
    TK_VC_MINLAST,
    TK_VC_MINBOTH,
    TK_VC_MINROUTE
} tk_vc_minmode_t;

typedef struct tk_vc_policy {
    tk_vc_kind_t kind;
    tk_vc_minmode_t mode;
    int32_t cap;   /* ladder: K (0 = none); dfladder: local cap L    */
    int32_t capg;  /* dfladder: global cap G (0 = none)              */
    char tmpl[24]; /* dfhops: the hop-type template ('l', 'g')     */
    int srcreuse;  /* olm: srcreuse                                  */
    char text[64];
} tk_vc_policy_t;

/* Parse a policy.  Errors: TK_EINVAL with a message that starts with the
 * text. */
TK_API tk_status_t tk_vc_parse(const char *text, tk_vc_policy_t *out, tk_error_t *err);

/* One step of a dependency cycle: channel (arc, vc) -> (next arc, next
 * vc), made by hop `hop` (0-based, the hop on arc) of a path of pair
 * (src, dst) through intermediate via (-1 none). */
typedef struct tk_vc_step {
    int64_t arc;
    int32_t vc;
    tk_id_t src, dst, via;
    int32_t hop;
} tk_vc_step_t;

typedef struct tk_vc_opts {
    int threads;               /* 0 = runtime default                          */
    uint64_t max_paths;        /* per pair (0 = no limit)                      */
    int witness;               /* find a shortest cycle when cyclic            */
    int keep_graph;            /* keep the dependencies and ranks (DOT, cert.) */
    int server_pairs;          /* only pairs of switches that have servers     */
    int enumerate;             /* list every pair's paths even where the
                                  routing's segments would do (checks)          */
    const tk_router_t *escape; /* escape: the escape subnetwork's routing
                                  (on the same graph)                    */
} tk_vc_opts_t;

typedef struct tk_vc_result {
    int duato;              /* judged on Duato's extended CDG               */
    int acyclic;            /* the judged graph is acyclic                  */
    int64_t channels, deps; /* nodes (used channels) and arcs of it         */
    int32_t max_hops;       /* longest path, hops                           */
    int nclasses;
    int32_t vcs[TK_MAX_CLASSES]; /* VCs used per link class (max VC + 1)     */
    /* keep_graph: the channels sorted (node = arc * TK_VC_MAX + vc), the
     * dependencies as sorted (from, to) node pairs, and when acyclic a
     * rank per channel (longest dependency chain ending there). */
    uint32_t *node;
    uint64_t *dep; /* (from << 32) | to                                   */
    int32_t *rank;
    /* witness: the cycle, nsteps steps, each leading to the next (the
     * last back to the first). */
    int32_t nsteps;
    tk_vc_step_t *step;
} tk_vc_result_t;

/* The CDG of router r under policy pol and its verdict.  Errors:
 * TK_EUNSUPPORTED (a policy that does not apply: 2phases or dfladder
 * MODEs on a routing without intermediates, dateline on a graph that is
 * not a ring or a torus, dfladder without a class "global"), TK_ELIMIT (a
 * path needs more than TK_VC_MAX VCs, more than 2^26 arcs, max_paths),
 * TK_ENOMEM.  Time: for a two-phase routing (tk_route_segment) and a
 * policy other than ladder-reuse and MODE route, the segment engine: per
 * intermediate m the segments into and out of m, the second ones behind
 * each summary of the first (src/vc/fast.c), O(n^2 segment sets x
 * summaries) instead of the n^3 draws; otherwise (or with
 * opts->enumerate) the paths of every pair (OpenMP over sources).  A hash
 * insertion per dependency, then O(C + E log E) for C channels and E
 * dependencies; the witness: a breadth-first search per cyclic channel,
 * pruned at the best cycle so far, then a scan of the pairs for the paths
 * that make its steps. */
TK_API tk_status_t tk_vc_analyse(const tk_router_t *r, const tk_vc_policy_t *pol,
                                 const tk_vc_opts_t *opts, tk_vc_result_t *out, tk_error_t *err);
TK_API void tk_vc_result_destroy(tk_vc_result_t *res);

/* Check a witness independently: every step's pair has a path with the
 * step's intermediate whose hops hop and hop+1 are the step's arc and the
 * next step's arc on VCs the policy allows, and the cycle closes.
 * TK_OK or TK_EINVAL naming the first bad step. */
TK_API tk_status_t tk_vc_witness_check(const tk_router_t *r, const tk_vc_policy_t *pol,
                                       const tk_vc_step_t *step, int32_t nsteps, tk_error_t *err);

/* Check an acyclicity certificate: a rank for channels (arc[i], vc[i]),
 * i < nc.  Rebuilds the judged graph and verifies that every channel of it
 * has a rank and that every dependency goes to a strictly larger rank.
 * TK_OK, or TK_EINVAL naming the first channel or dependency at fault. */
TK_API tk_status_t tk_vc_cert_check(const tk_router_t *r, const tk_vc_policy_t *pol,
                                    const tk_vc_opts_t *opts, const int64_t *arc, const int32_t *vc,
                                    const int64_t *rank, int64_t nc, tk_error_t *err);

/* The least cap of the policy's capped family for which the CDG stays
 * acyclic: ladder -> ladder,cap=K (one K for every class), dfladder ->
 * dfladder,cap=L/G (the pairs (L, G) minimal in the product order; K =
 * L + 256 G in out; L <= 4, G <= 2), dfhops -> dfhops,cap=L/G (likewise,
 * L <= 8, G <= 4).  Built from one uncapped CDG (a capped dependency is
 * the image of an uncapped one).  *k = 0 when no cap up to the uncapped
 * count is acyclic.  Errors: as tk_vc_analyse, TK_EUNSUPPORTED for the
 * other policies. */
TK_API tk_status_t tk_vc_min_caps(const tk_router_t *r, const tk_vc_policy_t *pol,
                                  const tk_vc_opts_t *opts, int32_t *caps, int32_t *ncaps,
                                  int32_t maxcaps, tk_error_t *err);

/* Per-VC load of switch-level demands.  load[a * TK_VC_MAX + v] (m *
 * TK_VC_MAX doubles, caller-allocated) is the part of arc a's load on VC
 * v.  Rule: every demand's paths are listed and each hop's traffic (demand
 * x path weight) is split evenly among the VCs the hop may use; these
 * shares fix the proportions, and the arc's load as tk_load_compute (and
 * so topo-load(1)) gives it is divided in them, as integer multiples of
 * its last bit (largest remainders, ties to the lower VC): the VC loads of
 * an arc add up to its load exactly, in any order.  inject2 (may be NULL):
 * the share of the demand whose first hop is in phase 1 (a phased policy's
 * second VC set; 0 for the others).
 * The shares are a job of the parallel driver (tk_par.h) over the sources,
 * run by the router's runner (tk_router_set_runner) as the arc loads are:
 * each chunk of sources sums its hops' parts in doubles, in order, and is
 * folded into 128-bit fixed point at 2^-F, F = 119 - e for a demand total
 * below 2^e; the integers add up in any order, so the loads are the same
 * bytes for any thread count and any split of the sources into slices
 * (processes, shards).  Memory: 16 bytes per arc and VC for the
 * accumulator, 24 more per thread, and the caller's load.
 * Errors: as tk_vc_analyse and tk_load_compute, TK_ERANGE (a demand total
 * that is negative, not finite or beyond 2^512). */
TK_API tk_status_t tk_vc_load(const tk_router_t *r, const tk_vc_policy_t *pol,
                              const tk_vc_opts_t *opts, const tk_swdemand_t *dem, double *load,
                              double *inject2, tk_error_t *err);

/* tk_vc_load with the shares of VCs 0 .. vcs-1 only (1 <= vcs <=
 * TK_VC_MAX; tk_vc_load is vcs = TK_VC_MAX): the accumulator holds m x vcs
 * shares.  A caller that knows the VCs the demands' paths use (the largest
 * vcs[] of tk_vc_analyse over pairs that include every demand's) passes
 * that count; the result is the same.  A hop on a VC >= vcs is TK_ELIMIT;
 * vcs out of range is TK_EINVAL. */
TK_API tk_status_t tk_vc_load_with(const tk_router_t *r, const tk_vc_policy_t *pol,
                                   const tk_vc_opts_t *opts, const tk_swdemand_t *dem, int32_t vcs,
                                   double *load, double *inject2, tk_error_t *err);

#ifdef __cplusplus
}
#endif

#endif /* TK_VC_H */
