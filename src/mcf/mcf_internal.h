/*
 * mcf_internal.h - internals of the maximum concurrent flow module (not
 * installed): the LP hand-off to the GLPK glue and the approximation.
 */
#ifndef TK_MCF_INTERNAL_H
#define TK_MCF_INTERNAL_H

#include "tk_mcf.h"

/* A maximisation LP in the shape every topo-mcf formulation has:
 * column 1 is theta (objective coefficient 1, 0 <= theta <= theta_ub),
 * columns 2..ncols are flows >= 0; rows 1..nfixed are equalities = 0, rows
 * nfixed+1..nrows are capacities <= ub[row - nfixed - 1].  The matrix is
 * given as GLPK triplets, 1-based, entries 1..nnz (index 0 unused). */
typedef struct mcf_lp {
    int nrows, ncols, nfixed;
    const double *ub;
    double theta_ub; /* HUGE_VAL: none */
    int nnz;
    const int *ia, *ja;
    const double *ar;
} mcf_lp_t;

/* New columns from a pricer: column j has entries row[colptr[j] ..
 * colptr[j+1]-1] (1-based row numbers) with values val[...]; all are flows
 * >= 0 with objective 0.  The arrays belong to the pricer. */
typedef struct mcf_newcols {
    int64_t ncols;
    int64_t *colptr;
    int *row;
    double *val;
} mcf_newcols_t;
/* Column generation: given the row duals (dual[1..nrows]) of an optimal
 * restricted LP, return the columns to add (ncols = 0: optimal). */
typedef tk_status_t (*mcf_pricer_fn)(void *ctx, const double *dual, mcf_newcols_t *out,
                                     tk_error_t *err);

/* New capacity rows from a separator: row i has entries col[rowptr[i] ..
 * rowptr[i+1]-1] (1-based column numbers) with values val[...] and upper
 * bound ub[i] (lower bound none).  The arrays belong to the separator. */
typedef struct mcf_newrows {
    int64_t nrows;
    int64_t *rowptr;
    int *col;
    double *val;
    double *ub;
} mcf_newrows_t;
/* Row generation: given the column values (x[1..ncols]) of an optimal
 * restricted LP, return the constraints it violates among those left out
 * (nrows = 0: the solution satisfies them all, so it is optimal for the
 * whole LP). */
typedef tk_status_t (*mcf_separator_fn)(void *ctx, const double *x, int ncols, mcf_newrows_t *out,
                                        tk_error_t *err);

/* Solve with GLPK's simplex.  On success *theta is the optimum; dual (may
 * be NULL) receives the dual prices of the capacity rows, act (may be NULL)
 * their activities, for every capacity row at the end (lp's first, then
 * those sep added, in order: the arrays need room for all).  pricer
 * (column generation) or sep (row generation), one or neither, runs after
 * every optimal solve until it adds nothing; *rounds counts the
 * solves after the first.  *iters receives the simplex iteration count.
 * test_error is the unit tests' seam (tests/unit/test_mcf.c), 0 everywhere
 * else: nonzero makes GLPK fail inside the solve (a column bound out of
 * range), which must come back as TK_EINTERNAL and leave GLPK usable.
 * Errors: TK_ELIMIT (time limit), TK_EINTERNAL (GLPK failure or a status
 * other than optimal), TK_ENOMEM. */
tk_status_t mcf_glpk_solve(const mcf_lp_t *lp, double time_limit, int test_error,
                           mcf_pricer_fn pricer, void *pctx, mcf_separator_fn sep, void *sctx,
                           double *theta, double *dual, double *act, int64_t *iters,
                           int64_t *rounds, tk_error_t *err);

/* The certified approximation (mcf_approx.c). */
tk_status_t mcf_approx(const tk_graph_t *g, const tk_swdemand_t *d, const tk_mcf_opts_t *o,
                       tk_mcf_result_t *out, tk_error_t *err);

/* Weak duality: for arc lengths len >= 0 (negatives read as 0),
 * *ub = sum_a len(a) cap(a) / sum_st d(s,t) dist_len(s,t) bounds theta from
 * above (HUGE_VAL when the denominator is 0).  n Dijkstra runs. */
tk_status_t mcf_dual_bound(const tk_graph_t *g, const tk_swdemand_t *d, const double *len,
                           double *ub, tk_error_t *err);

/* The barrier (mcf_ipm.c): the unrestricted LP by a primal-dual interior
 * point method on each source's shortest-path DAG, certified by a rebuilt
 * feasible flow and the dual bound over all arcs.  *certified = 1 when
 * they meet within MCF_IPM_GAP (out is then filled: theta, upper, gap);
 * 0 when the caller must run the simplex instead. */
