/*
 * tk_sim.h - the flow-level simulator (topo-sim(1)): max-min rate
 * allocation under arbitration models, steady and dynamic modes, fairness
 * metrics.  The model is stated in topokit(7), SIMULATION MODEL.
 *
 * Two layers:
 *  1. tk_mm: a max-min system in its own right (resources with
 *     capacities, variables with demands, sparse coefficients, input
 *     ports) and its three solvers (fair, rr, transit).  It knows nothing
 *     of graphs, so it can be checked against independent solvers (GLPK
 *     lexicographic max-min, SimGrid) on any instance.
 *  2. tk_sim_net: a topology, a routing model and a traffic pattern turned
 *     into a tk_mm (arcs, injection and ejection links; one variable per
 *     flow, per path or per server; interchangeable servers aggregated),
 *     solved at an offered load rho, and summarised per server and per
 *     router.
 */
#ifndef TK_SIM_H
#define TK_SIM_H

#include <stdio.h>

#include "tk_core.h"
#include "tk_pattern.h"
#include "tk_route.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Arbitration models (topokit(7)). */
typedef enum tk_arb {
    TK_ARB_FAIR = 0, /* per-flow max-min weighted by demand                 */
    TK_ARB_RR,       /* round-robin among the input ports of every output   */
    TK_ARB_TRANSIT   /* in-transit ports first, then injection, rr in each  */
} tk_arb_t;

/* Parse "fair" / "rr" / "transit".  Errors: TK_EINVAL. */
TK_API tk_status_t tk_arb_parse(const char *text, tk_arb_t *out, tk_error_t *err);
TK_API const char *tk_arb_name(tk_arb_t a);

/* ------------------------------------------------------------------------ */
/* A max-min system.
 *
 * Resources r = 0 .. nres-1: capacity cap[r] (> 0), made of copies[r]
 * identical copies (an aggregate of k servers' injection links is one
 * resource of k copies and capacity k; 1 otherwise).
 *
 * Variables v = 0 .. nvar-1: a variable stands for mult[v] identical
 * member flows; x[v] is the rate of ONE member.  demand[v] (>= 0) is a
 * member's requested rate at offered load 1: at offered load rho a member
 * asks for rho * demand[v].
 *
 * Inputs i = 0 .. nin-1: the input ports traffic arrives through at an
 * output (resource): an incoming link (in_transit[i] = 1) or a group of
 * in_mult[i] identical injection ports of servers (in_transit[i] = 0).
 *
 * Entries, variable-major: variable v uses resources eres[e] for e in
 * voff[v] .. voff[v+1]-1, arriving through input ein[e] (-1 when the
 * model needs no port: fair ignores ports), with coefficient ecoef[e] > 0:
 * the resource capacity all mult[v] members together use per unit of a
 * member's rate (mult[v] times the fraction of a member's traffic that
 * crosses the resource through that input).  A variable may have several
 * entries on one resource (through different inputs).  emcoef (optional)
 * gives one member's coefficient, ecoef[e] / mult[v], as its producer
 * knows it before the multiplication (rr and transit work per member and
 * divide otherwise, which can be an ulp off): with it an aggregate of m
 * identical members computes the very numbers its members would compute
 * one by one, so an aggregated system and its expansion give the same
 * rates bit for bit.
 *
 * Arbitration at one output r, for rr and transit: per copy of r, the
 * input ports are the inputs of r's entries, each counted in_mult[i] times
 * except own_in[r] (the single port of a server's own injection link,
 * counted once; -1 when r has none).  A port's demand is its entries'
 * desires (coefficient x desired rate) divided by copies[r] and by its
 * count; the copy's capacity is cap[r] / copies[r], shared max-min
 * among the ports (rr; transit: the in-transit ports first, max-min among
 * them, then what is left max-min among the injection ports), and each
 * port's share max-min among its member flows. */
typedef struct tk_mm {
    int64_t nres;
    double *cap;     /* nres                                         */
    double *copies;  /* nres, NULL = 1 each                          */
    int64_t *own_in; /* nres or NULL (none)                          */
    int64_t nvar;
    double *demand; /* nvar                                         */
    double *mult;   /* nvar, NULL = 1 each                          */
    int64_t nin;
    double *in_mult;     /* nin or NULL (1 each)                         */
    uint8_t *in_transit; /* nin or NULL (all transit)                    */
    int64_t *voff;       /* nvar + 1                                     */
    int64_t *eres;       /* voff[nvar]                                   */
    int64_t *ein;        /* voff[nvar] or NULL (no ports)                */
    double *ecoef;       /* voff[nvar]                                   */
    double *emcoef;      /* voff[nvar] or NULL: a member's coefficient   */
} tk_mm_t;

/* Check a system's sizes, ranges and values (finite, capacities > 0,
 * coefficients > 0, demands >= 0).  Errors: TK_EINVAL naming the first
 * bad entry.  O(size). */
TK_API tk_status_t tk_mm_check(const tk_mm_t *mm, tk_error_t *err);

/* What a solve reports beside the rates. */
typedef struct tk_mm_info {
    int64_t iterations; /* fair: saturation events; rr/transit: sweeps  */
    double residual;    /* rr/transit: largest relative change of the
                           last sweep (0 for fair, exact)                */
    int converged;      /* 1 unless the sweep limit was reached          */
    int another;        /* rr/transit: 1 when a second start found a
                           different equilibrium (see topokit(7))        */
} tk_mm_info_t;

