/*
 * adapt_internal.h - what adaptive.c (candidates, signals, the fixed
 * point) and adapt_polar.c (polarized-adaptive) share: the candidate
 * structures of a switch pair and the adaptive state.  Not installed.
 */
#ifndef TK_SIM_ADAPT_INTERNAL_H
#define TK_SIM_ADAPT_INTERNAL_H

#include "sim/maxmin_internal.h"
#include "sim_internal.h"

#define AD_INJ                                                                                     \
    (-1) /* input: the source's injection port (or the start                                       \
            of a decision's own route) */

typedef struct ad_alt {
    int64_t off, n; /* its (key, weight) entries in the pair's ak/aw      */
    double hops;    /* traffic-weighted mean hop count (per class: the
                       pair's chops)                                      */
    int64_t hoff;   /* its hop histogram in the pair's hist (maxhops + 1) */
    int32_t maxhops;
    int minimal;    /* 1: a minimal route                                 */
    int64_t sin;    /* the input its first hop is entered from (AD_INJ, or
                       the prefix arc)                                     */
    int64_t nfirst; /* its first-hop entries: the first nfirst of its own  */
} ad_alt_t;

typedef struct ad_child {
    int alt;   /* 1: an alternative, 0: a decision                         */
    int64_t i; /* its index                                                 */
    double pi; /* fraction of the decision's minimal traffic               */
} ad_child_t;

typedef struct ad_dec {
    tk_id_t at;     /* the deciding router                                */
    int64_t in;     /* its first hop's input key (AD_INJ or the prefix arc) */
    int64_t cost;   /* alternative (cost only) of its minimal route       */
    double pre;     /* hops taken before it (0, or 1 for the prefix)       */
    int64_t g0, ng; /* its non-minimal alternatives                       */
    int64_t y0;     /* its shares in the pair's y (ng of them)            */
    int64_t c0, nc; /* its minimal children in the pair's child list      */
    int direct;     /* ugal-le: `at` has a global link to the destination
                       group                                              */
} ad_dec_t;

typedef struct ad_pair {
    tk_id_t s, t;
    int64_t nk;   /* union keys                                       */
    int64_t *key; /* nk: arc id, or m for the ejection link           */
    int64_t *kin; /* nk: input arc, or AD_INJ                         */
    int64_t nalt;
    ad_alt_t *alt;
    int64_t *ak;   /* entries of every alternative: union key index    */
    double *aw;    /* ... and weight                                   */
    double *hist;  /* hop histograms                                   */
    double *chops; /* nalt x ncls: mean hops per link class of each
                      alternative                                      */
    int32_t ncls;  /* the graph's link classes (at least 1)            */
    double *gw;    /* per non-minimal alternative: its draw weight     */
    int64_t ndec;
    ad_dec_t *dec;
    ad_child_t *child;
    int64_t nchild;
    int64_t ny;
    double *y, *ynew;     /* shares                                           */
    double *gy;           /* dgb, edgb (ny): the share's dy/db x (L_nm - L_min)
                             of the last targets, times its draw weight     */
    double *share;        /* nalt: traffic share of every alternative         */
    double *acc;          /* nk: coefficient per member (sum share x weight)  */
    int32_t dgroup;       /* group of t (ugal-le)                             */
    int64_t *sk, nsk;     /* ugal-le: the keys whose arc ends in the source
                             group, in key order                          */
    double cmin;          /* decision 0's minimal cost in the last iteration  */
    int32_t cmax;         /* ugal-le: largest C - 1 used in the last iteration */
    struct ad_polar *pol; /* polarized-adaptive: the pair's DAG (no
                             alternatives, decisions or children)         */
} ad_pair_t;

