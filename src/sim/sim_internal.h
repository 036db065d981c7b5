/*
 * sim_internal.h - what the simulator's files share: the coefficient list
 * of one switch pair's route (net.c builds the steady system from them,
 * dynamic.c its flows).
 */
#ifndef TK_SIM_INTERNAL_H
#define TK_SIM_INTERNAL_H

#include "tk_route.h"
#include "tk_sim.h"

/* The route of a switch pair (s, t) as resource coefficients: entry j is
 * arc arc[j] entered through input in[j] (the previous arc of the path,
 * or SIM_IN_INJECT for the first hop) with coefficient w[j] = the summed
 * weight of the paths that take arc arc[j] from input in[j]; and the
 * inputs the traffic reaches the destination's ejection link through:
 * ejin[k] (the last arc, or SIM_IN_INJECT when s == t) with weight ejw[k].
 * Sorted by (arc, in) and by ejin, equal keys merged; weights sum to 1 at
 * the ejection.  With a path index (split independent), only path `path`
 * of the set is taken, with weight 1. */
#define SIM_IN_INJECT (-1)
typedef struct sim_route {
    int64_t n, cap;
    int64_t *arc;
    int64_t *in;
    double *w;
    int64_t nej, capej;
    int64_t *ejin;
    double *ejw;
    /* hop statistics of the route (traffic-weighted over its paths) */
    double hops;                  /* mean hop count                */
    double chops[TK_MAX_CLASSES]; /* mean hops per link class      */
    int32_t maxhops;              /* longest path                  */
    double *hhist;                /* weight per hop count 0..maxhops */
    int64_t caph;
} sim_route_t;

void sim_route_init(sim_route_t *r);
void sim_route_destroy(sim_route_t *r);

/* Scratch of sim_route_from_paths_ws, one per thread: an index over the
 * graph's arcs (m + 1 entries, the last for the ejection) to the (arc,
 * input) pairs met so far, so that a route is merged in time linear in its
 * paths' length, without sorting them. */
typedef struct sim_route_ws {
    int64_t m;
    int64_t *head; /* m + 1: first pair of each arc, -1 none         */
    int64_t n, cap;
    int64_t *in, *next, *key;
    double *w;
    int64_t *touched; /* keys with pairs, in first-met order        */
    int64_t ntouched;
} sim_route_ws_t;
void sim_route_ws_init(sim_route_ws_t *ws);
void sim_route_ws_destroy(sim_route_ws_t *ws);

/* The route of (s, t) from the path set ps (already computed by
 * tk_route_paths for that pair); path < 0: all paths with their weights,
 * else path number `path` alone with weight 1.  The weights of one (arc,
 * input) are added in path order.  ws: the caller's scratch (grown to the
 * graph on first use); sim_route_from_paths makes a temporary one.
 * Errors: TK_ENOMEM. */
tk_status_t sim_route_from_paths_ws(const tk_graph_t *g, const tk_pathset_t *ps, int64_t path,
                                    sim_route_ws_t *ws, sim_route_t *out, tk_error_t *err);
tk_status_t sim_route_from_paths(const tk_graph_t *g, const tk_pathset_t *ps, int64_t path,
                                 sim_route_t *out, tk_error_t *err);

/* A class of interchangeable server-level flows: group gs to group gd,
 * weight w per member flow, count members. */
typedef struct fclass {
    int64_t gs, gd;
    double w;
    double count;
} fclass_t;

struct tk_sim_net {
    const tk_router_t *r;
    const tk_graph_t *g;
    tk_sim_opts_t o;
    int64_t nsrv;       /* servers of the simulation                     */
    int64_t *first;     /* n + 1: first server of each switch            */
    int64_t ngroups;    /* server groups                                 */
    double *gsize;      /* servers per group                             */
    tk_id_t *gsw;       /* switch of each group                          */
    int64_t *srv_group; /* nsrv: the group of each server                */
    int64_t nfc;        /* flow classes                                  */
    fclass_t *fc;
    int64_t *fc_var; /* nfc + 1: variables of each class (CSR)        */
    tk_mm_t mm;
    int64_t *vsrc; /* nvar: source group                            */
    double *x;     /* nvar: rates of the last solve                 */
    int64_t *bneck;
    int solved;
    double rho;
    /* traffic-weighted route statistics at offered load 1 */
    double wsum, hops, chops[TK_MAX_CLASSES];
    int32_t maxhops;
    double *hhist;
    /* adaptive routing (adaptive.c); NULL for an oblivious net */
    struct sim_adapt *ad;
};