/* Solve at offered load rho (> 0): x[v] (nvar, caller-allocated) the rate
 * of a member of v, bneck[v] (nvar or NULL) a resource that limits v (the
 * saturated resource v froze at; -1 for a fully served member).
 *  fair      weighted max-min: every member's rate is demand[v] * t, t
 *            raised together from 0; a resource that saturates freezes
 *            the variables on it; at t = rho every variable still free is
 *            fully served.  Exact progressive filling over a heap of
 *            resource events: O((entries + nres) log nres); at most
 *            2^31 - 1 resources, variables and entries (else TK_ELIMIT).
 *  rr, transit
 *            the deterministic fixed point of topokit(7): damped Jacobi
 *            sweeps over the outputs (every output's grants computed from
 *            the previous iterate only, then one damped update of them
 *            all; damping 1/2, halved whenever the residual has not halved
 *            within 100 / damping sweeps), at most max_sweeps sweeps (0:
 *            100000), stopping when no rate moves by more than 1e-13 of
 *            its request; info->converged 0 when the limit came first (the
 *            rates are then the last sweep's, not an equilibrium: some
 *            transit systems never settle).  Invariant under renumbering
 *            resources, inputs, variables and entries, bit for bit; with
 *            emcoef, an aggregate computes exactly what its members
 *            would.  With check_another, solved a second time from the
 *            other start and info->another set when the two differ.
 *            O(entries) per sweep (once the water-fillings' orders settle
 *            from sweep to sweep), no allocation after the set-up.
 * Errors: TK_EINVAL (a bad system or rho), TK_ENOMEM. */
TK_API tk_status_t tk_mm_solve(const tk_mm_t *mm, tk_arb_t arb, double rho, int64_t max_sweeps,
                               int check_another, double *x, int64_t *bneck, tk_mm_info_t *info,
                               tk_error_t *err);

/* Fair only: the level tau[v] at which v freezes in the filling without a
 * demand cap (+inf when no resource ever limits it).  At offered load rho
 * a member of v gets demand[v] * min(rho, tau[v]), so one call gives the
 * whole accepted-versus-offered curve, piecewise linear with breakpoints
 * at the distinct tau.  bneck as in tk_mm_solve.  Errors: as tk_mm_solve. */
TK_API tk_status_t tk_mm_fair_levels(const tk_mm_t *mm, double *tau, int64_t *bneck,
                                     tk_error_t *err);

/* ------------------------------------------------------------------------ */
/* Adaptive routing (topokit(7), ADAPTIVE ROUTING; topo-sim(1)).
 *
 * A flow's traffic is split over the candidate routes of its switch pair
 * (tk_route_candidates: the minimal route and one non-minimal route per
 * intermediate), each candidate keeping the routing model's fixed split
 * over its own paths.  Given the split, the arbitration model gives the
 * rates, and the rates give every arc a queue occupancy q in packets:
 *   q = phi B + (1 - phi) min(B, u / (1 - u))
 * where u is the arc's utilisation, B the buffer size, and phi the share
 * of the arc's traffic that belongs to flows held back at this arc or at
 * a resource after it on their route (a flow not fully served, with its
 * bottleneck reachable from the arc along the flow's own route): the
 * backpressure of a lossless network fills every queue upstream of a
 * bottleneck.  u / (1 - u) is the mean number in an M/M/1 queue.
 *
 * Every decision point compares the cost of the minimal route with the
 * cost of the non-minimal route through each intermediate, as its rule
 * defines them (cost_min <= cost_nonmin + bias: minimal).  Queue lengths
 * fluctuate from packet to packet, so a decision is not a step: the costs
 * are taken as independent exponentials around their means (the queue
 * length law of M/M/1), and the target share of non-minimal traffic for
 * an intermediate is the probability that a packet sees
 * cost_min > cost_nonmin + bias:
 *   y* = cm / (cm + cn) exp(-bias / cm)       (bias >= 0)
 *   y* = 1 - cn / (cm + cn) exp(bias / cn)    (bias < 0)
 * for mean costs cm and cn.  Each iteration solves the rates, measures q,
 * and moves every share y by damping (y* - y); the damping starts at
 * `damping` and halves whenever the residual, max |y* - y|, has not
 * halved in 50 iterations.  It stops when the residual is at most tol
 * (converged) or after max_iter iterations (reported as not converged:
 * the rule oscillates or converges too slowly).
 *
 * Rules (the decision formulas, with their sources, are in topokit(7)):
 *   ugal-l   at the source router: minimal when q_m H_m <= q_nm H_nm + b,
 *            q the first hop's queue, H the hop count (Kim, Dally, Towles,
 *            Abts, "Technology-Driven, Highly-Scalable Dragonfly
 *            Topology")
 *   ugal-g   the same with the sum of the queues along each route instead
 *            of q H (global information)
 *   ugal-le  ugal-l with the contention term q_m max(C - 1, 0) added to
 *            the minimal cost when the source router has no global link to
 *            the destination group; C counts the routers of its group
 *            whose traffic to the destination group it sees passing
 *            through it above `count` (Chaulagain, Yuan, "Enhanced UGAL
 *            Routing Schemes for Dragonfly Networks")
 *   par      ugal-l at the source router, then again at the next router
 *            of the source group for the traffic that went minimal there
 *            (Jiang, Kim, Dally, "Indirect Adaptive Routing on Large Scale
 *            Interconnection Networks")
 *   src-rrg, src-crg
 *            PiggyBack (Jiang, Kim, Dally, "Indirect Adaptive Routing on
 *            Large Scale Interconnection Networks", as Fuentes, Vallejo,
 *            Camarero, Beivide, Valero, "Network Unfairness in Dragonfly
 *            Topologies" use it): at the source router, non-minimal when
 *            the ugal-l test says so (bias 5) or when the minimal route's
 *            global link is flagged saturated: its occupancy above
 *            `coef` (2) times the mean occupancy of its own router's
 *            global links plus `gthr` (3) packets.  Candidates
 *            dragonfly-valiant (rrg) or dragonfly-valiant-crg (crg)
 *   in-transit-crg, in-transit-rrg, in-transit-mm
 *            in-transit adaptive (the same paper): at the source router and
 *            again at the next router of the source group, non-minimal when
 *            the minimal first hop's occupancy is at least `thr` (0.55)
 *            of the buffer and above the non-minimal first hop's (plus
 *            bias); candidates CRG at both (crg), RRG at both (rrg), CRG
 *            at the source and NRG in transit (mm: the groups linked to
 *            another router of the source group)
 *   polarized-adaptive
 *            Polarized routing (Camarero et al., as the Ant Mill paper cites
 *            it): at every router u its traffic of the pair is split over
 *            the arcs u->v of the polarized DAG (d(s,v) - d(v,t) above
 *            d(s,u) - d(u,t), v on a DAG path to t); candidate v costs
 *            (q + extra) (1 + d(v,t)), q the mean occupancy of the arc's
 *            queue; its target share is its oblivious share cnt(v) / cnt(u)
 *            (cnt: DAG paths to t) times g = clamp(1 - (cost - best - bias),
 *            0, 1), renormalised: bias=inf gives the oblivious polarized
 *            model; candidates polarized, unweighted, undirected graphs
 * ugal-le, par, src-* and in-transit-* need a Dragonfly (groups and a
 * `global` link class).
 */
