/*
 * route_internal.h - what the routing models of src/route/ share: the
 * router and workspace structures, the table of operations every model
 * fills, distances, path-set building and demand rows.  Not installed;
 * hidden.  src/load/ reaches the models' load engines through
 * route_load.h only.
 */
#ifndef TK_ROUTE_INTERNAL_H
#define TK_ROUTE_INTERNAL_H

#include "tk_core.h"
#include "tk_metric.h"
#include "tk_par.h"
#include "tk_route.h"
#include "metric/bfs_internal.h"
#include "route/route_load.h"

#define RT_NCACHE 4

/* Dragonfly structure (dragonfly.c), built by the dragonfly models. */
typedef struct rt_groups {
    int global_cls;  /* class index of "global"                               */
    int32_t ngroups; /* groups, renumbered 0..ngroups-1 by increasing id      */
    int32_t *gof;    /* n: renumbered group of each switch                     */
    int32_t *gstart; /* ngroups+1: members gmem[gstart[g] .. gstart[g+1]-1]    */
    tk_id_t *gmem;   /* n switches sorted by (group, id)                       */
    int32_t *lidx;   /* n: index of the switch in its group                    */
    int64_t *ldoff;  /* ngroups: offset of the group's local distance table    */
    int32_t *ldist;  /* local hop distances (intra-group, non-global arcs)     */
    int64_t *gaoff;  /* ngroups^2+1: global arcs from group i to group j are   */
    int64_t *garc;   /*   garc[gaoff[i*ngroups+j] .. ] (sorted arc ids)        */
} rt_groups_t;

typedef struct rt_model rt_model_t;

struct tk_router {
    const tk_graph_t *g;
    tk_route_spec_t spec;
    const rt_model_t *model;
    tk_graph_t *rg;                /* reversed graph (directed graphs), else NULL */
    int weighted;                  /* some class has a hop length other than 1    */
    int32_t clen[TK_MAX_CLASSES];  /* hop length per class index                  */
    int32_t *table;                /* all-pairs: table[t*n + v] = d(v, t), or NULL */
    rt_groups_t *df;               /* dragonfly-*: the group structure            */
    void *aux;                     /* a model's own state (dor), or NULL          */
    void (*aux_free)(void *);      /* frees aux                                   */
    tk_progress_t *progress;       /* observer of the engines' loops, or NULL     */
    const tk_par_runner_t *runner; /* tk_router_set_runner, or NULL */
};

typedef struct rt_rank {
    int64_t seq, at;
} rt_rank_t;

/* Per-thread scratch of a router.  The arrays below serve every model; a
 * model uses what it needs. */
struct tk_route_ws {
    const tk_router_t *r;
    tk_id_t n;
    /* distance cache: key = 2*node + dir (dir 0: d(., node), 1: d(node, .)) */
    int32_t *dc[RT_NCACHE];
    int64_t dkey[RT_NCACHE];
    uint64_t dtime[RT_NCACHE];
    uint64_t clock;
    tk_lbfs_t bfs; /* unweighted searches of the cache                  */
    int64_t *heap; /* m + 1 (Dijkstra entries: dist << 32 | node)       */
    /* DAG counting */
    uint32_t *stamp; /* n                                                */
    uint32_t epoch;
    double *cnt, *hsum, *eh; /* n                                         */
    int32_t *hmin, *hmax;    /* n                                         */
    int32_t *nnext;          /* n: DAG out-arcs with a path to t          */
    tk_id_t *stk;            /* n + 1                                     */
    int64_t *sarc;           /* n + 1                                     */
    int64_t *path;           /* 2n + 4 arcs                               */
    double *pw;              /* 2n + 4 weights along the path             */
    uint8_t *onpath;         /* n                                         */
    int32_t *mind;           /* n + 1                                     */
    /* ksp spread: the paths kept so far (a max-heap on their keys) */
    uint64_t *skey;   /* scap: key of each kept path                      */
    int64_t *sseq;    /* scap: its rank in the enumeration order          */
    int64_t *shops;   /* scap: its hop count                              */
    int64_t *sbuf;    /* scap * sstride arcs                              */
    rt_rank_t *srank; /* scap: the kept paths sorted by rank              */
    int64_t scap, sstride, sbufcap;
    tk_pathset_t seg1, seg2, tmp;    /* segments of two-phase paths, counts */
    tk_pathset_t lp1, lp2, dv1, dv2; /* dragonfly local / segment paths     */
};