struct sim_adapt {
    tk_adapt_t a;
    int64_t npairs;
    ad_pair_t *pair;
    int64_t *cls_pair; /* nfc: the pair of each class                      */
    /* per-iteration scratch */
    double *use, *blk;    /* m: carried and held-back traffic             */
    double *lq;           /* m: log(1 - pz), for ugal-g                    */
    double *qd, *pz, *qr; /* m: occupancy: the held-back share phi, and
                             the M/M/1 fluctuation, non-zero with
                             probability pz and then of mean qr           */
    struct ad_arcq *aq;   /* m: the occupancy terms alt_costs reads, side
                             by side (signals)                            */
    int64_t *mark;        /* m: stamps of the upstream marking            */
    int64_t *wl;          /* m: its work list                             */
    int64_t stamp;
    sim_fair_ws_t *fws; /* the fair solver's work arrays, kept          */
    /* ugal-le counters: T[(router, index in group, group)] */
    int32_t ngroup_topo; /* Dragonfly groups                             */
    int32_t amax;        /* routers per group (largest)                  */
    int32_t *gidx;       /* n: index of a router within its group        */
    double *cnt;         /* n * amax * ngroup_topo                       */
    int32_t *C;          /* n * ngroup_topo                              */
    /* src-*: the saturation flag's probability per arc (global arcs) */
    int gcls;     /* class index of "global" (-1: none)                */
    double *flag; /* m                                                 */
    double *bufa; /* m: B of every arc (buffer, or gbuf on global arcs) */
    /* in-transit-mm: the dragonfly-valiant router of the NRG candidates */
    tk_router_t *rrg;
    /* dgb, edgb: per router, its bias, and the gradient's weighted sum
     * and weight of the last iteration */
    double *rb, *rg, *rw;
    double *rd, *rgp; /* the outer loop: every router's last bias step
                         size and the gradient it took (bias_rprop)    */
    int64_t nrb;
    double bmax;   /* |b_r| <= bmax: buffer x the longest alternative */
    double gfree;  /* the last iteration's largest |dL_r/db_r| over the
                      routers the clamp does not hold                  */
    int64_t outer; /* the outer loop's split solve (from 1)            */
    /* the last solve */
    int solved;
    int stepping;  /* epoch mode: the split carries over between calls */
    int64_t epoch; /* epochs taken                                    */
    tk_adapt_info_t info;
    /* the trace (tk_sim_opts_t.trace): the previous iteration's
     * bottlenecks (nfc) and mean occupancies (m), allocated on first use */
    int64_t *tr_bneck;
    double *tr_q;
    int tr_have; /* 1: they hold an iteration of this solve or epoch series */
};

/* One arc's occupancy terms as alt_costs sums them (signals fills them
 * from qd, pz, qr, lq and bufa): d = qd B when qd > 0 (else 0), p = pz,
 * pm = pz qr when pz > 0 (else 0), b = B, lq. */
typedef struct ad_arcq {
    double d, p, pm, b, lq;
} ad_arcq_t;

/* ------------------------------------------------------------------------ */
/* polarized-adaptive (adapt_polar.c): a split at every router of the
 * polarized DAG. */

/* The DAG of one pair (the polarized model's, dag.c): its nodes in
 * topological order (s first, t last), its arcs j grouped by tail in that
 * order (y[j]: the share of the pair's traffic at the tail that takes
 * j), and the (arc, input) entries in the same order, each with its
 * union key. */
typedef struct ad_polar {
    int64_t narc;
    int64_t *arc; /* narc: graph arc                                  */
    int64_t *hd;  /* narc: node index of its head                     */
    double *cnt;  /* narc: DAG paths from its head to t (prior weight) */
    double *hh;   /* narc: 1 + d(head, t)                              */
    char *mn;     /* narc: a minimal hop (d(head,t) = d(tail,t) - 1)   */
    int64_t nnode;
    int64_t *noff; /* nnode + 1: the arcs of each tail                  */
    int64_t nent;
    int64_t *ej; /* nent: DAG arc, -1 for the ejection               */
    int64_t *eb; /* nent: input DAG arc, -1 for the injection        */
    int64_t *ek; /* nent: union key                                  */
    double *f;   /* narc: the pair's traffic on each arc (pair_acc)  */
    int32_t maxhops;
    /* statistics of the current split (polar_stats) */
    double ehops, pmin, chops[TK_MAX_CLASSES];
    double *hist; /* maxhops + 1 */
} ad_polar_t;