typedef enum tk_adapt_rule {
    TK_ADAPT_UGAL_L = 0,
    TK_ADAPT_UGAL_G,
    TK_ADAPT_UGAL_LE,
    TK_ADAPT_PAR,
    TK_ADAPT_SRC_RRG, /* PiggyBack, Valiant candidates of any group       */
    TK_ADAPT_SRC_CRG, /* PiggyBack, CRG candidates                        */
    TK_ADAPT_IT_CRG,  /* in-transit, CRG at the source and in transit     */
    TK_ADAPT_IT_RRG,  /* in-transit, RRG at the source and in transit     */
    TK_ADAPT_IT_MM,   /* in-transit, CRG at the source, NRG in transit    */
    TK_ADAPT_POLAR,   /* Polarized, queue-adaptive at every router        */
    TK_ADAPT_DGB,     /* ugal-l with a per-router bias tuned by gradient  */
    TK_ADAPT_EDGB     /* ugal-le's estimate with dgb's bias               */
} tk_adapt_rule_t;

typedef enum tk_adapt_start {
    TK_ADAPT_START_MIN = 0, /* every share minimal (empty queues)        */
    TK_ADAPT_START_NONMIN,  /* every share non-minimal (Valiant)         */
    TK_ADAPT_START_HALF     /* half of every share non-minimal           */
} tk_adapt_start_t;

typedef struct tk_adapt {
    tk_adapt_rule_t rule;
    double bias;                  /* b, added to every non-minimal cost (0)           */
    double buffer;                /* B, packets per queue (+inf: no cap) (256)        */
    double gbuf;                  /* B of the Dragonfly's global arcs (NAN: buffer)   */
    double count;                 /* ugal-le: rate above which a router's traffic to a
                                     group counts in C, link-speed units (0.01)       */
    double damping;               /* first step (0.5)                                 */
    double tol;                   /* residual that stops the iteration (1e-9)         */
    int64_t max_iter;             /* iterations (2000)                                */
    tk_adapt_start_t start;       /* first split (min)                          */
    double thr;                   /* in-transit-*: occupancy threshold, a fraction
                                     of the buffer (0.55)                            */
    double gthr;                  /* src-*: PiggyBack's global threshold, packets (3) */
    double coef;                  /* src-*: PiggyBack's relative factor (2)           */
    double extra;                 /* polarized-adaptive: packets added to every
                                     queue in the cost (1)                            */
    double rate;                  /* dgb, edgb: the bias's gradient step eta (0.5)    */
    int64_t max_outer;            /* dgb, edgb: split solves, each but the last
                                     followed by one bias step (200)                  */
    char cand[TK_ROUTE_TEXT_MAX]; /* candidate model ("" = by topology)  */
    char text[TK_ROUTE_TEXT_MAX]; /* canonical text form                 */
} tk_adapt_t;

/* Whether text names an adaptive rule ("ugal-l", "ugal-l,bias=2", ...). */
TK_API int tk_adapt_is_rule(const char *text);
/* Parse "NAME[,bias=B][,buffer=B|inf][,gbuf=B][,count=R][,damping=D]
 * [,tol=T][,iter=N][,start=min|nonmin|half][,cand=MODEL][,thr=F]
 * [,gthr=G|inf][,coef=K][,extra=E][,rate=ETA][,outer=N]" (rate and outer for dgb and edgb; cand:
 * not for src-*, in-transit-* and polarized-adaptive, whose candidates their name fixes; thr for
 * in-transit-*, gthr and coef for src-*, extra for polarized-adaptive, whose bias may be inf; the
 * src-* rules' bias defaults to 5).  The candidate model's own options follow cand= in its text
 * form with ':' for ',' being impossible, so cand takes a model without options other than
 * valiant's (cand=valiant, cand=dragonfly-valiant).  Errors: TK_EINVAL with a message that starts
 * with the text. */
TK_API tk_status_t tk_adapt_parse(const char *text, tk_adapt_t *out, tk_error_t *err);
/* The routing model whose candidates an adaptive rule uses on graph g:
 * a->cand when set, else dragonfly-valiant on a graph with groups and a
 * `global` class, else valiant.  Errors: TK_EUNSUPPORTED (ugal-le or par
 * without a Dragonfly), TK_EINVAL. */
TK_API tk_status_t tk_adapt_candidates(const tk_adapt_t *a, const tk_graph_t *g,
                                       tk_route_spec_t *out, tk_error_t *err);

/* What an adaptive solve reports beside tk_mm_info_t (iterations,
 * residual, converged): the share of the accepted traffic on minimal
 * routes and the traffic-weighted mean hop count of the accepted
 * traffic. */
