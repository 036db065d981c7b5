/*
 * chol_internal.h - sparse Cholesky factors: the interface of the CHOLMOD
 * glue (cholmod_glue.c, the only file that includes CHOLMOD's header; not
 * installed).  Each factor owns its own CHOLMOD workspace, with printing
 * and the error handler off, so there is no global state; CHOLMOD's status
 * codes become tk errors (TK_ENOMEM, TK_ELIMIT, else TK_EINTERNAL).
 */
#ifndef TK_CHOL_INTERNAL_H
#define TK_CHOL_INTERNAL_H

#include "tk_core.h"

struct tk_lap; /* spectral_internal.h */

/* ------------------------------------------------------------------------ */
/* The shifted Laplacian L + sigma I, for shift-invert Lanczos (spectral.c).
 * Messages start with "solver=cholmod: ". */
typedef struct tk_chol tk_chol_t;
/* Analyse: *lnz and *flops get CHOLMOD's estimates of the factor's
 * nonzeros and the factorisation's flop count. */
tk_status_t tk_chol_analyze(const struct tk_lap *l, double sigma, tk_chol_t **out, double *lnz,
                            double *flops, tk_error_t *err);
tk_status_t tk_chol_factor(tk_chol_t *c, tk_error_t *err);
/* x = (L + sigma I)^-1 b. */
tk_status_t tk_chol_solve(tk_chol_t *c, const double *b, double *x, tk_error_t *err);
/* X = (L + sigma I)^-1 B for k columns (n each, column-major). */
tk_status_t tk_chol_solve_block(tk_chol_t *c, const double *B, double *X, int k, tk_error_t *err);
void tk_chol_free(tk_chol_t *c);

/* ------------------------------------------------------------------------ */
/* Normal equations, for the barrier (src/mcf/mcf_ipm.c): a sparse nrow x
 * ncol matrix A in compressed columns, rows sorted within each column, and
 * the supernodal Cholesky factor of A A' + beta I, ordered once by AMD.
 * The caller writes A's pattern once (between tk_chol_aat_new and
 * tk_chol_aat_analyze) and its values before every factorisation.
 * Messages read "WHO: CHOLMOD WHAT failed (status S)". */
typedef struct tk_chol_aat tk_chol_aat_t;
/* Room for nzmax entries; who names the caller in messages (kept, not
 * copied). */
tk_status_t tk_chol_aat_new(int64_t nrow, int64_t ncol, int64_t nzmax, const char *who,
                            tk_chol_aat_t **out, tk_error_t *err);
/* A's arrays: column starts p (ncol + 1), row indices i and values x. */
void tk_chol_aat_arrays(tk_chol_aat_t *c, int **p, int **i, double **x);
/* Order and analyse A's pattern, now final (p[ncol] entries); *lnz gets
 * the factor's nonzeros.  Also allocates the right-hand side. */
tk_status_t tk_chol_aat_analyze(tk_chol_aat_t *c, double *lnz, tk_error_t *err);
/* Factor A A' + beta I with A's current values.  On failure *not_posdef
 * says whether the matrix was not positive definite (a larger beta may
 * help). */
tk_status_t tk_chol_aat_factor(tk_chol_aat_t *c, double beta, int *not_posdef, tk_error_t *err);
/* r = (A A' + beta I)^-1 r (nrow entries) with the last factor. */
tk_status_t tk_chol_aat_solve(tk_chol_aat_t *c, double *r, tk_error_t *err);
void tk_chol_aat_free(tk_chol_aat_t *c);

#endif /* TK_CHOL_INTERNAL_H */