#define MCF_IPM_GAP 1e-9
tk_status_t mcf_barrier(const tk_graph_t *g, const tk_swdemand_t *d, const tk_mcf_opts_t *o,
                        int *certified, tk_mcf_result_t *out, tk_error_t *err);

/* The path LP's columns for the barrier: column j has entries ptr[j] ..
 * ptr[j+1]-1 of row/val, the first its pair's row (1..npairs, value 1),
 * then capacity rows npairs + 1 + arc in ascending arc order (value d *
 * multiplicity); columns come in nondecreasing pair order and every pair
 * has one. */
typedef struct mcf_pathlp {
    int64_t npairs, ncols;
    const int64_t *ptr;
    const int *row;
    const double *val;
} mcf_pathlp_t;

/* The path LP by the barrier (mcf_ipm.c), certified by a flow over the
 * paths and the weak-duality bound of the capacity duals over the path
 * sets; *certified as for mcf_barrier (theta not capped by servers).
 * Not certified: out->theta and out->upper hold the best bounds met (0 and
 * inf when none), and support (ncols, may be NULL) marks the paths of the
 * best lower bound's flow, those the last duals do not price out. */
tk_status_t mcf_barrier_paths(const tk_graph_t *g, const mcf_pathlp_t *L, const tk_mcf_opts_t *o,
                              int *certified, uint8_t *support, tk_mcf_result_t *out,
                              tk_error_t *err);

/* Cap a certified barrier result at the server limit tcap (flows scale,
 * so the capped optimum is min(tcap, the uncapped optimum)). */
void mcf_cap_theta(tk_mcf_result_t *out, double tcap);

/* Wall clock in seconds (monotonic). */
double mcf_now(void);

/* Shared by mcf.c and mcf_paths.c. */
double mcf_server_cap(const tk_swdemand_t *d, const tk_mcf_opts_t *o);
tk_status_t mcf_check_inputs(const tk_graph_t *g, const tk_swdemand_t *d, const tk_mcf_opts_t *o,
                             tk_error_t *err);
int mcf_has_network_demand(const tk_swdemand_t *d);
tk_status_t mcf_unreachable_demand(const tk_graph_t *g, const tk_swdemand_t *d, int *bad,
                                   tk_error_t *err);

/* An LP's triplet arrays under construction (1-based). */
typedef struct mcf_lpbuf {
    int *ia, *ja;
    double *ar;
    double *ub;
    int64_t nnz, cap;
} mcf_lpbuf_t;

void mcf_lpbuf_free(mcf_lpbuf_t *b);
/* Allocate for nnz entries and ncap capacity rows; TK_ELIMIT beyond
 * mem_limit (an estimate of GLPK's own copies included). */
tk_status_t mcf_lpbuf_alloc(mcf_lpbuf_t *b, int64_t nnz, int64_t ncap, uint64_t mem_limit,
                            tk_error_t *err);
static inline void mcf_lp_put(mcf_lpbuf_t *b, int64_t row, int64_t col, double v)
{
    b->nnz++;
    b->ia[b->nnz] = (int)row;
    b->ja[b->nnz] = (int)col;
    b->ar[b->nnz] = v;
}
/* Solve the LP in b (rows 1..nfixed equalities, then one capacity row per
 * arc of g, or with rowof the rows it lists), fill out (theta, links).
 * tcap: the server cap on theta; tbound: a valid upper bound on the LP's
 * optimum (weak duality), given to GLPK as theta's bound with a relative
 * margin of 1e-9 so that rounding never cuts the optimum off (HUGE_VAL:
 * none).  A finite bound on theta cuts GLPK's dual simplex iterations on
 * the path LP by about a quarter.  With --links the bound is 2 tbound
 * instead when sep is given (it keeps the restricted LPs of row generation
 * bounded and never binds at the optimum, so the capacities keep their
 * prices), none otherwise.  rowof (m entries, or NULL for row a = arc a):
 * the arc's capacity row, 1 = the first, 0 = none; sep adds rows and
 * fills rowof as it goes, and an arc without a row has dual price 0 (the
 * restricted LP's optimal duals, extended by zeros, are the whole LP's). */
tk_status_t mcf_solve_lp(const tk_graph_t *g, mcf_lpbuf_t *b, int nrows, int ncols, int nfixed,
                         double tcap, double tbound, mcf_pricer_fn pricer, void *pctx,
                         mcf_separator_fn sep, void *sctx, const int *rowof, const tk_mcf_opts_t *o,
                         tk_mcf_result_t *out, tk_error_t *err);

#endif /* TK_MCF_INTERNAL_H */