typedef struct tk_adapt_info {
    double min_share;
    double hops;
    double cost_min;    /* accepted-traffic-weighted mean of the minimal
                           cost the source routers estimate                 */
    int32_t contention; /* ugal-le: the largest C - 1 a decision used (0:
                           the contention term was zero everywhere)      */
    double bias_mean;   /* dgb, edgb: the routers' mean bias b_r (others:
                           the rule's bias)                              */
    double grad_max;    /* dgb, edgb: the largest |dL_r/db_r| of the last
                           iteration over the routers whose bias the
                           clamp does not hold (others: 0)               */
    int64_t outer;      /* dgb, edgb: the split solves of the outer loop
                           (bias steps + 1; others: 1)                   */
} tk_adapt_info_t;
/* What the fixed point did after one iteration (tk_adapt_iter_t.step):
 * the move toward the targets that follows, or on the last iteration of
 * a solve why it stopped. */
typedef enum tk_adapt_step {
    TK_ADAPT_STEP_ANDERSON = 0, /* Anderson's extrapolation was taken       */
    TK_ADAPT_STEP_DAMPED,       /* the plain damped step (first after a
                                   reset, a singular least-squares system,
                                   polarized-adaptive, an epoch)           */
    TK_ADAPT_STEP_SNAP,         /* residual <= tol: shares whose target is
                                   0 or 1 take it; one more iteration      */
    TK_ADAPT_STEP_CONVERGED,    /* last: converged                          */
    TK_ADAPT_STEP_ITER,         /* last: the iteration cap (max_iter)       */
    TK_ADAPT_STEP_FLOOR,        /* last: the damping fell below its floor   */
    TK_ADAPT_STEP_OSCILLATION,  /* last: the oscillation stop (dgb, edgb:
                                   the outer loop's)                       */
    TK_ADAPT_STEP_BIAS,         /* dgb, edgb: the split iteration stopped
                                   (fixed point, floor or oscillation);
                                   the biases take one step and the split
                                   iteration restarts from this split      */
    TK_ADAPT_STEP_OUTER         /* last (dgb, edgb): the outer cap          */
} tk_adapt_step_t;
/* "anderson", "damped", "snap", "converged", "iter", "floor",
 * "oscillation", "bias", "outer". */
TK_API const char *tk_adapt_step_name(tk_adapt_step_t s);

/* One iteration of an adaptive solve (or one epoch), as the trace
 * callback of tk_sim_opts_t receives it.  Computed only when a callback
 * is set; serial sums, so the same bytes at any thread count, and the
 * solve itself does not change. */
typedef struct tk_adapt_iter {
    int64_t iteration;     /* from 1 in a solve; the epoch's number          */
    double rho;            /* offered load                                   */
    double residual;       /* max |y* - y| of this iteration's split          */
    double damping;        /* the step size after this iteration's decisions  */
    int halved;            /* 1: the damping was halved at this iteration
                              (Anderson's history dropped)                   */
    tk_adapt_step_t step;  /* what followed                                   */
    double accepted;       /* mean accepted per offering server (as
                              tk_sim_point_t srv.mean)                       */
    double min_served;     /* as tk_sim_point_t                               */
    double min_share;      /* as tk_adapt_info_t, of this iteration's split   */
    double cost_min;       /* as tk_adapt_info_t                              */
    int64_t bneck_changed; /* flow classes whose bottleneck resource differs
                              from the previous iteration's (-1: none before:
                              a solve's or epoch series' first)              */
    double signal_change;  /* largest |change| over arcs of the mean queue
                              occupancy q (packets) since the previous
                              iteration (NAN: none before)                   */
    int64_t outer;         /* dgb, edgb: the split solve of the outer loop,
                              from 1 (others: 1)                             */
    double bias_mean;      /* dgb, edgb: as tk_adapt_info_t, this iteration's */
    double grad_max;       /* dgb, edgb: as tk_adapt_info_t, of this
                              iteration's split and biases                   */
} tk_adapt_iter_t;
typedef void (*tk_adapt_trace_fn)(void *ctx, const tk_adapt_iter_t *it);

/* After tk_sim_solve on an adaptive net.  Errors: TK_EINVAL (not
 * adaptive, or no solve yet). */
typedef struct tk_sim_net tk_sim_net_t;
TK_API tk_status_t tk_sim_adapt_info(const tk_sim_net_t *net, tk_adapt_info_t *out,
                                     tk_error_t *err);
/* The size of an adaptive net's candidates, for progress reports and
 * cost estimates: switch pairs, alternatives (routes a decision can
 * choose, minimal and non-minimal), the union (arc, input) keys of every
 * pair summed (each iteration writes one coefficient per class and key
 * its split touches), the alternatives' route entries, the shares the
 * fixed point iterates, the rate system's size, and the bytes the candidates hold (as counted
 * against the memory limit, without the allowance).  polarized-adaptive:
 * alternatives are the DAGs' arcs and entries their (arc, input) entries.
 * Errors: TK_EINVAL (not adaptive). */
typedef struct tk_adapt_size {
    int64_t pairs, alternatives, keys, entries, shares;
    int64_t classes, coefficients; /* flow classes (the rate system's
                                      variables), and their coefficients
                                      once every alternative carries
                                      traffic: each class's pair's keys */
    uint64_t bytes;
} tk_adapt_size_t;
TK_API tk_status_t tk_sim_adapt_size(const tk_sim_net_t *net, tk_adapt_size_t *out,
                                     tk_error_t *err);

/* ------------------------------------------------------------------------ */
/* A simulated network: topology + routing + traffic as a max-min system. */

typedef enum tk_split {
    TK_SPLIT_OBLIVIOUS = 0, /* a flow is one variable over its paths          */
    TK_SPLIT_INDEPENDENT    /* every path of a flow is its own sub-flow       */
} tk_split_t;

