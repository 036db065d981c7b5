/*
 * route_internal.h - shared internals of the routing models (src/route/).
 * Not installed.
 */
#ifndef TK_ROUTE_INTERNAL_H
#define TK_ROUTE_INTERNAL_H

#include "tk_core.h"
#include "tk_metric.h"
#include "tk_route.h"

#define RT_NCACHE 4

struct tk_router {
    const tk_graph_t *g;
    tk_route_spec_t spec;
    tk_graph_t *rg;               /* reversed graph (directed graphs), else NULL      */
    int weighted;                 /* some class has a hop length other than 1          */
    int32_t clen[TK_MAX_CLASSES]; /* hop length per class index              */
    int32_t *table;               /* all-pairs: table[t*n + v] = d(v, t), or NULL      */
    /* Groups (dragonfly-*). */
    int global_cls;  /* class index of "global", -1 if none               */
    int32_t ngroups; /* groups, renumbered 0..ngroups-1 by first id       */
    int32_t *gof;    /* n: renumbered group of each switch                */
    int32_t *gstart; /* ngroups+1: members gmem[gstart[g] .. ]            */
    tk_id_t *gmem;   /* n switches sorted by (group, id)                  */
    int32_t *lidx;   /* n: index of the switch in its group               */
    int64_t *ldoff;  /* ngroups: offset of the group's local table        */
    int32_t *ldist;  /* local hop distances (intra-group, non-global)     */
    int64_t *gaoff;  /* ngroups^2+1: global arcs from group i to group j  */
    int64_t *garc;   /*   are garc[gaoff[i*ngroups+j] .. ] (sorted ids)   */
};

typedef struct rt_rank {
    int64_t seq, at;
} rt_rank_t;

struct tk_route_ws {
    const tk_router_t *r;
    tk_id_t n;
    /* distance cache: key = 2*node + dir (dir 0: d(., node), 1: d(node, .)) */
    int32_t *dc[RT_NCACHE];
    int64_t dkey[RT_NCACHE];
    uint64_t dtime[RT_NCACHE];
    uint64_t clock;
    tk_id_t *queue; /* n                                                */
    int64_t *heap;  /* m + 1 (Dijkstra entries: dist << 32 | node)      */
    /* DAG counting */
    uint32_t *stamp; /* n                                                */
    uint32_t epoch;
    double *cnt, *hsum, *eh; /* n                                             */
    int32_t *hmin, *hmax;    /* n                                             */
    int32_t *nnext;          /* n: DAG out-arcs with a path to t              */
    tk_id_t *stk;            /* n + 1                                            */
    int64_t *sarc;           /* n + 1                                            */
    int64_t *path;           /* 2n + 4 arcs                                      */
    double *pw;              /* 2n + 4 weights along the path                    */
    uint8_t *onpath;         /* n                                                */
    int32_t *mind;           /* n + 1                                            */
    /* ksp spread: the paths kept so far (a max-heap on their keys) */
    uint64_t *skey;   /* scap: key of each kept path                      */
    int64_t *sseq;    /* scap: its rank in the enumeration order          */
    int64_t *shops;   /* scap: its hop count                              */
    int64_t *sbuf;    /* scap * sstride arcs                              */
    rt_rank_t *srank; /* scap: the kept paths sorted by rank              */
    int64_t scap, sstride, sbufcap;
    tk_pathset_t seg1, seg2, tmp;    /* valiant segments, tk_route_count  */
    tk_pathset_t lp1, lp2, dv1, dv2; /* dragonfly local / segment paths  */
};

/* Append a path to ps (grows its arrays).  TK_ENOMEM on failure. */
tk_status_t rt_ps_push(tk_pathset_t *ps, const int64_t *arcs, int64_t len, double w,
                       tk_error_t *err);
/* Empty ps (keeps its memory). */
static inline void rt_ps_clear(tk_pathset_t *ps)
{
    ps->npaths = 0;
    if (ps->off)
        ps->off[0] = 0;
}
/* Sort the paths of ps by their arc sequences and merge equal ones (their
 * weights add up). */
tk_status_t rt_ps_merge(tk_pathset_t *ps, tk_error_t *err);

static inline int32_t rt_len(const tk_router_t *r, int64_t a)
{
    return r->weighted && r->g->cls ? r->clen[r->g->cls[a]] : 1;
}

/* d(v, t) for every v (dir 0) or d(s, v) for every v (dir 1), weighted
 * by the model's hop lengths: a table row or a cached computation. */
const int32_t *rt_dist_to(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t t);
const int32_t *rt_dist_from(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s);
/* d(u, v) single value */
int32_t rt_dist(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t u, tk_id_t v);

/* Models. */
#define RT_DAG_MIN 0
#define RT_DAG_ECMP 1
#define RT_DAG_POLAR 2
tk_status_t rt_dag_paths(const tk_router_t *r, tk_route_ws_t *ws, int mode, tk_id_t s, tk_id_t t,
                         uint64_t max_paths, tk_pathset_t *out, tk_error_t *err);
tk_status_t rt_dag_count(const tk_router_t *r, tk_route_ws_t *ws, int mode, tk_id_t s, tk_id_t t,
                         tk_route_count_t *out, tk_error_t *err);
/* Number of DAG paths (min DAG) without stats; -1 on no path. */
tk_status_t rt_simple_paths(const tk_router_t *r, tk_route_ws_t *ws, int ksp, tk_id_t s, tk_id_t t,
                            uint64_t max_paths, tk_pathset_t *out, tk_error_t *err);
tk_status_t rt_valiant_paths(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s, tk_id_t t,
                             uint64_t max_paths, tk_pathset_t *out, tk_error_t *err);
tk_status_t rt_dragonfly_prepare(tk_router_t *r, tk_error_t *err);
tk_status_t rt_dfmin_paths(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s, tk_id_t t,
                           uint64_t max_paths, tk_pathset_t *out, tk_error_t *err);
tk_status_t rt_dfval_paths(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s, tk_id_t t,
                           uint64_t max_paths, tk_pathset_t *out, tk_error_t *err);

#endif