/* ------------------------------------------------------------------------ */
/* The table of operations of a routing model.  One per model (one file
 * each, or a few small models per file); route.c dispatches through it and
 * nothing outside src/route/ looks at a model's kind.                      */

/* Distance table policy of a model (tk_router_new). */
typedef enum rt_table {
    RT_TABLE_NONE,  /* never built                                        */
    RT_TABLE_SMALL, /* only when n <= 2048 (16 MiB, O(n m) to build)      */
    RT_TABLE_WANT,  /* when it fits the memory cap, else cached searches   */
    RT_TABLE_NEED   /* required: refused with TK_ELIMIT when it does not fit */
} rt_table_t;

/* What a model's text form takes besides its name (tk_route_parse). */
#define RT_OPT_K 1        /* ":K", stored in spec.k (required)             */
#define RT_OPT_H 2        /* ":H", stored in spec.h (required)             */
#define RT_OPT_SPREAD 4   /* ",spread"                                     */
#define RT_OPT_VALIANT 8  /* ",all" / ",exclude" / ",minfirst"             */
#define RT_OPT_WEIGHTS 16 /* ",CLASS=LEN" hop lengths                     */

struct rt_model {
    tk_route_kind_t kind;
    const char *name;
    int opts;         /* RT_OPT_* */
    int pathset_only; /* the path set of an adaptive rule (tk_route_pathset_only) */
    rt_table_t table;
    /* Model state for r->g, after the common part of tk_router_new (hop
     * lengths, reverse graph, connectivity, distance table).  NULL: none. */
    tk_status_t (*prepare)(tk_router_t *r, int threads, tk_error_t *err);
    /* The weighted path set of s != t (out is empty on entry). */
    tk_status_t (*paths)(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s, tk_id_t t,
                         uint64_t max_paths, tk_pathset_t *out, tk_error_t *err);
    /* Path count and lengths of s != t.  NULL: enumerate the paths. */
    tk_status_t (*count)(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s, tk_id_t t,
                         tk_route_count_t *out, tk_error_t *err);
    /* Adaptive candidates of s != t (out's path sets empty on entry).
     * NULL: the model's paths are the minimal candidates, no groups. */
    tk_status_t (*candidates)(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s, tk_id_t t,
                              uint64_t max_paths, tk_route_cands_t *out, tk_error_t *err);
    /* Two-phase models: the paths of one segment u -> v (u == v: one empty
     * path; TK_EUNSUPPORTED when some pair of this graph routes otherwise,
     * e.g. without intermediate), and whether m may be the intermediate of
     * a pair with endpoint x: pair (s, t) draws exactly the m with
     * via_ok(s, m) and via_ok(t, m), each path one segment s -> m then one
     * m -> t.  NULL: no segments (the VC analysis lists paths). */
    tk_status_t (*segment)(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t u, tk_id_t v,
                           uint64_t max_paths, tk_pathset_t *out, tk_error_t *err);
    int (*via_ok)(const tk_router_t *r, tk_id_t x, tk_id_t m);
    /* A faster load engine than path enumeration (route_load.h).  NULL, or
     * TK_EUNSUPPORTED from it: the generic per-pair engine. */
    tk_status_t (*load)(const tk_router_t *r, const tk_rows_t *rows, tk_load_job_t *job,
                        tk_error_t *err);
};

/* The model of a kind, or by name (NULL when unknown); the names in kind
 * order, for messages (route.c). */
