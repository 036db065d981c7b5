/*
 * tk_spectral.h - Laplacian spectrum and bisection bandwidth: algebraic
 * connectivity (lambda2), the Fiedler vector, the spectral lower bound on
 * the minimum bisection and a refined balanced cut as upper bound.
 */
#ifndef TK_SPECTRAL_H
#define TK_SPECTRAL_H

#include "tk_core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Eigen-solvers for the second-smallest Laplacian eigenpair. */
typedef enum tk_eig_solver {
    TK_EIG_AUTO = 0, /* dense for n <= dense_max, else CHOLMOD when its factor
                        fits the budgets, else Lanczos                        */
    TK_EIG_DENSE,    /* GSL dense symmetric solver (all eigenpairs), O(n^3)   */
    TK_EIG_LANCZOS,  /* Lanczos, full reorthogonalisation, on L itself        */
    TK_EIG_CHOLMOD,  /* Lanczos on (L + sigma I)^-1 via a CHOLMOD factor      */
    TK_EIG_NONE      /* no solve (disconnected graph allowed: lambda2 = 0)    */
} tk_eig_solver_t;

/* Name of a solver: "auto", "dense", "lanczos", "cholmod", "none". */
TK_API const char *tk_eig_solver_name(tk_eig_solver_t s);

typedef struct tk_spectral_opts {
    tk_eig_solver_t solver; /* TK_EIG_AUTO or a forced solver              */
    uint64_t seed;          /* starting vectors and tie-breaks            */
    int threads;            /* reserved: the OpenMP runtime's thread count
                               is used (results never depend on it)       */
    double tol;             /* relative residual tolerance (0 = 1e-10)    */
    int64_t dense_max;      /* auto: largest n for the dense solver
                               (0 = 800)                                  */
    uint64_t mem_budget;    /* auto: largest CHOLMOD factor in bytes
                               (0 = 512 MiB)                              */
    double flop_budget;     /* auto: largest factorisation flop count
                               (0 = 2e11)                                 */
    int symmetrize;         /* directed input: each arc u->v is half a
                               link u-v of its capacity, so cuts are the
                               mean of the two directions                 */
    int allow_disconnected; /* disconnected: lambda2 = 0, no error        */
    int refine_passes;      /* most FM passes per candidate (0 = 20)      */
} tk_spectral_opts_t;

/* Result of tk_bisect.  Capacities weight everything: with unit
 * capacities cut = cut_links. */
typedef struct tk_bisect_result {
    int64_t n;
    int64_t links; /* links used (self-loops excluded; directed
                      input: arcs)                                  */
    int connected;
    double lambda2;         /* algebraic connectivity of the weighted L      */
    double lb;              /* lambda2 * floor(n/2) * ceil(n/2) / n          */
    double ub;              /* capacity of the best balanced cut found       */
    int64_t cut_links;      /* links crossing that cut (directed input: arcs
                               crossing in either direction)                 */
    int64_t multiplicity;   /* eigenvectors of lambda2 found (>= 1)          */
    int regular;            /* degree d if d-regular, unweighted, loop-free;
                               else -1                                       */
    double adj_lambda;      /* d - lambda2: second largest adjacency
                               eigenvalue (NAN unless regular)               */
    double ramanujan;       /* 2 sqrt(d-1) (NAN unless regular)              */
    tk_eig_solver_t solver; /* solver actually used                        */
    int iterations;         /* Lanczos iterations (0 for dense)              */
    double factor_nnz;      /* CHOLMOD's estimate of nnz(L factor) when the
                               analysis ran, else 0                          */
    double factor_flops;    /* CHOLMOD's flop count of the factorisation when
                               the analysis ran, else 0                      */
    int8_t *side;           /* n entries, 0/1: the cut (caller frees with
                               tk_bisect_result_destroy)                     */
} tk_bisect_result_t;

/* Second-smallest eigenpair of the (capacity-weighted) Laplacian of an
 * undirected graph (or of a directed one with opts->symmetrize).
 * lambda2 gets the eigenvalue; vec (n doubles, may be NULL) a unit
 * eigenvector orthogonal to the constant vector; *used the solver used.
 * Errors: TK_EINVAL (n < 2), TK_EUNSUPPORTED (directed without symmetrize),
 * TK_EDISCONNECTED (unless allowed), TK_ELIMIT (dense solver forced on a
 * graph too large for memory), TK_EINTERNAL (no convergence).
 * Time: dense O(n^3); Lanczos O(k (m + k n)) for k iterations; CHOLMOD
 * the factorisation plus O(k (nnz(factor) + k n)).  Memory: dense 2 n^2
 * doubles, Lanczos k n doubles, CHOLMOD the factor. */
TK_API tk_status_t tk_laplacian_lambda2(const tk_graph_t *g, const tk_spectral_opts_t *opts,
                                        double *lambda2, double *vec, tk_eig_solver_t *used,
                                        tk_error_t *err);

/* Bisection bandwidth bounds: lb = lambda2 * floor(n/2) * ceil(n/2) / n
 * (a bisection has sides of floor(n/2) and ceil(n/2) switches) and ub the
 * capacity of a balanced cut: median split of the Fiedler vector (rotated
 * inside a repeated eigenvalue's eigenspace to kurtosis-extremal directions
 * when several eigenvectors are known), refined by Fiduccia-Mattheyses
 * passes that keep the balance.  Deterministic for a given seed whatever
 * the thread count.  Errors as tk_laplacian_lambda2.  Free `out` with
 * tk_bisect_result_destroy (also after an error).
 * Time: the eigen-solve plus O(passes * m log n) per candidate cut. */
TK_API tk_status_t tk_bisect(const tk_graph_t *g, const tk_spectral_opts_t *opts,
                             tk_bisect_result_t *out, tk_error_t *err);
TK_API void tk_bisect_result_destroy(tk_bisect_result_t *r);

#ifdef __cplusplus
}
#endif

#endif /* TK_SPECTRAL_H */
