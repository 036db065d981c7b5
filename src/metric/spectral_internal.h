/*
 * spectral_internal.h - shared by spectral.c, bisect.c and cholmod_glue.c
 * (not installed).  The Cholesky factors of shift-invert: chol_internal.h.
 */
#ifndef TK_SPECTRAL_INTERNAL_H
#define TK_SPECTRAL_INTERNAL_H

#include "tk_spectral.h"

/* Weighted adjacency of the undirected (multi)graph behind the Laplacian:
 * CSR with sorted, merged columns, no self-loops.  deg[v] is the weighted
 * degree (the Laplacian's diagonal); L = diag(deg) - W. */
typedef struct tk_lap {
    int64_t n;
    int64_t *off;  /* n+1 */
    int32_t *col;  /* off[n] */
    double *w;     /* off[n] */
    double *deg;   /* n */
    int64_t links; /* links used (loops excluded, parallel links counted) */
    double maxdeg; /* largest weighted degree */
} tk_lap_t;

tk_status_t tk_lap_build(const tk_graph_t *g, int symmetrize, tk_lap_t **out, tk_error_t *err);
void tk_lap_free(tk_lap_t *l);
/* y = L x (rows in parallel: deterministic). */
void tk_lap_mul(const tk_lap_t *l, const double *x, double *y);

/* Connected components: returns their number; order (n entries, may be
 * NULL) gets the switches in BFS order, component after component. */
int64_t tk_lap_components(const tk_lap_t *l, int32_t *order);

/* Largest multiplicity of lambda2 searched for. */
#define TK_SPEC_MAXMULT 8

/* Fiedler eigenpairs: lambda2, and `*mult` (1..TK_SPEC_MAXMULT) orthonormal
 * eigenvectors of it in vecs (n * TK_SPEC_MAXMULT doubles, column-major,
 * caller-allocated), followed (dense solver) by eigenvectors of the next
 * eigenvalues: *nvec >= *mult columns in all. */
tk_status_t tk_spec_fiedler(const tk_lap_t *l, const tk_spectral_opts_t *o, double *lambda2,
                            double *vecs, int *mult, int *nvec, tk_eig_solver_t *used, int *iters,
                            double *factor_nnz, double *factor_flops, tk_error_t *err);

#endif