/* Scratch of polar_build, one per thread. */
typedef struct polar_ws {
    tk_id_t n, last_s;
    int32_t *ds, *dt;
    double *cnt;
    int64_t *idx;  /* node index in the DAG, -1 none */
    int64_t *ord;  /* switches sorted by f          */
    int64_t *ioff; /* in-arc CSR of the DAG          */
    int64_t *iarc;
} polar_ws_t;

void ad_polar_free(ad_polar_t *q);
uint64_t ad_polar_bytes(const ad_polar_t *q); /* 0 for NULL */
void ad_polar_ws_destroy(polar_ws_t *w);
int ad_polar_ws_init(polar_ws_t *w, const tk_graph_t *g);
tk_status_t ad_polar_build(const tk_graph_t *g, ad_pair_t *p, polar_ws_t *w, tk_error_t *err);
void ad_polar_prior(ad_pair_t *p);
void ad_polar_acc(ad_pair_t *p);
void ad_polar_stats(ad_pair_t *p, const tk_graph_t *g);
double ad_polar_targets(const struct sim_adapt *ad, ad_pair_t *p, double *cmin_out);

/* The rule's first split of every pair and the rate system from it
 * (adaptive.c; the last step of sim_adapt_build, adapt_build.c).
 * Errors: TK_ENOMEM. */
tk_status_t ad_first_split(tk_sim_net_t *net, tk_error_t *err);

/* ------------------------------------------------------------------------ */
/* The candidates of one switch pair (adapt_cand.c). */

void ad_pair_free(ad_pair_t *p);
/* The bytes pair p's candidates hold (its arrays, the polarized DAG's
 * included), for the memory limit. */
uint64_t ad_pair_bytes(const ad_pair_t *p);
/* The candidates of pair p for rule a.  ws, ws2, rws: the thread's route
 * workspaces; c, c2: candidate scratch; r: a route scratch.  Errors:
 * TK_ENOMEM, TK_ELIMIT (more paths than the limit), the router's. */
tk_status_t ad_build_pair(const tk_sim_net_t *net, const tk_adapt_t *a, ad_pair_t *p,
                          tk_route_ws_t *ws, tk_route_ws_t *ws2, sim_route_ws_t *rws,
                          tk_route_cands_t *c, tk_route_cands_t *c2, sim_route_t *r,
                          tk_error_t *err);

/* ------------------------------------------------------------------------ */
/* Anderson acceleration of the fixed point (adapt_accel.c). */

#define AD_AA_M 5 /* differences held */

typedef struct ad_aa {
    int64_t n;                     /* shares                                        */
    int64_t *yoff;                 /* npairs + 1: each pair's first share           */
    double *g, *f;                 /* (AD_AA_M + 1) x n ring of g_i and f_i          */
    int h, head;                   /* values held; slot of the newest               */
    double gram[AD_AA_M][AD_AA_M]; /* [k][l], l <= k: the differences'
                                      products, oldest first         */
} ad_aa_t;

int ad_aa_init(ad_aa_t *A, const struct sim_adapt *ad);
void ad_aa_free(ad_aa_t *A);
void ad_aa_reset(ad_aa_t *A);
/* 1 when Anderson's extrapolation was taken, 0 for the plain damped
 * step. */
int ad_aa_step(struct sim_adapt *ad, ad_aa_t *A, double damp, int nth);
/* Solve the h x h system M x = b (symmetric positive semi-definite, M
 * regularised; M is overwritten) by Gaussian elimination with partial
 * pivoting, x into b: 1, or 0 when singular or not finite.  Shared with
 * test_adaccel's full-recomputation reference. */
int ad_aa_lsolve(int h, double M[AD_AA_M][AD_AA_M], double *b);

#endif /* TK_SIM_ADAPT_INTERNAL_H */
