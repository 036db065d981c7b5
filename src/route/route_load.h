/*
 * route_load.h - the routing models' load engines, as src/load/ (and
 * later the simulator and the VC analysis) call them.  Not installed;
 * hidden.
 *
 * A model with a faster way than path enumeration (the sigma-DP of min and
 * valiant, the per-hop DP of ecmp, the depth-H search of allpath, the
 * aggregate demands of dragonfly-valiant, Dial's buckets for hop lengths)
 * turns a router and a demand set into a job for the parallel driver
 * (tk_par.h): `units` sources or destinations, accumulator width m (one
 * entry per arc), every unit adding its loads.  Otherwise tk_route_load_job
 * says TK_EUNSUPPORTED and the caller enumerates each pair's paths
 * (tk_route_pair_load).  Loads are in the units of the demand weights.
 */
#ifndef TK_ROUTE_LOAD_H
#define TK_ROUTE_LOAD_H

#include "tk_par.h"
#include "tk_route.h"

/* Switch-level demand rows: the demands of source s are dst[off[s] ..
 * off[s+1]-1] with weights w[...] (self-demands ignored), or, with off ==
 * NULL, the implicit all-to-all: srcw[s] (1 when srcw == NULL) from every
 * switch s to every other switch. */
typedef struct tk_rows {
    tk_id_t n;
    const int64_t *off;
    const tk_id_t *dst;
    const double *w;
    const double *srcw;
} tk_rows_t;

/* Total demand (the sum of every weight; all-to-all: srcw[s] (n-1) summed). */
double tk_rows_total(const tk_rows_t *rows);
/* TK_EINVAL for rows of another switch count, a destination out of range
 * or a weight that is negative or not finite (the message names it). */
tk_status_t tk_rows_check(const tk_graph_t *g, const tk_rows_t *rows, tk_error_t *err);

/* A load job and what the job's context holds (released by
 * tk_load_job_release). */
typedef struct tk_load_job {
    tk_par_job_t par;
    void *owner;
    void (*release)(void *owner);
} tk_load_job_t;

void tk_load_job_release(tk_load_job_t *job);

/* The router's model's load engine for rows (checked by the caller with
 * tk_rows_check).  TK_EUNSUPPORTED (err untouched): the model has none for
 * this graph or these options; enumerate.  Other errors: TK_ENOMEM,
 * TK_ELIMIT. */
tk_status_t tk_route_load_job(const tk_router_t *r, const tk_rows_t *rows, tk_load_job_t *job,
                              tk_error_t *err);

/* Add the load of pair (s, t) at demand wd into buf (m entries): wd times
 * each path's weight on each of its arcs; the walks of paths through
 * different intermediates are merged first, so the sums are those of the
 * distinct walks.  At most max_paths paths (TK_ELIMIT beyond);
 * TK_EDISCONNECTED when the pair has no path. */
tk_status_t tk_route_pair_load(const tk_router_t *r, tk_route_ws_t *ws, tk_pathset_t *ps, tk_id_t s,
                               tk_id_t t, double wd, uint64_t max_paths, double *buf,
                               tk_error_t *err);

/* A router of g without the connectivity check and without distance
 * tables, for tests of the load engines on graphs tk_router_new refuses
 * (disconnected ones).  Only the load engines may be used with it. */
tk_status_t tk_router_bare(const tk_graph_t *g, const tk_route_spec_t *spec, tk_router_t **out,
                           tk_error_t *err);

#endif /* TK_ROUTE_LOAD_H */