const rt_model_t *rt_model_of(tk_route_kind_t kind);
const rt_model_t *rt_model_named(const char *name);

extern const rt_model_t rt_model_min, rt_model_ecmp, rt_model_polarized, rt_model_ksp,
    rt_model_allpath, rt_model_valiant, rt_model_dfmin, rt_model_dfvaliant, rt_model_dfcrg;
extern const rt_model_t rt_model_dor, rt_model_vdor;
extern const rt_model_t rt_model_dfugal, rt_model_dfpar, rt_model_dfolm; /* dfadapt.c */

/* Dimension-order routing (dor.c), shared with valiant,dor (vdor.c): its
 * preparation (sets aux) and the dor paths of s -> t (s == t: one empty
 * path). */
tk_status_t rt_dor_prepare(tk_router_t *r, int threads, tk_error_t *err);
tk_status_t rt_dor_paths(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s, tk_id_t t,
                         uint64_t max_paths, tk_pathset_t *out, tk_error_t *err);

/* ------------------------------------------------------------------------ */
/* Path sets (pathset.c). */

/* Append a path to ps (grows its arrays): arcs[0 .. len-1], weight w,
 * intermediate via (-1 none) and second-phase start phase2 (-1 none).
 * TK_ENOMEM on failure. */
tk_status_t rt_ps_push_via(tk_pathset_t *ps, const int64_t *arcs, int64_t len, double w,
                           tk_id_t via, int32_t phase2, tk_error_t *err);
static inline tk_status_t rt_ps_push(tk_pathset_t *ps, const int64_t *arcs, int64_t len, double w,
                                     tk_error_t *err)
{
    return rt_ps_push_via(ps, arcs, len, w, -1, -1, err);
}
/* Empty ps (keeps its memory). */
static inline void rt_ps_clear(tk_pathset_t *ps)
{
    ps->npaths = 0;
    if (ps->off)
        ps->off[0] = 0;
}
/* Sort the paths of ps by their arc sequences, then by intermediate, ties
 * in their present order; merge == 1 also merges equal walks (weights
 * added in that order). */
tk_status_t rt_ps_sort(tk_pathset_t *ps, int merge, tk_error_t *err);
/* Every path of src appended to dst with its weight times scale. */
tk_status_t rt_ps_append(tk_pathset_t *dst, const tk_pathset_t *src, double scale, tk_error_t *err);
/* Count, lengths and traffic-weighted mean length of a path set. */
void rt_ps_count(const tk_pathset_t *ps, tk_route_count_t *out);
/* The concatenations a.b of every path of a with every path of b, weight
 * scale * w_a * w_b, via, and phase2 = its length in a (or the whole path
 * when phase2_end), appended to out in (a, b) order. */
tk_status_t rt_ps_concat(const tk_pathset_t *a, const tk_pathset_t *b, double scale, tk_id_t via,
                         int phase2_end, int64_t *buf, tk_pathset_t *out, tk_error_t *err);
/* Does some path of ps have an intermediate? */
static inline int rt_ps_has_via(const tk_pathset_t *ps)
{
    for (int64_t i = 0; i < ps->npaths; i++)
        if (ps->via[i] >= 0)
            return 1;
    return 0;
}
/* buf[a] += wd * w[i] for every arc a of every path i, in path order;
 * TK_EDISCONNECTED (naming s and t) for an empty set. */
tk_status_t rt_ps_accumulate(const tk_pathset_t *ps, tk_id_t s, tk_id_t t, double wd, double *buf,
                             tk_error_t *err);
/* TK_ELIMIT when out holds more than max_paths paths (0: no limit). */
tk_status_t rt_ps_check_max(tk_id_t s, tk_id_t t, uint64_t max_paths, const tk_pathset_t *out,
                            tk_error_t *err);

/* ------------------------------------------------------------------------ */
/* Distances (dist.c): d(u, v) with the model's hop lengths. */