typedef struct tk_sim_opts {
    tk_arb_t arb;
    tk_split_t split;
    int coupled;             /* one variable per server (fixed proportions)      */
    int no_aggregate;        /* 1: one variable per server-level flow           */
    int threads;             /* 0 = runtime default                              */
    uint64_t mem_limit;      /* bytes the switch pairs' routes, or an
                                adaptive rule's candidates and iteration,
                                may take (0: tk_memory_limit_default();
                                the memory available bounds them too)     */
    uint64_t max_paths;      /* per pair (0 = 1 << 20)                          */
    int64_t max_sweeps;      /* rr/transit (0 = default)                        */
    int check_another;       /* rr/transit: look for a second equilibrium      */
    const tk_adapt_t *adapt; /* adaptive routing (NULL: the router's
                                oblivious split); the router must then be
                                the candidate model of tk_adapt_candidates;
                                refused with coupled or split independent */
    tk_adapt_trace_fn trace; /* adaptive: called after every iteration of a
                                solve and every epoch (NULL: none)         */
    void *trace_ctx;
} tk_sim_opts_t;
TK_API void tk_sim_opts_init(tk_sim_opts_t *o);

/* Build the system of a pattern (server or switch level, checked against
 * the router's graph) routed by r.  Switch-level endpoints stand for all
 * the servers of their switch (tk_pattern.h's units).  Errors: TK_EINVAL /
 * TK_ERANGE (the pattern does not fit the topology), TK_EUNSUPPORTED,
 * TK_EDISCONNECTED, TK_ELIMIT, TK_ENOMEM. */
TK_API tk_status_t tk_sim_net_new(const tk_router_t *r, const tk_pattern_t *pat,
                                  const tk_sim_opts_t *opts, tk_sim_net_t **out, tk_error_t *err);
/* The server-level uniform pattern (every server sends rho / (N-1) to
 * every other server) without one flow per server pair: one variable per
 * switch pair (and per switch for the same-switch pairs). */
TK_API tk_status_t tk_sim_net_uniform(const tk_router_t *r, const tk_sim_opts_t *opts,
                                      tk_sim_net_t **out, tk_error_t *err);
TK_API void tk_sim_net_free(tk_sim_net_t *net);
/* The system (read only). */
TK_API const tk_mm_t *tk_sim_net_mm(const tk_sim_net_t *net);

/* Statistics of a set of values (per server or per router). */
typedef struct tk_fair_stats {
    double mean, min, max;
    double maxmin; /* max / min (+inf when min is 0, 1 when all are 0) */
    double cov;    /* standard deviation / mean (population)           */
    double jain;   /* (sum x)^2 / (n sum x^2)                          */
} tk_fair_stats_t;
TK_API void tk_fair_stats(const double *v, int64_t n, tk_fair_stats_t *out);

/* One steady-state point. */
typedef struct tk_sim_point {
    double rho;          /* offered load per server                         */
    double offered;      /* mean offered per server (rho, or less for
                            servers that send nothing)                      */
    tk_fair_stats_t srv; /* accepted per server                              */
    tk_fair_stats_t rtr; /* per router: the mean accepted of its servers     */
    double min_served;   /* smallest rate / requested over flows             */
    int nclasses;
    double util[TK_MAX_CLASSES + 1]; /* mean utilisation per link class,
                                        then injection links               */
    tk_mm_info_t info;
} tk_sim_point_t;

/* Solve at offered load rho and summarise.  Errors: TK_EINVAL, TK_ENOMEM. */
TK_API tk_status_t tk_sim_solve(tk_sim_net_t *net, double rho, tk_sim_point_t *out,
                                tk_error_t *err);
/* Adaptive nets only, the time-stepped mode (topo-sim --epochs): one
 * epoch solves the rates of the current split and summarises them into
 * *out (info.iterations: the epoch's number from 1, info.residual: the
 * largest |y* - y|, info.converged: residual <= tol), then moves every
 * share by the rule's damping toward its target, for the next epoch.
 * The first epoch after tk_sim_net_new or tk_sim_solve starts from the
 * rule's first split.  Errors: TK_EINVAL (not adaptive, a bad rho),
 * TK_ENOMEM. */
TK_API tk_status_t tk_sim_epoch(tk_sim_net_t *net, double rho, tk_sim_point_t *out,
                                tk_error_t *err);
/* A pattern change between epochs: dst (built for the new pattern with the
 * same rule and router) takes src's current split for every switch pair
 * the two share; its other pairs start from the rule's first split; its
 * epoch count continues src's.  Errors: TK_EINVAL (not adaptive, src has
 * taken no epoch). */
TK_API tk_status_t tk_sim_adapt_inherit(tk_sim_net_t *dst, const tk_sim_net_t *src,
                                        tk_error_t *err);
/* The accepted rate of every server in the last solve (tk_sim_servers
 * entries, the sum of its flows' rates; servers numbered as the pattern's
 * endpoints, switch-major).  Errors: TK_EINVAL before any solve. */
TK_API tk_status_t tk_sim_server_rates(const tk_sim_net_t *net, double *rate, tk_error_t *err);
TK_API int64_t tk_sim_servers(const tk_sim_net_t *net);

/* The saturation point: the largest offered load at most 1 at which every
 * flow is fully served (min over resources of capacity / load at offered
 * load 1).  O(entries). */
TK_API double tk_sim_saturation(const tk_sim_net_t *net);

/* Traffic-weighted route statistics of the system at offered load 1: mean
 * hop count, mean hops per link class (chops, the graph's nclasses
 * entries), the weight of every hop count 0 .. maxhops (hist; divide by
 * tk_sim_net_hop_weight for fractions). */
TK_API tk_status_t tk_sim_net_hops(const tk_sim_net_t *net, double *mean, double *chops,
                                   const double **hist, int32_t *maxhops);
TK_API double tk_sim_net_hop_weight(const tk_sim_net_t *net);
/* The zero-load latency of the routes (topo-sim's latency column): the
 * sum over link classes c of the mean hops of class c (tk_sim_net_hops'
 * chops) times lat[c], the latency of a hop of class c (the graph's
 * nclasses entries).  O(classes). */
TK_API double tk_sim_net_latency(const tk_sim_net_t *net, const double *lat);
/* Server-level flows the system stands for, and its groups of
 * interchangeable servers (the first server of group k). */
