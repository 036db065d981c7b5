/*
 * load_internal.h - the counting engines of tk_load_compute on a bare graph
 * (not installed).  The unit tests call them directly; tk_load_compute
 * dispatches to them from the router's model.
 *
 * dem == NULL means the implicit switch-level all-to-all: srcw[s] (1 when
 * srcw == NULL) from every switch s to every other switch.  arcload gets m
 * entries.  Deterministic whatever the thread count (see load.c).
 */
#ifndef TK_LOAD_INTERNAL_H
#define TK_LOAD_INTERNAL_H

#include "tk_load.h"

/* Path-uniform minimal routing (Brandes-style accumulation per source). */
tk_status_t tk_load_min_graph(const tk_graph_t *g, const tk_swdemand_t *dem, const double *srcw,
                              int threads, double *arcload, tk_error_t *err);
/* ECMP: even split over the shortest next hops, per destination. */
tk_status_t tk_load_ecmp_graph(const tk_graph_t *g, const tk_swdemand_t *dem, const double *srcw,
                               int threads, double *arcload, tk_error_t *err);
/* Valiant (mode TK_VALIANT_ALL or TK_VALIANT_EXCLUDE) with min segments:
 * min routing of the two segments' aggregate demands. */
tk_status_t tk_load_valiant_graph(const tk_graph_t *g, tk_valiant_mode_t mode,
                                  const tk_swdemand_t *dem, const double *srcw, int threads,
                                  double *arcload, tk_error_t *err);
/* allpath:H: all simple paths of at most h hops, even split per pair. */
tk_status_t tk_load_allpath_graph(const tk_graph_t *g, int32_t h, const tk_swdemand_t *dem,
                                  const double *srcw, int threads, double *arcload,
                                  tk_error_t *err);

#endif /* TK_LOAD_INTERNAL_H */