/* What net.c offers adaptive.c. */
/* The resources and inputs of net->mm (arcs, then the groups' injection
 * and ejection links) and net->x / net->bneck for mm->nvar variables,
 * once the variables (demand, mult, voff, eres, ein, ecoef) and net->vsrc
 * are set.  Errors: TK_ENOMEM. */
tk_status_t sim_net_resources(tk_sim_net_t *net, tk_error_t *err);

/* The summary of the rates just solved at rho into *out (out->info is
 * left as it is): tk_sim_solve's, and the adaptive trace's accepted and
 * min_served.  Errors: TK_ENOMEM. */
tk_status_t sim_net_summarise(tk_sim_net_t *net, double rho, tk_sim_point_t *out, tk_error_t *err);

/* adaptive.c: build the candidates and the system of an adaptive net
 * (classes already made), solve it at rho to its fixed point (into
 * net->x, net->bneck, info), free it. */
tk_status_t sim_adapt_build(tk_sim_net_t *net, tk_error_t *err);
/* The memory budget of a build whose size is known only as it goes (the
 * routes of the switch pairs, the adaptive candidates), shared by the
 * threads that build: lim is net->o.mem_limit (0: the machine's memory),
 * or the memory available now when that is lower (then avail = 1: a
 * build that reached the machine's memory would be killed first).  The
 * count only grows, so whether it passes lim does not depend on the
 * threads. */
typedef struct sim_budget {
    uint64_t lim, held;
    int avail, over;
} sim_budget_t;
void sim_budget_init(sim_budget_t *b, const tk_sim_net_t *net);
/* 1 once the count has passed the limit (the build skips what is left). */
static inline int sim_budget_over(sim_budget_t *b)
{
    int v;
#pragma omp atomic read
    v = b->over;
    return v;
}
/* Count bytes (nothing without a limit). */
static inline void sim_budget_add(sim_budget_t *b, uint64_t bytes)
{
    uint64_t now;
    if (!b->lim)
        return;
#pragma omp atomic capture
    now = b->held += bytes;
    if (now > b->lim) {
#pragma omp atomic write
        b->over = 1;
    }
}
/* TK_ELIMIT: "MODEL: the WHAT of NP switch pairs would need more than
 * the memory limit of ... (TOPOKIT_MEMORY_LIMIT)", or "... than the
 * memory available, ...". */
tk_status_t sim_too_big(const char *model, const char *what, int64_t np, const sim_budget_t *b,
                        tk_error_t *err);
tk_status_t sim_adapt_solve(tk_sim_net_t *net, double rho, tk_mm_info_t *info, tk_error_t *err);
/* One epoch (tk_sim_epoch). */
tk_status_t sim_adapt_epoch(tk_sim_net_t *net, double rho, tk_mm_info_t *info, tk_error_t *err);
void sim_adapt_free(struct sim_adapt *ad);

/* Rule families (adapt_rules.c, adaptive.c): source-adaptive PiggyBack,
 * in-transit adaptive. */
static inline int adapt_is_src(tk_adapt_rule_t r)
{
    return r == TK_ADAPT_SRC_RRG || r == TK_ADAPT_SRC_CRG;
}

static inline int adapt_is_transit(tk_adapt_rule_t r)
{
    return r == TK_ADAPT_IT_CRG || r == TK_ADAPT_IT_RRG || r == TK_ADAPT_IT_MM;
}

/* dgb and edgb: a bias per source router, tuned by gradient steps */
static inline int adapt_is_dgb(tk_adapt_rule_t r)
{
    return r == TK_ADAPT_DGB || r == TK_ADAPT_EDGB;
}

/* ugal-le's minimal-cost estimate (its contention term) */
static inline int adapt_is_le(tk_adapt_rule_t r)
{
    return r == TK_ADAPT_UGAL_LE || r == TK_ADAPT_EDGB;
}

#endif /* TK_SIM_INTERNAL_H */