TK_API int64_t tk_sim_net_flows(const tk_sim_net_t *net);
TK_API int64_t tk_sim_groups(const tk_sim_net_t *net);
TK_API int64_t tk_sim_group_first(const tk_sim_net_t *net, int64_t k);

/* The flows of the last solve, one row per class of interchangeable
 * server-level flows (members of them; one each without aggregation):
 * demand and rate are per member flow, bneck the resource it froze at:
 * bneck_kind 0 an arc (bneck its id), 1 the injection links of group
 * bneck, 2 its ejection links; bneck -1 when fully served.  fn returns
 * non-zero to stop. */
typedef struct tk_sim_flow {
    int64_t src_group, dst_group;
    tk_id_t src_switch, dst_switch;
    double src_servers, dst_servers;
    double members;
    double demand, rate;
    int64_t bneck;
    int bneck_kind;
} tk_sim_flow_t;
typedef int (*tk_sim_flow_fn)(void *ctx, const tk_sim_flow_t *f);
TK_API tk_status_t tk_sim_flow_rows(const tk_sim_net_t *net, tk_sim_flow_fn fn, void *ctx,
                                    tk_error_t *err);

/* Fair only: the exact accepted-versus-offered curve on [0, 1], mean
 * accepted per offering server, piecewise linear between the returned
 * breakpoints rho[0] = 0 < ... < rho[n-1] = 1 (malloc'd, caller frees both).
 * One progressive filling (tk_mm_fair_levels).  Errors: TK_ENOMEM,
 * TK_ELIMIT (as tk_mm_solve). */
TK_API tk_status_t tk_sim_fair_curve(tk_sim_net_t *net, double **rho, double **acc, int64_t *npts,
                                     tk_error_t *err);

/* ------------------------------------------------------------------------ */
/* The offered loads to solve at (src/sim/sweep.c).
 *
 * A sweep A:B:STEP (topo-sim --sweep) has tk_sim_sweep_count(A, B, STEP)
 * points, A + i STEP for i = 0, 1, ... up to B (B itself included when
 * (B - A) / STEP is an integer to 12 digits); point i is
 * tk_sim_sweep_point(A, STEP, i), the sum rounded to 15 significant
 * digits, so that the point is the decimal meant (0.3, not the sum's
 * 0.30000000000000004).  Both O(1); the caller keeps 0 < A <= B, STEP > 0. */
TK_API int64_t tk_sim_sweep_count(double lo, double hi, double step);
TK_API double tk_sim_sweep_point(double lo, double step, int64_t i);

/* The saturation search (topo-sim --bisect RES): a bisection on the
 * offered load rho for two criteria at once, every flow served
 * (min_served >= TK_SIM_BISECT_FULL) and every flow served to 99%
 * (min_served >= TK_SIM_BISECT_SAT99).  Criterion k has the bracket
 * [lo[k], hi[k]]: lo the largest load taken that meets it (0 at first),
 * hi the smallest that does not (1 at first).
 *
 * Use: tk_sim_bisect_init(&b, RES); then while (rho = tk_sim_bisect_next(&b))
 * is not 0, solve at rho and tk_sim_bisect_take(&b, rho, min_served).
 * The first load is 1; every later one is the midpoint of the first
 * bracket (k = 0, then 1) still wider than RES, rounded to 6 decimals
 * (the search of data/studies/ugal-le.sh); 0 means done: both brackets are
 * at most RES wide, a bracket the rounding cannot split (1e-6 wide, up to
 * the binary error of the difference) counting as narrow enough.  Each
 * load after the first halves a bracket (the midpoint
 * rounded by at most 5e-7), and a load can narrow both, so the search
 * takes at most 1 + 2 (ceil(log2(1 / RES)) + 1) loads (43 for RES =
 * 1e-6); when both criteria change at the same load and the midpoints need
 * no rounding (RES a power of 2 down to 2^-6), exactly 1 +
 * log2(1 / RES), the loads of a binary search.  The lo ends are the
 * saturation figures; the search assumes, as any bisection, that a
 * criterion met at a load is met below it.  take accepts any rho (a load
 * outside a bracket narrows nothing) and counts it in probes.  All O(1),
 * no allocation.  RES in [1e-6, 1) is the caller's check. */
#define TK_SIM_BISECT_FULL (1 - 1e-6)
#define TK_SIM_BISECT_SAT99 0.99
typedef struct tk_sim_bisect {
    double lo[2], hi[2]; /* the brackets: [0] every flow served, [1] 99% */
    double res;          /* the width to reach                           */
    int64_t probes;      /* loads taken                                  */
} tk_sim_bisect_t;
TK_API void tk_sim_bisect_init(tk_sim_bisect_t *b, double res);
TK_API double tk_sim_bisect_next(const tk_sim_bisect_t *b);
TK_API void tk_sim_bisect_take(tk_sim_bisect_t *b, double rho, double min_served);

/* ------------------------------------------------------------------------ */
/* Dynamic mode: flows that arrive, share the network max-min fairly, and
 * leave (topo-sim --workload / --poisson).
 *
 * Units.  A link (a switch-to-switch arc of capacity 1, a server's
 * injection or ejection link) carries 1 byte per time unit: link speed 1.
 * So a flow alone on idle links completes in `size` time units, and an arc
 * of capacity c carries c bytes per time unit.
 *
 * A flow from server a (at switch s) to server b (at switch t, b != a)
 * uses a's injection link (coefficient 1), the arcs of the route of (s, t)
 * (coefficient: the summed weight of the routing model's paths through the
 * arc, the oblivious split of topokit(7); computed once per switch pair
 * with tk_route_paths) and b's ejection link (coefficient 1).  Servers are
 * numbered switch-major as in tk_pattern.h.
 *
 * Rates: after every arrival and every completion the rates of the active
 * flows are the max-min fair allocation (equal weights, every flow asks
 * for link speed 1: TK_ARB_FAIR with demand 1 at rho = 1 on the system of
 * the active flows), recomputed on the part of the system the event
 * reaches (tk_sim_dynamic). */

