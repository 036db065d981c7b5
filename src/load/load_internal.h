/*
 * load_internal.h - the pieces of src/load/ (not installed; hidden).
 */
#ifndef TK_LOAD_INTERNAL_H
#define TK_LOAD_INTERNAL_H

#include "tk_load.h"
#include "route/route_load.h"

/* The per-pair engine (generic.c): every demand through its paths. */
tk_status_t tk_load_generic_job(const tk_router_t *r, const tk_rows_t *rows, tk_load_job_t *job,
                                tk_error_t *err);

/* The loads of dem (or the all-to-all with srcw) under routing model
 * `model` (text form) on g, through a bare router (tk_router_bare): the
 * engines on graphs tk_router_new refuses.  For the unit tests. */
tk_status_t tk_load_graph(const tk_graph_t *g, const char *model, const tk_swdemand_t *dem,
                          const double *srcw, int threads, double *arcload, tk_error_t *err);

#endif /* TK_LOAD_INTERNAL_H */