static inline int32_t rt_len(const tk_router_t *r, int64_t a)
{
    return r->weighted && r->g->cls ? r->clen[r->g->cls[a]] : 1;
}
/* d(v, t) for every v, or d(s, v) for every v: a table row or a cached
 * search (grouped by target, callers pay one search per target). */
const int32_t *rt_dist_to(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t t);
const int32_t *rt_dist_from(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s);
int32_t rt_dist(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t u, tk_id_t v);
/* Connectivity check and the distance table of the model's policy. */
tk_status_t rt_dist_prepare(tk_router_t *r, int threads, uint64_t mem_limit, tk_error_t *err);

/* ------------------------------------------------------------------------ */
/* Shared path engines. */

/* DAG models (dag.c): min, ecmp and polarized paths and counts. */
#define RT_DAG_MIN 0
#define RT_DAG_ECMP 1
#define RT_DAG_POLAR 2
tk_status_t rt_dag_paths(const tk_router_t *r, tk_route_ws_t *ws, int mode, tk_id_t s, tk_id_t t,
                         uint64_t max_paths, tk_pathset_t *out, tk_error_t *err);
tk_status_t rt_dag_count(const tk_router_t *r, tk_route_ws_t *ws, int mode, tk_id_t s, tk_id_t t,
                         tk_route_count_t *out, tk_error_t *err);

/* Simple paths (simple.c): the K shortest (ksp = 1) or all of at most H
 * hops (ksp = 0). */
tk_status_t rt_simple_paths(const tk_router_t *r, tk_route_ws_t *ws, int ksp, tk_id_t s, tk_id_t t,
                            uint64_t max_paths, tk_pathset_t *out, tk_error_t *err);

/* Candidates of a model without intermediates: its paths are the minimal
 * candidates (candidates.c). */
tk_status_t rt_cands_finish(const tk_router_t *r, tk_route_cands_t *out, tk_error_t *err);
tk_status_t rt_cands_add_group(tk_route_cands_t *out, tk_id_t via, double w, tk_error_t *err);

/* ------------------------------------------------------------------------ */
/* Load engines shared between models. */

/* The min engine (min.c, Brandes-style accumulation per source) on rows
 * given by a fill function: fill(ctx, s, wt) writes source s's dense row
 * into wt (all zero on entry) and returns 0 when it is empty; clear(ctx,
 * s, wt) sets it back to zero.  bound: an upper bound of every arc's load.
 * The job owns nothing of ctx. */
typedef int (*rt_fill_fn)(const void *ctx, tk_id_t s, double *wt);
typedef void (*rt_clear_fn)(const void *ctx, tk_id_t s, double *wt);
tk_status_t rt_min_job(const tk_graph_t *g, const void *fctx, rt_fill_fn fill, rt_clear_fn clear,
                       double bound, tk_load_job_t *job, tk_error_t *err);
/* min (ecmp = 0) or ecmp (ecmp = 1) with hop lengths: Dial's buckets
 * (weighted.c).  TK_EUNSUPPORTED when the lengths could overflow. */
tk_status_t rt_weighted_job(const tk_router_t *r, const tk_rows_t *rows, int ecmp,
                            tk_load_job_t *job, tk_error_t *err);
/* Demand columns: the rows transposed, by destination (ecmp.c).  Column t
 * is src[off[t] .. off[t+1]-1] with weights w[...], sources in order,
 * self-demands dropped.  NULL arrays for the all-to-all. */
typedef struct rt_cols {
    int64_t *off;
    tk_id_t *src;
    double *w;
} rt_cols_t;
tk_status_t rt_cols_new(const tk_rows_t *rows, rt_cols_t *out, tk_error_t *err);
void rt_cols_free(rt_cols_t *c);
/* The dense row of source s of plain rows (rows.c), and its clearing. */
int rt_rows_fill(const void *rows, tk_id_t s, double *wt);
void rt_rows_clear(const void *rows, tk_id_t s, double *wt);

#endif /* TK_ROUTE_INTERNAL_H */