/* One flow: arrives at `time` (>= 0, finite) at server src, for server
 * dst (!= src), `size` bytes (> 0, finite). */
typedef struct tk_sim_arrival {
    double time;
    int64_t src, dst;
    double size;
} tk_sim_arrival_t;

/* A workload: flows f[0 .. n-1] in non-decreasing time order, between the
 * servers 0 .. nservers-1.  Flow i is called flow i everywhere (results,
 * topo-sim --flows). */
typedef struct tk_sim_workload {
    int64_t nservers;
    int64_t n;     /* flows                                             */
    int64_t alloc; /* allocated (internal)                              */
    tk_sim_arrival_t *f;
} tk_sim_workload_t;

/* An empty workload on nservers (>= 1) servers.  Errors: TK_EINVAL,
 * TK_ENOMEM. */
TK_API tk_status_t tk_sim_workload_new(int64_t nservers, tk_sim_workload_t **out, tk_error_t *err);
TK_API void tk_sim_workload_free(tk_sim_workload_t *w);
/* Append a flow (checked as the reader checks a line, time order
 * included).  Errors: TK_ERANGE (a server outside 0..nservers-1, src ==
 * dst, a time < 0 or before the previous flow's, a size <= 0, anything
 * not finite), TK_ENOMEM.  Amortised O(1). */
TK_API tk_status_t tk_sim_workload_add(tk_sim_workload_t *w, double time, int64_t src, int64_t dst,
                                       double size, tk_error_t *err);

/* Read a workload file: one flow per line, "time src dst bytes" (blanks
 * between the fields; '#' starts a comment that runs to the end of the
 * line; blank lines are skipped), servers as integers, time and bytes as
 * decimal numbers.  Times must not decrease from one flow to the next: an
 * unsorted file is rejected, not sorted, so that flow i is always the
 * file's i-th flow (sort -g -s -k1,1 sorts one stably).  name is used in
 * messages (file:line; NULL: "<stdin>").  Errors: TK_EFORMAT (not four
 * fields, a field that is not a number, a time before the previous
 * line's), TK_ERANGE (a server outside 0..nservers-1, src == dst, a time
 * < 0, a size <= 0, a time or size not finite), TK_EIO, TK_ENOMEM.
 * O(length of the file). */
TK_API tk_status_t tk_sim_workload_read(FILE *fp, const char *name, int64_t nservers,
                                        tk_sim_workload_t **out, tk_error_t *err);
/* Write a workload in the format tk_sim_workload_read reads (numbers as
 * the shortest decimals that read back as the same doubles), so a
 * generated workload can be replayed.  Errors: TK_EIO. */
TK_API tk_status_t tk_sim_workload_write(FILE *fp, const tk_sim_workload_t *w, tk_error_t *err);

/* Size distributions of generated flows. */
typedef enum tk_sim_sizes {
    TK_SIM_SIZES_FIXED = 0, /* every flow `mean` bytes                          */
    TK_SIM_SIZES_PARETO     /* Pareto of shape alpha (> 1) and mean `mean`:
                               scale xm = mean (alpha - 1) / alpha, size =
                               xm U^(-1/alpha) for U uniform in (0, 1]
                               (heavy-tailed: infinite variance for
                               alpha <= 2)                                   */
} tk_sim_sizes_t;

/* Poisson arrivals.  Every server's flows arrive as a Poisson process of
 * rate rho / mean (so each server offers rho bytes per time unit: load
 * rho of its injection link), each for a destination uniform over the
 * other servers, with sizes from the distribution.  Server i draws from
 * its own stream tk_rng_new(seed, i), in this order per flow: the gap
 * since its previous arrival (exponential), the destination, the size;
 * so the workload never depends on threads.  The servers' flows are
 * merged by (time, src, the flow's number at its server). */
typedef struct tk_sim_poisson {
    double rho; /* offered load per server, in (0, 1]                 */
    tk_sim_sizes_t sizes;
    double mean;    /* mean size in bytes (> 0)                        */
    double alpha;   /* Pareto shape (> 1)                              */
    double horizon; /* arrivals at times < horizon (0: no bound)       */
    int64_t count;  /* at most this many flows, the first ones in
                       merged order (0: no bound)                      */
    uint64_t seed;
    uint64_t mem_limit; /* 0: tk_memory_limit_default()                    */
} tk_sim_poisson_t;
/* rho 0.5, fixed sizes of mean 1, no bounds (one must be set), seed 1. */
TK_API void tk_sim_poisson_init(tk_sim_poisson_t *p);
/* Parse a size distribution, "fixed:S" or "pareto:ALPHA:S" (S the mean),
 * into p->sizes, p->mean and p->alpha.  Errors: TK_EINVAL with a message
 * that starts with the text. */
TK_API tk_status_t tk_sim_sizes_parse(const char *text, tk_sim_poisson_t *p, tk_error_t *err);
/* Generate.  Errors: TK_EINVAL (fewer than 2 servers, rho outside (0, 1],
 * a bad mean or alpha, neither bound set, a negative or non-finite
 * bound), TK_ELIMIT (the expected number of flows does not fit mem_limit),
 * TK_ENOMEM.  Time O(F log F) for F flows, memory O(F); with count and no
 * horizon the horizon is guessed from the rates and doubled until count
 * flows exist (the streams restart, so the result is the same). */
TK_API tk_status_t tk_sim_workload_poisson(int64_t nservers, const tk_sim_poisson_t *p,
                                           tk_sim_workload_t **out, tk_error_t *err);

/* Options of a dynamic run. */
typedef struct tk_sim_dyn_opts {
    int threads;        /* route computation (0 = runtime default)          */
    uint64_t mem_limit; /* 0: tk_memory_limit_default()                    */
    uint64_t max_paths; /* per switch pair (0 = 1 << 20)                    */
    int connected;      /* 1: re-solve the whole connected component of
                           the event (below) instead of its bottleneck
                           closure; the same rates, more work               */
    int verify;         /* after every event, solve the whole active system
                           from scratch with tk_mm_solve (fair, rho 1) and
                           compare every rate (relative 1e-12); O(active
                           flows) or more per event: small instances only   */
    int check_bytes;    /* integrate every active flow's rate over every
                           interval between events (O(active) per event),
                           independently of the lazy bookkeeping, into
                           tk_sim_dyn_result_t.bytes                        */
    /* Called (when not NULL) every 65536 events and at the end, for a
     * progress line: simulated time, flows completed, flows in all. */
    void (*progress)(void *arg, double now, int64_t done, int64_t total);
    void *progress_arg;
} tk_sim_dyn_opts_t;
TK_API void tk_sim_dyn_opts_init(tk_sim_dyn_opts_t *o);

/* What a dynamic run gives.  Per flow i (workload order): start[i] (its
 * arrival), finish[i], size[i]; FCT = finish - start; slowdown = FCT /
 * size (1 for a flow alone on idle links: the ideal at link speed 1).
 * Counters show the locality of the re-solves: a solve is one progressive
 * filling (more than one per event when the bottleneck closure had to
 * grow), comp_flows the mean number of flows re-solved per event, against
 * mean_active, the mean number of active flows at an event. */
typedef struct tk_sim_dyn_result {
    int64_t nflows;
    double *start;        /* nflows: arrival times */
    double *finish;       /* nflows: completion times */
    double *size;         /* nflows: sizes */
    double *bytes;        /* nflows with check_bytes (the integral of the rate
                             over [start, finish]), else NULL */
    int64_t events;       /* arrivals + completions */
    int64_t solves;       /* progressive fillings run */
    int64_t expansions;   /* closures grown after a failed certificate */
    double comp_flows;    /* mean flows in an event's final component */
    double comp_res;      /* mean resources in it */
    int64_t comp_max;     /* largest component (flows) */
    double mean_active;   /* mean active flows after an event */
    int64_t max_active;   /* most flows active at once */
    int64_t pairs;        /* distinct switch pairs routed */
    double end;           /* last completion */
    int64_t verified;     /* with verify: rates compared */
    int64_t mismatches;   /* ... that differed by more than 1e-12 relative */
    double max_rel_diff;  /* largest relative difference seen */
    double max_bytes_err; /* with check_bytes: max |bytes - size| / size */
} tk_sim_dyn_result_t;

/* Simulate workload w on router r's graph and routing model until every
 * flow completes, into *out (caller-owned struct; free its arrays with
 * tk_sim_dyn_result_free).  w->nservers must equal the graph's servers.
 *
 * Events, in time order: a completion before an arrival at the same time,
 * completions at one time one by one (by flow number), arrivals in
 * workload order.  At an event the rates change only in the event's
 * component C, found from the resources of the arriving or departing flow
 * by closure: a resource is opened, which brings into C every flow whose
 * recorded bottleneck it is (connected: every flow on it); a flow in C
 * opens all its resources.  C is re-solved by exact progressive filling
 * (a heap of resource saturation levels) with every other flow's rate
 * fixed, i.e. on each resource's capacity minus the usage of the flows
 * outside C.  The result is accepted when it certifies itself: every flow
 * of C froze at a saturated resource on which no flow outside C is faster
 * (with the rates outside C unchanged and their bottlenecks untouched,
 * every flow then has a bottleneck, which characterises the max-min fair
 * allocation); else the faster outside flows join C and C is solved
 * again.  A flow's bytes are brought up to date only when its rate
 * changes (its last update time is kept), and completions come from a
 * heap of finish times: an event costs O(|C| route length log) time, not
 * O(active flows).  Deterministic: routes are computed in parallel (one
 * per distinct switch pair, each independent of the others), the
 * simulation is serial, so the bytes are the same at any thread count.
 *
 * Errors: TK_EINVAL (server count mismatch, bad options), TK_ELIMIT
 * (memory), TK_ENOMEM, the routing model's errors for a pair
 * (TK_ELIMIT: too many paths), TK_EINTERNAL (a re-solve failed to
 * certify; a bug).  Memory O(flows x route length + arcs + servers). */
TK_API tk_status_t tk_sim_dynamic(const tk_router_t *r, const tk_sim_workload_t *w,
                                  const tk_sim_dyn_opts_t *o, tk_sim_dyn_result_t *out,
                                  tk_error_t *err);
/* Free the arrays of a result (not the struct).  r may be NULL. */
TK_API void tk_sim_dyn_result_free(tk_sim_dyn_result_t *r);

/* Summary of one size bucket: flows of size in [lo, hi).  Percentiles by
 * the nearest-rank rule: the p-th percentile of n values is the
 * ceil(p n / 100)-th smallest (p50 of 1, 2 is 1). */
typedef struct tk_sim_bucket {
    double lo, hi;
    int64_t count;
    double fct_mean, fct_p50, fct_p99, fct_max;
    double sd_mean, sd_p50, sd_p99, sd_max; /* slowdown                     */
} tk_sim_bucket_t;

/* Bucket the flows of a result by size: edges == NULL gives the decades
 * [10^k, 10^(k+1)); else the nedges increasing edges e give the buckets
 * [0, e[0]), [e[0], e[1]), ..., [e[nedges-1], +inf) (nedges = 0: one bucket
 * of every flow).  Only non-empty buckets are listed, in increasing size,
 * in *out (caller frees with free()), *nout of them.  Errors: TK_EINVAL
 * (edges not positive, finite and increasing), TK_ENOMEM.
 * O(F log F). */
TK_API tk_status_t tk_sim_dyn_buckets(const tk_sim_dyn_result_t *r, const double *edges,
                                      int64_t nedges, tk_sim_bucket_t **out, int64_t *nout,
                                      tk_error_t *err);

#ifdef __cplusplus
}
#endif

#endif /* TK_SIM_H */
